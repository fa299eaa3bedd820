//! A trivial external bot in a compiled language: it answers every request with
//! its first legal action. It measures the toolkit's share of a decision's round
//! trip (`scripts/bench-bots.sh`), its own time being next to nothing.

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(&line) else { return };
        let answer = match msg["type"].as_str() {
            Some("hello") => serde_json::json!({"type": "hello", "protocol": 1, "name": "first-legal"}),
            Some("request") => {
                serde_json::json!({"type": "action", "id": msg["id"], "action": msg["legal"][0]["action"]})
            }
            Some("bye") => return,
            _ => continue,
        };
        if writeln!(out, "{answer}").and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}
