"""What the two game tables share: the screen's layout, the hand widget and the flow of the game.

:class:`CardTable` is the base of the contract game's :class:`~shanghai.tui.table.TableScreen` and
manipulation rummy's :class:`~shanghai.tui.manipulation.ManipulationScreen`: the same panels, the
log, the prompt and the hand; the computer players' turns, one after another with a pause; the
curtain between people sharing the screen; the cursor keys, the hand's order, the hint, the
dialogs and the game-over screen. :class:`HandRow` draws the hand, a card a cell with its mark
underneath; each game says what the marks are and what a click does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static

from shanghai.cards import Card, rank_sort_key, sort_key
from shanghai.cli.common import seat_words
from shanghai.rules.model import Rules
from shanghai.tui import render
from shanghai.tui.screens import CurtainScreen, GameOverScreen, InfoScreen
from shanghai.tui.session import Seats

if TYPE_CHECKING:
    from shanghai.tui.app import ShanghaiApp

# the keys both tables end their bindings with: the hand's cursor, clearing, scrolling the melds
HAND_BINDINGS: list[BindingType] = [
    Binding("left", "cursor(-1)", "←", show=False),
    Binding("right", "cursor(1)", "→", show=False),
    Binding("home", "cursor_to(0)", "first card", show=False),
    Binding("end", "cursor_to(-1)", "last card", show=False),
    Binding("escape", "clear", "Clear", show=False),
    Binding("pageup", "scroll_melds(-1)", "Melds up", show=False),
    Binding("pagedown", "scroll_melds(1)", "Melds down", show=False),
]


class _Seated(Protocol):
    @property
    def seat(self) -> int: ...


class _Done(Protocol):
    """What a session says an action did (:class:`~shanghai.tui.session.Applied` and its kin)."""

    note: str | None

    @property
    def action(self) -> _Seated: ...


class _View(Protocol):
    """A seat's view, of either game."""

    @property
    def hand(self) -> tuple[Card, ...]: ...

    @property
    def legal(self) -> tuple[Any, ...]: ...


ViewT = TypeVar("ViewT", bound=_View)
AppliedT = TypeVar("AppliedT", bound=_Done)


class _HandOwner(Protocol):
    cursor: int

    def hand_cards(self) -> list[Card]: ...

    def card_marks(self, hand: Sequence[Card]) -> list[str]: ...


OwnerT = TypeVar("OwnerT", bound=_HandOwner)


class HandRow(Widget, Generic[OwnerT]):
    """The hand: one cell per card, the cursor (reversed, ▲ under it when it has no mark) and a
    mark under each card (:meth:`card_marks` of the table says which)."""

    def __init__(self, table: OwnerT) -> None:
        super().__init__(id="hand")
        self.table = table

    def per_row(self) -> int:
        return max(1, (self.size.width or 80) // render.CARD_WIDTH)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        n = max(1, len(self.table.hand_cards()))
        per_row = max(1, width // render.CARD_WIDTH)
        return 2 * ((n + per_row - 1) // per_row)

    def card_rules(self) -> Rules | None:
        """The rules the cards are coloured by (which cards are wild), if any."""
        return None

    def mark_style(self, mark: str) -> str:
        return "bold cyan" if mark else "bold"

    def clicked(self, index: int, chain: int) -> None:
        """The card at ``index`` was clicked (``chain``: 2 for a double click)."""
        raise NotImplementedError

    def render(self) -> Text:
        table = self.table
        hand = table.hand_cards()
        if not hand:
            return Text("(no cards)", style="dim")
        rules = self.card_rules()
        marks = table.card_marks(hand)
        per_row = self.per_row()
        out = Text()
        for start in range(0, len(hand), per_row):
            if start:
                out.append("\n")
            row = hand[start:start + per_row]
            for i, c in enumerate(row, start):
                style = render.card_style(c, rules)
                if i == table.cursor:
                    style += " reverse underline"
                out.append(render.card_label(c).ljust(render.CARD_WIDTH - 1), style=style)
                out.append(" ")
            out.append("\n")
            for i in range(start, start + len(row)):
                mark = marks[i]
                cell = ("▲" if i == table.cursor and not mark else mark).ljust(render.CARD_WIDTH)
                out.append(cell, style=self.mark_style(mark))
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = (offset.y // 2) * self.per_row() + offset.x // render.CARD_WIDTH
        if 0 <= index < len(self.table.hand_cards()):
            self.clicked(index, event.chain)


class CardTable(Screen[None], Generic[ViewT, AppliedT]):
    """A game table for the person (or people, in turn) at the screen; the game's own screen says
    what is shown (:meth:`refresh_all`), what the keys do and what an action did (:meth:`_after`)."""

    KEYS_HELP: ClassVar[RenderableType] = Text()
    HINT_MARKS_HAND: ClassVar[bool] = False  # the hint marks cards in the hand: redraw it

    session: Seats[Any, AppliedT]

    def __init__(self, session: Seats[Any, AppliedT], *, pause: float = 0.6, hints: bool = True,
                 notes: Sequence[str] = ()) -> None:
        super().__init__()
        self.session = session
        self.pause = pause
        self.hints = hints
        self.notes = list(notes)
        self.viewer = session.humans[0]
        self.sort_by = "suit"
        self.cursor = 0
        self.current_view: ViewT | None = None
        self.message: Text = Text()
        self.busy = False           # a dialog or a between-rounds screen is open: the bots wait
        self._bot_timer: Timer | None = None

    # -- layout -----------------------------------------------------------------------------------
    def hand_widget(self) -> HandRow[Any]:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(id="top"):
            yield Static(id="contract")
            yield Static(id="turn")
        with Horizontal(id="middle"):
            with Vertical(id="side"):
                yield Static(id="players")
                yield Static(id="pile")
            with VerticalScroll(id="melds-box"):
                yield Static(id="melds")
        yield RichLog(id="log", max_lines=300, wrap=True, markup=False)
        yield Static(id="prompt")
        yield self.hand_widget()
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#log", RichLog)
        for note in self.notes:
            log.write(Text(note, style="dim"))
        if self.session.save_error:
            log.write(Text(self.session.save_error, style="red"))
        self.refresh_all()
        self.call_after_refresh(self.advance)

    @property
    def shanghai_app(self) -> ShanghaiApp:
        from shanghai.tui.app import ShanghaiApp

        app = self.app
        assert isinstance(app, ShanghaiApp)
        return app

    # -- what is shown ----------------------------------------------------------------------------
    def view(self) -> ViewT:
        raise NotImplementedError

    def hand_cards(self) -> list[Card]:
        v = self.current_view
        if v is None:
            return []
        return sorted(v.hand, key=rank_sort_key if self.sort_by == "rank" else sort_key)

    def card_marks(self, hand: Sequence[Card]) -> list[str]:
        raise NotImplementedError

    def refresh_all(self) -> None:
        raise NotImplementedError

    def refresh_hand(self) -> None:
        hand = self.hand_cards()
        self.cursor = min(max(self.cursor, 0), max(len(hand) - 1, 0))
        self.query_one(HandRow).refresh(layout=True)

    def refresh_prompt(self) -> None:
        v = self.current_view or self.view()
        lines: list[RenderableType] = []
        if self.message:
            lines.append(self.message)
        lines.append(self._what_now(v))
        staged = self._staged()
        if staged is not None:
            lines.append(staged)
        self.query_one("#prompt", Static).update(Group(*lines))

    def _what_now(self, v: ViewT) -> Text:
        """What the person can do now (the prompt's main line)."""
        raise NotImplementedError

    def _staged(self) -> Text | None:
        """The prompt's line about the cards chosen so far, if any are."""
        raise NotImplementedError

    def bindings_changed(self) -> None:
        """The keys offered may have changed (a table whose keys depend on the game redraws them)."""

    def say(self, text: str, style: str = "") -> None:
        self.query_one("#log", RichLog).write(Text(text, style=style))

    def refuse(self, reason: str) -> None:
        reason = seat_words(reason, self.session.names, self.viewer)
        self.message = Text(f"✗ Not allowed: {reason}", style="bold red")
        self.say(f"Not allowed: {reason}", "red")
        self.app.bell()
        self.refresh_prompt()

    # -- the flow of the game ---------------------------------------------------------------------
    def advance(self) -> None:
        """Let the computer players act (with a short pause each), then wait for a person."""
        if self.busy or self._bot_timer is not None:
            return
        session = self.session
        if session.game.is_over:
            self.refresh_all()
            self.show_game_over()
            return
        while session.bot_to_act() is not None:
            delay = self._bot_delay()
            if delay > 0:
                self._bot_timer = self.set_timer(delay, self._bot_move)
                self.refresh_all()
                return
            if self._bot_move_now():
                return
        human = session.human_to_act()
        if human is not None and human != self.viewer:
            self.viewer = human
            self.forget_selection()
            if len(session.humans) > 1:
                self.busy = True
                self.current_view = None
                self.refresh_hand()
                self.bindings_changed()
                self.app.push_screen(CurtainScreen(session.names[human], self._curtain_text()),
                                     self._curtain_lifted)
                return
        self.refresh_all()
        self._person_to_act()

    def _bot_delay(self) -> float:
        """How long the next computer player waits before it acts."""
        return self.pause

    def _curtain_text(self) -> str:
        """What the curtain between two people says to the next one."""
        raise NotImplementedError

    def _person_to_act(self) -> None:
        """The screen waits for the person at it (the contract table starts the buy countdown)."""

    def _curtain_lifted(self, _: None = None) -> None:
        self.busy = False
        self.refresh_all()
        self._person_to_act()

    def _next_deal(self, _: None = None) -> None:
        """The between-rounds (or between-hands) screen was closed: the next deal is played."""
        self.busy = False
        self.refresh_all()
        self.advance()

    def _bot_move(self) -> None:
        self._bot_timer = None
        if self.busy or not self.is_attached:
            return
        if not self._bot_move_now():
            self.advance()

    def _bot_move_now(self) -> bool:
        """One computer player's move; True when a between-rounds (or between-hands) screen was opened."""
        applied = self.session.bot_step()
        if applied is None:
            return False
        if applied.note:
            self.say(f"({self.session.names[applied.action.seat]} {applied.note})", "dim")
        return self._after(applied)

    def _after(self, applied: AppliedT) -> bool:
        """Tell what happened; True when the round (or hand) ended (its screen is then shown)."""
        raise NotImplementedError

    def _acted(self, applied: AppliedT) -> None:
        """After the person's action: a failed save is told, then the game goes on."""
        if self.session.save_error:
            self.say(self.session.save_error, "red")
            self.session.save_error = None
        if not self._after(applied):
            self.refresh_all()
            self.advance()

    def show_game_over(self) -> None:
        raise NotImplementedError

    def _game_over(self, body: list[RenderableType], review: Callable[[], None] | None = None) -> None:
        """The game-over screen with ``body`` and where the record is (with ``review``, R opens the
        coach's review); leaving it ends the program."""
        record = self.session.record
        if record is not None:
            body.append(Text(f"\nThe record of the game is in {record.path}.", style="dim"))
        self.bindings_changed()
        footer = "R: the coach's review of your play · Enter: leave." if review else "Press Enter to leave."
        self.app.push_screen(GameOverScreen("The game is over", *body, footer=footer, kind="over", review=review),
                             lambda _: self.app.exit())

    def _show_info(self, title: str, body: RenderableType) -> None:
        """A page to read (the scores, the keys); the game waits until it is closed."""
        self.busy = True

        def done(_: None = None) -> None:
            self.busy = False
            self.bindings_changed()
            self.advance()

        self.bindings_changed()
        self.app.push_screen(InfoScreen(title, body, footer="Press Enter to go back."), done)

    # -- the person's actions ---------------------------------------------------------------------
    def _card_at_cursor(self) -> Card | None:
        hand = self.hand_cards()
        return hand[self.cursor] if 0 <= self.cursor < len(hand) else None

    def forget_selection(self) -> None:
        """Forget the cards chosen so far."""
        raise NotImplementedError

    def _keep_selection(self) -> None:
        """The same cards stay selected when the hand is shown in another order (a table that keeps
        them by place in the hand moves them along)."""

    def action_clear(self) -> None:
        self.forget_selection()
        self.message = Text()
        self.refresh_prompt()
        self.refresh_hand()

    def action_cursor(self, step: int) -> None:
        n = len(self.hand_cards())
        if n:
            self.cursor = (self.cursor + step) % n
        self.refresh_hand()

    def action_cursor_to(self, index: int) -> None:
        n = len(self.hand_cards())
        self.cursor = index % n if n else 0
        self.refresh_hand()

    def action_sort(self) -> None:
        card = self._card_at_cursor()
        self._keep_selection()
        self.sort_by = "rank" if self.sort_by == "suit" else "suit"
        self._keep_selection()
        if card is not None:
            self.cursor = self.hand_cards().index(card)
        self.say(f"Hand sorted by {self.sort_by}.", "dim")
        self.refresh_hand()

    def action_hint(self) -> None:
        v = self.view()
        if not self.hints:
            self.say("Hints are switched off for this game.", "dim")
            return
        if not v.legal:
            self.say("Hint: nothing to do now — the others are to act.", "dim")
            return
        text = self.hint_text(v)
        self.message = Text(text, style="bold green")
        self.say(text, "green")
        self.refresh_prompt()
        if self.HINT_MARKS_HAND:
            self.refresh_hand()

    def hint_text(self, v: ViewT) -> str:
        raise NotImplementedError

    def action_quit_game(self) -> None:
        self.shanghai_app.exit(0)

    def action_scroll_melds(self, direction: int) -> None:
        box = self.query_one("#melds-box", VerticalScroll)
        if direction < 0:
            box.scroll_page_up()
        else:
            box.scroll_page_down()

    def action_keys(self) -> None:
        self._show_info("Keys", self.KEYS_HELP)
