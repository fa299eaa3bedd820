//! `--bidding AGENT`: one agent makes every seat's bidding-phase decisions, so the
//! seated agents differ only in card play; and manifests name the program, not the
//! path of the binary.

use crate::common;
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

/// A bot that plays cards (the first legal one) and answers any other request
/// with an action that is never legal: a fault that stops the run.
const CARDS_ONLY: &str = r#"import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "cards-only"}), flush=True)
    elif m["type"] == "request":
        a = m["legal"][0]["action"] if m["kind"] == "play" else 999999
        print(json.dumps({"type": "action", "id": m["id"], "action": a}), flush=True)
    elif m["type"] == "bye":
        break
"#;

/// `--bidding rule --bidding-covers all`: a card-play-only bot is asked for card
/// play alone (surrender, takeover and bola go to the bidding agent too); with
/// `--bidding rule` alone it is asked them (issue 35, defect 12).
#[test]
fn bidding_covers_all_asks_a_card_play_only_bot_for_cards_alone() {
    let d = TempDir::new("bidding", "covers");
    let bot = d.write("cards.py", CARDS_ONLY);
    let agents = format!("ext:cmd=python3 {},rule,rule", bot.display());
    let run = |name: &str, covers: Option<&str>| {
        let out = d.path(name);
        let mut args = vec!["tournament", "--agents", &agents, "--deals", "60", "--seed", "3", "--duplicate"];
        args.extend(["--bidding", "rule", "--threads", "1", "--out", out.to_str().unwrap()]);
        if let Some(c) = covers {
            args.extend(["--bidding-covers", c]);
        }
        tresillo(&args)
    };
    let err = failed(&run("bidding", None));
    assert!(err.contains("answered action 999999, which is not legal"), "{err}");
    ok(&run("all", Some("all")));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.path("all/manifest.json")).unwrap()).unwrap();
    assert_eq!(m["config"]["bidding_covers"], "all");
    // Without a bidding agent, and with a word it does not know: one error line each.
    let out = d.path("x");
    for (args, expect) in [
        (vec!["--bidding-covers", "all"], "needs a bidding agent"),
        (vec!["--bidding", "rule", "--bidding-covers", "most"], "unknown bidding cover `most`"),
    ] {
        let mut a = vec!["tournament", "--deals", "3", "--out", out.to_str().unwrap()];
        a.extend(args);
        let err = failed(&tresillo(&a));
        // One error line (clap adds its hint to try --help after a bad value).
        let first = err.trim().lines().next().unwrap_or_default();
        assert!(first.starts_with("error: ") && first.contains(expect), "{err}");
    }
}

/// An experiment file's `bidding_covers` is the command line's `--bidding-covers`
/// (what `--dry-run` prints), and a word it does not know is one line naming the
/// file, the table and the key.
#[test]
fn an_experiment_files_bidding_covers_is_the_option() {
    let d = TempDir::new("bidding", "exp");
    let out = d.path("out");
    let body = |covers: &str| {
        format!(
            "[tournament]\nagents = [\"random\", \"rule\", \"random\"]\ndeals = 6\nseed = 2\nbidding = \"rule\"\n\
             bidding_covers = \"{covers}\"\nout = \"{}\"\n",
            out.display()
        )
    };
    let exp = d.write("all.toml", &body("all"));
    let cmd = ok(&tresillo(&["run", exp.to_str().unwrap(), "--dry-run"]));
    assert!(cmd.contains("--bidding rule --bidding-covers all"), "{cmd}");
    ok(&tresillo(&["run", exp.to_str().unwrap()]));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["config"]["bidding_covers"], "all");
    let bad = d.write("bad.toml", &body("most"));
    let err = failed(&tresillo(&["run", bad.to_str().unwrap()]));
    assert!(err.contains("[tournament] bidding_covers: unknown bidding cover `most`"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
