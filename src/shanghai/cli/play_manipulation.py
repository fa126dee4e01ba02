"""``shanghai play --rules manipulation``: manipulation rummy as a plain-text game.

The person in seat 0 chooses which cards to place; the program finds how the table must be
rearranged to take them (keeping the melds as they are where it can), or the person writes the
whole table after the turn. Everything goes through the engine, and the record is written after
every action, so ``--resume`` continues the game.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from shanghai.bots.manipulation import min_placed
from shanghai.bots.player import ManipulationPlayer
from shanghai.cards import JOKER, Card, cards_text, parse_card
from shanghai.cli.common import seat_words
from shanghai.engine.actions import DrawStock, Pass
from shanghai.engine.manipulation import (
    HandResult,
    ManipulationAction,
    ManipulationGame,
    ManipulationView,
    PlayToTable,
    make_play,
    manipulation_view,
    play_exactly,
)
from shanghai.errors import IllegalActionError, ShanghaiError
from shanghai.table_solver import Meld, best_play, parse_table, placeable_words

BAR = "═" * 72
RULE = "─" * 72
HELP = """\
Commands (case does not matter; cards as 7H, 10D or TD, QS):
  play 7C 3C            place these cards; the table is rearranged for you as little as it can be
  play 7C : 7S 7H 7D 7C | 4C 5C 6C
                        place 7C leaving the table exactly as written (every meld, | between melds)
  best                  place as many cards as you can (the program's largest play)
  draw                  draw a card (only when no card of your hand can be placed)
  pass                  when the stock is empty and no card can be placed
  hint                  which cards can be placed now
  moves                 the moves offered: the largest play, each card that can be placed alone
  look                  show the table again (or just press Enter)
  scores                the scores so far              help   this text
  quit                  save and stop; 'shanghai play --resume' continues the game"""


class ReplayableManipulationPlayer:
    """A computer player whose choices depend only on the game's seed and the position, so a
    stopped and resumed game goes on as it would have."""

    def __init__(self, seed: int, kind: str) -> None:
        from shanghai.bots.registry import make_manipulation_player

        self.seed = seed
        self.kind = kind
        player = make_manipulation_player(kind, seed)
        self.player: ManipulationPlayer = player  # type: ignore[assignment]

    def choose(self, view: ManipulationView) -> ManipulationAction:
        rng = getattr(self.player, "rng", None)
        if isinstance(rng, random.Random):
            rng.seed(zlib.crc32(f"{self.seed}:{view.seat}:{view.hand_number}:{len(view.history)}".encode()))
        return self.player.choose(view)


def manipulation_bots(game: ManipulationGame, kinds: Sequence[str | None]) -> dict[int, ManipulationPlayer]:
    """Computer players for the seats whose kind is given (``None``: a person sits there)."""
    return {s: ReplayableManipulationPlayer(game.seed * 31 + s, kind)
            for s, kind in enumerate(kinds) if kind is not None}


def table_lines(table: Sequence[Meld]) -> list[str]:
    """The table, one numbered meld a line."""
    if not table:
        return ["  (the table is empty)"]
    return [f"  m{i:<3} {cards_text(meld)}" for i, meld in enumerate(table, 1)]


class ManipulationTextGame:
    """The plain-text game: reads commands with ``input_fn``, writes with ``output_fn``."""

    def __init__(self, game: ManipulationGame, names: Sequence[str], *, human: int = 0,
                 record: Path | None = None, input_fn: Callable[[str], str] = input,
                 output_fn: Callable[[str], None] = print,
                 bots: Mapping[int, ManipulationPlayer] | None = None,
                 save: Callable[[ManipulationGame], None] | None = None) -> None:
        self.game = game
        self.names = list(names)
        self.human = human
        self.record = record
        self.input_fn = input_fn
        self.output_fn = output_fn
        self.bots = dict(bots) if bots is not None else {}
        self.save = save

    # -- the loop ------------------------------------------------------------------------------
    def run(self, *, resumed: bool = False) -> int:
        g = self.game
        self.out(BAR)
        self.out(f"Manipulation rummy (004): {g.players} players, 10 cards each; the first to "
                 f"{g.rules.target_score} points loses.")
        self.out("Meld sets (3 or 4 of a rank, suits all different) and runs (3+ of a suit, ace low), add")
        self.out("to the table and rearrange it freely: every meld must be legal when your turn ends.")
        self.out(f"Seed {g.seed}." + (f" The game is saved after every move in {self.record}." if self.record else ""))
        self.out("Type 'help' for the commands." + (" (Game resumed.)" if resumed else ""))
        try:
            while not g.is_over:
                hands_before = len(g.hand_results)
                if g.turn in self.bots:
                    self._bot_step()
                else:
                    self._human_step()
                self._saved()
                if len(g.hand_results) > hands_before:
                    self._hand_over(g.hand_results[-1])
        except _Quit:
            self._saved()
            if self.record is None:
                self.out("Game not saved.")
            else:
                from shanghai.cli.play import resume_command  # the plain contract game's module, which runs this

                self.out(f"Game saved in {self.record}. Continue it with: {resume_command(self.record)}")
            return 0
        self._game_over()
        return 0

    def out(self, text: str) -> None:
        self.output_fn(text)

    def _saved(self) -> None:
        if self.save is not None:
            self.save(self.game)

    def view(self) -> ManipulationView:
        return manipulation_view(self.game, self.human)

    def _bot_step(self) -> None:
        g = self.game
        seat = g.turn
        v = manipulation_view(g, seat)
        hands_before = len(g.hand_results)
        action = self.bots[seat].choose(v)
        try:
            g.apply(action)
        except IllegalActionError as exc:
            fallback = next(iter(g.legal_actions(seat)))
            self.out(f"({self.names[seat]} tried {action}: {exc}; it plays another move)")
            action = fallback
            g.apply(action)
        self._narrate(seat, action, hands_before)

    def _narrate(self, seat: int, action: ManipulationAction, hands_before: int | None = None) -> None:
        who = "You" if seat == self.human else self.names[seat]
        if isinstance(action, DrawStock):
            self.out(f"{who} cannot meld and {'draw' if who == 'You' else 'draws'} a card.")
        elif isinstance(action, Pass):
            self.out(f"{who} cannot meld, the stock is empty: {'pass' if who == 'You' else 'passes'}.")
        else:
            # Going out ends the hand and the next one is dealt at once: then 0 cards are left.
            ended = hands_before is not None and len(self.game.hand_results) > hands_before
            left = 0 if ended or self.game.is_over else len(self.game.hands[seat])
            self.out(f"{who} {'place' if who == 'You' else 'places'} {cards_text(action.placed)}"
                     f" ({left} card{'s' if left != 1 else ''} left).")

    # -- the person's turn ---------------------------------------------------------------------
    def _human_step(self) -> None:
        self._show()
        while True:
            try:
                line = self.input_fn("> ")
            except EOFError as exc:
                raise _Quit from exc
            done = self._command(line.strip())
            if done:
                return

    def _show(self) -> None:
        g, v = self.game, self.view()
        self.out(RULE)
        self.out(f"Hand {v.hand_number} · dealer {self.names[v.dealer]} · stock {v.stock_size}")
        others = " · ".join(f"{self.names[s]} {n} card{'s' if n != 1 else ''} (total {v.totals[s]})"
                            for s, n in enumerate(v.hand_counts) if s != self.human)
        self.out(f"Players: {others}")
        self.out("Table:")
        for line in table_lines(v.table):
            self.out(line)
        self.out(f"Your hand ({len(v.hand)} card{'s' if len(v.hand) != 1 else ''}; your total "
                 f"{v.totals[self.human]}): {cards_text(v.hand)}")
        if v.drawn:
            self.out(f"You drew {cards_text(v.drawn)}.")
        if not g.can_meld():
            self.out("No card of yours can be placed: 'draw'" if g.stock else
                     "No card of yours can be placed and the stock is empty: 'pass'")

    def _command(self, line: str) -> bool:
        """Carry out one command; True when the turn's action was made."""
        words = line.split()
        verb = words[0].lower() if words else "look"
        v = self.view()
        seat = self.human
        try:
            if verb in ("look", "l"):
                self._show()
                return False
            if verb in ("help", "?"):
                self.out(HELP)
                return False
            if verb in ("quit", "q", "exit"):
                raise _Quit
            if verb == "scores":
                self._scores()
                return False
            if verb == "moves":
                self.out("Moves offered (any other play that leaves a legal table is allowed too):")
                for a in v.legal:
                    self.out(f"  {str(a).split(' ', 1)[1]}")
                return False
            if verb == "hint":
                self.out(self._hint(v))
                return False
            if verb == "draw":
                return self._act(DrawStock(seat))
            if verb == "pass":
                return self._act(Pass(seat))
            if verb == "best":
                best = best_play(v.table, v.hand)
                if best is None or not best.placed:
                    self.out("No card of yours can be placed now.")
                    return False
                return self._act(make_play(seat, best))
            if verb in ("play", "p"):
                return self._play(line.split(None, 1)[1] if len(words) > 1 else "", v)
            self.out(f"Unknown command {verb!r}; type 'help'.")
            return False
        except ShanghaiError as exc:
            self.out(f"Not allowed: {seat_words(str(exc), self.names, self.human)}")
            return False

    def _play(self, rest: str, v: ManipulationView) -> bool:
        cards_part, sep, table_part = rest.partition(":")
        try:
            cards = [_manipulation_card(w) for w in cards_part.replace(",", " ").split()]
        except ShanghaiError as exc:
            self.out(f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
            return False
        if not cards:
            self.out("Which cards? e.g. 'play 7C 3C'.")
            return False
        missing = _not_in_hand(cards, v.hand)
        if missing:
            self.out(f"{cards_text(missing)} {'is' if len(missing) == 1 else 'are'} not in your hand.")
            return False
        if sep:
            return self._act(PlayToTable(self.human, tuple(cards), parse_table(table_part)))
        action = play_exactly(v, cards, self.human)
        if action is None:
            can = placeable_words(v.table, v.hand, single=min_placed(v) == 1)
            tip = (f" Cards that can be placed: {can}." if can
                   else " No card of yours can be placed now.")
            self.out(f"{cards_text(cards)} cannot all be placed together.{tip}")
            return False
        return self._act(action)

    def _act(self, action: ManipulationAction) -> bool:
        hands_before = len(self.game.hand_results)
        self.game.apply(action)  # IllegalActionError: reported by _command, nothing changed
        self._narrate(self.human, action, hands_before)
        return True  # after a draw the loop comes back to this player, showing the new card

    def _hint(self, v: ManipulationView) -> str:
        can = placeable_words(v.table, v.hand, single=min_placed(v) == 1)
        if not can:
            return "No card can be placed: draw." if v.stock_size else "No card can be placed: pass."
        best = best_play(v.table, v.hand)
        most = f" The most you can place at once: {cards_text(best.placed)} ('best')." if best else ""
        return f"Cards that can be placed: {can}.{most}"

    # -- scores --------------------------------------------------------------------------------
    def _scores(self) -> None:
        g = self.game
        header = "hand " + " ".join(f"{n[:8]:>8}" for n in self.names)
        self.out(header)
        for r in g.hand_results:
            self.out(f"{r.number:>4} " + " ".join(f"{p:>8}" for p in r.points))
        self.out("total " + " ".join(f"{t:>8}" for t in g.totals)[1:])

    def _hand_over(self, r: HandResult) -> None:
        self.out(BAR)
        if r.went_out is None:
            self.out(f"Hand {r.number} is blocked: the stock is empty and nobody can meld.")
        else:
            who = "You" if r.went_out == self.human else self.names[r.went_out]
            self.out(f"Hand {r.number}: {who} went out.")
        self.out("Points: " + ", ".join(f"{self.names[s]} {p}" for s, p in enumerate(r.points)))
        self._scores()

    def _game_over(self) -> None:
        g = self.game
        self.out(BAR)
        winners = ", ".join(self.names[s] for s in g.winners())
        losers = ", ".join(self.names[s] for s in g.losers())
        self.out(f"Game over: {losers} reached {g.rules.target_score} points and "
                 f"{'loses' if len(g.losers()) == 1 else 'lose'}. Winner: {winners}.")
        self._scores()


class _Quit(Exception):
    """The person stops the game."""


def _manipulation_card(word: str) -> Card:
    """A card of manipulation rummy's packs (no jokers: 004), from its text."""
    try:
        card = parse_card(word)
    except ShanghaiError:
        raise ShanghaiError(f"unknown card {word!r}: a card is a rank (A 2-9 10 T J Q K) and a suit "
                            f"(S H D C or ♠ ♥ ♦ ♣), e.g. 7C or 10H") from None
    if card == JOKER:
        raise ShanghaiError("manipulation rummy is played without jokers")
    return card


def _not_in_hand(cards: Sequence[Card], hand: Sequence[Card]) -> list[Card]:
    left = list(hand)
    missing = []
    for c in cards:
        if c in left:
            left.remove(c)
        else:
            missing.append(c)
    return missing
