// The tresillo table in the browser: plain JavaScript, no framework, no build
// step. Everything it shows comes from the JSON API (docs/SERVE.md); the choices
// offered are exactly the request's legal ones.
"use strict";

const app = document.getElementById("app");

// ---------- settings and the games kept in this browser ----------
// The person's settings (this browser's localStorage): a card confirmed before
// it is played, and how long a finished trick stays on the table (ms; 0: until
// the person continues).
const SETTINGS_KEY = "tresillo.settings";
const GAMES_KEY = "tresillo.games";
function loadJson(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) || fallback; } catch (e) { return fallback; }
}
function saveJson(key, v) {
  try { localStorage.setItem(key, JSON.stringify(v)); } catch (e) { /* storage off: kept for this page only */ }
}
const settings = Object.assign({ confirm: false, trickHold: 1500 }, loadJson(SETTINGS_KEY, {}));

// "My games": every game made or opened in this browser (newest first, at most
// 50), with where it stood when last seen; a lost URL is not a lost game.
function rememberGame(token, v) {
  const games = loadJson(GAMES_KEY, []).filter((g) => g.token !== token);
  const old = loadJson(GAMES_KEY, []).find((g) => g.token === token) || { at: new Date().toISOString() };
  const entry = Object.assign(old, { token, url: `/g/${token}` });
  if (v) Object.assign(entry, { rules: v.rules, players: v.players, hands: v.hands, hand: Math.min(v.hand + 1, v.hands), status: v.status });
  games.unshift(entry);
  saveJson(GAMES_KEY, games.slice(0, 50));
}

function myGames() {
  const games = loadJson(GAMES_KEY, []);
  if (!games.length) return null;
  return el("div", { class: "panel", id: "my-games" }, el("h3", {}, "Your games (kept in this browser)"),
    el("ul", {}, games.map((g) => el("li", {}, el("a", { href: g.url }, `${g.rules || "game"}${g.players ? `, ${g.players} players` : ""}`),
      ` ${g.status === "over" ? "finished" : g.hand ? `hand ${g.hand} of ${g.hands}` : ""}, started ${(g.at || "").slice(0, 16).replace("T", " ")}`))),
    el("button", { type: "button", id: "forget-games", onclick: () => { saveJson(GAMES_KEY, []); setup(); } }, "Forget this list"));
}

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
  const pace = el("select", { name: "pace", id: "pace" }, [[0, "at once"], [250, "0.25 s"], [500, "0.5 s"], [1000, "1 s"], [2000, "2 s"]].map(([ms, t]) =>
    el("option", { value: ms, selected: ms === 500 ? "" : null }, t)));
  const undo = el("input", { type: "checkbox", name: "undo", id: "undo-allowed", checked: "" });
  const takeover = el("select", { name: "takeover", id: "takeover" }, [[0, "never"], [30000, "30 s"], [60000, "1 min"], [180000, "3 min"]].map(([ms, t]) =>
    el("option", { value: ms, selected: ms === 60000 ? "" : null }, t)));
  const msg = el("p", { class: "error", id: "error" });
  function refresh() {
    const r = meta.rules.find((x) => x.name === rules.value);
    const keepP = players.value;
    players.replaceChildren(...r.players.map((n) => el("option", { value: n }, `${n} players`)));
    players.value = r.players.includes(+keepP) ? keepP : String(r.players[0]);
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
    // Shown, not only sent: seat 0 unless another was chosen.
    seat.value = keep !== "" && +keep < n ? keep : "0";
    opps.replaceChildren(...Array.from({ length: n - 1 }, (_, i) =>
      el("label", {}, `opponent ${i + 1} (seat ${(+seat.value + 1 + i) % n})`,
        el("select", { "data-opponent": i }, [el("option", { value: "human", title: "a friend, who plays by a link of their own" }, "a friend (a link of their own)")].concat(meta.agents.map((a) =>
          el("option", { value: a.name, title: a.help, selected: a.name === "rule" ? "" : null }, a.name)))))));
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
    el("label", {}, "The bots' pace (each bot decision shown after at least)", pace),
    el("label", { class: "check" }, undo, "Allow taking back my last decision of a hand (undo; journaled; not with friends)"),
    el("label", {}, "With friends: a bot plays a friend's seat whose turn has waited", takeover),
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
      opponents: [...opps.querySelectorAll("[data-opponent]")].map((i) => i.value), pace_ms: +pace.value, undo: undo.checked };
    if (body.opponents.includes("human")) {
      body.undo = false;
      if (+takeover.value) body.takeover_ms = +takeover.value;
    }
    if (seed.value !== "") body.seed = Number(seed.value);
    try {
      await newGame(body);
    } catch (e) { msg.textContent = e.message; }
  });
  app.replaceChildren(...[form, myGames()].filter(Boolean));
  refresh();
}

// Creates a game, keeps it in "my games" and opens it.
async function newGame(body) {
  const g = await api("POST", "/api/games", body);
  rememberGame(g.token, null);
  location.href = g.url;
}

// ---------- the table ----------
// decisionsUrl, onDecided and onBusy: hooks of the study page (study.js), which
// draws its games with this table. `held`: a finished trick kept on the table
// until the person continues or settings.trickHold passes; `seenTrick`, the
// last trick so shown; `seenHands`, the finished hands whose summary the person
// has closed; `pending`, a card awaiting its confirmation; `shown`, when the
// page first showed the question of decision `seq` (the page's clock).
const state = { token: null, view: null, version: -1, selected: new Set(), busy: false, error: "",
  decisionsUrl: null, eventsUrl: null, onDecided: null, onBusy: null, held: null, heldTimer: null, seenTrick: undefined,
  seenHands: undefined, pending: null, shown: { seq: -1, t: 0 }, showLast: false, trickLen: 0 };

function seatName(v, s) {
  if (v.seat_names) return v.seat_names[s];
  return s === v.seat ? "you" : `${v.seats[s]}`;
}

async function decide(decision) {
  if (state.busy) return;
  state.busy = true;
  state.error = "";
  state.pending = null;
  releaseTrick();
  if (state.onBusy) state.onBusy(true);
  try {
    const url = state.decisionsUrl || `/api/games/${state.token}/decisions`;
    const body = { seq: state.view.seq, decision };
    // The page's own measure of the time taken (docs/SERVE.md, "Timing and behaviour").
    if (state.shown.seq === state.view.seq) body.page_ms = Math.round(performance.now() - state.shown.t);
    const v = await api("POST", url, body);
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

async function undoLast() {
  if (state.busy) return;
  state.busy = true;
  try {
    const v = await api("POST", `/api/games/${state.token}/undo`, { seq: state.view.seq });
    state.error = "";
    state.selected.clear();
    state.pending = null;
    // The trick the undone card completed is no longer on the table.
    state.held = null;
    state.seenTrick = v.last_trick ? `${v.hand}:${v.last_trick.trick}` : "";
    show(v);
  } catch (e) {
    state.error = e.message;
    render();
  } finally {
    state.busy = false;
  }
}

// What the page saw the person do beyond decisions, journaled (the game's log,
// or the study's journal: study.js sets eventsUrl).
function report(event, card) {
  const url = state.eventsUrl || (state.token ? `/api/games/${state.token}/events` : null);
  if (!url) return;
  api("POST", url, card ? { event, card } : { event }).catch(() => {});
}
document.addEventListener("visibilitychange", () => report(document.hidden ? "hidden" : "visible"));

function releaseTrick() {
  if (state.heldTimer) clearTimeout(state.heldTimer);
  state.heldTimer = null;
  state.held = null;
}

// Notes what a new view completed: a trick (held on the table) and a hand
// (its summary opened). The first view of a page holds nothing old.
function noteView(v) {
  const lt = v.last_trick;
  const key = lt ? `${v.hand}:${lt.trick}` : "";
  const first = state.seenTrick === undefined;
  if (first) {
    state.seenTrick = key;
    state.seenHands = v.score.hands.length - (v.status === "over" ? 1 : 0);
    return;
  }
  if (key && key !== state.seenTrick) {
    state.seenTrick = key;
    releaseTrick();
    state.held = lt;
    if (settings.trickHold > 0) state.heldTimer = setTimeout(() => { state.held = null; state.heldTimer = null; render(); }, settings.trickHold);
  }
}

// A view newer than the one shown replaces it (a decision's answer and a poll's
// may cross); `force`: the server's current view whatever its version.
function show(v, force) {
  if (!force && v.version < state.version) return;
  state.version = v.version;
  if (state.view && (state.view.hand !== v.hand || state.view.seq !== v.seq)) state.pending = null;
  noteView(v);
  state.view = v;
  if (state.token) rememberGame(state.token, v);
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

// The focused element's key, to give the focus back after a redraw (the page
// is drawn anew at every view: without this the focus fell to the body).
function focusKey() {
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  if (a.dataset && a.dataset.card) return `[data-card="${a.dataset.card}"]`;
  if (a.dataset && a.dataset.choice) return `[data-choice="${a.dataset.choice}"]`;
  return a.id ? `#${a.id}` : null;
}

function summaryOpen(v) {
  return state.seenHands !== undefined && v.score.hands.length > state.seenHands;
}

function trickEl(v, cards, cls, fresh) {
  return el("div", { class: "trick" + (cls ? " " + cls : ""), id: cls === "held" ? "held-trick" : cls === "last" ? "last-trick" : "trick" },
    cards.map(([s, c], i) => el("figure", { class: i >= fresh ? "fresh" : null, "data-seat": s }, cardEl(c), el("figcaption", {}, seatName(v, s)))));
}

function render() {
  const v = state.view;
  if (!v) {
    app.replaceChildren(el("p", { class: "error", id: "error" }, state.error || "Loading…"));
    return;
  }
  const focus = focusKey();
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
  const summary = summaryOpen(v);
  const last = v.score.hands[v.score.hands.length - 1];
  if (last && !summary) parts.push(el("div", { class: "banner", id: "last-hand" }, `Hand ${last.hand + 1}: ${last.outcome}; `, last.change.map((c, s) => `${seatName(v, s)} ${c >= 0 ? "+" : ""}${c}`).join(", ")));
  if (v.status === "failed") parts.push(el("p", { class: "error" }, v.failure));
  if (v.invites && v.invites.length) {
    parts.push(el("details", { class: "panel", id: "invites", open: v.seq === 0 ? "" : null }, el("summary", {}, "Your friends' links (each their own seat; send each to one friend)"),
      el("ul", {}, v.invites.map((i) => el("li", {}, `seat ${i.seat}: `, el("a", { href: i.url, "data-seat": i.seat }, new URL(i.url, location.href).href))))));
  }
  if (v.taken && v.taken.includes(v.seat)) {
    parts.push(el("div", { class: "banner" }, "A bot plays your seat: your turn waited too long. ",
      el("button", { type: "button", id: "reclaim", onclick: async () => {
        try { show(await api("POST", `/api/games/${state.token}/reclaim`), true); } catch (e) { state.error = e.message; render(); }
      } }, "Take my seat back")));
  }
  if (summary) parts.push(summaryPanel(v, last));
  // Mid-session, the next hand waits behind the summary; at the session's end
  // the last hand's table stays under it.
  if (v.view && (!summary || v.status === "over")) {
    const playing = v.table ? v.table.playing : null;
    parts.push(el("div", { class: "seats" }, Array.from({ length: n }, (_, s) => {
      const bids = v.view.bids.filter((b) => b[0] === s).map((b) => b[1]).join(", ");
      const ex = v.view.exchanged[s];
      const out = playing && !playing.includes(s);
      return el("div", { class: "seat" + (v.turn === s ? " turn" : "") + (out ? " out" : ""), id: `seat-${s}`, "data-seat": s },
        el("div", { class: "name" + (v.thinking === s ? " thinking" : "") }, `seat ${s}: ${seatName(v, s)}`,
          v.view.dealer === s ? el("span", { class: "badge", id: "dealer-badge", title: "deals this hand" }, "dealer") : null,
          out ? el("span", { class: "badge out", id: "sits-out", title: "sits this hand out (four players)" }, "sits out") : null),
        el("div", {}, `tricks ${v.view.tricks[s]}` + (ex !== null && ex !== undefined ? `, exchanged ${ex}` : "")),
        bids ? el("div", {}, `auction: ${bids}`) : null);
    })));
    const felt = el("div", { class: "felt", id: "table" });
    const cur = v.view.current_trick;
    const trickKey = `${v.hand}:${v.last_trick ? v.last_trick.trick : 0}`;
    const fresh = state.trickKey === trickKey ? state.trickLen : 0;
    state.trickKey = trickKey;
    state.trickLen = cur.length;
    if (state.held) {
      felt.append(el("div", {}, `trick ${state.held.trick}, won by ${seatName(v, state.held.winner)}:`));
      felt.append(trickEl(v, state.held.cards, "held", 99));
      felt.append(el("div", { class: "controls" },
        el("button", { type: "button", id: "continue", onclick: () => { releaseTrick(); render(); } },
          settings.trickHold > 0 ? "Continue (Space)" : "Continue (Space): the trick stays until you do"),
        cur.length ? el("small", {}, ` next trick: ${cur.length} card(s) played`) : null));
    } else if (state.showLast && v.last_trick) {
      felt.append(el("div", {}, `last trick (${v.last_trick.trick}), won by ${seatName(v, v.last_trick.winner)}:`));
      felt.append(trickEl(v, v.last_trick.cards, "last", 99));
    } else if (cur.length) {
      felt.append(trickEl(v, cur.map((c, i) => [v.view.current_trick_seats[i], c]), "", v.status === "over" ? 99 : fresh));
    } else if (v.last_trick) {
      felt.append(el("div", {}, `last trick, won by ${seatName(v, v.last_trick.winner)}:`));
      felt.append(trickEl(v, v.last_trick.cards, "last", 99));
    } else {
      felt.append(el("div", {}, v.table.turned ? "turned card:" : ""));
      if (v.table.turned) felt.append(cardEl(v.table.turned));
    }
    if (v.last_trick && !state.held && (cur.length || state.showLast)) {
      felt.append(el("div", { class: "controls" }, el("button", { type: "button", id: "show-last", onclick: () => { state.showLast = !state.showLast; render(); } },
        state.showLast ? "Back to the table (L)" : "Last trick (L)")));
    }
    if (v.table.exposed) felt.append(el("div", {}, "declarer's hand, face up: ", v.table.exposed.map((c) => cardEl(c))));
    if (v.table.shown_heap.length) felt.append(el("div", {}, "heap, face up: ", v.table.shown_heap.map((c) => cardEl(c))));
    parts.push(felt);
    parts.push(requestPanel(v));
    parts.push(handPanel(v));
    if (v.request && state.shown.seq !== v.seq) state.shown = { seq: v.seq, t: performance.now() };
  }
  parts.push(el("p", { class: "error", id: "error" }, state.error));
  parts.push(el("div", { class: "panels" },
    v.history ? el("div", { class: "panel" }, el("h3", {}, "This hand"), el("ol", { id: "history" }, v.history.map((h) => el("li", {}, `${seatName(v, h.seat)}: ${h.text}`)))) : null,
    scorePanel(v)));
  parts.push(el("div", { class: "panels" }, settingsPanel(), typeof glossary === "function" ? glossary() : null));
  // The details' open state survives the redraw.
  const open = [...document.querySelectorAll("details[open]")].map((d) => d.id);
  app.replaceChildren(...parts.filter(Boolean));
  for (const id of open) { const d = document.getElementById(id); if (d) d.open = true; }
  if (focus) { const f = app.querySelector(focus); if (f) f.focus(); }
}

function settingsPanel() {
  const confirm = el("input", { type: "checkbox", id: "confirm-setting", checked: settings.confirm ? "" : null,
    onchange: (e) => { settings.confirm = e.target.checked; saveJson(SETTINGS_KEY, settings); } });
  const hold = el("select", { id: "hold-setting", onchange: (e) => { settings.trickHold = +e.target.value; saveJson(SETTINGS_KEY, settings); } },
    [[800, "0.8 s"], [1500, "1.5 s"], [3000, "3 s"], [0, "until I continue"]].map(([ms, t]) => el("option", { value: ms, selected: ms === settings.trickHold ? "" : null }, t)));
  return el("details", { class: "panel", id: "settings" }, el("summary", {}, "Settings"),
    el("label", { class: "check" }, confirm, "Confirm each card before it is played"),
    el("label", {}, "A finished trick stays on the table ", hold));
}

function summaryPanel(v, h) {
  const over = v.status === "over";
  const sum = h.summary;
  const rows = [];
  if (sum) {
    for (let s = 0; s < v.players; s++) {
      if (!sum.dealt[s].length && !sum.played[s].length) {
        rows.push(el("tr", {}, el("th", {}, seatName(v, s)), el("td", {}, "sat out")));
        continue;
      }
      rows.push(el("tr", { "data-seat": s }, el("th", {}, `${seatName(v, s)}${h.declarer === s ? " (declarer)" : ""}: ${sum.tricks[s]} tricks`),
        el("td", { class: "faceup" }, el("div", {}, "dealt: ", sum.dealt[s].map((c) => cardEl(c, { cls: "small" }))),
          sum.discards[s].length ? el("div", {}, "discarded: ", sum.discards[s].map((c) => cardEl(c, { cls: "small" }))) : null)));
    }
  }
  const next = over ? null : el("button", { type: "button", id: "next-hand", onclick: () => { state.seenHands = v.score.hands.length; render(); } }, "Next hand (Enter)");
  return el("div", { class: "panel summary", id: "summary" },
    el("h3", {}, over ? `Hand ${h.hand + 1}, the last: the session is over` : `Hand ${h.hand + 1} is over`),
    el("p", { id: "outcome" }, h.outcome),
    el("p", {}, h.change.map((c, s) => `${seatName(v, s)} ${c >= 0 ? "+" : ""}${c}`).join(", ")),
    sum && sum.last_trick ? el("div", {}, `last trick, won by ${seatName(v, sum.last_trick.winner)}:`, trickEl(v, sum.last_trick.cards, "last small", 99)) : null,
    sum ? el("table", { class: "hands", id: "hands-face-up" }, rows) : null,
    el("div", { class: "controls" }, next,
      over && state.token && v.records_url !== null ? el("button", { type: "button", id: "rematch", onclick: rematch }, "Rematch: the same settings, new deals") : null,
      over && state.token ? el("a", { href: "/", id: "new-game" }, "new game") : null));
}

// The same table again (rule set, options, seats, opponents, hands, pace,
// undo) with new deals.
async function rematch() {
  const v = state.view;
  const n = v.players;
  const body = { rules: v.rules, options: v.options || {}, players: n, seat: v.seat, hands: v.hands,
    opponents: Array.from({ length: n - 1 }, (_, i) => v.seats[(v.seat + 1 + i) % n]), pace_ms: v.pace_ms || 0, undo: !!v.undo };
  if (v.takeover_ms) body.takeover_ms = v.takeover_ms;
  try { await newGame(body); } catch (e) { state.error = e.message; render(); }
}

function statusText(v) {
  switch (v.status) {
    case "your_turn": return "your turn";
    case "thinking": return `${seatName(v, v.thinking)} (seat ${v.thinking}) is thinking`;
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
    const need = r.discard.min === r.discard.max ? `${r.discard.min}` : `${r.discard.min} to ${r.discard.max}`;
    box.append(el("div", { class: "choices" },
      el("button", { type: "button", id: "confirm-discard", disabled: ok ? null : "", onclick: () => decide({ discard: [...state.selected].join(" ") }) },
        ok ? (k ? `Discard ${k} (Enter)` : "Discard nothing (Enter)") : `Choose ${need} card${r.discard.max === 1 ? "" : "s"} to discard`)));
  } else if (r.kind !== "play") {
    box.append(el("div", { class: "choices", id: "choices" }, r.choices.map((c, i) =>
      el("button", { type: "button", "data-choice": i, onclick: () => decide(c.decision) }, i < 10 ? el("kbd", {}, `${(i + 1) % 10} `) : null, c.label))));
  } else if (state.pending) {
    box.append(el("div", { class: "choices" },
      el("button", { type: "button", id: "confirm-play", onclick: () => decide({ play: state.pending }) }, `Play ${state.pending} (Enter)`),
      el("button", { type: "button", id: "cancel-play", onclick: () => { state.pending = null; render(); } }, "Choose another (Esc)")));
  }
  if (v.can_undo) {
    box.append(el("div", { class: "choices" }, el("button", { type: "button", id: "undo", onclick: undoLast }, "Take back my last decision (U)")));
  }
  return box;
}

function playCard(c) {
  if (settings.confirm && state.pending !== c) {
    state.pending = c;
    render();
  } else {
    decide({ play: c });
  }
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
      // An illegal card says why not, and the misclick is journaled.
      const misclick = () => { state.error = `${c} cannot be played now: only the raised cards can (follow suit, or trumps when forced)`; report("misclick", c); render(); };
      box.append(cardEl(c, { cls: (ok ? "legal" : "illegal") + (state.pending === c ? " selected" : ""), onclick: ok ? () => playCard(c) : misclick }));
      if (key && key <= 10) box.lastChild.append(el("kbd", {}, String(key % 10)));
    } else if (r && r.kind === "discard") {
      const sel = state.selected.has(c);
      box.append(cardEl(c, { cls: sel ? "selected" : "", onclick: () => { sel ? state.selected.delete(c) : state.selected.add(c); render(); } }));
      box.lastChild.append(el("kbd", {}, String((box.children.length) % 10)));
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

// The digit of key `d` (1-9, 0 for the tenth).
function digit(key) {
  if (!/^[0-9]$/.test(key)) return null;
  return key === "0" ? 10 : +key;
}

document.addEventListener("keydown", (ev) => {
  const v = state.view;
  if (!v || ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (summaryOpen(v) && v.status !== "over") {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); state.seenHands = v.score.hands.length; render(); }
    return;
  }
  if (state.held && (ev.key === " " || ev.key === "Enter") && !(v.request && v.request.kind === "discard")) {
    ev.preventDefault();
    releaseTrick();
    render();
    return;
  }
  if (ev.key === "l" || ev.key === "L") { if (v.last_trick) { state.showLast = !state.showLast; render(); } return; }
  if ((ev.key === "u" || ev.key === "U") && v.can_undo) { undoLast(); return; }
  if (!v.request) return;
  const r = v.request;
  const d = digit(ev.key);
  if (r.kind === "play") {
    if (state.pending && ev.key === "Enter") { ev.preventDefault(); decide({ play: state.pending }); return; }
    if (state.pending && ev.key === "Escape") { state.pending = null; render(); return; }
    const cards = v.view.hand.filter((c) => r.legal.includes(c));
    if (d && cards[d - 1]) playCard(cards[d - 1]);
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
