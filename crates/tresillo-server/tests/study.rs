//! Study mode through HTTP in process (tower's `oneshot`): participants play a
//! whole study, every response checked against the hidden hands; consent first;
//! isolation (another's or a made-up token: 404); refused requests change
//! nothing; the researcher's progress and export (its deals.csv equal to
//! `tresillo study export`'s); a restart in the middle of a hand resumes it.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower::ServiceExt;
use tresillo_agents::Registry;
use tresillo_core::{CardSet, Decision, Hand, RuleSet, Rules, parse_card};
use tresillo_server::study::{Studies, study_router};
use tresillo_study::{NewStudy, Study, Turn, create_study};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tresillo-server-study-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A study of 2 participants, `per` deals each, seats 0 and 1, rule opponents.
/// Returns the participants' tokens and the researcher's.
fn new_study(dir: &Path, per: u64) -> (Vec<String>, String) {
    let people = create_study(
        dir,
        &NewStudy {
            title: "served".into(),
            rules: Rules::from(RuleSet::TRESILLO),
            players: 3,
            opponents: vec!["rule".into(), "rule".into()],
            human_seats: vec![0, 1],
            seed: 38,
            deals: 6,
            per_participant: per,
            consent: "I agree to be recorded.".into(),
            participants: vec!["a".into(), "b".into()],
        },
        &Registry::builtin(),
    )
    .unwrap();
    // A completion code for crowdsourcing sites, shown at the end.
    let toml = dir.join("study.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replacen("consent = ", "completion_code = \"SERVED-1\"\nconsent = ", 1))
        .unwrap();
    let study = Study::open(dir, Registry::builtin()).unwrap();
    let r = study.file().researcher_token.clone().expect("study new writes a researcher token");
    (people.into_iter().map(|p| p.token).collect(), r)
}

fn open(dir: &Path) -> Arc<Studies> {
    Studies::open(&[dir.to_path_buf()], &Registry::builtin()).unwrap().0
}

async fn call(s: &Arc<Studies>, method: &str, path: &str, body: Option<&str>) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(body.map_or(Body::empty(), |b| Body::from(b.to_string())))
        .unwrap();
    let resp = study_router(s.clone()).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, v)
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

/// Checks that response `v` (participant `token`'s) shows no card their seat
/// may not know, against the hidden deal the study holds, and that it is the
/// study's current moment.
fn check_hidden(s: &Arc<Studies>, token: &str, v: &Value) {
    let mut study = s.lock(0);
    let who = study.who(token).unwrap();
    assert_eq!(v["participant"], study.id(who));
    if v["consented"] == false || !v["question"].is_null() {
        // Before consent, or while a question is asked: no game (and none
        // started here, which `turn` would).
        let mut shown = CardSet::EMPTY;
        cards_in(&v["game"], &mut shown);
        assert!(shown.is_empty() && v["game"].is_null(), "no card is shown: {v}");
        return;
    }
    if v["consented"] == false {
        // Before consent: no game (and none started here, which `turn` would).
        let mut shown = CardSet::EMPTY;
        cards_in(v, &mut shown);
        assert!(shown.is_empty() && v["game"].is_null(), "before consent no card is shown: {v}");
        return;
    }
    let Turn::Decide(p) = study.turn(who).unwrap() else {
        assert!(v["game"].is_null(), "{v}");
        let mut shown = CardSet::EMPTY;
        cards_in(v, &mut shown);
        assert!(shown.is_empty(), "the end page shows cards {shown}: {v}");
        return;
    };
    let g = &v["game"];
    assert_eq!(g["seq"].as_u64().unwrap() as usize, p.at);
    let s = &p.setup;
    let mut h = Hand::with_rules(s.rules, s.players, s.deal, s.dealer).unwrap();
    for st in &p.steps {
        h.apply(st.act).unwrap();
    }
    let known = h.view(s.human_seat).known_cards();
    let mut shown = CardSet::EMPTY;
    cards_in(v, &mut shown);
    let leaked = shown - known;
    assert!(leaked.is_empty(), "{} was shown {leaked} it cannot know, in {v}", s.participant);
    let mut own = CardSet::EMPTY;
    cards_in(&g["view"]["hand"], &mut own);
    assert_eq!(own, h.hand_of(s.human_seat));
    assert_eq!(g["seat"].as_u64().unwrap(), u64::from(s.human_seat.0));
}

fn first_legal(g: &Value) -> Value {
    let r = &g["request"];
    match r["kind"].as_str().unwrap() {
        "play" => json!({"play": r["legal"][0]}),
        "discard" => {
            let min = r["discard"]["min"].as_u64().unwrap() as usize;
            let hand: Vec<&str> =
                g["view"]["hand"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
            json!({"discard": hand[..min].join(" ")})
        }
        _ => r["choices"][0]["decision"].clone(),
    }
}

async fn decide(s: &Arc<Studies>, token: &str, v: &Value) -> Value {
    let g = &v["game"];
    let body = json!({"seq": g["seq"], "decision": first_legal(g)}).to_string();
    let (st, next) = call(s, "POST", &format!("/api/study/{token}/decisions"), Some(&body)).await;
    assert_eq!(st, StatusCode::OK, "{next}");
    check_hidden(s, token, &next);
    next
}

async fn consent(s: &Arc<Studies>, token: &str) -> Value {
    let (st, v) = call(s, "POST", &format!("/api/study/{token}/consent"), Some(r#"{"accept": true}"#)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["consented"], true);
    check_hidden(s, token, &v);
    v
}

/// Plays the participant's games to the end; returns the last response.
async fn play_all(s: &Arc<Studies>, token: &str, mut v: Value) -> Value {
    for _ in 0..2000 {
        if v["done"] == true {
            return v;
        }
        v = decide(s, token, &v).await;
    }
    panic!("the study did not end")
}

#[test]
fn participants_play_the_whole_study_and_see_only_their_seat() {
    let dir = temp_dir("whole");
    let (tokens, _) = new_study(&dir, 3);
    runtime().block_on(async {
        let s = open(&dir);
        // The page opens at the secret link only.
        let (st, _) = call(&s, "GET", &format!("/study/{}", tokens[0]), None).await;
        assert_eq!(st, StatusCode::OK);
        for bad in ["0123456789abcdef0123456789abcdef", "x", "..%2F..%2Fstudy.toml"] {
            let (st, v) = call(&s, "GET", &format!("/study/{bad}"), None).await;
            assert_eq!(st, StatusCode::NOT_FOUND, "{bad}");
            let (st2, v2) = call(&s, "GET", &format!("/api/study/{bad}"), None).await;
            assert_eq!(st2, StatusCode::NOT_FOUND, "{bad}");
            assert!(!v.to_string().contains("\"game\"") && !v2.to_string().contains("\"game\""));
        }
        // Consent first: no game is shown, and no decision is taken.
        let (st, v) = call(&s, "GET", &format!("/api/study/{}", tokens[0]), None).await;
        assert_eq!(st, StatusCode::OK);
        assert_eq!(v["consented"], false);
        assert!(v["game"].is_null());
        assert_eq!(v["consent"], "I agree to be recorded.");
        check_hidden(&s, &tokens[0], &v);
        let (st, _) = call(
            &s,
            "POST",
            &format!("/api/study/{}/decisions", tokens[0]),
            Some(r#"{"seq": 0, "decision": {"play": "1E"}}"#),
        )
        .await;
        assert_eq!(st, StatusCode::CONFLICT);
        let (st, _) =
            call(&s, "POST", &format!("/api/study/{}/consent", tokens[0]), Some(r#"{"accept": false}"#))
                .await;
        assert_eq!(st, StatusCode::BAD_REQUEST);
        assert_eq!(s.lock(0).progress()[0].decisions, 0);
        let v = consent(&s, &tokens[0]).await;
        assert_eq!(v["game"]["hand"], 0);
        assert_eq!(v["game"]["hands"], 3);
        // The other participant sees their own state only.
        let (_, other) = call(&s, "GET", &format!("/api/study/{}", tokens[1]), None).await;
        assert_eq!(other["participant"], "b");
        assert_eq!(other["consented"], false);
        assert!(other["game"].is_null());
        let end = play_all(&s, &tokens[0], v).await;
        assert_eq!(end["played"], 3);
        assert_eq!(end["results"].as_array().unwrap().len(), 3);
        // After the end, a decision is refused.
        let (st, _) = call(
            &s,
            "POST",
            &format!("/api/study/{}/decisions", tokens[0]),
            Some(r#"{"seq": 0, "decision": {"play": "1E"}}"#),
        )
        .await;
        assert_eq!(st, StatusCode::CONFLICT);
        let v = consent(&s, &tokens[1]).await;
        let end = play_all(&s, &tokens[1], v).await;
        assert_eq!(end["done"], true);
        let p = s.lock(0).progress();
        assert_eq!((p[0].played, p[1].played), (3, 3));
    });
    // The consent is in the journal, with its text.
    let journal = std::fs::read_to_string(dir.join("games/a.jsonl")).unwrap();
    assert!(journal.lines().next().unwrap().contains("\"consent\":\"I agree to be recorded.\""), "{journal}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_stale_and_illegal_requests_get_a_4xx_and_change_nothing() {
    let dir = temp_dir("bad");
    let (tokens, _) = new_study(&dir, 2);
    runtime().block_on(async {
        let s = open(&dir);
        let t = &tokens[0];
        let v = consent(&s, t).await;
        let v = decide(&s, t, &v).await;
        let journal = || std::fs::read(dir.join("games/a.jsonl")).unwrap();
        let before = journal();
        let seq = v["game"]["seq"].as_u64().unwrap();
        let url = format!("/api/study/{t}/decisions");
        let good = first_legal(&v["game"]);
        for (body, want) in [
            ("not json".to_string(), StatusCode::BAD_REQUEST),
            (json!({"seq": seq}).to_string(), StatusCode::BAD_REQUEST),
            (json!({"seq": seq, "decision": good, "x": 1}).to_string(), StatusCode::BAD_REQUEST),
            (json!({"seq": seq + 5, "decision": good}).to_string(), StatusCode::CONFLICT),
            (json!({"seq": 0, "decision": good}).to_string(), StatusCode::CONFLICT),
            (json!({"seq": seq, "decision": {"play": "1E"}}).to_string(), StatusCode::UNPROCESSABLE_ENTITY),
            (
                json!({"seq": seq, "decision": {"discard": "1E 1E 1E 1E 1E 1E 1E 1E 1E"}}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
        ] {
            let (st, e) = call(&s, "POST", &url, Some(&body)).await;
            // An illegal card might happen to be legal: only a refused one counts.
            if st == StatusCode::OK {
                panic!("{body} was accepted: {e}");
            }
            assert!(
                st == want || (want == StatusCode::UNPROCESSABLE_ENTITY && st.is_client_error()),
                "{body}: {st} {e}"
            );
            assert!(e["error"].as_str().is_some_and(|m| !m.is_empty()), "{e}");
            assert_eq!(journal(), before, "{body} changed the journal");
        }
        // Another participant's token does not reach this game.
        let (st, e) = call(
            &s,
            "POST",
            &format!("/api/study/{}/decisions", tokens[1]),
            Some(&json!({"seq": seq, "decision": good}).to_string()),
        )
        .await;
        assert_eq!(st, StatusCode::CONFLICT, "{e}"); // b has not consented
        assert_eq!(journal(), before);
        let (st, _) = call(&s, "POST", "/api/study/nobody/decisions", Some("{}")).await;
        assert_eq!(st, StatusCode::NOT_FOUND);
        let (_, again) = call(&s, "GET", &format!("/api/study/{t}"), None).await;
        assert_eq!(again["game"], v["game"]);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_restart_in_the_middle_of_a_hand_resumes_it() {
    let dir = temp_dir("restart");
    let (tokens, _) = new_study(&dir, 2);
    let t = &tokens[1];
    let (seen, decisions) = runtime().block_on(async {
        let s = open(&dir);
        let mut v = consent(&s, t).await;
        for _ in 0..4 {
            v = decide(&s, t, &v).await;
        }
        assert_eq!(v["game"]["hand"], 0, "still in the first game");
        (v, s.lock(0).progress()[1].decisions)
    });
    assert!(decisions > 0);
    // A new server on the same directory: the game continues where it was.
    runtime().block_on(async {
        let s = open(&dir);
        assert_eq!(s.lock(0).progress()[1].decisions, decisions);
        let (st, v) = call(&s, "GET", &format!("/api/study/{t}"), None).await;
        assert_eq!(st, StatusCode::OK);
        assert_eq!(v["consented"], true, "the consent is remembered");
        assert_eq!(v["game"], seen["game"]);
        check_hidden(&s, t, &v);
        let end = play_all(&s, t, v).await;
        assert_eq!(end["played"], 2);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_researcher_sees_progress_and_exports_what_study_export_writes() {
    let dir = temp_dir("research");
    let (tokens, researcher) = new_study(&dir, 2);
    runtime().block_on(async {
        let s = open(&dir);
        // Only the researcher's token opens the researcher's page.
        for bad in [tokens[0].as_str(), "0123456789abcdef0123456789abcdef"] {
            let (st, _) = call(&s, "GET", &format!("/research/{bad}"), None).await;
            assert_eq!(st, StatusCode::NOT_FOUND);
            let (st, _) = call(&s, "GET", &format!("/api/research/{bad}"), None).await;
            assert_eq!(st, StatusCode::NOT_FOUND);
            let (st, _) = call(&s, "POST", &format!("/api/research/{bad}/export"), None).await;
            assert_eq!(st, StatusCode::NOT_FOUND);
        }
        // A participant's token reaches none of the researcher's data either.
        let (st, _) = call(&s, "GET", &format!("/api/study/{researcher}"), None).await;
        assert_eq!(st, StatusCode::NOT_FOUND);
        let v = consent(&s, &tokens[0]).await;
        assert!(v["completion_code"].is_null(), "no code before the end");
        let end = play_all(&s, &tokens[0], v).await;
        assert_eq!(end["completion_code"], "SERVED-1", "the code at the end");
        let mut v = consent(&s, &tokens[1]).await;
        for _ in 0..3 {
            v = decide(&s, &tokens[1], &v).await;
        }
        let (st, r) = call(&s, "GET", &format!("/api/research/{researcher}"), None).await;
        assert_eq!(st, StatusCode::OK, "{r}");
        let p = &r["participants"];
        assert_eq!(
            (p[0]["id"].as_str(), p[0]["played"].as_u64(), p[0]["consented"].as_bool()),
            (Some("a"), Some(2), Some(true))
        );
        assert_eq!((p[1]["played"].as_u64(), p[1]["consented"].as_bool()), (Some(0), Some(true)));
        assert!(p[1]["decisions"].as_u64().unwrap() > 0);
        // Dropout tracking: where each stands and how long since they last did
        // anything (the consent, a decision).
        assert_eq!((p[0]["status"].as_str(), p[1]["status"].as_str()), (Some("finished"), Some("playing")));
        assert!(p[1]["idle_ms"].as_u64().unwrap() < tresillo_server::study::DROPOUT_MS, "{r}");
        assert!(p[1]["last_at"].as_u64().unwrap() > 1_700_000_000_000);
        assert_eq!(p[1]["link"], format!("/study/{}", tokens[1]));
        let (st, e) = call(&s, "POST", &format!("/api/research/{researcher}/export"), None).await;
        assert_eq!(st, StatusCode::CREATED, "{e}");
        assert_eq!(e["rows"], 2);
        assert_eq!(e["name"], "exports/001");
        let (st, csv) = call(&s, "GET", e["csv"].as_str().unwrap(), None).await;
        assert_eq!(st, StatusCode::OK);
        // What `tresillo study export` writes from the same journals.
        let cli = dir.with_extension("cli-export");
        let _ = std::fs::remove_dir_all(&cli);
        let study = Study::open(&dir, Registry::builtin()).unwrap();
        tresillo_study::export(&study, &cli, tresillo_study::Format::Csv).unwrap();
        let want = std::fs::read_to_string(cli.join("deals.csv")).unwrap();
        assert_eq!(csv.as_str().unwrap(), want);
        assert_eq!(std::fs::read_to_string(dir.join("exports/001/deals.csv")).unwrap(), want);
        assert!(dir.join("exports/001/deals.parquet").exists());
        // A second export goes to a new directory; nothing is overwritten.
        let (_, e2) = call(&s, "POST", &format!("/api/research/{researcher}/export"), None).await;
        assert_eq!(e2["name"], "exports/002");
        for bad in ["../../x", "1x", "-1"] {
            let (st, _) =
                call(&s, "GET", &format!("/api/research/{researcher}/exports/{bad}/deals.csv"), None).await;
            assert!(st.is_client_error(), "{bad}: {st}");
        }
        let (st, _) = call(&s, "GET", &format!("/api/research/{researcher}/exports/9/deals.csv"), None).await;
        assert_eq!(st, StatusCode::NOT_FOUND);
        let _ = std::fs::remove_dir_all(&cli);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_participant_added_while_the_server_runs_is_served_at_once() {
    let dir = temp_dir("added");
    let (tokens, r) = new_study(&dir, 1);
    runtime().block_on(async {
        let s = open(&dir);
        let never = "0123456789abcdef0123456789abcdef";
        let (st, _) = call(&s, "GET", &format!("/api/study/{never}"), None).await;
        assert_eq!(st, StatusCode::NOT_FOUND);
        // `tresillo study add-participant`'s call, the server running.
        let token = tresillo_study::add_participant(&dir, "c").unwrap();
        let (st, _) = call(&s, "GET", &format!("/study/{token}"), None).await;
        assert_eq!(st, StatusCode::OK);
        let (st, v) = call(&s, "GET", &format!("/api/study/{token}"), None).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!(v["participant"], "c");
        let v = consent(&s, &token).await;
        let end = play_all(&s, &token, v).await;
        assert_eq!(end["played"], 1);
        // The others are served as before; a token never added is still unknown.
        let (st, v) = call(&s, "GET", &format!("/api/study/{}", tokens[0]), None).await;
        assert_eq!((st, &v["participant"]), (StatusCode::OK, &json!("a")));
        for path in [format!("/api/study/{never}"), format!("/study/{never}")] {
            let (st, _) = call(&s, "GET", &path, None).await;
            assert_eq!(st, StatusCode::NOT_FOUND, "{path}");
        }
        let (st, _) = call(&s, "POST", &format!("/api/study/{never}/decisions"), Some("{}")).await;
        assert_eq!(st, StatusCode::NOT_FOUND);
        // The researcher sees the new participant.
        let (st, v) = call(&s, "GET", &format!("/api/research/{r}"), None).await;
        assert_eq!(st, StatusCode::OK);
        let ids: Vec<&str> =
            v["participants"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert_eq!(v["participants"][2]["played"], 1);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// An opponent that plays as `rule` but, while the test holds its gate closed,
/// says so and waits for the gate to open.
struct Gated(tresillo_agents::RuleAgent, Arc<Gate>);

struct Gate {
    closed: std::sync::Mutex<bool>,
    opened: std::sync::Condvar,
    waiting: std::sync::Mutex<std::sync::mpsc::Sender<()>>,
}

impl Gate {
    fn set(&self, closed: bool) {
        *self.closed.lock().unwrap() = closed;
        self.opened.notify_all();
    }
}

impl tresillo_agents::Agent for Gated {
    fn name(&self) -> &str {
        "gated"
    }
    fn decide(
        &mut self,
        view: &tresillo_core::PlayerView,
        rng: &mut tresillo_agents::AgentRng,
    ) -> Result<Decision, tresillo_agents::Failure> {
        let mut closed = self.1.closed.lock().unwrap();
        if *closed {
            let _ = self.1.waiting.lock().unwrap().send(());
            while *closed {
                closed = self.1.opened.wait(closed).unwrap();
            }
        }
        drop(closed);
        self.0.decide(view, rng)
    }
}

/// A study of participants `a` and `b` in `dir` whose opponents are `gated`
/// (open): the registry, the gate, the channel that says an opponent waits at
/// it, and the two tokens.
fn gated_study(
    dir: &std::path::Path,
) -> (Registry, Arc<Gate>, std::sync::mpsc::Receiver<()>, String, String) {
    let (tx, waiting) = std::sync::mpsc::channel();
    let gate = Arc::new(Gate {
        closed: std::sync::Mutex::new(false),
        opened: std::sync::Condvar::new(),
        waiting: std::sync::Mutex::new(tx),
    });
    let mut registry = Registry::builtin();
    let g = gate.clone();
    registry
        .register(
            tresillo_agents::AgentInfo { name: "gated", help: "rule, held by the test", params: vec![] },
            move |_| Ok(Box::new(Gated(tresillo_agents::RuleAgent::new(Default::default()), g.clone()))),
        )
        .unwrap();
    let people = create_study(
        dir,
        &NewStudy {
            title: "slow".into(),
            rules: Rules::from(RuleSet::TRESILLO),
            players: 3,
            opponents: vec!["gated".into(), "gated".into()],
            human_seats: vec![0, 1],
            seed: 38,
            deals: 6,
            per_participant: 2,
            consent: "ok".into(),
            participants: vec!["a".into(), "b".into()],
        },
        &registry,
    )
    .unwrap();
    let (a, b) = (people[0].token.clone(), people[1].token.clone());
    (registry, gate, waiting, a, b)
}

/// Waits (bounded: a hang guard, not a timing check) until an opponent waits at
/// the gate (`true`) or `task` ends (`false`).
async fn until_held<T>(waiting: &std::sync::mpsc::Receiver<()>, task: &tokio::task::JoinHandle<T>) -> bool {
    for _ in 0..6000 {
        if waiting.try_recv().is_ok() {
            return true;
        }
        if task.is_finished() {
            return false;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    false
}

#[test]
fn a_participant_is_answered_while_another_participants_opponent_thinks() {
    let dir = temp_dir("slow");
    let (registry, gate, waiting, a, b) = gated_study(&dir);
    runtime().block_on(async {
        let s = Studies::open(std::slice::from_ref(&dir), &registry).unwrap().0;
        let mut va = consent(&s, &a).await;
        let vb = consent(&s, &b).await;
        assert!(!vb["game"].is_null(), "b's turn: {vb}");
        // a decides until a decision of theirs leaves an opponent thinking (the
        // gate closed: it waits).
        gate.set(true);
        let mut held = None;
        for _ in 0..200 {
            let g = &va["game"];
            let body = json!({"seq": g["seq"], "decision": first_legal(g)}).to_string();
            let (s2, a2) = (s.clone(), a.clone());
            let task = tokio::spawn(async move {
                call(&s2, "POST", &format!("/api/study/{a2}/decisions"), Some(&body)).await
            });
            if until_held(&waiting, &task).await {
                held = Some(task);
                break;
            }
            let (st, v) = task.await.unwrap();
            assert_eq!(st, StatusCode::OK, "{v}");
            va = v;
        }
        let held = held.expect("an opponent of a's thinks");
        // b is answered while a's opponent thinks; a's request waits for it.
        let b_state = tokio::time::timeout(
            std::time::Duration::from_secs(20),
            call(&s, "GET", &format!("/api/study/{b}"), None),
        )
        .await;
        let progress = tokio::time::timeout(
            std::time::Duration::from_secs(20),
            call(
                &s,
                "GET",
                &format!("/api/research/{}", s.lock(0).file().researcher_token.clone().unwrap()),
                None,
            ),
        )
        .await;
        let a_waited = !held.is_finished();
        gate.set(false);
        let (st, v) = held.await.unwrap();
        let (bst, bv) = b_state.expect("b is answered while a's opponent thinks");
        assert_eq!(bst, StatusCode::OK, "{bv}");
        assert_eq!(bv["game"], vb["game"], "b's game did not move");
        let (pst, _) = progress.expect("the researcher is answered too");
        assert_eq!(pst, StatusCode::OK);
        assert!(a_waited, "a's request waits for its opponent");
        assert_eq!(st, StatusCode::OK, "{v}");
        let end = play_all(&s, &a, v).await;
        assert_eq!(end["played"], 2);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_rebuilt_after_a_restart_asks_its_opponents_without_holding_the_study() {
    let dir = temp_dir("rebuilt");
    let (registry, gate, waiting, a, b) = gated_study(&dir);
    // a plays three decisions of their first game: opponents' decisions are
    // journaled with them. Then the server stops.
    let (before, vb) = runtime().block_on(async {
        let s = Studies::open(std::slice::from_ref(&dir), &registry).unwrap().0;
        let mut va = consent(&s, &a).await;
        let vb = consent(&s, &b).await;
        for _ in 0..3 {
            let g = &va["game"];
            let body = json!({"seq": g["seq"], "decision": first_legal(g)}).to_string();
            let (st, v) = call(&s, "POST", &format!("/api/study/{a}/decisions"), Some(&body)).await;
            assert_eq!(st, StatusCode::OK, "{v}");
            va = v;
        }
        assert_eq!(va["played"], 0, "a's first game goes on: {va}");
        (va, vb)
    });
    // Restarted: a's game is rebuilt at a's first request, its opponents asked
    // again; one waits at the closed gate, and b is answered meanwhile.
    runtime().block_on(async {
        let s = Studies::open(std::slice::from_ref(&dir), &registry).unwrap().0;
        // b's game rebuilt first, the gate open.
        let (st, v) = call(&s, "GET", &format!("/api/study/{b}"), None).await;
        assert_eq!((st, &v["game"]), (StatusCode::OK, &vb["game"]), "{v}");
        gate.set(true);
        let (s2, a2) = (s.clone(), a.clone());
        let task = tokio::spawn(async move { call(&s2, "GET", &format!("/api/study/{a2}"), None).await });
        assert!(until_held(&waiting, &task).await, "the rebuild asks a's opponents again");
        let b_state = tokio::time::timeout(
            std::time::Duration::from_secs(20),
            call(&s, "GET", &format!("/api/study/{b}"), None),
        )
        .await;
        let a_waited = !task.is_finished();
        gate.set(false);
        let (st, va) = task.await.unwrap();
        let (bst, bv) = b_state.expect("b is answered while a's game is rebuilt");
        assert_eq!(bst, StatusCode::OK, "{bv}");
        assert_eq!(bv["game"], vb["game"], "b's game did not move");
        assert!(a_waited, "a's request waits for the rebuild");
        assert_eq!(st, StatusCode::OK, "{va}");
        assert_eq!(va["game"], before["game"], "a's game is where it was before the restart");
        let end = play_all(&s, &a, va).await;
        assert_eq!(end["played"], 2);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_tab_follows_the_changes_made_in_the_first() {
    let dir = temp_dir("two-tabs");
    let (tokens, _) = new_study(&dir, 2);
    let s = open(&dir);
    runtime().block_on(async {
        let t = tokens[0].clone();
        let v = consent(&s, &t).await;
        // The second tab's view, then its long poll on that version.
        let (st, tab2) = call(&s, "GET", &format!("/api/study/{t}"), None).await;
        assert_eq!(st, StatusCode::OK, "{tab2}");
        assert_eq!(tab2["game"]["seq"], v["game"]["seq"]);
        let version = tab2["version"].as_u64().expect("a version");
        let poll = tokio::spawn({
            let (s, t) = (s.clone(), t.clone());
            async move { call(&s, "GET", &format!("/api/study/{t}?wait={version}"), None).await }
        });
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        assert!(!poll.is_finished(), "the poll waits for a change");
        // The first tab decides: the second tab's poll answers with the new state.
        let after = decide(&s, &t, &v).await;
        let started = std::time::Instant::now();
        let (st, seen) = poll.await.unwrap();
        assert_eq!(st, StatusCode::OK, "{seen}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "answered at the change, not after 20 s"
        );
        assert_eq!(seen["game"]["seq"], after["game"]["seq"], "{seen}");
        assert!(seen["version"].as_u64().unwrap() > version);
        // A stale decision from the second tab's old view is refused (409): the
        // page then fetches the current state.
        let body = json!({"seq": tab2["game"]["seq"], "decision": first_legal(&tab2["game"])}).to_string();
        let (st, _) = call(&s, "POST", &format!("/api/study/{t}/decisions"), Some(&body)).await;
        assert_eq!(st, StatusCode::CONFLICT);
    });
}

#[test]
fn the_consent_decision_times_misclicks_and_tab_changes_are_journaled_and_exported() {
    let dir = temp_dir("timing");
    let (tokens, _) = new_study(&dir, 1);
    runtime().block_on(async {
        let s = open(&dir);
        let t = &tokens[0];
        let mut v = consent(&s, t).await;
        for body in
            [r#"{"event": "hidden"}"#, r#"{"event": "visible"}"#, r#"{"event": "misclick", "card": "7C"}"#]
        {
            let (st, e) = call(&s, "POST", &format!("/api/study/{t}/events"), Some(body)).await;
            assert_eq!(st, StatusCode::NO_CONTENT, "{e}");
        }
        for bad in [r#"{"event": "dance"}"#, r#"{"event": "misclick", "card": "ZZ"}"#, r#"["hidden"]"#] {
            let (st, _) = call(&s, "POST", &format!("/api/study/{t}/events"), Some(bad)).await;
            assert_eq!(st, StatusCode::BAD_REQUEST, "{bad}");
        }
        let (st, _) = call(
            &s,
            "POST",
            "/api/study/0123456789abcdef0123456789abcdef/events",
            Some(r#"{"event": "hidden"}"#),
        )
        .await;
        assert_eq!(st, StatusCode::NOT_FOUND);
        // Decisions with the page's own times.
        let mut n = 0;
        while v["done"] != true {
            let g = &v["game"];
            let body = json!({"seq": g["seq"], "decision": first_legal(g), "page_ms": 700 + n}).to_string();
            let (st, next) = call(&s, "POST", &format!("/api/study/{t}/decisions"), Some(&body)).await;
            assert_eq!(st, StatusCode::OK, "{next}");
            v = next;
            n += 1;
        }
        assert!(n > 0);
    });
    // The journal: the consent's time, every decision's times, the events.
    let study = Study::open(&dir, Registry::builtin()).unwrap();
    let events: Vec<_> = study.events().into_iter().filter(|e| e.0 == "a").map(|e| e.2.clone()).collect();
    let kinds: Vec<&str> = events.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds[..4], ["consent", "hidden", "visible", "misclick"]);
    let decisions: Vec<&Value> = events.iter().filter(|e| e["kind"] == "decision").collect();
    assert!(!decisions.is_empty());
    for (i, d) in decisions.iter().enumerate() {
        assert_eq!(d["page_ms"], 700 + i as u64, "{d}");
        assert!(d["server_ms"].is_u64() && d["at"].as_u64().unwrap() > 1_700_000_000_000, "{d}");
    }
    // The export's events.csv: a row an event.
    let out = dir.with_extension("timing-export");
    let _ = std::fs::remove_dir_all(&out);
    tresillo_study::export(&study, &out, tresillo_study::Format::Csv).unwrap();
    let csv = std::fs::read_to_string(out.join("events.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("participant,game,kind,decision,card,at,server_ms,page_ms"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), events.len());
    assert!(rows.iter().any(|r| r.starts_with("a,0,misclick,") && r.contains(",7C,")), "{csv}");
    assert!(rows.iter().any(|r| r.starts_with("a,0,decision,") && r.ends_with(",700")), "{csv}");
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A study of two conditions with a practice deal, a comprehension check that
/// must be answered correctly and a questionnaire, and a participant who
/// withdraws, through HTTP.
#[test]
fn a_design_with_conditions_practice_questions_and_a_withdrawal() {
    let dir = temp_dir("design");
    let text = r#"title = "design"
rules = "tresillo"
opponents = ["rule", "rule"]
human_seats = [0, 1]
deals_per_participant = 1
consent = "I agree."
completion_code = "DESIGN-1"
researcher_token = "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr"

[book]
seed = 38
count = 4

[practice]
seed = 99
count = 1

[assignment]
seed = 42

[[conditions]]
name = "strong"

[[conditions]]
name = "weak"
opponents = ["random", "random"]

[[questions]]
id = "trumps"
text = "Who chooses the trump suit?"
choices = ["the player who wins the auction", "the dealer"]
answer = "the player who wins the auction"
must_be_correct = true
when = "before"

[[questions]]
id = "comment"
text = "Anything else?"

[[participants]]
id = "a"
token = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

[[participants]]
id = "b"
token = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
"#;
    std::fs::write(dir.join("study.toml"), text).unwrap();
    let (a, b) = ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    let r = "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr";
    let s = open(&dir);
    runtime().block_on(async {
        let v = consent(&s, a).await;
        assert_eq!(v["question"]["id"], "trumps");
        assert!(v["game"].is_null());
        // No game before the question is answered.
        let body = json!({"seq": 0, "decision": {"play": "1E"}}).to_string();
        let (st, e) = call(&s, "POST", &format!("/api/study/{a}/decisions"), Some(&body)).await;
        assert_eq!(st, StatusCode::CONFLICT, "{e}");
        assert!(e["error"].as_str().unwrap().contains("answer question `trumps` first"), "{e}");
        let ans = |q: &str, x: &str| json!({"question": q, "answer": x, "page_ms": 700}).to_string();
        let (st, e) =
            call(&s, "POST", &format!("/api/study/{a}/answers"), Some(&ans("trumps", "nobody"))).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{e}");
        let (st, v) =
            call(&s, "POST", &format!("/api/study/{a}/answers"), Some(&ans("trumps", "the dealer"))).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!((v["wrong"].as_str(), v["question"]["id"].as_str()), (Some("trumps"), Some("trumps")));
        let right = ans("trumps", "the player who wins the auction");
        let (st, mut v) = call(&s, "POST", &format!("/api/study/{a}/answers"), Some(&right)).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        check_hidden(&s, a, &v);
        assert_eq!(v["game"]["practice"], true, "the practice deal first: {v}");
        let mut practice_seen = true;
        while !v["game"].is_null() {
            if v["game"]["practice"] == false && practice_seen {
                practice_seen = false;
                // The practice deal is listed, but not scored.
                let score = &v["game"]["score"];
                assert_eq!(score["hands"][0]["practice"], true, "{score}");
                assert_eq!(score["totals"], json!([0, 0, 0]), "{score}");
            }
            v = decide(&s, a, &v).await;
        }
        assert!(!practice_seen, "a scored deal follows the practice deal");
        assert_eq!((v["played"].as_u64(), v["practice_played"].as_u64()), (Some(1), Some(1)));
        assert_eq!(v["question"]["id"], "comment");
        assert_eq!(v["done"], false);
        assert!(v["completion_code"].is_null(), "not before the questionnaire");
        let (st, v) =
            call(&s, "POST", &format!("/api/study/{a}/answers"), Some(&ans("comment", "fine"))).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!((v["done"].as_bool(), v["completion_code"].as_str()), (Some(true), Some("DESIGN-1")));
        assert_eq!(v["results"][0]["practice"], true);

        // b: another condition; withdraws in the middle of the practice deal.
        consent(&s, b).await;
        let (_, v) = call(&s, "POST", &format!("/api/study/{b}/answers"), Some(&right)).await;
        let v = decide(&s, b, &v).await;
        assert!(!v["game"].is_null());
        let (st, e) =
            call(&s, "POST", &format!("/api/study/{b}/withdraw"), Some("{\"withdraw\": false}")).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{e}");
        // An export made before the withdrawal holds b's data: deleted with it.
        let (st, e) = call(&s, "POST", &format!("/api/research/{r}/export"), None).await;
        assert_eq!(st, StatusCode::CREATED, "{e}");
        assert!(dir.join("exports/001/events.csv").exists());
        let (st, v) =
            call(&s, "POST", &format!("/api/study/{b}/withdraw"), Some("{\"withdraw\": true}")).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert!(!dir.join("exports/001").exists(), "an export holding the withdrawn's data is deleted");
        assert_eq!((v["withdrawn"].as_bool(), v["game"].is_null()), (Some(true), true), "{v}");
        let (st, e) =
            call(&s, "POST", &format!("/api/study/{b}/events"), Some("{\"event\": \"hidden\"}")).await;
        assert_eq!(st, StatusCode::GONE, "{e}");
        let (st, e) = call(&s, "POST", &format!("/api/study/{b}/answers"), Some(&right)).await;
        assert_eq!(st, StatusCode::GONE, "{e}");
        let journal = std::fs::read_to_string(dir.join("games/b.jsonl")).unwrap();
        assert_eq!(journal.lines().count(), 1, "{journal}");

        let (st, v) = call(&s, "GET", &format!("/api/research/{r}"), None).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let status: Vec<(&str, &str, &str)> = v["participants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (p["id"].as_str().unwrap(), p["condition"].as_str().unwrap(), p["status"].as_str().unwrap())
            })
            .collect();
        assert_eq!(status, [("a", "strong", "finished"), ("b", "weak", "withdrawn")]);
        let conds = v["conditions"].as_array().unwrap();
        assert_eq!((conds[0]["finished"].as_u64(), conds[1]["withdrawn"].as_u64()), (Some(1), Some(1)));
        assert_eq!(v["assignment"], "permuted blocks of 2, seed 42");
        let (st, e) = call(&s, "POST", &format!("/api/research/{r}/export"), None).await;
        assert_eq!(st, StatusCode::CREATED, "{e}");
        assert_eq!(e["rows"], 1, "the practice deal is no result: {e}");
        let out = dir.join("exports/001");
        let people = std::fs::read_to_string(out.join("participants.csv")).unwrap();
        assert!(people.contains("\nb,,true,,,\n") && people.contains("\na,strong,false,1,1,1\n"), "{people}");
        let q = std::fs::read_to_string(out.join("questionnaire.csv")).unwrap();
        assert_eq!(q.lines().count(), 4, "three answers of a, none of b: {q}");
        assert!(
            std::fs::read_to_string(out.join("conditions/strong/deals.csv")).unwrap().contains("human:a")
        );
        assert_eq!(
            std::fs::read_to_string(out.join("conditions/weak/deals.csv")).unwrap().lines().count(),
            1
        );
    });
    let _ = std::fs::remove_dir_all(&dir);
}
