"""``shanghai coach``: the coach's advice for a game in progress, and the review of a seat's play,
from a game record on the command line."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from shanghai.bots.coach import REVIEW_DEALS, advise, review
from shanghai.bots.expert import ExpertPlayer
from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.match import play_game
from shanghai.cards import card_text
from shanghai.cli.main import main
from shanghai.cli.play import review_command, save_seats
from shanghai.engine.actions import parse_action
from shanghai.engine.game import Game
from shanghai.engine.record import GameRecord
from shanghai.engine.view import view
from shanghai.rules import game_rules, preset


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def save(game: Game, path: Path, names: list[str] | None = None) -> str:
    GameRecord.of(game, names).save(path)
    return str(path)


def experts_until(seed: int, actions: int, preset_name: str = "isra-junior", players: int = 3) -> Game:
    """A game between experts, stopped after ``actions`` actions."""
    game = Game.new(preset(preset_name), players, seed)
    experts = [ExpertPlayer(s) for s in range(players)]
    while len(game.actions) < actions:
        seat = game.to_act()[0]
        game.apply(experts[seat].choose(view(game, seat)))
    return game


def mixed_game(seed: int) -> Game:
    """isra-junior: seat 1 plays as greedy (so it plays otherwise than the coach now and then), the
    others as experts."""
    seats = [ExpertPlayer(0), GreedyPlayer(1), ExpertPlayer(2)]
    return play_game(preset("isra-junior"), 3, seed, seats=seats)


def test_coach_is_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "coach" in out
    code, out, _ = run(capsys, "coach", "--help")
    assert code == 0 and "usage: shanghai coach" in out and "--review" in out


def test_what_now_for_a_game_in_progress(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = experts_until(3, 40)
    seat = game.to_act()[0]
    v = view(game, seat)
    assert len(v.legal) > 1
    path = save(game, tmp_path / "game.jsonl", ["Ann", "Bob", "Cy"])
    code, out, err = run(capsys, "coach", path, "--json")
    assert code == 0 and not err
    obj: dict[str, Any] = json.loads(out)
    (advice,) = obj["advice"]
    tip = advise(v, seed=0)  # what the hint button says there
    assert advice["seat"] == seat and advice["name"] == ["Ann", "Bob", "Cy"][seat]
    assert parse_action(advice["action"]) == tip.action and tip.action in v.legal
    assert advice["reason"] == tip.reason and advice["advice"].startswith(advice["move"])
    assert sorted(advice["hand"]) == sorted(card_text(c) for c in v.hand)
    assert (obj["round"], obj["rounds"], obj["contract"]) == (v.round_number, v.rounds, v.contract)
    code, out, _ = run(capsys, "coach", path)
    assert code == 0
    head, line = out.splitlines()
    assert f"{advice['name']} (seat {seat}) to act" in head and " ".join(advice["hand"]) in head
    assert line == f"  coach: {advice['advice']}"
    # by name or number, in any case; a seat with nothing to do is told who is to act
    code, again, _ = run(capsys, "coach", path, "--seat", advice["name"].upper())
    assert code == 0 and again == out
    idle = (seat + 1) % 3
    code, _, err = run(capsys, "coach", path, "--seat", str(idle))
    assert code == 2 and f"{['Ann', 'Bob', 'Cy'][idle]} has nothing to do now" in err


def test_what_now_for_every_seat_that_may_act(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = Game.new(preset("may-i"), 4, 5)
    experts = [ExpertPlayer(s) for s in range(4)]
    while len(game.to_act()) < 2:  # a buy window open to several seats at once
        seat = game.to_act()[0]
        game.apply(experts[seat].choose(view(game, seat)))
    path = save(game, tmp_path / "buy.jsonl")
    code, out, _ = run(capsys, "coach", path, "--json")
    assert code == 0
    seats = [a["seat"] for a in json.loads(out)["advice"]]
    assert seats == list(game.to_act())


def test_review_from_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = mixed_game(21)
    path = save(game, tmp_path / "game.jsonl", ["Ann", "Bob", "Cy"])
    decisions = review(GameRecord.of(game), seat=1, deals=REVIEW_DEALS)
    differ = [d for d in decisions if not d.agreed]
    assert 0 < len(differ) < len(decisions)
    code, out, _ = run(capsys, "coach", path, "--review", "--seat", "bob", "--json")
    assert code == 0
    obj = json.loads(out)
    # each difference weighed over the default number of deals, as the library weighs it
    assert [m["cost"]["points"] for m in obj["moves"]] == [round(d.cost.points, 1) for d in differ if d.cost]
    assert all(m["cost"]["deals"] == REVIEW_DEALS for m in obj["moves"])
    assert obj["weighed"]["moves"] == len(differ) and obj["weighed"]["words"].startswith(
        f"Weighed over {REVIEW_DEALS} deals")
    assert (obj["seat"], obj["name"], obj["decisions"], obj["agreed"]) == \
        (1, "Bob", len(decisions), len(decisions) - len(differ))
    assert [m["index"] for m in obj["moves"]] == [d.index for d in differ]
    assert sum(p["decisions"] for p in obj["by_phase"].values()) == len(decisions)
    first = obj["moves"][0]
    assert first["played"] != first["coach"] and first["reason"] and not first["agreed"]
    code, out, _ = run(capsys, "coach", path, "--review", "--seat", "1", "--deals", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("the coach reviews Bob (seat 1)")
    assert sum(1 for ln in lines if ln.startswith("    coach: ")) == len(differ)
    assert sum(1 for ln in lines if ln.startswith("    Bob: ")) == len(differ)
    weighed = [ln for ln in lines if ln.startswith("    weighed: ")]
    assert len(weighed) == len(differ) and all("over 3 deals of the cards you could not see" in ln for ln in weighed)
    assert lines[-1].startswith("Weighed over 3 deals")
    assert f"Bob played as the coach would in {len(decisions) - len(differ)} of {len(decisions)} decisions" in out
    # --all lists every decision, the agreed ones marked so
    code, out, _ = run(capsys, "coach", path, "--review", "--seat", "1", "--all", "--json", "--deals", "0")
    moves = json.loads(out)["moves"]
    assert [m["index"] for m in moves] == [d.index for d in decisions]
    assert sum(m["agreed"] for m in moves) == len(decisions) - len(differ)
    assert json.loads(out)["weighed"] is None and all(m["cost"] is None for m in moves)  # --deals 0: not weighed


def test_review_takes_the_person_of_the_terminal_game(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = mixed_game(22)
    path = tmp_path / "last-game.jsonl"
    save(game, path, ["Bob", "You", "Cy"])
    code, _, err = run(capsys, "coach", str(path), "--review")
    assert code == 2 and "name the seat to review with --seat" in err and "1 You" in err
    (tmp_path / "last-game.seats.json").write_text(json.dumps({"kinds": ["medium", "human", "hard"]}))
    code, out, _ = run(capsys, "coach", str(path), "--review", "--json", "--deals", "0")
    assert code == 0 and json.loads(out)["name"] == "You"
    # without FILE: the terminal game's last game, in the user's data folder
    monkeypatch.setenv("SHANGHAI_DATA_DIR", str(tmp_path))
    code, again, _ = run(capsys, "coach", "--review", "--json", "--deals", "0")
    assert code == 0 and json.loads(again)["moves"] == json.loads(out)["moves"]
    monkeypatch.setenv("SHANGHAI_DATA_DIR", str(tmp_path / "none"))
    code, _, err = run(capsys, "coach")
    assert code == 2 and "no game to look at" in err and "shanghai play" in err


def test_coach_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    over = save(mixed_game(23), tmp_path / "over.jsonl")
    code, _, err = run(capsys, "coach", over)
    assert code == 2 and "is over: nothing to advise now" in err
    code, _, err = run(capsys, "coach", over, "--review", "--seat", "Nobody")
    assert code == 2 and "no seat 'Nobody'" in err and "0 Player 1" in err
    code, _, err = run(capsys, "coach", over, "--all")
    assert code == 2 and "--all" in err and "--review" in err
    code, _, err = run(capsys, "coach", over, "--deals", "4")
    assert code == 2 and "--deals weighs the differences of a review: use it with --review" in err
    for bad in ("1", "-3"):
        code, _, err = run(capsys, "coach", over, "--review", "--seat", "0", "--deals", bad)
        assert code == 2 and f"--deals is 0 (weigh nothing) or at least 2, not {bad}" in err
    manipulation = tmp_path / "manipulation.jsonl"
    GameRecord(game_rules("manipulation", []), 1, ["Ann", "Bob", "Cy"], []).save(manipulation)
    code, _, err = run(capsys, "coach", str(manipulation))
    assert code == 2 and "not manipulation rummy" in err
    record = GameRecord.load(over)
    illegal = tmp_path / "illegal.jsonl"
    GameRecord(record.rules, record.seed, record.players, [*record.actions[:6], "1 discard ZZ"]).save(illegal)
    for extra in ([], ["--review", "--seat", "0"]):
        code, _, err = run(capsys, "coach", str(illegal), *extra)
        assert code == 1 and "action 6" in err
    code, _, err = run(capsys, "coach", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read" in err


def test_seats_by_name_number_and_clashing_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = mixed_game(24)
    path = save(game, tmp_path / "names.jsonl", ["Ann", "ann", "1"])

    def seat_of(*argv: str) -> int:
        code, out, err = run(capsys, "coach", path, "--review", "--json", "--deals", "0", *argv)
        assert code == 0, err
        return int(json.loads(out)["seat"])
    assert seat_of("--seat", "Ann") == 0 and seat_of("--seat=ann") == 1  # the exact name first
    assert seat_of("--seat", "1") == 2  # a name before a number
    assert seat_of("--seat", "0") == 0
    code, _, err = run(capsys, "coach", path, "--review", "--seat", "ANN")
    assert code == 2 and "'ANN' names 2 seats: give its number" in err


def test_the_game_over_screen_names_a_command_that_works(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    """What the terminal games print at the end runs as printed, one person at the table or two."""
    game = mixed_game(25)
    path = tmp_path / "my game.jsonl"
    save(game, path, ["Ann", "-Bo", "Cy"])
    for kinds, seat in ((["medium", "human", "hard"], None), (["human", "human", "hard"], "-Bo")):
        save_seats(path, kinds)
        command = review_command(path, seat)
        assert command.startswith("shanghai coach ") and "'" in command  # the path with its space, quoted
        code, out, err = run(capsys, *shlex.split(command)[1:], "--json", "--deals", "0")
        assert code == 0, (command, err)
        assert json.loads(out)["name"] == "-Bo"


def test_what_now_at_the_cut_and_for_the_people_at_the_table(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    cut = Game.new(preset("isra"), 4, 3)  # isra cuts for the deal: the hand is not dealt yet
    path = save(cut, tmp_path / "cut.jsonl", ["Ann", "Bob", "Cy", "Di"])
    code, out, _ = run(capsys, "coach", path)
    assert code == 0 and "to act; before the deal" in out and "coach: cut " in out
    # with the terminal game's seats file, only a person's question is answered (no other hand shown)
    game = Game.new(preset("may-i"), 4, 5)
    experts = [ExpertPlayer(s) for s in range(4)]
    while len(game.to_act()) < 3:  # a buy window open to three seats
        seat = game.to_act()[0]
        game.apply(experts[seat].choose(view(game, seat)))
    waiting = list(game.to_act())
    path = save(game, tmp_path / "buy.jsonl", ["Ann", "Bob", "Cy", "Di"])
    people = [waiting[0], next(s for s in range(4) if s not in waiting)]
    save_seats(Path(path), ["human" if s in people else "medium" for s in range(4)])
    code, out, _ = run(capsys, "coach", path, "--json")
    assert code == 0 and [a["seat"] for a in json.loads(out)["advice"]] == [waiting[0]]
    assert json.loads(out)["advice"][0]["move"] in (f"buy {card_text(game.discards[-1])}",
                                                    f"pass on {card_text(game.discards[-1])}")
    save_seats(Path(path), ["human" if s in waiting[:2] else "medium" for s in range(4)])
    code, _, err = run(capsys, "coach", path)
    assert code == 2 and "may act now: name one with --seat" in err
    save_seats(Path(path), ["human" if s not in waiting else "medium" for s in range(4)])
    code, _, err = run(capsys, "coach", path)
    assert code == 2 and "no person at this table has anything to do now" in err


def test_a_record_without_moves(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = save(Game.new(preset("isra-junior"), 3, 1), tmp_path / "new.jsonl", ["Ann", "Bob", "Cy"])
    code, out, _ = run(capsys, "coach", path, "--review", "--seat", "Bob")
    assert code == 0 and "Bob made no choice in this record" in out
