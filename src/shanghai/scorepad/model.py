"""The score pad of a game played with real cards: players, rounds, points, stars, crown, dunce cap.

Pure logic, no I/O: a :class:`ScorePad` knows its rules (a preset, its options and the house rules
that touch scoring), its players and the rounds entered so far. :meth:`ScorePad.score_round`
validates one round's entry against the rules and returns the :class:`RoundEntry` to store, or
raises :class:`ScorePadError` naming what is wrong; nothing is changed by a refused entry.

Scoring follows ``docs/rules.md``: the player who went out scores 0 and gets a star; everybody else
scores the cards left in their hand (the preset's card values); THE CUT adds the preset's
``cut_bonus`` to every other player, the one who went out included; ``contract-10``'s blind go-out
takes ``blind_out_bonus`` (``blind_out_bonus_no_joker`` without a joker) off the score of the player
who went out. The lowest total wins the crown (ties share it); the highest wears the dunce cap when
the rules award it.

>>> pad = ScorePad.new("isra-junior", players=["Ann", "Bob", "Cy"])
>>> pad = pad.with_round(pad.score_round({1: HandEntry(35), 2: HandEntry.of_cards("KS 2H JK", pad.rules)},
...                                      went_out=0, cut=1))
>>> pad.rounds[0].points, pad.totals, pad.stars
((50, 35, 115), (50, 35, 115), (1, 0, 0))
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from shanghai.cards import JOKER, Card, cards_text, count_cards, make_pack, parse_cards
from shanghai.errors import ShanghaiError, UnknownCardError
from shanghai.rules import OTHER_GAMES, PRESETS, Rules, preset

Blind = Literal["joker", "no-joker"]
BLIND_KINDS: tuple[Blind, ...] = ("joker", "no-joker")

# Rules a family may change on the score pad: only those that touch scoring.
HOUSE_RULES: dict[str, type] = {
    "dunce_cap": bool,
    "the_cut": bool,
    "cut_bonus": int,
    "joker_points": int,
    "black_two_points": int,
    "blind_out_bonus": int,
    "blind_out_bonus_no_joker": int,
}

# Words the interactive pad reads as commands or "nobody", so no player may be called so.
RESERVED_NAMES = frozenset({"-", "none", "nobody", "q", "quit", "pad", "show", "help", "?", "undo"})
MAX_NAME = 30


class ScorePadError(ShanghaiError):
    """A score pad entry or game that the rules refuse; the message names what is wrong."""


def _names(names: Sequence[str]) -> str:
    return ", ".join(names)


@dataclass(frozen=True, slots=True)
class HandEntry:
    """What was entered for one player in one round: the points left in hand, and the cards when the
    points were computed from them."""

    points: int
    cards: tuple[Card, ...] | None = None

    @staticmethod
    def of_cards(cards: str | Iterable[str], rules: Rules) -> HandEntry:
        """The points of ``cards`` (text like ``"KS 2H JK"``) with the rules' card values.

        >>> from shanghai.rules import preset
        >>> HandEntry.of_cards("KS 2H JK", preset("isra")).points
        65
        >>> HandEntry.of_cards("2S 2H 7D", preset("may-i")).points
        29
        """
        parsed = tuple(parse_cards(cards))
        return HandEntry(sum(rules.points(c) for c in parsed), parsed)

    @staticmethod
    def parse(text: str, rules: Rules) -> HandEntry:
        """A number of points (``35``) or the cards left in hand (``KS 2H JK``); an empty text or
        ``-`` is no cards at all."""
        t = text.strip()
        if t in ("", "-"):
            return HandEntry(0, ())
        if t.lstrip("+-").isdigit():
            return HandEntry(int(t))
        try:
            return HandEntry.of_cards(t, rules)
        except UnknownCardError as exc:
            raise ScorePadError(f"{t!r} is neither a number of points nor cards: {exc}") from None


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One stored round: what was entered and the points it scores (bonuses included)."""

    number: int
    hand_points: tuple[int, ...]
    cards: tuple[tuple[Card, ...] | None, ...]
    went_out: int | None
    cut: int | None
    blind: Blind | None
    points: tuple[int, ...]

    def cards_text(self, seat: int) -> str | None:
        c = self.cards[seat]
        return None if c is None else cards_text(c)


@dataclass(frozen=True, slots=True)
class ScorePad:
    """A game's score pad. Immutable: entering a round gives a new pad."""

    preset: str
    options: tuple[str, ...]
    house: tuple[tuple[str, int | bool], ...]
    players: tuple[str, ...]
    rules: Rules
    rounds: tuple[RoundEntry, ...] = ()
    id: int | None = None
    created_at: str = ""
    finished_at: str | None = None
    note: str = field(default="")

    # -- making one ---------------------------------------------------------------------------------
    @staticmethod
    def new(preset_name: str, players: Sequence[str], options: Iterable[str] = (),
            house: Mapping[str, int | bool] | None = None, note: str = "") -> ScorePad:
        """A fresh pad; refuses an unknown preset, option or house rule, a player count the rules do
        not allow, and empty, duplicate or reserved names."""
        opts = tuple(options)
        house_items = tuple(sorted((house or {}).items()))
        rules = make_rules(preset_name, opts, dict(house_items))
        names = check_players(players, rules)
        return ScorePad(preset=rules.name, options=rules.options, house=house_items, players=names, rules=rules,
                        note=note.strip())

    # -- facts --------------------------------------------------------------------------------------
    @property
    def round_count(self) -> int:
        return len(self.rules.rounds)

    @property
    def next_round(self) -> int | None:
        """The number of the round to enter next, or None when every round is entered."""
        n = len(self.rounds) + 1
        return n if n <= self.round_count else None

    @property
    def is_finished(self) -> bool:
        return len(self.rounds) >= self.round_count

    def contract_text(self, number: int) -> str:
        """``SET RUN: 1 set of 3 + 1 run of 4``."""
        spec = self.rules.round(number)
        text = spec.contract.text()
        name = spec.name or spec.contract.shout()
        return f"{name}: {text}"

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r.points[s] for r in self.rounds) for s in range(len(self.players)))

    def running_totals(self) -> list[tuple[int, ...]]:
        """The totals after each round entered."""
        out: list[tuple[int, ...]] = []
        acc = [0] * len(self.players)
        for r in self.rounds:
            acc = [a + p for a, p in zip(acc, r.points, strict=True)]
            out.append(tuple(acc))
        return out

    @property
    def stars(self) -> tuple[int, ...]:
        """Rounds won (gone out) by each seat."""
        return tuple(sum(1 for r in self.rounds if r.went_out == s) for s in range(len(self.players)))

    def leaders(self) -> tuple[int, ...]:
        """Seats with the lowest total so far (ties share); empty before the first round."""
        if not self.rounds:
            return ()
        best = min(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == best)

    def crown(self) -> tuple[int, ...]:
        """Seats wearing the crown (lowest total, ties share) once the game is finished."""
        return self.leaders() if self.is_finished else ()

    def dunce(self) -> tuple[int, ...]:
        """Seats wearing the dunce cap (highest total, ties share) once the game is finished, if the
        rules award it."""
        if not (self.is_finished and self.rules.dunce_cap and self.rounds):
            return ()
        worst = max(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == worst)

    def seat(self, name: str) -> int:
        """The seat of a player, by name (case does not matter)."""
        key = name.strip().casefold()
        for s, p in enumerate(self.players):
            if p.casefold() == key:
                return s
        raise ScorePadError(f"unknown player {name.strip()!r}; the players are {_names(self.players)}")

    # -- entering a round ---------------------------------------------------------------------------
    def score_round(self, hands: Mapping[int, HandEntry], *, went_out: int | None, cut: int | None = None,
                    blind: Blind | None = None, number: int | None = None,
                    replace: bool = False) -> RoundEntry:
        """Validate one round and score it.

        ``hands`` gives, by seat, the points (or cards) left in hand; the player who went out may be
        left out (0). ``number`` defaults to the next round; an entered round is refused unless
        ``replace`` (a correction). Raises :class:`ScorePadError` naming the problem.
        """
        rules = self.rules
        n = len(self.players)
        number = self._check_number(number, replace)
        if went_out is not None and not 0 <= went_out < n:
            raise ScorePadError(f"no player in seat {went_out}")
        for s in hands:
            if not 0 <= s < n:
                raise ScorePadError(f"no player in seat {s}")
        missing = [self.players[s] for s in range(n) if s not in hands and s != went_out]
        if missing:
            raise ScorePadError(f"round {number}: no points or cards given for {_names(missing)}"
                                + ("" if went_out is not None else " (and nobody went out)"))
        hand_points: list[int] = []
        cards: list[tuple[Card, ...] | None] = []
        for s in range(n):
            entry = hands.get(s, HandEntry(0, None))
            self.check_hand(s, entry, went_out=went_out)
            hand_points.append(entry.points)
            cards.append(entry.cards if s != went_out else (entry.cards or None))
        self._check_cards(cards)
        points = list(hand_points)
        if cut is not None:
            if not rules.the_cut:
                raise ScorePadError(f"the {rules.name} rules have no THE CUT, so nobody can get it")
            if not 0 <= cut < n:
                raise ScorePadError(f"no player in seat {cut}")
            points = [p + (rules.cut_bonus if s != cut else 0) for s, p in enumerate(points)]
        if blind is not None:
            if blind not in BLIND_KINDS:
                raise ScorePadError(f"a blind go-out is 'joker' or 'no-joker', not {blind!r}")
            if not (rules.blind_out_bonus or rules.blind_out_bonus_no_joker):
                raise ScorePadError(f"the {rules.name} rules give no bonus for going out blind")
            if went_out is None:
                raise ScorePadError("a blind go-out needs the player who went out")
            bonus = rules.blind_out_bonus_no_joker if blind == "no-joker" else rules.blind_out_bonus
            points[went_out] -= bonus
        return RoundEntry(number=number, hand_points=tuple(hand_points), cards=tuple(cards),
                          went_out=went_out, cut=cut, blind=blind, points=tuple(points))

    def check_hand(self, seat: int, entry: HandEntry, *, went_out: int | None) -> None:
        """Refuse points that one player cannot have scored: negative, not 0 for the player who
        went out, 0 (no cards) for anyone else, or not a multiple of what every card counts."""
        rules = self.rules
        name = self.players[seat]
        if entry.points < 0:
            raise ScorePadError(f"points cannot be negative ({name}: {entry.points})")
        if seat == went_out:
            if entry.points != 0:
                held = f" ({cards_text(entry.cards)})" if entry.cards else ""
                raise ScorePadError(f"{name} went out, so {name} has no cards left and scores 0, "
                                    f"not {entry.points}{held}")
            return
        if entry.cards is not None and not entry.cards:
            raise ScorePadError(f"{name} did not go out, so {name} still holds cards: give them, or their "
                                f"points")
        least = _min_card_points(rules)
        if entry.points == 0 and least > 0:
            raise ScorePadError(f"{name} scores 0 but did not go out: only the player who went out has no "
                                f"cards left (every card counts at least {least})")
        step = _points_step(rules)
        if step > 1 and entry.points % step:
            raise ScorePadError(f"{name}'s {entry.points} points cannot be made with {rules.name}'s card "
                                f"values (every card counts a multiple of {step})")

    def with_round(self, entry: RoundEntry) -> ScorePad:
        """The pad with ``entry`` added (the next round) or replacing the round of its number."""
        if entry.number == len(self.rounds) + 1:
            rounds = (*self.rounds, entry)
        elif 1 <= entry.number <= len(self.rounds):
            rounds = tuple(entry if r.number == entry.number else r for r in self.rounds)
        else:
            raise ScorePadError(f"round {entry.number} does not follow the rounds entered")
        return dataclasses.replace(self, rounds=rounds)

    def without_last_round(self) -> ScorePad:
        if not self.rounds:
            raise ScorePadError("no round has been entered yet")
        return dataclasses.replace(self, rounds=self.rounds[:-1], finished_at=None)

    def _check_number(self, number: int | None, replace: bool) -> int:
        entered = len(self.rounds)
        name = self.rules.name
        if number is None:
            if replace:
                raise ScorePadError("say which round to correct (--round N)")
            if self.is_finished:
                raise ScorePadError(f"the game is over: all {self.round_count} rounds of {name} are "
                                    f"entered")
            return entered + 1
        if number < 1 or number > self.round_count:
            raise ScorePadError(f"{name} has rounds 1 to {self.round_count}; there is no round {number}")
        if number <= entered and not replace:
            raise ScorePadError(f"round {number} is already entered (add --replace to correct it)")
        if number > entered + 1:
            raise ScorePadError(f"round {number} cannot be entered before round {entered + 1}")
        if replace and number > entered:
            raise ScorePadError(f"round {number} has not been entered yet, so there is nothing to correct")
        return number

    def _check_cards(self, hands: Sequence[tuple[Card, ...] | None]) -> None:
        """The cards entered in one round must exist in the pack for this many players."""
        given = [c for h in hands if h for c in h]
        if not given:
            return
        pack = self.rules.pack_for(len(self.players))
        available = count_cards(make_pack(pack.decks, pack.jokers))
        for card, k in count_cards(given).items():
            if k > available.get(card, 0):
                what = "jokers" if card == JOKER else f"× {cards_text([card])}"
                have = available.get(card, 0)
                raise ScorePadError(f"{k} {what} entered this round, but the pack for {len(self.players)} "
                                    f"players ({pack.decks} decks, {pack.jokers} jokers) holds only {have}")


# -- rules and players --------------------------------------------------------------------------------

def make_rules(preset_name: str, options: Iterable[str] = (), house: Mapping[str, int | bool] | None = None
               ) -> Rules:
    """The preset with its options and the score pad's house rules (scoring rules only)."""
    if preset_name.strip().lower() in OTHER_GAMES:
        raise ScorePadError(f"{preset_name.strip().lower()} is not kept on a score pad: its score is a point a card "
                            f"left in hand, hand after hand until somebody reaches the target; the pad keeps the "
                            f"contract games ({', '.join(PRESETS)})")
    rules = preset(preset_name, options)
    changes: dict[str, int | bool] = {}
    for key, value in (house or {}).items():
        if key not in HOUSE_RULES:
            raise ScorePadError(f"the score pad cannot change {key!r}; it can change "
                                f"{_names(list(HOUSE_RULES))}")
        want = HOUSE_RULES[key]
        if want is bool and not isinstance(value, bool):
            raise ScorePadError(f"{key} is yes or no, not {value!r}")
        if want is int and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ScorePadError(f"{key} is a number of points (0 or more), not {value!r}")
        changes[key] = value
    return rules.changed(**changes) if changes else rules


def parse_house(items: Iterable[str]) -> dict[str, int | bool]:
    """``["dunce_cap=yes", "cut_bonus=25"]`` -> ``{"dunce_cap": True, "cut_bonus": 25}``."""
    out: dict[str, int | bool] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().lower().replace("-", "_")
        value = value.strip().lower()
        if not sep or not key:
            raise ScorePadError(f"a house rule is RULE=VALUE (e.g. dunce_cap=yes), not {item!r}")
        if key not in HOUSE_RULES:
            raise ScorePadError(f"the score pad cannot change {key!r}; it can change "
                                f"{_names(list(HOUSE_RULES))}")
        if HOUSE_RULES[key] is bool:
            if value in ("yes", "y", "true", "on", "1"):
                out[key] = True
            elif value in ("no", "n", "false", "off", "0"):
                out[key] = False
            else:
                raise ScorePadError(f"{key} is yes or no, not {value!r}")
        else:
            if not value.isdigit():
                raise ScorePadError(f"{key} is a number of points (0 or more), not {value!r}")
            out[key] = int(value)
    return out


def check_players(players: Sequence[str], rules: Rules) -> tuple[str, ...]:
    names = tuple(p.strip() for p in players)
    if any(not p for p in names):
        raise ScorePadError("a player's name is empty")
    for p in names:
        if any(ch in p for ch in ",=;\n\t"):
            raise ScorePadError(f"a player's name cannot hold ',', '=' or ';': {p!r}")
        if p.casefold() in RESERVED_NAMES:
            raise ScorePadError(f"{p!r} cannot be a player's name (the pad reads it as a command)")
        if len(p) > MAX_NAME:
            raise ScorePadError(f"a player's name is at most {MAX_NAME} characters: {p!r}")
    seen: set[str] = set()
    for p in names:
        if p.casefold() in seen:
            raise ScorePadError(f"two players are called {p!r}; give each player a different name")
        seen.add(p.casefold())
    if not rules.min_players <= len(names) <= rules.max_players:
        raise ScorePadError(f"{rules.name} is played by {rules.min_players} to {rules.max_players} players, "
                            f"not {len(names)} ({_names(names)})")
    return names


def _card_values(rules: Rules) -> list[int]:
    pack = [c for c in make_pack(1, 1) if rules.wilds != "none" or c != JOKER]
    return [rules.points(c) for c in pack]


def _min_card_points(rules: Rules) -> int:
    return min(_card_values(rules))


def _points_step(rules: Rules) -> int:
    """The greatest common divisor of the card values: every hand's points are a multiple of it."""
    step = 0
    for v in _card_values(rules):
        step = math.gcd(step, v)
    return step or 1
