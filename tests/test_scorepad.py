"""``shanghai scorepad``: the score pad for games played with real cards, on real SQLite files.

Hand-computed values use the card values of the rule documents: 000 (isra: JK 50, A 20, 10-K 10,
2-9 5; THE CUT gives every other player 50), 001 (may-i: face value, black 2 20, A 20, JK 50),
002 (family-10: A 15, 10-K 10, 2-9 5), 004 (contract-10: A and 2 20, 10-K 10, 3-9 5; going out blind
takes 25 off, 50 without a joker).
"""

from __future__ import annotations

import csv
import io
import re
import sqlite3
import sys
from pathlib import Path

import pytest

from shanghai.cli.main import main
from shanghai.cli.scorepad import RoundDialog
from shanghai.rules import PRESETS, preset
from shanghai.scorepad import HandEntry, ScorePad, ScorePadError, ScorePadStore, default_db_path, player_stats
from shanghai.scorepad.storage import SCHEMA_VERSION

Cap = pytest.CaptureFixture[str]


def sp(capsys: Cap, db: Path, *argv: str, stdin: str | None = None,
       monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    """Run ``shanghai scorepad SUB --db DB ARGS...`` in-process."""
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["scorepad", argv[0], "--db", str(db), *argv[1:]])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def dump(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return list(con.iterdump())
    finally:
        con.close()


def load(db: Path, game_id: int) -> ScorePad:
    with ScorePadStore(db) as store:
        return store.load(game_id)


# The whole isra game (7 rounds, Ann Bob Cy), entered both ways. Per round: who went out, the hands
# (points or cards), who got THE CUT, and the points it scores (hand-computed):
#  1 Ann out; Bob 35, Cy KS 2H JK = 10+5+50 = 65; no cut            -> 0, 35, 65     totals 0, 35, 65
#  2 Bob out; Ann 20, Cy AS AH = 40; Cy cut: +50 to Ann and Bob     -> 70, 50, 40    totals 70, 85, 105
#  3 Cy out; Ann 10, Bob 5                                           -> 10, 5, 0      totals 80, 90, 105
#  4 Ann out; Bob QS QH = 20, Cy 15; Ann cut: +50 to Bob and Cy      -> 0, 70, 65     totals 80, 160, 170
#  5 nobody out (the stock ran out); Ann 5, Bob 10, Cy 5             -> 5, 10, 5      totals 85, 170, 175
#  6 Ann out; Bob 100, Cy 25                                         -> 0, 100, 25    totals 85, 270, 200
#  7 Cy out; Ann JK = 50, Bob 10D 9C = 15; Bob cut                   -> 100, 15, 50   totals 185, 285, 250
# Stars: Ann 3 (rounds 1, 4, 6), Bob 1, Cy 2. Crown: Ann (185); dunce cap (isra has it): Bob (285).
ISRA_SCRIPT = """\
Ann
35
KS 2H JK

Bob
20
AS AH
Cy
Cy
10
5

Ann
QS QH
15
Ann
-
5
10
5

Ann
100
25

Cy
JK
10D 9C
Bob
"""
ISRA_POINTS = [(0, 35, 65), (70, 50, 40), (10, 5, 0), (0, 70, 65), (5, 10, 5), (0, 100, 25), (100, 15, 50)]
ISRA_TOTALS = (185, 285, 250)

ISRA_ADDS = [
    ["--out", "Ann", "--points", "Bob=35", "--cards", "Cy=KS 2H JK"],
    ["--out", "bob", "--points", "20,0", "--cut", "Cy", "--points", "40"],
    ["--out", "Cy", "--points", "10,5,0"],
    ["--out", "Ann", "--cards", "Bob=QS,QH", "--points", "Cy=15", "--cut", "ann"],
    ["--nobody-out", "--points", "5,10,5"],
    ["--out", "Ann", "--points", "0,100,25"],
    ["--out", "Cy", "--cards", "Ann=JK", "--cards", "Bob=10D 9C", "--cut", "Bob"],
]


def check_isra_game(pad: ScorePad) -> None:
    assert pad.is_finished and pad.finished_at
    assert [r.points for r in pad.rounds] == ISRA_POINTS
    assert pad.totals == ISRA_TOTALS
    assert pad.running_totals()[3] == (80, 160, 170)
    assert pad.stars == (3, 1, 2)
    assert [r.went_out for r in pad.rounds] == [0, 1, 2, 0, None, 0, 2]
    assert [r.cut for r in pad.rounds] == [None, 2, None, 0, None, None, 1]
    assert pad.crown() == (0,) and pad.dunce() == (1,)
    assert pad.rounds[0].cards_text(2) == "KS 2H JK" and pad.rounds[0].cards[1] is None
    assert pad.rounds[1].hand_points == (20, 0, 40)


def test_whole_isra_game_from_a_stdin_script(tmp_path: Path, capsys: Cap, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "pad.sqlite3"
    code, out, err = sp(capsys, db, "new", "--rules", "isra", "--players", "Ann, Bob, Cy", stdin=ISRA_SCRIPT,
                        monkeypatch=monkeypatch)
    assert code == 0, err
    assert "game 1: isra, 7 rounds; players Ann, Bob, Cy" in out
    assert "Round 1 of 7: SET SET: 2 sets of 3" in out
    assert "Round 7 of 7: RUN RUN RUN (the grand finale): 3 runs of 4" in out
    assert "round 2: Ann 70 (total 70), Bob 50 * (total 85), Cy 40 (total 105); THE CUT: Cy" in out
    assert "Crown: Ann (185). Dunce cap: Bob (285)." in out
    check_isra_game(load(db, 1))
    code, out, _ = sp(capsys, db, "show", "1")
    assert code == 0
    assert "*   0     0" in out            # round 1, Ann went out: a star, 0, running total 0
    # each name heads its column, and "pts" and "total" head the two numbers of its cells, right-aligned
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("round  contract"))
    names, words, first = lines[head], lines[head + 1], lines[head + 2]
    assert words.split() == ["pts", "total"] * 3
    for name, cell in zip(("Ann", "Bob", "Cy"), re.finditer(r"\*?\s*\d+\s+\d+", first[names.index("Ann") - 12:]),
                          strict=True):
        end = names.index(name) + len(name)
        assert end == words.index("total", end - 5) + 5 == names.index("Ann") - 12 + cell.end(), (name, lines)
    assert "total" in out and "185" in out and "285" in out and "250" in out
    assert "Crown: Ann (185). Dunce cap: Bob (285)." in out


def test_whole_isra_game_from_add_commands(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "pad.sqlite3"
    code, out, _ = sp(capsys, db, "new", "--rules", "isra", "--players", "Ann,Bob,Cy", "--no-entry")
    assert code == 0 and "game 1" in out
    for i, extra in enumerate(ISRA_ADDS, 1):
        code, out, err = sp(capsys, db, "add", "1", *extra)
        assert code == 0, (i, err)
        assert out.startswith(f"round {i}: ")
    assert "Crown: Ann (185). Dunce cap: Bob (285)." in out
    check_isra_game(load(db, 1))
    # The game is over: another round is refused, and the history shows the winner and totals.
    code, _, err = sp(capsys, db, "add", "1", "--out", "Ann", "--points", "0,5,5")
    assert code == 2 and "the game is over: all 7 rounds of isra are entered" in err
    code, out, _ = sp(capsys, db, "history")
    assert code == 0
    line = out.splitlines()[1]
    assert "isra" in line and "finished" in line and "Ann" in line
    assert "Ann 185 ***, Bob 285 *, Cy 250 **" in line


def test_crown_ties_share_and_no_dunce_cap_in_isra_junior(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "pad.sqlite3"
    sp(capsys, db, "new", "--rules", "isra-junior", "--players", "Ann,Bob,Cy", "--no-entry")
    for extra in (["--out", "Ann", "--points", "0,20,10"], ["--out", "Bob", "--points", "30,0,10"],
                  ["--out", "Cy", "--points", "10,50,0"]):
        assert sp(capsys, db, "add", "last", *extra)[0] == 0
    pad = load(db, 1)
    assert pad.totals == (40, 70, 20)
    assert pad.crown() == (2,) and pad.dunce() == ()
    # A tie for the crown, and the dunce cap as a house rule.
    sp(capsys, db, "new", "--rules", "isra-junior", "--players", "Ann,Bob,Cy", "--house", "dunce_cap=yes",
       "--no-entry")
    for extra in (["--out", "Ann", "--points", "0,20,10"], ["--out", "Bob", "--points", "30,0,10"],
                  ["--out", "Cy", "--points", "10,30,0"]):
        assert sp(capsys, db, "add", "2", *extra)[0] == 0
    pad = load(db, 2)
    assert pad.totals == (40, 50, 20)
    assert pad.crown() == (2,) and pad.dunce() == (1,)
    sp(capsys, db, "new", "--rules", "isra-junior", "--players", "Ann,Bob,Cy", "--no-entry")
    for extra in (["--out", "Ann", "--points", "0,20,10"], ["--out", "Bob", "--points", "30,0,10"],
                  ["--out", "Ann", "--points", "0,30,10"]):
        assert sp(capsys, db, "add", "3", *extra)[0] == 0
    pad = load(db, 3)
    assert pad.totals == (30, 50, 30)
    assert pad.crown() == (0, 2)
    _, out, _ = sp(capsys, db, "show", "3")
    assert "Crown: Ann and Cy (30), shared." in out and "Dunce" not in out
    pad = load(db, 1).without_last_round()
    assert not pad.is_finished and pad.crown() == ()


def test_cards_to_points_with_each_presets_values() -> None:
    assert HandEntry.of_cards("JK AS KD 10H 9C 2S", preset("isra")).points == 50 + 20 + 10 + 10 + 5 + 5
    assert HandEntry.of_cards("JK AS KD 10H 9C 2S 2H", preset("may-i")).points == 50 + 20 + 10 + 10 + 9 + 20 + 2
    assert HandEntry.of_cards("AS KD 5C", preset("family-10")).points == 15 + 10 + 5
    assert HandEntry.of_cards("AS 2D 3C JK", preset("contract-10")).points == 20 + 20 + 5 + 50
    assert HandEntry.parse("35", preset("isra")) == HandEntry(35)
    assert HandEntry.parse("ks, 2h", preset("isra")).points == 15
    with pytest.raises(ScorePadError, match="neither a number of points nor cards"):
        HandEntry.parse("KX", preset("isra"))


def test_cards_and_house_rules_through_the_cli(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "pad.sqlite3"
    sp(capsys, db, "new", "--rules", "may-i", "--players", "Ann,Bob,Cy", "--no-entry")
    code, _, _ = sp(capsys, db, "add", "1", "--out", "Cy", "--cards", "Ann=2S 2H 7D", "--cards", "Bob=JK AH")
    assert code == 0
    assert load(db, 1).rounds[0].points == (29, 70, 0)
    sp(capsys, db, "new", "--rules", "isra", "--players", "Ann,Bob,Cy", "--house", "cut_bonus=25",
       "--house", "joker_points=25", "--no-entry")
    assert sp(capsys, db, "add", "2", "--out", "Ann", "--cards", "Bob=JK", "--points", "Cy=5", "--cut", "Cy")[0] == 0
    assert load(db, 2).rounds[0].points == (25, 50, 5)


def test_blind_go_out_in_contract_10(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "pad.sqlite3"
    sp(capsys, db, "new", "--rules", "contract-10", "--players", "Ann,Bob,Cy", "--no-entry")
    assert sp(capsys, db, "add", "1", "--out", "Ann", "--points", "0,20,15", "--blind")[0] == 0
    assert sp(capsys, db, "add", "1", "--out", "Bob", "--points", "10,0,15", "--blind-no-joker")[0] == 0
    pad = load(db, 1)
    assert [r.points for r in pad.rounds] == [(-25, 20, 15), (10, -50, 15)]
    assert pad.totals == (-15, -30, 30)
    code, _, err = sp(capsys, db, "add", "1", "--nobody-out", "--points", "5,5,5", "--blind")
    assert code == 2 and "needs the player who went out" in err


def test_interactive_dialog_asks_again_and_confirms(tmp_path: Path) -> None:
    db = tmp_path / "pad.sqlite3"
    answers = "\n".join([
        "Dan",        # unknown player: asked again
        "Ann",
        "-5",         # negative: asked again
        "KS QX",      # not cards: asked again
        "KS 5H",      # Bob 15
        "0",          # Cy did not go out: asked again
        "20",
        "",           # no cut
        "n",          # do not save: the round is asked again
        "Ann", "15", "20", "Bob", "",      # saved: Bob got THE CUT, so Ann 50, Bob 15, Cy 70
        "pad",
        "Bob", "10", "10", "", "y",        # round 2: Ann 10, Bob 0, Cy 10
        "undo",                            # removes round 2
        "Bob", "10", "20", "", "",         # round 2 again: Ann 10, Bob 0, Cy 20
        "q",
    ]) + "\n"
    out = io.StringIO()
    with ScorePadStore(db) as store:
        pad = store.create(ScorePad.new("isra-junior", ["Ann", "Bob", "Cy"]))
        assert RoundDialog(store, pad, io.StringIO(answers), out, interactive=True).run() == 0
    text = out.getvalue()
    assert "! unknown player 'Dan'; the players are Ann, Bob, Cy" in text
    assert "! points cannot be negative (Bob: -5)" in text
    assert "is neither a number of points nor cards" in text
    assert "! Cy scores 0 but did not go out" in text
    assert "not saved; enter the round again" in text
    assert "removed round 2" in text
    assert "resume with 'shanghai scorepad continue 1'" in text
    pad = load(db, 1)
    assert [r.points for r in pad.rounds] == [(50, 15, 70), (10, 0, 20)]
    assert pad.totals == (60, 15, 90) and pad.stars == (1, 1, 0)


def test_continue_resumes_the_last_unfinished_game(tmp_path: Path, capsys: Cap,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "pad.sqlite3"
    code, out, _ = sp(capsys, db, "new", "--rules", "isra-junior", "--players", "Ann,Bob,Cy",
                      stdin="Ann\n5\n10\n\n", monkeypatch=monkeypatch)
    assert code == 0 and "game 1 saved after 1 of 3 rounds" in out
    code, out, _ = sp(capsys, db, "continue", stdin="Bob\n5\n5\n\nCy\n5\n5\nAnn\n", monkeypatch=monkeypatch)
    assert code == 0 and "Crown: Ann (10)." in out
    pad = load(db, 1)
    # (0, 5, 10), (5, 0, 5), then Cy out with Ann 5 and Bob 5 and THE CUT to Ann: (5, 55, 50)
    assert pad.totals == (10, 60, 65)
    code, _, err = sp(capsys, db, "continue", stdin="", monkeypatch=monkeypatch)
    assert code == 2 and "there is no unfinished game" in err
    code, _, err = sp(capsys, db, "continue", "1", stdin="", monkeypatch=monkeypatch)
    assert code == 2 and "game 1 is finished" in err


# -- bad input: a clear message, exit status 2, and the database unchanged ---------------------------------

@pytest.mark.parametrize(("extra", "message"), [
    (["--out", "Dan", "--points", "0,35,20"], "unknown player 'Dan'; the players are Ann, Bob, Cy"),
    (["--out", "Ann", "--points", "0,35"], "3 players (Ann, Bob, Cy) but 2 points given"),
    (["--out", "Ann", "--points", "0,35,20,5"], "but 4 points given"),
    (["--out", "Ann", "--points", "0,,20"], "--points item 2 of 3 is empty (0,,20)"),
    (["--out", "Ann", "--points", "Bob=-5,Cy=20"], "points cannot be negative (Bob: -5)"),
    (["--out", "Ann", "--points", "15,35,20"], "Ann went out, so Ann has no cards left and scores 0, not 15"),
    (["--out", "Ann", "--points", "Bob=35", "--cards", "Ann=KS", "--cards", "Cy=5H"], "scores 0, not 10 (KS)"),
    (["--out", "Ann", "--points", "0,0,20"], "Bob scores 0 but did not go out"),
    (["--out", "Ann", "--points", "0,37,20"], "Bob's 37 points cannot be made with isra's card values"),
    (["--out", "Ann", "--points", "Bob=35"], "no points or cards given for Cy"),
    (["--out", "Ann", "--points", "Bob=35,bob=5,Cy=5"], "Bob's points are given twice"),
    (["--out", "Ann", "--points", "0,35,x"], "Cy's points must be a whole number, not 'x'"),
    (["--out", "Ann", "--points", "0,35,20", "--cards", "Cy=KS"], "not both"),
    (["--out", "Ann", "--points", "Bob=35", "--cards", "Cy=1X"], "unknown card '1X'"),
    (["--out", "Ann", "--points", "Bob=35", "--cards", "Cy KS"], "--cards is NAME=CARDS"),
    (["--out", "Ann", "--points", "Bob=5", "--cards", "Cy=JK JK JK JK JK JK JK"], "holds only 6"),
    (["--out", "Ann", "--points", "0,35,20", "--cut", "Dee"], "unknown player 'Dee'"),
    (["--out", "Ann", "--points", "0,35,20", "--blind"], "the isra rules give no bonus for going out blind"),
    (["--round", "8", "--out", "Ann", "--points", "0,35,20"], "isra has rounds 1 to 7; there is no round 8"),
    (["--round", "3", "--out", "Ann", "--points", "0,35,20"], "round 3 cannot be entered before round 2"),
    (["--round", "1", "--out", "Ann", "--points", "0,35,20"], "round 1 is already entered (add --replace"),
    (["--round", "2", "--replace", "--out", "Ann", "--points", "0,35,20"], "round 2 has not been entered yet"),
])
def test_bad_round_is_refused_and_changes_nothing(tmp_path: Path, capsys: Cap, extra: list[str],
                                                  message: str) -> None:
    db = tmp_path / "pad.sqlite3"
    sp(capsys, db, "new", "--rules", "isra", "--players", "Ann,Bob,Cy", "--no-entry")
    assert sp(capsys, db, "add", "1", "--out", "Bob", "--points", "5,0,5")[0] == 0
    before = dump(db)
    code, out, err = sp(capsys, db, "add", "1", *extra)
    assert code == 2, out
    assert message in err
    assert err.startswith("shanghai: ") and len(err.strip().splitlines()) == 1
    assert dump(db) == before


def test_cut_refused_in_a_preset_without_the_cut(tmp_path: Path, capsys: Cap,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "pad.sqlite3"
    sp(capsys, db, "new", "--rules", "may-i", "--players", "Ann,Bob,Cy", "--no-entry")
    before = dump(db)
    code, _, err = sp(capsys, db, "add", "1", "--out", "Ann", "--points", "0,35,20", "--cut", "Bob")
    assert code == 2 and "the may-i rules have no THE CUT, so nobody can get it" in err
    assert dump(db) == before
    # The dialog of a preset without THE CUT does not ask for it: 4 lines make a round.
    code, out, _ = sp(capsys, db, "continue", stdin="Ann\n35\n20\nq\n", monkeypatch=monkeypatch)
    assert code == 0 and "THE CUT" not in out
    assert load(db, 1).rounds[0].points == (0, 35, 20)


def test_a_bad_script_line_stops_with_its_number_and_keeps_earlier_rounds(
        tmp_path: Path, capsys: Cap, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "pad.sqlite3"
    code, _, err = sp(capsys, db, "new", "--rules", "isra", "--players", "Ann,Bob,Cy",
                      stdin="Ann\n35\n20\n\nBob\n20\n-5\n", monkeypatch=monkeypatch)
    assert code == 2
    assert "input line 7: points cannot be negative (Cy: -5)" in err
    pad = load(db, 1)
    assert [r.points for r in pad.rounds] == [(0, 35, 20)]
    code, _, err = sp(capsys, db, "continue", stdin="Zed\n", monkeypatch=monkeypatch)
    assert code == 2 and "input line 1: unknown player 'Zed'" in err
    assert len(load(db, 1).rounds) == 1


@pytest.mark.parametrize(("argv", "message"), [
    (["--rules", "isra", "--players", "Ann,Bob"], "isra is played by 3 to 8 players, not 2"),
    (["--rules", "isra", "--players", "Ann,Bob,ann"], "two players are called 'ann'"),
    (["--rules", "isra", "--players", "Ann,,Cy"], "a player's name is empty"),
    (["--rules", "isra", "--players", "Ann,Bob,q"], "'q' cannot be a player's name"),
    (["--rules", "nope", "--players", "Ann,Bob,Cy"], "unknown rule set 'nope'"),
    (["--rules", "isra", "-o", "no-split", "--players", "Ann,Bob,Cy"], "option 'no-split' applies to"),
    (["--rules", "isra", "--house", "wilds=none", "--players", "Ann,Bob,Cy"], "cannot change 'wilds'"),
    (["--rules", "isra", "--house", "dunce_cap=maybe", "--players", "Ann,Bob,Cy"], "dunce_cap is yes or no"),
])
def test_bad_new_game_is_refused_and_stores_nothing(tmp_path: Path, capsys: Cap, argv: list[str],
                                                    message: str) -> None:
    db = tmp_path / "pad.sqlite3"
    code, _, err = sp(capsys, db, "new", *argv, "--no-entry")
    assert code == 2 and message in err
    assert not db.exists()


def test_unknown_game_and_missing_database(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "pad.sqlite3"
    code, _, err = sp(capsys, db, "history")
    assert code == 2 and "no score pad database at" in err
    assert not db.exists()
    sp(capsys, db, "new", "--rules", "isra", "--players", "Ann,Bob,Cy", "--no-entry")
    code, _, err = sp(capsys, db, "show", "9")
    assert code == 2 and "there is no game 9" in err
    code, _, err = sp(capsys, db, "add", "abc", "--out", "Ann", "--points", "0,5,5")
    assert code == 2 and "not 'abc'" in err
    code, _, err = sp(capsys, db, "delete", "1")
    assert code == 2 and "add --yes" in err
    assert sp(capsys, db, "delete", "1", "--yes")[0] == 0
    assert sp(capsys, db, "history")[1].startswith("no games yet")


# -- storage --------------------------------------------------------------------------------------------

def test_database_location_wal_and_schema_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHANGHAI_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_db_path() == tmp_path / "xdg" / "shanghai" / "scorepad.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_db_path() == tmp_path / "home" / ".local" / "share" / "shanghai" / "scorepad.sqlite3"
    monkeypatch.setenv("SHANGHAI_DATA_DIR", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "scorepad.sqlite3"
    assert main(["scorepad", "new", "--rules", "isra", "--players", "Ann,Bob,Cy", "--no-entry"]) == 0
    db = tmp_path / "data" / "scorepad.sqlite3"
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    con.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    con.commit()
    con.close()
    with pytest.raises(ScorePadError, match="written by a newer shanghai"):
        ScorePadStore(db)
    other = tmp_path / "other.sqlite3"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    with pytest.raises(ScorePadError, match="not a score pad database"):
        ScorePadStore(other)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(ScorePadError, match="not a score pad database"):
        ScorePadStore(junk)


def test_a_stale_pad_cannot_overwrite_a_newer_one(tmp_path: Path) -> None:
    with ScorePadStore(tmp_path / "pad.sqlite3") as store:
        pad = store.create(ScorePad.new("isra", ["Ann", "Bob", "Cy"]))
        entry = pad.score_round({1: HandEntry(5), 2: HandEntry(5)}, went_out=0)
        store.save_round(pad, entry)
        with pytest.raises(ScorePadError, match="changed meanwhile"):
            store.save_round(pad, entry)
        assert len(store.load(1).rounds) == 1


def test_replace_corrects_a_round(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "pad.sqlite3"
    sp(capsys, db, "new", "--rules", "isra", "--players", "Ann,Bob,Cy", "--no-entry")
    sp(capsys, db, "add", "1", "--out", "Ann", "--points", "0,35,20")
    sp(capsys, db, "add", "1", "--out", "Bob", "--points", "10,0,20")
    code, _, err = sp(capsys, db, "add", "1", "--round", "1", "--replace", "--out", "Cy", "--points", "40,35,0",
                      "--cut", "Ann")
    assert code == 0, err
    pad = load(db, 1)
    assert [r.points for r in pad.rounds] == [(40, 85, 50), (10, 0, 20)]
    assert pad.totals == (50, 85, 70) and pad.stars == (0, 1, 1)
    code, out, _ = sp(capsys, db, "undo", "1")
    assert code == 0 and "removed round 2 of game 1" in out
    assert load(db, 1).totals == (40, 85, 50)


# -- statistics and export ------------------------------------------------------------------------------

# Five games of isra-junior (3 rounds, no cut, no dunce cap unless a house rule), hand-computed:
#  1 Ann Bob Cy:   Ann out (0,20,30), Bob out (10,0,30), Ann out (0,40,30)   totals 10, 60, 90   crown Ann
#  2 Ann Bob Cy:   Bob out (50,0,20), Cy out (30,20,0), Ann out (0,40,40)    totals 80, 60, 60   crown Bob+Cy
#  3 Bob Cy Dee (dunce_cap=yes): Bob out (0,30,50), Bob out (0,20,40), Cy out (25,0,5)
#                                                                            totals 25, 50, 95   crown Bob, dunce Dee
#  4 Ann Bob Cy:   Cy out (20,10,0), Bob out (15,0,35), Bob out (10,0,50)    totals 45, 10, 85   crown Bob
#  5 Ann Bob Cy:   Ann out (0,5,5) and nothing more: unfinished, never counted
# Ann: 3 games (1, 2, 4), 1 win, average (10+80+45)/3 = 45, best 10 (game 1), worst 80 (game 2),
#      rounds won 2+1+0 = 3 of 9, longest streak 1.
# Bob: 4 games, 3 wins (1 shared: game 2), average (60+60+25+10)/4 = 38.75, best 10 (game 4), worst 60
#      (games 1 and 2: the earlier, 1), rounds won 1+1+2+2 = 6 of 12, longest streak 3 (games 2, 3, 4).
# Cy:  4 games, 1 win (shared), average (90+60+50+85)/4 = 71.25, best 50 (game 3), worst 90 (game 1),
#      rounds won 0+1+1+1 = 3 of 12, longest streak 1.
# Dee: 1 game, no win, 1 dunce cap, average 95, best = worst = 95 (game 3), rounds won 0 of 3.
STATS_GAMES: list[tuple[str, list[str], list[tuple[str, str]]]] = [
    ("Ann,Bob,Cy", [], [("Ann", "0,20,30"), ("Bob", "10,0,30"), ("Ann", "0,40,30")]),
    ("Ann,Bob,Cy", [], [("Bob", "50,0,20"), ("Cy", "30,20,0"), ("Ann", "0,40,40")]),
    ("Bob,Cy,Dee", ["--house", "dunce_cap=yes"], [("Bob", "0,30,50"), ("Bob", "0,20,40"), ("Cy", "25,0,5")]),
    ("ann,Bob,Cy", [], [("Cy", "20,10,0"), ("Bob", "15,0,35"), ("Bob", "10,0,50")]),
    ("Ann,Bob,Cy", [], [("Ann", "0,5,5")]),
]


def make_stats_games(db: Path, capsys: Cap) -> None:
    for game_id, (players, house, rounds) in enumerate(STATS_GAMES, 1):
        assert sp(capsys, db, "new", "--rules", "isra-junior", "--players", players, *house, "--no-entry")[0] == 0
        for out, points in rounds:
            code, _, err = sp(capsys, db, "add", str(game_id), "--out", out, "--points", points)
            assert code == 0, err


def test_stats_across_games(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "pad.sqlite3"
    make_stats_games(db, capsys)
    with ScorePadStore(db) as store:
        pads = store.load_all()
    assert [p.totals for p in pads] == [(10, 60, 90), (80, 60, 60), (25, 50, 95), (45, 10, 85), (0, 5, 5)]
    stats = {s.name: s for s in player_stats(pads)}
    assert [s.name for s in player_stats(pads)] == ["Bob", "ann", "Cy", "Dee"]
    ann, bob, cy, dee = stats["ann"], stats["Bob"], stats["Cy"], stats["Dee"]
    assert (ann.games, ann.wins, ann.shared_wins, ann.average_total) == (3, 1, 0, 45.0)
    assert (ann.best_total, ann.best_game, ann.worst_total, ann.worst_game) == (10, 1, 80, 2)
    assert (ann.rounds_won, ann.rounds_played, ann.longest_streak, ann.dunce_caps) == (3, 9, 1, 0)
    assert (bob.games, bob.wins, bob.shared_wins, bob.average_total) == (4, 3, 1, 38.75)
    assert (bob.best_total, bob.best_game, bob.worst_total, bob.worst_game) == (10, 4, 60, 1)
    assert (bob.rounds_won, bob.rounds_played, bob.longest_streak, bob.current_streak) == (6, 12, 3, 3)
    assert bob.recent_average == 38.75  # fewer games than RECENT: all of them
    assert (cy.games, cy.wins, cy.shared_wins, cy.average_total) == (4, 1, 1, 71.25)
    assert (cy.best_total, cy.best_game, cy.worst_total, cy.worst_game) == (50, 3, 90, 1)
    assert (cy.rounds_won, cy.longest_streak) == (3, 1)
    assert (dee.games, dee.wins, dee.dunce_caps, dee.average_total, dee.best_total, dee.worst_total) == (
        1, 0, 1, 95.0, 95, 95)
    assert (dee.rounds_won, dee.rounds_played, dee.longest_streak) == (0, 3, 0)

    code, out, _ = sp(capsys, db, "stats", "--player", "bob")
    assert code == 0
    row = out.splitlines()[1].split()
    assert row[:7] == ["Bob", "4", "3", "1", "0", "38.8", "38.8"]  # ..., average, last 5
    assert "10 (4)" in out and "60 (1)" in out and "6/12" in out and row[-1] == "3"
    code, _, err = sp(capsys, db, "stats", "--player", "Zed")
    assert code == 2 and "'Zed' has played no finished game" in err
    code, out, _ = sp(capsys, db, "stats", "--rules", "isra")
    assert code == 0 and "no finished games" in out
    code, out, _ = sp(capsys, db, "history", "--player", "dee")
    assert code == 0 and len(out.splitlines()) == 2 and "Bob" in out.splitlines()[1]


def test_csv_export(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "pad.sqlite3"
    make_stats_games(db, capsys)
    sp(capsys, db, "new", "--rules", "isra", "--players", "Ann,Bob,Cy", "--no-entry")
    sp(capsys, db, "add", "6", "--out", "Ann", "--points", "Bob=35", "--cards", "Cy=KS 2H JK", "--cut", "Bob")
    rounds_csv, games_csv = tmp_path / "rounds.csv", tmp_path / "games.csv"
    code, out, _ = sp(capsys, db, "export", "--csv", str(rounds_csv), "--games-csv", str(games_csv))
    assert code == 0 and "6 games, 14 rounds written" in out
    with open(rounds_csv, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 14 * 3
    assert rows[0] == {"game": "1", "started": rows[0]["started"], "finished": rows[0]["finished"],
                       "rules": "isra-junior", "round": "1", "contract": "SET SET: 2 sets of 3", "seat": "1",
                       "player": "Ann", "hand_points": "0", "cards": "", "went_out": "1", "cut": "0",
                       "blind": "", "points": "0", "total": "0", "star": "1"}
    assert rows[0]["finished"] and rows[0]["started"].endswith("Z")
    last = {r["player"]: r for r in rows if r["game"] == "6"}
    assert last["Cy"]["cards"] == "KS 2H JK" and last["Cy"]["hand_points"] == "65" and last["Cy"]["points"] == "115"
    assert last["Bob"]["cut"] == "1" and last["Bob"]["points"] == "35" and last["Ann"]["points"] == "50"
    assert [r["total"] for r in rows if r["game"] == "2" and r["player"] == "Cy"] == ["20", "20", "60"]
    with open(games_csv, newline="", encoding="utf-8") as f:
        games = list(csv.DictReader(f))
    assert len(games) == 6 * 3
    crowned = [(g["game"], g["player"]) for g in games if g["crown"] == "1"]
    assert crowned == [("1", "Ann"), ("2", "Bob"), ("2", "Cy"), ("3", "Bob"), ("4", "Bob")]
    assert [(g["game"], g["player"]) for g in games if g["dunce_cap"] == "1"] == [("3", "Dee")]
    assert [g["total"] for g in games if g["game"] == "5"] == ["0", "5", "5"]
    assert {g["rounds_entered"] for g in games if g["game"] == "5"} == {"1"}
    code, out, _ = sp(capsys, db, "export", "--csv", "-")
    assert code == 0 and out.splitlines()[0].startswith("game,started,finished,rules,round")
    assert len(out.splitlines()) == 1 + 14 * 3


def test_help_lists_the_subcommands(capsys: Cap) -> None:
    assert main(["scorepad", "--help"]) == 0
    out = capsys.readouterr().out
    for word in ("new", "add", "continue", "show", "history", "stats", "export", "SHANGHAI_DATA_DIR"):
        assert word in out
    assert main(["scorepad", "add", "--help"]) == 0
    assert "--cards NAME=CARDS" in capsys.readouterr().out
    assert main(["scorepad"]) == 2
    assert "no subcommand given" in capsys.readouterr().err


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_round_of_every_preset(tmp_path: Path, capsys: Cap, name: str) -> None:
    """Round r: seat (r-1) % 3 goes out, the other two hold 5*r points. Seat s's total is the sum of 5*r
    over the rounds it did not win; the dunce cap only where the preset has one."""
    db = tmp_path / "pad.sqlite3"
    rules = PRESETS[name]
    assert sp(capsys, db, "new", "--rules", name, "--players", "Ann,Bob,Cy", "--no-entry")[0] == 0
    names = ["Ann", "Bob", "Cy"]
    for r in range(1, len(rules.rounds) + 1):
        out = names[(r - 1) % 3]
        code, text, err = sp(capsys, db, "add", "last", "--out", out,
                             "--points", ",".join(f"{n}={5 * r}" for n in names if n != out))
        assert code == 0, err
        if r == len(rules.rounds) - 1:
            assert f"Next: round {r + 1} of {r + 1}, {pad_contract(name, r + 1)}" in text
    assert "Crown: " in text
    expected = tuple(sum(5 * r for r in range(1, len(rules.rounds) + 1) if (r - 1) % 3 != s) for s in range(3))
    pad = load(db, 1)
    assert pad.totals == expected and pad.is_finished
    assert sum(pad.stars) == len(rules.rounds)
    low, high = min(expected), max(expected)
    assert pad.crown() == tuple(s for s in range(3) if expected[s] == low)
    assert pad.dunce() == (tuple(s for s in range(3) if expected[s] == high) if name in ("isra", "isra-express")
                           else ())
    code, _, err = sp(capsys, db, "add", "1", "--round", str(len(rules.rounds) + 1), "--out", "Ann",
                      "--points", "Bob=5,Cy=5")
    assert code == 2 and f"{name} has rounds 1 to {len(rules.rounds)}; there is no round" in err


def pad_contract(name: str, number: int) -> str:
    return ScorePad.new(name, ["Ann", "Bob", "Cy"]).contract_text(number)


def test_scorepad_is_a_shanghai_command(capsys: Cap) -> None:
    assert main(["--help"]) == 0
    assert "scorepad" in capsys.readouterr().out
