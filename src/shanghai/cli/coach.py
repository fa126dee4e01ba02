"""``shanghai coach``: the coach's advice from the command line, now or over a whole game.

``shanghai coach [FILE]`` replays a game record (by default the terminal game's last game) and
says what the coach would do for the seat or seats to act at its end: the hint button, for a game
in progress. ``--review`` goes through the game and shows every decision of one seat where it
played otherwise than the coach would have advised, with the coach's reason, and how often it
played as the coach. The coach decides from that seat's view only, as the hint did in the game.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from shanghai.bots.coach import (
    REVIEW_BUDGET,
    REVIEW_DEALS,
    advise,
    hand_texts,
    move_words,
    review,
    review_summary,
    with_reason,
)
from shanghai.cards import card_text
from shanghai.cli.common import EXIT_NO, EXIT_OK, CliError
from shanghai.cli.play import default_record_path, people_seats
from shanghai.cli.replay import load_record
from shanghai.engine.game import Game, Phase
from shanghai.engine.record import GameRecord
from shanghai.engine.view import view
from shanghai.errors import RecordError
from shanghai.rules import ManipulationRules

# What is decided in each phase, in the order a turn meets them.
PHASE_WORDS = {Phase.CUT: "the cut", Phase.DRAW: "take or draw", Phase.BUY: "buy or pass",
               Phase.PLAY: "go down, lay off, discard", Phase.SHANGHAI: "“Shanghai” calls"}

NOT_MANIPULATION = ("the coach plays the contract games, not manipulation rummy (in that game the hint, "
                    "H, shows which cards can be placed)")


def seat_of(text: str, names: Sequence[str]) -> int:
    """A seat from its name (exactly, else in any case where that names one seat) or its number
    from 0, as the record numbers them."""
    wanted = text.strip()
    for exact in (True, False):
        found = [i for i, name in enumerate(names)
                 if (name == wanted if exact else name.lower() == wanted.lower())]
        if len(found) == 1:
            return found[0]
        if found:
            raise CliError(f"{text!r} names {len(found)} seats: give its number ({seat_list(names)})")
    if wanted.isdigit() and int(wanted) < len(names):
        return int(wanted)
    raise CliError(f"no seat {text!r} at this table: {seat_list(names)}")


def seat_list(names: Sequence[str]) -> str:
    return "seats " + ", ".join(f"{i} {n}" for i, n in enumerate(names))


def person_seat(path: Path, names: Sequence[str]) -> int | None:
    """The one seat a person took, from the seats file the terminal game writes beside its record."""
    people = people_seats(path, len(names))
    return people[0] if people is not None and len(people) == 1 else None


def _replayed(record: GameRecord, path: str) -> Game:
    try:
        game = record.replay()
    except RecordError as exc:
        raise CliError(f"{path}: {exc}", code=EXIT_NO) from exc
    if not isinstance(game, Game):  # pragma: no cover - manipulation records are refused before
        raise CliError(NOT_MANIPULATION)
    return game


def advice_now(record: GameRecord, path: str, seat: int | None) -> dict[str, Any]:
    """The coach's advice for the seat(s) to act at the end of the record, as one JSON-ready object.
    Without ``seat``: every seat to act, or where the terminal game's seats file names the people,
    the people among them (a person's hand is not shown for another's question)."""
    game = _replayed(record, path)
    names = record.players
    if game.is_over:
        raise CliError(f"the game in {path} is over: nothing to advise now (--review goes through a "
                       f"seat's play)")
    to_act = list(game.to_act())
    waiting = ", ".join(names[s] for s in to_act)
    if seat is not None:
        if seat not in to_act:
            raise CliError(f"{names[seat]} has nothing to do now: {waiting} to act")
        to_act = [seat]
    else:
        people = people_seats(Path(path), len(names))
        if people is not None:
            asked = [s for s in to_act if s in people]
            if not asked:
                raise CliError(f"no person at this table has anything to do now: {waiting} to act")
            if len(asked) > 1:
                raise CliError(f"{', '.join(names[s] for s in asked)} may act now: name one with --seat")
            to_act = asked
    out = []
    views = [view(game, s) for s in to_act]
    for s, v in zip(to_act, views, strict=True):
        tip = advise(v, seed=0)
        move = move_words(tip.action, v.discard_top, v.table)
        out.append({"seat": s, "name": names[s], "hand": hand_texts(v.hand),
                    "discard": card_text(v.discard_top) if v.discard_top is not None else None,
                    "action": str(tip.action), "move": move, "reason": tip.reason,
                    "advice": with_reason(move, tip.reason)})
    first = views[0]
    return {"file": path, "rules": record.rules.name, "round": first.round_number, "rounds": first.rounds,
            "contract": first.contract, "advice": out}


def review_object(record: GameRecord, path: str, seat: int, *, every: bool = False,
                  deals: int = REVIEW_DEALS) -> dict[str, Any]:
    """The review of ``seat``'s play as one JSON-ready object (``every``: list agreed decisions too;
    ``deals``: weigh each difference over that many deals, 0 for none)."""
    try:
        decisions = review(record, seat, deals=deals)
    except RecordError as exc:
        raise CliError(f"{path}: {exc}", code=EXIT_NO) from exc
    return {"file": path, "rules": record.rules.name, "seat": seat, "name": record.players[seat],
            **review_summary(decisions, every=every)}


def review_text(obj: dict[str, Any]) -> list[str]:
    """The review in lines: each listed move under its round, then how often the seat played as the coach."""
    name = obj["name"]
    lines = [f"{obj['file']}: {obj['rules']}; the coach reviews {name} (seat {obj['seat']})"]
    last_round = None
    for m in obj["moves"]:
        if m["round"] != last_round:
            last_round = m["round"]
            lines.append(f"Round {m['round']} ({m['contract']})")
        phase = PHASE_WORDS[Phase(m["phase"])]
        mark = "as the coach" if m["agreed"] else "the coach differs"
        lines.append(f"  action {m['index']}, {phase} ({mark}); {_hand_words(m['hand'])}")
        lines.append(f"    {name}: {m['played']}")
        lines.append(f"    coach: {m['advice']}")
        if m["cost"] is not None:
            lines.append(f"    weighed: {m['cost']['words']}")
    n, agreed = obj["decisions"], obj["agreed"]
    if not n:
        lines.append(f"{name} made no choice in this record (no move, or only forced ones).")
        return lines
    lines.append(f"{name} played as the coach would in {agreed} of {n} decisions ({100 * agreed / n:.0f}%)"
                 + ("." if agreed == n else f"; {n - agreed} differ{'s' if n - agreed == 1 else ''}."))
    parts = [f"{PHASE_WORDS[Phase(k)]} {v['agreed']} of {v['decisions']}"
             for k, v in sorted(obj["by_phase"].items(), key=lambda kv: list(PHASE_WORDS).index(Phase(kv[0])))]
    lines.append("  " + "; ".join(parts))
    if obj["weighed"] is not None:
        lines.append(obj["weighed"]["words"])
    return lines


def _hand_words(hand: Sequence[str]) -> str:
    return f"hand {' '.join(hand)}" if hand else "before the deal"


def now_text(obj: dict[str, Any]) -> list[str]:
    lines = []
    for a in obj["advice"]:
        lines.append(f"{obj['file']}: {obj['rules']}, round {obj['round']} of {obj['rounds']} ({obj['contract']}), "
                     f"{a['name']} (seat {a['seat']}) to act; {_hand_words(a['hand'])}"
                     + (f"; top of the pile {a['discard']}" if a["discard"] else ""))
        lines.append(f"  coach: {a['advice']}")
    return lines


def run_coach(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """Run ``shanghai coach``: exit 0 with the advice or the review, 1 when the record holds an
    illegal action, 2 for bad input (an unreadable file, an unknown seat, a finished game without
    ``--review``, manipulation rummy)."""
    stdout = stdout or sys.stdout
    path = str(args.file) if args.file is not None else str(default_record_path())
    if args.file is None and not Path(path).exists():
        raise CliError(f"no game to look at: the terminal game's last game ({path}) is not there; play one "
                       f"with 'shanghai play' or name a game record")
    record = load_record(path)
    if isinstance(record.rules, ManipulationRules):
        raise CliError(NOT_MANIPULATION)
    names = record.players
    seat = seat_of(args.seat, names) if args.seat is not None else None
    if args.review:
        if seat is None:
            seat = person_seat(Path(path), names)
        if seat is None:
            raise CliError(f"name the seat to review with --seat NAME or NUMBER ({seat_list(names)})")
        deals = REVIEW_DEALS if args.deals is None else args.deals
        if deals < 0 or deals == 1:
            raise CliError(f"--deals is 0 (weigh nothing) or at least 2, not {deals}")
        if deals and sys.stderr.isatty() and not args.json:
            print(f"The coach goes through the game and weighs each difference over {deals} deals "
                  f"(a few seconds a round)…", file=sys.stderr, flush=True)
        obj = review_object(record, path, seat, every=args.all, deals=deals)
        lines = review_text(obj)
    else:
        if args.all:
            raise CliError("--all lists every decision of a review: use it with --review")
        if args.deals is not None:
            raise CliError("--deals weighs the differences of a review: use it with --review")
        obj = advice_now(record, path, seat)
        lines = now_text(obj)
    stdout.write(json.dumps(obj, ensure_ascii=False) + "\n" if args.json else "\n".join(lines) + "\n")
    return EXIT_OK


def add_coach_parser(sub: Any) -> None:
    p = sub.add_parser(
        "coach", help="the coach's advice for a game in progress, or a review of a seat's play",
        description=textwrap.fill(
            "Replays a game record (a contract game) and asks the coach, the strongest computer player, "
            "deciding from one seat's view only, as the game's hint button does. Without --review: what "
            "the seat to act at the end of the record should do, with a one-line reason (in a buy window "
            "open to several seats, each of them; at the terminal game's table, only a person). With "
            "--review: every decision of one seat where it played otherwise than the coach advises there, "
            "with the coach's move and reason, and how often it played as the coach. Going down with the "
            "same melds in another order, laying off natural cards in another order, a discard the expert "
            "scores as high as the coach's, and a move the coach makes with one of three other seeds count "
            "as the coach's move. Each difference is weighed (--deals): both moves played out to the end of "
            "the round by the expert in every seat, on the same samples of the cards the seat could not see; "
            "the cost is the seat's points then, with a margin of two standard errors.", 78),
        epilog="examples:\n  shanghai coach                       # the last terminal game: what now?\n"
               "  shanghai coach --review              # the last terminal game: your play reviewed\n"
               "  shanghai coach games/game-0.jsonl --review --seat 2 --json\n"
               "  shanghai coach --review --deals 0    # quicker: the differences without their cost\n"
               "Exit status: 0 advice or review printed, 1 the record holds an illegal action, 2 bad input.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="a game record (default: the terminal game's last game, "
                        f"{default_record_path()})")
    p.add_argument("--seat", metavar="SEAT",
                   help="the seat, by name or number from 0 (default: every seat to act; for --review the "
                        "one person at the terminal game's table)")
    p.add_argument("--review", action="store_true", help="review the seat's play over the whole record")
    p.add_argument("--all", action="store_true", help="with --review: list every decision, not only those "
                                                      "where the coach differs")
    p.add_argument("--deals", type=int, default=None, metavar="N",
                   help="with --review: weigh each difference over N deals of the cards the seat could not see, "
                        f"both moves played out to the round's end by the expert (default {REVIEW_DEALS}; 0: "
                        f"do not weigh; at most {REVIEW_BUDGET} deals in all, fewer each where there are many "
                        "differences)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
