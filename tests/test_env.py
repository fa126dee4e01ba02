"""The reinforcement-learning environments (shanghai.env): PettingZoo and Gymnasium conformance,
the action mask against the engine's legal actions, hidden information and determinism."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from shanghai.engine import Cut, GoDown, LayOff, TakeDiscard
from shanghai.env import SingleAgentEnv, raw_env, shanghai_v0
from shanghai.env.encoding import KINDS, kind_of

# (preset, players, options): every preset, 3 to 6 players, the "Shanghai" call option
TABLES = [
    ("isra", 4, ()),
    ("isra", 6, ()),
    ("may-i", 3, ("shanghai-call",)),
    ("may-i-10", 5, ()),
    ("family-10", 4, ()),
    ("contract-10", 3, ()),
    ("isra-express", 5, ()),
]


def test_pettingzoo_api() -> None:
    api_test(shanghai_v0.env(rules="isra", players=4), num_cycles=300)
    api_test(shanghai_v0.env(rules="may-i", players=3, options=("shanghai-call",)), num_cycles=200)


def test_pettingzoo_api_whole_short_game() -> None:
    # a one-round game so that the game's end and the dead steps are exercised
    api_test(shanghai_v0.env(rules="isra", players=3, rounds=(1,)), num_cycles=5000)


def test_pettingzoo_seed() -> None:
    seed_test(lambda: shanghai_v0.env(rules="isra", players=4), num_cycles=300)


def test_gymnasium_check_env() -> None:
    check_env(SingleAgentEnv(rules="isra", players=4, opponents="random", rounds=(1,)), skip_render_check=True)


def _check_state(e: raw_env) -> None:
    """The mask of every seat that may act is exactly its legal engine actions."""
    game = e.game
    layout = e.layout
    for seat in game.to_act():
        legal = game.legal_list(seat)
        mapping = e.legal_map(seat)
        mask = e.action_mask(seat)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(mapping)
        if legal and isinstance(legal[0], Cut):
            assert len(mapping) == layout.cut_buckets
            for action in mapping.values():
                assert game.is_legal(action)
            continue
        # every allowed index plays a legal action (and is not shared), every legal one is reachable
        assert all(action in legal for action in mapping.values())
        downs = [a for a in legal if isinstance(a, GoDown)][:layout.go_down_slots]
        reachable = [a for a in legal if not isinstance(a, GoDown)] + downs
        assert len(mapping) == len(reachable)
        assert set(mapping.values()) == set(reachable)
        for index, action in mapping.items():
            assert layout.describe(index)
            if not isinstance(action, GoDown):
                assert layout.encode(action) == (index,)
    for seat in range(e.players):
        if seat not in game.to_act():
            assert not e.action_mask(seat).any()


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_mask_is_the_legal_actions(name: str, players: int, options: tuple[str, ...]) -> None:
    rng = random.Random(f"{name}{players}")
    e = raw_env(rules=name, players=players, options=options)
    steps = 0
    for game_no in range(2):
        e.reset(seed=game_no)
        while not e.game.is_over and steps < 700 * (game_no + 1):
            _check_state(e)
            seat = e.game.to_act()[0]
            mapping = e.legal_map(seat)
            # lean towards progress so that tables fill up and rounds end
            progress = [i for i, a in mapping.items() if isinstance(a, GoDown | LayOff | TakeDiscard)]
            index = rng.choice(progress if progress and rng.random() < 0.8 else list(mapping))
            agent = e.agent_selection
            assert agent == e.possible_agents[seat]
            e.step(index)
            steps += 1
    assert steps > 700


def test_one_cut_bucket_per_target_reaches_every_cut() -> None:
    # isra deals the first round with THE CUT: with a bucket per target, every Cut has its index
    pack = 162
    e = raw_env(rules="isra", players=4, cut_buckets=pack - 1)
    e.reset(seed=3)
    seat = e.game.to_act()[0]
    legal = e.game.legal_list(seat)
    assert legal and all(isinstance(a, Cut) for a in legal) and len(legal) == pack - 1
    assert set(e.legal_map(seat).values()) == set(legal)


def test_observation_hides_other_hands_and_the_stock() -> None:
    rng = random.Random(5)
    e = raw_env(rules="may-i", players=4)
    e.reset(seed=11)
    for _ in range(300):
        if e.game.is_over:
            break
        e.step(rng.choice(list(e.legal_map(e.game.to_act()[0]))))
    game = e.game
    seat = game.to_act()[0]
    before = e.observe(e.possible_agents[seat])
    # deal the hidden cards (other hands and the stock) again, keeping every size
    hidden = list(game.stock)
    for s in range(e.players):
        if s != seat:
            hidden += game.hands[s]
    rng.shuffle(hidden)
    game.stock = hidden[:len(game.stock)]
    rest = hidden[len(game.stock):]
    for s in range(e.players):
        if s != seat:
            size = len(game.hands[s])
            game.hands[s], rest = rest[:size], rest[size:]
    after = e.observe(e.possible_agents[seat])
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


def test_known_cards_are_never_more_than_a_seat_holds_even_after_shanghai_calls() -> None:
    """docs/env.md: ``known`` is the cards a seat "is known to hold". A "Shanghai" caller gives the
    discarder a card drawn blind (docs/rules.md decision 27): which of its known cards went is not
    known, so the caller's known cards are forgotten rather than kept wrongly."""
    e = raw_env(rules="may-i", players=5, options=("shanghai-call",))
    e.reset(seed=100)
    rng = random.Random(0)
    game = e.game
    calls = 0
    while not game.is_over:
        e.step(rng.choice(list(e.legal_map(game.to_act()[0]))))
        calls += str(game.actions[-1]).split()[1] == "shanghai"
        for s in range(5):
            held = Counter(kind_of(c) for c in game.hands[s])
            if game.pending_wild is not None and s == game.turn:
                held[kind_of(game.pending_wild)] += 1  # a freed wild waiting to be laid is still its own
            assert all(n <= held[k] for k, n in enumerate(e.known.counts[s])), (len(game.actions), s)
    assert calls  # the case in question came up


def test_known_cards_follow_pick_ups() -> None:
    e = raw_env(rules="may-i", players=4)
    e.reset(seed=2)
    game = e.game
    taker = game.turn
    top = game.discard_top
    assert top is not None
    e.step(e.layout.TAKE)
    lo, _ = e.observer.layout.offsets["known"]
    # the seat before the taker sees it as its "next" opponent (relative seat 1)
    watcher = (taker - 1) % e.players
    obs = e.observe(e.possible_agents[watcher])["observation"]
    assert obs[lo + kind_of(top)] == 1
    assert obs[lo:lo + KINDS].sum() == 1
    # the taker itself has it in its hand block
    own = e.observe(e.possible_agents[taker])["observation"]
    hlo, _ = e.observer.layout.offsets["hand"]
    assert own[hlo + kind_of(top)] >= 1


def _trajectory(seed: int) -> list[tuple[bytes, float]]:
    e = SingleAgentEnv(rules="isra", players=4, opponents=("greedy", "random", "easy"), rounds=(1, 2))
    obs, _ = e.reset(seed=seed)
    rng = np.random.default_rng(0)
    out = []
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, _, _ = e.step(action)
        out.append((obs["observation"].tobytes(), reward))
    return out


def test_single_agent_is_deterministic_with_seeds() -> None:
    assert _trajectory(4) == _trajectory(4)
    assert _trajectory(4) != _trajectory(5)


def test_points_rewards_add_up_to_the_totals() -> None:
    e = shanghai_v0.env(rules="isra", players=3, rounds=(1, 2))
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = e.unwrapped.game  # type: ignore[attr-defined]
    assert game.is_over and len(game.round_results) == 2
    for seat, agent in enumerate(e.possible_agents):
        assert total[agent] == pytest.approx(-game.totals[seat] / 100.0)


def test_single_agent_rounds_and_win_reward() -> None:
    e = SingleAgentEnv(rules="isra", players=4, opponents="greedy", seat=2, rounds=(1,), reward="win")
    e.reset(seed=8)
    done, reward, info = False, 0.0, {}
    while not done:
        _, reward, done, _, info = e.step(int(np.flatnonzero(e.action_masks())[0]))
    assert len(info["round_points"]) == 1
    assert reward == (1.0 if 2 in info["winners"] else -1.0)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="reward"):
        raw_env(reward="money")  # type: ignore[arg-type]
    # settings that would leave a seat with no action (an empty cut mask) or rewards without a value
    for bad, word in (({"cut_buckets": 0}, "cut_buckets"), ({"go_down_slots": 0}, "go_down_slots"),
                      ({"points_scale": 0}, "points_scale"), ({"points_scale": float("nan")}, "points_scale")):
        with pytest.raises(ValueError, match=word):
            raw_env(**bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cut_buckets"):
        SingleAgentEnv(cut_buckets=0)
    with pytest.raises(ValueError, match="opponents"):
        SingleAgentEnv(players=4, opponents=("random",))
    with pytest.raises(ValueError, match="unknown player"):
        SingleAgentEnv(players=3, opponents="nobody")
    e = raw_env(rules="isra", players=4)
    e.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        e.step(e.layout.DRAW)  # the cut comes first
    single = SingleAgentEnv(players=4, rounds=(1,), illegal="raise")
    single.reset(seed=1)
    mask = single.action_masks()
    with pytest.raises(ValueError, match="not legal"):
        single.step(int(np.flatnonzero(~mask)[0]))
    single = SingleAgentEnv(players=4, rounds=(1,))
    single.reset(seed=1)
    assert single.step(int(np.flatnonzero(~single.action_masks())[0]))[4]["illegal"]
