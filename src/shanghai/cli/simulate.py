"""``shanghai simulate``: whole games between random players, for speed and robustness.

The game loop is ``shanghai.bots.match.play_game``: every seat is a ``RandomPlayer`` with its own
seed derived from the game's seed, each choosing from its own view.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from shanghai.bots.match import GameStuckError, play_game
from shanghai.cli.common import EXIT_OK, CliError, load_rules
from shanghai.engine.manipulation import ManipulationGame
from shanghai.engine.record import GameRecord
from shanghai.errors import InconsistentRulesError, ShanghaiError
from shanghai.rules import AnyRules


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a simulation started with ``seed``."""
    return seed + index


@dataclass
class SimulationResult:
    rules: AnyRules
    players: int
    seed: int
    games: int = 0
    rounds: int = 0
    dead_rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    records: list[Path] = field(default_factory=list)

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "rounds": self.rounds,
            "actions": self.actions,
            "seconds": round(self.seconds, 6),
            "rounds_per_s": round(self.rounds_per_s, 3),
            "actions_per_s": round(self.actions_per_s, 3),
            "rules": self.rules.name,
            "options": list(self.rules.options),
            "players": self.players,
            "seed": self.seed,
            "dead_rounds": self.dead_rounds,
            "python": platform.python_version(),
            "machine": platform.machine() or "unknown",
        }

    def text(self) -> str:
        opts = f" ({', '.join(self.rules.options)})" if self.rules.options else ""
        lines = [
            f"rules:         {self.rules.name}{opts}",
            f"players:       {self.players}",
            f"seed:          {self.seed}",
            f"games:         {self.games}",
            f"rounds:        {self.rounds} ({self.dead_rounds} ended with nobody out)",
            f"actions:       {self.actions}",
            f"seconds:       {self.seconds:.3f}",
            f"rounds/s:      {self.rounds_per_s:.1f}",
            f"actions/s:     {self.actions_per_s:.1f}",
        ]
        if self.records:
            lines.append(f"records:       {len(self.records)} in {self.records[0].parent}")
        return "\n".join(lines)


def simulate(rules: AnyRules, players: int, games: int, seed: int,
             record_dir: str | Path | None = None) -> SimulationResult:
    """Play ``games`` games (game ``i`` with seed ``seed + i``); the clock counts play only, not
    writing records."""
    rules.pack_for(players)  # a player count the rules do not allow: InconsistentRulesError
    result = SimulationResult(rules, players, seed)
    directory = Path(record_dir) if record_dir is not None else None
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        s = game_seed(seed, i)
        start = time.perf_counter()
        game = play_game(rules, players, s)
        result.seconds += time.perf_counter() - start
        result.games += 1
        # A manipulation hand is a round; a blocked one (nobody out) is a dead round.
        results = game.hand_results if isinstance(game, ManipulationGame) else game.round_results
        result.rounds += len(results)
        result.dead_rounds += sum(1 for r in results if r.went_out is None)
        result.actions += len(game.actions)
        if directory is not None:
            path = directory / f"game-{i}.jsonl"
            GameRecord.of(game).save(path)
            result.records.append(path)
    return result


def run_simulate(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """Run ``shanghai simulate`` from parsed arguments."""
    stdout = stdout or sys.stdout
    rules = load_rules(args.rules, args.option)
    players = args.players if args.players is not None else min(max(4, rules.min_players),
                                                                 rules.max_players)
    if args.games < 1:
        raise CliError(f"--games must be at least 1, not {args.games}")
    try:
        rules.pack_for(players)
    except InconsistentRulesError as exc:
        raise CliError(f"invalid player count {players}: {exc}") from exc
    try:
        result = simulate(rules, players, args.games, args.seed, args.record_dir)
    except OSError as exc:
        raise CliError(f"cannot write records to {args.record_dir!r}: {exc}") from exc
    except (ShanghaiError, GameStuckError) as exc:
        raise CliError(f"a simulated game failed (an engine bug): {exc}", code=1) from exc
    if args.json:
        stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        stdout.write(result.text() + "\n")
    return EXIT_OK


def add_simulate_parser(sub: Any, common: Any) -> None:
    p = sub.add_parser(
        "simulate", help="play whole games between random players and time them",
        description="Plays whole games with a random player in every seat (each seat's seed derived "
                    "from the game's seed; game i uses seed S + i) and prints games, rounds, actions, "
                    "seconds, rounds per second and actions per second.")
    common(p)
    p.add_argument("--players", "-p", type=int, metavar="N",
                   help="number of players (default 4, or the preset's nearest allowed count)")
    p.add_argument("--games", "-g", type=int, default=1, metavar="G", help="number of games (default 1)")
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S", help="seed of the first game (default 0)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: games, rounds, actions, seconds, rounds_per_s, "
                        "actions_per_s (and rules, options, players, seed, dead_rounds, python, machine)")
    p.add_argument("--record-dir", metavar="DIR",
                   help="save each game's record as DIR/game-<i>.jsonl (i from 0), for 'shanghai replay'")
