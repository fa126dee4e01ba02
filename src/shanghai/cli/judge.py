"""``shanghai judge``: the table judge. Is this a legal meld? Does this hand meet the contract?
What does this hand count? In manipulation rummy: what is the best play onto this table?

Each question has a pure function returning the JSON-ready answer:

>>> from shanghai.rules import preset
>>> from shanghai.cards import parse_cards
>>> judge_meld(parse_cards("5D 6D JK 8D"), preset("isra"))
{'valid': True, 'kind': 'run', 'reason': None}
>>> judge_score(parse_cards("JK AS KD 5C"), preset("isra"))
{'points': 85}
>>> from shanghai.table_solver import parse_table
>>> answer = judge_table(parse_table("7H 7S 7D | 4C 5C 6C"), parse_cards("7C 3C 8H"))
>>> answer["placed"], answer["left"], answer["table_text"]
(['3C', '7C'], ['8H'], '3C 4C 5C 6C 7C | 7S 7H 7D')
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from shanghai.cards import JOKER, Card, card_text
from shanghai.cli.common import EXIT_NO, EXIT_OK, EXIT_USAGE, CliError, load_rules, read_cards, split_options
from shanghai.errors import InvalidMeldError, ShanghaiError
from shanghai.melds import make_meld, run_arrangements
from shanghai.rules import AnyRules, ManipulationRules, Rules
from shanghai.solver import solve_contract
from shanghai.table_solver import Meld, best_play, check_meld, parse_table, table_text

Answer = dict[str, Any]


def judge_meld(cards: Sequence[Card], rules: AnyRules) -> Answer:
    """``{"valid", "kind", "reason"}`` for cards meant as one meld: a set in any order; a run of natural
    cards in any order; a run with wilds as laid (lowest first, each wild in the place it fills, or
    highest first), since where a wild stands is part of the meld. Where a run with wilds is not legal
    as laid but is in another order, the reason says so and ``arrangements`` lists those orders.

    >>> from shanghai.rules import preset
    >>> from shanghai.cards import parse_cards
    >>> judge_meld(parse_cards("8H 6H 5H 7H"), preset("isra"))
    {'valid': True, 'kind': 'run', 'reason': None}
    >>> answer = judge_meld(parse_cards("7H JK 5H 6H"), preset("isra"))
    >>> answer["valid"], answer["arrangements"]
    (False, ['JK 5H 6H 7H', '5H 6H 7H JK'])
    """
    try:
        if isinstance(rules, ManipulationRules):
            return {"valid": True, "kind": check_meld(cards), "reason": None}
        meld = make_meld(cards, rules)
    except InvalidMeldError as exc:
        if isinstance(rules, ManipulationRules):
            return {"valid": False, "kind": None, "reason": str(exc)}
        others = run_arrangements(cards, rules)
        if others and not any(rules.is_wild(c) for c in cards):
            return {"valid": True, "kind": "run", "reason": None}  # naturals have one place each
        if others:
            orders = [m.text() for m in others]
            return {"valid": False, "kind": None, "arrangements": orders,
                    "reason": f"{exc}; laid as {' or as '.join(orders)} it is a run"}
        return {"valid": False, "kind": None, "reason": str(exc)}
    return {"valid": True, "kind": meld.kind, "reason": None}


def judge_table(table: Sequence[Meld], hand: Sequence[Card]) -> Answer:
    """Manipulation rummy: the best play of ``hand`` onto ``table`` (the most cards, then the highest
    ranks), as ``{"placed", "left", "count", "table", "table_text"}``; the table may be rearranged."""
    play = best_play(table, hand)
    if play is None:
        raise CliError("the table's cards cannot be arranged into legal melds")
    left = list(hand)
    for c in play.placed:
        left.remove(c)
    order = sorted(play.placed, key=_leftover_key)
    return {"placed": [card_text(c) for c in order],
            "left": [card_text(c) for c in sorted(left, key=_leftover_key)],
            "count": len(order),
            "table": [[card_text(c) for c in meld] for meld in play.table],
            "table_text": table_text(play.table)}


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


def judge_score(cards: Sequence[Card], rules: AnyRules) -> Answer:
    """``{"points"}``: what the cards count when left in hand at the end of a round."""
    return {"points": sum(rules.points(c) for c in cards)}


def _status(kind: str, answer: Answer) -> int:
    if kind == "table":
        return EXIT_OK if answer["count"] else EXIT_NO
    if kind == "meld":
        return EXIT_OK if answer["valid"] else EXIT_NO
    if kind == "contract":
        return EXIT_OK if answer["satisfied"] else EXIT_NO
    return EXIT_OK


def check_pack(cards: Sequence[Card], rules: AnyRules) -> None:
    """Refuse more copies of a card than the rules' largest pack holds (``CliError``, exit 2), as the
    score pad does: such cards cannot be at a table.

    >>> from shanghai.rules import preset
    >>> from shanghai.cards import parse_cards
    >>> check_pack(parse_cards("5D 5D 5D"), preset("isra"))
    >>> check_pack(parse_cards("5D 5D 5D 5D"), preset("isra"))
    Traceback (most recent call last):
    ...
    shanghai.cli.common.CliError: 5D is given 4 times, but the isra pack holds at most 3 (3 decks)
    """
    decks = max(p.decks for p in rules.packs)
    jokers = max(p.jokers for p in rules.packs)
    for card, n in Counter(cards).items():
        if card == JOKER:
            if not jokers:
                raise CliError(f"JK: {rules.name} is played without jokers")
            if n > jokers:
                raise CliError(f"JK is given {n} times, but the {rules.name} pack holds at most {jokers} jokers")
        elif n > decks:
            raise CliError(f"{card_text(card)} is given {n} times, but the {rules.name} pack holds at most "
                           f"{decks} ({decks} deck{'s' if decks > 1 else ''})")


def _answer(kind: str, cards: list[Card], rules: AnyRules, round_number: int | None,
            table: Sequence[Meld] = ()) -> Answer:
    if kind == "table":
        if not isinstance(rules, ManipulationRules):
            raise CliError(f"judge table is a question of manipulation rummy (--rules manipulation), not "
                           f"of {rules.name}")
        if not cards:
            raise CliError("no hand given: --hand CARD ...")
        check_pack([*cards, *(c for meld in table for c in meld)], rules)
        return judge_table(table, cards)
    if not cards:
        raise CliError("no cards given")
    if kind == "meld":
        check_pack(cards, rules)
        return judge_meld(cards, rules)
    if kind == "contract":
        if isinstance(rules, ManipulationRules):
            raise CliError("manipulation rummy has no contracts: ask 'judge table' or 'judge meld'")
        if round_number is None:
            raise CliError("judge contract needs a round: --round N (or \"round\" on a batch line)")
        check_pack(cards, rules)
        return judge_contract(cards, rules, round_number)
    check_pack(cards, rules)
    return judge_score(cards, rules)


def _round_value(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CliError(f"round must be a whole number, not {json.dumps(value)}")  # in JSON's words
    return int(value)


def _batch(kind: str, args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    cache: dict[tuple[str, tuple[str, ...]], AnyRules] = {}

    def rules_for(name: str | None, options: list[str]) -> AnyRules:
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
            card_key = "hand" if kind == "table" else "cards"
            known = {card_key, "rules", "options", *(("round",) if kind == "contract" else ()),
                     *(("table",) if kind == "table" else ())}
            unknown = sorted(set(obj) - known)
            if unknown:
                raise CliError(f"unknown key {unknown[0]!r}: a line of 'judge {kind} --batch' has "
                               f"{', '.join(sorted(known))}")
            if card_key not in obj:
                raise CliError(f"the line has no \"{card_key}\"")
            if not isinstance(obj[card_key], str | list):
                raise CliError(f"\"{card_key}\" must be a list of card texts, not {json.dumps(obj[card_key])}")
            table: tuple[Meld, ...] = ()
            if kind == "table":
                if not isinstance(obj.get("table", ""), str):
                    raise CliError("\"table\" must be a text such as \"7H 7S 7D | 4C 5C 6C\"")
                table = parse_table(obj.get("table", ""))
            if "rules" in obj:
                if not isinstance(obj["rules"], str):
                    raise CliError(f"\"rules\" must be a preset name, not {json.dumps(obj['rules'])}")
                name: str | None = obj["rules"]
                options = obj.get("options", [])
            else:
                name, options = args.rules, obj.get("options", cli_options)
            if isinstance(options, str):
                options = [options]
            if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
                raise CliError(f"\"options\" must be a list of option names, not {json.dumps(options)}")
            rules = rules_for(name, split_options(options))
            round_number = _round_value(obj["round"]) if "round" in obj else getattr(args, "round", None)
            cards = read_cards(obj[card_key])
            result = _answer(kind, cards, rules, round_number, table)
        except (CliError, ShanghaiError, ValueError) as exc:
            message = exc.message if isinstance(exc, CliError) else str(exc)
            result = {"error": f"line {lineno}: {message}"}
            bad += 1
        stdout.write(json.dumps(result) + "\n")
        stdout.flush()
    return EXIT_USAGE if bad else EXIT_OK


def run_judge(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run ``shanghai judge meld|contract|score|table`` from parsed arguments."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    kind: str = args.question
    if kind == "table" and not args.batch:
        rules = load_rules(args.rules, args.option)
        answer = _answer(kind, read_cards(args.hand or []), rules, None, parse_table(args.table or ""))
        stdout.write(json.dumps(answer) + "\n")
        return _status(kind, answer)
    if args.batch:
        if getattr(args, "cards", None) or getattr(args, "hand", None):
            raise CliError("give cards either on the command line or with --batch on stdin, not both")
        if args.rules is not None:
            load_rules(args.rules, args.option)  # report a bad --rules once, before reading stdin
        return _batch(kind, args, stdin, stdout)
    rules = load_rules(args.rules, args.option)
    round_number: int | None = getattr(args, "round", None)
    if kind == "contract" and round_number is not None and not isinstance(rules, ManipulationRules):
        rules.round(round_number)  # a round out of range is bad input whatever the cards
    cards = read_cards(args.cards)
    answer = _answer(kind, cards, rules, round_number)
    stdout.write(json.dumps(answer) + "\n")
    return _status(kind, answer)


def add_judge_parser(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """The ``judge`` command and its four questions."""
    judge = sub.add_parser(
        "judge", help="the table judge, JSON out: 'judge meld' (is this a legal set or run?), 'judge "
                      "contract' (does this hand meet round N's contract?), 'judge score' (what do these "
                      "cards count?), 'judge table' (manipulation rummy: the best play onto a table)",
        description="The table judge: answers one question as one JSON object on stdout. "
                    "Cards are texts like 10H, TH, QS, 2C, AS, JK (joker); case does not matter. "
                    "With --batch, reads JSON lines {\"cards\": [...], \"round\": N, \"rules\": PRESET} "
                    "on stdin and writes one JSON answer per line.",
        epilog="Exit status: 0 yes (valid / satisfied / scored), 1 no, 2 bad input. With --batch the "
               "answers are in the lines: exit 0 when every line was read, 2 when one could not be.")
    questions = judge.add_subparsers(dest="question", metavar="QUESTION", required=True)
    specs = [
        ("meld", "is this one legal set or run?",
         "Prints {\"valid\": bool, \"kind\": \"set\"|\"run\"|null, \"reason\": str|null}. A set "
         "or a run of natural cards in any order; a run with wilds as laid, lowest card first with each "
         "wild in the place it fills (or highest first): where it is legal only in another order, the "
         "reason says so and \"arrangements\" lists the orders. Exit 0 valid, 1 not valid, 2 bad input."),
        ("contract", "does this hand meet a round's contract?",
         "Prints {\"satisfied\": bool, \"melds\": [[CARD, ...], ...], \"leftover\": [CARD, ...], "
         "\"leftover_points\": int}: the arrangement leaving the fewest points (runs lowest card first, "
         "wilds in place), or no melds and every card left over. Exit 0 satisfied, 1 not, 2 bad input."),
        ("score", "what do these cards count left in hand?",
         "Prints {\"points\": int}. Exit 0, or 2 on bad input."),
        ("table", "manipulation rummy: the best play of a hand onto a table",
         "Prints {\"placed\": [CARD, ...], \"left\": [CARD, ...], \"count\": int, \"table\": [[CARD, "
         "...], ...], \"table_text\": str}: the most cards the hand can place (then the highest ranks), "
         "rearranging the table's melds as the rules allow, and the table after. --batch lines are "
         "{\"table\": \"7H 7S 7D | 4C 5C 6C\", \"hand\": [\"7C\", ...]}. Exit 0 when a card can be "
         "placed, 1 when none, 2 on bad input."),
    ]
    for name, help_text, description in specs:
        p = questions.add_parser(name, help=help_text, description=description)
        common(p)
        if name == "contract":
            p.add_argument("--round", "-r", type=int, metavar="N",
                           help="the round (1-based) whose contract to check; required unless every "
                                "batch line gives \"round\"")
        p.add_argument("--batch", action="store_true",
                       help="read JSON lines on stdin instead of cards, answer each on a line of stdout "
                            "(the yes or no is in the answer); a bad line yields {\"error\": ...} and exit "
                            "status 2 at the end, otherwise 0")
        if name == "table":
            p.add_argument("--table", "-t", metavar="MELDS", default="",
                           help="the table's melds, separated by |, e.g. \"7H 7S 7D | 4C 5C 6C\" "
                                "(default: an empty table)")
            p.add_argument("--hand", nargs="+", metavar="CARD", help="the hand, e.g. 7C 3C 8H")
            continue
        p.add_argument("cards", nargs="*", metavar="CARD", help="cards such as 7H 7S JK")
