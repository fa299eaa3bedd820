//! `tresillo analyze`: the card decisions of recorded hands judged by the exact
//! solver (and, with `--pimc`, by sampling from the player's own view).

use crate::replay::for_each_record;
use anyhow::{Result, ensure};
use std::io::Write;
use std::path::PathBuf;
use tresillo_agents::solver::Class;
use tresillo_sim::{CardAnalysis, HandAnalysis, HandRecord, PimcConfig, analyze};

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
    ensure!(!a.pimc || a.worlds >= 1, "--worlds must be at least 1");
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

fn write_analysis(out: &mut impl Write, rec: &HandRecord, an: &HandAnalysis) -> Result<()> {
    let r = &rec.result;
    let Some(declarer) = r.declarer else {
        writeln!(out, "summary: cancelled (all passed, the espada in the heap): no card play")?;
        return Ok(());
    };
    writeln!(
        out,
        "{} by seat {declarer}, trumps {}; seats: {}",
        r.contract.map_or("?", |c| c.name()),
        r.trump.map_or("?", |t| t.name()),
        rec.agents.iter().enumerate().map(|(i, a)| format!("{i} {a}")).collect::<Vec<_>>().join(", ")
    )?;
    for c in &an.cards {
        writeln!(out, "{}", card_line(c))?;
    }
    let changed: Vec<&CardAnalysis> = an.cards.iter().filter(|c| c.changed_outcome()).collect();
    let t = r.tricks.0;
    let mut summary = format!(
        "summary: {} by seat {declarer}: worth {} with every card known when play began; ended {} ({}-{}-{}); ",
        r.contract.map_or("?", |c| c.name()),
        an.start.map_or("-", Class::name),
        r.outcome,
        t[0],
        t[1],
        t[2]
    );
    if changed.is_empty() {
        summary.push_str("no card changed the outcome");
    } else {
        let list: Vec<String> = changed
            .iter()
            .map(|c| {
                format!(
                    "trick {} seat {} {} ({} -> {}; {} kept {})",
                    c.trick,
                    c.seat,
                    c.played,
                    c.before,
                    c.after,
                    cards_text(&c.best_cards()),
                    c.before
                )
            })
            .collect();
        summary.push_str(&format!("{} card(s) changed the outcome: {}", changed.len(), list.join("; ")));
    }
    writeln!(out, "{summary}")?;
    Ok(())
}

/// One card decision: `* trick 3 seat 0 (opponent) plays 7C: sacado -> puesta |
/// 1C sacado, 2C sacado, 7C puesta`, the star marking a change of outcome.
fn card_line(c: &CardAnalysis) -> String {
    let role = if c.declarer_side { "declarer" } else { "opponent" };
    let mark = if c.changed_outcome() { "*" } else { " " };
    let value =
        if c.changed_outcome() { format!("{} -> {}", c.before, c.after) } else { c.after.name().to_string() };
    let cards: Vec<String> = c
        .classes
        .iter()
        .map(|(card, class)| {
            let pimc = c
                .pimc
                .as_ref()
                .and_then(|p| p.iter().find(|x| x.card == *card))
                .map_or(String::new(), |p| format!(" (pimc {:.2})", p.mean()));
            format!("{card} {class}{pimc}")
        })
        .collect();
    format!(
        "{mark} trick {} seat {} ({role}) plays {}: {value} | {}",
        c.trick,
        c.seat,
        c.played,
        cards.join(", ")
    )
}

fn cards_text(cards: &[tresillo_core::Card]) -> String {
    let v: Vec<String> = cards.iter().map(ToString::to_string).collect();
    match v.len() {
        0 => "nothing".into(),
        1 => v[0].clone(),
        _ => format!("{} or {}", v[..v.len() - 1].join(", "), v[v.len() - 1]),
    }
}
