//! `tresillo sprt` (issue 23): identical agents are not told apart, a real
//! difference is found and says why it stopped, the printed command replays the
//! same deals into a run directory whose pairs.csv has the test's mean, and bad
//! settings are one-line errors.

mod common;
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
