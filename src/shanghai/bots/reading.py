"""Reading the opponents: what their discards, pick-ups and passes say about the cards they hold.

A player who is not down yet keeps what builds the contract: one who throws the 7H, or lets it go by
(draws from the stock instead, or passes the chance to buy it), most likely holds no other 7 (where the
contract has sets) and no heart a rank or two from it (where it has runs); one who takes or buys it most
likely does. :func:`card_weights` turns this round's history into a relative weight for each card in
each opponent's unknown hand slots, for :func:`shanghai.engine.determinize.sample`: ``factor`` to the
power of the evidence against (each discard of a card it connects to counts once, each pass half) less
the evidence for (each pick-up). What a seat did once down (shedding cards to go out) says nothing of
the sort and is not read. Only the view is read: these are public actions.

>>> import dataclasses
>>> from shanghai.cards import parse_card
>>> from shanghai.engine.actions import Discard
>>> from shanghai.engine.game import Game
>>> from shanghai.engine.view import view
>>> from shanghai.rules import preset
>>> rules = preset("isra")  # round 1: two sets
>>> v = view(Game.new(rules.changed(rounds=rules.rounds[:1]), 4, seed=1), 0)
>>> v = dataclasses.replace(v, history=(Discard(1, parse_card("7H")),))
>>> w = card_weights(v, 0.5)
>>> w[1][parse_card("7S")], w[1].get(parse_card("8H"), 1.0), w[2].get(parse_card("7S"), 1.0)
(0.5, 1.0, 1.0)
"""

from __future__ import annotations

from shanghai.cards import ALL_NATURALS, Card, rank_of, suit_of
from shanghai.engine.actions import Buy, CallShanghai, Discard, DrawStock, GoDown, Pass, TakeDiscard
from shanghai.engine.view import PlayerView

__all__ = ["card_weights", "evidence"]


def evidence(v: PlayerView) -> list[list[tuple[Card, float]]]:
    """For each seat, the cards it showed it did not want (weight +1 a discard, +0.5 a pass or a draw
    from the stock with the card on offer) or wanted (-1, a pick-up or a buy), this round, before it
    went down; the view's own seat gets none."""
    out: list[list[tuple[Card, float]]] = [[] for _ in range(v.players)]
    down = [False] * v.players
    top: Card | None = None  # the discard on offer (the flip card is not in the history: unknown)
    for a in v.history:
        if isinstance(a, GoDown):
            down[a.seat] = True
        elif isinstance(a, Discard):
            if not down[a.seat]:
                out[a.seat].append((a.card, 1.0))
            top = None if a.shanghai else a.card  # a protected discard is not on offer (as in knowledge())
        elif isinstance(a, CallShanghai):
            top = None  # the discard went onto a meld
        elif isinstance(a, TakeDiscard | Buy):
            if top is not None and not down[a.seat]:
                out[a.seat].append((top, -1.0))
            top = None
        elif isinstance(a, Pass):
            if top is not None and not down[a.seat]:
                out[a.seat].append((top, 0.5))
        elif isinstance(a, DrawStock):
            if top is not None and not down[a.seat]:
                out[a.seat].append((top, 0.5))
            top = None  # the discard is dead once the player in turn draws
    if v.seat is not None:
        out[v.seat] = []
    return out


def card_weights(v: PlayerView, factor: float) -> list[dict[Card, float]]:
    """Each seat's relative weight for holding each card (cards not listed: 1.0), from
    :func:`evidence` under this round's contract; ``factor`` in (0, 1], 1 reading nothing."""
    if not 0.0 < factor <= 1.0:
        raise ValueError(f"the reading factor must be above 0 and at most 1, not {factor}")
    rules = v.rules
    contract = rules.contract(v.round_number)
    sets, runs = bool(contract.sets), bool(contract.runs)
    wilds = rules.wild_cards()
    cards = ALL_NATURALS if factor < 1.0 else ()
    out: list[dict[Card, float]] = []
    for seen in evidence(v):
        natural = [(e, w) for e, w in seen if e not in wilds]  # a wild says nothing of the other cards
        weights: dict[Card, float] = {}
        for c in cards:
            if c in wilds:
                continue
            score = 0.0
            for e, w in natural:
                if _connects(c, e, sets, runs):
                    score += w
            if score:
                weights[c] = factor ** score
        out.append(weights)
    return out


def _connects(c: Card, e: Card, sets: bool, runs: bool) -> bool:
    """Would a hand that holds ``c`` keep ``e`` for the contract (a set partner or a run neighbour)?"""
    if sets and rank_of(c) == rank_of(e):
        return True
    return runs and suit_of(c) == suit_of(e) and 1 <= abs(rank_of(c) - rank_of(e)) <= 2
