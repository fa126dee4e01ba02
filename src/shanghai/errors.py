"""Every error the library raises on purpose. All are ``ValueError`` subclasses except the gap marker."""

from __future__ import annotations


class ShanghaiError(ValueError):
    """Base class of the errors raised for bad input or illegal play."""


class UnknownCardError(ShanghaiError):
    """A text that names no card, e.g. ``"1X"``."""

    def __init__(self, text: str) -> None:
        super().__init__(f"unknown card {text!r}: expected a rank (A 2-9 10 T J Q K) and a suit "
                         f"(S H D C or ♠ ♥ ♦ ♣), or JK for a joker")
        self.text = text


class UnknownPresetError(ShanghaiError):
    """A rule-set name that is not one of the presets."""


class OtherGameError(ShanghaiError):
    """A contract-game function was given another game's preset (manipulation rummy)."""


class InconsistentRulesError(ShanghaiError):
    """A combination of rules that cannot be played together, or an unknown rule or option."""


class InvalidMeldError(ShanghaiError):
    """Cards that do not form a legal set or run under the rules in force."""


class IllegalActionError(ShanghaiError):
    """An action the rules do not allow in the current state; the state is left unchanged."""


class RecordError(ShanghaiError):
    """A game record that cannot be read or replayed; names the line or action index."""


class RuleNotImplementedError(NotImplementedError):
    """A rule from the documents that this program does not play yet: a visible gap, never a quiet default."""
