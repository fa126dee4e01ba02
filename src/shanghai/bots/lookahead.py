"""Lookahead for the computer players: how soon can a hand meet its contract, over sampled draws.

A hand's *time to go down* on one sample of future stock draws ``d1, d2, ...`` is the first ``k``
for which the hand plus ``d1..dk`` holds the contract (the exact solver decides), capped at the
horizon. Averaged over draw samples shared by every candidate (common random numbers), it ranks
the discards and the take-or-draw choice far better than counting cards toward the contract: it
sees which cards are still live, how many ways each meld can finish, and how melds compete for
the same cards.

The relaxation keeps every drawn card (a real hand discards one a turn); for contracts that fit in
the hand that costs little, since the cards it would throw are the ones no plan uses.

>>> from shanghai.cards import parse_cards
>>> from shanghai.rules import preset
>>> isra = preset("isra")
>>> hand = parse_cards("7H 7S 9D 9C 9H KD 4C")
>>> time_to_meet(hand, isra.contract(1), isra, parse_cards("2C 7D 5H"), horizon=3)
2
>>> time_to_meet(hand, isra.contract(1), isra, parse_cards("2C 5H 3S"), horizon=3)
4

:class:`LookaheadPlayer` plays by it: greedy's rules (:mod:`shanghai.bots.greedy`), except that
before going down it chooses its discard and whether to take the discard by the expected time to
go down, and in rounds whose contract needs more cards than the hand it buys more readily.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from shanghai.bots.greedy import GreedyPlayer, greedy_reason
from shanghai.bots.hand_eval import knowledge
from shanghai.cards import Card, card_text
from shanghai.engine.actions import Action, Buy, Discard, DrawStock, TakeDiscard
from shanghai.engine.view import PlayerView
from shanghai.rules.model import Contract, Rules
from shanghai.solver import may_meet_contract, meets_contract


class Pool:
    """The cards a seat has not seen (each copy once), to sample future draws from."""

    __slots__ = ("cards",)

    def __init__(self, cards: list[Card]) -> None:
        self.cards = cards

    @classmethod
    def from_live(cls, live: Sequence[float]) -> Pool:
        """A pool holding ``round(live[c])`` copies of every card ``c``."""
        cards: list[Card] = []
        for c, n in enumerate(live):
            cards.extend([Card(c)] * round(n))
        return cls(cards)

    def samples(self, rng: random.Random, count: int, depth: int) -> list[tuple[Card, ...]]:
        """``count`` draw sequences of ``depth`` cards each (without replacement within one)."""
        n = len(self.cards)
        if n == 0:
            return [() for _ in range(count)]
        k = min(depth, n)
        return [tuple(rng.sample(self.cards, k)) for _ in range(count)]


def _meets(hand: list[Card], contract: Contract, rules: Rules) -> bool:
    return may_meet_contract(hand, contract, rules) and meets_contract(hand, contract, rules)


def time_to_meet(hand: Sequence[Card], contract: Contract, rules: Rules, draws: Sequence[Card],
                 horizon: int) -> int:
    """The first ``k`` (0 when the hand already meets) such that ``hand`` plus ``draws[:k]`` holds
    ``contract``; ``horizon + 1`` when none up to the horizon does."""
    top = min(horizon, len(draws))
    base = list(hand)
    if not _meets(base + list(draws[:top]), contract, rules):
        return horizon + 1
    lo, hi = 0, top  # meets at hi; find the smallest
    while lo < hi:
        mid = (lo + hi) // 2
        if _meets(base + list(draws[:mid]), contract, rules):
            hi = mid
        else:
            lo = mid + 1
    return lo


def times(hand: Sequence[Card], contract: Contract, rules: Rules,
          samples: Sequence[Sequence[Card]], horizon: int, at_least: int = 1) -> list[int]:
    """:func:`time_to_meet` on every sample, counted in turns from the next draw (at least 1; 0 when
    ``at_least=0``: the hand meets now)."""
    return [max(at_least, time_to_meet(hand, contract, rules, s, horizon)) for s in samples]


@dataclass(frozen=True, slots=True)
class LookaheadSettings:
    """The knobs of :class:`LookaheadPlayer` (measured choices: see the expert's docstring)."""

    samples: int = 16              # draw sequences per decision (shared by every candidate)
    horizon: int = 5               # turns looked ahead; a hand not down by then counts horizon + 1
    discard_candidates: int = 6    # discards weighed (greedy's best few by its own count)
    take_candidates: int = 4       # discards weighed after taking the discard
    short_buy_missing: int = 8     # where the contract needs more cards than the hand: buy a card
                                   # that helps while at most this many short (greedy: 3)


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


class LookaheadPlayer(GreedyPlayer):
    """Greedy's rules with lookahead before going down (see the module docstring).

    ``decide`` also says why, for the coach.
    """

    name = "lookahead"

    def __init__(self, seed: int | None = None, settings: LookaheadSettings | None = None) -> None:
        self.settings = settings or LookaheadSettings()
        super().__init__(seed, short_buy_missing=self.settings.short_buy_missing)
        # its own stream for the sampled draws, so ties and samples do not disturb each other
        self.draws_rng = random.Random(None if seed is None else seed ^ 0x5EED)
        self._reason = ""

    def decide(self, view: PlayerView) -> tuple[Action, str]:
        """The action and a one-line reason for it."""
        self._reason = ""
        action = self.choose(view)
        if not self._reason and self._me_down(view):
            if isinstance(action, Discard):
                self._reason = (f"discard {card_text(action.card)}: you are down; shed the costliest "
                                f"card you cannot lay off")
            elif isinstance(action, DrawStock) and view.discard_top is not None:
                self._reason = f"draw: {card_text(view.discard_top)} plays nowhere on the table"
            elif isinstance(action, TakeDiscard) and view.discard_top is not None:
                self._reason = f"take {card_text(view.discard_top)}: it plays on the table"
        if isinstance(action, Buy) and view.discard_top is not None and not self._contract_fits_hand(view):
            short = self._contract_size(view) - self._progress(view, [*view.hand, view.discard_top])
            self._reason = (f"buy {card_text(view.discard_top)}: this contract needs more cards than a "
                            f"hand holds; it leaves you {short} short")
        return action, self._reason or greedy_reason(action, view)

    # -- the sampled draws ----------------------------------------------------------------------
    def _samples(self, view: PlayerView, depth: int) -> list[tuple[Card, ...]]:
        pool = Pool.from_live(knowledge(view).live)
        return pool.samples(self.draws_rng, self.settings.samples, depth)

    def _mean_time(self, view: PlayerView, hand: Sequence[Card], samples: Sequence[Sequence[Card]],
                   horizon: int, at_least_one: bool = True) -> float:
        contract = view.rules.contract(view.round_number)
        return sum(times(hand, contract, view.rules, samples, horizon, int(at_least_one))) / len(samples)

    def _greedy_order(self, view: PlayerView, hand: list[Card], cards: Sequence[Card],
                      wilds: frozenset[int]) -> list[Card]:
        """``cards`` (no wilds) in greedy's order of preference for a discard from ``hand``."""
        return sorted((c for c in dict.fromkeys(cards) if c not in wilds),
                      key=self._discard_key(view, hand, wilds))

    # -- decisions --------------------------------------------------------------------------------
    def _discard_card(self, view: PlayerView, cards: list[Card], wilds: frozenset[int]) -> Card:
        if self._me_down(view) or not self._contract_fits_hand(view):
            return super()._discard_card(view, cards, wilds)
        hand = list(view.hand)
        order = self._greedy_order(view, hand, cards, wilds)[: self.settings.discard_candidates]
        if len(order) <= 1:
            return super()._discard_card(view, cards, wilds)
        samples = self._samples(view, self.settings.horizon + 1)
        best: tuple[float, int, Card] | None = None
        for i, c in enumerate(order):
            key = (self._mean_time(view, _without(hand, c), samples, self.settings.horizon), i, c)
            if best is None or key < best:
                best = key
        assert best is not None
        self._reason = (f"discard {card_text(best[2])}: without it the hand goes down soonest "
                        f"(about {best[0]:.1f} turns over {len(samples)} sampled draws)")
        return best[2]

    def _draw(self, view: PlayerView) -> Action:
        legal = view.legal
        take = next((a for a in legal if isinstance(a, TakeDiscard)), None)
        draw = next((a for a in legal if isinstance(a, DrawStock)), None)
        card = view.discard_top
        if (take is None or draw is None or card is None or self._me_down(view)
                or not self._contract_fits_hand(view)):
            return super()._draw(view)
        wilds = view.rules.wild_cards()
        name = card_text(card)
        if card in wilds:
            self._reason = f"take {name}: a wild"
            return take
        hand = list(view.hand)
        after = [*hand, card]
        order = self._greedy_order(view, after, hand, wilds)[: self.settings.take_candidates]
        horizon = self.settings.horizon
        samples = self._samples(view, horizon + 1)
        # drawing: the samples' first card comes now; taking: the discard now, the samples later
        t_draw = self._mean_time(view, hand, samples, horizon)
        t_take = min((1 + self._mean_time(view, _without(after, c), samples, horizon - 1,
                                          at_least_one=False)
                      for c in order), default=float("inf"))
        if t_take < t_draw:
            self._reason = (f"take {name}: the hand goes down about {t_draw - t_take:.1f} turns "
                            f"sooner than with a card from the stock")
            return take
        if view.buy_claimant is not None:
            self._reason = f"draw: let the buyer have {name}, it does not bring you down sooner"
        else:
            self._reason = f"draw: {name} does not bring you down sooner than a card from the stock"
        return draw
