//! Bring your own agent: a small agent defined here, outside the library's registry,
//! registered beside the built-in agents and played in a duplicate tournament against
//! `rule` through the library, exactly as the CLI plays built-in agents.
//!
//! Run it with `cargo run --release -p tresillo-sim --example own_agent` (add a deal
//! count as the first argument: the default is 2,000 deals, each under all six
//! seatings). docs/AGENTS.md explains every step.

use tresillo_agents::{Agent, AgentInfo, AgentRng, ParamInfo, Registry, RuleAgent, RuleParams, SpecError};
use tresillo_core::{Decision, PlayerView, Request, trick_winner};
use tresillo_sim::{Stats, Tournament, TournamentConfig, simple_config};

/// Card play: win the trick as cheaply as it can (the first legal card that would
/// take the trick so far), otherwise throw the first legal card; leads its first
/// legal card. Every other decision (bids, exchange, conversation, surrender,
/// takeover, bola) is the rule agent's, with its own `entrada` threshold.
struct Greedy {
    rule: RuleAgent,
}

impl Agent for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Decision {
        let Request::Play { legal, .. } = view.request() else {
            return self.rule.decide(view, rng);
        };
        let trick = view.public().current_trick();
        let mut cards = [trick.first().copied().unwrap_or_else(|| legal.first().expect("a card")); 3];
        cards[..trick.len()].copy_from_slice(trick);
        let wins = legal.iter().find(|&c| {
            cards[trick.len()] = c;
            !trick.is_empty() && trick_winner(&cards[..=trick.len()], view.trump()) == trick.len()
        });
        Decision::Play(wins.or(legal.first()).expect("a legal card"))
    }
}

/// The registry callers build: the built-in agents plus `greedy[:entrada=N]`.
fn registry() -> Result<Registry, SpecError> {
    let mut r = Registry::builtin();
    let info = AgentInfo {
        name: "greedy",
        help: "wins each trick as cheaply as it can; bids as the rule agent",
        params: vec![ParamInfo {
            name: "entrada",
            default: RuleParams::default().entrada.to_string(),
            help: "the rule agent's entrada threshold (tenths of a trick)",
        }],
    };
    r.register(info, |p| {
        let mut rule = RuleParams::default();
        if let Some(e) = p.int("entrada", -1000, 1000)? {
            rule.entrada = e as i32;
        }
        Ok(Box::new(Greedy { rule: RuleAgent::new(rule) }))
    })?;
    Ok(r)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let deals = match std::env::args().nth(1) {
        Some(n) => n.parse().map_err(|_| format!("the deal count must be a positive integer, got `{n}`"))?,
        None => 2_000,
    };
    // Slot 0 is ours; duplicate: every deal under all six seatings.
    let config: TournamentConfig = simple_config(["greedy", "rule", "rule"], deals, 7, true);
    let t = Tournament::with_registry(config, registry()?)?;
    let (u0, u1) = t.config().unit_range();
    let mut stats = Stats::default();
    for s in t.run(u0..u1, |u| u.stats)? {
        stats.merge(&s);
    }
    println!(
        "{:<14} {:<9} {:>8} {:>9} {:>12} {:>22}",
        "agent", "role", "deals", "declare", "tantos", "95% CI"
    );
    for r in stats.summary(&t.config().agents, t.rows_per_unit()) {
        println!(
            "{:<14} {:<9} {:>8} {:>9} {:>12} {:>22}",
            r.agent,
            r.role,
            r.deals,
            r.declare_rate,
            r.mean_tantos,
            if r.ci95_low.is_empty() { String::new() } else { format!("[{}, {}]", r.ci95_low, r.ci95_high) }
        );
    }
    Ok(())
}
