"""The plain-text terminal game (``shanghai play``), driven by scripted input."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from shanghai.cards import card_text, parse_cards, rank_sort_key, sort_key
from shanghai.cli.common import seat_words
from shanghai.cli.play import (
    Bot,
    RecordFile,
    TextGame,
    add_play_arguments,
    default_record_path,
    make_bots,
    run_play,
)
from shanghai.engine import (
    Buy,
    CallShanghai,
    Cut,
    Discard,
    DrawStock,
    Game,
    GoDown,
    LayOff,
    Pass,
    Phase,
    ReplaceWild,
    TakeDiscard,
)
from shanghai.engine.actions import Action
from shanghai.engine.game import TableMeld
from shanghai.engine.record import GameRecord
from shanghai.engine.view import view
from shanghai.errors import IllegalActionError
from shanghai.melds import make_meld
from shanghai.rules import preset

NAMES4 = ["Ann", "Bob", "Cy", "Di"]
NAMES3 = ["Ann", "Bob", "Cy"]


class Script:
    """Answers the game's prompts like a player typing commands, from the human's view only.

    Each choice depends only on the state (the number of actions so far and the prompt), so a game
    stopped and resumed is answered exactly as one played in a single sitting. Commands are typed
    in varied forms: numbers for cards, descending runs, lay-offs without a meld or an end.
    """

    def __init__(self, *, quit_at: int | None = None, stop_after_rounds: int | None = None) -> None:
        self.tg: TextGame | None = None
        self.quit_at = quit_at
        self.stop_after_rounds = stop_after_rounds
        self.prompts: list[str] = []
        self.answers: list[str] = []

    def __call__(self, prompt: str) -> str:
        answer = self.answer(prompt)
        self.prompts.append(prompt)
        self.answers.append(answer)
        return answer

    def answer(self, prompt: str) -> str:
        assert self.tg is not None
        game = self.tg.game
        rng = random.Random(f"{len(game.actions)}:{prompt}")
        if self.quit_at is not None and len(game.actions) >= self.quit_at:
            return "quit"
        if "Press Enter" in prompt:
            if self.stop_after_rounds is not None and len(game.round_results) >= self.stop_after_rounds:
                return "quit"
            return ""
        if "[Y/n]" in prompt:
            return "y"
        if prompt.startswith("Which?"):
            return rng.choice(["", "1"])
        v = self.tg.view()
        legal = v.legal
        assert legal, f"asked {prompt!r} with no legal move"
        progress = [a for a in legal if isinstance(a, GoDown | LayOff | ReplaceWild)]
        action: Action = rng.choice(progress) if progress and rng.random() < 0.9 else rng.choice(legal)
        return self.type(action, rng)

    def type(self, a: Action, rng: random.Random) -> str:
        assert self.tg is not None
        hand = sorted(self.tg.view().hand, key=rank_sort_key if self.tg.sort_by == "rank" else sort_key)
        if isinstance(a, Cut):
            return rng.choice(["", f"cut {a.target}", str(a.target)])
        if isinstance(a, DrawStock):
            return rng.choice(["draw", "DRAW", "d"])
        if isinstance(a, TakeDiscard):
            return rng.choice(["take", "Take"])
        if isinstance(a, Buy):
            return rng.choice(["y", "buy", "yes"])
        if isinstance(a, Pass):
            return rng.choice(["", "n", "pass"])
        if isinstance(a, GoDown):
            if rng.random() < 0.5:
                return "down"
            parts = []
            for m in a.melds:  # runs typed highest card first, kinds sometimes left out
                cards = m.cards[::-1] if m.kind == "run" else m.cards
                kind = f"{m.kind} " if rng.random() < 0.5 else ""
                parts.append(kind + " ".join(card_text(c) for c in cards))
            return "down " + " | ".join(parts)
        if isinstance(a, LayOff):
            if rng.random() < 0.5:
                return f"layoff {card_text(a.card).lower()}"  # the game asks where when it matters
            return f"layoff {card_text(a.card)} m{a.meld}" + (f" {a.end}" if a.end else "")
        if isinstance(a, ReplaceWild):
            return rng.choice([f"replace {card_text(a.card)} m{a.meld}", f"replace {card_text(a.card)}"])
        if isinstance(a, Discard):
            if a.shanghai:
                return f"discard {card_text(a.card)} shanghai"
            if rng.random() < 0.5 and a.card in hand:
                return f"discard {hand.index(a.card) + 1}"
            return f"discard {card_text(a.card)}"
        if isinstance(a, CallShanghai):
            return f"shanghai m{a.meld}" + (f" {a.end}" if a.end else "")
        raise AssertionError(a)


def make(rules: str, names: list[str], seed: int, script: Callable[[str], str], *,
         record: Path | None = None, options: tuple[str, ...] = ()) -> tuple[TextGame, list[str]]:
    out: list[str] = []
    game = Game.new(preset(rules, options), len(names), seed)
    tg = TextGame(game, names, record=record, input_fn=script, output_fn=out.append)
    if isinstance(script, Script):
        script.tg = tg
    return tg, out


def text_of(out: list[str]) -> str:
    return "\n".join(out)


# -- whole games through text commands --------------------------------------------------------------
def test_a_whole_isra_round_by_text_commands(tmp_path: Path) -> None:
    script = Script(stop_after_rounds=1)
    path = tmp_path / "game.jsonl"
    tg, out = make("isra", NAMES4, 5, script, record=path)
    assert tg.run() == 0
    game, text = tg.game, text_of(out)
    assert len(game.round_results) == 1 and game.round_number == 2
    assert "Round 1/7 — 2 sets of 3 (SET SET)" in text
    assert "Round 1 is over (2 sets of 3)" in text
    assert "Score pad" in text and "Game saved to" in text
    assert any(p.startswith("Buy ") and "buys left) [y/N]" in p for p in script.prompts)
    # the human's commands did the playing: every seat-0 action came from a typed command
    assert sum(1 for a in game.actions if a.seat == 0) >= 5
    # the record on disk is the game, written as GameRecord.save would write it
    assert path.read_text(encoding="utf-8") == GameRecord.of(game, NAMES4).to_jsonl()
    assert GameRecord.load(path).replay().snapshot() == game.snapshot()


def test_a_whole_may_i_game_with_three_players(tmp_path: Path) -> None:
    script = Script()
    path = tmp_path / "may-i.jsonl"
    tg, out = make("may-i", NAMES3, 8, script, record=path)
    assert tg.run() == 0
    game, text = tg.game, text_of(out)
    assert game.is_over and len(game.round_results) == 7
    assert "Round 7/7 — 3 runs of 4 (RUN RUN RUN)" in text  # ISRA names stay with isra
    assert "The game is over." in text and "THE CROWN goes to" in text
    assert "DUNCE" not in text  # may-i has no dunce cap
    assert "Round 7 is over" in text
    # how to have the coach review this game (its record is not the default one: its path is named)
    assert f"Your play reviewed by the coach: shanghai coach {path} --review" in text
    record = GameRecord.load(path)
    assert record.end_totals == game.totals
    assert record.replay().snapshot() == game.snapshot()


def test_an_isra_game_to_the_end_shows_crown_and_dunce_cap() -> None:
    script = Script()
    tg, out = make("isra-junior", NAMES4, 3, script)
    assert tg.run() == 0
    text = text_of(out)
    assert tg.game.is_over and "THE CROWN goes to" in text
    assert "DUNCE" not in text  # the junior game has no dunce cap
    tg, out = make("isra-express", ["Ann", "Bob", "Cy"], 4, Script())
    assert tg.run() == 0
    assert "THE DUNCE CAP goes to" in text_of(out)


@pytest.mark.parametrize(("rules", "options"), [("family-10", ()), ("contract-10", ()),
                                                 ("may-i", ("shanghai-call",))])
def test_other_rule_sets_play_two_rounds(rules: str, options: tuple[str, ...]) -> None:
    tg, out = make(rules, NAMES4, 2, Script(stop_after_rounds=2), options=options)
    assert tg.run() == 0
    assert len(tg.game.round_results) == 2
    assert "Round 2 is over" in text_of(out)


# -- illegal commands ---------------------------------------------------------------------------------
def scripted(lines: list[str]) -> Callable[[str], str]:
    answers = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None
    return read


def first_human_decision(rules: str = "may-i", seed: int = 1) -> tuple[TextGame, list[str]]:
    """A game advanced (by its computer players) until seat 0 is to draw."""
    out: list[str] = []
    game = Game.new(preset(rules), 4, seed)
    tg = TextGame(game, NAMES4, input_fn=scripted([]), output_fn=out.append)
    while not (game.phase == Phase.DRAW and game.turn == 0):
        if 0 in game.to_act():
            tg.apply(DrawStock(0) if game.phase == Phase.DRAW else
                     next(a for a in game.legal_actions(0) if isinstance(a, Pass | Discard | Cut)))
        else:
            tg.step()
    return tg, out


@pytest.mark.parametrize("command", ["discard 1", "layoff 5H m0 high", "buy", "down", "replace 8D m2",
                                     "down set 7H 7S JK | run 5D 6D 7D 8D"])
def test_an_illegal_command_prints_the_engines_reason_and_changes_nothing(command: str) -> None:
    tg, out = first_human_decision()
    game = tg.game
    before = game.snapshot()
    out.clear()
    tg.input_fn = scripted([command])
    tg.step()
    assert game.snapshot() == before
    text = text_of(out)
    assert "Not allowed:" in text
    assert "you are to draw" in text  # the engine's words ("seat 0 is to draw"), in the player's


def test_reasons_are_the_engines_own() -> None:
    tg, out = first_human_decision()
    game = tg.game
    card = game.hands[0][0]
    with pytest.raises(IllegalActionError) as exc:
        game.copy().apply(Discard(0, card))
    before = game.snapshot()
    out.clear()
    tg.input_fn = scripted([f"discard {card_text(card)}"])
    tg.step()
    assert f"Not allowed: {seat_words(str(exc.value), tg.names, 0)}" in out
    assert game.snapshot() == before


def test_unknown_commands_and_cards_change_nothing() -> None:
    tg, out = first_human_decision()
    before = tg.game.snapshot()
    out.clear()
    tg.input_fn = scripted(["frobnicate", "discard 1X", "discard 99", "layoff", "help", "moves", "hint",
                            "sort rank", "scores", "look"])
    for _ in range(10):
        tg.step()
    assert tg.game.snapshot() == before
    text = text_of(out)
    assert "I don't know 'frobnicate'" in text
    assert "unknown card '1X'" in text
    assert "no card number 99" in text
    assert "Commands (case does not matter" in text
    assert "Legal moves:" in text and "  draw" in text
    assert "by rank" in text or "Your hand:" in text


def test_after_drawing_the_discard_number_and_down_work() -> None:
    tg, out = first_human_decision()
    game = tg.game
    tg.input_fn = scripted(["draw"])
    while game.phase != Phase.PLAY or game.turn != 0:
        tg.step()
    assert "You draw " in text_of(out)
    hand = sorted(game.hands[0], key=sort_key)
    tg.input_fn = scripted(["discard 2"])
    tg.step()
    assert game.discards[-1] == hand[1]
    assert f"You discard {card_text(hand[1])}." in out


# -- saving and resuming --------------------------------------------------------------------------------
def test_save_and_resume_continue_at_the_same_action_and_state(tmp_path: Path) -> None:
    path = tmp_path / "saved.jsonl"
    # one sitting
    whole, _ = make("isra", NAMES4, 21, Script(stop_after_rounds=1), record=tmp_path / "whole.jsonl")
    assert whole.run() == 0
    # the same game, stopped in the middle of the round ...
    quit_at = len(whole.game.actions) // 2
    stopped, out = make("isra", NAMES4, 21, Script(quit_at=quit_at), record=path)
    assert stopped.run() == 0
    assert len(stopped.game.actions) >= quit_at and not stopped.game.round_results
    assert "Game saved to" in text_of(out)
    saved = stopped.game.snapshot()
    # ... and resumed: the same action index and state
    record = GameRecord.load(path)
    game = record.replay()
    assert len(game.actions) == len(stopped.game.actions)
    assert game.snapshot() == saved
    script = Script(stop_after_rounds=1)
    out2: list[str] = []
    resumed = TextGame(game, record.players, record=path, input_fn=script, output_fn=out2.append)
    script.tg = resumed
    assert resumed.run(resumed=True) == 0
    assert f"Resuming after {len(stopped.game.actions)} actions" in text_of(out2)
    # it went on exactly as the game played in one sitting
    assert resumed.game.snapshot() == whole.game.snapshot()
    assert path.read_text(encoding="utf-8") == (tmp_path / "whole.jsonl").read_text(encoding="utf-8")


def test_resume_without_a_saved_game_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    args = parser.parse_args(["--resume", "--record", str(tmp_path / "none.jsonl")])
    assert run_play(args, input_fn=scripted([]), output_fn=lambda s: None) == 2
    assert "no saved game in" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("garbage\n", encoding="utf-8")  # not a record: bad input, as replay and coach say
    args = parser.parse_args(["--resume", "--record", str(bad)])
    assert run_play(args, input_fn=scripted([]), output_fn=lambda s: None) == 2
    assert "cannot resume the game in" in capsys.readouterr().err


def test_run_play_new_game_then_resume(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    path = tmp_path / "deep" / "dir" / "game.jsonl"
    args = parser.parse_args(["--rules", "may-i", "--players", "3", "--seed", "4", "--name", "Zoe",
                              "--record", str(path)])
    out: list[str] = []
    assert run_play(args, input_fn=scripted(["draw", "discard 1", "quit"]), output_fn=out.append) == 0
    record = GameRecord.load(path)
    assert record.players == ["Zoe", "Bob", "Cy"] and record.seed == 4 and record.rules.name == "may-i"
    game = record.replay()
    n = len(game.actions)
    assert "Zoe" in text_of(out)
    # --resume continues it; EOF behaves like quit
    out.clear()
    args = parser.parse_args(["--resume", "--record", str(path), "--rules", "isra", "--players", "6"])
    assert run_play(args, input_fn=scripted([]), output_fn=out.append) == 0
    assert f"Resuming after {n} actions" in text_of(out)
    assert "its own rules, players and seed stand (--players not used)" in text_of(out)
    assert "Game saved to" in text_of(out)
    assert GameRecord.load(path).replay().snapshot() == game.snapshot()
    # a new game in the same file keeps the unfinished one aside
    out.clear()
    args = parser.parse_args(["--seed", "9", "--record", str(path)])
    assert run_play(args, input_fn=scripted([]), output_fn=out.append) == 0
    aside = path.with_name("game.previous.jsonl")
    assert aside.exists() and GameRecord.load(aside).seed == 4
    assert GameRecord.load(path).seed == 9
    # and the next one never overwrites a game put aside: game.previous-2.jsonl (a reviewer found the
    # seed-4 game lost when a third game began)
    assert run_play(parser.parse_args(["--seed", "9", "--record", str(path), "--rules", "may-i", "--players", "3"]),
                    input_fn=scripted(["draw", "discard 1", "quit"]), output_fn=out.append) == 0
    assert run_play(parser.parse_args(["--seed", "10", "--record", str(path)]), input_fn=scripted([]),
                    output_fn=out.append) == 0
    assert GameRecord.load(aside).seed == 4
    assert GameRecord.load(path.with_name("game.previous-2.jsonl")).seed == 9
    assert path.with_name("game.previous-2.seats.json").exists()
    assert "is kept in" in text_of(out) and GameRecord.load(path).seed == 10


def test_run_play_refuses_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    for argv, status in ((["--players", "9"], 2), (["--rules", "nope"], 2), (["--option", "foo"], 2),
                         (["--rules", "manipulation", "--players", "2"], 2),
                         (["--resume", "--record", str(tmp_path / "missing.jsonl")], 2)):
        assert run_play(parser.parse_args(argv), input_fn=scripted([]), output_fn=lambda s: None) == status
        assert "shanghai play:" in capsys.readouterr().err


def test_arguments_and_default_record_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    args = parser.parse_args([])
    assert (args.rules, args.players, args.seed, args.option, args.record, args.resume) == \
        ("isra", 4, None, [], None, False)
    args = parser.parse_args(["--option", "no-split", "--option", "aces-high"])
    assert args.option == ["no-split", "aces-high"]
    monkeypatch.delenv("SHANGHAI_DATA_DIR", raising=False)  # set for every test by conftest.py
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_record_path() == tmp_path / "shanghai" / "last-game.jsonl"


def test_record_file_appends_exactly_what_save_writes(tmp_path: Path) -> None:
    game = Game.new(preset("isra"), 4, 2)
    path = tmp_path / "r.jsonl"
    rf = RecordFile(path, NAMES4)
    rf.write_all(game)
    rng = random.Random(1)
    for _ in range(40):
        seat = game.to_act()[0]
        game.apply(rng.choice(list(game.legal_actions(seat))))
        rf.sync(game)
        assert path.read_text(encoding="utf-8") == GameRecord.of(game, NAMES4).to_jsonl()


def test_eof_quits_and_saves(tmp_path: Path) -> None:
    path = tmp_path / "eof.jsonl"
    tg, out = make("isra", NAMES4, 1, scripted([]), record=path)
    assert tg.run() == 0
    assert "Game saved to" in text_of(out)
    assert GameRecord.load(path).replay().snapshot() == tg.game.snapshot()


# -- asking when a command is ambiguous -----------------------------------------------------------------
def test_runs_in_any_order_and_the_wilds_place_is_asked() -> None:
    tg, out = first_human_decision("isra")
    tg.input_fn = scripted([])
    assert [card_text(c) for c in tg._place_run(parse_cards("8D 7D 6D 5D"))] == ["5D", "6D", "7D", "8D"]
    tg.input_fn = scripted(["2"])
    placed = tg._place_run(parse_cards("JK 6H 7H 8H"))
    assert [card_text(c) for c in placed] == ["6H", "7H", "8H", "JK"]
    assert any("1) JK 6H 7H 8H" in line for line in out)
    tg.input_fn = scripted([""])  # Enter keeps the order as typed
    assert [card_text(c) for c in tg._place_run(parse_cards("JK 6H 7H 8H"))] == ["JK", "6H", "7H", "8H"]


def down_beside_a_run(extra: str) -> tuple[TextGame, list[str], Game]:
    """A prepared position: the human, in turn to play, is down; another player's run 5D 6D 7D 8D is on
    the table (the last meld); ``extra`` cards join the human's hand."""
    tg, out = first_human_decision("isra", 3)
    game = tg.game
    tg.apply(DrawStock(0))
    while not (game.phase == Phase.PLAY and game.turn == 0):
        tg.step()
    game.table.append(TableMeld(len(game.table), 1, make_meld(parse_cards("5D 6D 7D 8D"), game.rules)))
    game.down[0] = True
    game.hands[0].extend(parse_cards(extra))
    return tg, out, game


def test_a_layoff_that_fits_both_ends_asks_which() -> None:
    # the human holds a joker that extends the run at either end
    tg, out, game = down_beside_a_run("JK 2S")
    legal = [a for a in game.legal_actions(0) if isinstance(a, LayOff) and a.card == parse_cards("JK")[0]
             and a.meld == run_id(game)]
    assert {a.end for a in legal} == {"low", "high"}
    tg.input_fn = scripted([f"layoff jk m{run_id(game)}", "2"])
    tg._shown = (len(game.actions), game.phase)
    tg.step()
    assert any("fits both ends of the run" in line for line in out)
    assert [card_text(c) for c in game.table[run_id(game)].meld.cards] == ["5D", "6D", "7D", "8D", "JK"]


def test_a_layoff_that_fits_neither_end_says_once_what_would() -> None:
    tg, out, game = down_beside_a_run("2S")
    before = game.snapshot()
    tg.input_fn = scripted([f"layoff 2S m{run_id(game)}"])
    tg._shown = (len(game.actions), game.phase)
    tg.step()
    assert game.snapshot() == before
    said = [line for line in out if line.startswith("Not allowed")]
    assert said == [f"Not allowed: 2S does not go on m{run_id(game)} (5D 6D 7D 8D): only 4D or 9D (or a wild) "
                    f"goes on it"], said


def test_down_without_the_contract_says_so_plainly() -> None:
    tg, out = playing_position("isra", 2)
    tg.game.hands[0] = parse_cards("2S 3S 4S 10S AH 4H 5H KH AD 2D 8C 9C")  # no set of 3, no wild
    tg.input_fn = scripted(["down"])
    tg.step()
    assert "Not allowed: your hand does not meet the contract (2 sets of 3)" in out, out


def test_the_engines_reasons_name_players_not_seat_numbers() -> None:
    tg, out = playing_position("isra", 2)
    tg.input_fn = scripted(["draw"])
    tg.step()
    assert "Not allowed: cannot draw now: you are playing" in out, out


def test_the_wilds_place_is_asked_only_for_cards_in_the_hand() -> None:
    tg, out = playing_position("isra", 2)
    game = tg.game
    game.round_index = 1  # round 2 (SET RUN)
    game.hands[0] = parse_cards("5D 6D 7D 7H 7S 7C 2C 3C 4C KS QH 9H")
    before = game.snapshot()
    tg.input_fn = scripted(["down set 7H 7S 7C | run 5D 6D 7D JK"])
    tg.step()
    assert game.snapshot() == before
    assert "JK is not in your hand" in out, out
    assert not any("more than one way" in line for line in out)


def run_id(game: Game) -> int:
    return len(game.table) - 1


def playing_position(rules_name: str = "isra", seed: int = 1) -> tuple[TextGame, list[str]]:
    """A game where seat 0 has drawn and is to play."""
    tg, out = first_human_decision(rules_name, seed)
    tg.apply(DrawStock(0))
    while not (tg.game.phase == Phase.PLAY and tg.game.turn == 0):
        tg.step()
    out.clear()
    tg._shown = (len(tg.game.actions), tg.game.phase)
    return tg, out


def test_not_down_yet_layoff_and_replace_give_the_engines_reason() -> None:
    tg, out = playing_position("may-i")
    game = tg.game
    before = game.snapshot()
    card = card_text(game.hands[0][0])
    tg.input_fn = scripted([f"layoff {card}", f"replace {card}", "hint"])
    for _ in range(3):
        tg.step()
    assert game.snapshot() == before
    assert "Not allowed: you lay off only once you are down" in out
    assert "Not allowed: you replace a wild only once you are down" in out


def test_going_down_with_melds_typed_in_any_order() -> None:
    tg, out = playing_position("isra", 2)
    game = tg.game
    game.round_index = 1  # a prepared position: round 2 (SET RUN) with a chosen hand
    game.hands[0] = parse_cards("8D 7D 6D 5D 7H 7S JK 2C 3C 4C KS QH")
    before = game.snapshot()
    tg.input_fn = scripted(["down", "n"])  # the suggestion is shown, and declined
    tg.step()
    assert any(line.startswith("Suggested: ") for line in out)
    assert game.snapshot() == before
    tg.input_fn = scripted(["down 8d 7d 6d 5d | set 7h 7s jk"])  # a descending run, a kind left out
    tg.step()
    assert game.down[0]
    laid = [tm.meld for tm in game.table if tm.owner == 0]
    assert sorted(m.text() for m in laid) == ["5D 6D 7D 8D", "7H 7S JK"]
    assert any(line.startswith("You go down: ") and "JK=7" in line for line in out)


def test_the_opponents_level_is_chosen_on_the_command_line() -> None:
    from shanghai.cli.play import _opponents

    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    assert parser.parse_args([]).opponents == "greedy"
    assert parser.parse_args(["--opponents", "random"]).opponents == "random"
    with pytest.raises(SystemExit):
        parser.parse_args(["--opponents", "genius"])
    game = Game.new(preset("isra"), 4, seed=3)
    bots = _opponents(game, 0, "greedy")
    assert sorted(bots) == [1, 2, 3] and all(b.name == "greedy" for b in bots.values())


@pytest.mark.parametrize("kind", ["expert", "hard"])
def test_opponents_answer_a_resumed_game_as_in_one_sitting(kind: str) -> None:
    # Level "expert" is the search player, which remembers the round's flip card from one
    # decision to the next; a resumed game's players have no such memory, so the table's players
    # must not use it: the same position gets the same answer however the game got there.
    def play(game: Game, bots: dict[int, Bot], actions: int) -> None:
        for _ in range(actions):
            seat = game.to_act()[0]
            game.apply(bots[seat].choose(view(game, seat)))

    whole = Game.new(preset("isra-junior"), 3, 5)
    bots = make_bots(whole, [kind] * 3)
    assert {type(getattr(b, "player", b)).__name__ for b in bots.values()} == {
        "SearchPlayer" if kind == "expert" else "ExpertPlayer"}  # level expert: the search player
    play(whole, bots, 160)
    stopped = Game.new(preset("isra-junior"), 3, 5)
    for chunk in (7, 40, 60, 53):  # stopped and resumed three times, new players each time
        play(stopped, make_bots(stopped, [kind] * 3), chunk)
    assert stopped.actions == whole.actions
