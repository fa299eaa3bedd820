//! The bounds of issue 50 (docs/SERVE.md, "Threat model"): a bot decision past
//! its cap stops its game with the reason; idle games are unloaded past the cap
//! on games in memory and read again at their next request; an address creates
//! a limited number of games a minute; the records directory has a budget;
//! versions never go back across a restart; and, on real sockets, unfinished
//! requests are closed within their timeout while a new client is served.

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;
use tresillo_server::limits::Limits;
use tresillo_server::{Server, router};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tresillo-limits-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `method path` from client address `peer` (None: in process, no address).
async fn call(
    server: &Arc<Server>,
    method: &str,
    path: &str,
    body: Option<Value>,
    peer: Option<&str>,
) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(body.map_or(Body::empty(), |b| Body::from(b.to_string())))
        .unwrap();
    if let Some(p) = peer {
        req.extensions_mut().insert(ConnectInfo(p.parse::<SocketAddr>().unwrap()));
    }
    let resp = router(server.clone()).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

async fn create(server: &Arc<Server>, body: Value) -> String {
    let (s, v) = call(server, "POST", "/api/games", Some(body), None).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v["token"].as_str().unwrap().to_string()
}

/// The rule agent after a long sleep (a search past its cap).
struct Sleepy(tresillo_agents::RuleAgent);

impl tresillo_agents::Agent for Sleepy {
    fn name(&self) -> &str {
        "sleepy"
    }
    fn decide(
        &mut self,
        view: &tresillo_core::PlayerView,
        rng: &mut tresillo_agents::AgentRng,
    ) -> Result<tresillo_core::Decision, tresillo_agents::Failure> {
        std::thread::sleep(Duration::from_millis(1500));
        self.0.decide(view, rng)
    }
}

#[test]
fn a_decision_past_its_cap_stops_the_game_with_the_reason() {
    let mut registry = tresillo_agents::Registry::builtin();
    let info = tresillo_agents::AgentInfo { name: "sleepy", help: "rule, slowly", params: vec![] };
    registry
        .register(info, |_| Ok(Box::new(Sleepy(tresillo_agents::RuleAgent::new(Default::default())))))
        .unwrap();
    let limits = Limits {
        opponents: vec!["sleepy".into()],
        decision_time: Duration::from_millis(200),
        ..Limits::default()
    };
    runtime().block_on(async {
        let (server, _) = Server::open_with(None, registry, limits).unwrap();
        // Seat 0: seat 1's bot decides first.
        let token = create(&server, json!({"seat": 0, "opponents": ["sleepy", "sleepy"], "seed": 5})).await;
        let start = Instant::now();
        let mut v = Value::Null;
        while start.elapsed() < Duration::from_secs(5) {
            v = call(&server, "GET", &format!("/api/games/{token}"), None, None).await.1;
            if v["status"] == "failed" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(v["status"], "failed", "{v}");
        assert!(
            start.elapsed() < Duration::from_millis(1400),
            "stopped at the cap, not when the bot answered"
        );
        let why = v["failure"].as_str().unwrap();
        assert!(why.contains("no decision within 200 ms") && why.contains("sleepy"), "{why}");
        // The bot's late answer changes nothing: the reason stays.
        tokio::time::sleep(Duration::from_millis(1600)).await;
        let v = call(&server, "GET", &format!("/api/games/{token}"), None, None).await.1;
        assert_eq!(v["failure"].as_str(), Some(why), "{v}");
        assert_eq!(v["seq"], 0);
    });
}

#[test]
fn idle_games_are_unloaded_and_read_again_at_their_next_request() {
    let dir = temp_dir("unload");
    let limits = Limits { live_games: 2, ..Limits::default() };
    runtime().block_on(async {
        let (server, _) =
            Server::open_with(Some(&dir), tresillo_agents::Registry::builtin(), limits).unwrap();
        let mut games = Vec::new();
        for seed in 0..5 {
            // Seat 1 is mano: no bot runs, every game is idle at once.
            let t = create(&server, json!({"seat": 1, "seed": seed})).await;
            let v = call(&server, "GET", &format!("/api/games/{t}"), None, None).await.1;
            games.push((t, v));
        }
        assert_eq!(server.live(), 2);
        // The first game, unloaded, answers as before, with a later version.
        let (t, before) = &games[0];
        let (s, v) = call(&server, "GET", &format!("/api/games/{t}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["view"], before["view"]);
        assert!(v["version"].as_u64() >= before["version"].as_u64(), "{v} {before}");
        assert_eq!(server.live(), 2);
        // And it plays on.
        let d = &v["request"]["choices"][0]["decision"];
        let body = json!({"seq": v["seq"], "decision": d});
        let (s, after) = call(&server, "POST", &format!("/api/games/{t}/decisions"), Some(body), None).await;
        assert_eq!(s, StatusCode::OK, "{after}");
    });
}

#[test]
fn an_address_creates_a_limited_number_of_games_a_minute() {
    let limits = Limits { games_per_minute: 3, ..Limits::default() };
    runtime().block_on(async {
        let (server, _) = Server::open_with(None, tresillo_agents::Registry::builtin(), limits).unwrap();
        for _ in 0..3 {
            let (s, v) = call(&server, "POST", "/api/games", Some(json!({})), Some("10.0.0.7:5555")).await;
            assert_eq!(s, StatusCode::CREATED, "{v}");
        }
        let (s, v) = call(&server, "POST", "/api/games", Some(json!({})), Some("10.0.0.7:5556")).await;
        assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
        assert!(v["error"].as_str().unwrap().contains("--games-per-minute"), "{v}");
        // Another address is not held back.
        let (s, _) = call(&server, "POST", "/api/games", Some(json!({})), Some("10.0.0.8:5555")).await;
        assert_eq!(s, StatusCode::CREATED);
    });
}

#[test]
fn the_records_directory_has_a_budget() {
    let dir = temp_dir("budget");
    let limits = Limits { disk_budget: 1 << 20, ..Limits::default() };
    runtime().block_on(async {
        let (server, _) =
            Server::open_with(Some(&dir), tresillo_agents::Registry::builtin(), limits).unwrap();
        let (s, v) = call(&server, "POST", "/api/games", Some(json!({})), None).await;
        assert_eq!(s, StatusCode::INSUFFICIENT_STORAGE, "{v}");
        assert!(v["error"].as_str().unwrap().contains("--disk-budget-mb"), "{v}");
        assert_eq!(std::fs::read_dir(dir.join("games")).unwrap().count(), 0);
    });
}

#[test]
fn a_version_never_goes_back_after_a_restart() {
    let dir = temp_dir("versions");
    let (token, before) = runtime().block_on(async {
        let (server, _) = Server::open(Some(&dir), tresillo_agents::Registry::builtin()).unwrap();
        // Seat 0: the bots play until the person's turn (many changes).
        let t = create(&server, json!({"seat": 0, "seed": 9})).await;
        let mut v = call(&server, "GET", &format!("/api/games/{t}"), None, None).await.1;
        while v["status"] == "thinking" || v["status"] == "waiting" {
            v = call(&server, "GET", &format!("/api/games/{t}?wait={}", v["version"]), None, None).await.1;
        }
        assert_eq!(v["status"], "your_turn", "{v}");
        // A bid (the auction's choices): the bots after the person bid too.
        let body = json!({"seq": v["seq"], "decision": v["request"]["choices"][0]["decision"]});
        let (s, after) = call(&server, "POST", &format!("/api/games/{t}/decisions"), Some(body), None).await;
        assert_eq!(s, StatusCode::OK, "{after}");
        v = after;
        while v["status"] == "thinking" || v["status"] == "waiting" {
            v = call(&server, "GET", &format!("/api/games/{t}?wait={}", v["version"]), None, None).await.1;
        }
        (t, v)
    });
    // The process restarted: the clock starts far lower, the journal's epoch
    // keeps versions going up.
    runtime().block_on(async {
        let (server, _) = Server::open(Some(&dir), tresillo_agents::Registry::builtin()).unwrap();
        let v = call(&server, "GET", &format!("/api/games/{token}"), None, None).await.1;
        assert_eq!(v["seq"], before["seq"]);
        assert!(
            v["version"].as_u64().unwrap() > before["version"].as_u64().unwrap(),
            "{} then {}",
            before["version"],
            v["version"]
        );
    });
}

/// The process's soft limit on open files (Linux; 1024 elsewhere).
fn open_file_limit() -> usize {
    std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l.split_whitespace().nth(3).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(1024)
}

#[test]
fn unfinished_requests_are_closed_in_time_and_a_new_client_is_served() {
    // 1,000 sockets (each open twice: client and server side), fewer when the
    // open-file limit is lower.
    let n = 1000.min(open_file_limit().saturating_sub(200) / 2);
    assert!(n >= 100, "open-file limit too low for this test");
    let header = Duration::from_millis(1500);
    let net = tresillo_server::net::Net {
        header_timeout: header,
        body_timeout: Duration::from_millis(1500),
        max_connections: 4 * n,
    };
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut access = tresillo_server::guard::Access::loopback();
        access.body_timeout = net.body_timeout;
        let app = tresillo_server::router_with(server, Arc::new(tresillo_server::Library::new(Vec::new())), access);
        tokio::spawn(async move { tresillo_server::net::serve_on(listener, app, &net).await });
        let opened = Instant::now();
        // The clients are plain blocking sockets, on a thread of their own.
        let clients = tokio::task::spawn_blocking(move || {
            let mut slow = Vec::new();
            for i in 0..n {
                let mut s = std::net::TcpStream::connect(addr).unwrap();
                // Heads that never end, and bodies that never come.
                let text = if i % 2 == 0 {
                    "GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n".to_string()
                } else {
                    "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{".into()
                };
                s.write_all(text.as_bytes()).unwrap();
                slow.push(s);
            }
            let all_open = opened.elapsed();
            // A new client, served at once.
            let t = Instant::now();
            let mut c = std::net::TcpStream::connect(addr).unwrap();
            c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            c.write_all(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").unwrap();
            let mut answer = Vec::new();
            c.read_to_end(&mut answer).unwrap();
            let served = t.elapsed();
            // Every unfinished request is closed within its timeout (and a
            // margin for the machine): its socket reads to its end.
            std::thread::sleep((all_open + header + Duration::from_secs(1)).saturating_sub(opened.elapsed()));
            let mut closed = 0;
            for mut s in slow {
                s.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
                let mut buf = Vec::new();
                match s.read_to_end(&mut buf) {
                    Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                        // Still open: the test fails without waiting on the others.
                        break;
                    }
                    // Read to its end, or reset: closed.
                    _ => closed += 1,
                }
            }
            (String::from_utf8_lossy(&answer).into_owned(), served, closed, all_open)
        });
        let (answer, served, closed, all_open) = clients.await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(served < Duration::from_secs(1), "a new client waited {served:?} behind {n} unfinished requests");
        let took = opened.elapsed();
        assert_eq!(closed, n, "{closed} of {n} unfinished requests closed");
        assert!(took < all_open + header + Duration::from_secs(4), "closed after {took:?} ({all_open:?} to open them)");
    });
}
