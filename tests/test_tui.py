"""The full-screen game, driven headless through Textual's pilot: key presses play the game.

The tests read the legal actions from the app's game and press the keys the screen shows for one
of them, so it is the key bindings that drive the game.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import Input, Select, Static

from shanghai.bots.coach import REVIEW_DEALS, review
from shanghai.cards import JOKER, parse_cards
from shanghai.cli.common import seat_words
from shanghai.engine.actions import (
    Action,
    Buy,
    CallShanghai,
    Cut,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    Pass,
    ReplaceWild,
    TakeDiscard,
)
from shanghai.engine.game import Game, Phase, TableMeld
from shanghai.engine.record import GameRecord
from shanghai.errors import IllegalActionError
from shanghai.melds import make_meld
from shanghai.rules import preset
from shanghai.scorepad import ScorePadStore
from shanghai.tui.app import Settings, ShanghaiApp
from shanghai.tui.screens import ChoiceScreen, CutScreen, ReviewScreen, RoundOverScreen
from shanghai.tui.session import HUMAN, GameSession, load_seats
from shanghai.tui.table import TableScreen
from tui_helpers import SIZE, past_curtain, prompt_text, run, shown, started


def session(tmp_path: Path | None, seed: int = 5, rules: str = "isra", kinds: tuple[str, ...] = ("greedy",) * 3,
            ) -> GameSession:
    return started(GameSession, Game.new(preset(rules), len(kinds) + 1, seed), kinds, tmp_path)


def choose_move(table: TableScreen) -> Action:
    """A plain policy for the person: go down, lay off, draw, pass, or discard the costliest card."""
    v = table.view()
    legal = v.legal
    for kind in (Cut, GoDown, LayOff, DrawStock, Pass):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return found[0]
    discards = [a for a in legal if isinstance(a, Discard) and not a.shanghai]
    if discards:
        return max(discards, key=lambda a: (v.rules.points(a.card), a.card))
    return legal[0]


def keys_for(table: TableScreen, action: Action) -> list[str]:
    """The keys that do ``action`` on the table as it is shown."""
    simple = {DrawStock: "d", TakeDiscard: "t", Buy: "b", Pass: "n", Cut: "c", GoDown: "g"}
    for kind, key in simple.items():
        if isinstance(action, kind):
            return [key]
    if isinstance(action, LayOff) and action.card == table.view().pending_wild:
        return ["w"]  # the freed wild is not in the hand (press_move then takes the first place offered)
    if isinstance(action, LayOff | Discard | ReplaceWild):
        hand = table.hand_cards()
        index = hand.index(action.card)
        key = {LayOff: "l", Discard: "x", ReplaceWild: "r"}[type(action)]
        if index == table.cursor:
            return [key]
        if index <= len(hand) // 2:
            return ["home", *["right"] * index, key]
        return ["end", *["left"] * (len(hand) - 1 - index), key]
    if isinstance(action, CallShanghai):
        return ["c"]
    raise AssertionError(f"no key for {action}")


async def press_move(pilot: Pilot[Any], table: TableScreen) -> Action:
    """Press the keys of one move of the person's, answering any dialog with its first choice."""
    action = choose_move(table)
    await pilot.press(*keys_for(table, action))
    await pilot.pause()
    app = pilot.app
    if isinstance(app.screen, ChoiceScreen | CutScreen):
        await pilot.press("enter")
        await pilot.pause()
    return action


async def play_until_round_over(pilot: Pilot[Any], table: TableScreen, *, limit: int = 600) -> int:
    app = pilot.app
    game = table.session.game
    moves = 0
    while not isinstance(app.screen, RoundOverScreen):
        assert moves < limit, f"the round did not end after {limit} moves"
        assert table.session.human_to_act() == 0, (game.phase, game.to_act())
        before = len(game.actions)
        await press_move(pilot, table)
        assert len(game.actions) > before, prompt_text(table)
        moves += 1
    return moves


def test_start_screen_then_a_whole_round_by_keys(tmp_path: Path) -> None:
    async def main() -> None:
        settings = Settings(rules="isra", players=4, name="Ann", seed=11, record=tmp_path / "g.jsonl",
                            pause=0, buy_timeout=0, take_back=0)
        app = ShanghaiApp(settings)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            start = app.screen
            for seat in (1, 2, 3):
                start.query_one(f"#kind-{seat}", Select).value = "greedy"
            await pilot.press("ctrl+s")
            await pilot.pause()
            table = app.table
            assert isinstance(app.screen, TableScreen)
            session = table.session
            assert session.names[0] == "Ann" and session.kinds == [HUMAN, "greedy", "greedy", "greedy"]
            assert "contract: 2 sets of 3" in shown(table.query_one("#contract", Static))
            moves = await play_until_round_over(pilot, table)
            assert moves > 0
            game = session.game
            assert len(game.round_results) == 1 and game.round_number == 2
            text = shown(app.screen.query_one("#info", Static))
            assert "Round 1 is over" in text and "Score pad" in text
            # the record on disk is the game so far
            assert GameRecord.load(tmp_path / "g.jsonl").replay().snapshot() == game.snapshot()
            assert load_seats(tmp_path / "g.jsonl", 4, "x") == session.kinds
            await pilot.press("enter")  # on to round 2
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)
            assert "Round 2/7" in shown(table.query_one("#contract", Static))

    run(main)


def test_killed_mid_round_and_resumed_exactly(tmp_path: Path) -> None:
    async def main() -> None:
        s = session(tmp_path, seed=8)
        app = ShanghaiApp(Settings(pause=0, buy_timeout=0, take_back=0), s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table
            for _ in range(6):
                await press_move(pilot, table)
            assert s.game.phase != Phase.GAME_OVER
            snapshot = s.game.snapshot()
            hand = table.hand_cards()
            # the app is abandoned here: no quit, nothing saved at the end
        path = tmp_path / "game.jsonl"
        resumed = GameSession.resume(path, "random")
        assert resumed.game.snapshot() == snapshot
        assert resumed.kinds == [HUMAN, "greedy", "greedy", "greedy"] and resumed.names == s.names
        app2 = ShanghaiApp(Settings(pause=0, buy_timeout=0, take_back=0), resumed)
        async with app2.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table2 = app2.table
            assert table2.hand_cards() == hand
            assert resumed.game.snapshot() == snapshot  # nothing moved while nobody pressed a key
            # and it goes on as the game would have without the stop
            uninterrupted = s.game.copy()
            action = await press_move(pilot, table2)
            uninterrupted.apply(action)
            replay = GameSession(uninterrupted, s.names, s.kinds)
            while replay.bot_to_act() is not None:
                replay.bot_step()
            assert resumed.game.snapshot() == uninterrupted.snapshot()
            # the record goes on being saved after every action
            assert GameRecord.load(path).replay().snapshot() == resumed.game.snapshot()

    run(main)


async def until_my_draw(pilot: Pilot[Any], table: TableScreen) -> None:
    """Play the person's moves (the first choice of each dialog) until a draw from the stock is theirs."""
    while not any(isinstance(a, DrawStock) for a in table.view().legal):
        await press_move(pilot, table)


def test_an_illegal_key_shows_the_engines_reason_and_changes_nothing() -> None:
    async def main() -> None:
        s = session(None, seed=3)
        app = ShanghaiApp(Settings(pause=0, buy_timeout=0, take_back=0), s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table
            await until_my_draw(pilot, table)
            snapshot = s.game.snapshot()
            card = table.hand_cards()[0]
            with pytest.raises(IllegalActionError) as refused:
                s.game.copy().apply(Discard(0, card))
            await pilot.press("home", "x")
            await pilot.pause()
            assert s.game.snapshot() == snapshot
            text = prompt_text(table)
            said = seat_words(str(refused.value), s.names, 0)  # the engine's reason, "you" for seat 0
            assert "Not allowed" in text and said in text.replace("\n", " ")
            await pilot.press("g")  # not down, no contract yet: refused too
            await pilot.pause()
            assert s.game.snapshot() == snapshot and "Not allowed" in prompt_text(table)

    run(main)


def test_the_freed_wild_is_placed_with_w() -> None:
    """000: the joker slipped out of a run "must be used this play before you discard or go out": it is
    not in the hand, so W asks where it goes (after cards of the hand, if the player likes)."""
    async def main() -> None:
        s = session(None, seed=3)
        app = ShanghaiApp(Settings(pause=0, buy_timeout=0, take_back=0), s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table
            await until_my_draw(pilot, table)
            await pilot.press("d")
            await pilot.pause()
            game = s.game
            assert game.turn == 0 and game.phase == Phase.PLAY
            # a prepared position: seat 0 is down and holds the 6D a joker stands for
            game.table.append(TableMeld(len(game.table), 1, make_meld(parse_cards("5D JK 7D 8D"), game.rules)))
            game.down[0] = True
            game.hands[0].append(parse_cards("6D")[0])
            game.refresh_derived()
            table.refresh_all()
            await pilot.pause()
            await pilot.press(*keys_for(table, ReplaceWild(0, parse_cards("6D")[0], len(game.table) - 1)))
            await pilot.pause()
            assert game.pending_wild == JOKER and "W: place the freed JK" in prompt_text(table)
            await pilot.press("w")
            await pilot.pause()
            assert isinstance(app.screen, ChoiceScreen)  # the run's two ends, or another meld
            await pilot.press("enter")
            await pilot.pause()
            assert game.pending_wild is None
            assert any(JOKER in tm.meld.cards for tm in game.table)

    run(main)


def test_hint_shows_a_reason() -> None:
    async def main() -> None:
        s = session(None, seed=4)
        app = ShanghaiApp(Settings(pause=0, buy_timeout=0, take_back=0), s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table
            while not table.view().legal or isinstance(app.screen, CutScreen):
                await press_move(pilot, table)
            snapshot = s.game.snapshot()
            await pilot.press("h")
            await pilot.pause()
            text = prompt_text(table)
            assert "Hint:" in text and "—" in text
            assert s.game.snapshot() == snapshot
            try:
                from shanghai.bots.coach import advise
            except ImportError:
                return
            assert advise(table.view(), seed=0).reason.split()[0] in text

    run(main)


def test_buy_prompt_times_out_to_a_pass() -> None:
    async def main() -> None:
        s = session(None, seed=5)
        app = ShanghaiApp(Settings(pause=0, buy_timeout=0.5, take_back=0), s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table
            for _ in range(60):
                if any(isinstance(a, Buy) for a in table.view().legal):
                    break
                await press_move(pilot, table)
            else:
                pytest.skip("no buy offer came up")
            n = len(s.game.actions)
            assert "Buy" in prompt_text(table) and " s" in prompt_text(table)
            await pilot.pause(1.2)
            assert Pass(0) in s.game.actions[n:]

    run(main)


def test_pass_and_play_hides_the_hand_between_people() -> None:
    async def main() -> None:
        s = session(None, seed=6, rules="may-i", kinds=(HUMAN, "greedy"))
        app = ShanghaiApp(Settings(pause=0, buy_timeout=0, take_back=0), s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            seen: set[int] = set()
            for _ in range(40):
                await past_curtain(pilot)
                table = app.table
                seen.add(table.viewer)
                assert table.session.human_to_act() in (table.viewer, None)
                await press_move(pilot, table)
                if seen == {0, 1}:
                    break
            assert seen == {0, 1}

    run(main)


def test_screenshot_of_the_table(tmp_path: Path) -> None:
    import importlib.util

    script = Path(__file__).resolve().parent.parent / "docs" / "make_screenshots.py"
    spec = importlib.util.spec_from_file_location("make_screenshots", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path = module.table_screenshot(tmp_path / "table.svg")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<svg") and "contract" in text


def test_computer_players_act_after_a_pause() -> None:
    async def main() -> None:
        s = session(None, seed=9)
        app = ShanghaiApp(Settings(pause=0.05, buy_timeout=0, take_back=0), s)
        async with app.run_test(size=SIZE) as pilot:
            table = app.table
            for _ in range(2):
                for _ in range(100):  # wait for the computer players, one move per pause
                    if s.human_to_act() == 0 and table._bot_timer is None:
                        break
                    await pilot.pause(0.05)
                assert s.human_to_act() == 0
                n = len(s.game.actions)
                await press_move(pilot, table)
                assert len(s.game.actions) > n

    run(main)


def test_without_a_terminal_shanghai_play_is_the_plain_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from shanghai.cli.main import main

    monkeypatch.setattr("sys.stdin", io.StringIO("draw\nquit\n"))
    assert main(["play", "--rules", "may-i", "--players", "3", "--seed", "2", "--record",
                 str(tmp_path / "g.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "Game saved to" in out
    assert load_seats(tmp_path / "g.jsonl", 3, "x") == [HUMAN, "greedy", "greedy"]


def test_start_screen_house_rules_and_pass_and_play_seats(tmp_path: Path) -> None:
    from textual.widgets import Checkbox

    async def main() -> None:
        record = tmp_path / "g.jsonl"
        app = ShanghaiApp(Settings(rules="may-i", players=3, seed=4, record=record, pause=0, buy_timeout=0,
                                   take_back=0))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            start = app.screen
            assert "May I" in shown(start.query_one("#description", Static))
            start.query_one("#opt-no-split", Checkbox).value = True
            start.query_one("#penalty", Select).value = 1
            start.query_one("#dunce", Checkbox).value = True
            start.query_one("#kind-1", Select).value = HUMAN
            start.query_one("#kind-2", Select).value = "random"
            await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.pause()
            session = app.table.session
            rules = session.game.rules
            assert rules.options == ("no-split",) and rules.buy_penalty == 1 and rules.dunce_cap
            assert session.kinds == [HUMAN, HUMAN, "random"]
        resumed = GameSession.resume(record, "greedy")
        assert resumed.game.rules == rules and resumed.kinds == [HUMAN, HUMAN, "random"]

    run(main)


def test_resume_refuses_a_missing_or_finished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from shanghai.cli.play import add_play_arguments
    from shanghai.tui.app import run_tui

    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    assert run_tui(parser.parse_args(["--resume", "--record", str(tmp_path / "none.jsonl")])) == 2
    assert "no saved game" in capsys.readouterr().err
    (tmp_path / "bad.jsonl").write_text("garbage\n", encoding="utf-8")  # not a record: bad input too
    assert run_tui(parser.parse_args(["--resume", "--record", str(tmp_path / "bad.jsonl")])) == 2
    assert "cannot resume the game in" in capsys.readouterr().err
    game = Game.new(preset("isra-junior"), 3, 1)
    s = GameSession(game, ["A", "B", "C"], [HUMAN, "greedy", "greedy"], tmp_path / "done.jsonl")
    s.bots[0] = s.bots[1]  # the computer plays the person's seat too, to the end of the game
    while not game.is_over:
        s.bot_step()
    s.start()
    assert run_tui(parser.parse_args(["--resume", "--record", str(tmp_path / "done.jsonl")])) == 0
    assert "is over" in capsys.readouterr().out


def test_the_end_of_the_game_shows_the_crown_and_the_dunce_cap(tmp_path: Path) -> None:
    from shanghai.tui.screens import GameOverScreen

    record = tmp_path / "game.jsonl"
    history = tmp_path / "pad.sqlite3"

    async def main() -> None:
        game = Game.new(preset("isra-junior").changed(dunce_cap=True), 3, 2)
        s = GameSession(game, ["Ann", "Bob", "Cy"], [HUMAN, "greedy", "greedy"], record)
        # a computer plays the person's seat too, on a copy, to the end of the game; the real game
        # is then taken to the person's last move, which is made with its keys
        ahead = GameSession(game.copy(), s.names, s.kinds)
        ahead.bots[0] = ahead.bots[1]
        while not ahead.game.is_over:
            ahead.bot_step()
        last = max(i for i, a in enumerate(ahead.game.actions) if a.seat == 0 and not isinstance(a, Pass))
        for action in ahead.game.actions[:last]:
            game.apply(action)
        app = ShanghaiApp(Settings(pause=0, buy_timeout=0, take_back=0, history=history), s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table
            await pilot.press(*keys_for(table, ahead.game.actions[last]))
            await pilot.pause()
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press("enter")
                await pilot.pause()
            for _ in range(200):
                if isinstance(app.screen, GameOverScreen):
                    break
                await press_move(pilot, table)
            text = shown(app.screen.query_one("#info", Static))
            assert "THE CROWN goes to" in text and "THE DUNCE CAP goes to" in text and "Score pad" in text
            assert f"Your play reviewed by the coach: shanghai coach {record} --review" in text
            # the finished game is kept in the score pad's history, with Ann's record under these rules
            assert "Kept in the score pad's history as game 1 (shanghai scorepad show 1;" in text
            assert "Ann's 1 finished isra-junior game: " in text
            # R: the coach's review of Ann's play, worked out while the screen says so; Enter goes back
            over = app.screen
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, ReviewScreen) and "The coach's review of Ann's play" in shown(
                app.screen.query_one(".question", Static))
            await app.workers.wait_for_complete()
            await pilot.pause()
            decisions = review(GameRecord.of(game, ["Ann", "Bob", "Cy"]), 0)
            agreed = sum(d.agreed for d in decisions)
            assert f"Ann played as the coach would in {agreed} of {len(decisions)} decisions" in shown(
                app.screen.query_one("#info", Static))
            if agreed < len(decisions):  # each difference weighed, and what they came to
                text = shown(app.screen.query_one("#info", Static))
                assert f"Weighed over {REVIEW_DEALS} deals" in text and "    weighed: " in text
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is over
            await pilot.press("enter")
            await pilot.pause()
        assert game.is_over
        with ScorePadStore(history) as store:
            [pad] = store.load_all()
        assert pad.totals == tuple(game.totals) and dict(pad.house) == {"dunce_cap": True}
        assert pad.note == "terminal game, seed 2"
        assert pad.players == ("Ann", "Bob (greedy)", "Cy (greedy)")  # never counted as people called Bob, Cy

    run(main)


def test_how_to_play_from_the_start_screen_and_the_table(tmp_path: Path) -> None:
    """F2 on the start screen and I at the table show the rule set's guide for newcomers
    (``shanghai.rules.guide``); Enter goes back."""
    from shanghai.rules.guide import how_to_play
    from shanghai.tui.screens import InfoScreen

    async def main() -> None:
        app = ShanghaiApp(Settings(rules="may-i", players=3, seed=4, record=tmp_path / "g.jsonl", pause=0,
                                   buy_timeout=0, take_back=0))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            start = app.screen
            start.query_one("#going-out", Select).value = "discard-last"  # a house rule: the guide tells it
            await pilot.pause()
            await pilot.press("f2")
            await pilot.pause()
            assert isinstance(app.screen, InfoScreen)
            text = shown(app.screen.query_one("#info", Static))
            assert all(s.title in text for s in how_to_play(preset("may-i")))
            assert "You go out by discarding your last card" in " ".join(text.split())
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is start
            await pilot.press("ctrl+s")
            await pilot.pause()
            table = app.table
            await pilot.press("i")
            await pilot.pause()
            assert isinstance(app.screen, InfoScreen)
            assert "How to play" in shown(app.screen.query_one(".question", Static))
            assert "Your turn" in shown(app.screen.query_one("#info", Static))
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is table

    run(main)


def test_the_players_record_from_the_start_screen(tmp_path: Path) -> None:
    """F3 on the start screen: the record of the name on the form, from the score pad's history."""
    from shanghai.bots import GreedyPlayer
    from shanghai.bots.match import play_game
    from shanghai.scorepad.played import keep_played
    from shanghai.tui.screens import InfoScreen

    history = tmp_path / "pad.sqlite3"
    games = [play_game(preset("isra-junior"), 3, seed=s, seats=[GreedyPlayer(i) for i in range(3)]) for s in (1, 2)]
    for g in games:
        keep_played(history, g, ["Ann", "Bob", "Cy"], [0], note="")

    async def record_shown(settings: Settings, name: str) -> str:
        app = ShanghaiApp(settings)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            start = app.screen
            start.query_one("#name", Input).value = name
            await pilot.press("f3")
            await pilot.pause()
            assert isinstance(app.screen, InfoScreen)
            text = shown(app.screen.query_one("#info", Static))
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is start
            return " ".join(text.split())

    async def main() -> None:
        text = await record_shown(Settings(history=history), "ann")
        wins = sum(0 in g.winners() for g in games)
        assert f"Ann's 2 finished isra-junior games: {wins} won" in text
        assert "The last 2 of 2 finished games:" in text and "game 2 " in text and "game 1 " in text
        assert "No finished game of Zed yet" in await record_shown(Settings(history=history), "Zed")
        assert "No finished game of Ann yet" in await record_shown(Settings(history=tmp_path / "none.db"), "Ann")
        assert "history is off" in await record_shown(Settings(history=None), "Ann")

    run(main)
