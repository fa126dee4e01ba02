"""How far is 40%? The expert player made clairvoyant, one cheat at a time, against three greedy.

The issue's goal is an expert that wins 40% of isra games against three greedy players. To see how
much of that can come from better decisions at all, this script gives the expert hidden cards to
look at, which no player of the product ever sees (they decide from their ``PlayerView``):

* ``draw``: at the take-or-draw choice it sees the top card of the stock and takes whichever of it
  and the discard adds more to its contract (once down: which one plays on the table);
* ``buy``: at a buy it sees the two penalty cards and buys when the three cards together add at
  least two cards to its contract, or add one and the expert would have bought anyway;
* ``both``: the two together;
* ``all``: both, and it also sees the other hands: before going down, a discard that would help an
  opponent (more contract progress, or a card that plays on the table for one who is down) is
  swapped for one that helps nobody and costs its own contract nothing, where there is one;
* ``none``: no cheat: the games are exactly those of ``shanghai tournament --seats
  expert,greedy,greedy,greedy`` with the same seed (a test checks this).

Each deal is played four times, the clairvoyant in every seat, as the tournament does::

    python examples/clairvoyant.py --peek both --games 1000 --seed 300001 --workers 2

It prints the clairvoyant's wins (ties share) with a Wilson interval and its paired per-deal score
difference against the greedy players (negative: it scores less, i.e. better).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from multiprocessing import Pool

from shanghai.bots.expert import ExpertPlayer
from shanghai.bots.greedy import GreedyPlayer, contract_progress, fits_table
from shanghai.cards import Card
from shanghai.engine.actions import Action, Buy, Discard, DrawStock, Pass, TakeDiscard
from shanghai.engine.game import Game, Phase
from shanghai.engine.view import PlayerView, view
from shanghai.rules import preset
from shanghai.stats import paired_difference, wilson_interval
from shanghai.tournament.runner import deal_seed, entrant_at, tournament_seat_seed

PEEKS = ("none", "draw", "buy", "both", "all")
PLAYERS = 4


class Clairvoyant(ExpertPlayer):
    """The expert, overruled where the hidden cards of ``game`` show a better choice (a cheat)."""

    def __init__(self, seed: int, peek: str, game: Game) -> None:
        super().__init__(seed)
        self.peek = peek
        self.game = game

    def choose(self, v: PlayerView) -> Action:
        action = super().choose(v)  # always asked, so the expert's memory stays as in a fair game
        seat = v.seat
        assert seat is not None
        g, wilds = self.game, v.rules.wild_cards()
        contract = v.rules.contract(v.round_number)

        def progress(cards: Sequence[Card]) -> int:
            return contract_progress(cards, contract.sets, contract.runs, wilds)

        hand = list(v.hand)
        if v.phase == Phase.DRAW and self.peek in ("draw", "both", "all"):
            take = [a for a in v.legal if isinstance(a, TakeDiscard)]
            draw = [a for a in v.legal if isinstance(a, DrawStock)]
            if take and draw and g.stock and v.discard_top is not None:
                pile, stock = v.discard_top, g.stock[-1]
                if v.down[seat]:
                    good = (fits_table(pile, v.table, wilds), fits_table(stock, v.table, wilds))
                else:
                    good = (progress([*hand, pile]) > progress([*hand, stock]),
                            progress([*hand, stock]) > progress([*hand, pile]))
                if good[0] != good[1]:
                    return take[0] if good[0] else draw[0]
        elif v.phase == Phase.BUY and self.peek in ("buy", "both", "all") and not v.down[seat]:
            buy = [a for a in v.legal if isinstance(a, Buy)]
            if buy and len(g.stock) >= 2 and v.discard_top is not None:
                gain = progress([*hand, v.discard_top, g.stock[-1], g.stock[-2]]) - progress(hand)
                if gain >= 2 or (gain >= 1 and isinstance(action, Buy)):
                    return buy[0]
                return next(a for a in v.legal if isinstance(a, Pass))
        elif (v.phase == Phase.PLAY and self.peek == "all" and isinstance(action, Discard)
              and not v.down[seat]):

            def helps(card: Card) -> bool:
                for other in range(v.players):
                    if other == seat:
                        continue
                    if g.down[other]:
                        if fits_table(card, v.table, wilds):
                            return True
                    elif progress([*g.hands[other], card]) > progress(g.hands[other]):
                        return True
                return False

            if helps(action.card):
                base = progress(hand)
                for a in v.legal:
                    if isinstance(a, Discard) and a.card != action.card and a.card not in wilds:
                        rest = list(hand)
                        rest.remove(a.card)
                        if progress(rest) == base and not helps(a.card):
                            return a
        return action


def play_deal(args: tuple[str, int, int]) -> list[tuple[float, int, float]]:
    """The four rotations of one deal: (the clairvoyant's win share, its score, greedy's mean)."""
    peek, seed, deal = args
    rules = preset("isra")
    out = []
    for rotation in range(PLAYERS):
        game = Game.new(rules, PLAYERS, deal_seed(seed, deal))
        players: list[ExpertPlayer | GreedyPlayer] = []
        for seat in range(PLAYERS):
            player_seed = tournament_seat_seed(seed, deal, seat)
            if entrant_at(seat, rotation, PLAYERS) == 0:
                me = seat
                players.append(Clairvoyant(player_seed, peek, game))
            else:
                players.append(GreedyPlayer(player_seed))
        while not game.is_over:
            seat = game.to_act()[0]
            game.apply(players[seat].choose(view(game, seat)))
        winners = game.winners()
        others = [game.totals[s] for s in range(PLAYERS) if s != me]
        out.append((1.0 / len(winners) if me in winners else 0.0, game.totals[me], sum(others) / len(others)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--peek", choices=PEEKS, default="both", help="what the expert may see")
    parser.add_argument("--games", type=int, default=1000, help="games, a multiple of 4 (default 1000)")
    parser.add_argument("--seed", type=int, default=300001, help="deal d is dealt from seed S+d")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    if args.games < PLAYERS or args.games % PLAYERS:
        print(f"clairvoyant: --games must be a positive multiple of {PLAYERS}, not {args.games}",
              file=sys.stderr)
        return 2
    if args.workers < 1:
        print(f"clairvoyant: --workers must be at least 1, not {args.workers}", file=sys.stderr)
        return 2
    tasks = [(args.peek, args.seed, deal) for deal in range(args.games // PLAYERS)]
    if args.workers == 1:
        deals = [play_deal(t) for t in tasks]
    else:
        with Pool(args.workers) as pool:
            deals = pool.map(play_deal, tasks, chunksize=1)
    games = [g for d in deals for g in d]
    wins = sum(g[0] for g in games)
    lo, hi = wilson_interval(wins, len(games))
    diff = paired_difference([sum(g[1] for g in d) / PLAYERS for d in deals],
                             [sum(g[2] for g in d) / PLAYERS for d in deals])
    ci = f"[{diff.ci[0]:+.1f}, {diff.ci[1]:+.1f}]" if diff.ci else "(one deal: no interval)"
    print(f"peek {args.peek}: {len(games)} games, seed {args.seed}")
    print(f"clairvoyant expert wins {wins:g} of {len(games)} ({wins / len(games):.1%}, "
          f"Wilson 95%: {lo:.1%}-{hi:.1%})")
    print(f"paired difference against greedy: {diff.mean:+.1f} {ci} points a game over {diff.n} deals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
