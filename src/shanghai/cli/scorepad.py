"""``shanghai scorepad``: the score pad for a game played with real cards.

``register(subparsers)`` adds the command to ``shanghai``'s parser and ``run(args)`` runs it. The
pad's logic is ``shanghai.scorepad``; this module only reads arguments and lines, and prints.
See ``docs/scorepad.md``.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from shanghai.cli.common import EXIT_OK, CliError, split_options
from shanghai.rules import PRESETS
from shanghai.scorepad.model import Blind, HandEntry, RoundEntry, ScorePad, ScorePadError, parse_house
from shanghai.scorepad.render import date_text, history_text, pad_text, round_result_text, rules_text, stats_text
from shanghai.scorepad.stats import player_stats
from shanghai.scorepad.storage import ScorePadStore, default_db_path

DESCRIPTION = """\
The score pad for a game played with real cards: players and rule set, each round's points (or the
cards left in hand, counted with the preset's card values), who went out (a star), who got THE CUT,
running totals, and at the end the crown and the dunce cap. Games are kept in a local SQLite database:
$SHANGHAI_DATA_DIR/scorepad.sqlite3, else $XDG_DATA_HOME/shanghai/scorepad.sqlite3
(~/.local/share/shanghai/scorepad.sqlite3); --db PATH overrides both."""

EPILOG = """\
examples:
  shanghai scorepad new --rules isra --players "Ann,Bob,Cy"          # then one round at a time
  shanghai scorepad add last --out Ann --points 0,35,20 --cut Bob     # round scored from points
  shanghai scorepad add 3 --out Cy --cards "Ann=KS 2H JK" --cards "Bob=7D"
  shanghai scorepad add 3 --round 2 --replace --out Ann --points 0,40,20   # correct round 2
  shanghai scorepad continue            # resume the last unfinished game
  shanghai scorepad show 3
  shanghai scorepad history
  shanghai scorepad stats --player Ann
  shanghai scorepad export --csv rounds.csv --games-csv games.csv"""

ADD_EPILOG = """\
Points are the cards left in hand; the pad adds THE CUT's bonus and takes off a blind go-out itself.
--points gives every player's points in seat order (0,35,20) or some players' by name (Bob=35,Cy=20);
--cards NAME=CARDS gives the cards left in a player's hand instead (10H or TH, QS, AS, 2C, JK).
The player who went out may be left out (they score 0).

examples:
  shanghai scorepad add 3 --out Ann --points 0,35,20
  shanghai scorepad add 3 --out Ann --points Bob=35 --cards "Cy=KS 2H JK" --cut Bob
  shanghai scorepad add 3 --nobody-out --points 35,20,15       # the stock ran out
  shanghai scorepad add 7 --out Ann --points 0,35,20,15 --blind-no-joker   # contract-10"""


# -- the parser ---------------------------------------------------------------------------------------

def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``scorepad`` and its subcommands to ``shanghai``'s subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "scorepad", help="keep score of a game played with real cards (history, statistics, CSV)",
        description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", metavar="PATH", help="the score pad database (default: see above)")
    sub = parser.add_subparsers(dest="scorepad_command", metavar="SUBCOMMAND", title="subcommands")

    def add(name: str, help_text: str, **kw: Any) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = sub.add_parser(name, help=help_text, description=kw.pop("description", help_text),
                                                    formatter_class=argparse.RawDescriptionHelpFormatter, **kw)
        p.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS,
                       help="the score pad database (default: $SHANGHAI_DATA_DIR/scorepad.sqlite3, else "
                            "$XDG_DATA_HOME/shanghai/scorepad.sqlite3)")
        return p

    new = add("new", "start a game, then enter its rounds one by one",
              description="Start a game and enter its rounds: each round shows its contract and asks who "
                          "went out, the points or cards left in every other hand, who got THE CUT (if the "
                          "rules have it) and a blind go-out (contract-10). When standard input is not a "
                          "terminal the answers are read from it, one a line, without confirmation; the "
                          "first bad line stops with its number and keeps the rounds before it. Stop with q "
                          "(or end of input) and resume with 'shanghai scorepad continue'.",
              epilog="examples:\n  shanghai scorepad new --rules isra --players \"Ann,Bob,Cy\"\n"
                     "  shanghai scorepad new --rules may-i -o no-split --players Ann,Bob,Cy,Dee "
                     "--house dunce_cap=yes\n"
                     "  printf 'Ann\\n35\\n20\\nBob\\n' | shanghai scorepad new --rules isra-junior "
                     "--players Ann,Bob,Cy")
    new.add_argument("--rules", "-R", metavar="PRESET", required=True,
                     help=f"the rule set: {', '.join(PRESETS)}")
    new.add_argument("--option", "-o", action="append", metavar="OPT", help="an option of the preset (repeatable)")
    new.add_argument("--players", "-p", required=True, metavar="NAMES",
                     help="the players in seat order, separated by commas: \"Ann,Bob,Cy\"")
    new.add_argument("--house", action="append", metavar="RULE=VALUE",
                     help="a house rule about scoring (repeatable): dunce_cap=yes|no, the_cut=yes|no, "
                          "cut_bonus=N, joker_points=N, black_two_points=N, blind_out_bonus=N, "
                          "blind_out_bonus_no_joker=N")
    new.add_argument("--note", default="", help="a note kept with the game (place, occasion)")
    new.add_argument("--no-entry", action="store_true", help="only start the game; enter rounds later")

    addp = add("add", "enter one round without questions (for scripts, or to correct a round)",
               description="Enter one round of a stored game from options; nothing is stored unless the "
                           "whole round is valid.", epilog=ADD_EPILOG)
    addp.add_argument("game", metavar="GAME", help="the game's number, or 'last' (the last unfinished game)")
    addp.add_argument("--round", "-r", type=int, metavar="N", help="the round (default: the next one)")
    who = addp.add_mutually_exclusive_group(required=True)
    who.add_argument("--out", metavar="NAME", help="the player who went out (scores 0, gets a star)")
    who.add_argument("--nobody-out", action="store_true", help="the round ended with nobody out")
    addp.add_argument("--points", action="append", metavar="LIST",
                      help="points left in hand: all in seat order (0,35,20) or by name (Bob=35,Cy=20)")
    addp.add_argument("--cards", action="append", metavar="NAME=CARDS",
                      help="the cards left in a player's hand, e.g. \"Bob=KS 2H JK\" (repeatable)")
    addp.add_argument("--cut", metavar="NAME", help="the player who got THE CUT (presets with THE CUT)")
    blind = addp.add_mutually_exclusive_group()
    blind.add_argument("--blind", action="store_const", const="joker", dest="blind",
                       help="the player who went out went down and out in one turn (contract-10)")
    blind.add_argument("--blind-no-joker", action="store_const", const="no-joker", dest="blind",
                       help="the same, with no joker in their melds (the bigger bonus)")
    addp.add_argument("--replace", action="store_true", help="correct a round already entered (with --round)")

    cont = add("continue", "resume entering the rounds of an unfinished game")
    cont.add_argument("game", nargs="?", metavar="GAME", help="the game's number (default: the last unfinished)")

    show = add("show", "show a game's pad: rounds × players, stars, totals, crown and dunce cap")
    show.add_argument("game", nargs="?", metavar="GAME",
                      help="the game's number, or 'last' (default: the last game started)")

    hist = add("history", "list the games: date, rules, players, winner, totals")
    hist.add_argument("--player", metavar="NAME", help="only the games of this player")
    hist.add_argument("--rules", "-R", metavar="PRESET", help="only the games of this preset")

    stats = add("stats", "per-player statistics over the finished games",
                description="Per player, over the finished games: games, wins (a shared crown is a win for "
                            "each player sharing it; 'shared' counts those), dunce caps, average total, best "
                            "and worst game (total and game number), rounds won out of rounds played, and "
                            "the longest winning streak in the games they played.")
    stats.add_argument("--player", metavar="NAME", help="only this player")
    stats.add_argument("--rules", "-R", metavar="PRESET",
                       help="only the games of this preset (totals of different presets do not compare)")

    export = add("export", "export the games and rounds as CSV")
    export.add_argument("--csv", required=True, metavar="FILE",
                        help="one row per player per round ('-' for standard output)")
    export.add_argument("--games-csv", metavar="FILE", help="also one row per player per game")

    undo = add("undo", "remove the last round entered of a game")
    undo.add_argument("game", metavar="GAME", help="the game's number, or 'last' (the last game started)")

    delete = add("delete", "delete a game")
    delete.add_argument("game", metavar="GAME", help="the game's number")
    delete.add_argument("--yes", action="store_true", help="really delete it")

    parser.set_defaults(run=run)
    return parser


# -- running ------------------------------------------------------------------------------------------

def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run ``shanghai scorepad ...``; returns the exit status."""
    command = getattr(args, "scorepad_command", None)
    if command is None:
        raise CliError("no subcommand given: new, add, continue, show, history, stats, export, undo or delete "
                       "(see 'shanghai scorepad --help')")
    out = stdout or sys.stdout
    db_path = Path(args.db).expanduser() if args.db else default_db_path()
    read_only = command in ("show", "history", "stats", "export")
    if command == "new":  # a refused game does not even create the database
        args.scorepad_new = ScorePad.new(args.rules, args.players.split(","), split_options(args.option),
                                         parse_house(args.house or ()), note=args.note)
    with ScorePadStore(db_path, create=not read_only) as store:
        handler = _HANDLERS[command]
        return handler(store, args, stdin or sys.stdin, out)


def _game_id(store: ScorePadStore, text: str | None, *, default: str) -> int:
    """A game's number from ``text``: a number, or ``last`` (or nothing) for the ``default``:
    ``unfinished`` (the last unfinished game) or ``latest`` (the last game started)."""
    if text is None or text.strip().lower() == "last":
        if default == "unfinished":
            pad = store.last_unfinished()
            assert pad.id is not None
            return pad.id
        ids = store.game_ids()
        if not ids:
            raise ScorePadError("there are no games yet (start one with 'shanghai scorepad new')")
        return ids[-1]
    try:
        return int(text)
    except ValueError:
        raise CliError(f"a game is given by its number (see 'shanghai scorepad history') or 'last', "
                       f"not {text!r}") from None


def _cmd_new(store: ScorePadStore, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    pad = store.create(args.scorepad_new)
    out.write(f"game {pad.id}: {rules_text(pad)}, {pad.round_count} rounds; players {', '.join(pad.players)}\n")
    if args.no_entry:
        return EXIT_OK
    return RoundDialog(store, pad, stdin, out).run()


def _cmd_continue(store: ScorePadStore, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    pad = store.load(_game_id(store, args.game, default="unfinished"))
    if pad.is_finished:
        raise ScorePadError(f"game {pad.id} is finished (see 'shanghai scorepad show {pad.id}'; correct a round "
                            f"with 'shanghai scorepad add {pad.id} --round N --replace ...')")
    out.write(pad_text(pad))
    return RoundDialog(store, pad, stdin, out).run()


def _cmd_add(store: ScorePadStore, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    pad = store.load(_game_id(store, args.game, default="unfinished"))
    went_out = None if args.nobody_out else pad.seat(args.out)
    hands = hands_from_options(pad, args.points or [], args.cards or [], went_out)
    cut = None if args.cut is None else pad.seat(args.cut)
    entry = pad.score_round(hands, went_out=went_out, cut=cut, blind=args.blind, number=args.round,
                            replace=args.replace)
    pad = store.save_round(pad, entry)
    out.write(round_result_text(pad, entry))
    if pad.is_finished:
        out.write("\n" + pad_text(pad))
    return EXIT_OK


def _cmd_show(store: ScorePadStore, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    out.write(pad_text(store.load(_game_id(store, args.game, default="latest"))))
    return EXIT_OK


def _select(store: ScorePadStore, player: str | None, preset: str | None) -> list[ScorePad]:
    pads = store.load_all()
    if preset is not None:
        key = preset.strip().lower()
        if key not in PRESETS:
            raise ScorePadError(f"unknown rule set {preset!r}; presets are: {', '.join(PRESETS)}")
        pads = [p for p in pads if p.preset == key]
    if player is not None:
        who = player.strip().casefold()
        pads = [p for p in pads if who in (n.casefold() for n in p.players)]
    return pads


def _cmd_history(store: ScorePadStore, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    out.write(history_text(_select(store, args.player, args.rules)))
    return EXIT_OK


def _cmd_stats(store: ScorePadStore, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    pads = _select(store, None, args.rules)
    stats = player_stats(pads, player=args.player)
    if args.player is not None and not stats:
        raise ScorePadError(f"{args.player.strip()!r} has played no finished game"
                            + (f" of {args.rules}" if args.rules else ""))
    out.write(stats_text(stats))
    return EXIT_OK


ROUND_COLUMNS = ["game", "started", "finished", "rules", "round", "contract", "seat", "player", "hand_points",
                 "cards", "went_out", "cut", "blind", "points", "total", "star"]
GAME_COLUMNS = ["game", "started", "finished", "rules", "rounds_entered", "rounds", "seat", "player", "total",
                "stars", "crown", "dunce_cap"]


def round_rows(pads: Sequence[ScorePad]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for pad in pads:
        for entry, totals in zip(pad.rounds, pad.running_totals(), strict=True):
            for seat, name in enumerate(pad.players):
                rows.append({
                    "game": pad.id, "started": pad.created_at, "finished": pad.finished_at or "",
                    "rules": rules_text(pad), "round": entry.number,
                    "contract": pad.contract_text(entry.number), "seat": seat + 1, "player": name,
                    "hand_points": entry.hand_points[seat], "cards": entry.cards_text(seat) or "",
                    "went_out": int(entry.went_out == seat), "cut": int(entry.cut == seat),
                    "blind": entry.blind or "" if entry.went_out == seat else "",
                    "points": entry.points[seat], "total": totals[seat], "star": int(entry.went_out == seat)})
    return rows


def game_rows(pads: Sequence[ScorePad]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for pad in pads:
        crown, dunce = pad.crown(), pad.dunce()
        for seat, name in enumerate(pad.players):
            rows.append({
                "game": pad.id, "started": pad.created_at, "finished": pad.finished_at or "",
                "rules": rules_text(pad), "rounds_entered": len(pad.rounds), "rounds": pad.round_count,
                "seat": seat + 1, "player": name, "total": pad.totals[seat], "stars": pad.stars[seat],
                "crown": int(seat in crown), "dunce_cap": int(seat in dunce)})
    return rows


def _write_csv(target: str, columns: list[str], rows: list[dict[str, object]], out: TextIO) -> None:
    if target == "-":
        writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return
    try:
        with open(Path(target).expanduser(), "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)
    except OSError as exc:
        raise CliError(f"cannot write {target}: {exc.strerror or exc}") from None


def _cmd_export(store: ScorePadStore, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    pads = store.load_all()
    _write_csv(args.csv, ROUND_COLUMNS, round_rows(pads), out)
    if args.games_csv:
        _write_csv(args.games_csv, GAME_COLUMNS, game_rows(pads), out)
    if args.csv != "-":
        rounds = sum(len(p.rounds) for p in pads)
        out.write(f"{len(pads)} games, {rounds} rounds written to {args.csv}"
                  + (f" (games: {args.games_csv})" if args.games_csv else "") + "\n")
    return EXIT_OK


def _cmd_undo(store: ScorePadStore, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    pad = store.undo_last_round(_game_id(store, args.game, default="latest"))
    out.write(f"removed round {len(pad.rounds) + 1} of game {pad.id}\n" + pad_text(pad))
    return EXIT_OK


def _cmd_delete(store: ScorePadStore, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    game_id = _game_id(store, args.game, default="latest")
    pad = store.load(game_id)
    if not args.yes:
        raise CliError(f"add --yes to delete game {game_id} ({rules_text(pad)}, {', '.join(pad.players)}, "
                       f"started {date_text(pad.created_at)})")
    store.delete(game_id)
    out.write(f"deleted game {game_id}\n")
    return EXIT_OK


_HANDLERS: dict[str, Callable[[ScorePadStore, argparse.Namespace, TextIO, TextIO], int]] = {
    "new": _cmd_new, "continue": _cmd_continue, "add": _cmd_add, "show": _cmd_show, "history": _cmd_history,
    "stats": _cmd_stats, "export": _cmd_export, "undo": _cmd_undo, "delete": _cmd_delete}


# -- reading a round from options ------------------------------------------------------------------------

def hands_from_options(pad: ScorePad, points: Sequence[str], cards: Sequence[str],
                       went_out: int | None) -> dict[int, HandEntry]:
    """The hands of ``--points`` (all in seat order, or by name) and ``--cards NAME=CARDS``."""
    raw = [i.strip() for p in points for i in p.split(",")]
    if any(not i for i in raw) and any(raw):
        where = next(n for n, i in enumerate(raw, 1) if not i)
        raise ScorePadError(f"--points item {where} of {len(raw)} is empty ({','.join(raw)}): give a number "
                            f"for every player")
    items = [i for i in raw if i]
    named = [i for i in items if "=" in i]
    hands: dict[int, HandEntry] = {}
    if items and not named:
        if cards:
            raise ScorePadError("give every player's points in seat order (--points 0,35,20) or name the players "
                                "(--points Bob=35 --cards \"Cy=KS 2H\"), not both")
        if len(items) != len(pad.players):
            raise ScorePadError(f"{len(pad.players)} players ({', '.join(pad.players)}) but {len(items)} points "
                                f"given ({','.join(items)})")
        for seat, item in enumerate(items):
            hands[seat] = HandEntry(_int(item, pad.players[seat]))
        return hands
    if len(named) != len(items):
        raise ScorePadError(f"either every item of --points names its player (Bob=35) or none does: "
                            f"{','.join(items)}")

    def put(seat: int, entry: HandEntry) -> None:
        if seat in hands:
            raise ScorePadError(f"{pad.players[seat]}'s points are given twice")
        hands[seat] = entry

    for item in named:
        name, _, value = item.partition("=")
        seat = pad.seat(name)
        put(seat, HandEntry(_int(value, pad.players[seat])))
    for item in cards:
        name, sep, text = item.partition("=")
        if not sep:
            raise ScorePadError(f"--cards is NAME=CARDS, e.g. \"Bob=KS 2H JK\", not {item!r}")
        seat = pad.seat(name)
        try:
            put(seat, HandEntry.of_cards(text, pad.rules))
        except ScorePadError:
            raise
        except ValueError as exc:
            raise ScorePadError(f"{pad.players[seat]}'s cards: {exc}") from None
    return hands


def _int(text: str, name: str) -> int:
    t = text.strip()
    try:
        return int(t)
    except ValueError:
        raise ScorePadError(f"{name}'s points must be a whole number, not {t!r}") from None


# -- the round-by-round dialog --------------------------------------------------------------------------

class _Quit(Exception):
    """The user asked to stop."""


class _Undo(Exception):
    """The user asked to remove the last round."""


class RoundDialog:
    """Asks each round's questions, validates every answer, and stores each round when it is whole.

    On a terminal a bad answer is asked again and a round is shown for confirmation before it is
    stored; otherwise (a script on standard input) a bad line stops with its number."""

    def __init__(self, store: ScorePadStore, pad: ScorePad, stdin: TextIO, out: TextIO,
                 interactive: bool | None = None) -> None:
        self.store = store
        self.pad = pad
        self.stdin = stdin
        self.out = out
        self.interactive = stdin.isatty() if interactive is None else interactive
        self.line = 0

    # -- input --------------------------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        if self.interactive and self.stdin is sys.stdin and self.out is sys.stdout:
            try:
                answer = input(prompt)  # line editing on a terminal
            except EOFError:
                self.out.write("\n")
                raise _Quit from None
            self.line += 1
            return answer.strip()
        self.out.write(prompt)
        self.out.flush()
        text = self.stdin.readline()
        if not text:
            self.out.write("\n")
            raise _Quit
        self.line += 1
        if not self.interactive:
            self.out.write(text if text.endswith("\n") else text + "\n")
        return text.strip()

    def problem(self, exc: ScorePadError | ValueError) -> None:
        if not self.interactive:
            raise CliError(f"input line {self.line}: {exc}")
        self.out.write(f"  ! {exc}\n")

    # -- the loop -----------------------------------------------------------------------------------
    def run(self) -> int:
        while not self.pad.is_finished:
            number = len(self.pad.rounds) + 1
            self.out.write(f"\nRound {number} of {self.pad.round_count}: {self.pad.contract_text(number)}\n")
            try:
                entry = self.ask_round()
            except _Quit:
                self.out.write(f"game {self.pad.id} saved after {len(self.pad.rounds)} of {self.pad.round_count} "
                               f"rounds; resume with 'shanghai scorepad continue {self.pad.id}'\n")
                return EXIT_OK
            except _Undo:
                continue
            if entry is None:
                continue
            assert self.pad.id is not None
            self.pad = self.store.save_round(self.pad, entry)
            self.out.write(round_result_text(self.pad, entry))
        self.out.write("\n" + pad_text(self.pad))
        return EXIT_OK

    def command(self, answer: str) -> bool:
        """Handle the words that work at any question; True if ``answer`` was one."""
        word = answer.lower()
        if word in ("q", "quit"):
            raise _Quit
        if word in ("pad", "show"):
            self.out.write(pad_text(self.pad))
            return True
        if word in ("help", "?"):
            self.out.write("  answers: a player's name; points (35) or the cards left in hand (KS 2H JK); "
                           "'-' for nobody.\n  words: pad (show the pad), undo (remove the last round), "
                           "q (stop; resume later with 'shanghai scorepad continue')\n")
            return True
        if word == "undo":
            if not self.pad.rounds:
                self.problem(ScorePadError("no round has been entered yet"))
                return True
            assert self.pad.id is not None
            self.pad = self.store.undo_last_round(self.pad.id)
            self.out.write(f"  removed round {len(self.pad.rounds) + 1}\n")
            raise _Undo
        return False

    def ask_player(self, prompt: str, *, empty_is_nobody: bool) -> int | None:
        while True:
            answer = self.ask(prompt)
            if self.command(answer):
                continue
            if answer == "" and not empty_is_nobody:
                self.problem(ScorePadError("say who went out, or '-' if nobody did"))
                continue
            if answer.lower() in ("", "-", "none", "nobody"):
                return None
            try:
                return self.pad.seat(answer)
            except ScorePadError as exc:
                self.problem(exc)

    def ask_round(self) -> RoundEntry | None:
        pad = self.pad
        went_out = self.ask_player("Who went out? (a name, '-' if nobody did; 'help') ", empty_is_nobody=False)
        hands: dict[int, HandEntry] = {}
        for seat, name in enumerate(pad.players):
            if seat == went_out:
                continue
            while True:
                answer = self.ask(f"  {name}: points or cards left in hand? ")
                if self.command(answer):
                    continue
                try:
                    hand = HandEntry.parse(answer, pad.rules)
                    pad.check_hand(seat, hand, went_out=went_out)
                except ScorePadError as exc:
                    self.problem(exc)
                    continue
                hands[seat] = hand
                break
        cut = None
        if pad.rules.the_cut:
            cut = self.ask_player(f"Who got THE CUT (+{pad.rules.cut_bonus} to everyone else)? "
                                  f"(a name, or Enter if nobody) ", empty_is_nobody=True)
        blind: Blind | None = None
        if went_out is not None and (pad.rules.blind_out_bonus or pad.rules.blind_out_bonus_no_joker):
            blind = self.ask_blind(pad.players[went_out])
        try:
            entry = pad.score_round(hands, went_out=went_out, cut=cut, blind=blind)
        except ScorePadError as exc:
            self.problem(exc)
            return None
        if self.interactive:
            preview = ", ".join(f"{name} {entry.points[s]}{' *' if s == went_out else ''}"
                                for s, name in enumerate(pad.players))
            answer = self.ask(f"  {preview}: save round {entry.number}? [Y/n] ").lower()
            if answer in ("n", "no"):
                self.out.write("  not saved; enter the round again\n")
                return None
        return entry

    def ask_blind(self, name: str) -> Blind | None:
        rules = self.pad.rules
        prompt = (f"Did {name} go down and out in one turn? (n = no; y = yes, -{rules.blind_out_bonus}; "
                  f"f = yes, joker free, -{rules.blind_out_bonus_no_joker}) [n] ")
        while True:
            answer = self.ask(prompt).lower()
            if self.command(answer):
                continue
            if answer in ("", "n", "no"):
                return None
            if answer in ("y", "yes", "joker"):
                return "joker"
            if answer in ("f", "free", "joker-free", "no-joker"):
                return "no-joker"
            self.problem(ScorePadError(f"answer n, y or f, not {answer!r}"))

