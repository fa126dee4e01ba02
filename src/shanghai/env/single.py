"""A Gymnasium single-agent view of the game: one learning seat, computer players at the others.

>>> from shanghai.env import SingleAgentEnv
>>> e = SingleAgentEnv(rules="isra", players=4, opponents="random", rounds=(1,))
>>> obs, info = e.reset(seed=3)
>>> obs["observation"].shape == e.observation_space["observation"].shape
True
>>> import numpy as np
>>> obs, reward, terminated, truncated, info = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from shanghai.bots.player import Player
from shanghai.bots.registry import make_contract_player
from shanghai.engine.actions import Action
from shanghai.engine.view import view
from shanghai.env.shanghai_v0 import ObsDict, RewardMode, raw_env
from shanghai.rules.model import Rules


class SingleAgentEnv(gym.Env[ObsDict, int]):
    """The seat ``seat`` learns; every other seat is a computer player named in ``opponents`` (one
    name for all, or one per other seat in seat order), seeded from the reset's seed.

    Observations and actions are the AEC environment's (``raw_env``); ``step`` plays the learning
    seat's action and then the computer players until the learning seat must act again (its buy
    decisions included) or the game ends. The reward is the sum of the learning seat's rewards over
    that stretch. ``action_masks()`` gives the mask (as sb3-contrib's maskable algorithms want it).
    ``illegal`` says what an action the mask does not allow does: ``"random"`` (the default, which
    Gymnasium's checks need) plays a random legal action instead, ``"raise"`` raises ``ValueError``;
    either way ``info["illegal"]`` is set. Other arguments are ``raw_env``'s (``rounds=(1,)`` plays
    round 1 only).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's attribute

    def __init__(self, rules: str | Rules = "isra", players: int = 4,
                 opponents: str | Sequence[str] = "random", seat: int = 0, options: Iterable[str] = (),
                 rounds: Iterable[int] | None = None, reward: RewardMode = "points",
                 points_scale: float = 100.0, go_down_slots: int = 1, cut_buckets: int = 8,
                 illegal: Literal["random", "raise"] = "random", render_mode: str | None = None) -> None:
        super().__init__()
        if illegal not in ("random", "raise"):
            raise ValueError(f"illegal must be 'random' or 'raise', not {illegal!r}")
        self.illegal = illegal
        self.aec = raw_env(rules=rules, players=players, options=options, rounds=rounds, reward=reward,
                           points_scale=points_scale, go_down_slots=go_down_slots,
                           cut_buckets=cut_buckets, render_mode="ansi" if render_mode else None)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be in 0..{players - 1}, not {seat}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"{players - 1} opponents are needed, got {len(names)}")
        for name in names:
            make_contract_player(name, 0)  # an unknown name raises here
        self.opponent_names = names
        self.seat = seat
        self.players = players
        self.render_mode = render_mode
        self.agent = self.aec.possible_agents[seat]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._opponents: dict[int, Player] = {}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31)) if seed is None else seed
        self.aec.reset(seed=game_seed)
        others = [s for s in range(self.players) if s != self.seat]
        self._opponents = {s: make_contract_player(name, game_seed * 16 + s)
                           for s, name in zip(others, self.opponent_names, strict=True)}
        self._play_others()
        return self.aec.observe(self.agent), {}

    def step(self, action: int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        game = self.aec.game
        if game.is_over:
            raise RuntimeError("the game is over: call reset()")
        legal = self.aec.legal_map(self.seat)
        chosen = legal.get(int(action))
        info: dict[str, Any] = {}
        if chosen is None:
            if self.illegal == "raise":
                raise ValueError(f"action {action} ({self.aec.describe(int(action))}) is not legal now")
            info["illegal"] = True
            chosen = legal[sorted(legal)[int(self.np_random.integers(len(legal)))]]
        return self._advance(chosen, info)

    def step_action(self, action: Action) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """``step`` with an engine action of the learning seat (any legal one, such as a computer
        player's choice: a go-down the mask does not list, any cut target); an illegal one raises."""
        if action.seat != self.seat:
            raise ValueError(f"the learning seat is {self.seat}, not {action.seat}")
        if self.aec.game.is_over:
            raise RuntimeError("the game is over: call reset()")
        return self._advance(action, {})

    def _advance(self, action: Action, info: dict[str, Any]) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        game = self.aec.game
        reward = float(self.aec.apply(action)[self.seat])
        reward += self._play_others()
        if game.is_over:
            info |= {"totals": tuple(game.totals), "winners": game.winners(),
                    "round_points": tuple(r.points for r in game.round_results)}
        return self.aec.observe(self.agent), reward, game.is_over, False, info

    def _play_others(self) -> float:
        """Let the computer players act until the learning seat must act; its reward meanwhile."""
        game = self.aec.game
        reward = 0.0
        while not game.is_over:
            seat = game.to_act()[0]
            if seat == self.seat:
                break
            action = self._opponents[seat].choose(view(game, seat))
            reward += float(self.aec.apply(action)[self.seat])
        return reward

    def action_masks(self) -> npt.NDArray[np.bool_]:
        return self.aec.action_mask(self.seat).astype(bool)

    def render(self) -> str | None:
        return self.aec.render() if self.render_mode else None
