//! Logs written before the shared journal format (format 1, by the server of
//! commit fb68ba9: `tests/data/log-format-1`) still load and replay to the same
//! state: a session of three hands left in its third (undo, the person's timing,
//! misclicks and tab changes) and a table with a friend whose seat a bot took
//! over and gave back. Their records are the records that server wrote, byte for
//! byte; their logs are not rewritten; a game continued after the load appends
//! to its old log, which reads back.

use crate::api::temp_dir;
use serde_json::{Value, json};
use std::path::Path;
use tresillo_agents::{Registry, TablePlayer};
use tresillo_core::Seat;
use tresillo_server::{Game, Server, Token};

fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/log-format-1")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// What the generator of the fixtures wrote of each game's state.
fn summary(g: &Game) -> Value {
    json!({
        "seq": g.seq, "hand": g.k, "taken": g.taken, "steps": g.steps,
        "turn": g.turn().map(|s| s.0), "over": g.is_over(), "totals": g.totals(),
        "request": format!("{:?}", g.hand.request()),
        "records": g.records.len(),
    })
}

fn records_text(g: &Game) -> String {
    g.records.iter().map(|r| serde_json::to_string(r).unwrap() + "\n").collect()
}

#[test]
fn format_1_logs_load_and_replay_to_the_state_and_records_they_had() {
    let dir = temp_dir("compat");
    copy_dir(&fixture(), &dir);
    let expected: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let logs: Vec<(String, Vec<u8>)> = expected
        .keys()
        .map(|t| (t.clone(), std::fs::read(dir.join(format!("games/{t}.jsonl"))).unwrap()))
        .collect();
    {
        let (server, errors) = Server::open(Some(&dir), Registry::builtin()).unwrap();
        assert!(errors.is_empty(), "{errors:?}");
        for (token, want) in &expected {
            let slot = server.get(Token::parse(token).unwrap()).expect("the game is loaded");
            let g = slot.lock();
            assert_eq!(&summary(&g), want, "game {token}");
            let on_disk = std::fs::read_to_string(fixture().join(format!("records/{token}.jsonl"))).unwrap();
            assert_eq!(records_text(&g), on_disk, "game {token}'s records");
        }
    }
    for (token, bytes) in &logs {
        assert_eq!(&std::fs::read(dir.join(format!("games/{token}.jsonl"))).unwrap(), bytes, "{token}");
        let rec = format!("records/{token}.jsonl");
        assert_eq!(std::fs::read(dir.join(&rec)).unwrap(), std::fs::read(fixture().join(&rec)).unwrap());
    }
    // The unfinished session continues: its lines are appended to the old log,
    // and the whole log reads back to the same end.
    let first = Token::parse(expected.keys().next().unwrap()).unwrap();
    let (server, _) = Server::open(Some(&dir), Registry::builtin()).unwrap();
    let end = {
        let slot = server.get(first).unwrap();
        let mut g = slot.lock();
        let mut person = tresillo_agents::build_seated("rule").unwrap();
        let mut rng = tresillo_agents::rng_from_seed(7);
        while let Some(t) = g.turn() {
            if let Some(seat) = g.bot_turn() {
                let (mut bot, mut rng, hand) = g.take_bot(seat).unwrap();
                let d = bot.decide_at(&hand, seat, &mut rng).map_err(|e| e.to_string());
                g.bot_answered(seat, bot, rng, d).unwrap();
                continue;
            }
            assert_eq!(t, Seat(0));
            let d = person.decide_at(&g.hand, t, &mut rng).unwrap();
            let seq = g.seq;
            g.decide_timed(t, d, seq, Some(10)).unwrap();
        }
        assert_eq!(g.records.len(), 3);
        (summary(&g), records_text(&g))
    };
    drop(server);
    let (server, errors) = Server::open(Some(&dir), Registry::builtin()).unwrap();
    assert!(errors.is_empty(), "{errors:?}");
    let g = server.get(first).unwrap();
    let g = g.lock();
    assert_eq!((summary(&g), records_text(&g)), end);
    assert!(std::fs::read(dir.join(format!("games/{first}.jsonl"))).unwrap().starts_with(&logs[0].1));
    drop(g);
    let _ = std::fs::remove_dir_all(&dir);
}
