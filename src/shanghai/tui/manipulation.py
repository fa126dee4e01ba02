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
from typing import ClassVar

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from shanghai.bots.manipulation import min_placed
from shanghai.cards import Card, sort_key
from shanghai.engine.actions import DrawStock, Pass
from shanghai.engine.manipulation import (
    HandResult,
    ManipulationAction,
    ManipulationView,
    PlayToTable,
    play_exactly,
)
from shanghai.errors import IllegalActionError, ShanghaiError
from shanghai.table_solver import Meld, best_play, placeable_cards, placeable_words
from shanghai.tui import render
from shanghai.tui.base import HAND_BINDINGS, CardTable, HandRow
from shanghai.tui.screens import RoundOverScreen
from shanghai.tui.session import ManipulationApplied, ManipulationSession

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
    return render.went_out_count(v.hand_results, seat)


def players_table(v: ManipulationView, names: Sequence[str]) -> Table:
    table = render.seats_table()
    table.add_column("cards", justify="right")
    table.add_column("total", justify="right")
    table.add_column("★", no_wrap=True)
    for s in range(v.players):
        mark, name = render.seat_cells(s, names, v.dealer, v.to_act, v.seat)
        table.add_row(mark, name, str(v.hand_counts[s]), str(v.totals[s]), "★" * went_out_count(v, s))
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
    return render.scores_table(f"Scores (first to {v.rules.target_score} loses)", "H", v.hand_results, v.totals,
                               names)


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
class ManipulationHandView(HandRow["ManipulationScreen"]):
    """The hand: one cell per card, a cursor, ✓ under the selected cards, • under the cards the
    hint says can be placed, + under the cards drawn this turn."""

    DEFAULT_CSS = "ManipulationHandView { height: auto; }"

    def mark_style(self, mark: str) -> str:
        return "bold cyan" if mark == "✓" else ("green" if mark else "bold")

    def clicked(self, index: int, chain: int) -> None:
        self.table.cursor = index
        self.table.action_toggle_select()


# -- the screen -------------------------------------------------------------------------------------
class ManipulationScreen(CardTable[ManipulationView, ManipulationApplied]):
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
        *HAND_BINDINGS,
    ]
    KEYS_HELP = KEYS_HELP
    HINT_MARKS_HAND = True
    # the keys of the turn's actions, offered only when the rules allow them
    TURN_ACTIONS: ClassVar[frozenset[str]] = frozenset({"place", "best", "draw", "pass"})

    session: ManipulationSession

    def __init__(self, session: ManipulationSession, *, pause: float = 0.6, hints: bool = True,
                 notes: Sequence[str] = ()) -> None:
        super().__init__(session, pause=pause, hints=hints, notes=notes)
        self.picked: set[int] = set()      # the selected cards: their places in the hand as shown
        self._picked_hand: list[Card] = []  # the hand as shown when they were picked
        self.hinted: frozenset[Card] = frozenset()
        self.changed: set[int] = set()     # melds changed by the last play (indexes of the table)
        self._view: ManipulationView | None = None
        self._view_key: tuple[int, int, bool] | None = None

    # -- layout -----------------------------------------------------------------------------------
    def hand_widget(self) -> ManipulationHandView:
        return ManipulationHandView(self)

    # -- what is shown ----------------------------------------------------------------------------
    def view(self) -> ManipulationView:
        """The viewer's view (kept until the game moves on: the game changes only by actions)."""
        g = self.session.game
        key = (self.viewer, len(g.actions), g.is_over)
        if self._view_key != key or self._view is None:
            self._view = self.session.view(self.viewer)
            self._view_key = key
        return self._view

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
        self._keep_selection()
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

    def _keep_selection(self) -> None:
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

    def _staged(self) -> Text | None:
        if not self.selected:
            return None
        staged = Text("Selected: ", style="cyan")
        staged.append_text(render.cards(sorted(self.selected.elements(), key=sort_key), None))
        staged.append("  (M or Enter places them · Space unselects · Esc clears)", style="dim")
        return staged

    def bindings_changed(self) -> None:
        self.refresh_bindings()

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
    def _curtain_text(self) -> str:
        return "It is your turn."

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
        self.forget_selection()
        self._acted(applied)
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
                                             footer="Press Enter for the next hand."), self._next_deal)

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
        self._game_over(body)

    # -- the person's actions ---------------------------------------------------------------------
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
            can = placeable_words(v.table, v.hand, render.card_label, single=min_placed(v) == 1)
            tip = (f"Cards that can be placed: {can}." if can
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

    def hint_text(self, v: ManipulationView) -> str:
        self.hinted = placeable_cards(v.table, v.hand)
        if not self.hinted:
            return "Hint: no card can be placed — " + ("draw (D)." if v.stock_size else "pass (N).")
        best = best_play(v.table, v.hand)
        most = (f" The most you can place at once: {' '.join(render.card_label(c) for c in best.placed)} (B)."
                if best is not None and best.placed else "")
        words = placeable_words(v.table, v.hand, render.card_label, single=min_placed(v) == 1)
        return f"Hint: cards that can be placed (•): {words}.{most}"

    def forget_selection(self) -> None:
        self.picked.clear()
        self.hinted = frozenset()

    def action_toggle_select(self) -> None:
        card = self._card_at_cursor()
        if card is None or self.current_view is None:
            return
        self._keep_selection()
        self.picked ^= {self.cursor}
        self.refresh_prompt()
        self.refresh_hand()

    def action_score_pad(self) -> None:
        self._show_info("Scores", score_pad(self.view(), self.session.names))

