//! The attacks of issue 50 on the in-process router (docs/SERVE.md, "Threat
//! model"): a page of another site, a DNS-rebinding page, and a web client
//! asking for an agent the operator did not offer are refused with a JSON
//! error, and nothing runs; every response carries the security headers.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use tower::ServiceExt;
use tresillo_server::guard::Access;
use tresillo_server::{Library, Server, router_with};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tresillo-guard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The router of a server bound to 127.0.0.1:8338 (its own origin), with the
/// operator's default opponents.
fn app(server: &Arc<Server>) -> axum::Router {
    let access = Access::bound("127.0.0.1:8338".parse().unwrap(), &["play.example.org".into()]);
    router_with(server.clone(), Arc::new(Library::new(Vec::new())), access)
}

/// Sends `method path` with `headers` and `body`: status, JSON body, headers.
async fn send(
    server: &Arc<Server>,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, Value, axum::http::HeaderMap) {
    let mut req = Request::builder().method(method).uri(path);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = app(server).oneshot(req.body(Body::from(body.to_string())).unwrap()).await.unwrap();
    let status = resp.status();
    let h = resp.headers().clone();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null), h)
}

const OWN: [(&str, &str); 2] = [("host", "127.0.0.1:8338"), ("content-type", "application/json")];

/// The number of games the server's directory keeps.
fn games_on_disk(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir.join("games")).map_or(0, |d| d.count())
}

#[test]
fn a_cross_site_post_asking_for_a_program_runs_nothing() {
    let dir = temp_dir("pwned");
    let pwned = dir.join("pwned");
    runtime().block_on(async {
        let (server, _) = Server::open(Some(&dir), tresillo_agents::Registry::builtin()).unwrap();
        let ext = format!("ext:cmd=\"touch {}\"", pwned.display());
        // Seat 1: the bots of seats 2 and 0 would decide before the person.
        let body = json!({"seat": 1, "opponents": [ext, "rule"]}).to_string();
        let attacks: [(&str, Vec<(&str, &str)>); 5] = [
            // The issue's reproducer: a foreign page's no-cors fetch (text/plain).
            (
                "cross-origin text/plain",
                vec![
                    ("host", "127.0.0.1:8338"),
                    ("content-type", "text/plain"),
                    ("origin", "http://evil.example"),
                ],
            ),
            ("text/plain, same origin", vec![("host", "127.0.0.1:8338"), ("content-type", "text/plain")]),
            ("no content type", vec![("host", "127.0.0.1:8338")]),
            (
                "cross-origin JSON",
                vec![
                    ("host", "127.0.0.1:8338"),
                    ("content-type", "application/json"),
                    ("origin", "http://evil.example"),
                ],
            ),
            // Even from the server's own page, an external bot is the operator's call.
            (
                "same origin JSON",
                vec![
                    ("host", "127.0.0.1:8338"),
                    ("content-type", "application/json"),
                    ("origin", "http://127.0.0.1:8338"),
                ],
            ),
        ];
        for (what, headers) in &attacks {
            let (s, v, _) = send(&server, "POST", "/api/games", headers, &body).await;
            assert!(s.is_client_error(), "{what}: {s} {v}");
            assert!(v["error"].is_string(), "{what}: {v}");
        }
        // Nothing was created, nothing ran.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(games_on_disk(&dir), 0);
        assert!(!pwned.exists(), "the program ran");
    });
}

#[test]
fn a_foreign_host_is_refused() {
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        // DNS rebinding: the attacker's name resolves to 127.0.0.1.
        for host in ["evil.example", "evil.example:8338", "127.0.0.1:9999"] {
            for (method, path) in [("GET", "/"), ("GET", "/api/meta"), ("POST", "/api/games")] {
                let h = [("host", host), ("content-type", "application/json")];
                let (s, v, _) = send(&server, method, path, &h, "{}").await;
                assert_eq!(s, StatusCode::MISDIRECTED_REQUEST, "{host} {method} {path}: {v}");
                assert!(v["error"].as_str().unwrap().contains("not this server's"), "{v}");
            }
        }
        // The server's own names, and the name the operator allowed.
        for host in ["127.0.0.1:8338", "localhost:8338", "[::1]:8338", "play.example.org"] {
            let (s, v, _) = send(&server, "GET", "/api/meta", &[("host", host)], "").await;
            assert_eq!(s, StatusCode::OK, "{host}: {v}");
        }
        let own_origin = [
            ("host", "127.0.0.1:8338"),
            ("content-type", "application/json"),
            ("origin", "http://127.0.0.1:8338"),
        ];
        let (s, v, _) = send(&server, "POST", "/api/games", &own_origin, "{}").await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        // A cross-site fetch that is not a navigation.
        let h = [("host", "127.0.0.1:8338"), ("sec-fetch-site", "cross-site"), ("sec-fetch-mode", "no-cors")];
        assert_eq!(send(&server, "GET", "/api/meta", &h, "").await.0, StatusCode::FORBIDDEN);
        // A link followed from another site still opens the page.
        let h =
            [("host", "127.0.0.1:8338"), ("sec-fetch-site", "cross-site"), ("sec-fetch-mode", "navigate")];
        assert_eq!(send(&server, "GET", "/", &h, "").await.0, StatusCode::OK);
    });
}

#[test]
fn opponents_the_operator_did_not_offer_are_refused() {
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        for spec in
            ["ext:cmd=true", "ismcts:iters=10000000", "pimc:worlds=100000", "pimc:threads=64", "nosuch"]
        {
            let body = json!({"opponents": [spec, "rule"]}).to_string();
            let (s, v, _) = send(&server, "POST", "/api/games", &OWN, &body).await;
            assert_eq!(s, StatusCode::FORBIDDEN, "{spec}: {v}");
            assert!(v["error"].as_str().unwrap().contains("offered"), "{spec}: {v}");
        }
        // What the page offers (GET /api/meta) is what is accepted.
        let (_, meta, _) = send(&server, "GET", "/api/meta", &OWN[..1], "").await;
        let offered: Vec<String> = meta["agents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["name"].as_str().unwrap().to_string())
            .collect();
        assert!(!offered.iter().any(|a| a.starts_with("ext")), "{offered:?}");
        for spec in &offered {
            let body = json!({"opponents": [spec, spec], "seat": 0}).to_string();
            let (s, v, _) = send(&server, "POST", "/api/games", &OWN, &body).await;
            assert_eq!(s, StatusCode::CREATED, "{spec}: {v}");
        }
        // The operator may offer an external bot.
        let limits =
            tresillo_server::limits::Limits { opponents: vec!["ext:cmd=true".into()], ..Default::default() };
        let (server, _) = Server::open_with(None, tresillo_agents::Registry::builtin(), limits).unwrap();
        let body = json!({"opponents": ["rule", "rule"]}).to_string();
        assert_eq!(send(&server, "POST", "/api/games", &OWN, &body).await.0, StatusCode::FORBIDDEN);
    });
}

#[test]
fn bodies_are_json_objects_within_their_limit() {
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        // serde reads a struct from an array: `["hombre"]` made an hombre game.
        let (s, v, _) = send(&server, "POST", "/api/games", &OWN, r#"["hombre"]"#).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains("object"), "{v}");
        // Too large: the documented JSON error, not axum's plain text.
        let big = format!("{{\"rules\": \"{}\"}}", "x".repeat(200_000));
        let (s, v, h) = send(&server, "POST", "/api/games", &OWN, &big).await;
        assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
        assert!(v["error"].as_str().unwrap().contains("larger than"), "{v}");
        assert_eq!(h["content-type"], "application/json");
    });
}

#[test]
fn every_response_has_the_security_headers() {
    runtime().block_on(async {
        let (server, _) = Server::open(None, tresillo_agents::Registry::builtin()).unwrap();
        let host = [("host", "127.0.0.1:8338")];
        for (method, path, headers) in [
            ("GET", "/", &host[..]),
            ("GET", "/assets/app.js", &host[..]),
            ("GET", "/replay", &host[..]),
            ("GET", "/api/meta", &host[..]),
            ("GET", "/api/games/nosuch", &host[..]),
            ("POST", "/api/games", &[("host", "evil.example")][..]),
        ] {
            let (_, _, h) = send(&server, method, path, headers, "").await;
            assert_eq!(h["x-frame-options"], "DENY", "{path}");
            assert_eq!(h["referrer-policy"], "no-referrer", "{path}");
            assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
            let csp = h["content-security-policy"].to_str().unwrap();
            assert!(
                csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"),
                "{path}: {csp}"
            );
        }
    });
}
