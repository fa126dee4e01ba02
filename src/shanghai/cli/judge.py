"""``shanghai judge``: the table judge. Is this a legal meld? Does this hand meet the contract?
What does this hand count?

Each question has a pure function returning the JSON-ready answer:

>>> from shanghai.rules import preset
>>> from shanghai.cards import parse_cards
>>> judge_meld(parse_cards("5D 6D JK 8D"), preset("isra"))
{'valid': True, 'kind': 'run', 'reason': None}
>>> judge_score(parse_cards("JK AS KD 5C"), preset("isra"))
{'points': 85}
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from shanghai.cards import JOKER, Card, card_text
from shanghai.cli.common import EXIT_NO, EXIT_OK, EXIT_USAGE, CliError, load_rules, read_cards, split_options
from shanghai.errors import InvalidMeldError, ShanghaiError
from shanghai.melds import make_meld
from shanghai.rules import Rules
from shanghai.solver import solve_contract

Answer = dict[str, Any]


def judge_meld(cards: Sequence[Card], rules: Rules) -> Answer:
    """``{"valid", "kind", "reason"}`` for cards meant as one meld (a run lowest first, wilds in place;
    a descending run is read backwards; a set in any order)."""
    try:
        meld = make_meld(cards, rules)
    except InvalidMeldError as exc:
        return {"valid": False, "kind": None, "reason": str(exc)}
    return {"valid": True, "kind": meld.kind, "reason": None}


def _leftover_key(card: Card) -> tuple[bool, int, int]:
    return (card == JOKER, card & 15, card >> 4)


def judge_contract(cards: Sequence[Card], rules: Rules, round_number: int) -> Answer:
    """``{"satisfied", "melds", "leftover", "leftover_points"}``: the solver's arrangement leaving the
    fewest points, or no melds and every card left over."""
    contract = rules.contract(round_number)
    best = solve_contract(list(cards), contract, rules)
    if best is None:
        left = sorted(cards, key=_leftover_key)
        return {"satisfied": False, "melds": [], "leftover": [card_text(c) for c in left],
                "leftover_points": sum(rules.points(c) for c in left)}
    return {"satisfied": True, **best.to_json()}


def judge_score(cards: Sequence[Card], rules: Rules) -> Answer:
    """``{"points"}``: what the cards count when left in hand at the end of a round."""
    return {"points": sum(rules.points(c) for c in cards)}


def _status(kind: str, answer: Answer) -> int:
    if kind == "meld":
        return EXIT_OK if answer["valid"] else EXIT_NO
    if kind == "contract":
        return EXIT_OK if answer["satisfied"] else EXIT_NO
    return EXIT_OK


def _answer(kind: str, cards: list[Card], rules: Rules, round_number: int | None) -> Answer:
    if not cards:
        raise CliError("no cards given")
    if kind == "meld":
        return judge_meld(cards, rules)
    if kind == "contract":
        if round_number is None:
            raise CliError("judge contract needs a round: --round N (or \"round\" on a batch line)")
        return judge_contract(cards, rules, round_number)
    return judge_score(cards, rules)


def _round_value(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CliError(f"round must be a whole number, not {value!r}")
    return int(value)


def _batch(kind: str, args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    cache: dict[tuple[str, tuple[str, ...]], Rules] = {}

    def rules_for(name: str | None, options: list[str]) -> Rules:
        key = (name or "", tuple(options))
        if key not in cache:
            cache[key] = load_rules(name, options)
        return cache[key]

    cli_options = split_options(args.option)
    bad = 0
    for lineno, raw in enumerate(stdin, 1):
        line = raw.strip()
        if not line:
            continue
        result: Answer
        try:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CliError(f"not JSON ({exc.msg})") from exc
            if not isinstance(obj, dict):
                raise CliError("expected a JSON object such as {\"cards\": [\"7H\", \"7S\", \"JK\"]}")
            if "cards" not in obj:
                raise CliError("the line has no \"cards\"")
            if not isinstance(obj["cards"], str | list):
                raise CliError(f"\"cards\" must be a list of card texts, not {obj['cards']!r}")
            if "rules" in obj:
                if not isinstance(obj["rules"], str):
                    raise CliError(f"\"rules\" must be a preset name, not {obj['rules']!r}")
                name: str | None = obj["rules"]
                options = obj.get("options", [])
            else:
                name, options = args.rules, obj.get("options", cli_options)
            if isinstance(options, str):
                options = [options]
            if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
                raise CliError(f"\"options\" must be a list of option names, not {options!r}")
            rules = rules_for(name, split_options(options))
            round_number = _round_value(obj["round"]) if "round" in obj else getattr(args, "round", None)
            cards = read_cards(obj["cards"])
            result = _answer(kind, cards, rules, round_number)
        except (CliError, ShanghaiError, ValueError) as exc:
            message = exc.message if isinstance(exc, CliError) else str(exc)
            result = {"error": f"line {lineno}: {message}"}
            bad += 1
        stdout.write(json.dumps(result) + "\n")
        stdout.flush()
    return EXIT_USAGE if bad else EXIT_OK


def run_judge(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run ``shanghai judge meld|contract|score`` from parsed arguments."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    kind: str = args.question
    if args.batch:
        if args.cards:
            raise CliError("give cards either on the command line or with --batch on stdin, not both")
        if args.rules is not None:
            load_rules(args.rules, args.option)  # report a bad --rules once, before reading stdin
        return _batch(kind, args, stdin, stdout)
    rules = load_rules(args.rules, args.option)
    round_number: int | None = getattr(args, "round", None)
    if kind == "contract" and round_number is not None:
        rules.round(round_number)  # a round out of range is bad input whatever the cards
    cards = read_cards(args.cards)
    answer = _answer(kind, cards, rules, round_number)
    stdout.write(json.dumps(answer) + "\n")
    return _status(kind, answer)


def add_judge_parser(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """The ``judge`` command and its three questions."""
    judge = sub.add_parser(
        "judge", help="the table judge, JSON out: 'judge meld' (is this a legal set or run?), 'judge "
                      "contract' (does this hand meet round N's contract?), 'judge score' (what do these "
                      "cards count?)",
        description="The table judge: answers one question as one JSON object on stdout. "
                    "Cards are texts like 10H, TH, QS, 2C, AS, JK (joker); case does not matter. "
                    "With --batch, reads JSON lines {\"cards\": [...], \"round\": N, \"rules\": PRESET} "
                    "on stdin and writes one JSON answer per line.",
        epilog="Exit status: 0 yes (valid / satisfied / scored), 1 no, 2 bad input.")
    questions = judge.add_subparsers(dest="question", metavar="QUESTION", required=True)
    specs = [
        ("meld", "is this one legal set or run?",
         "Prints {\"valid\": bool, \"kind\": \"set\"|\"run\"|null, \"reason\": str|null}. Give a run "
         "lowest card first with each wild in the place it fills (a descending run is read backwards); "
         "a set in any order. Exit 0 valid, 1 not valid, 2 bad input."),
        ("contract", "does this hand meet a round's contract?",
         "Prints {\"satisfied\": bool, \"melds\": [[CARD, ...], ...], \"leftover\": [CARD, ...], "
         "\"leftover_points\": int}: the arrangement leaving the fewest points (runs lowest card first, "
         "wilds in place), or no melds and every card left over. Exit 0 satisfied, 1 not, 2 bad input."),
        ("score", "what do these cards count left in hand?",
         "Prints {\"points\": int}. Exit 0, or 2 on bad input."),
    ]
    for name, help_text, description in specs:
        p = questions.add_parser(name, help=help_text, description=description)
        common(p)
        if name == "contract":
            p.add_argument("--round", "-r", type=int, metavar="N",
                           help="the round (1-based) whose contract to check; required unless every "
                                "batch line gives \"round\"")
        p.add_argument("--batch", action="store_true",
                       help="read JSON lines on stdin instead of cards; a bad line yields "
                            "{\"error\": ...} and exit status 2 at the end")
        p.add_argument("cards", nargs="*", metavar="CARD", help="cards such as 7H 7S JK")
