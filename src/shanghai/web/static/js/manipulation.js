// Manipulation rummy's table: the melds on the table, the hand with selectable cards, and the moves
// (place the selected cards, the largest play, draw, pass, a hint). The server decides and arranges the
// table for the cards a person chooses (`{"verb": "play", "cards": [...]}`); see docs/protocol.md.
import { backEl, cardEl, cardName, cardShort, cardsInText, countOf, handCardEl, keepOrder, saveOrder, sortCards } from "./cards.js";
import { announce, clear, h, handTools, headTools, hintsOn, playerBox, scoresDialog, seatFullName, seatName, seatWords, shortcutKey, showMessage, toast, WaitBar } from "./dom.js";

const points = (n) => `${n} point${n === 1 ? "" : "s"}`;

export class ManipulationTableView {
  constructor(root, conn, invite) {
    this.root = root;
    this.conn = conn;
    this.invite = invite;
    this.st = null;
    this.order = null;           // the hand in the player's own order (card texts)
    this.selected = new Set();   // indices into this.order
    this.pending = false;
    this.hintMsg = null;
    this.seenHands = null;
    this.sort = "rank";
    this.build();
  }

  build() {
    const r = this.root;
    r.className = "table-page manipulation";
    this.wait = new WaitBar(this);
    this.el = {
      head: h("header", { class: "table-head" }),
      players: h("section", { class: "players", "aria-label": "Players" }),
      center: h("section", { class: "center", "aria-label": "Stock" }),
      melds: h("section", { class: "melds table-melds", id: "melds", "aria-label": "Melds on the table" }),
      message: h("p", { class: "message", id: "message", role: "status" }),
      actions: h("section", { class: "actions", id: "actions", "aria-label": "Your moves" }),
      hand: h("section", { class: "hand-area", "aria-label": "Your hand" }),
      log: h("section", { class: "log", "aria-label": "What happened" }),
      dialog: h("dialog", { class: "scores", id: "scores", "aria-labelledby": "scores-title" }),
    };
    r.append(this.el.head, this.el.players, h("div", { class: "felt" }, this.el.center, this.el.melds),
      this.el.message, this.wait.el, this.el.actions, this.el.hand, this.el.log, this.el.dialog);
    this.onKey = (ev) => this.globalKey(ev);
    document.addEventListener("keydown", this.onKey);
  }

  name(seat) { return seatName(this.st, seat); }
  fullName(seat) { return seatFullName(this.st, seat); }

  offer(verb) { return (this.st.legal || []).find((l) => l.action.verb === verb) || null; }
  largest() { const l = (this.st.legal || [])[0]; return l && l.action.verb === "play" ? l : null; }

  // -- sending --------------------------------------------------------------------------------------
  act(action) {
    if (this.pending) return;
    const id = this.conn.send({ type: "action", version: this.st.version, action });
    if (id === null) { toast("Not connected: the move was not sent.", "error"); return; }
    this.pending = true;
    this.root.querySelectorAll("#actions button").forEach((b) => { b.disabled = true; });
  }

  placeSelected() {
    const cards = this.selectedCards();
    if (!cards.length) { toast("Select the cards of your hand to place first.", "error"); return; }
    this.act({ verb: "play", cards });
  }

  refused(msg) {
    this.pending = false;
    showMessage(this.el.message, `The server refused that: ${seatWords(msg.message, this.st)}`, true);
    if (this.st) this.render();
  }

  hint(msg) {
    this.hintMsg = msg;
    this.render();
    announce(`Hint: ${this.actionWords(msg.action)}. ${msg.reason || ""}`);
  }

  actionWords(a) {
    if (a.verb === "draw") return "Draw from the stock";
    if (a.verb === "pass") return "Pass";
    return `Place ${a.cards.map(cardShort).join(" ")}`;
  }

  historyWords(text) {
    const w = text.split(" ");
    const who = this.name(Number(w[0]));
    if (w[1] === "draw") return `${who} drew from the stock.`;
    if (w[1] === "pass") return `${who} passed.`;
    if (w[1] === "play") {
      const placed = text.split(":")[0].split(" ").slice(2).filter(Boolean);
      return `${who} placed ${placed.map(cardShort).join(" ")}.`;
    }
    return `${who}: ${w.slice(1).join(" ")}`;
  }

  // -- a new state ----------------------------------------------------------------------------------
  update(st) {
    const prev = this.st;
    this.st = st;
    this.pending = false;
    const g = st.game;
    if (!g) return;
    if (this.hintMsg && this.hintMsg.version !== st.version) this.hintMsg = null;
    this.reconcileHand(g.hand);
    showMessage(this.el.message);
    if (this.seenHands === null) this.seenHands = g.phase === "game-over" ? g.hand_results.length - 1 : g.hand_results.length;
    this.render();
    Object.assign(this.root.dataset, { version: String(st.version), phase: g.phase, round: String(g.hand_number),
      you: String(st.you), game: "manipulation" });
    this.speak(prev, st);
    if (g.hand_results.length > this.seenHands) {
      this.seenHands = g.hand_results.length;
      this.showScores();
    }
  }

  reconcileHand(hand) {
    const { order, changed } = keepOrder(this.invite, this.order, hand);
    this.order = order;
    if (changed) this.selected.clear();  // the indices point at other cards now
  }

  speak(prev, st) {
    const g = st.game;
    const pg = prev && prev.game;
    const lines = [];
    if (pg && pg.hand_number === g.hand_number) {
      for (const t of g.history.slice(pg.history.length).slice(-3)) lines.push(this.historyWords(t));
    } else if (g.phase !== "game-over") {
      lines.push(`Hand ${g.hand_number}.`);
    }
    if (g.drawn.length && pg && pg.drawn.length < g.drawn.length) lines.push(`You drew the ${cardName(g.drawn[g.drawn.length - 1])}.`);
    if (st.legal.length && !(prev && prev.legal.length)) lines.push(this.statusText());
    if (g.phase === "game-over" && pg && pg.phase !== "game-over") lines.push("The game is over.");
    if (lines.length) announce(lines.join(" "));
  }

  statusText() {
    const g = this.st.game;
    if (g.phase === "game-over") return "The game is over.";
    if (!this.st.legal.length) return `${this.name(g.turn)} is playing.`;
    if (this.largest()) return "Your turn: place at least one card (select cards, then Place selected).";
    if (this.offer("draw")) return "Your turn: no card can be placed, so draw from the stock.";
    return "Your turn: no card can be placed and the stock is empty: pass.";
  }

  // -- drawing --------------------------------------------------------------------------------------
  render() {
    const active = document.activeElement;
    const focusKey = active && active.dataset ? active.dataset.focus : null;
    this.renderHead();
    this.renderPlayers();
    this.renderCenter();
    this.renderMelds();
    this.renderActions();
    this.renderHand();
    this.renderLog();
    const waitKey = JSON.stringify([this.st.waiting, this.st.table.seats, this.st.game.phase]);
    if (waitKey !== this.waitKey) { this.waitKey = waitKey; this.wait.draw(); }
    if (focusKey && !this.el.dialog.open) {
      const again = this.root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  renderHead() {
    const g = this.st.game;
    clear(this.el.head);
    this.el.head.append(
      h("div", { class: "round" }, h("span", { class: "round-no", id: "round" }, g.phase === "game-over" ? "Game over" : `Hand ${g.hand_number}`),
        h("span", { class: "contract", id: "contract" }, `Manipulation rummy · ${points(g.target_score)} loses`)),
      headTools(this));
    document.title = `${this.st.legal.length ? "● " : ""}Shanghai: hand ${g.hand_number}`;
  }

  renderPlayers() {
    const g = this.st.game;
    clear(this.el.players);
    for (let i = 0; i < g.players; i++) {
      this.el.players.append(playerBox(this, i, { name: this.fullName(i),
        after: g.turn === i && g.draws_this_turn ? h("span", { class: "drew" }, `drew ${g.draws_this_turn}`) : null }));
    }
  }

  renderCenter() {
    const g = this.st.game;
    clear(this.el.center);
    const draw = this.offer("draw");
    const stock = h("button", { type: "button", class: "pile stock", id: "stock", "data-focus": "stock", disabled: !draw || this.pending,
      "aria-label": `Stock, ${g.stock_size} cards${draw ? ": draw" : ""}`, onclick: () => draw && this.act(draw.action) },
    backEl(), h("span", { class: "pile-count", id: "stock-size" }, g.stock_size));
    this.el.center.append(h("div", { class: "piles" }, h("figure", {}, stock, h("figcaption", {}, "Stock"))),
      h("div", { class: "status", id: "status" }, this.statusText()));
  }

  renderMelds() {
    const g = this.st.game;
    clear(this.el.melds);
    if (!g.table.length) {
      this.el.melds.append(h("p", { class: "empty-note" }, "The table is empty: the first play lays down a set or a run."));
      return;
    }
    g.table.forEach((cards, i) => {
      this.el.melds.append(h("div", { class: "meld", role: "group", dataset: { meld: String(i) },
        "aria-label": `Meld ${i + 1}: ${cards.map(cardShort).join(" ")}` },
      cards.map((c) => h("div", { class: "meld-card" }, cardEl(c, { small: true, label: false })))));
    });
  }

  renderActions() {
    const el = this.el.actions;
    clear(el);
    const g = this.st.game;
    if (this.hintMsg) {
      el.append(h("div", { id: "hint-box", class: "hint-box" }, h("strong", {}, "Hint: "), this.actionWords(this.hintMsg.action),
        this.hintMsg.reason ? h("span", { class: "reason" }, ` — ${cardsInText(this.hintMsg.reason)}`) : null,
        h("button", { type: "button", class: "subtle", id: "hint-do", onclick: () => this.act(this.hintMsg.action) }, "Do it")));
    }
    const mine = this.st.legal.length > 0;
    const sel = this.selectedCards();
    const best = this.largest();
    const draw = this.offer("draw");
    const pass = this.offer("pass");
    const btn = (id, text, onclick, opts = {}) => h("button", { type: "button", id, "data-focus": id, class: opts.cls || "",
      disabled: opts.disabled || this.pending, onclick, title: opts.title }, text);
    if (g.phase === "game-over") {
      if (this.st.host) el.append(h("div", { class: "row main-moves" }, btn("rematch", "Play again (rematch)", () => this.conn.send({ type: "rematch" }), { cls: "primary" })));
      return;
    }
    const row = h("div", { class: "row main-moves" },
      btn("place", `Place selected${sel.length ? ` (${sel.length})` : ""}`, () => this.placeSelected(),
        { cls: "primary", disabled: !best || !sel.length, title: "The server arranges the table for the cards you chose" }),
      // the largest play is the solver's: a hint, so not offered where the host switched hints off
      hintsOn(this.st) ? btn("largest", best ? `Largest play (${best.action.cards.length} card${best.action.cards.length === 1 ? "" : "s"})` : "Largest play",
        () => best && this.act(best.action), { disabled: !best }) : null,
      btn("draw", "Draw (S)", () => draw && this.act(draw.action), { disabled: !draw, cls: draw ? "primary" : "" }),
      btn("pass", "Pass (P)", () => pass && this.act(pass.action), { disabled: !pass }),
      hintsOn(this.st) ? btn("hint", "Hint (H)", () => this.conn.send({ type: "hint" }), { disabled: !mine }) : null);
    el.append(row);
    if (best && !sel.length && !hintsOn(this.st)) {
      el.append(h("p", { class: "tip" }, "Select cards of your hand, then Place selected."));
    } else if (best && !sel.length) {
      const together = (this.st.game.placeable || []).some((c) => !(this.st.game.alone || []).includes(c));
      el.append(h("p", { class: "tip" }, `Select cards of your hand (the outlined ones can be placed${together ? "; a dashed one only together with other cards of your hand" : ""}), then Place selected.`));
    }
  }

  selectedCards() { return [...this.selected].sort((a, b) => a - b).map((i) => this.order[i]); }

  renderHand() {
    const el = this.el.hand;
    clear(el);
    // once the game is over the engine's view holds no hand: the scores show the cards left
    el.hidden = this.st.you === null || this.st.you === undefined || this.st.game.phase === "game-over";
    if (el.hidden) return;
    const g = this.st.game;
    const placeable = new Set(hintsOn(this.st) ? g.placeable || [] : []);  // the outlines are hints too
    const alone = new Set(g.alone || []);  // the others of placeable need more cards of the hand with them
    const hinted = this.hintMsg && this.hintMsg.action.cards ? this.hintMsg.action.cards : [];
    const fresh = countOf(g.drawn || []);
    const tools = handTools(this, "clear-selection");
    const list = h("ul", { class: "hand", id: "hand", "aria-labelledby": "hand-title" });
    this.order.forEach((c, i) => {
      const selected = this.selected.has(i);
      const isFresh = (fresh.get(c) || 0) > 0;
      if (isFresh) fresh.set(c, fresh.get(c) - 1);
      const can = !placeable.has(c) ? "" : alone.has(c) ? ", can be placed" : ", can be placed with other cards of your hand";
      const b = handCardEl(c, i, selected, { label: `${cardName(c)}${selected ? ", selected" : ""}${can}`,
        className: `${selected ? "selected" : ""}${placeable.has(c) ? " placeable" : ""}${placeable.has(c) && !alone.has(c) ? " with-others" : ""}${hinted.includes(c) ? " hinted" : ""}${isFresh ? " fresh" : ""}` });
      b.addEventListener("click", () => { if (this.selected.has(i)) this.selected.delete(i); else this.selected.add(i); this.render(); });
      b.addEventListener("keydown", (ev) => this.handKey(ev, i));
      list.append(h("li", {}, b));
    });
    el.append(tools, list, h("p", { class: "help" },
      g.phase === "game-over" ? "" : `Click cards (or Enter) to select them; arrows move between them, Shift+arrows move a card; L places the selected cards. S draws, P passes${hintsOn(this.st) ? ", H asks for a hint" : ""}.`));
  }

  // the hand by keyboard, as at the contract table: arrows go from card to card, Shift+arrows move one
  handKey(ev, i) {
    const cards = [...this.root.querySelectorAll("#hand button.card")];
    const focus = (j) => this.root.querySelector(`[data-focus="hand-${j}"]`)?.focus();
    if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
      ev.preventDefault();
      const j = i + (ev.key === "ArrowRight" ? 1 : -1);
      if (j < 0 || j >= this.order.length) return;
      if (ev.shiftKey || ev.altKey) {
        [this.order[i], this.order[j]] = [this.order[j], this.order[i]];
        this.selected.clear();
        saveOrder(this.invite, this.order);
        this.render();
        announce(`Moved to place ${j + 1}.`);
      }
      focus(j);
    } else if (ev.key === "Home" || ev.key === "End") {
      ev.preventDefault();
      cards[ev.key === "Home" ? 0 : cards.length - 1].focus();
    }
  }

  renderLog() {
    const g = this.st.game;
    clear(this.el.log);
    const items = g.history.map((t) => this.historyWords(t)).slice(-6);
    this.el.log.append(h("h2", {}, "Last moves"), h("ol", {}, items.map((t) => h("li", {}, t))));
  }

  sortBy(how) {
    this.sort = how;
    sortCards(this.order, how);
    this.selected.clear();
    saveOrder(this.invite, this.order);
    this.render();
    announce(`Sorted by ${how}.`);
  }

  globalKey(ev) {
    if (!this.root.isConnected || !this.st || !this.st.game) return;
    const k = shortcutKey(ev, this.el.dialog);
    if (k === null) return;
    if (k === "s" && this.offer("draw")) this.act(this.offer("draw").action);
    else if (k === "p" && this.offer("pass")) this.act(this.offer("pass").action);
    else if (k === "h" && this.st.legal.length && hintsOn(this.st)) this.conn.send({ type: "hint" });
    else if (k === "l" && this.largest() && this.selected.size) this.placeSelected();
    else return;
    ev.preventDefault();
  }

  // -- hand over, game over -------------------------------------------------------------------------
  showScores() {
    const g = this.st.game;
    scoresDialog(this, "hand", g.hand_results, (d, last, over, order) => {
      if (over) {
        const w = g.winners;
        d.append(h("p", { class: "crown-line", id: "winners" }, h("span", { class: "crown", "aria-hidden": "true" }, "♛"),
          ` ${w.map((i) => this.fullName(i)).join(" and ")} ${w.length > 1 || w[0] === this.st.you ? "win" : "wins"} with ${points(g.totals[w[0]])}.`),
        h("p", { id: "losers" }, `${g.losers.map((i) => this.fullName(i)).join(" and ")} reached ${g.target_score} and ${g.losers.length > 1 || g.losers[0] === this.st.you ? "lose" : "loses"}.`));
      } else if (last) {
        d.append(h("p", {}, last.went_out === null || last.went_out === undefined ? "The hand was blocked: nobody could play and the stock was empty." : `${this.name(last.went_out)} went out.`));
      }
      if (last) {
        d.append(h("table", { class: "score-table", id: "round-scores" },
          h("caption", {}, `Hand ${last.number}: 1 point a card left; ${points(g.target_score)} loses`),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Cards left"), h("th", { scope: "col" }, "Points"), h("th", { scope: "col" }, "Total"))),
          h("tbody", {}, order.map((i) => h("tr", { class: i === this.st.you ? "me" : "" },
            h("th", { scope: "row" }, over && g.winners.includes(i) ? h("span", { class: "crown", title: "the lowest total", "aria-label": "winner" }, "♛ ") : null, this.fullName(i)),
            h("td", { class: "num" }, last.went_out === i ? "went out ★" : last.cards_left[i]),
            h("td", { class: "num" }, last.points[i]),
            h("td", { class: "num total" }, g.totals[i]))))));
      }
    });
  }

  destroy() { document.removeEventListener("keydown", this.onKey); this.wait.stop(); }
}
