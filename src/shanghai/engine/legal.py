"""Legal actions of a state: the one source of truth for bots, interfaces and the environment."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from shanghai.cards import ALL_NATURALS, JOKER, Card
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
    from shanghai.engine.game import Game, Phase, TableMeld
    from shanghai.fits import Options
    from shanghai.melds import End
    from shanghai.rules.model import Rules


# Actions are frozen values: the common ones are made once and shared.
_SEATS = range(16)
_BUY = tuple(Buy(s) for s in _SEATS)
_PASS = tuple(Pass(s) for s in _SEATS)
_TAKE = tuple(TakeDiscard(s) for s in _SEATS)
_DRAW = tuple(DrawStock(s) for s in _SEATS)
_DISCARD = tuple({c: Discard(s, c) for c in (*ALL_NATURALS, JOKER)} for s in _SEATS)


_CUTS: dict[tuple[int, int], tuple[Cut, ...]] = {}


def _cuts(seat: int, pack_size: int) -> tuple[Cut, ...]:
    """Every cut of this seat, made once per pack size."""
    cuts = _CUTS.get((seat, pack_size))
    if cuts is None:
        cuts = _CUTS[(seat, pack_size)] = tuple(Cut(seat, t) for t in range(1, pack_size))
    return cuts


# Lay-offs and wild replacements, made once per (seat, card, meld, end) and shared like the values
# above (a frozen dataclass costs more to build than to look up).
_LAY_OFFS: dict[tuple[int, Card, int, End | None], LayOff] = {}
_REPLACES: dict[tuple[int, Card, int], ReplaceWild] = {}


def _lay_off(seat: int, card: Card, meld: int, end: End | None) -> LayOff:
    key = (seat, card, meld, end)
    action = _LAY_OFFS.get(key)
    if action is None:
        if len(_LAY_OFFS) > 100_000:
            _LAY_OFFS.clear()
        action = _LAY_OFFS[key] = LayOff(seat, card, meld, end)
    return action


def _replace(seat: int, card: Card, meld: int) -> ReplaceWild:
    key = (seat, card, meld)
    action = _REPLACES.get(key)
    if action is None:
        if len(_REPLACES) > 100_000:
            _REPLACES.clear()
        action = _REPLACES[key] = ReplaceWild(seat, card, meld)
    return action


# What the wilds of a table meld stand for, by the (immutable, shared) TableMeld itself: asking
# fits.replaceable hashes the whole meld, and every play of a seat that is down asks for each meld.
_WANTED: dict[int, tuple[TableMeld, Rules, frozenset[Card]]] = {}


def legal_actions(game: Game, seat: int | None = None) -> Iterator[Action]:
    """Every legal action (of one seat, or of every seat that may act), in a fixed order."""
    return iter(legal_list(game, seat))


def legal_list(game: Game, seat: int | None = None) -> list[Action]:
    """``legal_actions`` as a new list (the engine's hot path: no generator, shared values)."""
    phase = game.phase
    if phase is _PLAY:
        turn = game.turn
        if seat is not None and seat != turn:
            return []
        return _play_actions(game, turn)
    if phase is _DRAW_PHASE:
        turn = game.turn
        if seat is not None and seat != turn:
            return []
        if game.discard_live and game.discards:
            return [_TAKE[turn], _DRAW[turn]]
        return [_DRAW[turn]]
    seats = game.to_act()
    if seat is not None:
        if seat not in seats:
            return []
        seats = (seat,)
    out: list[Action] = []
    if phase is _BUY_PHASE:
        for s in seats:
            out.append(_BUY[s])
            out.append(_PASS[s])
    elif phase is _CUT:
        for s in seats:
            out.extend(_cuts(s, game.pack_size))
    elif phase is _SHANGHAI:
        w = game.shanghai_window
        assert w is not None
        spots = game.spots(w.card)
        for s in seats:
            for meld, end in spots:
                out.append(CallShanghai(s, meld, end))
            out.append(_PASS[s])
    return out


def _play_actions(game: Game, seat: int) -> list[Action]:
    rules = game.rules
    hand = game.hands[seat]
    out: list[Action] = []
    pending = game.pending_wild
    if pending is not None:
        # the freed wild, or first a card of the hand where the wild can still go after it (decision 21)
        for meld, end in game.spots(pending):
            action = _lay_off(seat, pending, meld, end)
            if len(hand) > 1 or game.is_legal(action):
                out.append(action)
        for tm, options in game.accepts():
            for card in sorted(set(hand)):
                if card == pending:
                    continue  # laying off that card places the freed wild (offered above)
                for end in options.get(card, ()):
                    action = _lay_off(seat, card, tm.id, end)
                    if game.is_legal(action):
                        out.append(action)
        return out
    down = game.down[seat]
    if not down:
        go_down = game.best_go_down(seat)
        if go_down is not None:
            out.append(go_down)
    in_hand = set(hand)
    distinct = sorted(in_hand)
    if down and (rules.lay_off_on_going_down_turn or not game.down_this_turn):
        short = len(hand) <= 2
        spots = sorted((card, tm.id, i, end) for tm, options in game.accepts()
                       for card, ends in options.items() if card in in_hand
                       for i, end in enumerate(ends))
        # With one card left after it, a lay-off is legal (where the last card may not be
        # discarded) when that card plays on another meld of the table, whose accepted cards are
        # cached; lay_off_options lists only lay-offs that melds.lay_off accepts. Otherwise the
        # full check decides.
        last_fits = short and len(hand) == 2 and rules.going_out == "play-all"
        accepted = game.accepts() if last_fits else []
        for card, meld, _, end in spots:
            action = _lay_off(seat, card, meld, end)
            if (not short
                    or (last_fits and _fits_elsewhere(accepted, hand[1] if hand[0] == card else hand[0],
                                                      meld))
                    or game.is_legal(action)):
                out.append(action)
        if rules.wild_replacement != "none":
            runs_only = rules.wild_replacement == "runs-play-freed-wild"
            for tm in game.table:
                if runs_only and tm.meld.kind != "run":
                    continue
                hit = _WANTED.get(id(tm))
                if hit is not None and hit[0] is tm and hit[1] is rules:
                    wanted = hit[2]
                else:
                    wanted = replaceable(tm.meld, rules)
                    if len(_WANTED) > 20_000:
                        _WANTED.clear()
                    _WANTED[id(tm)] = (tm, rules, wanted)
                if not wanted:
                    continue
                for card in distinct:
                    if card not in wanted:
                        continue
                    replace = _replace(seat, card, tm.id)
                    if game.is_legal(replace):
                        out.append(replace)
    if rules.going_out != "play-all" or len(hand) > 1:
        discards = _DISCARD[seat]
        if rules.shanghai_call:
            for card in distinct:
                out.append(discards[card])
                if game.spots(card):
                    out.append(Discard(seat, card, shanghai=True))
        else:
            out += [discards[card] for card in distinct]
    return out


def _fits_elsewhere(accepted: list[tuple[TableMeld, Options]], card: Card, meld: int) -> bool:
    """Does ``card`` play on some meld of the table other than m``meld``?"""
    return any(i != meld and card in options for i, (_, options) in enumerate(accepted))


def _phases() -> tuple[Phase, ...]:
    from shanghai.engine.game import Phase

    return Phase.CUT, Phase.DRAW, Phase.BUY, Phase.PLAY, Phase.SHANGHAI


_CUT, _DRAW_PHASE, _BUY_PHASE, _PLAY, _SHANGHAI = _phases()
