//! The HTTP API in process (axum's Router through tower's `oneshot`, no
//! network): whole games played through it, every response checked against the
//! hidden hands; malformed, illegal, stale and unknown requests refused with a
//! 4xx JSON error and nothing changed; a reloaded server resumes every game at
//! its last decision; finished hands replay as records.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use tower::ServiceExt;
use tresillo_core::{CardSet, Decision, Hand, parse_card};
use tresillo_server::{Server, Token, router};
use tresillo_sim::HandRecord;

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

/// A fresh directory under the system's temporary directory.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tresillo-server-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub(crate) async fn call(
    server: &Arc<Server>,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(body.map_or(Body::empty(), |b| Body::from(b.to_string())))
        .unwrap();
    let resp = router(server.clone()).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, v)
}

pub(crate) async fn raw(server: &Arc<Server>, method: &str, path: &str, body: &str) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let resp = router(server.clone()).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// Every card written in notation anywhere in `v`'s strings.
fn cards_in(v: &Value, out: &mut CardSet) {
    match v {
        Value::String(s) => {
            for tok in s.split(|c: char| !c.is_ascii_alphanumeric()) {
                if let Ok(c) = parse_card(tok)
                    && tok.len() <= 3
                    && tok.chars().last().is_some_and(|x| "EBCO".contains(x))
                {
                    out.insert(c);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| cards_in(x, out)),
        Value::Object(m) => m.values().for_each(|x| cards_in(x, out)),
        _ => {}
    }
}

/// The hand as it was when `v` was sent: rebuilt from the game's finished
/// records and the current hand's steps, up to `v`'s seq.
fn hand_at(server: &Arc<Server>, token: Token, v: &Value) -> Option<Hand> {
    let slot = server.get(token).unwrap();
    let g = slot.lock();
    let k = v["hand"].as_u64().unwrap() as usize;
    let seq = v["seq"].as_u64().unwrap() as usize;
    let before: usize = g.records[..k.min(g.records.len())].iter().map(|r| r.decisions.len()).sum();
    let (deal, dealer, steps) = if k < g.records.len() {
        let r = &g.records[k];
        (r.deal, r.dealer, r.decisions.clone())
    } else {
        (*g.hand.deal(), g.hand.public().dealer, g.steps.clone())
    };
    let mut h = Hand::with_rules(g.rules, g.players(), deal, dealer).unwrap();
    for s in &steps[..seq - before] {
        h.apply(s.act).unwrap();
    }
    Some(h)
}

/// Checks that `v` shows the person no card they may not know.
pub(crate) fn check_hidden(server: &Arc<Server>, token: Token, v: &Value) {
    if v["view"].is_null() {
        return;
    }
    let h = hand_at(server, token, v).unwrap();
    let seat = tresillo_core::Seat(v["seat"].as_u64().unwrap() as u8);
    let known = h.view(seat).known_cards();
    let mut shown = CardSet::EMPTY;
    // The score shows the hand just finished face up (its record is the
    // person's to read): only a finished hand, the last, has a summary.
    let mut rest = v.clone();
    let hands = rest["score"]["hands"].take();
    let finished = hands.as_array().map_or(0, Vec::len);
    for (i, hand) in hands.as_array().into_iter().flatten().enumerate() {
        assert_eq!(!hand["summary"].is_null(), i + 1 == finished, "a summary of hand {i} of {finished}");
    }
    let k = v["hand"].as_u64().unwrap() as usize;
    assert!(finished == k || (finished == k + 1 && v["status"] == "over"), "{finished} finished at hand {k}");
    cards_in(&rest, &mut shown);
    let leaked = shown - known;
    assert!(leaked.is_empty(), "seat {seat} was shown {leaked} it cannot know, in {v}");
    // The hand it is shown is its own.
    let mut own = CardSet::EMPTY;
    cards_in(&v["view"]["hand"], &mut own);
    assert_eq!(own, h.hand_of(seat));
}

/// A legal answer to the view's request: the first choice, the lowest legal
/// card, or a discard of the fewest cards allowed.
pub(crate) fn first_legal(v: &Value) -> Value {
    let r = &v["request"];
    match r["kind"].as_str().unwrap() {
        "play" => json!({"play": r["legal"][0]}),
        "discard" => {
            let min = r["discard"]["min"].as_u64().unwrap() as usize;
            let hand: Vec<&str> =
                v["view"]["hand"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
            json!({"discard": hand[..min].join(" ")})
        }
        _ => r["choices"][0]["decision"].clone(),
    }
}

/// Waits (long polls) until it is the person's turn or the game is over.
pub(crate) async fn until_turn(server: &Arc<Server>, token: &str, mut v: Value) -> Value {
    let t = Token::parse(token).unwrap();
    loop {
        check_hidden(server, t, &v);
        if v["status"] != "thinking" && v["status"] != "waiting" {
            return v;
        }
        let (s, next) = call(server, "GET", &format!("/api/games/{token}?wait={}", v["version"]), None).await;
        assert_eq!(s, StatusCode::OK);
        v = next;
    }
}

/// Plays a game to its end through the API, checking every response; returns
/// the final view.
pub(crate) async fn play_out(server: &Arc<Server>, token: &str, max: usize) -> Value {
    let t = Token::parse(token).unwrap();
    let (_, v) = call(server, "GET", &format!("/api/games/{token}"), None).await;
    let mut v = until_turn(server, token, v).await;
    for _ in 0..max {
        if v["status"] == "over" {
            break;
        }
        assert_eq!(v["status"], "your_turn", "{v}");
        let d = first_legal(&v);
        let (s, next) = call(
            server,
            "POST",
            &format!("/api/games/{token}/decisions"),
            Some(json!({"seq": v["seq"], "decision": d})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{next}");
        check_hidden(server, t, &next);
        v = until_turn(server, token, next).await;
    }
    v
}

pub(crate) async fn create(server: &Arc<Server>, body: Value) -> String {
    let (s, v) = call(server, "POST", "/api/games", Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v["token"].as_str().unwrap().to_string()
}

#[test]
fn whole_sessions_are_played_and_no_response_shows_a_hidden_card() {
    runtime().block_on(async {
        let (server, errors) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        assert!(errors.is_empty());
        // Every built-in rule set at every table size, from the registry.
        let tables = tresillo_core::RuleSet::BUILT_IN
            .into_iter()
            .flat_map(|set| set.spec().tables.iter().map(move |t| (set.name(), t.players)));
        for (i, (rules, players)) in tables.enumerate() {
            let (seat, hands) = (i % usize::from(players), 2 + i % 2);
            let token = create(
                &server,
                json!({"rules": rules, "players": players, "seat": seat, "hands": hands, "seed": 7}),
            )
            .await;
            let v = play_out(&server, &token, 400).await;
            assert_eq!(v["status"], "over", "{rules}: {v}");
            assert_eq!(v["score"]["hands"].as_array().unwrap().len(), hands, "{rules}");
            // Every finished hand replays as a record, decision for decision.
            let slot = server.get(Token::parse(&token).unwrap()).unwrap();
            for r in &slot.lock().records {
                let text = serde_json::to_string(r).unwrap();
                let back: HandRecord = serde_json::from_str(&text).unwrap();
                let h = back.replay().unwrap_or_else(|e| panic!("{rules}: {e}"));
                assert_eq!(h.result().unwrap(), r.result);
            }
        }
    });
}

#[test]
fn bad_requests_get_a_4xx_json_error_and_change_nothing() {
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        // The person is mano (seat 1 with dealer 0): it is their turn at once.
        let token = create(&server, json!({"seat": 1, "seed": 3})).await;
        let (_, v0) = call(&server, "GET", &format!("/api/games/{token}"), None).await;
        let v0 = until_turn(&server, &token, v0).await;
        assert_eq!(v0["status"], "your_turn");
        let seq = v0["seq"].clone();
        let path = format!("/api/games/{token}/decisions");
        let cases: Vec<(&str, String, StatusCode)> = vec![
            ("not JSON", "{".into(), StatusCode::BAD_REQUEST),
            ("no seq", json!({"decision": {"bid": "paso"}}).to_string(), StatusCode::BAD_REQUEST),
            (
                "unknown key",
                json!({"seq": seq, "decision": {"bid": "paso"}, "x": 1}).to_string(),
                StatusCode::BAD_REQUEST,
            ),
            (
                "two kinds",
                json!({"seq": seq, "decision": {"bid": "paso", "play": "1E"}}).to_string(),
                StatusCode::BAD_REQUEST,
            ),
            (
                "bad card",
                json!({"seq": seq, "decision": {"play": "13E"}}).to_string(),
                StatusCode::BAD_REQUEST,
            ),
            (
                "wrong kind",
                json!({"seq": seq, "decision": {"play": "1E"}}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "bid too high",
                json!({"seq": seq, "decision": {"bid": {"level": 9}}}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ("stale", json!({"seq": 99, "decision": {"bid": "paso"}}).to_string(), StatusCode::CONFLICT),
        ];
        for (what, body, want) in cases {
            let (s, v) = raw(&server, "POST", &path, &body).await;
            assert_eq!(s, want, "{what}: {v}");
            assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{what}: {v}");
            let (_, now) = call(&server, "GET", &format!("/api/games/{token}"), None).await;
            assert_eq!(now["seq"], v0["seq"], "{what} changed the game");
            assert_eq!(now["view"], v0["view"], "{what} changed the game");
        }
        let (s, v) = call(&server, "GET", &format!("/api/games/{token}?wait=soon"), None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains("wait"), "{v}");
        for bad in [
            "/api/games/0123456789abcdef0123456789abcdef",
            "/api/games/..%2F..%2Fetc%2Fpasswd",
            "/api/games/x/records",
        ] {
            let (s, v) = call(&server, "GET", bad, None).await;
            assert_eq!(s, StatusCode::NOT_FOUND, "{bad}");
            assert!(v["error"].is_string(), "{bad}: {v}");
        }
        for (what, body) in [
            ("unknown rule set", json!({"rules": "poker"})),
            ("bad table", json!({"players": 5})),
            ("bad seat", json!({"seat": 3})),
            ("too few opponents", json!({"opponents": ["rule"]})),
            ("no hands", json!({"hands": 0})),
            ("unknown option", json!({"options": {"nosuch": "1"}})),
        ] {
            let (s, v) = call(&server, "POST", "/api/games", Some(body)).await;
            assert_eq!(s, StatusCode::BAD_REQUEST, "{what}: {v}");
            assert!(v["error"].is_string(), "{what}");
        }
        // The decision is taken exactly once: the same post again is stale.
        let d = first_legal(&v0);
        let body = json!({"seq": seq, "decision": d});
        assert_eq!(call(&server, "POST", &path, Some(body.clone())).await.0, StatusCode::OK);
        assert_eq!(call(&server, "POST", &path, Some(body)).await.0, StatusCode::CONFLICT);
    });
}

#[test]
fn a_reloaded_server_resumes_every_game_at_its_last_decision() {
    let dir = temp_dir("reload");
    let mut tokens = Vec::new();
    let mut views = Vec::new();
    runtime().block_on(async {
        let (server, errors) = Server::open(Some(&dir), tresillo_agents::Registry::builtin()).unwrap();
        assert!(errors.is_empty());
        for (i, seat) in [0, 1, 2].into_iter().enumerate() {
            let token = create(&server, json!({"seat": seat, "hands": 2, "seed": 40 + i})).await;
            let (_, v) = call(&server, "GET", &format!("/api/games/{token}"), None).await;
            let mut v = until_turn(&server, &token, v).await;
            // A few decisions in (the second game into its second hand).
            for _ in 0..(3 + 12 * i) {
                if v["status"] != "your_turn" {
                    break;
                }
                let body = json!({"seq": v["seq"], "decision": first_legal(&v)});
                let (s, next) =
                    call(&server, "POST", &format!("/api/games/{token}/decisions"), Some(body)).await;
                assert_eq!(s, StatusCode::OK);
                v = until_turn(&server, &token, next).await;
            }
            tokens.push(token);
            views.push(v);
        }
    });
    // A torn line at the end of one log (a write the server never acknowledged).
    let torn = dir.join("games").join(format!("{}.jsonl", tokens[0]));
    let mut text = std::fs::read_to_string(&torn).unwrap();
    text.push_str("{\"hand\":0,\"seat\":1,\"pl");
    std::fs::write(&torn, text).unwrap();
    // A stray file is reported, not loaded, and left alone.
    std::fs::write(dir.join("games").join("notes.txt"), "hello").unwrap();
    // A records file that is not the log's hands (it is derived from the log and
    // not fsynced: a machine that crashed may leave it stale, empty or wrong,
    // even with the right number of lines) is written again at start.
    let rec1 = dir.join("records").join(format!("{}.jsonl", tokens[1]));
    let good = std::fs::read_to_string(&rec1).unwrap();
    assert!(good.lines().count() >= 1, "the second game has finished a hand");
    std::fs::write(&rec1, "{}\n".repeat(good.lines().count())).unwrap();
    runtime().block_on(async {
        let (server, errors) = Server::open(Some(&dir), tresillo_agents::Registry::builtin()).unwrap();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("notes.txt"), "{errors:?}");
        assert_eq!(std::fs::read_to_string(&rec1).unwrap(), good);
        server.resume_bots();
        for (token, before) in tokens.iter().zip(&views) {
            let (s, v) = call(&server, "GET", &format!("/api/games/{token}"), None).await;
            assert_eq!(s, StatusCode::OK);
            let v = until_turn(&server, token, v).await;
            assert_eq!(v["seq"], before["seq"], "{token}");
            assert_eq!(v["view"], before["view"], "{token}");
            assert_eq!(v["score"], before["score"], "{token}");
            let end = play_out(&server, token, 400).await;
            assert_eq!(end["status"], "over");
            // The records file replays, decision for decision.
            let text = std::fs::read_to_string(dir.join("records").join(format!("{token}.jsonl"))).unwrap();
            let slot = server.get(Token::parse(token).unwrap()).unwrap();
            let records = slot.lock().records.clone();
            assert_eq!(text.lines().count(), 2);
            for (line, r) in text.lines().zip(&records) {
                let back: HandRecord = serde_json::from_str(line).unwrap();
                assert_eq!(&back, r);
                back.replay().unwrap();
            }
        }
    });
    assert_eq!(std::fs::read_to_string(dir.join("games").join("notes.txt")).unwrap(), "hello");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn out_of_turn_decisions_are_refused() {
    // A game without a worker: the bots do not move, so it stays a bot's turn.
    let token = Token::random().unwrap();
    let spec = tresillo_server::NewGame {
        rules: None,
        options: Default::default(),
        players: None,
        seat: 0,
        opponents: None,
        hands: None,
        seed: Some(1),
        pace_ms: None,
        undo: None,
        takeover_ms: None,
        takeover: None,
    }
    .to_spec(0)
    .unwrap();
    let mut g = tresillo_server::Game::new(token, spec, &tresillo_agents::Registry::builtin()).unwrap();
    // Dealer 0: seat 1 (a bot) speaks first.
    assert_eq!(g.turn(), Some(tresillo_core::Seat(1)));
    let before = g.hand;
    let e = g.decide(tresillo_core::Seat(0), Decision::Bid(tresillo_core::Bid::Paso), 0).unwrap_err();
    assert!(e.to_string().contains("not seat 0's turn"), "{e}");
    assert_eq!(g.hand, before);
    assert_eq!(g.seq, 0);
    assert!(tresillo_server::game_view(&g)["request"].is_null());
}

#[test]
fn stats_time_the_requests_and_only_on_loopback() {
    // `--stats` on an address other machines reach is refused before binding.
    let config = tresillo_server::ServeConfig {
        stats: true,
        ..tresillo_server::ServeConfig::new("0.0.0.0:0".parse().unwrap(), temp_dir("stats-refused"))
    };
    let e = tresillo_server::serve(&config, tresillo_agents::Registry::builtin(), |_, _, _| {
        panic!("--stats must not serve on 0.0.0.0")
    })
    .unwrap_err();
    assert!(e.to_string().contains("loopback"), "{e}");
    // The histograms count what the timed router answers.
    tresillo_server::stats::enable();
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        let app = tresillo_server::with_stats(router(server.clone()));
        let get = |path: String| {
            let app = app.clone();
            async move {
                let req = Request::builder().uri(path).body(Body::empty()).unwrap();
                let resp = app.oneshot(req).await.unwrap();
                let bytes = resp.into_body().collect().await.unwrap().to_bytes();
                serde_json::from_slice::<Value>(&bytes).unwrap()
            }
        };
        let before = get("/api/stats".into()).await;
        let token = create(&server, json!({"seed": 7})).await;
        for _ in 0..3 {
            get(format!("/api/games/{token}")).await;
        }
        let after = get("/api/stats".into()).await;
        let count = |v: &Value, h: &str| v[h]["count"].as_u64().unwrap();
        // The stats request itself and three views (other tests' requests do not
        // go through the timing layer).
        assert_eq!(count(&after, "views") - count(&before, "views"), 3, "{after}");
        assert_eq!(count(&after, "requests") - count(&before, "requests"), 4, "{after}");
        assert!(after["requests"]["max_ms"].as_f64().unwrap() >= 0.0);
    });
}

#[test]
fn a_game_locked_by_another_thread_does_not_stall_the_async_threads() {
    // One async thread: were it to wait for a game's lock (held while a bot run
    // is fsynced), no other request would be answered meanwhile.
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
    let token = rt.block_on(create(&server, json!({"seed": 9})));
    let before = rt.block_on(async {
        let (_, v) = call(&server, "GET", &format!("/api/games/{token}"), None).await;
        until_turn(&server, &token, v).await
    });
    let slot = server.get(Token::parse(&token).unwrap()).unwrap();
    let held = slot.lock();
    let view = rt.spawn({
        let (server, token) = (server.clone(), token.clone());
        async move { call(&server, "GET", &format!("/api/games/{token}"), None).await }
    });
    // Let the view reach the lock, then ask something else of the same thread
    // (watched from this thread: the runtime's own timers would stall with it).
    std::thread::sleep(std::time::Duration::from_millis(50));
    let meta = rt.spawn({
        let server = server.clone();
        async move { call(&server, "GET", "/api/meta", None).await }
    });
    let start = std::time::Instant::now();
    while !meta.is_finished() && start.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(meta.is_finished(), "the async thread answers nothing while a game is locked");
    assert!(!view.is_finished(), "the view waits for the game");
    drop(held);
    let (s, _) = rt.block_on(meta).unwrap();
    assert_eq!(s, StatusCode::OK);
    let (s, v) = rt.block_on(view).unwrap();
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["seq"], before["seq"]);
    assert_eq!(v["view"], before["view"]);
}

/// Whether the `gated` agent may answer (the test opens and closes the gate).
static GATE: std::sync::Mutex<bool> = std::sync::Mutex::new(true);
static GATE_MOVED: std::sync::Condvar = std::sync::Condvar::new();

fn set_gate(open: bool) {
    *GATE.lock().unwrap() = open;
    GATE_MOVED.notify_all();
}

/// The rule agent, answering only while the gate is open (a slow bot the test
/// controls).
struct Gated(tresillo_agents::RuleAgent);

impl tresillo_agents::Agent for Gated {
    fn name(&self) -> &str {
        "gated"
    }
    fn decide(
        &mut self,
        view: &tresillo_core::PlayerView,
        rng: &mut tresillo_agents::AgentRng,
    ) -> Result<Decision, tresillo_agents::Failure> {
        let mut open = GATE.lock().unwrap();
        while !*open {
            open = GATE_MOVED.wait(open).unwrap();
        }
        drop(open);
        self.0.decide(view, rng)
    }
}

#[test]
fn a_decision_is_answered_while_a_slow_bot_still_thinks() {
    let mut registry = tresillo_agents::Registry::builtin();
    let info =
        tresillo_agents::AgentInfo { name: "gated", help: "rule, when the test lets it", params: vec![] };
    registry
        .register(info, |_| {
            Ok(Box::new(Gated(tresillo_agents::RuleAgent::new(tresillo_agents::RuleParams::default()))))
        })
        .unwrap();
    runtime().block_on(async {
        let limits =
            tresillo_server::limits::Limits { opponents: vec!["gated".into()], ..Default::default() };
        let (server, _) = Server::open_with(None, registry, limits).unwrap();
        set_gate(true);
        let token = create(&server, json!({"seed": 11, "seat": 1, "opponents": ["gated", "gated"]})).await;
        let (_, v) = call(&server, "GET", &format!("/api/games/{token}"), None).await;
        let mut v = until_turn(&server, &token, v).await;
        // Until a decision hands the turn to a bot: then the bot is held.
        loop {
            assert_eq!(v["status"], "your_turn", "{v}");
            set_gate(false);
            let body = json!({"seq": v["seq"], "decision": first_legal(&v)});
            let (s, after) =
                call(&server, "POST", &format!("/api/games/{token}/decisions"), Some(body)).await;
            assert_eq!(s, StatusCode::OK, "{after}");
            assert_eq!(after["seq"], v["seq"].as_u64().unwrap() + 1);
            if after["status"] != "your_turn" {
                // Answered (after BOT_GRACE at most) with the bot still thinking.
                assert!(after["status"] == "thinking" || after["status"] == "waiting", "{after}");
                set_gate(true);
                let end = play_out(&server, &token, 400).await;
                assert_eq!(end["status"], "over");
                return;
            }
            set_gate(true);
            v = after;
        }
    });
}
