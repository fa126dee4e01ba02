"""Learn round 1 of ``isra`` from scratch against three ``random`` computer players (PyTorch, CPU).

A small masked actor-critic trained with PPO on ``shanghai.env.SingleAgentEnv`` restricted to round 1
(``rounds=(1,)``); the reward is minus the round's points / 100 at its end (the env's ``"points"``
reward), made dense during training by potential-based shaping (the potential is minus the points
of the natural cards in the learner's own hand / 100, read from its observation, and 0 once the round
is over), which leaves the best policy unchanged. The network also sees the hand's and the top
discard's counts per rank, computed from the observation. It evaluates the untrained policy, trains,
then evaluates again on the same seeds (never seen in training), and prints both with a `random`
computer player in the same seat as the reference::

    pip install -e '.[train]'      # or: pip install -e '.[env]' torch (the CPU build is enough)
    python examples/train_round1.py --minutes 12 --eval-games 300 --seed 1

A game here is one round; "wins" are rounds in which the learning seat has the fewest points (ties
count for every seat that shares them).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from shanghai.bots.registry import make_player
from shanghai.engine.view import view
from shanghai.env import SingleAgentEnv
from shanghai.env.encoding import KIND_CARDS

EVAL_SEED = 10_000_000  # evaluation deals are seeded from here, training deals from 0 up


class Policy(nn.Module):
    def __init__(self, n_obs: int, n_actions: int, ranks: np.ndarray, hidden: int = 256) -> None:
        super().__init__()
        self.register_buffer("ranks", torch.as_tensor(ranks))
        self.body = nn.Sequential(nn.Linear(n_obs + ranks.shape[1], hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)
        nn.init.zeros_(self.pi.weight)
        nn.init.zeros_(self.pi.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(torch.cat([obs, obs @ self.ranks], dim=-1))
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


@dataclass
class Result:
    games: int
    wins: float
    mean_points: float
    opponents_mean_points: float
    went_out: int

    def line(self) -> str:
        return (f"{self.games} games: wins {self.wins:.0f} ({100 * self.wins / self.games:.1f}%), "
                f"mean points {self.mean_points:.1f} (opponents {self.opponents_mean_points:.1f}), "
                f"went out {self.went_out}")


def make_env(players: int, opponents: str) -> SingleAgentEnv:
    return SingleAgentEnv(rules="isra", players=players, opponents=opponents, seat=0, rounds=(1,))


def evaluate(env: SingleAgentEnv, act: object, games: int) -> Result:
    """Play ``games`` rounds on the evaluation seeds; ``act`` is a Policy or "random"."""
    wins = 0.0
    points: list[int] = []
    others: list[float] = []
    went_out = 0
    for g in range(games):
        obs, _ = env.reset(seed=EVAL_SEED + g)
        me = make_player("random", EVAL_SEED + g) if act == "random" else None
        done = False
        info: dict[str, object] = {}
        while not done:
            if me is not None:
                obs, _, done, _, info = env.step_action(me.choose(view(env.aec.game, env.seat)))
                continue
            assert isinstance(act, Policy)
            with torch.no_grad():
                logits, _ = act(torch.as_tensor(obs["observation"])[None],
                                torch.as_tensor(obs["action_mask"], dtype=torch.bool)[None])
            obs, _, done, _, info = env.step(int(logits.argmax()))
        pts = info["round_points"][0]  # type: ignore[index]
        best = min(pts)
        wins += 1.0 if pts[0] == best else 0.0
        went_out += pts[0] == 0
        points.append(pts[0])
        others.append(float(np.mean(pts[1:])))
    return Result(games, wins, float(np.mean(points)), float(np.mean(others)), went_out)


def hand_points_weights(env: SingleAgentEnv) -> np.ndarray:
    """Points of each natural card kind (the observation's hand block counts cards by kind); wilds
    count 0 here, so that holding one is not punished before the round's end."""
    lo, hi = env.aec.observer.layout.offsets["hand"]
    weights = np.zeros(env.observation_space["observation"].shape, dtype=np.float32)  # type: ignore[index]
    rules = env.aec.rules
    weights[lo:hi] = [0.0 if rules.is_wild(c) else rules.points(c) / 100.0 for c in KIND_CARDS]
    return weights


def rank_features(env: SingleAgentEnv) -> np.ndarray:
    """A matrix adding, to the observation, the hand's and the top discard's counts per rank (sets
    are made of ranks; the observation counts cards by kind, suit included)."""
    size = env.observation_space["observation"].shape[0]  # type: ignore[index]
    offsets = env.aec.observer.layout.offsets
    m = np.zeros((size, 26), dtype=np.float32)
    for block, col in (("hand", 0), ("top", 13)):
        lo, _ = offsets[block]
        for k in range(52):
            m[lo + k, col + k % 13] = 1.0
    return m


POINT_WEIGHTS = np.zeros(0, dtype=np.float32)


def potential(observation: np.ndarray) -> float:
    return -float(observation @ POINT_WEIGHTS)


def train(env: SingleAgentEnv, policy: Policy, minutes: float, seed: int) -> dict[str, float]:
    torch.manual_seed(seed)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    episodes = steps = updates = 0
    recent: list[float] = []
    episodes_per_update, epochs, clip, gamma, lam = 8, 4, 0.2, 1.0, 0.95
    while time.perf_counter() - start < minutes * 60:
        obs_b, mask_b, act_b, logp_b, adv_b, ret_b = [], [], [], [], [], []
        for _ in range(episodes_per_update):
            obs, _ = env.reset(seed=seed * 1_000_000 + episodes)
            episodes += 1
            o_l, m_l, a_l, lp_l, v_l, r_l = [], [], [], [], [], []
            done = False
            true_return = 0.0
            while not done:
                o = torch.as_tensor(obs["observation"])
                m = torch.as_tensor(obs["action_mask"], dtype=torch.bool)
                with torch.no_grad():
                    logits, value = policy(o[None], m[None])
                    dist = torch.distributions.Categorical(logits=logits[0])
                    a = dist.sample()
                o_l.append(o)
                m_l.append(m)
                a_l.append(a)
                lp_l.append(dist.log_prob(a))
                v_l.append(float(value[0]))
                before = potential(obs["observation"])
                obs, reward, done, _, _ = env.step(int(a))
                after = 0.0 if done else potential(obs["observation"])
                r_l.append(float(reward) + after - before)
                true_return += float(reward)
            recent.append(true_return)
            # generalized advantage estimation over the episode
            adv = np.zeros(len(r_l), dtype=np.float32)
            last = 0.0
            for t in reversed(range(len(r_l))):
                nxt = v_l[t + 1] if t + 1 < len(r_l) else 0.0
                delta = r_l[t] + gamma * nxt - v_l[t]
                last = delta + gamma * lam * last
                adv[t] = last
            obs_b += o_l
            mask_b += m_l
            act_b += a_l
            logp_b += lp_l
            adv_b.append(adv)
            ret_b.append(adv + np.asarray(v_l, dtype=np.float32))
            steps += len(r_l)
        OBS, M = torch.stack(obs_b), torch.stack(mask_b)
        A, LP = torch.stack(act_b), torch.stack(logp_b)
        ADV = torch.as_tensor(np.concatenate(adv_b))
        RET = torch.as_tensor(np.concatenate(ret_b))
        ADV = (ADV - ADV.mean()) / (ADV.std() + 1e-8)
        n = len(A)
        for _ in range(epochs):
            for idx in np.array_split(rng.permutation(n), max(1, n // 256)):
                i = torch.as_tensor(idx)
                logits, value = policy(OBS[i], M[i])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = torch.exp(dist.log_prob(A[i]) - LP[i])
                pg = -torch.min(ratio * ADV[i], torch.clamp(ratio, 1 - clip, 1 + clip) * ADV[i]).mean()
                loss = pg + 0.5 * ((value - RET[i]) ** 2).mean() - 0.01 * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        updates += 1
        if updates % 4 == 0:
            elapsed = time.perf_counter() - start
            print(f"  {elapsed:6.0f} s  episodes {episodes:5d}  steps {steps:7d}  "
                  f"mean round reward (last 80) {np.mean(recent[-80:]):+.3f}", flush=True)
    return {"episodes": episodes, "steps": steps, "updates": updates,
            "seconds": round(time.perf_counter() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=12.0, help="training time (default 12)")
    parser.add_argument("--eval-games", type=int, default=300, help="rounds per evaluation (default 300)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="random", help="computer players at the other seats")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", default=None, help="save the trained policy's weights here")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    env = make_env(args.players, args.opponents)
    global POINT_WEIGHTS
    POINT_WEIGHTS = hand_points_weights(env)
    n_obs = env.observation_space["observation"].shape[0]  # type: ignore[index]
    policy = Policy(n_obs, int(env.action_space.n), rank_features(env))  # type: ignore[attr-defined]
    print(f"isra round 1, {args.players} players, seat 0 against {args.opponents}; "
          f"observation {n_obs}, actions {env.action_space.n}")  # type: ignore[attr-defined]
    t = time.perf_counter()
    print("reference, a `random` player in seat 0:", evaluate(env, "random", args.eval_games).line(), flush=True)
    print("untrained policy (argmax):             ", evaluate(env, policy, args.eval_games).line(), flush=True)
    print(f"(evaluations took {time.perf_counter() - t:.0f} s)", flush=True)
    stats = train(env, policy, args.minutes, args.seed)
    print(f"trained {stats['seconds']} s: {stats['episodes']} rounds, {stats['steps']} decisions, "
          f"{stats['updates']} updates")
    print("trained policy (argmax):               ", evaluate(env, policy, args.eval_games).line(), flush=True)
    if args.save:
        torch.save(policy.state_dict(), args.save)


if __name__ == "__main__":
    main()
