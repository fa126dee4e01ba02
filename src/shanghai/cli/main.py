"""The ``shanghai`` command: rules in words, the table judge, simulations, tournaments, replays, the game.

Every command exits 0 on success, 1 for a "no" answer (invalid meld, unmet contract, illegal record)
and 2 for bad input (an unknown card, preset, option or round, or an unreadable file), with a
one-line message on stderr and never a traceback.

>>> main(["judge", "score", "--rules", "isra", "JK", "AS"])
{"points": 70}
0
"""

from __future__ import annotations

import argparse
import importlib
import sys
import textwrap
from collections.abc import Callable, Sequence

import shanghai
from shanghai.cli.coach import add_coach_parser, run_coach
from shanghai.cli.common import EXIT_OK, EXIT_USAGE, CliError, load_rules, stdout_gone
from shanghai.cli.judge import add_judge_parser, run_judge
from shanghai.cli.replay import add_replay_parser, run_replay
from shanghai.cli.scorepad import register as register_scorepad
from shanghai.cli.serve import register as register_serve
from shanghai.cli.simulate import add_simulate_parser, run_simulate
from shanghai.cli.tournament import add_tournament_parser, run_tournament_command
from shanghai.errors import RuleNotImplementedError, ShanghaiError
from shanghai.rules import PRESETS, ManipulationRules, Rules
from shanghai.rules.describe import describe
from shanghai.rules.guide import guide_text
from shanghai.rules.presets import OPTION_PRESETS, OPTIONS, OTHER_GAMES, PLANNED_PRESETS

PROG = "shanghai"

DESCRIPTION = """\
Shanghai Rummy: an exact rules engine for every common rule set, a table judge and computer players.
Run 'shanghai COMMAND --help' for a command's options."""

EPILOG = f"""\
presets: {', '.join([*PRESETS, *OTHER_GAMES])}
options (--option, repeatable): {', '.join(OPTIONS)}, for {', '.join(OPTION_PRESETS)}; target=N (the
  target score) and meld-two (at least two cards whenever two can be placed), for manipulation
cards: 10H or TH, QS, AS, 2C, JK (joker); case does not matter; suits may be symbols
exit status: 0 success or "yes", 1 "no" (invalid meld, unmet contract, illegal record), 2 bad input

examples:
  shanghai rules may-i --option no-split
  shanghai judge meld --rules isra 5D 6D JK 8D
  shanghai judge contract --rules may-i --round 2 7H 7S 7D 5C 6C 8C 2S KD KS 2H 9C
  echo '{{"cards": ["JK", "AS"]}}' | shanghai judge score --rules isra --batch
  shanghai judge table --rules manipulation --table "7H 7S 7D | 4C 5C 6C" --hand 7C 3C 8H
  shanghai simulate --rules isra --players 4 --games 10 --seed 1 --json --record-dir games
  shanghai tournament --rules isra --seats random,greedy,greedy,greedy --games 40 --seed 1 --workers 4
  shanghai replay games/game-0.jsonl
  shanghai coach games/game-0.jsonl --review --seat 1   # where seat 1 played otherwise than the coach
  shanghai scorepad new --rules isra --players "Ann,Bob,Cy"   # score a game played with real cards"""

PLAY_DESCRIPTION = ("Play a game of Shanghai Rummy in the terminal against computer players (full-screen; "
                    "--plain for the line-by-line game).")


def _add_rules_options(parser: argparse.ArgumentParser, *, required_note: str = "") -> None:
    parser.add_argument("--rules", "-R", metavar="PRESET",
                        help="the preset to use (see 'shanghai rules')" + required_note)
    parser.add_argument("--option", "-o", action="append", metavar="OPT",
                        help=f"an option of {', '.join(OPTION_PRESETS)} (repeatable): {', '.join(OPTIONS)}; "
                             f"of manipulation: target=N (the target score), meld-two")


def _judge_common(parser: argparse.ArgumentParser) -> None:
    _add_rules_options(parser, required_note="; required unless every batch line gives \"rules\"")


def _simulate_common(parser: argparse.ArgumentParser) -> None:
    _add_rules_options(parser, required_note="; required")


def run_rules(args: argparse.Namespace) -> int:
    """``shanghai rules``: the list of presets, or one preset in words."""
    if args.preset is None:
        if args.option:
            raise CliError("--option applies to one preset: shanghai rules PRESET --option OPT")
        if args.guide:
            raise CliError("--guide tells how to play one preset: shanghai rules PRESET --guide")
        width = max(len(n) for n in [*PRESETS, *OTHER_GAMES, *PLANNED_PRESETS])
        lines = [f"{'preset'.ljust(width)}  source  description"]
        indent = " " * (width + 10)
        every: dict[str, Rules | ManipulationRules] = {**PRESETS, **OTHER_GAMES}
        for name, rules in every.items():
            head = f"{name.ljust(width)}  {rules.source.ljust(6)}  "
            lines.append(textwrap.fill(f"{rules.title}: {rules.description}", 110, initial_indent=head,
                                       subsequent_indent=indent, break_on_hyphens=False))
        for name, why in PLANNED_PRESETS.items():
            head = f"{name.ljust(width)}  {'-'.ljust(6)}  "
            lines.append(textwrap.fill(f"NOT BUILT YET: {why}", 110, initial_indent=head,
                                       subsequent_indent=indent, break_on_hyphens=False))
        lines.append("")
        lines.append(f"Options of {', '.join(OPTION_PRESETS)}: {', '.join(OPTIONS)}.")
        lines.append("'shanghai rules PRESET' prints a preset's full rules.")
        sys.stdout.write("\n".join(lines) + "\n")
        return EXIT_OK
    rules = load_rules(args.preset, args.option)
    if args.guide:
        if not isinstance(rules, Rules):
            raise CliError(f"the guide covers the contract games; 'shanghai rules {args.preset}' gives every rule "
                           f"of {rules.title}")
        sys.stdout.write(guide_text(rules) + "\n")
        return EXIT_OK
    sys.stdout.write(describe(rules))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {shanghai.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    rules = sub.add_parser(
        "rules", help="list the presets, or print one preset's full rules in words",
        description="Without PRESET: lists the presets (name, source document, description). With "
                    "PRESET: prints its full rules in words: players, pack, deal, first dealer, each "
                    "round's contract and buys, wild cards and their limits, aces, runs of one suit, "
                    "buying, going down / laying off / replacing wilds, going out, scoring, extras and "
                    "the stock running out.")
    rules.add_argument("preset", nargs="?", metavar="PRESET", help="a preset name, e.g. isra")
    rules.add_argument("--guide", action="store_true",
                       help="how to play, for a newcomer: the preset in a few short steps (the contract games)")
    rules.add_argument("--option", "-o", action="append", metavar="OPT",
                       help=f"an option of {', '.join(OPTION_PRESETS)} (repeatable): {', '.join(OPTIONS)}; "
                            f"of manipulation: target=N (the target score), meld-two")
    rules.set_defaults(run=run_rules)

    add_judge_parser(sub, _judge_common)
    sub.choices["judge"].set_defaults(run=run_judge)

    add_simulate_parser(sub, _simulate_common)
    sub.choices["simulate"].set_defaults(run=run_simulate)

    add_tournament_parser(sub, _simulate_common)
    sub.choices["tournament"].set_defaults(run=run_tournament_command)

    add_replay_parser(sub)
    sub.choices["replay"].set_defaults(run=run_replay)

    add_coach_parser(sub)
    sub.choices["coach"].set_defaults(run=run_coach)

    register_scorepad(sub)  # shanghai scorepad: runs shanghai.cli.scorepad.run
    register_serve(sub)  # shanghai serve: runs shanghai.cli.serve.run

    sub.add_parser("play", help="play a game in the terminal (see 'shanghai play --help')",
                   description=PLAY_DESCRIPTION, add_help=False)
    return parser


def _play(argv: Sequence[str]) -> int:
    """``shanghai play``: the terminal game lives in ``shanghai.cli.play``, imported only here."""
    parser = argparse.ArgumentParser(prog=f"{PROG} play", description=PLAY_DESCRIPTION)
    try:
        module = importlib.import_module("shanghai.cli.play")
    except ModuleNotFoundError as exc:
        if exc.name != "shanghai.cli.play":
            raise
        raise CliError("the terminal game is not installed (shanghai.cli.play is missing)", code=1) from exc
    module.add_play_arguments(parser)
    args = _parse(parser, argv)
    if isinstance(args, int):
        return args
    for option, value in (("--pause", args.pause), ("--buy-timeout", args.buy_timeout),
                          ("--take-back", args.take_back)):
        if not 0 <= value <= 3600:  # NaN too
            raise CliError(f"{option} is a number of seconds from 0 to 3600, not {value:g}")
    if not args.plain and _on_a_terminal():
        try:
            tui = importlib.import_module("shanghai.tui.app")
        except ImportError as exc:  # Textual is missing: the plain game still works
            _error(f"the full-screen game cannot start ({exc}); playing the plain-text game")
        else:
            # the full-screen game offers every level: its default is chosen there unless given here
            args.opponents_given = any(a == "--opponents" or a.startswith("--opponents=") for a in argv)
            return int(tui.run_tui(args))
    return int(module.run_play(args))


def _on_a_terminal() -> bool:
    """Both the input and the output are a terminal (otherwise the plain-text game is used)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace | int:
    """Parsed arguments, or the exit status argparse chose (help: 0, a usage error: 2)."""
    try:
        return parser.parse_args(list(argv))
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else EXIT_USAGE)


def _guarded(run: Callable[[], int]) -> int:
    try:
        return run()
    except CliError as exc:
        _error(exc.message)
        return exc.code
    except RuleNotImplementedError as exc:
        _error(f"not built yet: {exc}")
        return EXIT_USAGE
    except (ShanghaiError, ValueError) as exc:
        _error(str(exc))
        return EXIT_USAGE
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:
        stdout_gone()  # the reader went away (e.g. '| head'): stop quietly
        return EXIT_OK


def _error(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run the ``shanghai`` command with ``argv`` (default: the process's arguments); returns the
    exit status instead of exiting."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["play"]:
        return _guarded(lambda: _play(args_list[1:]))
    parser = build_parser()
    parsed = _parse(parser, args_list)
    if isinstance(parsed, int):
        return parsed
    if parsed.command is None:
        parser.print_help(sys.stderr)
        _error("no command given")
        return EXIT_USAGE
    namespace = parsed
    return _guarded(lambda: int(namespace.run(namespace)))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
