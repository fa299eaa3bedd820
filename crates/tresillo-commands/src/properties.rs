//! `tresillo properties`: Long et al.'s game-tree properties (leaf correlation,
//! bias, disambiguation) and PIMC's error against the oracle, measured on deals
//! played by `rule` agents (`tresillo_sim::properties`; docs/PROPERTIES.md defines
//! every number). Prints a table; `--out FILE` writes every number as CSV.

use anyhow::{Context, Result};
use std::fmt::Write as _;
use std::io::Write;
use tresillo_sim::properties::{Properties, PropertiesConfig, SIDES, Tally, measure};

/// Arguments of `tresillo properties`.
#[derive(clap::Args)]
pub struct PropertiesArgs {
    /// Deals to play (deal `i` of the seed, dealer `i mod players`).
    #[arg(long, default_value_t = 100, allow_negative_numbers = true, value_parser = deals)]
    pub deals: u64,
    /// The master seed of the deals.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub seed: u64,
    /// Worlds PIMC samples at each card decision (0: PIMC's error is not measured).
    #[arg(long, default_value_t = 16, allow_negative_numbers = true, value_parser = worlds)]
    pub worlds: u32,
    /// Random playouts from the first card of each deal (leaf correlation and bias).
    #[arg(long, default_value_t = 64, allow_negative_numbers = true, value_parser = worlds)]
    pub playouts: u32,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::threads)]
    pub threads: Option<usize>,
    /// Write every number as CSV to this file (its directory created if missing).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// The rule set, its options and the table size.
    #[command(flatten)]
    pub rules: crate::rules::RulesArgs,
}

/// The most deals a run takes (each plays a whole hand and solves its card
/// decisions: far beyond an afternoon).
const MAX_DEALS: u64 = 1_000_000;

/// The most worlds per decision or playouts per deal.
const MAX_WORK: u32 = 100_000;

fn deals(s: &str) -> Result<u64, String> {
    let n = crate::args::non_negative::<u64>(s)?;
    if n == 0 || n > MAX_DEALS {
        return Err(format!("must be between 1 and {MAX_DEALS}"));
    }
    Ok(n)
}

fn worlds(s: &str) -> Result<u32, String> {
    let n = crate::args::non_negative::<u32>(s)?;
    if n > MAX_WORK {
        return Err(format!("must be at most {MAX_WORK}"));
    }
    Ok(n)
}

/// Runs `tresillo properties`.
pub fn run(a: &PropertiesArgs, out: &mut impl Write) -> Result<()> {
    let rules = a.rules.parse()?;
    let players = a.rules.players()?;
    let config = PropertiesConfig {
        rules,
        players,
        deals: a.deals,
        seed: a.seed,
        worlds: a.worlds,
        playouts: a.playouts,
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = a.threads {
        pool = pool.num_threads(t);
    }
    let p = pool.build()?.install(|| measure(&config))?;
    if let Some(path) = &a.out {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        std::fs::write(path, csv(&config, &p)).with_context(|| format!("writing {}", path.display()))?;
    }
    write!(out, "{}", table(&config, &p))?;
    Ok(())
}

/// A rate with three decimals, or `-`.
fn rate(t: &Tally) -> String {
    t.rate().map_or("-".into(), |r| format!("{r:.3}"))
}

/// An optional number with `d` decimals, or `-`.
fn num(x: Option<f64>, d: usize) -> String {
    x.map_or("-".into(), |v| format!("{v:.d$}"))
}

/// The printed summary.
fn table(c: &PropertiesConfig, p: &Properties) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "properties of {} at {} players: {} deals of seed {}, {} with card play, {} played to the last trick",
        c.rules, c.players, p.deals, c.seed, p.played, p.played_out
    );
    let _ = writeln!(
        s,
        "leaf correlation lc  {}  ({} pre-terminal nodes on {} random playouts per deal)",
        rate(&p.leaf),
        p.leaf.n,
        c.playouts
    );
    let _ = writeln!(
        s,
        "bias b               {}  (correlated pre-terminal nodes favouring the declarer; playout ends {}, \
         forced with all cards seen {})",
        rate(&p.leaf_favour),
        rate(&p.terminal_favour),
        rate(&p.forced_favour)
    );
    let _ = writeln!(
        s,
        "disambiguation df    {}  (declarer {}, defenders {}; share of the hidden hand bits one trick removes)",
        num(p.disambiguation(None), 3),
        num(p.disambiguation(Some(0)), 3),
        num(p.disambiguation(Some(1)), 3)
    );
    let _ = writeln!(
        s,
        "trick  side      decisions  indifferent  pimc_error  pimc_cost  hand_bits  world_bits  ({} worlds)",
        c.worlds
    );
    for t in 0..p.by_trick.len() {
        for (side, name) in SIDES.iter().enumerate() {
            let x = p.trick(t, Some(side));
            let _ = writeln!(
                s,
                "{:>5}  {:<8}  {:>9}  {:>11}  {:>10}  {:>9}  {:>9}  {:>10}",
                t + 1,
                name,
                x.indifferent.n,
                rate(&x.indifferent),
                rate(&x.pimc_errors),
                num(x.mean_pimc_cost(), 3),
                num(x.mean_hand_bits(), 2),
                num(x.mean_world_bits(), 2)
            );
        }
    }
    s
}

/// Every number, one per line: `rules,players,deals,seed,worlds,playouts,
/// measure,side,trick,n,k,value` (`side` and `trick` `all` for the whole hand;
/// `value` `k/n` for rates, a mean otherwise, empty when nothing was counted).
fn csv(c: &PropertiesConfig, p: &Properties) -> String {
    let mut s = String::from("rules,players,deals,seed,worlds,playouts,measure,side,trick,n,k,value\n");
    let head = format!("{},{},{},{},{},{}", c.rules, c.players, p.deals, c.seed, c.worlds, c.playouts);
    let mut row = |measure: &str, side: &str, trick: &str, n: u64, k: Option<u64>, v: Option<f64>| {
        let k = k.map_or(String::new(), |k| k.to_string());
        let v = v.map_or(String::new(), |v| format!("{v:.6}"));
        let _ = writeln!(s, "{head},{measure},{side},{trick},{n},{k},{v}");
    };
    let mut tally = |m: &str, t: &Tally| row(m, "all", "all", t.n, Some(t.k), t.rate());
    tally("played", &Tally { n: p.deals, k: p.played });
    tally("played_out", &Tally { n: p.played, k: p.played_out });
    tally("leaf_correlation", &p.leaf);
    tally("bias", &p.leaf_favour);
    tally("playout_end_favours_declarer", &p.terminal_favour);
    tally("declarer_forces_win", &p.forced_favour);
    for (side, name) in [(None, "all"), (Some(0), SIDES[0]), (Some(1), SIDES[1])] {
        row("disambiguation", name, "all", p.played_out, None, p.disambiguation(side));
    }
    for t in 0..p.by_trick.len() {
        let trick = (t + 1).to_string();
        for (side, name) in SIDES.iter().enumerate() {
            let x = p.trick(t, Some(side));
            row("indifferent", name, &trick, x.indifferent.n, Some(x.indifferent.k), x.indifferent.rate());
            row("pimc_error", name, &trick, x.pimc_errors.n, Some(x.pimc_errors.k), x.pimc_errors.rate());
            row("pimc_cost", name, &trick, x.pimc_errors.n, None, x.mean_pimc_cost());
            row("hand_bits", name, &trick, x.info, None, x.mean_hand_bits());
            row("world_bits", name, &trick, x.info, None, x.mean_world_bits());
        }
    }
    s
}
