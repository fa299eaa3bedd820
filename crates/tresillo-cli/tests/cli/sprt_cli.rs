//! `tresillo sprt` (issue 23): identical agents are not told apart, a real
//! difference is found and says why it stopped, the printed command replays the
//! same deals into a run directory whose pairs.csv has the test's mean, and bad
//! settings are one-line errors.

use crate::common;
use common::{TempDir, failed, ok, tresillo};

#[test]
fn identical_agents_are_not_told_apart() {
    for agents in ["rule,rule,random", "random,random,rule"] {
        let out = ok(&tresillo(&[
            "sprt",
            "--agents",
            agents,
            "--slots",
            "0,1",
            "--margin",
            "1",
            "--batch",
            "100",
            "--max-deals",
            "3000",
            "--threads",
            "2",
        ]));
        let first = out.lines().next().unwrap();
        assert!(first.starts_with("neither 0:") && first.ends_with("is better by 1 or more"), "{out}");
        assert!(
            out.contains("stopped after ") && out.contains("sequential test: alpha 0.05, beta 0.05"),
            "{out}"
        );
    }
}

#[test]
fn a_real_difference_is_found_and_its_deals_can_be_kept() {
    let d = TempDir::new("sprt", "real");
    let out = ok(&tresillo(&["sprt", "--agents", "random,rule,rule", "--margin", "1", "--batch", "40"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "1:rule is better than 0:random", "{out}");
    // Decided at the first look that may decide (40 deals are too few: MIN_UNITS is 30).
    assert!(
        lines[1].starts_with("stopped after 40 duplicate deals (6 seatings each): 0:random minus 1:rule -"),
        "{out}"
    );
    let mean = lines[1].split(" minus 1:rule ").nth(1).unwrap().split(' ').next().unwrap();
    // The printed command plays the same deals; its pairs.csv has the same mean.
    let keep = lines.last().unwrap().split(": tresillo ").nth(1).unwrap();
    let run = d.path("kept");
    let args: Vec<&str> =
        keep.split(' ').map(|w| if w == "DIR" { run.to_str().unwrap() } else { w }).collect();
    ok(&tresillo(&args));
    let pairs = std::fs::read_to_string(run.join("pairs.csv")).unwrap();
    let row: Vec<&str> = pairs.lines().nth(1).unwrap().split(',').collect();
    assert_eq!((row[0], row[2], row[4]), ("0", "1", "40"), "{pairs}");
    assert_eq!(format!("{:+.4}", row[5].parse::<f64>().unwrap()), mean, "{pairs}\n{out}");
    // The same result whatever the thread count.
    let again = ok(&tresillo(&[
        "sprt",
        "--agents",
        "random,rule,rule",
        "--margin",
        "1",
        "--batch",
        "40",
        "--threads",
        "1",
    ]));
    assert_eq!(again, out);
}

#[test]
fn bad_settings_are_one_line_errors() {
    for (args, want) in [
        (vec!["--slots", "0,0"], "slots 0 and 0: two different slots"),
        (vec!["--slots", "0,3"], "slots 0 and 3"),
        (vec!["--slots", "x"], "--slots x: two slot numbers"),
        (vec!["--alpha", "0.7"], "alpha 0.7: a probability"),
        (vec!["--margin", "0"], "margin 0"),
        (vec!["--max-deals", "1"], "--max-deals 1"),
        (vec!["--agents", "rule,nobody,random"], "nobody"),
    ] {
        let mut a = vec!["sprt"];
        if args[0] != "--agents" {
            a.extend(["--agents", "rule,rule,random"]);
        }
        a.extend(args);
        let e = failed(&tresillo(&a));
        assert_eq!(e.trim().lines().count(), 1, "{e}");
        assert!(e.contains(want), "{a:?}: {e}");
    }
}

#[test]
fn out_keeps_every_look_as_a_run_directory_and_resumes_to_the_same_test() {
    let d = TempDir::new("sprt", "out");
    let args =
        ["sprt", "--agents", "random,rule,rule", "--margin", "1", "--batch", "40", "--max-deals", "400"];
    let plain = ok(&tresillo(&args));
    let dir = d.path("kept");
    let mut with_out = args.to_vec();
    with_out.extend(["--out", dir.to_str().unwrap()]);
    let kept = ok(&tresillo(&with_out));
    // The same test, and where its deals are.
    assert!(kept.starts_with(&plain), "{kept}\n{plain}");
    assert!(kept.contains("sprt.json (the test's state), looks/look-00000 to look-00000"), "{kept}");
    let state = std::fs::read_to_string(dir.join("sprt.json")).unwrap();
    assert!(state.contains("\"verdict\": \"B better\"") && state.contains("\"deals\": 40"), "{state}");
    let look = dir.join("looks/look-00000");
    let rows = std::fs::read_to_string(look.join("deals.csv")).unwrap().lines().count();
    assert_eq!(rows, 1 + 40 * 6);
    assert!(look.join("pairs.csv").exists() && look.join("summary.csv").exists());
    // Again without --resume: refused; with it: the same.
    let e = failed(&tresillo(&with_out));
    assert!(e.contains("use --resume to continue it"), "{e}");
    let mut resume = with_out.clone();
    resume.push("--resume");
    assert_eq!(ok(&tresillo(&resume)), kept);
    // Another test in the same directory needs --force.
    let mut other = with_out.clone();
    other[4] = "0.5";
    let e = failed(&tresillo(&other));
    assert!(e.contains("holds another sequential test; use --force"), "{e}");
    other.push("--force");
    ok(&tresillo(&other));

    // Identical agents: several looks, killed in the middle of the first, resumed.
    let same_args = [
        "sprt",
        "--agents",
        "rule,rule,random",
        "--slots",
        "0,1",
        "--margin",
        "1",
        "--batch",
        "40",
        "--max-deals",
        "4000",
    ];
    let whole = ok(&tresillo(&same_args));
    let cut = d.path("cut");
    let mut a = same_args.to_vec();
    a.extend(["--out", cut.to_str().unwrap()]);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(&a)
        .env("TRESILLO_BATCH_UNITS", "7")
        .env("TRESILLO_ABORT_AFTER_CHECKPOINTS", "3")
        .output()
        .unwrap();
    assert!(!o.status.success());
    a.push("--resume");
    let resumed = ok(&tresillo(&a));
    assert!(resumed.starts_with(&whole), "{resumed}\n{whole}");
    let e = failed(&tresillo(&[
        "sprt",
        "--agents",
        "rule,rule,random",
        "--batch",
        "30",
        "--max-deals",
        "100",
        "--out",
        "x",
    ]));
    assert!(e.contains("--max-deals 100 is not a multiple of --batch 30"), "{e}");
    let e = failed(&tresillo(&["sprt", "--agents", "rule,rule,random", "--resume"]));
    assert!(e.contains("need --out"), "{e}");
}

/// Issue 33, item 3: identical play (every difference 0) is a verdict, not a
/// test that runs to its cap undecided.
#[test]
fn identical_play_is_a_verdict() {
    let out = ok(&tresillo(&[
        "sprt",
        "--agents",
        "rule,rule,rule",
        "--margin",
        "0.5",
        "--batch",
        "500",
        "--max-deals",
        "3000",
    ]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "neither 0:rule nor 1:rule is better by 0.5 or more", "{out}");
    assert!(lines[1].starts_with("stopped after 500 duplicate deals"), "{out}");
    assert!(
        out.contains("identical play so far: every one of the 500 deals gave the same difference (+0.0000)"),
        "{out}"
    );
    // The one-sided tests decide it too: no regression, and no gain.
    let one_sided = |test: &str| {
        ok(&tresillo(&[
            "sprt",
            "--agents",
            "rule,rule,rule",
            "--test",
            test,
            "--margin",
            "0.5",
            "--batch",
            "100",
            "--max-deals",
            "3000",
        ]))
    };
    let nonreg = one_sided("non-regression");
    assert!(
        nonreg.starts_with("1:rule is not worse than 0:rule by more than 0.5 (non-regression passed"),
        "{nonreg}"
    );
    let better = one_sided("better");
    assert!(better.starts_with("1:rule is not better than 0:rule by 0.5 (H0 accepted"), "{better}");
}

/// Issue 33, item 3: a non-regression test beside "B better by the margin",
/// explicit bounds, and `--bidding` as in a tournament.
#[test]
fn one_sided_tests_and_card_play_alone() {
    let run = |extra: &[&str]| {
        let mut a = vec!["sprt", "--agents", "rule,random,rule", "--batch", "40", "--max-deals", "4000"];
        a.extend_from_slice(extra);
        ok(&tresillo(&a))
    };
    // B (random) against A (rule): not better, and a regression.
    let better = run(&["--test", "better", "--margin", "1"]);
    assert!(better.starts_with("1:random is not better than 0:rule by 1 (H0 accepted"), "{better}");
    assert!(
        better.contains(
            "sequential test (better): alpha 0.05, beta 0.05, H0 1:random minus 0:rule = 0, H1 = 1"
        )
    );
    let nonreg = run(&["--test", "non-regression", "--margin", "1"]);
    assert!(nonreg.starts_with("1:random may be worse than 0:rule by 1 (non-regression failed"), "{nonreg}");
    // The same test by its bounds.
    let bounds = run(&["--bounds", "-1,0"]);
    assert!(bounds.starts_with("H0 accepted: 1:random minus 0:rule is -1 rather than 0"), "{bounds}");
    // Card play alone: the rule agent bids for both; the kept command says so.
    let cards = run(&["--bidding", "rule", "--margin", "1"]);
    assert!(cards.starts_with("0:rule is better than 1:random"), "{cards}");
    assert!(cards.lines().last().unwrap().contains(" --bidding rule --out DIR"), "{cards}");
    for (args, want) in [
        (vec!["--test", "worse"], "--test worse: one of difference, better, non-regression"),
        (vec!["--bounds", "0"], "--bounds 0: two numbers"),
        (vec!["--bounds", "1,0"], "H0 below H1"),
        (vec!["--bidding", "nobody"], "nobody"),
    ] {
        let mut a = vec!["sprt", "--agents", "rule,random,rule"];
        a.extend(args);
        let e = failed(&tresillo(&a));
        assert_eq!(e.trim().lines().count(), 1, "{e}");
        assert!(e.contains(want), "{a:?}: {e}");
    }
}

/// Issue 33, item 3: `tresillo report` draws an sprt directory: its test, its
/// verdict and the ratios look by look against the bounds.
#[test]
fn report_draws_an_sprt_directory() {
    let d = TempDir::new("sprt", "report");
    let dir = d.path("t");
    ok(&tresillo(&[
        "sprt",
        "--agents",
        "rule,rule:entrada=40,random",
        "--test",
        "non-regression",
        "--margin",
        "0.3",
        "--batch",
        "40",
        "--max-deals",
        "160",
        "--out",
        dir.to_str().unwrap(),
    ]));
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("sprt.json")).unwrap()).unwrap();
    let looks = state["looks"].as_array().unwrap();
    assert!(!looks.is_empty() && looks.len() <= 4, "{state}");
    assert_eq!(looks.last().unwrap()["deals"], state["deals"]);
    assert_eq!(state["test"], "non-regression");
    assert_eq!((state["h0"].as_f64(), state["h1"].as_f64()), (Some(-0.3), Some(0.0)));
    let page = d.path("r.html");
    let printed = ok(&tresillo(&["report", dir.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    assert!(printed.starts_with("1 chart from 1 run"), "{printed}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("sequential test t"), "the section is named");
    assert!(html.contains("Sequential test: 0:rule against 1:rule:entrada=40"), "the chart's title");
    assert!(html.contains("upper bound (accept H1)") && html.contains("lower bound (accept H0)"));
    assert!(html.contains("non-regression test: H0 1:rule:entrada=40 minus 0:rule = -0.3, H1 = 0"));
    assert!(html.matches("<tr><td class=\"num\">").count() >= looks.len(), "a table row per look");
}

/// The files of a directory (recursively), by relative path, as compared after
/// a kill and `--resume`: byte for byte, except a manifest's `command_line` (the
/// command that last ran it) and `build`, a look's `run.lock` (the pid of its
/// last writer), and the times of `compute.json`, `compute.csv` and of each
/// look's compute in `sprt.json` (measurements; their counts are compared).
fn contents(dir: &std::path::Path) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if name.ends_with("run.lock") {
                continue; // the pid of the process that last wrote the look
            }
            let text = String::from_utf8(std::fs::read(&p).unwrap()).unwrap();
            let text = if name.ends_with("manifest.json") {
                let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
                v.as_object_mut().unwrap().remove("command_line");
                v.as_object_mut().unwrap().remove("build");
                v.to_string()
            } else if name.ends_with("compute.json") {
                let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
                for s in v["slots"].as_array_mut().unwrap() {
                    for k in ["timed", "wall_ns", "cpu_ns", "card_wall_ns", "card_hist"] {
                        s.as_object_mut().unwrap().remove(k);
                    }
                }
                v.to_string()
            } else if name.ends_with("sprt.json") {
                // Each look's compute has measured CPU seconds (issue 55); its decisions are compared.
                let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
                for l in v["looks"].as_array_mut().unwrap() {
                    if let Some(c) = l.get_mut("compute").and_then(|c| c.as_object_mut()) {
                        c.remove("cpu_s");
                    }
                }
                v.to_string()
            } else if name.ends_with("compute.csv") {
                let keep = text.lines().next().unwrap().split(',').position(|c| c == "forfeits").unwrap() + 1;
                text.lines().map(|l| l.split(',').take(keep).collect::<Vec<_>>().join(",") + "\n").collect()
            } else {
                text
            };
            out.insert(name, text);
        }
    }
    out
}

/// Issue 34, item 2: an `sprt --out` killed at any write (the k-th write point of
/// the process, for every k until the test finishes unkilled) is finished by
/// `--resume` to the same verdict and the same files as an uninterrupted test.
#[test]
fn a_killed_sprt_resumes_from_any_write_to_the_same_result() {
    let d = TempDir::new("sprt", "kills");
    let args = |dir: &std::path::Path| -> Vec<String> {
        [
            "sprt",
            "--agents",
            "rule,rule:entrada=43,random",
            "--margin",
            "0.2",
            "--batch",
            "20",
            "--max-deals",
            "60",
            "--threads",
            "1",
            "--out",
            dir.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |dir: &std::path::Path, extra: &[&str], kill: Option<u64>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_tresillo"));
        c.args(args(dir)).args(extra).env("TRESILLO_BATCH_UNITS", "10");
        if let Some(k) = kill {
            c.env("TRESILLO_ABORT_AFTER_WRITES", k.to_string());
        }
        c.output().unwrap()
    };
    let whole_dir = d.path("whole");
    let whole = ok(&run(&whole_dir, &[], None));
    let want = contents(&whole_dir);
    assert!(
        want.contains_key("sprt.json") && want.keys().any(|k| k.ends_with("look-00002/deals.csv")),
        "{want:?}"
    );
    let mut k = 1;
    loop {
        let dir = d.path(&format!("k{k}"));
        let o = run(&dir, &[], Some(k));
        if o.status.success() {
            break; // every write point of the test has been a kill point
        }
        let resumed = run(&dir, &["--resume"], None);
        let text = ok(&resumed);
        assert_eq!(text.lines().next(), whole.lines().next(), "killed at write {k}");
        assert_eq!(contents(&dir), want, "killed at write {k}");
        std::fs::remove_dir_all(&dir).unwrap();
        k += 1;
        assert!(k < 10_000, "no end to the write points");
    }
    assert!(k > 30, "only {k} write points: the hook does not see the runner's writes");
}

/// Issue 33 (deal books): `sprt --deals-from` plays the book's deals; a book of
/// the seed's own deals gives the very test the seed gives, with and without
/// `--out`, and the book is part of the kept test.
#[test]
fn a_deal_book_is_played_by_the_test() {
    let d = TempDir::new("sprt", "book");
    let run = d.path("seeded");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "random,rule,rule",
        "--deals",
        "400",
        "--duplicate",
        "--out",
        run.to_str().unwrap(),
    ]));
    let csv = std::fs::read_to_string(run.join("deals.csv")).unwrap();
    let col = csv.lines().next().unwrap().split(',').position(|c| c == "deal_seed").unwrap();
    let mut seeds: Vec<&str> = Vec::new();
    for line in csv.lines().skip(1) {
        let s = line.split(',').nth(col).unwrap();
        if seeds.last() != Some(&s) {
            seeds.push(s);
        }
    }
    assert_eq!(seeds.len(), 400);
    let book = d.path("book.txt");
    std::fs::write(&book, format!("# the seed's deals\n{}\n", seeds.join("\n"))).unwrap();
    let args = ["sprt", "--agents", "random,rule,rule", "--margin", "1", "--batch", "40"];
    let mut plain = args.to_vec();
    plain.extend(["--max-deals", "400"]);
    let plain = ok(&tresillo(&plain));
    let mut booked = args.to_vec();
    booked.extend(["--deals-from", book.to_str().unwrap()]);
    let out = ok(&tresillo(&booked));
    let head = |s: &str| s.lines().take(3).collect::<Vec<_>>().join("\n");
    assert_eq!(head(&out), head(&plain), "{out}\n{plain}");
    assert!(out.lines().last().unwrap().contains(&format!("--deals-from {}", book.display())), "{out}");
    assert!(out.contains("with the book cut to its first 40 deals"), "{out}");
    // Kept: the same looks' rows as the seed's, and the book in sprt.json.
    let dir = d.path("kept");
    let mut kept = booked.clone();
    kept.extend(["--out", dir.to_str().unwrap()]);
    assert_eq!(head(&ok(&tresillo(&kept))), head(&plain));
    let state = std::fs::read_to_string(dir.join("sprt.json")).unwrap();
    assert!(state.contains("\"deal_book\""), "{state}");
    let rows = std::fs::read_to_string(dir.join("looks/look-00000/deals.csv")).unwrap();
    assert_eq!(rows.lines().take(241).collect::<Vec<_>>(), csv.lines().take(241).collect::<Vec<_>>());
    // Another book under the same directory is another test.
    let other = d.path("other.txt");
    let reversed: Vec<&str> = seeds.iter().rev().copied().collect();
    std::fs::write(&other, reversed.join("\n")).unwrap();
    let mut changed = args.to_vec();
    changed.extend(["--deals-from", other.to_str().unwrap(), "--out", dir.to_str().unwrap(), "--resume"]);
    let e = failed(&tresillo(&changed));
    assert!(e.contains("holds another sequential test"), "{e}");
    // A longer test than the book is refused in one line.
    let mut long = booked.clone();
    long.extend(["--max-deals", "800"]);
    let e = failed(&tresillo(&long));
    assert!(e.contains("--max-deals 800: the deal book") && e.contains("holds only 400 deals"), "{e}");
}
