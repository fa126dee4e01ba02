"""The coach: a legal action with a one-line reason in every phase, and an error off turn."""

from __future__ import annotations

import dataclasses

import pytest

from helpers import new_game
from shanghai.bots.coach import Advice, advise
from shanghai.bots.expert import ExpertPlayer
from shanghai.bots.random_player import RandomPlayer
from shanghai.engine.actions import Discard
from shanghai.engine.game import Game, Phase
from shanghai.engine.view import view
from shanghai.rules import preset


def _advice_by_phase(game: Game, limit: int, follow: bool = True) -> dict[Phase, list[Advice]]:
    """Play ``game`` asking the coach at every decision; the seats follow the advice (or, with
    ``follow`` false, play at random, which opens more kinds of windows)."""
    seen: dict[Phase, list[Advice]] = {}
    players = [RandomPlayer(s) for s in range(game.players)]
    for _ in range(limit):
        if game.is_over:
            break
        seat = game.to_act()[0]
        v = view(game, seat)
        tip = advise(v, seed=seat)
        assert tip.action in v.legal, (tip, v.legal)
        assert tip.reason and "\n" not in tip.reason, tip
        seen.setdefault(v.phase, []).append(tip)
        game.apply(tip.action if follow else players[seat].choose(v))
    return seen


def test_every_phase_gets_legal_advice_with_a_reason() -> None:
    seen = _advice_by_phase(new_game("isra", 4, seed=2), 400)
    assert {Phase.CUT, Phase.DRAW, Phase.BUY, Phase.PLAY} <= set(seen)
    verbs = {str(t.action).split()[1] for tips in seen.values() for t in tips}
    assert {"cut", "draw", "discard", "down"} <= verbs


def test_shanghai_call_and_family_flow() -> None:
    shanghai = _advice_by_phase(Game.new(preset("may-i", ["shanghai-call"]), 4, 3), 150, False)
    assert Phase.SHANGHAI in shanghai
    family = _advice_by_phase(Game.new(preset("family-10"), 3, 4), 300)
    assert Phase.BUY in family


def test_advice_is_the_expert_choice_and_reproducible() -> None:
    game = new_game("isra-junior", 4, seed=6)
    players = [ExpertPlayer(s) for s in range(4)]
    for _ in range(60):
        seat = game.to_act()[0]
        game.apply(players[seat].choose(view(game, seat)))
    seat = game.to_act()[0]
    v = view(game, seat)
    assert advise(v, seed=3) == advise(v, seed=3)
    assert advise(v, seed=3).action == ExpertPlayer(3).choose(v)


def test_discard_advice_names_the_card() -> None:
    game = new_game("isra-junior", 4, seed=9)
    players = [ExpertPlayer(s) for s in range(4)]
    while True:
        seat = game.to_act()[0]
        v = view(game, seat)
        if v.phase == Phase.PLAY and all(isinstance(a, Discard) for a in v.legal):
            break
        game.apply(players[seat].choose(v))
    tip = advise(v)
    assert isinstance(tip.action, Discard)
    assert tip.reason.startswith("discard ") and str(tip.action).split()[2] in tip.reason


def test_no_advice_off_turn() -> None:
    game = new_game("isra", 4, seed=1)
    seat = game.to_act()[0]
    idle = (seat + 1) % 4
    with pytest.raises(ValueError, match="no legal action"):
        advise(view(game, idle))
    with pytest.raises(ValueError):
        advise(dataclasses.replace(view(game, seat), legal=()))
