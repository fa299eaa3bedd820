//! The replay and analysis board in process (Router through tower's `oneshot`):
//! a record file opened at start and a game played at the server are replayed
//! position by position (each position's decision is the record's), every card
//! decision is judged exactly as `tresillo analyze --pimc` judges it
//! ([`tresillo_sim::analyze`] with its default worlds and seed), the lost values
//! are marked, and unknown ids, hands and paths get 404.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;
use tresillo_core::Seat;
use tresillo_server::{GameSpec, Library, Opened, SEED, Server, Token, WORLDS, router_with};
use tresillo_sim::{HandRecord, PimcConfig, analyze, class_name};

const FIXTURE: &str = include_str!("data/three-hands.jsonl");

fn records() -> Vec<HandRecord> {
    FIXTURE.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

struct Board {
    server: Arc<Server>,
    library: Arc<Library>,
}

impl Board {
    fn new() -> Board {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        let library =
            Arc::new(Library::new(vec![Opened { name: "three-hands.jsonl".into(), records: records() }]));
        Board { server, library }
    }

    async fn get(&self, path: &str) -> (StatusCode, Value) {
        let req = Request::builder().uri(path).body(Body::empty()).unwrap();
        let resp = router_with(
            self.server.clone(),
            self.library.clone(),
            tresillo_server::guard::Access::loopback(),
        )
        .oneshot(req)
        .await
        .unwrap();
        let status = resp.status();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    /// The analysis, once the blocking thread has made it (202 until then).
    async fn analysis(&self, path: &str) -> Value {
        let (s, v) = self.get(path).await;
        assert_eq!(s, StatusCode::ACCEPTED, "the first request starts the analysis: {v}");
        assert_eq!(v["status"], "analysing");
        loop {
            let (s, v) = self.get(path).await;
            if s == StatusCode::OK {
                return v;
            }
            assert_eq!(s, StatusCode::ACCEPTED, "{v}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Position `i` shows decision `i + 1` of the record, every seat's cards as the
/// engine holds them before it, and the last position none.
fn check_positions(rec: &HandRecord, v: &Value) {
    let pos = v["positions"].as_array().unwrap();
    assert_eq!(pos.len(), rec.decisions.len() + 1);
    let mut h = rec.start().unwrap();
    for (i, step) in rec.decisions.iter().enumerate() {
        let d = &pos[i]["decision"];
        assert_eq!(d["seat"], json!(step.seat.0), "decision {}", i + 1);
        assert_eq!(d["act"], serde_json::to_value(step.act).unwrap(), "decision {}", i + 1);
        for s in 0..rec.players {
            let shown: Vec<String> = pos[i]["hands"][usize::from(s)]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().into())
                .collect();
            let held: Vec<String> = h.hand_of(Seat(s)).iter().map(|c| c.to_string()).collect();
            assert_eq!(shown, held, "decision {} seat {s}", i + 1);
        }
        assert_eq!(pos[i]["to_move"], json!(step.seat.0));
        h.apply(step.act).unwrap();
    }
    assert_eq!(pos[rec.decisions.len()]["decision"], Value::Null);
    assert_eq!(v["decisions"], serde_json::to_value(&rec.decisions).unwrap());
}

/// The board's judgement equals `tresillo analyze --pimc`'s, card by card.
fn check_analysis(rec: &HandRecord, v: &Value) -> usize {
    assert_eq!(v["status"], "done", "{v}");
    assert_eq!((v["worlds"].as_u64(), v["seed"].as_u64()), (Some(u64::from(WORLDS)), Some(SEED)));
    let an = analyze(rec, Some(PimcConfig { worlds: WORLDS, seed: SEED })).unwrap();
    let cards = v["cards"].as_array().unwrap();
    assert_eq!(cards.len(), an.cards.len());
    let mut marked = 0;
    for (j, c) in cards.iter().zip(&an.cards) {
        assert_eq!(j["index"], json!(c.index));
        assert_eq!(j["seat"], json!(c.seat.0));
        assert_eq!(j["played"], json!(c.played.to_string()));
        assert_eq!(j["before"], json!(class_name(c.goal, c.before)));
        assert_eq!(j["after"], json!(class_name(c.goal, c.after)));
        assert_eq!(j["changed"], json!(c.changed_outcome()));
        let legal = j["cards"].as_array().unwrap();
        assert_eq!(legal.len(), c.classes.len());
        let pimc = c.pimc.as_ref().expect("pimc estimates");
        for ((x, &(card, class)), p) in legal.iter().zip(&c.classes).zip(pimc) {
            assert_eq!(x["card"], json!(card.to_string()));
            assert_eq!(x["class"], json!(class));
            assert_eq!(x["name"], json!(class_name(c.goal, class)));
            assert_eq!(x["best"], json!(class == c.before));
            assert_eq!(p.card, card);
            assert_eq!(x["pimc"].as_f64(), Some(p.mean()));
            assert_eq!(x["counts"], json!(p.counts));
        }
        // A lost exact value is a mistake (one class) or a blunder (more); a
        // kept one is at most an inaccuracy.
        let lost = c.before.abs_diff(c.after);
        let mark = j["mark"].as_str();
        match lost {
            0 => assert!(mark.is_none() || mark == Some("inaccuracy"), "{j}"),
            1 => assert_eq!(mark, Some("mistake"), "{j}"),
            _ => assert_eq!(mark, Some("blunder"), "{j}"),
        }
        marked += usize::from(lost > 0);
    }
    marked
}

#[test]
fn an_opened_file_replays_decision_by_decision_and_is_judged_as_analyze_judges_it() {
    runtime().block_on(async {
        let b = Board::new();
        let (s, v) = b.get("/api/replay").await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(v["files"], json!([{"id": "f1", "name": "three-hands.jsonl", "hands": 3}]));
        let (s, v) = b.get("/api/replay/f1").await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(v["hands"].as_array().unwrap().len(), 3);
        let mut marked = 0;
        for (k, rec) in records().iter().enumerate() {
            let (s, v) = b.get(&format!("/api/replay/f1/{}", k + 1)).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            check_positions(rec, &v);
            let a = b.analysis(&format!("/api/replay/f1/{}/analysis", k + 1)).await;
            marked += check_analysis(rec, &a);
            // Cached: answered at once.
            let (s, again) = b.get(&format!("/api/replay/f1/{}/analysis", k + 1)).await;
            assert_eq!((s, &again), (StatusCode::OK, &a));
        }
        // The fixture's two random-player slips (tresillo analyze marks them too).
        assert_eq!(marked, 2);
        // The pages and their scripts are served.
        for p in ["/replay", "/replay/f1", "/assets/replay.js", "/assets/cards.js"] {
            let req = Request::builder().uri(p).body(Body::empty()).unwrap();
            let resp =
                router_with(b.server.clone(), b.library.clone(), tresillo_server::guard::Access::loopback())
                    .oneshot(req)
                    .await
                    .unwrap();
            assert_eq!(resp.status(), StatusCode::OK, "{p}");
        }
    });
}

#[test]
fn unknown_ids_hands_and_paths_are_404() {
    runtime().block_on(async {
        let b = Board::new();
        let stranger = Token::random().unwrap();
        for p in [
            "/api/replay/f0".to_string(),
            "/api/replay/f2".into(),
            "/api/replay/f1x".into(),
            "/api/replay/zz".into(),
            format!("/api/replay/{stranger}"),
            format!("/api/replay/{stranger}/1"),
            "/api/replay/f1/0".into(),
            "/api/replay/f1/4".into(),
            "/api/replay/f1/one".into(),
            "/api/replay/f1/4/analysis".into(),
            "/api/replay/..%2F..%2Fetc%2Fpasswd".into(),
            "/api/replay/%2Fetc%2Fpasswd/1".into(),
        ] {
            let (s, v) = b.get(&p).await;
            assert_eq!(s, StatusCode::NOT_FOUND, "{p}: {v}");
            assert!(v["error"].is_string(), "{p}: {v}");
        }
    });
}

#[test]
fn a_game_played_at_the_server_replays_by_its_token() {
    let b = Board::new();
    let spec = GameSpec {
        rules: "tresillo".into(),
        options: Default::default(),
        players: 3,
        seats: vec!["rule".into(), "human".into(), "rule".into()],
        hands: 2,
        seed: 4,
        dealer: 0,
        deals: None,
        owner: None,
        pace_ms: 0,
        undo: false,
        host: None,
        seat_tokens: Default::default(),
        takeover_ms: 0,
        takeover: None,
    };
    let token = b.server.create(spec).unwrap();
    let slot = b.server.get(token).unwrap();
    // The person plays their first legal choice (bots answer on their own threads).
    loop {
        let (over, mine, seq, first) = {
            let g = slot.lock();
            let mine = g.turn() == Some(g.human);
            let first = mine.then(|| g.hand.view(g.human).legal_decisions()[0]);
            (g.is_over(), mine, g.seq, first)
        };
        if over {
            break;
        }
        if mine {
            b.server.decide(&slot, first.unwrap(), seq).unwrap();
        } else {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    let recs = slot.lock().records.clone();
    assert_eq!(recs.len(), 2);
    runtime().block_on(async {
        let (s, v) = b.get(&format!("/api/replay/{token}")).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(v["hands"].as_array().unwrap().len(), 2);
        for (k, rec) in recs.iter().enumerate() {
            let (s, v) = b.get(&format!("/api/replay/{token}/{}", k + 1)).await;
            assert_eq!(s, StatusCode::OK);
            check_positions(rec, &v);
            let a = b.analysis(&format!("/api/replay/{token}/{}/analysis", k + 1)).await;
            check_analysis(rec, &a);
        }
        // The server's games are not listed: only their token opens them.
        let (_, v) = b.get("/api/replay").await;
        assert!(!v.to_string().contains(&token.to_string()));
        // Nor is the token shown in the board's page of the game: it is the
        // game's only key (a screenshot or a shared screen would give it away).
        let (_, v) = b.get(&format!("/api/replay/{token}")).await;
        assert!(!v["name"].to_string().contains(&token.to_string()), "{v}");
    });
}
