//! `tresillo calibrate`: the amount of work (`worlds` of `pimc`, `iters` of
//! `ismcts`) whose decisions cost a given CPU time on this machine over whole
//! games, so that an equal-compute experiment can be written down as
//! reproducible specs.
//!
//! Each amount is measured as a tournament measures it: the candidate in slot 0
//! against `--opponents`, whole hands (every card decision, and the bidding
//! decisions when they are the agent's: without `--bidding`), on one worker
//! thread, charged the thread CPU time of its decisions (the runner's compute
//! accounting, [`tresillo_sim::compute`], which times every decision of a search
//! agent). Deals are played one at a time until the 95% interval of the ratio
//! (CPU time over decisions) is within `--precision` of its value, or
//! `--max-deals` are played.

use anyhow::{Result, bail};
use std::io::Write;
use tresillo_sim::compute::{CARD, KINDS};
use tresillo_sim::{Scoring, Shard, Tournament, TournamentConfig};

/// Arguments of `tresillo calibrate`.
#[derive(clap::Args)]
pub struct CalibrateArgs {
    /// The agent spec to calibrate: `pimc` or `ismcts`, with any parameters but
    /// the amount of work (`worlds`, `iters`, `ms`).
    #[arg(long)]
    pub spec: String,
    /// The target: CPU milliseconds per decision of the agent (its card
    /// decisions, and its bidding decisions without `--bidding`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=3_600_000))]
    pub ms: u32,
    /// The fewest deals measured at each amount.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub n: u32,
    /// The most deals measured at each amount (the interval may stay wider).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub max_deals: u32,
    /// Measure each amount until its 95% interval is within this share of its
    /// value (0.05: ±5%).
    #[arg(long, default_value_t = 0.05)]
    pub precision: f64,
    /// The opponents in slots 1 and 2 (and 3 at four players), comma-separated.
    #[arg(long, default_value = "rule,rule")]
    pub opponents: String,
    /// An agent spec that makes every seat's bidding-phase decisions (as in
    /// `tournament --bidding`): calibrate card play alone, for a tournament run
    /// with the same `--bidding`.
    #[arg(long)]
    pub bidding: Option<String>,
    /// With `--bidding`: `all` gives the bidding agent every decision but card
    /// play (as in `tournament --bidding-covers`).
    #[arg(long, value_name = "bidding|all")]
    pub bidding_covers: Option<tresillo_agents::BiddingCovers>,
    /// The seed of the deals measured (every amount plays the same deals).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub seed: u64,
    /// The rule set, its options and the table size.
    #[command(flatten)]
    pub rules: crate::rules::RulesArgs,
}

/// The parameter that sets an agent's amount of work, and its largest value.
fn work_param(name: &str) -> Option<(&'static str, u64)> {
    match name {
        "pimc" => Some(("worlds", 100_000)),
        "ismcts" => Some(("iters", 10_000_000)),
        _ => None,
    }
}

/// One amount's measurement: CPU milliseconds per decision and its 95% interval
/// half-width, the standard deviation of the per-deal means, deals and decisions.
#[derive(Clone, Copy, Debug)]
struct Measured {
    ms: f64,
    half: f64,
    sd: f64,
    deals: u64,
    decisions: u64,
}

/// The decisions of slot 0 that are the agent's: all of them, or without a
/// bidding agent's (bids, contract, discards, words) when `--bidding` is given.
fn own_decisions(d: &[u64; 6], bidding: bool) -> u64 {
    if bidding { d[CARD] + d[KINDS.len() - 1] } else { d.iter().sum() }
}

impl CalibrateArgs {
    /// Plays deals with `spec` in slot 0 until the measurement is narrow.
    fn measure(&self, spec: &str, pool: &rayon::ThreadPool) -> Result<Measured> {
        let mut agents = vec![spec.to_string()];
        agents.extend(self.opponents.split(',').map(|s| s.trim().to_string()));
        let config = TournamentConfig {
            agents,
            players: self.rules.players()?,
            deals: u64::from(self.max_deals),
            seed: self.seed,
            rules: self.rules.parse()?,
            scoring: Scoring::Deal,
            duplicate: false,
            shard: Shard::WHOLE,
            bidding: self.bidding.as_deref().map(|b| b.trim().to_string()),
            bidding_covers: self.bidding_covers.unwrap_or_default(),
        };
        let registry = crate::registry();
        config.validate_with(&registry)?;
        let t = Tournament::with_registry(config, registry)?;
        let slots = tresillo_sim::AgentSlots::new();
        let (mut cpu, mut n) = (Vec::new(), Vec::new());
        let bidding = self.bidding.is_some();
        let ratio = |cpu: &[f64], n: &[f64]| -> (f64, f64, f64) {
            let (sx, sn): (f64, f64) = (cpu.iter().sum(), n.iter().sum());
            let k = cpu.len() as f64;
            if sn == 0.0 || k < 2.0 {
                return (f64::NAN, f64::INFINITY, f64::NAN);
            }
            let r = sx / sn;
            // The ratio estimator's variance (delta method): residuals x - r n.
            let ss: f64 = cpu.iter().zip(n).map(|(x, m)| (x - r * m).powi(2)).sum::<f64>() / (k - 1.0);
            let nbar = sn / k;
            let se = (ss / k).sqrt() / nbar;
            // Per-deal means, for the spread.
            let means: Vec<f64> = cpu.iter().zip(n).filter(|(_, m)| **m > 0.0).map(|(x, m)| x / m).collect();
            let mm = means.iter().sum::<f64>() / means.len().max(1) as f64;
            let sd = (means.iter().map(|x| (x - mm).powi(2)).sum::<f64>() / (means.len().max(2) - 1) as f64)
                .sqrt();
            (r, 1.96 * se, sd)
        };
        let mut u = 0;
        loop {
            let out = pool.install(|| {
                t.run_in(&slots, u..u + 1, |o| {
                    let s = &o.compute.slots[0];
                    (s.cpu_ns as f64 / 1e6, own_decisions(&s.decisions, bidding) as f64)
                })
            })?;
            for (x, m) in out {
                cpu.push(x);
                n.push(m);
            }
            u += 1;
            let (r, half, _) = ratio(&cpu, &n);
            let narrow = r.is_finite() && half <= self.precision * r;
            if (u >= u64::from(self.n) && narrow) || u >= u64::from(self.max_deals) {
                break;
            }
        }
        let (ms, half, sd) = ratio(&cpu, &n);
        Ok(Measured { ms, half, sd, deals: u, decisions: n.iter().sum::<f64>() as u64 })
    }
}

/// Runs `tresillo calibrate`: doubles the amount of work until the CPU time per
/// decision reaches the target, then bisects (to within 5% of the amount);
/// prints each measurement, then the chosen spec with its measurement, then the
/// spec alone on the last line.
pub fn run(a: &CalibrateArgs, out: &mut impl Write) -> Result<()> {
    let spec = a.spec.trim();
    let name = spec.split(':').next().unwrap_or("").trim();
    let Some((param, max)) = work_param(name) else {
        bail!("calibrate takes a `pimc` or `ismcts` spec (their worlds or iterations), not `{spec}`");
    };
    for key in tresillo_sim::WORK_PARAMS {
        if tresillo_agents::spec_param(spec, key)?.is_some() {
            bail!(
                "`{spec}` already sets `{key}`: calibrate finds the amount of work; give the spec without it"
            );
        }
    }
    if !(a.precision > 0.0 && a.precision < 1.0) {
        bail!("--precision {}: a share between 0 and 1 (0.05 is ±5%)", a.precision);
    }
    if a.max_deals < a.n {
        bail!("--max-deals {} is below --n {}", a.max_deals, a.n);
    }
    crate::registry().build_agent(spec)?;
    let rules = a.rules.parse()?;
    let players = a.rules.players()?;
    let target = f64::from(a.ms);
    writeln!(
        out,
        "calibrate `{spec}` to {} CPU ms per decision: whole hands of {rules} at {players} players against {}{}, \
         seed {}, one thread as in a tournament's worker; each amount measured on {} to {} deals until its 95% \
         interval is within {}%",
        a.ms,
        a.opponents,
        match &a.bidding {
            Some(b) => format!(", bidding by {b} (card play and the agent's other decisions)"),
            None => " (every decision of the agent, bidding included)".into(),
        },
        a.seed,
        a.n,
        a.max_deals,
        a.precision * 100.0
    )?;
    // One worker thread, as a tournament's: pimc's `threads=0` then takes one.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let mut seen: Vec<(u64, Measured)> = Vec::new();
    let mut measure = |v: u64| -> Result<f64> {
        let s = format!("{spec}:{param}={v}");
        let m = a.measure(&s, &pool)?;
        writeln!(
            out,
            "{param}={v}: {:.3} ms per decision [{:.3}, {:.3}]; sd {:.3} ms over {} deals ({} decisions)",
            m.ms,
            m.ms - m.half,
            m.ms + m.half,
            m.sd,
            m.deals,
            m.decisions
        )?;
        seen.push((v, m));
        Ok(m.ms)
    };
    // Doubling: `lo` below the target (or 1), `hi` at or above it.
    let (mut lo, mut lo_ms) = (1u64, measure(1)?);
    let best = if lo_ms >= target {
        1
    } else {
        let (mut hi, mut hi_ms) = loop {
            let v = (lo * 2).min(max);
            let m = measure(v)?;
            if m >= target || v == max {
                break (v, m);
            }
            (lo, lo_ms) = (v, m);
        };
        // Bisection, to within 5% of the amount.
        while hi_ms >= target && hi - lo > (lo / 20).max(1) {
            let mid = lo + (hi - lo) / 2;
            let m = measure(mid)?;
            if m >= target {
                (hi, hi_ms) = (mid, m);
            } else {
                (lo, lo_ms) = (mid, m);
            }
        }
        if (hi_ms - target).abs() < (target - lo_ms).abs() { hi } else { lo }
    };
    let m = seen.iter().rev().find(|(v, _)| *v == best).map(|(_, m)| *m).expect("measured");
    let chosen = format!("{spec}:{param}={best}");
    writeln!(
        out,
        "calibrated: {chosen}: {:.3} CPU ms per decision [{:.3}, {:.3}] (95%), sd {:.3} ms over {} deals",
        m.ms,
        m.ms - m.half,
        m.ms + m.half,
        m.sd,
        m.deals
    )?;
    writeln!(out, "{chosen}")?;
    Ok(())
}
