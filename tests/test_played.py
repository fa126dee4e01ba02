"""Games played in the program kept in the score pad's history (``shanghai.scorepad.played``), and
the statistics of one player across them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from shanghai.bots import ExpertPlayer, GreedyPlayer, RandomPlayer
from shanghai.bots.match import play_game
from shanghai.cli.play import TextGame, add_play_arguments, history_path
from shanghai.engine.game import Game
from shanghai.rules import PRESETS, preset
from shanghai.rules.presets import OPTION_PRESETS, OPTIONS
from shanghai.scorepad import ScorePadError, ScorePadStore, player_stats
from shanghai.scorepad.played import keep_game, keep_played, pad_house, pad_names, pad_of_game, record_text
from shanghai.scorepad.stats import RECENT, stats_of
from test_play import Script

# the options each preset takes
OPTION_PRESETS_OF = {name: tuple(OPTIONS) if name in OPTION_PRESETS else () for name in PRESETS}


def _finished(rules_name: str, players: int, seed: int, **changes: object) -> Game:
    rules = preset(rules_name).changed(**changes) if changes else preset(rules_name)
    kinds = (RandomPlayer, GreedyPlayer, ExpertPlayer)
    return play_game(rules, players, seed=seed, seats=[kinds[(s + seed) % 3](s) for s in range(players)])


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_the_pad_scores_every_round_as_the_engine_did(rules_name: str) -> None:
    """The pad scores the cards left in hand itself (docs/scorepad.md) and must agree with the engine
    on every round: points, who went out, THE CUT, a blind go-out; for every player count (the
    pack changes with it) and every option (may-i's black twos, ...)."""
    cuts = blinds = 0
    rules = preset(rules_name)
    options = [(), *((o,) for o in OPTION_PRESETS_OF.get(rules_name, ()))]
    for seed in range(6):
        players = rules.min_players + seed % (min(rules.max_players, 6) - rules.min_players + 1)
        option = options[seed % len(options)]
        game = play_game(preset(rules_name, option), players, seed=seed,
                         seats=[(RandomPlayer, GreedyPlayer, ExpertPlayer)[(s + seed) % 3](s) for s in range(players)])
        names = ["Ann", "Bob", "Cy", "Dee", "Ed", "Flo"][:players]
        pad = pad_of_game(game, names)
        assert pad.is_finished and pad.players == tuple(names)
        assert [r.points for r in pad.rounds] == [r.points for r in game.round_results]
        assert [r.went_out for r in pad.rounds] == [r.went_out for r in game.round_results]
        assert pad.totals == tuple(game.totals) and pad.crown() == game.winners()
        assert pad.dunce() == game.dunce()
        cuts += sum(r.cut is not None for r in pad.rounds)
        blinds += sum(r.blind is not None for r in pad.rounds)
    if preset(rules_name).the_cut:
        assert cuts > 0  # the cut's bonus was checked, not only games without one
    if preset(rules_name).blind_out_bonus:
        assert blinds > 0


def test_rules_a_pad_cannot_keep_are_refused_or_kept_as_the_games_own() -> None:
    """A score pad keeps a preset, its options and the scoring house rules; a table whose rules
    change the rounds or the card values is refused by name, or scored by its own rules for
    statistics (the server's history)."""
    short = _finished("isra-junior", 3, 1, rounds=preset("isra-junior").rounds[:1])
    with pytest.raises(ScorePadError, match="the game was over after 1 rounds, a score pad of isra-junior has 3"):
        pad_of_game(short, ["Ann", "Bob", "Cy"])
    pad = pad_of_game(short, ["Ann", "Bob", "Cy"], own_rules=True)
    assert pad.is_finished and pad.totals == tuple(short.totals)
    assert stats_of("Ann", [(pad, 0)]).games == 1
    base = preset("isra-junior")
    cheap_aces = _finished("isra-junior", 3, 2, rank_points=tuple(1 if r == 1 else p for r, p in
                                                                   enumerate(base.rank_points)))
    assert cheap_aces.totals != _finished("isra-junior", 3, 2).totals  # the same deal scored otherwise
    with pytest.raises(ScorePadError, match="its rules score otherwise"):
        pad_of_game(cheap_aces, ["Ann", "Bob", "Cy"])
    assert pad_of_game(cheap_aces, ["Ann", "Bob", "Cy"], own_rules=True).totals == tuple(cheap_aces.totals)


def test_computer_players_are_named_with_their_level() -> None:
    """So that a computer "Bob" is never counted as a person called Bob on the same score pad."""
    assert pad_names(["Ann", "Bob", "Cy"], {1: "expert", 2: "greedy"}) == ["Ann", "Bob (expert)", "Cy (greedy)"]
    long = pad_names(["A" * 30, "B"], {0: "expert"})[0]
    assert len(long) == 30 and long.endswith(" (expert)")


def test_house_rules_that_score_go_on_the_pad() -> None:
    game = _finished("isra-junior", 3, 1, joker_points=25, cut_bonus=20, buy_penalty=1)
    assert pad_house(game.rules) == {"joker_points": 25, "cut_bonus": 20}  # buys do not touch the pad
    pad = pad_of_game(game, ["Ann", "Bob", "Cy"])
    assert dict(pad.house) == {"joker_points": 25, "cut_bonus": 20}
    assert pad.totals == tuple(game.totals)


def test_only_a_finished_game_is_kept(tmp_path: Path) -> None:
    game = Game.new(preset("isra-junior"), 3, 1)
    with ScorePadStore(tmp_path / "pad.sqlite3") as store:
        with pytest.raises(ScorePadError, match="only a finished game"):
            keep_game(store, game, ["Ann", "Bob", "Cy"])
        assert store.load_all() == []


def test_keeping_never_fails_the_game(tmp_path: Path) -> None:
    game = _finished("isra-junior", 3, 2)
    db = tmp_path / "pad.sqlite3"
    lines = keep_played(db, game, ["Ann", "Q", "Cy"], [0], note="")
    assert lines == [f"The game was not kept in the score pad's history ({db}): 'Q' cannot be a player's name "
                     f"(the pad reads it as a command)"]
    with ScorePadStore(db) as store:
        assert store.load_all() == []
    bad = tmp_path / "not-a-database"
    bad.write_text("hello, I am not SQLite" * 100)
    [line] = keep_played(bad, game, ["Ann", "Bob", "Cy"], [0], note="")
    assert line.startswith(f"The game was not kept in the score pad's history ({bad}): ")


def test_each_kept_game_adds_to_the_players_record(tmp_path: Path) -> None:
    db = tmp_path / "pad.sqlite3"
    games = [_finished("isra-junior", 3, seed) for seed in range(RECENT + 2)]
    for i, game in enumerate(games, 1):
        lines = keep_played(db, game, ["Ann", "Bob", "Cy"], [0, 2], note=f"test {i}")
        assert lines[0] == (f"Kept in the score pad's history as game {i} (shanghai scorepad show {i}; "
                            f"shanghai scorepad stats --rules isra-junior).")
        assert lines[1].startswith(f"Ann's {i} finished isra-junior game") and lines[2].startswith("Cy's ")
    ann_totals = [g.totals[0] for g in games]
    with ScorePadStore(db) as store:
        pads = store.load_all()
        assert [p.note for p in pads] == [f"test {i}" for i in range(1, len(games) + 1)]
        [ann] = player_stats(pads, player="ann")
        assert ann.games == len(games) and ann.average_total == sum(ann_totals) / len(games)
        assert ann.recent_average == sum(ann_totals[-RECENT:]) / RECENT
        assert ann.wins == sum(0 in g.winners() for g in games)
        text = record_text(store, pads[-1], 0)
    assert f"(the last {RECENT} games: {ann.recent_average:.0f})" in text
    assert f"{ann.wins} won ({100 * ann.wins / len(games):.0f}%)" in text
    game = _finished("isra-junior", 3, 99)
    assert keep_played(db, game, ["You", "Bob", "Cy"], [0], note="")[1].startswith(
        "Your 1 finished isra-junior game: ")  # not "You's"; a record is by name


def test_stats_of_refuses_unfinished_games() -> None:
    game = Game.new(preset("isra-junior"), 3, 1)
    pad = pad_of_game(game, ["Ann", "Bob", "Cy"])
    with pytest.raises(ValueError, match="finished games only"):
        stats_of("Ann", [(pad, 0)])
    with pytest.raises(ValueError, match="no games"):
        stats_of("Ann", [])


def test_the_plain_game_keeps_the_finished_game_once(tmp_path: Path) -> None:
    db = tmp_path / "pad.sqlite3"
    out: list[str] = []
    script = Script()
    game = Game.new(preset("isra-junior"), 3, 3)
    tg = TextGame(game, ["Ann", "Bob", "Cy"], input_fn=script, output_fn=out.append, history=db)
    script.tg = tg
    assert tg.run() == 0
    text = "\n".join(out)
    assert "Kept in the score pad's history as game 1 (shanghai scorepad show 1" in text
    assert "Ann's 1 finished isra-junior game: " in text
    tg._game_over()  # shown again: not kept again
    with ScorePadStore(db) as store:
        [pad] = store.load_all()
    assert pad.totals == tuple(game.totals) and pad.note == "terminal game (plain), seed 3"
    assert pad.players == ("Ann", "Bob", "Cy")  # no levels given: the names as they are


def test_no_history_and_the_default_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    monkeypatch.setenv("SHANGHAI_DATA_DIR", str(tmp_path))
    assert history_path(parser.parse_args([])) == tmp_path / "scorepad.sqlite3"
    assert history_path(parser.parse_args(["--no-history"])) is None
    from shanghai.tui.app import settings_from_args  # the full-screen game's settings, the same way

    assert settings_from_args(parser.parse_args([])).history == tmp_path / "scorepad.sqlite3"
    assert settings_from_args(parser.parse_args(["--no-history"])).history is None



def test_a_players_record_in_words() -> None:
    from shanghai.scorepad import HandEntry, ScorePad
    from shanghai.scorepad.render import player_record_text

    def pad(game_id: int, players: list[str], hands: list[tuple[int, dict[int, int]]]) -> ScorePad:
        p = ScorePad.new("isra-junior", players)
        for out, points in hands:
            p = p.with_round(p.score_round({s: HandEntry(v) for s, v in points.items()}, went_out=out))
        return replace(p, id=game_id, created_at=f"2026-12-0{game_id}T10:00:00Z")

    pads = [pad(1, ["Ann", "Bob", "Cy"], [(0, {1: 20, 2: 30})] * 3),  # Ann 0, won
            pad(2, ["Bob", "ann", "Cy"], [(0, {1: 20, 2: 20})] * 3),  # ann 60, Cy 60: place 2
            pad(3, ["Ann", "Bob"] + ["Cy"], [(2, {0: 10, 1: 10})] * 3)]  # Ann and Bob 30: place 2
    text = player_record_text(pads, "ANN")
    assert text.splitlines()[0] == ("Ann's 3 finished isra-junior games: 1 won (33%), average 30, best 0, "
                                    "longest run of wins 1.")
    assert "  game 3  2026-12-03 10:00  isra-junior: 30, place 2 (Bob 30, Cy 0)" in text
    assert "  game 2  2026-12-02 10:00  isra-junior: 60, place 2 (Bob 0, Cy 60)" in text
    assert "  game 1  2026-12-01 10:00  isra-junior: 0, won (Bob 60, Cy 90)" in text
    assert player_record_text(pads, "Dee") == "No finished game of Dee yet.\n"


def test_the_servers_history_counts_a_table_with_changed_rounds() -> None:
    """A table may change any rule (``POST /api/tables``'s ``changes``), the rounds included: its
    finished game is counted by its own rules, not refused (once a 500 for every browser that sat there)."""
    from shanghai.server.tables import played_of

    game = _finished("isra-junior", 3, 1, rounds=preset("isra-junior").rounds[:1])
    played = played_of(game.rules, game, 3)
    assert played.status == "over" and played.pad is not None and played.pad.is_finished
    assert stats_of("you", [(played.pad, 0)]).average_total == game.totals[0]
