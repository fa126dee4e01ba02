"""The rules of manipulation rummy, the other game called "Shanghai" (document 004, first part).

It shares no contract, no discard pile and no wild card with the contract presets, so its rules are
their own frozen value rather than fields of :class:`~shanghai.rules.model.Rules`. Decisions where
004 is silent or ambiguous are fields too, each documented in ``docs/rules.md``:

>>> r = MANIPULATION
>>> r.pack_for(4).size, r.hand_size, r.deal_batches, r.target_score
(104, 10, (3, 3, 3, 1), 25)
>>> r.changed(target_score=100).target_score
100
>>> r.changed(target_score=0)
Traceback (most recent call last):
...
shanghai.errors.InconsistentRulesError: rules 'manipulation': target_score must be at least 1, not 0
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from shanghai.errors import InconsistentRulesError
from shanghai.rules.model import PackSpec, type_problems

# What "If you have the ability to meld more than 1 card you are required to" obliges (decide): at
# least one card ("one-card"), or at least two whenever two can be placed ("two-cards", option meld-two).
MustMeld = Literal["one-card", "two-cards"]
MELD_TWO = "meld-two"  # the option that reads 004 word for word: "at least more than one"
# The most decks a pack may have (for up to 8 players).
MAX_DECKS = 3
# What a player who cannot meld does when the stock is empty (decide).
EmptyStock = Literal["pass"]


@dataclass(frozen=True, slots=True)
class ManipulationRules:
    """Every rule of manipulation rummy as one validated value (see ``docs/rules.md``)."""

    kind: ClassVar[str] = "manipulation"

    name: str = "manipulation"
    title: str = "Shanghai manipulation rummy"
    source: str = "004"
    description: str = ("10 cards each (dealt 3, 3, 3, 1) from two decks without jokers, no discards: meld "
                        "sets and runs, add to the table's melds and rearrange them all (the \"Shanghai\") "
                        "as long as every meld is legal; who cannot meld draws until a card plays; 1 point "
                        "a card left; whoever reaches the target score loses.")
    min_players: int = 3
    max_players: int = 8
    # 004: "Two 52 card decks" for 3-5 players; "Players may add more decks if they wish to play with
    # more than 5 people" (decide: a third deck for 6-8).
    packs: tuple[PackSpec, ...] = (PackSpec(3, 5, 2, 0), PackSpec(6, 8, 3, 0))
    hand_size: int = 10
    deal_batches: tuple[int, ...] = (3, 3, 3, 1)
    # 004: "hands are continually played until someone reaches the target score and LOSES" (decide:
    # 25, about a dozen quick hands at four players, as long as a contract game's 7-10 rounds).
    target_score: int = 25
    must_meld: MustMeld = "one-card"
    empty_stock: EmptyStock = "pass"
    card_points: int = 1
    options: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise InconsistentRulesError(f"rules {self.name!r}: " + "; ".join(problems))

    def pack_for(self, players: int) -> PackSpec:
        """The pack for ``players`` players; a count the rules do not allow is an error.

        >>> MANIPULATION.pack_for(6).decks
        3
        >>> MANIPULATION.pack_for(2)
        Traceback (most recent call last):
        ...
        shanghai.errors.InconsistentRulesError: manipulation is played by 3 to 8 players, not 2
        """
        if not self.min_players <= players <= self.max_players:
            raise InconsistentRulesError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, not {players}")
        for p in self.packs:
            if p.min_players <= players <= p.max_players:
                return p
        raise InconsistentRulesError(f"{self.name}: no pack is given for {players} players")

    def points(self, card: int) -> int:
        """004: "Players that remain in the game score 1 point per card left in hand"."""
        return self.card_points

    def changed(self, **changes: Any) -> ManipulationRules:
        """A copy with some rules changed (house rules), validated again."""
        names = {f.name for f in dataclasses.fields(self)}
        for key in changes:
            if key not in names:
                raise InconsistentRulesError(
                    f"unknown rule {key!r}; rules are: " + ", ".join(sorted(names)))
        if "options" not in changes:
            # The options name rules: target=N follows a changed target, meld-two a changed must_meld.
            options = self.options
            if "target_score" in changes:
                options = tuple(f"target={changes['target_score']}" if o.startswith("target=") else o
                                for o in options)
            if changes.get("must_meld") == "one-card":
                options = tuple(o for o in options if o != MELD_TWO)
            if options != self.options:
                changes = {**changes, "options": options}
        return dataclasses.replace(self, **changes)


def _problems(r: ManipulationRules) -> list[str]:
    p = type_problems(r)
    if p:
        return p
    if not 2 <= r.min_players <= r.max_players <= 16:
        p.append(f"player counts {r.min_players}-{r.max_players} are not a range within 2-16")
    if sum(r.deal_batches) != r.hand_size or any(b < 1 for b in r.deal_batches):
        p.append(f"deal_batches {r.deal_batches} must be positive and add up to hand_size {r.hand_size}")
    for n in range(r.min_players, r.max_players + 1):
        packs = [k for k in r.packs if k.min_players <= n <= k.max_players]
        if len(packs) != 1:
            p.append(f"exactly one pack must be given for {n} players, found {len(packs)}")
        elif packs[0].jokers:
            p.append("manipulation rummy is played without jokers")
        elif not 1 <= packs[0].decks <= MAX_DECKS:
            # The table solver's work grows steeply with the copies of a card (measured: 0.1-0.3 s
            # a play with 3 decks, seconds with 6).
            p.append(f"manipulation rummy is played with 1 to {MAX_DECKS} decks, not {packs[0].decks}")
        elif packs[0].size < n * r.hand_size + 1:
            p.append(f"a pack of {packs[0].size} cards cannot deal {r.hand_size} to {n} players and "
                     f"leave a stock")
    if p:
        return p
    if r.target_score < 1:
        p.append(f"target_score must be at least 1, not {r.target_score}")
    allowed = {f"target={r.target_score}", *((MELD_TWO,) if r.must_meld == "two-cards" else ())}
    if not isinstance(r.options, tuple) or any(o not in allowed for o in r.options):
        p.append(f"the options are target=N, the target score ({r.target_score} here), and {MELD_TWO} "
                 f"(with must_meld 'two-cards'), not {r.options!r}")
    if r.must_meld not in ("one-card", "two-cards"):
        p.append(f"must_meld must be 'one-card' or 'two-cards', not {r.must_meld!r}")
    if r.empty_stock != "pass":
        p.append(f"empty_stock must be 'pass', not {r.empty_stock!r}")
    if r.card_points < 1:
        p.append("card_points must be at least 1")
    return p


MANIPULATION = ManipulationRules()
