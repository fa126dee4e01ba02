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
review shows both moves and the coach's reason (``shanghai coach FILE --review``). With
``deals``, it also weighs each such difference (:func:`move_cost`): both moves played out to the
end of the round on the same samples of the cards the seat could not see, so that the player sees
which differences cost points and which were close calls.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from shanghai.bots.expert import ExpertPlayer
from shanghai.bots.registry import strongest_player
from shanghai.bots.search import ViewMaker, mean_and_error
from shanghai.cards import JOKER, Card, card_text, sort_key
from shanghai.engine.actions import (
    Action,
    Buy,
    CallShanghai,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    Pass,
    ReplaceWild,
    TakeDiscard,
)
from shanghai.engine.determinize import InconsistentViewError, public_round, sample
from shanghai.engine.game import Game, Phase
from shanghai.engine.games import AnyAction, AnyGame
from shanghai.engine.record import GameRecord
from shanghai.engine.view import MeldView, PlayerView, view
from shanghai.rules import ManipulationRules
from shanghai.stats import t_quantile

REVIEW_DEALS = 16  # the interfaces' reviews weigh each difference over this many deals (seconds a game)
REVIEW_BUDGET = 800  # and a whole review over at most this many (50 differences at 16; about 25 s on one core)


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
class Cost:
    """What playing one move instead of the coach's cost a seat: its points at the end of the
    round after the played move minus after the coach's, over ``deals`` samples of the cards it
    could not see (positive: the played move cost points; negative: it did better than the
    coach's). ``margin`` is the half-width of the 95% interval: the standard error times Student's t
    quantile for ``deals - 1`` degrees of freedom (about 2 for many deals, 12.7 for two), so that a
    few deals are not taken for clear evidence.

    >>> Cost(12.0, 4.0, 16).words()
    'cost about 12 points this round (12 ± 9, over 16 deals of the cards you could not see)'
    >>> Cost(-3.0, 4.0, 16).words()
    'no clear difference: -3 ± 9 points this round, over 16 deals of the cards you could not see'
    >>> Cost(-1.2, 0.2, 16).words()
    "came out about 1 point better than the coach's move (-1.2 ± 0.4, over 16 deals of the cards you could not see)"
    >>> Cost(40.0, 5.0, 2).clear  # two deals: 40 ± 64
    False
    """

    points: float
    error: float  # the standard error of ``points``
    deals: int

    @property
    def margin(self) -> float:
        return t_quantile(0.975, max(1, self.deals - 1)) * self.error

    @property
    def clear(self) -> bool:
        """Is the difference clear: does its interval (``points`` ± ``margin``) leave out 0?"""
        return abs(self.points) > self.margin

    def words(self) -> str:
        """The cost in the player's words, with its margin and how it was found."""
        f = ".0f" if self.margin >= 1 else ".1f"  # a margin under a point in tenths, not "± 0"
        shown = f"{self.points:{f}}"
        spread = f"{shown.removeprefix('-') if float(shown) == 0 else shown} ± {self.margin:{f}}"  # not "-0"
        over = f"over {self.deals} deals of the cards you could not see"
        if not self.clear:
            return f"no clear difference: {spread} points this round, {over}"
        if self.points > 0:
            return f"cost {_about(self.points)} this round ({spread}, {over})"
        return f"came out {_about(-self.points)} better than the coach's move ({spread}, {over})"


def _about(points: float) -> str:
    """``points`` (above 0) in words: "about 12 points", "about 1 point", "under 1 point"."""
    n = round(points)
    return "under 1 point" if n == 0 else f"about {n} point{'' if n == 1 else 's'}"


def move_cost(v: PlayerView, played: Action, advised: Action, deals: int = 16, seed: int = 0) -> Cost | None:
    """What ``played`` cost the seat of ``v`` against ``advised``: both moves, on each of ``deals``
    samples of the cards the seat cannot see, followed by the expert player in every seat to the
    end of the round (the same sample and the same players' seeds for both: only the move differs).
    It sees what the view shows, as the coach does. None where the view cannot be sampled.

    >>> from shanghai.engine.game import Game
    >>> from shanghai.rules import preset
    >>> game = Game.new(preset("isra"), players=4, seed=1)
    >>> v = view(game, game.to_act()[0])
    >>> cost = move_cost(v, v.legal[0], v.legal[0], deals=2)
    >>> cost.points, cost.error, cost.deals
    (0.0, 0.0, 2)
    """
    if deals < 2:
        raise ValueError(f"a move is weighed over at least 2 deals, not {deals}")
    seat = v.seat
    if seat is None:
        raise ValueError("a spectator's view has no moves to weigh")
    try:
        pub = public_round(v)
    except InconsistentViewError:
        return None
    rng = random.Random(seed)
    diffs: list[float] = []
    for i in range(deals):
        game = sample(pub, rng)
        if i == 0:  # legal in one sample, legal in all: it depends on the seat's hand and the table only
            for move in (played, advised):  # (not ``v.legal``: it lists one arrangement of a go-down of many)
                if move.seat != seat or not game.is_legal(move):
                    raise ValueError(f"{move} is not a legal move of seat {seat} here")
        seeds = [rng.getrandbits(32) for _ in range(game.players)]
        after = [_round_points(game.copy(), move, seeds, seat) for move in (played, advised)]
        if after[0] is not None and after[1] is not None:
            diffs.append(after[0] - after[1])
    if len(diffs) < 2:
        return None
    mean, error = mean_and_error(diffs)
    return Cost(mean, error, len(diffs))


def _round_points(game: Game, move: Action, seeds: Sequence[int], seat: int, steps: int = 5000) -> float | None:
    """``seat``'s points at the end of the round after ``move``, every seat then played by the expert
    (None for a round that does not end within ``steps`` moves)."""
    round_index = game.round_index
    game.apply(move)
    players = [ExpertPlayer(s) for s in seeds]
    make_view = ViewMaker()
    for _ in range(steps):
        if game.is_over or game.round_index != round_index:
            return float(game.round_results[round_index].points[seat])
        s = game.to_act()[0]
        game.apply(players[s].choose(make_view(game, s)))
    return None


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
    table: tuple[MeldView, ...]  # the melds on the table then (a move's words name them by their cards)
    played: Action
    advice: Advice
    agreed: bool               # the seat played the coach's move (:func:`same_move`)
    cost: Cost | None = None   # where it did not and the review weighed it (:func:`move_cost`)


def review(record: GameRecord, seat: int, seed: int = 0, tries: int = 4, deals: int = 0,
           budget: int = REVIEW_BUDGET) -> list[Decision]:
    """Replay ``record`` and ask the coach before every move of ``seat`` that was a choice (more
    than one legal action), from that seat's view only, with the hint button's ``seed``.

    Its players break exact ties at random: a discard that the expert scores as high as the coach's
    own (:meth:`shanghai.bots.expert.ExpertPlayer.discard_scores`) counts as the coach's move.
    Elsewhere, where the seat played otherwise, the coach is asked again with ``tries - 1`` other
    seeds: a move it also makes with one of them (another tie, or another sample of the hidden
    cards for its search) counts as its move, with that advice.

    With ``deals`` (at least 2), each decision where the seat played otherwise is weighed by
    :func:`move_cost` over that many deals (each with a seed of its own, so the same review gives
    the same costs); 0 weighs nothing. ``budget`` caps the deals of the whole review (its time): a
    game with more differences than ``budget // deals`` weighs each over ``budget // differences``
    deals (at least 2).

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
    if deals == 1 or deals < 0:
        raise ValueError(f"deals is 0 (weigh nothing) or at least 2, not {deals}")
    if budget < 2:
        raise ValueError(f"budget is at least 2 deals, not {budget}")
    if not 0 <= seat < len(record.players):
        raise ValueError(f"no seat {seat}: the record seats {len(record.players)} players (0-"
                         f"{len(record.players) - 1})")
    decisions: list[Decision] = []
    differ: list[tuple[int, PlayerView]] = []  # the decisions to weigh: their place, the seat's view

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
        if not agreed:
            differ.append((len(decisions), v))
        decisions.append(Decision(index, v.round_number, v.contract, v.phase, v.hand, v.discard_top, v.table,
                                  action, tip, agreed))

    record.replay(before=before)
    if deals and differ:
        each = deals if len(differ) * deals <= budget else max(2, budget // len(differ))
        for i, v in differ:
            d = decisions[i]
            cost = move_cost(v, d.played, d.advice.action, each, seed * 1_000_003 + d.index)
            decisions[i] = dataclasses.replace(d, cost=cost)
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


def move_words(action: Action, top: Card | None = None, table: Sequence[MeldView] = ()) -> str:
    """An action as a player would say it, without the seat: naming the discard a take, buy, pass
    or "Shanghai" call is about (``top``), and a meld of the ``table`` by its cards (by its number
    where it is not there).

    >>> from shanghai.cards import parse_card
    >>> from shanghai.engine.actions import parse_action
    >>> move_words(parse_action("2 discard KS")), move_words(parse_action("2 pass"), parse_card("7H"))
    ('discard KS', 'pass on 7H')
    >>> run = MeldView(3, 1, "run", tuple(parse_card(c) for c in ("4H", "5H", "6H", "7H")), ())
    >>> move_words(parse_action("2 layoff JK m3 low"), table=[run])
    'lay off JK on the run 4H 5H 6H 7H, low end'
    >>> move_words(parse_action("2 down set 7H 7S 7D | run 4C 5C 6C 7C"))
    'go down now: set 7H 7S 7D + run 4C 5C 6C 7C'
    """
    melds = {m.id: m for m in table}

    def on(meld: int, end: str | None = None) -> str:
        m = melds.get(meld)
        return (f"the {m.kind} {m.text()}" if m is not None else f"meld {meld}") + (f", {end} end" if end else "")

    pile = f" {card_text(top)}" if top is not None else ""
    if isinstance(action, DrawStock):
        return "draw"
    if isinstance(action, TakeDiscard):
        return "take" + pile
    if isinstance(action, Buy):
        return "buy" + pile
    if isinstance(action, Pass):
        return "pass" + (f" on{pile}" if pile else "")
    if isinstance(action, GoDown):  # as the expert says it
        return "go down now: " + " + ".join(str(m) for m in action.melds)
    if isinstance(action, LayOff):
        return f"lay off {card_text(action.card)} on {on(action.meld, action.end)}"
    if isinstance(action, ReplaceWild):
        return f"replace the wild on {on(action.meld)} with {card_text(action.card)}"
    if isinstance(action, Discard):
        return f"discard {card_text(action.card)}" + (", protected from a “Shanghai” call" if action.shanghai else "")
    if isinstance(action, CallShanghai):
        return f"call “Shanghai”{' on' + pile if pile else ''}, the card going on {on(action.meld, action.end)}"
    return str(action).split(" ", 1)[1]  # the cut: "cut 12"


def with_reason(words: str, reason: str) -> str:
    """The advised move in ``words`` with its reason: the reason alone where it begins with the
    words; where it names the same kind of move in its own words before a colon, the words and what
    follows the colon.

    >>> with_reason("discard KS", "discard KS: high card that fits nothing")
    'discard KS: high card that fits nothing'
    >>> with_reason("lay off JK on the run 4H 5H 6H 7H, low end",
    ...             "lay off JK on meld 3 (run 4H 5H 6H 7H): never keep a wild")
    'lay off JK on the run 4H 5H 6H 7H, low end: never keep a wild'
    >>> with_reason("lay off 5C on the set 5H 5S 5D", "lay off 5C on meld 2")
    'lay off 5C on the set 5H 5S 5D'
    """
    if reason.startswith(words):
        return reason
    head, colon, rest = reason.partition(": ")
    if head.split(" ", 1)[0] == words.split(" ", 1)[0]:
        return f"{words}: {rest}" if colon else words
    return f"{words}: {reason}"


def hand_texts(cards: Sequence[Card]) -> list[str]:
    """A hand's cards in text, by suit and then rank, as a review shows them."""
    return [card_text(c) for c in sorted(cards, key=sort_key)]


def review_summary(decisions: Sequence[Decision], *, every: bool = False) -> dict[str, Any]:
    """A review as one JSON-ready object: how many decisions, how many as the coach (in all and by
    phase), and the moves where the seat played otherwise (``every``: every move), each with the
    round, the hand, both moves in words, the coach's reason (``advice``: its move and reason in one
    line, as :func:`with_reason` puts them) and, where the review weighed it, the
    cost (``points`` the played move minus the coach's, ``margin``, ``deals``, ``clear`` and
    ``words``). ``weighed`` sums the costs up: how many moves were weighed, how many clearly cost
    points and how many (``points``), how many clearly did better than the coach's, and ``words``
    saying so; None where nothing was weighed."""
    by_phase: dict[str, dict[str, int]] = {}
    for d in decisions:
        tally = by_phase.setdefault(d.phase.value, {"agreed": 0, "decisions": 0})
        tally["agreed"] += d.agreed
        tally["decisions"] += 1
    moves = [{"index": d.index, "round": d.round_number, "contract": d.contract, "phase": d.phase.value,
              "hand": hand_texts(d.hand),
              "played": move_words(d.played, d.discard_top, d.table), "coach": coach,
              "reason": d.advice.reason, "advice": with_reason(coach, d.advice.reason), "agreed": d.agreed,
              "cost": _cost_object(d.cost)}
             for d in decisions if every or not d.agreed
             for coach in [move_words(d.advice.action, d.discard_top, d.table)]]
    costs = [d.cost for d in decisions if d.cost is not None]
    costly = [c for c in costs if c.clear and c.points > 0]
    weighed: dict[str, Any] | None = None
    if costs:
        weighed = {"moves": len(costs), "deals": max(c.deals for c in costs), "costly": len(costly),
                   "points": round(sum(c.points for c in costly), 1),
                   "better": sum(c.clear and c.points < 0 for c in costs)}
        weighed["words"] = weighed_words(weighed)
    return {"decisions": len(decisions), "agreed": sum(d.agreed for d in decisions), "by_phase": by_phase,
            "moves": moves, "weighed": weighed}


def _cost_object(cost: Cost | None) -> dict[str, Any] | None:
    if cost is None:
        return None
    return {"points": round(cost.points, 1), "margin": round(cost.margin, 1), "deals": cost.deals,
            "clear": cost.clear, "words": cost.words()}


def weighed_words(w: dict[str, Any]) -> str:
    """What the weighed differences (``review_summary``'s ``weighed``) came to, in one sentence.

    >>> weighed_words({"moves": 1, "deals": 16, "costly": 1, "points": 8.7, "better": 0})
    'Weighed over 16 deals: the difference clearly cost about 9 points.'
    >>> weighed_words({"moves": 4, "deals": 16, "costly": 0, "points": 0, "better": 0})
    'Weighed over 16 deals each: none of the 4 differences clearly cost points; all were close calls.'
    """
    n, costly, better = w["moves"], w["costly"], w["better"]
    if n == 1:
        one = ("the difference clearly cost " + _about(w["points"]) if costly
               else "your move came out clearly better than the coach's" if better else "it was a close call")
        return f"Weighed over {w['deals']} deals: {one}."
    parts = [f"{costly} of the {n} differences clearly cost points, {_about(w['points'])} in all" if costly
             else f"none of the {n} differences clearly cost points"]
    if better:
        parts.append(f"in {better} your move came out clearly better than the coach's")
    if costly + better < n:
        parts.append("the rest were close calls" if costly + better else "all were close calls")
    return f"Weighed over {w['deals']} deals each: " + "; ".join(parts) + "."
