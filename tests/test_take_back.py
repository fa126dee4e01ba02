"""Taking back a discard (``shanghai.engine.take_back``): the short undo of a mis-click that players of
games against computers ask for (../shared/PLAYERS-EXPECT.md: "A short undo of a mis-click discard
where nobody has acted on it yet (games against computers)"), and the terminal game's U key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("textual")

from hypothesis import given, settings
from hypothesis import strategies as st

from shanghai.bots.greedy import GreedyPlayer
from shanghai.cards import card_text
from shanghai.engine.actions import Discard, DrawStock, Pass
from shanghai.engine.game import Game, Phase
from shanghai.engine.record import GameRecord
from shanghai.engine.take_back import TakeBackError, take_back
from shanghai.engine.view import view
from shanghai.rules import preset
from shanghai.tui.app import Settings, ShanghaiApp
from shanghai.tui.session import HUMAN, GameSession
from tui_helpers import SIZE, past_curtain, prompt_text, run, started


def _play_to_a_discard(game: Game, skip: int) -> Discard:
    """Play greedy moves until the ``skip``-th discard that does not end the round has been made; that discard."""
    players = [GreedyPlayer(s) for s in range(game.players)]
    seen = 0
    while True:
        seat = game.to_act()[0]
        action = players[seat].choose(view(game, seat))
        rounds = len(game.round_results)
        game.apply(action)
        if isinstance(action, Discard) and len(game.round_results) == rounds and not game.is_over:
            if seen == skip:
                return action
            seen += 1


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), skip=st.integers(0, 60), rules=st.sampled_from(["isra", "may-i", "family-10"]))
def test_taking_back_a_discard_gives_the_state_before_it(seed: int, skip: int, rules: str) -> None:
    game = Game.new(preset(rules), 4, seed)
    discard = _play_to_a_discard(game, skip)
    before = Game.new(preset(rules), 4, seed)
    for a in game.actions[:-1]:
        before.apply(a)
    back = take_back(game, discard.seat)
    assert back.snapshot() == before.snapshot()  # exactly the state before the discard
    assert back.actions == game.actions[:-1] and game.actions[-1] == discard  # the game itself unchanged
    assert discard in back.legal_actions(discard.seat)  # the seat may discard again, or otherwise


def test_what_cannot_be_taken_back() -> None:
    game = Game.new(preset("isra"), 4, 3)
    with pytest.raises(TakeBackError, match="no action has been played"):
        take_back(game, 0)
    discard = _play_to_a_discard(game, 2)
    with pytest.raises(TakeBackError, match=f"the last discard is seat {discard.seat}'s, not seat"):
        take_back(game, (discard.seat + 1) % 4)
    seat = game.to_act()[0]
    game.apply(next(a for a in game.legal_actions(seat) if not isinstance(a, Discard)))  # somebody acted on it
    with pytest.raises(TakeBackError, match="only a discard can be taken back, and only while nobody has acted"):
        take_back(game, discard.seat)
    # a discard that goes out ends the round: it has been scored (may-i goes out by a discard; isra's
    # "play-all" lays the last card off instead)
    for seed in range(20):
        game = Game.new(preset("may-i"), 4, seed)
        players = [GreedyPlayer(s) for s in range(4)]
        while not game.round_results:
            seat = game.to_act()[0]
            game.apply(players[seat].choose(view(game, seat)))
        last = game.actions[-1]
        if isinstance(last, Discard):
            break
    assert isinstance(last, Discard) and game.round_results[0].went_out == last.seat
    with pytest.raises(TakeBackError, match="ended the round"):
        take_back(game, last.seat)


def test_the_terminal_game_takes_back_a_discard_with_u(tmp_path: Path) -> None:
    """After the person's discard the computer players wait; U puts the card back in the hand, the
    record loses the discard, and the game goes on from there. Once one of them has acted, U is refused."""
    s = started(GameSession, Game.new(preset("isra"), 4, 5), ("greedy",) * 3, tmp_path)
    record = tmp_path / "game.jsonl"

    async def main() -> None:
        app = ShanghaiApp(Settings(pause=0, buy_timeout=0, take_back=30), s)
        async with app.run_test(size=SIZE) as pilot:
            table = app.table
            await pilot.pause()
            while s.game.phase != Phase.PLAY or s.human_to_act() != 0:  # the cut, buy windows, the draw
                v = table.view()
                action = next((a for a in v.legal if isinstance(a, DrawStock | Pass)), v.legal[0])
                table.act(action)
                await pilot.pause()
            hand = sorted(s.game.hands[0])
            card = table.hand_cards()[table.cursor]
            await pilot.press("x")
            await pilot.pause()
            n = len(s.game.actions)
            assert s.game.actions[-1] == Discard(0, card)
            assert table._bot_timer is not None and "U takes back the" in prompt_text(table)  # they wait
            assert json.loads(record.read_text().splitlines()[-1])["action"] == f"0 discard {card_text(card)}"
            await pilot.press("u")
            await pilot.pause()
            assert sorted(s.game.hands[0]) == hand and len(s.game.actions) == n - 1
            assert s.game.phase == Phase.PLAY and s.human_to_act() == 0 and table._bot_timer is None
            assert "took back the discard of" in prompt_text(table)
            saved = GameRecord.load(record)
            assert saved.actions == [str(a) for a in s.game.actions]  # the record without the discard
            assert saved.replay().snapshot() == s.game.snapshot()
            # discard again; let a computer player act on it (the window is long: make it pass)
            await pilot.press("x")
            await pilot.pause()
            table.take_back = 0.0
            table._bot_timer.stop()  # type: ignore[union-attr]
            table._bot_timer = None
            table.advance()
            await pilot.pause()
            acted = len(s.game.actions)
            assert not isinstance(s.game.actions[-1], Discard) or s.game.actions[-1].seat != 0
            await pilot.press("u")
            await pilot.pause()
            assert len(s.game.actions) == acted and "only before anybody has acted on it" in prompt_text(table)

    run(main)


def test_no_take_back_where_another_person_has_seen_the_discard(tmp_path: Path) -> None:
    s = started(GameSession, Game.new(preset("isra"), 3, 5), (HUMAN, "greedy"), tmp_path)

    async def main() -> None:
        app = ShanghaiApp(Settings(pause=0, buy_timeout=0, take_back=30), s)
        async with app.run_test(size=SIZE) as pilot:
            table = app.table
            await pilot.pause()
            for _ in range(200):  # the people's moves (the curtain lifted between them) until a discard is theirs
                await past_curtain(pilot)
                seat = s.human_to_act()
                if seat is None:
                    await pilot.pause()
                    continue
                v = table.view()
                if s.game.phase == Phase.PLAY:
                    break
                table.act(next((a for a in v.legal if isinstance(a, DrawStock | Pass)), v.legal[0]))
                await pilot.pause()
            assert s.game.phase == Phase.PLAY and table.viewer == seat
            table.act(next(a for a in table.view().legal if isinstance(a, Discard)))
            await pilot.pause()
            n = len(s.game.actions)
            table.action_take_back()
            assert len(s.game.actions) == n  # nothing taken back (nor did the computer players wait for it)
            assert "taken back only at a table of computer players" in prompt_text(table)

    run(main)
