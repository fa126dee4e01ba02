"""How to play, for a newcomer: a rule set in a few short steps, written from its ``Rules`` fields.

``shanghai rules PRESET`` gives every rule (``cli/describe.py``); this guide gives what a newcomer
needs to sit down and play a first game, in the order the game meets it: the aim, the round's
contract, a turn, buying, going down and laying off, going out, the score, and the extras of the
rule set (THE CUT, the "Shanghai" call). The terminal game (F1), the browser ("How to play") and
``shanghai rules PRESET --guide`` show it. Nothing here is per preset: a house rule changes the text.

>>> from shanghai.rules import preset
>>> steps = how_to_play(preset("isra"))
>>> [s.key for s in steps]
['aim', 'contract', 'turn', 'buy', 'down', 'out', 'score', 'cut', 'help']
>>> "2 sets of 3" in steps[1].text and "3 runs of 4" in steps[1].text
True
"""

from __future__ import annotations

from dataclasses import dataclass

from shanghai.cards import RANK_TEXT
from shanghai.rules.model import Rules


@dataclass(frozen=True, slots=True)
class GuideStep:
    """One step of the guide: a short title and a few sentences."""

    key: str
    title: str
    text: str


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _wilds(rules: Rules) -> str:
    if rules.wilds == "none":
        return "There are no wild cards."
    which = "Jokers and black twos are" if rules.wilds == "jokers-and-black-twos" else "Jokers are"
    return f"{which} wild: a wild card stands for any card you need in a set or a run."


def _aces(rules: Rules) -> str:
    return {"low-or-high": "An ace is low (A-2-3-4) or high (J-Q-K-A) in a run, never in the middle.",
            "high-only": "An ace is high in a run (J-Q-K-A) only.",
            "low-only": "An ace is low in a run (A-2-3-4) only."}[rules.aces]


def _points(rules: Rules) -> str:
    pts = rules.rank_points
    parts = []
    if rules.wilds != "none":
        parts.append(f"a joker {rules.joker_points}")
    parts.append(f"an ace {pts[1]}")
    parts.append(f"a king, queen, jack or ten {pts[13]}" if len(set(pts[10:14])) == 1 else
                 "the picture cards " + ", ".join(f"{RANK_TEXT[r]} {pts[r]}" for r in range(13, 9, -1)))
    twos = rules.black_two_points is None and pts[2] in (pts[3], 2 if pts[3] == 3 else -1)
    low = "a nine down to a two" if twos else "a nine down to a three"
    if len(set(pts[3:10])) == 1:
        parts.append(f"{low} {pts[9]}")
    elif all(pts[r] == r for r in range(3, 10)):
        parts.append(f"{low} their face value")
    else:
        parts.append(", ".join(f"{RANK_TEXT[r]} {pts[r]}" for r in range(9, 2, -1)))
    if rules.black_two_points is not None:
        parts.append(f"a red two {pts[2]}, a black two {rules.black_two_points}")
    elif not twos:
        parts.append(f"a two {pts[2]}")
    return "; ".join(parts)


def how_to_play(rules: Rules) -> tuple[GuideStep, ...]:
    """The guide to ``rules`` for a newcomer, step by step (see the module docstring)."""
    n = len(rules.rounds)
    contracts = [spec.contract.text() for spec in rules.rounds]
    steps = [
        GuideStep("aim", "The aim", (
            f"The game has {_plural(n, 'round')}. In each round you try to lay down the "
            f"round's contract and then get rid of all your cards. Whoever goes out first ends the round; "
            f"everybody else scores the cards left in hand. After the last round the lowest total wins.")),
        GuideStep("contract", "The contract of the round", (
            f"Everybody is dealt {rules.hand_size} cards. Each round asks for its own melds, the contract: "
            + "; ".join(f"round {i}: {c}" for i, c in enumerate(contracts, 1))
            + f". A set is {rules.set_min} or more cards of one rank (7♥ 7♠ 7♦); a run is {rules.run_min} or "
            f"more cards of one suit in order (5♣ 6♣ 7♣ 8♣). {_aces(rules)} {_wilds(rules)}")),
        GuideStep("turn", "Your turn", (
            "Start your turn by taking the top card of the discard pile or by drawing from the stock. "
            "Then, if you can, go down or lay off (below), and end your turn by discarding one card. "
            "Take the discard when it helps your contract; otherwise draw and keep your options open.")),
    ]
    buys = sorted({spec.buys for spec in rules.rounds})
    if buys != [0]:
        each = (_plural(buys[0], "buy") if len(buys) == 1 else
                f"{_plural(buys[0], 'buy')} to {_plural(buys[-1], 'buy')}, by round")
        first = ("The player in turn has the discard first; only when they draw from the stock may the "
                 "others buy it." if rules.buy_flow == "turn-player-first" else
                 "A would-be buyer speaks before the player in turn draws; the player in turn may take the "
                 "discard instead.")
        steps.append(GuideStep("buy", "Buying (\u201cMay I?\u201d)", (
            f"When it is not your turn you may buy the top discard: you take it together with "
            f"{_plural(rules.buy_penalty, 'penalty card')} from the stock, so your hand grows. {first} "
            f"You have {each} a round. Buy a card that brings your contract closer; every buy adds cards "
            f"that count against you if someone goes out first.")))
    lay_when = ("the same turn" if rules.lay_off_on_going_down_turn else "your next turn")
    steps.append(GuideStep("down", "Going down and laying off", (
        f"When your hand holds the contract, lay it down on the table: that is going down, exactly the "
        f"contract's melds (each may be longer than its minimum). Once down, from {lay_when} on, you may "
        f"lay off cards on any meld on the table, yours or the others'. You go down once a round and make "
        f"no new melds after that.")))
    out = {"play-all": "by playing every card onto the table: your last card cannot be discarded, so keep "
                       "cards that play on the melds on the table",
           "discard-last": "by discarding your last card: every turn ends with a discard",
           "either": "by playing your last card onto the table or by discarding it"}[rules.going_out]
    steps.append(GuideStep("out", "Going out", (
        f"You go out {out}. The round ends at once, and you score nothing for it. Once you are down, "
        f"shed your costly cards first: if someone else goes out, what you hold counts against you.")))
    steps.append(GuideStep("score", "The score", (
        f"The cards left in hand count: {_points(rules)}. A player who never went down is caught with a "
        f"whole hand, which is how most points are lost.")))
    if rules.the_cut:
        steps.append(GuideStep("cut", "THE CUT", (
            f"Before each deal the player on the dealer's right cuts the stack, aiming at exactly the "
            f"cards the deal takes ({rules.hand_size} a player and the flip card). A cut that hits it "
            f"gives every other player {rules.cut_bonus} points that round.")))
    if rules.shanghai_call:
        steps.append(GuideStep("shanghai", "The \u201cShanghai\u201d call", (
            "A discard that fits a meld on the table may be claimed by another player calling "
            "\u201cShanghai\u201d: it goes on that meld, and the caller gives the discarder a card at random. "
            "Discard such a card with the call yourself and nobody may take it.")))
    steps.append(GuideStep("help", "Help at the table", (
        "Ask the coach for a hint (H) at any decision: it says what the strongest computer player would "
        "do and why. At the end of the game, its review shows where you played otherwise and what that "
        "cost. Start against easy computer players, with hints on.")))
    return tuple(steps)


def guide_text(rules: Rules, width: int = 100) -> str:
    """The guide as plain text: each step's title, then its sentences wrapped to ``width``."""
    import textwrap

    return "\n\n".join(f"{s.title}\n" + textwrap.fill(s.text, width, initial_indent="  ", subsequent_indent="  ")
                       for s in how_to_play(rules))
