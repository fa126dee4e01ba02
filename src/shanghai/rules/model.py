"""The Rules object: every rule of a game as a field of one frozen, validated value.

Presets (``shanghai.rules.presets``) are named Rules values; house rules are changes of single
fields (``rules.changed(buy_penalty=1)``), validated again so that an inconsistent combination is
refused with a clear error instead of being silently replaced.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from shanghai.cards import JOKER, Card, is_black, rank_of
from shanghai.errors import InconsistentRulesError

# Every card that some rule set makes wild, in this fixed order: the joker, 2S, 2C.
WILD_CANDIDATES: tuple[Card, ...] = (JOKER, Card(0 * 16 + 2), Card(3 * 16 + 2))
# ``Rules.wild_cards()`` by the rules' ``wilds`` (which alone decides what is wild)
_WILD_CARDS: dict[str, frozenset[int]] = {}

MeldKind = Literal["set", "run"]
WildCards = Literal["jokers", "jokers-and-black-twos", "none"]
WildLimit = Literal["none", "no-adjacent-in-runs", "naturals-majority"]
Aces = Literal["low-or-high", "high-only", "low-only"]
SameSuitRuns = Literal["may-touch", "separated"]
FirstDealer = Literal["high-cut", "low-cut"]
BuyPriority = Literal["clockwise-from-turn", "from-dealer-left"]
BuyFlow = Literal["turn-player-first", "ask-turn-player"]
GoingOut = Literal["play-all", "discard-last", "either"]
WildReplacement = Literal["none", "runs-play-freed-wild", "any-meld-keep-wild"]


@dataclass(frozen=True, slots=True)
class MeldRequirement:
    """One meld of a contract: a set or a run of at least ``min_size`` cards."""

    kind: MeldKind
    min_size: int

    def text(self) -> str:
        return f"{self.kind} of {self.min_size}+"


@dataclass(frozen=True, slots=True)
class Contract:
    """The melds a player must lay down, exactly, to go down in a round.

    >>> Contract.of(sets=(3,), runs=(4,)).text()
    '1 set of 3 + 1 run of 4'
    """

    melds: tuple[MeldRequirement, ...]

    @staticmethod
    def of(sets: tuple[int, ...] = (), runs: tuple[int, ...] = ()) -> Contract:
        return Contract(tuple(MeldRequirement("set", n) for n in sets)
                        + tuple(MeldRequirement("run", n) for n in runs))

    @property
    def sets(self) -> tuple[int, ...]:
        return tuple(m.min_size for m in self.melds if m.kind == "set")

    @property
    def runs(self) -> tuple[int, ...]:
        return tuple(m.min_size for m in self.melds if m.kind == "run")

    @property
    def min_cards(self) -> int:
        return sum(m.min_size for m in self.melds)

    def text(self) -> str:
        parts: list[str] = []
        for kind, sizes in (("set", self.sets), ("run", self.runs)):
            for size in sorted(set(sizes)):
                n = sizes.count(size)
                parts.append(f"{n} {kind}{'s' if n > 1 else ''} of {size}")
        return " + ".join(parts)

    def shout(self) -> str:
        """The ISRA way of saying it: ``SET RUN RUN``."""
        return " ".join(["SET"] * len(self.sets) + ["RUN"] * len(self.runs))


@dataclass(frozen=True, slots=True)
class RoundSpec:
    """One round (hand, deal) of a game: its contract and how many buys each player has."""

    contract: Contract
    buys: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class PackSpec:
    """The pack used for a range of player counts."""

    min_players: int
    max_players: int
    decks: int
    jokers: int

    @property
    def size(self) -> int:
        return 52 * self.decks + self.jokers


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set. Every field is one rule; see ``docs/rules.md`` for each in words."""

    name: str
    title: str
    source: str
    description: str
    min_players: int
    max_players: int
    packs: tuple[PackSpec, ...]
    rounds: tuple[RoundSpec, ...]
    hand_size: int = 11
    set_min: int = 3
    run_min: int = 4
    wilds: WildCards = "jokers"
    wild_limit: WildLimit = "no-adjacent-in-runs"
    aces: Aces = "low-or-high"
    same_suit_runs: SameSuitRuns = "may-touch"
    same_rank_sets: bool = True
    first_dealer: FirstDealer = "high-cut"
    the_cut: bool = False
    cut_bonus: int = 50
    cut_error: float = 0.05
    buy_penalty: int = 2
    buy_priority: BuyPriority = "clockwise-from-turn"
    buy_flow: BuyFlow = "turn-player-first"
    going_out: GoingOut = "play-all"
    lay_off_on_going_down_turn: bool = True
    wild_replacement: WildReplacement = "runs-play-freed-wild"
    blind_out_bonus: int = 0
    blind_out_bonus_no_joker: int = 0
    shanghai_call: bool = False
    slam_records: bool = False
    dunce_cap: bool = False
    max_stock_renewals: int = 10
    max_turns_per_round: int = 5000
    # Points of a card left in hand, by rank (index 1 = ace ... 13 = king; index 0 unused).
    rank_points: tuple[int, ...] = (0, 20, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)
    black_two_points: int | None = None
    joker_points: int = 50
    options: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise InconsistentRulesError(f"rules {self.name!r}: " + "; ".join(problems))

    # -- derived facts -------------------------------------------------------------------------
    def pack_for(self, players: int) -> PackSpec:
        """The pack for ``players`` players; a player count the rules do not allow is an error."""
        if not self.min_players <= players <= self.max_players:
            why = ""
            if any(p.min_players <= players <= p.max_players for p in self.packs):
                # the document deals this many a pack (family-10 at two): refused for the reason written
                why = (f": its document deals {players} a pack, but not every contract could be made "
                       f"(docs/rules.md, decision 16)")
            raise InconsistentRulesError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, not {players}{why}")
        for p in self.packs:
            if p.min_players <= players <= p.max_players:
                return p
        raise InconsistentRulesError(f"{self.name}: no pack is given for {players} players")

    def wild_cards(self) -> frozenset[int]:
        """The cards that are wild under these rules: the joker, and the black twos where they are.

        >>> from shanghai.cards import card_text
        >>> from shanghai.rules import preset
        >>> sorted(card_text(c) for c in preset("isra").wild_cards())
        ['JK']
        >>> sorted(card_text(c) for c in preset("may-i").wild_cards())
        ['2C', '2S', 'JK']
        """
        hit = _WILD_CARDS.get(self.wilds)
        if hit is None:  # the search asks at every estimate: one set per kind of wilds
            hit = _WILD_CARDS[self.wilds] = frozenset(c for c in WILD_CANDIDATES if self.is_wild(c))
        return hit

    def is_wild(self, card: int) -> bool:
        """Is this card wild under these rules?"""
        if card == JOKER:
            return self.wilds != "none"
        return self.wilds == "jokers-and-black-twos" and rank_of(card) == 2 and is_black(card)

    def points(self, card: int) -> int:
        """Points a card counts when left in hand at the end of a round."""
        if card == JOKER:
            return self.joker_points
        r = card & 15
        if r == 2 and self.black_two_points is not None and is_black(card):
            return self.black_two_points
        return self.rank_points[r]

    def contract(self, round_number: int) -> Contract:
        """Contract of round ``round_number`` (1-based)."""
        return self.round(round_number).contract

    def round(self, round_number: int) -> RoundSpec:
        if not 1 <= round_number <= len(self.rounds):
            raise InconsistentRulesError(
                f"{self.name} has rounds 1 to {len(self.rounds)}, not {round_number}")
        return self.rounds[round_number - 1]

    def changed(self, **changes: Any) -> Rules:
        """A copy with some rules changed (house rules), validated again.

        >>> from shanghai.rules import preset
        >>> preset("isra").changed(buy_penalty=1).buy_penalty
        1
        >>> preset("isra").changed(colour="red")
        Traceback (most recent call last):
        ...
        shanghai.errors.InconsistentRulesError: unknown rule 'colour'; rules are: ...
        """
        names = {f.name for f in dataclasses.fields(self)}
        for key in changes:
            if key not in names:
                raise InconsistentRulesError(
                    f"unknown rule {key!r}; rules are: " + ", ".join(sorted(names)))
        try:
            return dataclasses.replace(self, **changes)
        except TypeError as exc:  # pragma: no cover - defensive
            raise InconsistentRulesError(str(exc)) from exc


_CHOICES: dict[str, tuple[str, ...]] = {
    "wilds": ("jokers", "jokers-and-black-twos", "none"),
    "wild_limit": ("none", "no-adjacent-in-runs", "naturals-majority"),
    "aces": ("low-or-high", "high-only", "low-only"),
    "same_suit_runs": ("may-touch", "separated"),
    "first_dealer": ("high-cut", "low-cut"),
    "buy_priority": ("clockwise-from-turn", "from-dealer-left"),
    "buy_flow": ("turn-player-first", "ask-turn-player"),
    "going_out": ("play-all", "discard-last", "either"),
    "wild_replacement": ("none", "runs-play-freed-wild", "any-meld-keep-wild"),
}


_TYPE_WORDS = {"int": "a whole number", "int | None": "a whole number or null", "bool": "true or false",
               "float": "a number", "str": "a text", "tuple[int, ...]": "a list of whole numbers",
               "tuple[str, ...]": "a list of texts"}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def type_problems(rules: object) -> list[str]:
    """The rules (a rules dataclass) whose value is not of the field's kind: a house rule or a record's
    change written as text, a fraction or a single number is named, not left to fail later.

    >>> from shanghai.rules import preset
    >>> preset("isra").changed(buy_penalty="2", the_cut=1)
    Traceback (most recent call last):
    ...
    shanghai.errors.InconsistentRulesError: rules 'isra': the_cut must be true or false, not 1; buy_penalty ...
    """
    p: list[str] = []
    for f in dataclasses.fields(rules):  # type: ignore[arg-type]
        value = getattr(rules, f.name)
        kind = f.type
        if kind == "int":
            ok = _whole(value)
        elif kind == "int | None":
            ok = value is None or _whole(value)
        elif kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "float":
            ok = isinstance(value, int | float) and not isinstance(value, bool)
        elif kind == "str":
            ok = isinstance(value, str)
        elif kind == "tuple[int, ...]":
            ok = isinstance(value, tuple) and all(_whole(v) for v in value)
        elif kind == "tuple[str, ...]":
            ok = isinstance(value, tuple) and all(isinstance(v, str) for v in value)
        else:
            continue  # the named choices are checked by name, the packs and rounds by their own types
        if not ok:
            p.append(f"{f.name} must be {_TYPE_WORDS[str(kind)]}, not {value!r}")
    return p


def _problems(r: Rules) -> list[str]:
    p = type_problems(r)
    if p:
        return p
    for name, choices in _CHOICES.items():
        value = getattr(r, name)
        if value not in choices:
            p.append(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    if p:
        return p
    if not 2 <= r.min_players <= r.max_players <= 16:
        p.append(f"player counts {r.min_players}-{r.max_players} are not a range within 2-16")
    for n in range(r.min_players, r.max_players + 1):
        packs = [k for k in r.packs if k.min_players <= n <= k.max_players]
        if len(packs) != 1:
            p.append(f"exactly one pack must be given for {n} players, found {len(packs)}")
            continue
        k = packs[0]
        if k.decks < 1 or k.jokers < 0:
            p.append(f"a pack needs at least one deck and no negative jokers ({n} players)")
        elif k.size < n * r.hand_size + 2:
            p.append(f"a pack of {k.size} cards cannot deal {r.hand_size} to {n} players, flip a card "
                     f"and leave a stock")
        if r.wilds == "none" and k.jokers:
            p.append("the pack holds jokers but no card is wild")
    if r.hand_size < 1:
        p.append("hand_size must be at least 1")
    if r.set_min < 2 or r.run_min < 3:
        p.append("a set needs at least 2 cards and a run at least 3")
    if not r.rounds:
        p.append("there must be at least one round")
    if len(r.rank_points) != 14 or any(v < 0 for v in r.rank_points):
        p.append("rank_points must give 14 non-negative values (index 1 = ace ... 13 = king)")
    for i, spec in enumerate(r.rounds, 1):
        c = spec.contract
        if not c.melds:
            p.append(f"round {i} has an empty contract")
        for m in c.melds:
            if m.kind == "set" and m.min_size < r.set_min:
                p.append(f"round {i}: a set of {m.min_size} is smaller than a set ({r.set_min}+)")
            if m.kind == "run" and m.min_size < r.run_min:
                p.append(f"round {i}: a run of {m.min_size} is smaller than a run ({r.run_min}+)")
            if m.kind == "run" and m.min_size > 13:
                p.append(f"round {i}: a run of {m.min_size} cannot exist (13 ranks)")
        if spec.buys < 0:
            p.append(f"round {i}: a negative number of buys")
        most = r.hand_size + 1 + spec.buys * (1 + r.buy_penalty)
        needed = c.min_cards + (1 if r.going_out == "discard-last" else 0)  # and a card to discard
        if needed > most:
            keep = " (one to discard)" if needed > c.min_cards else ""
            p.append(f"round {i}: the contract needs {needed} cards{keep} but a player can hold at most "
                     f"{most} ({spec.buys} buys)")
    if r.buy_penalty < 0:
        p.append("buy_penalty must not be negative")
    elif any(k.size - n * r.hand_size - 2 < r.buy_penalty
             for k in r.packs for n in range(max(k.min_players, r.min_players),
                                               min(k.max_players, r.max_players) + 1)):
        # decision 17: a buy needs its penalty cards and the in-turn player's draw in the stock
        p.append(f"buy_penalty {r.buy_penalty} is more cards than the stock holds after the deal: no buy "
                 f"could ever be made")
    if r.the_cut and r.cut_error < 0:
        p.append("cut_error must not be negative")
    if r.max_stock_renewals < 0:
        p.append("max_stock_renewals must not be negative")
    if r.max_turns_per_round < 1:
        p.append("max_turns_per_round must be at least 1")
    if r.wild_limit != "none" and r.wilds == "none":
        p.append(f"wild_limit {r.wild_limit!r} given but no card is wild")
    if r.wild_replacement != "none" and r.wilds == "none":
        p.append("wild_replacement given but no card is wild")
    if r.shanghai_call and r.going_out == "play-all":
        # The call gives the discarder a card; harmless, but the document pairs it with 001 only.
        pass
    if r.blind_out_bonus < 0 or r.blind_out_bonus_no_joker < 0:
        p.append("blind-out bonuses must not be negative")
    return p
