"""What one seat may know: its own hand and everything public, never another hand or the stock.

>>> from shanghai.rules import preset
>>> from shanghai.engine.game import Game
>>> game = Game.new(preset("may-i"), players=4, seed=1)
>>> v = view(game, 2)
>>> len(v.hand), v.hand_counts, v.stock_size
(11, (11, 11, 11, 11), 63)
>>> hasattr(v, "stock")
False
"""

from __future__ import annotations

from dataclasses import dataclass

from shanghai.cards import Card, card_text
from shanghai.engine.actions import Action
from shanghai.engine.game import CutResult, Game, Phase, RoundResult, TableMeld
from shanghai.rules.model import Contract, Rules


@dataclass(frozen=True, slots=True)
class MeldView:
    id: int
    owner: int
    kind: str
    cards: tuple[Card, ...]
    wilds: tuple[str, ...]  # what each wild stands for, e.g. "JK=7D"

    def text(self) -> str:
        return " ".join(card_text(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A seat's view of the game (``seat`` is None for a spectator, who sees no hand)."""

    seat: int | None
    players: int
    rules_name: str
    rules: Rules                         # the rules in force, house rules included (public)
    round_number: int
    rounds: int
    contract: str
    dealer: int
    phase: Phase
    turn: int
    to_act: tuple[int, ...]
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    down: tuple[bool, ...]
    buys_used: tuple[int, ...]
    buy_limit: int
    table: tuple[MeldView, ...]
    discard_top: Card | None
    discard_live: bool
    discard_size: int
    stock_size: int
    pending_wild: Card | None
    buy_window: tuple[int, ...]          # seats still to answer a buy window
    buy_claimant: int | None             # family-10: the buyer waiting on the in-turn player
    shanghai_card: Card | None
    cut: CutResult | None
    totals: tuple[int, ...]
    round_results: tuple[RoundResult, ...]
    history: tuple[Action, ...]          # this round's actions so far: all of them are public
    legal: tuple[Action, ...]            # this seat's legal actions now

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act


# Kept by the identity of the (immutable, shared) TableMeld, checked on every hit: hashing the
# meld itself would cost more than the lookup saves.
_MELD_VIEWS: dict[int, tuple[TableMeld, Rules, MeldView]] = {}
_CONTRACT_TEXTS: dict[int, tuple[Contract, str]] = {}


def _meld_view(tm: TableMeld, rules: Rules) -> MeldView:
    hit = _MELD_VIEWS.get(id(tm))
    if hit is not None and hit[0] is tm and hit[1] is rules:
        return hit[2]
    if len(_MELD_VIEWS) > 20_000:
        _MELD_VIEWS.clear()
    mv = MeldView(tm.id, tm.owner, tm.meld.kind, tm.meld.cards, tuple(tm.meld.wild_meanings(rules)))
    _MELD_VIEWS[id(tm)] = (tm, rules, mv)
    return mv


def meld_view(tm: TableMeld, rules: Rules) -> MeldView:
    """A meld of the table as everybody sees it (with what each wild stands for)."""
    return _meld_view(tm, rules)


def _contract_text(contract: Contract) -> str:
    hit = _CONTRACT_TEXTS.get(id(contract))
    if hit is not None and hit[0] is contract:
        return hit[1]
    if len(_CONTRACT_TEXTS) > 1000:
        _CONTRACT_TEXTS.clear()
    text = contract.text()
    _CONTRACT_TEXTS[id(contract)] = (contract, text)
    return text


def view(game: Game, seat: int | None) -> PlayerView:
    """The view of ``seat`` (or of a spectator, with ``None``)."""
    rules = game.rules
    table = tuple(_meld_view(tm, rules) for tm in game.table)
    w = game.buy_window
    sw = game.shanghai_window
    over = game.phase == Phase.GAME_OVER
    # Past rounds' hands are shown when the round is scored, as at a real table.
    return PlayerView(
        seat=seat,
        players=game.players,
        rules_name=rules.name,
        rules=rules,
        round_number=min(game.round_number, len(rules.rounds)),
        rounds=len(rules.rounds),
        contract=_contract_text(game.contract),
        dealer=game.dealer,
        phase=game.phase,
        turn=game.turn,
        to_act=game.to_act(),
        hand=tuple(game.hands[seat]) if seat is not None and not over else (),
        hand_counts=tuple(len(h) for h in game.hands),
        down=tuple(game.down),
        buys_used=tuple(game.buys_used),
        buy_limit=game.buy_limit,
        table=table,
        discard_top=game.discard_top,
        discard_live=game.discard_live,
        discard_size=len(game.discards),
        stock_size=len(game.stock),
        pending_wild=game.pending_wild,
        buy_window=tuple(s for s in w.seats if s not in w.answers) if w else (),
        buy_claimant=w.claimant if w else None,
        shanghai_card=sw.card if sw else None,
        cut=game.cut,
        totals=tuple(game.totals),
        round_results=tuple(game.round_results),
        history=tuple(game.actions[game.round_start:]),
        legal=tuple(game.legal_list(seat)) if seat is not None else (),
    )
