// Cards drawn for this project as SVG (no outside artwork): faces, pips, jokers and the back.

const SUITS = { C: ["♣", "clubs", "black"], D: ["♦", "diamonds", "red"], H: ["♥", "hearts", "red"], S: ["♠", "spades", "black"] };
const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king", 2: "two", 3: "three", 4: "four", 5: "five",
  6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten" };
export const RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUIT_ORDER = ["C", "D", "H", "S"];

export function parseCard(text) {
  if (text === "JK") return { joker: true, rank: "JK", suit: null };
  return { joker: false, rank: text.slice(0, -1), suit: text.slice(-1) };
}

export function cardName(text) {
  const c = parseCard(text);
  if (c.joker) return "joker";
  return `${RANK_NAMES[c.rank] || c.rank} of ${SUITS[c.suit][1]}`;
}

// What a wild stands for: a card in a run ("7D"), a rank in a set ("7") or anything ("any").
export function meaningName(text) {
  if (text === "any") return "any card";
  if (RANK_NAMES[text]) return `a ${RANK_NAMES[text]}`;
  return /^(10|[2-9AJQK])[CDHS]$/.test(text) ? cardName(text) : text;
}

export function meaningShort(text) {
  return /^(10|[2-9AJQK])[CDHS]$/.test(text) ? cardShort(text) : text;
}

export function cardShort(text) {
  const c = parseCard(text);
  return c.joker ? "Joker" : `${c.rank}${SUITS[c.suit][0]}`;
}

// Card texts (10C, JK) in the server's words ("lay off JK on meld 3 (run 7C 8C 9C)") shown as the page
// shows cards (7♣), also where a bracket or a mark follows them.
export function cardsInText(text) {
  return text.split(" ").map((w) => w.replace(/^(\(?)(JK|(?:10|[2-9JQKA])[SHDC])(?=[:,.;)]*$)/, (_, open, c) => open + cardShort(c))).join(" ");
}

export function isRed(text) {
  const c = parseCard(text);
  return !c.joker && SUITS[c.suit][2] === "red";
}

export function rankIndex(text) {
  const c = parseCard(text);
  return c.joker ? 99 : RANK_ORDER.indexOf(c.rank);
}

export function suitIndex(text) {
  const c = parseCard(text);
  return c.joker ? 9 : SUIT_ORDER.indexOf(c.suit);
}

const PIPS = {
  1: [],
  2: [[50, 30], [50, 110, 1]],
  3: [[50, 30], [50, 70], [50, 110, 1]],
  4: [[34, 30], [66, 30], [34, 110, 1], [66, 110, 1]],
  5: [[34, 30], [66, 30], [50, 70], [34, 110, 1], [66, 110, 1]],
  6: [[34, 30], [66, 30], [34, 70], [66, 70], [34, 110, 1], [66, 110, 1]],
  7: [[34, 30], [66, 30], [50, 50], [34, 70], [66, 70], [34, 110, 1], [66, 110, 1]],
  8: [[34, 30], [66, 30], [50, 50], [34, 70], [66, 70], [50, 90, 1], [34, 110, 1], [66, 110, 1]],
  9: [[34, 28], [66, 28], [34, 56], [66, 56], [50, 70], [34, 84, 1], [66, 84, 1], [34, 112, 1], [66, 112, 1]],
  10: [[34, 28], [66, 28], [50, 42], [34, 56], [66, 56], [34, 84, 1], [66, 84, 1], [50, 98, 1], [34, 112, 1], [66, 112, 1]],
};

function pip(x, y, sym, flip, size = 22) {
  const t = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<text x="${x}" y="${y}" font-size="${size}" text-anchor="middle" dominant-baseline="central"${t}>${sym}</text>`;
}

// The SVG markup of a card face (viewBox 100 x 140).
export function cardSVG(text) {
  const c = parseCard(text);
  const frame = `<rect x="1.5" y="1.5" width="97" height="137" rx="9" class="card-bg"/>`;
  if (c.joker) {
    return `<svg viewBox="0 0 100 140" class="card-svg joker" aria-hidden="true" focusable="false">${frame}
      <g class="ink-joker" font-family="Georgia, serif" font-weight="700">
        <text x="11" y="14" font-size="11" text-anchor="middle" writing-mode="tb">JOKER</text>
        <text x="89" y="126" font-size="11" text-anchor="middle" writing-mode="tb" transform="rotate(180 89 100)">JOKER</text>
        <path d="M50 30 L58 56 L85 56 L63 72 L71 98 L50 82 L29 98 L37 72 L15 56 L42 56 Z" class="joker-star"/>
        <circle cx="50" cy="66" r="7" class="joker-dot"/>
        <text x="50" y="118" font-size="13" text-anchor="middle">wild</text>
      </g></svg>`;
  }
  const [sym, , color] = SUITS[c.suit];
  const corner = `<g font-family="Georgia, 'DejaVu Serif', serif" font-weight="700">
      <text x="13" y="23" font-size="${c.rank === "10" ? 19 : 24}" text-anchor="middle"${c.rank === "10" ? ' letter-spacing="-2"' : ""}>${c.rank}</text>
      <text x="13" y="42" font-size="19" text-anchor="middle">${sym}</text>
      <g transform="rotate(180 50 70)">
        <text x="13" y="23" font-size="${c.rank === "10" ? 19 : 24}" text-anchor="middle"${c.rank === "10" ? ' letter-spacing="-2"' : ""}>${c.rank}</text>
        <text x="13" y="42" font-size="19" text-anchor="middle">${sym}</text>
      </g></g>`;
  let middle = "";
  if (c.rank === "A") {
    middle = pip(50, 72, sym, false, 54);
  } else if (["J", "Q", "K"].includes(c.rank)) {
    middle = `<rect x="24" y="22" width="52" height="96" rx="5" class="face-frame ${color}"/>
      <text x="50" y="62" font-size="40" text-anchor="middle" dominant-baseline="central" font-family="Georgia, serif" font-weight="700">${c.rank}</text>
      ${pip(50, 96, sym, false, 24)}`;
  } else {
    middle = PIPS[Number(c.rank)].map(([x, y, f]) => pip(x, y, sym, Boolean(f))).join("");
  }
  return `<svg viewBox="0 0 100 140" class="card-svg ${color}" aria-hidden="true" focusable="false">${frame}
    <g class="ink">${corner}${middle}</g></svg>`;
}

export function backSVG() {
  return `<svg viewBox="0 0 100 140" class="card-svg back" aria-hidden="true" focusable="false">
    <defs><pattern id="lattice" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="10" height="10" class="back-a"/><rect width="5" height="10" class="back-b"/></pattern></defs>
    <rect x="1.5" y="1.5" width="97" height="137" rx="9" class="back-edge"/>
    <rect x="8" y="8" width="84" height="124" rx="5" fill="url(#lattice)"/>
    <circle cx="50" cy="70" r="16" class="back-seal"/><text x="50" y="71" font-size="16" text-anchor="middle"
      dominant-baseline="central" class="back-letter" font-family="Georgia, serif" font-weight="700">S</text></svg>`;
}

// Each card's SVG is parsed once, then cloned (a table redraws often).
const parsed = new Map();
function svgNode(key, make) {
  let tpl = parsed.get(key);
  if (!tpl) {
    tpl = document.createElement("template");
    tpl.innerHTML = make(key).trim();
    parsed.set(key, tpl);
  }
  return tpl.content.firstElementChild.cloneNode(true);
}

// A card element. opts: {tag, small, label, extra attributes}
export function cardEl(text, opts = {}) {
  const el = document.createElement(opts.tag || "div");
  el.className = `card${opts.small ? " small" : ""}${opts.className ? ` ${opts.className}` : ""}`;
  el.dataset.card = text;
  el.append(svgNode(text, cardSVG));
  if (opts.label !== false) el.setAttribute("aria-label", opts.label || cardName(text));
  if (opts.tag !== "button" && opts.label !== false) el.setAttribute("role", "img");
  return el;
}

export function backEl(opts = {}) {
  const el = document.createElement(opts.tag || "div");
  el.className = `card back${opts.small ? " small" : ""}`;
  el.append(svgNode("back", backSVG));
  return el;
}

// Every order the rules allow for a run the player builds from these cards, lowest first, wilds in their
// places (the server reads a run by position): a gap between naturals takes a wild, and spare wilds may go
// on either end. rules: {aces: "low-or-high"|"high-only"|"low-only", wildLimit: "none"|
// "no-adjacent-in-runs"|"naturals-majority", runMin}. A wild in its own place (may-i's 2C in a club run)
// is natural there. Orders that differ only in which wild stands where are given once; the first puts
// spare wilds on the high end. Cards that make no run in any order (too few, mixed suits, a gap too wide)
// give one order, for the server to say why.
export function runArrangements(cards, isWild, rules = {}) {
  const aces = rules.aces || "low-or-high";
  const wilds = cards.filter(isWild);
  const naturals = cards.filter((c) => !isWild(c));
  if (!naturals.length || cards.length < (rules.runMin || 3)) return [orderRunLoosely(cards, isWild)];
  const suit = parseCard(naturals[0]).suit;
  if (naturals.some((c) => parseCard(c).suit !== suit)) return [orderRunLoosely(cards, isWild)];
  const hasAce = naturals.some((c) => rankIndex(c) === 0);
  // places 1 (ace low) .. 14 (ace high); an ace natural is low or high in turn
  const modes = [];
  if (aces !== "high-only") modes.push({ aceValue: 1, lo: 1, hi: hasAce || aces === "low-only" ? 13 : 14 });
  if (aces !== "low-only" && (hasAce || aces === "high-only")) modes.push({ aceValue: 14, lo: 2, hi: 14 });
  const fillings = distinctOrders(wilds);
  const out = [];
  const seen = new Set();
  for (const mode of modes) {
    const value = (c) => (rankIndex(c) === 0 ? mode.aceValue : rankIndex(c) + 1);
    const sorted = naturals.slice().sort((a, b) => value(a) - value(b));
    const low = value(sorted[0]);
    const high = value(sorted[sorted.length - 1]);
    const span = high - low + 1;
    if (span - sorted.length > wilds.length || new Set(sorted.map(value)).size < sorted.length) continue;
    const spare = wilds.length - (span - sorted.length);
    for (let above = spare; above >= 0; above--) {
      const below = spare - above;
      if (high + above > mode.hi || low - below < mode.lo) continue;
      const start = low - below;
      const layout = [];  // a natural, or null for a wild's place
      for (let place = start; place <= high + above; place++) layout.push(sorted.find((c) => value(c) === place) || null);
      for (const filling of fillings) {
        let k = 0;
        const run = layout.map((c) => c || filling[k++]);
        const acting = run.map((c, i) => isWild(c) && !(parseCard(c).suit === suit && rankIndex(c) + 1 === start + i));
        const nWild = acting.filter(Boolean).length;
        if (rules.wildLimit === "no-adjacent-in-runs" && acting.some((w, i) => i > 0 && w && acting[i - 1])) continue;
        if (rules.wildLimit === "naturals-majority" && nWild >= run.length - nWild) continue;
        const key = run.map((c, i) => (acting[i] ? "W" : c)).join(" ");
        if (!seen.has(key)) { seen.add(key); out.push(run); }
      }
    }
  }
  return out.length ? out : [orderRunLoosely(cards, isWild)];
}

// Every distinct order of these cards (a hand may hold two jokers: they are one card twice).
function distinctOrders(cards) {
  if (!cards.length) return [[]];
  const out = [];
  for (const c of [...new Set(cards)].sort()) {
    const rest = cards.slice();
    rest.splice(rest.indexOf(c), 1);
    for (const tail of distinctOrders(rest)) out.push([c, ...tail]);
  }
  return out;
}

// Lowest first with wilds in the gaps and the rest on the high end: for cards that make no run.
function orderRunLoosely(cards, isWild) {
  const wilds = cards.filter(isWild);
  const naturals = cards.filter((c) => !isWild(c)).sort((a, b) => rankIndex(a) - rankIndex(b));
  return [...naturals, ...wilds];
}

// -- the hand, in the player's own order (both tables keep it across reloads) ----------------------------

// How many times each card stands in a list (a hand may hold two of a card).
export function countOf(list) {
  const m = new Map();
  for (const x of list) m.set(x, (m.get(x) || 0) + 1);
  return m;
}

const orderKey = (invite) => `shanghai:order:${invite}`;

export function saveOrder(invite, order) {
  sessionStorage.setItem(orderKey(invite), JSON.stringify(order));
}

// The hand the server sent, in the order the player had it (null: as saved for this table); new cards go
// last. Returns {order, added, changed}; the order is saved.
export function keepOrder(invite, order, hand) {
  if (order === null) {
    try { order = JSON.parse(sessionStorage.getItem(orderKey(invite)) || "null"); } catch { order = null; }
    if (!Array.isArray(order)) order = [];
  }
  const want = countOf(hand);
  const kept = [];
  for (const c of order) {
    const n = want.get(c) || 0;
    if (n > 0) { kept.push(c); want.set(c, n - 1); }
  }
  const added = [];
  for (const c of hand) {
    const n = want.get(c) || 0;
    if (n > 0) { added.push(c); want.set(c, n - 1); }
  }
  const changed = kept.length !== order.length || added.length > 0;
  const out = kept.concat(added);
  saveOrder(invite, out);
  return { order: out, added, changed };
}

// Sorts the cards in place, by rank ("rank") or by suit.
export function sortCards(cards, how) {
  const key = how === "rank" ? (c) => rankIndex(c) * 10 + suitIndex(c) : (c) => suitIndex(c) * 100 + rankIndex(c);
  return cards.sort((a, b) => key(a) - key(b));
}

// A card of the hand as a toggle button; data-index and data-focus find it again after a redraw.
export function handCardEl(text, i, selected, opts = {}) {
  const b = cardEl(text, { ...opts, tag: "button" });
  b.type = "button";
  b.setAttribute("aria-pressed", selected ? "true" : "false");
  b.dataset.index = String(i);
  b.dataset.focus = `hand-${i}`;
  return b;
}
