// The card table: draws a `state` message and turns clicks, drags and keys into actions.
// Everything the page offers comes from the `legal` list the server sent; the server decides.
import { backEl, cardEl, cardName, cardShort, cardsInText, countOf, handCardEl, keepOrder, meaningName, meaningShort, parseCard, runArrangements,
  saveOrder, sortCards } from "./cards.js";
import { announce, clear, h, handTools, headTools, hintsOn, playerBox, scoresDialog, seatFullName, seatName, seatWords, shortcutKey, showMessage, toast, WaitBar } from "./dom.js";

const PHASE_WORDS = { cut: "the cut", draw: "drawing", buy: "a buy", play: "playing", shanghai: "a Shanghai call", "game-over": "game over" };

export class TableView {
  constructor(root, conn, invite) {
    this.root = root;
    this.conn = conn;
    this.invite = invite;
    this.st = null;
    this.order = null;           // the hand in the player's own order (card texts)
    this.selected = new Set();   // indices into this.order
    this.staged = [];            // melds the player is building: {kind, cards}
    this.drawn = [];             // the cards the hand last gained, marked fresh
    this.got = [];               // the cards the last state brought
    this.pending = false;        // an action was sent and not answered yet
    this.seenRounds = null;
    this.hintMsg = null;
    this.reviewMsg = null;       // the coach's review of our play, once the game is over
    this.reviewAsked = false;
    this.reviewRef = null;       // the id of the review asked for, and the socket it went on
    this.reviewWs = null;
    this.countdown = 0;
    this.keys = {};
    this.build();
  }

  // -- the page's frame, built once ------------------------------------------------------------------
  build() {
    const r = this.root;
    r.className = "table-page";
    this.wait = new WaitBar(this);
    this.el = {
      head: h("header", { class: "table-head" }),
      players: h("section", { class: "players", "aria-label": "Players" }),
      center: h("section", { class: "center", "aria-label": "Stock and discard pile" }),
      buy: h("section", { class: "buybar", id: "buybar", hidden: true, "aria-label": "Buy" }),
      melds: h("section", { class: "melds", id: "melds", "aria-label": "Melds on the table" }),
      staging: h("section", { class: "staging", id: "staging", hidden: true, "aria-label": "Melds you are building" }),
      actions: h("section", { class: "actions", id: "actions", "aria-label": "Your moves" }),
      hand: h("section", { class: "hand-area", "aria-label": "Your hand" }),
      review: h("section", { class: "review", id: "review", hidden: true, "aria-label": "The coach's review of your play" }),
      replay: h("section", { class: "review replay", id: "replay", hidden: true, "aria-label": "The game, step by step" }),
      log: h("section", { class: "log", "aria-label": "What happened" }),
      message: h("p", { class: "message", id: "message", role: "status" }),
      dialog: h("dialog", { class: "scores", id: "scores", "aria-labelledby": "scores-title" }),
    };
    r.append(this.el.head, this.el.players, h("div", { class: "felt" }, this.el.center, this.el.buy, this.el.melds),
      this.el.message, this.wait.el, this.el.staging, this.el.actions, this.el.review, this.el.replay, this.el.hand, this.el.log, this.el.dialog);
    this.onKey = (ev) => this.globalKey(ev);
    document.addEventListener("keydown", this.onKey);
  }

  // The page leaves this table: its keys and timers go with it.
  destroy() {
    document.removeEventListener("keydown", this.onKey);
    clearInterval(this.countdown);
    this.wait.stop();
  }

  // -- names and words -------------------------------------------------------------------------------
  name(seat) { return seatName(this.st, seat); }
  fullName(seat) { return seatFullName(this.st, seat); }

  owns(seat) { return seat === this.st.you ? "your" : `${this.name(seat)}'s`; }

  meldWords(id) {
    const m = this.st.game.table.find((x) => x.id === id);
    return m ? `${this.owns(m.owner)} ${m.kind} ${m.cards.map(cardShort).join(" ")}` : `meld ${id}`;
  }

  actionWords(a) {
    const g = this.st.game;
    switch (a.verb) {
      case "draw": return "Draw from the stock";
      case "take": return `Take the ${cardShort(g.discard_top)}`;
      case "buy": return `Buy the ${cardShort(g.discard_top)}`;
      case "pass": return "Pass";
      case "cut": return `Cut ${a.target} cards`;
      case "down": return `Go down: ${a.melds.map((m) => `${m.kind} ${m.cards.map(cardShort).join(" ")}`).join(" | ")}`;
      case "layoff": return `Lay off ${cardShort(a.card)} on ${this.meldWords(a.meld)}${a.end ? ` (${a.end} end)` : ""}`;
      case "replace": return `Put ${cardShort(a.card)} in place of the wild in ${this.meldWords(a.meld)}`;
      case "discard": return `Discard ${cardShort(a.card)}${a.shanghai ? " and call Shanghai" : ""}`;
      case "shanghai": return `Call Shanghai on ${this.meldWords(a.meld)}${a.end ? ` (${a.end} end)` : ""}`;
      default: return JSON.stringify(a);
    }
  }

  historyWords(text) { return moveWords(text, (i) => this.name(i), this.st.you, null); }

  legal(verb) { return (this.st.legal || []).filter((l) => l.action.verb === verb).map((l) => l.action); }

  isWild(card) {
    const wilds = this.st.table.wilds;
    return wilds ? wilds.includes(card) : card === "JK";
  }

  // -- sending ---------------------------------------------------------------------------------------
  act(action) {
    if (this.pending) return;
    const id = this.conn.send({ type: "action", version: this.st.version, action });
    if (id === null) { toast("Not connected: the move was not sent.", "error"); return; }
    this.pending = true;
    this.keys.actions = null;
    this.el.actions.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  }

  // The card of our discard that can be taken back now (the game's last action, at a table of computer
  // players: the server checks again), or null.
  takeBackCard() {
    const st = this.st;
    const g = st && st.game;
    if (!g || g.phase === "game-over" || st.you === null || st.you === undefined) return null;
    if (st.table.seats.some((s, i) => i !== st.you && !(s.kind === "bot" || s.open))) return null;
    const last = (g.history[g.history.length - 1] || "").split(" ");
    return Number(last[0]) === st.you && last[1] === "discard" ? last[2] : null;
  }

  takeBack() {
    if (this.pending || !this.takeBackCard()) return;
    const id = this.conn.send({ type: "take_back", version: this.st.version });
    if (id === null) { toast("Not connected: nothing was taken back.", "error"); return; }
    this.pending = true;
    this.keys.actions = null;
    this.el.actions.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  }

  refused(msg) {
    this.pending = false;
    if (this.reviewAsked && !this.reviewMsg && msg.ref === this.reviewRef) {  // it may be asked again
      this.reviewAsked = false;
      this.renderReview();
      this.keys.actions = null;
    }
    showMessage(this.el.message, `The server refused that: ${seatWords(msg.message, this.st)}`, true);
    if (this.st) this.render();
  }

  hint(msg) {
    this.hintMsg = msg;
    this.renderHint();
    announce(`Hint: ${this.actionWords(msg.action)}. ${msg.reason || ""}`);
  }

  askReview() {
    const ref = this.conn.send({ type: "review" });
    if (ref === null) { toast("Not connected: ask again once the page is back online.", "error"); return; }
    Object.assign(this, { reviewAsked: true, reviewRef: ref, reviewWs: this.conn.ws });
    this.renderReview();
    this.render();  // the button that asked goes
    this.el.review.querySelector("h2").focus();
  }

  review(msg) {
    if (!this.reviewAsked || msg.ref !== this.reviewRef) return;  // not the answer to our question
    this.reviewMsg = msg;
    this.renderReview();
    announce(this.reviewSummary(msg) + (msg.weighed ? ` ${msg.weighed.words}` : ""));
  }

  reviewSummary(msg) {
    if (!msg.decisions) return "You made no choice the coach could weigh in this game.";
    const pct = Math.round((100 * msg.agreed) / msg.decisions);
    return `You played as the coach would in ${msg.agreed} of ${msg.decisions} decisions (${pct}%)`
      + (msg.agreed === msg.decisions ? "." : `; ${msg.decisions - msg.agreed} differ${msg.decisions - msg.agreed === 1 ? "s" : ""}.`);
  }

  // The coach's review: asked for at the game's end; each decision where we played otherwise.
  renderReview() {
    const el = this.el.review;
    const focused = el.contains(document.activeElement);  // drawn again, the heading keeps the focus
    clear(el);
    el.hidden = !this.reviewAsked;
    if (!this.reviewAsked) return;
    const head = h("h2", { tabindex: "-1" }, "The coach's review of your play");
    el.append(head);
    if (focused) head.focus();
    const msg = this.reviewMsg;
    if (!msg) {
      el.append(h("p", { class: "tip", id: "review-wait" }, "The coach is going through your game and weighing each difference…"));
      return;
    }
    // the kinds of decision in the order a turn meets them
    const words = { cut: "the cut", draw: "take or draw", buy: "buy or pass", play: "go down, lay off, discard", shanghai: "a Shanghai call" };
    el.append(h("p", { id: "review-summary" }, this.reviewSummary(msg)));
    const parts = Object.keys(words).filter((k) => msg.by_phase[k]).map((k) => `${words[k]}: ${msg.by_phase[k].agreed} of ${msg.by_phase[k].decisions}`);
    if (parts.length) el.append(h("p", { class: "tip" }, `As the coach: ${parts.join("; ")}.`));
    if (msg.weighed) el.append(h("p", { id: "review-weighed" }, msg.weighed.words));
    if (!msg.moves.length) return;
    const cards = cardsInText;
    el.append(h("ol", { class: "review-moves", id: "review-moves" }, msg.moves.map((m) => {
      // what the difference cost, where the server weighed it: a clear cost stands out
      const cost = m.cost ? h("div", { class: m.cost.clear && m.cost.points > 0 ? "cost costly" : "cost" },
        h("strong", {}, "Weighed: "), m.cost.words) : null;
      return h("li", { dataset: { index: String(m.index) }, class: m.cost && m.cost.clear && m.cost.points > 0 ? "costly" : null },
        h("div", { class: "where" }, `Round ${m.round} (${m.contract}), ${words[m.phase] || m.phase}`, m.hand.length ? `: your hand ${cards(m.hand.join(" "))}` : ": before the deal"),
        h("div", {}, h("strong", {}, "You: "), cards(m.played)),
        h("div", {}, h("strong", {}, "Coach: "), cards(m.advice)),
        cost);
    })));
  }

  // -- the replay of a finished game: every hand shown, one action at a time ---------------------------
  async replayAt(n) {
    const el = this.el.replay;
    const asked = this.replayAsked = (this.replayAsked || 0) + 1;
    let r;
    try {
      const resp = await fetch(`/api/invite/${this.invite}/replay/${n}`);
      r = await resp.json();
      if (!resp.ok) throw new Error(r.message || `HTTP ${resp.status}`);
    } catch (e) {
      toast(`The replay could not be loaded: ${e.message}`, "error");
      return;
    }
    if (asked !== this.replayAsked) return;  // a later step was asked meanwhile
    const wasHidden = el.hidden;
    const focused = el.contains(document.activeElement) ? document.activeElement.id : null;
    clear(el);
    el.hidden = false;
    const g = r.game;
    const round = r.round_starts.filter((s) => s <= r.n).length - 1;  // the index of the round shown
    const prevRound = r.n > r.round_starts[round] ? r.round_starts[round] : r.round_starts[Math.max(0, round - 1)];
    const nextRound = r.round_starts[round + 1] ?? r.total;
    const move = (id, label, to, disabled) => h("button", { type: "button", id, disabled, onclick: () => this.replayAt(to) }, label);
    const name = (i) => r.names[i] || `Seat ${i + 1}`;
    el.append(...[h("h2", { tabindex: "-1" }, "The game, step by step"),
      h("p", { id: "replay-where" }, `Action ${r.n} of ${r.total} · round ${g.round_number} of ${g.rounds} (${g.contract})`),
      h("p", { id: "replay-action" }, r.action ? this.replayWords(r.action, r.names, r.round_end ? r.round_end.table : g.table) : "The deal."),
      h("div", { class: "row replay-moves" },
        move("replay-round-back", "« Round start", prevRound, r.n === 0),
        move("replay-back", "◀ Back", r.n - 1, r.n === 0),
        move("replay-next", "Next ▶", r.n + 1, r.n === r.total),
        move("replay-round-next", "Next round »", nextRound, r.n === r.total),
        h("button", { type: "button", id: "replay-close", onclick: () => { clear(el); el.hidden = true; this.keys.actions = null; this.render(); } }, "Close")),
      this.replayRoundEnd(r.round_end, name),
      r.round_end && r.n < r.total ? h("h3", { id: "replay-next-deal" }, `Round ${g.round_number} is dealt:`) : null,
      h("ul", { class: "replay-hands", id: "replay-hands" }, r.hands.map((hand, i) => h("li", { dataset: { seat: String(i) } },
        h("strong", {}, `${name(i)}${g.down[i] ? " (down)" : ""}: `), hand.length ? hand.map(cardShort).join(" ") : "no cards",
        h("span", { class: "where" }, ` · total ${g.totals[i]}`)))),
      h("p", { id: "replay-table" }, g.table.length ? `On the table: ${g.table.map((m) => `${name(m.owner)}'s ${m.kind} ${m.cards.map(cardShort).join(" ")}`).join("; ")}.` : "Nothing on the table yet."),
      h("p", { class: "where" }, `Top of the discard pile: ${g.discard_top ? cardShort(g.discard_top) : "none"}; ${g.stock_size} cards in the stock.`)]
      .filter(Boolean));  // Element.append writes a null as "null"
    if (wasHidden) { this.keys.actions = null; this.render(); el.querySelector("h2").focus(); }
    else if (focused && document.getElementById(focused) && !document.getElementById(focused).disabled) document.getElementById(focused).focus();
    else el.querySelector("h2").focus();
  }

  // how a round stood when the action shown ended it: every hand held, its points, the table
  replayRoundEnd(e, name) {
    if (!e) return null;
    const how = e.went_out === null ? "nobody went out" : `${name(e.went_out)} went out${e.slam ? ` (a ${e.slam})` : ""}`;
    return h("div", { class: "replay-round-end", id: "replay-round-end" },
      h("h3", {}, `Round ${e.number} (${e.contract}) is over: ${how}.`),
      h("ul", {}, e.hands.map((hand, i) => h("li", { dataset: { seat: String(i) } },
        h("strong", {}, `${name(i)}: `), hand.length ? hand.map(cardShort).join(" ") : "no cards",
        h("span", { class: "where" }, ` · ${e.points[i]} points`)))),
      h("p", {}, e.table.length ? `On the table: ${e.table.map((m) => `${name(m.owner)}'s ${m.kind} ${m.cards.map(cardShort).join(" ")}`).join("; ")}.` : "Nothing was on the table."),
      e.cut && e.cut.made ? h("p", {}, `${name(e.cut.cutter)} made THE CUT.`) : null);
  }

  replayWords(text, names, melds) {
    const name = (i) => names[i] || `Seat ${i + 1}`;
    const meld = (id) => { const m = melds.find((x) => x.id === id); return m ? `${name(m.owner)}'s ${m.kind}` : `meld ${id + 1}`; };
    return moveWords(text, name, null, meld);
  }

  // -- a new state ------------------------------------------------------------------------------------
  update(st) {
    const prev = this.st;
    this.st = st;
    this.pending = false;
    const g = st.game;
    if (!g) return;
    if (this.hintMsg && this.hintMsg.version !== st.version) this.hintMsg = null;
    const pg = prev && prev.game;
    const lastMove = pg ? (pg.history[pg.history.length - 1] || "").split(" ") : [];
    const undone = pg && st.version === prev.version - 1 && pg.round_number === g.round_number
      && Number(lastMove[0]) === st.you && lastMove[1] === "discard" ? lastMove[2] : null;  // ours, taken back
    this.tookBack = Boolean(undone);
    if (g.phase !== "game-over" && !this.el.replay.hidden) { clear(this.el.replay); this.el.replay.hidden = true; }
    if (g.phase !== "game-over" && this.reviewAsked) {  // a review belongs to a finished game
      Object.assign(this, { reviewAsked: false, reviewMsg: null, reviewRef: null });
      this.renderReview();
    } else if (this.reviewAsked && !this.reviewMsg && this.conn.ws !== this.reviewWs) {
      // asked on a connection since lost: its answer went with it, so ask on this one
      const ref = this.conn.send({ type: "review" });
      if (ref !== null) Object.assign(this, { reviewRef: ref, reviewWs: this.conn.ws });
    }
    this.reconcileHand(g.hand, prev);
    showMessage(this.el.message, undone ? `You took back the ${cardShort(undone)}: play on.` : "");
    if (this.seenRounds === null) this.seenRounds = g.phase === "game-over" ? g.round_results.length - 1 : g.round_results.length;
    this.render();
    Object.assign(this.root.dataset, { version: String(st.version), phase: g.phase, round: String(g.round_number), you: String(st.you) });
    this.speak(prev, st);
    if (g.round_results.length > this.seenRounds) {
      this.seenRounds = g.round_results.length;
      this.showScores();
    }
  }

  reconcileHand(hand, prev) {
    const { order, added, changed } = keepOrder(this.invite, this.order, hand);
    this.order = order;
    // got: the cards this state brought (said aloud once); drawn: marked fresh until the hand changes
    // again, so that another player's move does not draw the hand again (a held card would lose its look)
    const dealt = !prev || !prev.game || prev.game.round_number !== this.st.game.round_number;
    this.got = prev && prev.game && !this.tookBack ? added : [];  // a discard taken back is not a new card
    if (dealt) this.drawn = []; else if (changed && !this.tookBack) this.drawn = added;
    if (changed) { this.selected.clear(); this.staged = this.staged.filter(() => false); }
  }

  speak(prev, st) {
    const g = st.game;
    const lines = [];
    const pg = prev && prev.game;
    if (pg && pg.round_number === g.round_number) {
      for (const t of g.history.slice(pg.history.length).slice(-3)) {
        const w = this.historyWords(t);
        if (w) lines.push(w);
      }
    } else if (g.phase !== "game-over") {
      lines.push(`Round ${g.round_number} of ${g.rounds}: ${g.contract}.`);
    }
    if (this.got.length && this.got.length <= 3) lines.push(`You got the ${this.got.map(cardName).join(", the ")}.`);
    const mine = st.legal.length > 0;
    const wasMine = prev && prev.legal.length > 0;
    if (mine && !wasMine) lines.push(this.statusText());
    if (g.phase === "game-over" && pg && pg.phase !== "game-over") lines.push("The game is over.");
    if (lines.length) announce(lines.join(" "));
  }

  statusText() {
    const g = this.st.game;
    const turn = this.name(g.turn);
    const mineNow = this.st.legal.length > 0;
    const top = g.discard_top ? cardShort(g.discard_top) : "nothing";
    switch (g.phase) {
      case "cut": return mineNow ? "You cut the deck: choose how many cards." : `${turn} is cutting the deck.`;
      case "draw": return mineNow ? `Your turn: draw from the stock or take the ${top}.` : `${turn}'s turn to draw.`;
      case "buy": {
        const left = this.st.deadline ? Math.max(0, Math.round(this.st.deadline - Date.now() / 1000)) : null;
        return mineNow ? `Do you want the ${top}? Buy it or pass${left !== null ? ` (${left} seconds)` : ""}.` : `Waiting for buys on the ${top}.`;
      }
      case "play": return mineNow ? (this.legal("down").length ? "Your turn: you can go down! Then discard." : "Your turn: play, then discard a card.") : `${turn} is playing.`;
      case "shanghai": return mineNow ? "You may call Shanghai." : "Waiting for a Shanghai call.";
      case "game-over": return "The game is over.";
      default: return `${turn}: ${PHASE_WORDS[g.phase] || g.phase}.`;
    }
  }

  // -- drawing ---------------------------------------------------------------------------------------
  render() {
    const active = document.activeElement;
    const focusKey = active && active.dataset ? active.dataset.focus : null;
    // each part is drawn again only when what it shows has changed
    const g = this.st.game;
    const legal = (this.st.legal || []).map((l) => l.text).join(",");
    const sel = [...this.selected].join(",");
    const seats = JSON.stringify(this.st.table.seats);
    const part = (name, key, draw) => {
      if (this.keys[name] !== key) { this.keys[name] = key; draw.call(this); }
    };
    part("head", [g.round_number, g.phase, g.contract, legal.length > 0].join("|"), this.renderHead);
    part("players", JSON.stringify([g.hand_counts, g.down, g.buys_used, g.totals, g.to_act, g.turn, seats]), this.renderPlayers);
    part("center", JSON.stringify([g.stock_size, g.discard_top, g.discard_size, g.phase, g.discard_live, legal, g.turn, g.to_act, seats]), this.renderCenter);
    part("buy", JSON.stringify([g.phase, this.st.deadline, legal, g.buy_window, g.discard_top]), this.renderBuy);
    part("melds", JSON.stringify([g.table, legal, sel, seats]), this.renderMelds);
    part("staging", JSON.stringify([this.staged, legal]), this.renderStaging);
    part("actions", JSON.stringify([legal, sel, this.pending, this.st.version, this.st.host, g.phase, this.staged.length, this.reviewAsked]), this.renderActions);
    part("hand", JSON.stringify([this.order, sel, this.hintMsg && this.hintMsg.version, this.drawn, this.staged, g.phase === "game-over"]), this.renderHand);
    part("log", JSON.stringify([g.round_number, g.history.length, seats]), this.renderLog);
    part("wait", JSON.stringify([this.st.waiting, seats, g.phase]), () => this.wait.draw());
    this.renderHint();
    if (focusKey && !this.el.dialog.open) {
      const again = this.root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus(); else if (focusKey.startsWith("hand")) this.focusHand(0);
    }
  }

  renderHead() {
    const g = this.st.game;
    clear(this.el.head);
    this.el.head.append(
      h("div", { class: "round" }, h("span", { class: "round-no", id: "round" }, g.phase === "game-over" ? "Game over" : `Round ${g.round_number} of ${g.rounds}`),
        g.phase === "game-over" ? null : h("span", { class: "contract", id: "contract" }, g.contract)),
      headTools(this, hintsOn(this.st) && g.phase !== "game-over" ? h("button", { type: "button", id: "hint", "data-focus": "hint", disabled: !this.st.legal.length, onclick: () => this.conn.send({ type: "hint" }), title: "Ask the coach (H)" }, "Hint") : null));
    document.title = `${this.st.legal.length ? "● " : ""}Shanghai: round ${g.round_number}`;
  }

  renderPlayers() {
    const g = this.st.game;
    clear(this.el.players);
    for (let i = 0; i < g.players; i++) {
      const seat = this.st.table.seats[i] || {};
      this.el.players.append(playerBox(this, i, { name: i === this.st.you ? `${seat.name} (you)` : seat.name,
        words: [g.down[i] ? "down" : "not down", `buys ${g.buys_used[i]} of ${g.buy_limit}`],
        facts: [h("span", { class: `down-badge ${g.down[i] ? "is-down" : ""}` }, g.down[i] ? "down" : "not down"),
          h("span", { class: "buys", title: "buys used" }, `buys ${g.buys_used[i]}/${g.buy_limit}`)] }));
    }
  }

  renderCenter() {
    const g = this.st.game;
    clear(this.el.center);
    const draw = this.legal("draw")[0];
    const take = this.legal("take")[0];
    const discard = this.legal("discard");
    const stock = h("button", { type: "button", class: "pile stock", id: "stock", "data-focus": "stock", disabled: !draw,
      "aria-label": `Stock, ${g.stock_size} cards${draw ? ": draw a card" : ""}`, onclick: () => draw && this.act(draw) },
    backEl(), h("span", { class: "pile-count" }, g.stock_size));
    const top = g.discard_top;
    const pile = h("button", { type: "button", class: `pile discard${g.discard_live && g.phase === "buy" ? " live" : ""}`, id: "discard-pile",
      "data-focus": "discard-pile", disabled: !take,
      "aria-label": `Discard pile, ${g.discard_size} cards, top: ${top ? cardName(top) : "empty"}${take ? ": take it" : ""}`,
      onclick: () => take && this.act(take) },
    top ? cardEl(top, { label: false }) : h("div", { class: "card empty" }), h("span", { class: "pile-count" }, g.discard_size));
    pile.addEventListener("dragover", (ev) => { if (discard.length) { ev.preventDefault(); pile.classList.add("over"); } });
    pile.addEventListener("dragleave", () => pile.classList.remove("over"));
    pile.addEventListener("drop", (ev) => {
      ev.preventDefault(); pile.classList.remove("over");
      const card = this.order[Number(ev.dataTransfer.getData("text/plain"))];
      const a = discard.find((d) => d.card === card && !d.shanghai);
      if (a) this.act(a); else toast(`You cannot discard the ${cardShort(card)} now.`, "error");
    });
    this.el.center.append(h("div", { class: "piles" }, h("figure", {}, stock, h("figcaption", {}, "Stock")),
      h("figure", {}, pile, h("figcaption", {}, "Discard"))),
    h("div", { class: "status", id: "status" }, this.statusText()));
  }

  renderBuy() {
    const g = this.st.game;
    const buy = this.legal("buy")[0];
    const pass = this.legal("pass")[0];
    const el = this.el.buy;
    clearInterval(this.countdown);
    clear(el);
    if (g.phase !== "buy" && g.phase !== "shanghai") { el.hidden = true; return; }
    el.hidden = false;
    const top = g.discard_top ? cardShort(g.discard_top) : "";
    const who = g.buy_window.filter((s) => s !== this.st.you).map((s) => this.name(s));
    const bar = h("div", { class: "bar" }, h("div", { class: "fill" }));
    const secs = h("span", { class: "secs", id: "buy-seconds-left" });
    el.append(...[h("div", { class: "buy-text" }, g.phase === "buy"
      ? (buy || pass ? `The ${top} is open to buying.` : `${who.join(", ") || "Others"} may buy the ${top}.`)
      : "A Shanghai call is open.", this.st.deadline ? secs : null),
    this.st.deadline ? bar : null,
    h("div", { class: "row" },
      buy ? h("button", { type: "button", class: "primary", id: "buy", "data-focus": "buy", onclick: () => this.act(buy) },
        `Buy the ${top} (B)`) : null,
      pass ? h("button", { type: "button", id: "pass", "data-focus": "pass", onclick: () => this.act(pass) }, "Pass (P)") : null)]
      .filter(Boolean));  // Element.append writes a null as "null"
    if (this.st.deadline) {
      const total = this.st.table.settings.buy_seconds || 15;
      const tick = () => {
        const left = Math.max(0, this.st.deadline - Date.now() / 1000);
        secs.textContent = ` ${Math.ceil(Math.min(left, total))} s left`;
        bar.firstChild.style.width = `${Math.max(0, Math.min(100, (100 * left) / total))}%`;
      };
      tick();
      this.countdown = setInterval(tick, 200);
    }
  }

  renderMelds() {
    const g = this.st.game;
    clear(this.el.melds);
    if (!g.table.length) {
      this.el.melds.append(h("p", { class: "empty-note" }, `Contract: ${g.contract}. Nobody is down yet.`));
      return;
    }
    const owners = [...new Set(g.table.map((m) => m.owner))].sort((a, b) => a - b);
    const sel = this.selectedCards();
    for (const owner of owners) {
      const group = h("div", { class: "meld-group", dataset: { owner: String(owner) } }, h("h3", {}, owner === this.st.you ? "Your melds" : `${this.name(owner)}'s melds`));
      for (const m of g.table.filter((x) => x.owner === owner)) {
        const meanings = this.wildMeanings(m);
        const targets = (this.st.legal || []).filter((l) => ["layoff", "replace", "shanghai"].includes(l.action.verb) && l.action.meld === m.id);
        const fits = sel.length === 1 && targets.some((l) => l.action.card === sel[0]);
        const label = `${this.owns(owner)} ${m.kind}: ${m.cards.map((c, i) => (meanings[i] ? `${cardName(c)} as ${meaningName(meanings[i])}` : cardName(c))).join(", ")}`;
        const meld = h("div", { class: `meld ${m.kind}${fits ? " fits" : ""}${targets.length ? " target" : ""}`, role: "group", tabindex: "0",
          "aria-label": label + (targets.length ? ". Press Enter to play your selected card here." : ""),
          dataset: { meldId: String(m.id), focus: `meld-${m.id}` } },
        m.cards.map((c, i) => h("div", { class: `meld-card${meanings[i] ? " wild" : ""}` }, cardEl(c, { small: true, label: false }),
          meanings[i] ? h("span", { class: "wild-means", title: `wild: ${meaningName(meanings[i])}` }, `=${meaningShort(meanings[i])}`) : null)));
        meld.addEventListener("click", () => this.playOnMeld(m.id));
        meld.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); this.playOnMeld(m.id); } });
        meld.addEventListener("dragover", (ev) => { if (targets.length) { ev.preventDefault(); meld.classList.add("over"); } });
        meld.addEventListener("dragleave", () => meld.classList.remove("over"));
        meld.addEventListener("drop", (ev) => {
          ev.preventDefault(); meld.classList.remove("over");
          this.playOnMeld(m.id, this.order[Number(ev.dataTransfer.getData("text/plain"))]);
        });
        group.append(meld);
      }
      this.el.melds.append(group);
    }
  }

  wildMeanings(m) {
    const out = [];
    const used = new Set();
    for (const w of m.wilds || []) {
      const [card, means] = w.split("=");
      const i = m.cards.findIndex((c, k) => c === card && !used.has(k));
      if (i >= 0) { used.add(i); out[i] = means; }
    }
    return out;
  }

  // a card (the one selected, or dropped) played on a meld: lay off, replace a wild or call Shanghai
  playOnMeld(meldId, card) {
    const g = this.st.game;
    const chosen = card || (this.selectedCards().length === 1 ? this.selectedCards()[0] : null);
    // a meld offered for a "Shanghai" call (the discard goes there), or for the freed wild (not in the hand)
    const calls = this.legal("shanghai").filter((a) => a.meld === meldId);
    if (calls.length && !chosen) {
      if (calls.length === 1) this.act(calls[0]); else this.choose(`Call Shanghai: where does the ${cardShort(g.shanghai_card)} go?`, calls);
      return;
    }
    const c = chosen || (g.pending_wild && this.st.you === g.turn ? g.pending_wild : null);
    if (!c) { toast("Select one card of your hand first, then choose the meld.", "error"); return; }
    const options = (this.st.legal || []).map((l) => l.action).filter((a) => ["layoff", "replace"].includes(a.verb) && a.meld === meldId && a.card === c);
    if (!options.length) { toast(`The ${cardShort(c)} cannot go on that meld now.`, "error"); return; }
    if (options.length === 1) { this.act(options[0]); return; }
    this.choose(`Where does the ${cardShort(c)} go?`, options);
  }

  choose(question, actions) {
    const d = this.el.dialog;
    clear(d);
    d.append(h("h2", { id: "scores-title" }, question),
      h("div", { class: "choices" }, actions.map((a) => h("button", { type: "button", onclick: () => { d.close(); this.act(a); } },
        a.end ? `${a.end === "low" ? "Low" : "High"} end` : this.actionWords(a)))),
      h("button", { type: "button", class: "subtle", onclick: () => d.close() }, "Cancel"));
    d.showModal();
  }

  renderStaging() {
    const el = this.el.staging;
    clear(el);
    if (!this.legal("down").length || !this.staged.length) { el.hidden = true; return; }
    el.hidden = false;
    el.append(h("h3", {}, "Your melds to lay down"),
      h("div", { class: "staged" }, this.staged.map((m, i) => h("div", { class: "meld" },
        h("span", { class: "kind" }, m.kind), m.cards.map((c) => cardEl(c, { small: true })),
        m.options && m.options.length > 1 ? h("button", { type: "button", class: "subtle move-wild", id: `move-wild-${i}`,
          "data-focus": `move-wild-${i}`, title: "Put the wild cards somewhere else in this run",
          "aria-label": `Move the wild in ${m.kind} ${i + 1} (order ${m.options.indexOf(m.cards) + 1} of ${m.options.length})`,
          onclick: () => { m.cards = m.options[(m.options.indexOf(m.cards) + 1) % m.options.length]; this.render(); } }, "Move wild ⇄") : null,
        h("button", { type: "button", class: "subtle", "aria-label": `Take back ${m.kind} ${i + 1}`,
          onclick: () => { this.staged.splice(i, 1); this.render(); } }, "×")))),
      h("div", { class: "row" },
        h("button", { type: "button", class: "primary", id: "down-staged", "data-focus": "down-staged",
          onclick: () => this.act({ verb: "down", melds: this.staged.map((m) => ({ kind: m.kind, cards: m.cards })) }) }, "Go down with these"),
        h("button", { type: "button", class: "subtle", onclick: () => { this.staged = []; this.render(); } }, "Start again")));
  }

  stagedCards() { return this.staged.flatMap((m) => m.cards); }

  renderActions() {
    const el = this.el.actions;
    clear(el);
    const g = this.st.game;
    const legal = this.st.legal || [];
    const sel = this.selectedCards();
    const btn = (id, text, onclick, cls = "") => h("button", { type: "button", id, class: cls, "data-focus": id, onclick }, text);
    const row = h("div", { class: "row main-moves" });
    const draw = this.legal("draw")[0];
    const take = this.legal("take")[0];
    if (draw) row.append(btn("draw", "Draw from the stock (S)", () => this.act(draw), "primary"));
    if (take) row.append(btn("take", `Take the ${cardShort(g.discard_top)} (T)`, () => this.act(take)));
    const down = this.legal("down")[0];
    if (down) {
      row.append(btn("go-down", "Go down (suggested)", () => this.act(down), "primary"));
      row.append(h("span", { class: "suggestion" }, down.melds.map((m) => h("span", { class: "sugg-meld" }, `${m.kind}: ${m.cards.map(cardShort).join(" ")}`))));
      if (sel.length >= 3) {
        row.append(btn("stage-set", "Make a set of the selected", () => this.stage("set")),
          btn("stage-run", "Make a run of the selected", () => this.stage("run")));
      }
    }
    const freed = g.pending_wild && this.st.you === g.turn ? this.legal("layoff").filter((a) => a.card === g.pending_wild) : [];
    if (freed.length) {
      // the wild taken off the table is not in the hand: its places are offered here
      row.append(h("span", { class: "tip", id: "freed-wild" }, `The freed ${cardShort(g.pending_wild)} must go on a meld before you discard (cards of your hand may go first):`),
        ...freed.map((a) => btn(`freed-${a.meld}-${a.end || ""}`, this.actionWords(a), () => this.act(a), "primary")));
    }
    if (sel.length === 1) {
      const c = sel[0];
      const discard = this.legal("discard").find((a) => a.card === c && !a.shanghai);
      if (discard) row.append(btn("discard", `Discard ${cardShort(c)} (D)`, () => this.act(discard), "primary"));
      for (const a of legal.map((l) => l.action).filter((x) => ["layoff", "replace"].includes(x.verb) && x.card === c)) {
        row.append(btn(`${a.verb}-${a.meld}-${a.end || ""}`, this.actionWords(a), () => this.act(a)));
      }
    } else if (this.legal("discard").length && !sel.length) {
      row.append(h("span", { class: "tip" }, "Select a card to discard, or drag it onto the discard pile."));
    }
    const cuts = this.legal("cut");
    if (cuts.length) {
      const targets = cuts.map((a) => a.target);
      const lo = Math.min(...targets);
      const hi = Math.max(...targets);
      const best = g.players * 11 + 1;
      const input = h("input", { type: "number", id: "cut-target", min: lo, max: hi, value: Math.min(hi, Math.max(lo, best)), "aria-label": "Cards to cut" });
      row.append(h("label", { for: "cut-target" }, `Cut how many cards (${best} makes THE CUT)?`), input,
        btn("cut", "Cut", () => { const a = cuts.find((x) => x.target === Number(input.value)); if (a) this.act(a); else toast(`Cut between ${lo} and ${hi} cards.`, "error"); }, "primary"));
    }
    const back = this.takeBackCard();
    if (back) row.append(btn("take-back", `Take back the ${cardShort(back)} (U)`, () => this.takeBack()));
    if (g.phase === "game-over" && this.st.host) row.append(btn("rematch", "Play again (rematch)", () => this.conn.send({ type: "rematch" }), "primary"));
    if (g.phase === "game-over" && this.st.you !== null && this.st.you !== undefined && !this.reviewAsked) {
      row.append(btn("review-ask", "How did I play? (the coach's review)", () => this.askReview()));
    }
    if (g.phase === "game-over" && this.el.replay.hidden) row.append(btn("replay-open", "Replay the game, step by step", () => this.replayAt(0)));
    el.append(row);
    const others = legal.filter((l) => l.action.verb !== "cut");
    if (others.length) {
      el.append(h("details", { class: "all-moves", id: "all-moves" }, h("summary", { "data-focus": "all-moves" }, `Every move you can make (${others.length})`),
        h("ul", {}, others.map((l, i) => h("li", {}, h("button", { type: "button", class: "move", "data-focus": `move-${l.text}`,
          dataset: { action: l.text, n: String(i) }, onclick: () => this.act(l.action) }, this.actionWords(l.action)))))));
      const d = el.querySelector("details");
      if (this.movesOpen) d.open = true;
      d.addEventListener("toggle", () => { this.movesOpen = d.open; });
    }
    if (this.pending) el.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  }

  stage(kind) {
    const cards = this.selectedCards();
    if (kind === "run") {
      // the server reads a run by position: where spare wilds may go either end, the player picks
      const t = this.st.table;
      const options = runArrangements(cards, (c) => this.isWild(c), { aces: t.aces, wildLimit: t.wild_limit, runMin: t.run_min });
      this.staged.push({ kind, cards: options[0], options });
    } else {
      this.staged.push({ kind, cards });
    }
    this.selected.clear();
    this.render();
  }

  selectedCards() { return [...this.selected].sort((a, b) => a - b).map((i) => this.order[i]); }

  renderHand() {
    const el = this.el.hand;
    clear(el);
    el.hidden = this.st.you === null || this.st.you === undefined;  // a spectator has no hand
    if (el.hidden) return;
    const g = this.st.game;
    const hinted = this.hintMsg && this.hintMsg.action ? (this.hintMsg.action.card ? [this.hintMsg.action.card] : (this.hintMsg.action.melds || []).flatMap((m) => m.cards)) : [];
    const stagedLeft = countOf(this.stagedCards());
    const freshLeft = countOf(this.drawn);  // a drawn card went to the end of the hand: mark the last copies
    const fresh = new Set();
    for (let i = this.order.length - 1; i >= 0; i--) {
      const n = freshLeft.get(this.order[i]) || 0;
      if (n > 0) { fresh.add(i); freshLeft.set(this.order[i], n - 1); }
    }
    const tools = handTools(this);
    const list = h("ul", { class: "hand", id: "hand", "aria-labelledby": "hand-title",
      "aria-describedby": "hand-help" });
    this.order.forEach((c, i) => {
      const inStage = (stagedLeft.get(c) || 0) > 0;
      if (inStage) { stagedLeft.set(c, stagedLeft.get(c) - 1); return; }
      const selected = this.selected.has(i);
      const b = handCardEl(c, i, selected, { label: `${cardName(c)}${selected ? ", selected" : ""}`,
        className: `${selected ? "selected" : ""}${hinted.includes(c) ? " hinted" : ""}${fresh.has(i) ? " fresh" : ""}` });
      b.draggable = true;
      b.addEventListener("click", () => { if (this.selected.has(i)) this.selected.delete(i); else this.selected.add(i); this.render(); });
      b.addEventListener("keydown", (ev) => this.handKey(ev, i));
      b.addEventListener("dragstart", (ev) => { ev.dataTransfer.setData("text/plain", String(i)); ev.dataTransfer.effectAllowed = "move"; b.classList.add("dragging"); });
      b.addEventListener("dragend", () => b.classList.remove("dragging"));
      b.addEventListener("dragover", (ev) => { ev.preventDefault(); b.classList.add("drop-before"); });
      b.addEventListener("dragleave", () => b.classList.remove("drop-before"));
      b.addEventListener("drop", (ev) => { ev.preventDefault(); this.move(Number(ev.dataTransfer.getData("text/plain")), i); });
      list.append(h("li", {}, b));
    });
    list.addEventListener("dragover", (ev) => ev.preventDefault());
    list.addEventListener("drop", (ev) => { if (ev.target === list) { ev.preventDefault(); this.move(Number(ev.dataTransfer.getData("text/plain")), this.order.length); } });
    el.append(tools, list, h("p", { id: "hand-help", class: "help" },
      g.phase === "game-over" ? "" : `Enter selects a card. Arrows move between cards; Shift+arrows move the card. D discards, L plays it on a meld, S draws, T takes the discard, ${hintsOn(this.st) ? "H asks for a hint, " : ""}U takes back your discard (against computer players).`));
  }

  renderLog() {
    const g = this.st.game;
    clear(this.el.log);
    const items = g.history.map((t) => this.historyWords(t)).filter(Boolean).slice(-6);
    this.el.log.append(h("h2", {}, "Last moves"), h("ol", {}, items.map((t) => h("li", {}, t))));
  }

  renderHint() {
    let box = this.root.querySelector("#hint-box");
    if (!this.hintMsg) { if (box) box.remove(); return; }
    if (!box) { box = h("div", { id: "hint-box", class: "hint-box" }); this.el.actions.prepend(box); }
    clear(box);
    box.append(...[h("strong", {}, "Coach: "), this.actionWords(this.hintMsg.action), this.hintMsg.reason ? h("span", { class: "reason" }, ` — ${cardsInText(this.hintMsg.reason)}`) : null,
      h("button", { type: "button", class: "subtle", onclick: () => this.act(this.hintMsg.action) }, "Do it")].filter(Boolean));
  }

  // -- the hand: order, keys ------------------------------------------------------------------------
  sortBy(how) {
    sortCards(this.order, how);
    this.selected.clear();
    saveOrder(this.invite, this.order);
    this.render();
    announce(`Sorted by ${how}.`);
  }

  move(from, to) {
    if (Number.isNaN(from) || from === to) return;
    const card = this.order.splice(from, 1)[0];
    this.order.splice(from < to ? to - 1 : to, 0, card);
    this.selected.clear();
    saveOrder(this.invite, this.order);
    this.render();
  }

  focusHand(i) {
    const cards = [...this.root.querySelectorAll("#hand button.card")];
    if (!cards.length) return;
    cards[Math.max(0, Math.min(cards.length - 1, i))].focus();
  }

  handKey(ev, i) {
    const cards = [...this.root.querySelectorAll("#hand button.card")];
    const pos = cards.findIndex((b) => Number(b.dataset.index) === i);
    if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
      ev.preventDefault();
      const step = ev.key === "ArrowRight" ? 1 : -1;
      if (ev.shiftKey || ev.altKey) {
        const j = i + step;
        if (j < 0 || j >= this.order.length) return;
        [this.order[i], this.order[j]] = [this.order[j], this.order[i]];
        this.selected.clear();
        saveOrder(this.invite, this.order);  // kept across reloads, as a drag is
        this.render();
        this.root.querySelector(`[data-focus="hand-${j}"]`)?.focus();
        announce(`Moved to place ${j + 1}.`);
      } else {
        cards[Math.max(0, Math.min(cards.length - 1, pos + step))].focus();
      }
    } else if (ev.key === "Home" || ev.key === "End") {
      ev.preventDefault();
      cards[ev.key === "Home" ? 0 : cards.length - 1].focus();
    } else if (ev.key === "d" || ev.key === "D") {
      const a = this.legal("discard").find((x) => x.card === this.order[i] && !x.shanghai);
      if (a) this.act(a); else toast(`You cannot discard the ${cardShort(this.order[i])} now.`, "error");
    } else if (ev.key === "l" || ev.key === "L") {
      const c = this.order[i];
      const options = (this.st.legal || []).map((l) => l.action).filter((a) => ["layoff", "replace"].includes(a.verb) && a.card === c);
      if (!options.length) toast(`The ${cardShort(c)} fits no meld now.`, "error");
      else if (options.length === 1) this.act(options[0]);
      else this.choose(`Where does the ${cardShort(c)} go?`, options);
    }
  }

  globalKey(ev) {
    if (!this.st || !this.st.game) return;
    const k = shortcutKey(ev, this.el.dialog);
    if (k === null) return;
    const one = (verb) => this.legal(verb)[0];
    if (k === "s" && one("draw")) this.act(one("draw"));
    else if (k === "t" && one("take")) this.act(one("take"));
    else if (k === "b" && one("buy")) this.act(one("buy"));
    else if (k === "p" && one("pass")) this.act(one("pass"));
    else if (k === "h" && this.st.legal.length && hintsOn(this.st)) this.conn.send({ type: "hint" });
    else if (k === "g" && one("down")) this.act(one("down"));
    else if (k === "u" && this.takeBackCard()) this.takeBack();
    else return;
    ev.preventDefault();
  }

  // -- the scores --------------------------------------------------------------------------------------
  showScores() {
    const g = this.st.game;
    const rr = g.round_results;
    scoresDialog(this, "round", rr, (d, last, over, order) => {
      const stars = Array.from({ length: g.players }, (_, i) => rr.filter((r) => r.went_out === i).length);
      const low = Math.min(...g.totals);
      const high = Math.max(...g.totals);
      const dunce = ["isra", "isra-express"].includes(g.rules_name);
      if (over) {
        const winners = order.filter((i) => g.totals[i] === low);
        d.append(h("p", { class: "crown-line" }, h("span", { class: "crown", "aria-hidden": "true" }, "♛"), ` ${winners.map((i) => this.fullName(i)).join(" and ")} ${winners.length > 1 || winners[0] === this.st.you ? "win" : "wins"} with ${low} points!`));
      } else if (last) {
        d.append(h("p", {}, last.went_out === null || last.went_out === undefined ? "Nobody went out." : `${this.name(last.went_out)} went out${last.slam ? " with a slam" : ""}.`,
          last.cut && last.cut.made ? " THE CUT was made." : ""));
      }
      if (last) {
        d.append(h("table", { class: "score-table", id: "round-scores" },
          h("caption", {}, `Round ${last.number}: ${last.contract}`),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Points"), h("th", { scope: "col" }, "Held"), h("th", { scope: "col" }, "Stars"), h("th", { scope: "col" }, "Total"))),
          h("tbody", {}, order.map((i) => h("tr", { class: i === this.st.you ? "me" : "" },
            h("th", { scope: "row" }, over && g.totals[i] === low ? h("span", { class: "crown", title: "the crown", "aria-label": "crown" }, "♛ ") : null,
              over && dunce && g.totals[i] === high && high !== low ? h("span", { class: "dunce", title: "the dunce cap", "aria-label": "dunce cap" }, "▲ ") : null, this.fullName(i)),
            h("td", { class: "num" }, last.points[i]),
            h("td", {}, h("div", { class: "held" }, last.hands[i].length ? last.hands[i].map((c) => cardEl(c, { small: true })) : last.went_out === i ? "went out ★" : "—")),
            h("td", { class: "stars", "aria-label": `${stars[i]} stars` }, "★".repeat(stars[i]) || "—"),
            h("td", { class: "num total" }, g.totals[i]))))));
      }
    });
  }
}

export { parseCard };

// An action's text from the engine ("2 layoff 9D m1 high") in words. With meld (the replay: a meld's id in
// words) it says where each card went, and the passes; otherwise a pass is not worth a line (null).
function moveWords(text, name, you, meld) {
  const detailed = Boolean(meld);
  const w = text.split(" ");
  const seat = Number(w[0]);
  const who = name(seat);
  const c = (t) => cardName(t);
  const cards = (ws) => cardsInText(ws.join(" "));
  const where = (m, end) => (detailed ? ` on ${meld(Number(m.slice(1)))}${end ? ` (${end} end)` : ""}` : "");
  switch (w[1]) {
    case "draw": return `${who} drew from the stock.`;
    case "take": return `${who} took the discard.`;
    case "buy": return `${who} bought the discard.`;
    case "pass": return detailed ? `${who} passed.` : null;
    case "cut": return `${who} cut ${w[2]} cards.`;
    case "down": return detailed ? `${who} went down: ${cards(w.slice(2))}.` : `${who} went down.`;
    case "layoff": return `${who} laid off the ${c(w[2])}${where(w[3], w[4])}.`;
    case "replace": return `${who} replaced a wild with the ${c(w[2])}${where(w[3])}.`;
    case "discard": return `${who} discarded the ${c(w[2])}${w[3] ? " and called Shanghai" : ""}.`;
    case "shanghai": return `${who} called Shanghai${detailed ? ` on the discard${where(w[2], w[3])}` : ""}.`;
    default: return seat === you ? null : `${who}: ${cards(w.slice(1))}`;
  }
}
