"""Game records: rules, seed, seats and the ordered actions, one JSON object per line.

The first line is the header; each further line is one action in its text form::

    {"format": "shanghai-record", "version": 1, "rules": {"preset": "isra"}, "seed": 7,
     "players": ["Ann", "Bob", "Cy", "Di"]}
    {"n": 0, "action": "3 cut 45"}
    {"n": 1, "action": "1 draw"}
    ...
    {"end": {"totals": [120, 35, 80, 210]}}

The reader is forgiving: blank lines and lines starting with ``#`` are skipped, an action line may
be a bare JSON string, and the ``end`` line is optional (when present, replay checks it).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shanghai.engine.games import AnyAction, AnyGame, apply_action, new_game, parse_game_action
from shanghai.errors import (
    InconsistentRulesError,
    RecordError,
    RuleNotImplementedError,
    ShanghaiError,
)
from shanghai.rules import OTHER_GAMES, PRESETS, AnyRules, ManipulationRules, game_rules, preset
from shanghai.rules.model import Contract, MeldRequirement, PackSpec, RoundSpec, Rules

# A look at the game around one of its actions: (game, the action's index, the action).
Step = Callable[[AnyGame, int, AnyAction], object]

FORMAT = "shanghai-record"
VERSION = 1


def rules_to_spec(rules: AnyRules) -> dict[str, Any]:
    """The preset name, its options and every rule changed from them (house rules)."""
    if isinstance(rules, ManipulationRules):
        if rules.name not in OTHER_GAMES:
            raise RecordError(f"rules {rules.name!r} are not based on a preset")
        other = game_rules(rules.name, rules.options)
        changed = {f.name: _to_json(getattr(rules, f.name)) for f in dataclasses.fields(rules)
                   if f.name != "options" and getattr(rules, f.name) != getattr(other, f.name)}
        return {"preset": rules.name, **({"options": list(rules.options)} if rules.options else {}),
                **({"changes": changed} if changed else {})}
    base_name = rules.name if rules.name in PRESETS else None
    if base_name is None:
        raise RecordError(f"rules {rules.name!r} are not based on a preset")
    base = preset(base_name, rules.options)
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(rules):
        if f.name in ("options",):
            continue
        value = getattr(rules, f.name)
        if value != getattr(base, f.name):
            changes[f.name] = _to_json(value)
    spec: dict[str, Any] = {"preset": base_name}
    if rules.options:
        spec["options"] = list(rules.options)
    if changes:
        spec["changes"] = changes
    return spec


def _to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    return value


def rules_from_spec(spec: dict[str, Any]) -> AnyRules:
    """Rules from a record's ``rules`` object."""
    if not isinstance(spec, dict) or "preset" not in spec:
        raise RecordError("the record's rules must name a preset")
    options = spec.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise RecordError(f"the record's rules cannot be used: options must be a list of names, not {options!r}")
    changes = spec.get("changes", {})
    if not isinstance(changes, dict):
        raise RecordError(f"the record's rules cannot be used: changes must be an object, not {changes!r}")
    if "options" in changes:
        raise RecordError("the record's rules cannot be used: options are given as \"options\", not as a change")
    if str(spec["preset"]).strip().lower() in OTHER_GAMES:
        return _other_game_rules(spec)
    try:
        rules = preset(str(spec["preset"]), options)
    except (ShanghaiError, RuleNotImplementedError) as exc:
        raise RecordError(f"the record's rules cannot be used: {exc}") from exc
    try:
        return _changed_contract_rules(rules, dict(changes))
    except (InconsistentRulesError, TypeError, KeyError, ValueError) as exc:
        raise RecordError(f"the record's rules cannot be used: {exc}") from exc


def _changed_contract_rules(rules: Rules, changes: dict[str, Any]) -> Rules:
    if "rounds" in changes:
        try:
            changes["rounds"] = tuple(
                RoundSpec(Contract(tuple(MeldRequirement(m["kind"], m["min_size"])
                                         for m in r["contract"]["melds"])), r["buys"], r.get("name", ""))
                for r in changes["rounds"])
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError("rounds must be a list of {\"contract\": {\"melds\": [{\"kind\", \"min_size\"}, ...]}, "
                             "\"buys\"} objects") from exc
    if "packs" in changes:
        changes["packs"] = _packs(changes["packs"])
    if isinstance(changes.get("rank_points"), list):
        changes["rank_points"] = tuple(changes["rank_points"])  # JSON's list; anything else is named by the check
    return rules.changed(**changes) if changes else rules


def _packs(raw: object) -> tuple[PackSpec, ...]:
    try:
        return tuple(PackSpec(**p) for p in raw)  # type: ignore[attr-defined]
    except TypeError as exc:
        raise ValueError("packs must be a list of {\"min_players\", \"max_players\", \"decks\", \"jokers\"} "
                         "objects") from exc


def _other_game_rules(spec: dict[str, Any]) -> ManipulationRules:
    try:
        base = game_rules(str(spec["preset"]), [str(o) for o in spec.get("options", [])])
    except ShanghaiError as exc:
        raise RecordError(f"the record's rules cannot be used: {exc}") from exc
    if not isinstance(base, ManipulationRules):  # pragma: no cover - OTHER_GAMES are manipulation
        raise RecordError(f"{spec['preset']} is not manipulation rummy")
    changes = dict(spec.get("changes", {}))
    try:
        if "packs" in changes:
            changes["packs"] = _packs(changes["packs"])
        if "deal_batches" in changes and isinstance(changes["deal_batches"], list):
            changes["deal_batches"] = tuple(changes["deal_batches"])
        return base.changed(**changes) if changes else base
    except (InconsistentRulesError, TypeError, KeyError, ValueError) as exc:
        raise RecordError(f"the record's rules cannot be used: {exc}") from exc


@dataclass
class GameRecord:
    """A game as its rules, seed, seats and actions."""

    rules: AnyRules
    seed: int
    players: list[str]
    actions: list[str] = field(default_factory=list)
    end_totals: list[int] | None = None
    cut_off: int | None = field(default=None, compare=False)  # the number of a last line left out: cut
    #                                                           off in the middle (a crash while writing)

    @classmethod
    def of(cls, game: AnyGame, names: Iterable[str] | None = None) -> GameRecord:
        players = list(names) if names is not None else [f"Player {i + 1}" for i in range(game.players)]
        return cls(game.rules, game.seed, players, [str(a) for a in game.actions],
                   list(game.totals) if game.is_over else None)

    def header(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "rules": rules_to_spec(self.rules),
                "seed": self.seed, "players": self.players}

    def to_jsonl(self) -> str:
        lines = [json.dumps(self.header(), ensure_ascii=False)]
        lines += [json.dumps({"n": i, "action": a}) for i, a in enumerate(self.actions)]
        if self.end_totals is not None:
            lines.append(json.dumps({"end": {"totals": self.end_totals}}))
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_jsonl(), encoding="utf-8")

    @classmethod
    def from_jsonl(cls, text: str) -> GameRecord:
        """A record from its text. A last line cut off in the middle (no line end after it, not JSON: the
        program writing it stopped there) is left out, its number kept in ``cut_off``.

        >>> text = GameRecord(preset("isra"), 7, ["Ann", "Bob", "Cy"], ["1 cut 40"]).to_jsonl()
        >>> GameRecord.from_jsonl(text + '{"n": 1, "act').cut_off
        3
        >>> GameRecord.from_jsonl(text + '{"n": 1, "act\\n')
        Traceback (most recent call last):
        ...
        shanghai.errors.RecordError: line 3: not JSON (Unterminated string starting at)
        """
        header: dict[str, Any] | None = None
        actions: list[str] = []
        end: list[int] | None = None
        cut_off: int | None = None
        lines = text.splitlines()
        last = max((i for i, raw in enumerate(lines, 1) if raw.strip()), default=0)
        for lineno, raw in enumerate(lines, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                if lineno == last and header is not None and not text.endswith(("\n", "\r")):
                    cut_off = lineno
                    break
                raise RecordError(f"line {lineno}: not JSON ({exc.msg})") from exc
            if header is None:
                if not isinstance(obj, dict) or obj.get("format") != FORMAT:
                    raise RecordError(f"line {lineno}: expected the header "
                                      f"{{\"format\": \"{FORMAT}\", ...}}")
                if obj.get("version", VERSION) > VERSION:
                    raise RecordError(f"line {lineno}: record version {obj['version']} is newer "
                                      f"than this program reads ({VERSION})")
                header = obj
                continue
            if isinstance(obj, str):
                actions.append(obj)
            elif isinstance(obj, dict) and "action" in obj:
                if "n" in obj and obj["n"] != len(actions):
                    raise RecordError(f"line {lineno}: action number {obj['n']} out of order "
                                      f"(expected {len(actions)})")
                actions.append(str(obj["action"]))
            elif isinstance(obj, dict) and "end" in obj:
                totals = obj["end"].get("totals") if isinstance(obj["end"], dict) else None
                if not isinstance(totals, list) or not all(isinstance(t, int) and not isinstance(t, bool)
                                                           for t in totals):
                    raise RecordError(f"line {lineno}: the end of the game must be {{\"end\": {{\"totals\": "
                                      f"[whole numbers, one a seat]}}}}, not {line}")
                end = list(totals) or None
            else:
                raise RecordError(f"line {lineno}: neither an action nor the end of the game")
        if header is None:
            raise RecordError("the record is empty: no header line")
        seed = header.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RecordError(f"the header's seed must be a whole number, not {seed!r}")
        players_raw = header.get("players")
        if not isinstance(players_raw, list) or not players_raw:
            raise RecordError(f"the header's players must be a list of names, not {players_raw!r}")
        players = [str(p) for p in players_raw]
        return cls(rules_from_spec(header.get("rules", {})), seed, players, actions, end, cut_off)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_jsonl(Path(path).read_text(encoding="utf-8"))

    def replay(self, *, each: Step | None = None, before: Step | None = None) -> AnyGame:
        """Play the record back; ``before(game, index, action)`` is called before every action is
        applied (the game as the actor saw it) and ``each(game, index, action)`` after.

        An illegal or unreadable action raises ``RecordError`` naming its index and the reason.
        """
        try:
            game = new_game(self.rules, len(self.players), self.seed)
        except InconsistentRulesError as exc:
            raise RecordError(f"the record's seats cannot play these rules: {exc}") from exc
        for i, text in enumerate(self.actions):
            try:
                action: AnyAction = parse_game_action(self.rules, text)
            except ValueError as exc:  # IllegalActionError included
                raise RecordError(f"action {i} ({text!r}): {exc}") from exc
            if before is not None:
                before(game, i, action)  # outside the try: its own errors are not the record's
            try:
                apply_action(game, action)
            except ValueError as exc:
                raise RecordError(f"action {i} ({text!r}): {exc}") from exc
            if each is not None:
                each(game, i, action)
        if self.end_totals is not None and game.is_over and list(game.totals) != self.end_totals:
            raise RecordError(f"the record ends with totals {self.end_totals} but replay gives "
                              f"{game.totals}")
        return game
