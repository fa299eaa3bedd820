// The project's playing cards and small DOM helpers, shared by the table
// (app.js) and the replay board (replay.js): plain JavaScript, no build step.
"use strict";

const SUITS = {
  E: { name: "espadas", color: "#1d4f91" },
  B: { name: "bastos", color: "#2e6b1f" },
  C: { name: "copas", color: "#b0202a" },
  O: { name: "oros", color: "#a67c00" },
};
const NS = "http://www.w3.org/2000/svg";

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k);
  return e;
}
function svg(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// The suit's symbol, a shape of its own (readable without colour): oros a coin
// (rings), copas a goblet, espadas a straight sword, bastos a knotted club.
function suitSymbol(s, cx, cy, k, color) {
  const g = svg("g", { transform: `translate(${cx} ${cy}) scale(${k})`, fill: color, stroke: color });
  if (s === "O") {
    g.append(svg("circle", { r: 9, fill: "none", "stroke-width": 3 }));
    g.append(svg("circle", { r: 4, "stroke-width": 0 }));
  } else if (s === "C") {
    g.append(svg("path", { d: "M-9,-10 L9,-10 Q9,2 0,3 Q-9,2 -9,-10 Z", "stroke-width": 0 }));
    g.append(svg("rect", { x: -1.5, y: 3, width: 3, height: 6, "stroke-width": 0 }));
    g.append(svg("rect", { x: -6, y: 8, width: 12, height: 3, rx: 1, "stroke-width": 0 }));
  } else if (s === "E") {
    g.append(svg("path", { d: "M0,-13 L2.2,-9 L2.2,5 L-2.2,5 L-2.2,-9 Z", "stroke-width": 0 }));
    g.append(svg("rect", { x: -7, y: 5, width: 14, height: 2.4, "stroke-width": 0 }));
    g.append(svg("rect", { x: -1.4, y: 7.4, width: 2.8, height: 5, "stroke-width": 0 }));
    g.append(svg("circle", { cy: 13, r: 1.8, "stroke-width": 0 }));
  } else {
    g.append(svg("path", { d: "M-2,12 L-4,-8 Q0,-14 4,-8 L2,12 Z", "stroke-width": 0 }));
    for (const [x, y] of [[-4.5, -4], [4.3, -1], [-3.6, 4]]) g.append(svg("circle", { cx: x, cy: y, r: 2, "stroke-width": 0 }));
  }
  return g;
}

function cardFace(card) {
  const s = card.slice(-1), r = card.slice(0, -1);
  const color = SUITS[s].color;
  const root = svg("svg", { viewBox: "0 0 60 90", role: "img", "aria-label": `${r} of ${SUITS[s].name}` });
  root.append(svg("rect", { class: "face", x: 1, y: 1, width: 58, height: 88, rx: 5, fill: "#fffdf6", stroke: "#333", "stroke-width": 1.2 }));
  root.append(svg("rect", { x: 5, y: 5, width: 50, height: 80, rx: 3, fill: "none", stroke: color, "stroke-width": 0.8, "stroke-dasharray": s === "O" ? "1 2" : s === "C" ? "4 2" : s === "E" ? "none" : "6 1 1 1" }));
  const t = svg("text", { x: 8, y: 20, "font-size": 15, "font-weight": "bold", fill: color, "font-family": "sans-serif" });
  t.textContent = r;
  root.append(t);
  const l = svg("text", { x: 52, y: 82, "font-size": 11, "text-anchor": "end", fill: color, "font-family": "sans-serif" });
  l.textContent = s;
  root.append(l);
  root.append(suitSymbol(s, 30, 50, 1.35, color));
  return root;
}

function cardEl(card, opts) {
  const o = opts || {};
  const tag = o.onclick ? "button" : "span";
  const e = el(tag, { class: "card" + (o.cls ? " " + o.cls : ""), title: card, "data-card": card, onclick: o.onclick, type: o.onclick ? "button" : null });
  e.append(cardFace(card));
  return e;
}

async function api(method, path, body) {
  // Every POST is JSON (the server refuses any other Content-Type).
  const post = method !== "GET";
  const r = await fetch(path, { method, headers: post ? { "Content-Type": "application/json" } : {}, body: post ? JSON.stringify(body || {}) : undefined });
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw Object.assign(new Error(data.error || `HTTP ${r.status}`), { status: r.status });
  return data;
}

