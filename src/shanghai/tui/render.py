"""What the screen shows, as Rich text, drawn only from one seat's :class:`PlayerView`.

Cards are coloured by suit (♠ white, ♥ red, ♦ orange, ♣ green) and wild cards are marked
(black on yellow). Nothing here knows about Textual widgets: the app puts these texts in them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol

from rich.table import Table
from rich.text import Text

from shanghai.cards import JOKER, RANK_TEXT, SUIT_SYMBOLS, Card, rank_of, suit_of
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
from shanghai.engine.game import Phase, RoundResult
from shanghai.engine.view import MeldView, PlayerView
from shanghai.errors import ShanghaiError
from shanghai.melds import make_meld
from shanghai.rules.model import Rules

SUIT_STYLES = ("bold bright_white", "bold red1", "bold dark_orange", "bold green3")
WILD_STYLE = "bold black on yellow"
CARD_WIDTH = 4  # "10♥ "

KEYS_HELP = Text("""\
←/→, Home/End   move the cursor along your hand (or click a card)
D               draw from the stock
T               take the discard
B (or Y) / N    buy the discard / pass (also: pass on a “Shanghai” window); unanswered, an offer passes
G               go down: the suggested melds (Enter accepts) — or your own: Space selects cards,
                M makes them a meld (the wilds' place is asked when it matters), G goes down with them
L               lay off the card at the cursor (where it fits two places, you choose)
R               put the card at the cursor in place of a wild on a meld
W               place the wild a replacement freed (it must go on a meld before you discard)
X (or Delete)   discard the card at the cursor
U               take back your discard, before anybody has acted on it (the others wait a moment)
C               cut the deck (THE CUT) / call “Shanghai”
A               every legal move, to choose from
H               a hint (the coach), with its reason
I               how to play these rules (a guide for newcomers)
S               sort the hand by suit or by rank
P               the score pad
Esc             clear the selected cards
PgUp/PgDn       scroll the melds on the table
Q               save and quit ('shanghai play --resume' continues)
The game is saved after every move.""")


def card_label(card: Card) -> str:
    """``10♥``, ``Q♠``, ``JK``."""
    if card == JOKER:
        return "JK"
    return RANK_TEXT[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]


def card_style(card: Card, rules: Rules | None) -> str:
    if rules is not None and rules.is_wild(card):
        return WILD_STYLE
    if card == JOKER:
        return WILD_STYLE
    return SUIT_STYLES[suit_of(card)]


def card(card: Card, rules: Rules | None) -> Text:
    return Text(card_label(card), style=card_style(card, rules))


def cards(items: Iterable[Card], rules: Rules | None, sep: str = " ") -> Text:
    out = Text()
    for i, c in enumerate(items):
        if i:
            out.append(sep)
        out.append_text(card(c, rules))
    return out


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def contract_line(v: PlayerView) -> Text:
    """``Round 2/7 — 1 set of 3+, 1 run of 4+ (SET RUN)``: always on screen."""
    spec = v.rules.round(v.round_number)
    shout = spec.name or spec.contract.shout()
    text = Text()
    text.append(f"Round {v.round_number}/{v.rounds}", style="bold")
    text.append("  ·  contract: ")
    text.append(v.contract, style="bold cyan")
    text.append(f" ({shout})")
    buys = v.buy_limit
    text.append(f"  ·  {plural(buys, 'buy')} this round" if buys else "  ·  no buying this round")
    text.append(f"  ·  rules: {v.rules_name}", style="dim")
    return text


def whose_turn(v: PlayerView, names: Sequence[str]) -> str:
    if v.phase == Phase.GAME_OVER:
        return "The game is over."
    if v.phase == Phase.CUT:
        return f"{names[v.turn]} cuts for {names[v.dealer]}'s deal."
    if v.phase == Phase.BUY and v.buy_window:
        return "Buy window: " + ", ".join(names[s] for s in v.buy_window) + " may buy the discard."
    if v.phase == Phase.SHANGHAI:
        return "“Shanghai” window: the discard fits the table."
    who = "your" if v.turn == v.seat else f"{names[v.turn]}'s"
    return f"Dealer {names[v.dealer]} · {who} turn"


class Result(Protocol):
    """A round's (or, in manipulation rummy, a hand's) result, as the score pad shows it."""

    @property
    def number(self) -> int: ...

    @property
    def went_out(self) -> int | None: ...

    @property
    def points(self) -> tuple[int, ...]: ...


def went_out_count(results: Iterable[Result], seat: int) -> int:
    """How many times ``seat`` went out (its stars)."""
    return sum(1 for r in results if r.went_out == seat)


def stars(v: PlayerView, seat: int) -> int:
    return went_out_count(v.round_results, seat)


def seats_table() -> Table:
    """The players' panel with its first columns (▶ who is to act, the player); the game adds its own."""
    table = Table(box=None, pad_edge=False, expand=True, show_edge=False)
    table.add_column("", width=1)
    table.add_column("player", ratio=3, no_wrap=True, min_width=12)
    return table


def seat_cells(s: int, names: Sequence[str], dealer: int, to_act: Sequence[int], viewer: int | None,
               ) -> tuple[str, Text]:
    """A seat's first cells in :func:`seats_table`: ▶ when it is to act, and its name ((D): the
    dealer; bold: to act; underlined: the person at the screen)."""
    name = names[s] + (" (D)" if s == dealer else "")
    mark = "▶" if s in to_act else ""
    style = ("bold " if s in to_act else "") + ("underline" if s == viewer else "")
    return mark, Text(name, style=style)


def players_table(v: PlayerView, names: Sequence[str]) -> Table:
    table = seats_table()
    table.add_column("cards", justify="right")
    table.add_column("buys left", justify="right")
    table.add_column("down", justify="center")
    table.add_column("total", justify="right")
    table.add_column("★", no_wrap=True)
    for s in range(v.players):
        mark, name = seat_cells(s, names, v.dealer, v.to_act, v.seat)
        left = max(v.buy_limit - v.buys_used[s], 0)
        table.add_row(mark, name, str(v.hand_counts[s]), f"{left}/{v.buy_limit}",
                      Text("down", style="green") if v.down[s] else Text("-", style="dim"),
                      str(v.totals[s]), "★" * stars(v, s))
    return table


def pile_text(v: PlayerView) -> Text:
    text = Text()
    text.append("Stock: ", style="bold")
    text.append(plural(v.stock_size, "card"))
    text.append("\nDiscard: ", style="bold")
    if v.discard_top is None:
        text.append("empty", style="dim")
    else:
        text.append_text(card(v.discard_top, v.rules))
        text.append(" (live)" if v.discard_live else " (dead)", style="dim")
    text.append(f"  [{v.discard_size}]", style="dim")
    return text


def meld_line(m: MeldView, rules: Rules) -> Text:
    text = Text()
    text.append(f"m{m.id:<3}", style="bold")
    text.append(f"{m.kind:<4} ")
    text.append_text(cards(m.cards, rules))
    if m.wilds:
        text.append("   " + ", ".join(m.wilds), style="yellow")
    return text


def melds_text(v: PlayerView, names: Sequence[str]) -> Text:
    if not v.table:
        return Text("No melds on the table yet.", style="dim")
    out = Text()
    first = True
    for owner in range(v.players):
        melds = [m for m in v.table if m.owner == owner]
        if not melds:
            continue
        if not first:
            out.append("\n")
        first = False
        out.append(("You" if owner == v.seat else names[owner]) + ":", style="bold underline")
        for m in melds:
            out.append("\n  ")
            out.append_text(meld_line(m, v.rules))
    return out


def meld_words(v: PlayerView, names: Sequence[str], meld_id: int) -> str:
    m = next((m for m in v.table if m.id == meld_id), None)
    if m is None:
        return f"m{meld_id}"
    owner = "your" if m.owner == v.seat else f"{names[m.owner]}'s"
    return f"m{m.id} ({owner} {m.kind} {' '.join(card_label(c) for c in m.cards)})"


def go_down_text(v: PlayerView, specs: Sequence[MeldSpec]) -> str:
    """The melds with what each wild stands for, and what the hand keeps."""
    rules = v.rules
    hand = Counter(v.hand)
    parts = []
    for spec in specs:
        hand.subtract(spec.cards)
        meanings = ""
        try:
            wild = make_meld(spec.cards, rules, spec.kind).wild_meanings(rules)
            meanings = f" ({', '.join(wild)})" if wild else ""
        except ShanghaiError:
            pass
        parts.append(f"{spec.kind} {' '.join(card_label(c) for c in spec.cards)}{meanings}")
    left = sorted(hand.elements())
    points = sum(rules.points(c) for c in left)
    tail = (f"  — keeps {' '.join(card_label(c) for c in left)} ({plural(points, 'point')})" if left
            else "  — and you are out!")
    return " | ".join(parts) + tail


def describe_action(a: Action, v: PlayerView, names: Sequence[str], top: Card | None = None) -> str:
    """An action in words, for the list of moves and the game's log (``top``: the discard it
    takes or buys, when known; otherwise the view's top discard)."""
    who = "You" if a.seat == v.seat else names[a.seat]
    you = a.seat == v.seat
    s = "" if you else "s"
    if top is None:
        top = v.discard_top
    discard = card_label(top) if top is not None else "the discard"
    if isinstance(a, DrawStock):
        return f"{who} draw{s} from the stock"
    if isinstance(a, TakeDiscard):
        return f"{who} take{s} {discard}"
    if isinstance(a, Buy):
        return f"{who} buy{s} {discard}" if v.rules.buy_flow != "ask-turn-player" else f"{who} ask{s} to buy {discard}"
    if isinstance(a, Pass):
        return f"{who} pass{'' if you else 'es'}"
    if isinstance(a, Cut):
        return f"{who} cut{s} {a.target} cards"
    if isinstance(a, GoDown):
        return f"{who} go{'' if you else 'es'} down: " + " | ".join(
            f"{m.kind} {' '.join(card_label(c) for c in m.cards)}" for m in a.melds)
    if isinstance(a, LayOff):
        end = f", {a.end} end" if a.end else ""
        return f"{who} lay{s} off {card_label(a.card)} on {meld_words(v, names, a.meld)}{end}"
    if isinstance(a, ReplaceWild):
        return f"{who} put{s} {card_label(a.card)} in place of a wild on {meld_words(v, names, a.meld)}"
    if isinstance(a, Discard):
        return f"{who} discard{s} {card_label(a.card)}" + (" calling “Shanghai”" if a.shanghai else "")
    if isinstance(a, CallShanghai):
        end = f", {a.end} end" if a.end else ""
        return f"{who} call{s} “Shanghai” onto {meld_words(v, names, a.meld)}{end}"
    return str(a)


def round_result_text(r: RoundResult, v: PlayerView, names: Sequence[str]) -> Text:
    """Who went out, each player's points and what they held, slams and the cut."""
    rules = v.rules
    out = Text()
    if r.went_out is None:
        how = "Nobody went out: the stock is exhausted."
    else:
        how = f"{names[r.went_out]} went out" + (f" — {r.slam.upper()}! (down and out in one turn)"
                                                 if r.slam else ".")
    out.append(f"Round {r.number} is over ({r.contract})\n", style="bold")
    out.append(how + "\n\n")
    width = max(len(n) for n in names) + 2
    for s in range(len(names)):
        out.append(f"{names[s]:<{width}}", style="bold" if s == r.went_out else "")
        out.append(f"{r.points[s]:>5} ")
        out.append("★ " if s == r.went_out else "  ", style="yellow")
        if s == r.went_out:
            out.append("went out")
        elif r.hands[s]:
            out.append("held ")
            out.append_text(cards(sorted(r.hands[s]), rules))
        else:
            out.append("held nothing")
        if r.cut is not None and r.cut.made and s != r.cut.cutter:
            out.append(f"  (incl. {rules.cut_bonus} for THE CUT)", style="dim")
        out.append("\n")
    if r.cut is not None:
        if r.cut.made:
            out.append(f"\nTHE CUT was made by {names[r.cut.cutter]} ({r.cut.actual} cards).\n", style="bold")
        else:
            out.append(f"\nThe cut held {r.cut.actual} cards (THE CUT needs {r.cut.needed}).\n")
    if r.joker_free and rules.slam_records:
        out.append("JOKER FREE: " + ", ".join(names[s] for s in r.joker_free) + " went down without a joker.\n")
    if r.blind_bonus and r.went_out is not None:
        out.append(f"{names[r.went_out]} went out blind: {r.blind_bonus} points off.\n")
    return out


def scores_table(title: str, prefix: str, results: Sequence[Result], totals: Sequence[int],
                 names: Sequence[str]) -> Table:
    """One column per round or hand (``prefix`` and its number; a star for who went out) and the
    running totals."""
    table = Table(title=title, expand=False)
    table.add_column("player", no_wrap=True)
    for r in results:
        table.add_column(f"{prefix}{r.number}", justify="right")
    table.add_column("total", justify="right", style="bold")
    table.add_column("★")
    for s in range(len(totals)):
        cells = [f"{r.points[s]}{'★' if r.went_out == s else ' '}" for r in results]
        table.add_row(names[s], *cells, str(totals[s]), "★" * went_out_count(results, s))
    return table


def score_pad(v: PlayerView, names: Sequence[str]) -> Table:
    """One column per round (a star for the round's winner) and the running totals."""
    return scores_table("Score pad", "R", v.round_results, v.totals, names)


def game_over_text(v: PlayerView, names: Sequence[str], winners: Sequence[int],
                   dunce: Sequence[int]) -> Text:
    out = Text()
    who = " and ".join(names[s] for s in winners)
    out.append(f"♛ THE CROWN goes to {who} with {v.totals[winners[0]]} points", style="bold yellow")
    out.append(" — congratulations!\n" if v.seat in winners else ".\n")
    if dunce:
        who = " and ".join(names[s] for s in dunce)
        out.append(f"THE DUNCE CAP goes to {who} ({v.totals[dunce[0]]} points).\n", style="bold magenta")
    return out
