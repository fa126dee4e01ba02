"""Speed of the manipulation-rummy table solver (``shanghai.table_solver``) on realistic positions.

``python benchmarks/bench_table.py [--quick] [--json FILE]``. The corpus is made afresh from a fixed
seed: games of 3 to 6 players (two decks, three for six) dealt 10 cards each, where a player places
the solver's best play or else draws a card (in some games players pass up plays, so hands and tables
grow); every position met (the table's melds, the hand) is kept: tables of 0 to 30 melds and hands of
1 to 40 cards. Each position is timed in CPU time of this process
(``time.process_time``: other processes on a shared machine do not count) for ``best_play``,
``can_place`` and ``placeable_cards``; prints median, p99 and worst in ms, with the machine and Python.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from bench import machine, percentile  # noqa: E402

from shanghai.cards import Card, make_pack  # noqa: E402
from shanghai.table_solver import Meld, best_play, can_place, placeable_cards  # noqa: E402

Position = tuple[tuple[Meld, ...], tuple[Card, ...]]


def corpus(games: int, seed: int = 2026) -> list[Position]:
    """Positions from played games: each turn's table and the hand of the player in turn."""
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(games):
        players = rng.choice((3, 4, 4, 5, 6))
        stock = make_pack(3 if players >= 6 else 2, 0)
        rng.shuffle(stock)
        hands = [[stock.pop() for _ in range(10)] for _ in range(players)]
        table: tuple[Meld, ...] = ()
        turn = 0
        eager = rng.choice((1.0, 0.5, 0.2))  # how often a player plays when able: slow players grow big hands
        while stock and all(hands) and turn < 400:
            hand = hands[turn % players]
            out.append((table, tuple(hand)))
            play = best_play(table, hand) if rng.random() < eager else None
            if play is not None and play.placed:
                table = play.table
                for card in play.placed:
                    hand.remove(card)
            else:
                hand.append(stock.pop())
            turn += 1
    return out


def timed(call: Callable[[], object]) -> float:
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def figures(ms: list[float]) -> dict[str, Any]:
    if not ms:
        return {"n": 0}
    return {"n": len(ms), "median_ms": round(statistics.median(ms), 3), "p99_ms": round(percentile(ms, 0.99), 3),
            "max_ms": round(max(ms), 3), "mean_ms": round(statistics.fmean(ms), 3)}


def bench(positions: list[Position]) -> dict[str, Any]:
    rows = []
    for table, hand in positions:
        cards = [c for m in table for c in m]
        rows.append({"melds": len(table), "hand": len(hand),
                     "best_play": timed(partial(best_play, table, hand)),
                     "best_play_flat": timed(partial(best_play, cards, hand, keep_table=False)),
                     "can_place": timed(partial(can_place, table, hand)),
                     "placeable_cards": timed(partial(placeable_cards, table, hand))})
    out: dict[str, Any] = {}
    groups: dict[str, Callable[[dict[str, Any]], bool]] = {
        "all": lambda r: True,
        "hand 8-12, table 8-20 melds (mid-game)": lambda r: 8 <= r["hand"] <= 12 and 8 <= r["melds"] <= 20,
        "hand 20+": lambda r: r["hand"] >= 20,
        "table 20+ melds": lambda r: r["melds"] >= 20,
    }
    for name, keep in groups.items():
        chosen = [r for r in rows if keep(r)]
        out[name] = {what: figures([r[what] for r in chosen])
                     for what in ("best_play", "best_play_flat", "can_place", "placeable_cards")}
    out["corpus"] = {"positions": len(rows), "max_melds": max(r["melds"] for r in rows),
                     "max_hand": max(r["hand"] for r in rows)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smaller corpus")
    parser.add_argument("--games", type=int, default=0, help="games to draw positions from")
    parser.add_argument("--json", default="", help="also write the figures as JSON to this file ('-': stdout)")
    args = parser.parse_args(argv)
    games = args.games or (4 if args.quick else 16)
    start = time.perf_counter()
    positions = corpus(games)
    made = time.perf_counter() - start
    result = {"machine": machine(), "games": games, "corpus_seconds": round(made, 2), **bench(positions)}
    print(f"table solver on {result['machine']['cpu']} ({result['machine']['cores']} cores), "
          f"Python {result['machine']['python']} {result['machine']['implementation']}")
    print(f"{result['corpus']['positions']} positions from {games} games (tables up to "
          f"{result['corpus']['max_melds']} melds, hands up to {result['corpus']['max_hand']} cards)")
    for name, value in result.items():
        if isinstance(value, dict) and "best_play" in value:
            print(f"  {name}:")
            for what, fig in value.items():
                if fig["n"]:
                    print(f"    {what:16} n={fig['n']:4}  median {fig['median_ms']:8.3f} ms  "
                          f"p99 {fig['p99_ms']:8.3f} ms  max {fig['max_ms']:8.3f} ms")
    if args.json == "-":
        print(json.dumps(result, indent=2))
    elif args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
