"""A rule set in words, written from the fields of a ``Rules`` value (nothing per preset).

>>> from shanghai.rules import preset
>>> text = describe(preset("may-i"))
>>> "black 2: 20" in text and "more natural cards than wild cards" in text
True
>>> "THE CUT: not in these rules" in text
True
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from shanghai.cards import RANK_TEXT
from shanghai.rules.manipulation import ManipulationRules
from shanghai.rules.model import PackSpec, Rules

WIDTH = 100
_INDENT = "  "


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _range(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo} to {hi}"


def _ranges(numbers: Iterable[int]) -> str:
    """``[1, 2, 3, 5, 7, 8]`` -> ``1-3, 5, 7-8``."""
    out: list[str] = []
    nums = sorted(numbers)
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else f"{nums[i]}-{nums[j]}")
        i = j + 1
    return ", ".join(out)


def _para(text: str) -> str:
    return textwrap.fill(text, WIDTH, initial_indent=_INDENT, subsequent_indent=_INDENT, break_on_hyphens=False)


def _bullets(items: Iterable[str]) -> str:
    return "\n".join(textwrap.fill(t, WIDTH, initial_indent=_INDENT + "- ",
                                   subsequent_indent=_INDENT + "  ", break_on_hyphens=False) for t in items)


def _section(title: str, *paragraphs: str) -> str:
    return title + "\n" + "\n".join(p for p in paragraphs if p)


def _pack_text(p: PackSpec) -> str:
    jokers = f" and {_plural(p.jokers, 'joker')}" if p.jokers else ", no jokers"
    return (f"{_range(p.min_players, p.max_players)} players: {_plural(p.decks, 'deck')} of 52 cards"
            f"{jokers} ({p.size} cards)")


def _wild_names(rules: Rules) -> str:
    return {"jokers": "jokers", "jokers-and-black-twos": "jokers and black 2s (2S, 2C)",
            "none": "no card"}[rules.wilds]


def _meld_sizes(rules: Rules) -> list[int]:
    sizes = {rules.set_min, rules.run_min}
    for spec in rules.rounds:
        sizes.update(m.min_size for m in spec.contract.melds)
    return sorted(sizes)


def _players_section(rules: Rules) -> str:
    return _section("Players", _para(f"{_range(rules.min_players, rules.max_players)} players."))


def _pack_section(rules: Rules) -> str:
    # the packs of the player counts these rules are played by (002's pack for two is not: decision 16)
    return _section("Pack", _bullets(_pack_text(p) for p in rules.packs
                                     if p.min_players <= rules.max_players and p.max_players >= rules.min_players))


def _deal_section(rules: Rules) -> str:
    if rules.first_dealer == "high-cut":
        first = ("Each player cuts the pack and shows a card; the highest card deals first (jokers "
                 "highest, then aces, kings ... down to 2s); players who tie cut again.")
    else:
        first = ("Each player draws a card from the shuffled pack; the lowest card deals first (aces "
                 "low, jokers highest); players who tie draw again.")
    deal = (f"The dealer deals {rules.hand_size} cards to each player, one at a time, clockwise from "
            f"the dealer's left. The next card is turned face up as the flip card that starts the "
            f"discard pile; the rest of the pack is the stock. The deal passes one seat clockwise "
            f"(to the left) each round, and the player on the dealer's left plays first.")
    parts = [_para("First dealer: " + first), _para(deal)]
    if rules.the_cut:
        parts.append(_para("Before each deal the player on the dealer's right cuts the stack for the "
                           "dealer: see THE CUT under Extras."))
    return _section("Deal", *parts)


def _rounds_section(rules: Rules) -> str:
    rows: list[tuple[str, str, str, str]] = [("round", "contract", "call", "buys each")]
    notes: list[str] = []
    most_held = rules.hand_size + 1
    for i, spec in enumerate(rules.rounds, 1):
        c = spec.contract
        call = spec.name or c.shout()
        rows.append((str(i), c.text(), call, str(spec.buys) if spec.buys else "none"))
        # a player who goes out by discarding keeps a card back for the discard
        needed = c.min_cards + (1 if rules.going_out == "discard-last" else 0)
        if needed > most_held:
            keep = " (the contract's cards and one to discard)" if needed > c.min_cards else ""
            notes.append(f"Round {i} needs at least {needed} cards in hand{keep} but a player holds "
                         f"{most_held} after drawing: only buying gives a player that many.")
    widths = [max(len(r[k]) for r in rows) for k in range(4)]
    table = "\n".join(_INDENT + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
                      for row in rows)
    intro = _para(f"{_plural(len(rules.rounds), 'round')}. Each round's contract is the melds a player "
                  f"must lay down to go down; sizes are minimums (a set of 3 may hold more cards).")
    return _section("Rounds and contracts", intro, table, _bullets(notes) if notes else "")


def _melds_section(rules: Rules) -> str:
    parts = [
        _para(f"A set is {rules.set_min} or more cards of one rank, in any suits. A run is "
              f"{rules.run_min} or more cards of one suit in consecutive order, written lowest card "
              f"first; it holds at most 13 cards."),
    ]
    if rules.same_suit_runs == "separated":
        parts.append(_para("Two runs of one suit in a contract must be separated by at least one rank: "
                           "they may not touch, so a long run may not be split into two runs of the "
                           "contract."))
    else:
        parts.append(_para("Two runs of one suit in a contract may touch: a long run may be split into "
                           "two runs of the contract (3S-6S and 7S-10S from 3S-10S)."))
    if rules.same_rank_sets:
        parts.append(_para("Two sets of the same rank may both count in one contract (possible with "
                           "several decks)."))
    else:
        parts.append(_para("The sets of a contract must be of different ranks."))
    return _section("Sets and runs", *parts)


def _wilds_section(rules: Rules) -> str:
    if rules.wilds == "none":
        return _section("Wild cards", _para("No card is wild."))
    parts = [_para(f"Wild cards: {_wild_names(rules)}. A wild card stands for any card: in a run, for "
                   f"the card of the place it fills; in a set, for the set's rank.")]
    if rules.wilds == "jokers-and-black-twos":
        parts.append(_para("A black 2 in its own place in a run, or in a set of 2s, counts as a natural "
                           "2, not as a wild."))
    if rules.wild_limit == "none":
        parts.append(_para("Limit: none. Any number of wilds may be in a set (even a set of wilds "
                           "alone) or in a run, side by side; a run needs at least one natural card."))
    elif rules.wild_limit == "no-adjacent-in-runs":
        parts.append(_para("Limit: any number of wilds in a set, even a set of wilds alone; in a run "
                           "two wilds may never be side by side (a natural card between each two "
                           "wilds), and a run needs at least one natural card."))
    else:
        sizes = _meld_sizes(rules)
        examples = ", ".join(f"{(n - 1) // 2} in a meld of {n}" for n in sizes)
        parts.append(_para("Limit: every meld needs more natural cards than wild cards, on the table "
                           f"as well as when going down; at most {examples}; a set of wilds alone is "
                           f"never allowed."))
    return _section("Wild cards", *parts)


def _aces_section(rules: Rules) -> str:
    text = {
        "low-or-high": "An ace is high (after the king: Q-K-A) or low (before the 2: A-2-3) at an end "
                       "of a run, never in the middle: K-A-2 is not a run, and no run holds both aces. "
                       "In sets aces are like any rank.",
        "high-only": "Aces are high only: an ace may end a run after the king (Q-K-A); A-2-3 is not a "
                     "run, nor is K-A-2.",
        "low-only": "Aces are low only: an ace may start a run before the 2 (A-2-3); Q-K-A is not a "
                    "run, nor is K-A-2.",
    }[rules.aces]
    return _section("Aces", _para(text))


def _buy_rounds(rules: Rules) -> str:
    by_count: dict[int, list[int]] = {}
    for i, spec in enumerate(rules.rounds, 1):
        by_count.setdefault(spec.buys, []).append(i)
    if len(by_count) == 1:
        (n,) = by_count
        return f"{_plural(n, 'buy')} per player in every round"
    parts = []
    for n, rounds in sorted(by_count.items(), key=lambda kv: kv[1][0]):
        what = "no buying" if n == 0 else f"{_plural(n, 'buy')} per player"
        parts.append(f"{what} in round{'s' if len(rounds) > 1 else ''} {_ranges(rounds)}")
    return "; ".join(parts)


def _buying_section(rules: Rules) -> str:
    if all(spec.buys == 0 for spec in rules.rounds):
        return _section("Buying", _para("No buying: nobody takes a discard out of turn."))
    parts = [_para(f"A player not in turn may buy the live top discard (the flip card too): "
                   f"{_buy_rounds(rules)}. A buyer takes the discard and "
                   f"{_plural(rules.buy_penalty, 'penalty card')} from the stock, and plays them only "
                   f"from their own next turn. A player who has used every buy of the round is shopped "
                   f"out. Nobody buys back their own discard; one buy per discard.")]
    if rules.buy_flow == "turn-player-first":
        parts.append(_para("Flow: the player in turn has the discard first, free. Only when they draw "
                           "from the stock instead may the others buy it: nobody may buy a card the "
                           "player in turn wants. The player in turn then draws from the stock."))
    else:
        parts.append(_para("Flow: would-be buyers speak before the player in turn draws. The player in "
                           "turn is asked: refusing the buyer means taking the discard themselves; "
                           "drawing from the stock lets the buyer have it."))
    if rules.buy_priority == "clockwise-from-turn":
        parts.append(_para("Priority among several buyers: the first clockwise from the player in "
                           "turn."))
    else:
        parts.append(_para("Priority among several buyers: the one closest to the dealer's left "
                           "(clockwise from the dealer)."))
    parts.append(_para(f"This program grants a buy only while the stock holds the "
                       f"{_plural(rules.buy_penalty, 'penalty card')} and the in-turn draw "
                       f"({rules.buy_penalty + 1} cards)."))
    return _section("Buying", *parts)


def _play_section(rules: Rules) -> str:
    turn = _para("A turn: draw the top card of the stock or the top discard (the flip card on the first "
                 "turn); go down if you can and wish to; once down, lay off; discard one card.")
    down = _para("Going down: lay down exactly the melds of the round's contract, no more and no fewer, "
                 "from your hand during your turn after drawing; each meld may be longer than its "
                 "minimum. Nobody goes down twice in a round and nobody makes a new meld after going "
                 "down.")
    if rules.lay_off_on_going_down_turn:
        lay = ("Laying off: once down, a player may add cards from hand to any meld on the table, their "
               "own or another player's, at an end of a run or to a set, starting on the turn they go "
               "down. Nobody lays off before going down.")
    else:
        lay = ("Laying off: once down, a player may add cards from hand to any meld on the table, their "
               "own or another player's, from their next turn on: not on the turn they go down. Nobody "
               "lays off before going down.")
    later = "" if rules.lay_off_on_going_down_turn else " (not on the turn they go down)"
    replace = {
        "none": "Replacing wilds: wilds on the table are never replaced.",
        "runs-play-freed-wild": "Replacing wilds: a player who is down may, in turn after drawing, put the "
                                "natural card a wild in a run stands for in its place; wilds in sets "
                                "cannot be replaced. The freed wild must be played on a meld on the "
                                "table that same turn, before discarding.",
        "any-meld-keep-wild": "Replacing wilds: any player in turn who is down may put the natural card a "
                              f"wild on the table stands for in its place, in a run or a set{later}; the "
                              "freed wild may be played at once or kept in hand.",
    }[rules.wild_replacement]
    if rules.wilds == "none":
        replace = ""
    return _section("Going down, laying off, replacing wilds", turn, down, _para(lay),
                    _para(replace) if replace else "")


def _going_out_section(rules: Rules) -> str:
    text = {
        "play-all": "A player goes out by playing every card onto the table: the last card may not be "
                    "discarded. A play that would leave a single card that fits no meld on the table "
                    "is refused, since that card could never be played.",
        "discard-last": "A player goes out by discarding their last card: every turn ends with a discard, "
                        "so a player keeps one card to discard.",
        "either": "A player goes out by playing their last card onto the table or by discarding it.",
    }[rules.going_out]
    return _section("Going out", _para(text + " The round ends the moment a player goes out; that "
                                              "player scores 0 for the round."))


def _points_rows(rules: Rules) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    if rules.wilds != "none" or any(p.jokers for p in rules.packs):
        rows.append(("joker", str(rules.joker_points)))
    rows.append(("ace", str(rules.rank_points[1])))
    first = 2
    if rules.black_two_points is not None:
        red = rules.rank_points[2]
        rows.append(("2", f"red 2: {red}{' (face value)' if red == 2 else ''}, "
                          f"black 2: {rules.black_two_points}"))
        first = 3
    r = first
    pts = rules.rank_points
    while r <= 13:
        same = r
        while same + 1 <= 13 and pts[same + 1] == pts[r]:
            same += 1
        face = r - 1
        while face + 1 <= 13 and pts[face + 1] == face + 1:
            face += 1
        if face > same:  # a run of ranks that count their face value (3 to 10 ...)
            rows.append((f"{RANK_TEXT[r]}-{RANK_TEXT[face]}", "face value"))
            r = face + 1
            continue
        rows.append((RANK_TEXT[r] if r == same else f"{RANK_TEXT[r]}-{RANK_TEXT[same]}", str(pts[r])))
        r = same + 1
    return rows


def _scoring_section(rules: Rules) -> str:
    rows = _points_rows(rules)
    width = max(len(name) for name, _ in rows)
    table = "\n".join(f"{_INDENT}{name.ljust(width)}  {value}" for name, value in rows)
    intro = _para("At the end of each round every player but the one who went out scores the points of "
                  "the cards left in hand:")
    tail = _para("After the last round the lowest total wins (players who tie share the win).")
    return _section("Scoring", intro, table, tail)


def _extras_section(rules: Rules) -> str:
    items: list[str] = []
    if rules.the_cut:
        examples = ", ".join(f"{rules.hand_size * n + 1} for {n}"
                             for n in range(rules.min_players, rules.max_players + 1))
        items.append(f"THE CUT: each round the player on the dealer's right cuts the stack for the "
                     f"dealer, aiming at exactly {rules.hand_size} cards a player plus the flip card "
                     f"({examples} players). If the cut holds exactly that many cards, every other "
                     f"player gets {rules.cut_bonus} points that round. This program models the hand's "
                     f"imprecision: the cutter names a number and the cards actually cut miss it by a "
                     f"random error with a spread of about {rules.cut_error:.0%} of the number named.")
    else:
        items.append("THE CUT: not in these rules.")
    if rules.slam_records:
        items.append("SLAM: going down and out in the same turn while nobody else is down; SEMI-SLAM: the "
                     "same after others are down; JOKER FREE: going down with no wild card. These are "
                     "recorded (bragging rights; no points change).")
    else:
        items.append("Slams: not recorded in these rules.")
    if rules.blind_out_bonus or rules.blind_out_bonus_no_joker:
        items.append(f"Going out blind (going down and out in one turn): {rules.blind_out_bonus} points "
                     f"off that player's score, {rules.blind_out_bonus_no_joker} if no joker was used.")
    else:
        items.append("Going-out-blind bonus: not in these rules.")
    if rules.dunce_cap:
        items.append("Awards: the CROWN for the lowest total, the DUNCE CAP for the highest, and a star "
                     "for each round a player wins.")
    else:
        items.append("Dunce cap: not in these rules (the lowest total wins).")
    if rules.shanghai_call:
        items.append("\"Shanghai\" call: a player who discards a card that fits a meld on the table may "
                     "call \"Shanghai\" to protect it (nobody may take or buy it). Otherwise any other "
                     "player, down or not, may call \"Shanghai\" on it, add it to a meld and give the "
                     "discarder one card from their own hand, drawn at random (face down). The call "
                     "beats a buy.")
    else:
        items.append("\"Shanghai\" call: not in these rules.")
    return _section("Extras", _bullets(items))


def _stock_section(rules: Rules) -> str:
    if rules.max_stock_renewals:
        text = (f"When the stock runs out, the discard pile except its top card is shuffled into a new "
                f"stock, at most {_plural(rules.max_stock_renewals, 'time')} a round. When no new stock "
                f"can be made, the round ends with nobody out and every player scores their hand.")
    else:
        text = ("When the stock runs out, the round ends with nobody out and every player scores their "
                "hand.")
    return _section("When the stock runs out", _para(text))


def _options_line(rules: Rules) -> str:
    from shanghai.rules.presets import OPTION_PRESETS, OPTIONS

    base = rules.name
    parts = []
    if rules.options:
        parts.append("Options in force: " + ", ".join(rules.options) + ".")
    if base in OPTION_PRESETS:
        parts.append("Options of this preset: " + ", ".join(OPTIONS) + ".")
    return _para(" ".join(parts)) if parts else ""


def describe_manipulation(rules: ManipulationRules) -> str:
    """Manipulation rummy (004, first part) in words, with the decisions of ``docs/rules.md``."""
    head = f"{rules.title} (preset {rules.name}, source document {rules.source})"
    batches = ", ".join(str(b) for b in rules.deal_batches)
    sections = [
        "\n".join([head, "=" * min(len(head), WIDTH), _para(rules.description)]),
        _section("Players", _para(f"{_range(rules.min_players, rules.max_players)} players.")),
        _section("Pack", _bullets(_pack_text(p) for p in rules.packs)),
        _section("Deal", _para(
            f"The first dealer is chosen at random; then the deal passes to the left. Each player gets "
            f"{rules.hand_size} cards, dealt in batches of {batches} clockwise from the dealer's left; the "
            f"rest is the stock. There is no discard pile.")),
        _section("Melds", _bullets([
            "A set: 3 or 4 cards of one rank, all suits different.",
            "A run: 3 or more cards of one suit in sequence. Aces are low only: A-2-3 is a run, "
            "Q-K-A is not.",
        ])),
        _section("A turn", _bullets([
            "The player to the dealer's left begins; play goes clockwise.",
            "Meld from hand: new sets and runs, or cards added to the table's melds. The whole table "
            "may be rearranged (the \"Shanghai\") as long as every meld is legal when the turn ends "
            "and no card leaves the table.",
            ("A player who can place two cards or more must place at least two (option meld-two, 004 "
             "word for word); one card alone only where no two can be placed. How many more is their "
             "choice." if rules.must_meld == "two-cards" else
             "A player who can place a card must place at least one; how many more is their choice "
             "(option meld-two: at least two whenever two can be placed)."),
            "A player who cannot meld draws from the stock until a drawn card can be placed, plays it "
            "(other cards may go with it) and the turn ends.",
            "When the stock is empty a player who cannot meld passes; when everyone has passed in a "
            "row the hand is blocked and ends with nobody out.",
        ])),
        _section("Scoring", _para(
            f"A hand ends when a player melds their last card: 0 points for them, {rules.card_points} "
            f"point a card left in hand for everyone else. Hands go on until a player's total reaches "
            f"{rules.target_score}: that player loses, and the lowest total wins.")),
    ]
    return "\n\n".join(sections) + "\n"


def describe(rules: Rules | ManipulationRules) -> str:
    """The whole rule set in words: players, pack, deal, rounds, melds, wilds, aces, buying,
    going down and out, scoring, extras and the stock running out."""
    if isinstance(rules, ManipulationRules):
        return describe_manipulation(rules)
    head = f"{rules.title} (preset {rules.name}, source document {rules.source})"
    intro = [head, "=" * min(len(head), WIDTH), _para(rules.description)]
    opts = _options_line(rules)
    if opts:
        intro.append(opts)
    sections = [
        "\n".join(intro),
        _players_section(rules),
        _pack_section(rules),
        _deal_section(rules),
        _rounds_section(rules),
        _melds_section(rules),
        _wilds_section(rules),
        _aces_section(rules),
        _buying_section(rules),
        _play_section(rules),
        _going_out_section(rules),
        _scoring_section(rules),
        _extras_section(rules),
        _stock_section(rules),
    ]
    return "\n\n".join(sections) + "\n"
