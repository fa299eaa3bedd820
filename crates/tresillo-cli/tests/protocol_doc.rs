//! docs/PROTOCOL.md cannot drift: each of its example messages (a line of a
//! `json` block) is a protocol message; each example the toolkit writes appears,
//! byte for byte, among the lines it writes in the runs below (the recording bot
//! plays one seat; one thread, fixed seeds, so the same lines every time); every
//! request kind is described; and, when Python's `jsonschema` is installed (CI
//! installs it), every example validates against docs/protocol.schema.json.

mod common;
use common::{TempDir, ok};
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_documents_examples_are_the_toolkits_own_messages() {
    let d = TempDir::new("protodoc", "runs");
    let record = d.path("messages.jsonl");
    let recording = root().join("crates/tresillo-bots/tests/bots/recording.py").display().to_string();
    let runs: [(&str, &str, &str, &[&str]); 4] = [
        ("tresillo", "3", "40", &[]),
        ("tresillo", "4", "200", &[]),
        (
            "hombre",
            "3",
            "200",
            &[
                "--rule-option",
                "contrabola=true",
                "--rule-option",
                "gascarille=true",
                "--rule-option",
                "favorito=true",
            ],
        ),
        ("lhombre", "3", "40", &[]),
    ];
    for (rules, players, deals, extra) in runs {
        let n: usize = players.parse().unwrap();
        let mut agents = vec![format!("ext:cmd={recording}")];
        agents.extend(std::iter::repeat_n("rule".to_string(), n - 1));
        let out = d.path(&format!("{rules}-{players}"));
        let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["tournament", "--agents", &agents.join(","), "--rules", rules, "--players", players])
            .args(["--deals", deals, "--seed", "1", "--threads", "1", "--out", out.to_str().unwrap()])
            .args(extra)
            .env("RECORD", &record)
            .output()
            .unwrap();
        ok(&o);
    }
    let written = std::fs::read_to_string(&record).unwrap();
    let lines: std::collections::HashSet<&str> = written.lines().collect();
    let doc = std::fs::read_to_string(root().join("docs/PROTOCOL.md")).unwrap();
    let mut examples = Vec::new();
    let mut in_json = false;
    for line in doc.lines() {
        match line.trim() {
            "```json" => in_json = true,
            "```" => in_json = false,
            l if in_json => examples.push(l.to_string()),
            _ => {}
        }
    }
    assert!(examples.len() >= 18, "{}", examples.len());
    let mut kinds = std::collections::BTreeSet::new();
    for e in &examples {
        let m: serde_json::Value =
            serde_json::from_str(e).unwrap_or_else(|err| panic!("not JSON ({err}): {e}"));
        let from_bot = m["type"] == "action" || (m["type"] == "hello" && m.get("name").is_some());
        if !from_bot {
            assert!(
                lines.contains(e.as_str()),
                "docs/PROTOCOL.md shows a message the toolkit does not write: {e}"
            );
        }
        if m["type"] == "request" {
            kinds.insert(m["kind"].as_str().unwrap().to_string());
        }
    }
    for k in [
        "bid",
        "declare",
        "discard",
        "word",
        "play",
        "surrender",
        "takeover",
        "bola",
        "gascarille",
        "exchangeright",
        "acceptsurrender",
        "declarevole",
        "penetro",
        "dropout",
    ] {
        assert!(doc.contains(&format!("- `{k}`: ")), "the kind `{k}` is not described");
    }
    assert!(kinds.len() >= 12, "{kinds:?}");
    if Command::new("python3")
        .args(["-c", "import jsonschema"])
        .output()
        .map_or(true, |o| !o.status.success())
    {
        eprintln!(
            "note: python3 -c 'import jsonschema' failed; the examples are not checked against the schema"
        );
        return;
    }
    let file = d.write("examples.jsonl", &(examples.join("\n") + "\n"));
    let check = "import json, sys, jsonschema\nschema = json.load(open(sys.argv[1]))\nfor line in open(sys.argv[2]):\n    jsonschema.validate(json.loads(line), schema)\n";
    let o = Command::new("python3")
        .args(["-c", check])
        .arg(root().join("docs/protocol.schema.json"))
        .arg(&file)
        .output()
        .unwrap();
    ok(&o);
}
