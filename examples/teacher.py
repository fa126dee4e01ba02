"""Can a search find what the expert misses against greedy players? The search told who it plays.

The issue's goal is an expert that wins 40% of isra games against three greedy players. "Points
before partners", the expert's largest single gain, was found by logging where the search player
left the expert's (then greedy's) choices. This script asks the search again, round by round, and
gives it every advantage a fair player can have against these opponents: its rollouts play the
other seats by greedy's rules (what they really are) and its own seat by the expert's, and it
searches every round, SET RUN RUN included (``whole_hand``). It still decides from its seat's view
and samples the cards it cannot see.

Each deal of one round is played eight times: four rotations with the expert in the rotating seat
and four with the search there, the other seats greedy, the same seeds for both (the expert's games
are those of ``shanghai tournament --rules isra --seats expert,greedy,greedy,greedy --rounds N``
with the same seed)::

    python examples/teacher.py --round 7 --games 600 --seed 4400001 --workers 2

It prints, for the expert and for the search, the lead over the greedy players (its points minus
their mean, per deal, negative: better), its own points and how often it went out; then the search
minus the expert on the same deals, and how many of the search's decisions left the expert's
choice. ``--rollout-turns 0`` plays every rollout to the end of the round (exact points instead of
the truncated evaluation; several times slower).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Mapping, Sequence
from multiprocessing import Pool

from shanghai.bots.expert import ExpertPlayer
from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.player import Player
from shanghai.bots.search import SearchPlayer
from shanghai.cards import Card
from shanghai.engine.actions import Action
from shanghai.engine.determinize import PublicRound
from shanghai.engine.game import Game
from shanghai.engine.view import PlayerView, view
from shanghai.rules import Rules, preset
from shanghai.stats import mean_ci, paired_difference
from shanghai.tournament.runner import deal_seed, entrant_at, tournament_seat_seed

PLAYERS = 4


class SeatPolicy:
    """A rollout player: the expert's rules in seat ``me``, greedy's everywhere else."""

    name = "seat-policy"

    def __init__(self, seed: int, me: int) -> None:
        self.seed = seed
        self.me = me
        self._expert: ExpertPlayer | None = None
        self._greedy: GreedyPlayer | None = None

    def choose(self, v: PlayerView) -> Action:
        if v.seat == self.me:
            if self._expert is None:
                self._expert = ExpertPlayer(self.seed)
            return self._expert.choose(v)
        if self._greedy is None:
            self._greedy = GreedyPlayer(self.seed)
        return self._greedy.choose(v)


class Teacher(SearchPlayer):
    """The search player with ``SeatPolicy`` rollouts, counting where it leaves the expert."""

    def __init__(self, seed: int, me: int, iterations: int, rollout_turns: int | None) -> None:
        super().__init__(seed, iterations=iterations, rollout=lambda s: SeatPolicy(s, me),
                         rollout_turns=rollout_turns, whole_hand=True)
        self.searched = 0
        self.changed = 0

    def _search(self, v: PlayerView, pub: PublicRound, cands: list[Action], rng: random.Random,
                anchor: Action | None = None,
                weights: Sequence[Mapping[Card, float]] | None = None) -> tuple[Action, float]:
        action, gain = super()._search(v, pub, cands, rng, anchor, weights)
        self.searched += 1
        self.changed += action != anchor
        return action, gain


def round_rules(number: int) -> Rules:
    """isra cut down to its round ``number`` (as ``shanghai tournament --rounds N`` does)."""
    rules = preset("isra")
    assert isinstance(rules, Rules)
    return rules.changed(rounds=(rules.rounds[number - 1],))


def play_deal(args: tuple[int, int, int, int, int | None]) -> list[tuple[str, float, float, bool, int, int]]:
    """One deal's eight games: (who, its points, the greedy players' mean, went out, decisions
    searched, decisions changed) for the expert's four rotations, then the search's."""
    number, seed, deal, iterations, rollout_turns = args
    rules = round_rules(number)
    out = []
    for who in ("expert", "search"):
        for rotation in range(PLAYERS):
            game = Game.new(rules, PLAYERS, deal_seed(seed, deal))
            players: list[Player] = []
            me = 0
            for seat in range(PLAYERS):
                player_seed = tournament_seat_seed(seed, deal, seat)
                if entrant_at(seat, rotation, PLAYERS) != 0:
                    players.append(GreedyPlayer(player_seed))
                    continue
                me = seat
                players.append(ExpertPlayer(player_seed) if who == "expert"
                               else Teacher(player_seed, seat, iterations, rollout_turns))
            while not game.is_over:
                seat = game.to_act()[0]
                game.apply(players[seat].choose(view(game, seat)))
            points = game.round_results[0].points
            others = [points[s] for s in range(PLAYERS) if s != me]
            teacher = players[me]
            searched, changed = ((teacher.searched, teacher.changed) if isinstance(teacher, Teacher)
                                 else (0, 0))
            out.append((who, float(points[me]), sum(others) / len(others), points[me] == 0, searched, changed))
    return out


def _interval(values: Sequence[float]) -> str:
    mean, ci = mean_ci(values)
    return f"{mean:+.2f} [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else f"{mean:+.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--round", type=int, default=7, help="isra's round, 1-7 (default 7)")
    parser.add_argument("--games", type=int, default=600, help="games of each player, a multiple of 4")
    parser.add_argument("--seed", type=int, default=4400001, help="deal d is dealt from seed S+d")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--iterations", type=int, default=8, help="the search's iterations (default 8)")
    parser.add_argument("--rollout-turns", type=int, default=None,
                        help="turns a rollout plays (default one a seat; 0: to the round's end)")
    args = parser.parse_args(argv)
    problems = []
    if not 1 <= args.round <= 7:
        problems.append(f"--round must be 1 to 7, not {args.round}")
    if args.games < PLAYERS or args.games % PLAYERS:
        problems.append(f"--games must be a positive multiple of {PLAYERS}, not {args.games}")
    if args.workers < 1:
        problems.append(f"--workers must be at least 1, not {args.workers}")
    if args.iterations < 1:
        problems.append(f"--iterations must be at least 1, not {args.iterations}")
    if args.rollout_turns is not None and args.rollout_turns < 0:
        problems.append(f"--rollout-turns must be 0 or more, not {args.rollout_turns}")
    if problems:
        for p in problems:
            print(f"teacher: {p}", file=sys.stderr)
        return 2
    turns = None if args.rollout_turns is None else (args.rollout_turns or 100_000)
    tasks = [(args.round, args.seed, deal, args.iterations, turns) for deal in range(args.games // PLAYERS)]
    if args.workers == 1:
        deals = [play_deal(t) for t in tasks]
    else:
        with Pool(args.workers) as pool:
            deals = pool.map(play_deal, tasks, chunksize=1)
    rollouts = ("one turn a seat" if args.rollout_turns is None
                else "to the round's end" if args.rollout_turns == 0 else f"{args.rollout_turns} turns")
    print(f"isra round {args.round}: {len(deals)} deals, {args.games} games each, seed {args.seed}, "
          f"{args.iterations} iterations, rollouts {rollouts}")
    lead: dict[str, list[float]] = {"expert": [], "search": []}
    own: dict[str, list[float]] = {"expert": [], "search": []}
    for games in deals:
        for who in lead:
            mine = [g for g in games if g[0] == who]
            lead[who].append(sum(g[1] - g[2] for g in mine) / len(mine))
            own[who].append(sum(g[1] for g in mine) / len(mine))
    for who in lead:
        mine = [g for games in deals for g in games if g[0] == who]
        outs = sum(g[3] for g in mine) / len(mine)
        print(f"{who:>6}: lead over greedy {_interval(lead[who])} points a round, its own points "
              f"{sum(own[who]) / len(own[who]):.2f}, went out in {outs:.1%}")
    d_lead = paired_difference(lead["search"], lead["expert"])
    d_own = paired_difference(own["search"], own["expert"])
    searched = sum(g[4] for games in deals for g in games)
    changed = sum(g[5] for games in deals for g in games)
    for name, d in (("lead", d_lead), ("own points", d_own)):
        ci = f"[{d.ci[0]:+.2f}, {d.ci[1]:+.2f}]" if d.ci else "(one deal: no interval)"
        print(f"search minus expert, {name}: {d.mean:+.2f} {ci} over {d.n} deals")
    print(f"the search left the expert's choice in {changed} of its {searched} searched decisions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
