"""Shanghai Rummy as a PettingZoo AEC environment (``shanghai_v0``), for any preset and player count.

>>> from shanghai.env import shanghai_v0
>>> e = shanghai_v0.env(rules="isra", players=4)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())  # the cut: 8 buckets
('player_2', (616,), 8)
>>> e.step(int(obs["action_mask"].nonzero()[0][0]))

The agent to move is always the first seat of ``game.to_act()``: during a buy window every seat
still to answer gets its own step, one after the other. See ``docs/env.md`` for the observation,
the action space and the rewards.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from shanghai.cards import card_text
from shanghai.engine.actions import Action
from shanghai.engine.game import Game, Phase
from shanghai.engine.view import view
from shanghai.env.encoding import ActionLayout, KnownCards, Observer
from shanghai.rules import preset
from shanghai.rules.model import Rules

RewardMode = Literal["points", "relative", "win"]
REWARD_MODES: tuple[str, ...] = ("points", "relative", "win")

ObsDict = dict[str, npt.NDArray[Any]]


def make_rules(rules: str | Rules = "isra", options: Iterable[str] = (),
               rounds: Iterable[int] | None = None) -> Rules:
    """The rules of an environment: a preset name (with options) or ``Rules``, restricted to the
    given round numbers (1-based, in the order given) when ``rounds`` is set."""
    r = preset(rules, tuple(options)) if isinstance(rules, str) else rules
    if rounds is not None:
        picked = tuple(rounds)
        if not picked:
            raise ValueError("rounds must name at least one round")
        r = r.changed(rounds=tuple(r.round(i) for i in picked))
    return r


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int | None]:
    """The environment wrapped as PettingZoo's classic environments are (order and bounds checks)."""
    e: Any = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e  # type: ignore[no-any-return, unused-ignore]


class raw_env(AECEnv[str, ObsDict, int | None]):  # type: ignore[misc]  # PettingZoo is untyped
    """Shanghai Rummy for ``players`` seats under ``rules`` (a preset name or ``Rules``).

    Arguments: ``options`` (preset options, e.g. ``("shanghai-call",)``), ``rounds`` (play only
    these round numbers, e.g. ``(1,)``), ``reward`` (``"points"``: minus the round's points /
    ``points_scale`` to each seat at each round's end; ``"relative"``: the others' mean round points
    less one's own, / ``points_scale``; ``"win"``: at the game's end +1 to each winner, -1 to the
    others), ``go_down_slots`` and ``cut_buckets`` (see ``ActionLayout``), ``render_mode``
    (``"human"`` or ``"ansi"``).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "shanghai_v0",
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, rules: str | Rules = "isra", players: int = 4, options: Iterable[str] = (),
                 rounds: Iterable[int] | None = None, reward: RewardMode = "points",
                 points_scale: float = 100.0, go_down_slots: int = 1, cut_buckets: int = 8,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        # settings that would leave a seat without any action, or rewards without a value
        if not points_scale > 0 or points_scale == float("inf"):
            raise ValueError(f"points_scale must be a positive number, not {points_scale!r}")
        for name, value in (("go_down_slots", go_down_slots), ("cut_buckets", cut_buckets)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
        self.rules = make_rules(rules, options, rounds)
        self.rules.pack_for(players)  # a player count the rules do not allow raises here
        self.players = players
        self.reward_mode = reward
        self.points_scale = points_scale
        self.render_mode = render_mode
        self.layout = ActionLayout(self.rules, players, go_down_slots, cut_buckets)
        self.observer = Observer(self.rules, players)
        self.known = KnownCards(players)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        n_obs = self.observer.layout.size
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-1000.0, 1000.0, (n_obs,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.size,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.layout.size) for a in self.possible_agents}
        self.game: Game = Game.new(self.rules, players, 0)
        self._seeds = np.random.default_rng()
        self._legal: dict[int, tuple[int, dict[int, Action]]] = {}

    # -- PettingZoo API ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = int(self._seeds.integers(2**31))
        self.game = Game.new(self.rules, self.players, game_seed)
        self.known.reset()
        self._legal.clear()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_act()[0]]

    def observe(self, agent: str) -> ObsDict:
        seat = self.agent_seat[agent]
        return {"observation": self.observer.observe(self.game, seat, self.known),
                "action_mask": self.action_mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_seat[agent]
        legal = self.legal_map(seat)
        if action is None or int(action) not in legal:
            raise ValueError(f"action {action} is not legal for {agent} now "
                             f"(legal: {sorted(legal)})")
        self._cumulative_rewards[agent] = 0.0
        points = self.apply(legal[int(action)])
        for a in self.agents:
            self.rewards[a] = float(points[self.agent_seat[a]])
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- engine access ----------------------------------------------------------------------------
    def apply(self, action: Action) -> npt.NDArray[np.float64]:
        """Apply any legal engine action (of the seat it names; the other seats' computer players
        use this too) and return each seat's reward for it. Selects the next agent."""
        game = self.game
        facts = self.known.before(game, action)
        rounds_before = len(game.round_results)
        game.apply(action)
        self.known.after(game, action, facts)
        self._legal.clear()
        rewards = np.zeros(self.players)
        for result in game.round_results[rounds_before:]:
            rewards += self._round_reward(result.points)
        if game.is_over:
            if self.reward_mode == "win":
                best = game.winners()
                rewards += [1.0 if s in best else -1.0 for s in range(self.players)]
            for a in self.agents:
                self.terminations[a] = True
            # dead agents step in seat order from the one after the mover
            self.agent_selection = self.possible_agents[(action.seat + 1) % self.players]
        else:
            self.agent_selection = self.possible_agents[game.to_act()[0]]
        return rewards

    def _round_reward(self, points: tuple[int, ...]) -> npt.NDArray[np.float64]:
        p = np.asarray(points, dtype=np.float64)
        if self.reward_mode == "points":
            return -p / self.points_scale
        if self.reward_mode == "relative":
            others: npt.NDArray[np.float64] = (p.sum() - p) / (self.players - 1)
            return (others - p) / self.points_scale
        return np.zeros(self.players)

    def legal_map(self, seat: int) -> dict[int, Action]:
        """Each index the mask allows for ``seat`` now, with the engine action it plays."""
        version = len(self.game.actions)
        hit = self._legal.get(seat)
        if hit is not None and hit[0] == version:
            return hit[1]
        legal = self.game.legal_list(seat) if not self.game.is_over else []
        mapping = self.layout.legal_map(seat, legal)
        self._legal[seat] = (version, mapping)
        return mapping

    def action_mask(self, seat: int) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.layout.size, dtype=np.int8)
        legal = self.legal_map(seat)
        if legal:
            mask[list(legal)] = 1
        return mask

    def describe(self, index: int) -> str:
        return self.layout.describe(index)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        v = view(self.game, None)
        lines = [f"round {v.round_number}/{v.rounds} {v.contract}  phase {v.phase.value}  "
                 f"to act {v.to_act}  totals {v.totals}"]
        for m in v.table:
            lines.append(f"  m{m.id} (seat {m.owner}) {m.kind} {m.text()}")
        lines.append(f"  hands {v.hand_counts}  down {v.down}  stock {v.stock_size}  "
                     f"discard {v.discard_size} top {'-' if v.discard_top is None else card_text(v.discard_top)}")
        text = "\n".join(lines)
        if self.render_mode == "human" and self.game.phase is not Phase.GAME_OVER:
            print(text)
        return text

    def close(self) -> None:
        pass
