"""What the tests of the two full-screen tables share: running a pilot test, the text a widget
shows, and a started session (the person at seat 0, computer players at the others)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from shanghai.tui.screens import CurtainScreen
from shanghai.tui.session import HUMAN, GameSession, ManipulationSession

SIZE = (130, 42)
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed")

SessionT = TypeVar("SessionT", GameSession, ManipulationSession)


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def shown(widget: Static) -> str:
    """The text a Static shows."""
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


def prompt_text(screen: Screen[Any]) -> str:
    return shown(screen.query_one("#prompt", Static))


def started(kind: type[SessionT], game: Any, kinds: Sequence[str], tmp_path: Path | None) -> SessionT:
    """A session of ``game``: Ann at seat 0, computer players of ``kinds`` at the others (Bob, Cy,
    ...), its record in ``tmp_path`` (none without it), started."""
    names = list(NAMES[:len(kinds) + 1])
    s = kind(game, names, [HUMAN, *kinds], tmp_path / "game.jsonl" if tmp_path else None)
    s.start()
    return s


async def past_curtain(pilot: Pilot[Any]) -> None:
    """Lift the curtain between two people sharing the screen, if it is down."""
    if isinstance(pilot.app.screen, CurtainScreen):
        await pilot.press("enter")
        await pilot.pause()
