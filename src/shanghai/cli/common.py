"""Shared pieces of the command line: its error type, loading rules, reading cards."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Sequence

from shanghai.cards import Card, parse_cards
from shanghai.errors import RuleNotImplementedError
from shanghai.rules import AnyRules, ManipulationRules, Rules, game_rules

# Exit statuses of every command.
EXIT_OK = 0
EXIT_NO = 1        # a valid question answered "no" (invalid meld, unmet contract), or a record whose actions
#                    the rules refuse (a file that is no record at all is bad input)
EXIT_USAGE = 2     # bad input: unknown card, preset, option, round, player count, unreadable file


class CliError(Exception):
    """A problem to report on one line (``shanghai: <message>``) and exit with ``code``."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def stdout_gone() -> None:
    """After a ``BrokenPipeError``: the reader of standard output went away (``| head``). Point
    standard output at the null device, so that Python's flush at exit raises no second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def print_out(text: str) -> None:
    """Print ``text`` to standard output and flush it; when the reader has gone away (``| head``),
    stop quietly (:func:`stdout_gone`) instead of raising ``BrokenPipeError``."""
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        stdout_gone()


def split_options(options: Iterable[str] | None) -> list[str]:
    """``--option a --option b,c`` -> ``["a", "b", "c"]``."""
    out: list[str] = []
    for item in options or ():
        out.extend(o for o in item.replace(",", " ").split() if o)
    return out


def load_rules(name: str | None, options: Iterable[str] | None = ()) -> AnyRules:
    """The preset ``name`` with options, of either game; bad names and options raise
    ``ShanghaiError`` subclasses, and a preset that is not built yet raises ``CliError`` saying so."""
    if name is None:
        raise CliError("no rule set given: use --rules PRESET (see 'shanghai rules')")
    try:
        return game_rules(name, split_options(options))
    except RuleNotImplementedError as exc:
        raise CliError(f"the {name.strip().lower()!r} preset is not built yet ({exc})") from exc


def load_contract_rules(name: str | None, options: Iterable[str] | None = (), *, what: str) -> Rules:
    """Like :func:`load_rules`, for a command (``what``) that only the contract games have."""
    rules = load_rules(name, options)
    if isinstance(rules, ManipulationRules):
        raise CliError(f"{what} is a question of the contract games; {rules.name} is manipulation rummy "
                       f"(see 'shanghai judge table')")
    return rules


def read_cards(texts: str | Sequence[str]) -> list[Card]:
    """Cards from command-line words (each may hold several cards separated by spaces or commas)
    or from a JSON value (a list of card texts, or one text)."""
    if isinstance(texts, str):
        return parse_cards(texts)
    words: list[str] = []
    for t in texts:
        if not isinstance(t, str):
            raise CliError(f"a card must be given as text like \"10H\", not {t!r}")
        words.extend(t.replace(",", " ").split())
    return parse_cards(words)


_SEAT = re.compile(r"\bseat (\d+)(?:('s)|( is| has)\b)?")


def seat_words(text: str, names: Sequence[str], you: int | None = None) -> str:
    """The engine's reasons name seats by number ("seat 2"); a player reads names, and "you" for
    their own seat.

    >>> seat_words("cannot draw now: seat 0 is playing", ["Ann", "Bob"], 0)
    'cannot draw now: you are playing'
    >>> seat_words("seat 1 cannot draw: it is seat 0's turn", ["Ann", "Bob"], 0)
    'Bob cannot draw: it is your turn'
    >>> seat_words("seat 1 has already answered; there is no seat 7", ["Ann", "Bob"], 0)
    'Bob has already answered; there is no seat 7'
    """
    def word(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        if not 0 <= seat < len(names):
            return m.group(0)
        possessive, verb = m.group(2), m.group(3)
        if seat == you:
            return "your" if possessive else "you" + {" is": " are", " has": " have"}.get(verb or "", "")
        return names[seat] + (possessive or verb or "")

    return _SEAT.sub(word, text)
