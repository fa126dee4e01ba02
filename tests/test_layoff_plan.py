"""Planning the turn's lay-offs once down (bots/layoff_plan.py, ExpertSettings.plan_layoffs).

000's pointer: "Best if you can use the swapped-out JOKER to set up a bridge to play other cards in
your hand". The order of lay-offs decides what goes: a wild on the end of one run or another, a
card on a set or on a run it extends. The checks below compare the expert's turns with an
exhaustive search over the true game (not the seat's view), so that the plan, built from a
determinization, is checked against the real position.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers import new_game, rig
from shanghai.bots import layoff_plan
from shanghai.bots.expert import ExpertPlayer, ExpertSettings
from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.layoff_plan import LayoffPlanner, best_layoff_plan
from shanghai.bots.match import seat_seed
from shanghai.engine.actions import Discard, LayOff, ReplaceWild
from shanghai.engine.game import Game, Phase
from shanghai.engine.view import view
from shanghai.rules import preset


def _fewest_points(game: Game, seat: int) -> int:
    """The fewest points ``seat`` can hold at the end of this play by lay-offs and wild replacements
    (0: out), by trying every order on the true game."""
    round0 = game.round_number
    memo: dict[tuple[object, ...], int] = {}

    def value(g: Game) -> int:
        if g.round_number != round0 or g.is_over:
            return 0
        key = (tuple(sorted(g.hands[seat])), tuple(tm.meld.cards for tm in g.table), g.pending_wild)
        if key not in memo:
            best = sum(g.rules.points(c) for c in g.hands[seat]) if g.pending_wild is None else 10**9
            for a in g.legal_list(seat):
                if isinstance(a, LayOff | ReplaceWild):
                    h = g.copy()
                    h.apply(a)
                    best = min(best, value(h))
            memo[key] = best
        return memo[key]

    return value(game)


def _stranded(settings: ExpertSettings, seeds: range) -> tuple[int, int]:
    """Over isra games of one expert (seat 0) against three greedy players: the expert's plays once
    down with something to lay off, and the points those plays left in hand (before the discard)
    beyond the fewest that some order of the same turn would have left."""
    rules = preset("isra")
    plays = stranded = 0
    for seed in seeds:
        game = Game.new(rules, 4, seed)
        bots = [ExpertPlayer(seat_seed(seed, 0), settings)] + [GreedyPlayer(seat_seed(seed, s)) for s in (1, 2, 3)]
        target: int | None = None
        while not game.is_over:
            seat = game.to_act()[0]
            if (seat == 0 and target is None and game.phase == Phase.PLAY and game.down[0]
                    and any(isinstance(a, LayOff | ReplaceWild) for a in game.legal_list(0))):
                target = _fewest_points(game, 0)
            action = bots[seat].choose(view(game, seat))
            round0 = game.round_number
            held_before = sum(rules.points(c) for c in game.hands[seat])
            game.apply(action)
            if target is not None and seat == 0:
                if game.round_number != round0 or game.is_over:
                    left = 0
                elif isinstance(action, Discard):
                    left = held_before
                else:
                    continue
                plays += 1
                stranded += max(0, left - target)
                target = None
    return plays, stranded


def test_the_expert_lays_off_in_the_order_that_sheds_the_most() -> None:
    """Every play of the expert once down leaves no more points than the best order of that turn's
    lay-offs would; without the plan (its rule of thumb alone) the same games strand points, so
    the check can fail."""
    seeds = range(9000, 9014)
    plays, stranded = _stranded(ExpertSettings(), seeds)
    assert plays > 100
    assert stranded == 0
    _, before = _stranded(replace(ExpertSettings(), plan_layoffs=False), seeds)
    assert before > 0


def test_nothing_to_plan_before_going_down_or_without_a_history() -> None:
    game = Game.new(preset("isra"), 4, seed=3)
    assert best_layoff_plan(view(game, 0)) is None            # the cut: nobody is down
    # a rigged position has no history that explains its table: no game fits the view, no plan
    rigged = rig(new_game("isra"), hands={0: "6D 9D JD 3C 4S"}, table=[(1, "5D JK 7D 8D")],
                 down=[0, 1], turn=0)
    assert best_layoff_plan(view(rigged, 0)) is None
    # ... and the expert then plays by its own rule, legally
    v = view(rigged, 0)
    assert ExpertPlayer(1).choose(v) in v.legal


@pytest.mark.parametrize("max_positions", [layoff_plan.MAX_POSITIONS, 20])
def test_a_planner_kept_through_the_turn_plans_as_a_fresh_one(max_positions: int,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert keeps one ``LayoffPlanner``: its copy of the game and its positions carried from
    one lay-off of a turn to the next give the plans that replaying each view afresh gives; also
    where most searches are cut short (20 positions), whose values must not be kept."""
    monkeypatch.setattr(layoff_plan, "MAX_POSITIONS", max_positions)
    rules = preset("isra")
    plans = replays = inexact = 0
    for seed in range(9100, 9104):
        game = Game.new(rules, 4, seed)
        bots = [ExpertPlayer(seat_seed(seed, s)) for s in range(4)]
        planners = [LayoffPlanner() for _ in range(4)]
        while not game.is_over:
            seat = game.to_act()[0]
            v = view(game, seat)
            if v.phase == Phase.PLAY:
                kept = planners[seat].plan(v)
                assert kept == best_layoff_plan(v)
                plans += kept is not None
                inexact += kept is not None and not kept.exact
            game.apply(bots[seat].choose(v))
        replays += sum(p.replays for p in planners)
    assert plans > 50 and replays < plans * 2 // 3  # the kept game was played on, not only replayed
    if max_positions == 20:
        assert inexact > 20  # the cut searches were met


def test_a_plan_cut_short_never_overrides_the_rules_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search cut at ``MAX_POSITIONS`` gives bounds, not values (a position with a wild still to
    play counts as never ending): the expert keeps its own rule's move then. With no positions at
    all every plan is cut, and the expert plays exactly as with ``plan_layoffs`` off."""
    monkeypatch.setattr(layoff_plan, "MAX_POSITIONS", 0)
    rules = preset("isra")
    off = replace(ExpertSettings(), plan_layoffs=False)
    cut = 0
    for seed in (9200, 9201):
        games = [Game.new(rules, 4, seed) for _ in range(2)]
        bots = [[ExpertPlayer(seat_seed(seed, s)) for s in range(4)],
                [ExpertPlayer(seat_seed(seed, s), settings=off) for s in range(4)]]
        while not games[0].is_over:
            seat = games[0].to_act()[0]
            v = view(games[0], seat)
            plan = best_layoff_plan(v)
            assert plan is None or not plan.exact
            cut += plan is not None
            moves = [bots[k][seat].choose(view(games[k], seat)) for k in range(2)]
            assert moves[0] == moves[1]
            for k in range(2):
                games[k].apply(moves[k])
        assert games[0].actions == games[1].actions
    assert cut > 20  # plans were asked for, and every one was cut
