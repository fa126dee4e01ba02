// The page: routes (/ the lobby, /join/INVITE a table), seat tokens in localStorage, the connection.
import { announce, clear, guideDialog, h, nudged, toast } from "./dom.js";
import { Connection } from "./net.js";
import { ManipulationTableView } from "./manipulation.js";
import { TableView } from "./table.js";

const main = document.getElementById("main");
const statusEl = document.getElementById("conn-status");
let api = null;
let conn = null;
let tableView = null;

const seatKey = (invite) => `shanghai:seat:${invite}`;

export function savedSeat(invite) {
  try { return JSON.parse(localStorage.getItem(seatKey(invite)) || "null"); } catch { return null; }
}

function saveSeat(invite, info) {
  localStorage.setItem(seatKey(invite), JSON.stringify(info));
  if (info.table) localStorage.setItem(`shanghai:table:${info.table}`, JSON.stringify({ invite, ...info }));
}

function forgetSeat(invite) {
  const info = savedSeat(invite);
  localStorage.removeItem(seatKey(invite));
  if (info && info.table) localStorage.removeItem(`shanghai:table:${info.table}`);
}

// every seat this browser keeps, the latest used first
function savedSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith("shanghai:seat:")) {
      try { out.push({ invite: key.slice(14), ...JSON.parse(localStorage.getItem(key)) }); } catch { /* skip */ }
    }
  }
  return out.sort((a, b) => (b.at || 0) - (a.at || 0));
}

// the tables to come back to: not a seat a rematch moved on, nor a finished game (both are under Your games)
const myTables = () => savedSeats().filter((s) => !s.moved && s.status !== "over").slice(0, 6);

async function getJSON(url, body) {
  const resp = await fetch(url, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error(data.message || `the server answered ${resp.status}`);
  return data;
}

function setStatus(s) {
  statusEl.textContent = { connecting: "Connecting…", reconnecting: "Connection lost: reconnecting…", connected: "" }[s] || "";
  statusEl.className = `conn-status ${s}`;
  if (s === "reconnecting") announce("Connection lost. Reconnecting.");
}

function route() {
  const m = location.pathname.match(/^\/join\/([A-Za-z0-9_-]+)/);
  if (conn) { conn.stop(); conn = null; }
  dropTableView();
  if (m) openTable(m[1]); else renderCreate();
}

function dropTableView() {
  if (tableView && tableView.destroy) tableView.destroy();
  tableView = null;
}

// the computer levels that play a preset (the server lists them per preset; all of them otherwise)
function levelsFor(presetName) {
  const p = api && api.presets.find((x) => x.name === presetName);
  return (p && p.levels) || (api ? api.levels : ["greedy"]);
}

// -- the lobby: create a table ---------------------------------------------------------------------
const HOUSE_RULES = [
  { key: "buy_penalty", label: "Penalty cards with a buy", type: "number", min: 0, max: 3 },
  { key: "going_out", label: "Going out", type: "select",
    choices: [["play-all", "by playing every card"], ["discard-last", "only by discarding the last card"], ["either", "either way"]] },
  { key: "wild_limit", label: "Wilds in runs", type: "select",
    choices: [["none", "no limit"], ["no-adjacent-in-runs", "no two wilds side by side"], ["naturals-majority", "more naturals than wilds"]] },
  { key: "aces", label: "Aces", type: "select",
    choices: [["low-or-high", "low or high"], ["high-only", "high only"], ["low-only", "low only"]] },
  { key: "lay_off_on_going_down_turn", label: "Lay off on the turn you go down", type: "checkbox" },
  { key: "joker_points", label: "Points for a joker left in hand", type: "number", min: 0, max: 200 },
];

async function renderCreate() {
  document.title = "Shanghai Rummy";
  clear(main);
  main.className = "lobby";
  try { api = api || await getJSON("/api"); } catch (e) { main.append(h("p", { class: "error" }, `The server cannot be reached: ${e.message}`)); return; }
  const presetSel = h("select", { id: "preset", name: "preset" },
    api.presets.map((p) => h("option", { value: p.name }, `${p.name} — ${p.title}`)));
  const desc = h("p", { id: "preset-desc", class: "desc" });
  const guideBtn = h("button", { type: "button", id: "lobby-guide", class: "subtle" }, "How to play these rules");
  const options = h("fieldset", { class: "options" });
  const seatsBox = h("div", { id: "seats", class: "seat-list" });
  const count = h("input", { id: "players", type: "number", min: 3, max: 8, value: 4 });
  const nameIn = h("input", { id: "name", name: "name", required: true, maxlength: 24, autocomplete: "nickname",
    value: localStorage.getItem("shanghai:name") || "" });
  const houseBox = h("div", { class: "house-grid", id: "contract-house" });
  const targetScore = h("input", { id: "house-target_score", type: "number", min: 1, max: 1000, placeholder: "as the rules say" });
  const manipBox = h("div", { class: "house-grid", id: "manipulation-house", hidden: true },
    h("label", { for: "house-target_score" }, "Target score (whoever reaches it loses)"), targetScore);
  const house = {};
  for (const r of HOUSE_RULES) {
    let input;
    const id = `house-${r.key}`;
    if (r.type === "select") {
      input = h("select", { id }, h("option", { value: "" }, "as the rules say"), r.choices.map(([v, t]) => h("option", { value: v }, t)));
    } else if (r.type === "checkbox") {
      input = h("select", { id }, h("option", { value: "" }, "as the rules say"), h("option", { value: "true" }, "yes"), h("option", { value: "false" }, "no"));
    } else {
      input = h("input", { id, type: "number", min: r.min, max: r.max, placeholder: "as the rules say" });
    }
    house[r.key] = [r, input];
    houseBox.append(h("label", { for: id }, r.label), input);
  }
  const buySeconds = h("input", { id: "buy-seconds", type: "number", min: 0, max: 600, value: api.settings.buy_seconds });
  const botPause = h("input", { id: "bot-pause", type: "number", min: 0, max: 30, step: 0.1, value: api.settings.bot_pause });
  const buyRow = h("div", { class: "house-pair" }, h("label", { for: "buy-seconds" }, "Seconds to answer a buy"), buySeconds);
  const takeBack = h("input", { id: "take-back-seconds", type: "number", min: 0, max: 30, step: "any", value: api.settings.take_back_seconds ?? 2 });
  const idle = h("input", { id: "idle-seconds", type: "number", min: 0, max: 3600, step: "any", value: api.settings.idle_seconds ?? 120 });
  const idleRow = h("div", { class: "house-pair" },
    h("label", { for: "idle-seconds" }, "Seconds before a computer player plays for a person who keeps the others waiting (0: never)"), idle);
  const takeBackRow = h("div", { class: "house-pair" },
    h("label", { for: "take-back-seconds" }, "Seconds to take back a discard (against computer players)"), takeBack);
  const standin = h("input", { id: "standin-seconds", type: "number", min: 0, max: 3600, step: "any", value: api.settings.standin_seconds ?? 30 });
  const standinRow = h("div", { class: "house-pair" },
    h("label", { for: "standin-seconds" }, "Seconds before a computer player plays for a person whose connection dropped"), standin);
  const hints = h("input", { id: "hints", type: "checkbox", checked: api.settings.hints !== false });
  const hintsRow = h("label", { class: "check", for: "hints" }, hints, " Hints: the coach's advice, for whoever asks (H)");

  const levelOptions = (selected) => [h("option", { value: "human" }, "A person (invite)"),
    ...levelsFor(presetSel.value).map((l) => h("option", { value: l, selected: l === selected }, `Computer: ${l}`))];
  function drawSeats() {
    const n = Math.max(Number(count.min), Math.min(Number(count.max), Number(count.value) || 4));
    const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    clear(seatsBox);
    seatsBox.append(h("div", { class: "seat-row" }, h("span", {}, "Seat 1"), h("span", { class: "you" }, "You (host)")));
    for (let i = 1; i < n; i++) {
      const sel = h("select", { id: `seat-${i}`, "aria-label": `Seat ${i + 1}` }, levelOptions(api.default_level));
      if (old[i - 1] && [...sel.options].some((o) => o.value === old[i - 1])) sel.value = old[i - 1];
      seatsBox.append(h("div", { class: "seat-row" }, h("label", { for: `seat-${i}` }, `Seat ${i + 1}`), sel));
    }
  }
  function presetChanged() {
    const p = api.presets.find((x) => x.name === presetSel.value);
    desc.textContent = p.description;
    count.min = p.min_players; count.max = p.max_players;
    clear(options);
    if (p.options.length) {
      options.append(h("legend", {}, "Options"));
      for (const o of p.options) {
        options.append(h("label", { class: "check" }, h("input", { type: "checkbox", value: o, name: "option" }), ` ${o}`));
      }
    }
    options.hidden = !p.options.length;
    const manipulation = p.game === "manipulation";
    houseBox.hidden = manipulation;
    manipBox.hidden = !manipulation;
    targetScore.placeholder = p.target_score ? `${p.target_score} (as the rules say)` : "as the rules say";
    buyRow.hidden = manipulation;
    takeBackRow.hidden = manipulation;
    if (Number(count.value) < p.min_players) count.value = p.min_players;
    if (Number(count.value) > p.max_players) count.value = p.max_players;
    drawSeats();
  }
  presetSel.addEventListener("change", presetChanged);
  count.addEventListener("change", drawSeats);
  const err = h("p", { class: "error", role: "alert", id: "create-error" });
  const form = h("form", { id: "create-form", class: "panel" },
    h("h2", {}, "Start a table"),
    h("label", { for: "name" }, "Your name"), nameIn,
    h("label", { for: "preset" }, "Rule set"), presetSel, desc, guideBtn, options,
    h("label", { for: "players" }, "Players"), count, seatsBox,
    h("details", { class: "house" }, h("summary", {}, "House rules and timing"), houseBox, manipBox,
      h("div", { class: "house-grid" }, buyRow, takeBackRow, idleRow, standinRow, h("label", { for: "bot-pause" }, "Computer players' pause (s)"), botPause),
      hintsRow),
    err,
    h("button", { type: "submit", class: "primary", id: "create" }, "Create the table"));
  // the rules as chosen on the form: the preset, its options and the house rules
  function chosenRules() {
    const changes = {};
    const preset = api.presets.find((x) => x.name === presetSel.value);
    if (preset && preset.game === "manipulation") {
      if (targetScore.value !== "") changes.target_score = Number(targetScore.value);
    } else {
      for (const [key, [r, input]] of Object.entries(house)) {
        if (input.value === "") continue;
        changes[key] = r.type === "number" ? Number(input.value) : r.type === "checkbox" ? input.value === "true" : input.value;
      }
    }
    return { preset: presetSel.value, options: [...options.querySelectorAll("input:checked")].map((i) => i.value), changes };
  }
  guideBtn.addEventListener("click", () => guideDialog("/api/guide", { rules: chosenRules() }));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const body = {
      name: nameIn.value.trim(),
      rules: chosenRules(),
      seats: ["human", ...[...seatsBox.querySelectorAll("select")].map((s) => s.value)],
      settings: { buy_seconds: Number(buySeconds.value), bot_pause: Number(botPause.value), take_back_seconds: Number(takeBack.value),
        idle_seconds: Number(idle.value), standin_seconds: Number(standin.value), hints: hints.checked },
    };
    try {
      const out = await getJSON("/api/tables", body);
      localStorage.setItem("shanghai:name", body.name);
      saveSeat(out.invite, { token: out.token, table: out.table, seat: out.seat, name: body.name, at: Date.now() });
      history.pushState({}, "", out.invite_path);
      route();
    } catch (e) { err.textContent = e.message; }
  });
  const mine = myTables();
  main.append(h("header", { class: "hero" }, h("h1", {}, "Shanghai Rummy"),
    h("p", {}, "Contract rummy and manipulation rummy with friends and computer players. No account: share the table's link.")), form);
  if (mine.length) {
    main.append(h("section", { class: "panel", "aria-labelledby": "mine-h" }, h("h2", { id: "mine-h" }, "Your tables"),
      h("ul", { class: "mine", id: "mine" }, mine.map((t) => h("li", {}, h("a", { href: `/join/${t.invite}` }, tableLabel(t)))))));
  }
  const games = h("section", { class: "panel", id: "history", "aria-labelledby": "history-h", "aria-busy": "true" },
    h("h2", { id: "history-h" }, "Your games"), h("p", { class: "desc" }, "Looking up your games…"));
  main.append(games);
  showHistory(games);
  presetChanged();
  nameIn.focus();
}

// "Shanghai Rummy (Isra), playing, as Ann, joined 6 Dec, 14:32": a kept seat in words
function tableLabel(t) {
  const when = t.at ? new Date(t.at).toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }) : null;
  const status = { lobby: "waiting to start", playing: "playing" }[t.status];
  return [t.title || "A table", status, `as ${t.name || "you"}`, when ? `last seen ${when}` : null].filter(Boolean).join(", ");
}

// -- the lobby: the games this browser played, and how its player does ------------------------------------
const HISTORY_SEATS = 150;  // the seats POST /api/history takes at once (the latest used, where there are more)
const FINISHED_SHOWN = 20;  // the finished games listed (the latest)

async function showHistory(section) {
  const seats = savedSeats().filter((s) => typeof s.token === "string").slice(0, HISTORY_SEATS);
  let out = { games: [], stats: [], recent: 5 };
  try {
    if (seats.length) out = await getJSON("/api/history", { seats: seats.map((s) => ({ invite: s.invite, token: s.token })) });
  } catch {
    section.replaceChildren(section.firstChild, h("p", { class: "desc", id: "history-failed" }, "Your games cannot be looked up just now."));
    section.removeAttribute("aria-busy");
    return;
  }
  const finished = out.games.filter((g) => g.finished);
  const body = [];
  if (!finished.length) body.push(h("p", { class: "desc", id: "history-none" }, "No finished games yet."));
  if (out.stats.length) {
    body.push(h("h3", {}, "Your record"),
      h("ul", { class: "history-stats", id: "history-stats" }, out.stats.map((s) => h("li", { dataset: { preset: s.preset } },
        h("strong", {}, s.preset), `: ${statsText(s, out.recent)}`))));
  }
  if (finished.length) {
    const shown = finished.slice(-FINISHED_SHOWN).reverse();
    // the players under each game's link: three columns fit a phone
    body.push(h("table", { class: "score-table history-games", id: "history-games" },
      h("caption", {}, shown.length < finished.length ? `The latest ${shown.length} of your ${finished.length} finished games`
        : "Your finished games, the latest first"),
      h("thead", {}, h("tr", {}, ["Game and players", "Your total", "Result"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, shown.map((g) => h("tr", { dataset: { invite: g.invite } },
        // a seat a rematch moved on: its token opens the next game, so this one is watched (and replayed)
        h("th", { scope: "row" }, h("a", { href: g.past ? `/join/${g.invite}?watch` : `/join/${g.invite}` }, `${g.preset}, ${new Date(g.created * 1000).toLocaleDateString()}`),
          h("span", { class: "players" }, g.players.map((n, i) => (i === g.seat ? `${n} (you)` : n)).join(", "))),
        h("td", { class: "num" }, String(g.totals[g.seat])),
        h("td", { class: "place" }, placeText(g)))))));
  }
  section.replaceChildren(section.firstChild, ...body);
  section.removeAttribute("aria-busy");
}

// one preset's statistics in a line: the server works them out (shanghai.scorepad.stats); lower totals are better
function statsText(s, recent) {
  const parts = [`${s.games} ${s.games === 1 ? "game" : "games"}`,
    `${s.wins} won (${Math.round(100 * s.win_rate)}%)`, `average ${Math.round(s.average)}`];
  if (s.games > recent) {  // with fewer games the last ones are all of them: no trend to tell
    const margin = Math.max(5, 0.1 * s.average);  // a few points either way are the deal's luck, not a trend
    const trend = s.recent_average < s.average - margin ? "trending better"
      : s.recent_average > s.average + margin ? "trending worse" : "steady";
    parts.push(`last ${recent}: ${Math.round(s.recent_average)}, ${trend}`);
  }
  parts.push(`best ${s.best}`, `wins in a row: ${s.current_streak} now, ${s.longest_streak} at most`);
  return parts.join(" · ");
}

// "Won", "Won (shared)" or "2nd of 4": a place by total (the lowest wins; a tie shares the place)
function placeText(g) {
  if (g.winners.includes(g.seat)) return g.winners.length > 1 ? "Won (shared)" : "Won";
  const place = 1 + g.totals.filter((t) => t < g.totals[g.seat]).length;
  return `${place}${["st", "nd", "rd"][place - 1] || "th"} of ${g.totals.length}`;  // 8 players at most
}

// -- a table: join it, or come back to it ------------------------------------------------------------
function invitationFails(message) {
  clear(main);
  main.className = "lobby";
  main.append(h("section", { class: "panel" }, h("h2", {}, "This invitation does not work"), h("p", {}, message),
    h("a", { href: "/" }, "Start a new table")));
}

async function openTable(invite) {
  if (new URLSearchParams(location.search).has("watch")) { connect(invite, null); return; }
  const saved = savedSeat(invite);
  if (saved && saved.token) { connect(invite, saved.token); return; }
  clear(main);
  main.className = "lobby";
  let info;
  try { info = await getJSON(`/api/invite/${invite}`); } catch (e) { invitationFails(e.message); return; }
  const nameIn = h("input", { id: "join-name", required: true, maxlength: 24, value: localStorage.getItem("shanghai:name") || "" });
  const err = h("p", { class: "error", role: "alert" });
  const open = info.seats.filter((s) => s.open);
  const form = h("form", { class: "panel", id: "join-form" },
    h("h2", {}, `Join a table: ${info.rules_title}`),
    seatList(info, null),
    open.length ? [h("label", { for: "join-name" }, "Your name"), nameIn, err,
      h("button", { class: "primary", type: "submit", id: "join" }, "Take a seat")]
      : h("p", {}, "Every seat is taken."),
    h("p", {}, h("a", { href: "#", id: "watch", onclick: (ev) => { ev.preventDefault(); connect(invite, null); } }, "Watch as a spectator")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const out = await getJSON(`/api/invite/${invite}/join`, { name: nameIn.value.trim() });
      localStorage.setItem("shanghai:name", nameIn.value.trim());
      saveSeat(invite, { token: out.token, table: out.table, seat: out.seat, name: nameIn.value.trim(), at: Date.now() });
      connect(invite, out.token);
    } catch (e) { err.textContent = e.message; }
  });
  main.append(h("header", { class: "hero" }, h("h1", {}, "Shanghai Rummy")), form);
  nameIn.focus();
}

export function seatList(table, you) {
  return h("ul", { class: "seats", "aria-label": "Seats" }, table.seats.map((s) => h("li", { class: s.open ? "open" : "" },
    h("span", { class: `dot ${s.kind === "bot" ? "bot" : s.connected ? "on" : "off"}`, "aria-hidden": "true" }),
    h("span", { class: "seat-name" }, s.open ? `Seat ${s.seat + 1}: open` : s.name),
    s.seat === table.host_seat ? h("span", { class: "tag" }, "host") : null,
    s.seat === you ? h("span", { class: "tag you" }, "you") : null,
    s.kind === "bot" ? h("span", { class: "tag" }, `computer (${s.level})`) : s.open ? null
      : h("span", { class: "tag" }, s.connected ? "here" : "away"))));
}

function connect(invite, token) {
  clear(main);
  main.className = "table-page";
  main.append(h("p", { class: "loading" }, "Joining the table…"));
  dropTableView();
  conn = new Connection({
    token, invite, onStatus: setStatus,
    onMessage: (msg) => onMessage(invite, token, msg),
  });
}

function onMessage(invite, token, msg) {
  if (msg.type === "state") {
    if (token && msg.table.invite !== invite) {
      // a seat token a rematch moved on (an old link): this is the next game, and the page says so
      moveSeat(invite, msg.table.invite, msg.table.id, msg.you, token);
      toast("The host started a rematch: this is the new game (the finished one is under Your games).");
      onMessage(msg.table.invite, token, msg);
      return;
    }
    if (token) {
      const s = savedSeat(invite);
      if (s) { s.at = Date.now(); s.title = msg.table.rules_title; s.status = msg.table.status; saveSeat(invite, s); }
    }
    if (msg.table.status === "lobby") { dropTableView(); renderWaiting(invite, msg); return; }
    const View = msg.table.game === "manipulation" ? ManipulationTableView : TableView;
    if (tableView && !(tableView instanceof View)) dropTableView();
    if (!tableView) { clear(main); tableView = new View(main, conn, invite); }
    tableView.update(msg);
  } else if (msg.type === "error") {
    if (["bad-token", "not-found"].includes(msg.code) && !msg.version) {
      conn.stop();
      if (!token) { dropTableView(); invitationFails(msg.message); return; }  // watching a table that is gone
      forgetSeat(invite);
      toast("Your seat is no longer yours (the host may have removed it). Join again.", "error");
      openTable(invite);
      return;
    }
    if (tableView) tableView.refused(msg); else toast(msg.message, "error");
  } else if (msg.type === "nudge" && tableView) {
    nudged(msg, tableView.wait);
  } else if (msg.type === "hint" && tableView) {
    tableView.hint(msg);
  } else if (msg.type === "review" && tableView && tableView.review) {
    tableView.review(msg);
  } else if (msg.type === "rematch") {
    moveSeat(invite, msg.invite, msg.table, msg.seat, token);
    announce("The host started a rematch.");
  }
}

// A rematch moved this seat's token on to the next game: keep the seat under the new invitation (the old
// one stays for the history of finished games, marked as moved), and follow it.
function moveSeat(invite, next, table, seat, token) {
  const s = savedSeat(invite);
  if (s) {
    saveSeat(next, { ...s, table, seat, at: Date.now(), moved: undefined, status: undefined });
    localStorage.setItem(seatKey(invite), JSON.stringify({ ...s, moved: next }));
  }
  history.replaceState({}, "", `/join/${next}`);
  if (conn) conn.onMessage = (m) => onMessage(next, token, m);
}

function renderWaiting(invite, st) {
  const focused = document.activeElement && document.activeElement.id;
  const level = document.getElementById("bot-level")?.value;
  renderWaitingRoom(invite, st);
  if (level) document.getElementById("bot-level").value = level;
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
}

function renderWaitingRoom(invite, st) {
  clear(main);
  main.className = "lobby";
  const link = `${location.origin}/join/${st.table.invite}`;
  const levelSel = h("select", { id: "bot-level", "aria-label": "Computer level" }, levelsFor(st.table.rules.preset).map((l) => h("option", { value: l }, l)));
  const copyBtn = h("button", { type: "button", id: "copy-invite", onclick: async () => {
    try { await navigator.clipboard.writeText(link); toast("Invitation link copied."); } catch {
      const input = document.getElementById("invite-link"); input.select(); toast("Select the link and copy it.");
    }
  } }, "Copy link");
  const seated = st.table.seats.filter((s) => !s.open).length;
  main.append(h("header", { class: "hero" }, h("h1", {}, "Shanghai Rummy"), h("p", {}, st.table.rules_title)),
    h("section", { class: "panel", id: "waiting" },
      h("h2", {}, "Waiting for players"),
      h("label", { for: "invite-link" }, "Invitation link: send it to the people you want to play with"),
      h("div", { class: "row" }, h("input", { id: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() }), copyBtn),
      seatList(st.table, st.you),
      st.host ? h("div", { class: "row host-tools" },
        h("button", { type: "button", id: "add-bot", onclick: () => conn.send({ type: "add_bot", level: levelSel.value }) }, "Add a computer player"), levelSel,
        st.table.seats.filter((s) => s.seat !== st.table.host_seat).map((s) => h("button", { type: "button", class: "subtle", id: `remove-seat-${s.seat}`,
          onclick: () => conn.send({ type: "remove_seat", seat: s.seat }) }, `Remove seat ${s.seat + 1}`))) : null,
      st.host ? h("button", { type: "button", class: "primary", id: "start", onclick: () => conn.send({ type: "start" }) },
        `Start the game (${seated} seated; open seats get computer players)`)
        : h("p", { class: "waiting-note" }, "The host will start the game.")));
  if (!api) {
    // a page opened on the table's link has not asked the server for its levels yet: the list fills in
    getJSON("/api").then((a) => {
      api = a;
      if (!levelSel.isConnected) return;
      const keep = levelSel.value;
      clear(levelSel);
      for (const l of levelsFor(st.table.rules.preset)) levelSel.append(h("option", { value: l, selected: l === keep }, l));
    }).catch(() => {});
  }
}

// for tests and the curious: the live connection (closing its socket shows the reconnection at work)
window.shanghaiDebug = { get conn() { return conn; } };
window.addEventListener("popstate", route);
route();
