"""The score pad of a game played in the program (the terminal game, a table on the server).

A game played here ends with the same facts a paper score pad keeps: who went out, who made THE
CUT, a blind go-out, and the cards left in every hand. :func:`pad_of_game` writes them on a
:class:`ScorePad`, so that the games played against the computer appear in the score pad's history
and statistics beside the games played with real cards. The pad scores the cards itself and must
agree with the engine's points: a difference is a bug, and is refused rather than stored.

>>> from shanghai.bots import GreedyPlayer
>>> from shanghai.bots.match import play_game
>>> from shanghai.rules import preset
>>> game = play_game(preset("isra-junior"), 3, seed=5, seats=[GreedyPlayer(s) for s in range(3)])
>>> pad = pad_of_game(game, ["Ann", "Bob", "Cy"])
>>> pad.is_finished, pad.totals == tuple(game.totals), pad.crown() == game.winners()
(True, True, True)
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path

from shanghai.cards import cards_text
from shanghai.engine.game import Game
from shanghai.errors import ShanghaiError
from shanghai.rules import Rules, preset
from shanghai.scorepad.model import HOUSE_RULES, MAX_NAME, Blind, HandEntry, ScorePad, ScorePadError
from shanghai.scorepad.render import record_line, rules_text
from shanghai.scorepad.stats import player_stats
from shanghai.scorepad.storage import ScorePadStore


def pad_house(rules: Rules) -> dict[str, int | bool]:
    """The house rules that touch scoring, as the score pad keeps them: every scoring rule where
    ``rules`` differ from their preset with its options.

    >>> from shanghai.rules import preset
    >>> pad_house(preset("isra").changed(joker_points=25, buy_penalty=1))
    {'joker_points': 25}
    """
    base = preset(rules.name, rules.options)
    return {key: getattr(rules, key) for key in HOUSE_RULES if getattr(rules, key) != getattr(base, key)}


def pad_of_game(game: Game, names: Sequence[str], *, note: str = "", own_rules: bool = False) -> ScorePad:
    """A score pad holding every round ``game`` has finished (all of them once it is over), for the
    players ``names`` (seat order).

    A score pad keeps a preset, its options and the house rules that score (:data:`HOUSE_RULES`);
    rules changed otherwise (the rounds, the card values) are refused with :class:`ScorePadError`,
    as are names a pad refuses (empty, duplicated, reserved). ``own_rules`` gives a pad scored by
    the game's own rules instead, whatever they changed: for statistics, not for a score pad
    database, which could not read those rules back. Either way each round must score as the engine
    scored it, or :class:`ScorePadError` says where it does not.
    """
    pad = ScorePad.new(game.rules.name, names, game.rules.options, pad_house(game.rules), note=note)
    if own_rules:
        pad = dataclasses.replace(pad, rules=game.rules)
    for result in game.round_results:
        blind: Blind | None = None
        if result.blind_bonus:
            blind = "no-joker" if result.went_out in result.joker_free else "joker"
        cut = result.cut.cutter if result.cut is not None and result.cut.made else None
        hands = {s: HandEntry.of_cards(cards_text(hand), pad.rules)
                 for s, hand in enumerate(result.hands) if s != result.went_out}
        try:
            entry = pad.score_round(hands, went_out=result.went_out, cut=cut, blind=blind)
        except ScorePadError as exc:
            raise ScorePadError(f"round {result.number} cannot be written on a score pad of {pad.preset}: {exc}") \
                from None
        if entry.points != result.points:
            raise ScorePadError(f"round {result.number}: a score pad of {rules_text(pad)} counts {list(entry.points)} "
                                f"points, the game {list(result.points)} (its rules score otherwise)")
        pad = pad.with_round(entry)
    if game.is_over and not pad.is_finished:
        raise ScorePadError(f"the game was over after {len(game.round_results)} rounds, a score pad of "
                            f"{pad.preset} has {pad.round_count}")
    return pad


def pad_names(names: Sequence[str], levels: Mapping[int, str]) -> list[str]:
    """The names on the score pad: a computer player's with its level (``levels``: by seat), so that
    its games are never counted as those of a person of the same name.

    >>> pad_names(["Ann", "Bob", "Cy"], {1: "expert", 2: "greedy"})
    ['Ann', 'Bob (expert)', 'Cy (greedy)']
    """
    out = []
    for seat, name in enumerate(names):
        level = levels.get(seat)
        if level is not None:
            suffix = f" ({level})"
            name = name[:max(1, MAX_NAME - len(suffix))].rstrip() + suffix
        out.append(name)
    return out


def keep_game(store: ScorePadStore, game: Game, names: Sequence[str], *, note: str = "") -> ScorePad:
    """Store the finished ``game`` in the score pad database ``store``; returns the stored pad (with
    its number). Raises :class:`ScorePadError` for a game that is not over or names a pad refuses."""
    if not game.is_over:
        raise ScorePadError("only a finished game is kept in the score pad's history")
    return store.create(pad_of_game(game, names, note=note))


def record_text(store: ScorePadStore, pad: ScorePad, seat: int) -> str:
    """One line on how the player in ``seat`` of the stored ``pad`` does over every finished game of
    the same rules in ``store`` (with real cards or in the program), under that player's name."""
    [s] = player_stats(store.load_all(), player=pad.players[seat], preset=pad.preset)
    return record_line(s, pad.preset)


def keep_played(db: Path, game: Game, names: Sequence[str], people: Sequence[int], *, note: str) -> list[str]:
    """Keep a finished game played in the program in the score pad database ``db`` and say so, with
    each person's record (``people``: their seats) under these rules. Never raises for the database or
    the names: the lines then say why the game was not kept, and the game itself is unharmed."""
    try:
        with ScorePadStore(db) as store:
            pad = keep_game(store, game, names, note=note)
            assert pad.id is not None
            lines = [f"Kept in the score pad's history as game {pad.id} (shanghai scorepad show {pad.id}; "
                     f"shanghai scorepad stats --rules {pad.preset})."]
            lines += [record_text(store, pad, s) + "." for s in people]
            return lines
    except (ShanghaiError, OSError, sqlite3.Error) as exc:  # ShanghaiError: the pad's, a preset this version lacks
        return [f"The game was not kept in the score pad's history ({db}): {exc}"]
