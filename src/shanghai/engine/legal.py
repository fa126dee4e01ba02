"""Legal actions of a state: the one source of truth for bots, interfaces and the environment."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from shanghai.cards import ALL_NATURALS, JOKER
from shanghai.engine.actions import (
    Action,
    Buy,
    CallShanghai,
    Cut,
    Discard,
    DrawStock,
    LayOff,
    Pass,
    ReplaceWild,
    TakeDiscard,
)
from shanghai.fits import replaceable

if TYPE_CHECKING:
    from shanghai.engine.game import Game


# Actions are frozen values: the common ones are made once and shared.
_SEATS = range(16)
_BUY = tuple(Buy(s) for s in _SEATS)
_PASS = tuple(Pass(s) for s in _SEATS)
_TAKE = tuple(TakeDiscard(s) for s in _SEATS)
_DRAW = tuple(DrawStock(s) for s in _SEATS)
_DISCARD = tuple({c: Discard(s, c) for c in (*ALL_NATURALS, JOKER)} for s in _SEATS)


def legal_actions(game: Game, seat: int | None = None) -> Iterator[Action]:
    from shanghai.engine.game import Phase

    seats = game.to_act()
    if seat is not None:
        if seat not in seats:
            return
        seats = (seat,)
    phase = game.phase
    if phase == Phase.CUT:
        for s in seats:
            for t in range(1, game.pack_size):
                yield Cut(s, t)
    elif phase == Phase.BUY:
        for s in seats:
            yield _BUY[s]
            yield _PASS[s]
    elif phase == Phase.SHANGHAI:
        w = game.shanghai_window
        assert w is not None
        spots = game.spots(w.card)
        for s in seats:
            for meld, end in spots:
                yield CallShanghai(s, meld, end)
            yield Pass(s)
    elif phase == Phase.DRAW:
        for s in seats:
            if game.discard_live and game.discards:
                yield _TAKE[s]
            yield _DRAW[s]
    elif phase == Phase.PLAY:
        for s in seats:
            yield from _play_actions(game, s)


def _play_actions(game: Game, seat: int) -> Iterator[Action]:
    rules = game.rules
    hand = game.hands[seat]
    if game.pending_wild is not None:
        for meld, end in game.spots(game.pending_wild):
            action = LayOff(seat, game.pending_wild, meld, end)
            if len(hand) > 1 or game.is_legal(action):
                yield action
        return
    if not game.down[seat]:
        go_down = game.best_go_down(seat)
        if go_down is not None:
            yield go_down
    distinct = sorted(set(hand))
    may_play_on_table = game.down[seat] and (rules.lay_off_on_going_down_turn
                                             or not game.down_this_turn)
    short = len(hand) <= 2
    if may_play_on_table:
        in_hand = set(hand)
        spots = sorted((card, tm.id, i, end) for tm, options in game.accepts()
                       for card, ends in options.items() if card in in_hand
                       for i, end in enumerate(ends))
        for card, meld, _, end in spots:
            action = LayOff(seat, card, meld, end)
            if not short or game.is_legal(action):
                yield action
        if rules.wild_replacement != "none":
            for tm in game.table:
                if rules.wild_replacement == "runs-play-freed-wild" and tm.meld.kind != "run":
                    continue
                wanted = replaceable(tm.meld, rules)
                if not wanted:
                    continue
                for card in distinct:
                    if card not in wanted:
                        continue
                    replace = ReplaceWild(seat, card, tm.id)
                    if game.is_legal(replace):
                        yield replace
    if rules.going_out != "play-all" or len(hand) > 1:
        for card in distinct:
            yield _DISCARD[seat][card]
            if rules.shanghai_call and game.spots(card):
                yield Discard(seat, card, shanghai=True)
