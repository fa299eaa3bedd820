//! External bots (docs/PROTOCOL.md) in real processes: the example bots play
//! tournaments that are identical on any thread count and shard split; each fault
//! a bot can commit stops the run with one line naming it, every finished deal
//! kept and resumable; no bot process outlives a run.

use crate::common;
use common::{TempDir, failed, ok, tresillo};
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn bot(name: &str) -> String {
    root().join("bots").join(name).display().to_string()
}

fn faulty() -> String {
    root().join("crates/tresillo-bots/tests/bots/faulty.py").display().to_string()
}

/// Bot processes still running whose command line names `needle`.
fn running(needle: &str) -> usize {
    let out = Command::new("ps").args(["-eo", "stat,args"]).output().expect("ps");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains(needle) && !l.contains("ps -eo"))
        .count()
}

#[test]
fn the_random_bot_plays_the_same_tournament_on_any_thread_count_and_shard_split() {
    let d = TempDir::new("bots", "same");
    let agents =
        format!("ext:cmd={} same,rule,ext:cmd={} same", bot("random_bot.py"), bot("heuristic_bot.py"));
    let run = |out: &str, extra: &[&str]| {
        let out = d.path(out);
        let mut args = vec!["tournament", "--agents", &agents, "--deals", "60", "--duplicate", "--seed", "4"];
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        args.extend_from_slice(extra);
        ok(&tresillo(&args));
        std::fs::read(out.join("deals.csv")).unwrap()
    };
    let one = run("one", &["--threads", "1"]);
    let two = run("two", &["--threads", "2"]);
    assert_eq!(one, two);
    let s0 = d.path("s0");
    let s1 = d.path("s1");
    run("s0", &["--shard", "0/2"]);
    run("s1", &["--shard", "1/2"]);
    let merged = d.path("merged");
    ok(&tresillo(&["merge", merged.to_str().unwrap(), s0.to_str().unwrap(), s1.to_str().unwrap()]));
    assert_eq!(std::fs::read(merged.join("deals.csv")).unwrap(), one);
    assert_eq!(running("random_bot.py same"), 0);
    assert_eq!(running("heuristic_bot.py same"), 0);
}

#[test]
fn every_fault_stops_the_run_in_one_line_with_the_finished_deals_kept() {
    let d = TempDir::new("bots", "faults");
    let cases = [
        ("crash", "closed its output (exited"),
        ("garbage", "not UTF-8"),
        ("illegal", "answered action 999, which is not legal"),
        ("wrongid", "instead of request"),
        ("badjson", "not an answer"),
        ("oversize", "longer than 1048576 bytes"),
        ("partial", "in the middle of a line"),
        ("extra", "instead of request"),
        ("hang", "gave no answer within its limit of 1500 ms"),
        ("silent", "gave no answer within its limit of 1500 ms"),
    ];
    for (fault, expect) in cases {
        let out = d.path(fault);
        // 1.5 s: enough for Python to start on a loaded machine.
        let agents = format!("ext:cmd={} faults:ms=1500,rule,rule", faulty());
        let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["tournament", "--agents", &agents, "--deals", "300", "--threads", "1"])
            .args(["--out", out.to_str().unwrap()])
            .env("FAULT", fault)
            .env("AFTER", "400")
            .output()
            .unwrap();
        let err = failed(&o);
        assert!(err.contains("external bot faulty") || fault == "silent", "{fault}: {err}");
        assert!(err.contains(expect), "{fault}: {err}");
        assert!(err.contains("deal "), "{fault}: names the deal: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{fault}: one line: {err}");
        if fault != "silent" {
            // The deals before the fault are kept, and --resume finishes the run.
            let m: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
            assert!(m["deals_completed"].as_u64().unwrap() > 0, "{fault}: {m}");
            let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
                .args(["tournament", "--agents", &agents, "--deals", "300", "--threads", "1", "--resume"])
                .args(["--out", out.to_str().unwrap()])
                .env("FAULT", "")
                .output()
                .unwrap();
            ok(&o);
        }
    }
    assert_eq!(running("faulty.py faults"), 0);
}

#[test]
fn a_bot_that_cannot_start_is_named() {
    let d = TempDir::new("bots", "missing");
    let out = d.path("run");
    let err = failed(&tresillo(&[
        "tournament",
        "--agents",
        "ext:cmd=/nonexistent/bot,rule,rule",
        "--deals",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert!(err.contains("could not start `/nonexistent/bot`"), "{err}");
    let err = failed(&tresillo(&["tournament", "--agents", "ext,rule,rule", "--deals", "3"]));
    assert!(err.contains("ext:cmd=PATH"), "{err}");
}

#[test]
fn bot_check_passes_a_good_bot_and_names_the_fault_of_a_bad_one() {
    // A word after the program tells this test's processes from the others'.
    let good = format!("{} bot-check", bot("random_bot.py"));
    let out = ok(&tresillo(&["bot-check", &good, "--hands", "12"]));
    assert!(
        out.contains("lhombre 3 players") && out.contains("no protocol error, no illegal answer"),
        "{out}"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        // A generous limit: the fault is an illegal answer, and a loaded machine
        // can take more than half a second to start Python (then a timeout).
        .args(["bot-check", &format!("{} bot-check", faulty()), "--hands", "12", "--ms", "20000"])
        .env("FAULT", "illegal")
        .env("AFTER", "5")
        .output()
        .unwrap();
    let err = failed(&o);
    assert!(err.contains("table(s) with a fault"), "{err}");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("FAULT in hand") && text.contains("answered action 999"), "{text}");
    assert_eq!(running("faulty.py bot-check"), 0);
    assert_eq!(running("random_bot.py bot-check"), 0);
}

#[test]
fn a_bot_in_another_language_plays_too() {
    // bots/random_bot.js needs Node.js; the machine's image has it.
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("note: node is not installed; bots/random_bot.js not run");
        return;
    }
    let d = TempDir::new("bots", "node");
    let out = d.path("run");
    let agents = format!("ext:cmd=node {},rule,rule", bot("random_bot.js"));
    ok(&tresillo(&["tournament", "--agents", &agents, "--deals", "30", "--out", out.to_str().unwrap()]));
    assert_eq!(running("random_bot.js"), 0);
}

#[test]
fn a_hand_budget_is_enforced_and_the_time_used_is_logged() {
    let d = TempDir::new("bots", "budget");
    let out = d.path("run");
    // Each answer (40 ms) is well within its own limit; a hand's answers are not
    // within the hand's budget.
    let agents = format!("ext:cmd={} budget:ms=2000:hand_ms=150,rule,rule", faulty());
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["tournament", "--agents", &agents, "--deals", "30", "--threads", "1"])
        .args(["--out", out.to_str().unwrap()])
        .env("FAULT", "slow")
        .output()
        .unwrap();
    let err = failed(&o);
    assert!(err.contains("used up its time for the hand (150 ms)"), "{err}");
    // With a budget the hand's answers fit in, the same bot plays the run.
    let agents = format!("ext:cmd={} budget:ms=2000:hand_ms=20000,rule,rule", faulty());
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["tournament", "--agents", &agents, "--deals", "2", "--threads", "1"])
        .args(["--out", d.path("run1").to_str().unwrap()])
        .env("FAULT", "slow")
        .output()
        .unwrap();
    ok(&o);
    let logs = d.path("logs");
    let agents =
        format!("ext:cmd={} budget:hand_ms=60000:log={},rule,rule", bot("random_bot.py"), logs.display());
    let out = d.path("run2");
    ok(&tresillo(&["tournament", "--agents", &agents, "--deals", "30", "--out", out.to_str().unwrap()]));
    let names: Vec<String> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let time = names.iter().find(|n| n.ends_with(".time")).expect("a .time file");
    assert!(names.iter().any(|n| n.ends_with(".log")), "{names:?}");
    let text = std::fs::read_to_string(logs.join(time)).unwrap();
    // 30 deals, the bot in one seat: at least a bid and nine cards a hand.
    let requests: u64 = text.split_whitespace().next().unwrap().parse().unwrap();
    assert!(requests >= 30 && text.contains("requests answered in") && text.contains("ms mean"), "{text}");
}

#[test]
fn every_message_of_a_run_validates_against_the_schema() {
    // The standard library's JSON and the `jsonschema` package (CI installs it).
    if Command::new("python3")
        .args(["-c", "import jsonschema"])
        .output()
        .map_or(true, |o| !o.status.success())
    {
        eprintln!("note: python3 -c 'import jsonschema' failed; the schema is not checked");
        return;
    }
    let d = TempDir::new("bots", "schema");
    let record = d.path("messages.jsonl");
    let recording = root().join("crates/tresillo-bots/tests/bots/recording.py").display().to_string();
    // Every table of the registry; the last run: protocol 2's fields, the
    // public state and a clock, too.
    let mut runs: Vec<(&str, String, bool)> =
        common::tables().into_iter().map(|(r, p)| (r, p.to_string(), false)).collect();
    runs.push(("tresillo", "3".into(), true));
    for (rules, players, v2) in runs {
        let players = players.as_str();
        let clock = if v2 { ":tc=600+1" } else { "" };
        let mut agents = vec![format!("ext:cmd={recording}:hand_ms=60000:opt.x=1{clock}"); 1];
        agents.extend(std::iter::repeat_n("rule".to_string(), players.parse::<usize>().unwrap() - 1));
        let out = d.path(&format!("{rules}-{players}-{v2}"));
        let mut command = Command::new(env!("CARGO_BIN_EXE_tresillo"));
        command
            .args(["tournament", "--agents", &agents.join(","), "--deals", "12", "--rules", rules])
            .args(["--players", players, "--out", out.to_str().unwrap()])
            .env("RECORD", &record);
        if v2 {
            command.env("PUBLIC", "1");
        }
        ok(&command.output().unwrap());
    }
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(
        text.contains(",\"clock\":{\"left_ms\":") && text.contains(",\"public\":{\"phase\":"),
        "protocol 2's fields"
    );
    let check = r#"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
# One validator for every message (jsonschema.validate checks the schema and builds
# a validator at each call: most of this test's time when it did).
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
v = cls(schema)
kinds = set()
for line in open(sys.argv[2]):
    m = json.loads(line)
    v.validate(m)
    kinds.add(m["type"])
    if m["type"] == "result":
        assert len(m["scores"]) == len(m["tricks"]), m
print(sorted(kinds))
"#;
    let schema = root().join("docs/protocol.schema.json");
    let o = Command::new("python3").args(["-c", check]).arg(&schema).arg(&record).output().unwrap();
    let out = ok(&o);
    assert_eq!(out.trim(), "['action', 'bye', 'hand', 'hello', 'request', 'result']", "{out}");
}

#[test]
fn an_experiment_file_names_its_bots() {
    let d = TempDir::new("bots", "named");
    let out = d.path("run");
    let file = d.path("exp.toml");
    let text = format!(
        r#"description = "a named bot"

[tournament]
agents = ["pybot", "rule", "rule"]
deals = 6
seed = 3
out = "{}"

[bots.pybot]
cmd = "python3"
args = ["{}", "named"]
cwd = "{}"
env = {{ FAULT = "illegal", AFTER = "30" }}
ms = 2000
fault = "rule"
"#,
        out.display(),
        faulty(),
        root().join("bots").display()
    );
    std::fs::write(&file, &text).unwrap();
    let o = tresillo(&["run", file.to_str().unwrap()]);
    ok(&o);
    // The bot broke the rules after 30 requests: forfeits, reported, and the run went on.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("warning: external bot faulty") && err.contains("answered action 999"), "{err}");
    let deals = std::fs::read_to_string(out.join("deals.csv")).unwrap();
    assert_eq!(deals.lines().count(), 7, "{deals}");
    assert!(deals.lines().nth(1).unwrap().contains(",pybot,"), "{deals}");
    // An unknown key is one line naming the file, the table, the key and its line.
    std::fs::write(&file, text.replace("ms = 2000", "millis = 2000")).unwrap();
    let err = failed(&tresillo(&["run", file.to_str().unwrap()]));
    assert!(err.contains("exp.toml") && err.contains("`millis` (line 14) in [bots.pybot]"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    std::fs::write(&file, text.replace("[bots.pybot]", "[bots.rule]")).unwrap();
    let err = failed(&tresillo(&["run", file.to_str().unwrap()]));
    assert!(err.contains("`rule` is already an agent's name"), "{err}");
    assert_eq!(running("faulty.py named"), 0);
}

#[test]
fn tune_sets_a_bots_declared_option() {
    let d = TempDir::new("bots", "tune");
    let out = d.path("candidates.csv");
    let agent = format!("ext:cmd={} tune", bot("heuristic_bot.py"));
    let o = ok(&tresillo(&[
        "tune",
        "--agent",
        &agent,
        "--param",
        "opt.aggr=0..100:50",
        "--opponents",
        "rule,rule",
        "--deals",
        "8",
        "--seed",
        "5",
        "--method",
        "grid",
        "--out",
        out.to_str().unwrap(),
    ]));
    let csv = std::fs::read_to_string(&out).unwrap();
    // The start is the bot's declared default, 50; the grid tries 0, 50 and 100.
    assert!(csv.lines().next().unwrap().contains("opt.aggr"), "{csv}");
    for v in ["0", "50", "100"] {
        assert!(csv.lines().skip(1).any(|l| l.split(',').any(|f| f == v)), "{v}: {csv}\n{o}");
    }
    // A value out of the declared range stops the tune in one line.
    let err = failed(&tresillo(&[
        "tune",
        "--agent",
        &agent,
        "--param",
        "opt.aggr=0..200:200",
        "--opponents",
        "rule,rule",
        "--deals",
        "4",
        "--seed",
        "5",
        "--method",
        "grid",
        "--out",
        d.path("bad.csv").to_str().unwrap(),
    ]));
    assert!(err.contains("option `aggr` = 200 is outside its range 0..100"), "{err}");
    assert_eq!(running("heuristic_bot.py tune"), 0);
}

#[test]
fn no_bot_outlives_a_run_that_is_interrupted_or_killed() {
    // The example bots exit at the end of their input, which the toolkit's end
    // closes, however it ends (docs/PROTOCOL.md: a bot must exit at EOF).
    let d = TempDir::new("bots", "signals");
    for (signal, tag) in [("INT", "sigint"), ("KILL", "sigkill")] {
        let agents = format!("ext:cmd={b} {tag},rule,ext:cmd={b} {tag}", b = bot("random_bot.py"));
        let out = d.path(tag);
        let mut child = Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["tournament", "--agents", &agents, "--deals", "100000", "--threads", "2"])
            .args(["--out", out.to_str().unwrap()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let needle = format!("random_bot.py {tag}");
        let t0 = std::time::Instant::now();
        while running(&needle) < 2 {
            assert!(t0.elapsed().as_secs() < 30, "{tag}: the bots never started");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
        child.wait().unwrap();
        let t0 = std::time::Instant::now();
        while running(&needle) > 0 {
            assert!(t0.elapsed().as_secs() < 10, "{tag}: bot processes left after the run ended");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

/// Issue 34, finding 10: a bot's self-declared name is printed with its control
/// characters escaped: a name cannot recolour the terminal or forge a line.
#[test]
fn a_bots_name_cannot_forge_a_line() {
    let d = TempDir::new("bots", "name");
    let agents = format!("ext:cmd={},rule,rule", faulty());
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["tournament", "--agents", &agents, "--deals", "4", "--out", d.path("run").to_str().unwrap()])
        .env("FAULT", "crash")
        .env("AFTER", "3")
        .env("NAME", "evil\nerror: forged\u{1b}[31m")
        .output()
        .unwrap();
    let err = failed(&o);
    assert!(err.contains("evil\\nerror: forged\\u{1b}[31m"), "{err:?}");
    assert!(!err.contains('\u{1b}') && !err.contains("\nerror: forged"), "{err:?}");
}
