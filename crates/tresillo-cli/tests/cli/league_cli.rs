//! `tresillo league` (issue 23): agents of known relative strength come out in
//! order; the league files are byte-identical whatever the thread count, the
//! shard split or an interruption; the matrix agrees with the tables' pairs.csv;
//! the report draws it; bad input is one line.

use crate::common;
use common::{TempDir, failed, ok, tresillo};
use std::path::Path;
use std::process::Command;

/// random is far weaker than rule; rule declaring from 10 points, or 25, is
/// weaker than rule (45), 10 the weakest of the three.
const AGENTS: &str = "rule:entrada=10,random,rule,rule:entrada=25";

fn league(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut a = vec!["league", "--agents", AGENTS, "--deals", "60", "--out", out.to_str().unwrap()];
    a.extend_from_slice(extra);
    tresillo(&a)
}

/// The bytes of every file the league's results depend on.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for f in ["ratings.csv", "matrix.csv"] {
        out.push((f.to_string(), std::fs::read(dir.join(f)).unwrap()));
    }
    for t in ["table-0-1-2", "table-0-1-3", "table-0-2-3", "table-1-2-3"] {
        for f in ["deals.csv", "summary.csv", "pairs.csv", "stats.json"] {
            let p = dir.join("tables").join(t).join(f);
            out.push((
                format!("{t}/{f}"),
                std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
            ));
        }
    }
    out
}

fn same(a: &Path, b: &Path) {
    for ((name, x), (_, y)) in files(a).iter().zip(files(b)) {
        assert!(*x == y, "{name} differs between {} and {}", a.display(), b.display());
    }
}

#[test]
fn agents_of_known_strength_are_ranked_in_order_and_the_files_hold_it() {
    let d = TempDir::new("league", "order");
    let dir = d.path("l");
    let out = ok(&league(&dir, &["--threads", "1"]));
    assert!(out.starts_with("league of 4 agents: 4 tables of 3, 60 deals each under every seating"), "{out}");
    let ratings = std::fs::read_to_string(dir.join("ratings.csv")).unwrap();
    let rows: Vec<Vec<&str>> = ratings.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let order: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(order, ["rule", "rule:entrada=25", "rule:entrada=10", "random"], "{ratings}");
    let num = |s: &str| s.parse::<f64>().unwrap();
    // Ratings sum to 0; each inside its interval; every agent at 3 tables of 60 deals.
    assert!(rows.iter().map(|r| num(r[1])).sum::<f64>().abs() < 1e-3, "{ratings}");
    for r in &rows {
        assert!(num(r[2]) < num(r[1]) && num(r[1]) < num(r[3]), "{r:?}");
        assert_eq!((r[4], r[5]), ("3", "180"), "{r:?}");
    }
    // random's interval lies below everyone else's.
    assert!(num(rows[3][3]) < num(rows[2][2]), "{ratings}");
    // The printed ranking is the file's.
    assert!(out.contains("  1. rule ") && out.contains("  4. random "), "{out}");
    // compute.csv: each agent's decisions are the sum of its slot's at its tables.
    let compute = std::fs::read_to_string(dir.join("compute.csv")).unwrap();
    let lines: Vec<Vec<&str>> = compute.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(lines.len(), 4, "{compute}");
    assert!(out.contains("what each agent spent, over all its tables:"), "{out}");
    for (i, agent) in AGENTS.split(',').enumerate() {
        let mut sum = 0u64;
        for t in ["table-0-1-2", "table-0-1-3", "table-0-2-3", "table-1-2-3"] {
            let ix: Vec<usize> = t[6..].split('-').map(|x| x.parse().unwrap()).collect();
            if let Some(slot) = ix.iter().position(|&a| a == i) {
                let c = std::fs::read_to_string(dir.join("tables").join(t).join("compute.csv")).unwrap();
                let row: Vec<&str> = c.lines().nth(1 + slot).unwrap().split(',').collect();
                sum += row[2].parse::<u64>().unwrap();
            }
        }
        assert_eq!((lines[i][0], lines[i][1]), (i.to_string().as_str(), agent), "{compute}");
        assert_eq!(lines[i][2].parse::<u64>().unwrap(), sum, "{compute}");
    }
    // The matrix: each pair met at two tables on the same 60 deals, and its mean is
    // the mean of those tables' pairs.csv means (the same deals at both).
    let matrix = std::fs::read_to_string(dir.join("matrix.csv")).unwrap();
    let m: Vec<Vec<&str>> = matrix.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(m.len(), 6, "{matrix}");
    assert_eq!((m[0][0], m[0][1], m[0][2], m[0][3]), ("rule:entrada=10", "random", "2", "60"), "{matrix}");
    let pair_mean = |table: &str| -> f64 {
        let p = std::fs::read_to_string(dir.join("tables").join(table).join("pairs.csv")).unwrap();
        // Agents 0 and 1 are slots 0 and 1 at both tables.
        num(p.lines().nth(1).unwrap().split(',').nth(5).unwrap())
    };
    let want = (pair_mean("table-0-1-2") + pair_mean("table-0-1-3")) / 2.0;
    assert!((num(m[0][4]) - want).abs() < 1e-3, "{} vs {want}", m[0][4]);
    // A finished league run again changes nothing.
    let before = files(&dir);
    let again = ok(&league(&dir, &[]));
    assert!(again.contains("  1. rule "), "{again}");
    assert!(files(&dir) == before);
    // The report draws the ranking, the matrix, the rating differences and the compute.
    let html = d.path("l.html");
    let printed = ok(&tresillo(&["report", dir.to_str().unwrap(), "--out", html.to_str().unwrap()]));
    assert!(printed.starts_with("4 charts from 1 run"), "{printed}");
    let page = std::fs::read_to_string(html).unwrap();
    for id in ["run1-ratings", "run1-ratings-table", "run1-matrix", "run1-matrix-table"] {
        assert!(page.contains(&format!("id=\"{id}\"")), "{id}");
    }
}

#[test]
fn thread_counts_shards_and_an_interruption_give_the_same_files() {
    let d = TempDir::new("league", "determinism");
    let whole = d.path("whole");
    ok(&league(&whole, &["--threads", "1"]));
    let two = d.path("two");
    ok(&league(&two, &["--threads", "2"]));
    same(&whole, &two);
    // Two shards into one directory: the first says what is missing.
    let sharded = d.path("sharded");
    let first = ok(&league(&sharded, &["--shard", "1/2"]));
    assert!(first.contains("2 of 4 tables complete"), "{first}");
    assert!(!sharded.join("ratings.csv").exists());
    ok(&league(&sharded, &["--shard", "0/2"]));
    same(&whole, &sharded);
    // Killed in the middle of the first table, then resumed.
    let cut = d.path("cut");
    let st = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["league", "--agents", AGENTS, "--deals", "60", "--out", cut.to_str().unwrap()])
        .env("TRESILLO_BATCH_UNITS", "7")
        .env("TRESILLO_ABORT_AFTER_CHECKPOINTS", "3")
        .output()
        .unwrap();
    assert!(!st.status.success());
    assert!(!cut.join("ratings.csv").exists());
    // Without --resume the interrupted table is refused in one line.
    let e = failed(&league(&cut, &[]));
    let last = e.trim().lines().last().unwrap();
    assert!(
        last.starts_with("error: ")
            && last.contains("table-0-1-2 already holds a run")
            && last.contains("--resume"),
        "{e}"
    );
    ok(&league(&cut, &["--resume"]));
    same(&whole, &cut);
}

#[test]
fn four_players_and_bad_input() {
    let d = TempDir::new("league", "bad");
    let four = d.path("four");
    let out = ok(&tresillo(&[
        "league",
        "--players",
        "4",
        "--agents",
        "random,rule,rule:entrada=10,rule:entrada=25,rule:entrada=60",
        "--deals",
        "4",
        "--out",
        four.to_str().unwrap(),
    ]));
    assert!(out.starts_with("league of 5 agents: 5 tables of 4"), "{out}");
    assert_eq!(std::fs::read_to_string(four.join("ratings.csv")).unwrap().lines().count(), 6);
    let o = d.path("o");
    for (agents, want) in [
        ("rule,random", "a league takes 3 to 20 agents"),
        ("rule,random,rule", "`rule` is agent 0 and agent 2"),
        ("rule,random,nobody", "nobody"),
    ] {
        let e =
            failed(&tresillo(&["league", "--agents", agents, "--deals", "5", "--out", o.to_str().unwrap()]));
        assert!(e.trim().lines().count() == 1 && e.contains(want), "{agents}: {e}");
    }
    // Another league in the same directory needs --force.
    ok(&tresillo(&[
        "league",
        "--agents",
        "rule,random,rule:entrada=10",
        "--deals",
        "5",
        "--out",
        o.to_str().unwrap(),
    ]));
    let other =
        ["league", "--agents", "rule,random,rule:entrada=10", "--deals", "6", "--out", o.to_str().unwrap()];
    let e = failed(&tresillo(&other));
    assert!(e.contains("another configuration; use --force"), "{e}");
    let mut forced = other.to_vec();
    forced.push("--force");
    ok(&tresillo(&forced));
    let r = std::fs::read_to_string(o.join("ratings.csv")).unwrap();
    assert!(r.lines().nth(1).unwrap().ends_with(",1,6"), "{r}");
    let e = failed(&tresillo(&[
        "league",
        "--agents",
        AGENTS,
        "--resume",
        "--force",
        "--out",
        o.to_str().unwrap(),
    ]));
    assert!(e.contains("exclude each other"), "{e}");
}

#[test]
fn an_experiment_file_runs_a_league() {
    let d = TempDir::new("league", "experiment");
    let out = d.path("res");
    let toml = format!(
        "description = \"a tiny league\"\n[league]\nagents = [\"rule:entrada=10\", \"random\", \"rule\", \
         \"rule:entrada=25\"]\ndeals = 60\nseed = 1\nout = \"{}\"\nthreads = 1\n",
        out.display()
    );
    let file = d.write("l.toml", &toml);
    let dry = ok(&tresillo(&["run", file.to_str().unwrap(), "--dry-run"]));
    assert_eq!(
        dry.trim(),
        format!(
            "tresillo league --agents rule:entrada=10,random,rule,rule:entrada=25 --deals 60 --seed 1 --rules \
             tresillo --out {} --threads 1",
            out.display()
        )
    );
    let printed = ok(&tresillo(&["run", file.to_str().unwrap()]));
    assert!(printed.contains("  1. rule "), "{printed}");
    // The same league as the command line's.
    let direct = d.path("direct");
    ok(&league(&direct, &[]));
    same(&out, &direct);
    // Unknown keys are one line naming them and their line.
    let bad =
        d.write("bad.toml", "[league]\nagents = [\"rule\"]\ndeals = 5\nseed = 1\nout = \"o\"\nbatch = 3\n");
    let e = failed(&tresillo(&["run", bad.to_str().unwrap()]));
    assert!(e.trim().lines().count() == 1 && e.contains("unknown field `batch` (line 6) in [league]"), "{e}");
    let two = d.write("two.toml", "[league]\nagents = []\ndeals = 5\nseed = 1\nout = \"o\"\n[tournament]\nagents = []\ndeals = 5\nseed = 1\nout = \"o\"\n");
    let e = failed(&tresillo(&["run", two.to_str().unwrap()]));
    assert!(e.contains("has both [tournament] and [league]"), "{e}");
}
