"""The tournament: statistics against hand-computed values, the duplicate format, the command."""

from __future__ import annotations

import inspect
import json
import math
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from shanghai.bots.expert import ExpertPlayer, ExpertSettings
from shanghai.bots.manipulation import ManipulationExpert
from shanghai.bots.registry import (
    HARD_SETTINGS,
    KNOWN_PLAYERS,
    SEARCH_ROLLOUTS,
    SEARCH_SETTINGS,
    EasyPlayer,
    make_player,
)
from shanghai.bots.search import SearchPlayer, greedy_policy
from shanghai.cli.main import main
from shanghai.rules import MANIPULATION, preset
from shanghai.stats import mean_ci, paired_difference, t_quantile, wilson_interval
from shanghai.tournament.report import result_from_records, summarize
from shanghai.tournament.runner import (
    DealTask,
    GameOutcome,
    SeatOutcome,
    TournamentResult,
    play_deal,
    run_tournament,
)

# -- statistics -----------------------------------------------------------------------------------
Z = 1.959963984540054


def test_wilson_interval_hand_computed() -> None:
    # 5 of 10: centre (0.5 + z²/20) / (1 + z²/10) = 0.5; half-width z*sqrt(0.025 + z²/400)/(1 + z²/10).
    half = Z * math.sqrt(0.025 + Z * Z / 400) / (1 + Z * Z / 10)
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.5 - half) and hi == pytest.approx(0.5 + half)
    assert lo == pytest.approx(0.236593, abs=1e-6) and hi == pytest.approx(0.763407, abs=1e-6)
    # 0 of 10: [0, z²/n / (1 + z²/n)] = [0, 3.84146/13.84146].
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.277533, abs=1e-6)
    # 10 of 10 mirrors 0 of 10.
    assert wilson_interval(10, 10) == pytest.approx((1 - 0.277533, 1.0), abs=1e-6)
    # shared wins may be fractional: 1.5 of 3 is 0.5 with a wider interval than 5 of 10.
    lo3, hi3 = wilson_interval(1.5, 3)
    assert (lo3 + hi3) / 2 == pytest.approx(0.5) and hi3 - lo3 > 0.5
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_t_quantile_table_values() -> None:
    # Standard table values of t(0.975, df).
    for df, expected in [(1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706), (10, 2.2281),
                         (30, 2.0423), (120, 1.9799)]:
        assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)
    assert t_quantile(0.95, 4) == pytest.approx(2.1318, abs=1e-4)
    assert t_quantile(0.5, 7) == 0.0
    assert t_quantile(0.025, 10) == pytest.approx(-2.2281, abs=1e-4)
    assert t_quantile(0.975, 1e6) == pytest.approx(Z, abs=1e-4)


def test_mean_ci_hand_computed() -> None:
    # [2, 4, 6, 8]: mean 5, s² = (9+1+1+9)/3 = 20/3, se = sqrt(20/12) = 1.290994, t(0.975, 3) = 3.182446,
    # half-width 4.108520.
    mean, ci = mean_ci([2.0, 4.0, 6.0, 8.0])
    assert mean == 5.0 and ci is not None
    half = 3.182446 * math.sqrt(20 / 12)
    assert ci == pytest.approx((5 - half, 5 + half), abs=1e-5)
    assert ci == pytest.approx((0.891480, 9.108520), abs=1e-5)
    assert mean_ci([3.0, 3.0, 3.0]) == (3.0, (3.0, 3.0))
    assert mean_ci([3.0]) == (3.0, None)
    with pytest.raises(ValueError):
        mean_ci([])


def test_paired_difference_hand_computed() -> None:
    # differences [1, -1, 3, 1]: mean 1, s² = (0+4+4+0)/3 = 8/3, se = sqrt(8/12), t(0.975, 3) = 3.182446.
    d = paired_difference([11.0, 9.0, 13.0, 12.0], [10.0, 10.0, 10.0, 11.0])
    assert d.n == 4 and d.mean == pytest.approx(1.0)
    assert d.ci is not None
    half = 3.182446 * math.sqrt(8 / 12)
    assert d.ci == pytest.approx((1 - half, 1 + half), abs=1e-5)
    with pytest.raises(ValueError, match="differ in length"):
        paired_difference([1.0], [1.0, 2.0])


# -- the registry ---------------------------------------------------------------------------------
def test_registry() -> None:
    assert type(make_player("random", 3)).__name__ == "RandomPlayer"
    assert KNOWN_PLAYERS == ("random", "greedy", "expert", "search")
    with pytest.raises(ValueError, match=r"'bogus'.*random, greedy"):
        make_player("bogus", 1)


# -- the duplicate format -------------------------------------------------------------------------
def test_every_entrant_plays_every_seat_of_each_deal() -> None:
    games = play_deal(DealTask(preset("isra-junior"), ("random", "random", "random"), seed=5, deal=2))
    assert [g.rotation for g in games] == [0, 1, 2]
    assert {g.seed for g in games} == {7}
    for entrant in range(3):
        assert sorted(s.seat for g in games for s in g.seats if s.entrant == entrant) == [0, 1, 2]
    for g in games:
        assert sum(s.win_share for s in g.seats) == pytest.approx(1.0)
        for s in g.seats:
            assert s.score == sum(s.round_points)
            assert len(s.round_points) == len(s.went_down) == len(s.buys) == 3


def test_rounds_up_to_whole_deals() -> None:
    result = run_tournament(preset("isra-junior"), ["random"] * 3, 4, seed=1)
    assert result.deals == 2 and result.games == 6 and result.games_requested == 4


def _seat(entrant: int, spec: str, seat: int, score: int, win: float) -> SeatOutcome:
    return SeatOutcome(entrant, spec, seat, score, (score,), (True,), (0,), 0, win)


def test_summary_pairs_hand_computed() -> None:
    # Two deals, two rotations each: deal 0 a scores 10, 20 and b 30, 40; deal 1 a scores 0, 0 and
    # b 0, 10 (its rotation 0 is a tie: the win is shared).
    outcomes = [
        GameOutcome(0, 0, 1, (_seat(0, "a", 0, 10, 1.0), _seat(1, "b", 1, 30, 0.0))),
        GameOutcome(0, 1, 1, (_seat(1, "b", 0, 40, 0.0), _seat(0, "a", 1, 20, 1.0))),
        GameOutcome(1, 0, 2, (_seat(0, "a", 0, 0, 0.5), _seat(1, "b", 1, 0, 0.5))),
        GameOutcome(1, 1, 2, (_seat(1, "b", 0, 10, 0.0), _seat(0, "a", 1, 0, 1.0))),
    ]
    result = TournamentResult(preset("isra-junior"), ("a", "b"), 1, 2, 4, outcomes)
    summary = summarize(result)
    a, b = summary["players"]
    assert (a["seat_spec"], a["games"], a["wins"], a["win_rate"]) == ("a", 4, 3.5, 0.875)
    assert (b["wins"], a["wins"] + b["wins"]) == (0.5, 4.0)
    assert a["mean_score"] == pytest.approx(7.5) and b["mean_score"] == pytest.approx(20.0)
    (pair,) = summary["pairs"]
    # deal diffs: (15 - 35) = -20 and (0 - 5) = -5: mean -12.5, s² = 112.5, se = 7.5,
    # t(0.975, 1) = 12.706205.
    assert pair["a"] == "a" and pair["b"] == "b" and pair["deals"] == 2
    assert pair["mean_score_diff"] == pytest.approx(-12.5)
    half = 12.706205 * 7.5
    assert pair["mean_score_diff_ci"] == pytest.approx([-12.5 - half, -12.5 + half], abs=1e-3)
    # win share per deal: a 1.0 and 0.75, b 0.0 and 0.25: se 0.125 for both, and the intervals,
    # t(0.975, 1) * 0.125 = 1.588 either side of 0.875 and 0.125, are cut to [0, 1]
    assert a["win_rate_deal_ci"] == b["win_rate_deal_ci"] == pytest.approx([0.0, 1.0])


def test_the_deal_win_interval_sees_what_rotations_share() -> None:
    # Duplicate format: in every deal the hand of seat 0 wins, whoever holds it, so each of two
    # entrants wins exactly one rotation of each deal. Taken as independent games (Wilson) a's
    # 10 wins of 20 leave its win rate anywhere in 0.30-0.70; deal by deal it is exactly one half.
    outcomes = [GameOutcome(d, r, d, (_seat(r, "a" if r == 0 else "b", 0, 0, 1.0),
                                      _seat(1 - r, "b" if r == 0 else "a", 1, 50, 0.0)))
                for d in range(10) for r in range(2)]
    summary = summarize(TournamentResult(preset("isra-junior"), ("a", "b"), 1, 10, 20, outcomes))
    a, b = summary["players"]
    assert a["win_rate"] == b["win_rate"] == 0.5
    lo, hi = a["win_rate_ci"]
    assert lo < 0.3 and hi > 0.7
    assert a["win_rate_deal_ci"] == pytest.approx([0.5, 0.5])
    # a wins both rotations of the last deal: per deal nine halves and a one, mean 0.55, s² = 0.025,
    # se = 0.05, t(0.975, 9) = 2.262157
    won = outcomes[:-1] + [GameOutcome(9, 1, 9, (_seat(1, "b", 0, 50, 0.0), _seat(0, "a", 1, 0, 1.0)))]
    a = summarize(TournamentResult(preset("isra-junior"), ("a", "b"), 1, 10, 20, won))["players"][0]
    assert a["win_rate"] == pytest.approx(0.55)
    half = 2.262157 * 0.05
    assert a["win_rate_deal_ci"] == pytest.approx([0.55 - half, 0.55 + half], abs=1e-5)
    # one deal: no spread to estimate
    one = summarize(TournamentResult(preset("isra-junior"), ("a", "b"), 1, 1, 2, outcomes[:2]))
    assert one["players"][0]["win_rate_deal_ci"] is None


# -- the command ----------------------------------------------------------------------------------
BASE = ["tournament", "--rules", "isra-junior", "--players", "3", "--seats", "random,random,random",
        "--games", "6", "--seed", "3"]


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, object]:
    assert main(argv) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_tournament_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "t.json"
    data = _json(capsys, [*BASE, "--json", "--out", str(out_file)])
    assert data["games"] == 6 and data["deals"] == 2
    players = data["players"]
    assert isinstance(players, list) and len(players) == 1
    p = players[0]
    for key in ("seat_spec", "games", "wins", "win_rate", "win_rate_ci", "win_rate_deal_ci", "mean_score",
                "mean_score_ci",
                "points_per_round", "points_per_round_ci", "contract_rate", "buys_per_round", "slams"):
        assert key in p
    assert p["seat_spec"] == "random" and p["games"] == 18
    assert sum(q["wins"] for q in players) == pytest.approx(data["games"])
    lo, hi = p["win_rate_ci"]
    assert 0 <= lo <= p["win_rate"] <= hi <= 1
    lo, hi = p["mean_score_ci"]
    assert lo <= p["mean_score"] <= hi
    assert json.loads(out_file.read_text()) == data


def test_tournament_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*BASE[:-4], "--games", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "random" in out and "lower is better" in out
    assert "deal as the unit" not in out  # one deal: no spread to estimate
    assert main([*BASE[:-4], "--games", "6", "--seed", "1"]) == 0
    assert "win rate with the deal as the unit" in capsys.readouterr().out


def test_same_seed_same_json_whatever_workers(capsys: pytest.CaptureFixture[str]) -> None:
    one = _json(capsys, [*BASE, "--json", "--workers", "1"])
    two = _json(capsys, [*BASE, "--json", "--workers", "2"])
    assert one == two
    other = _json(capsys, [*BASE[:-1], "4", "--json"])
    assert other != one


def test_ray_backend_on_a_local_two_cpu_ray_equals_the_local_backend(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")  # an optional extra; `make test` installs it, so CI runs this
    local = _json(capsys, [*BASE, "--json"])
    on_ray = _json(capsys, [*BASE, "--json", "--backend", "ray", "--workers", "2"])
    assert on_ray == local


def test_ray_backend_without_ray_says_how_to_install(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    assert main([*BASE, "--backend", "ray"]) == 2
    assert "pip install 'shanghai[ray]'" in capsys.readouterr().err


def test_rounds_plays_only_the_rounds_named(capsys: pytest.CaptureFixture[str]) -> None:
    # isra-junior has SET SET, SET RUN, RUN RUN; "--rounds 2" plays SET RUN alone in every game
    data = _json(capsys, [*BASE, "--json", "--rounds", "2"])
    assert data["rounds"] == [2] and data["rules"] == "isra-junior"
    p = data["players"][0]  # type: ignore[index]
    assert p["points_per_round"] == pytest.approx(p["mean_score"])  # one round a game
    whole = _json(capsys, [*BASE, "--json"])
    assert "rounds" not in whole
    assert whole["players"][0]["points_per_round"] != whole["players"][0]["mean_score"]  # type: ignore[index]
    assert main([*BASE, "--rounds", "1-2"]) == 0
    assert "rounds:   only 1, 2" in capsys.readouterr().out


def test_search_budget_in_the_seat_name(capsys: pytest.CaptureFixture[str]) -> None:
    # "search:N" is the search player with N iterations a decision; each budget is its own entrant
    assert make_player("search:3", 1).iterations == 3  # type: ignore[union-attr]
    assert make_player("search", 1).iterations == 8  # type: ignore[union-attr]
    argv = ["tournament", "--rules", "isra-junior", "--rounds", "1", "--seats", "search:1,search:2,random",
            "--games", "3", "--seed", "2", "--json"]
    data = _json(capsys, argv)
    assert [p["seat_spec"] for p in data["players"]] == ["search:1", "search:2", "random"]  # type: ignore[index]
    assert _json(capsys, argv) == data  # a fixed number of iterations reproduces the games


def test_settings_in_the_seat_name_reach_the_player() -> None:
    # "NAME:KEY=VALUE:...": the settings of the expert (on top of the level's own for "hard"),
    # of the search player and of level easy; case and spaces do not matter
    expert = make_player(" Expert:Buy_Missing=5:feed_weight=0.5:greedy_rounds=5+7:lookahead=false ", 1)
    assert isinstance(expert, ExpertPlayer)
    assert expert.settings == replace(ExpertSettings(), buy_missing=5, feed_weight=0.5, greedy_rounds=(5, 7))
    hard = make_player("hard:mistakes=0.2", 1)
    assert isinstance(hard, ExpertPlayer) and hard.settings == replace(HARD_SETTINGS, mistakes=0.2)
    easy = make_player("easy:mistakes=0.5", 1)
    assert isinstance(easy, EasyPlayer) and easy.mistakes == 0.5
    search = make_player("search:16:top_k=2:confidence=0.5:rollout=greedy:rollout_turns=8:search_buys=true", 1)
    assert isinstance(search, SearchPlayer)
    assert (search.iterations, search.top_k, search.confidence, search.rollout_turns, search.search_buys) == \
        (16, 2, 0.5, 8, True)
    assert search.rollout is greedy_policy
    assert make_player("search:iterations=4", 1).iterations == 4  # type: ignore[union-attr]
    manipulation = make_player("expert:reserve=true", 1, MANIPULATION)
    assert isinstance(manipulation, ManipulationExpert) and manipulation.settings.reserve


def test_search_settings_default_to_the_search_players_own() -> None:
    # SEARCH_SETTINGS repeats SearchPlayer's defaults (rollout_turns 0 = None, rollout by name,
    # the tournament's 8 iterations): "search:8" must be the search player itself
    defaults = {k: v.default for k, v in inspect.signature(SearchPlayer.__init__).parameters.items()
                if v.default is not inspect.Parameter.empty}
    for key, value in SEARCH_SETTINGS.items():
        if key == "rollout":
            assert SEARCH_ROLLOUTS[value] is ExpertPlayer  # the strongest player's rollouts
        elif key == "rollout_turns":
            assert value == 0 and defaults[key] is None
        elif key == "iterations":
            assert value == 8 and defaults[key] is None  # the player's own default is its time budget
        else:
            assert defaults[key] == value, key


def test_default_settings_spelled_out_play_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    # an entrant whose settings are the defaults plays exactly the games of the plain name
    def scores(seats: str, games: int = 6) -> list[float]:
        argv = ["tournament", "--rules", "isra-junior", "--seats", seats, "--games", str(games), "--seed", "3",
                "--json"]
        return [p["mean_score"] for p in _json(capsys, argv)["players"]]  # type: ignore[index]
    assert scores("expert,greedy,random") == scores("expert:buy_missing=3:feed_weight=1,greedy,random")
    # one deal in its three rotations for the search (seconds a game)
    assert scores("search,greedy,random", 3) == scores("search:8:top_k=3:rollout=expert,greedy,random", 3)
    changed = scores("expert:buy_missing=0:danger_prior=0,greedy,random")
    assert changed != scores("expert,greedy,random")  # and a setting does change the play


def test_games_rounded_up_with_a_note(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*BASE[:-4], "--games", "2", "--seed", "1", "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 3
    assert "playing 3" in captured.err


@pytest.mark.parametrize("argv, message", [
    (["--seats", "random,bogus,random"], "unknown player 'bogus'"),
    (["--seats", "search:0,random,random"], "'search:0': the number of iterations must be"),
    (["--seats", "search:1s,random,random"], "'search:1s': the number of iterations must be"),
    (["--seats", "search:,random,random"], "'search:': the number of iterations must be"),
    (["--rules", "manipulation", "--seats", "search:4:top_k=2,random,random"], "search has no setting 'top_k'"),
    (["--seats", "expert:buy_mising=5,random,random"], "expert has no setting 'buy_mising' (known: buy_missing,"),
    (["--seats", "expert:buy_missing=-1,random,random"], "buy_missing must be at least 0, not '-1'"),
    (["--seats", "expert:buy_missing=2.5,random,random"], "buy_missing is a whole number, not '2.5'"),
    (["--seats", "expert:feed_weight=nan,random,random"], "feed_weight must be at least 0, not 'nan'"),
    (["--seats", "hard:mistakes=1.5,random,random"], "mistakes must be from 0.0 to 1.0, not '1.5'"),
    (["--seats", "expert:lookahead=maybe,random,random"], "lookahead is true or false, not 'maybe'"),
    (["--seats", "expert:greedy_rounds=5+x,random,random"], "greedy_rounds is round numbers joined by '+'"),
    (["--seats", "expert:mistakes=0.1:mistakes=0.2,random,random"], "'mistakes' is given twice"),
    (["--seats", "expert:5,random,random"], "a setting is written KEY=VALUE, not '5'"),
    (["--seats", "greedy:x=1,random,random"], "'greedy:x=1': greedy has no settings"),
    (["--seats", "search:8:rollout=random,random,random"], "rollout is one of expert, greedy, not 'random'"),
    (["--seats", "search:8:budget_s=1,random,random"], "search has no setting 'budget_s'"),
    (["--seats", "search:top_k=0,random,random"], "top_k must be from 1 to 64, not '0'"),
    (["--rules", "manipulation", "--seats", "expert:reserve=2,random,random"], "reserve is true or false"),
    (["--rules", "manipulation", "--seats", "expert:buy_missing=2,random,random"], "expert has no setting"),
    (["--seats", "random,random", "--players", "3"], "--players 3"),
    (["--ray-address", "auto"], "--ray-address needs --backend ray"),
    (["--workers", "0"], "--workers"),
    (["--games", "0"], "--games"),
    (["--rounds", "4"], "rounds 1 to 3, not 4"),
    (["--rounds", "2-x"], "not a round number"),
    (["--rounds", "3-2"], "runs backwards"),
    (["--rules", "manipulation", "--players", "4", "--rounds", "1"], "no numbered contract rounds"),
    (["--games-out", "/no-such-folder/games.jsonl"], "no folder"),
    (["--out", "."], "is a folder"),
    (["--out", "t.json", "--games-out", "./t.json"], "name the same file"),
])
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    base = ["tournament", "--rules", "isra-junior", "--games", "3"]
    assert main([*base, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_no_rules_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--seats", "random,random,random"]) == 2
    assert "--rules" in capsys.readouterr().err


def test_games_out_writes_every_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    data = _json(capsys, [*BASE, "--json", "--games-out", str(path)])
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == data["games"] == 6
    assert [(r["deal"], r["rotation"]) for r in records] == [(d, r) for d in range(2) for r in range(3)]
    scores = []
    for r in records:
        assert r["seed"] == 3 + r["deal"]
        assert [s["seat"] for s in r["seats"]] == [0, 1, 2]
        assert sum(s["win_share"] for s in r["seats"]) == pytest.approx(1.0)
        for s in r["seats"]:
            assert s["player"] == "random" and s["score"] == sum(s["round_points"])
            assert len(s["round_points"]) == len(s["went_down"]) == len(s["buys"]) == 3
            scores.append(s["score"])
    (p,) = data["players"]  # type: ignore[misc]
    assert p["mean_score"] == pytest.approx(sum(scores) / len(scores))


def _example(name: str = "handicap") -> object:
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{name}_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_handicap_example_reads_games_out(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    assert main([*BASE, "--seats", "greedy,random,random", "--games-out", str(path)]) == 0
    capsys.readouterr()
    example = _example()
    lines = path.read_text().splitlines()
    table = example.handicap_table(lines, [0, 10_000], None)  # type: ignore[attr-defined]
    # every seat: the win shares of a game add up to 1, so 1/3 of three seats; a huge handicap wins all
    assert table[0][:2] == (0, 18) and table[0][2] == pytest.approx(1 / 3)
    assert table[1][2] == pytest.approx(1.0)
    (row,) = example.handicap_table(lines, [0], "greedy")  # type: ignore[attr-defined]
    wins = sum(s["win_share"] for line in lines for s in json.loads(line)["seats"] if s["player"] == "greedy")
    assert row[1] == 6 and row[2] == pytest.approx(wins / 6)
    assert example.main([str(path), "0", "--player", "expert"]) == 2  # type: ignore[attr-defined]
    assert "no games of player 'expert'" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"deal": 0}\n')
    assert example.main([str(bad), "10"]) == 2  # type: ignore[attr-defined]
    assert "line 1: not a game written by --games-out" in capsys.readouterr().err


def test_caught_example_counts_rounds_not_gone_down(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # The README's "who gets caught" figures come from examples/caught.py: per player, the share of
    # its rounds it never went down in, and its win rate by how many of the named rounds that was
    path = tmp_path / "games.jsonl"
    assert main([*BASE, "--seats", "greedy,random,random", "--games-out", str(path)]) == 0
    capsys.readouterr()
    example = _example("caught")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    stats = example.count_catches(records, [2, 3])  # type: ignore[attr-defined]
    seats = [s for g in records for s in g["seats"] if s["player"] == "random"]
    assert stats["random"].games == len(seats) == 12
    for r in range(3):
        assert stats["random"].caught[r] == sum(not s["went_down"][r] for s in seats)
        assert stats["random"].points[r] == sum(s["round_points"][r] for s in seats)
    by = stats["random"].by_caught
    assert sum(n for n, _ in by.values()) == 12
    assert by[2][0] == sum(1 for s in seats if not s["went_down"][1] and not s["went_down"][2])
    assert sum(w for _, w in by.values()) + sum(w for _, w in stats["greedy"].by_caught.values()) == 6
    assert example.main([str(path)]) == 0  # type: ignore[attr-defined]
    out = capsys.readouterr().out
    assert "greedy: 6 seat-games" in out and "caught in rounds 1,2,3" in out  # the last three
    assert example.main([str(path), "--rounds", "4"]) == 2  # type: ignore[attr-defined]
    assert "these rules have rounds 1 to 3, not 4" in capsys.readouterr().err
    old = records[0]
    del old["seats"][0]["went_down"]
    path.write_text(json.dumps(old) + "\n")
    assert example.main([str(path)]) == 2  # type: ignore[attr-defined]
    assert "does not say which rounds each seat went down in" in capsys.readouterr().err
    path.write_text("")
    assert example.main([str(path)]) == 2  # type: ignore[attr-defined]
    assert "no games in the file" in capsys.readouterr().err


def test_compare_runs_example_pairs_two_runs_deal_by_deal(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    # The README's "with minus without" figures come from examples/compare_runs.py: two runs on the
    # same deals, one entrant changed, compared deal by deal (a deal's rotations averaged)
    a, b, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "other.jsonl"
    assert main([*BASE, "--seats", "greedy,random,random", "--games-out", str(a)]) == 0
    assert main([*BASE, "--seats", "random,random,random", "--games-out", str(b)]) == 0
    example = _example("compare_runs")
    runs = [example.load_games(p.read_text().splitlines()) for p in (a, b)]  # type: ignore[attr-defined]
    rows = dict(example.compare(*runs))  # type: ignore[attr-defined]
    per_deal: dict[str, dict[int, list[float]]] = {"a": {}, "b": {}}
    for name, path in (("a", a), ("b", b)):
        for line in path.read_text().splitlines():
            game = json.loads(line)
            me = next(s for s in game["seats"] if s["entrant"] == 0)
            others = [s["score"] for s in game["seats"] if s["entrant"] != 0]
            per_deal[name].setdefault(game["deal"], []).append(me["score"] - sum(others) / len(others))
    diffs = [sum(per_deal["a"][d]) / 3 - sum(per_deal["b"][d]) / 3 for d in per_deal["a"]]
    assert rows["lead"].n == 2 and rows["lead"].mean == pytest.approx(sum(diffs) / 2)
    assert rows["lead"].mean < -100  # greedy leads random players by hundreds of points
    for row, key in (("score", "score"), ("win share", "win_share")):
        totals = [sum(s[key] for line in p.read_text().splitlines() for s in json.loads(line)["seats"]
                      if s["entrant"] == 0) for p in (a, b)]
        assert rows[row].mean == pytest.approx((totals[0] - totals[1]) / 6)  # 2 deals of 3 games
    assert {"round 1 points", "round 3 lead"} <= rows.keys()
    same = dict(example.compare(runs[0], runs[0]))  # type: ignore[attr-defined]
    assert all(d.mean == 0 and d.ci == (0, 0) for d in same.values())
    capsys.readouterr()
    assert example.main([str(a), str(b), "--entrant", "1"]) == 0  # type: ignore[attr-defined]
    assert "entrant 1, A minus B, per deal (2 deals)" in capsys.readouterr().out
    # other deals (another seed) are refused, naming the first game that differs
    assert main([*BASE[:-1], "4", "--games-out", str(other)]) == 0
    capsys.readouterr()
    assert example.main([str(a), str(other)]) == 2  # type: ignore[attr-defined]
    assert "deal 0 rotation 0 was dealt from seed 3 in A and 4 in B" in capsys.readouterr().err
    assert example.main([str(a), str(b), "--entrant", "5"]) == 2  # type: ignore[attr-defined]
    assert "no entrant 5 among 3 seats" in capsys.readouterr().err
    assert main([*BASE, "--rounds", "1", "--games-out", str(other)]) == 0  # the same deals, one round
    capsys.readouterr()
    assert example.main([str(a), str(other)]) == 2  # type: ignore[attr-defined]
    assert "games of different rules or rounds (isra-junior, all rounds; isra-junior, rounds 1)" \
        in capsys.readouterr().err  # the files say which rounds their games played
    twice = json.loads(b.read_text().splitlines()[0])
    twice["seats"][1]["entrant"] = 0
    other.write_text("\n".join([json.dumps(twice), *b.read_text().splitlines()[1:]]) + "\n")
    assert example.main([str(b), str(other)]) == 2  # type: ignore[attr-defined]
    assert "deal 0 rotation 0: entrant 0 sits in 2 seats" in capsys.readouterr().err
    a.write_text(a.read_text() + '{"deal": 0}\n')
    assert example.main([str(a), str(b)]) == 2  # type: ignore[attr-defined]
    assert "line 7: not a game written by --games-out" in capsys.readouterr().err


def test_the_examples_stop_quietly_when_their_reader_goes_away(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    # as after '| head': the reading end of the pipe is closed before they write. No
    # BrokenPipeError traceback, exit 0 (cli.common.stdout_gone, shared with the command line)
    import os
    import subprocess
    import sys

    path = tmp_path / "games.jsonl"
    assert main([*BASE, "--seats", "greedy,random,random", "--games-out", str(path)]) == 0
    capsys.readouterr()
    examples = Path(__file__).resolve().parent.parent / "examples"
    for command in ([sys.executable, str(examples / "compare_runs.py"), str(path), str(path)],
                    [sys.executable, str(examples / "handicap.py"), str(path), "0", "10"],
                    [sys.executable, str(examples / "caught.py"), str(path)],
                    [str(Path(sys.executable).parent / "shanghai"), "rules", "isra"]):  # the command line
        read, write = os.pipe()
        os.close(read)
        try:
            done = subprocess.run(command, stdout=write, stderr=subprocess.PIPE, text=True, timeout=60,
                                  check=False)
        finally:
            os.close(write)
        assert (done.returncode, done.stderr) == (0, ""), command


def test_a_games_out_file_is_read_back_checked(tmp_path: Path) -> None:
    from shanghai.tournament.report import read_game_records

    path = tmp_path / "games.jsonl"
    assert main([*BASE, "--seats", "greedy,random,random", "--games-out", str(path)]) == 0
    lines = path.read_text().splitlines()
    games = read_game_records(["", *lines, "  "], "g.jsonl")
    assert [(g["deal"], g["rotation"]) for g in games] == [(d, r) for d in range(2) for r in range(3)]
    with pytest.raises(ValueError, match=r"g.jsonl, line 7: deal 0 rotation 0 is there twice"):
        read_game_records([*lines, lines[0]], "g.jsonl")
    broken = json.loads(lines[1])
    broken["seats"][2]["round_points"].pop()
    with pytest.raises(ValueError, match=r"line 2: not a game .* different numbers of rounds"):
        read_game_records([lines[0], json.dumps(broken)], "g.jsonl")
    del broken["seats"][0]["player"]
    with pytest.raises(ValueError, match=r"line 1: not a game written by --games-out \('player'\)"):
        read_game_records([json.dumps(broken)])


def test_clairvoyant_example_without_a_peek_plays_the_tournaments_games(
        capsys: pytest.CaptureFixture[str]) -> None:
    # The README's bound on the 40% goal comes from examples/clairvoyant.py: with nothing to peek
    # at it must be the tournament's expert against three greedy, game for game.
    assert main(["tournament", "--rules", "isra", "--seats", "expert,greedy,greedy,greedy",
                 "--games", "4", "--seed", "300001", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    wins = next(p["wins"] for p in report["players"] if p["seat_spec"] == "expert")
    diff = report["pairs"][0]["mean_score_diff"]
    example = _example("clairvoyant")
    assert example.main(["--peek", "none", "--games", "4", "--seed", "300001"]) == 0  # type: ignore[attr-defined]
    out = capsys.readouterr().out
    assert f"wins {wins:g} of 4 " in out
    assert f"greedy: {diff:+.1f} (one deal: no interval)" in out
    # every peek still plays only legal actions (the engine raises on any other)
    assert example.main(["--peek", "all", "--games", "4", "--seed", "300001"]) == 0  # type: ignore[attr-defined]
    assert "peek all: 4 games" in capsys.readouterr().out
    assert example.main(["--games", "6"]) == 2  # type: ignore[attr-defined]
    assert "--games must be a positive multiple of 4, not 6" in capsys.readouterr().err


def test_teacher_example_plays_the_tournaments_expert_games_and_a_legal_search(
        capsys: pytest.CaptureFixture[str]) -> None:
    # The README's search-as-teacher screen comes from examples/teacher.py: its expert games must be
    # the tournament's (expert against three greedy, the same round and seed), game for game.
    assert main(["tournament", "--rules", "isra", "--seats", "expert,greedy,greedy,greedy", "--rounds", "4",
                 "--games", "4", "--seed", "4700001", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    expert = next(p for p in report["players"] if p["seat_spec"] == "expert")
    example = _example("teacher")
    assert example.main(["--round", "4", "--games", "4", "--seed", "4700001"]) == 0  # type: ignore[attr-defined]
    out = capsys.readouterr().out
    assert f"its own points {expert['mean_score']:.2f}," in out
    # the search's games ran to the end (the engine raises on an illegal action) and were counted
    searched = re.search(r"left the expert's choice in (\d+) of its (\d+) searched decisions", out)
    assert searched is not None and 0 <= int(searched[1]) <= int(searched[2]) and int(searched[2]) > 0
    assert example.main(["--round", "8", "--games", "6"]) == 2  # type: ignore[attr-defined]
    err = capsys.readouterr().err
    assert "--round must be 1 to 7, not 8" in err and "--games must be a positive multiple of 4, not 6" in err


def test_pool_runs_example_reports_runs_of_other_deals_as_one(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    # A long tournament played as runs of consecutive deals (--seed 3 and --seed 5, two deals each:
    # the game seeds 3-6) is reported as one over all their games; a deal in two files is refused.
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    seats = ["--seats", "greedy,random,random"]
    one = _json(capsys, [*BASE[:-2], *seats, "--seed", "3", "--json", "--games-out", str(a)])
    two = _json(capsys, [*BASE[:-2], *seats, "--seed", "5", "--json", "--games-out", str(b)])
    example = _example("pool_runs")
    records = [json.loads(line) for p in (a, b) for line in p.read_text().splitlines()]
    assert sorted({g["seed"] for g in records}) == [3, 4, 5, 6]
    pooled = summarize(result_from_records(records, preset("isra-junior")))
    assert pooled["games"] == 12 and pooled["deals"] == 4 and pooled["seats"] == ["greedy", "random", "random"]
    players = [x["players"] for x in (one, two)]
    for k, p in enumerate(pooled["players"]):
        assert p["games"] == players[0][k]["games"] + players[1][k]["games"]
        assert p["wins"] == pytest.approx(players[0][k]["wins"] + players[1][k]["wins"])
        assert p["mean_score"] == pytest.approx((players[0][k]["mean_score"] + players[1][k]["mean_score"]) / 2)
        assert p["win_rate_deal_ci"] is not None
    assert example.main(["--rules", "isra-junior", str(a), str(b)]) == 0  # type: ignore[attr-defined]
    out = capsys.readouterr().out
    assert "pooled: 2 files" in out and "over 4 deals" in out and "deal as the unit" in out
    assert example.main(["--rules", "isra-junior", str(a), str(a)]) == 2  # type: ignore[attr-defined]
    assert "the game of seed 3 rotation 0 is there twice" in capsys.readouterr().err
    other = tmp_path / "other.jsonl"
    assert main([*BASE[:-2], "--seed", "9", "--games-out", str(other)]) == 0
    capsys.readouterr()
    assert example.main(["--rules", "isra-junior", str(a), str(other)]) == 2  # type: ignore[attr-defined]
    assert "seats random, random, random, not greedy, random, random" in capsys.readouterr().err
    old = json.loads(a.read_text().splitlines()[0])
    del old["seats"][1]["went_down"]  # a file from before went_down: its contract rates would read 0
    other.write_text(json.dumps(old) + "\n")
    assert example.main(["--rules", "isra-junior", str(other)]) == 2  # type: ignore[attr-defined]
    assert "the game of seed 3 rotation 0 has no 'went_down' for its seats" in capsys.readouterr().err
    assert example.main([str(tmp_path / "none.jsonl")]) == 2  # type: ignore[attr-defined]
    assert "cannot read" in capsys.readouterr().err
