//! External bots in runs (issue 35): the manifest records each bot's command,
//! arguments, directory, program digest and declared name and version, and
//! `--resume` refuses another bot;
//! `run FILE --dry-run` prints a command that runs; the messages name the slot
//! and the seating, say "the next hand", and report five forfeits per bot;
//! inline specs quote values with `:` and `,`, and `name=` labels a slot.

use crate::common;
use common::{TempDir, failed, ok, tresillo};
use std::path::PathBuf;
use std::process::Command;

fn faulty() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../crates/tresillo-bots/tests/bots/faulty.py")
}

fn manifest(out: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn resume_refuses_a_run_whose_bot_changed() {
    let d = TempDir::new("botruns", "resume");
    let bot = d.path("bot.py");
    std::fs::copy(faulty(), &bot).unwrap();
    let out = d.path("run");
    let agents = format!("ext:cmd=python3 {},rule,rule", bot.display());
    let run = |fault: &str, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["tournament", "--agents", &agents, "--deals", "40", "--threads", "1"])
            .args(["--out", out.to_str().unwrap()])
            .args(extra)
            .env("FAULT", fault)
            .env("HAND", "10")
            .output()
            .unwrap()
    };
    failed(&run("handcrash", &[]));
    let m = manifest(&out);
    let b = &m["bots"][0];
    assert_eq!(b["program"], "python3", "{m}");
    assert_eq!(b["args"][0], bot.display().to_string(), "{m}");
    let files = b["files"].as_array().unwrap();
    assert_eq!(files.len(), 1, "the program alone: {m}");
    assert_eq!(files[0][1].as_str().unwrap().len(), 64, "{m}");
    assert_eq!(b["declared"]["name"], "faulty", "{m}");
    // Another bot under the same spec (it declares another name): refused in one line.
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["tournament", "--agents", &agents, "--deals", "40", "--threads", "1", "--resume"])
        .args(["--out", out.to_str().unwrap()])
        .env("NAME", "other")
        .output()
        .unwrap();
    let err = failed(&o);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("another bot") && err.contains("now other, no version") && err.contains("--force"),
        "{err}"
    );
    // Its script edited, its declared name and version the same: the same bot.
    std::fs::write(&bot, std::fs::read_to_string(faulty()).unwrap() + "\n# changed\n").unwrap();
    // The same program again: the run goes on.
    ok(&run("", &["--resume"]));
    assert_eq!(manifest(&out)["deals_completed"], 40);
}

#[test]
fn dry_run_prints_a_command_that_runs() {
    let d = TempDir::new("botruns", "dry");
    let out = d.path("run");
    let file = d.write(
        "exp.toml",
        &format!(
            "description = \"a named bot\"\n\n[tournament]\nagents = [\"pybot\", \"rule\", \"rule\"]\ndeals = 3\n\
             seed = 3\nout = \"{}\"\n\n[bots.pybot]\ncmd = \"python3\"\nargs = [\"{}\"]\n",
            out.display(),
            faulty().display()
        ),
    );
    let printed = ok(&tresillo(&["run", file.to_str().unwrap(), "--dry-run"]));
    let command = printed.lines().last().unwrap();
    assert!(command.contains(" run "), "{printed}");
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_tresillo"));
    let o = Command::new("sh")
        .arg("-c")
        .arg(command)
        .env("PATH", format!("{}:{}", exe.parent().unwrap().display(), std::env::var("PATH").unwrap()))
        .output()
        .unwrap();
    ok(&o);
    assert_eq!(manifest(&out)["deals_completed"], 3);
}

#[test]
fn messages_name_the_slot_and_report_five_forfeits_per_bot() {
    let d = TempDir::new("botruns", "messages");
    let agents =
        format!("ext:cmd={f} msg:fault=rule,rule,ext:cmd={f} msg:fault=rule", f = faulty().display());
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["tournament", "--agents", &agents, "--deals", "8", "--threads", "2"])
        .args(["--out", d.path("run").to_str().unwrap()])
        .env("FAULT", "illegal")
        .env("AFTER", "3")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    ok(&o);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: external bot")).collect();
    assert_eq!(warnings.len(), 5, "{err}");
    assert!(warnings.iter().all(|w| w.contains("restarts at the next hand")), "{err}");
    // More forfeits than warnings: the cap was reached, not just met.
    let forfeits = std::fs::read_to_string(d.path("run").join("forfeits.csv")).unwrap();
    let total: u64 =
        forfeits.lines().skip(1).map(|l| l.rsplit(',').next().unwrap().parse::<u64>().unwrap()).sum();
    assert!(total > 5, "{forfeits}");
}

#[test]
fn inline_specs_quote_values_and_name_their_slot() {
    let d = TempDir::new("botruns", "quoted");
    let dir = d.path("a:b,c");
    std::fs::create_dir_all(&dir).unwrap();
    let bot = dir.join("bot.py");
    std::fs::copy(faulty(), &bot).unwrap();
    let out = d.path("run");
    let agents = format!("ext:cmd=\"python3 {}\":name=mybot,rule,rule", bot.display());
    let table =
        ok(&tresillo(&["tournament", "--agents", &agents, "--deals", "6", "--out", out.to_str().unwrap()]));
    assert!(table.contains("mybot") && !table.contains("bot.py"), "{table}");
    let pairs = std::fs::read_to_string(out.join("pairs.csv")).unwrap();
    assert!(pairs.contains("mybot") && !pairs.contains("bot.py"), "{pairs}");
    // deals.csv keeps the whole spec, from which the agent is built again.
    let deals = std::fs::read_to_string(out.join("deals.csv")).unwrap();
    assert!(deals.contains("name=mybot"), "{deals}");
    // An open quote is one line.
    let err = failed(&tresillo(&["tournament", "--agents", "ext:cmd=\"python3,rule,rule", "--deals", "1"]));
    assert!(err.contains("not closed"), "{err}");
}
