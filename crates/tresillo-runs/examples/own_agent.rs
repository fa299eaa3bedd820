//! Bring your own agent: a small agent defined here, outside the library's registry,
//! registered beside the built-in agents and played in a duplicate tournament against
//! `rule` through the run-directory library, exactly as the CLI plays built-in
//! agents: the run directory it writes (deals.csv, summary.csv, manifest.json,
//! stats.json) is one `tresillo report` reads, and an interrupted run continues
//! with `--resume`.
//!
//! Run it with `cargo run --release -p tresillo-runs --example own_agent -- [DEALS]
//! [OUT] [--resume]` (the defaults: 2,000 deals, each under all six seatings, into
//! `out/own_agent`, replacing a run there). docs/AGENTS.md explains every step.

use tresillo_agents::{
    Agent, AgentInfo, AgentRng, Failure, ParamInfo, Registry, RuleAgent, RuleParams, SpecError,
};
use tresillo_core::{Decision, PlayerView, Request, trick_winner};
use tresillo_runs::RunOptions;
use tresillo_sim::{TournamentConfig, simple_config};

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

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
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
        Ok(Decision::Play(wins.or(legal.first()).expect("a legal card")))
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let resume = args.iter().any(|a| a == "--resume");
    let mut rest = args.iter().filter(|a| *a != "--resume");
    let deals = match rest.next() {
        Some(n) => n.parse().map_err(|_| format!("the deal count must be a positive integer, got `{n}`"))?,
        None => 2_000,
    };
    let out = rest.next().map_or("out/own_agent", String::as_str);
    // Slot 0 is ours; duplicate: every deal under all six seatings.
    let config: TournamentConfig = simple_config(["greedy", "rule", "rule"], deals, 7, true);
    let mut options = RunOptions::new(out);
    options.registry = registry()?;
    options.resume = resume;
    options.force = !resume;
    options.progress = true;
    let table = tresillo_runs::run(&config, &options, std::env::args().collect())?;
    print!("{table}");
    println!("read it with: tresillo report {out}");
    Ok(())
}
