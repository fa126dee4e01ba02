"""The action vocabulary shared by every layer, with a canonical text form and a parser.

Each action names the seat (0-based) that takes it. The text forms are what records store:

>>> from shanghai.cards import parse_cards
>>> str(GoDown(1, (MeldSpec("set", tuple(parse_cards("7H 7S JK"))),
...                MeldSpec("run", tuple(parse_cards("5D 6D 7D 8D"))))))
'1 down set 7H 7S JK | run 5D 6D 7D 8D'
>>> parse_action("2 layoff 9D m3 high")
LayOff(seat=2, card=9D, meld=3, end='high')
>>> parse_action("0 discard 10h") == Discard(0, parse_cards("10H")[0])
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from shanghai.cards import Card, card_text, parse_card
from shanghai.errors import IllegalActionError
from shanghai.melds import End
from shanghai.rules.model import MeldKind


class _CardRepr:
    """Mixin so that reprs show card text, not integers."""

    def __repr__(self) -> str:
        parts = []
        for name in self.__dataclass_fields__:  # type: ignore[attr-defined]
            value = getattr(self, name)
            if name == "card":
                parts.append(f"{name}={card_text(value)}")
            else:
                parts.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class Cut:
    """THE CUT (000): the player on the dealer's right aims to cut ``target`` cards for the deal."""

    seat: int
    target: int

    def __str__(self) -> str:
        return f"{self.seat} cut {self.target}"


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Draw the top card of the stock (declining the discard)."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} draw"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile, free, as the player in turn."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} take"


@dataclass(frozen=True, slots=True)
class Buy:
    """Claim the discard out of turn: "I'll buy!" (000), "May I?" (001), "I will buy it" (002)."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} buy"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to buy (or to call "Shanghai") while a window is open."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} pass"


@dataclass(frozen=True, slots=True)
class MeldSpec:
    """One meld of a go-down: its kind and its cards (a run lowest first, wilds in place)."""

    kind: MeldKind
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.kind} " + " ".join(card_text(c) for c in self.cards)

    def __repr__(self) -> str:
        return f"MeldSpec({str(self)!r})"


@dataclass(frozen=True, slots=True)
class GoDown:
    """Go down ("get on the bed"): lay exactly the round's contract."""

    seat: int
    melds: tuple[MeldSpec, ...]

    def __str__(self) -> str:
        return f"{self.seat} down " + " | ".join(str(m) for m in self.melds)


@dataclass(frozen=True, slots=True, repr=False)
class LayOff(_CardRepr):
    """Add a card from hand to a meld on the table (at the low or high end of a run)."""

    seat: int
    card: Card
    meld: int
    end: End | None = None

    def __str__(self) -> str:
        tail = f" {self.end}" if self.end else ""
        return f"{self.seat} layoff {card_text(self.card)} m{self.meld}{tail}"


@dataclass(frozen=True, slots=True, repr=False)
class ReplaceWild(_CardRepr):
    """Put a natural card from hand where a wild on the table stands for it, freeing the wild."""

    seat: int
    card: Card
    meld: int

    def __str__(self) -> str:
        return f"{self.seat} replace {card_text(self.card)} m{self.meld}"


@dataclass(frozen=True, slots=True, repr=False)
class Discard(_CardRepr):
    """Discard a card, ending the turn; ``shanghai`` protects a card that fits a meld (001 var. 3)."""

    seat: int
    card: Card
    shanghai: bool = False

    def __str__(self) -> str:
        return f"{self.seat} discard {card_text(self.card)}" + (" shanghai" if self.shanghai else "")


@dataclass(frozen=True, slots=True)
class CallShanghai:
    """Call "Shanghai" on an unprotected discard that fits a meld: add it there (001 var. 3)."""

    seat: int
    meld: int
    end: End | None = None

    def __str__(self) -> str:
        tail = f" {self.end}" if self.end else ""
        return f"{self.seat} shanghai m{self.meld}{tail}"


Action = Cut | DrawStock | TakeDiscard | Buy | Pass | GoDown | LayOff | ReplaceWild | Discard | CallShanghai
Verb = Literal["cut", "draw", "take", "buy", "pass", "down", "layoff", "replace", "discard", "shanghai"]


def _meld_index(text: str) -> int:
    t = text.lower().removeprefix("m")
    if not t.isdigit():
        raise IllegalActionError(f"expected a meld number like m3, got {text!r}")
    return int(t)


def _end(words: list[str], text: str) -> End | None:
    if not words:
        return None
    if words[0].lower() in ("low", "high"):
        return "low" if words[0].lower() == "low" else "high"
    raise IllegalActionError(f"expected 'low' or 'high' in {text!r}")


def parse_meld_specs(text: str) -> tuple[MeldSpec, ...]:
    """Melds separated by ``|``, each optionally starting with ``set`` or ``run``."""
    specs: list[MeldSpec] = []
    for part in text.split("|"):
        words = part.split()
        if not words:
            raise IllegalActionError(f"an empty meld in {text!r}")
        kind: MeldKind | None = None
        if words[0].lower() in ("set", "run"):
            kind = "set" if words[0].lower() == "set" else "run"
            words = words[1:]
        cards = tuple(parse_card(w) for w in words)
        if kind is None:
            kind = "set" if len({c & 15 for c in cards if c != 64}) <= 1 else "run"
        specs.append(MeldSpec(kind, cards))
    return tuple(specs)


def parse_action(text: str) -> Action:
    """Read an action from its text form (case-insensitive; see the module docstring)."""
    words = text.split()
    if len(words) < 2 or not words[0].lstrip("s").isdigit():
        raise IllegalActionError(f"cannot read action {text!r}: expected '<seat> <verb> ...'")
    seat = int(words[0].lstrip("s"))
    verb, rest = words[1].lower(), words[2:]
    try:
        if verb == "cut" and len(rest) == 1:
            return Cut(seat, int(rest[0]))
        if verb == "draw" and not rest:
            return DrawStock(seat)
        if verb == "take" and not rest:
            return TakeDiscard(seat)
        if verb in ("buy", "may-i", "mayi") and not rest:
            return Buy(seat)
        if verb == "pass" and not rest:
            return Pass(seat)
        if verb == "down" and rest:
            return GoDown(seat, parse_meld_specs(" ".join(rest)))
        if verb == "layoff" and len(rest) in (2, 3):
            return LayOff(seat, parse_card(rest[0]), _meld_index(rest[1]), _end(rest[2:], text))
        if verb == "replace" and len(rest) == 2:
            return ReplaceWild(seat, parse_card(rest[0]), _meld_index(rest[1]))
        if verb == "discard" and len(rest) in (1, 2):
            if len(rest) == 2 and rest[1].lower() != "shanghai":
                raise IllegalActionError(f"cannot read action {text!r}")
            return Discard(seat, parse_card(rest[0]), len(rest) == 2)
        if verb == "shanghai" and len(rest) in (1, 2):
            return CallShanghai(seat, _meld_index(rest[0]), _end(rest[1:], text))
    except ValueError as exc:
        if isinstance(exc, IllegalActionError):
            raise
        raise IllegalActionError(f"cannot read action {text!r}: {exc}") from exc
    raise IllegalActionError(f"cannot read action {text!r}")
