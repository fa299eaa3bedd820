// Study mode (docs/SERVE.md, "Study mode"): a participant's page (consent, their
// games on the play page's table from app.js, an end page) and the researcher's
// page (progress, export). Loaded after app.js, whose functions it uses.
"use strict";

const studyPath = location.pathname.match(/^\/(study|research)\/([A-Za-z0-9_-]+)$/);
const progressEl = document.getElementById("progress");

function resultsTable(results) {
  return el("table", { class: "score", id: "results" },
    el("tr", {}, el("th", {}, "deal"), el("th", {}, "outcome"), el("th", {}, "your score")),
    results.map((r) => el("tr", {}, el("td", {}, String(r.hand + 1)), el("td", {}, r.outcome), el("td", {}, String(r.you)))));
}

// ---------- the participant ----------
// The participant's version: a change made in another tab (a decision, the
// consent) wakes this page's long poll.
let studyVersion = -1;

function showStudy(s, force) {
  if (!force && s.version < studyVersion) return;
  studyVersion = s.version;
  document.getElementById("subtitle").textContent = s.study;
  const shown = s.done ? s.games : Math.min(s.played + 1, s.games);
  progressEl.textContent = s.consented ? `deal ${shown} of ${s.games}` : "";
  progressEl.dataset.played = s.played;
  if (!s.consented) {
    const msg = el("p", { class: "error", id: "error" });
    const accept = el("button", { type: "button", id: "accept", onclick: async () => {
      try { showStudy(await api("POST", `/api/study/${studyPath[2]}/consent`, { accept: true })); } catch (e) { msg.textContent = e.message; }
    } }, "I agree: start");
    app.replaceChildren(el("div", { class: "panel consent", id: "consent" },
      el("h2", {}, "Before you start"),
      el("div", { class: "consent-text" }, s.consent.trim().split(/\n\s*\n/).map((p) => el("p", {}, p))),
      el("p", {}, `You will play ${s.games} deals. Your games are stored as you play; you may stop and come back to this link.`),
      accept, msg));
    return;
  }
  if (s.done) {
    app.replaceChildren(el("div", { class: "panel", id: "end" },
      el("h2", {}, "Thank you"),
      el("p", {}, `You have played all ${s.games} deals of this study. You may close this page.`),
      s.completion_code ? el("p", {}, "Your completion code: ", el("strong", { id: "completion-code" }, s.completion_code)) : null,
      resultsTable(s.results)));
    return;
  }
  state.error = "";
  state.version = -1;
  show(Object.assign(s.game, { version: 0 }));
}

async function participant() {
  state.decisionsUrl = `/api/study/${studyPath[2]}/decisions`;
  state.eventsUrl = `/api/study/${studyPath[2]}/events`;
  state.onDecided = showStudy;
  state.onBusy = (busy) => {
    const st = document.getElementById("status");
    if (st && busy) { st.textContent = "the opponents are playing…"; st.dataset.status = "thinking"; st.className = "thinking"; }
  };
  const url = (version) => `/api/study/${studyPath[2]}` + (version >= 0 ? `?wait=${version}` : "");
  state.refresh = async () => {
    try { showStudy(await api("GET", url(-1)), true); } catch (e) { /* the poll retries */ }
  };
  // Long polls as the game page's (app.js): the page follows the other tabs.
  pollLoop(url, () => studyVersion, (s, force) => showStudy(s, force));
}

// ---------- the researcher ----------
async function researcher() {
  const t = studyPath[2];
  const msg = el("p", { class: "error", id: "error" });
  // The last export made here: kept across the page's refreshes (every 5 s).
  let lastExport = null;
  async function refresh() {
    let r;
    try { r = await api("GET", `/api/research/${t}`); } catch (e) { msg.textContent = e.message; return; }
    document.getElementById("subtitle").textContent = `${r.study}: researcher`;
    const done = r.participants.filter((p) => p.played === p.games).length;
    const dropped = r.participants.filter((p) => p.status === "dropped out").length;
    const playing = r.participants.filter((p) => p.status === "playing").length;
    progressEl.textContent = `${done} of ${r.participants.length} participants finished, ${playing} playing, ${dropped} dropped out`;
    const ago = (ms) => ms === null || ms === undefined ? "-" : ms < 60000 ? `${Math.round(ms / 1000)} s ago` : `${Math.round(ms / 60000)} min ago`;
    const rows = r.participants.map((p) => el("tr", { "data-id": p.id },
      el("td", {}, p.id),
      el("td", {}, p.consented ? "yes" : "no"),
      el("td", {}, `${p.played} of ${p.games}`),
      el("td", {}, p.decisions ? `${p.decisions} decisions` : "-"),
      el("td", { class: "status" }, p.status),
      el("td", {}, ago(p.idle_ms)),
      el("td", {}, el("a", { href: p.link }, "link"))));
    const exportBtn = el("button", { type: "button", id: "export", onclick: async () => {
      try {
        const e = await api("POST", `/api/research/${t}/export`);
        msg.textContent = "";
        lastExport = e;
        await refresh();
      } catch (e) { msg.textContent = e.message; }
    } }, "Export finished games");
    const last = el("p", { id: "exported" }, lastExport
      ? [`exported ${lastExport.rows} games (${lastExport.deals} deals) to ${lastExport.dir} `, el("a", { href: lastExport.csv, id: "csv" }, "deals.csv")]
      : []);
    app.replaceChildren(
      el("div", { class: "panel", id: "study" },
        el("h2", {}, r.study || "study"),
        el("p", {}, `${r.rules}, ${r.players} players, opponents ${r.opponents.join(", ")}; ${r.games_per_participant} deals per participant; ${r.dir}`)),
      el("div", { class: "panel" }, el("h3", {}, "Participants"),
        el("table", { class: "score", id: "participants" },
          el("tr", {}, el("th", {}, "id"), el("th", {}, "consent"), el("th", {}, "played"), el("th", {}, "in progress"), el("th", {}, "status"), el("th", {}, "last active"), el("th", {}, "their page (secret)")),
          rows)),
      el("div", { class: "panel" }, el("h3", {}, "Export"),
        el("p", {}, "deals.csv and deals.parquet in the tournament's schema, records.jsonl and book.txt, in a new directory of the study's exports/ (docs/STUDY.md)."),
        exportBtn, last,
        el("ul", { id: "exports" }, r.exports.map((e) => el("li", {}, `${e.name}: `, el("a", { href: e.csv }, "deals.csv"))))),
      msg);
  }
  await refresh();
  setInterval(refresh, 5000);
}

if (studyPath && studyPath[1] === "study") participant();
else if (studyPath) researcher();
