"""``shanghai replay``: play a game record back, checking every action, and summarise it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from shanghai.cli.common import EXIT_NO, EXIT_OK, CliError
from shanghai.engine.game import RoundResult
from shanghai.engine.games import AnyGame
from shanghai.engine.manipulation import HandResult, ManipulationGame
from shanghai.engine.record import GameRecord
from shanghai.errors import RecordError


def round_line(result: RoundResult, names: Sequence[str]) -> str:
    """One round in a line: contract, who went out, points per seat, THE CUT, slam, blind bonus."""
    who = f"{names[result.went_out]} went out" if result.went_out is not None else \
        "nobody went out (the stock ran out)"
    points = ", ".join(f"{names[s]} {p}" for s, p in enumerate(result.points))
    parts = [f"Round {result.number} ({result.contract}): {who}; points: {points}"]
    if result.cut is not None and result.cut.made:
        parts.append(f"THE CUT made by {names[result.cut.cutter]} ({result.cut.actual} cards)")
    if result.slam:
        parts.append(result.slam.upper())
    if result.blind_bonus:
        parts.append(f"went out blind: {result.blind_bonus} points off")
    return "; ".join(parts)


def hand_line(result: HandResult, names: Sequence[str]) -> str:
    """One hand of manipulation rummy in a line: who went out (or blocked) and the points."""
    who = f"{names[result.went_out]} went out" if result.went_out is not None else \
        "blocked (the stock is empty and nobody could meld)"
    points = ", ".join(f"{names[s]} {p}" for s, p in enumerate(result.points))
    return f"Hand {result.number}: {who}; points: {points}"


def manipulation_summary(game: ManipulationGame, names: Sequence[str], *, quiet: bool = False) -> list[str]:
    """The hands (unless ``quiet``), the totals, the loser(s) and the winner(s)."""
    lines = [] if quiet else [hand_line(r, names) for r in game.hand_results]
    totals = ", ".join(f"{names[s]} {t}" for s, t in enumerate(game.totals))
    if not game.is_over:
        lines.append(f"The record stops in hand {game.hand_number}: the game is not over.")
        lines.append(f"Totals so far: {totals}")
        return lines
    lines.append(f"Totals: {totals}")
    losers = game.losers()
    lines.append(f"Reached {game.rules.target_score}: {', '.join(names[s] for s in losers)} with "
                 f"{game.totals[losers[0]]}")
    winners = game.winners()
    label = "Winner" if len(winners) == 1 else "Winners (tied)"
    lines.append(f"{label}: {', '.join(names[s] for s in winners)} with {game.totals[winners[0]]}")
    return lines


def summary(game: AnyGame, names: Sequence[str], *, quiet: bool = False) -> list[str]:
    """The rounds (unless ``quiet``), the totals and the winner(s) of a replayed game."""
    if isinstance(game, ManipulationGame):
        return manipulation_summary(game, names, quiet=quiet)
    lines = [] if quiet else [round_line(r, names) for r in game.round_results]
    totals = ", ".join(f"{names[s]} {t}" for s, t in enumerate(game.totals))
    if not game.is_over:
        lines.append(f"The record stops in round {game.round_number}: the game is not over.")
        lines.append(f"Totals so far: {totals}")
        return lines
    lines.append(f"Totals: {totals}")
    winners = game.winners()
    best = game.totals[winners[0]]
    label = "Winner" if len(winners) == 1 else "Winners (tied)"
    lines.append(f"{label}: {', '.join(names[s] for s in winners)} with {best}")
    dunce = game.dunce()
    if dunce and len(dunce) < game.players:
        lines.append(f"Dunce cap: {', '.join(names[s] for s in dunce)} with {game.totals[dunce[0]]}")
    return lines


def load_record(path: str) -> GameRecord:
    """The game record in ``path``; ``CliError`` (exit 2) saying why when it cannot be read."""
    try:
        record = GameRecord.load(path)
    except OSError as exc:
        raise CliError(f"cannot read {path!r}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise CliError(f"cannot read {path!r}: not UTF-8 text ({exc.reason})") from exc
    except RecordError as exc:
        raise CliError(f"{path}: not a readable game record: {exc}") from exc
    if record.cut_off is not None:
        print(f"shanghai: {path}: line {record.cut_off}, the last, was cut off in the middle (as when the "
              f"program writing it stopped): it is left out", file=sys.stderr)
    return record


def run_replay(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """Run ``shanghai replay FILE``: exit 0 when every action is legal, 1 when the record holds an
    illegal action (or ends with other totals), 2 when the file cannot be read."""
    stdout = stdout or sys.stdout
    path: str = args.file
    record = load_record(path)
    rules_name = record.rules.name
    try:
        game = record.replay()
    except RecordError as exc:
        raise CliError(f"{path}: {exc}", code=EXIT_NO) from exc
    names = record.players
    if not args.quiet:
        opts = f" ({', '.join(record.rules.options)})" if record.rules.options else ""
        stdout.write(f"{path}: {rules_name}{opts}, {len(names)} players ({', '.join(names)}), "
                     f"seed {record.seed}, {len(record.actions)} actions\n")
    for line in summary(game, names, quiet=args.quiet):
        stdout.write(line + "\n")
    return EXIT_OK


def add_replay_parser(sub: Any) -> None:
    p = sub.add_parser(
        "replay", help="replay a game record, checking every action, and summarise it",
        description="Reads a game record (JSON lines: a header, then one action per line), plays it "
                    "back through the rules engine and prints each round (contract, who went out, "
                    "points per seat, THE CUT, slam) and the final totals and winner(s).",
        epilog="Exit status: 0 the record is legal, 1 an action is illegal (its index and the reason "
               "are printed) or the final totals differ, 2 the file cannot be read.")
    p.add_argument("file", metavar="FILE", help="a record written by 'shanghai simulate --record-dir' "
                                                "or by the game")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the totals and winner(s)")
