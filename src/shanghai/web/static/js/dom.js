// Small DOM helpers: h() builds elements, announce() speaks through the ARIA live region; then the pieces
// both table views (table.js, manipulation.js) draw alike.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "html") el.innerHTML = value;
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

let lastSpoken = "";
export function announce(text, assertive = false) {
  const region = document.getElementById(assertive ? "alert" : "live");
  if (!region || !text) return;
  // the same words twice in a row must still be read: clear, then set on the next frame
  region.textContent = "";
  const say = text === lastSpoken ? `${text} ` : text;
  lastSpoken = say;
  requestAnimationFrame(() => { region.textContent = say; });
}

let toastTimer = 0;
export function toast(text, kind = "info") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = "toast"; }, kind === "error" ? 6000 : 3500);
  if (kind === "error") announce(text, true);
}

// -- pieces of the two table views; view: a TableView or ManipulationTableView (st, conn, name(), ...) -------

// The message line under the table: emptied for a new state, or what the server refused (also a toast).
export function showMessage(el, text = "", error = false) {
  el.textContent = text;
  el.className = error ? "message error" : "message";
  if (error) toast(text, "error");
}

// The letter of a table-wide shortcut, or null where the key belongs to a field, a dialog or a modifier.
export function shortcutKey(ev, dialog) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return null;
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return null;
  if (dialog.open || document.querySelector("dialog[open]")) return null;  // the scores, or How to play
  return ev.key.toLowerCase();
}

// A seat's name as the page says it ("You" for the player), and with "(you)" where a list names everyone.
export function seatName(st, seat) {
  if (seat === st.you) return "You";
  const s = st.table.seats[seat];
  return s ? s.name : `Seat ${seat + 1}`;
}

// The engine's reasons name seats by number ("it is seat 2's turn"): names, and "you" for this seat.
export function seatWords(text, st) {
  return String(text).replace(/\bseat (\d+)(?:('s)|( is| has)\b)?/g, (all, n, possessive, verb) => {
    const seat = Number(n);
    const s = st && st.table && st.table.seats[seat];
    if (!s) return all;
    if (seat === st.you) return possessive ? "your" : `you${{ " is": " are", " has": " have" }[verb] || ""}`;
    return s.name + (possessive || verb || "");
  });
}

export function seatFullName(st, seat) {
  const s = st.table.seats[seat];
  const n = s ? s.name : `Seat ${seat + 1}`;
  return seat === st.you ? `${n} (you)` : n;
}

// The head's tools: the game's own buttons first, then Scores, How to play and the way back to the lobby.
// may the people at this table ask for hints (the host's choice when creating it)
export function hintsOn(st) { return !st.table.settings || st.table.settings.hints !== false; }

export function headTools(view, ...first) {
  return h("div", { class: "head-tools" }, first,
    h("button", { type: "button", id: "show-scores", "data-focus": "scores", onclick: () => view.showScores() }, "Scores"),
    h("button", { type: "button", id: "show-guide", "data-focus": "guide", onclick: () => guideDialog(`/api/invite/${view.invite}/guide`) }, "How to play"),
    h("a", { href: "/", class: "button subtle" }, "Lobby"));
}

// How to play: the rule set's guide for newcomers, step by step, and every rule, in a dialog of its own:
// GET /api/invite/INVITE/guide for a table's rules, or POST /api/guide with the lobby's chosen rules.
let guideAsked = 0;  // only the answer to the latest request is shown
export async function guideDialog(url, body) {
  let d = document.getElementById("guide");
  if (!d) { d = h("dialog", { class: "scores guide", id: "guide", "aria-labelledby": "guide-title" }); document.body.append(d); }
  if (d.open) d.close();
  const close = () => h("div", { class: "row" }, h("button", { type: "button", class: "primary", id: "close-guide", onclick: () => d.close() }, "Close"));
  clear(d).append(h("h2", { id: "guide-title" }, "How to play"), h("p", { class: "tip" }, "Loading…"), close());
  d.showModal();
  const asked = ++guideAsked;
  let g;
  try {
    const resp = await fetch(url, body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    g = await resp.json();
    if (!resp.ok) throw new Error(g.message || `HTTP ${resp.status}`);
  } catch (e) {
    if (asked !== guideAsked) return;
    clear(d).append(h("h2", { id: "guide-title" }, "How to play"),
      h("p", { class: "error", role: "alert" }, `The guide could not be loaded: ${e.message}`), close());
    d.querySelector("#close-guide").focus();
    return;
  }
  if (asked !== guideAsked) return;
  clear(d).append(h("h2", { id: "guide-title" }, `How to play: ${g.title}`),
    g.steps.length ? h("ol", { class: "guide-steps", id: "guide-steps" }, g.steps.map((s) => h("li", { dataset: { key: s.key } }, h("strong", {}, s.title), h("p", {}, s.text))))
      : h("p", {}, "Every rule of this game:"),
    h("details", { open: !g.steps.length }, h("summary", {}, "Every rule, in full"), h("pre", { class: "rules-text", tabindex: "0" }, g.rules_text)),
    close());
  d.querySelector("#close-guide").focus();
}

// One player's box: name, cards in hand and total, with the game's own facts (words for the label, spans
// before the total, one after it); the host may free the seat of a person who left.
export function playerBox(view, i, { name, words = [], facts = [], after = null }) {
  const st = view.st;
  const g = st.game;
  const seat = st.table.seats[i] || {};
  const acting = g.to_act.includes(i);
  const status = seat.kind === "bot" ? "computer" : seat.standin ? "away: a computer plays" : seat.connected ? "" : "away";
  return h("div", {
    class: `player${acting ? " acting" : ""}${i === st.you ? " me" : ""}${g.turn === i ? " turn" : ""}`,
    dataset: { seat: String(i) }, "aria-current": g.turn === i ? "true" : null,
    "aria-label": `${view.name(i)}: ${g.hand_counts[i]} cards, ${[...words, `total ${g.totals[i]}`].join(", ")}${acting ? ", to act" : ""}`,
  },
  h("div", { class: "pname" }, acting ? h("span", { class: "turn-dot", "aria-hidden": "true" }) : null, name),
  h("div", { class: "pstats" },
    h("span", { class: "count", title: "cards in hand" }, h("span", { class: "mini-back", "aria-hidden": "true" }), h("b", { class: "hand-count" }, g.hand_counts[i])),
    facts,
    h("span", { class: "total", title: "total points" }, `${g.totals[i]} ${g.totals[i] === 1 ? "pt" : "pts"}`),
    after),
  status ? h("div", { class: "pnote" }, status) : null,
  st.host && seat.kind === "human" && !seat.connected && !seat.open && i !== st.you && g.phase !== "game-over"
    ? h("button", { type: "button", class: "subtle small-btn", "data-focus": `remove-${i}`,
      onclick: () => view.conn.send({ type: "remove_seat", seat: i }) }, "Free this seat") : null);
}

// The hand's heading and sort buttons, and "Clear selection" while cards are selected (clearId: its id, if any).
export function handTools(view, clearId) {
  return h("div", { class: "hand-tools" },
    h("h2", { id: "hand-title" }, `Your hand (${view.order.length})`),
    h("span", { class: "sort-label", "aria-hidden": "true" }, "Sort:"),
    h("button", { type: "button", id: "sort-rank", "data-focus": "sort-rank", "aria-label": "Sort by rank", onclick: () => view.sortBy("rank") }, "Rank"),
    h("button", { type: "button", id: "sort-suit", "data-focus": "sort-suit", "aria-label": "Sort by suit", onclick: () => view.sortBy("suit") }, "Suit"),
    view.selected.size ? h("button", { type: "button", class: "subtle", id: clearId, onclick: () => { view.selected.clear(); view.render(); } }, "Clear selection") : null);
}

// The scores dialog, alike in both games but for the last hand's own lines and table, which
// middle(d, last, over, order) appends (order: the seats, lowest total first); then every hand's points and
// the buttons, and it opens and is read. word: what the game calls a hand ("hand", "round").
export function scoresDialog(view, word, results, middle) {
  const st = view.st;
  const g = st.game;
  const d = view.el.dialog;
  if (d.open) d.close();
  clear(d);
  const last = results[results.length - 1];
  const over = g.phase === "game-over";
  const order = [...Array(g.players).keys()].sort((a, b) => g.totals[a] - g.totals[b]);
  const Word = word[0].toUpperCase() + word.slice(1);
  d.append(h("h2", { id: "scores-title" }, over ? "The game is over" : last ? `${Word} ${last.number} is over` : "Scores"));
  middle(d, last, over, order);
  if (last) {
    d.append(h("details", {}, h("summary", {}, `Every ${word}`),
      h("table", { class: "score-table all" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, Word), [...Array(g.players).keys()].map((i) => h("th", { scope: "col" }, view.fullName(i))))),
        h("tbody", {}, results.map((r) => h("tr", {}, h("th", { scope: "row" }, r.number), r.points.map((p, i) => h("td", { class: "num" }, `${p}${r.went_out === i ? " ★" : ""}`)))),
          h("tr", { class: "totals" }, h("th", { scope: "row" }, "Total"), g.totals.map((t) => h("td", { class: "num" }, t)))))));
  } else {
    d.append(h("p", {}, `No ${word} has been scored yet.`));
  }
  d.append(h("div", { class: "row" },
    over && st.host ? h("button", { type: "button", class: "primary", onclick: () => { d.close(); view.conn.send({ type: "rematch" }); } }, "Rematch") : null,
    over && view.askReview && st.you !== null && !view.reviewAsked
      ? h("button", { type: "button", id: "review-dialog", onclick: () => { d.close(); view.askReview(); } }, "How did I play?") : null,
    h("button", { type: "button", class: over ? "" : "primary", id: "close-scores", onclick: () => d.close() }, over ? "Close" : `Next ${word}`)));
  d.showModal();
  d.querySelector("#close-scores").focus();
  if (last) announce(`${over ? "Game over." : `${Word} ${last.number} scored.`} ${order.map((i) => `${view.name(i)} ${g.totals[i]}`).join(", ")}.`);
}

// The bar that says whose turn the table waits for (the state's "waiting"): to the others, after a while,
// "Waiting for Ann" with a Nudge button and the countdown to a computer player standing in; to the
// person, that countdown in its last 30 s; and "I'm back" while a computer player plays for them.
const SHOW_WAITING_AFTER = 10;  // seconds a person's turn waits before the others are shown the bar
const WARN_LAST = 30;           // the person is warned this many seconds before a computer stands in
const NUDGE_SHOWN = 20;         // seconds the bar says who nudged the person

function clock(s) { return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; }

export class WaitBar {
  constructor(view) {
    this.view = view;
    this.el = h("section", { class: "waitbar", id: "waitbar", hidden: true, "aria-label": "Waiting", role: "status" });
    this.timer = 0;
    this.nudge = null;  // the last nudge we got: {name, at (ms)}
  }

  draw() {
    const st = this.view.st;
    const w = st.waiting;
    const me = st.you;
    const seated = me !== null && me !== undefined;
    const mine = seated ? st.table.seats[me] : null;
    clearInterval(this.timer);
    clear(this.el);
    this.el.className = `waitbar${this.nudge && Date.now() - this.nudge.at < 1500 ? " nudged" : ""}`;  // a shake goes on
    if (mine && mine.standin && st.game && st.game.phase !== "game-over") {
      this.el.hidden = false;
      this.el.classList.add("away");
      this.el.append(h("span", { id: "wait-text" }, "A computer player is playing for you: the others waited too long for your turn."),
        h("button", { type: "button", class: "primary", id: "im-back", "data-focus": "im-back",
          onclick: () => { if (this.view.conn.send({ type: "back" }) === null) toast("Not connected: try again once the page is back online.", "error"); } },
        "I'm back"));
      return;
    }
    if (!w) { this.el.hidden = true; return; }
    const seat = st.table.seats[w.seat] || { name: `Seat ${w.seat + 1}`, connected: false };
    const text = h("span", { id: "wait-text" });
    const nudge = seated && w.seat !== me && seat.connected
      ? h("button", { type: "button", id: "nudge", "data-focus": "nudge", title: `Remind ${seat.name} that it is their turn`,
        onclick: () => {
          if (this.view.conn.send({ type: "nudge", seat: w.seat }) === null) { toast("Not connected: the nudge was not sent.", "error"); return; }
          nudge.disabled = true;
          nudge.dataset.sent = "1";  // until the server's next state says when the next nudge may come
          toast(`You nudged ${seat.name}.`);
        } },
      `Nudge ${seat.name}`) : null;
    this.el.append(...[text, nudge].filter(Boolean));  // append() would write a null as "null"
    const tick = () => {
      const now = Date.now() / 1000;
      const left = w.standin_at === null ? null : Math.max(0, Math.ceil(w.standin_at - now));
      const waited = Math.max(0, Math.floor(now - w.since));
      if (w.seat === me) {
        const warn = left !== null && left <= WARN_LAST;
        const nudgedBy = this.nudge && Date.now() - this.nudge.at < NUDGE_SHOWN * 1000 ? this.nudge.name : null;
        this.el.hidden = !warn && !nudgedBy;
        this.el.classList.toggle("urgent", warn || Boolean(nudgedBy));
        text.textContent = warn ? `Still there? The others are waiting for you: a computer player plays your turn in ${left} s.`
          : nudgedBy ? `${nudgedBy} nudges you: it is your turn.` : "";
        return;
      }
      this.el.hidden = waited < SHOW_WAITING_AFTER && !(left !== null && left <= WARN_LAST);
      const standin = left === null ? "" : `: a computer player plays for them in ${left} s`;
      text.textContent = seat.connected ? `Waiting for ${seat.name} (${clock(waited)})${standin}.` : `${seat.name} is away${standin}.`;
      if (nudge && nudge.dataset.sent !== "1") nudge.disabled = now < w.nudge_at;
    };
    tick();
    this.timer = setInterval(tick, 1000);
  }

  stop() { clearInterval(this.timer); }

  // Somebody nudged us: the bar says so for a while, with a shake.
  shake(name) {
    this.nudge = { name, at: Date.now() };
    if (this.view.st) this.draw();
    this.el.classList.remove("nudged");
    void this.el.offsetWidth;  // so that the animation starts again
    this.el.classList.add("nudged");
  }
}

// Somebody nudged us: say so, and draw the eye (and the ear, briefly) to the table's wait bar.
export function nudged(msg, bar) {
  const text = `${msg.name} nudges you: it is your turn.`;
  bar.shake(msg.name);
  toast(text);
  announce(text, true);
  if (navigator.vibrate) navigator.vibrate(200);
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    gain.gain.value = 0.05;
    tone.frequency.value = 660;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
    tone.onended = () => audio.close();
  } catch { /* no sound where the browser allows none */ }
}
