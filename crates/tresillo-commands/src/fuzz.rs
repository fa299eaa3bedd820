//! Mutation fuzzing of every parser of outside input, as part of `cargo test`
//! (issue 34): game records, `score` session lines, experiment TOML, deal and
//! card notation, deal books, agent specs, bots' protocol answers, run
//! manifests, and statistics and compute checkpoints. Each starts from valid samples (the repository's own examples)
//! and reads a fixed budget of seeded mutations of them (bytes flipped, cut,
//! repeated, or JSON/TOML tokens and extreme numbers put in). Every input must
//! give either a one-line error (as the command line prints it: control
//! characters a message quotes from the input escaped) or a value that
//! round-trips; a panic, an abort or a multi-line error fails the test and
//! prints the input that caused it.
//!
//! The budget is small enough for CI (a few seconds); `TRESILLO_FUZZ_CASES=N`
//! runs N mutations of each sample instead, for a longer campaign.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Tokens a mutation may put in: structure, extremes, control characters.
const TOKENS: &[&str] = &[
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "null",
    "true",
    "-1",
    "0",
    "1e999",
    "-0",
    "18446744073709551616",
    "9223372036854775808",
    "\"x\":1,",
    "\\u0000",
    "\u{1b}[31m",
    "\n",
    "\r",
    "\t",
    "=",
    "#",
    "'",
    "[[",
    "]]",
    "\u{feff}",
    "é",
    "/",
    "10E",
    "1Z",
    "paso",
    "nolo",
    "\"seat\":9,",
];

/// Mutations of this case count (`TRESILLO_FUZZ_CASES`, default `default`).
fn cases(default: usize) -> usize {
    std::env::var("TRESILLO_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// `n` seeded mutations of `base` (valid UTF-8 each: the parsers take text).
fn mutants(base: &str, seed: u64, n: usize) -> Vec<String> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut b = base.as_bytes().to_vec();
            for _ in 0..rng.random_range(1..=4) {
                let len = b.len().max(1);
                let at = rng.random_range(0..len).min(b.len());
                match rng.random_range(0..5) {
                    0 if !b.is_empty() => {
                        let i = at.min(b.len() - 1);
                        b[i] = rng.random();
                    }
                    1 => {
                        let end = (at + rng.random_range(1..16)).min(b.len());
                        b.drain(at..end);
                    }
                    2 => {
                        let end = (at + rng.random_range(1..40)).min(b.len());
                        let piece = b[at..end].to_vec();
                        b.splice(at..at, piece);
                    }
                    3 => b.truncate(at),
                    _ => {
                        let t = TOKENS[rng.random_range(0..TOKENS.len())].as_bytes();
                        b.splice(at..at, t.iter().copied());
                    }
                }
            }
            String::from_utf8_lossy(&b).into_owned()
        })
        .collect()
}

/// Runs `parse` on every mutant of every sample: no panic, and an error is one
/// non-empty line.
fn fuzz(what: &str, samples: &[&str], n: usize, parse: impl Fn(&str) -> Result<(), String>) {
    let mut errors = 0;
    for (k, base) in samples.iter().enumerate() {
        assert!(parse(base).is_ok(), "{what}: sample {k} does not parse: {:?}", parse(base));
        for input in mutants(base, k as u64 * 7919 + 1, n) {
            match catch_unwind(AssertUnwindSafe(|| parse(&input))) {
                Err(_) => panic!("{what}: a panic on the input {input:?}"),
                Ok(Err(e)) => {
                    errors += 1;
                    // As the command line prints it (`error: ...`, main.rs).
                    let e = tresillo_core::printable(&e);
                    assert!(
                        !e.trim().is_empty() && !e.contains('\n'),
                        "{what}: not one line: {e:?} for {input:?}"
                    );
                }
                Ok(Ok(())) => {}
            }
        }
    }
    assert!(errors > 0, "{what}: no mutant was refused: the mutations do not reach the parser");
}

/// The repository's file `path` (relative to the workspace root).
fn repo_file(path: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn game_records_never_panic_and_round_trip() {
    use tresillo_sim::HandRecord;
    let text = repo_file("examples/hand.jsonl");
    let samples: Vec<&str> = text.lines().take(3).collect();
    fuzz("a game record", &samples, cases(2000), |line| {
        let rec: HandRecord = tresillo_sim::json::from_str(line).map_err(|e| e.to_string())?;
        rec.replay().map_err(|e| e.to_string())?;
        let again: HandRecord = tresillo_sim::json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
        assert_eq!(again, rec, "a record that does not round-trip: {line}");
        Ok(())
    });
}

#[test]
fn score_sessions_never_panic() {
    for file in ["examples/session.jsonl", "examples/session-hombre.jsonl", "examples/session-four.jsonl"] {
        let text = repo_file(file);
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let head = lines.next().unwrap().to_string();
        let header = crate::score_log::parse_header(&head).unwrap();
        fuzz(&format!("{file}: its header"), &[&head], cases(800), |h| {
            crate::score_log::parse_header(h).map(|_| ()).map_err(|e| format!("{e:#}"))
        });
        let hands: Vec<&str> = lines.take(4).collect();
        let dealer = header.first_dealer;
        let check = |l: &str| {
            crate::score_log::parse_hand(l, &header, dealer).map(|_| ()).map_err(|e| format!("{e:#}"))
        };
        // A sample may be refused for its dealer alone (the session's later hands):
        // every mutant is still read without a panic and refused in one line.
        let valid: Vec<&str> = hands.iter().copied().filter(|l| check(l).is_ok()).collect();
        fuzz(&format!("{file}: a hand line"), &valid, cases(800), check);
    }
}

#[test]
fn experiment_files_never_panic() {
    let files =
        ["experiments/rule-vs-random.toml", "experiments/tune-rule.toml", "experiments/league-rule.toml"];
    let texts: Vec<String> = files.iter().map(|f| repo_file(f)).collect();
    let samples: Vec<&str> = texts.iter().map(String::as_str).collect();
    fuzz("an experiment file", &samples, cases(1500), |t| {
        crate::experiment::parse_for_fuzz(t).map_err(|e| format!("{e:#}"))
    });
}

#[test]
fn deals_cards_and_books_never_panic_and_round_trip() {
    use tresillo_core::Deal;
    let deal = tresillo_sim::deal_for_seed(7).to_string();
    fuzz("a deal", &[&deal], cases(3000), |t| {
        let d: Deal = t.parse().map_err(|e: tresillo_core::NotationError| e.to_string())?;
        assert_eq!(d.to_string().parse::<Deal>().unwrap(), d, "a deal that does not round-trip: {t}");
        Ok(())
    });
    fuzz("a card", &["10E", "1O"], cases(1500), |t| {
        let c: tresillo_core::Card = t.parse().map_err(|e: tresillo_core::NotationError| e.to_string())?;
        assert_eq!(c.to_string().parse::<tresillo_core::Card>().unwrap(), c);
        Ok(())
    });
    let book = format!("# a book\n12345\n{deal}\n7\n");
    fuzz("a deal book", &[&book], cases(2000), |t| {
        tresillo_sim::book::DealBook::parse(t).map(|_| ()).map_err(|e| e.to_string())
    });
}

#[test]
fn agent_specs_never_panic() {
    let samples =
        ["rule:entrada=45:solo=50", "pimc:worlds=4:bid_margin=-30", "ismcts:iters=100:c=0.7", "random"];
    fuzz("an agent spec", &samples, cases(1500), |t| {
        tresillo_agents::build_agent(t).map(|_| ()).map_err(|e| e.to_string())
    });
}

#[test]
fn manifests_and_compute_checkpoints_never_panic() {
    let manifest = repo_file("results/rule-vs-random/manifest.json");
    fuzz("a manifest", &[&manifest], cases(1500), |t| {
        tresillo_sim::json::from_str::<tresillo_runs::Manifest>(t).map(|_| ()).map_err(|e| e.to_string())
    });
    let mut c = tresillo_sim::compute::Compute::new(3);
    c.deals = 5;
    c.slots[0].nodes = 123;
    c.slots[1].card_hist.add(5_000, 2);
    let compute = serde_json::to_string(&c).unwrap();
    fuzz("a compute checkpoint", &[&compute], cases(1500), |t| {
        tresillo_sim::json::from_str::<tresillo_sim::compute::Compute>(t)
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
}

#[test]
fn protocol_answers_never_panic() {
    let samples = [r#"{"type":"action","id":7,"action":2}"#, r#"{"type": "action", "id": 7, "action": 0}"#];
    fuzz("a bot's answer", &samples, cases(2000), |t| {
        tresillo_bots::read_answer(t.as_bytes(), 7, &[0, 2, 5]).map(|_| ()).map_err(|e| e.to_string())
    });
    let e = tresillo_bots::read_answer(br#"{"type":"action","id":7,"action":2,"action":5}"#, 7, &[2, 5])
        .unwrap_err();
    assert!(e.to_string().contains("duplicate key \"action\""), "{e}");
}

#[test]
fn statistics_checkpoints_never_panic() {
    let stats = repo_file("results/rule-vs-random/stats.json");
    fuzz("a statistics checkpoint", &[&stats], cases(1000), |t| {
        tresillo_sim::json::from_str::<tresillo_sim::Stats>(t).map(|_| ()).map_err(|e| e.to_string())
    });
}
