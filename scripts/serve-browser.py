#!/usr/bin/env python3
"""Browser test of `tresillo serve`: headless Chromium (Debian's chromium and
chromium-driver; nothing downloaded) driven through chromedriver's WebDriver
protocol with the Python standard library. For each of two rule sets it opens the
page, starts a game in the form, plays whole hands by clicking (the choices'
buttons, legal cards, exchange cards and the confirm button), saves screenshots to
docs/, and checks that `tresillo replay` reproduces the game's records. It then
opens the replay board of what it played (the link under the score) and steps
through every decision with the arrow keys, checking that each position is the
record's decision, waits for the analysis and saves docs/serve-replay.png. Last, a
study of two conditions (`serve --study`): two participants assigned to different
conditions, a comprehension check failed once, a practice deal not scored, the
questionnaire answered, one participant withdrawing, the researcher's page per
condition, and the export paired with its baseline by scripts/paired.py
(docs/serve-study.png, docs/serve-study-end.png, docs/serve-study-research.png). A game
page stays open across `kill -9` and a restart of the server: it backs off while
the server is down (at most four requests a second) and shows the game again by
itself, without a reload, and takes the next click. No page may break its
Content-Security-Policy (the console is read). Exits 0
when all holds, 77 (skipped) without chromium or chromedriver. Usage:

    scripts/serve-browser.py [--binary target/release/tresillo] [--shots docs]
"""

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from serve_client import Client, binary_path, start_server

GAMES = [
    # rule set, players, hands, seed, screenshot name
    ("tresillo", 3, 2, 11, "serve-tresillo.png"),
    ("lhombre", 3, 1, 3, "serve-lhombre.png"),
]


class Driver:
    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.sid = None

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read())["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"webdriver {method} {path}: {e.read()[:300]!r}") from None

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.sid}{path}", body)

    def start(self, profile, width, height):
        caps = {
            "capabilities": {
                "alwaysMatch": {
                    # The console (CSP violations are reported there).
                    "goog:loggingPrefs": {"browser": "ALL"},
                    "goog:chromeOptions": {
                        "binary": shutil.which("chromium"),
                        "args": [
                            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update",
                            "--disable-sync", f"--user-data-dir={profile}", f"--window-size={width},{height}",
                        ],
                    }
                }
            }
        }
        self.sid = self.call("POST", "/session", caps)["sessionId"]

    def go(self, url):
        self.s("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        els = self.s("POST", "/elements", {"using": "css selector", "value": css})
        return [list(e.values())[0] for e in els]

    def click(self, eid):
        self.s("POST", f"/element/{eid}/click", {})

    def click_css(self, css, i=0):
        """Finds the i-th element matching css and clicks it, finding it again
        when the page redrew it in between (a poll's answer replaces the
        table, and the element found is then stale)."""
        for attempt in range(50):
            try:
                self.click(self.find(css)[i])
                return
            except RuntimeError as e:
                if "stale element" not in str(e) or attempt == 49:
                    raise
                time.sleep(0.05)

    def shot(self, path):
        png = base64.b64decode(self.s("GET", "/screenshot"))
        with open(path, "wb") as f:
            f.write(png)

    def key(self, k):
        """Presses and releases key `k` (a WebDriver key code) on the page."""
        self.s("POST", "/actions", {"actions": [{"type": "key", "id": "keys", "actions": [
            {"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]}]})

    def size(self, w, h):
        self.s("POST", "/window/rect", {"width": w, "height": h})

    def console(self):
        """The browser console's messages since the last call."""
        try:
            return [e.get("message", "") for e in self.s("POST", "/se/log", {"type": "browser"})]
        except RuntimeError:
            return []

    def quit(self):
        if self.sid:
            try:
                self.call("DELETE", f"/session/{self.sid}")
            except Exception:  # noqa: BLE001 - ending anyway
                pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_status(d, timeout=60, done=None):
    """Waits until the page shows it is the person's turn or the game is over (or,
    with `done`, a script, until it returns true: "done")."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if done and d.js(done):
            return "done"
        st = d.js("const e = document.getElementById('status'); return e ? e.dataset.status : null;")
        if st in ("your_turn", "over", "failed"):
            return st
        time.sleep(0.05)
    raise RuntimeError("the page never showed the person's turn")


def play_game(d, base, rules, players, hands, seed, shot, shots):
    d.go(base + "/")
    for _ in range(100):
        if d.find("#start"):
            break
        time.sleep(0.05)
    d.js(
        "const r = document.getElementById('rules'); r.value = arguments[0];"
        "r.dispatchEvent(new Event('change'));"
        "const p = document.getElementById('players'); p.value = String(arguments[1]);"
        "p.dispatchEvent(new Event('change'));"
        "document.getElementById('hands').value = String(arguments[2]);"
        "document.getElementById('seed').value = String(arguments[3]);"
        # The bots at once here (the pace is checked in table_run).
        "document.getElementById('pace').value = '0';",
        rules, players, hands, seed,
    )
    if rules == "tresillo":
        d.shot(os.path.join(shots, "serve-setup.png"))
    d.click_css("#start", 0)
    clicks, shot_taken, st = click_through(d, os.path.join(shots, shot))
    if st != "over":
        raise RuntimeError(f"the game ended {st}")
    if not shot_taken:
        d.shot(os.path.join(shots, shot))
    token = d.js("return location.pathname.split('/').pop()")
    return token, clicks


STUDY_END = "return !!document.getElementById('end')"
INFO = ("const i = document.getElementById('info'), h = document.getElementById('history');"
        "return (i ? i.textContent : '') + (h ? h.textContent : '') + (document.getElementById('end') ? 'end' : '');")


def click_through(d, shot, done=None):
    """Answers every question of the table by clicking (the first choice's button,
    the first legal card, or cards until the discard can be confirmed) while it is
    the person's turn, or, with `done` (a script), until it returns true (a study's
    end page: its deals follow one another on one page); takes one screenshot to
    `shot` in mid-play. Returns (clicks, screenshot taken, status or "done")."""
    clicks, shot_taken = 0, False
    while True:
        st = wait_status(d, done=done)
        if st != "your_turn":
            break
        kind = d.js("return document.getElementById('question') ? document.getElementById('question').textContent : ''")
        # A screenshot in mid-play: a card to play with cards on the table.
        if not shot_taken and d.find(".card.legal") and d.find("#trick figure"):
            d.shot(shot)
            shot_taken = True
        before = d.js(INFO)
        try:
            buttons = d.find("#choices button")
            if d.find("#next-hand"):
                # A hand's summary between hands: the next hand waits behind it.
                d.click_css("#next-hand", 0)
                continue
            legal = d.find(".card.legal")
            if buttons:
                d.click(buttons[0])
            elif legal:
                d.click(legal[0])
            elif d.find("#confirm-discard"):
                cards = d.find("#hand .card")
                i = 0
                while d.js("return document.getElementById('confirm-discard').disabled") and i < len(cards):
                    d.click_css("#hand .card", i)
                    i += 1
                d.click_css("#confirm-discard", 0)
            else:
                raise RuntimeError(f"nothing to click for: {kind}")
        except RuntimeError as e:
            # The page drew the table again between finding and clicking (a
            # poll's answer): find the element again.
            if "stale element" in str(e):
                continue
            raise
        clicks += 1
        # Wait for the page to take the click in.
        for _ in range(200):
            now = d.js(INFO)
            if now != before:
                break
            time.sleep(0.02)
        if clicks > 500:
            raise RuntimeError("more than 500 clicks")
    return clicks, shot_taken, st


TRICK_CARDS = "return Array.from(document.querySelectorAll(arguments[0] + ' figure')).map((f) => f.querySelector('.card').dataset.card)"
SEQ = "return state.view ? state.view.seq : -1"


def log_lines(records, token):
    with open(os.path.join(records, "games", token + ".jsonl")) as f:
        return [json.loads(line) for line in f][1:]


def table_run(d, binary, shots):
    """The card table of issue 54, by clicking: the seat select shows its seat;
    bots paced (a 60 ms pace: the trick fills card by card); a finished trick
    stays on the table until the person continues (the setting "until I
    continue"); the last-trick button; a misclick on an illegal card says why
    and is journaled; undo; a card confirmed before it is played; the hand's
    summary face up between hands; the final table kept at the session's end;
    the page's decision times in the log; rematch and "my games"; the focus kept
    across a redraw; the discard button's label; the glossary; no favicon 404.
    Returns a line of what was seen."""
    records = tempfile.mkdtemp(prefix="tresillo-table-")
    proc, base = start_server(binary, records)
    try:
        d.go(base + "/")
        wait_js(d, "return !!document.getElementById('start')", "the form")
        seat = d.js("const s = document.getElementById('seat'); return [s.value, s.selectedIndex, s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : ''];")
        if seat != ["0", 0, "seat 0"]:
            raise RuntimeError(f"table: the seat select shows {seat}, not seat 0")
        # A finished trick stays until the person continues.
        d.js("localStorage.setItem('tresillo.settings', JSON.stringify({confirm: false, trickHold: 0}));")
        d.js("const r = document.getElementById('rules'); r.value = 'tresillo'; r.dispatchEvent(new Event('change'));"
             "document.getElementById('hands').value = '2'; document.getElementById('seed').value = '11';"
             "const p = document.getElementById('pace'); p.append(new Option('60 ms', '60')); p.value = '60';")
        d.click_css("#start", 0)
        wait_js(d, "return location.pathname.startsWith('/g/')", "the game page")
        token = d.js("return location.pathname.split('/').pop()")
        seen = {"holds": 0, "paced": None, "misclick": False, "undo": False, "confirm": False, "summary": False, "last": False}
        for _ in range(400):
            st = wait_status(d, done="return !!document.getElementById('held-trick') || !!document.getElementById('next-hand')")
            if st == "over":
                break
            if d.find("#held-trick"):
                cards = d.js(TRICK_CARDS, "#held-trick")
                if len(cards) != 3:
                    raise RuntimeError(f"table: the held trick has {cards}")
                if seen["holds"] < 2:
                    # Well past the bots' pace: it stays.
                    time.sleep(0.4)
                    if d.js(TRICK_CARDS, "#held-trick") != cards:
                        raise RuntimeError("table: the finished trick left the table before the person continued")
                    if seen["holds"] == 0:
                        d.shot(os.path.join(shots, "serve-trick-held.png"))
                seen["holds"] += 1
                d.click_css("#continue", 0)
                continue
            if d.find("#next-hand"):
                rows = d.js("return document.querySelectorAll('#hands-face-up tr').length")
                faceup = d.js("return document.querySelectorAll('#hands-face-up .card').length")
                if rows != 3 or faceup < 27:
                    raise RuntimeError(f"table: the hand's summary shows {rows} seats, {faceup} cards")
                if not seen["summary"]:
                    d.shot(os.path.join(shots, "serve-summary.png"))
                seen["summary"] = True
                d.click_css("#next-hand", 0)
                continue
            if st != "your_turn":
                continue
            seq = d.js(SEQ)
            if d.find(".card.legal"):
                if not seen["misclick"] and d.find(".card.illegal"):
                    d.click_css(".card.illegal", 0)
                    if "cannot be played" not in d.js(ERROR_TEXT):
                        raise RuntimeError(f"table: a misclick said {d.js(ERROR_TEXT)!r}")
                    seen["misclick"] = True
                if not seen["undo"] and d.find("#undo"):
                    d.click_css("#undo", 0)
                    wait_js(d, f"return state.view.seq > {seq}", "the undo")
                    seen["undo"] = True
                    continue
                if not seen["last"] and d.find("#show-last"):
                    d.click_css("#show-last", 0)
                    if len(d.js(TRICK_CARDS, "#last-trick")) != 3:
                        raise RuntimeError("table: the last-trick button shows no trick")
                    d.click_css("#show-last", 0)
                    seen["last"] = True
                leading = not d.find("#trick figure")
                if seen["paced"] is None and leading:
                    # The trick fills card by card at the bots' pace.
                    d.js("window.__fills = []; window.__t = setInterval(() => { const n = document.querySelectorAll('#trick figure, #held-trick figure').length;"
                         " const f = window.__fills; if (!f.length || f[f.length - 1][1] !== n) f.push([performance.now(), n]); }, 10);")
                    d.click_css(".card.legal", 0)
                    wait_js(d, "return window.__fills.some((x) => x[1] === 3)", "the trick filled")
                    fills = d.js("clearInterval(window.__t); return window.__fills")
                    # Each bot card shown apart, the second no sooner than about
                    # the pace after the first (unpaced, `rule` answers in
                    # microseconds and both come in one view).
                    t = {n: ms for ms, n in reversed(fills)}
                    if 2 not in t or 3 not in t or t[3] - t[2] < 30:
                        raise RuntimeError(f"table: the bots were not paced: {fills}")
                    seen["paced"] = round(t[3] - t[2])
                    continue
                if not seen["confirm"]:
                    d.js("settings.confirm = true;")
                    d.click_css(".card.legal", 0)
                    if not d.find("#confirm-play") or d.js(SEQ) != seq:
                        raise RuntimeError("table: with confirmation on, a card was played at the first click")
                    d.click_css("#confirm-play", 0)
                    d.js("settings.confirm = false;")
                    seen["confirm"] = True
                else:
                    d.click_css(".card.legal", 0)
            elif d.find("#choices button"):
                d.click_css("#choices button", 0)
            elif d.find("#confirm-discard"):
                i = 0
                while d.js("return document.getElementById('confirm-discard').disabled") and i < 9:
                    d.click_css("#hand .card", i)
                    i += 1
                d.click_css("#confirm-discard", 0)
            else:
                continue
            wait_js(d, f"return state.view.seq !== {seq} || !!document.getElementById('error').textContent", "the click taken")
        else:
            raise RuntimeError("table: the game did not end")
        # The final table stays under the last hand's summary.
        for css in ("#summary", "#table", "#hand", "#history li", "#rematch", "#glossary"):
            if not d.find(css):
                raise RuntimeError(f"table: the session's end shows no {css}")
        d.shot(os.path.join(shots, "serve-table-over.png"))
        missing = [k for k, v in seen.items() if not v]
        if missing or seen["holds"] < 5:
            raise RuntimeError(f"table: not seen: {missing} ({seen})")
        # The history's numbers have room (10 and up were clipped).
        pad = d.js("return parseFloat(getComputedStyle(document.getElementById('history')).paddingLeft)")
        if pad < 30:
            raise RuntimeError(f"table: the history's padding is {pad}px")
        # The focus survives a redraw.
        d.js("document.getElementById('rematch').focus(); render();")
        if d.js("return document.activeElement.id") != "rematch":
            raise RuntimeError("table: a redraw dropped the focus")
        # The discard button says what is needed when a card must go.
        label = d.js("return requestPanel({request: {kind: 'discard', question: 'q', choices: [], discard: {min: 1, max: 8}}, can_undo: false}).textContent")
        if "Choose 1 to 8 cards" not in label or "nothing" in label:
            raise RuntimeError(f"table: the discard button reads {label!r}")
        # The log: the page's decision times, the misclick, the undo.
        lines = log_lines(records, token)
        mine = [ln for ln in lines if ln.get("seat") == 0 and "event" not in ln]
        if not mine or not all("page_ms" in ln and "server_ms" in ln for ln in mine):
            raise RuntimeError(f"table: decisions without timing: {mine[:2]}")
        if not any(ln.get("event") == "misclick" for ln in lines) or not any("undo" in ln for ln in lines):
            raise RuntimeError("table: the misclick or the undo is not in the log")
        # Rematch: a new game with the same settings; both in "my games".
        d.click_css("#rematch", 0)
        wait_js(d, f"return location.pathname.startsWith('/g/') && !location.pathname.endsWith('{token}')", "the rematch")
        d.go(base + "/")
        wait_js(d, "return document.querySelectorAll('#my-games li').length >= 2", "my games")
        bad = [m for m in d.console() if "404" in m or "favicon" in m]
        if bad:
            raise RuntimeError(f"table: the console reports {bad[:2]}")
        return (f"table: seat select shows seat 0; bots paced ({seen['paced']} ms between two bot cards at 60 ms); "
                f"{seen['holds']} finished tricks held until continued; misclick, undo, confirm, last trick, summary face up, "
                f"final table, timing in the log, rematch and my games")
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(records, ignore_errors=True)


def step(d):
    """One answer of the page's question if it is the person's turn (a
    summary's "next hand" first); returns whether it clicked."""
    if d.find("#next-hand"):
        d.click_css("#next-hand", 0)
        return True
    st = d.js("const e = document.getElementById('status'); return e ? e.dataset.status : null;")
    if st != "your_turn":
        return False
    seq = d.js(SEQ)
    if d.find("#choices button"):
        d.click_css("#choices button", 0)
    elif d.find(".card.legal"):
        d.click_css(".card.legal", 0)
    elif d.find("#confirm-discard"):
        i = 0
        while d.js("return document.getElementById('confirm-discard').disabled") and i < 9:
            d.click_css("#hand .card", i)
            i += 1
        d.click_css("#confirm-discard", 0)
    else:
        return False
    wait_js(d, f"return state.view.seq !== {seq} || !!document.getElementById('error').textContent", "the click taken")
    return True


def friends_run(d, port, binary, shots):
    """Two people at one table in two browser contexts (two Chromium
    profiles): the host makes a game with a friend's seat and a bot, opens
    the friend's own link in the other browser, and both play the hand out by
    clicking; each page names the other person "friend", shows its own hand
    only, and only the host's lists the link."""
    records = tempfile.mkdtemp(prefix="tresillo-friends-")
    profile = tempfile.mkdtemp(prefix="tresillo-chromium-friend-")
    proc, base = start_server(binary, records)
    d2 = Driver(port)
    try:
        d2.start(profile, 900, 800)
        d.go(base + "/")
        wait_js(d, "return !!document.getElementById('start')", "the form")
        d.js("localStorage.setItem('tresillo.settings', JSON.stringify({confirm: false, trickHold: 300}));"
             "document.getElementById('seed').value = '11'; document.getElementById('hands').value = '2'; document.getElementById('pace').value = '0';"
             "const o = document.querySelectorAll('[data-opponent]'); o[0].value = 'human'; o[1].value = 'rule';")
        d.click_css("#start", 0)
        link = wait_js(d, "const a = document.querySelector('#invites a'); return a ? a.href : null", "the friend's link")
        host = d.js("return location.pathname.split('/').pop()")
        if host in link:
            raise RuntimeError("friends: the friend's link is the host's")
        d2.go(link)
        wait_js(d2, "return !!document.getElementById('status')", "the friend's page")
        if d2.find("#invites"):
            raise RuntimeError("friends: the friend's page lists links")
        names = (d.js("return state.view.seat_names"), d2.js("return state.view.seat_names"))
        if names != (["you", "friend", "rule"], ["friend", "you", "rule"]):
            raise RuntimeError(f"friends: the seats are named {names}")
        clicks = [0, 0]
        end = time.monotonic() + 60
        while time.monotonic() < end:
            over = [x.js("return state.view ? state.view.status : null") == "over" for x in (d, d2)]
            if all(over):
                break
            mine = [set(x.js("return state.view && state.view.view ? state.view.view.hand : []")) for x in (d, d2)]
            if mine[0] & mine[1]:
                raise RuntimeError(f"friends: both pages show {mine[0] & mine[1]}")
            moved = False
            for k, x in enumerate((d, d2)):
                if step(x):
                    clicks[k] += 1
                    moved = True
            if not moved:
                time.sleep(0.05)
        else:
            raise RuntimeError("friends: the hand did not end")
        d2.shot(os.path.join(shots, "serve-friends.png"))
        if min(clicks) < 3:
            raise RuntimeError(f"friends: clicks {clicks}")
        return f"friends: two browsers at one table by their own links, {clicks[0]} and {clicks[1]} clicks, each saw only its hand"
    finally:
        d2.quit()
        proc.kill()
        proc.wait()
        shutil.rmtree(records, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)


STUDY_TOML = """title = "two conditions"
rules = "tresillo"
opponents = ["random", "rule"]
human_seats = [0]
deals_per_participant = 2
consent = "I agree that my games are recorded."
completion_code = "BROWSER-2C"
researcher_token = "researcher-token-of-the-browser-test"

[book]
seed = 5
count = 2

[practice]
seed = 99
count = 1

[assignment]
seed = 42

[[conditions]]
name = "A"

[[conditions]]
name = "B"
opponents = ["rule", "rule"]

[[questions]]
id = "trumps"
text = "Who chooses the trump suit?"
choices = ["The dealer", "The player who wins the auction"]
answer = "The player who wins the auction"
must_be_correct = true
when = "before"

[[questions]]
id = "enjoy"
text = "Did you enjoy the games?"
choices = ["No", "Yes"]

[[questions]]
id = "comment"
text = "Anything else?"

[[participants]]
id = "p1"
token = "token-of-participant-one-in-the-browser"

[[participants]]
id = "p2"
token = "token-of-participant-two-in-the-browser"
"""
QUESTION_OR_END = "return !!document.getElementById('study-question') || !!document.getElementById('end')"


def answer_choice(d, qid, choice):
    wait_js(d, f"const q = document.getElementById('study-question'); return q && q.dataset.question === '{qid}'",
            f"question {qid}")
    d.js("document.querySelector(`#answer-choices button[data-choice='${arguments[0]}']`).click()", choice)


def study_run(d, binary, shots):
    """A study of two conditions in the browser (examples: docs/STUDY.md): the
    assignment puts p1 and p2 in different conditions; p1 accepts the consent,
    fails the comprehension check once (asked again), plays the practice deal
    (shown as practice) and two scored deals by clicking, answers the
    questionnaire (a choice and a text) and gets the completion code; p2 starts
    and withdraws (their journal is one line). The researcher's page shows each
    condition's progress and the withdrawal and exports; its deals.csv has p1's
    two scored deals only, and `tresillo study export --baseline rule` pairs with
    its baseline through scripts/paired.py. Returns a line to print."""
    tmp = tempfile.mkdtemp(prefix="tresillo-study-")
    study = os.path.join(tmp, "study")
    os.makedirs(study)
    with open(os.path.join(study, "study.toml"), "w") as f:
        f.write(STUDY_TOML)
    t1, t2 = "token-of-participant-one-in-the-browser", "token-of-participant-two-in-the-browser"
    proc, base = start_server(binary, os.path.join(tmp, "games"), ["--study", study])
    try:
        d.go(f"{base}/study/{t1}")
        wait_js(d, "return !!document.getElementById('accept')", "the consent")
        d.click_css("#accept", 0)
        answer_choice(d, "trumps", "The dealer")
        wait_js(d, "const q = document.getElementById('study-question'); return q && q.dataset.wrong === '1'",
                "the comprehension check asked again")
        answer_choice(d, "trumps", "The player who wins the auction")
        wait_status(d)
        progress = d.js("return document.getElementById('progress').textContent")
        if "practice deal 1 of 1" not in progress:
            raise RuntimeError(f"the first deal is not shown as practice: {progress!r}")
        clicks, _, st = click_through(d, os.path.join(shots, "serve-study.png"), done=QUESTION_OR_END)
        if st != "done":
            raise RuntimeError(f"the study's games ended {st}, not on its questionnaire")
        answer_choice(d, "enjoy", "Yes")
        wait_js(d, "const q = document.getElementById('study-question'); return q && q.dataset.question === 'comment'",
                "the free-text question")
        d.js("document.getElementById('answer-text').value = 'Good games, \"thanks\"'")
        d.click_css("#answer-send", 0)
        code = wait_js(d, "const c = document.getElementById('completion-code'); return c ? c.textContent : null",
                       "the completion code")
        if code != "BROWSER-2C":
            raise RuntimeError(f"completion code {code!r}")
        rows = d.js("return [document.querySelectorAll('#results tr').length - 1,"
                    " document.querySelectorAll('#results tr[data-practice]').length]")
        if rows != [3, 1]:
            raise RuntimeError(f"the end page lists {rows} (deals, practice), expected [3, 1]")
        d.shot(os.path.join(shots, "serve-study-end.png"))
        # p2: the other condition; withdraws in the middle of the practice deal.
        d.go(f"{base}/study/{t2}")
        wait_js(d, "return !!document.getElementById('accept')", "the consent")
        d.click_css("#accept", 0)
        answer_choice(d, "trumps", "The player who wins the auction")
        wait_status(d)
        d.click_css("#withdraw", 0)
        d.click_css("#withdraw-confirm", 0)
        wait_js(d, "return !!document.getElementById('withdrawn')", "the withdrawal")
        with open(os.path.join(study, "games", "p2.jsonl")) as f:
            lines = f.read().splitlines()
        if len(lines) != 1 or '"withdrawn"' not in lines[0]:
            raise RuntimeError(f"p2's journal after the withdrawal: {lines}")
        # The researcher's page: each condition's progress, the withdrawal.
        d.go(f"{base}/research/researcher-token-of-the-browser-test")
        wait_js(d, "return !!document.querySelector('#conditions tr[data-condition]')", "the conditions")
        seen = d.js("return Array.from(document.querySelectorAll('#participants tr[data-id]')).map((r) =>"
                    " [r.dataset.id, r.querySelector('.condition').textContent, r.querySelector('.status').textContent])")
        if sorted(c for _, c, _ in seen) != ["A", "B"] or [s for _, _, s in seen] != ["finished", "withdrawn"]:
            raise RuntimeError(f"the researcher's page shows {seen}")
        d.shot(os.path.join(shots, "serve-study-research.png"))
        d.click_css("#export", 0)
        href = wait_js(d, "const a = document.getElementById('csv'); return a ? a.href : null", "the export")
        with urllib.request.urlopen(href, timeout=30) as resp:
            rows = resp.read().decode().strip().splitlines()
        if len(rows) != 1 + 2 or any("human:p2" in r for r in rows):
            raise RuntimeError(f"the export's deals.csv has {len(rows) - 1} rows, expected p1's 2 scored deals")
    finally:
        proc.kill()
        proc.wait()
    try:
        out = os.path.join(tmp, "export")
        subprocess.run([binary, "study", "export", study, "--out", out, "--baseline", "rule"],
                       capture_output=True, text=True, check=True)
        with open(os.path.join(out, "participants.csv")) as f:
            people = f.read()
        if "p2,,true,,," not in people:
            raise RuntimeError(f"participants.csv does not say p2 withdrew: {people}")
        cond = dict((i, c) for i, c, _ in seen)["p1"]
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "paired.py"),
                            os.path.join(out, "conditions", cond), "0", "--across",
                            os.path.join(out, "conditions", cond, "baseline"), "0"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"paired.py: {r.stderr.strip()}")
        return (f"study: two conditions (p1 in {cond}, p2 in the other), the comprehension check failed once, "
                f"a practice deal and 2 scored deals in {clicks} clicks, the questionnaire answered, code {code}; "
                f"p2 withdrew (journal one line); export without practice or p2, paired with its baseline: "
                f"{r.stdout.splitlines()[1]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


ARROW_RIGHT, ARROW_LEFT, HOME = "\ue014", "\ue012", "\ue011"


def wait_js(d, script, what, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = d.js(script)
        if v:
            return v
        time.sleep(0.05)
    raise RuntimeError(f"the replay board never showed {what}")


def replay_game(d, rec_path, shot):
    """Opens the replay board from the finished game's page and steps through
    every hand: each position must show the record's decision (its seat moving,
    its number), forwards with the arrow key and back to the start. Returns the
    number of positions checked."""
    with open(rec_path) as f:
        records = [json.loads(line) for line in f]
    d.click_css("#replay", 0)
    checked, shot_taken = 0, False
    for k, rec in enumerate(records):
        if k > 0:
            d.js("const s = document.getElementById('hand'); s.value = arguments[0];"
                 "s.dispatchEvent(new Event('change'));", str(k + 1))
        wait_js(d, "const h = document.getElementById('hand');"
                   f"return !!document.querySelector('#moves li.current') && (!h || h.value === '{k + 1}')",
                f"hand {k + 1}")
        steps = rec["decisions"]
        wait_js(d, f"return document.querySelectorAll('#moves li').length === {len(steps)}", "the moves")
        for i, step in enumerate(steps):
            got = d.js("const c = document.querySelector('#moves li.current');"
                       "const t = document.querySelector('.seat.turn');"
                       "return [Array.from(c.parentNode.children).indexOf(c), t ? +t.dataset.seat : null];")
            if got != [i, step["seat"]]:
                raise RuntimeError(f"hand {k + 1} decision {i + 1}: the board shows {got}, the record seat {step['seat']}")
            checked += 1
            if not shot_taken and "play" in step and i > len(steps) // 2:
                # Mid-play with the analysis in: the judged cards under the hand.
                wait_js(d, "return !document.getElementById('analysing') && !!document.getElementById('judge')",
                        "the analysis")
                d.shot(shot)
                shot_taken = True
            d.key(ARROW_RIGHT)
        wait_js(d, "return document.getElementById('where').textContent.includes('(end)')", "the end")
        d.key(ARROW_LEFT)
        wait_js(d, f"return document.querySelectorAll('#moves li')[{len(steps) - 1}].className === 'current'",
                "a step back")
        d.key(HOME)
        wait_js(d, "return document.querySelectorAll('#moves li')[0].className === 'current'", "the first decision")
    if not shot_taken:
        raise RuntimeError("no card decision to show in the replay")
    return checked


COUNT_FETCHES = ("if (!window.__fetches) { window.__fetches = 0; const f = window.fetch;"
                 " window.fetch = function (...a) { window.__fetches++; return f.apply(this, a); }; }"
                 "return window.__fetches;")
ERROR_TEXT = "const e = document.getElementById('error'); return e ? e.textContent : '';"


def restart_run(d, binary):
    """A game page open across `kill -9` and a restart of the server on the same
    port and records: while the server is down the page backs off (a few requests
    a second at most), and once it is back the page shows the game again by
    itself (no reload) and takes the next click; the version never goes back.
    Returns (requests a second while down, seconds to recover)."""
    records = tempfile.mkdtemp(prefix="tresillo-restart-")
    port = free_port()
    addr = f"127.0.0.1:{port}"
    proc, base = start_server(binary, records, addr=addr)
    try:
        c = Client(base)
        token = c.create(rules="tresillo", players=3, seat=1, hands=2, seed=21)
        d.go(f"{base}/g/{token}")
        if wait_status(d) != "your_turn":
            raise RuntimeError("restart: the game did not start at the person's turn")
        d.js(COUNT_FETCHES)
        # One decision, shown.
        clicks, _, _ = click_once(d)
        wait_status(d)
        before = c.call("GET", f"/api/games/{token}", timed=False)[1]
        proc.kill()
        proc.wait()
        down_at = time.monotonic()
        n0 = d.js(COUNT_FETCHES)
        time.sleep(6)
        n1 = d.js(COUNT_FETCHES)
        rate_down = (n1 - n0) / (time.monotonic() - down_at)
        if "connection" not in d.js(ERROR_TEXT):
            raise RuntimeError("restart: the page did not say the connection failed")
        proc, base = start_server(binary, records, addr=addr)
        up_at = time.monotonic()
        end = up_at + 45
        while time.monotonic() < end:
            if not d.js(ERROR_TEXT) and d.js("const e = document.getElementById('status'); return e ? e.dataset.status : null;") == "your_turn":
                break
            time.sleep(0.1)
        else:
            raise RuntimeError(f"restart: the page never recovered (it shows {d.js(ERROR_TEXT)!r})")
        recovered = time.monotonic() - up_at
        after = c.call("GET", f"/api/games/{token}", timed=False)[1]
        if after["version"] < before["version"]:
            raise RuntimeError(f"restart: version went back from {before['version']} to {after['version']}")
        # The next click is taken and shown (no 409, no reload).
        click_once(d)
        wait_status(d)
        if d.js(ERROR_TEXT):
            raise RuntimeError(f"restart: the click after the restart failed: {d.js(ERROR_TEXT)!r}")
        seq = c.call("GET", f"/api/games/{token}", timed=False)[1]["seq"]
        if seq <= after["seq"]:
            raise RuntimeError("restart: the click after the restart was not applied")
        total = (d.js(COUNT_FETCHES) - n0) / (time.monotonic() - down_at)
        if rate_down > 4 or total > 4:
            raise RuntimeError(f"restart: {rate_down:.1f} requests a second while down, {total:.1f} overall")
        if d.js("return performance.getEntriesByType('navigation').length") != 1:
            raise RuntimeError("restart: the page was reloaded")
        return rate_down, recovered, total
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(records, ignore_errors=True)


def click_once(d):
    """One click of the person's question (see `click_through`), waiting for the
    page to take it in."""
    before = d.js(INFO)
    if d.find("#choices button"):
        d.click_css("#choices button", 0)
    elif d.find(".card.legal"):
        d.click_css(".card.legal", 0)
    else:
        raise RuntimeError("restart: nothing to click")
    for _ in range(200):
        if d.js(INFO) != before:
            break
        time.sleep(0.02)
    return 1, False, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=binary_path())
    ap.add_argument("--shots", default="docs")
    a = ap.parse_args()
    if not shutil.which("chromium") or not shutil.which("chromedriver"):
        print("skipped: no chromium or chromedriver (apt-get install chromium chromium-driver)")
        return 77
    records = tempfile.mkdtemp(prefix="tresillo-browser-")
    profile = tempfile.mkdtemp(prefix="tresillo-chromium-")
    proc, base = start_server(a.binary, records)
    port = free_port()
    drv = subprocess.Popen(["chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    d = Driver(port)
    failures = []
    try:
        for _ in range(100):
            try:
                d.call("GET", "/status")
                break
            except Exception:  # noqa: BLE001 - not up yet
                time.sleep(0.05)
        d.start(profile, 1000, 900)
        for rules, players, hands, seed, shot in GAMES:
            t = time.monotonic()
            token, clicks = play_game(d, base, rules, players, hands, seed, shot, a.shots)
            print(f"({rules}: {time.monotonic() - t:.1f} s)")
            if rules == "tresillo":
                d.shot(os.path.join(a.shots, "serve-tresillo-over.png"))
            rec = os.path.join(records, "records", token + ".jsonl")
            r = subprocess.run([a.binary, "replay", rec], capture_output=True, text=True)
            with open(rec) as f:
                n = sum(1 for _ in f)
            if r.returncode != 0 or n != hands:
                failures.append(f"{rules}: {n} records, replay: {r.stderr.strip()}")
            print(f"{rules}: {hands} hand(s) played in {clicks} clicks; tresillo replay reproduces {n} record(s)")
            if rules == "tresillo":
                checked = replay_game(d, rec, os.path.join(a.shots, "serve-replay.png"))
                print(f"{rules}: the replay board showed the record's {checked} decisions in order")
        t = time.monotonic()
        print(table_run(d, a.binary, a.shots) + f" ({time.monotonic() - t:.1f} s)")
        t = time.monotonic()
        print(friends_run(d, port, a.binary, a.shots) + f" ({time.monotonic() - t:.1f} s)")
        t = time.monotonic()
        rate, recovered, total = restart_run(d, a.binary)
        print(f"(restart: {time.monotonic() - t:.1f} s)")
        t = time.monotonic()
        print(f"restart: kill -9 and a restart with the page open: {rate:.1f} requests a second while down, "
              f"{total:.1f} overall, recovered without a reload {recovered:.1f} s after the restart")
        print(study_run(d, a.binary, a.shots) + f" ({time.monotonic() - t:.1f} s)")
        # Phone width: a new game's first decision.
        d.size(390, 844)
        d.go(base + "/")
        time.sleep(0.3)
        d.click_css("#start", 0)
        wait_status(d)
        d.shot(os.path.join(a.shots, "serve-phone.png"))
        # No page broke its Content-Security-Policy.
        csp = [m for m in d.console() if "Content Security Policy" in m]
        if csp:
            failures.append(f"Content-Security-Policy violations: {csp[:3]}")
        else:
            print("no Content-Security-Policy violation in the console")
    finally:
        d.quit()
        drv.kill()
        proc.kill()
        proc.wait()
        drv.wait()
        shutil.rmtree(records, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)
    for f in failures:
        print(f"error: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
