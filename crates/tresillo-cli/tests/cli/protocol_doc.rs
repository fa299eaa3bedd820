//! docs/PROTOCOL.md cannot drift: each of its example messages (a line of a
//! `json` block) is a protocol message; each example the toolkit writes appears,
//! byte for byte, among the lines it writes in the runs below (the recording bot
//! plays one seat; one thread, fixed seeds, so the same lines every time); every
//! request kind is described; and, when Python's `jsonschema` is installed (CI
//! installs it), every example validates against docs/protocol.schema.json.

use crate::common;
use common::{TempDir, ok};
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The protocol schema's request kinds are the engine's: the fixed ones and one
/// per yes/no question of the registry (`QUESTIONS`), so that a new question
/// is named here, not found by a bot's validator.
#[test]
fn the_schemas_request_kinds_are_the_engines() {
    let path = root().join("docs/protocol.schema.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let listed: Vec<&str> = schema["$defs"]["request"]["properties"]["kind"]["enum"]
        .as_array()
        .expect("the schema's request kinds")
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    let questions = tresillo_core::QUESTIONS.iter().map(|q| q.kind);
    let engine: Vec<&str> = ["bid", "declare", "discard", "word", "play"]
        .into_iter()
        .chain(questions)
        .chain(["penetro", "dropout"])
        .collect();
    for kind in &engine {
        assert!(
            listed.contains(kind),
            "{}: the request kind `{kind}` (a question of QUESTIONS or a request of the engine) is not in \
             $defs.request.properties.kind.enum: add it there and describe it in docs/PROTOCOL.md",
            path.display()
        );
    }
    for kind in &listed {
        assert!(engine.contains(kind), "{}: the request kind `{kind}` is not the engine's", path.display());
    }
}

#[test]
fn the_documents_examples_are_the_toolkits_own_messages() {
    let d = TempDir::new("protodoc", "runs");
    let record = d.path("messages.jsonl");
    let recording = root().join("crates/tresillo-bots/tests/bots/recording.py").display().to_string();
    // (rules, players, deals, recording bots, other arguments); the last two runs
    // are there for the rare kinds: `acceptsurrender` needs a declarer who gives up
    // a vuelta in hombre (a second recording bot does, at random), and `bola` a
    // declarer that took the first five tricks (found with the rule agent bidding
    // for the bot and its seats rotated).
    let runs: [(&str, &str, &str, usize, &[&str]); 6] = [
        ("tresillo", "3", "40", 1, &[]),
        ("tresillo", "4", "200", 1, &[]),
        (
            "hombre",
            "3",
            "200",
            1,
            &[
                "--rule-option",
                "contrabola=true",
                "--rule-option",
                "gascarille=true",
                "--rule-option",
                "favorito=true",
            ],
        ),
        ("lhombre", "3", "40", 1, &[]),
        ("hombre", "3", "40", 2, &[]),
        ("hombre", "3", "15", 1, &["--bidding", "rule", "--duplicate", "--seed", "16"]),
    ];
    for (i, (rules, players, deals, bots, extra)) in runs.into_iter().enumerate() {
        let n: usize = players.parse().unwrap();
        let mut agents = vec![format!("ext:cmd={recording}"); bots];
        agents.extend(std::iter::repeat_n("rule".to_string(), n - bots));
        let out = d.path(&format!("run{i}"));
        let seed = if extra.contains(&"--seed") { &[][..] } else { &["--seed", "1"][..] };
        let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["tournament", "--agents", &agents.join(","), "--rules", rules, "--players", players])
            .args(["--deals", deals, "--threads", "1", "--out", out.to_str().unwrap()])
            .args(seed)
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
    let all = [
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
    ];
    for k in all {
        assert!(doc.contains(&format!("- `{k}`: ")), "the kind `{k}` is not described");
        // Every kind has a real example, copied from the toolkit's output.
        assert!(kinds.contains(k), "docs/PROTOCOL.md shows no request of kind `{k}`");
    }
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
    let check = "import json, sys, jsonschema\nschema = json.load(open(sys.argv[1]))\ncls = jsonschema.validators.validator_for(schema)\ncls.check_schema(schema)\nv = cls(schema)\nfor line in open(sys.argv[2]):\n    v.validate(json.loads(line))\n";
    let o = Command::new("python3")
        .args(["-c", check])
        .arg(root().join("docs/protocol.schema.json"))
        .arg(&file)
        .output()
        .unwrap();
    ok(&o);
}

/// The document's other examples are the toolkit's too: its first command and its
/// experiment file run as they stand (their deals and output directories aside),
/// and its fault line
/// is the line the toolkit prints for that fault, byte for byte.
#[test]
fn the_documents_experiment_file_runs_and_its_fault_line_is_the_toolkits() {
    let d = TempDir::new("protodoc", "others");
    let doc = std::fs::read_to_string(root().join("docs/PROTOCOL.md")).unwrap();
    let block = |fence: &str| {
        let start = doc.find(fence).unwrap_or_else(|| panic!("no {fence} block")) + fence.len();
        doc[start..start + doc[start..].find("```").unwrap()].trim().to_string()
    };
    let toml = block("```toml\n");
    let out = d.path("mybot");
    let ours = toml
        .replace("deals = 1000", "deals = 6")
        .replace("out = \"out/mybot\"", &format!("out = {:?}", out.to_str().unwrap()));
    assert!(ours != toml && ours.contains("deals = 6"), "the example changed: {toml}");
    let file = d.write("exp.toml", &ours);
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["run", file.to_str().unwrap()])
        .current_dir(root())
        .output()
        .unwrap();
    ok(&o);
    assert!(out.join("deals.csv").is_file());

    // The first command of the document runs as it stands (fewer deals, another
    // output directory).
    let first = block("```\ntresillo ");
    let out = d.path("bot");
    let words: Vec<String> = first
        .split_whitespace()
        .map(|w| match w {
            "1000" => "4".to_string(),
            "out/bot" => out.to_str().unwrap().to_string(),
            w => w.to_string(),
        })
        .collect();
    assert!(words.contains(&"4".to_string()) && out.to_str() == words.last().map(String::as_str), "{first}");
    ok(&Command::new(env!("CARGO_BIN_EXE_tresillo")).args(&words).current_dir(root()).output().unwrap());
    assert!(out.join("deals.csv").is_file());

    let shown = doc
        .lines()
        .find(|l| l.starts_with("error: deal "))
        .expect("the document shows a fault line")
        .to_string();
    let run = d.path("fault");
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["tournament", "--agents", "ext:cmd=crates/tresillo-bots/tests/bots/faulty.py,rule,rule"])
        .args(["--deals", "20", "--seed", "1", "--threads", "1", "--out", run.to_str().unwrap()])
        .current_dir(root())
        .env("FAULT", "illegal")
        .env("AFTER", "20")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    let printed = err.lines().find(|l| l.starts_with("error: ")).unwrap_or_else(|| panic!("{err}"));
    assert_eq!(printed, shown, "docs/PROTOCOL.md shows another fault line than the toolkit prints");
}
