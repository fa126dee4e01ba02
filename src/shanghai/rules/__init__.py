"""Rules as data: the Rules object, contracts and the named presets."""

from shanghai.rules.model import Contract, MeldRequirement, PackSpec, RoundSpec, Rules
from shanghai.rules.presets import OPTIONS, PRESETS, preset

__all__ = ["OPTIONS", "PRESETS", "Contract", "MeldRequirement", "PackSpec", "RoundSpec", "Rules",
           "preset"]
