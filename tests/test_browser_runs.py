"""The page's "Make a run" orders the selected cards as the engine reads them (a run by position): every
order it offers is a legal run, and it offers every place for the wilds that the engine's
``run_arrangements`` finds (000's isra: "no two wild cards side by side"; may-i's black twos, natural in
their own place; the aces of each rule set)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from server_helpers import Server
from shanghai.cards import JOKER, Card, card_text, make_card, parse_card
from shanghai.errors import InvalidMeldError
from shanghai.melds import check_run, run_arrangements
from shanghai.rules import Rules, preset
from test_browser import browser, new_page, server

__all__ = ["browser", "server"]

ARRANGE = """async ([cards, wilds, aces, wildLimit, runMin]) => {
  const m = await import('/js/cards.js');
  return m.runArrangements(cards, (c) => wilds.includes(c), { aces, wildLimit, runMin });
}"""


def selections(rng: random.Random, count: int, wild_pool: list[Card]) -> list[list[Card]]:
    """Cards a player might select for a run: a few naturals of one suit near each other, 0-3 wilds."""
    out = []
    for _ in range(count):
        suit = rng.randrange(4)
        low = rng.randint(1, 13)
        ranks = sorted({min(13, low + rng.randint(0, 5)) for _ in range(rng.randint(2, 6))})
        cards = [make_card(r, suit) for r in ranks]
        cards += [rng.choice(wild_pool) for _ in range(rng.randint(0, 3))]
        rng.shuffle(cards)
        out.append(cards)
    return out


def pattern(run: tuple[Card, ...], rules: Rules) -> str:
    """Which places of a (legal) run hold a card standing for another: ``NWNN``."""
    meld = check_run(run, rules)
    assert meld.low is not None and meld.suit is not None
    return "".join("N" if c == make_card(meld.low + i, meld.suit) else "W" for i, c in enumerate(run))


def test_make_a_run_offers_the_orders_the_engine_accepts(browser: Any, server: Callable[..., Server]) -> None:
    srv = server()
    ctx, page, errors = new_page(browser, srv)
    try:
        page.goto(srv.base + "/")
        rng = random.Random(7)
        for name, changes in (("isra", {}), ("may-i", {}), ("isra", {"aces": "high-only"}),
                              ("may-i", {"aces": "low-only", "wild_limit": "naturals-majority"}),
                              ("isra", {"wild_limit": "none", "run_min": 3})):
            rules = preset(name).changed(**changes) if changes else preset(name)
            wilds = sorted(rules.wild_cards())
            checked = 0
            for cards in selections(rng, 200, wilds or [JOKER]):
                texts = [card_text(c) for c in cards]
                offered = page.evaluate(ARRANGE, [texts, [card_text(c) for c in wilds], rules.aces,
                                                  rules.wild_limit, rules.run_min])
                engine = run_arrangements(cards, rules)
                assert offered, texts
                if not engine:
                    assert len(offered) == 1, (name, texts, offered)  # one order, for the server to refuse
                    continue
                checked += 1
                # every order offered is a legal run (the engine reads it so) ...
                for o in offered:
                    try:
                        check_run(tuple(parse_card(t) for t in o), rules)
                    except InvalidMeldError as exc:
                        raise AssertionError(f"{name} {changes}: {texts} offered as {o}: {exc}") from exc
                # ... and every place for the wilds that the engine's arrangements use is offered
                missing = {pattern(m.cards, rules) for m in engine} - \
                    {pattern(tuple(parse_card(t) for t in o), rules) for o in offered}
                assert not missing, (name, changes, texts, offered, [m.text() for m in engine])
            assert checked >= 40, (name, checked)
        # the example of the rules: JK 6H 7H 8H in isra may put the joker at either end
        assert page.evaluate(ARRANGE, [["8H", "JK", "6H", "7H"], ["JK"], "low-or-high", "no-adjacent-in-runs", 4]) == \
            [["6H", "7H", "8H", "JK"], ["JK", "6H", "7H", "8H"]]
        assert not errors, errors
    finally:
        ctx.close()

