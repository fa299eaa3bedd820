// The replay and analysis board: a record stepped through decision by decision
// (buttons, arrow keys, Home/End, a click on a move), every hand shown, and each
// card decision judged as `tresillo analyze --pimc` judges it (docs/SERVE.md).
// The cards are drawn by cards.js, as on the table.
"use strict";

const app = document.getElementById("app");
const GLYPH = { blunder: "??", mistake: "?", inaccuracy: "?!" };
const board = { id: null, hand: 1, data: null, pos: 0, analysis: null, source: null };

function params() {
  const q = new URLSearchParams(location.hash.slice(1));
  return { hand: +(q.get("hand") || 1), pos: q.has("pos") ? +q.get("pos") : null };
}
function setHash() {
  history.replaceState(null, "", `#hand=${board.hand}&pos=${board.pos}`);
}

async function index() {
  document.getElementById("subtitle").textContent = "records";
  const list = await api("GET", "/api/replay");
  const items = list.files.map((f) => el("li", {}, el("a", { href: `/replay/${f.id}` }, f.name), ` (${f.hands} hand${f.hands === 1 ? "" : "s"})`));
  app.replaceChildren(
    el("h2", {}, "Replay and analysis"),
    items.length ? el("ul", { id: "files" }, items) : el("p", {}, "No record files were opened (tresillo serve --open FILE)."),
    el("p", {}, "A game played here is replayed from its own page (the link under its score)."));
}

async function openSource(id) {
  board.id = id;
  board.source = await api("GET", `/api/replay/${id}`);
  document.getElementById("subtitle").textContent = board.source.name;
  if (!board.source.hands.length) {
    app.replaceChildren(el("p", {}, "No finished hand yet."));
    return;
  }
  const p = params();
  await openHand(Math.min(Math.max(p.hand, 1), board.source.hands.length), p.pos);
}

async function openHand(k, pos) {
  board.hand = k;
  board.data = await api("GET", `/api/replay/${board.id}/${k}`);
  board.pos = pos === null || pos === undefined ? 0 : Math.min(Math.max(pos, 0), board.data.positions.length - 1);
  board.analysis = null;
  render();
  loadAnalysis(board.id, k);
}

async function loadAnalysis(id, k) {
  for (;;) {
    if (board.id !== id || board.hand !== k) return;
    const r = await fetch(`/api/replay/${id}/${k}/analysis`);
    const data = await r.json().catch(() => ({ status: "failed", error: `HTTP ${r.status}` }));
    if (board.id !== id || board.hand !== k) return;
    if (r.status !== 202) {
      board.analysis = data;
      render();
      return;
    }
    await new Promise((res) => setTimeout(res, 600));
  }
}

function go(i) {
  if (!board.data) return;
  board.pos = Math.min(Math.max(i, 0), board.data.positions.length - 1);
  setHash();
  render();
}

function judged(index) {
  const a = board.analysis;
  if (!a || a.status !== "done") return null;
  return a.cards.find((c) => c.index === index) || null;
}

function render() {
  const d = board.data;
  const at = d.positions[board.pos];
  const last = d.positions.length - 1;
  const judge = at.decision ? judged(board.pos + 1) : null;
  const hands = board.source.hands;
  const pick = el("select", { id: "hand", onchange: (e) => openHand(+e.target.value, 0) },
    hands.map((h) => el("option", { value: h.hand, selected: h.hand === board.hand ? "" : null }, `hand ${h.hand}: ${h.contract || "no contract"}`)));
  const btn = (label, title, to, id) => el("button", { type: "button", id, title, onclick: () => go(to), disabled: (to < 0 || to > last || to === board.pos) ? "" : null }, label);
  const controls = el("div", { class: "controls" },
    hands.length > 1 ? pick : null,
    btn("|◀", "first (Home)", 0, "first"), btn("◀", "back (←)", board.pos - 1, "prev"),
    btn("▶", "forward (→)", board.pos + 1, "next"), btn("▶|", "last (End)", last, "last"),
    el("span", { id: "where" }, `decision ${Math.min(board.pos + 1, last)} of ${last}${board.pos === last ? " (end)" : ""}`));
  const info = el("div", { class: "info" },
    el("span", {}, `${d.rules}, ${d.players} players`),
    el("span", {}, `dealer seat ${d.dealer}`),
    at.contract ? el("span", {}, `contract ${at.contract} by seat ${at.declarer}`) : null,
    at.trump ? el("span", {}, `trumps ${suitName(at.trump)}`) : null,
    el("span", {}, `result: ${d.outcome}`));
  app.replaceChildren(info, controls, seatsPanel(at, judge), feltPanel(at), el("div", { class: "panels" }, decisionPanel(at, judge), movesPanel()));
}

function suitName(l) {
  const s = board.data.suits.find(([x]) => x === l);
  return s ? s[1] : l;
}

function seatsPanel(at, judge) {
  const d = board.data;
  const mover = at.decision ? at.decision.seat : null;
  return el("div", { class: "board-seats" }, at.hands.map((cards, s) => {
    const tags = [];
    if (s === d.dealer) tags.push("dealer");
    if (s === at.declarer) tags.push("declarer");
    const byCard = {};
    if (judge && s === mover) for (const c of judge.cards) byCard[c.card] = c;
    const row = el("div", { class: "hand" }, cards.map((c) => {
      const j = byCard[c];
      const played = at.decision && at.decision.seat === s && at.decision.act.play === c;
      const e = cardEl(c, { cls: [played ? "played" : "", j && j.best ? "best" : ""].join(" ").trim() });
      if (j) e.append(el("span", { class: "tag" }, `${j.name}${j.pimc === null ? "" : " " + j.pimc.toFixed(2)}`));
      return e;
    }));
    return el("div", { class: "seat" + (s === mover ? " turn" : ""), "data-seat": s },
      el("div", {}, el("span", { class: "name" }, `seat ${s}`), ` ${d.agents[s]}`, tags.length ? ` (${tags.join(", ")})` : "", `; tricks ${at.tricks[s]}`),
      row,
      at.discards[s].length ? el("small", {}, `discarded ${at.discards[s].join(" ")}`) : null);
  }));
}

function feltPanel(at) {
  const fig = ([s, c]) => el("figure", {}, cardEl(c, { cls: "small" }), el("figcaption", {}, `seat ${s}`));
  const kids = [];
  if (at.trick.length) kids.push(el("div", {}, `trick ${at.tricks_done + 1}`), el("div", { class: "trick", id: "trick" }, at.trick.map(fig)));
  else if (at.last_trick) kids.push(el("div", {}, `trick ${at.tricks_done}, won by seat ${at.last_trick.winner}`), el("div", { class: "trick last", id: "trick" }, at.last_trick.cards.map(fig)));
  else kids.push(el("div", {}, `${at.phase}`));
  if (at.heap.length) kids.push(el("div", {}, `heap: ${at.heap.length} card${at.heap.length === 1 ? "" : "s"}`));
  return el("div", { class: "felt" }, kids);
}

function decisionPanel(at, judge) {
  const kids = [el("h3", {}, "Decision")];
  if (!at.decision) {
    kids.push(el("p", {}, `End of the hand: ${board.data.outcome}`));
    return el("div", { class: "panel", id: "decision" }, kids);
  }
  kids.push(el("p", {}, `seat ${at.decision.seat}: ${at.decision.text}`));
  if (at.decision.act.play === undefined) return el("div", { class: "panel", id: "decision" }, kids);
  const a = board.analysis;
  if (!a) {
    kids.push(el("p", { class: "analysing", id: "analysing" }, "The solver"));
  } else if (a.status !== "done") {
    kids.push(el("p", { class: "error" }, `analysis failed: ${a.error}`));
  } else if (!judge) {
    kids.push(el("p", {}, "Not judged (no contract to play for)."));
  } else {
    const mark = judge.mark ? el("span", { class: `mark-${judge.mark}` }, ` ${GLYPH[judge.mark]} ${judge.mark}`) : null;
    kids.push(el("p", { id: "verdict" }, judge.changed ? `worth ${judge.before} before, ${judge.after} after` : `worth ${judge.after}: value kept`, mark));
    kids.push(el("table", { class: "judge", id: "judge" },
      el("tr", {}, el("th", {}, "card"), el("th", {}, "exact"), el("th", {}, `pimc (${a.worlds} worlds)`)),
      judge.cards.map((c) => el("tr", { class: [c.card === judge.played ? "played" : "", c.best ? "best" : ""].join(" ").trim() },
        el("td", {}, c.card), el("td", {}, c.name), el("td", {}, c.pimc === null ? "-" : c.pimc.toFixed(2))))));
    kids.push(el("small", {}, `Exact: every hand known; pimc: mean class (${judge.declarer_side ? "higher" : "lower"} is better for this seat) over worlds drawn from what the seat saw. ✓ keeps the value.`));
  }
  return el("div", { class: "panel", id: "decision" }, kids);
}

function movesPanel() {
  const d = board.data;
  const items = d.positions.slice(0, -1).map((p, i) => {
    const j = p.decision.act.play !== undefined ? judged(i + 1) : null;
    const glyph = j && j.mark ? el("span", { class: `mark-${j.mark}`, title: j.mark }, ` ${GLYPH[j.mark]}`) : null;
    return el("li", { class: i === board.pos ? "current" : "", onclick: () => go(i) }, `seat ${p.decision.seat}: ${p.decision.text}`, glyph);
  });
  const list = el("ol", { class: "moves", id: "moves" }, items);
  setTimeout(() => { const c = list.querySelector(".current"); if (c) c.scrollIntoView({ block: "nearest" }); }, 0);
  return el("div", { class: "panel" }, el("h3", {}, "Moves"), list);
}

document.addEventListener("keydown", (e) => {
  if (!board.data || e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
  const to = { ArrowRight: board.pos + 1, ArrowLeft: board.pos - 1, Home: 0, End: board.data.positions.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  go(to);
});

const m = location.pathname.match(/^\/replay\/(f[0-9]+|[0-9a-f]{32})$/);
(m ? openSource(m[1]) : index()).catch((e) => app.replaceChildren(el("p", { class: "error" }, e.message)));
