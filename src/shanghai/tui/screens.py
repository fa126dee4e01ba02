"""The small screens of the terminal game: choices, the cut, the pass-and-play curtain, the end of a
round, the score pad and the end of the game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static

from shanghai.engine.record import GameRecord


class ChoiceScreen(ModalScreen[int | None]):
    """Pick one of several options (arrow keys and Enter, or the mouse); Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, options: Sequence[str | Text]) -> None:
        super().__init__()
        self.question = question
        self.options = list(options)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.question, style="bold"), classes="question")
            yield OptionList(*self.options, id="choices")
            yield Static(Text("↑↓ and Enter to choose · Esc to cancel", style="dim"))

    def on_mount(self) -> None:
        options = self.query_one("#choices", OptionList)
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CutScreen(ModalScreen[int | None]):
    """How many cards to cut (THE CUT, isra rules); Enter takes the number shown."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, default: int) -> None:
        super().__init__()
        self.question = question
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.question, style="bold"), classes="question")
            yield Input(value=str(self.default), id="cut", restrict=r"[0-9]*")
            yield Static(Text("Enter to cut · Esc to cancel", style="dim"))

    def on_mount(self) -> None:
        self.query_one("#cut", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        self.dismiss(int(value) if value.isdigit() else self.default)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CurtainScreen(Screen[None]):
    """Pass and play: hides the table until the next player is at the screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "Ready"), Binding("space", "ready", "Ready", show=False)
    ]

    def __init__(self, name: str, why: str) -> None:
        super().__init__()
        self.player_name = name
        self.why = why

    def compose(self) -> ComposeResult:
        with Vertical(classes="curtain"):
            yield Static(Text.assemble(("Pass the screen to ", ""), (self.player_name, "bold"), ".\n\n",
                                       (self.why, ""), "\n\n",
                                       (f"{self.player_name}: press Enter when the others cannot see "
                                        f"the screen.", "dim")), id="curtain-text")

    def on_click(self) -> None:
        self.action_ready()

    def action_ready(self) -> None:
        self.dismiss(None)


class InfoScreen(ModalScreen[None]):
    """Text to read (the end of a round, the score pad, the end of the game); Enter closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "Continue"), Binding("escape", "close", "Close", show=False),
        Binding("space", "close", "Continue", show=False),
    ]

    def __init__(self, title: str, *body: RenderableType, footer: str = "Press Enter to continue.",
                 kind: str = "info") -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.footer_text = footer
        self.kind = kind

    def compose(self) -> ComposeResult:
        with Vertical(classes=f"dialog wide {self.kind}"):
            yield Static(Text(self.title_text, style="bold reverse"), classes="question")
            with VerticalScroll(classes="info-body"):
                yield Static(Group(*self.body), id="info")
            yield Static(Text(self.footer_text, style="dim"))

    def on_click(self) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.dismiss(None)


class RoundOverScreen(InfoScreen):
    """Between rounds: who went out, the points and what each held, the score pad."""


class GameOverScreen(InfoScreen):
    """The end of the game: the crown, the dunce cap and the final score pad; with ``review``, R
    opens the coach's review of the player's game."""

    BINDINGS: ClassVar[list[BindingType]] = [*InfoScreen.BINDINGS, Binding("r", "review", "The coach's review")]

    def __init__(self, title: str, *body: RenderableType, footer: str = "Press Enter to continue.",
                 kind: str = "info", review: Callable[[], None] | None = None) -> None:
        super().__init__(title, *body, footer=footer, kind=kind)
        self.review = review

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.review is not None if action == "review" else True

    def action_review(self) -> None:
        if self.review is not None:
            self.review()


class ReviewScreen(InfoScreen):
    """The coach's review of one seat's play (:func:`shanghai.bots.coach.review`), worked out in a
    thread while the screen says so; Enter goes back."""

    def __init__(self, record: GameRecord, seat: int) -> None:
        self.record = record
        self.seat = seat
        name = record.players[seat]
        waiting = Text("The coach is going through the game and weighing each difference (some seconds)…")
        super().__init__(f"The coach's review of {name}'s play", waiting, footer="Press Enter to go back.")

    def on_mount(self) -> None:
        self.run_worker(self._work, thread=True)

    def _work(self) -> None:
        from shanghai.cli.coach import review_object, review_text  # the coach, only when asked for

        obj = review_object(self.record, "This game", self.seat)
        self.app.call_from_thread(self._show, review_text(obj)[1:])  # without the line naming the file

    def _show(self, lines: list[str]) -> None:
        self.query_one("#info", Static).update(Text("\n".join(lines)))
