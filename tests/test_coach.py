"""The coach: a legal action with a one-line reason in every phase, and an error off turn; the
review of a played game (``review``) asks it at every decision of one seat."""

from __future__ import annotations

import dataclasses

import pytest

from helpers import new_game
from shanghai.bots import coach
from shanghai.bots.coach import Advice, advise, review, same_move
from shanghai.bots.expert import ExpertPlayer
from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.match import play_game
from shanghai.bots.random_player import RandomPlayer
from shanghai.bots.registry import make_opponent, strongest_player
from shanghai.bots.search import SearchPlayer
from shanghai.cards import card_text, parse_card
from shanghai.engine.actions import Action, Discard, DrawStock, GoDown, LayOff, TakeDiscard, parse_action
from shanghai.engine.game import Game, Phase
from shanghai.engine.record import GameRecord
from shanghai.engine.view import PlayerView, view
from shanghai.errors import RecordError
from shanghai.rules import game_rules, preset


def _advice_by_phase(game: Game, limit: int, follow: bool = True) -> dict[Phase, list[Advice]]:
    """Play ``game`` asking the coach at every decision; the seats follow the advice (or, with
    ``follow`` false, play at random, which opens more kinds of windows)."""
    seen: dict[Phase, list[Advice]] = {}
    players = [RandomPlayer(s) for s in range(game.players)]
    for _ in range(limit):
        if game.is_over:
            break
        seat = game.to_act()[0]
        v = view(game, seat)
        tip = advise(v, seed=seat)
        assert tip.action in v.legal, (tip, v.legal)
        assert tip.reason and "\n" not in tip.reason, tip
        seen.setdefault(v.phase, []).append(tip)
        game.apply(tip.action if follow else players[seat].choose(v))
    return seen


def test_every_phase_gets_legal_advice_with_a_reason() -> None:
    seen = _advice_by_phase(new_game("isra", 4, seed=2), 400)
    assert {Phase.CUT, Phase.DRAW, Phase.BUY, Phase.PLAY} <= set(seen)
    verbs = {str(t.action).split()[1] for tips in seen.values() for t in tips}
    assert {"cut", "draw", "discard", "down"} <= verbs


def test_shanghai_call_and_family_flow() -> None:
    shanghai = _advice_by_phase(Game.new(preset("may-i", ["shanghai-call"]), 4, 3), 150, False)
    assert Phase.SHANGHAI in shanghai
    family = _advice_by_phase(Game.new(preset("family-10"), 3, 4), 600)
    assert Phase.BUY in family


def test_advice_is_the_strongest_players_choice_and_reproducible() -> None:
    game = new_game("isra-junior", 4, seed=6)
    players = [ExpertPlayer(s) for s in range(4)]
    for _ in range(60):
        seat = game.to_act()[0]
        game.apply(players[seat].choose(view(game, seat)))
    seat = game.to_act()[0]
    v = view(game, seat)
    assert advise(v, seed=3) == advise(v, seed=3)
    assert advise(v, seed=3).action == strongest_player(3).choose(v)
    assert isinstance(strongest_player(3), SearchPlayer)
    assert type(make_opponent("expert", 3)) is SearchPlayer  # level expert is the coach's player


def test_advice_says_what_the_search_found_where_it_leaves_the_experts_choice() -> None:
    game = new_game("isra", 4, seed=5)
    players = [ExpertPlayer(s) for s in range(4)]
    found = []
    while not game.is_over and len(found) < 3:
        seat = game.to_act()[0]
        v = view(game, seat)
        if seat == 0:
            tip = advise(v, seed=7)
            if "deals of the cards you cannot see" in tip.reason:
                found.append(tip)
        game.apply(players[seat].choose(v))
    assert len(found) == 3, "the search should leave the expert's choice now and then"
    assert all(tip.searched for tip in found)  # and says so
    for tip in found:
        # "discard 8C: over 3 deals of the cards you cannot see it came out about 4.5 points
        # ahead of discard 10C": the advised action first, the expert's own choice last
        assert isinstance(tip.action, Discard | DrawStock | TakeDiscard | GoDown), tip
        head, rest = tip.reason.split(": over ", 1)
        other = rest.rsplit(" ahead of ", 1)[1]
        assert head != other
        if isinstance(tip.action, Discard):
            assert head == "discard " + str(tip.action).split()[2]


def test_discard_advice_names_the_card() -> None:
    game = new_game("isra-junior", 4, seed=9)
    players = [ExpertPlayer(s) for s in range(4)]
    while True:
        seat = game.to_act()[0]
        v = view(game, seat)
        if v.phase == Phase.PLAY and all(isinstance(a, Discard) for a in v.legal):
            break
        game.apply(players[seat].choose(v))
    tip = advise(v)
    assert isinstance(tip.action, Discard)
    assert tip.reason.startswith("discard ") and str(tip.action).split()[2] in tip.reason


def test_no_advice_off_turn() -> None:
    game = new_game("isra", 4, seed=1)
    seat = game.to_act()[0]
    idle = (seat + 1) % 4
    with pytest.raises(ValueError, match="no legal action"):
        advise(view(game, idle))
    with pytest.raises(ValueError):
        advise(dataclasses.replace(view(game, seat), legal=()))


def coached_game(seed: int, *, swap_from: int | None = None) -> tuple[Game, list[tuple[int, Action]], int | None]:
    """isra-junior, 3 players: seat 1 plays the coach's advice at each of its choices, the others
    play as experts. With ``swap_from``, the first of seat 1's choices from that number on where
    there is one is another legal move than the coach's: one it makes with none of the review's
    seeds and not a tied discard. Returns the game, for each of seat 1's choices the action's index
    and the coach's advice there, and the number of the choice swapped."""
    game = Game.new(preset("isra-junior"), 3, seed)
    experts = [ExpertPlayer(s) for s in range(3)]
    asked: list[tuple[int, Action]] = []
    swapped = None
    while not game.is_over:
        seat = game.to_act()[0]
        v = view(game, seat)
        if seat == 1 and len(v.legal) > 1:
            tip = advise(v, seed=0).action
            action = tip
            if swap_from is not None and swapped is None and len(asked) >= swap_from:
                other = next((a for a in v.legal if not any(same_move(a, advise(v, k).action) for k in range(4))
                              and not coach._tied_discards(v, a, advise(v, seed=0))), None)
                if other is not None:
                    action, swapped = other, len(asked)
            asked.append((len(game.actions), tip))
        else:
            action = experts[seat].choose(v)
        game.apply(action)
    return game, asked, swapped


def test_a_review_of_the_coachs_own_play_agrees_at_every_choice() -> None:
    game, asked, _ = coached_game(11)
    decisions = review(GameRecord.of(game), seat=1)
    # every choice of the seat is reviewed (and nothing else): forced moves are not decisions
    assert [(d.index, d.advice.action) for d in decisions] == asked
    assert all(d.agreed for d in decisions) and all(d.played.seat == 1 for d in decisions)
    assert {d.phase for d in decisions} >= {Phase.DRAW, Phase.PLAY, Phase.BUY}
    assert all(d.advice.reason for d in decisions)


def test_a_review_shows_the_one_move_played_otherwise() -> None:
    game, asked, swapped = coached_game(11, swap_from=5)
    assert swapped is not None
    decisions = review(GameRecord.of(game), seat=1)
    differ = [d for d in decisions if not d.agreed]
    assert len(differ) == 1
    (d,) = differ
    index, tip = asked[swapped]
    assert d.index == index and d.advice.action == tip
    assert d.played == game.actions[index] and not same_move(d.played, tip)
    # the hand shown is the seat's own before the move, and the state is the one it saw
    before = Game.new(game.rules, game.players, game.seed)
    for a in game.actions[:index]:
        before.apply(a)
    assert sorted(d.hand) == sorted(before.hands[1])
    assert (d.round_number, d.phase) == (before.round_number, before.phase)


def test_review_asks_the_coach_with_the_seats_view_as_the_hint_button(monkeypatch: pytest.MonkeyPatch) -> None:
    """The coach gets the seat's view (no other hand, no stock) before each of its choices, and its
    first answer there is what the hint button gives at that moment (seed 0)."""
    game = play_game(preset("isra-junior"), 3, seed=8, seats=[ExpertPlayer(s) for s in range(3)])
    record = GameRecord.of(game)
    asked: list[tuple[PlayerView, int]] = []

    def spy(v: PlayerView, seed: int = 0) -> Advice:
        asked.append((v, seed))
        return advise(v, seed)

    monkeypatch.setattr(coach, "advise", spy)
    decisions = review(record, seat=2)
    first = [v for v, seed in asked if seed == 0]
    assert len(first) == len(decisions) > 0 and len(asked) >= len(first)
    replayed = Game.new(game.rules, game.players, game.seed)
    at = {d.index for d in decisions}
    seen: dict[int, PlayerView] = {}
    for i, a in enumerate(game.actions):
        if i in at:
            seen[i] = view(replayed, 2)
        replayed.apply(a)
    assert all(type(v) is PlayerView and v.seat == 2 for v, _ in asked)
    assert first == [seen[d.index] for d in decisions]
    for d in decisions:
        v = seen[d.index]
        assert d.advice == advise(v, seed=0) or (d.agreed and d.advice in [advise(v, k) for k in (1, 2, 3)])


def test_same_move() -> None:
    down = parse_action("0 down set 7H 7S 7D | set 9C 9H JK")
    assert same_move(down, parse_action("0 down set 9C 9H JK | set 7H 7S 7D"))
    assert same_move(down, parse_action("0 down set 7S 7D 7H | set JK 9H 9C"))  # a set in any order
    assert not same_move(down, parse_action("0 down set 7H 7S JK | set 9C 9H 7D"))
    run = parse_action("0 down run 5D 6D JK 8D | set 9C 9H 9S")
    assert not same_move(run, parse_action("0 down run 5D 6D 7D JK | set 9C 9H 9S"))  # the wild's place
    lay = parse_action("0 layoff 9D m1 high")
    assert isinstance(lay, LayOff) and same_move(lay, parse_action("0 layoff 4C m0 low"))
    assert not same_move(lay, parse_action("0 layoff 9D m0 low"))  # where a card goes counts
    # where a wild goes counts (a freed wild must be laid off somewhere: every move is a lay-off)
    assert not same_move(parse_action("0 layoff JK m1 high"), parse_action("0 layoff JK m0 low"))
    assert not same_move(parse_action("0 layoff JK m1 high"), lay)
    two = parse_action("0 layoff 2C m1 high")
    assert same_move(two, lay) and not same_move(two, lay, preset("may-i").wild_cards())  # 2C wild there
    assert not same_move(lay, parse_action("0 discard 9D"))
    assert not same_move(parse_action("0 discard 9D"), lay)
    assert not same_move(parse_action("0 take"), parse_action("0 draw"))


def test_review_errors() -> None:
    record = GameRecord.of(play_game(preset("isra-junior"), 3, seed=2, seats=[ExpertPlayer(s) for s in range(3)]))
    with pytest.raises(ValueError, match="no seat 3: the record seats 3 players"):
        review(record, seat=3)
    with pytest.raises(ValueError, match="no seat -1"):
        review(record, seat=-1)
    manipulation = GameRecord(game_rules("manipulation", []), 2, ["Ann", "Bob", "Cy"], [])
    with pytest.raises(ValueError, match="not manipulation rummy"):
        review(manipulation, seat=0)
    bad = GameRecord(record.rules, record.seed, record.players, [*record.actions[:6], "1 discard ZZ"])
    with pytest.raises(RecordError, match="action 6"):
        review(bad, seat=1)


def test_a_hook_before_each_action_keeps_its_own_errors() -> None:
    """``GameRecord.replay(before=...)`` sees the game before each action; an error of the hook
    itself is not reported as the record's."""
    record = GameRecord.of(play_game(preset("isra-junior"), 3, seed=2))
    seen: list[int] = []

    def count(game: Game, index: int, action: Action) -> None:
        assert len(game.actions) == index  # not yet applied
        seen.append(index)

    record.replay(before=count)
    assert seen == list(range(len(record.actions)))

    def fails(game: Game, index: int, action: Action) -> None:
        raise ValueError("the hook's own")

    with pytest.raises(ValueError, match=r"^the hook's own$"):
        record.replay(before=fails)


def test_a_move_the_coach_also_makes_with_another_seed_is_its_move() -> None:
    """Ties the coach breaks at random (two discards of equal points once down, say) are not listed."""
    from shanghai.bots.greedy import GreedyPlayer

    seats = [GreedyPlayer(0), ExpertPlayer(1), ExpertPlayer(2)]
    game = play_game(preset("isra-junior"), 3, seed=31, seats=seats)
    record = GameRecord.of(game)
    once = review(record, seat=0, tries=1)
    four = review(record, seat=0)
    assert [d.index for d in once] == [d.index for d in four]
    rescued = [(a, b) for a, b in zip(once, four, strict=True) if b.agreed and not a.agreed]
    assert rescued, "some differences should be the coach's own coin flips"
    assert all(b.agreed for a, b in zip(once, four, strict=True) if a.agreed)
    replayed = Game.new(game.rules, game.players, game.seed)
    at = {b.index: b for _, b in rescued}
    for i, action in enumerate(game.actions):
        if i in at:
            v = view(replayed, 0)
            tips = [advise(v, k) for k in (1, 2, 3)]
            assert at[i].advice in tips and same_move(action, at[i].advice.action)
            assert not same_move(action, advise(v, 0).action)
        replayed.apply(action)
    with pytest.raises(ValueError, match="tries must be at least 1"):
        review(record, seat=0, tries=0)


def test_a_discard_tied_with_the_experts_is_the_coachs_move() -> None:
    """The expert discards the card it scores highest and breaks exact ties at random: the review
    takes a tied discard as the coach's (isra-junior, seed 21: Bob, down, discarded 8C where the
    coach said 5D, both 5 points, neither feeding anyone)."""
    from shanghai.bots.greedy import GreedyPlayer

    game = play_game(preset("isra-junior"), 3, seed=21, seats=[ExpertPlayer(0), GreedyPlayer(1), ExpertPlayer(2)])
    record = GameRecord.of(game)
    replayed = Game.new(game.rules, game.players, game.seed)
    for a in game.actions[:60]:
        replayed.apply(a)
    v = view(replayed, 1)
    played = game.actions[60]
    scores = ExpertPlayer().discard_scores(v)
    assert str(played) == "1 discard 8C" and scores is not None
    tip = advise(v, seed=0)
    assert str(tip.action) == "1 discard 5D"
    assert scores[parse_card("8C")] == scores[parse_card("5D")] == max(scores.values())
    (d,) = [d for d in review(record, seat=1) if d.index == 60]
    assert d.agreed and d.advice == tip
    # where the expert scores a discard lower, down or not, it stays a difference
    replayed = Game.new(game.rules, game.players, game.seed)
    checked = {True: 0, False: 0}
    for a in game.actions:
        w = view(replayed, a.seat)
        scores = ExpertPlayer().discard_scores(w)
        if isinstance(a, Discard) and scores is not None:
            best = max(scores, key=lambda c: scores[c])
            for c, score in scores.items():
                best_advice = Advice(Discard(a.seat, best), "the expert's best")
                assert coach._tied_discards(w, Discard(a.seat, c), best_advice) == (score == scores[best])
                searched = dataclasses.replace(best_advice, searched=True)  # the search's pick: no tie
                assert not coach._tied_discards(w, Discard(a.seat, c), searched)
                checked[replayed.down[a.seat]] += score < scores[best]
        elif isinstance(a, Discard):  # greedy's rule, or lay-offs first: no scores, no ties
            assert not coach._tied_discards(w, a, Advice(a, "its own"))
        replayed.apply(a)
    assert checked[True] > 10 and checked[False] > 10


@pytest.mark.parametrize(("seed", "index", "played", "advised"), [(25, 272, "10S", "AH"), (27, 183, "10C", "QH")])
def test_a_tie_in_the_experts_scores_is_no_tie_where_the_search_chose(seed: int, index: int, played: str,
                                                                      advised: str) -> None:
    """Greedy in seat 0 of isra-junior discards a card the expert scores as high as the coach's, but
    the coach's search chose its card over the expert's: a difference, listed."""
    from shanghai.bots.greedy import GreedyPlayer

    game = play_game(preset("isra-junior"), 3, seed, seats=[GreedyPlayer(0), ExpertPlayer(1), ExpertPlayer(2)])
    (d,) = [d for d in review(GameRecord.of(game), seat=0, tries=1) if d.index == index]
    assert str(d.played) == f"0 discard {played}" and str(d.advice.action) == f"0 discard {advised}"
    assert d.advice.searched and "deals of the cards you cannot see" in d.advice.reason and not d.agreed
    replayed = Game.new(game.rules, game.players, game.seed)
    for a in game.actions[:index]:
        replayed.apply(a)
    scores = ExpertPlayer().discard_scores(view(replayed, 0))
    assert scores is not None and scores[parse_card(played)] == scores[parse_card(advised)] == max(scores.values())


def _could_go_out(seed: int) -> tuple[PlayerView, Action, Action]:
    """The first state of an isra game between experts where the seat in turn is down with two cards,
    one of which lays off (lay it off and discard the other: out), and the discard of that card."""
    game = Game.new(preset("isra"), 4, seed)
    players = [ExpertPlayer(s) for s in range(4)]
    while not game.is_over:
        seat = game.to_act()[0]
        v = view(game, seat)
        if v.phase == Phase.PLAY and v.down[seat] and len(v.hand) == 2:
            lay = next((a for a in v.legal if isinstance(a, LayOff)), None)
            keep = next((a for a in v.legal if lay is not None and isinstance(a, Discard) and a.card == lay.card), None)
            if lay is not None and keep is not None:
                return v, keep, lay
        game.apply(players[seat].choose(v))
    raise AssertionError(f"seed {seed}: no such state")


def test_a_move_that_does_not_go_out_clearly_costs_points() -> None:
    """``move_cost`` plays both moves out to the end of the round on the same samples of the hidden
    cards: discarding the card that would lay off and let the seat go out clearly costs points."""
    v, keep, lay = _could_go_out(4)
    cost = coach.move_cost(v, keep, lay, deals=8)
    assert cost is not None and cost.deals == 8
    assert cost.points > 0 and cost.clear and cost.words().startswith("cost about ")
    again = coach.move_cost(v, lay, keep, deals=8)  # the other way round: the same figures, negated
    assert again is not None and (again.points, again.error) == (-cost.points, cost.error)
    assert again.words().startswith("came out about ") and "better than the coach's move" in again.words()
    assert coach.move_cost(v, keep, lay, deals=8) == cost  # the same seed, the same figures
    same = coach.move_cost(v, keep, keep, deals=3)
    assert same is not None and (same.points, same.error, same.clear) == (0.0, 0.0, False)
    assert same.words().startswith("no clear difference: 0.0 ± 0.0 points this round, over 3 deals")
    with pytest.raises(ValueError, match="at least 2 deals"):
        coach.move_cost(v, keep, lay, deals=1)
    with pytest.raises(ValueError, match="is not a legal move of seat"):
        coach.move_cost(v, parse_action(f"{v.seat} draw"), lay)


def test_a_review_weighs_each_move_played_otherwise() -> None:
    # greedy, not random, at seat 0: ten moves otherwise than the coach's to weigh, not 77 (a third of the time)
    game = play_game(preset("isra-junior"), 3, seed=4, seats=[GreedyPlayer(0), ExpertPlayer(1), ExpertPlayer(2)])
    record = GameRecord.of(game)
    plain = review(record, 0)
    weighed = review(record, 0, deals=2)
    assert [(d.index, d.agreed) for d in weighed] == [(d.index, d.agreed) for d in plain]
    assert all(d.cost is None for d in plain)
    assert all((d.cost is None) == d.agreed for d in weighed)  # every difference weighed, nothing else
    assert all(d.cost is not None and d.cost.deals == 2 for d in weighed if not d.agreed)
    assert review(record, 0, deals=2) == weighed  # reproducible
    summary = coach.review_summary(weighed)
    costs = [d.cost for d in weighed if d.cost is not None]
    costly = [c for c in costs if c.clear and c.points > 0]
    assert summary["weighed"]["moves"] == len(costs) > 1 and summary["weighed"]["costly"] == len(costly)
    assert summary["weighed"]["words"].startswith("Weighed over 2 deals each: ")
    assert [m["cost"]["words"] for m in summary["moves"]] == [c.words() for c in costs]
    assert coach.review_summary(plain)["weighed"] is None
    with pytest.raises(ValueError, match="deals is 0"):
        review(record, 0, deals=1)
    # a budget of deals for the whole review: with more differences, fewer deals each (at least 2)
    n = len(costs)
    capped = review(record, 0, deals=16, budget=2 * n + 1)
    assert [d.cost.deals for d in capped if d.cost is not None] == [2] * n
    assert [d.cost for d in capped] == [d.cost for d in weighed]  # the same deals as deals=2: the same costs


def test_a_review_weighs_a_go_down_in_the_players_own_arrangement() -> None:
    """A person may arrange a go-down otherwise than the arrangement the view lists (``legal`` offers
    one; the engine takes any): the review still weighs it."""
    game = Game.new(preset("isra"), 3, 1)
    players = [ExpertPlayer(s) for s in range(3)]
    own: GoDown | None = None
    while not game.is_over:
        seat = game.to_act()[0]
        v = view(game, seat)
        listed = [a for a in v.legal if isinstance(a, GoDown)]
        if seat == 0 and own is None and listed:
            spare = [c for c in v.hand if c not in listed[0].melds[0].cards]
            for c in spare:
                cards = (c, *listed[0].melds[0].cards[1:])
                mine = GoDown(0, (dataclasses.replace(listed[0].melds[0], cards=cards), *listed[0].melds[1:]))
                if mine not in v.legal and game.is_legal(mine):
                    own = mine
                    break
            if own is not None:
                game.apply(own)
                continue
        game.apply(players[seat].choose(v))
    assert own is not None, "no other arrangement found"
    decisions = review(GameRecord.of(game), 0, deals=2)
    (d,) = [d for d in decisions if d.played == own]
    assert not d.agreed and d.cost is not None and d.cost.deals == 2


def test_what_the_weighed_differences_came_to_in_words() -> None:
    words = coach.weighed_words
    assert words({"moves": 5, "deals": 16, "costly": 2, "points": 18.1, "better": 1}) == (
        "Weighed over 16 deals each: 2 of the 5 differences clearly cost points, about 18 points in all; "
        "in 1 your move came out clearly better than the coach's; the rest were close calls.")
    assert words({"moves": 2, "deals": 16, "costly": 2, "points": 0.4, "better": 0}) == (
        "Weighed over 16 deals each: 2 of the 2 differences clearly cost points, under 1 point in all.")
    assert words({"moves": 1, "deals": 8, "costly": 0, "points": 0, "better": 1}) == (
        "Weighed over 8 deals: your move came out clearly better than the coach's.")
    assert words({"moves": 1, "deals": 8, "costly": 0, "points": 0, "better": 0}) == (
        "Weighed over 8 deals: it was a close call.")
    assert coach.Cost(1.0, 0.2, 16).words() == (
        "cost about 1 point this round (1.0 ± 0.4, over 16 deals of the cards you could not see)")


def test_moves_in_words_name_the_melds_by_their_cards() -> None:
    """A review shows a lay-off as the player saw it: on which meld, by its cards, and at which end."""
    game = play_game(preset("isra"), 4, seed=9, seats=[ExpertPlayer(s) for s in range(4)])
    seen = 0

    def before(g: object, index: int, action: object) -> None:
        nonlocal seen
        if isinstance(g, Game) and isinstance(action, LayOff):
            meld = next(m for m in g.table if m.id == action.meld)
            words = coach.move_words(action, None, view(g, action.seat).table)
            cards = " ".join(card_text(c) for c in meld.meld.cards)
            assert words.startswith(f"lay off {card_text(action.card)} on the {meld.meld.kind} {cards}"), words
            assert words.endswith(f", {action.end} end") if action.end else "end" not in words
            seen += 1
    GameRecord.of(game).replay(before=before)
    assert seen > 0
    assert coach.move_words(parse_action("1 layoff 5C m4")) == "lay off 5C on meld 4"  # no table given
    # the expert's reasons name a meld by its number (the terminal games show it) and its cards (the
    # browser shows only those)
    reasons = 0

    def reason(g: object, index: int, action: object) -> None:
        nonlocal reasons
        if isinstance(g, Game) and isinstance(action, LayOff):
            v = view(g, action.seat)
            chosen, why = ExpertPlayer(action.seat).decide(v)
            if isinstance(chosen, LayOff):
                meld = next(m for m in v.table if m.id == chosen.meld)
                assert f"on meld {chosen.meld} ({meld.kind} {meld.text()})" in why, why
                reasons += 1
    GameRecord.of(game).replay(before=reason)
    assert reasons > 0
    assert coach.move_words(parse_action("1 draw")) == "draw"
    assert coach.move_words(parse_action("1 cut 12")) == "cut 12"
