"""Reinforcement-learning environments (``pip install 'shanghai[env]'``): PettingZoo and Gymnasium.

``shanghai_v0.env()`` / ``shanghai_v0.raw_env()`` are the multi-agent (AEC) environment, as
PettingZoo's classic environments have them; ``SingleAgentEnv`` is a Gymnasium environment with
computer players at the other seats. See ``docs/env.md``.
"""

from shanghai.env import shanghai_v0
from shanghai.env.encoding import ActionLayout, KnownCards, ObservationLayout, Observer
from shanghai.env.shanghai_v0 import env, make_rules, raw_env
from shanghai.env.single import SingleAgentEnv

__all__ = ["ActionLayout", "KnownCards", "ObservationLayout", "Observer", "SingleAgentEnv", "env",
           "make_rules", "raw_env", "shanghai_v0"]
