//! `--bidding AGENT`: one agent makes every seat's bidding-phase decisions, so the
//! seated agents differ only in card play; and manifests name the program, not the
//! path of the binary.

mod common;
use common::{TempDir, failed, ok, tresillo};

/// The columns that the bidding phase decides, per row of `deals.csv`.
fn bidding_columns(csv: &str) -> Vec<String> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let keep: Vec<usize> = [
        "deal",
        "seating",
        "bids",
        "contract",
        "trump",
        "declarer",
        "forced",
        "exchanged0",
        "exchanged1",
        "exchanged2",
        "first_opponent",
    ]
    .iter()
    .map(|c| header.iter().position(|h| h == c).unwrap_or_else(|| panic!("column {c}")))
    .collect();
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            keep.iter().map(|&i| f[i]).collect::<Vec<_>>().join(",")
        })
        .collect()
}

fn tournament(dir: &TempDir, name: &str, agents: &str, bidding: Option<&str>) -> String {
    let out = dir.path(name);
    let mut args = vec!["tournament", "--agents", agents, "--deals", "40", "--seed", "3", "--duplicate"];
    args.extend(["--out", out.to_str().unwrap()]);
    if let Some(b) = bidding {
        args.extend(["--bidding", b]);
    }
    ok(&tresillo(&args));
    std::fs::read_to_string(out.join("deals.csv")).unwrap()
}

#[test]
fn the_bidding_agent_makes_every_bidding_decision() {
    let d = TempDir::new("bidding", "cols");
    let random_cards = tournament(&d, "a", "random,random,random", Some("rule"));
    let rule_cards = tournament(&d, "b", "rule,rule,random", Some("rule"));
    let random_all = tournament(&d, "c", "random,random,random", None);
    // The auction, contract, trump, exchange and conversation come before any card,
    // all from the rule agent with the seat's generator: identical in both runs.
    assert_eq!(bidding_columns(&random_cards), bidding_columns(&rule_cards));
    assert_ne!(bidding_columns(&random_cards), bidding_columns(&random_all));
    // Card play differs.
    assert_ne!(random_cards, rule_cards.replace("rule,rule,random", "random,random,random"));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.path("a/manifest.json")).unwrap()).unwrap();
    assert_eq!(m["config"]["bidding"], "rule");
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.path("c/manifest.json")).unwrap()).unwrap();
    assert!(m["config"].get("bidding").is_none(), "absent when not used: old manifests stay valid");
}

#[test]
fn a_bad_bidding_agent_is_one_clear_line() {
    let d = TempDir::new("bidding", "bad");
    let out = d.path("x");
    let err = failed(&tresillo(&[
        "tournament",
        "--deals",
        "3",
        "--bidding",
        "nope",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert!(err.contains("unknown agent `nope`") && err.trim().lines().count() == 1, "{err}");
}

#[test]
fn manifests_name_the_program_not_the_binary_path() {
    let d = TempDir::new("bidding", "cmd");
    tournament(&d, "m", "rule,rule,random", None);
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.path("m/manifest.json")).unwrap()).unwrap();
    assert_eq!(m["command_line"][0], "tresillo");
    assert_eq!(m["command_line"][1], "tournament");
}
