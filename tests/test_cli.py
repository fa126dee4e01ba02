"""The ``shanghai`` command: rules in words, the judge (single and batch), simulate, replay.

Each test calls ``main(argv)`` in-process and reads stdout/stderr with capsys; one runs the installed
``shanghai`` script. Hand-computed points cite the scoring tables of the rule documents:
000 (isra: JK 50, A 20, 10-K 10, 2-9 5), 001 (may-i: face value, black 2 20, A 20, JK 50),
002 (family-10: A 15, 10-K 10, 2-9 5), 004 (contract-10: A and 2 20, 10-K 10, 3-9 5).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shanghai.bots.match import play_game, seat_seed
from shanghai.cards import parse_cards
from shanghai.cli.main import main
from shanghai.cli.replay import round_line
from shanghai.engine.game import CutResult, RoundResult
from shanghai.engine.record import GameRecord
from shanghai.rules import PRESETS, preset
from shanghai.rules.describe import describe

SIM_KEYS = {"games", "rounds", "actions", "seconds", "rounds_per_s", "actions_per_s"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code, out, err = run(capsys, *argv)
    assert "Traceback" not in err
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    return code, json.loads(lines[0])


def run_batch(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lines: list[str],
              *argv: str) -> tuple[int, list[Any]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    code, out, err = run(capsys, *argv)
    assert "Traceback" not in err
    return code, [json.loads(line) for line in out.strip().splitlines()]


# -- help and rules -------------------------------------------------------------------------------

def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("rules", "judge", "simulate", "replay", "play"):
        assert command in out
    for question in ("judge meld", "judge contract", "judge score"):
        code, out, _ = run(capsys, *question.split(), "--help")
        assert code == 0 and "--batch" in out and "--option" in out and "--rules" in out
    for command in ("simulate", "replay", "rules"):
        code, out, _ = run(capsys, command, "--help")
        assert code == 0 and "usage: shanghai " + command in out


def test_play_is_wired(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0 and "usage: shanghai play" in out


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == 2 and "no command" in err


def test_rules_lists_presets_with_source_and_manipulation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for name, rules in PRESETS.items():
        line = next(line for line in out.splitlines() if line.startswith(name + " "))
        assert rules.source in line
    line = next(line for line in out.splitlines() if line.startswith("manipulation "))
    assert "004" in line and "NOT BUILT YET" not in out


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_in_words_for_every_preset(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, _ = run(capsys, "rules", name)
    assert code == 0
    rules = preset(name)
    assert out == describe(rules)
    for heading in ("Players", "Pack", "Deal", "Rounds and contracts", "Sets and runs", "Wild cards", "Aces",
                    "Buying", "Going down, laying off, replacing wilds", "Going out", "Scoring", "Extras",
                    "When the stock runs out"):
        assert "\n" + heading + "\n" in out, heading
    for extra in ("THE CUT", "SLAM" if rules.slam_records else "Slams", "blind", "unce cap", "\"Shanghai\" call"):
        assert extra.lower() in out.lower()
    for i, spec in enumerate(rules.rounds, 1):
        assert any(line.split()[:1] == [str(i)] and spec.contract.text() in line for line in out.splitlines())
    assert f"{rules.min_players} to {rules.max_players} players" in out
    assert f"{rules.hand_size} cards to each player" in out


def flat(rules_text: str) -> str:
    return " ".join(rules_text.split())


def test_rules_in_words_follow_the_fields() -> None:
    isra = flat(describe(preset("isra")))
    assert "3 decks of 52 cards and 6 jokers (162 cards)" in isra
    assert "45 for 4" in isra and "67 for 6" in isra and "50 points" in isra      # THE CUT (000)
    assert "two wilds may never be side by side" in isra
    assert "DUNCE CAP" in isra and "SEMI-SLAM" in isra
    assert "the last card may not be discarded" in isra
    may_i = flat(describe(preset("may-i")))
    assert "black 2: 20" in may_i and "face value" in may_i
    assert "more natural cards than wild cards" in may_i
    assert "closest to the dealer's left" in may_i
    assert "long run may be split" in may_i
    assert "may not be split" in flat(describe(preset("may-i", ["no-split"])))
    assert "Aces are high only" in flat(describe(preset("may-i", ["aces-high"])))
    assert "protect it" in flat(describe(preset("may-i", ["shanghai-call"])))
    family = flat(describe(preset("family-10")))
    assert "ace 15" in family
    assert "no buying in rounds 1-4; 3 buys per player in rounds 5-9; 4 buys per player in round 10" in family
    assert "refusing the buyer means taking the discard" in family
    contract = flat(describe(preset("contract-10")))
    assert "2 decks of 52 cards and 1 joker (105 cards)" in contract
    assert "3 decks of 52 cards and 2 jokers (158 cards)" in contract
    assert "25 points off" in contract and "50 if no joker" in contract
    assert "lowest card deals first" in contract
    assert "not on the turn they go down" in contract
    assert "must be separated by at least one rank" in contract
    assert "only buying gives a player that many" in contract  # hands 8-10 need 13-15 cards


def test_rules_with_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "may-i", "--option", "no-split")
    assert code == 0 and "Options in force: no-split" in out
    code, _, err = run(capsys, "rules", "isra", "--option", "no-split")
    assert code == 2 and "no-split" in err


def test_manipulation_is_its_own_game_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "manipulation")
    assert code == 0 and "Shanghai manipulation rummy" in out and "target score" not in err
    code, out, err = run(capsys, "judge", "meld", "--rules", "manipulation", "5D", "6D", "7D")
    assert code == 0 and json.loads(out)["kind"] == "run"
    code, out, err = run(capsys, "judge", "meld", "--rules", "manipulation", "QD", "KD", "AD")
    assert code == 1 and "ace is low only" in json.loads(out)["reason"]
    code, out, err = run(capsys, "simulate", "--rules", "manipulation", "--players", "2")
    assert code == 2 and "3 to 8 players" in err


# -- judge meld -----------------------------------------------------------------------------------

MELDS = [
    # (preset, cards, valid, kind, words in the reason)
    ("isra", "5D 6D JK 8D", True, "run", None),
    ("isra", "5D JK JK 8D", False, None, "side by side"),                  # 000 joker rule 1
    ("isra", "JK JK JK", True, "set", None),                              # 000 joker rule 5
    ("isra", "8D 7D 6D 5D", True, "run", None),                           # descending: read backwards
    ("isra", "8D 6D 5D 7D", True, "run", None),                           # naturals: in any order
    ("isra", "KH AH 2H 3H", False, None, "ace"),                          # no wrap around the ace
    ("isra", "QH KH AH 2H", False, None, "ace"),
    ("isra", "JH QH KH AH", True, "run", None),                           # ace high at the end
    ("isra", "AH 2H 3H 4H", True, "run", None),                           # ace low at the start
    ("isra", "7H 7S 8D", False, None, "one rank"),
    ("isra", "5D 6D 7D", False, None, "at least 4"),                      # runs of 4+ (000)
    ("isra-junior", "7H 7S JK JK", True, "set", None),
    ("isra-express", "9C JK JC QC", True, "run", None),
    ("may-i", "7H 7S JK 2C", False, None, "more natural cards than wild cards"),  # 001
    ("may-i", "7H 7S 2C", True, "set", None),                             # black 2 is wild (001)
    ("may-i", "5D 2S 7D 8D", True, "run", None),
    ("may-i", "7H 7S 2H", False, None, "one rank"),                       # a red 2 is not wild
    ("may-i", "JK JK JK", False, None, "more natural"),
    ("may-i", "KH AH 2H 3H", False, None, "ace"),
    ("may-i-10", "3S 4S 5S 6S 7S", True, "run", None),
    ("family-10", "2S 3S 4S", True, "run", None),                         # runs of 3+ (002)
    ("family-10", "3D JK JK JK", True, "set", None),                      # no wild limit (decided)
    ("family-10", "QD KD AD 2D", False, None, "ace"),
    ("contract-10", "5D JK 7D", False, None, "at least 4"),
    ("contract-10", "5D JK JK 8D", False, None, "more natural"),          # 1 joker in a run of 4 (004)
    ("contract-10", "5D JK 7D JK 9D", True, "run", None),                 # 2 jokers in a run of 5
    ("contract-10", "7H 7S JK JK", False, None, "more natural"),
]


@pytest.mark.parametrize(("name", "cards", "valid", "kind", "reason"), MELDS,
                         ids=[f"{m[0]}:{m[1]}" for m in MELDS])
def test_judge_meld(capsys: pytest.CaptureFixture[str], name: str, cards: str, valid: bool,
                    kind: str | None, reason: str | None) -> None:
    code, answer = run_json(capsys, "judge", "meld", "--rules", name, *cards.split())
    assert set(answer) == {"valid", "kind", "reason"}
    assert answer["valid"] is valid and answer["kind"] == kind
    assert code == (0 if valid else 1)
    if reason is None:
        assert answer["reason"] is None
    else:
        assert reason in answer["reason"]


def test_judge_meld_with_wilds_out_of_place_names_the_orders_that_are_runs(
        capsys: pytest.CaptureFixture[str]) -> None:
    # where a wild stands is part of a run (000: it must say which card it replaces): as laid, 7H JK 5H 6H
    # is no run, and the answer says how it would be one
    code, answer = run_json(capsys, "judge", "meld", "--rules", "isra", "7H", "JK", "5H", "6H")
    assert code == 1 and answer["valid"] is False
    assert answer["arrangements"] == ["JK 5H 6H 7H", "5H 6H 7H JK"]
    assert answer["reason"].endswith("laid as JK 5H 6H 7H or as 5H 6H 7H JK it is a run")


def test_judge_meld_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, answer = run_json(capsys, "judge", "meld", "--rules", "may-i", "--option", "aces-high",
                            "AH", "2H", "3H", "4H")
    assert code == 1 and "high only" in answer["reason"]
    code, answer = run_json(capsys, "judge", "meld", "--rules", "may-i", "--option", "aces-high",
                            "JH", "QH", "KH", "AH")
    assert code == 0 and answer["kind"] == "run"


def test_cards_may_be_written_in_any_accepted_form(capsys: pytest.CaptureFixture[str]) -> None:
    code, answer = run_json(capsys, "judge", "meld", "--rules", "isra", "5d,6♦", "jk", "8D")
    assert code == 0 and answer["kind"] == "run"


# -- judge contract -------------------------------------------------------------------------------

CONTRACTS = [
    # (preset, round, cards, satisfied, melds, leftover, leftover points): computed by hand
    ("isra", 1, "7H 7S 7D KD KS JK 2H 9C", True,
     [["7S", "7H", "7D"], ["KS", "KD", "JK"]], ["2H", "9C"], 10),               # 2H 5 + 9C 5
    ("isra", 3, "7H 7S 7D KD KS JK 2H 9C", False,
     [], ["2H", "7S", "7H", "7D", "9C", "KS", "KD", "JK"], 95),                 # 5+15+5+20+50
    ("isra", 2, "7H 7S 7D 5C 6C 8C JK KD KS 2H 9C", True,
     [["7S", "7H", "7D"], ["5C", "6C", "JK", "8C", "9C"]], ["2H", "KS", "KD"], 25),
    ("isra-junior", 3, "AS 2S 3S 4S JH QH KH AH 5D", True,
     [["AS", "2S", "3S", "4S"], ["JH", "QH", "KH", "AH"]], ["5D"], 5),          # both aces, two runs
    ("isra-express", 1, "7H 7S JK KD KS KH 2H 2D 2C QC", True,
     [["2H", "2D", "2C"], ["7S", "7H", "JK"], ["KS", "KH", "KD"]], ["QC"], 10),
    ("may-i", 2, "7H 7S 7D 5C 6C 8C 2S KD KS 2H 9C", True,
     [["7S", "7H", "7D"], ["5C", "6C", "2S", "8C", "9C"]], ["2H", "KS", "KD"], 22),  # 2 + 10 + 10
    ("may-i", 1, "7H 7S 2C KD KS 2S 3H", True,
     [["7S", "7H", "2S"], ["KS", "KD", "2C"]], ["3H"], 3),
    ("may-i", 3, "3S 4S 5S 6S 7S 8S 9S 10S KD", True,
     [["3S", "4S", "5S", "6S"], ["7S", "8S", "9S", "10S"]], ["KD"], 10),        # split (001)
    ("may-i", 1, "7H 7S JK 2C KD QS", False,
     [], ["2C", "7S", "7H", "QS", "KD", "JK"], 104),                            # 20+14+20+50
    ("may-i-10", 10, "3S 4S 5S 6S 7S 3H 4H 5H 6H 7H 3D 4D 5D 6D 7D AC", True,
     [["3S", "4S", "5S", "6S", "7S"], ["3H", "4H", "5H", "6H", "7H"], ["3D", "4D", "5D", "6D", "7D"]],
     ["AC"], 20),
    ("family-10", 1, "AS AH AD 4C 4D 4H 9C", True,
     [["AS", "AH", "AD"], ["4H", "4D", "4C"]], ["9C"], 5),
    ("family-10", 3, "AS AH AD 4C 4D 4H 9C", False,
     [], ["AS", "AH", "AD", "4H", "4D", "4C", "9C"], 65),                        # 3*15 + 3*5 + 5
    ("contract-10", 3, "3S 4S 5S 6S 7S 8S 9S 10S KD", False,
     [], ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "KD"], 55),          # runs must not touch
    ("contract-10", 3, "3S 4S 5S 6S 8S 9S 10S JS 2D", True,
     [["3S", "4S", "5S", "6S"], ["8S", "9S", "10S", "JS"]], ["2D"], 20),        # separated by 7S
]


@pytest.mark.parametrize(("name", "round_number", "cards", "satisfied", "melds", "leftover", "points"),
                         CONTRACTS, ids=[f"{c[0]}:r{c[1]}:{c[2]}" for c in CONTRACTS])
def test_judge_contract(capsys: pytest.CaptureFixture[str], name: str, round_number: int, cards: str,
                        satisfied: bool, melds: list[list[str]], leftover: list[str], points: int) -> None:
    code, answer = run_json(capsys, "judge", "contract", "--rules", name, "--round", str(round_number),
                            *cards.split())
    assert answer == {"satisfied": satisfied, "melds": melds, "leftover": leftover, "leftover_points": points}
    assert code == (0 if satisfied else 1)


def test_judge_contract_no_split_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, answer = run_json(capsys, "judge", "contract", "--rules", "may-i", "--option", "no-split",
                            "--round", "3", *["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "KD"])
    assert code == 1 and answer["leftover_points"] == 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 10


# -- judge score ----------------------------------------------------------------------------------

SCORES = [
    ("isra", "JK", 50), ("isra", "AS", 20), ("isra", "KD", 10), ("isra", "5C", 5), ("isra", "2H", 5),
    ("isra", "JK AS KD 5C", 85),
    ("isra-junior", "10H QS", 20), ("isra-express", "JK JK", 100),
    ("may-i", "7H", 7), ("may-i", "2H", 2), ("may-i", "2D", 2), ("may-i", "2S", 20), ("may-i", "2C", 20),
    ("may-i", "AS", 20), ("may-i", "KH", 10), ("may-i", "JK", 50),
    ("may-i-10", "3D 9C 2C", 32),
    ("family-10", "AS", 15), ("family-10", "KC 2D JK", 65),
    ("contract-10", "2H", 20), ("contract-10", "AS 9C QH", 35),
]


@pytest.mark.parametrize(("name", "cards", "points"), SCORES, ids=[f"{s[0]}:{s[1]}" for s in SCORES])
def test_judge_score(capsys: pytest.CaptureFixture[str], name: str, cards: str, points: int) -> None:
    code, answer = run_json(capsys, "judge", "score", "--rules", name, *cards.split())
    assert code == 0 and answer == {"points": points}


# -- batch mode -----------------------------------------------------------------------------------

def test_batch_meld(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [
        json.dumps({"cards": ["5D", "6D", "JK", "8D"]}),
        json.dumps({"cards": ["5D", "JK", "JK", "8D"]}),
        json.dumps({"cards": ["7H", "7S", "JK", "2C"], "rules": "may-i"}),
        "",
        json.dumps({"cards": "7H 7S 2C", "rules": "may-i"}),
    ]
    code, answers = run_batch(capsys, monkeypatch, lines, "judge", "meld", "--rules", "isra", "--batch")
    assert code == 0
    assert [a["valid"] for a in answers] == [True, False, False, True]
    assert "more natural" in answers[2]["reason"]


def test_batch_contract_and_bad_lines(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    hand = ["7H", "7S", "7D", "KD", "KS", "JK", "2H", "9C"]
    lines = [
        json.dumps({"cards": hand, "round": 1}),
        "not json",
        json.dumps({"cards": ["1X"], "round": 1}),
        json.dumps({"cards": hand, "round": 8}),
        json.dumps({"cards": [], "round": 1}),
        json.dumps({"cards": hand}),
        json.dumps({"cards": hand, "round": 3}),
        json.dumps({"cards": hand, "round": 1, "rules": "nope"}),
        json.dumps({"cards": hand, "round": 1, "rules": "manipulation"}),
        json.dumps({"cards": hand, "round": True}),
        json.dumps({"cards": hand, "round": 1, "extra": 5}),
    ]
    code, answers = run_batch(capsys, monkeypatch, lines, "judge", "contract", "--rules", "isra", "--batch")
    # a key no question asks is refused, and values are quoted as JSON writes them
    assert answers[-2] == {"error": "line 10: round must be a whole number, not true"}
    assert answers[-1]["error"].startswith("line 11: unknown key 'extra'")
    assert code == 2
    assert len(answers) == len(lines)
    assert answers[0]["satisfied"] is True and answers[0]["leftover_points"] == 10
    assert set(answers[1]) == {"error"}
    assert "1X" in answers[2]["error"]
    assert "8" in answers[3]["error"] and "rounds 1 to 7" in answers[3]["error"]
    assert "no cards" in answers[4]["error"]
    assert "round" in answers[5]["error"]
    assert answers[6] == {"satisfied": False, "melds": [], "leftover_points": 95,
                          "leftover": ["2H", "7S", "7H", "7D", "9C", "KS", "KD", "JK"]}
    assert "nope" in answers[7]["error"]
    assert "no contracts" in answers[8]["error"]


def test_batch_score_per_line_rules(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [json.dumps({"cards": ["2S"], "rules": name}) for name in ("isra", "may-i", "family-10", "contract-10")]
    code, answers = run_batch(capsys, monkeypatch, lines, "judge", "score", "--batch")
    assert code == 0 and [a["points"] for a in answers] == [5, 20, 5, 20]
    code, answers = run_batch(capsys, monkeypatch, [json.dumps({"cards": ["2S"]})], "judge", "score", "--batch")
    assert code == 2 and "--rules" in answers[0]["error"]


# -- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "named"), [
    (["judge", "meld", "--rules", "isra", "5D", "1X", "7D"], "'1X'"),
    (["play", "--plain", "--pause", "-1"], "--pause is a number of seconds from 0 to 3600, not -1"),
    (["play", "--plain", "--take-back", "nan"], "--take-back is a number of seconds"),
    (["judge", "score", "--rules", "isra", "QQ"], "'QQ'"),
    (["judge", "meld", "--rules", "nosuch", "5D", "6D", "7D", "8D"], "'nosuch'"),
    (["judge", "contract", "--rules", "isra", "--round", "8", "5D"], "8"),
    (["judge", "contract", "--rules", "family-10", "--round", "0", "5D"], "0"),
    (["judge", "contract", "--rules", "isra", "5D"], "--round"),
    (["judge", "meld", "--rules", "isra"], "no cards"),
    (["judge", "score", "--rules", "isra"], "no cards"),
    (["judge", "meld", "5D", "6D", "7D"], "--rules"),
    (["judge", "meld", "--rules", "isra", "--option", "no-split", "5D"], "no-split"),
    (["judge", "meld", "--rules", "may-i", "--option", "wild-wild", "5D"], "wild-wild"),
    (["judge", "contract", "--rules", "isra", "--round", "x", "5D"], "'x'"),
    (["simulate", "--rules", "isra", "--players", "2"], "2"),
    (["simulate", "--rules", "family-10", "--players", "9"], "9"),
    (["simulate", "--rules", "bogus"], "'bogus'"),
    (["replay", "/nonexistent/record.jsonl"], "/nonexistent/record.jsonl"),
    (["nosuchcommand"], "nosuchcommand"),
])
def test_bad_input_exits_2_with_message(capsys: pytest.CaptureFixture[str], argv: list[str], named: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert named in err
    assert "Traceback" not in err and out == ""


def test_unknown_card_message_format(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "judge", "meld", "--rules", "isra", "1X")
    assert err.startswith("shanghai: unknown card '1X'")


# -- simulate -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(PRESETS))
def test_simulate_json_every_preset(capsys: pytest.CaptureFixture[str], name: str) -> None:
    rules = preset(name)
    code, answer = run_json(capsys, "simulate", "--rules", name, "--players", str(rules.min_players),
                            "--games", "1", "--seed", "3", "--json")
    assert code == 0
    assert set(answer) >= SIM_KEYS
    assert answer["games"] == 1
    assert answer["rounds"] == len(rules.rounds)
    assert answer["actions"] > 0 and answer["seconds"] > 0
    assert answer["rounds_per_s"] == pytest.approx(answer["rounds"] / answer["seconds"], rel=1e-3)
    assert answer["players"] == rules.min_players and answer["rules"] == name


def test_simulate_text_and_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--rules", "may-i", "--option", "shanghai-call", "--players", "3",
                       "--seed", "2")
    assert code == 0
    for word in ("games:", "rounds:", "actions:", "seconds:", "rounds/s:", "actions/s:"):
        assert word in out


def test_play_game_is_reproducible_and_seats_differ() -> None:
    rules = preset("isra-junior")
    a = play_game(rules, 3, seed=11)
    b = play_game(rules, 3, seed=11)
    assert [str(x) for x in a.actions] == [str(x) for x in b.actions] and a.totals == b.totals
    assert a.is_over
    assert len({seat_seed(11, s) for s in range(8)}) == 8


def test_record_dir_then_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, answer = run_json(capsys, "simulate", "--rules", "isra-junior", "--players", "3", "--games", "2",
                            "--seed", "7", "--json", "--record-dir", str(tmp_path / "recs"))
    assert code == 0 and answer["games"] == 2
    files = sorted((tmp_path / "recs").iterdir())
    assert [f.name for f in files] == ["game-0.jsonl", "game-1.jsonl"]
    record = GameRecord.load(files[1])
    assert record.seed == 8                       # game i uses seed S + i
    game = record.replay()
    code, out, err = run(capsys, "replay", str(files[1]))
    assert code == 0 and err == ""
    for n in (1, 2, 3):
        assert f"Round {n} (" in out
    assert "Totals: " + ", ".join(f"Player {s + 1} {t}" for s, t in enumerate(game.totals)) in out
    assert "Winner" in out
    code, quiet, _ = run(capsys, "replay", "--quiet", str(files[1]))
    assert code == 0 and "Round 1" not in quiet and "Totals" in quiet


def test_replay_of_tampered_record_names_the_action(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = play_game(preset("may-i"), 3, seed=4)
    path = tmp_path / "game.jsonl"
    GameRecord.of(game).save(path)
    lines = path.read_text().splitlines()
    index = next(i for i, a in enumerate(game.actions) if str(a).split()[1] == "discard")
    obj = json.loads(lines[index + 1])          # line 0 is the header
    assert obj["n"] == index
    seat = obj["action"].split()[0]
    obj["action"] = f"{seat} pass"              # nobody may pass where a discard is due
    lines[index + 1] = json.dumps(obj)
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1 and out == ""
    assert f"action {index} ('{seat} pass')" in err and "cannot pass now" in err
    assert "Traceback" not in err


def test_replay_unreadable_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_text("this is not a record\n")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "junk.jsonl" in err and "Traceback" not in err
    path.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "Traceback" not in err


def test_replay_reads_a_record_whose_last_line_was_cut_off(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    """docs/records.md: a last line cut off in the middle (a crash while writing) is left out, with a
    warning; any other damage is bad input (exit 2) naming the line, never a traceback."""
    game = play_game(preset("isra-junior"), 3, seed=5)
    path = tmp_path / "game.jsonl"
    GameRecord.of(game).save(path)
    text = path.read_text()
    lines = text.splitlines()
    cut = "\n".join(lines[:-2]) + "\n" + lines[-2][:9]  # the last action half written, the end line gone
    path.write_text(cut)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0 and "Round 1" in out
    assert f"line {len(lines) - 1}, the last, was cut off" in err and "Traceback" not in err
    assert GameRecord.load(path).actions == [str(a) for a in game.actions[:-1]]
    for bad, says in ((lines[:-1] + ['{"end": "x"}'], "the end of the game must be"),
                      (lines[:-1] + ['{"end": {"totals": "abc"}}'], "the end of the game must be"),
                      ([lines[0].replace('"seed": 5', '"seed": 1.7')] + lines[1:], "seed must be a whole number"),
                      ([lines[0].replace('"rules": {', '"rules": {"changes": {"buy_penalty": "x"}, ')] + lines[1:],
                       "buy_penalty must be a whole number, not 'x'"),
                      ([lines[0].replace('"rules": {', '"rules": {"changes": {"rank_points": 5}, ')] + lines[1:],
                       "rank_points must be a list of whole numbers"),
                      (lines[:-2] + [lines[-2][:9], lines[-1]], "not JSON")):
        path.write_text("\n".join(bad) + "\n")
        code, _, err = run(capsys, "replay", str(path))
        assert code == 2 and says in err and "Traceback" not in err, err


def test_judge_refuses_more_copies_than_the_pack_holds(capsys: pytest.CaptureFixture[str]) -> None:
    """A card given more often than the rules' largest pack holds it cannot be at a table (000: 162
    cards, 3 decks and 6 jokers; 004: manipulation rummy has no jokers), as the score pad says too."""
    for argv, says in ((["meld", "--rules", "isra", *["5D"] * 4], "5D is given 4 times, but the isra pack holds "
                                                                  "at most 3 (3 decks)"),
                       (["score", "--rules", "isra", *["JK"] * 7], "JK is given 7 times"),
                       (["score", "--rules", "manipulation", "7H", "JK"], "manipulation is played without jokers"),
                       (["table", "--rules", "manipulation", "--table", "7H 7S 7D 7C", "--hand", "7C", "7C", "7C"],
                        "7C is given 4 times")):
        code, out, err = run(capsys, "judge", *argv)
        assert code == 2 and out == "" and says in err, err
    code, answer = run_json(capsys, "judge", "meld", "--rules", "isra", *["5D"] * 3)
    assert code == 0 and answer["valid"]


def test_round_line_shows_cut_and_slam() -> None:
    result = RoundResult(number=2, contract="1 set of 3 + 1 run of 4", dealer=0, went_out=1,
                         points=(50, 0, 0, 75), hands=((), (), (), ()), cut=CutResult(2, 45, 45, 45),
                         slam="slam")
    line = round_line(result, ["Ann", "Bob", "Cy", "Di"])
    assert line.startswith("Round 2 (1 set of 3 + 1 run of 4): Bob went out; points: Ann 50, Bob 0")
    assert "THE CUT made by Cy (45 cards)" in line and "SLAM" in line


# -- the judge functions directly -----------------------------------------------------------------

def test_judge_functions_match_the_library() -> None:
    from shanghai.cli.judge import judge_contract, judge_meld, judge_score

    isra = preset("isra")
    assert judge_meld(parse_cards("JK JK JK"), isra) == {"valid": True, "kind": "set", "reason": None}
    assert judge_score(parse_cards("JK AS KD 5C"), isra) == {"points": 85}
    assert judge_contract(parse_cards("7H 7S 7D KD KS JK 2H 9C"), isra, 1)["leftover_points"] == 10


# -- the installed script -------------------------------------------------------------------------

def test_installed_script() -> None:
    script = Path(sys.executable).parent / "shanghai"
    if not script.exists():
        pytest.skip("the shanghai script is not installed in this environment")
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run([str(script), "judge", "meld", "--rules", "isra", "5D", "JK", "JK", "8D"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 1
    assert json.loads(done.stdout) == {"valid": False, "kind": None,
                                       "reason": "two wild cards side by side in a run (JK JK)"}
    done = subprocess.run([str(script), "judge", "score", "--rules", "isra", "1X"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "unknown card '1X'" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run([str(script), "judge", "score", "--rules", "may-i", "--batch"],
                          input='{"cards": ["2S", "2H"]}\n', capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout) == {"points": 22}
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and "simulate" in done.stdout
