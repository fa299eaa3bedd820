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
