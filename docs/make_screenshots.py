"""Screenshots of the terminal game for the README: ``python docs/make_screenshots.py``.

Plays a seeded game headless (Textual's pilot) until there are melds on the table and it is the
person's turn, and saves the screen as SVG in ``docs/screenshots/tui-table.svg``; the same for
manipulation rummy in ``docs/screenshots/tui-manipulation.svg``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from shanghai.engine.actions import Discard, DrawStock, GoDown, LayOff, Pass
from shanghai.engine.game import Game, Phase
from shanghai.rules import preset
from shanghai.tui.app import Settings, ShanghaiApp
from shanghai.tui.session import HUMAN, GameSession

HERE = Path(__file__).resolve().parent
SIZE = (132, 40)


def table_screenshot(path: Path = HERE / "screenshots" / "tui-table.svg", seed: int = 21) -> Path:
    """Save the table of a game in progress as SVG at ``path``; returns the path."""

    async def main() -> None:
        game = Game.new(preset("isra"), 4, seed)
        session = GameSession(game, ["Ann", "Bob", "Cy", "Di"], [HUMAN, "greedy", "greedy", "greedy"])
        app = ShanghaiApp(Settings(pause=0, buy_timeout=0, take_back=0), session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table
            for _ in range(200):
                v = table.view()
                if len(v.table) >= 3 and v.phase == Phase.PLAY and v.turn == 0 and app.screen is table:
                    break
                legal = v.legal
                action = next((a for k in (GoDown, LayOff, DrawStock, Pass) for a in legal if isinstance(a, k)),
                              None)
                if action is None:
                    discards = [a for a in legal if isinstance(a, Discard)]
                    action = max(discards, key=lambda a: v.rules.points(a.card)) if discards else legal[0]
                table.act(action)
                await pilot.pause()
                if app.screen is not table:
                    await pilot.press("enter")
                    await pilot.pause()
            await pilot.press("home", "right", "right", "h")
            await pilot.pause()
            path.parent.mkdir(parents=True, exist_ok=True)
            app.save_screenshot(path.name, str(path.parent))

    asyncio.run(main())
    return path


def manipulation_screenshot(path: Path = HERE / "screenshots" / "tui-manipulation.svg", seed: int = 5) -> Path:
    """Save a game of manipulation rummy in progress (several melds, the person to play) as SVG."""
    from shanghai.bots.manipulation import ManipulationGreedy
    from shanghai.engine.manipulation import ManipulationGame, manipulation_view
    from shanghai.rules import MANIPULATION
    from shanghai.tui.session import ManipulationSession

    game = ManipulationGame.new(MANIPULATION, 4, seed)
    players = [ManipulationGreedy(s) for s in range(4)]
    while not (game.turn == 0 and len(game.table) >= 5 and game.can_meld() and not game.drawn):
        game.apply(players[game.turn].choose(manipulation_view(game, game.turn)))

    async def main() -> None:
        session = ManipulationSession(game, ["Ann", "Bob", "Cy", "Di"], [HUMAN, "greedy", "greedy", "greedy"])
        app = ShanghaiApp(Settings(pause=0, buy_timeout=0, take_back=0), session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("h")
            await pilot.pause()
            path.parent.mkdir(parents=True, exist_ok=True)
            app.save_screenshot(path.name, str(path.parent))

    asyncio.run(main())
    return path


if __name__ == "__main__":
    print(table_screenshot())
    print(manipulation_screenshot())
