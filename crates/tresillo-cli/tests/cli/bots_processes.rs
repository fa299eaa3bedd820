//! External bots and their processes (issue 35): a run that stops on a bot's
//! fault keeps every finished deal, the batch in progress included; each bot runs
//! in its own process group, which the toolkit ends after a run, a fault,
//! `bot-check` and Ctrl-C, so no process a bot started outlives them; a bot that
//! exits while a child holds its output is reported as the crash it is; SIGINT
//! says `bye`, ends the bots, keeps the finished deals and exits with 130.

use crate::common;
use common::{TempDir, failed, ok};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn faulty() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../crates/tresillo-bots/tests/bots/faulty.py")
        .display()
        .to_string()
}

/// The processes the test bots wrote to `dir` (their PIDS) that still run (a
/// zombie has ended).
fn alive(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                // The state follows the command's closing parenthesis.
                s.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z'))
            })
        })
        .collect()
}

/// Waits (a bounded while: a killed process takes a moment to go) until none of
/// the processes of `dir` runs; the ones left after that.
fn left_after(dir: &Path) -> Vec<String> {
    let t0 = Instant::now();
    loop {
        let a = alive(dir);
        if a.is_empty() || t0.elapsed() > Duration::from_secs(10) {
            return a;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn manifest(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn a_fault_keeps_every_finished_deal_of_the_batch_in_progress() {
    let d = TempDir::new("botproc", "kept");
    for threads in ["1", "2"] {
        let out = d.path(&format!("t{threads}"));
        let agents = format!("ext:cmd={} kept,rule,rule", faulty());
        let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["tournament", "--agents", &agents, "--deals", "300", "--duplicate", "--threads", threads])
            .args(["--out", out.to_str().unwrap()])
            .env("FAULT", "handcrash")
            .env("HAND", "200")
            .output()
            .unwrap();
        let err = failed(&o);
        // `deal N, seating S, agent slot 0: ...`: every deal before N was finished.
        let deal: u64 = err
            .split("deal ")
            .nth(1)
            .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("names the deal: {err}"));
        assert!(err.contains("agent slot 0"), "{err}");
        let m = manifest(&out);
        assert_eq!(m["deals_completed"].as_u64(), Some(deal), "threads {threads}: {err}\n{m}");
        let rows = std::fs::read_to_string(out.join("deals.csv")).unwrap().lines().count() as u64;
        assert_eq!(rows, 1 + 6 * deal, "threads {threads}");
    }
}

#[test]
fn no_process_a_bot_started_outlives_a_run_a_fault_or_bot_check() {
    let d = TempDir::new("botproc", "groups");
    for fault in ["fork", "forkcrash", "noeof", "linger", "crash"] {
        let pids = d.path(&format!("pids-{fault}"));
        let out = d.path(fault);
        let agents = format!("ext:cmd={} groups:ms=8000,rule,rule", faulty());
        let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["tournament", "--agents", &agents, "--deals", "20", "--threads", "1"])
            .args(["--out", out.to_str().unwrap()])
            .env("FAULT", fault)
            .env("AFTER", "30")
            .env("PIDS", &pids)
            .output()
            .unwrap();
        if matches!(fault, "fork" | "noeof" | "linger") {
            ok(&o);
        } else {
            let err = failed(&o);
            // The bot's own exit is the fault, though a child holds its output.
            assert!(err.contains("exited") && !err.contains("no answer within"), "{fault}: {err}");
        }
        assert!(std::fs::read_dir(&pids).is_ok(), "{fault}: the bot ran");
        assert_eq!(left_after(&pids), Vec::<String>::new(), "{fault}: processes left after the run");
    }
    for fault in ["fork", "noeof"] {
        let pids = d.path(&format!("check-{fault}"));
        let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["bot-check", &format!("{} check", faulty()), "--hands", "6"])
            .env("FAULT", fault)
            .env("PIDS", &pids)
            .output()
            .unwrap();
        ok(&o);
        assert!(std::fs::read_dir(&pids).is_ok(), "{fault}: the bot ran");
        assert_eq!(left_after(&pids), Vec::<String>::new(), "{fault}: processes left after bot-check");
    }
}

#[test]
fn sigint_says_bye_ends_every_bot_keeps_the_finished_deals_and_exits_130() {
    let d = TempDir::new("botproc", "sigint");
    for (fault, signal) in [("noeof", "INT"), ("fork", "TERM")] {
        let pids = d.path(&format!("pids-{fault}"));
        let out = d.path(fault);
        let agents = format!("ext:cmd={f} sigint,rule,ext:cmd={f} sigint", f = faulty());
        let child = Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["tournament", "--agents", &agents, "--deals", "100000", "--threads", "2"])
            .args(["--out", out.to_str().unwrap()])
            .env("FAULT", fault)
            .env("PIDS", &pids)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Wait until some deals are kept, so that the interruption has some to keep.
        let t0 = Instant::now();
        while std::fs::read_to_string(out.join("manifest.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|m| m["deals_completed"].as_u64())
            .unwrap_or(0)
            == 0
        {
            assert!(t0.elapsed() < Duration::from_secs(120), "{fault}: no deal was ever kept");
            std::thread::sleep(Duration::from_millis(50));
        }
        Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(130), "{fault}: {err}");
        assert!(err.contains("interrupted"), "{err}");
        let m = manifest(&out);
        let kept = m["deals_completed"].as_u64().unwrap();
        let rows = std::fs::read_to_string(out.join("deals.csv")).unwrap().lines().count() as u64;
        assert_eq!(rows, 1 + kept, "{fault}: every deal the manifest counts is in deals.csv");
        assert_eq!(left_after(&pids), Vec::<String>::new(), "{fault}: processes left after SIGINT");
    }
}
