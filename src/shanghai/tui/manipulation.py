"""Manipulation rummy at the full-screen table (the other game called "Shanghai", document 004).

The person chooses cards from the hand and the program arranges the table to take them, moving
the melds as little as it can (:func:`~shanghai.engine.manipulation.play_exactly`), as in the
plain game's ``play 7C 3C``; B makes the largest play, D draws and N passes when the rules say so,
H names the cards that can be placed. Everything shown is drawn from the person's
:func:`~shanghai.engine.manipulation.manipulation_view`; every key becomes an engine action, and a
refused action shows the reason and changes nothing. The record is saved after every action.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
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
from shanghai.engine.actions import DrawStock, Pass
from shanghai.engine.manipulation import (
    HandResult,
    ManipulationAction,
    ManipulationView,
    PlayToTable,
    play_exactly,
)
from shanghai.errors import IllegalActionError, ShanghaiError
from shanghai.table_solver import Meld, best_play, placeable_cards
from shanghai.tui import render
from shanghai.tui.screens import CurtainScreen, GameOverScreen, InfoScreen, RoundOverScreen
from shanghai.tui.session import ManipulationApplied, ManipulationSession

if TYPE_CHECKING:
    from shanghai.tui.app import ShanghaiApp

KEYS_HELP = Text("""\
←/→, Home/End   move the cursor along your hand
Space           select / unselect the card at the cursor (or click a card)
M (or Enter)    place the selected cards (nothing selected: the card at the cursor); the program
                arranges the table to take them, moving the melds as little as it can
B               the largest play: as many cards as can be placed at once
D               draw a card (only when no card of your hand can be placed)
N               pass (only when no card can be placed and the stock is empty)
H               a hint: which cards can be placed now (marked • under your hand)
S               sort the hand by suit or by rank
P               the scores
Esc             clear the selected cards
PgUp/PgDn       scroll the table's melds
Q               save and quit ('shanghai play --resume' continues)
Melds changed by the last play are marked ◆. The game is saved after every move.""")


# -- what the screen shows (Rich text from the view) ------------------------------------------------
def meld_kind(meld: Sequence[Card]) -> str:
    return "set" if len({c & 15 for c in meld}) == 1 else "run"


def header_line(v: ManipulationView) -> Text:
    text = Text()
    text.append("Manipulation rummy", style="bold")
    text.append(f"  ·  hand {v.hand_number}")
    text.append("  ·  first to ")
    text.append(render.plural(v.rules.target_score, "point"), style="bold cyan")
    text.append(" loses")
    text.append(f"  ·  rules: {v.rules_name}", style="dim")
    return text


def turn_line(v: ManipulationView, names: Sequence[str]) -> str:
    if v.phase.value == "game-over":
        return "The game is over."
    who = "your" if v.turn == v.seat else f"{names[v.turn]}'s"
    drew = f" (drew {render.plural(v.draws_this_turn, 'card')} this turn)" if v.draws_this_turn else ""
    return f"Dealer {names[v.dealer]} · {who} turn{drew}"


def went_out_count(v: ManipulationView, seat: int) -> int:
    return sum(1 for r in v.hand_results if r.went_out == seat)


def players_table(v: ManipulationView, names: Sequence[str]) -> Table:
    table = Table(box=None, pad_edge=False, expand=True, show_edge=False)
    table.add_column("", width=1)
    table.add_column("player", ratio=3, no_wrap=True, min_width=12)
    table.add_column("cards", justify="right")
    table.add_column("total", justify="right")
    table.add_column("★", no_wrap=True)
    for s in range(v.players):
        name = names[s] + (" (D)" if s == v.dealer else "")
        mark = "▶" if s in v.to_act else ""
        style = ("bold " if s in v.to_act else "") + ("underline" if s == v.seat else "")
        table.add_row(mark, Text(name, style=style), str(v.hand_counts[s]), str(v.totals[s]),
                      "★" * went_out_count(v, s))
    return table


def stock_text(v: ManipulationView) -> Text:
    text = Text()
    text.append("Stock: ", style="bold")
    text.append(render.plural(v.stock_size, "card") if v.stock_size else "empty")
    if not v.stock_size:
        text.append(f"\nPasses in a row: {v.passes} of {v.players}", style="dim")
    text.append(f"\nMelds on the table: {len(v.table)}", style="dim")
    return text


def meld_text(number: int, meld: Meld, changed: bool) -> Text:
    text = Text()
    text.append("◆" if changed else " ", style="bold yellow")
    text.append(f"m{number:<3}", style="bold")
    text.append(f"{meld_kind(meld):<4}")
    text.append_text(render.cards(meld, None))
    return text


def melds_view(table: Sequence[Meld], changed: set[int], rows: int = 12) -> RenderableType:
    """The table's melds, numbered m1, m2, ... in the table's order: one a line, in columns (down
    then across) once there are more than ``rows``."""
    if not table:
        return Text("No melds on the table yet.", style="dim")
    rows = max(rows, 1)
    columns = (len(table) + rows - 1) // rows
    rows = (len(table) + columns - 1) // columns
    grid = Table.grid(padding=(0, 3))
    for _ in range(columns):
        grid.add_column(no_wrap=True)
    cells = [meld_text(i, m, i - 1 in changed) for i, m in enumerate(table, 1)]
    for r in range(rows):
        grid.add_row(*[cells[c * rows + r] if c * rows + r < len(cells) else Text()
                       for c in range(columns)])
    return grid


def changed_melds(before: Sequence[Meld], after: Sequence[Meld]) -> set[int]:
    """The indexes of ``after``'s melds that were not on the table ``before`` (new or changed)."""
    old = Counter(before)
    out: set[int] = set()
    for i, meld in enumerate(after):
        if old[meld] > 0:
            old[meld] -= 1
        else:
            out.add(i)
    return out


def describe(a: ManipulationAction, applied: ManipulationApplied | None, viewer: int,
             names: Sequence[str], left: int | None) -> str:
    """An action in words, for the log."""
    you = a.seat == viewer
    who = "You" if you else names[a.seat]
    s = "" if you else "s"
    if isinstance(a, DrawStock):
        return f"{who} cannot meld and draw{s} a card."
    if isinstance(a, Pass):
        return f"{who} cannot meld and the stock is empty: {'pass' if you else 'passes'}."
    text = f"{who} place{s} {' '.join(render.card_label(c) for c in a.placed)}"
    if applied is not None and applied.ended is None:
        gone = len(Counter(applied.before) - Counter(a.table))
        made = sorted(changed_melds(applied.before, a.table))
        if gone == 0:
            text += " as a new meld" if len(made) == 1 else f" as {len(made)} new melds"
        elif gone == 1 and len(made) == 1:
            text += f" onto m{made[0] + 1}"
        else:
            text += f", rearranging {render.plural(gone, 'meld')} into {render.plural(len(made), 'meld')}"
    if left is not None:
        text += f" — {render.plural(left, 'card')} left"
    return text + "."


def hand_result_text(r: HandResult, names: Sequence[str]) -> Text:
    out = Text()
    out.append(f"Hand {r.number} is over\n", style="bold")
    if r.went_out is None:
        out.append("The hand is blocked: the stock is empty and nobody can meld.\n\n")
    else:
        out.append(f"{names[r.went_out]} went out.\n\n")
    width = max(len(n) for n in names) + 2
    for s in range(len(names)):
        out.append(f"{names[s]:<{width}}", style="bold" if s == r.went_out else "")
        out.append(f"{r.points[s]:>5} ")
        out.append("★ " if s == r.went_out else "  ", style="yellow")
        out.append("went out" if s == r.went_out else f"held {render.plural(r.cards_left[s], 'card')}")
        out.append("\n")
    return out


def score_pad(v: ManipulationView, names: Sequence[str]) -> Table:
    """One column per hand (a star for who went out) and the running totals."""
    table = Table(title=f"Scores (first to {v.rules.target_score} loses)", expand=False)
    table.add_column("player", no_wrap=True)
    for r in v.hand_results:
        table.add_column(f"H{r.number}", justify="right")
    table.add_column("total", justify="right", style="bold")
    table.add_column("★")
    for s in range(v.players):
        cells = [f"{r.points[s]}{'★' if r.went_out == s else ' '}" for r in v.hand_results]
        table.add_row(names[s], *cells, str(v.totals[s]), "★" * went_out_count(v, s))
    return table


def game_over_text(v: ManipulationView, names: Sequence[str], winners: Sequence[int],
                   losers: Sequence[int]) -> Text:
    out = Text()
    who = " and ".join(names[s] for s in winners)
    out.append(f"♛ {who} {'wins' if len(winners) == 1 else 'win'} with the lowest total, "
               f"{render.plural(v.totals[winners[0]], 'point')}", style="bold yellow")
    out.append(" — congratulations!\n" if v.seat in winners else ".\n")
    if losers:
        who = " and ".join(names[s] for s in losers)
        out.append(f"{who} reached {render.plural(v.rules.target_score, 'point')} ({v.totals[losers[0]]}) and "
                   f"{'loses' if len(losers) == 1 else 'lose'}.\n", style="bold magenta")
    return out


# -- the hand ---------------------------------------------------------------------------------------
class ManipulationHandView(Widget):
    """The hand: one cell per card, a cursor, ✓ under the selected cards, • under the cards the
    hint says can be placed, + under the cards drawn this turn."""

    DEFAULT_CSS = "ManipulationHandView { height: auto; }"

    def __init__(self, table: ManipulationScreen) -> None:
        super().__init__(id="hand")
        self.table = table

    def per_row(self) -> int:
        return max(1, (self.size.width or 80) // render.CARD_WIDTH)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        n = max(1, len(self.table.hand_cards()))
        per_row = max(1, width // render.CARD_WIDTH)
        return 2 * ((n + per_row - 1) // per_row)

    def render(self) -> Text:
        table = self.table
        hand = table.hand_cards()
        if not hand:
            return Text("(no cards)", style="dim")
        marks = table.card_marks(hand)
        per_row = self.per_row()
        out = Text()
        for start in range(0, len(hand), per_row):
            if start:
                out.append("\n")
            row = hand[start:start + per_row]
            for i, c in enumerate(row, start):
                style = render.card_style(c, None)
                if i == table.cursor:
                    style += " reverse underline"
                out.append(render.card_label(c).ljust(render.CARD_WIDTH - 1), style=style)
                out.append(" ")
            out.append("\n")
            for i in range(start, start + len(row)):
                mark = marks[i]
                cell = ("▲" if i == table.cursor and not mark else mark).ljust(render.CARD_WIDTH)
                out.append(cell, style="bold cyan" if mark == "✓" else ("green" if mark else "bold"))
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = (offset.y // 2) * self.per_row() + offset.x // render.CARD_WIDTH
        if 0 <= index < len(self.table.hand_cards()):
            self.table.cursor = index
            self.table.action_toggle_select()


# -- the screen -------------------------------------------------------------------------------------
class ManipulationScreen(Screen[None]):
    """The table of manipulation rummy for the person (or people, in turn) at the screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "place", "Place"),
        Binding("enter", "place", "Place", show=False),
        Binding("b", "best", "Largest play"),
        Binding("d", "draw", "Draw"),
        Binding("n", "pass", "Pass"),
        Binding("h", "hint", "Hint"),
        Binding("p", "score_pad", "Scores"),
        Binding("s", "sort", "Sort"),
        Binding("q", "quit_game", "Quit"),
        Binding("question_mark,f1", "keys", "Keys"),
        Binding("space", "toggle_select", "Select", show=False),
        Binding("left", "cursor(-1)", "←", show=False),
        Binding("right", "cursor(1)", "→", show=False),
        Binding("home", "cursor_to(0)", "first card", show=False),
        Binding("end", "cursor_to(-1)", "last card", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("pageup", "scroll_melds(-1)", "Melds up", show=False),
        Binding("pagedown", "scroll_melds(1)", "Melds down", show=False),
    ]
    # the keys of the turn's actions, offered only when the rules allow them
    TURN_ACTIONS: ClassVar[frozenset[str]] = frozenset({"place", "best", "draw", "pass"})

    def __init__(self, session: ManipulationSession, *, pause: float = 0.6, hints: bool = True,
                 notes: Sequence[str] = ()) -> None:
        super().__init__()
        self.session = session
        self.pause = pause
        self.hints = hints
        self.notes = list(notes)
        self.viewer = session.humans[0]
        self.sort_by = "suit"
        self.cursor = 0
        self.picked: set[int] = set()      # the selected cards: their places in the hand as shown
        self._picked_hand: list[Card] = []  # the hand as shown when they were picked
        self.hinted: frozenset[Card] = frozenset()
        self.changed: set[int] = set()     # melds changed by the last play (indexes of the table)
        self.current_view: ManipulationView | None = None
        self.message: Text = Text()
        self.busy = False                  # a dialog or a between-hands screen is open: the bots wait
        self._bot_timer: Timer | None = None
        self._view: ManipulationView | None = None
        self._view_key: tuple[int, int, bool] | None = None

    # -- layout -----------------------------------------------------------------------------------
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
        yield ManipulationHandView(self)
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
    def view(self) -> ManipulationView:
        """The viewer's view (kept until the game moves on: the game changes only by actions)."""
        g = self.session.game
        key = (self.viewer, len(g.actions), g.is_over)
        if self._view_key != key or self._view is None:
            self._view = self.session.view(self.viewer)
            self._view_key = key
        return self._view

    def hand_cards(self) -> list[Card]:
        v = self.current_view
        if v is None:
            return []
        return sorted(v.hand, key=rank_sort_key if self.sort_by == "rank" else sort_key)

    def card_marks(self, hand: Sequence[Card]) -> list[str]:
        """Under each card: ✓ when selected, • when the hint says it can be placed, + when drawn
        this turn, or nothing."""
        v = self.current_view
        drawn = Counter(v.drawn if v is not None else ())
        marks: list[str] = []
        for i, c in enumerate(hand):
            if i in self.picked:
                marks.append("✓")
            elif c in self.hinted:
                marks.append("•")
            elif drawn[c] > 0:
                drawn[c] -= 1
                marks.append("+")
            else:
                marks.append("")
        return marks

    def refresh_all(self) -> None:
        v = self.view()
        self.current_view = v
        names = self.session.names
        self.query_one("#contract", Static).update(header_line(v))
        self.query_one("#turn", Static).update(Text(turn_line(v, names), style="italic"))
        self.query_one("#players", Static).update(players_table(v, names))
        self.query_one("#pile", Static).update(stock_text(v))
        self.refresh_melds()
        have = Counter(v.hand)
        self._keep_picked()
        self.hinted = frozenset(c for c in self.hinted if have[c] > 0)
        self.refresh_prompt()
        self.refresh_hand()
        self.refresh_bindings()

    def refresh_melds(self) -> None:
        v = self.current_view
        if v is None:
            return
        height = self.query_one("#melds-box", VerticalScroll).size.height
        self.query_one("#melds", Static).update(melds_view(v.table, self.changed, height or 12))

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.refresh_melds)

    @property
    def selected(self) -> Counter[Card]:
        """The selected cards."""
        hand = self._picked_hand
        return Counter(hand[i] for i in self.picked if i < len(hand))

    def _keep_picked(self) -> None:
        """The same cards stay selected when the hand is shown in another order (or has changed)."""
        hand = self.hand_cards()
        if hand == self._picked_hand:
            return
        want = self.selected
        self.picked = set()
        for i, c in enumerate(hand):
            if want[c] > 0:
                want[c] -= 1
                self.picked.add(i)
        self._picked_hand = hand

    def refresh_hand(self) -> None:
        hand = self.hand_cards()
        self.cursor = min(max(self.cursor, 0), max(len(hand) - 1, 0))
        self.query_one(ManipulationHandView).refresh(layout=True)

    def refresh_prompt(self) -> None:
        v = self.current_view or self.view()
        lines: list[RenderableType] = []
        if self.message:
            lines.append(self.message)
        lines.append(self._what_now(v))
        if self.selected:
            staged = Text("Selected: ", style="cyan")
            staged.append_text(render.cards(sorted(self.selected.elements(), key=sort_key), None))
            staged.append("  (M or Enter places them · Space unselects · Esc clears)", style="dim")
            lines.append(staged)
        self.query_one("#prompt", Static).update(Group(*lines))

    def _what_now(self, v: ManipulationView) -> Text:
        names = self.session.names
        if v.phase.value == "game-over":
            return Text("The game is over. P: scores · Q: quit", style="bold")
        if not v.legal:
            return Text(f"Waiting for {names[v.turn]}…", style="dim")
        who = "" if len(self.session.humans) == 1 else f"{names[self.viewer]}: "
        drew = ""
        if v.drawn:
            drew = f"You drew {' '.join(render.card_label(c) for c in v.drawn)}. "
        first = v.legal[0]
        if isinstance(first, DrawStock):
            return Text(who + drew + "No card of yours can be placed: D draws a card.", style="bold")
        if isinstance(first, Pass):
            return Text(who + drew + "No card of yours can be placed and the stock is empty: N passes.",
                        style="bold")
        return Text(who + drew + "Select cards (←/→ and Space, or click) · M/Enter: place them, the table "
                    "is arranged for you · B: the largest play · H: hint", style="bold")

    def say(self, text: str, style: str = "") -> None:
        self.query_one("#log", RichLog).write(Text(text, style=style))

    def refuse(self, reason: str) -> None:
        self.message = Text(f"✗ Not allowed: {reason}", style="bold red")
        self.say(f"Not allowed: {reason}", "red")
        self.app.bell()
        self.refresh_prompt()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Place, the largest play, draw and pass are offered only when the rules allow them."""
        if action not in self.TURN_ACTIONS:
            return True
        v = self.current_view
        if v is None or not v.legal or self.busy:
            return False
        first = v.legal[0]
        if action in ("place", "best"):
            return isinstance(first, PlayToTable)
        if action == "draw":
            return isinstance(first, DrawStock)
        return isinstance(first, Pass)

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
            if self.pause > 0:
                self._bot_timer = self.set_timer(self.pause, self._bot_move)
                self.refresh_all()
                return
            if self._bot_move_now():
                return
        human = session.human_to_act()
        if human is not None and human != self.viewer:
            self.viewer = human
            self.picked.clear()
            self.hinted = frozenset()
            if len(session.humans) > 1:
                self.busy = True
                self.current_view = None
                self.refresh_hand()
                self.refresh_bindings()
                self.app.push_screen(CurtainScreen(session.names[human], "It is your turn."),
                                     self._curtain_lifted)
                return
        self.refresh_all()

    def _curtain_lifted(self, _: None = None) -> None:
        self.busy = False
        self.refresh_all()

    def _bot_move(self) -> None:
        self._bot_timer = None
        if self.busy or not self.is_attached:
            return
        if not self._bot_move_now():
            self.advance()

    def _bot_move_now(self) -> bool:
        """One computer player's move; True when a between-hands screen was opened."""
        applied = self.session.bot_step()
        if applied is None:
            return False
        if applied.note:
            self.say(f"({self.session.names[applied.action.seat]} {applied.note})", "dim")
        return self._after(applied)

    def _after(self, applied: ManipulationApplied) -> bool:
        """Tell what happened; True when the hand ended (its screen is then shown)."""
        a = applied.action
        g = self.session.game
        names = self.session.names
        left = None
        if isinstance(a, PlayToTable):
            left = 0 if applied.ended is not None and applied.ended.went_out == a.seat else len(g.hands[a.seat])
            self.changed = changed_melds(applied.before, a.table) if applied.ended is None else set()
        self.say(describe(a, applied, self.viewer, names, left), "bold" if a.seat == self.viewer else "")
        if applied.drawn is not None and a.seat == self.viewer:
            self.say(f"You drew {render.card_label(applied.drawn)}.", "cyan")
        if applied.ended is not None:
            r = applied.ended
            self.changed = set()
            if r.went_out is not None:
                self.say(f"{names[r.went_out]} went out!", "bold yellow")
            else:
                self.say("The hand is blocked: nobody can meld and the stock is empty.", "bold yellow")
            self.show_hand_over(r)
            return True
        return False

    def act(self, action: ManipulationAction) -> bool:
        """Apply the person's action; a refusal shows the reason and changes nothing."""
        try:
            applied = self.session.apply(action)
        except (IllegalActionError, ShanghaiError) as exc:
            self.refuse(str(exc))
            return False
        self.message = Text()
        self.picked.clear()
        self.hinted = frozenset()
        if self.session.save_error:
            self.say(self.session.save_error, "red")
            self.session.save_error = None
        if not self._after(applied):
            self.refresh_all()
            self.advance()
        return True

    def show_hand_over(self, r: HandResult) -> None:
        self.busy = True
        self.refresh_all()
        if self.session.game.is_over:
            self.busy = False
            self.show_game_over(first=r)
            return
        v = self.view()
        names = self.session.names
        body: list[RenderableType] = [hand_result_text(r, names), score_pad(v, names),
                                      Text(f"\nNext: hand {v.hand_number}, dealt by {names[v.dealer]}.",
                                           style="bold cyan")]
        self.app.push_screen(RoundOverScreen(f"Hand {r.number} is over", *body,
                                             footer="Press Enter for the next hand."), self._next_hand)

    def _next_hand(self, _: None = None) -> None:
        self.busy = False
        self.refresh_all()
        self.advance()

    def show_game_over(self, first: HandResult | None = None) -> None:
        if self.busy:
            return
        self.busy = True
        game = self.session.game
        v = self.view()
        names = self.session.names
        body: list[RenderableType] = []
        if first is not None:
            body.append(hand_result_text(first, names))
        body.append(game_over_text(v, names, game.winners(), game.losers()))
        body.append(score_pad(v, names))
        record = self.session.record
        if record is not None:
            body.append(Text(f"\nThe record of the game is in {record.path}.", style="dim"))
        self.refresh_bindings()
        self.app.push_screen(GameOverScreen("The game is over", *body, footer="Press Enter to leave.",
                                            kind="over"),
                             lambda _: self.app.exit())

    # -- the person's actions ---------------------------------------------------------------------
    def _card_at_cursor(self) -> Card | None:
        hand = self.hand_cards()
        return hand[self.cursor] if 0 <= self.cursor < len(hand) else None

    def _my_turn(self, v: ManipulationView) -> bool:
        if v.legal:
            return True
        if v.phase.value == "game-over":
            self.refuse("the game is over")
        else:
            self.refuse(f"it is {self.session.names[v.turn]}'s turn")
        return False

    def action_place(self) -> None:
        v = self.view()
        if not self._my_turn(v):
            return
        cards = sorted(self.selected.elements(), key=sort_key)
        if not cards:
            card = self._card_at_cursor()
            if card is None:
                self.refuse("you have no card to place")
                return
            cards = [card]
        action = play_exactly(v, cards, self.viewer)
        labels = " ".join(render.card_label(c) for c in cards)
        if action is None:
            can = sorted(placeable_cards(v.table, v.hand), key=sort_key)
            tip = (f"Cards that can be placed: {' '.join(render.card_label(c) for c in can)}." if can
                   else ("No card of yours can be placed now: draw (D)." if v.stock_size
                         else "No card of yours can be placed now: pass (N)."))
            what = (f"{labels} cannot be placed" if len(cards) == 1
                    else f"{labels} cannot all be placed together")
            self.refuse(f"{what}. {tip}")
            return
        self.act(action)

    def action_best(self) -> None:
        v = self.view()
        if not self._my_turn(v):
            return
        first = v.legal[0]
        if not isinstance(first, PlayToTable):
            self.refuse("no card of yours can be placed now: " + ("draw (D)" if v.stock_size else "pass (N)"))
            return
        self.act(first)

    def action_draw(self) -> None:
        self.act(DrawStock(self.viewer))

    def action_pass(self) -> None:
        self.act(Pass(self.viewer))

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
        self.refresh_hand()

    def hint_text(self, v: ManipulationView) -> str:
        cards = sorted(placeable_cards(v.table, v.hand), key=sort_key)
        self.hinted = frozenset(cards)
        if not cards:
            return "Hint: no card can be placed — " + ("draw (D)." if v.stock_size else "pass (N).")
        best = best_play(v.table, v.hand)
        most = (f" The most you can place at once: {' '.join(render.card_label(c) for c in best.placed)} (B)."
                if best is not None and best.placed else "")
        return f"Hint: cards that can be placed (•): {' '.join(render.card_label(c) for c in cards)}.{most}"

    def action_toggle_select(self) -> None:
        card = self._card_at_cursor()
        if card is None or self.current_view is None:
            return
        self._keep_picked()
        self.picked ^= {self.cursor}
        self.refresh_prompt()
        self.refresh_hand()

    def action_clear(self) -> None:
        self.picked.clear()
        self.hinted = frozenset()
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
        self._keep_picked()
        self.sort_by = "rank" if self.sort_by == "suit" else "suit"
        self._keep_picked()
        if card is not None:
            self.cursor = self.hand_cards().index(card)
        self.say(f"Hand sorted by {self.sort_by}.", "dim")
        self.refresh_hand()

    def action_score_pad(self) -> None:
        v = self.view()
        self.busy = True

        def done(_: None = None) -> None:
            self.busy = False
            self.refresh_bindings()
            self.advance()

        self.refresh_bindings()
        self.app.push_screen(InfoScreen("Scores", score_pad(v, self.session.names),
                                        footer="Press Enter to go back."), done)

    def action_quit_game(self) -> None:
        self.shanghai_app.exit(0)

    def action_scroll_melds(self, direction: int) -> None:
        box = self.query_one("#melds-box", VerticalScroll)
        if direction < 0:
            box.scroll_page_up()
        else:
            box.scroll_page_down()

    def action_keys(self) -> None:
        self.busy = True

        def done(_: None = None) -> None:
            self.busy = False
            self.refresh_bindings()
            self.advance()

        self.refresh_bindings()
        self.app.push_screen(InfoScreen("Keys", KEYS_HELP, footer="Press Enter to go back."), done)
