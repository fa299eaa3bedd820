//! `tresillo bot-check`: plays hands of every rule set and table against an
//! external bot (docs/PROTOCOL.md) and reports its protocol errors, illegal
//! answers, the request kinds it was asked (playing on past `--hands` until every
//! kind the table asked of any seat was asked of the bot, within ten times as
//! many hands, and naming those never asked) and its time: the round trip a
//! tournament pays per decision (writing the request, the bot's answer, reading
//! and checking it) beside the bot's own part of it (the wait for its answer),
//! each as the median and the 90th percentile.

use anyhow::{Result, bail};
use std::collections::BTreeSet;
use std::io::Write;
use std::time::{Duration, Instant};
use tresillo_agents::{Agent, RuleAgent, RuleParams, deal_for_seed, seat_rngs};
use tresillo_bots::{BotConfig, ExtBot};
use tresillo_core::{Hand, OptionKind, RuleSet, Rules, Seat};

/// Arguments of `tresillo bot-check`.
#[derive(clap::Args)]
pub struct BotCheckArgs {
    /// The bot's program (and its arguments after spaces), as in `ext:cmd=`.
    #[arg(value_name = "CMD")]
    cmd: String,
    /// Hands per table (the bot takes each seat in turn); more are played while
    /// a request kind of the table was not yet asked of the bot (at most ten
    /// times as many).
    #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    hands: u64,
    /// Milliseconds the bot has for each answer.
    #[arg(long, default_value_t = tresillo_bots::DEFAULT_MS, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    ms: u64,
}

/// The tables checked, from the registry: every rule set at every table size it
/// is played at, at its defaults and with the options that add decisions (every
/// flag on, each suit option at its last value) when they may be given together.
fn tables() -> Result<Vec<(Rules, u8)>> {
    let mut out = Vec::new();
    for set in RuleSet::all() {
        let options: Vec<(&str, &str)> = set
            .spec()
            .options
            .iter()
            .filter_map(|o| match o.kind {
                OptionKind::Flag => Some((o.name, "true")),
                OptionKind::Suit => Some((o.name, "oros")),
                OptionKind::Count { .. } => None,
            })
            .collect();
        for players in [3u8, 4] {
            let plain = Rules::from(set);
            if plain.check_players(players).is_err() {
                continue;
            }
            out.push((plain, players));
            // Each option in turn, kept when the table still accepts it.
            let mut kept: Vec<(&str, &str)> = Vec::new();
            for o in &options {
                kept.push(*o);
                if !Rules::parse(set.name(), &kept).is_ok_and(|r| r.check_players(players).is_ok()) {
                    kept.pop();
                }
            }
            if !kept.is_empty() {
                out.push((Rules::parse(set.name(), &kept)?, players));
            }
        }
    }
    Ok(out)
}

/// The median and the 90th percentile of `xs` in microseconds (sorted in place).
fn quantiles(xs: &mut [Duration]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    xs.sort_unstable();
    let at = |q: f64| xs[((xs.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6;
    (at(0.5), at(0.9))
}

/// Runs `tresillo bot-check`.
pub fn run(a: &BotCheckArgs, out: &mut impl Write) -> Result<()> {
    if a.ms == 0 || a.hands == 0 {
        bail!("--ms and --hands must be at least 1");
    }
    writeln!(
        out,
        "{:<64} {:>6} {:>9} {:>22} {:>22} {:>9}",
        "table", "hands", "requests", "round trip µs (p50/p90)", "bot's own µs (p50/p90)", "max ms"
    )?;
    let mut failures = 0;
    let mut unasked_tables = Vec::new();
    for (rules, players) in tables()? {
        let label = format!(
            "{} {players} players{}",
            rules.set.name(),
            rules.options.set_options().iter().map(|(k, v)| format!(" {k}={v}")).collect::<String>()
        );
        let mut config = BotConfig::new(&a.cmd);
        config.limit = Duration::from_millis(a.ms);
        let mut bot = ExtBot::new(config);
        let mut rule = RuleAgent::new(RuleParams::default());
        let mut played = 0;
        let mut fault = None;
        // The kinds the table asked of any seat, and of the bot.
        let mut at_table = BTreeSet::new();
        let mut of_bot = BTreeSet::new();
        let (mut trips, mut own) = (Vec::new(), Vec::new());
        let cap = a.hands.saturating_mul(10);
        let mut i = 0;
        'hands: while i < a.hands || (i < cap && !at_table.is_subset(&of_bot)) {
            if tresillo_agents::interrupt::stop_requested() {
                return Err(tresillo_sim::SimError::Interrupted.into());
            }
            let dealer = Seat((i % u64::from(players)) as u8);
            let table = rules.table(players);
            let deal = deal_for_seed(i + 1).seated(table, dealer);
            let mut hand = Hand::with_rules(rules, players, deal, dealer)?;
            // The bot sits in each seat in turn (never the seat that sits out).
            let mut me = Seat(((i / u64::from(players)) % u64::from(players)) as u8);
            if table.sits_out(dealer) == Some(me) {
                me = me.next(players);
            }
            let mut rngs = seat_rngs(i);
            bot.new_hand();
            rule.new_hand();
            while let Some(seat) = hand.request().seat() {
                let view = hand.view(seat);
                let rng = &mut rngs[seat.index()];
                let kind = view.request().kind();
                at_table.insert(kind.protocol_name());
                let d = if seat == me {
                    of_bot.insert(kind.protocol_name());
                    let waited = bot.waited;
                    let t0 = Instant::now();
                    let d = bot.decide(&view, rng);
                    trips.push(t0.elapsed());
                    own.push(bot.waited.saturating_sub(waited));
                    match d {
                        Ok(d) => d,
                        Err(f) => {
                            fault = Some(f.to_string());
                            break 'hands;
                        }
                    }
                } else {
                    rule.choose(&view, rng)
                };
                if let Err(e) = hand.apply(d) {
                    fault = Some(format!("seat {seat}: {e}"));
                    break 'hands;
                }
            }
            bot.end_hand(&hand.result().expect("over"));
            played += 1;
            i += 1;
        }
        if tresillo_agents::interrupt::stop_requested() {
            return Err(tresillo_sim::SimError::Interrupted.into());
        }
        let (t50, t90) = quantiles(&mut trips);
        let (o50, o90) = quantiles(&mut own);
        writeln!(
            out,
            "{label:<64} {played:>6} {:>9} {:>22} {:>22} {:>9.3}",
            bot.requests,
            format!("{t50:.1} / {t90:.1}"),
            format!("{o50:.1} / {o90:.1}"),
            bot.longest.as_secs_f64() * 1000.0,
        )?;
        writeln!(out, "  asked: {}", of_bot.iter().cloned().collect::<Vec<_>>().join(" "))?;
        let missing: Vec<&str> = at_table.difference(&of_bot).copied().collect();
        if !missing.is_empty() && fault.is_none() {
            writeln!(
                out,
                "  NOT ASKED of the bot in {played} hands (asked of other seats): {}",
                missing.join(" ")
            )?;
            unasked_tables.push(label.clone());
        }
        if let Some(f) = fault {
            writeln!(out, "  FAULT in hand {}: {f}", played + 1)?;
            failures += 1;
        }
    }
    if failures > 0 {
        bail!("{failures} table(s) with a fault: the bot is not ready for a tournament");
    }
    writeln!(out, "no protocol error, no illegal answer")?;
    if !unasked_tables.is_empty() {
        writeln!(
            out,
            "note: some request kinds were never asked of the bot ({}); check them with more --hands",
            unasked_tables.join("; ")
        )?;
    }
    Ok(())
}
