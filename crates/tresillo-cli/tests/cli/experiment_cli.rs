//! `tresillo run`: experiments in TOML run as the equivalent commands; bad files are
//! refused with the file (and line) named, and nothing is overwritten.

use std::fs;
use std::path::Path;

use crate::common;
use common::{TempDir, failed, ok, tresillo};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// TOML string literal for a path (literal strings take backslashes as they are).
fn lit(p: &Path) -> String {
    format!("'{}'", p.display())
}

fn tournament_toml(out: &Path) -> String {
    format!(
        "description = \"a tiny tournament\"\n\n[tournament]\nagents = [\"rule\", \"random\", \"random\"]\n\
         deals = 30\nseed = 5\nduplicate = true\nscoring = \"deal\"\nout = {}\nthreads = 2\n",
        lit(out)
    )
}

#[test]
fn a_tournament_experiment_is_the_tournament_command() {
    let d = TempDir::new("experiment-cli", "tournament");
    let exp = d.write("t.toml", &tournament_toml(&d.path("a")));
    let table = ok(&tresillo(&["run", s(&exp)]));
    assert!(table.contains("0:rule"), "{table}");
    let b = d.path("b");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "rule,random,random",
        "--deals",
        "30",
        "--seed",
        "5",
        "--duplicate",
        "--threads",
        "1",
        "--out",
        s(&b),
    ]));
    for f in ["deals.csv", "summary.csv", "stats.json"] {
        assert_eq!(fs::read(d.path("a").join(f)).unwrap(), fs::read(b.join(f)).unwrap(), "{f}");
    }
    let m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(d.path("a/manifest.json")).unwrap()).unwrap();
    assert_eq!(m["complete"], true);
    assert_eq!(m["command_line"][1], "run");
    // Running it again reproduces it in place, with or without --force; so does a
    // run where only the committed files are kept (a fresh clone: no deals.csv).
    let summary = fs::read(d.path("a/summary.csv")).unwrap();
    ok(&tresillo(&["run", s(&exp)]));
    ok(&tresillo(&["run", s(&exp), "--force", "--threads", "1"]));
    fs::remove_file(d.path("a/deals.csv")).unwrap();
    ok(&tresillo(&["run", s(&exp)]));
    assert_eq!(fs::read(d.path("a/summary.csv")).unwrap(), summary);
    assert!(!d.path("a.partial").exists());
    // --resume of a finished run changes nothing.
    let out = ok(&tresillo(&["run", s(&exp), "--resume"]));
    assert!(out.contains("already complete"), "{out}");
    assert_eq!(fs::read(d.path("a/deals.csv")).unwrap(), fs::read(b.join("deals.csv")).unwrap());
}

#[test]
fn an_unfinished_experiment_keeps_the_earlier_results_until_it_completes() {
    let d = TempDir::new("experiment-cli", "partial");
    let exp = d.write("t.toml", &tournament_toml(&d.path("a")));
    ok(&tresillo(&["run", s(&exp)]));
    let before = fs::read(d.path("a/summary.csv")).unwrap();
    // An interrupted run of the same experiment: its files are in a.partial.
    let p = d.path("a.partial");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "rule,random,random",
        "--deals",
        "30",
        "--seed",
        "5",
        "--duplicate",
        "--out",
        s(&p),
    ]));
    let m = fs::read_to_string(p.join("manifest.json"))
        .unwrap()
        .replace("\"complete\": true", "\"complete\": false");
    fs::write(p.join("manifest.json"), m).unwrap();
    fs::remove_file(p.join("summary.csv")).unwrap();
    let err = failed(&tresillo(&["run", s(&exp)]));
    assert!(err.contains("a.partial") && err.contains("--resume"), "{err}");
    assert_eq!(fs::read(d.path("a/summary.csv")).unwrap(), before);
    ok(&tresillo(&["run", s(&exp), "--resume"]));
    assert_eq!(fs::read(d.path("a/summary.csv")).unwrap(), before);
    assert!(!p.exists());
}

#[test]
fn dry_run_prints_the_equivalent_command_and_writes_nothing() {
    let d = TempDir::new("experiment-cli", "dry");
    let exp = d.write("t.toml", &tournament_toml(&d.path("a")));
    let cmd = ok(&tresillo(&["run", s(&exp), "--dry-run"]));
    assert_eq!(
        cmd.trim_end(),
        format!(
            "tresillo tournament --agents rule,random,random --deals 30 --seed 5 --rules tresillo \
             --scoring deal --duplicate --out {} --threads 2",
            d.path("a").display()
        )
    );
    assert!(!d.path("a").exists());
    let tune = d.write(
        "u.toml",
        &format!(
            "[tune]\nagent = \"rule\"\nparams = [\"entrada=40,50\"]\nopponents = [\"random\", \"random\"]\n\
             deals = 10\nseed = 1\nout = {}\n",
            lit(&d.path("u/c.csv"))
        ),
    );
    let cmd = ok(&tresillo(&["run", s(&tune), "--dry-run"]));
    assert!(
        cmd.starts_with(
            "tresillo tune --agent rule --param entrada=40,50 --opponents random,random --deals 10 --seed 1 \
             --method coordinate --rounds 4"
        ),
        "{cmd}"
    );
    assert!(!d.path("u").exists());
}

#[test]
fn a_tune_experiment_writes_its_candidates_and_prints_the_best_spec() {
    let d = TempDir::new("experiment-cli", "tune");
    let out = d.path("tune/candidates.csv");
    let exp = d.write(
        "tune.toml",
        &format!(
            "[tune]\nagent = \"rule\"\nparams = [\"entrada=40..50:5\", \"solo=45,55\"]\n\
             opponents = [\"random\", \"random\"]\ndeals = 12\nseed = 2\nmethod = \"coordinate\"\nrounds = 2\n\
             out = {}\n",
            lit(&out)
        ),
    );
    let stdout = ok(&tresillo(&["run", s(&exp)]));
    let best = stdout.lines().last().unwrap();
    assert!(best.starts_with("rule:entrada="), "{stdout}");
    let csv = fs::read_to_string(&out).unwrap();
    assert!(csv.starts_with("spec,entrada,solo,mean_tantos,ci95_low,ci95_high,deals,"));
    assert!(csv.lines().any(|l| l.starts_with(&format!("{best},"))));
    // The same search from the command line gives the same CSV.
    let out2 = d.path("cli/candidates.csv");
    let cli = ok(&tresillo(&[
        "tune",
        "--param",
        "entrada=40..50:5",
        "--param",
        "solo=45,55",
        "--opponents",
        "random,random",
        "--deals",
        "12",
        "--seed",
        "2",
        "--rounds",
        "2",
        "--out",
        s(&out2),
    ]));
    assert_eq!(fs::read_to_string(&out2).unwrap(), csv);
    assert_eq!(cli.lines().last(), Some(best));
    // Running the experiment again replaces its results (the same ones) without --force.
    let again = ok(&tresillo(&["run", s(&exp)]));
    assert_eq!(again.lines().last(), Some(best));
    assert_eq!(fs::read_to_string(&out).unwrap(), csv);
    assert!(!d.path("tune/candidates.csv.partial").exists());
    // --resume of a finished tune changes nothing (issue 20, item 2).
    let again = ok(&tresillo(&["run", s(&exp), "--resume"]));
    assert!(again.contains("already complete"), "{again}");
    assert_eq!(again.lines().last(), Some(best));
    assert_eq!(fs::read_to_string(&out).unwrap(), csv);
    // An interrupted tune is kept: continued by --resume, started over by --force.
    let stopped = std::process::Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["run", s(&exp)])
        .env("TRESILLO_TUNE_STOP_AFTER", "1")
        .output()
        .unwrap();
    assert!(!stopped.status.success());
    assert_eq!(fs::read_to_string(&out).unwrap(), csv, "the finished results stay until replaced");
    let err = failed(&tresillo(&["run", s(&exp)]));
    assert!(err.contains("interrupted search") && err.contains("--resume"), "{err}");
    let resumed = ok(&tresillo(&["run", s(&exp), "--resume"]));
    assert_eq!(resumed.lines().last(), Some(best));
    assert_eq!(fs::read_to_string(&out).unwrap(), csv);
    assert!(!d.path("tune/candidates.csv.checkpoint.json").exists());
}

#[test]
fn bad_experiment_files_name_the_file_and_line_and_overwrite_nothing() {
    let d = TempDir::new("experiment-cli", "bad");
    let out = d.path("results");
    // A finished run that no bad file may touch.
    let good = d.write("good.toml", &tournament_toml(&out));
    ok(&tresillo(&["run", s(&good)]));
    let before = fs::read(out.join("summary.csv")).unwrap();
    let base = tournament_toml(&out);
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        ("syntax.toml", base.replace("deals = 30", "deals = = 30"), vec!["syntax.toml", "line 5"]),
        (
            "unknown.toml",
            base.replace("seed = 5", "seed = 5\nseeds = 6"),
            vec!["unknown.toml", "line 7", "seeds"],
        ),
        ("type.toml", base.replace("deals = 30", "deals = \"many\""), vec!["type.toml", "line 5"]),
        ("missing.toml", base.replace("seed = 5\n", ""), vec!["missing.toml", "seed"]),
        ("top.toml", format!("colour = 1\n{base}"), vec!["top.toml", "line 1", "colour"]),
        (
            "both.toml",
            format!(
                "{base}\n[tune]\nagent = \"rule\"\nparams = []\nopponents = []\ndeals = 1\nseed = 1\nout = 'x'\n"
            ),
            vec!["both.toml", "both [tournament] and [tune]"],
        ),
        ("neither.toml", "description = \"nothing\"\n".into(), vec!["neither.toml", "neither"]),
        (
            "agent.toml",
            base.replace("\"random\", \"random\"]", "\"random\", \"robot\"]"),
            vec!["agent.toml", "robot", "known agents"],
        ),
        ("threads.toml", base.replace("threads = 2", "threads = 0"), vec!["threads.toml", "at least 1"]),
        (
            "count.toml",
            base.replace("\"random\", \"random\"]", "\"random\"]"),
            vec!["count.toml", "3 agents"],
        ),
        (
            "scoring.toml",
            base.replace("scoring = \"deal\"", "scoring = \"sessions\""),
            vec!["scoring.toml", "sessions"],
        ),
        (
            "tune.toml",
            format!(
                "[tune]\nagent = \"rule\"\nparams = [\"entrada=40\", \"bogus=1\"]\nopponents = [\"rule\", \"rule\"]\n\
                 deals = 10\nseed = 1\nout = {}\n",
                lit(&out.join("candidates.csv"))
            ),
            vec!["tune.toml", "bogus", "entrada, vuelta, solo"],
        ),
        (
            "range.toml",
            format!(
                "[tune]\nagent = \"rule\"\nparams = [\"entrada=40..30\"]\nopponents = [\"rule\", \"rule\"]\n\
                 deals = 10\nseed = 1\nout = {}\n",
                lit(&out.join("candidates.csv"))
            ),
            vec!["range.toml", "entrada=40..30"],
        ),
    ];
    for (name, text, needles) in &cases {
        let f = d.write(name, text);
        let err = failed(&tresillo(&["run", s(&f), "--force"]));
        for n in needles {
            assert!(err.contains(n), "{name}: `{n}` not in:\n{err}");
        }
        assert_eq!(fs::read(out.join("summary.csv")).unwrap(), before, "{name} touched the results");
        assert!(!out.join("candidates.csv").exists(), "{name} wrote candidates");
    }
    let err = failed(&tresillo(&["run", s(&d.path("absent.toml"))]));
    assert!(err.contains("absent.toml"), "{err}");
}

#[test]
fn experiment_errors_are_one_line_naming_every_missing_and_unknown_field() {
    let d = TempDir::new("experiment-cli", "oneline");
    let out = d.path("results");
    let base = tournament_toml(&out);
    let one = |name: &str, text: &str| -> String {
        let f = d.write(name, text);
        let err = failed(&tresillo(&["run", s(&f)]));
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: not one line:\n{err}");
        assert!(err.contains(name), "{name}: {err}");
        assert!(!err.contains("--"), "{name}: an experiment error names keys, not flags: {err}");
        err
    };
    // Every missing and every unknown field at once.
    let text = base.replace("seed = 5\n", "seeds = 5\nagent = \"rule\"\n").replace("deals = 30\n", "");
    let text = text.replace(&format!("out = {}\n", lit(&out)), "");
    let err = one("fields.toml", &format!("colour = 1\n{text}"));
    for needle in ["`seed`", "`deals`", "`out`", "`seeds`", "`agent`", "`colour`"] {
        assert!(err.contains(needle), "`{needle}` not in: {err}");
    }
    let err = one("syntax.toml", &base.replace("deals = 30", "deals = = 30"));
    assert!(err.contains("line 5"), "{err}");
    let err = one("type.toml", &base.replace("deals = 30", "deals = \"many\""));
    assert!(err.contains("line 5") && err.contains("deals"), "{err}");
    let err = one("negative.toml", &base.replace("deals = 30", "deals = -30"));
    assert!(err.contains("line 5") && err.contains("deals"), "{err}");
    let err = one("zero.toml", &base.replace("deals = 30", "deals = 0"));
    assert!(err.contains("deals must be at least 1"), "{err}");
    let tune = |extra: &str, opponents: &str| {
        format!(
            "[tune]\nagent = \"rule\"\nparams = [\"entrada=40\"]\nopponents = {opponents}\ndeals = 10\nseed = 1\n\
             out = {}\n{extra}",
            lit(&out.join("candidates.csv"))
        )
    };
    let err = one("rounds.toml", &tune("rounds = 0\n", "[\"rule\", \"rule\"]"));
    assert!(err.contains("rounds"), "{err}");
    let err = one("opponents.toml", &tune("", "[\"rule\"]"));
    assert!(err.contains("opponents"), "{err}");
    let err = one("tunefields.toml", &tune("round = 2\n", "[\"rule\", \"rule\"]").replace("seed = 1\n", ""));
    assert!(err.contains("`round`") && err.contains("`seed`"), "{err}");
    assert!(!out.exists());
}

/// `record = "path"` records every hand, as `--record` does; running the
/// experiment again replaces the records with the run, and `--dry-run` shows it.
#[test]
fn a_tournament_experiment_may_record_its_hands() {
    let d = TempDir::new("experiment-cli", "record");
    let rec = d.path("t.jsonl");
    let exp = d.write("t.toml", &format!("{}record = {}\n", tournament_toml(&d.path("a")), lit(&rec)));
    ok(&tresillo(&["run", s(&exp)]));
    let rows = fs::read_to_string(d.path("a/deals.csv")).unwrap().lines().count() - 1;
    let first = fs::read_to_string(&rec).unwrap();
    assert_eq!(first.lines().count(), rows);
    assert!(!d.path("t.jsonl.partial").exists());
    ok(&tresillo(&["run", s(&exp), "--threads", "1"]));
    assert_eq!(fs::read_to_string(&rec).unwrap(), first, "the same run, the same records");
    let replayed = ok(&tresillo(&["replay", s(&rec), "--hand", "5"]));
    assert!(replayed.contains("outcome:"), "{replayed}");
    let dry = ok(&tresillo(&["run", s(&exp), "--dry-run"]));
    assert!(dry.contains(&format!("--record {}", rec.display())), "{dry}");
}
