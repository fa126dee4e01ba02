"""Per-player statistics over stored score pads (pure: pads in, numbers out).

Only finished games count. Players are the same person when their names match, case aside (the
spelling of their latest game is shown). A shared crown is a win for every player who shares it
(000: ties share the crown), and ``shared_wins`` says how many of the wins were shared. The longest
winning streak counts consecutive games *that player played* (in the order the games were
started) that they won, shared wins included. The trend is the average total of a player's last
:data:`RECENT` games against their average over all their games (lower is better).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shanghai.scorepad.model import ScorePad

RECENT = 5  # the games that make a player's recent average


@dataclass(frozen=True, slots=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    shared_wins: int
    dunce_caps: int
    average_total: float
    best_total: int
    best_game: int | None
    worst_total: int
    worst_game: int | None
    rounds_played: int
    rounds_won: int
    longest_streak: int
    current_streak: int
    recent_average: float  # the average total of the last RECENT games (all of them if fewer)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def player_stats(pads: Iterable[ScorePad], *, player: str | None = None,
                 preset: str | None = None) -> list[PlayerStats]:
    """Statistics of every player (or of ``player``), over the finished games (of ``preset``), sorted
    by wins, then average total, then name."""
    finished = [p for p in pads if p.is_finished and (preset is None or p.preset == preset)]
    finished.sort(key=lambda p: (p.created_at, p.id or 0))
    by_key: dict[str, list[tuple[ScorePad, int]]] = {}
    names: dict[str, str] = {}
    for pad in finished:
        for seat, name in enumerate(pad.players):
            key = name.casefold()
            by_key.setdefault(key, []).append((pad, seat))
            names[key] = name
    out: list[PlayerStats] = []
    for key, games in by_key.items():
        if player is not None and key != player.strip().casefold():
            continue
        out.append(stats_of(names[key], games))
    out.sort(key=lambda s: (-s.wins, s.average_total, s.name.casefold()))
    return out


def stats_of(name: str, games: Sequence[tuple[ScorePad, int]]) -> PlayerStats:
    """The statistics of one player over ``games``: finished pads, each with the player's seat, in the
    order they were played (one person may have had other names in other games).

    >>> from shanghai.scorepad.model import HandEntry
    >>> pads = []
    >>> for ann_wins in (True, True, False):
    ...     pad = ScorePad.new("isra-junior", ["Ann", "Bob", "Cy"])
    ...     hands = {1: HandEntry(10), 2: HandEntry(20)} if ann_wins else {0: HandEntry(30), 2: HandEntry(20)}
    ...     for _ in range(3):
    ...         pad = pad.with_round(pad.score_round(hands, went_out=0 if ann_wins else 1))
    ...     pads.append(pad)
    >>> s = stats_of("Ann", [(p, 0) for p in pads])
    >>> s.games, s.wins, s.longest_streak, s.current_streak, s.average_total, s.recent_average
    (3, 2, 2, 0, 30.0, 30.0)
    """
    if not games:
        raise ValueError(f"no games for {name}")
    unfinished = [pad.id for pad, _ in games if not pad.is_finished]
    if unfinished:
        raise ValueError(f"statistics count finished games only; not finished: {unfinished}")
    totals = [pad.totals[seat] for pad, seat in games]
    wins = shared = dunces = streak = longest = 0
    for pad, seat in games:
        crown = pad.crown()
        if seat in crown:
            wins += 1
            shared += len(crown) > 1
            streak += 1
            longest = max(longest, streak)
        else:
            streak = 0
        dunces += seat in pad.dunce()
    best = min(range(len(games)), key=lambda i: (totals[i], i))
    worst = max(range(len(games)), key=lambda i: (totals[i], -i))
    recent = totals[-RECENT:]
    return PlayerStats(
        name=name, games=len(games), wins=wins, shared_wins=shared, dunce_caps=dunces,
        average_total=sum(totals) / len(totals),
        best_total=totals[best], best_game=games[best][0].id,
        worst_total=totals[worst], worst_game=games[worst][0].id,
        rounds_played=sum(len(pad.rounds) for pad, _ in games),
        rounds_won=sum(pad.stars[seat] for pad, seat in games),
        longest_streak=longest, current_streak=streak,
        recent_average=sum(recent) / len(recent))
