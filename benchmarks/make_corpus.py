"""Generate the contract solver's corpus: ``benchmarks/data/solver_corpus.jsonl``.

``python benchmarks/make_corpus.py`` writes the same file every time (every hand comes from a seed
of its own, derived from a fixed text; nothing depends on timing). Each line is one JSON object::

    {"id": 0, "rules": "isra", "options": [], "round": 1, "cards": "7H 7S JK ...",
     "satisfied": true, "leftover_points": 25}

with the answer of ``solve_contract`` (``leftover_points`` is null when the contract is not met).

What is in it:

* every round of every preset that ``tests/test_solver.py`` checks: ``isra``, ``may-i``,
  ``may-i-10``, ``family-10``, ``contract-10``, and ``may-i`` with the options ``no-split``,
  ``aces-high`` and both; ``PER_ROUND`` hands a round;
* hands of 11 to 17 cards (never fewer than the contract needs), 0 to 4 wild cards (jokers; in the
  may-i presets black 2s too, and every black 2 there counts as one of those wilds), no more copies
  of a card than the largest pack of the preset holds (so ``contract-10``, whose largest pack has 2
  jokers, gets at most 2 jokers);
* hands built from random melds of the contract, with cards knocked out and noise added near them,
  so that many meet the contract or come close;
* ``HARD_PER_ROUND`` more hands of 15-17 cards with 2-4 wilds for the hardest contracts, 3 runs of 5
  (round 10) and 1 set + 1 run of 10 (round 8) of ``may-i-10``, ``contract-10`` and ``family-10``.

Hands that took the solver more than ``SLOW_SECONDS`` when the corpus was made are listed in
``EXCLUDED`` (by seed) and replaced by the next seed; run with ``--check-time`` to time every hand
and list any slow one again.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from shanghai.cards import JOKER, Card, card_text, make_card, sort_key  # noqa: E402
from shanghai.rules import preset  # noqa: E402
from shanghai.rules.model import Contract, Rules  # noqa: E402
from shanghai.solver import solve_contract  # noqa: E402

OUT = HERE / "data" / "solver_corpus.jsonl"
SEED = "shanghai-solver-corpus-v1"
PER_ROUND = 20
HARD_PER_ROUND = 36
HARD_ROUNDS = (8, 10)
HARD_PRESETS = ("may-i-10", "contract-10", "family-10")
SLOW_SECONDS = 2.0

CONFIGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("isra", ()),
    ("may-i", ()),
    ("may-i-10", ()),
    ("family-10", ()),
    ("contract-10", ()),
    ("may-i", ("no-split",)),
    ("may-i", ("aces-high",)),
    ("may-i", ("no-split", "aces-high")),
)

# Seeds of hands left out because the solver took more than SLOW_SECONDS on them (none so far).
EXCLUDED: frozenset[str] = frozenset()


def _limits(rules: Rules) -> tuple[int, int]:
    """Most copies of one natural card and most jokers in any pack of the rules."""
    return max(p.decks for p in rules.packs), max(p.jokers for p in rules.packs)


def _wild(rng: random.Random, rules: Rules) -> Card:
    if rules.wilds == "jokers-and-black-twos" and rng.random() < 0.4:
        return make_card(2, rng.choice((0, 3)))
    return JOKER


def make_hand(rng: random.Random, rules: Rules, contract: Contract, size: int, wilds: int,
              knock_out: int, tight: bool = False) -> list[Card]:
    """A hand of ``size`` cards with ``wilds`` wild cards, built from melds of the contract
    (``tight``: melds of about the contract's sizes, fewer decoys, runs mostly of
    different suits)."""
    decks, jokers = _limits(rules)
    suits = rng.sample(range(4), rng.choice((1, 2, 2, 3, 4)))
    cards: list[Card] = []
    melds = list(contract.melds)
    if rng.random() < (0.15 if tight else 0.3):  # a decoy: one more set or run, so that the solver has to choose
        melds.append(rng.choice(melds))
    run_suits: list[int] = []
    for req in melds:
        if rng.random() < 0.15:
            continue
        extra = rng.choice((0, 0, 0, 1) if tight else (0, 0, 0, 1, 1, 2, 3))
        if req.kind == "set":
            rank = rng.randint(1, 13)
            cards += [make_card(rank, rng.choice(suits) if rng.random() < 0.6 else rng.randrange(4))
                      for _ in range(req.min_size + extra)]
        else:
            n = min(13, req.min_size + extra)
            low = rng.randint(1, 15 - n)
            fresh = [s for s in range(4) if s not in run_suits]
            suit = rng.choice(fresh) if tight and fresh and rng.random() < 0.7 else rng.choice(suits)
            run_suits.append(suit)
            cards += [make_card(p, suit) for p in range(low, low + n)]
    rng.shuffle(cards)
    for _ in range(knock_out):
        if cards:
            cards.pop(rng.randrange(len(cards)))
    cards = [c for c in cards if not rules.is_wild(c)][:size - wilds]
    while len(cards) < size - wilds:
        if cards and rng.random() < 0.6:  # noise near a card already held
            near = rng.choice(cards)
            if rng.random() < 0.5:
                cards.append(make_card(near & 15, rng.randrange(4)))
            else:
                place = max(1, min(14, (near & 15) + rng.choice((-2, -1, 1, 2))))
                cards.append(make_card(place, near >> 4))
        else:
            cards.append(make_card(rng.randint(1, 13), rng.randrange(4)))
    for c, n in Counter(cards).items():  # no more copies than the packs hold, no wild here
        for _ in range(n - (0 if rules.is_wild(c) else decks)):
            cards.remove(c)
            while True:
                other = make_card(rng.randint(1, 13), rng.randrange(4))
                if cards.count(other) < decks and not rules.is_wild(other):
                    cards.append(other)
                    break
    for _ in range(wilds):
        while True:
            w = _wild(rng, rules)
            if cards.count(w) < (jokers if w == JOKER else decks):
                cards.append(w)
                break
    assert len(cards) == size
    return sorted(cards, key=sort_key)


def cases() -> list[tuple[str, str, tuple[str, ...], int, list[Card]]]:
    """(seed, preset, options, round, hand) of every corpus hand, in corpus order."""
    out: list[tuple[str, str, tuple[str, ...], int, list[Card]]] = []
    plan: list[tuple[str, tuple[str, ...], int, int, bool]] = []
    for name, options in CONFIGS:
        rules = preset(name, options)
        for rnd in range(1, len(rules.rounds) + 1):
            plan.append((name, options, rnd, PER_ROUND, False))
    for name in HARD_PRESETS:
        for rnd in HARD_ROUNDS:
            plan.append((name, (), rnd, HARD_PER_ROUND, True))
    for name, options, rnd, count, hard in plan:
        rules = preset(name, options)
        contract = rules.contract(rnd)
        _, jokers = _limits(rules)
        most_wilds = 4 if rules.wilds == "jokers-and-black-twos" else min(4, jokers)
        seen: set[tuple[Card, ...]] = set()
        k = 0
        made = 0
        while made < count:
            seed = f"{SEED}/{name}{'+' + '+'.join(options) if options else ''}/{rnd}/{'hard/' if hard else ''}{k}"
            k += 1
            rng = random.Random(seed)
            if hard:
                size = rng.randint(15, 17)
                wilds = rng.randint(2, most_wilds)
                knock_out = rng.choice((0, 0, 0, 1, 1, 2))
            else:
                size = rng.randint(max(11, contract.min_cards), 17)
                wilds = rng.choice((0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4))
                wilds = min(wilds, most_wilds)
                # the more cards to spare, the more are knocked out (a near miss, not a sure thing)
                spare = size - contract.min_cards
                knock_out = rng.choice((0, 1, 1, 2, 3)) + rng.randint(0, spare // 2)
            hand = make_hand(rng, rules, contract, size, wilds, knock_out, tight=hard)
            if seed in EXCLUDED or tuple(hand) in seen:
                continue
            seen.add(tuple(hand))
            out.append((seed, name, options, rnd, hand))
            made += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check-time", action="store_true",
                        help="report the solver's time per hand and any hand over SLOW_SECONDS")
    args = parser.parse_args()
    lines: list[str] = []
    times: list[tuple[float, str]] = []
    for i, (seed, name, options, rnd, hand) in enumerate(cases()):
        rules = preset(name, options)
        t0 = time.perf_counter()
        best = solve_contract(hand, rules.contract(rnd), rules)
        times.append((time.perf_counter() - t0, seed))
        record = {"id": i, "rules": name, "options": list(options), "round": rnd,
                  "cards": " ".join(card_text(c) for c in hand), "satisfied": best is not None,
                  "leftover_points": None if best is None else best.leftover_points}
        lines.append(json.dumps(record))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    met = sum(1 for line in lines if '"satisfied": true' in line)
    print(f"{len(lines)} hands ({met} meet their contract) written to {args.out}")
    if args.check_time:
        ts = sorted(t for t, _ in times)
        print(f"solver: median {statistics.median(ts) * 1e3:.2f} ms, "
              f"p99 {ts[min(len(ts) - 1, int(0.99 * len(ts)))] * 1e3:.2f} ms, max {ts[-1] * 1e3:.2f} ms")
        for t, seed in sorted(times, reverse=True):
            if t > SLOW_SECONDS:
                print(f"SLOW {t:.2f} s: {seed} (add it to EXCLUDED)")


if __name__ == "__main__":
    main()
