// The tresillo table in the browser: plain JavaScript, no framework, no build
// step. Everything it shows comes from the JSON API (docs/SERVE.md); the choices
// offered are exactly the request's legal ones.
"use strict";

const app = document.getElementById("app");

// ---------- the new-game form ----------
async function setup() {
  document.getElementById("subtitle").textContent = "new game";
  const meta = await api("GET", "/api/meta");
  const rules = el("select", { name: "rules", id: "rules" }, meta.rules.map((r) => el("option", { value: r.name }, `${r.name} (section ${r.section})`)));
  const players = el("select", { name: "players", id: "players" });
  const seat = el("select", { name: "seat", id: "seat" });
  const opts = el("div", { class: "options" });
  const opps = el("div", { class: "opponents" });
  const hands = el("input", { type: "number", name: "hands", id: "hands", min: 1, max: 200, value: 1 });
  const seed = el("input", { type: "number", name: "seed", id: "seed", min: 0, placeholder: "random" });
  const msg = el("p", { class: "error", id: "error" });
  function refresh() {
    const r = meta.rules.find((x) => x.name === rules.value);
    const keepP = players.value;
    players.replaceChildren(...r.players.map((n) => el("option", { value: n }, `${n} players`)));
    if (r.players.includes(+keepP)) players.value = keepP;
    opts.replaceChildren(...r.options.map((o) => {
      const vals = o.values.split(",").map((v) => v.trim());
      const input = vals.length > 1 && vals.every((v) => /^[a-z0-9_-]+$/.test(v))
        ? el("select", { "data-option": o.name }, vals.map((v) => el("option", { value: v, selected: v === o.default ? "" : null }, v)))
        : el("input", { "data-option": o.name, value: o.default });
      return el("label", {}, `${o.name}`, input, el("small", {}, o.help));
    }));
    refreshSeats();
  }
  function refreshSeats() {
    const n = +players.value;
    const keep = seat.value;
    seat.replaceChildren(...Array.from({ length: n }, (_, i) => el("option", { value: i }, `seat ${i}`)));
    if (keep !== "" && +keep < n) seat.value = keep;
    opps.replaceChildren(...Array.from({ length: n - 1 }, (_, i) =>
      el("label", {}, `opponent ${i + 1} (seat ${(+seat.value + 1 + i) % n})`,
        el("select", { "data-opponent": i }, meta.agents.map((a) =>
          el("option", { value: a.name, title: a.help, selected: a.name === "rule" ? "" : null }, a.name))))));
  }
  rules.addEventListener("change", refresh);
  players.addEventListener("change", refreshSeats);
  seat.addEventListener("change", refreshSeats);
  const form = el("form", { class: "setup", id: "setup" },
    el("h2", {}, "New game"),
    el("label", {}, "Rule set", rules),
    el("label", {}, "Table", players),
    el("label", {}, "Your seat", seat),
    el("fieldset", {}, el("legend", {}, "Options"), opts),
    el("fieldset", {}, el("legend", {}, "Opponents (the agents this server offers)"), opps),
    el("label", {}, "Hands (more than one: a session scored with the rule set's ledger)", hands),
    el("label", {}, "Seed (the deals; blank: drawn at random, kept in the records)", seed),
    el("button", { type: "submit", id: "start" }, "Start"), msg);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = meta.rules.find((x) => x.name === rules.value);
    const options = {};
    for (const i of opts.querySelectorAll("[data-option]")) {
      const o = r.options.find((x) => x.name === i.dataset.option);
      if (i.value !== o.default) options[o.name] = i.value;
    }
    const body = { rules: rules.value, players: +players.value, seat: +seat.value, hands: +hands.value, options,
      opponents: [...opps.querySelectorAll("[data-opponent]")].map((i) => i.value) };
    if (seed.value !== "") body.seed = Number(seed.value);
    try {
      const g = await api("POST", "/api/games", body);
      location.href = g.url;
    } catch (e) { msg.textContent = e.message; }
  });
  app.replaceChildren(form);
  refresh();
}

// ---------- the table ----------
// decisionsUrl, onDecided and onBusy: hooks of the study page (study.js), which
// draws its games with this table.
const state = { token: null, view: null, version: -1, selected: new Set(), busy: false, error: "",
  decisionsUrl: null, onDecided: null, onBusy: null };

function seatName(v, s) {
  return s === v.seat ? "you" : `${v.seats[s]}`;
}

async function decide(decision) {
  if (state.busy) return;
  state.busy = true;
  state.error = "";
  if (state.onBusy) state.onBusy(true);
  try {
    const url = state.decisionsUrl || `/api/games/${state.token}/decisions`;
    const v = await api("POST", url, { seq: state.view.seq, decision });
    state.selected.clear();
    (state.onDecided || show)(v);
  } catch (e) {
    state.error = e.message;
    render();
    // The game moved on without this page (another tab, a restart): the
    // current state is fetched at once, not left to the next poll.
    if (e.status === 409 && state.refresh) state.refresh();
  } finally {
    state.busy = false;
    if (state.onBusy) state.onBusy(false);
  }
}

// A view newer than the one shown replaces it (a decision's answer and a poll's
// may cross); `force`: the server's current view whatever its version.
function show(v, force) {
  if (!force && v.version < state.version) return;
  state.version = v.version;
  state.view = v;
  render();
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Long polls (`?wait=VERSION`: answered at the next change, or after 20 s)
// with exponential backoff on errors (0.5 s doubling to 30 s) and never more
// than about four requests a second: a server that restarts or fails is not
// flooded, and the page recovers by itself when it is back.
async function pollLoop(url, current, onView) {
  let backoff = 500;
  for (;;) {
    const started = Date.now();
    const asked = current();
    try {
      const v = await api("GET", url(asked));
      const wasError = state.error.startsWith("connection:");
      if (wasError) state.error = "";
      // Answered with a version below the one asked past: the server has
      // restarted (or read the game again): its view is the truth.
      onView(v, v.version < asked || wasError);
      backoff = 500;
    } catch (e) {
      state.error = `connection: ${e.message} (trying again in ${Math.round(backoff / 1000)} s)`;
      render();
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 30000);
    }
    const quick = Date.now() - started;
    if (quick < 250) await sleep(250 - quick);
  }
}

function poll() {
  const url = (version) => `/api/games/${state.token}` + (version >= 0 ? `?wait=${version}` : "");
  state.refresh = async () => {
    try { show(await api("GET", url(-1)), true); } catch (e) { /* the poll retries */ }
  };
  pollLoop(url, () => state.version, (v, force) => show(v, force));
}

function render() {
  const v = state.view;
  if (!v) {
    app.replaceChildren(el("p", { class: "error", id: "error" }, state.error || "Loading…"));
    return;
  }
  document.getElementById("subtitle").textContent = `${v.rules}, ${v.players} players`;
  const parts = [];
  const n = v.players;
  const info = el("div", { class: "info", id: "info" },
    el("span", {}, `Hand ${Math.min(v.hand + 1, v.hands)} of ${v.hands}`),
    v.view ? el("span", {}, `dealer: ${seatName(v, v.view.dealer)}`) : null,
    v.table && v.table.contract_name ? el("span", { id: "contract" }, `${v.table.contract_name} by ${seatName(v, v.view.declarer)}`) : null,
    v.table && v.table.trump_name ? el("span", { id: "trump" }, `trumps: ${v.table.trump_name}`) : null,
    el("span", { id: "status", "data-status": v.status }, statusText(v)));
  parts.push(info);
  const last = v.score.hands[v.score.hands.length - 1];
  if (last) parts.push(el("div", { class: "banner", id: "last-hand" }, `Hand ${last.hand + 1}: ${last.outcome}; `, last.change.map((c, s) => `${seatName(v, s)} ${c >= 0 ? "+" : ""}${c}`).join(", ")));
  if (v.status === "failed") parts.push(el("p", { class: "error" }, v.failure));
  if (v.view) {
    parts.push(el("div", { class: "seats" }, Array.from({ length: n }, (_, s) => {
      const bids = v.view.bids.filter((b) => b[0] === s).map((b) => b[1]).join(", ");
      const ex = v.view.exchanged[s];
      return el("div", { class: "seat" + (v.turn === s ? " turn" : ""), id: `seat-${s}` },
        el("div", { class: "name" + (v.thinking === s ? " thinking" : "") }, `seat ${s}: ${seatName(v, s)}`),
        el("div", {}, `tricks ${v.view.tricks[s]}` + (ex !== null && ex !== undefined ? `, exchanged ${ex}` : "")),
        bids ? el("div", {}, `auction: ${bids}`) : null);
    })));
    const felt = el("div", { class: "felt", id: "table" });
    if (v.view.current_trick.length) {
      felt.append(el("div", { class: "trick", id: "trick" }, v.view.current_trick.map((c, i) =>
        el("figure", {}, cardEl(c), el("figcaption", {}, seatName(v, v.view.current_trick_seats[i]))))));
    } else if (v.last_trick) {
      felt.append(el("div", {}, `last trick, won by ${seatName(v, v.last_trick.winner)}:`));
      felt.append(el("div", { class: "trick last" }, v.last_trick.cards.map(([s, c]) => el("figure", {}, cardEl(c), el("figcaption", {}, seatName(v, s))))));
    } else {
      felt.append(el("div", {}, v.table.turned ? "turned card:" : ""));
      if (v.table.turned) felt.append(cardEl(v.table.turned));
    }
    if (v.table.exposed) felt.append(el("div", {}, "declarer's hand, face up: ", v.table.exposed.map((c) => cardEl(c))));
    if (v.table.shown_heap.length) felt.append(el("div", {}, "heap, face up: ", v.table.shown_heap.map((c) => cardEl(c))));
    parts.push(felt);
    parts.push(requestPanel(v));
    parts.push(handPanel(v));
  }
  parts.push(el("p", { class: "error", id: "error" }, state.error));
  parts.push(el("div", { class: "panels" },
    v.history ? el("div", { class: "panel" }, el("h3", {}, "This hand"), el("ol", { id: "history" }, v.history.map((h) => el("li", {}, `${seatName(v, h.seat)}: ${h.text}`)))) : null,
    scorePanel(v)));
  app.replaceChildren(...parts.filter(Boolean));
}

function statusText(v) {
  switch (v.status) {
    case "your_turn": return "your turn";
    case "thinking": return `seat ${v.thinking} (${v.seats[v.thinking]}) is thinking`;
    case "waiting": return "waiting";
    case "over": return "session over";
    default: return v.status;
  }
}

function requestPanel(v) {
  const r = v.request;
  const box = el("div", { id: "request" });
  if (!r) return box;
  box.append(el("div", { class: "question", id: "question" }, r.question));
  if (r.kind === "discard") {
    const k = state.selected.size;
    const ok = k >= r.discard.min && k <= r.discard.max;
    box.append(el("div", { class: "choices" },
      el("button", { type: "button", id: "confirm-discard", disabled: ok ? null : "", onclick: () => decide({ discard: [...state.selected].join(" ") }) },
        k ? `Discard ${k} (Enter)` : `Discard nothing (Enter)`)));
  } else if (r.kind !== "play") {
    box.append(el("div", { class: "choices", id: "choices" }, r.choices.map((c, i) =>
      el("button", { type: "button", "data-choice": i, onclick: () => decide(c.decision) }, i < 9 ? el("kbd", {}, `${i + 1} `) : null, c.label))));
  }
  return box;
}

function handPanel(v) {
  const r = v.request;
  const hand = v.view.hand;
  const box = el("div", { class: "hand", id: "hand", "aria-label": "your hand" });
  const legal = r && r.kind === "play" ? new Set(r.legal) : null;
  let i = 0;
  for (const c of hand) {
    if (legal) {
      const ok = legal.has(c);
      const key = ok ? ++i : null;
      box.append(cardEl(c, { cls: ok ? "legal" : "illegal", onclick: ok ? () => decide({ play: c }) : null }));
      if (key && key < 10) box.lastChild.append(el("kbd", {}, String(key)));
    } else if (r && r.kind === "discard") {
      const sel = state.selected.has(c);
      box.append(cardEl(c, { cls: sel ? "selected" : "", onclick: () => { sel ? state.selected.delete(c) : state.selected.add(c); render(); } }));
    } else {
      box.append(cardEl(c));
    }
  }
  return el("div", {}, el("div", {}, `Your hand (${hand.length})` + (v.view.discards.length ? `; your discards: ${v.view.discards.join(" ")}` : "")), box);
}

function scorePanel(v) {
  const n = v.players;
  const head = el("tr", {}, el("th", {}, "hand"), Array.from({ length: n }, (_, s) => el("th", {}, seatName(v, s))));
  const rows = v.score.hands.map((h) => el("tr", { title: h.outcome }, el("td", {}, `${h.hand + 1} ${h.contract || ""}`), h.change.map((c) => el("td", {}, String(c)))));
  const total = el("tr", {}, el("th", {}, "total"), v.score.totals.map((t) => el("th", {}, String(t))));
  const settle = v.score.settlement ? el("tr", {}, el("th", {}, "settlement"), v.score.settlement.map((t) => el("th", {}, String(t)))) : null;
  return el("div", { class: "panel" }, el("h3", {}, "Score"),
    el("table", { class: "score", id: "score" }, head, rows, total, settle),
    v.score.hands.length && v.records_url !== null ? el("p", {}, el("a", { href: `/api/games/${v.token}/records`, id: "records" }, "records of the finished hands"), " (tresillo replay FILE); ", el("a", { href: `/replay/${v.token}`, id: "replay" }, "replay and analysis")) : null);
}

document.addEventListener("keydown", (ev) => {
  const v = state.view;
  if (!v || !v.request || ev.target.tagName === "INPUT" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const r = v.request;
  const d = /^[1-9]$/.test(ev.key) ? +ev.key : null;
  if (r.kind === "play" && d) {
    const cards = v.view.hand.filter((c) => r.legal.includes(c));
    if (cards[d - 1]) decide({ play: cards[d - 1] });
  } else if (r.kind === "discard") {
    if (d && v.view.hand[d - 1]) {
      const c = v.view.hand[d - 1];
      state.selected.has(c) ? state.selected.delete(c) : state.selected.add(c);
      render();
    } else if (ev.key === "Enter") {
      const b = document.getElementById("confirm-discard");
      if (b && !b.disabled) { ev.preventDefault(); b.click(); }
    }
  } else if (d && r.choices[d - 1]) {
    decide(r.choices[d - 1].decision);
  }
});

const m = location.pathname.match(/^\/g\/([0-9a-f]{32})$/);
if (document.body.dataset.page === "study") {
  // study.js drives the table.
} else if (m) {
  state.token = m[1];
  poll();
} else {
  setup().catch((e) => { app.textContent = e.message; });
}
