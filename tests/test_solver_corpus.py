"""The solver corpus (``benchmarks/data/solver_corpus.jsonl``) and an integer-programming cross-check.

* Every corpus hand is solved again with ``solve_contract`` and must give the stored answer, with
  an arrangement that ``tests/test_solver.py``'s ``check_arrangement`` accepts.
* The corpus is what ``benchmarks/make_corpus.py`` makes: its hands come out of the generator
  again, line by line (the answers are checked above).
* The integer program of ``tests/milp_contract.py`` (independent of the solver and of
  ``shanghai.melds``) must give the stored answer on a deterministic sample: ALL hands of 15-17
  cards of the hardest contracts (round 8, 1 set + 1 run of 10, and round 10, 3 runs of 5, of
  may-i-10, contract-10 and family-10), 312 hands, and the others of even id: 914 hands, about
  30 s. A sample, to keep this file under about a minute on a 2-core machine: the whole corpus,
  1,516 hands, agreed with both ways of writing the wilds when the corpus was made, in about 40 s
  (pooled) and 65 s (layouts) of HiGHS. The melds it lays are checked with ``shanghai.melds``.
* The integer program itself is checked against the brute force of ``tests/test_solver.py`` on
  small random hands (both ways of writing the wilds), and its two ways of writing "runs of one
  suit apart" against each other.
"""

from __future__ import annotations

import importlib.util
import json
import random
import time
from collections import Counter
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from milp_contract import MilpAnswer, solve_milp
from shanghai.cards import Card, cards_text, parse_cards
from shanghai.melds import check_run, check_set
from shanghai.rules import preset
from shanghai.rules.model import Contract, Rules
from shanghai.solver import solve_contract
from test_solver import RULES, _contracts, brute_force, check_arrangement, random_hand

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "benchmarks" / "data" / "solver_corpus.jsonl"
HARD_PRESETS = ("may-i-10", "contract-10", "family-10")
HARD_ROUNDS = (8, 10)


@cache
def corpus() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]


@cache
def _rules(name: str, options: tuple[str, ...]) -> Rules:
    return preset(name, options)


def case_of(row: dict[str, Any]) -> tuple[list[Card], Contract, Rules]:
    rules = _rules(row["rules"], tuple(row["options"]))
    return parse_cards(row["cards"]), rules.contract(row["round"]), rules


def is_hard(row: dict[str, Any]) -> bool:
    return (row["rules"] in HARD_PRESETS and row["round"] in HARD_ROUNDS
            and len(row["cards"].split()) >= 15)


def describe(row: dict[str, Any]) -> str:
    return f"#{row['id']} {row['rules']}{row['options']} round {row['round']}: {row['cards']}"


def test_corpus_composition() -> None:
    rows = corpus()
    assert 1400 <= len(rows) <= 1700
    assert CORPUS.stat().st_size < 400_000
    assert [r["id"] for r in rows] == list(range(len(rows)))
    configs = {(r["rules"], tuple(r["options"])) for r in rows}
    for name in ("isra", "may-i", "may-i-10", "family-10", "contract-10"):
        rounds = {r["round"] for r in rows if (r["rules"], tuple(r["options"])) == (name, ())}
        assert rounds == set(range(1, len(preset(name).rounds) + 1)), name
    assert {("may-i", ("no-split",)), ("may-i", ("aces-high",))} <= configs
    for r in rows:
        hand, contract, rules = case_of(r)
        assert 11 <= len(hand) <= 17 and len(hand) >= contract.min_cards, describe(r)
        assert sum(1 for c in hand if rules.is_wild(c)) <= 4, describe(r)
        assert r["satisfied"] == (r["leftover_points"] is not None)
    hard = [r for r in rows if is_hard(r)]
    assert len(hard) >= 300
    assert sum(r["satisfied"] for r in hard) > len(hard) // 3
    met = sum(r["satisfied"] for r in rows)
    assert len(rows) // 2 < met < len(rows) * 4 // 5  # many meet their contract, many do not


def _make_corpus() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_corpus", ROOT / "benchmarks" / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_corpus_is_what_the_generator_makes() -> None:
    made = _make_corpus().cases()
    rows = corpus()
    assert len(made) == len(rows)
    for (_, name, options, rnd, hand), row in zip(made, rows, strict=True):
        assert (name, list(options), rnd, cards_text(hand)) == \
            (row["rules"], row["options"], row["round"], row["cards"]), describe(row)


def test_solver_gives_the_stored_answers() -> None:
    slow: list[str] = []
    for row in corpus():
        hand, contract, rules = case_of(row)
        t0 = time.perf_counter()
        arr = solve_contract(hand, contract, rules)
        if time.perf_counter() - t0 > 2.0:
            slow.append(describe(row))
        assert (arr is not None) == row["satisfied"], describe(row)
        if arr is not None:
            assert arr.leftover_points == row["leftover_points"], describe(row)
            check_arrangement(arr, hand, contract, rules)
    assert not slow, slow


def check_milp_answer(answer: MilpAnswer, hand: list[Card], contract: Contract, rules: Rules) -> None:
    """The integer program's melds are legal (``shanghai.melds``), fill the contract, and come
    out of the hand."""
    assert sorted(m.kind for m, _ in answer.melds) == sorted(m.kind for m in contract.melds)
    used: Counter[Card] = Counter()
    for m, cards in answer.melds:
        if m.kind == "run":
            assert len(cards) >= max(contract.runs)
            meld = check_run(cards, rules)
            assert (meld.suit, meld.low) == (m.suit, m.low), m
        else:
            assert len(cards) >= max(contract.sets)
            # wilds alone: a house rule's black 2s would make them a set of 2s
            assert check_set(cards, rules).rank == m.rank or m.rank == 0, m
        used.update(cards)
    assert not used - Counter(hand)
    assert answer.leftover_points == sum(rules.points(c) for c in (Counter(hand) - used).elements())


def milp_sample() -> list[dict[str, Any]]:
    """All 15-17-card hands of the hardest contracts, and every second other hand."""
    return [r for r in corpus() if is_hard(r) or r["id"] % 2 == 0]


def test_milp_agrees_with_the_corpus() -> None:
    sample = milp_sample()
    assert len(sample) >= 300 and sum(map(is_hard, corpus())) == sum(map(is_hard, sample))
    disagree: list[str] = []
    for row in sample:
        hand, contract, rules = case_of(row)
        answer = solve_milp(hand, contract, rules)
        got = None if answer is None else answer.leftover_points
        if got != row["leftover_points"]:
            disagree.append(f"{describe(row)}: MILP {got}, corpus {row['leftover_points']}")
        elif answer is not None:
            check_milp_answer(answer, hand, contract, rules)
    assert not disagree, disagree


@pytest.mark.parametrize("name", list(RULES))
def test_milp_matches_brute_force(name: str) -> None:
    """Small random hands (8-12 cards, 0-4 wilds), built as ``tests/test_solver.py`` builds them;
    both ways of writing the wilds (pooled, and one candidate per assignment of wild cards)."""
    rules = RULES[name]
    rng = random.Random(f"milp-{name}")
    contracts = _contracts(rules)
    for _ in range(40):
        contract = rng.choice(contracts)
        hand = random_hand(rng, rules, contract, rng.randint(max(8, contract.min_cards), 12),
                           rng.choice((0, 1, 2, 3, 4)))
        expected = brute_force(hand, contract, rules)
        for wilds in ("pooled", "layouts"):
            answer = solve_milp(hand, contract, rules, wilds=wilds)
            assert (None if answer is None else answer.leftover_points) == expected, \
                f"{name} {contract.text()} {wilds}: {cards_text(hand)}"
            if answer is not None:
                check_milp_answer(answer, hand, contract, rules)


def test_milp_run_conflicts_by_place_equal_pairwise() -> None:
    """"Runs of one suit apart" as one row per suit and place gives the answers of the pairwise rows."""
    rows = [r for r in corpus() if (r["rules"] == "contract-10" or "no-split" in r["options"])
            and len(r["cards"].split()) <= 12 and case_of(r)[1].runs]
    assert len(rows) >= 20
    for row in rows[:40]:
        hand, contract, rules = case_of(row)
        by_place = solve_milp(hand, contract, rules)
        by_pairs = solve_milp(hand, contract, rules, conflicts="pairs")
        assert (by_place and by_place.leftover_points) == (by_pairs and by_pairs.leftover_points), describe(row)
