"""The wire protocol: JSON for views and actions, name checks and input limits (no I/O here).

Cards travel as their canonical text (``"10H"``, ``"QS"``, ``"JK"``); actions as the engine's
canonical text (``"2 layoff 9D m3 high"``) or as a structured object
(``{"verb": "layoff", "card": "9D", "meld": 3, "end": "high"}``). Manipulation rummy (protocol 2) has
its own actions (``play``, ``draw``, ``pass``) and its own view. See ``docs/protocol.md``.

>>> action_from_json({"verb": "discard", "card": "10h"}, seat=2)
Discard(seat=2, card=10H, shanghai=False)
>>> str(action_from_json("draw", seat=1))
'1 draw'
>>> action_to_json(action_from_json("3 layoff 9D m1 high", seat=3))["action"]
{'verb': 'layoff', 'card': '9D', 'meld': 1, 'end': 'high'}
>>> check_name("  Ann  ")
'Ann'
>>> check_name("<script>")
Traceback (most recent call last):
...
shanghai.server.protocol.ProtocolError: a name may hold letters, digits, spaces and . ' - _ only
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from shanghai.cards import Card, card_text, parse_card, sort_key
from shanghai.engine.actions import (
    Action,
    Buy,
    CallShanghai,
    Cut,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    Pass,
    ReplaceWild,
    TakeDiscard,
    parse_action,
)
from shanghai.engine.game import CutResult, RoundResult
from shanghai.engine.manipulation import (
    HandResult,
    ManipulationAction,
    ManipulationView,
    PlayToTable,
    parse_manipulation_action,
)
from shanghai.engine.view import MeldView, PlayerView
from shanghai.errors import IllegalActionError, InvalidMeldError
from shanghai.table_solver import Meld, canonical_table, check_meld, parse_table

PROTOCOL_VERSION = 2                # 2: manipulation rummy (its state and its play/draw/pass actions)
PROTOCOLS = (1, 2)                  # the versions a client may speak (1: the contract games only)

MAX_MESSAGE_BYTES = 8 * 1024        # a client message larger than this is refused (the connection stays)
MAX_FRAME_BYTES = 64 * 1024         # the WebSocket layer closes the connection (1009) beyond this
MAX_BODY_BYTES = 16 * 1024          # an HTTP request body larger than this is refused (413)
NAME_MAX = 24
RATE_PER_SECOND = 20.0              # sustained messages per second per connection
RATE_BURST = 40                     # messages allowed at once
MAX_STRIKES = 200                   # refused messages (any cause) before the server closes a connection

_NAME_RE = re.compile(r"^[\w .'\-]+$")


dumps = json.JSONEncoder(separators=(",", ":")).encode
"""A message's text: ``json.dumps(obj, separators=(",", ":"))`` without making an encoder each time."""


def json_template(obj: dict[str, Any], keys: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The JSON text of ``{**obj, **{key: value ...}}`` cut around the values of ``keys`` (and those keys
    in the order the text holds them), so that :func:`fill_template` makes that text for any values
    without encoding the rest of ``obj`` again (keys that ``obj`` lacks come last, in the order given).

    >>> template = json_template({"a": 1, "hand": [], "b": "x"}, ("seat", "hand"))
    >>> fill_template(template, {"seat": 2, "hand": ["7C"]}) == dumps({"a": 1, "hand": ["7C"], "b": "x", "seat": 2})
    True
    """
    marked = dict(obj)
    for key in keys:
        marked[key] = f"\x00{key}\x00"  # a string no name, card or action text can hold
    text = dumps(marked)
    order = tuple(k for k in marked if k in keys)
    pieces = []
    for key in order:
        head, sep, text = text.partition(dumps(f"\x00{key}\x00"))
        assert sep, key
        pieces.append(head)
    pieces.append(text)
    return tuple(pieces), order


def fill_template(template: tuple[tuple[str, ...], tuple[str, ...]], values: dict[str, Any]) -> str:
    """The text :func:`json_template` cut, with these values of its keys."""
    return fill_texts(template, {key: dumps(values[key]) for key in template[1]})


def fill_texts(template: tuple[tuple[str, ...], tuple[str, ...]], texts: dict[str, str]) -> str:
    """:func:`fill_template` with the values already in JSON."""
    pieces, order = template
    out = [pieces[0]]
    for key, piece in zip(order, pieces[1:], strict=True):
        out.append(texts[key])
        out.append(piece)
    return "".join(out)


def fill_some(template: tuple[tuple[str, ...], tuple[str, ...]],
              texts: dict[str, str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The template with the keys of ``texts`` filled in (their values already in JSON): a template of
    the other keys.

    >>> t = json_template({"a": 1, "hand": [], "history": []}, ("hand", "history"))
    >>> fill_template(fill_some(t, {"history": '["1 draw"]'}), {"hand": ["7C"]})
    '{"a":1,"hand":["7C"],"history":["1 draw"]}'
    """
    pieces, order = template
    out = [pieces[0]]
    keys = []
    for key, piece in zip(order, pieces[1:], strict=True):
        text = texts.get(key)
        if text is None:
            keys.append(key)
            out.append(piece)
        else:
            out[-1] += text + piece
    return tuple(out), tuple(keys)


def cards_text(cs: tuple[Card, ...] | list[Card]) -> str:
    """``dumps(cards(cs))`` (a card's text is letters and digits: nothing to escape).

    >>> from shanghai.cards import parse_cards
    >>> cards_text(parse_cards("10H JK")), cards_text([])
    ('["10H","JK"]', '[]')
    """
    if not cs:
        return "[]"
    return '["' + '","'.join(map(card_text, cs)) + '"]'


class ProtocolError(ValueError):
    """A client message or request the server refuses; ``code`` is a stable machine-readable word."""

    def __init__(self, message: str, code: str = "bad-request") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _no_constant(word: str) -> object:
    raise ValueError(f"{word} is not a JSON number")


_read_json = json.JSONDecoder(parse_constant=_no_constant).decode


def read_json(text: str | bytes, what: str = "the message") -> object:
    """A client's JSON text, or ``ProtocolError`` ``bad-json``: not JSON, not UTF-8, nested too deep,
    a number of more digits than Python reads, or NaN and Infinity (which are not JSON).

    >>> read_json('{"id": 1}')
    {'id': 1}
    >>> read_json('{"id": NaN}').code
    Traceback (most recent call last):
    ...
    shanghai.server.protocol.ProtocolError: the message is not JSON: NaN is not a JSON number
    """
    try:
        return _read_json(text.decode("utf-8") if isinstance(text, bytes) else text)
    except RecursionError:
        raise ProtocolError(f"{what} is not JSON: it is nested too deep", "bad-json") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, too many digits, NaN
        raise ProtocolError(f"{what} is not JSON: {str(exc).splitlines()[0][:120]}", "bad-json") from None


def check_name(raw: object) -> str:
    """A display name: 1 to ``NAME_MAX`` characters of letters, digits, spaces and ``. ' - _``."""
    if not isinstance(raw, str):
        raise ProtocolError("a name must be a string", "bad-name")
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise ProtocolError("a name cannot be empty", "bad-name")
    if len(name) > NAME_MAX:
        raise ProtocolError(f"a name may be at most {NAME_MAX} characters long", "bad-name")
    if not _NAME_RE.fullmatch(name):
        raise ProtocolError("a name may hold letters, digits, spaces and . ' - _ only", "bad-name")
    return name


# -- actions -----------------------------------------------------------------------------------------
_VERBS = ("cut", "draw", "take", "buy", "pass", "down", "layoff", "replace", "discard", "shanghai")


def _card(obj: object) -> str:
    if not isinstance(obj, str):
        raise ProtocolError("a card must be given as text like \"10H\"", "bad-action")
    return card_text(parse_card(obj))


def action_from_json(obj: object, seat: int) -> Action:
    """The action a seat sent: canonical text (with or without its seat number) or a structured
    object. A seat number other than ``seat`` is refused."""
    try:
        if isinstance(obj, str):
            text = obj.strip()
            if len(text) > 500:
                raise ProtocolError("the action text is too long", "bad-action")
            words = text.split()
            if words and words[0].lower() in _VERBS:
                text = f"{seat} {text}"
        elif isinstance(obj, dict):
            text = _structured_text(obj, seat)
        else:
            raise ProtocolError("an action is a text or an object with a \"verb\"", "bad-action")
        action = parse_action(text)
    except IllegalActionError as exc:
        raise ProtocolError(str(exc), "bad-action") from exc
    except ValueError as exc:
        if isinstance(exc, ProtocolError):
            raise
        raise ProtocolError(str(exc), "bad-action") from exc
    if action.seat != seat:
        raise ProtocolError(f"you sit in seat {seat}, not {action.seat}", "not-your-seat")
    return action


def _structured_text(obj: dict[str, Any], seat: int) -> str:
    verb = obj.get("verb")
    if verb not in _VERBS:
        raise ProtocolError(f"unknown verb {verb!r}; verbs are: {', '.join(_VERBS)}", "bad-action")
    if "seat" in obj and obj["seat"] != seat:
        raise ProtocolError(f"you sit in seat {seat}, not {obj['seat']}", "not-your-seat")
    parts = [str(seat), str(verb)]
    if verb == "cut":
        target = obj.get("target")
        if not isinstance(target, int) or isinstance(target, bool):
            raise ProtocolError("a cut needs an integer \"target\"", "bad-action")
        parts.append(str(target))
    elif verb == "down":
        melds = obj.get("melds")
        if not isinstance(melds, list) or not melds or len(melds) > 10:
            raise ProtocolError("going down needs \"melds\": [{\"kind\": \"set\", \"cards\": [...]}, ...]",
                                "bad-action")
        texts = []
        for m in melds:
            if not isinstance(m, dict) or m.get("kind") not in ("set", "run") or \
                    not isinstance(m.get("cards"), list) or not m["cards"] or len(m["cards"]) > 60:
                raise ProtocolError("each meld is {\"kind\": \"set\"|\"run\", \"cards\": [...]}", "bad-action")
            texts.append(f"{m['kind']} " + " ".join(_card(c) for c in m["cards"]))
        parts.append(" | ".join(texts))
    elif verb in ("layoff", "replace", "shanghai"):
        if verb != "shanghai":
            parts.append(_card(obj.get("card")))
        meld = obj.get("meld")
        if not isinstance(meld, int) or isinstance(meld, bool) or meld < 0:
            raise ProtocolError(f"{verb} needs a meld number \"meld\"", "bad-action")
        parts.append(f"m{meld}")
        end = obj.get("end")
        if end is not None and verb != "replace":
            if end not in ("low", "high"):
                raise ProtocolError("\"end\" is \"low\" or \"high\"", "bad-action")
            parts.append(str(end))
    elif verb == "discard":
        parts.append(_card(obj.get("card")))
        if obj.get("shanghai"):
            parts.append("shanghai")
    return " ".join(parts)


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"text": canonical text, "action": the structured form}`` (what clients may send back)."""
    body: dict[str, Any]
    if isinstance(action, Cut):
        body = {"verb": "cut", "target": action.target}
    elif isinstance(action, DrawStock):
        body = {"verb": "draw"}
    elif isinstance(action, TakeDiscard):
        body = {"verb": "take"}
    elif isinstance(action, Buy):
        body = {"verb": "buy"}
    elif isinstance(action, Pass):
        body = {"verb": "pass"}
    elif isinstance(action, GoDown):
        body = {"verb": "down", "melds": [{"kind": m.kind, "cards": cards(m.cards)} for m in action.melds]}
    elif isinstance(action, LayOff):
        body = {"verb": "layoff", "card": card_text(action.card), "meld": action.meld}
        if action.end:
            body["end"] = action.end
    elif isinstance(action, ReplaceWild):
        body = {"verb": "replace", "card": card_text(action.card), "meld": action.meld}
    elif isinstance(action, Discard):
        body = {"verb": "discard", "card": card_text(action.card)}
        if action.shanghai:
            body["shanghai"] = True
    else:
        assert isinstance(action, CallShanghai)
        body = {"verb": "shanghai", "meld": action.meld}
        if action.end:
            body["end"] = action.end
    return {"text": str(action), "action": body}


_ACTION_TEXTS: dict[Action, str] = {}
_ACTION_TEXTS_MAX = 50_000


def legal_text(actions: list[Action]) -> str:
    """``dumps([action_to_json(a) for a in actions])``, each action's text made once and kept (the same
    actions are offered again and again: draw, take, pass, the discards of a hand).

    >>> legal_text([DrawStock(1)]) == dumps([action_to_json(DrawStock(1))])
    True
    """
    if not actions:
        return "[]"
    texts = _ACTION_TEXTS
    parts = []
    for a in actions:
        text = texts.get(a)
        if text is None:
            if len(texts) >= _ACTION_TEXTS_MAX:
                texts.clear()
            text = texts[a] = dumps(action_to_json(a))
        parts.append(text)
    return f"[{','.join(parts)}]"


# -- views ---------------------------------------------------------------------------------------------
def cards(cs: tuple[Card, ...] | list[Card]) -> list[str]:
    return list(map(card_text, cs))


def _opt_card(c: Card | None) -> str | None:
    return None if c is None else card_text(c)


def _cut(c: CutResult | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return {"cutter": c.cutter, "target": c.target, "actual": c.actual, "needed": c.needed, "made": c.made}


def _round_result(r: RoundResult) -> dict[str, Any]:
    return {"number": r.number, "contract": r.contract, "dealer": r.dealer, "went_out": r.went_out,
            "points": list(r.points), "hands": [cards(h) for h in r.hands], "cut": _cut(r.cut),
            "slam": r.slam, "joker_free": list(r.joker_free), "blind_bonus": r.blind_bonus,
            "buys": list(r.buys), "down": list(r.down)}


def round_result_json(r: RoundResult) -> dict[str, Any]:
    return _round_result(r)


def _meld_json(m: MeldView) -> dict[str, Any]:
    return {"id": m.id, "owner": m.owner, "kind": m.kind, "cards": cards(m.cards), "wilds": list(m.wilds)}


def meld_json(m: MeldView) -> dict[str, Any]:
    """A meld of the table in JSON: ``{"id", "owner", "kind", "cards", "wilds"}``."""
    return _meld_json(m)


# a meld's JSON text by the identity of its (immutable) MeldView, which the engine keeps per meld on the
# table: checked on every hit
_MELD_TEXTS: dict[int, tuple[MeldView, str]] = {}


def melds_text(table: tuple[MeldView, ...]) -> str:
    """``dumps`` of ``view_to_json``'s ``"table"``, each meld encoded once."""
    parts = []
    for m in table:
        hit = _MELD_TEXTS.get(id(m))
        if hit is None or hit[0] is not m:
            if len(_MELD_TEXTS) > 20_000:
                _MELD_TEXTS.clear()
            hit = _MELD_TEXTS[id(m)] = (m, dumps(_meld_json(m)))
        parts.append(hit[1])
    return f"[{','.join(parts)}]"


def view_to_json(v: PlayerView, *, history: list[str] | None = None,
                 round_results: list[dict[str, Any]] | None = None,
                 table: list[Any] | None = None) -> dict[str, Any]:
    """A seat's view as JSON: its own hand, everything public, never another hand or the stock.

    ``history``, ``round_results`` (and ``table``) may be given already in JSON (the server keeps them
    per game, or splices in their text)."""
    return {
        "seat": v.seat,
        "players": v.players,
        "rules_name": v.rules_name,
        "round_number": v.round_number,
        "rounds": v.rounds,
        "contract": v.contract,
        "dealer": v.dealer,
        "phase": v.phase.value,
        "turn": v.turn,
        "to_act": list(v.to_act),
        "hand": cards(v.hand),
        "hand_counts": list(v.hand_counts),
        "down": list(v.down),
        "buys_used": list(v.buys_used),
        "buy_limit": v.buy_limit,
        "table": [_meld_json(m) for m in v.table] if table is None else table,
        "discard_top": _opt_card(v.discard_top),
        "discard_live": v.discard_live,
        "discard_size": v.discard_size,
        "stock_size": v.stock_size,
        "pending_wild": _opt_card(v.pending_wild),
        "buy_window": list(v.buy_window),
        "buy_claimant": v.buy_claimant,
        "shanghai_card": _opt_card(v.shanghai_card),
        "cut": _cut(v.cut),
        "totals": list(v.totals),
        "round_results": [_round_result(r) for r in v.round_results] if round_results is None else round_results,
        "history": [str(a) for a in v.history] if history is None else history,
    }


# -- manipulation rummy (protocol 2) -----------------------------------------------------------------
MAX_PLAY_CARDS = 60                 # cards a play may name (a hand is far smaller)
MAX_TABLE_MELDS = 120               # melds a table sent by a client may hold


@dataclass(frozen=True)
class PlayRequest:
    """``{"verb": "play", "cards": [...]}`` without a table: the server arranges the table itself
    (``play_exactly``) once it knows the message is in turn and on time."""

    seat: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.seat} play {' '.join(card_text(c) for c in self.cards)}"


def manipulation_action_from_json(obj: object, seat: int) -> ManipulationAction | PlayRequest:
    """A manipulation-rummy action a seat sent: text (``"play 7C : 5C 6C 7C | ..."``, ``"draw"``,
    ``"pass"``, or ``"play 7C 3C"`` to let the server arrange the table) or an object
    (``{"verb": "play", "cards": [...], "table": [[...], ...] or "text"}``, ``{"verb": "draw"}``,
    ``{"verb": "pass"}``). A seat number other than ``seat`` is refused.

    >>> request = manipulation_action_from_json({"verb": "play", "cards": ["7c", "3c"]}, 2)
    >>> str(request)
    '2 play 3C 7C'
    >>> str(manipulation_action_from_json("play 7C : 5C 6C 7C", 1))
    '1 play 7C : 5C 6C 7C'
    >>> manipulation_action_from_json({"verb": "draw"}, 0)
    DrawStock(seat=0)
    """
    try:
        action = _manipulation_action(obj, seat)
    except IllegalActionError as exc:
        raise ProtocolError(str(exc), "bad-action") from exc
    except ValueError as exc:
        if isinstance(exc, ProtocolError):
            raise
        raise ProtocolError(str(exc), "bad-action") from exc
    if action.seat != seat:
        raise ProtocolError(f"you sit in seat {seat}, not {action.seat}", "not-your-seat")
    return action


_MANIPULATION_VERBS = ("play", "draw", "pass")


def _manipulation_action(obj: object, seat: int) -> ManipulationAction | PlayRequest:
    if isinstance(obj, str):
        text = obj.strip()
        if len(text) > 2000:
            raise ProtocolError("the action text is too long", "bad-action")
        words = text.split()
        if words and words[0].lower() in _MANIPULATION_VERBS:
            text = f"{seat} {text}"
            words = text.split()
        if len(words) >= 2 and words[1].lower() == "play" and words[0].isdigit():
            placed_text, sep, table_text = text.split(None, 2)[2].partition(":") if len(words) > 2 else ("", "", "")
            placed = _play_cards(placed_text.replace(",", " ").split())
            if not sep:
                return PlayRequest(int(words[0]), placed)
            return PlayToTable(int(words[0]), placed, _table(table_text))
        return parse_manipulation_action(text)
    if not isinstance(obj, dict):
        raise ProtocolError("an action is a text or an object with a \"verb\"", "bad-action")
    verb = obj.get("verb")
    if verb not in _MANIPULATION_VERBS:
        raise ProtocolError(f"unknown verb {verb!r}; the verbs of manipulation rummy are: "
                            f"{', '.join(_MANIPULATION_VERBS)}", "bad-action")
    if "seat" in obj and obj["seat"] != seat:
        raise ProtocolError(f"you sit in seat {seat}, not {obj['seat']}", "not-your-seat")
    if verb == "draw":
        return DrawStock(seat)
    if verb == "pass":
        return Pass(seat)
    raw = obj.get("cards")
    if not isinstance(raw, list):
        raise ProtocolError("a play needs \"cards\": the cards placed from your hand", "bad-action")
    placed = _play_cards(raw)
    table = obj.get("table")
    if table is None:
        return PlayRequest(seat, placed)
    return PlayToTable(seat, placed, _table(table))


def _play_cards(raw: list[Any]) -> tuple[Card, ...]:
    if not raw:
        raise ProtocolError("a play places at least one card from your hand", "bad-action")
    if len(raw) > MAX_PLAY_CARDS:
        raise ProtocolError(f"a play names at most {MAX_PLAY_CARDS} cards", "bad-action")
    out = []
    for c in raw:
        if not isinstance(c, str):
            raise ProtocolError("a card must be given as text like \"10H\"", "bad-action")
        card = parse_card(c.strip().rstrip(","))
        if card_text(card) == "JK":
            raise ProtocolError("manipulation rummy is played without jokers", "bad-action")
        out.append(card)
    return tuple(sorted(out, key=sort_key))


def _table(raw: object) -> tuple[Meld, ...]:
    """A whole table sent by a client: melds as lists of cards, or the text form ``"7S 7H 7D | ..."``."""
    if isinstance(raw, str):
        if len(raw) > 4000:
            raise ProtocolError("the table text is too long", "bad-action")
        try:
            return parse_table(raw)
        except InvalidMeldError as exc:
            raise ProtocolError(f"the table would hold an illegal meld: {exc}", "illegal") from exc
    if not isinstance(raw, list) or len(raw) > MAX_TABLE_MELDS:
        raise ProtocolError(f"\"table\" is a list of at most {MAX_TABLE_MELDS} melds, each a list of cards, "
                            "or the table as text", "bad-action")
    melds: list[tuple[Card, ...]] = []
    for m in raw:
        if not isinstance(m, list) or not m or len(m) > 20 or not all(isinstance(c, str) for c in m):
            raise ProtocolError("each meld of \"table\" is a list of cards like [\"7S\", \"7H\", \"7D\"]",
                                "bad-action")
        melds.append(tuple(parse_card(c) for c in m))
    for i, meld in enumerate(melds):
        try:
            check_meld(meld)
        except InvalidMeldError as exc:
            raise ProtocolError(f"the table would hold an illegal meld (meld {i}): {exc}", "illegal") from exc
    return canonical_table(melds)


def manipulation_action_to_json(action: ManipulationAction) -> dict[str, Any]:
    """``{"text": canonical text, "action": the structured form}``.

    >>> from shanghai.table_solver import parse_table
    >>> from shanghai.cards import parse_cards
    >>> manipulation_action_to_json(PlayToTable(1, tuple(parse_cards("7C")), parse_table("5C 6C 7C")))["action"]
    {'verb': 'play', 'cards': ['7C'], 'table': [['5C', '6C', '7C']]}
    """
    body: dict[str, Any]
    if isinstance(action, PlayToTable):
        body = {"verb": "play", "cards": cards(action.placed), "table": [cards(m) for m in action.table]}
    elif isinstance(action, DrawStock):
        body = {"verb": "draw"}
    else:
        body = {"verb": "pass"}
    return {"text": str(action), "action": body}


def hand_result_json(r: HandResult) -> dict[str, Any]:
    return {"number": r.number, "dealer": r.dealer, "went_out": r.went_out, "points": list(r.points),
            "cards_left": list(r.cards_left)}


def manipulation_view_to_json(v: ManipulationView, *, history: list[str] | None = None,
                              hand_results: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A seat's view of manipulation rummy as JSON: its own hand (and the cards it drew this turn),
    everything public, never another hand or the stock."""
    over = v.phase.value == "game-over"
    high = max(v.totals) if over else None
    low = min(v.totals)
    return {
        "game": "manipulation",
        "seat": v.seat,
        "players": v.players,
        "rules_name": v.rules_name,
        "target_score": v.rules.target_score,
        "hand_number": v.hand_number,
        "dealer": v.dealer,
        "phase": v.phase.value,
        "turn": v.turn,
        "to_act": list(v.to_act),
        "hand": cards(v.hand),
        "drawn": cards(v.drawn),
        "hand_counts": list(v.hand_counts),
        "table": [cards(m) for m in v.table],
        "stock_size": v.stock_size,
        "draws_this_turn": v.draws_this_turn,
        "passes": v.passes,
        "totals": list(v.totals),
        "winners": [s for s, t in enumerate(v.totals) if t == low] if over else [],
        "losers": [s for s, t in enumerate(v.totals) if t == high] if over else [],
        "hand_results": [hand_result_json(r) for r in v.hand_results] if hand_results is None else hand_results,
        "history": [str(a) for a in v.history] if history is None else history,
    }


def placed_counts_ok(hand: list[Card] | tuple[Card, ...], placed: tuple[Card, ...]) -> Card | None:
    """The first placed card the hand lacks (counting copies), or None when the hand holds them all."""
    have = Counter(hand)
    for c, n in Counter(placed).items():
        if have[c] < n:
            return c
    return None
