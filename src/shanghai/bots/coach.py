"""The coach: for a seat's view, the action the strongest player would take, and why.

The interfaces' hint button calls :func:`advise` with the human's view; the advice is one of the
view's legal actions with a one-line reason in the game's words. The strongest player is the
search player of level ``expert`` (:func:`shanghai.bots.registry.strongest_player`): where it keeps
the expert player's choice, the reason is the expert's ("discard KS: high card that fits
nothing"); where its search of the hidden cards found better, the reason says so ("draw: over 3
deals of the cards you cannot see it came out about 4.5 points ahead of take 7H").

>>> from shanghai.engine.game import Game
>>> from shanghai.engine.view import view
>>> from shanghai.rules import preset
>>> game = Game.new(preset("may-i"), players=4, seed=1)
>>> seat = game.to_act()[0]
>>> tip = advise(view(game, seat))
>>> tip.action in view(game, seat).legal, bool(tip.reason), "\\n" in tip.reason
(True, True, False)

:func:`review` goes through a played game (its record) and asks the coach at every decision of
one seat, as the hint button would have been asked then: where the seat played otherwise, the
review shows both moves and the coach's reason (``shanghai coach FILE --review``).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from shanghai.bots.expert import ExpertPlayer
from shanghai.bots.registry import strongest_player
from shanghai.cards import JOKER, Card, card_text, sort_key
from shanghai.engine.actions import Action, Buy, CallShanghai, Discard, GoDown, LayOff, Pass, TakeDiscard
from shanghai.engine.game import Game, Phase
from shanghai.engine.games import AnyAction, AnyGame
from shanghai.engine.record import GameRecord
from shanghai.engine.view import PlayerView, view
from shanghai.rules import ManipulationRules


@dataclass(frozen=True, slots=True)
class Advice:
    """The coach's advice: ``action`` is one of the view's legal actions."""

    action: Action
    reason: str
    searched: bool = False  # the coach's search left the expert player's own choice for this one

    def __str__(self) -> str:
        return f"{self.action}  ({self.reason})"


def advise(view: PlayerView, seed: int = 0) -> Advice:
    """The strongest player's choice for ``view`` with its reason (the same view and seed give
    the same advice); ``ValueError`` when the seat has no legal action (it is not this seat's
    turn to act)."""
    if view.seat is None or not view.legal:
        raise ValueError(f"seat {view.seat} has no legal action: nothing to advise")
    player = strongest_player(seed)
    action, reason = player.decide(view)
    reason = " ".join(reason.split()) or str(action)
    return Advice(action, reason, player.left_policy)


def same_move(played: Action, advised: Action, wilds: Collection[int] = (JOKER,)) -> bool:
    """Is ``played`` the move ``advised``? The same action; or going down with the same melds,
    in another order or a set's cards in another order; or a lay-off of a natural card where the
    coach lays off another natural card (it lays off every card that plays, so the order of such
    lay-offs in a turn costs nothing). Where a card goes, and where a wild goes, still count.

    >>> from shanghai.engine.actions import parse_action
    >>> down = parse_action("1 down set 7H 7S 7D | set 9C 9H JK")
    >>> same_move(down, parse_action("1 down set JK 9C 9H | set 7H 7S 7D"))
    True
    >>> same_move(parse_action("1 layoff 9D m1 high"), parse_action("1 layoff 5C m0 low"))
    True
    >>> same_move(parse_action("1 layoff 9D m1 high"), parse_action("1 layoff 9D m2 low"))
    False
    >>> same_move(parse_action("1 layoff JK m1 high"), parse_action("1 layoff 5C m0 low"))
    False
    >>> same_move(parse_action("1 discard 9D"), parse_action("1 discard KS"))
    False
    """
    if played == advised:
        return True
    if isinstance(played, GoDown) and isinstance(advised, GoDown):
        return _melds_key(played) == _melds_key(advised)
    return (isinstance(played, LayOff) and isinstance(advised, LayOff) and played.card != advised.card
            and played.card not in wilds and advised.card not in wilds)


def _melds_key(down: GoDown) -> list[tuple[str, tuple[Card, ...]]]:
    """A go-down's melds in one order, each set's cards in one order (a run's order is its own)."""
    return sorted((m.kind, tuple(sorted(m.cards)) if m.kind == "set" else m.cards) for m in down.melds)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a reviewed seat: the state it was taken in, the move played and the
    coach's advice there."""

    index: int                 # the played action's index in the record
    round_number: int
    contract: str
    phase: Phase
    hand: tuple[Card, ...]     # the seat's hand before the move
    discard_top: Card | None   # the card a take or buy takes
    played: Action
    advice: Advice
    agreed: bool               # the seat played the coach's move (:func:`same_move`)


def review(record: GameRecord, seat: int, seed: int = 0, tries: int = 4) -> list[Decision]:
    """Replay ``record`` and ask the coach before every move of ``seat`` that was a choice (more
    than one legal action), from that seat's view only, with the hint button's ``seed``.

    Its players break exact ties at random: a discard that the expert scores as high as the coach's
    own (:meth:`shanghai.bots.expert.ExpertPlayer.discard_scores`) counts as the coach's move.
    Elsewhere, where the seat played otherwise, the coach is asked again with ``tries - 1`` other
    seeds: a move it also makes with one of them (another tie, or another sample of the hidden
    cards for its search) counts as its move, with that advice.

    ``RecordError`` for a record that does not replay, ``ValueError`` for a seat not at the table
    or a game the coach does not play (manipulation rummy).

    >>> from shanghai.bots.expert import ExpertPlayer
    >>> from shanghai.bots.match import play_game
    >>> from shanghai.rules import preset
    >>> game = play_game(preset("isra-junior"), 3, seed=4, seats=[ExpertPlayer(s) for s in range(3)])
    >>> decisions = review(GameRecord.of(game), seat=1)
    >>> len(decisions) > 0, all(d.played.seat == 1 for d in decisions)
    (True, True)
    """
    if isinstance(record.rules, ManipulationRules):
        raise ValueError("the coach plays the contract games, not manipulation rummy (its hint shows "
                         "which cards can be placed)")
    if tries < 1:
        raise ValueError(f"tries must be at least 1, not {tries}")
    if not 0 <= seat < len(record.players):
        raise ValueError(f"no seat {seat}: the record seats {len(record.players)} players (0-"
                         f"{len(record.players) - 1})")
    decisions: list[Decision] = []

    def before(game: AnyGame, index: int, action: AnyAction) -> None:
        if action.seat != seat or not isinstance(game, Game) or not isinstance(action, Action):
            return
        v = view(game, seat)
        if len(v.legal) < 2:
            return
        wilds = v.rules.wild_cards()
        tip = advise(v, seed)
        agreed = same_move(action, tip.action, wilds) or _tied_discards(v, action, tip)
        for other in range(seed + 1, seed + tries):
            if agreed:
                break
            also = advise(v, other)
            if same_move(action, also.action, wilds):
                tip, agreed = also, True
        decisions.append(Decision(index, v.round_number, v.contract, v.phase, v.hand, v.discard_top,
                                  action, tip, agreed))

    record.replay(before=before)
    return decisions


def _tied_discards(v: PlayerView, played: Action, advice: Advice) -> bool:
    """Are both discards among the expert's best, tied (the coach's choice among them is a coin
    flip)? Not where the coach's search left the expert's own choice (``advice.searched``)."""
    advised = advice.action
    if (advice.searched or not (isinstance(played, Discard) and isinstance(advised, Discard))
            or played.shanghai or advised.shanghai):
        return False
    scores = ExpertPlayer().discard_scores(v)
    if not scores or played.card not in scores or advised.card not in scores:
        return False
    best = max(scores.values())
    return math.isclose(scores[advised.card], best) and math.isclose(scores[played.card], best)


def move_words(action: Action, top: Card | None = None) -> str:
    """An action as a player would say it, without the seat, naming the discard a take, buy, pass
    or "Shanghai" call is about (``top``).

    >>> from shanghai.cards import parse_card
    >>> from shanghai.engine.actions import parse_action
    >>> move_words(parse_action("2 discard KS")), move_words(parse_action("2 pass"), parse_card("7H"))
    ('discard KS', 'pass on 7H')
    """
    words = str(action).split(" ", 1)[1]
    if top is not None:
        if isinstance(action, TakeDiscard | Buy | CallShanghai):
            words += f" {card_text(top)}"
        elif isinstance(action, Pass):
            words += f" on {card_text(top)}"
    return words


def hand_texts(cards: Sequence[Card]) -> list[str]:
    """A hand's cards in text, by suit and then rank, as a review shows them."""
    return [card_text(c) for c in sorted(cards, key=sort_key)]


def review_summary(decisions: Sequence[Decision], *, every: bool = False) -> dict[str, Any]:
    """A review as one JSON-ready object: how many decisions, how many as the coach (in all and by
    phase), and the moves where the seat played otherwise (``every``: every move), each with the
    round, the hand, both moves in words and the coach's reason."""
    by_phase: dict[str, dict[str, int]] = {}
    for d in decisions:
        tally = by_phase.setdefault(d.phase.value, {"agreed": 0, "decisions": 0})
        tally["agreed"] += d.agreed
        tally["decisions"] += 1
    moves = [{"index": d.index, "round": d.round_number, "contract": d.contract, "phase": d.phase.value,
              "hand": hand_texts(d.hand),
              "played": move_words(d.played, d.discard_top), "coach": move_words(d.advice.action, d.discard_top),
              "reason": d.advice.reason, "agreed": d.agreed}
             for d in decisions if every or not d.agreed]
    return {"decisions": len(decisions), "agreed": sum(d.agreed for d in decisions), "by_phase": by_phase,
            "moves": moves}
