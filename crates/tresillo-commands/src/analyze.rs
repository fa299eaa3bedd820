//! `tresillo analyze`: the card decisions of recorded hands judged by the exact
//! solver (and, with `--pimc`, by sampling from the player's own view).
//!
//! Every hand goes through [`tresillo_sim::analyze`], judged with the goal the
//! contract is played for ([`Goal`](tresillo_agents::gsolver::Goal): section 7's classes in `tresillo`, the
//! contract's own goal in `hombre`, `lhombre` and at four players); its classes
//! are named here in the rule set's words.

use crate::replay::for_each_record;
use anyhow::{Result, bail, ensure};
use std::io::Write;
use std::path::PathBuf;
use tresillo_agents::{SpecError, build_agent};
use tresillo_core::Card;
use tresillo_sim::{HandAnalysis, HandRecord, PimcConfig, analyze};

/// Arguments of `tresillo analyze`.
#[derive(clap::Args)]
pub struct AnalyzeArgs {
    /// A record file (JSON Lines, docs/RECORDS.md).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Analyze only hand N (1-based: the hand on line N).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::args::non_negative::<usize>)]
    hand: Option<usize>,
    /// Also estimate each legal card as PIMC would from the player's view: worlds
    /// sampled from what they saw, each solved exactly.
    #[arg(long)]
    pimc: bool,
    /// Worlds per decision for `--pimc`.
    #[arg(long, default_value_t = 32, requires = "pimc", allow_negative_numbers = true, value_parser = crate::args::non_negative::<u32>)]
    worlds: u32,
    /// Seed of the `--pimc` sampling.
    #[arg(long, default_value_t = 1, requires = "pimc", allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    seed: u64,
}

/// Runs `tresillo analyze`.
pub fn run(a: &AnalyzeArgs, out: &mut impl Write) -> Result<()> {
    if a.pimc {
        // The pimc agent's own bound on its worlds (the registry checks the spec).
        if let Err(SpecError::BadValue { why, .. }) = build_agent(&format!("pimc:worlds={}", a.worlds)) {
            bail!("--worlds {}: {why} (the pimc agent's bound)", a.worlds);
        }
    }
    let count = for_each_record(&a.file, |_, _| Ok(()))?;
    if let Some(n) = a.hand {
        ensure!(n >= 1 && n <= count, "{}: --hand {n}: the file holds hands 1 to {count}", a.file.display());
    }
    let pimc = a.pimc.then_some(PimcConfig { worlds: a.worlds, seed: a.seed });
    for_each_record(&a.file, |line, rec| {
        if a.hand.is_some_and(|n| n != line) {
            return Ok(());
        }
        if a.hand.is_none() && count > 1 {
            if line > 1 {
                writeln!(out)?;
            }
            writeln!(out, "== hand {line} ==")?;
        }
        let an = analyze(rec, pimc)
            .map_err(|e| anyhow::anyhow!("{}:{line}: invalid record: {e}", a.file.display()))?;
        write_analysis(out, rec, &an)
    })?;
    Ok(())
}

pub use tresillo_sim::class_name;

fn write_analysis(out: &mut impl Write, rec: &HandRecord, an: &HandAnalysis) -> Result<()> {
    let r = &rec.result;
    let names = rec.rules.names();
    let Some(declarer) = r.declarer else {
        writeln!(out, "summary: cancelled ({}): no card play", rec.rules.spec().words.cancelled)?;
        return Ok(());
    };
    let mut contract = r.contract.map_or("?".to_string(), |c| names.contract(c, r.trump));
    if r.penetro {
        contract.push_str(" (penetro)");
    }
    let trumps = match (r.contract, r.trump) {
        (None, _) => "?".to_string(),
        (Some(_), None) => "none".to_string(),
        (Some(_), Some(t)) => names.suit(t),
    };
    writeln!(
        out,
        "{contract} by seat {declarer}, trumps {trumps}; seats: {}",
        rec.agents.iter().enumerate().map(|(i, a)| format!("{i} {a}")).collect::<Vec<_>>().join(", ")
    )?;
    let card = |c: Card| names.card(c);
    for c in &an.cards {
        let role = if c.declarer_side { "declarer" } else { "opponent" };
        let changed = c.before != c.after;
        let value = if changed {
            format!("{} -> {}", class_name(c.goal, c.before), class_name(c.goal, c.after))
        } else {
            class_name(c.goal, c.after).to_string()
        };
        let list: Vec<String> = c
            .classes
            .iter()
            .map(|&(k, v)| {
                let est = c
                    .pimc
                    .as_ref()
                    .and_then(|p| p.iter().find(|x| x.card == k))
                    .map_or(String::new(), |x| format!(" (pimc {:.2})", x.mean()));
                format!("{} {}{est}", card(k), class_name(c.goal, v))
            })
            .collect();
        writeln!(
            out,
            "{} trick {} seat {} ({role}) plays {}: {value} | {}",
            if changed { "*" } else { " " },
            c.trick,
            c.seat,
            card(c.played),
            list.join(", ")
        )?;
    }
    let tricks: Vec<String> = r.tricks.0[..usize::from(rec.players)].iter().map(u8::to_string).collect();
    let worth = an.cards.first().map_or("-", |c| class_name(c.goal, c.before));
    let mut summary = format!(
        "summary: {contract} by seat {declarer}: worth {worth} with every card known when play began; ended {} ({}); ",
        names.outcome(r.outcome),
        tricks.join("-")
    );
    let changed: Vec<String> = an
        .cards
        .iter()
        .filter(|c| c.before != c.after)
        .map(|c| {
            let best: Vec<Card> =
                c.classes.iter().filter(|&&(_, v)| v == c.before).map(|&(k, _)| k).collect();
            let best: Vec<String> = best.into_iter().map(card).collect();
            let kept = match best.len() {
                0 => "nothing".to_string(),
                1 => best[0].clone(),
                n => format!("{} or {}", best[..n - 1].join(", "), best[n - 1]),
            };
            format!(
                "trick {} seat {} {} ({} -> {}; {kept} kept {})",
                c.trick,
                c.seat,
                card(c.played),
                class_name(c.goal, c.before),
                class_name(c.goal, c.after),
                class_name(c.goal, c.before)
            )
        })
        .collect();
    if changed.is_empty() {
        summary.push_str("no card changed the outcome");
    } else {
        summary.push_str(&format!("{} card(s) changed the outcome: {}", changed.len(), changed.join("; ")));
    }
    writeln!(out, "{summary}")?;
    Ok(())
}
