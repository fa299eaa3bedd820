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

/// Cards named in `v` outside its score (the finished hand's summary is the
/// players' to see) are all ones `seat` may know now.
fn check_seat_sees_only_its_own(server: &Arc<Server>, game: &str, seat: u8, v: &Value) {
    let slot = server.get(tresillo_server::Token::parse(game).unwrap()).unwrap();
    let g = slot.lock();
    if g.seq != v["seq"].as_u64().unwrap() || g.is_over() {
        return;
    }
    let known = g.hand.view(tresillo_core::Seat(seat)).known_cards();
    let mut rest = v.clone();
    rest["score"] = Value::Null;
    let mut shown = tresillo_core::CardSet::EMPTY;
    cards_in(&rest, &mut shown);
    assert!((shown - known).is_empty(), "seat {seat} was shown {} in {v}", shown - known);
    assert_eq!(v["seat"], seat);
}

fn cards_in(v: &Value, out: &mut tresillo_core::CardSet) {
    match v {
        Value::String(s) => {
            for tok in s.split(|c: char| !c.is_ascii_alphanumeric()) {
                if let Ok(c) = tresillo_core::parse_card(tok)
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

#[test]
fn two_friends_play_at_one_table_each_by_their_own_link_and_see_only_their_seat() {
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        // Undo is for a game against bots only.
        let (s, e) = call(
            &server,
            "POST",
            "/api/games",
            Some(json!({"players": 3, "opponents": ["human", "rule"], "undo": true})),
        )
        .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
        let host = create(
            &server,
            json!({"rules": "tresillo", "players": 3, "seat": 0, "hands": 2, "seed": 12,
                   "opponents": ["human", "rule"]}),
        )
        .await;
        let (_, hv) = call(&server, "GET", &format!("/api/games/{host}"), None).await;
        let invites = hv["invites"].as_array().unwrap();
        assert_eq!(invites.len(), 1, "{hv}");
        assert_eq!(invites[0]["seat"], 1);
        let friend = invites[0]["url"].as_str().unwrap().strip_prefix("/g/").unwrap().to_string();
        assert_eq!(friend.len(), 32);
        assert_ne!(friend, host);
        let (_, fv) = call(&server, "GET", &format!("/api/games/{friend}"), None).await;
        // The friend's page: their seat, no one's links, no records of the host's.
        assert_eq!((fv["seat"].as_u64(), fv["token"].as_str()), (Some(1), Some(friend.as_str())));
        assert_eq!(fv["invites"], json!([]));
        assert!(fv["records_url"].is_null());
        assert_eq!(fv["seat_names"], json!(["friend", "you", "rule"]));
        assert_eq!(hv["seat_names"], json!(["you", "friend", "rule"]));
        // A made-up seat token opens nothing.
        let (s, _) = call(&server, "GET", "/api/games/0123456789abcdef0123456789abcdef", None).await;
        assert_eq!(s, StatusCode::NOT_FOUND);
        let mut decided = [0, 0];
        for _ in 0..2000 {
            let (_, hv) = call(&server, "GET", &format!("/api/games/{host}"), None).await;
            if hv["status"] == "over" {
                break;
            }
            let (_, fv) = call(&server, "GET", &format!("/api/games/{friend}"), None).await;
            if hv["status"] != "your_turn" && fv["status"] != "your_turn" {
                // The bot is deciding.
                tokio::time::sleep(Duration::from_millis(2)).await;
                continue;
            }
            check_seat_sees_only_its_own(&server, &host, 0, &hv);
            check_seat_sees_only_its_own(&server, &host, 1, &fv);
            let (me, other, v, k) = if hv["status"] == "your_turn" {
                (&host, &friend, &hv, 0)
            } else if fv["status"] == "your_turn" {
                (&friend, &host, &fv, 1)
            } else {
                continue;
            };
            // The other person cannot answer for this seat.
            let d = json!({"seq": v["seq"], "decision": first_legal(v)});
            let (s, _) = post(&server, other, "decisions", d.clone()).await;
            assert_eq!(s, StatusCode::CONFLICT);
            let (s, next) = post(&server, me, "decisions", d).await;
            assert_eq!(s, StatusCode::OK, "{next}");
            decided[k] += 1;
        }
        let (_, end) = call(&server, "GET", &format!("/api/games/{host}"), None).await;
        assert_eq!(end["status"], "over");
        assert!(decided[0] > 3 && decided[1] > 3, "{decided:?}");
        let (_, fend) = call(&server, "GET", &format!("/api/games/{friend}"), None).await;
        assert_eq!(fend["status"], "over");
        assert_eq!(fend["score"]["totals"], end["score"]["totals"]);
    });
}

#[test]
fn a_friends_seat_left_waiting_is_taken_over_by_a_bot_and_taken_back() {
    let dir = temp_dir("takeover");
    let rt = runtime();
    let (server, _) = Server::open(Some(&dir), tresillo_agents::Registry::builtin()).unwrap();
    rt.block_on(async {
        // Refused: a takeover shorter than the minimum, or by an agent not offered.
        for bad in
            [json!({"takeover_ms": 10}), json!({"takeover_ms": 2000, "takeover": "ismcts:iters=99999999"})]
        {
            let mut body = json!({"players": 3, "opponents": ["human", "rule"]});
            body.as_object_mut().unwrap().extend(bad.as_object().unwrap().clone());
            let (s, e) = call(&server, "POST", "/api/games", Some(body)).await;
            assert!(s == StatusCode::BAD_REQUEST || s == StatusCode::FORBIDDEN, "{s} {e}");
        }
        // Dealer 0: the friend in seat 1 speaks first, and waits.
        let started = Instant::now();
        let host = create(
            &server,
            json!({"rules": "tresillo", "players": 3, "seat": 0, "hands": 1, "seed": 12,
                   "opponents": ["human", "rule"], "takeover_ms": 1000}),
        )
        .await;
        let (_, hv) = call(&server, "GET", &format!("/api/games/{host}"), None).await;
        let friend = hv["invites"][0]["url"].as_str().unwrap().strip_prefix("/g/").unwrap().to_string();
        assert_eq!(hv["turn"], 1);
        assert_eq!(hv["taken"], json!([]));
        let mut v = hv;
        while v["taken"] == json!([]) {
            assert!(started.elapsed() < Duration::from_secs(10), "no takeover: {v}");
            let (_, next) =
                call(&server, "GET", &format!("/api/games/{host}?wait={}", v["version"]), None).await;
            v = next;
        }
        assert!(started.elapsed() >= Duration::from_millis(1000));
        assert_eq!(v["taken"], json!([1]));
        let v = settle(&server, &host, v).await;
        // The bot played the friend's call; the friend's page says so.
        assert!(v["history"][0]["seat"] == 1, "{v}");
        let (_, fv) = call(&server, "GET", &format!("/api/games/{friend}"), None).await;
        assert_eq!(fv["seat_names"][1], "you (a bot plays)");
        // The friend takes the seat back.
        let (s, back) = call(&server, "POST", &format!("/api/games/{friend}/reclaim"), None).await;
        assert_eq!(s, StatusCode::OK, "{back}");
        assert_eq!(back["taken"], json!([]));
    });
    drop(server);
    let lines = log_lines(
        &dir,
        &std::fs::read_dir(dir.join("games"))
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path()
            .file_stem()
            .unwrap()
            .to_string_lossy(),
    );
    let events: Vec<&str> = lines.iter().filter_map(|l| l["event"].as_str()).collect();
    assert_eq!(events, ["takeover", "reclaim"], "{lines:?}");
    // Read back: the seat is the friend's again.
    let (_, errors) = Server::open(Some(&dir), tresillo_agents::Registry::builtin()).unwrap();
    assert!(errors.is_empty(), "{errors:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
