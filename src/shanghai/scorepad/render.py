"""Score pads, the history and the statistics as plain text (pure: values in, text out)."""

from __future__ import annotations

from collections.abc import Sequence

from shanghai.scorepad.model import RoundEntry, ScorePad
from shanghai.scorepad.stats import RECENT, PlayerStats, player_stats

STAR = "*"


def _who(pad: ScorePad, seats: Sequence[int]) -> str:
    return " and ".join(pad.players[s] for s in seats)


def date_text(stamp: str | None) -> str:
    """``2026-11-30T06:50:00Z`` -> ``2026-11-30 06:50``."""
    if not stamp:
        return "-"
    return stamp.replace("T", " ")[:16]


def rules_text(pad: ScorePad) -> str:
    parts = [pad.preset]
    if pad.options:
        parts.append("+" + ",".join(pad.options))
    if pad.house:
        parts.append("(" + ", ".join(f"{k}={_value(v)}" for k, v in pad.house) + ")")
    return " ".join(parts)


def _value(v: int | bool) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def round_notes(pad: ScorePad, entry: RoundEntry) -> str:
    notes: list[str] = []
    if entry.went_out is None:
        notes.append("nobody went out")
    if entry.cut is not None:
        notes.append(f"THE CUT: {pad.players[entry.cut]} (+{pad.rules.cut_bonus} to the others)")
    if entry.blind is not None and entry.went_out is not None:
        bonus = (pad.rules.blind_out_bonus_no_joker if entry.blind == "no-joker"
                 else pad.rules.blind_out_bonus)
        notes.append(f"blind go-out{' without a joker' if entry.blind == 'no-joker' else ''}: -{bonus}")
    return "; ".join(notes)


def pad_text(pad: ScorePad) -> str:
    """The pad: a row per round (each cell: the round's points, a star for going out, the running
    total), the totals and stars, then the crown and dunce cap or the next round."""
    n = len(pad.players)
    width = max(12, *(len(p) + 1 for p in pad.players))
    contracts = [pad.rules.round(i).contract.text() for i in range(1, pad.round_count + 1)]
    contract_w = max(8, *(len(c) for c in contracts))
    head = f"game {pad.id if pad.id is not None else '-'}: {rules_text(pad)} ({pad.rules.title})"
    lines = [head, f"started {date_text(pad.created_at)}"
             + (f", finished {date_text(pad.finished_at)}" if pad.finished_at else "")
             + (f"; {pad.note}" if pad.note else ""), ""]
    lines.append(f"{'round':>5}  {'contract'.ljust(contract_w)}"
                 + "".join(p.rjust(width) for p in pad.players))
    # each player's cell holds two numbers: say which is which, above them
    lines.append(f"{'':>5}  {''.ljust(contract_w)}" + f" {'pts':>4} {'total':>5}".rjust(width) * n)
    running = pad.running_totals()
    for entry, totals in zip(pad.rounds, running, strict=True):
        cells = []
        for s in range(n):
            star = STAR if entry.went_out == s else " "
            cells.append(f"{star}{entry.points[s]:>4} {totals[s]:>5}".rjust(width))
        contract = contracts[entry.number - 1].ljust(contract_w)
        notes = round_notes(pad, entry)
        lines.append(f"{entry.number:>5}  {contract}" + "".join(cells) + (f"   {notes}" if notes else ""))
    for number in range(len(pad.rounds) + 1, pad.round_count + 1):
        contract = contracts[number - 1].ljust(contract_w)
        lines.append(f"{number:>5}  {contract}" + "".join("·".rjust(width) for _ in range(n)))
    lines.append(f"{'total':>5}  {''.ljust(contract_w)}" + "".join(str(t).rjust(width) for t in pad.totals))
    lines.append(f"{'stars':>5}  {''.ljust(contract_w)}"
                 + "".join((STAR * k if k <= 5 else f"{k}{STAR}").rjust(width) for k in pad.stars))
    lines.append(f"(each cell: the round's points, then the running total; {STAR} went out and gets a star)")
    lines.append("")
    lines.append(standing_text(pad))
    return "\n".join(lines) + "\n"


def standing_text(pad: ScorePad) -> str:
    """``Crown: Cy (40). Dunce cap: Bob (120).`` or the next round and who leads."""
    if pad.is_finished:
        crown = pad.crown()
        shared = ", shared" if len(crown) > 1 else ""
        text = f"Crown: {_who(pad, crown)} ({pad.totals[crown[0]]}){shared}."
        dunce = pad.dunce()
        if dunce:
            text += f" Dunce cap: {_who(pad, dunce)} ({pad.totals[dunce[0]]})."
        return text
    number = len(pad.rounds) + 1
    text = f"Next: round {number} of {pad.round_count}, {pad.contract_text(number)}."
    leaders = pad.leaders()
    if leaders:
        text += f" Leading: {_who(pad, leaders)} ({pad.totals[leaders[0]]})."
    return text


def round_result_text(pad: ScorePad, entry: RoundEntry) -> str:
    """One round's outcome and the running totals, after it was entered."""
    totals = pad.running_totals()[entry.number - 1]
    parts = []
    for s, name in enumerate(pad.players):
        star = f" {STAR}" if entry.went_out == s else ""
        parts.append(f"{name} {entry.points[s]}{star} (total {totals[s]})")
    notes = round_notes(pad, entry)
    return (f"round {entry.number}: " + ", ".join(parts) + (f"; {notes}" if notes else "") + "\n"
            + standing_text(pad) + "\n")


def history_text(pads: Sequence[ScorePad]) -> str:
    if not pads:
        return "no games yet (start one with 'shanghai scorepad new')\n"
    rows = []
    for pad in pads:
        state = "finished" if pad.is_finished else f"round {len(pad.rounds)}/{pad.round_count}"
        winner = _who(pad, pad.crown()) if pad.is_finished else "-"
        totals = ", ".join(f"{p} {t}{' ' + STAR * k if k else ''}"
                           for p, t, k in zip(pad.players, pad.totals, pad.stars, strict=True))
        rows.append((str(pad.id), date_text(pad.created_at), rules_text(pad), state, winner, totals))
    head = ("game", "started", "rules", "state", "winner", "totals")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(5)]
    lines = []
    for r in [head, *rows]:
        cells = [r[0].rjust(widths[0])] + [r[i].ljust(widths[i]) for i in range(1, 5)] + [r[5]]
        lines.append("  ".join(cells))
    return "\n".join(lines) + "\n"


def stats_text(stats: Sequence[PlayerStats]) -> str:
    if not stats:
        return "no finished games yet\n"
    w = max(6, *(len(s.name) for s in stats))
    lines = [f"{'player'.ljust(w)}  games  wins  shared  dunce  average  last {RECENT}  best (game)  worst (game)  "
             f"rounds won  longest streak"]
    for s in stats:
        best = f"{s.best_total} ({s.best_game})"
        worst = f"{s.worst_total} ({s.worst_game})"
        won = f"{s.rounds_won}/{s.rounds_played}"
        lines.append(f"{s.name.ljust(w)}  {s.games:>5}  {s.wins:>4}  {s.shared_wins:>6}  {s.dunce_caps:>5}  "
                     f"{s.average_total:>7.1f}  {s.recent_average:>6.1f}  {best:>11}  {worst:>12}  {won:>10}  "
                     f"{s.longest_streak:>14}")
    lines.append("")
    lines.append(f"Finished games only; a shared crown counts as a win for each player sharing it; last {RECENT}: "
                 f"the average of the player's last {RECENT} games (against the average: the trend).")
    return "\n".join(lines) + "\n"


def record_line(s: PlayerStats, preset: str) -> str:
    """A player's record under one preset in words, for the end of a game.

    >>> from shanghai.scorepad.stats import PlayerStats
    >>> record_line(PlayerStats("You", 7, 2, 0, 0, 71.4, 25, 3, 180, 5, 21, 6, 1, 0, 58.0), "isra-junior")
    'Your 7 finished isra-junior games: 2 won (29%), average 71 (the last 5 games: 58), best 25, longest run of wins 1'
    """
    trend = f" (the last {RECENT} games: {s.recent_average:.0f})" if s.games > RECENT else ""
    streak = f", {s.current_streak} wins in a row now" if s.current_streak > 1 else ""
    whose = "Your" if s.name.casefold() == "you" else f"{s.name}'s"  # the terminal game's default name
    return (f"{whose} {s.games} finished {preset} {'game' if s.games == 1 else 'games'}: "
            f"{s.wins} won ({100 * s.win_rate:.0f}%), average {s.average_total:.0f}{trend}, best {s.best_total}"
            f"{streak}, longest run of wins {s.longest_streak}")


def player_record_text(pads: Sequence[ScorePad], name: str, *, last: int = 5) -> str:
    """Everything the score pad knows of one player (by name, case aside): a record line per preset
    played, and the player's last finished games."""
    key = name.strip().casefold()
    mine = [p for p in pads if p.is_finished and any(n.casefold() == key for n in p.players)]
    if not mine:
        return f"No finished game of {name.strip()} yet.\n"
    mine.sort(key=lambda p: (p.created_at, p.id or 0))
    lines = []
    for preset in dict.fromkeys(p.preset for p in mine):
        [s] = player_stats(mine, player=name, preset=preset)
        lines.append(record_line(s, preset) + ".")
    lines += ["", f"The last {min(last, len(mine))} of {len(mine)} finished games:"]
    for pad in mine[-last:][::-1]:
        seat = pad.seat(name)
        crown = pad.crown()
        place = 1 + sum(t < pad.totals[seat] for t in pad.totals)
        result = ("won" + (" (shared)" if len(crown) > 1 else "")) if seat in crown else f"place {place}"
        others = ", ".join(f"{p} {t}" for s, (p, t) in enumerate(zip(pad.players, pad.totals, strict=True))
                           if s != seat)
        lines.append(f"  game {pad.id}  {date_text(pad.created_at)}  {rules_text(pad)}: {pad.totals[seat]}, "
                     f"{result} ({others})")
    return "\n".join(lines) + "\n"
