//! `--rule-set FILE` (docs/RULE-SET-FILES.md): the test-only `test-three`
//! (crates/tresillo-core/tests/data/test-three.toml) registered from its file
//! plays a tournament with a protocol bot, its record replays and its run
//! resumes with the same flag, and without it the unknown set's error names the
//! flag.

use crate::common;
use common::{TempDir, ok, one_line_error, tresillo};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn test_three() -> String {
    root().join("crates/tresillo-core/tests/data/test-three.toml").display().to_string()
}

#[test]
fn a_rule_set_file_plays_a_tournament_with_a_protocol_bot_and_its_records_replay() {
    let d = TempDir::new("ruleset", "three");
    let file = test_three();
    let bot = format!("ext:cmd={}", root().join("bots/random_bot.py").display());
    let agents = format!("{bot},rule,pimc:worlds=3:bid_worlds=2:adaptive=0:threads=1");
    let out = d.path("t");
    let rec = d.path("t.jsonl");
    let (out_s, rec_s) = (out.to_str().unwrap(), rec.to_str().unwrap());
    let args = ["--rules", "test-three", "--agents", &agents, "--deals", "4", "--duplicate", "--out", out_s];
    // The flag before the subcommand or after it.
    let mut a = vec!["--rule-set", file.as_str(), "tournament"];
    a.extend(args);
    a.extend(["--record", rec_s]);
    let table = ok(&tresillo(&a));
    assert!(table.contains("rule"), "{table}");
    let deals = std::fs::read_to_string(out.join("deals.csv")).unwrap();
    assert_eq!(deals.lines().count(), 1 + 4 * 6);
    assert!(deals.lines().skip(1).all(|l| l.contains("test-three") && !l.contains(",vuelta,")), "{deals}");
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"rules\": \"test-three\""), "{manifest}");
    // Its record replays with the flag, and names it without.
    let first = std::fs::read_to_string(&rec).unwrap().lines().next().unwrap().to_string();
    let one = d.write("one.jsonl", &format!("{first}\n"));
    let replay = ok(&tresillo(&["replay", one.to_str().unwrap(), "--rule-set", &file]));
    assert!(replay.lines().last().unwrap().starts_with("outcome: "), "{replay}");
    let no_flag = ["replay", one.to_str().unwrap()];
    let e = one_line_error(&no_flag, &tresillo(&no_flag));
    assert!(e.contains("test-three") && e.contains("--rule-set FILE"), "{e}");
    // `--resume` of a complete run needs the flag as well, and changes nothing.
    let mut resume = vec!["tournament", "--rule-set", file.as_str(), "--resume"];
    resume.extend(args);
    ok(&tresillo(&resume));
    assert_eq!(std::fs::read_to_string(out.join("deals.csv")).unwrap(), deals);
}

#[test]
fn an_unknown_set_names_the_flag_and_a_bad_file_is_one_line_naming_file_line_and_key() {
    let d = TempDir::new("ruleset", "bad");
    let out = d.path("t");
    let args = ["tournament", "--rules", "test-three", "--deals", "1", "--out", out.to_str().unwrap()];
    let e = one_line_error(&args, &tresillo(&args));
    assert!(e.contains("unknown rule set `test-three`") && e.contains("--rule-set FILE"), "{e}");
    let bad = d.write("bad.toml", "name = \"bad-one\"\nbase = \"tresillo\"\nplayers = [5]\n");
    let a = ["rules", "--rule-set", bad.to_str().unwrap()];
    let e = one_line_error(&a, &tresillo(&a));
    assert!(e.contains("bad.toml:3: `players`: tresillo is not played by 5"), "{e}");
    // `tresillo rules` lists a registered set.
    let listed = ok(&tresillo(&["rules", "--rule-set", &test_three()]));
    assert!(listed.contains("test-three"), "{listed}");
}
