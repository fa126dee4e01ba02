"""Manipulation rummy in the browser, for real: a ``shanghai serve`` process and Debian's Chromium driven by
Playwright (the fixtures and helpers of ``test_browser.py``).

A person creates a manipulation table with computer players from the lobby (a house-rule target score),
selects cards and places them (the server arranges the table), draws, and sees the table update; a
selection that cannot be placed is refused and the page says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from server_helpers import Server
from shanghai.engine.manipulation import ManipulationGame, PlayToTable, manipulation_view
from test_browser import Page, browser, hand, new_page, server, table_id, version

__all__ = ["browser", "server"]  # the fixtures, used by name


def melds(page: Page) -> list[list[str]]:
    return list(page.eval_on_selector_all(
        "#melds .meld", "els => els.map(m => [...m.querySelectorAll('[data-card]')].map(c => c.dataset.card))"))


def enabled(page: Page, sel: str) -> bool:
    return bool(page.evaluate("(s) => { const b = document.querySelector(s); return !!b && !b.disabled; }", sel))


def game_now(srv: Server, table: str) -> ManipulationGame:
    _record, game = srv.record_game(table)
    assert isinstance(game, ManipulationGame)
    return game


def select(page: Page, cards: list[str]) -> None:
    """Click each card of ``cards`` in the hand (a card held twice: the next unselected copy)."""
    for c in cards:
        page.locator(f"#hand button.card[data-card='{c}'][aria-pressed='false']").first.click()


def test_a_person_plays_manipulation_rummy_against_computer_players(browser: Any,
                                                                   server: Callable[..., Server]) -> None:
    srv = server(bot_pause=0.0)
    ctx, page, errors = new_page(browser, srv)
    try:
        page.goto(srv.base + "/")
        page.fill("#name", "Ann")
        page.select_option("#preset", "manipulation")
        page.fill("#players", "4")
        page.dispatch_event("#players", "change")
        levels = page.eval_on_selector_all("#seat-1 option", "els => els.map(e => e.value)")
        assert "search" in levels and "expert" in levels
        for i, level in enumerate(["medium", "easy", "expert"], 1):
            page.select_option(f"#seat-{i}", level)
        page.click(".house summary")
        assert page.is_visible("#house-target_score") and page.is_hidden("#house-buy_penalty")
        page.fill("#house-target_score", "12")
        page.click("#create")
        page.wait_for_selector("#start")
        invite = str(page.input_value("#invite-link")).rsplit("/", 1)[1]
        table = table_id(srv, invite)
        _status, info = srv.http("GET", f"/api/invite/{invite}")
        assert info["game"] == "manipulation" and info["rules"] == {"preset": "manipulation",
                                                                    "changes": {"target_score": 12}}
        assert page.locator("#waiting .seats li").count() == 4
        page.click("#start")
        page.wait_for_function("() => document.querySelector('#main').dataset.game === 'manipulation'")
        assert page.inner_text("#round") == "Hand 1"
        assert page.locator(".player").count() == 4
        # the hand by keyboard: arrows go from card to card, Shift+arrows move a card
        page.wait_for_selector("#hand button.card")
        page.locator("#hand button.card").first.focus()
        page.keyboard.press("ArrowRight")
        assert page.evaluate("() => document.activeElement.dataset.index") == "1"
        order = hand(page)
        page.keyboard.press("Shift+ArrowLeft")
        assert hand(page) == [order[1], order[0], *order[2:]]
        assert page.evaluate("() => document.activeElement.dataset.index") == "0"
        placed = drew = refused = 0
        deadline = time.monotonic() + 60
        while not (placed >= 2 and drew >= 1 and refused):
            assert time.monotonic() < deadline, f"placed {placed}, drew {drew}, refused {refused}"
            if page.evaluate("() => !!document.querySelector('#scores[open]')"):
                if page.get_attribute("#main", "data-phase") == "game-over":
                    break
                page.click("#close-scores")
            if not (enabled(page, "#largest") or enabled(page, "#draw") or enabled(page, "#pass")):
                page.wait_for_timeout(30)
                continue
            v = version(page)
            game = game_now(srv, table)
            if len(game.actions) != v or game.turn != 0:
                page.wait_for_timeout(30)
                continue
            mine = manipulation_view(game, 0)
            # the page shows this seat's true hand, and the stock's size only
            assert sorted(hand(page)) == sorted(_texts(mine.hand))
            assert page.inner_text("#stock-size") == str(len(game.stock))
            before_melds, before_hand = melds(page), hand(page)
            if enabled(page, "#draw"):
                page.click("#draw")
                drew += 1
                page.wait_for_function("(v) => Number(document.querySelector('#main').dataset.version) > v", arg=v)
                assert len(hand(page)) == len(before_hand) + 1 or page.get_attribute("#main", "data-phase") != "play" \
                    or version(page) > v + 1
                continue
            if enabled(page, "#pass"):
                page.click("#pass")
                page.wait_for_function("(v) => Number(document.querySelector('#main').dataset.version) > v", arg=v)
                continue
            if not refused:
                # a card that no play can place: the server refuses, the page says so, nothing changes
                stuck = page.eval_on_selector_all("#hand button.card:not(.placeable)",
                                                  "els => els.map(e => e.dataset.card)")
                if stuck:
                    select(page, [stuck[0]])
                    page.click("#place")
                    page.wait_for_selector("#message.error")
                    assert "refused" in page.inner_text("#message") and version(page) == v
                    page.click("#clear-selection")
                    refused += 1
            # place one card alone when one fits (so that the hand lasts and a draw comes), else the largest play
            ones = [a for a in mine.legal[1:] if isinstance(a, PlayToTable) and len(a.placed) == 1]
            # the page outlines every card some play places, dashed those that need other cards with them
            outlined = page.eval_on_selector_all("#hand button.card.placeable", "els => els.map(e => e.dataset.card)")
            dashed = page.eval_on_selector_all("#hand button.card.with-others", "els => els.map(e => e.dataset.card)")
            singles = {c for a in mine.legal if isinstance(a, PlayToTable) and len(a.placed) == 1
                       for c in _texts(a.placed)}
            assert set(outlined) - set(dashed) == singles and set(dashed) <= set(outlined)
            first = mine.legal[0]
            assert isinstance(first, PlayToTable)
            chosen = ones[0] if ones and placed else first
            if not placed:
                # the hint is the largest play: its cards are marked in the hand
                page.click("#hint")
                page.wait_for_selector("#hint-box")
                assert "Place" in page.inner_text("#hint-box")
                marked = page.eval_on_selector_all("#hand button.card.hinted", "els => els.map(e => e.dataset.card)")
                assert set(marked) == set(_texts(first.placed))
            cards = _texts(chosen.placed)
            select(page, cards)
            assert page.inner_text("#place").startswith(f"Place selected ({len(cards)})")
            page.click("#place")
            page.wait_for_function("(v) => Number(document.querySelector('#main').dataset.version) > v", arg=v)
            placed += 1
            after = melds(page)
            # the table on the page grew by exactly the cards placed (the server arranged it)
            if version(page) == v + 1:
                assert sorted(c for m in after for c in m) == sorted([c for m in before_melds for c in m] + cards)
                assert len(hand(page)) == len(before_hand) - len(cards)
        assert placed >= 1 and refused
        assert drew >= 1 or page.get_attribute("#main", "data-phase") == "game-over"
        assert not errors, errors
    finally:
        ctx.close()


def _texts(cards: Any) -> list[str]:
    from shanghai.cards import card_text

    return [card_text(c) for c in cards]
