"""``shanghai play``: the full-screen terminal game (Textual).

:class:`ShanghaiApp` opens on the start screen (rule set, players, each opponent's level or a
person for pass and play, names, house rules) unless it is given a game to continue; the game is
played on the :class:`~shanghai.tui.table.TableScreen`, or, for manipulation rummy (the preset
``manipulation``), on the :class:`~shanghai.tui.manipulation.ManipulationScreen`. The record is
saved after every action, so ``shanghai play --resume`` continues a game even after the terminal
was killed.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from shanghai.cli.common import split_options
from shanghai.cli.play import BOT_NAMES, cut_off_note, keep_unfinished, record_path, resume_command
from shanghai.engine.game import Game
from shanghai.engine.manipulation import ManipulationGame
from shanghai.engine.record import GameRecord
from shanghai.errors import ShanghaiError
from shanghai.rules import OTHER_GAMES, PRESETS, ManipulationRules, preset
from shanghai.rules.describe import describe
from shanghai.rules.guide import guide_text
from shanghai.rules.model import Rules
from shanghai.rules.presets import OPTION_PRESETS, OPTIONS
from shanghai.scorepad import ScorePadStore
from shanghai.scorepad.render import player_record_text
from shanghai.scorepad.storage import default_db_path
from shanghai.tui.manipulation import ManipulationScreen
from shanghai.tui.screens import InfoScreen
from shanghai.tui.session import HUMAN, AnySession, GameSession, ManipulationSession, available_levels, resume_session
from shanghai.tui.style import CSS
from shanghai.tui.table import TableScreen

DEFAULT_LEVEL = "medium"  # the start screen's level for every opponent, unless --opponents says otherwise
GAMES: dict[str, Rules | ManipulationRules] = {**PRESETS, **OTHER_GAMES}  # every rule set the start screen offers
MAX_SEATS = max(r.max_players for r in GAMES.values())
MAX_TARGET = 10_000
GOING_OUT = {"play-all": "by playing every card (no discard)", "discard-last": "with a last discard",
             "either": "either way"}


@dataclass
class Settings:
    """How a new game is set up (the start screen's fields) and how the table behaves."""

    rules: str = "isra"
    options: list[str] = field(default_factory=list)
    players: int = 4
    name: str = "You"
    level: str = DEFAULT_LEVEL
    seed: int | None = None
    record: Path | None = None
    pause: float = 0.6
    buy_timeout: float = 10.0
    hints: bool = True
    take_back: float = 2.0  # seconds to take back a discard before the computer players act on it
    history: Path | None = None  # the score pad database that keeps finished games (None: not kept)


def house_rules(rules: Rules, going_out: str | None, dunce_cap: bool | None,
                buy_penalty: int | None) -> Rules:
    """The preset with the table's house rules (validated: an inconsistent choice raises)."""
    changes: dict[str, object] = {}
    if going_out is not None and going_out != rules.going_out:
        changes["going_out"] = going_out
    if dunce_cap is not None and dunce_cap != rules.dunce_cap:
        changes["dunce_cap"] = dunce_cap
    if buy_penalty is not None and buy_penalty != rules.buy_penalty:
        changes["buy_penalty"] = buy_penalty
    return rules.changed(**changes) if changes else rules


class StartScreen(Screen[None]):
    """Rule set, players, opponents' levels, names and house rules; Ctrl+S or the button starts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start the game"), Binding("f2", "guide", "How to play"),
        Binding("f3", "record", "Your record"),
        Binding("escape", "app.quit", "Quit")
    ]

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.levels = tuple(dict.fromkeys((*available_levels(), "greedy", "random")))
        level = settings.level if settings.level in self.levels else (
            DEFAULT_LEVEL if DEFAULT_LEVEL in self.levels else "greedy")
        self.default_level = level

    def compose(self) -> ComposeResult:
        s = self.settings
        with VerticalScroll(id="start"):
            yield Static(Text("Shanghai Rummy", style="bold reverse"), id="start-title")
            with Horizontal(classes="row"):
                yield Label("Rule set", classes="label")
                yield Select([(f"{name} — {r.title}", name) for name, r in GAMES.items()],
                             value=self._start_rules(), allow_blank=False, id="preset")
            yield Static(id="description")
            with Horizontal(classes="row"):
                yield Button("How to play these rules (F2)", id="guide-button")
                yield Button("Your record (F3)", id="record-button")
            with Horizontal(classes="row"):
                yield Label("Players", classes="label")
                yield Select([(str(n), n) for n in range(2, MAX_SEATS + 1)], value=s.players,
                             allow_blank=False, id="players")
            with Horizontal(classes="row"):
                yield Label("Your name", classes="label")
                yield Input(value=s.name, id="name")
            for seat in range(1, MAX_SEATS):
                with Horizontal(classes="row seat", id=f"seat-{seat}"):
                    yield Label(f"Seat {seat + 1}", classes="label")
                    yield Select([(f"computer: {lv}", lv) for lv in self.levels]
                                 + [("a person (pass and play)", HUMAN)],
                                 value=self.default_level, allow_blank=False, id=f"kind-{seat}")
                    yield Input(value=BOT_NAMES[seat - 1] if seat - 1 < len(BOT_NAMES) else f"Player {seat + 1}",
                                id=f"seatname-{seat}")
            yield Static(Text("House rules", style="bold"), classes="section")
            with Horizontal(classes="row", id="options-row"):
                for opt in OPTIONS:
                    yield Checkbox(opt, value=opt in s.options, id=f"opt-{opt}")
            with Horizontal(classes="row", id="target-row"):
                yield Label("Target score", classes="label")
                yield Input(value=str(OTHER_GAMES["manipulation"].target_score), restrict=r"[0-9]*",
                            id="target")
                yield Label("points: whoever reaches them loses (manipulation rummy)", classes="hint")
            with Horizontal(classes="row", id="going-out-row"):
                yield Label("Going out", classes="label")
                yield Select([(f"{k}: {v}", k) for k, v in GOING_OUT.items()], allow_blank=False,
                             value="play-all", id="going-out")
            with Horizontal(classes="row", id="penalty-row"):
                yield Label("Buy penalty", classes="label")
                yield Select([(f"{n} extra card{'s' if n != 1 else ''}", n) for n in range(0, 4)],
                             allow_blank=False, value=2, id="penalty")
            with Horizontal(classes="row"):
                yield Checkbox("the dunce cap for the highest total", id="dunce")
                yield Checkbox("hints (H)", value=s.hints, id="hints")
            yield Static(id="start-error")
            yield Button("Start the game (Ctrl+S)", id="start-button", variant="primary")
        yield Footer()

    def _start_rules(self) -> str:
        name = self.settings.rules.strip().lower()
        return name if name in GAMES else "isra"

    def on_mount(self) -> None:
        self._preset_changed(self._start_rules())
        self.query_one("#preset", Select).focus()

    def _preset_changed(self, name: str) -> None:
        rules = GAMES[name]
        self.query_one("#description", Static).update(
            Text(f"{rules.title} ({rules.source}): {rules.description}", style="italic"))
        self.query_one("#options-row").display = name in OPTION_PRESETS
        other = isinstance(rules, ManipulationRules)
        self.query_one("#target-row").display = other
        for row in ("#going-out-row", "#penalty-row", "#dunce"):
            self.query_one(row).display = not other
        if isinstance(rules, Rules):
            self.query_one("#going-out", Select).value = rules.going_out
            self.query_one("#penalty", Select).value = rules.buy_penalty
            self.query_one("#dunce", Checkbox).value = rules.dunce_cap
        else:
            self.query_one("#target", Input).value = str(rules.target_score)
        players = self.query_one("#players", Select)
        players.set_options([(str(n), n) for n in range(rules.min_players, rules.max_players + 1)])
        count = self.settings.players
        players.value = min(max(count, rules.min_players), rules.max_players)
        self._seats_changed()

    def _players(self) -> int:
        value = self.query_one("#players", Select).value
        return value if isinstance(value, int) else 4

    def _seats_changed(self) -> None:
        n = self._players()
        for seat in range(1, MAX_SEATS):
            self.query_one(f"#seat-{seat}").display = seat < n

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset" and isinstance(event.value, str):
            self._preset_changed(event.value)
        elif event.select.id == "players":
            if isinstance(event.value, int):
                self.settings.players = event.value
            self._seats_changed()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start-button":
            self.action_start()
        elif event.button.id == "guide-button":
            self.action_guide()
        elif event.button.id == "record-button":
            self.action_record()

    def action_record(self) -> None:
        """The record of the player named on the form: the finished games the score pad's history
        holds under that name (the terminal's and those played with real cards), rule set by rule set."""
        name = self.query_one("#name", Input).value.strip() or "You"
        path = self.settings.history
        if path is None:
            body = "The score pad's history is off for this game (shanghai play --no-history)."
        elif not path.exists():
            body = f"No finished game of {name} yet: finished games are kept in {path}."
        else:
            try:
                with ScorePadStore(path, create=False) as store:
                    body = player_record_text(store.load_all(), name) + f"\n(kept in {path})"
            except (ShanghaiError, sqlite3.Error) as exc:  # not a pad database, a preset this version lacks
                body = f"The score pad's history cannot be read: {exc}"
        self.app.push_screen(InfoScreen(f"{name}'s record" if name.casefold() != "you" else "Your record",
                                        Text(body), footer="Press Enter to go back."))

    def action_guide(self) -> None:
        """How to play the rule set as chosen, options and house rules included (the contract games'
        guide; manipulation rummy's every rule)."""
        try:
            rules = self._chosen_rules()
        except (ShanghaiError, ValueError) as exc:
            self.query_one("#start-error", Static).update(Text(f"✗ {exc}", style="bold red"))
            return
        body = describe(rules) if isinstance(rules, ManipulationRules) else guide_text(rules, width=None)
        self.app.push_screen(InfoScreen(f"How to play: {rules.title}", Text(body), footer="Press Enter to go back."))

    def _chosen_rules(self) -> Rules | ManipulationRules:
        """The rules as the form chooses them: the rule set, its options and the house rules."""
        name = str(self.query_one("#preset", Select).value)
        if name in OTHER_GAMES:
            mrules = OTHER_GAMES[name]
            target = self.query_one("#target", Input).value.strip()
            if not target.isdigit() or not 1 <= int(target) <= MAX_TARGET:
                raise ValueError(f"the target score must be a number from 1 to {MAX_TARGET}")
            return mrules.changed(target_score=int(target)) if int(target) != mrules.target_score else mrules
        options = [o for o in OPTIONS if name in OPTION_PRESETS and self.query_one(f"#opt-{o}", Checkbox).value]
        going_out = self.query_one("#going-out", Select).value
        penalty = self.query_one("#penalty", Select).value
        return house_rules(preset(name, options), str(going_out), self.query_one("#dunce", Checkbox).value,
                           penalty if isinstance(penalty, int) else None)

    def action_start(self) -> None:
        try:
            session = self._new_session()
        except (ShanghaiError, NotImplementedError, ValueError) as exc:
            self.query_one("#start-error", Static).update(Text(f"✗ {exc}", style="bold red"))
            return
        app = self.app
        assert isinstance(app, ShanghaiApp)
        app.begin(session)

    def _new_session(self) -> AnySession:
        s = self.settings
        players = self._players()
        seed = s.seed if s.seed is not None else random.SystemRandom().randrange(1, 2**31)
        game: Game | ManipulationGame
        rules = self._chosen_rules()
        rules.pack_for(players)
        game = ManipulationGame.new(rules, players, seed) if isinstance(rules, ManipulationRules) else \
            Game.new(rules, players, seed)
        you = self.query_one("#name", Input).value.strip() or "You"
        names = [you]
        kinds = [HUMAN]
        for seat in range(1, players):
            kind = self.query_one(f"#kind-{seat}", Select).value
            kinds.append(str(kind))
            seat_name = self.query_one(f"#seatname-{seat}", Input).value.strip() or f"Player {seat + 1}"
            while seat_name in names:
                seat_name += "'"
            names.append(seat_name)
        s.hints = self.query_one("#hints", Checkbox).value
        notes: list[str] = []
        if s.record is not None:
            keep_unfinished(s.record, notes.append)
        session: AnySession = (ManipulationSession(game, names, kinds, s.record)
                               if isinstance(game, ManipulationGame) else GameSession(game, names, kinds, s.record))
        session.start()
        app = self.app
        assert isinstance(app, ShanghaiApp)
        app.notes.extend(notes)
        return session


class ShanghaiApp(App[int]):
    """The terminal game. ``session``: a game to continue (otherwise the start screen opens)."""

    CSS = CSS
    TITLE = "Shanghai Rummy"

    def __init__(self, settings: Settings | None = None, session: AnySession | None = None,
                 notes: Sequence[str] = ()) -> None:
        super().__init__()
        self.settings = settings or Settings()
        self.session = session
        self.notes = list(notes)

    def on_mount(self) -> None:
        if self.session is not None:
            self.push_screen(self._table(self.session))
        else:
            self.push_screen(StartScreen(self.settings))

    def _table(self, session: AnySession) -> TableScreen | ManipulationScreen:
        s = self.settings
        if isinstance(session, GameSession):
            session.history = s.history
        if isinstance(session, ManipulationSession):
            return ManipulationScreen(session, pause=s.pause, hints=s.hints, notes=self.notes)
        return TableScreen(session, pause=s.pause, buy_timeout=s.buy_timeout, hints=s.hints, notes=self.notes,
                           take_back=s.take_back)

    def begin(self, session: AnySession) -> None:
        """Leave the start screen for the table."""
        self.session = session
        if session.record is not None:
            self.notes.append(f"The game is saved to {session.record.path} after every move.")
        self.switch_screen(self._table(session))

    @property
    def table(self) -> TableScreen:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        raise LookupError("no table yet")

    @property
    def manipulation_table(self) -> ManipulationScreen:
        """The table of a game of manipulation rummy."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, ManipulationScreen):
                return screen
        raise LookupError("no manipulation table yet")


def settings_from_args(args: argparse.Namespace) -> Settings:
    level = args.opponents if getattr(args, "opponents_given", True) else DEFAULT_LEVEL
    return Settings(rules=args.rules, options=split_options(args.option), players=args.players, name=args.name,
                    level=level, seed=args.seed, record=record_path(args), pause=max(args.pause, 0.0),
                    buy_timeout=max(args.buy_timeout, 0.0), take_back=max(args.take_back, 0.0),
                    history=None if args.no_history else default_db_path())


def run_tui(args: argparse.Namespace) -> int:
    """``shanghai play`` on a terminal: the start screen, or ``--resume`` the saved game."""
    import sys

    settings = settings_from_args(args)
    path = settings.record
    assert path is not None
    session: AnySession | None = None
    notes: list[str] = []
    if args.resume:
        if not path.exists():
            print(f"shanghai play: no saved game in {path} to resume; start one without --resume",
                  file=sys.stderr)
            return 2
        try:
            GameRecord.load(path)
        except (ShanghaiError, OSError, ValueError) as exc:  # not a record: bad input (2), as in the plain game
            print(f"shanghai play: cannot resume the game in {path}: {exc}", file=sys.stderr)
            return 2
        try:
            session = resume_session(path, settings.level)
        except (ShanghaiError, OSError, ValueError) as exc:
            print(f"shanghai play: cannot resume the game in {path}: {exc}", file=sys.stderr)
            return 1
        if session.game.is_over:
            print(f"The game in {path} is over. Start a new game without --resume.")
            return 0
        where = (f"hand {session.game.hand_number}" if isinstance(session, ManipulationSession)
                 else f"round {session.game.round_number}")
        notes.append(f"Resumed after {len(session.game.actions)} actions: {where}. "
                     f"Saved to {path} after every move.")
        if session.cut_off is not None:
            notes.append(cut_off_note(path, session.cut_off))
    if settings.seed is None:
        settings.seed = random.SystemRandom().randrange(1, 2**31)
    app = ShanghaiApp(settings, session, notes)
    code = app.run()
    if app.session is not None and not app.session.game.is_over and app.session.record is not None:
        record = app.session.record.path
        print(f"Game saved to {record}.")
        print(f"Continue it with: {resume_command(record)}")
    return int(code or 0)
