"""How to play (``shanghai.rules.guide``): a newcomer's guide written from the rule set's fields
(../shared/PLAYERS-EXPECT.md: "a tutorial for newcomers"), and ``shanghai rules PRESET --guide``."""

from __future__ import annotations

import pytest

from shanghai.cli.main import main
from shanghai.rules import PRESETS, preset
from shanghai.rules.guide import guide_text, how_to_play


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_guide_follows_the_rules(name: str) -> None:
    rules = preset(name)
    steps = {s.key: s for s in how_to_play(rules)}
    assert list(steps)[:3] == ["aim", "contract", "turn"] and list(steps)[-1] == "help"
    assert f"{len(rules.rounds)} rounds" in steps["aim"].text
    for i, spec in enumerate(rules.rounds, 1):  # every round's contract, in order
        assert f"round {i}: {spec.contract.text()}" in steps["contract"].text
    assert f"Everybody is dealt {rules.hand_size} cards" in steps["contract"].text
    assert ("buy" in steps) == any(spec.buys for spec in rules.rounds)
    if "buy" in steps:
        assert f"{rules.buy_penalty} penalty card" in steps["buy"].text
    assert ("cut" in steps) == rules.the_cut
    assert ("shanghai" in steps) == rules.shanghai_call
    score = steps["score"].text
    assert f"a joker {rules.joker_points}" in score and f"an ace {rules.rank_points[1]}" in score
    wild = "Jokers and black twos are wild" if rules.wilds == "jokers-and-black-twos" else "Jokers are wild"
    assert wild in steps["contract"].text


def test_a_house_rule_changes_the_guide() -> None:
    """The guide is written from the rules in force, house rules included."""
    out = {s.key: s.text for s in how_to_play(preset("isra").changed(going_out="discard-last", buy_penalty=1))}
    assert "You go out by discarding your last card" in out["out"] and "1 penalty card from the stock" in out["buy"]
    plain = {s.key: s.text for s in how_to_play(preset("isra"))}
    assert "You go out by playing every card onto the table" in plain["out"]
    assert "a joker 50; an ace 20; K to 10: 10 each; 9 to 2: 5 each" in plain["score"]
    assert "never two side by side in a run" in plain["contract"]
    may_i = {s.key: s.text for s in how_to_play(preset("may-i", ["shanghai-call"]))}
    assert "9 to 3: their face value; a red two 2, a black two 20" in may_i["score"] and "Shanghai" in may_i["shanghai"]
    assert "every meld needs more natural cards than wild ones" in may_i["contract"]
    odd = preset("isra").changed(rank_points=(0, 20, 5, 5, 6, 5, 5, 5, 5, 5, 10, 10, 10, 10), buy_penalty=0)
    out = {s.key: s.text for s in how_to_play(odd)}
    assert "K to 10: 10 each; 9 to 5: 5 each; 4: 6; 3 to 2: 5 each" in out["score"]
    assert "with no penalty card" in out["buy"]


def test_rounds_with_other_buys_and_bigger_contracts() -> None:
    """Buys that differ by round are told round by round; a contract that takes more cards than a hand
    and a draw says that buying is needed; going out blind is told where it pays."""
    family = {s.key: s.text for s in how_to_play(preset("family-10"))}
    assert family["buy"].startswith("In a round with buying, when it is not your turn")
    assert "Buys: no buying in rounds 1-4; 3 buys a round in rounds 5-9; 4 buys a round in round 10." in family["buy"]
    assert "The contracts of rounds 8-10 take more cards than your hand and a draw hold" in family["contract"]
    contract = {s.key: s.text for s in how_to_play(preset("contract-10"))}
    assert "Going down and out in one turn (blind) takes 25 points off your score (50 if you used no joker)" in \
        contract["out"]
    isra = {s.key: s.text for s in how_to_play(preset("isra"))}
    assert "You have 2 buys a round." in isra["buy"] and "blind" not in isra["out"]
    assert "adds 50 points to every other player's score" in isra["cut"]


def test_shanghai_rules_guide(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "isra", "--guide"]) == 0
    out = capsys.readouterr().out
    assert out == guide_text(preset("isra")) + "\n" and out.startswith("The aim\n") and "THE CUT" in out
    assert main(["rules", "manipulation", "--guide"]) == 2
    assert "the guide covers the contract games" in capsys.readouterr().err
    assert main(["rules", "--guide"]) == 2
    assert "--guide tells how to play one preset" in capsys.readouterr().err
