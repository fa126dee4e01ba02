"""Shanghai Rummy: an exact rules engine, a table judge and computer players.

>>> from shanghai import parse_card, card_text
>>> card_text(parse_card("th"))
'10H'
"""

from shanghai.cards import JOKER, Card, card_text, parse_card, parse_cards
from shanghai.errors import (
    IllegalActionError,
    InconsistentRulesError,
    InvalidMeldError,
    RecordError,
    RuleNotImplementedError,
    ShanghaiError,
    UnknownCardError,
    UnknownPresetError,
)

__all__ = [
    "JOKER",
    "Card",
    "IllegalActionError",
    "InconsistentRulesError",
    "InvalidMeldError",
    "RecordError",
    "RuleNotImplementedError",
    "ShanghaiError",
    "UnknownCardError",
    "UnknownPresetError",
    "card_text",
    "parse_card",
    "parse_cards",
]
__version__ = "0.1.0"
