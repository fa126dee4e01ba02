"""The named rule sets of ``VARIANTS.md``, as data. Each field's source is in ``docs/rules.md``."""

from __future__ import annotations

from collections.abc import Iterable

from shanghai.errors import InconsistentRulesError, OtherGameError, UnknownPresetError
from shanghai.rules.manipulation import MANIPULATION, MELD_TWO, ManipulationRules
from shanghai.rules.model import Contract, PackSpec, RoundSpec, Rules

C = Contract.of

# 000: "ROUND ONE: Two Sets - SET SET" ... "ROUND SEVEN: Three Runs - RUN RUN RUN".
_ISRA_CONTRACTS = (
    (C(sets=(3, 3)), "SET SET"),
    (C(sets=(3,), runs=(4,)), "SET RUN"),
    (C(runs=(4, 4)), "RUN RUN"),
    (C(sets=(3, 3, 3)), "SET SET SET (the lightning round)"),
    (C(sets=(3, 3), runs=(4,)), "SET SET RUN"),
    (C(sets=(3,), runs=(4, 4)), "SET RUN RUN"),
    (C(runs=(4, 4, 4)), "RUN RUN RUN (the grand finale)"),
)

# 001 "Variations" 1, and 004's contract list (identical).
_TEN_CONTRACTS = (
    C(sets=(3, 3)),
    C(sets=(3,), runs=(4,)),
    C(runs=(4, 4)),
    C(sets=(3, 3, 3)),
    C(sets=(3,), runs=(7,)),
    C(sets=(3, 3), runs=(5,)),
    C(runs=(4, 4, 4)),
    C(sets=(3,), runs=(10,)),
    C(sets=(3, 3, 3), runs=(5,)),
    C(runs=(5, 5, 5)),
)

# 002: "Hand 1 - 2 sets of 3 / Hand 2 - 2 sets of 3 + 1 run of 4 / Hand 3 - 2 sets of 4 ..."
_FAMILY_CONTRACTS = (
    C(sets=(3, 3)),
    C(sets=(3, 3), runs=(4,)),
    C(sets=(4, 4)),
    C(sets=(3, 3, 3)),
    C(sets=(3,), runs=(7,)),
    C(sets=(3, 3), runs=(5,)),
    C(runs=(4, 4, 4)),
    C(sets=(3,), runs=(10,)),
    C(sets=(3, 3, 3), runs=(5,)),
    C(runs=(5, 5, 5)),
)
_FAMILY_BUYS = (0, 0, 0, 0, 3, 3, 3, 3, 3, 4)

_ISRA_ROUNDS = tuple(RoundSpec(c, 2, name) for c, name in _ISRA_CONTRACTS)

ISRA = Rules(
    name="isra",
    title="International Shanghai Rummy Association rules",
    source="000",
    description="7 rounds from SET SET to RUN RUN RUN with 162 cards (3 decks, 6 jokers), THE CUT, "
                "2 buys a round with 2 penalty cards, jokers wild but never side by side in a run, "
                "going out by playing every card onto the table, slams.",
    min_players=3,
    max_players=8,
    packs=(PackSpec(3, 8, 3, 6),),
    rounds=_ISRA_ROUNDS,
    wilds="jokers",
    wild_limit="no-adjacent-in-runs",
    first_dealer="high-cut",
    the_cut=True,
    buy_penalty=2,
    buy_priority="clockwise-from-turn",
    going_out="play-all",
    wild_replacement="runs-play-freed-wild",
    slam_records=True,
    dunce_cap=True,
)

ISRA_JUNIOR = ISRA.changed(
    name="isra-junior", title="Shanghai Junior (ISRA)",
    description="The ISRA game, first three rounds only (SET SET, SET RUN, RUN RUN), with THE CUT and "
                "buying; no dunce cap.",
    rounds=_ISRA_ROUNDS[:3], dunce_cap=False)

ISRA_EXPRESS = ISRA.changed(
    name="isra-express", title="Shanghai Express (ISRA)",
    description="The ISRA game from the lightning round (SET SET SET) to RUN RUN RUN: rounds 4-7 only.",
    rounds=_ISRA_ROUNDS[3:])

_MAY_I_POINTS = (0, 20, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

MAY_I = Rules(
    name="may-i",
    title="Shanghai Rummy with \"May I?\"",
    source="001",
    description="7 contracts, jokers and black 2s wild with more naturals than wilds in every meld, "
                "\"May I?\" 3 times a hand with 1 extra card, long runs may be split, going out by "
                "playing or discarding the last card.",
    min_players=3,
    max_players=8,
    packs=(PackSpec(3, 4, 2, 4), PackSpec(5, 6, 3, 6), PackSpec(7, 8, 4, 8)),
    rounds=tuple(RoundSpec(c, 3) for c, _ in _ISRA_CONTRACTS),
    wilds="jokers-and-black-twos",
    wild_limit="naturals-majority",
    first_dealer="high-cut",
    buy_penalty=1,
    buy_priority="from-dealer-left",
    going_out="either",
    wild_replacement="runs-play-freed-wild",
    rank_points=_MAY_I_POINTS,
    black_two_points=20,
)

MAY_I_10 = MAY_I.changed(
    name="may-i-10", title="Shanghai Rummy with \"May I?\", 10 contracts",
    description="may-i with the 10 contracts of 001's variation 1 (to 3 runs of 5): the last hands need "
                "more than 11 cards, so \"May I?\" is the only way to hold them.",
    rounds=tuple(RoundSpec(c, 3) for c in _TEN_CONTRACTS))

FAMILY_10 = Rules(
    name="family-10",
    title="Carl's family Shanghai (10 hands)",
    source="002",
    description="10 hands with their own contracts (2 sets of 3 ... 3 runs of 5), jokers wild anywhere, "
                "buying only in hands 5-10 (2 penalty cards; refuse a buyer and you must take the "
                "discard), aces 15 points, going out by playing every card.",
    # 002 deals "2 people-one deck", but at two nobody can buy (decision 16) and hands 8-10 need 13-15
    # cards: refused with that reason (docs/rules.md, decision 16); the pack stays as 002 gives it
    min_players=3,
    max_players=8,
    packs=(PackSpec(2, 2, 1, 2), PackSpec(3, 5, 2, 4), PackSpec(6, 8, 3, 6)),
    rounds=tuple(RoundSpec(c, b) for c, b in zip(_FAMILY_CONTRACTS, _FAMILY_BUYS, strict=True)),
    run_min=3,
    wilds="jokers",
    wild_limit="none",
    first_dealer="high-cut",
    buy_penalty=2,
    buy_priority="clockwise-from-turn",
    buy_flow="ask-turn-player",
    going_out="play-all",
    wild_replacement="none",
    rank_points=(0, 15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10),
)

CONTRACT_10 = Rules(
    name="contract-10",
    title="Shanghai contract rummy (10 deals)",
    source="004",
    description="10 deals (2 sets of 3 ... 3 runs of 5) with 105 or 158 cards, jokers limited per meld, "
                "same-suit runs that must not touch, 1 penalty card a buy, no lay-offs on the turn you go "
                "down, going out by discarding, 25/50 points off for going out blind.",
    min_players=3,
    max_players=8,
    packs=(PackSpec(3, 4, 2, 1), PackSpec(5, 8, 3, 2)),
    rounds=tuple(RoundSpec(c, 3 if i < 8 else 4) for i, c in enumerate(_TEN_CONTRACTS)),
    wilds="jokers",
    wild_limit="naturals-majority",
    same_suit_runs="separated",
    first_dealer="low-cut",
    buy_penalty=1,
    buy_priority="clockwise-from-turn",
    going_out="discard-last",
    lay_off_on_going_down_turn=False,
    wild_replacement="any-meld-keep-wild",
    blind_out_bonus=25,
    blind_out_bonus_no_joker=50,
    rank_points=(0, 20, 20, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10),
)

PRESETS: dict[str, Rules] = {r.name: r for r in
                             (ISRA, ISRA_JUNIOR, ISRA_EXPRESS, MAY_I, MAY_I_10, FAMILY_10, CONTRACT_10)}

# The other games, whose rules are not a contract game's Rules (see ``game_rules``).
OTHER_GAMES: dict[str, ManipulationRules] = {MANIPULATION.name: MANIPULATION}
# Presets named but not built yet: asking for one raises RuleNotImplementedError naming the gap.
PLANNED_PRESETS: dict[str, str] = {}

# 001 "Variations" 2 and 3, which VARIANTS.md makes options of may-i and may-i-10.
OPTIONS: dict[str, dict[str, object]] = {
    "no-split": {"same_suit_runs": "separated", "same_rank_sets": False},
    "aces-high": {"aces": "high-only"},
    "shanghai-call": {"shanghai_call": True},
}
OPTION_PRESETS = ("may-i", "may-i-10")


def preset(name: str, options: Iterable[str] = ()) -> Rules:
    """The preset called ``name``, with 001's options applied where the preset allows them.

    >>> preset("may-i", ["no-split"]).same_suit_runs
    'separated'
    >>> preset("isra", ["no-split"])
    Traceback (most recent call last):
    ...
    shanghai.errors.InconsistentRulesError: option 'no-split' applies to may-i, may-i-10, not to isra
    """
    key = name.strip().lower()
    if key in OTHER_GAMES:
        raise OtherGameError(
            f"{key!r} is manipulation rummy, a different game from the contract presets: ask "
            f"game_rules({key!r}) and play it with ManipulationGame")
    if key in PLANNED_PRESETS:
        from shanghai.errors import RuleNotImplementedError

        raise RuleNotImplementedError(PLANNED_PRESETS[key])
    if key not in PRESETS:
        raise UnknownPresetError(
            f"unknown rule set {name!r}; presets are: {', '.join([*PRESETS, *OTHER_GAMES])}")
    rules = PRESETS[key]
    opts = tuple(dict.fromkeys(o.strip().lower() for o in options if o.strip()))
    changes: dict[str, object] = {}
    for opt in opts:
        if opt not in OPTIONS:
            raise InconsistentRulesError(f"unknown option {opt!r}; options are: {', '.join(OPTIONS)}")
        if key not in OPTION_PRESETS:
            raise InconsistentRulesError(
                f"option {opt!r} applies to {', '.join(OPTION_PRESETS)}, not to {key}")
        changes.update(OPTIONS[opt])
    if opts:
        rules = rules.changed(options=opts, **changes)
    return rules


AnyRules = Rules | ManipulationRules


def game_rules(name: str, options: Iterable[str] = ()) -> AnyRules:
    """The rules of any game by preset name: a contract preset (with options) or another game.

    >>> game_rules("manipulation").target_score
    25
    >>> game_rules("isra").name
    'isra'
    >>> game_rules("manipulation", ["target=10"]).target_score
    10
    >>> game_rules("manipulation", ["no-split"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    shanghai.errors.InconsistentRulesError: option 'no-split' applies to may-i, may-i-10, not to ...
    """
    key = name.strip().lower()
    if key in OTHER_GAMES:
        return _other_game(OTHER_GAMES[key], [o.strip().lower() for o in options if o.strip()])
    return preset(name, options)


def _other_game(rules: ManipulationRules, opts: list[str]) -> ManipulationRules:
    """Manipulation rummy's options: ``target=N``, the agreed target score (004: "until someone
    reaches the target score and LOSES"), and ``meld-two``, 004's "If you have the ability to meld more
    than 1 card you are required to ... at least more than one" word for word (docs/rules.md).

    >>> r = game_rules("manipulation", ["meld-two", "target=10"])
    >>> r.must_meld, r.target_score, r.options
    ('two-cards', 10, ('target=10', 'meld-two'))
    """
    target: int | None = None
    meld_two = False
    for opt in dict.fromkeys(opts):
        if opt == MELD_TWO:
            meld_two = True
            continue
        name, _, value = opt.partition("=")
        if name.strip() == "target":
            digits = value.strip()
            if not (digits.isascii() and digits.isdigit() and len(digits) <= 6) or int(digits) < 1:
                raise InconsistentRulesError(f"option {opt!r}: the target score must be a whole number "
                                             f"from 1 to 999999, as in target=25")
            target = int(value)
            continue
        where = (f"applies to {', '.join(OPTION_PRESETS)}, not to {rules.name}" if opt in OPTIONS
                 else "is unknown")
        raise InconsistentRulesError(f"option {opt!r} {where} (its options: target=N, the target score; "
                                     f"{MELD_TWO}, at least two cards whenever two can be placed)")
    if target is None and not meld_two:
        return rules
    options = (*((f"target={target}",) if target is not None else ()), *((MELD_TWO,) if meld_two else ()))
    return rules.changed(target_score=target if target is not None else rules.target_score,
                         must_meld="two-cards" if meld_two else rules.must_meld, options=options)
