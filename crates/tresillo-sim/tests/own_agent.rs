//! An agent defined in this test file, outside the library's registry, seated in a
//! small duplicate tournament (and a tuning run) through the library API: its rows
//! and summary are identical whatever the thread count, and it gets the seeded
//! generator a built-in agent would get.

use tresillo_agents::{Agent, AgentInfo, AgentRng, Failure, ParamInfo, RandomAgent, Registry};
use tresillo_core::{Decision, PlayerView};
use tresillo_sim::{Scoring, Space, Stats, Tournament, TuneSetup, simple_config};

/// Plays exactly as `random` (so the outputs can be compared with the built-in
/// agent's), under its own name; `skew` is a checked parameter that does nothing.
struct Mine(RandomAgent);

impl Agent for Mine {
    fn name(&self) -> &str {
        "mine"
    }
    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        self.0.decide(view, rng)
    }
}

fn registry() -> Registry {
    let mut r = Registry::builtin();
    let info = AgentInfo {
        name: "mine",
        help: "random, defined outside the library",
        params: vec![ParamInfo { name: "skew", default: "0".into(), help: "ignored" }],
    };
    r.register(info, |p| {
        p.int("skew", 0, 10)?;
        Ok(Box::new(Mine(RandomAgent)))
    })
    .unwrap();
    r
}

/// Every row (Debug form) and the summary fields of a run on `threads` threads.
fn run(agents: [&str; 3], scoring: Scoring, threads: usize) -> (Vec<String>, Vec<Vec<String>>) {
    let config = tresillo_sim::TournamentConfig { scoring, ..simple_config(agents, 24, 3, true) };
    let t = Tournament::with_registry(config, registry()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let (u0, u1) = t.config().unit_range();
    let outs = pool
        .install(|| t.run(u0..u1, |u| (u.rows.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>(), u.stats)))
        .unwrap();
    let mut rows = Vec::new();
    let mut stats = Stats::default();
    for (r, s) in outs {
        rows.extend(r);
        stats.merge(&s);
    }
    let summary = stats.summary(&t.config().agents, t.rows_per_unit()).iter().map(|r| r.fields()).collect();
    (rows, summary)
}

#[test]
fn an_outside_agent_plays_a_duplicate_tournament_identically_on_any_thread_count() {
    for scoring in [Scoring::Deal, Scoring::Session(4)] {
        let one = run(["mine:skew=2", "rule", "random"], scoring, 1);
        let two = run(["mine:skew=2", "rule", "random"], scoring, 2);
        assert_eq!(one, two);
        assert_eq!(one.0.len(), 24 * 6);
        // The same seeded generator as a built-in agent: `mine` plays as `random`
        // would in its seat, so every row matches but for the spec's name.
        let builtin = run(["random", "rule", "random"], scoring, 2);
        let strip = |rows: &[String]| -> Vec<String> {
            rows.iter().map(|r| r.replace("mine:skew=2", "X").replace("random", "X")).collect()
        };
        assert_eq!(strip(&one.0), strip(&builtin.0));
    }
}

#[test]
fn outside_agents_are_checked_like_built_in_ones() {
    let bad =
        Tournament::with_registry(simple_config(["mine:skew=11", "rule", "rule"], 6, 1, false), registry());
    assert!(bad.unwrap_err().to_string().contains("skew"));
    let unknown =
        Tournament::with_registry(simple_config(["mine:x=1", "rule", "rule"], 6, 1, false), registry());
    assert!(unknown.unwrap_err().to_string().contains("skew"), "the error lists the valid parameters");
    // The built-in registry does not know it.
    assert!(Tournament::new(simple_config(["mine", "rule", "rule"], 6, 1, false)).is_err());
}

#[test]
fn outside_agents_can_be_tuned() {
    let r = registry();
    let space = Space::with_registry(&r, "mine", vec!["skew=0,5".parse().unwrap()], None).unwrap();
    let setup = TuneSetup::new(["rule", "rule"], 6, 2);
    let a = setup.evaluate_with(&r, &space.spec(&["0".into()])).unwrap();
    let b = setup.evaluate_with(&r, &space.spec(&["5".into()])).unwrap();
    assert_eq!(a.units, b.units, "skew does nothing, so both candidates score the same");
    assert!(Space::with_registry(&r, "mine", vec!["skew=0,11".parse().unwrap()], None).is_err());
}

/// Counts the decisions other than card play it is asked for.
struct CardsOnly(RandomAgent, std::sync::Arc<std::sync::atomic::AtomicU64>);

impl Agent for CardsOnly {
    fn name(&self) -> &str {
        "cardsonly"
    }
    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        if !matches!(view.request(), tresillo_core::Request::Play { .. }) {
            self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        self.0.decide(view, rng)
    }
}

/// The decisions other than card play that the seated `cardsonly` agents were
/// asked for in a tournament of them with `--bidding rule` covering `covers`.
fn non_card_decisions(covers: tresillo_agents::BiddingCovers) -> u64 {
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut r = Registry::builtin();
    let info = AgentInfo { name: "cardsonly", help: "random, counting", params: vec![] };
    let counter = asked.clone();
    r.register(info, move |_| Ok(Box::new(CardsOnly(RandomAgent, counter.clone())))).unwrap();
    let mut config = simple_config(["cardsonly", "cardsonly", "cardsonly"], 300, 11, false);
    config.bidding = Some("rule".into());
    config.bidding_covers = covers;
    let t = Tournament::with_registry(config, r).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let (u0, u1) = t.config().unit_range();
    pool.install(|| t.run(u0..u1, |u| u.rows.len())).unwrap();
    asked.load(std::sync::atomic::Ordering::Relaxed)
}

#[test]
fn bidding_covers_all_leaves_the_seated_agents_card_play_alone() {
    use tresillo_agents::BiddingCovers;
    // By default the seated agents keep surrender, takeover and bola (asked in
    // these 300 deals) ...
    assert!(non_card_decisions(BiddingCovers::Bidding) > 0);
    // ... and `all` gives them to the bidding agent.
    assert_eq!(non_card_decisions(BiddingCovers::All), 0);
}

#[test]
fn bidding_covers_all_needs_a_bidding_agent() {
    let mut config = simple_config(["rule", "rule", "rule"], 3, 1, false);
    config.bidding_covers = tresillo_agents::BiddingCovers::All;
    let Err(e) = Tournament::new(config) else { panic!("refused") };
    let e = e.to_string();
    assert!(e.contains("needs a bidding agent"), "{e}");
}
