// Small DOM helpers: h() builds elements, announce() speaks through the ARIA live region.

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
