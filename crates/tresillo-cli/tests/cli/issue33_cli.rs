//! Issue 33, findings 4 to 8 and deal books: compute charged to the agent that
//! spent it, time-budget runs flagged, report labels that stay distinct, a
//! league page with its compute and rating differences, progress lines where no
//! terminal is, and deal books that replay exactly the same deals.

use crate::common;
use common::{TempDir, failed, ok, read, tresillo};
use std::path::Path;
use std::process::Command;

fn csv_rows(p: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(p).unwrap();
    let mut rows = vec![r.headers().unwrap().iter().map(str::to_string).collect()];
    rows.extend(r.records().map(|x| x.unwrap().iter().map(str::to_string).collect()));
    rows
}

fn col(rows: &[Vec<String>], name: &str) -> usize {
    rows[0].iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}: {:?}", rows[0]))
}

#[test]
fn the_bidding_agent_has_its_own_compute_row() {
    // Finding 4: with --bidding pimc, the rule and random slots were charged
    // pimc's bidding work.
    let d = TempDir::new("i33", "bidding");
    let run = d.path("run");
    let out = ok(&tresillo(&[
        "tournament",
        "--agents",
        "rule,random,rule",
        "--bidding",
        "pimc:worlds=2",
        "--deals",
        "2",
        "--duplicate",
        "--threads",
        "1",
        "--out",
        run.to_str().unwrap(),
    ]));
    let rows = csv_rows(&run.join("compute.csv"));
    let (slot, bid, worlds, card) =
        (col(&rows, "slot"), col(&rows, "bid"), col(&rows, "worlds"), col(&rows, "card"));
    assert_eq!(rows.len(), 5, "three slots and the bidding row: {rows:?}");
    for r in &rows[1..4] {
        assert_eq!((r[bid].as_str(), r[worlds].as_str()), ("0", "0"), "a slot charged bidding work: {r:?}");
        assert_ne!(r[card], "0", "{r:?}");
    }
    let b = &rows[4];
    assert_eq!((b[slot].as_str(), b[1].as_str()), ("bidding", "pimc:worlds=2"));
    assert!(b[bid].parse::<u64>().unwrap() > 0 && b[worlds].parse::<u64>().unwrap() > 0, "{b:?}");
    assert_eq!(b[card], "0");
    assert!(out.contains("bidding: pimc:worlds=2"), "{out}");
}

#[test]
fn an_external_bots_start_up_is_counted_apart_from_its_decisions() {
    // Finding 4: a bot's start-up was counted in its first decision. This bot
    // takes a second to greet; its decisions take about nothing.
    let d = TempDir::new("i33", "startup");
    let bot = d.write(
        "slow_start.py",
        "import json, sys, time\n\
         for line in sys.stdin:\n\
         \x20   m = json.loads(line)\n\
         \x20   if m['type'] == 'hello':\n\
         \x20       time.sleep(1.0)\n\
         \x20       print(json.dumps({'type': 'hello', 'protocol': 1, 'name': 'slow-start'}), flush=True)\n\
         \x20   elif m['type'] == 'request':\n\
         \x20       print(json.dumps({'type': 'action', 'id': m['id'], 'action': m['legal'][0]['action']}), flush=True)\n",
    );
    let run = d.path("run");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        &format!("ext:cmd=python3 {},rule,rule", bot.display()),
        "--deals",
        "2",
        "--threads",
        "1",
        "--out",
        run.to_str().unwrap(),
    ]));
    let rows = csv_rows(&run.join("compute.csv"));
    let startup: f64 = rows[1][col(&rows, "startup_s")].parse().unwrap();
    let deciding: f64 = rows[1][col(&rows, "decision_s")].parse().unwrap();
    assert!(startup >= 1.0, "the start-up counted apart: {startup} s");
    assert!(deciding < 1.0, "the start-up is not a decision's time: {deciding} s deciding");
    assert_eq!(rows[2][col(&rows, "startup_s")], "0.000000");
}

#[test]
fn a_time_budget_run_says_it_is_not_reproducible() {
    // Finding 5: the manifest of a --ms-per-decision run did not say so, and
    // its report claimed everything but the timings reproducible.
    let d = TempDir::new("i33", "budget");
    let (timed, fixed) = (d.path("timed"), d.path("fixed"));
    for (dir, extra) in [(&timed, &["--ms-per-decision", "1"][..]), (&fixed, &[][..])] {
        let mut args = vec!["tournament", "--agents", "pimc,rule,rule", "--deals", "1", "--threads", "1"];
        args.extend_from_slice(extra);
        if extra.is_empty() {
            args[2] = "pimc:worlds=2,rule,rule";
        }
        args.extend(["--out", dir.to_str().unwrap()]);
        ok(&tresillo(&args));
    }
    let m: serde_json::Value = serde_json::from_slice(&read(&timed.join("manifest.json"))).unwrap();
    assert_eq!(m["time_budget"], serde_json::json!(["pimc:ms=1"]), "{m}");
    let m = String::from_utf8(read(&fixed.join("manifest.json"))).unwrap();
    assert!(!m.contains("time_budget"), "{m}");
    for (dir, says) in [(&timed, "no (time_budget): pimc:ms=1"), (&fixed, "yes: the same command")] {
        let html = d.path("r.html");
        ok(&tresillo(&["report", dir.to_str().unwrap(), "--out", html.to_str().unwrap()]));
        let page = std::fs::read_to_string(&html).unwrap();
        assert!(page.contains(says), "{says}");
        assert_eq!(page.contains("unlike every other number here"), dir == &fixed);
    }
}

#[test]
fn pair_labels_that_read_alike_are_coded_with_a_key() {
    // Finding 6: two pair labels both read `0:rule:entrada…`.
    let d = TempDir::new("i33", "labels");
    let run = d.path("run");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "rule:entrada=41:solo=48,rule:entrada=41:solo=50,random",
        "--deals",
        "6",
        "--duplicate",
        "--out",
        run.to_str().unwrap(),
    ]));
    let html = d.path("r.html");
    ok(&tresillo(&["report", run.to_str().unwrap(), "--out", html.to_str().unwrap()]));
    let page = std::fs::read_to_string(&html).unwrap();
    let pairs = &page[page.find("id=\"run1-pairs\"").unwrap()..];
    let svg = &pairs[..pairs.find("</svg>").unwrap()];
    for label in [
        "0:rule:entrada=41:solo=48 - 1:rule:entrada=41:solo=50",
        "0:rule:entrada=41:solo=48 - 2:random",
        "1:rule:entrada=41:solo=50 - 2:random",
        "#1",
        "#3",
    ] {
        assert!(svg.contains(label), "{label} not drawn in the pairs chart");
    }
    assert!(!svg.contains('\u{2026}'), "no label cut short");
}

#[test]
fn a_league_has_rating_differences_and_a_compute_chart() {
    // Findings 6 and 7: a league page had no compute chart and no interval on
    // a difference of two ratings; matrix.csv had no likelihood of superiority
    // nor win/draw/loss counts.
    let d = TempDir::new("i33", "league");
    let out = d.path("league");
    let printed = ok(&tresillo(&[
        "league",
        "--agents",
        "rule,random,rule:entrada=10,rule:entrada=60",
        "--deals",
        "12",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert!(printed.contains("rating differences (A minus B, 95% CI)"), "{printed}");
    let m = csv_rows(&out.join("matrix.csv"));
    assert_eq!(
        m[0].join(","),
        "agent_a,agent_b,tables,deals,mean,ci95_low,ci95_high,rating_diff,rating_diff_low,rating_diff_high,los,\
         wins,draws,losses,elo,elo_low,elo_high"
    );
    let ratings = csv_rows(&out.join("ratings.csv"));
    let rating = |a: &str| ratings.iter().find(|r| r[0] == a).unwrap()[1].parse::<f64>().unwrap();
    for r in &m[1..] {
        let num = |k: usize| r[k].parse::<f64>().unwrap();
        assert!((num(7) - (rating(&r[0]) - rating(&r[1]))).abs() < 2e-4, "{r:?}");
        assert!(num(8) < num(7) && num(7) < num(9) && (0.0..=1.0).contains(&num(10)), "{r:?}");
        let wdl: u64 = r[11..14].iter().map(|x| x.parse::<u64>().unwrap()).sum();
        assert_eq!(wdl.to_string(), r[3]);
        // Issue 55: the Elo of those counts, the score (W + D/2) / N on the logistic scale.
        let s = (num(11) + num(12) / 2.0) / wdl as f64;
        let elo = match s {
            s if s <= 0.0 => f64::NEG_INFINITY,
            s if s >= 1.0 => f64::INFINITY,
            s => 400.0 * (s / (1.0 - s)).log10(),
        };
        assert!(num(14) == elo || (num(14) - elo).abs() < 0.06, "{r:?}");
        assert!(num(15) <= num(14) && num(14) <= num(16), "{r:?}");
    }
    let html = d.path("l.html");
    ok(&tresillo(&["report", out.to_str().unwrap(), "--out", html.to_str().unwrap()]));
    let page = std::fs::read_to_string(&html).unwrap();
    for id in ["run1-ratings", "run1-matrix", "run1-differences", "run1-compute"] {
        assert!(page.contains(&format!("id=\"{id}\"")), "{id}");
    }
    // The head-to-head labels are codes with a key, never run together.
    let h2h = &page[page.find("id=\"run1-matrix\"").unwrap()..];
    let svg = &h2h[..h2h.find("</svg>").unwrap()];
    assert!(svg.contains("#6") && svg.contains("rule:entrada=10 - rule:entrada=60"), "the key");
}

#[test]
fn progress_lines_where_no_terminal_is_and_none_with_quiet() {
    // Finding 8: `tournament ... 2> log` wrote nothing until the end.
    let d = TempDir::new("i33", "progress");
    let run = |name: &str, quiet: bool| {
        let dir = d.path(name);
        let mut c = Command::new(env!("CARGO_BIN_EXE_tresillo"));
        c.args([
            "tournament",
            "--agents",
            "rule,random,rule",
            "--deals",
            "40",
            "--duplicate",
            "--threads",
            "2",
        ])
        .args(["--out", dir.to_str().unwrap()])
        .env("TRESILLO_PROGRESS_EVERY", "0")
        .env("TRESILLO_BATCH_UNITS", "10");
        if quiet {
            c.arg("--quiet");
        }
        let out = c.output().unwrap();
        assert!(out.status.success());
        (dir, String::from_utf8(out.stderr).unwrap())
    };
    let (a, log) = run("a", false);
    let lines: Vec<&str> = log.lines().filter(|l| l.starts_with("progress: ")).collect();
    assert_eq!(lines.len(), 4, "{log}");
    assert!(lines[0].starts_with("progress: 10/40 deals (25.0%), "), "{}", lines[0]);
    assert!(lines[3].contains("40/40 deals (100.0%)") && lines[3].contains("ETA 0m00s"), "{}", lines[3]);
    assert!(
        lines[3].contains("; 0:rule - 1:random +") && lines[3].contains(" tantos per deal, W/D/L "),
        "{}",
        lines[3]
    );
    let (b, quiet) = run("b", true);
    assert!(!quiet.contains("progress"), "{quiet}");
    for f in ["deals.csv", "summary.csv", "pairs.csv", "stats.json"] {
        assert_eq!(read(&a.join(f)), read(&b.join(f)), "{f}");
    }
    // The running head-to-head is the final paired difference.
    let pairs = csv_rows(&a.join("pairs.csv"));
    let mean: f64 = pairs[1][5].parse().unwrap();
    assert!(lines[3].contains(&format!("{mean:+.4} [")), "{} against {mean}", lines[3]);
}

#[test]
fn a_deal_book_replays_exactly_the_same_deals() {
    let d = TempDir::new("i33", "book");
    let first = d.path("first");
    let args = |out: &Path| {
        vec![
            "tournament".to_string(),
            "--agents".into(),
            "rule,random,rule:entrada=60".into(),
            "--duplicate".into(),
            "--out".into(),
            out.to_str().unwrap().to_string(),
        ]
    };
    let mut a = args(&first);
    a.extend(["--deals".into(), "8".into(), "--seed".into(), "77".into()]);
    ok(&tresillo(&a.iter().map(String::as_str).collect::<Vec<_>>()));
    // The deal_seed column of the run is a book of its deals.
    let rows = csv_rows(&first.join("deals.csv"));
    let seed = col(&rows, "deal_seed");
    let mut seeds: Vec<&str> = rows[1..].iter().map(|r| r[seed].as_str()).collect();
    seeds.dedup();
    assert_eq!(seeds.len(), 8);
    let book = d.write("book.txt", &format!("# the deals of the first run\n{}\n", seeds.join("\n")));
    let again = d.path("again");
    let mut b = args(&again);
    b.extend(["--deals-from".into(), book.to_str().unwrap().to_string(), "--seed".into(), "5".into()]);
    ok(&tresillo(&b.iter().map(String::as_str).collect::<Vec<_>>()));
    for f in ["deals.csv", "summary.csv", "pairs.csv"] {
        assert_eq!(read(&first.join(f)), read(&again.join(f)), "{f}: another seed, the same deals");
    }
    let m: serde_json::Value = serde_json::from_slice(&read(&again.join("manifest.json"))).unwrap();
    assert_eq!(m["config"]["deals"], 8);
    assert_eq!(m["deal_book"].as_array().unwrap().len(), 8);
    // A dealt hand in the notation: the deal `tresillo deal` prints.
    let dealt = ok(&tresillo(&["deal", "--seed", seeds[0]]));
    let book2 = d.write("dealt.txt", &format!("{}{}\n", dealt, seeds[1]));
    let third = d.path("third");
    let mut c = args(&third);
    c.extend(["--deals-from".into(), book2.to_str().unwrap().to_string(), "--record".into()]);
    c.push(d.path("third.jsonl").to_str().unwrap().to_string());
    ok(&tresillo(&c.iter().map(String::as_str).collect::<Vec<_>>()));
    let m: serde_json::Value = serde_json::from_slice(&read(&third.join("manifest.json"))).unwrap();
    assert_eq!(m["deal_book"][0], dealt.trim());
    assert_eq!(m["deal_book"][1].to_string(), seeds[1]);
    // Strict: one line naming the file, the line and the token; nothing written.
    for (text, line, token) in
        [("12\n7x\n", "line 2", "`7x`"), ("1 2\n", "line 1", "`2`"), ("oA 2c / / /\n", "line 1", "")]
    {
        let bad = d.write("bad.txt", text);
        let out = d.path("bad");
        let mut e = args(&out);
        e.extend(["--deals-from".into(), bad.to_str().unwrap().to_string()]);
        let o = tresillo(&e.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(o.status.code(), Some(2));
        let err = failed(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("error: {} {line}: {token}", bad.display())), "{err}");
        assert!(!out.exists());
    }
    let o = tresillo(&["tournament", "--deals-from", "book.txt", "--deals", "3"]);
    assert!(failed(&o).contains("--deals"));
}
