// Study mode (docs/SERVE.md, "Study mode"): a participant's page (consent, their
// games on the play page's table from app.js, an end page) and the researcher's
// page (progress, export). Loaded after app.js, whose functions it uses.
"use strict";

const studyPath = location.pathname.match(/^\/(study|research)\/([A-Za-z0-9_-]+)$/);
const progressEl = document.getElementById("progress");

function resultsTable(results) {
  const practice = results.filter((r) => r.practice).length;
  return el("table", { class: "score", id: "results" },
    el("tr", {}, el("th", {}, "deal"), el("th", {}, "outcome"), el("th", {}, "your score")),
    results.map((r) => el("tr", { "data-practice": r.practice ? "1" : null },
      el("td", {}, r.practice ? "practice" : String(r.hand + 1 - practice)), el("td", {}, r.outcome), el("td", {}, r.practice ? "-" : String(r.you)))));
}

// ---------- the participant ----------
// The participant's version: a change made in another tab (a decision, the
// consent) wakes this page's long poll.
let studyVersion = -1;

// Withdrawal: a button in the header opens a panel outside the table (which
// the polls draw again); confirming deletes the participant's data.
const withdrawBtn = document.getElementById("withdraw");
const withdrawPanel = document.getElementById("withdraw-panel");
if (withdrawBtn && studyPath && studyPath[1] === "study") {
  withdrawBtn.addEventListener("click", () => { withdrawPanel.hidden = false; });
  document.getElementById("withdraw-cancel").addEventListener("click", () => { withdrawPanel.hidden = true; });
  document.getElementById("withdraw-confirm").addEventListener("click", async () => {
    const msg = document.getElementById("withdraw-error");
    try {
      const s = await api("POST", `/api/study/${studyPath[2]}/withdraw`, { withdraw: true });
      withdrawPanel.hidden = true;
      showStudy(s, true);
    } catch (e) { msg.textContent = e.message; }
  });
}

// A question of the study file (a comprehension check before the games, a
// questionnaire after them): its choices' buttons, or a text and a button.
function showQuestion(s) {
  const q = s.question;
  const shown = document.getElementById("study-question");
  // A poll's answer does not wipe what is being typed.
  if (shown && shown.dataset.question === q.id && !s.wrong) return;
  const at = performance.now();
  const msg = el("p", { class: "error", id: "error" },
    s.wrong === q.id ? "That is not right. Please read the question again and answer once more." : "");
  const send = async (answer) => {
    try {
      showStudy(await api("POST", `/api/study/${studyPath[2]}/answers`, { question: q.id, answer, page_ms: Math.round(performance.now() - at) }), true);
    } catch (e) { msg.textContent = e.message; }
  };
  let body;
  if (q.choices.length) {
    body = el("div", { class: "answer-choices", id: "answer-choices" },
      q.choices.map((c) => el("button", { type: "button", "data-choice": c, onclick: () => send(c) }, c)));
  } else {
    const text = el("textarea", { id: "answer-text", rows: "4", cols: "50", maxlength: "2000" });
    body = el("div", {}, text, el("br", {}), el("button", { type: "button", id: "answer-send", onclick: () => send(text.value) }, "Send"));
  }
  app.replaceChildren(el("div", { class: "panel", id: "study-question", "data-question": q.id, "data-wrong": s.wrong === q.id ? "1" : null },
    el("h2", {}, q.when === "before" ? "Before you play" : "A few questions"),
    el("p", { class: "question-text" }, q.text),
    q.required ? el("p", { class: "hint" }, "Please answer correctly to continue.") : null,
    body, msg));
}

function showStudy(s, force) {
  if (!force && s.version < studyVersion) return;
  studyVersion = s.version;
  document.getElementById("subtitle").textContent = s.study;
  if (s.withdrawn) {
    progressEl.textContent = "";
    if (withdrawBtn) withdrawBtn.hidden = true;
    app.replaceChildren(el("div", { class: "panel", id: "withdrawn" },
      el("h2", {}, "You have withdrawn"),
      el("p", {}, "You have withdrawn from this study. Your games and answers were deleted. You may close this page.")));
    return;
  }
  if (withdrawBtn) withdrawBtn.hidden = !s.consented;
  const practicing = s.game && s.game.practice;
  const shown = s.done ? s.games : Math.min(s.played + 1, s.games);
  progressEl.textContent = !s.consented ? "" : practicing
    ? `practice deal ${s.practice_played + 1} of ${s.practice} (not scored)`
    : `deal ${shown} of ${s.games}`;
  progressEl.dataset.played = s.played;
  progressEl.dataset.practice = practicing ? "1" : "";
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
  if (s.question) {
    showQuestion(s);
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
    const withdrawn = r.participants.filter((p) => p.status === "withdrawn").length;
    progressEl.textContent += `, ${withdrawn} withdrew`;
    const rows = r.participants.map((p) => el("tr", { "data-id": p.id },
      el("td", {}, p.id),
      el("td", { class: "condition" }, p.condition),
      el("td", {}, p.consented ? "yes" : "no"),
      el("td", {}, p.status === "withdrawn" ? "-" : `${p.played} of ${p.games}` + (p.practice && p.practice_played < p.practice ? ` (practice ${p.practice_played} of ${p.practice})` : "")),
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
        el("p", {}, (r.conditions.length > 1 ? `${r.players} players, ${r.conditions.length} conditions (below)` : `${r.rules}, ${r.players} players, opponents ${r.opponents.join(", ")}`)
          + `; ${r.games_per_participant} deals per participant; ${r.dir}`)),
      el("div", { class: "panel" }, el("h3", {}, "Conditions"),
        r.assignment ? el("p", {}, `Assignment: ${r.assignment}; ${r.practice_deals} practice deal(s) first.`) : null,
        el("table", { class: "score", id: "conditions" },
          el("tr", {}, ["condition", "rules", "opponents", "participants", "finished", "playing", "not started", "dropped out", "withdrew", "games played"].map((h) => el("th", {}, h))),
          r.conditions.map((c) => el("tr", { "data-condition": c.name },
            [c.name, c.rules, c.opponents.join(", "), c.participants, c.finished, c.playing, c.not_started, c.dropped_out, c.withdrawn, c.games_played].map((x) => el("td", {}, String(x))))))),
      el("div", { class: "panel" }, el("h3", {}, "Participants"),
        el("table", { class: "score", id: "participants" },
          el("tr", {}, el("th", {}, "id"), el("th", {}, "condition"), el("th", {}, "consent"), el("th", {}, "played"), el("th", {}, "in progress"), el("th", {}, "status"), el("th", {}, "last active"), el("th", {}, "their page (secret)")),
          rows)),
      el("div", { class: "panel" }, el("h3", {}, "Export"),
        el("p", {}, "deals.csv and deals.parquet in the tournament's schema (scored deals; each condition's also in conditions/NAME/), records.jsonl, book.txt, participants.csv (conditions, withdrawals), questionnaire.csv and events.csv, in a new directory of the study's exports/ (docs/STUDY.md)."),
        exportBtn, last,
        el("ul", { id: "exports" }, r.exports.map((e) => el("li", {}, `${e.name}: `, el("a", { href: e.csv }, "deals.csv"))))),
      msg);
  }
  await refresh();
  setInterval(refresh, 5000);
}

if (studyPath && studyPath[1] === "study") participant();
else if (studyPath) researcher();
