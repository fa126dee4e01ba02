"""House rules: any rule changed on its own, inconsistent combinations refused, records keep them."""

from __future__ import annotations

import dataclasses
import random

import pytest

from shanghai.engine import Game, GoDown, LayOff
from shanghai.engine.record import GameRecord, rules_from_spec, rules_to_spec
from shanghai.errors import InconsistentRulesError, RecordError
from shanghai.rules import RoundSpec, preset
from shanghai.rules.model import Contract


def play(rules_name: str = "isra", players: int = 4, seed: int = 3, **changes: object) -> Game:
    rules = preset(rules_name).changed(**changes)
    game = Game.new(rules, players, seed)
    rng = random.Random(seed)
    while not game.is_over:
        legal = list(game.legal_actions())
        progress = [a for a in legal if isinstance(a, GoDown | LayOff)]
        game.apply(rng.choice(progress or legal))
    return game


@pytest.mark.parametrize("changes", [
    {"buy_penalty": 1},
    {"going_out": "either"},
    {"going_out": "discard-last"},
    {"going_out": "discard-last", "wild_limit": "none", "lay_off_on_going_down_turn": False},
    {"wild_limit": "naturals-majority"},
    {"the_cut": False},
    {"same_suit_runs": "separated", "same_rank_sets": False},
    {"aces": "high-only"},
    {"buy_priority": "from-dealer-left"},
    {"buy_flow": "ask-turn-player"},
    {"wild_replacement": "any-meld-keep-wild"},
    {"rounds": tuple(RoundSpec(Contract.of(runs=(4, 4, 4)), 3) for _ in range(2))},
])
def test_a_changed_rule_plays_to_the_end_and_replays(changes: dict[str, object]) -> None:
    game = play(**changes)
    for key, value in changes.items():
        assert getattr(game.rules, key) == value
    record = GameRecord.from_jsonl(GameRecord.of(game).to_jsonl())
    assert record.rules == game.rules
    assert record.replay().snapshot() == game.snapshot()


def test_the_record_names_only_the_changed_rules() -> None:
    rules = preset("may-i", ["no-split"]).changed(buy_penalty=2, dunce_cap=True)
    spec = rules_to_spec(rules)
    assert spec == {"preset": "may-i", "options": ["no-split"],
                    "changes": {"buy_penalty": 2, "dunce_cap": True}}
    assert rules_from_spec(spec) == rules


@pytest.mark.parametrize(("changes", "message"), [
    ({"colour": "red"}, "unknown rule 'colour'"),
    ({"going_out": "sideways"}, "going_out must be one of"),
    ({"wilds": "none"}, "the pack holds jokers but no card is wild"),
    ({"min_players": 1}, "player counts"),
    ({"rounds": (RoundSpec(Contract.of(sets=(3,), runs=(10,)), 0),)}, "needs 13 cards"),
    ({"rounds": (RoundSpec(Contract.of(runs=(14,)), 9),)}, "cannot exist"),
    ({"buy_penalty": -1}, "buy_penalty must not be negative"),
    ({"rank_points": (0, 1, 2)}, "rank_points must give 14"),
])
def test_an_inconsistent_combination_is_refused_with_a_clear_error(
        changes: dict[str, object], message: str) -> None:
    with pytest.raises(InconsistentRulesError, match=message):
        preset("isra").changed(**changes)


def test_a_record_with_impossible_rules_fails_as_a_record_error() -> None:
    with pytest.raises(RecordError, match="cannot be used"):
        rules_from_spec({"preset": "isra", "changes": {"going_out": "sideways"}})
    with pytest.raises(RecordError, match="target_score"):
        rules_from_spec({"preset": "manipulation", "changes": {"target_score": 0}})
    with pytest.raises(RecordError, match="no-split"):
        rules_from_spec({"preset": "manipulation", "options": ["no-split"]})


def test_every_rule_is_a_documented_field() -> None:
    """docs/rules.md lists every field of Rules, so a house rule is never a hidden knob."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    for f in dataclasses.fields(preset("isra")):
        assert f"`{f.name}`" in doc, f"docs/rules.md does not document the rule {f.name}"


@pytest.mark.parametrize("wilds", ["jokers", "jokers-and-black-twos"])
def test_the_wild_cards_the_bots_and_the_solver_use_are_the_rules_wild_cards(wilds: str) -> None:
    from shanghai.cards import ALL_NATURALS, JOKER
    from shanghai.engine.contract_bound import ContractBound

    rules = preset("may-i").changed(wilds=wilds)
    assert {c for c in (*ALL_NATURALS, JOKER) if rules.is_wild(c)} == rules.wild_cards()
    assert ContractBound(rules, 1).wild_cards == rules.wild_cards()
