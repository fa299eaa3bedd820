//! The card table of issue 54 through the API: the finished trick kept in the
//! view, the session's last table, names that tell seats apart in the outcome
//! lines, the finished hand face up, paced bots, undo (journaled, replayed after
//! a restart, refused where it is off), the person's timing and events in the
//! log, the favicon and the glossary served.

use crate::api::{call, create, first_legal, play_out, runtime, temp_dir, until_turn};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tresillo_server::Server;

/// Long polls until the game is at the person's turn or over (no leak check:
/// an undo makes `seq` more than the decisions taken).
async fn settle(server: &Arc<Server>, token: &str, mut v: Value) -> Value {
    while v["status"] == "thinking" || v["status"] == "waiting" {
        let (s, next) = call(server, "GET", &format!("/api/games/{token}?wait={}", v["version"]), None).await;
        assert_eq!(s, StatusCode::OK);
        v = next;
    }
    v
}

async fn post(server: &Arc<Server>, token: &str, what: &str, body: Value) -> (StatusCode, Value) {
    call(server, "POST", &format!("/api/games/{token}/{what}"), Some(body)).await
}

#[test]
fn the_trick_a_card_completed_stays_in_the_view_while_the_next_begins() {
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        let token =
            create(&server, json!({"rules": "tresillo", "players": 3, "seat": 1, "hands": 2, "seed": 3}))
                .await;
        let (_, v) = call(&server, "GET", &format!("/api/games/{token}"), None).await;
        let mut v = until_turn(&server, &token, v).await;
        // Views where the next trick has begun: the one before it must be shown.
        let mut seen = 0;
        for _ in 0..200 {
            if v["status"] == "over" {
                break;
            }
            let cur = v["view"]["current_trick"].as_array().unwrap().len();
            let done: u64 = v["view"]["tricks"].as_array().unwrap().iter().map(|t| t.as_u64().unwrap()).sum();
            if cur > 0 && done > 0 {
                let lt = &v["last_trick"];
                assert!(!lt.is_null(), "the next trick began and the last is gone: {v}");
                assert_eq!(lt["trick"].as_u64().unwrap(), done);
                assert_eq!(lt["cards"].as_array().unwrap().len(), 3);
                // Its winner leads the trick now on the table.
                assert_eq!(lt["winner"], v["view"]["current_trick_seats"][0], "{v}");
                seen += 1;
            }
            let (s, next) =
                post(&server, &token, "decisions", json!({"seq": v["seq"], "decision": first_legal(&v)}))
                    .await;
            assert_eq!(s, StatusCode::OK, "{next}");
            v = until_turn(&server, &token, next).await;
        }
        assert_eq!(v["status"], "over");
        assert!(seen > 3, "only {seen} views with a trick begun");
    });
}

#[test]
fn the_session_end_keeps_the_table_names_the_seats_and_shows_the_hand_face_up() {
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        let token = create(
            &server,
            json!({"rules": "tresillo", "players": 4, "seat": 0, "hands": 2, "seed": 5,
                   "opponents": ["rule", "random", "rule"]}),
        )
        .await;
        let end = play_out(&server, &token, 400).await;
        assert_eq!(end["status"], "over");
        // The final table stays: the last hand's view, its history, its last trick.
        assert!(!end["view"].is_null() && !end["table"].is_null(), "{end}");
        assert!(end["request"].is_null());
        assert!(!end["history"].as_array().unwrap().is_empty(), "{end}");
        // Two `rule` opponents are told apart; the person is "you".
        assert_eq!(end["seat_names"], json!(["you", "rule A", "random", "rule B"]));
        let hands = end["score"]["hands"].as_array().unwrap();
        for h in hands {
            let outcome = h["outcome"].as_str().unwrap();
            assert!(!outcome.contains("seat "), "an outcome line names a seat by number: {outcome}");
        }
        // The hand just finished face up: the three active seats' 9 dealt cards,
        // the dealer sitting out.
        let sum = &hands[1]["summary"];
        assert!(hands[0]["summary"].is_null(), "only the last hand is sent face up");
        let dealer = hands[1]["dealer"].as_u64().unwrap() as usize;
        for s in 0..4 {
            let n = sum["dealt"][s].as_array().unwrap().len();
            assert_eq!(n, if s == dealer { 0 } else { 9 }, "seat {s}: {sum}");
        }
        let tricks: u64 = sum["tricks"].as_array().unwrap().iter().map(|t| t.as_u64().unwrap()).sum();
        assert!(tricks <= 9);
        if tricks > 0 {
            assert!(!sum["last_trick"].is_null(), "{sum}");
        }
    });
}

#[test]
fn bots_decide_at_the_pace_the_game_asked_for() {
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        // Seat 2, dealer 0: seat 1 speaks first.
        let started = Instant::now();
        let token = create(
            &server,
            json!({"rules": "tresillo", "players": 3, "seat": 2, "hands": 1, "seed": 9, "pace_ms": 120}),
        )
        .await;
        let (_, v) = call(&server, "GET", &format!("/api/games/{token}"), None).await;
        let v = until_turn(&server, &token, v).await;
        let bot_decisions = v["seq"].as_u64().unwrap();
        assert!(bot_decisions >= 1, "{v}");
        assert_eq!(v["pace_ms"], 120);
        // A lower bound only: each bot decision was shown no sooner than 120 ms
        // after it was asked for.
        assert!(
            started.elapsed() >= Duration::from_millis(120 * bot_decisions),
            "{bot_decisions} bot decisions in {:?}",
            started.elapsed()
        );
        // A pace past the bound is refused.
        let (s, e) = call(&server, "POST", "/api/games", Some(json!({"pace_ms": 60_000}))).await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        assert!(e["error"].as_str().unwrap().contains("pace_ms"), "{e}");
    });
}

/// The log's lines after its header.
fn log_lines(dir: &std::path::Path, token: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("games").join(format!("{token}.jsonl"))).unwrap();
    text.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn undo_takes_back_the_last_decision_is_journaled_and_survives_a_restart() {
    let dir = temp_dir("undo");
    let (token, after_undo);
    {
        let rt = runtime();
        let (server, _) = Server::open(Some(&dir), tresillo_agents::Registry::builtin()).unwrap();
        (token, after_undo) = rt.block_on(async {
            let token = create(
                &server,
                json!({"rules": "tresillo", "players": 3, "seat": 0, "hands": 1, "seed": 2, "undo": true}),
            )
            .await;
            let (_, v) = call(&server, "GET", &format!("/api/games/{token}"), None).await;
            let v = settle(&server, &token, v).await;
            assert_eq!(v["can_undo"], false, "nothing of the person's to take back yet");
            let (s, e) = post(&server, &token, "undo", json!({"seq": v["seq"]})).await;
            assert_eq!(s, StatusCode::CONFLICT, "{e}");
            // The person bids, the bots answer; then it is taken back.
            let bid = v["request"]["choices"][1]["decision"].clone();
            let (s, next) =
                post(&server, &token, "decisions", json!({"seq": v["seq"], "decision": bid})).await;
            assert_eq!(s, StatusCode::OK, "{next}");
            let next = settle(&server, &token, next).await;
            assert_eq!(next["status"], "your_turn", "{next}");
            assert_eq!(next["can_undo"], true);
            // A stale undo is refused.
            let (s, _) = post(&server, &token, "undo", json!({"seq": v["seq"]})).await;
            assert_eq!(s, StatusCode::CONFLICT);
            let (s, back) = post(&server, &token, "undo", json!({"seq": next["seq"]})).await;
            assert_eq!(s, StatusCode::OK, "{back}");
            let back = settle(&server, &token, back).await;
            // The same question as before the decision, at a new seq.
            assert_eq!(back["view"], v["view"]);
            assert_eq!(back["request"], v["request"]);
            assert_eq!(back["history"], v["history"]);
            assert!(back["seq"].as_u64() > next["seq"].as_u64());
            (token, back)
        });
    }
    let lines = log_lines(&dir, &token);
    let undo: Vec<&Value> = lines.iter().filter(|l| l.get("undo").is_some()).collect();
    assert_eq!(undo.len(), 1, "{lines:?}");
    // The person's decision carries the server's time of it.
    assert!(lines.iter().any(|l| l["seat"] == 0 && l.get("server_ms").is_some() && l.get("at").is_some()));
    // A restart reads the undo and resumes at the same question.
    let rt = runtime();
    let (server, errors) = Server::open(Some(&dir), tresillo_agents::Registry::builtin()).unwrap();
    assert!(errors.is_empty(), "{errors:?}");
    rt.block_on(async {
        let (_, v) = call(&server, "GET", &format!("/api/games/{token}"), None).await;
        assert_eq!(v["view"], after_undo["view"]);
        assert_eq!(v["request"], after_undo["request"]);
        // A game without undo refuses it.
        let t2 = create(&server, json!({"rules": "tresillo", "seat": 0, "seed": 2})).await;
        let (_, v2) = call(&server, "GET", &format!("/api/games/{t2}"), None).await;
        let v2 = settle(&server, &t2, v2).await;
        let (s, next) =
            post(&server, &t2, "decisions", json!({"seq": v2["seq"], "decision": first_legal(&v2)})).await;
        assert_eq!(s, StatusCode::OK);
        let next = settle(&server, &t2, next).await;
        assert_eq!(next["can_undo"], false);
        let (s, e) = post(&server, &t2, "undo", json!({"seq": next["seq"]})).await;
        assert_eq!(s, StatusCode::CONFLICT);
        assert!(e["error"].as_str().unwrap().contains("no undo"), "{e}");
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_persons_timing_misclicks_and_tab_changes_are_in_the_log() {
    let dir = temp_dir("timing");
    let rt = runtime();
    let (server, _) = Server::open(Some(&dir), tresillo_agents::Registry::builtin()).unwrap();
    let token = rt.block_on(async {
        let token = create(&server, json!({"rules": "tresillo", "players": 3, "seat": 1, "seed": 4})).await;
        let (_, v) = call(&server, "GET", &format!("/api/games/{token}"), None).await;
        let v = until_turn(&server, &token, v).await;
        for body in [
            json!({"event": "misclick", "card": "7C"}),
            json!({"event": "hidden"}),
            json!({"event": "visible"}),
        ] {
            let (s, e) = post(&server, &token, "events", body).await;
            assert_eq!(s, StatusCode::NO_CONTENT, "{e}");
        }
        // Bad events are refused with a reason.
        let (s, e) = post(&server, &token, "events", json!({"event": "dance"})).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
        let (s, _) = post(&server, &token, "events", json!({"event": "misclick", "card": "ZZ"})).await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        std::thread::sleep(Duration::from_millis(30));
        let body = json!({"seq": v["seq"], "decision": first_legal(&v), "page_ms": 1234});
        let (s, next) = post(&server, &token, "decisions", body).await;
        assert_eq!(s, StatusCode::OK, "{next}");
        token
    });
    let lines = log_lines(&dir, &token);
    let mine = lines.iter().find(|l| l["seat"] == 1 && l.get("event").is_none()).unwrap();
    assert_eq!(mine["page_ms"], 1234);
    assert!(mine["server_ms"].as_u64().unwrap() >= 30, "{mine}");
    assert!(mine["at"].as_u64().unwrap() > 1_700_000_000_000);
    // Bots' decisions carry no timing.
    assert!(lines.iter().filter(|l| l["seat"] != 1).all(|l| l.get("server_ms").is_none()));
    let events: Vec<&str> = lines.iter().filter_map(|l| l["event"].as_str()).collect();
    assert_eq!(events, ["misclick", "hidden", "visible"]);
    assert_eq!(lines.iter().find(|l| l["event"] == "misclick").unwrap()["card"], "7C");
    drop(server);
    // The log with its events and timings reads back.
    let (_, errors) = Server::open(Some(&dir), tresillo_agents::Registry::builtin()).unwrap();
    assert!(errors.is_empty(), "{errors:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_favicon_and_the_glossary_are_served() {
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        for path in ["/favicon.ico", "/assets/favicon.svg", "/assets/glossary.js"] {
            let (s, _) = call(&server, "GET", path, None).await;
            assert_eq!(s, StatusCode::OK, "{path}");
        }
    });
}
