"""A tournament's report: per player name and per pair of names, as JSON-ready data and as text.

Intervals on means use the deal as the unit (the rotations of one deal share its cards, so they
are not independent): each name's value per deal is the mean over its seat-games in that deal.
Win rates get two intervals: a Wilson interval over seat-games (``win_rate_ci``, which takes the
games as independent) and a t interval over deals of each deal's win share (``win_rate_deal_ci``).
The second is the one the duplicate format calls for: a deal's good cards go to every seat in
turn, so its rotations' wins are negatively correlated (two equal players in a deal whose best
hand always wins would each win exactly a quarter of its rotations), and the Wilson interval,
blind to that, comes out too wide. ``contract_rate_ci`` (``out_rate_ci`` in manipulation rummy) is
a Wilson interval over rounds (hands) taken as independent, a rough guide only: the rounds of one
game, and the rotations of one deal, are not. ``ci_unit`` names the unit of the means' intervals.
Scores are penalty points: lower is better.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from shanghai.rules import AnyRules, ManipulationRules
from shanghai.stats import mean_ci, paired_difference, wilson_interval
from shanghai.tournament.runner import GameOutcome, SeatOutcome, TournamentResult

Interval = tuple[float, float] | None


def _r(x: float) -> float:
    return round(x, 6)


def _ci(ci: Interval) -> list[float] | None:
    return None if ci is None else [_r(ci[0]), _r(ci[1])]


def distinct_names(specs: Sequence[str]) -> list[str]:
    """Names in order of first appearance.

    >>> distinct_names(["random", "greedy", "greedy"])
    ['random', 'greedy']
    """
    return list(dict.fromkeys(specs))


def _per_deal(result: TournamentResult) -> dict[str, dict[int, list[SeatOutcome]]]:
    table: dict[str, dict[int, list[SeatOutcome]]] = {n: {} for n in distinct_names(result.specs)}
    for game in result.outcomes:
        for s in game.seats:
            table[s.spec].setdefault(game.deal, []).append(s)
    return table


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def summarize(result: TournamentResult) -> dict[str, Any]:
    """The report as one JSON-ready object (no timings, so equal seeds give equal objects)."""
    per_deal = _per_deal(result)
    manipulation = isinstance(result.rules, ManipulationRules)
    players: list[dict[str, Any]] = []
    deal_scores: dict[str, list[float]] = {}
    for name, deals in per_deal.items():
        seat_games = [s for d in sorted(deals) for s in deals[d]]
        n = len(seat_games)
        wins = sum(s.win_share for s in seat_games)
        rounds = sum(len(s.round_points) for s in seat_games)
        downs = sum(sum(s.went_down) for s in seat_games)
        buys = sum(sum(s.buys) for s in seat_games)
        scores = [_mean([s.score for s in deals[d]]) for d in sorted(deals)]
        _, deal_win_ci = mean_ci([_mean([s.win_share for s in deals[d]]) for d in sorted(deals)])
        ppr = [_mean([p for s in deals[d] for p in s.round_points]) for d in sorted(deals)]
        deal_scores[name] = scores
        mean_score, score_ci = mean_ci(scores)
        mean_ppr, ppr_ci = mean_ci(ppr)
        players.append({
            "seat_spec": name,
            "entrants": result.specs.count(name),
            "games": n,
            "wins": _r(wins),
            "win_rate": _r(wins / n),
            "win_rate_ci": _ci(wilson_interval(wins, n)),
            # the deal as the unit (see the module docstring); None with a single deal
            "win_rate_deal_ci": _ci(None if deal_win_ci is None else
                                    (max(0.0, deal_win_ci[0]), min(1.0, deal_win_ci[1]))),
            "mean_score": _r(mean_score),
            "mean_score_ci": _ci(score_ci),
            "rounds": rounds,
            "points_per_round": _r(mean_ppr),
            "points_per_round_ci": _ci(ppr_ci),
            # Manipulation rummy has no contract: the share of hands the player went out instead.
            ("out_rate" if manipulation else "contract_rate"): _r(downs / rounds) if rounds else 0.0,
            ("out_rate_ci" if manipulation else "contract_rate_ci"): _ci(wilson_interval(downs, rounds)),
            "buys_per_round": _r(buys / rounds) if rounds else 0.0,
            "slams": sum(s.slams for s in seat_games),
        })
    names = list(per_deal)
    pairs: list[dict[str, Any]] = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            diff = paired_difference(deal_scores[a], deal_scores[b])
            pairs.append({
                "a": a, "b": b, "deals": diff.n,
                "mean_score_diff": _r(diff.mean),
                "mean_score_diff_ci": _ci(diff.ci),
            })
    return {
        "games": result.games,
        "games_requested": result.games_requested,
        "deals": result.deals,
        "rotations": len(result.specs),
        "rules": result.rules.name,
        "game": "manipulation" if manipulation else "contract",
        "options": list(result.rules.options),
        "seats": list(result.specs),
        "seed": result.seed,
        "lower_score_is_better": True,
        "ci_unit": "deal",
        "players": players,
        "pairs": pairs,
    }


def _went_key(rules: AnyRules) -> str:
    """The key of a seat's per-round record of making it in a ``--games-out`` game: ``went_out``
    (per hand) in manipulation rummy, ``went_down`` (per round) in contract games; the writer and
    the reader both take it from here."""
    return "went_out" if isinstance(rules, ManipulationRules) else "went_down"


def game_records(result: TournamentResult, rounds: Sequence[int] | None = None) -> Iterator[dict[str, Any]]:
    """One JSON-ready object per game, in deal and rotation order (``--games-out``): the rules (name,
    options, and the round numbers played where only some were), the deal, the rotation, the game
    seed and, per seat, who sat there and how it went. In manipulation rummy ``went_out`` (per hand)
    stands where contract games have ``went_down`` (per round)."""
    went = _went_key(result.rules)
    for game in result.outcomes:
        yield {
            "rules": result.rules.name,
            "options": list(result.rules.options),
            "rounds": list(rounds) if rounds else None,
            "deal": game.deal,
            "rotation": game.rotation,
            "seed": game.seed,
            "seats": [{
                "seat": s.seat,
                "entrant": s.entrant,
                "player": s.spec,
                "score": s.score,
                "round_points": list(s.round_points),
                went: list(s.went_down),
                "buys": list(s.buys),
                "slams": s.slams,
                "win_share": _r(s.win_share),
            } for s in game.seats],
        }


def read_game_records(lines: Iterable[str], name: str = "file") -> list[dict[str, Any]]:
    """The games of a ``--games-out`` file, checked: the reader for what :func:`game_records` writes.

    Blank lines are skipped. A line that is not such a game, or a (deal, rotation) written twice,
    raises ``ValueError`` naming ``name`` and the line.

    >>> line = ('{"deal": 0, "rotation": 0, "seed": 7, "seats": [{"seat": 0, "entrant": 0, '
    ...         '"player": "greedy", "score": 5, "round_points": [5], "win_share": 1.0}]}')
    >>> [g["seed"] for g in read_game_records([line, ""])]
    [7]
    >>> read_game_records(['{"deal": 0}'], "a.jsonl")
    Traceback (most recent call last):
    ...
    ValueError: a.jsonl, line 1: not a game written by --games-out ('rotation')
    """
    games: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            key = (int(record["deal"]), int(record["rotation"]))
            int(record["seed"])
            rounds = set()
            for seat in record["seats"]:
                int(seat["seat"]), int(seat["entrant"]), str(seat["player"])
                float(seat["score"]), float(seat["win_share"])
                rounds.add(len([float(p) for p in seat["round_points"]]))
            if len(rounds) != 1:
                raise ValueError("no seats, or seats that played different numbers of rounds")
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{name}, line {number}: not a game written by --games-out ({exc})") from exc
        if key in seen:
            raise ValueError(f"{name}, line {number}: deal {key[0]} rotation {key[1]} is there twice")
        seen.add(key)
        games.append(record)
    return games


def games_played_by(records: Sequence[dict[str, Any]], name: str = "the files") -> dict[str, Any] | None:
    """The rules the games of ``--games-out`` files were played by, ``{"rules", "options", "rounds"}``
    (``rounds`` None: every round), or None for files written before games said so; games played by
    different rules, options or rounds are not to be pooled or compared: ``ValueError``.

    >>> games_played_by([{"rules": "isra", "options": [], "rounds": [6, 7]}] * 2)
    {'rules': 'isra', 'options': [], 'rounds': [6, 7]}
    >>> games_played_by([{"rules": "isra", "options": [], "rounds": None}, {"rules": "may-i-10"}], "a, b")
    Traceback (most recent call last):
    ...
    ValueError: a, b: games of different rules or rounds (isra, all rounds; may-i-10, all rounds)
    """
    kinds = {(g.get("rules"), tuple(g.get("options") or ()), tuple(g.get("rounds") or ())) for g in records}
    if len(kinds) > 1:
        words = "; ".join(f"{r or 'rules not written'}{' ' + ','.join(o) if o else ''}, "
                          f"{'rounds ' + ','.join(map(str, n)) if n else 'all rounds'}"
                          for r, o, n in sorted(kinds, key=str))
        raise ValueError(f"{name}: games of different rules or rounds ({words})")
    if not kinds:
        return None
    rules, options, rounds = kinds.pop()
    if rules is None:
        return None
    return {"rules": rules, "options": list(options), "rounds": list(rounds) or None}


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _fmt_ci(ci: list[float] | None, digits: int = 1) -> str:
    return "n/a" if ci is None else f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def text(summary: dict[str, Any], seconds: float | None = None) -> str:
    """The report for people."""
    opts = f" ({', '.join(summary['options'])})" if summary["options"] else ""
    lines = [
        f"rules:    {summary['rules']}{opts}",
        *([f"rounds:   only {', '.join(map(str, summary['rounds']))}"] if summary.get("rounds") else []),
        f"seats:    {', '.join(summary['seats'])}",
        f"games:    {summary['games']} ({_count(summary['deals'], 'deal')} x "
        f"{_count(summary['rotations'], 'rotation')}), seed {summary['seed']}",
    ]
    manipulation = summary.get("game") == "manipulation"  # hands, no contracts, buys or slams
    if seconds is not None:
        lines.append(f"seconds:  {seconds:.2f}")
    lines.append("scores are penalty points: lower is better; 95% intervals (means: over deals)")
    lines.append("")
    width = max([10, *(len(p["seat_spec"]) for p in summary["players"])])  # names with settings run long
    header = (f"{'player':<{width}} {'games':>6} {'wins':>8} {'win rate [95% CI]':>24} "
              f"{'mean score [95% CI]':>28} {'pts/hand [95% CI]' if manipulation else 'pts/round [95% CI]':>26} "
              f"{'went out' if manipulation else 'contract':>9}"
              + ("" if manipulation else f" {'buys/rd':>8} {'slams':>6}"))
    lines.append(header)
    for p in summary["players"]:
        win = f"{p['win_rate']:.3f} {_fmt_ci(p['win_rate_ci'], 3)}"
        score = f"{p['mean_score']:.1f} {_fmt_ci(p['mean_score_ci'])}"
        ppr = f"{p['points_per_round']:.1f} {_fmt_ci(p['points_per_round_ci'])}"
        rate = p.get("contract_rate", p.get("out_rate", 0.0))
        lines.append(f"{p['seat_spec']:<{width}} {p['games']:>6} {p['wins']:>8.2f} {win:>24} {score:>28} "
                     f"{ppr:>26} {rate:>9.3f}"
                     + ("" if manipulation else f" {p['buys_per_round']:>8.3f} {p['slams']:>6}"))
    if 1 < summary["deals"] < 10:
        lines.append("(few deals: the intervals of the means are wide, and may reach below 0)")
    if summary["deals"] > 1:
        lines.append("")
        lines.append("win rate with the deal as the unit (its rotations share its cards), 95% t interval:")
        for p in summary["players"]:
            lines.append(f"  {p['seat_spec']}: {p['win_rate']:.3f} {_fmt_ci(p['win_rate_deal_ci'], 3)} "
                         f"over {summary['deals']} deals")
    if summary["pairs"]:
        lines.append("")
        lines.append("paired per-deal mean score difference (a - b; negative: a scores less, i.e. better):")
        for q in summary["pairs"]:
            lines.append(f"  {q['a']} - {q['b']}: {q['mean_score_diff']:+.1f} "
                         f"{_fmt_ci(q['mean_score_diff_ci'])} over {q['deals']} deals")
    return "\n".join(lines)


def result_from_records(records: Sequence[dict[str, Any]], rules: AnyRules, name: str = "games"
                        ) -> TournamentResult:
    """The games of one or more ``--games-out`` files (read by :func:`read_game_records`) as a
    :class:`TournamentResult`, so that :func:`summarize` reports them as one tournament: several runs
    of the same seats on different deals (``--seed S``, ``--seed S+D``, ... of ``D`` deals each)
    pool into one report. A deal is known by its game seed; the seats must be the same in every game.
    ``ValueError`` names ``name`` where the games do not fit together.

    >>> seat = ('{{"seat": {s}, "entrant": {e}, "player": "{p}", "score": {n}, "round_points": [{n}], '
    ...         '"went_down": [true], "buys": [0], "slams": 0, "win_share": {w}}}')
    >>> def game(r, o, a, b, seed):
    ...     return (f'{{"deal": 0, "rotation": {r}, "seed": {seed}, "seats": ['
    ...             + seat.format(s=0, e=r, p=a, n=0, w=1.0) + ', '
    ...             + seat.format(s=1, e=o, p=b, n=5, w=0.0) + ']}')
    >>> def run(seed):  # a run of one deal (deal 0, seed ``seed``) in two rotations
    ...     return read_game_records([game(0, 1, "x", "y", seed), game(1, 0, "y", "x", seed)])
    >>> from shanghai.rules import preset
    >>> result = result_from_records(run(7) + run(8), preset("isra"))
    >>> result.deals, result.games, result.specs
    (2, 4, ('x', 'y'))
    >>> result_from_records(run(7) + run(7), preset("isra"), "a.jsonl")
    Traceback (most recent call last):
    ...
    ValueError: a.jsonl: the game of seed 7 rotation 0 is there twice (the same deal in two runs?)
    """
    if not records:
        raise ValueError(f"{name}: no games")
    went = _went_key(rules)
    specs: list[str] | None = None
    deals: dict[int, int] = {}   # game seed -> deal number in the pooled result
    seen: set[tuple[int, int]] = set()
    outcomes: list[GameOutcome] = []
    for record in records:
        gseed, rotation = int(record["seed"]), int(record["rotation"])
        if (gseed, rotation) in seen:
            raise ValueError(f"{name}: the game of seed {gseed} rotation {rotation} is there twice "
                             f"(the same deal in two runs?)")
        seen.add((gseed, rotation))
        by_entrant = {int(seat["entrant"]): str(seat["player"]) for seat in record["seats"]}
        these = [by_entrant[e] for e in sorted(by_entrant)]
        if specs is None:
            specs = these
        elif these != specs:
            raise ValueError(f"{name}: the game of seed {gseed} seats {', '.join(these)}, "
                             f"not {', '.join(specs)} as the first")
        deal = deals.setdefault(gseed, len(deals))
        try:
            seats = tuple(SeatOutcome(
                int(seat["entrant"]), str(seat["player"]), int(seat["seat"]), int(seat["score"]),
                tuple(int(p) for p in seat["round_points"]), tuple(bool(x) for x in seat[went]),
                tuple(int(x) for x in seat["buys"]), int(seat["slams"]),
                float(seat["win_share"])) for seat in record["seats"])
        except KeyError as exc:  # an older file: its contract rates, buys or slams would read as 0
            raise ValueError(f"{name}: the game of seed {gseed} rotation {rotation} has no {exc} "
                             f"for its seats") from exc
        outcomes.append(GameOutcome(deal, rotation, gseed, seats))
    assert specs is not None
    outcomes.sort(key=lambda g: (g.deal, g.rotation))
    first = records[0]
    return TournamentResult(rules, tuple(specs), int(first["seed"]) - int(first["deal"]), len(deals),
                            len(outcomes), outcomes)
