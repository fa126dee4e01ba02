"""The table: the screen a game is played on.

Everything shown is drawn from the view of the person at the screen (:func:`view`); every key
becomes an engine action, and a refused action shows the engine's reason and changes nothing.
"""

from __future__ import annotations

import importlib
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.timer import Timer
from textual.widgets import Static

from shanghai.cards import Card, sort_key
from shanghai.cli.play import review_command
from shanghai.engine.actions import (
    Action,
    Buy,
    CallShanghai,
    Cut,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    MeldSpec,
    Pass,
    ReplaceWild,
    TakeDiscard,
)
from shanghai.engine.game import Phase
from shanghai.engine.record import GameRecord
from shanghai.engine.view import PlayerView
from shanghai.errors import IllegalActionError, ShanghaiError
from shanghai.melds import End, run_arrangements
from shanghai.rules.guide import guide_text
from shanghai.rules.model import MeldKind, Rules
from shanghai.tui import render
from shanghai.tui.base import HAND_BINDINGS, CardTable, HandRow
from shanghai.tui.screens import ChoiceScreen, CutScreen, ReviewScreen, RoundOverScreen
from shanghai.tui.session import Applied, GameSession


class HandView(HandRow["TableScreen"]):
    """The hand: one cell per card, a cursor, cards selected (✓) or put in a meld (1, 2, ...)."""

    DEFAULT_CSS = "HandView { height: auto; }"

    def card_rules(self) -> Rules | None:
        v = self.table.current_view
        return v.rules if v else None

    def clicked(self, index: int, chain: int) -> None:
        if self.table.cursor == index and chain >= 2:
            self.table.action_toggle_select()
        self.table.cursor = index
        self.table.refresh_hand()


class TableScreen(CardTable[PlayerView, Applied]):
    """The game table for the person (or people, in turn) at the screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", "Draw"),
        Binding("t", "take", "Take"),
        Binding("b", "buy", "Buy"),
        Binding("y", "buy", "Buy", show=False),
        Binding("n", "pass", "Pass"),
        Binding("g", "go_down", "Down"),
        Binding("l", "lay_off", "Lay off"),
        Binding("r", "replace", "Replace"),
        Binding("w", "freed_wild", "Place the freed wild", show=False),
        Binding("x", "discard", "Discard"),
        Binding("u", "take_back", "Take back", show=False),
        Binding("delete", "discard", "Discard", show=False),
        Binding("c", "cut_or_call", "Cut/Call"),
        Binding("h", "hint", "Hint"),
        Binding("i", "guide", "How to play"),
        Binding("a", "moves", "Moves"),
        Binding("q", "quit_game", "Quit"),
        Binding("question_mark,f1", "keys", "Keys"),
        Binding("s", "sort", "Sort"),
        Binding("space", "toggle_select", "Select", show=False),
        Binding("m", "make_meld", "Meld"),
        Binding("p", "score_pad", "Scores"),
        *HAND_BINDINGS,
    ]
    KEYS_HELP = render.KEYS_HELP

    session: GameSession

    def __init__(self, session: GameSession, *, pause: float = 0.6, buy_timeout: float = 10.0,
                 hints: bool = True, notes: Sequence[str] = (), take_back: float = 0.0) -> None:
        super().__init__(session, pause=pause, hints=hints, notes=notes)
        self.buy_timeout = buy_timeout
        self.take_back = take_back  # seconds the computer players wait after a person's discard (U takes it back)
        self._discarded: tuple[int, float] | None = None  # the person's discard: its index, when (monotonic)
        self.selected: Counter[Card] = Counter()
        self.groups: list[tuple[MeldSpec, ...]] = []
        self._buy_timer: Timer | None = None
        self._buy_left = 0.0
        self._buy_key: tuple[int, int] | None = None
        self._hand_key: tuple[int, int, int] | None = None
        self._last_hand: Counter[Card] = Counter()

    # -- layout -----------------------------------------------------------------------------------
    def hand_widget(self) -> HandView:
        return HandView(self)

    # -- what is shown ----------------------------------------------------------------------------
    def view(self) -> PlayerView:
        return self.session.view(self.viewer)

    def card_marks(self, hand: Sequence[Card]) -> list[str]:
        """Under each card: the meld it is put in (1, 2, ...), ✓ when selected, or nothing."""
        grouped: list[Counter[Card]] = [Counter(c for spec in g for c in spec.cards) for g in self.groups]
        selected = Counter(self.selected)
        marks: list[str] = []
        for c in hand:
            mark = ""
            for n, g in enumerate(grouped, 1):
                if g[c] > 0:
                    g[c] -= 1
                    mark = str(n)
                    break
            if not mark and selected[c] > 0:
                selected[c] -= 1
                mark = "✓"
            marks.append(mark)
        return marks

    def refresh_all(self) -> None:
        v = self.view()
        self.current_view = v
        names = self.session.names
        self.query_one("#contract", Static).update(render.contract_line(v))
        self.query_one("#turn", Static).update(Text(render.whose_turn(v, names), style="italic"))
        self.query_one("#players", Static).update(render.players_table(v, names))
        self.query_one("#pile", Static).update(render.pile_text(v))
        self.query_one("#melds", Static).update(render.melds_text(v, names))
        self._clip_selection(v)
        self._new_cards(v)
        self.refresh_prompt()
        self.refresh_hand()

    def _new_cards(self, v: PlayerView) -> None:
        """Tell the person which cards came into their hand (a draw, a purchase and its penalty
        cards, a card given after a “Shanghai” call): the log shows what the view shows."""
        hand = Counter(v.hand)
        key = (self.viewer, v.round_number, len(v.round_results))
        if self._hand_key == key:
            gained = hand - self._last_hand
            if gained:
                self.say("New in your hand: " + " ".join(render.card_label(c) for c in sorted(gained.elements())),
                         "cyan")
        self._hand_key = key
        self._last_hand = hand

    def _clip_selection(self, v: PlayerView) -> None:
        have = Counter(v.hand)
        used: Counter[Card] = Counter(c for g in self.groups for spec in g for c in spec.cards)
        if any(used[c] > have[c] for c in used):
            self.groups = []
            used = Counter()
        self.selected = Counter({c: min(n, have[c] - used[c]) for c, n in self.selected.items()
                                 if min(n, have[c] - used[c]) > 0})

    def _staged(self) -> Text | None:
        if not (self.groups or self.selected):
            return None
        staged = Text("Melds to go down with: ", style="cyan")
        for n, g in enumerate(self.groups, 1):
            staged.append(f"{n}) " + " ".join(f"{s.kind} " + " ".join(render.card_label(c) for c in s.cards)
                                              for s in g) + "  ")
        if self.selected:
            staged.append(f"selected: {' '.join(render.card_label(c) for c in sorted(self.selected.elements()))}")
        staged.append("  (Space select · M make a meld · G go down · Esc clear)", style="dim")
        return staged

    def _what_now(self, v: PlayerView) -> Text:
        names = self.session.names
        legal = v.legal
        if v.phase == Phase.GAME_OVER:
            return Text("The game is over. P: score pad · Q: quit", style="bold")
        if not legal:
            acting = [names[s] for s in v.to_act]
            return Text(f"Waiting for {', '.join(acting)}…", style="dim")
        parts: list[str] = []
        if any(isinstance(a, Cut) for a in legal):
            needed = v.rules.hand_size * v.players + 1
            parts.append(f"C: cut the deck ({needed} cards is THE CUT)")
        if any(isinstance(a, Buy) for a in legal):
            top = render.card_label(v.discard_top) if v.discard_top is not None else "the discard"
            left = v.buy_limit - v.buys_used[self.viewer]
            timer = f" — {int(self._buy_left + 0.99)} s" if self._buy_timer is not None else ""
            text = Text(f"Buy {top}? ({render.plural(left, 'buy')} left, "
                        f"+{render.plural(v.rules.buy_penalty, 'penalty card')})  B: buy · N: pass{timer}",
                        style="bold black on bright_cyan")
            return text
        if any(isinstance(a, CallShanghai) for a in legal):
            parts.append("C: call “Shanghai” · N: pass")
        if any(isinstance(a, TakeDiscard) for a in legal):
            top = render.card_label(v.discard_top) if v.discard_top is not None else "the discard"
            parts.append(f"T: take {top}")
        if any(isinstance(a, DrawStock) for a in legal):
            parts.append("D: draw from the stock")
        if v.buy_claimant is not None and v.turn == self.viewer:
            parts.append(f"({names[v.buy_claimant]} wants to buy it: take it yourself, or draw and they get it)")
        if any(isinstance(a, GoDown) for a in legal):
            parts.append(f"G: go down ({v.contract})")
        if any(isinstance(a, LayOff) for a in legal):
            parts.append("L: lay off the card at the cursor")
        if any(isinstance(a, ReplaceWild) for a in legal):
            parts.append("R: replace a wild")
        if any(isinstance(a, Discard) for a in legal):
            parts.append("X: discard the card at the cursor")
        if v.pending_wild is not None:
            parts.append(f"W: place the freed {render.card_label(v.pending_wild)} (it must go on a meld before "
                         f"you discard; cards of your hand may go first)")
        who = "" if len(self.session.humans) == 1 else f"{names[self.viewer]}: "
        return Text(who + " · ".join(parts), style="bold")

    # -- the flow of the game ---------------------------------------------------------------------
    def _curtain_text(self) -> str:
        return self._what_now(self.view()).plain

    def _person_to_act(self) -> None:
        self._start_buy_timer()

    def _taken_back_card(self) -> Discard | None:
        """The person's discard that U would take back now: the game's last action, made at this
        screen by the one person at a table of computer players, that did not end the round."""
        actions = self.session.game.actions
        if self._discarded is None or self._discarded[0] != len(actions) - 1 or len(self.session.humans) != 1:
            return None
        last = actions[-1]
        return last if isinstance(last, Discard) and last.seat == self.viewer else None

    def _bot_delay(self) -> float:
        """After a person's discard the computer players wait ``take_back`` seconds, so that a
        mis-click can be taken back before anybody acts on it."""
        if self._taken_back_card() is None or self._discarded is None:
            return self.pause
        return max(self.pause, self._discarded[1] + self.take_back - time.monotonic())

    def action_guide(self) -> None:
        """How to play these rules (``shanghai.rules.guide``), on a page; the game waits."""
        rules = self.session.game.rules
        self._show_info(f"How to play: {rules.title}", Text(guide_text(rules, width=None)))

    def action_take_back(self) -> None:
        discard = self._taken_back_card()
        if discard is None:
            self.refuse("a discard is taken back only at a table of computer players: the others here have seen "
                        "it" if len(self.session.humans) != 1 else
                        "only your discard can be taken back, and only before anybody has acted on it")
            return
        try:
            self.session.take_back(discard.seat)
        except ShanghaiError as exc:
            self.refuse(str(exc))
            return
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None
        self._discarded = None
        self.viewer = discard.seat
        self._last_hand[discard.card] += 1  # back in the hand, not new in it
        text = f"{self.session.names[discard.seat]} took back the discard of {render.card_label(discard.card)}."
        self.say(text, "bold")
        self.message = Text(text, style="bold green")
        self.refresh_all()
        self.advance()

    def _after(self, applied: Applied) -> bool:
        """Tell what happened; True when the round ended (its screen is then shown)."""
        if self._discarded is not None and self._taken_back_card() is None:  # acted on: too late to take back
            self._discarded = None
            self.message = Text()
        a = applied.action
        v = self.view()
        names = self.session.names
        if not isinstance(a, Pass):
            line = render.describe_action(a, v, names, applied.top)
            self.say(line, "bold" if a.seat == self.viewer else "")
        if applied.ended is not None:
            r = applied.ended
            if r.went_out is not None:
                self.say(f"{names[r.went_out]} went out!", "bold yellow")
            self.show_round_over(applied)
            return True
        return False

    def act(self, action: Action) -> bool:
        """Apply the person's action; a refusal shows the engine's reason and changes nothing."""
        self._stop_buy_timer()
        try:
            applied = self.session.apply(action)
        except IllegalActionError as exc:
            self.refuse(str(exc))
            self._start_buy_timer()
            return False
        except ShanghaiError as exc:
            self.refuse(str(exc))
            return False
        self.message = Text()
        if not isinstance(action, Pass):
            self.forget_selection()
        if isinstance(action, Discard) and applied.ended is None:
            self._discarded = (len(self.session.game.actions) - 1, time.monotonic())
            if self.take_back > 0:
                self.message = Text(f"U takes back the {render.card_label(action.card)} while the others wait.",
                                    style="dim")
        self._acted(applied)
        return True

    def show_round_over(self, applied: Applied) -> None:
        r = applied.ended
        assert r is not None
        self.busy = True
        v = self.view()
        names = self.session.names
        self.refresh_all()
        body: list[object] = [render.round_result_text(r, v, names), render.score_pad(v, names)]
        if self.session.game.is_over:
            self.busy = False
            self.show_game_over(first=r)
            return
        spec = v.rules.round(v.round_number)
        nxt = Text(f"\nNext: round {v.round_number} — {v.contract} ({spec.name or spec.contract.shout()})",
                   style="bold cyan")
        self.app.push_screen(RoundOverScreen(f"Between rounds: {r.number} of {v.rounds} played", *body, nxt,  # type: ignore[arg-type]
                                             footer="Press Enter for the next round."),
                             self._next_deal)

    def show_game_over(self, first: object = None) -> None:
        if self.busy:
            return
        self.busy = True
        game = self.session.game
        v = self.view()
        names = self.session.names
        body: list[RenderableType] = []
        if first is not None:
            body.append(render.round_result_text(game.round_results[-1], v, names))
        body.append(render.game_over_text(v, names, game.winners(), game.dunce()))
        body.append(render.score_pad(v, names))
        record = self.session.record
        if record is not None:
            people = self.session.humans
            reviews = ([review_command(record.path)] if len(people) == 1
                       else [review_command(record.path, names[s]) for s in people])
            body.append(Text(f"\nYour play reviewed by the coach: {' · '.join(reviews)}", style="dim"))
        kept = self.session.keep_in_history()
        if kept:
            body.append(Text("\n" + "\n".join(kept), style="dim"))
        seat = self.viewer  # the person whose hand was shown last

        def review() -> None:
            self.app.push_screen(ReviewScreen(GameRecord.of(game, names), seat))

        self._game_over(body, review=review)

    # -- the buy prompt's countdown ---------------------------------------------------------------
    def _start_buy_timer(self) -> None:
        v = self.current_view
        if (self.buy_timeout <= 0 or v is None or self.busy
                or not any(isinstance(a, Buy) for a in v.legal)):
            return
        key = (len(self.session.game.actions), self.viewer)
        if self._buy_timer is not None and self._buy_key == key:
            return
        self._stop_buy_timer()
        self._buy_key = key
        self._buy_left = self.buy_timeout
        self._buy_timer = self.set_interval(0.25, self._buy_tick)
        self.refresh_prompt()

    def _stop_buy_timer(self) -> None:
        if self._buy_timer is not None:
            self._buy_timer.stop()
            self._buy_timer = None

    def _buy_tick(self) -> None:
        self._buy_left -= 0.25
        if self._buy_left <= 0:
            self._stop_buy_timer()
            if self._buy_key == (len(self.session.game.actions), self.viewer):
                self.say("No answer in time: you pass.", "dim")
                self.act(Pass(self.viewer))
            return
        self.refresh_prompt()

    # -- choosing, through a dialog ---------------------------------------------------------------
    def choose(self, question: str, options: Sequence[str], then: Callable[[int], None]) -> None:
        self.busy = True

        def done(index: int | None) -> None:
            self.busy = False
            if index is not None:
                then(index)
            else:
                self.refresh_all()
            if not self.busy:
                self.advance()

        self.app.push_screen(ChoiceScreen(question, options), done)

    def choose_action(self, question: str, actions: Sequence[Action], describe: Callable[[Action], str]) -> None:
        if len(actions) == 1:
            self.act(actions[0])
            return
        def then(i: int) -> None:
            self.act(actions[i])

        self.choose(question, [describe(a) for a in actions], then)

    # -- the person's actions ---------------------------------------------------------------------
    def _legal(self) -> tuple[Action, ...]:
        return self.view().legal

    def action_draw(self) -> None:
        self.act(DrawStock(self.viewer))

    def action_take(self) -> None:
        self.act(TakeDiscard(self.viewer))

    def action_buy(self) -> None:
        self.act(Buy(self.viewer))

    def action_pass(self) -> None:
        self.act(Pass(self.viewer))

    def action_discard(self) -> None:
        card = self._card_at_cursor()
        if card is None:
            self.refuse("you have no card to discard")
            return
        self.act(Discard(self.viewer, card))

    def _reason(self, action: Action) -> str:
        """The engine's reason for refusing ``action`` (found on a copy of the game)."""
        try:
            self.session.game.copy().apply(action)
        except IllegalActionError as exc:
            return str(exc)
        return ""

    def action_lay_off(self) -> None:
        card = self._card_at_cursor()
        if card is None:
            self.refuse("you have no card to lay off")
            return
        v = self.view()
        legal = [a for a in v.legal if isinstance(a, LayOff) and a.card == card]
        if not legal:
            ends: dict[str, tuple[End | None, ...]] = {"set": (None,), "run": ("low", "high")}
            tries: list[Action] = [LayOff(self.viewer, card, m.id, end) for m in v.table
                                   for end in ends.get(m.kind, (None,))]
            reasons = [self._reason(a) for a in tries or [LayOff(self.viewer, card, 0, None)]]
            label = render.card_label(card)
            other = [r for r in reasons if r and " does not go on " not in r]
            self.refuse(other[0] if other else f"{label} does not go on any meld on the table")
            return
        names = self.session.names
        where = "both ends of the run" if len({a.meld for a in legal}) == 1 else "several melds"
        self.choose_action(f"{render.card_label(card)} fits {where}: where does it go?", legal,
                           lambda a: render.describe_action(a, v, names))

    def action_freed_wild(self) -> None:
        """The wild a replacement took off the table is not in the hand: W asks where it goes."""
        v = self.view()
        if v.pending_wild is None:
            self.refuse("no freed wild waits to be placed (R replaces a wild first)")
            return
        spots = [a for a in v.legal if isinstance(a, LayOff) and a.card == v.pending_wild]
        if not spots:
            self.refuse(self._reason(LayOff(self.viewer, v.pending_wild, 0, None))
                        or f"the freed {render.card_label(v.pending_wild)} fits no meld now")
            return
        names = self.session.names
        self.choose_action(f"The freed {render.card_label(v.pending_wild)}: where does it go?", spots,
                           lambda a: render.describe_action(a, v, names))

    def action_replace(self) -> None:
        card = self._card_at_cursor()
        if card is None:
            self.refuse("you have no card")
            return
        v = self.view()
        legal = [a for a in v.legal if isinstance(a, ReplaceWild) and a.card == card]
        if not legal:
            melds = [m.id for m in v.table if m.wilds] or [m.id for m in v.table] or [0]
            reasons = [self._reason(ReplaceWild(self.viewer, card, m)) for m in melds]
            self.refuse(next((r for r in reasons if r), f"{render.card_label(card)} cannot replace a wild"))
            return
        names = self.session.names
        self.choose_action(f"Put {render.card_label(card)} in place of a wild on which meld?", legal,
                           lambda a: render.describe_action(a, v, names))

    def action_cut_or_call(self) -> None:
        v = self.view()
        calls = [a for a in v.legal if isinstance(a, CallShanghai)]
        if calls:
            names = self.session.names
            self.choose_action("Call “Shanghai”: where does the discard go?", calls,
                               lambda a: render.describe_action(a, v, names))
            return
        if v.phase != Phase.CUT or v.turn != self.viewer:
            self.refuse(self._reason(Cut(self.viewer, 1)) or "there is nothing to cut or call now")
            return
        needed = v.rules.hand_size * v.players + 1
        self.busy = True

        def done(n: int | None) -> None:
            self.busy = False
            if n is not None:
                self.act(Cut(self.viewer, n))
            else:
                self.refresh_all()

        self.app.push_screen(CutScreen(f"Cut the deck for {self.session.names[v.dealer]}'s deal: how many "
                                       f"cards? Exactly {needed} is THE CUT ({v.rules.cut_bonus} points to "
                                       f"everyone else).", needed), done)

    def action_go_down(self) -> None:
        v = self.view()
        if self.groups or self.selected:
            specs = [spec for g in self.groups for spec in g]
            if self.selected:
                made = self._meld_of(list(self.selected.elements()), v)
                if made is None:
                    return
                specs.extend(made)
            self.act(GoDown(self.viewer, tuple(specs)))
            return
        offers = [a for a in v.legal if isinstance(a, GoDown)]
        if not offers:
            if v.phase == Phase.PLAY and v.turn == self.viewer and not v.down[self.viewer] \
                    and v.pending_wild is None:
                self.refuse(self.session.game.no_go_down_reason(self.viewer))
            else:
                self.refuse(self._reason(GoDown(self.viewer, ())) or "you cannot go down now")
            return
        options = [render.go_down_text(v, a.melds) for a in offers]
        options.append("Choose my own cards: select them with Space, make each meld with M, then G")

        def chosen(i: int) -> None:
            if i < len(offers):
                self.act(offers[i])
            else:
                self.message = Text("Select a meld's cards with ←/→ and Space, press M, repeat; then G.",
                                    style="cyan")
                self.refresh_all()

        self.choose(f"Go down ({v.contract}) with these melds?", options, chosen)

    def _meld_of(self, cards: list[Card], v: PlayerView) -> list[MeldSpec] | None:
        """One meld of the selected cards: a set when the naturals share a rank, otherwise a run in
        its order (the wilds' place is asked when it is ambiguous, so None while asking)."""
        rules = v.rules
        naturals = {c & 15 for c in cards if not rules.is_wild(c)}
        kind: MeldKind = "set" if len(naturals) <= 1 else "run"
        if kind == "set":
            return [MeldSpec("set", tuple(sorted(cards, key=sort_key)))]
        options = run_arrangements(cards, rules)
        if len(options) <= 1:
            return [MeldSpec("run", tuple(options[0].cards) if options else tuple(cards))]

        def placed(i: int) -> None:
            self.groups.append((MeldSpec("run", tuple(options[i].cards)),))
            self.selected.clear()
            self.refresh_all()

        self.choose("Where do the wilds go in this run?",
                    [f"{' '.join(render.card_label(c) for c in m.cards)}  ({', '.join(m.wild_meanings(rules))})"
                     for m in options], placed)
        return None

    def action_make_meld(self) -> None:
        v = self.view()
        if not self.selected:
            self.refuse("select the meld's cards first (←/→ to move, Space to select)")
            return
        made = self._meld_of(list(self.selected.elements()), v)
        if made is not None:
            self.groups.append(tuple(made))
            self.selected.clear()
            self.refresh_all()

    def action_toggle_select(self) -> None:
        card = self._card_at_cursor()
        v = self.current_view
        if card is None or v is None:
            return
        marks = self.card_marks(self.hand_cards())
        if marks[self.cursor] == "✓":
            self.selected[card] -= 1
            self.selected = +self.selected
        elif marks[self.cursor] == "":
            self.selected[card] += 1
        self.refresh_prompt()
        self.refresh_hand()

    def forget_selection(self) -> None:
        self.selected.clear()
        self.groups = []

    def action_moves(self) -> None:
        v = self.view()
        legal = list(v.legal)
        if not legal:
            self.refuse("you have no move now: other players are to act")
            return
        if all(isinstance(a, Cut) for a in legal):
            self.action_cut_or_call()
            return
        names = self.session.names
        self.choose_action("Every legal move:", legal, lambda a: render.describe_action(a, v, names))

    def hint_text(self, v: PlayerView) -> str:
        try:  # the coach is imported only when asked for
            advise = importlib.import_module("shanghai.bots.coach").advise
        except (ImportError, AttributeError):
            advise = None
        if advise is not None:
            try:
                advice = advise(v, seed=0)
                return f"Hint: {self._advice_words(advice.action, v)} — {advice.reason}"
            except (ShanghaiError, ValueError) as exc:  # the coach must not stop the game
                return f"Hint: the coach has no advice here ({exc})"
        down = next((a for a in v.legal if isinstance(a, GoDown)), None)
        if down is not None:
            return f"Hint: go down now (G) — {render.go_down_text(v, down.melds)}"
        from shanghai.bots.registry import make_contract_player

        action = make_contract_player("greedy", 0).choose(v)
        return (f"Hint: {self._advice_words(action, v)} — what the greedy computer player would "
                f"do here (the coach is not installed)")

    def _advice_words(self, action: Action, v: PlayerView) -> str:
        """'discard K♥', 'go down: set ...': the action as advice to the person."""
        words = render.describe_action(action, v, self.session.names)
        return words.removeprefix("You ")

    def action_score_pad(self) -> None:
        self._show_info("Score pad", render.score_pad(self.view(), self.session.names))
