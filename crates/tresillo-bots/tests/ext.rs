//! `ExtBot` with real bot processes, hand by hand: under `fault=rule` every fault
//! becomes forfeits counted by `take_work` and the run goes on, with the bot
//! restarted; a bot that never starts stops the run after a bounded number of
//! tries; a bot that does not fault plays the same hands under either policy;
//! bot options are checked against what the bot declares.
//!
//! The test bots are in `tests/bots/` (`faulty.py`: each fault on demand;
//! `recording.py`).

use std::path::PathBuf;
use std::time::Duration;
use tresillo_agents::{Agent, RuleAgent, RuleParams, Work, deal_for_seed, seat_rngs};
use tresillo_bots::{BotConfig, ExtBot, OnFault, declared_options};
use tresillo_core::{Hand, HandResult, Rules, Seat};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn faulty(fault: &str, after: u32, policy: OnFault) -> BotConfig {
    let mut c =
        BotConfig::new(&root().join("crates/tresillo-bots/tests/bots/faulty.py").display().to_string());
    c.env = vec![("FAULT".into(), fault.into()), ("AFTER".into(), after.to_string())];
    // The limit also covers the start of Python and the greeting, which a
    // loaded machine can slow past any short limit: a generous one, except for
    // the bot that hangs, whose fault only a limit finds (2 s per hang).
    c.limit = Duration::from_millis(if fault == "hang" { 2000 } else { 20_000 });
    c.on_fault = policy;
    c
}

/// Plays `hands` hands of three-player tresillo, the bot at seat 0 against two
/// rule agents; stops at the first hand refused.
fn play(bot: &mut ExtBot, hands: u64) -> Result<(Vec<HandResult>, Work), String> {
    let mut results = Vec::new();
    let mut work = Work::default();
    let mut rule1 = RuleAgent::new(RuleParams::default());
    let mut rule2 = RuleAgent::new(RuleParams::default());
    for i in 0..hands {
        let dealer = Seat((i % 3) as u8);
        let rules = Rules::parse("tresillo", &[]).unwrap();
        let mut hand =
            Hand::with_rules(rules, 3, deal_for_seed(i).seated(tresillo_core::Table::THREE, dealer), dealer)
                .unwrap();
        let mut rngs = seat_rngs(i);
        let mut agents: [&mut dyn Agent; 3] = [bot, &mut rule1, &mut rule2];
        for a in agents.iter_mut() {
            a.new_hand();
        }
        while let Some(seat) = hand.request().seat() {
            let a = &mut agents[seat.index()];
            let d = a.decide(&hand.view(seat), &mut rngs[seat.index()]).map_err(|f| f.to_string())?;
            hand.apply(d).map_err(|e| e.to_string())?;
        }
        let r = hand.result().expect("over");
        for a in agents.iter_mut() {
            a.end_hand(&r);
        }
        work.add(agents[0].take_work());
        results.push(r);
    }
    Ok((results, work))
}

#[test]
fn under_fault_rule_every_fault_is_a_forfeit_and_the_bot_restarts() {
    // Each fault in a thread of its own: the bots wait on their pipes and the
    // hanging one on its limit, so this takes about the time of the slowest.
    std::thread::scope(|scope| {
        for fault in
            ["crash", "garbage", "illegal", "wrongid", "badjson", "hang", "partial", "extra", "oversize"]
        {
            scope.spawn(move || {
                // A fault about every 25 requests (the count starts again with each
                // process), every 60 for the bot that hangs (each hang waits out the
                // 2 s limit): several forfeits, yet most decisions are the bot's own.
                let after = if fault == "hang" { 60 } else { 25 };
                let mut bot = ExtBot::new(faulty(fault, after, OnFault::Rule));
                let (results, work) = play(&mut bot, 12).unwrap_or_else(|e| panic!("{fault}: {e}"));
                assert_eq!(results.len(), 12);
                assert!(work.forfeits > 0, "{fault}: {work:?}");
                assert!(work.forfeits < 60, "{fault}: {work:?}");
                assert!(bot.requests > 0, "{fault}: the restarted bot answers again");
                assert_eq!(bot.take_work(), Work::default(), "{fault}: taking the work resets it");
                assert_eq!(bot.fault(), None, "{fault}");
            });
        }
    });
}

#[test]
fn a_bot_that_never_starts_stops_the_run_after_a_bounded_number_of_tries() {
    // A generous limit: the bot exits at once, and a loaded machine may take more
    // than 300 ms to start Python.
    let dead = |policy| faulty("dead", 0, policy);
    let mut bot = ExtBot::new(dead(OnFault::Rule));
    let err = play(&mut bot, 10).unwrap_err();
    assert!(err.contains("failed to start 3 times in a row"), "{err}");
    assert!(err.contains("closed its output"), "{err}");
    // Under the default policy the first failure stops it.
    let mut bot = ExtBot::new(dead(OnFault::Stop));
    let err = play(&mut bot, 10).unwrap_err();
    assert!(err.contains("closed its output") && !err.contains("times in a row"), "{err}");
}

#[test]
fn a_bot_without_faults_plays_the_same_hands_under_either_policy() {
    let random = root().join("bots/random_bot.py").display().to_string();
    let mut stop = ExtBot::new(BotConfig::new(&random));
    let mut rule = ExtBot::new(BotConfig { on_fault: OnFault::Rule, ..BotConfig::new(&random) });
    let (a, wa) = play(&mut stop, 20).unwrap();
    let (b, wb) = play(&mut rule, 20).unwrap();
    assert_eq!(a, b);
    assert_eq!((wa.forfeits, wb.forfeits), (0, 0));
}

#[test]
fn bot_options_are_checked_against_the_declaration() {
    let heuristic = root().join("bots/heuristic_bot.py").display().to_string();
    let rules = Rules::parse("tresillo", &[]).unwrap();
    let declared = declared_options(&BotConfig::new(&heuristic), rules, 3).unwrap();
    assert_eq!(declared.len(), 1, "{declared:?}");
    assert_eq!((declared[0].name.as_str(), declared[0].int), ("aggr", true));
    for (name, value, expect) in [
        ("aggr", 150.0, "outside its range 0..100"),
        ("aggr", 2.5, "takes integers"),
        ("depth", 1.0, "option `depth` is not one it declares (it declares: aggr)"),
    ] {
        // Even under fault=rule: a wrong option is the experiment's mistake.
        let mut c = BotConfig { on_fault: OnFault::Rule, ..BotConfig::new(&heuristic) };
        c.options = vec![(name.into(), value)];
        let err = play(&mut ExtBot::new(c), 3).unwrap_err();
        assert!(err.contains(expect), "{name}={value}: {err}");
    }
    let mut c = BotConfig::new(&heuristic);
    c.options = vec![("aggr".into(), 80.0)];
    play(&mut ExtBot::new(c), 3).unwrap();
}

/// The requests a recording bot was sent in `hands` hands, as JSON, and the hands.
fn recorded(
    auto_single: Option<bool>,
    greeting_asks: bool,
    name: &str,
) -> (Vec<serde_json::Value>, Vec<HandResult>) {
    let dir = std::env::temp_dir().join(format!("tresillo-auto-single-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("record.jsonl");
    let _ = std::fs::remove_file(&record);
    let mut c =
        BotConfig::new(&root().join("crates/tresillo-bots/tests/bots/recording.py").display().to_string());
    c.env = vec![("RECORD".into(), record.display().to_string())];
    if greeting_asks {
        c.env.push(("AUTO_SINGLE".into(), "1".into()));
    }
    c.auto_single = auto_single;
    let mut bot = ExtBot::new(c);
    let (results, _) = play(&mut bot, 30).unwrap();
    drop(bot);
    let text = std::fs::read_to_string(&record).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let requests = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|m| m["type"] == "request")
        .collect();
    (requests, results)
}

/// `auto_single` (issue 35): off by default, every request is sent, a quarter
/// of them with one legal action; on (by the spec, or by the bot's greeting),
/// none of those is sent and the hands are the same; the spec's `false`
/// overrides the greeting.
#[test]
fn auto_single_plays_the_single_legal_actions_without_asking_the_bot() {
    let single =
        |rs: &[serde_json::Value]| rs.iter().filter(|r| r["legal"].as_array().unwrap().len() == 1).count();
    let (all, hands) = recorded(None, false, "off");
    assert!(single(&all) > 0, "some requests have one legal action");
    for (name, spec, asks) in [("spec", Some(true), false), ("hello", None, true)] {
        let (sent, same) = recorded(spec, asks, name);
        assert_eq!(same, hands, "{name}: the same hands");
        assert_eq!(single(&sent), 0, "{name}");
        assert_eq!(sent.len(), all.len() - single(&all), "{name}");
    }
    let (sent, _) = recorded(Some(false), true, "override");
    assert_eq!(sent.len(), all.len(), "the spec's false wins over the greeting");
}
