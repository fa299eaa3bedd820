//! `tresillo score`: the example sessions, and bad logs.

use crate::common;

use common::{TempDir, ok, tresillo};
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name)
}

fn score(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .arg("score")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tresillo");
    let mut pipe = child.stdin.take().expect("stdin");
    pipe.write_all(stdin.unwrap_or("").as_bytes()).expect("write stdin");
    drop(pipe);
    child.wait_with_output().expect("wait")
}

fn json_lines(out: &Output) -> Vec<Value> {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect()
}

#[test]
fn the_example_session_scores_as_documented() {
    let path = example("session.jsonl");
    let lines = json_lines(&score(&["--format", "json", path.to_str().unwrap()], None));
    assert_eq!(lines.len(), 1 + 12 + 1);
    assert_eq!(lines[0]["session"]["players"], serde_json::json!(["Ana", "Blas", "Carmen"]));
    let hands = &lines[1..13];
    for h in hands {
        let l = &h["ledger"];
        let tokens: i64 = ints(&l["bowls"]).iter().sum::<i64>()
            + l["plato"].as_i64().unwrap()
            + l["pajaritos"].as_i64().unwrap();
        assert_eq!(tokens, 480, "tokens are conserved");
    }
    // Hand 2: a puesta in case 1, into the plato.
    assert_eq!(ints(&hands[1]["pool"]), [0, -1, -9]);
    assert_eq!(hands[1]["ledger"]["plato"], 15);
    // Hand 3: a codillo in case 2 (typed in with its winner only): written and paid.
    assert_eq!(hands[2]["case"], "puesta-in-plato");
    assert_eq!(ints(&hands[2]["pool"]), [-19, 19, -1]);
    assert_eq!(hands[2]["ledger"]["paper"], serde_json::json!([{"owner": 0, "amount": 19, "hand": 3}]));
    // Hand 4: a surrender with takeover, won: the AIP straight to the taker.
    assert_eq!(ints(&hands[3]["pool"]), [-1, -20, 20]);
    // Hand 6: a reserved puesta (case 3), lost again; hand 7 wins it back.
    assert_eq!((hands[5]["case"].as_str(), hands[5]["aip"].as_i64()), (Some("reserved"), Some(20)));
    assert_eq!(hands[6]["crossed_out"], serde_json::json!({"owner": 1, "amount": 20, "hand": 6}));
    assert_eq!(ints(&hands[6]["total"]), [23, -21, -1]);
    // Hand 11: twin puestas after a takeover.
    assert_eq!(hands[10]["written"].as_array().unwrap().len(), 2);
    let st = &lines[13]["settlement"];
    assert_eq!(st["fund"], 57);
    assert_eq!(ints(&st["final_bowls"]), [156, 124, 200]);
    assert_eq!(ints(&st["results"]), [-4, -36, 40]);
}

#[test]
fn the_example_session_as_a_table() {
    let path = example("session.jsonl");
    let out = score(&[path.to_str().unwrap()], None);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(
        "Hand 4 (line 5): Ana deals. Blas plays entrada, gives up after three tricks; Carmen takes over"
    ));
    assert!(text.contains("written on the paper: Blas 21 (hand 11), Carmen 21 (hand 11)"));
    assert!(text.contains("Settlement after 12 hands"));
    let last: Vec<&str> = text.lines().last().unwrap().split_whitespace().collect();
    assert_eq!(last, ["2", "Carmen", "202", "-21", "19", "200", "+40"]);
}

#[test]
fn the_four_player_example_with_penetros() {
    let path = example("session-four.jsonl");
    let lines = json_lines(&score(&["--format", "json", path.to_str().unwrap()], None));
    assert_eq!(ints(&lines[2]["condiciones"]), [-1, 3, -1, -1]);
    assert_eq!(ints(&lines[3]["total"]), [1, 1, -14, 1]);
    assert_eq!(lines[3]["outcome"], serde_json::json!({"result": "puesta", "kind": "surrendered"}));
    let st = &lines[6]["settlement"];
    assert_eq!(ints(&st["results"]), [-29, 28, 4, -3]);
    assert_eq!(st["remainder"], serde_json::json!([true, false, false, true]));
}

#[test]
fn standard_input_and_short_forms() {
    let log = r#"{"players": 3}
# a comment line

{"declarer": 1, "contract": "vuelta", "tricks": {"0": 1, "1": 5, "2": 3}}
{"declarer": 2, "contract": "entrada", "outcome": "puesta", "surrender": true}
"#;
    let lines = json_lines(&score(&["--format", "json", "-"], Some(log)));
    assert_eq!(lines[1]["line"], 4);
    assert_eq!(ints(&lines[1]["total"]), [-1 - 1 - 1, 6 + 2 + 2, -1 - 1]);
    assert_eq!(lines[2]["outcome"]["kind"], "surrendered");
    assert_eq!(lines[2]["dealer"], 1);
}

/// Runs a bad log: it must fail, print nothing on stdout, and say `expected`.
fn fails(log: &str, expected: &[&str]) {
    let out = score(&["-"], Some(log));
    assert!(!out.status.success(), "must fail: {log}");
    assert!(out.stdout.is_empty(), "no partial ledger: {}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8(out.stderr).unwrap();
    for e in expected {
        assert!(err.contains(e), "`{e}` not in: {err}");
    }
}

const HEADER: &str = r#"{"players": ["Ana", "Blas", "Carmen"]}"#;
const GOOD: &str = r#"{"declarer": "Blas", "contract": "entrada", "tricks": [2, 5, 2]}"#;

#[test]
fn a_malformed_line() {
    fails(&format!("{HEADER}\n{GOOD}\n{{\"declarer\": \"Ana\", \n"), &["line 3", "malformed JSON"]);
    fails(&format!("{HEADER}\n[1, 2]\n"), &["line 2", "JSON object"]);
    fails(&format!("{HEADER}\n{{\"declarer\": 1, \"contract\": \"entradas\"}}\n"), &["line 2", "`entradas`"]);
    fails(
        &format!("{HEADER}\n{{\"declarer\": 1, \"trick\": [2, 5, 2]}}\n"),
        &["line 2", "unknown field `trick`"],
    );
    fails(
        "{\"players\": [\"Ana\", \"Blas\"]}\n",
        &["line 1", "rule set tresillo is played by 3 or 4 players, not 2"],
    );
    fails("{\"player\": 3}\n", &["line 1", "unknown field `player`"]);
    fails("\n\n", &["empty"]);
}

#[test]
fn an_unknown_seat() {
    fails(
        &format!("{HEADER}\n{GOOD}\n{}\n", GOOD.replace("Blas", "Dora")),
        &["line 3", "unknown seat `Dora`"],
    );
    fails(&format!("{HEADER}\n{}\n", GOOD.replace("\"Blas\"", "3")), &["line 2", "unknown seat 3"]);
    // A record's fourth entry at three players is zero and accepted; anything else
    // names the missing seat.
    fails(&format!("{HEADER}\n{}\n", GOOD.replace("[2, 5, 2]", "[2, 5, 1, 1]")), &["line 2", "no seat 3"]);
    fails(
        &format!("{HEADER}\n{}\n", GOOD.replace("[2, 5, 2]", "[2, 5, 2, 0, 0]")),
        &["line 2", "at most 4 seats"],
    );
    let four = score(&["-"], Some(&format!("{HEADER}\n{}\n", GOOD.replace("[2, 5, 2]", "[2, 5, 2, 0]"))));
    assert!(four.status.success(), "{}", String::from_utf8_lossy(&four.stderr));
    let codillo = r#"{"declarer": 1, "contract": "solo", "outcome": {"result": "codillo", "winner": "Eva"}}"#;
    fails(&format!("{HEADER}\n{codillo}\n"), &["line 2", "`Eva`", "outcome.winner"]);
}

#[test]
fn trick_counts_that_do_not_add_up() {
    fails(
        &format!("{HEADER}\n{}\n", GOOD.replace("[2, 5, 2]", "[2, 5, 3]")),
        &["line 2", "add up to 10, not 9"],
    );
    let given_up = r#"{"declarer": 1, "contract": "entrada", "surrender": true, "tricks": [2, 5, 2]}"#;
    fails(&format!("{HEADER}\n{given_up}\n"), &["line 2", "add up to 9, not 3"]);
}

#[test]
fn an_outcome_that_contradicts_the_tricks() {
    let bad = GOOD.replace("}", r#", "outcome": {"result": "codillo", "winner": "Ana"}}"#);
    fails(&format!("{HEADER}\n{bad}\n"), &["line 2", "contradicts the trick counts", "sacado"]);
    let bad = r#"{"declarer": 1, "contract": "entrada", "outcome": "codillo"}"#;
    fails(&format!("{HEADER}\n{bad}\n"), &["line 2", "needs its winner"]);
}

#[test]
fn a_result_for_the_inactive_dealer() {
    let header = r#"{"players": ["Ana", "Blas", "Carmen", "Dora"]}"#;
    let bad = r#"{"declarer": "Ana", "contract": "entrada", "tricks": [5, 2, 2, 0]}"#;
    fails(&format!("{header}\n{bad}\n"), &["line 2", "inactive dealer"]);
    let bad = r#"{"declarer": "Blas", "contract": "entrada", "tricks": [1, 5, 2, 1]}"#;
    fails(&format!("{header}\n{bad}\n"), &["line 2", "inactive dealer", "winner of a trick"]);
    let bad = r#"{"dealer": 1, "declarer": "Blas", "contract": "entrada", "tricks": [1, 5, 2, 1]}"#;
    fails(&format!("{header}\n{bad}\n"), &["line 2", "inactive dealer", "declarer"]);
}

#[test]
fn a_dealer_out_of_turn() {
    let bad = GOOD.replace("{", r#"{"dealer": "Carmen", "#);
    fails(&format!("{HEADER}\n{GOOD}\n{bad}\n"), &["line 3", "seat 1 deals this hand, not seat 2"]);
}

#[test]
fn docs_show_the_example_and_its_output_as_they_are() {
    let docs = std::fs::read_to_string(example("../docs/SCORING.md")).unwrap();
    let log = std::fs::read_to_string(example("session.jsonl")).unwrap();
    assert!(docs.contains(&format!("```json\n{log}```")), "docs/SCORING.md must show examples/session.jsonl");
    let four = std::fs::read_to_string(example("session-four.jsonl")).unwrap();
    assert!(
        docs.contains(&format!("```json\n{four}```")),
        "docs/SCORING.md must show examples/session-four.jsonl"
    );
    let out = score(&[example("session.jsonl").to_str().unwrap()], None);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        docs.contains(&format!("```\n{table}```")),
        "docs/SCORING.md must show the output of the example"
    );
}

/// Issue 13, item 11: nine tricks for the declarer are a bola made (RULES.md
/// section 6): a typed line without the flags is scored so, a line that denies it
/// is refused.
#[test]
fn nine_tricks_are_a_bola_made() {
    let plain = r#"{"declarer": "Blas", "contract": "entrada", "tricks": [0, 9, 0]}"#;
    let flagged = r#"{"declarer": "Blas", "contract": "entrada", "tricks": [0, 9, 0], "bola_attempted": true, "bola_made": true}"#;
    let a = json_lines(&score(&["--format", "json", "-"], Some(&format!("{HEADER}\n{plain}\n"))));
    let b = json_lines(&score(&["--format", "json", "-"], Some(&format!("{HEADER}\n{flagged}\n"))));
    assert_eq!(a, b);
    assert_eq!(ints(&a[1]["condiciones"]), [-8, 16, -8]);
    let denied = plain.replace("}", r#", "bola_attempted": false}"#);
    fails(&format!("{HEADER}\n{denied}\n"), &["line 2", "bola", "section 6"]);
}

#[test]
fn a_bola_needs_the_first_five_tricks_in_the_trick_winners() {
    let lost_second = r#"{"declarer": "Blas", "contract": "entrada", "tricks": [1, 8, 0], "trick_winners": [1, 0, 1, 1, 1, 1, 1, 1, 1], "bola_attempted": true}"#;
    fails(&format!("{HEADER}\n{lost_second}\n"), &["line 2", "first five"]);
    let primeras = r#"{"declarer": "Blas", "contract": "entrada", "tricks": [1, 4, 0], "trick_winners": [1, 1, 0, 1, 1], "primeras": true}"#;
    fails(&format!("{HEADER}\n{primeras}\n"), &["line 2"]);
    let failed_bola = r#"{"declarer": "Blas", "contract": "entrada", "tricks": [1, 8, 0], "trick_winners": [1, 1, 1, 1, 1, 1, 0, 1, 1], "bola_attempted": true}"#;
    let ok = json_lines(&score(&["--format", "json", "-"], Some(&format!("{HEADER}\n{failed_bola}\n"))));
    assert_eq!(ints(&ok[1]["condiciones"]), [8, -16, 8]);
}

#[test]
fn absurd_bowls_and_stakes_are_refused() {
    for header in [
        r#"{"players": 3, "start_bowl": -5}"#,
        r#"{"players": 3, "start_bowl": 9223372036854775807}"#,
        r#"{"players": 3, "pajarito": 9223372036854775807}"#,
        r#"{"players": 3, "start_bowl": 100, "pajarito": 101}"#,
    ] {
        fails(&format!("{header}\n{}\n", GOOD.replace("\"Blas\"", "1")), &["line 1"]);
    }
}

#[test]
fn a_penetro_against_three_needs_the_header_to_say_so() {
    let four = r#"{"players": ["Ana", "Blas", "Carmen", "Dora"], "first_dealer": "Ana"}"#;
    let all =
        r#"{"players": ["Ana", "Blas", "Carmen", "Dora"], "first_dealer": "Ana", "penetro_all_play": true}"#;
    let hand = r#"{"declarer": "Ana", "penetro": true, "contract": "entrada", "tricks": [5, 2, 1, 1]}"#;
    fails(&format!("{four}\n{hand}\n"), &["line 2", "penetro_all_play"]);
    let lines = json_lines(&score(&["--format", "json", "-"], Some(&format!("{all}\n{hand}\n"))));
    assert_eq!(lines[1]["outcome"]["result"], "sacado");
}

#[test]
fn a_digit_is_a_seat_number_everywhere_and_never_a_name() {
    // `declarer` and the keys of `tricks` read a digit the same way: a seat number.
    let by_digit = r#"{"declarer": "1", "contract": "entrada", "tricks": {"0": 2, "1": 5, "Carmen": 2}}"#;
    let a = json_lines(&score(&["--format", "json", "-"], Some(&format!("{HEADER}\n{by_digit}\n"))));
    let b = json_lines(&score(&["--format", "json", "-"], Some(&format!("{HEADER}\n{GOOD}\n"))));
    assert_eq!(a[1]["total"], b[1]["total"]);
    // A name that is a number would be ambiguous: refused.
    fails(&format!("{}\n{GOOD}\n", r#"{"players": ["2", "Blas", "Carmen"]}"#), &["line 1", "`2`"]);
}

/// `hombre` (RULES.md section 12.3): the example points session, hand by hand.
#[test]
fn a_hombre_session_is_kept_in_points_with_the_pot() {
    let path = example("session-hombre.jsonl");
    let lines = json_lines(&score(&["--format", "json", path.to_str().unwrap()], None));
    assert_eq!(lines.len(), 1 + 6);
    assert_eq!(lines[0]["session"]["scoring"], "points");
    let pts = |i: usize| ints(&lines[i]["points"]);
    assert_eq!(pts(1), [0, 2, 0]); // a simple game won: 2
    assert_eq!((pts(2), lines[2]["pot_after"].as_i64()), (vec![0, 2, -3], Some(3))); // vuelta puesta: 3 to the pot
    assert_eq!(pts(3), [2, 2, -3]); // an obligation won 4-3-2: 1, doubled
    assert_eq!((pts(4), lines[4]["pot_after"].as_i64()), (vec![2, 10, -3], Some(0))); // solo 5 and the pot
    assert_eq!(pts(5), [4, 10, -5]); // takeover: Ana +2, Carmen -2 and 2 to the pot
    // The sixth and last deal: a codillo; the winner takes what is in the pot.
    assert_eq!(ints(&lines[6]["pot"]), [0, 0, 2]);
    assert_eq!((pts(6), lines[6]["pot_after"].as_i64()), (vec![2, 10, -1], Some(0)));
    let text = String::from_utf8(score(&[path.to_str().unwrap()], None).stdout).unwrap();
    assert!(text.contains("Ana plays entrada (obligation)"), "{text}");
    assert!(text.ends_with("After 6 hands: Ana 2, Blas 10, Carmen -1; pot 0\n"), "{text}");
}

#[test]
fn a_hombre_chips_session_conserves_chips() {
    let log = r#"{"players": ["Ana", "Blas", "Carmen"], "rules": {"name": "hombre", "hombre-chips": true}}
{"dealer": "Ana", "declarer": "Blas", "contract": "entrada", "tricks": [2, 5, 2]}
{"declarer": "Carmen", "contract": "vuelta", "tricks": [3, 3, 3]}
{"declarer": "Ana", "contract": "solo", "tricks": [5, 2, 2]}
"#;
    let lines = json_lines(&score(&["--format", "json", "-"], Some(log)));
    assert_eq!(lines[0]["session"]["scoring"], "chips");
    assert_eq!(ints(&lines[1]["chips"]), [150, 175, 155]);
    assert_eq!(ints(&lines[2]["chips"]), [150, 170, 140]);
    assert_eq!(lines[2]["pool_after"], 20);
    assert_eq!(ints(&lines[3]["chips"]), [150 + 25 + 30, 170 - 15, 140 - 15 - 5]);
    for l in &lines[1..] {
        assert_eq!(ints(&l["chips"]).iter().sum::<i64>() + l["pool_after"].as_i64().unwrap(), 480);
    }
    // `deals` belongs to a points session.
    let bad = r#"{"players": 3, "rules": {"name": "hombre", "hombre-chips": true}, "deals": 4}"#;
    let out = score(&["-"], Some(bad));
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("`deals` is the length of a hombre points session") && err.lines().count() == 1,
        "{err}"
    );
}

/// The `result` objects of game records (`tournament --record`), for every rule set
/// at three and four players, are hand lines `tresillo score` accepts as they are
/// (docs/RECORDS.md): per-seat arrays with four entries at three players, and
/// `dropped_out` at four.
#[test]
fn record_results_are_hand_lines_for_every_rule_set() {
    let dir = TempDir::new("score", "records");
    let configs: [(&str, &[&str], &str); 8] = [
        ("tresillo", &[], "random,rule,random"),
        ("tresillo", &["palo_de_favor=oros"], "rule,random,rule"),
        ("tresillo", &[], "random,random,random,random"),
        ("tresillo", &["penetro_all_play=true"], "random,random,random,random"),
        ("tresillo-house", &[], "random,rule,random"),
        ("hombre", &["contrabola=true", "gascarille=true", "favorito=true"], "random,rule,random"),
        ("hombre", &["hombre-chips=true"], "rule,random,rule"),
        ("lhombre", &[], "random,rule,random"),
    ];
    let mut dropped_out = 0;
    for (i, (rules, options, agents)) in configs.iter().enumerate() {
        let players = agents.split(',').count().to_string();
        let record = dir.path(&format!("run{i}.jsonl"));
        let mut args =
            vec!["tournament", "--deals", "300", "--seed", "1", "--rules", rules, "--players", &players];
        args.extend(["--agents", agents, "--threads", "1"]);
        args.extend(options.iter().flat_map(|o| ["--rule-option", *o]));
        let out_dir = dir.path(&format!("out{i}"));
        args.extend(["--out", out_dir.to_str().unwrap(), "--record", record.to_str().unwrap()]);
        ok(&tresillo(&args));
        let mut table = serde_json::Map::new();
        table.insert("name".into(), Value::from(*rules));
        for o in *options {
            let (k, v) = o.split_once('=').unwrap();
            table.insert(k.into(), Value::from(v));
        }
        let mut log =
            format!("{}\n", serde_json::json!({ "players": players.parse::<u8>().unwrap(), "rules": table }));
        let mut hands = 0;
        for line in std::fs::read_to_string(&record).unwrap().lines() {
            let r: Value = serde_json::from_str(line).unwrap();
            let result = &r["result"];
            dropped_out += usize::from(result.get("dropped_out").is_some());
            log.push_str(&format!("{result}\n"));
            hands += 1;
        }
        let scored = json_lines(&score(&["--format", "json", "-"], Some(&log)));
        let n = scored.iter().filter(|v| v.get("hand").is_some()).count();
        assert_eq!(n, hands, "{rules} {options:?} at {players}: every result scored");
    }
    assert!(dropped_out > 0, "a penetro with a player dropped out was scored");
}

/// Issue 34, finding 7: a session refuses what belongs to another rule set or
/// contradicts itself: lhombre's `nolo` in a tresillo session, trick winners
/// that contradict the trick counts in lhombre's per-defender scoring, a key
/// given twice, and a hombre points session of 0 deals (which never ended).
#[test]
fn what_another_rule_set_plays_or_a_contradiction_is_refused() {
    fails(
        &format!("{HEADER}\n{{\"declarer\": \"Ana\", \"contract\": \"nolo\", \"tricks\": [5, 2, 2]}}\n"),
        &["line 2", "the contract nolo is not played in rule set tresillo"],
    );
    let lhombre = r#"{"rules": "lhombre", "players": ["Ana", "Blas", "Carmen"]}"#;
    let winners = r#"["Blas","Blas","Blas","Blas","Blas","Blas","Blas","Blas","Blas"]"#;
    fails(
        &format!(
            "{lhombre}\n{{\"declarer\": \"Ana\", \"contract\": \"entrada\", \"trump\": \"oros\", \"tricks\": [5, 2, \
             2], \"trick_winners\": {winners}}}\n"
        ),
        &["line 2", "the winners of the tricks do not match the trick counts"],
    );
    fails(
        &format!(
            "{HEADER}\n{{\"declarer\": \"Blas\", \"declarer\": \"Carmen\", \"contract\": \"entrada\", \"tricks\": [2, 5, 2]}}\n"
        ),
        &["line 2", "duplicate key \"declarer\""],
    );
    fails(
        "{\"rules\": \"hombre\", \"players\": [\"Ana\", \"Blas\", \"Carmen\"], \"deals\": 0}\n",
        &["line 1", "at least 1, not 0"],
    );
    fails(
        &format!(
            "{HEADER}\n{{\"declarer\": \"Blas\", \"contract\": \"entrada\", \"bids\": [{{\"seat\": 1, \"bid\": \"paso\", \"x\": 1}}], \"tricks\": [2, 5, 2]}}\n"
        ),
        &["line 2", "unknown field `x`"],
    );
}
