//! `tresillo bot-check`: plays hands of every rule set and table against an
//! external bot (docs/PROTOCOL.md) and reports its protocol errors, illegal
//! answers and the time it took, so a bot's author can check it before a
//! tournament.

use anyhow::{Result, bail};
use std::io::Write;
use std::time::Duration;
use tresillo_agents::{Agent, RuleAgent, RuleParams, deal_for_seed, seat_rngs};
use tresillo_bots::{BotConfig, ExtBot};
use tresillo_core::{Hand, Rules, Seat};

/// Arguments of `tresillo bot-check`.
#[derive(clap::Args)]
pub struct BotCheckArgs {
    /// The bot's program (and its arguments after spaces), as in `ext:cmd=`.
    #[arg(value_name = "CMD")]
    cmd: String,
    /// Hands per table (the bot takes each seat in turn).
    #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    hands: u64,
    /// Milliseconds the bot has for each answer.
    #[arg(long, default_value_t = tresillo_bots::DEFAULT_MS, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    ms: u64,
}

/// A table: the rule set, the players, the options.
type Table = (&'static str, u8, &'static [(&'static str, &'static str)]);

/// The tables checked: every rule set, with the options that add decisions.
const TABLES: [Table; 6] = [
    ("tresillo", 3, &[]),
    ("tresillo", 3, &[("palo_de_favor", "oros")]),
    ("tresillo", 4, &[]),
    ("tresillo-house", 3, &[]),
    ("hombre", 3, &[("contrabola", "true"), ("gascarille", "true"), ("favorito", "true")]),
    ("lhombre", 3, &[]),
];

/// Runs `tresillo bot-check`.
pub fn run(a: &BotCheckArgs, out: &mut impl Write) -> Result<()> {
    if a.ms == 0 || a.hands == 0 {
        bail!("--ms and --hands must be at least 1");
    }
    writeln!(
        out,
        "{:<64} {:>6} {:>9} {:>10} {:>10} {:>10} {:>10}",
        "table", "hands", "requests", "mean ms", "max ms", "encode µs", "decode µs"
    )?;
    let mut failures = 0;
    for (name, players, options) in TABLES {
        let rules = Rules::parse(name, options)?;
        let label = format!(
            "{name} {players} players{}",
            options.iter().map(|(k, v)| format!(" {k}={v}")).collect::<String>()
        );
        let mut config = BotConfig::new(&a.cmd);
        config.limit = Duration::from_millis(a.ms);
        let mut bot = ExtBot::new(config);
        let mut rule = RuleAgent::new(RuleParams::default());
        let mut played = 0;
        let mut fault = None;
        'hands: for i in 0..a.hands {
            let dealer = Seat((i % u64::from(players)) as u8);
            let deal = deal_for_seed(i + 1).seated(players, dealer);
            let mut hand = Hand::with_rules(rules, players, deal, dealer)?;
            // The bot sits in each seat in turn (at four players, never the idle dealer's).
            let mut me = Seat(((i / u64::from(players)) % u64::from(players)) as u8);
            if players == 4 && me == dealer {
                me = me.next(4);
            }
            let mut rngs = seat_rngs(i);
            bot.new_hand();
            rule.new_hand();
            while let Some(seat) = hand.request().seat() {
                let view = hand.view(seat);
                let rng = &mut rngs[seat.index()];
                let d = if seat == me { bot.decide(&view, rng) } else { rule.decide(&view, rng) };
                if let Err(e) = hand.apply(d) {
                    fault = Some(bot.fault().unwrap_or_else(|| format!("seat {seat}: {e}")));
                    break 'hands;
                }
            }
            bot.end_hand(&hand.result().expect("over"));
            played += 1;
        }
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let per = |d: Duration, scale: f64| {
            if bot.requests > 0 { d.as_secs_f64() * scale / bot.requests as f64 } else { 0.0 }
        };
        writeln!(
            out,
            "{label:<64} {played:>6} {:>9} {:>10.3} {:>10.3} {:>10.2} {:>10.2}",
            bot.requests,
            per(bot.waited, 1000.0),
            ms(bot.longest),
            per(bot.encode, 1e6),
            per(bot.decode, 1e6)
        )?;
        if let Some(f) = fault {
            writeln!(out, "  FAULT in hand {}: {f}", played + 1)?;
            failures += 1;
        }
    }
    if failures > 0 {
        bail!("{failures} table(s) with a fault: the bot is not ready for a tournament");
    }
    writeln!(out, "no protocol error, no illegal answer")?;
    Ok(())
}
