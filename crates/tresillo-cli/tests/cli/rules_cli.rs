//! `--rules`, `--rule-option`, the TOML `rules` table and `tresillo rules`
//! (RULES.md section 12), end to end: every subcommand that plays or scores takes
//! them, bad names and options are one-line errors, and a run of each rule set
//! records its options in the manifest.

use crate::common;

use common::{TempDir, failed, ok, tresillo};

#[test]
fn rules_lists_every_rule_set_with_its_section_and_options() {
    let out = ok(&tresillo(&["rules"]));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("tresillo ") && lines[0].contains("section 1-8"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("tresillo-house ") && l.contains("section 12.1")), "{out}");
    // Each option once under every rule set that lists it (counted from the registry).
    for (name, o) in [
        ("palo_de_favor", "palo_de_favor    default none"),
        ("codillo_old", "codillo_old      default false"),
    ] {
        let sets = tresillo_core::RuleSet::BUILT_IN
            .iter()
            .filter(|r| r.spec().options.iter().any(|i| i.name == name));
        assert_eq!(out.lines().filter(|l| l.trim_start().starts_with(o)).count(), sets.count(), "{o}: {out}");
    }
    // Every option line is aligned: its `default` column starts at the same place.
    let columns: Vec<usize> =
        out.lines().filter(|l| l.starts_with("    ")).map(|l| l.find(" default ").unwrap()).collect();
    assert!(columns.len() > 4 && columns.iter().all(|&c| c == columns[0]), "{out}");
}

#[test]
fn bad_rule_sets_and_options_are_one_line_errors() {
    let d = TempDir::new("rules", "bad");
    let out = d.path("t");
    let out = out.to_str().unwrap();
    let known: Vec<&str> = tresillo_core::RuleSet::BUILT_IN.iter().map(|r| r.name()).collect();
    let unknown = format!(
        "error: unknown rule set `whist` (known: {}; a rule set defined in a file is known once registered: `--rule-set FILE`, in Python `tresillo.register_rule_set(path)`)",
        known.join(", ")
    );
    for (args, msg) in [
        (vec!["--rules", "whist"], unknown.as_str()),
        (
            vec!["--rule-option", "show_heap=true"],
            "error: unknown rule option `show_heap` (options of tresillo: palo_de_favor, codillo_old, penetro_all_play)",
        ),
        (
            vec!["--rule-option", "penetro_all_play=true"],
            "error: rule option `penetro_all_play` is for a table of four (--players 4), not 3 players",
        ),
        (
            vec!["--rules", "tresillo-house", "--players", "4"],
            "error: rule set tresillo-house is played by 3 players, not 4",
        ),
        (vec!["--rule-option", "codillo_old"], "error: bad rule option `codillo_old`: expected key=value"),
        (
            vec!["--rule-option", "palo_de_favor=hearts"],
            "error: bad value `hearts` for rule option `palo_de_favor`",
        ),
        (
            vec!["--rule-option", "codillo_old=true", "--rule-option", "codillo_old=false"],
            "error: rule option `codillo_old` given twice",
        ),
    ] {
        let mut a = vec!["tournament", "--deals", "3", "--out", out];
        a.extend(&args);
        let err = failed(&tresillo(&a));
        assert!(err.starts_with(msg), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        let mut p = vec!["play"];
        p.extend(&args);
        assert!(failed(&tresillo(&p)).starts_with(msg));
    }
    assert!(!d.path("t").exists(), "nothing is written for a bad rule set");
    let err = failed(&tresillo(&[
        "perft",
        "--deal",
        "1E / 2E / 3E",
        "--trump",
        "oros",
        "--depth",
        "1",
        "--rules",
        "x",
    ]));
    assert!(err.starts_with("error: unknown rule set `x`"), "{err}");
}

#[test]
fn play_narrates_a_house_forced_entrada() {
    // Seed 3: everybody passes, the espada is in the heap and seat 2 holds the basto.
    let out =
        ok(&tresillo(&["play", "--seed", "3", "--agents", "rule,rule,rule", "--rules", "tresillo-house"]));
    assert!(out.contains("exchange: seat 2 discards"), "{out}");
    assert!(out.contains("seat 2 (forced entrada) plays entrada"), "{out}");
    let ex = out.find("exchange: seat 2").unwrap();
    assert!(ex < out.find("(forced entrada)").unwrap(), "the exchange comes before trumps: {out}");
    let plain = ok(&tresillo(&["play", "--seed", "3", "--agents", "rule,rule,rule"]));
    assert!(plain.contains("outcome: cancelled"), "{plain}");
}

#[test]
fn tournaments_of_each_rule_set_record_the_options_and_resume() {
    let d = TempDir::new("rules", "tournament");
    let run = d.path("run");
    let run_s = run.to_str().unwrap();
    let args = [
        "tournament",
        "--agents",
        "rule,random,random",
        "--deals",
        "60",
        "--duplicate",
        "--rules",
        "tresillo-house",
        "--rule-option",
        "palo_de_favor=oros",
        "--rule-option",
        "codillo_old=true",
        "--out",
        run_s,
        "--threads",
        "2",
    ];
    ok(&tresillo(&args));
    let manifest = std::fs::read_to_string(run.join("manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(
        m["config"]["rules"],
        serde_json::json!({ "name": "tresillo-house", "palo_de_favor": "oros", "codillo_old": true })
    );
    let csv = std::fs::read_to_string(run.join("deals.csv")).unwrap();
    assert!(csv.lines().nth(1).unwrap().contains("tresillo-house"), "{csv}");
    // Resuming a finished run reads the rules back from the manifest.
    let mut resume = args.to_vec();
    resume.push("--resume");
    ok(&tresillo(&resume));
    assert_eq!(std::fs::read_to_string(run.join("deals.csv")).unwrap(), csv);
    // The default rule set keeps its plain form.
    let plain = d.path("plain");
    ok(&tresillo(&["tournament", "--deals", "6", "--out", plain.to_str().unwrap()]));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(plain.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["config"]["rules"], "tresillo");
}

#[test]
fn experiment_files_take_a_rules_table() {
    let d = TempDir::new("rules", "experiment");
    let out = d.path("out");
    let toml = format!(
        "[tournament]\nagents = [\"rule\", \"random\", \"random\"]\ndeals = 30\nseed = 4\n\
         rules = {{ name = \"tresillo\", palo_de_favor = \"copas\" }}\nout = \"{}\"\n",
        out.display()
    );
    let f = d.write("e.toml", &toml);
    let dry = ok(&tresillo(&["run", f.to_str().unwrap(), "--dry-run"]));
    assert!(dry.contains("--rules tresillo --rule-option palo_de_favor=copas "), "{dry}");
    ok(&tresillo(&["run", f.to_str().unwrap()]));
    assert!(out.join("deals.csv").exists());
    let tune = d.write(
        "tune.toml",
        "[tune]\nagent = \"rule\"\nparams = [\"entrada=40..50:5\"]\nopponents = [\"rule\", \"random\"]\n\
         deals = 6\nseed = 2\nrules = { name = \"tresillo-house\", codillo_old = true }\nout = \"x.csv\"\n",
    );
    let dry = ok(&tresillo(&["run", tune.to_str().unwrap(), "--dry-run"]));
    assert!(dry.contains("--rules tresillo-house --rule-option codillo_old=true "), "{dry}");
    let bad = d.write("bad.toml", &toml.replace("palo_de_favor = \"copas\"", "show_heap = true"));
    let err = failed(&tresillo(&["run", bad.to_str().unwrap()]));
    assert!(err.contains("unknown rule option `show_heap`"), "{err}");
}

#[test]
fn score_keeps_a_house_session() {
    let d = TempDir::new("rules", "score");
    let log = d.write(
        "s.jsonl",
        "{\"players\": [\"ana\", \"bea\", \"carla\"], \"rules\": \"tresillo-house\"}\n\
         {\"declarer\": \"bea\", \"contract\": \"entrada\", \"tricks\": [2, 5, 2]}\n\
         {\"declarer\": \"carla\", \"contract\": \"vuelta\", \"tricks\": [4, 4, 1], \"contra_estuche\": false}\n",
    );
    let out = ok(&tresillo(&["score", log.to_str().unwrap(), "--format", "json"]));
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["session"]["rules"], "tresillo-house");
    let text = ok(&tresillo(&["score", log.to_str().unwrap()]));
    assert!(text.contains("Session: rule set tresillo-house"), "{text}");
    // Hand 1: the plato alone (6) and entrada 1 from each: bea +8.
    assert!(lines[1].to_string().contains("\"aip\":6"), "{}", lines[1]);
    let four = d.write("four.jsonl", "{\"players\": 4, \"rules\": \"tresillo-house\"}\n");
    let err = failed(&tresillo(&["score", four.to_str().unwrap()]));
    assert!(err.contains("rule set tresillo-house is played by 3 players, not 4"), "{err}");
}

#[test]
fn score_keeps_a_palo_de_favor_session() {
    let d = TempDir::new("rules", "score-favor");
    let log = d.write(
        "s.jsonl",
        "{\"players\": 3, \"rules\": {\"name\": \"tresillo\", \"palo_de_favor\": \"oros\"}}\n\
         {\"declarer\": 1, \"contract\": \"vuelta\", \"trump\": \"oros\", \"tricks\": [2, 5, 2]}\n",
    );
    let out = ok(&tresillo(&["score", log.to_str().unwrap(), "--format", "json"]));
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(
        lines[0]["session"]["rules"],
        serde_json::json!({"name": "tresillo", "palo_de_favor": "oros"})
    );
    // The plato (6) plus 2n: 12; the plato and 2 from each, vuelta 1 doubled.
    let hand = lines[1].to_string();
    assert!(hand.contains("\"aip\":12"), "{hand}");
    let text = ok(&tresillo(&["score", log.to_str().unwrap()]));
    assert!(text.contains("Session: rule set tresillo palo_de_favor=oros"), "{text}");
}

#[test]
fn ismcts_plays_other_rule_sets_and_options() {
    let d = TempDir::new("rules", "ismcts");
    let out = d.path("t");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "ismcts:iters=10,rule,rule",
        "--deals",
        "2",
        "--rules",
        "tresillo-house",
        "--out",
        out.to_str().unwrap(),
    ]));
    let csv = std::fs::read_to_string(d.path("t/deals.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2);
    ok(&tresillo(&["play", "--agents", "rule,ismcts:iters=10,rule", "--rule-option", "codillo_old=true"]));
}

/// `hombre` (RULES.md section 12.3) through the command line: listed with its
/// options, refused options are one-line errors, and it plays in `play`,
/// `tournament` (recording its options), `perft`, `run` and `replay`.
#[test]
fn hombre_plays_in_every_subcommand_and_its_options_are_checked() {
    let out = ok(&tresillo(&["rules"]));
    assert!(out.lines().any(|l| l.starts_with("hombre ") && l.contains("section 12.3")), "{out}");
    for o in ["show_heap", "hombre-chips", "ante", "favorito", "gascarille", "contrabola"] {
        assert!(
            out.lines().any(|l| l.trim_start().starts_with(o) && l.contains("section 12.3")),
            "{o}: {out}"
        );
    }
    for (args, msg) in [
        (
            vec!["--rule-option", "show_heap=true"],
            "error: unknown rule option `show_heap` (options of tresillo",
        ),
        (
            vec!["--rules", "hombre", "--rule-option", "palo_de_favor=oros"],
            "error: unknown rule option `palo_de_favor` (options of hombre: show_heap, hombre-chips, ante, favorito, gascarille, contrabola)",
        ),
        (
            vec!["--rules", "hombre", "--rule-option", "ante=3"],
            "error: rule option `ante` applies only with `hombre-chips`",
        ),
    ] {
        let mut p = vec!["play"];
        p.extend(&args);
        let err = failed(&tresillo(&p));
        assert!(err.starts_with(msg), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let d = TempDir::new("rules", "hombre");
    let run = d.path("run");
    let rec = d.path("h.jsonl");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "rule,random,random",
        "--deals",
        "30",
        "--duplicate",
        "--rules",
        "hombre",
        "--rule-option",
        "show_heap=true",
        "--rule-option",
        "contrabola=true",
        "--out",
        run.to_str().unwrap(),
        "--record",
        rec.to_str().unwrap(),
    ]));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(
        m["config"]["rules"],
        serde_json::json!({ "name": "hombre", "show_heap": true, "contrabola": true })
    );
    let replayed = ok(&tresillo(&["replay", rec.to_str().unwrap(), "--hand", "2"]));
    assert!(replayed.contains("outcome:"), "{replayed}");
    let play = ok(&tresillo(&["play", "--seed", "3", "--agents", "rule,random,rule", "--rules", "hombre"]));
    assert!(play.contains("(obligation) plays entrada") && play.contains("exchanges first"), "{play}");
    let shown = ok(&tresillo(&[
        "play",
        "--seed",
        "5",
        "--agents",
        "rule,random,rule",
        "--rules",
        "hombre",
        "--rule-option",
        "show_heap=true",
    ]));
    assert!(shown.contains("the heap is turned face up: 3B 1C 11O"), "{shown}");
    let perft = ok(&tresillo(&[
        "perft",
        "--deal",
        "1E 2B / 3E 4B / 5E 6B",
        "--trump",
        "oros",
        "--depth",
        "2",
        "--rules",
        "hombre",
    ]));
    assert!(!perft.is_empty());
}

/// A `hombre` run with contrabolas goes through `report` and `analyze` (the
/// contrabola, outside the per-contract charts and the solver's classes, is
/// skipped by both).
#[test]
fn report_and_analyze_take_hombre_runs_with_contrabola() {
    let d = TempDir::new("rules", "hombre-report");
    let run = d.path("run");
    let rec = d.path("h.jsonl");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "rule,random,random",
        "--deals",
        "20",
        "--rules",
        "hombre",
        "--rule-option",
        "contrabola=true",
        "--out",
        run.to_str().unwrap(),
        "--record",
        rec.to_str().unwrap(),
    ]));
    let csv = std::fs::read_to_string(run.join("deals.csv")).unwrap();
    assert!(csv.contains(",contrabola,"), "some random declarer plays a contrabola in 20 deals: {csv}");
    let html = d.path("r.html");
    ok(&tresillo(&["report", run.to_str().unwrap(), "--out", html.to_str().unwrap()]));
    assert!(html.exists());
    ok(&tresillo(&["analyze", rec.to_str().unwrap()]));
}

#[test]
fn schema_deals_prints_the_committed_columns_file() {
    // docs/deals-columns.json is what `tresillo schema deals` prints (issue 37: the
    // scripts read it; tresillo-sim's tests hold it equal to the definition).
    let out = ok(&tresillo(&["schema", "deals"]));
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/deals-columns.json");
    assert_eq!(out, std::fs::read_to_string(file).unwrap());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["columns"][0]["name"], "deal");
    assert_eq!(v["contract_families"]["nolo"], "entrada");
    let err = failed(&tresillo(&["schema", "summary"]));
    assert!(err.contains("summary"), "{err}");
}
