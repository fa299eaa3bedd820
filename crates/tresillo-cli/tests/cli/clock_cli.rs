//! Clocks (issue 55): `tc=BASE+INC` on any agent. A protocol bot is sent the
//! time left on its clock in each request; a slow bot on a tiny clock loses on
//! time (its decisions forfeited to the rule agent, in forfeits.csv and the
//! summary), and the run is flagged as not reproducible, as `ms=` runs are.

use crate::common;
use common::{TempDir, ok};
use std::path::PathBuf;
use std::process::Command;

fn slow_bot() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tresillo-bots/tests/bots/slow.py")
        .display()
        .to_string()
}

/// A bot sleeping 30 ms per answer on a clock of 100 ms per hand plus 10 ms
/// per answer: each request carries the time left, which falls by about 20 ms
/// an answer within a hand and is set again at the next; the bot runs out
/// within its hands (at the latest at its discard, asked card by card), and
/// the rest of each such hand is forfeited: forfeits.csv, the summary's line,
/// the manifest's `time_budget` and the note before the run say so.
#[test]
fn a_slow_bot_on_a_tiny_clock_loses_on_time_and_is_told_its_time() {
    let d = TempDir::new("clock", "slow");
    let record = d.path("clocks.jsonl");
    let out = d.path("run");
    let spec = format!("ext:cmd={}:tc=0.1+0.01", slow_bot());
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["tournament", "--agents", &format!("{spec},rule,rule"), "--deals", "6", "--threads", "1"])
        .args(["--out", out.to_str().unwrap()])
        .env("RECORD", &record)
        .env("DELAY", "0.03")
        .output()
        .unwrap();
    let table = ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    // The remaining time in the requests.
    let clocks: Vec<serde_json::Value> =
        std::fs::read_to_string(&record).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(clocks.len() >= 4, "{clocks:?}");
    for c in &clocks {
        assert_eq!((c["inc_ms"].as_u64(), c["hands_left"].as_u64()), (Some(10), Some(1)), "{c}");
        assert!(c["left_ms"].as_u64().unwrap() <= 100, "{c}");
    }
    assert!(
        clocks.iter().any(|c| c["left_ms"] == 100),
        "a hand's first request has the whole clock: {clocks:?}"
    );
    assert!(clocks.iter().any(|c| c["left_ms"].as_u64().unwrap() < 90), "the clock runs: {clocks:?}");
    // Forfeits: in forfeits.csv (slot 0), counted in the summary.
    let forfeits = std::fs::read_to_string(out.join("forfeits.csv")).unwrap();
    let rows: Vec<&str> = forfeits.lines().skip(1).collect();
    assert!(!rows.is_empty(), "{forfeits}");
    assert!(rows.iter().all(|r| r.split(',').nth(2) == Some("0")), "{forfeits}");
    assert!(table.contains("decisions forfeited (replaced by a fallback agent's)"), "{table}");
    // Not reproducible, like a time budget.
    assert!(err.contains("or a clock (tc=)") && err.contains("do not reproduce"), "{err}");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["time_budget"], serde_json::json!([spec]), "{manifest}");
    // The report: the forfeits beside the decisions, and the run not reproducible.
    let page = d.path("report.html");
    ok(&Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["report", out.to_str().unwrap(), "--out", page.to_str().unwrap()])
        .output()
        .unwrap());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(" forfeited)") && html.contains("decided under a time budget or a clock"),
        "{html}"
    );
}

/// A clock long enough is never used up: no forfeit, and a built-in agent on
/// it plays (the rule agent, which takes no budget, plays its usual hands).
#[test]
fn a_clock_long_enough_forfeits_nothing() {
    let d = TempDir::new("clock", "long");
    let (a, b) = (d.path("a"), d.path("b"));
    for (dir, agent) in [(&a, "rule"), (&b, "rule:tc=5/600+1")] {
        ok(&Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["tournament", "--agents", &format!("{agent},rule,rule"), "--deals", "20", "--seed", "3"])
            .args(["--out", dir.to_str().unwrap()])
            .output()
            .unwrap());
    }
    assert_eq!(std::fs::read_to_string(b.join("forfeits.csv")).unwrap().lines().count(), 1);
    let cards = |p: &PathBuf| -> Vec<String> {
        std::fs::read_to_string(p.join("deals.csv"))
            .unwrap()
            .lines()
            .map(|l| l.replace(":tc=5/600+1", ""))
            .collect()
    };
    assert_eq!(cards(&a), cards(&b));
    // A bad clock is one line naming it.
    let args =
        ["tournament", "--agents", "pimc:tc=fast,rule,rule", "--deals", "1", "--out", "/nonexistent/x"];
    let err = common::one_line_error(&args, &common::tresillo(&args));
    assert!(err.contains("bad value `fast` for `tc`"), "{err}");
}
