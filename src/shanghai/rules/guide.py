"""How to play, for a newcomer: a rule set in a few short steps, written from its ``Rules`` fields.

``shanghai rules PRESET`` gives every rule (``rules/describe.py``); this guide gives what a newcomer
needs to sit down and play a first game, in the order the game meets it: the aim, the round's
contract, a turn, buying, going down and laying off, going out, the score, and the extras of the
rule set (THE CUT, the "Shanghai" call). The terminal game (F2 on its start screen, I at the table),
the browser ("How to play") and ``shanghai rules PRESET --guide`` show it. Nothing here is per
preset: a house rule changes the text.

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
    limit = {"none": "as many as you like, anywhere (a run needs one natural card)",
             "no-adjacent-in-runs": "never two side by side in a run (a run needs one natural card)",
             "naturals-majority": "every meld needs more natural cards than wild ones"}[rules.wild_limit]
    return f"{which} wild: a wild card stands for a card you need in a set or a run; {limit}."


def _aces(rules: Rules) -> str:
    return {"low-or-high": "An ace is low (A-2-3-4) or high (J-Q-K-A) in a run, never in the middle.",
            "high-only": "An ace is high in a run (J-Q-K-A) only.",
            "low-only": "An ace is low in a run (A-2-3-4) only."}[rules.aces]


def _points(rules: Rules) -> str:
    """What the cards left in hand count: the ranks from the king down in groups of equal points
    (or of their face value), the ace, the joker and the twos.

    >>> from shanghai.rules import preset
    >>> _points(preset("isra"))
    'a joker 50; an ace 20; K to 10: 10 each; 9 to 2: 5 each'
    >>> _points(preset("may-i"))
    'a joker 50; an ace 20; K to 10: 10 each; 9 to 3: their face value; a red two 2, a black two 20'
    """
    pts = rules.rank_points
    parts = []
    if rules.wilds != "none" or any(p.jokers for p in rules.packs):
        parts.append(f"a joker {rules.joker_points}")
    parts.append(f"an ace {pts[1]}")
    last = 3 if rules.black_two_points is not None else 2  # the black twos are told apart below
    r = 13
    while r >= last:
        low = r
        while low - 1 >= last and pts[low - 1] == pts[r]:
            low -= 1
        face = r
        while face - 1 >= last and pts[face - 1] == face - 1 and pts[face] == face:
            face -= 1
        if pts[r] == r and face < r:  # ranks that count their face value
            parts.append(f"{RANK_TEXT[r]} to {RANK_TEXT[face]}: their face value")
            r = face - 1
        else:
            top = RANK_TEXT[r]
            parts.append(f"{top}: {pts[r]}" if low == r else f"{top} to {RANK_TEXT[low]}: {pts[r]} each")
            r = low - 1
    if rules.black_two_points is not None:
        parts.append(f"a red two {pts[2]}, a black two {rules.black_two_points}")
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
            f"more cards of one suit in order (5♣ 6♣ 7♣ 8♣). {_aces(rules)} {_wilds(rules)}{_big(rules)}")),
        GuideStep("turn", "Your turn", (
            "Start your turn by taking the top card of the discard pile or by drawing from the stock. "
            "Then, if you can, go down or lay off (below), and end your turn by discarding one card. "
            "Take the discard when it helps your contract; otherwise draw and keep your options open.")),
    ]
    if any(spec.buys for spec in rules.rounds):
        first = ("The player in turn has the discard first; only when they draw from the stock may the "
                 "others buy it." if rules.buy_flow == "turn-player-first" else
                 "A would-be buyer speaks before the player in turn draws; the player in turn may take the "
                 "discard instead.")
        extra = (f"together with {_plural(rules.buy_penalty, 'penalty card')} from the stock, so your hand "
                 f"grows" if rules.buy_penalty else "with no penalty card")
        when = "In a round with buying, when" if any(spec.buys == 0 for spec in rules.rounds) else "When"
        steps.append(GuideStep("buy", "Buying (\u201cMay I?\u201d)", (
            f"{when} it is not your turn you may buy the top discard: you take it {extra}. {first} "
            f"{_buys(rules)}. Buy a card that brings your contract closer; every card you hold counts against "
            f"you if someone goes out first.")))
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
    blind = ""
    if rules.blind_out_bonus or rules.blind_out_bonus_no_joker:
        blind = (f" Going down and out in one turn (blind) takes {rules.blind_out_bonus} points off your score"
                 f" ({rules.blind_out_bonus_no_joker} if you used no joker).")
    steps.append(GuideStep("out", "Going out", (
        f"You go out {out}. The round ends at once; your hand is empty, so it counts 0.{blind} Once you are "
        f"down, shed your costly cards first: if someone else goes out, what you hold counts against you.")))
    steps.append(GuideStep("score", "The score", (
        f"The cards left in hand count against you: {_points(rules)}. A player who never went down is "
        f"caught with a whole hand, which is how most points are lost.")))
    if rules.the_cut:
        steps.append(GuideStep("cut", "THE CUT", (
            f"Before each deal the player on the dealer's right cuts the stack, aiming at exactly the "
            f"cards the deal takes ({rules.hand_size} a player and the flip card). A cut that hits it adds "
            f"{rules.cut_bonus} points to every other player's score that round: good for the cutter.")))
    if rules.shanghai_call:
        steps.append(GuideStep("shanghai", "The \u201cShanghai\u201d call", (
            "A discard that fits a meld on the table may be claimed by another player calling "
            "\u201cShanghai\u201d before anyone buys it: it goes on that meld, and the caller gives the "
            "discarder one card of their own hand, drawn blind. Discard such a card with the call yourself "
            "and nobody may take it.")))
    steps.append(GuideStep("help", "Help at the table", (
        "Ask the coach for a hint (H) at any decision: it says what the strongest computer player would "
        "do and why. At the end of the game, its review shows where you played otherwise and what that "
        "cost. Start against easy computer players.")))
    return tuple(steps)


def _buys(rules: Rules) -> str:
    by_count: dict[int, list[int]] = {}
    for i, spec in enumerate(rules.rounds, 1):
        by_count.setdefault(spec.buys, []).append(i)
    if len(by_count) == 1:
        return f"You have {_plural(rules.rounds[0].buys, 'buy')} a round"
    parts = []
    for n, rounds in sorted(by_count.items(), key=lambda kv: kv[1][0]):
        which = _rounds(rounds)
        parts.append(f"no buying in {which}" if n == 0 else f"{_plural(n, 'buy')} a round in {which}")
    return "Buys: " + "; ".join(parts)


def _rounds(numbers: list[int]) -> str:
    """``[8, 9, 10]`` -> ``rounds 8-10``; ``[3]`` -> ``round 3``; ``[1, 3]`` -> ``rounds 1, 3``."""
    if len(numbers) == 1:
        return f"round {numbers[0]}"
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"rounds {numbers[0]}-{numbers[-1]}"
    return f"rounds {', '.join(map(str, numbers))}"


def _big(rules: Rules) -> str:
    """A word on the rounds whose contract takes more cards than a hand and the draw hold."""
    big = [i for i, spec in enumerate(rules.rounds, 1) if spec.contract.min_cards > rules.hand_size + 1]
    if not big:
        return ""
    if len(big) == 1:
        return f" The contract of {_rounds(big)} takes more cards than your hand and a draw hold: you will have to buy."
    return f" The contracts of {_rounds(big)} take more cards than your hand and a draw hold: you will have to buy."


def guide_text(rules: Rules, width: int | None = 100) -> str:
    """The guide as plain text: each step's title, then its sentences, wrapped to ``width`` (None: one
    line a step, for a screen that wraps them itself)."""
    import textwrap

    def body(text: str) -> str:
        if width is None:
            return "  " + text
        return textwrap.fill(text, width, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False)

    return "\n\n".join(f"{s.title}\n{body(s.text)}" for s in how_to_play(rules))
