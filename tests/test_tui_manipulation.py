"""Manipulation rummy at the full-screen table, driven headless through Textual's pilot.

The person's moves are made with the keys the screen shows: select cards (Home, →, Space) and
place them (M), the largest play (B), draw (D), pass (N).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import Input, RichLog, Select, Static

from shanghai.cards import Card
from shanghai.engine.actions import DrawStock, Pass
from shanghai.engine.manipulation import ManipulationGame, PlayToTable
from shanghai.engine.record import GameRecord
from shanghai.rules import MANIPULATION
from shanghai.table_solver import placeable_cards
from shanghai.tui.app import Settings, ShanghaiApp
from shanghai.tui.manipulation import ManipulationScreen
from shanghai.tui.screens import GameOverScreen, InfoScreen, RoundOverScreen
from shanghai.tui.session import HUMAN, GameSession, ManipulationSession, load_seats, resume_session
from tui_helpers import SIZE, past_curtain, prompt_text, run, shown, started


def session(tmp_path: Path | None, seed: int = 4, target: int = 50,
            kinds: Sequence[str] = ("greedy", "greedy")) -> ManipulationSession:
    game = ManipulationGame.new(MANIPULATION.changed(target_score=target), len(kinds) + 1, seed)
    return started(ManipulationSession, game, kinds, tmp_path)


def select_keys(screen: ManipulationScreen, cards: Sequence[Card]) -> list[str]:
    """The keys that select ``cards`` in the hand as shown."""
    hand = screen.hand_cards()
    used: set[int] = set()
    keys: list[str] = []
    for c in cards:
        index = next(i for i, h in enumerate(hand) if h == c and i not in used)
        used.add(index)
        keys += ["home", *["right"] * index, "space"]
    return keys


async def settle(pilot: Pilot[Any]) -> None:
    """Wait for the screen, passing any between-hands screen."""
    await pilot.pause()
    while isinstance(pilot.app.screen, RoundOverScreen):
        await pilot.press("enter")
        await pilot.pause()


async def move(pilot: Pilot[Any], screen: ManipulationScreen, *, largest: bool = True,
               settle_hands: bool = True) -> None:
    """One move of the person's, by its key: the largest play (B), or the first card that can be
    placed alone, selected and placed (M); draw (D) or pass (N) when nothing can be placed."""
    v = screen.view()
    first = v.legal[0]
    if isinstance(first, DrawStock):
        await pilot.press("d")
    elif isinstance(first, Pass):
        await pilot.press("n")
    elif largest:
        await pilot.press("b")
    else:
        alone = next((a for a in v.legal[1:] if isinstance(a, PlayToTable)), first)
        assert isinstance(alone, PlayToTable)
        await pilot.press(*select_keys(screen, alone.placed), "m")
    if settle_hands:
        await settle(pilot)
    else:
        await pilot.pause()


def test_start_screen_offers_manipulation(tmp_path: Path) -> None:
    async def main() -> None:
        record = tmp_path / "g.jsonl"
        app = ShanghaiApp(Settings(rules="manipulation", players=3, name="Ann", seed=3, record=record, pause=0))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            start = app.screen
            assert start.query_one("#preset", Select).value == "manipulation"
            assert "manipulation" in shown(start.query_one("#description", Static)).lower()
            assert start.query_one("#target-row").display and not start.query_one("#going-out-row").display
            # a contract preset brings its house rules back, and manipulation hides them again
            start.query_one("#preset", Select).value = "isra"
            await pilot.pause()
            assert start.query_one("#going-out-row").display and not start.query_one("#target-row").display
            start.query_one("#preset", Select).value = "manipulation"
            await pilot.pause()
            assert start.query_one("#target-row").display and not start.query_one("#penalty-row").display
            start.query_one("#target", Input).value = "0"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert "target score" in shown(start.query_one("#start-error", Static))
            start.query_one("#target", Input).value = "7"
            for seat in (1, 2):
                start.query_one(f"#kind-{seat}", Select).value = "random"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, ManipulationScreen)
            s = app.manipulation_table.session
            assert s.game.rules.target_score == 7 and s.game.players == 3
            assert s.kinds == [HUMAN, "random", "random"] and s.names[0] == "Ann"
            assert "first to 7 points loses" in shown(app.screen.query_one("#contract", Static))
            # the record is the game so far, and the seats are beside it
            assert GameRecord.load(record).replay().snapshot() == s.game.snapshot()
            assert load_seats(record, 3, "x") == s.kinds
            await pilot.press("q")

    run(main)


def test_place_the_selected_cards_or_hear_which_can_be_placed(tmp_path: Path) -> None:
    async def main() -> None:
        s = session(tmp_path, seed=4)
        app = ShanghaiApp(Settings(pause=0), s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.manipulation_table
            game = s.game
            for _ in range(40):  # draw until a card can be placed
                if isinstance(screen.view().legal[0], PlayToTable):
                    break
                assert screen.check_action("draw", ()) and not screen.check_action("place", ())
                n = len(screen.view().hand)
                await pilot.press("d")
                await settle(pilot)
                if game.turn == 0 and isinstance(game.actions[-1], DrawStock):
                    assert len(screen.view().hand) == n + 1 and "You drew" in prompt_text(screen)
            v = screen.view()
            assert isinstance(v.legal[0], PlayToTable)
            assert not screen.check_action("draw", ()) and screen.check_action("place", ())
            snapshot = game.snapshot()
            await pilot.press("d")  # not offered: nothing happens
            await pilot.pause()
            assert game.snapshot() == snapshot
            # a card that cannot be placed: refused, naming the cards that can
            can = placeable_cards(v.table, v.hand)
            cannot = [c for c in v.hand if c not in can]
            if cannot:
                await pilot.press(*select_keys(screen, cannot[:1]), "m")
                await pilot.pause()
                assert game.snapshot() == snapshot
                text = " ".join(prompt_text(screen).split())
                assert "Not allowed" in text and "cannot be placed" in text and "Cards that can be placed" in text
                await pilot.press("escape")
            # the hint marks the cards that can be placed
            await pilot.press("h")
            await pilot.pause()
            assert "Hint: cards that can be placed" in prompt_text(screen)
            marks = screen.card_marks(screen.hand_cards())
            assert {c for c, m in zip(screen.hand_cards(), marks, strict=True) if m == "•"} == set(can)
            # the largest play, chosen card by card and placed with M: the table is arranged for it
            best = v.legal[0]
            assert isinstance(best, PlayToTable)
            n = len(game.actions)
            await pilot.press(*select_keys(screen, best.placed))
            assert sorted(screen.selected.elements()) == sorted(best.placed)
            await pilot.press("m")
            await settle(pilot)
            made = game.actions[n]
            assert isinstance(made, PlayToTable) and made.seat == 0 and sorted(made.placed) == sorted(best.placed)
            assert GameRecord.load(tmp_path / "game.jsonl").replay().snapshot() == game.snapshot()

    run(main)


def test_a_short_game_to_the_end_by_keys_and_its_record_replays(tmp_path: Path) -> None:
    async def main() -> None:
        s = session(tmp_path, seed=23, target=1)  # a short game: the first hand ends it
        app = ShanghaiApp(Settings(pause=0), s)
        game = s.game
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.manipulation_table
            for _ in range(100):
                if isinstance(app.screen, GameOverScreen):
                    break
                assert s.human_to_act() == 0
                before = len(game.actions)
                await move(pilot, screen)
                assert len(game.actions) > before
            assert isinstance(app.screen, GameOverScreen) and game.is_over
            text = shown(app.screen.query_one("#info", Static))
            assert "Hand 1 is over" in text and ("went out" in text or "blocked" in text)
            assert "lowest total" in text and "reached 1 point" in text and "Scores" in text
            assert max(game.totals) >= 1 and len(game.hand_results) == 1
            await pilot.press("enter")
            await pilot.pause()
        record = GameRecord.load(tmp_path / "game.jsonl")
        assert record.end_totals == game.totals
        assert record.replay().snapshot() == game.snapshot()

    run(main)


def test_the_end_of_a_hand_then_the_next_hand(tmp_path: Path) -> None:
    async def main() -> None:
        s = session(tmp_path, seed=8, target=50)
        game = s.game
        # the same game played ahead on a copy (the person making the largest play) to the end of
        # the first hand; the real game is taken to the person's last move of that hand, which is
        # made with its key, and the computer players finish the hand as they did ahead
        ahead = ManipulationSession(game.copy(), s.names, s.kinds)
        while not ahead.game.hand_results:
            if ahead.bot_to_act() is None:
                ahead.apply(ahead.view(0).legal[0])
            else:
                ahead.bot_step()
        last = max(i for i, a in enumerate(ahead.game.actions) if a.seat == 0)
        for action in ahead.game.actions[:last]:
            s.apply(action)
        result = ahead.game.hand_results[0]
        app = ShanghaiApp(Settings(pause=0), s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.manipulation_table
            assert screen.view().legal[0] == ahead.game.actions[last]
            await move(pilot, screen, settle_hands=False)
            assert isinstance(app.screen, RoundOverScreen)
            text = shown(app.screen.query_one("#info", Static))
            assert "Hand 1 is over" in text and "Next: hand 2" in text
            assert (f"{s.names[result.went_out]} went out" if result.went_out is not None else "blocked") in text
            assert game.hand_results == [result]
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ManipulationScreen)
            assert "hand 2" in shown(screen.query_one("#contract", Static))
            assert s.human_to_act() == 0 and len(screen.hand_cards()) >= 10
        assert GameRecord.load(tmp_path / "game.jsonl").replay().snapshot() == game.snapshot()

    run(main)


def test_computer_players_move_after_a_pause() -> None:
    async def main() -> None:
        s = session(None, seed=9)
        app = ShanghaiApp(Settings(pause=0.05), s)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.manipulation_table
            for _ in range(2):
                for _ in range(200):  # one computer move per pause
                    if s.human_to_act() == 0 and screen._bot_timer is None and not screen.busy:
                        break
                    if isinstance(app.screen, RoundOverScreen):
                        await pilot.press("enter")
                    await pilot.pause(0.05)
                assert s.human_to_act() == 0
                bots_moved = [a for a in s.game.actions if a.seat != 0]
                assert bots_moved or s.game.turn == 0
                n = len(s.game.actions)
                await move(pilot, screen)
                assert len(s.game.actions) > n
            assert any(a.seat != 0 for a in s.game.actions)
            log = "\n".join(line.text for line in screen.query_one("#log", RichLog).lines)
            assert "Bob" in log or "Cy" in log

    run(main)


def test_killed_and_resumed_exactly(tmp_path: Path) -> None:
    async def main() -> None:
        s = session(tmp_path, seed=8)
        app = ShanghaiApp(Settings(pause=0), s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.manipulation_table
            for _ in range(3):
                await move(pilot, screen)
            snapshot = s.game.snapshot()
            hand = screen.hand_cards()
        path = tmp_path / "game.jsonl"
        with pytest.raises(ValueError, match="manipulation"):
            GameSession.resume(path, "random")
        resumed = resume_session(path, "random")
        assert isinstance(resumed, ManipulationSession)
        assert resumed.game.snapshot() == snapshot and resumed.kinds == s.kinds and resumed.names == s.names
        app2 = ShanghaiApp(Settings(pause=0), resumed)
        async with app2.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen2 = app2.manipulation_table
            assert screen2.hand_cards() == hand and resumed.game.snapshot() == snapshot
            # it goes on as the game would have without the stop
            uninterrupted = ManipulationSession(s.game.copy(), s.names, s.kinds)
            n = len(resumed.game.actions)
            await move(pilot, screen2)
            uninterrupted.apply(resumed.game.actions[n])
            while uninterrupted.bot_to_act() is not None:
                uninterrupted.bot_step()
            assert resumed.game.snapshot() == uninterrupted.game.snapshot()
            assert GameRecord.load(path).replay().snapshot() == resumed.game.snapshot()

    run(main)


def test_run_tui_resumes_a_saved_manipulation_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from shanghai.cli.play import add_play_arguments
    from shanghai.tui.app import run_tui

    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    path = tmp_path / "game.jsonl"
    s = session(tmp_path, seed=2, target=3)
    for _ in range(4):
        if s.bot_to_act() is None:
            s.apply(s.view(0).legal[0])
        else:
            s.bot_step()
    # run_tui opens the app on the saved game (the app is not run here: no terminal)
    opened: list[ShanghaiApp] = []

    def fake_run(app: ShanghaiApp) -> int:
        opened.append(app)
        return 0

    monkeypatch.setattr(ShanghaiApp, "run", fake_run)
    assert run_tui(parser.parse_args(["--resume", "--record", str(path)])) == 0
    resumed = opened[0].session
    assert isinstance(resumed, ManipulationSession) and resumed.game.snapshot() == s.game.snapshot()
    assert any("hand 1" in note for note in opened[0].notes)
    assert "shanghai play --resume" in capsys.readouterr().out
    # a finished game is not resumed
    s.bots[0] = s.bots[1]  # the computer plays the person's seat too, to the end of the game
    while not s.game.is_over:
        s.bot_step()
    assert run_tui(parser.parse_args(["--resume", "--record", str(path)])) == 0
    assert "is over" in capsys.readouterr().out and len(opened) == 1


def test_scores_keys_and_pass_and_play() -> None:
    async def main() -> None:
        s = session(None, seed=2, kinds=(HUMAN, "greedy"))
        app = ShanghaiApp(Settings(pause=0), s)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            seen: set[int] = set()
            for _ in range(60):
                await past_curtain(pilot)
                screen = app.manipulation_table
                seen.add(screen.viewer)
                assert s.human_to_act() in (screen.viewer, None)
                if seen == {0, 1}:
                    break
                await move(pilot, screen)
            assert seen == {0, 1}
            await pilot.press("p")
            await pilot.pause()
            assert isinstance(app.screen, InfoScreen)
            assert "Scores" in shown(app.screen.query_one("#info", Static))
            await pilot.press("enter", "question_mark")
            await pilot.pause()
            assert "largest play" in shown(app.screen.query_one("#info", Static))
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ManipulationScreen)
            # a click selects a card, a second click unselects it
            screen = app.manipulation_table
            second = screen.hand_cards()[1]
            await pilot.click("#hand", offset=(1 + 4 * 1 + 1, 0))
            await pilot.pause()
            assert list(screen.selected.elements()) == [second] and screen.cursor == 1
            assert "Selected:" in prompt_text(screen)
            await pilot.click("#hand", offset=(1 + 4 * 1 + 1, 0))
            await pilot.pause()
            assert not screen.selected

    run(main)
