//! `tresillo bot SPEC` (issue 55): this build's agents played as external bots
//! over the protocol. Seated with `ext:cmd="tresillo bot rule"`, the rule agent
//! plays exactly the deals it plays in the toolkit's process (every rule set and
//! table); a search agent as a bot draws from the requests' seeds, the same on
//! every run and thread count; bad input is one line, never a panic.

use crate::common;
use common::{TempDir, ok, one_line_error};
use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_tresillo")
}

/// deals.csv's rows, with `spec` (an agent column's value) read as `to`.
fn rows(path: &std::path::Path, spec: &str, to: &str) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let agent_cols: Vec<usize> = r
        .headers()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, h)| h.starts_with("agent") || *h == "declarer_agent")
        .map(|(i, _)| i)
        .collect();
    r.records()
        .map(|rec| {
            rec.unwrap()
                .iter()
                .enumerate()
                .map(
                    |(i, v)| {
                        if agent_cols.contains(&i) && v == spec { to.to_string() } else { v.to_string() }
                    },
                )
                .collect()
        })
        .collect()
}

fn tournament(dir: &std::path::Path, agents: &str, extra: &[&str]) {
    ok(&Command::new(bin())
        .args(["tournament", "--agents", agents, "--seed", "7"])
        .args(["--out", dir.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap());
}

/// The rule agent as a bot of this build plays the same hands as the rule agent
/// in the toolkit: deals.csv is the same row for row, the agent's column aside
/// (it names the spec), at three and four players and in every rule set.
#[test]
fn tresillo_bot_rule_plays_the_deals_rule_plays() {
    let d = TempDir::new("bot-speak", "rule");
    let ext = format!("ext:cmd=\"{} bot rule\"", bin());
    let tables: [&[&str]; 5] = [
        &["--rules", "tresillo"],
        &["--rules", "tresillo", "--players", "4"],
        &["--rules", "hombre", "--rule-option", "gascarille=true", "--rule-option", "contrabola=true"],
        &["--rules", "lhombre"],
        &["--rules", "tresillo-house"],
    ];
    for (i, table) in tables.iter().enumerate() {
        let four = table.contains(&"4");
        let (a, b) = (d.path(&format!("a{i}")), d.path(&format!("b{i}")));
        let others = if four { ",rule,rule,rule" } else { ",rule,rule" };
        let extra = [&["--deals", "30", "--duplicate"][..], table].concat();
        tournament(&a, &format!("rule{others}"), &extra);
        tournament(&b, &format!("{ext}{others}"), &extra);
        let (x, y) = (rows(&a.join("deals.csv"), "", ""), rows(&b.join("deals.csv"), &ext, "rule"));
        assert!(x.len() >= 30, "{table:?}");
        assert_eq!(x, y, "{table:?}: the bot played other hands than the agent");
    }
}

/// A search agent as a bot draws only from the requests' seeds: its deals are
/// the same whatever the thread count.
#[test]
fn a_search_agent_as_a_bot_is_reproducible() {
    let d = TempDir::new("bot-speak", "pimc");
    let ext = format!("ext:cmd=\"{} bot pimc:worlds=4\"", bin());
    let agents = format!("{ext},rule,rule");
    tournament(&d.path("one"), &agents, &["--deals", "6", "--threads", "1"]);
    tournament(&d.path("two"), &agents, &["--deals", "6", "--threads", "2"]);
    assert_eq!(common::read(&d.path("one/deals.csv")), common::read(&d.path("two/deals.csv")));
}

/// `tresillo bot` with `input` on its standard input: its output and error.
fn speak(spec: &str, input: &str) -> std::process::Output {
    let mut child = Command::new(bin())
        .args(["bot", spec])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

/// Bad input to `tresillo bot` (a line that is not JSON, an unknown agent or
/// parameter, an older toolkit's greeting, a request without its public state
/// or with a broken one, a request before the greeting) ends it with one line
/// naming what is wrong, exit status 2, never a panic.
#[test]
fn tresillo_bot_refuses_bad_input_in_one_line() {
    let hello = r#"{"type":"hello","protocol":2,"rules":"tresillo","options":{},"players":3}"#;
    // A state a record may hold but no hand reaches: the declarer's phase
    // without a declarer.
    let impossible = r#"{"phase":"Declare","bids":[{"seat":1,"bid":"paso"},{"seat":2,"bid":"paso"}],"passed":6,"standing":null,"to_speak":0,"declarer":null,"original_declarer":null,"level":0,"contract":null,"trump":null,"forced":false,"turned":null,"exchanged":[null,null,null,null],"heap_left":13,"words":[],"first_opponent":null,"plays":[],"leaders":[1,1,1,1,1,1,1,1,1],"winners":[0,0,0,0,0,0,0,0,0],"tricks":[0,0,0,0],"tricks_done":0,"surrendered":null,"took_over":null,"declined":0,"exposed":null,"bola":null,"gascarille":false,"gascarille_declined":0,"exchange_first":null,"shown_heap":"","accepted":0,"refused":null,"vole_declared":null,"penetro":{"active":false,"heap_end":null,"words":[],"dropped":null}}"#;
    let legal: Vec<String> = (81..=100).map(|a| format!("{{\"action\":{a}}}")).collect();
    let legal = legal.join(",");
    let request = |public: &str| {
        format!(
            "{hello}\n{{\"type\":\"request\",\"id\":1,\"seat\":0,\"seed\":1,\"legal\":[{legal}],\"view\":{{\"dealer\":0,\"hand\":[\"4E\",\"5E\",\"6E\",\"4B\",\"5B\",\"6B\",\"4C\",\"5C\",\"6C\"],\"discards\":[],\"discarding\":[]}},\"public\":{public}}}\n"
        )
    };
    // The same state in the auction is answered (the rule agent passes or bids).
    let o = speak("rule", &request(&impossible.replace("\"Declare\"", "\"Auction\"")));
    assert!(ok(&o).lines().nth(1).is_some_and(|l| l.starts_with(r#"{"type":"action","id":1,"#)), "{o:?}");
    let cases: [(&str, String, &str); 8] = [
        ("rule", request(impossible), "line 2: a request whose public state no hand could be in"),
        ("rule", "{not json\n".into(), "line 1: not JSON"),
        ("nosuch", String::new(), "unknown agent `nosuch`"),
        ("pimc:worlds=x", String::new(), "bad value `x` for `worlds`"),
        (
            "rule",
            r#"{"type":"hello","protocol":1,"rules":"tresillo","players":3}"#.to_string() + "\n",
            "protocol 1",
        ),
        (
            "rule",
            format!("{hello}\n{{\"type\":\"request\",\"id\":1,\"seat\":0,\"seed\":1,\"legal\":[]}}\n"),
            "line 2: the request carries no public state",
        ),
        (
            "rule",
            format!(
                "{hello}\n{{\"type\":\"request\",\"id\":1,\"seat\":0,\"seed\":1,\"legal\":[],\"view\":{{\"dealer\":0}},\"public\":{{\"phase\":\"Auction\"}}}}\n"
            ),
            "line 2: the request's public state: missing field",
        ),
        (
            "rule",
            "{\"type\":\"request\",\"id\":1,\"seat\":0,\"seed\":1,\"legal\":[]}\n".into(),
            "line 1: a request before the greeting",
        ),
    ];
    for (spec, input, want) in cases {
        let o = speak(spec, &input);
        let err = one_line_error(&["bot", spec], &o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.starts_with("error: tresillo bot: ") && err.contains(want), "{spec} {input:?}: {err}");
        assert!(!err.contains("panick"), "{err}");
    }
    // The greeting is answered, and `bye` ends it quietly.
    let o = speak("rule", &format!("{hello}\n{{\"type\":\"bye\"}}\n"));
    let out = ok(&o);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["type"].as_str(), v["public"].as_bool(), v["protocol"].as_u64()),
        (Some("hello"), Some(true), Some(2))
    );
}
