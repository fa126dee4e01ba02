"""Rules as data: the Rules object, contracts and the named presets."""

from shanghai.rules.manipulation import MANIPULATION, ManipulationRules
from shanghai.rules.model import Contract, MeldRequirement, PackSpec, RoundSpec, Rules
from shanghai.rules.presets import OPTIONS, OTHER_GAMES, PRESETS, AnyRules, game_rules, preset

__all__ = ["MANIPULATION", "OPTIONS", "OTHER_GAMES", "PRESETS", "AnyRules", "Contract",
           "ManipulationRules", "MeldRequirement", "PackSpec", "RoundSpec", "Rules", "game_rules", "preset"]
