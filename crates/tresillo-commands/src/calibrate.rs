//! `tresillo calibrate`: the amount of work (`worlds` of `pimc`, `iters` of
//! `ismcts`) whose decisions cost a given CPU time on this machine over whole
//! games, so that an equal-compute experiment can be written down as
//! reproducible specs.
//!
//! Each amount is measured as a duplicate tournament measures it: the candidate
//! in slot 0 against `--opponents`, each deal played at every seating (so the
//! agent sits in every seat, as in `tournament --duplicate`: a seat that leads
//! more often costs a search more per decision), whole hands (every card
//! decision, and the bidding decisions when they are the agent's: without
//! `--bidding`), on one worker
//! thread, charged the thread CPU time of its decisions (the runner's compute
//! accounting, [`tresillo_sim::compute`], which times every decision of a search
//! agent). Deals are played one at a time until the 95% interval of the ratio
//! (CPU time over decisions) is within `--precision` of its value, or
//! `--max-deals` are played.
//!
//! It plays a one-thread `Tournament` and reads compute's thread CPU time deal by deal
//! until the ratio's interval is narrow (doubling, then bisection), and prints the
//! result as a reproducible spec; `scripts/check-calibrate.sh` checks it.

use anyhow::{Result, bail};
use std::io::Write;
use tresillo_sim::compute::{CARD, KINDS};
use tresillo_sim::{Scoring, Shard, Tournament, TournamentConfig};

/// Arguments of `tresillo calibrate`.
#[derive(clap::Args)]
pub struct CalibrateArgs {
    /// The agent spec to calibrate: `pimc` or `ismcts`, with any parameters but
    /// the amount of work (`worlds`, `iters`, `ms`). Repeat it to calibrate
    /// several specs together: their measurements are interleaved deal by deal,
    /// so that a machine whose load changes charges them alike.
    #[arg(long, required = true)]
    pub spec: Vec<String>,
    /// The target: CPU milliseconds per decision of the agent (its card
    /// decisions, and its bidding decisions without `--bidding`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=3_600_000))]
    pub ms: u32,
    /// The fewest deals measured at each amount.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub n: u32,
    /// The most deals measured at each amount (the interval may stay wider).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
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
    /// Measure the agent in slot 0's own seat only, as a tournament without
    /// `--duplicate` seats it, instead of at every seating of each deal.
    #[arg(long)]
    pub fixed_seats: bool,
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
    /// The tournament that measures `spec` in slot 0.
    fn table(&self, spec: &str) -> Result<Tournament> {
        let mut agents = vec![spec.to_string()];
        agents.extend(self.opponents.split(',').map(|s| s.trim().to_string()));
        let config = TournamentConfig {
            agents,
            players: self.rules.players()?,
            deals: u64::from(self.max_deals),
            seed: self.seed,
            rules: self.rules.parse()?,
            scoring: Scoring::Deal,
            duplicate: !self.fixed_seats,
            shard: Shard::WHOLE,
            bidding: self.bidding.as_deref().map(|b| b.trim().to_string()),
            bidding_covers: self.bidding_covers.unwrap_or_default(),
        };
        let registry = crate::registry();
        config.validate_with(&registry)?;
        Ok(Tournament::with_registry(config, registry)?)
    }

    /// Plays deals with each of `specs` in slot 0, one deal of each in turn,
    /// until each measurement is narrow (or at `--max-deals`).
    fn measure_many(&self, specs: &[String], pool: &rayon::ThreadPool) -> Result<Vec<Measured>> {
        let tables: Vec<Tournament> = specs.iter().map(|s| self.table(s)).collect::<Result<_>>()?;
        let slots: Vec<_> = specs.iter().map(|_| tresillo_sim::AgentSlots::new()).collect();
        let mut samples: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); specs.len()];
        let mut done: Vec<Option<Measured>> = vec![None; specs.len()];
        let bidding = self.bidding.is_some();
        let mut u = 0;
        while done.iter().any(Option::is_none) {
            for (k, t) in tables.iter().enumerate() {
                if done[k].is_some() {
                    continue;
                }
                let out = pool.install(|| {
                    t.run_in(&slots[k], u..u + 1, |o| {
                        let s = &o.compute.slots[0];
                        (s.cpu_ns as f64 / 1e6, own_decisions(&s.decisions, bidding) as f64)
                    })
                })?;
                let (cpu, n) = &mut samples[k];
                for (x, m) in out {
                    cpu.push(x);
                    n.push(m);
                }
                let (r, half, sd) = ratio(cpu, n);
                let played = u + 1;
                let narrow = r.is_finite() && half <= self.precision * r;
                if (played >= u64::from(self.n) && narrow) || played >= u64::from(self.max_deals) {
                    done[k] = Some(Measured {
                        ms: r,
                        half,
                        sd,
                        deals: played,
                        decisions: n.iter().sum::<f64>() as u64,
                    });
                }
            }
            u += 1;
        }
        Ok(done.into_iter().map(|m| m.expect("measured")).collect())
    }
}

/// CPU milliseconds per decision over deals with CPU times `cpu` and decision
/// counts `n` (the ratio estimator), its 95% half-width (delta method) and the
/// standard deviation of the per-deal means.
fn ratio(cpu: &[f64], n: &[f64]) -> (f64, f64, f64) {
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
    let sd = (means.iter().map(|x| (x - mm).powi(2)).sum::<f64>() / (means.len().max(2) - 1) as f64).sqrt();
    (r, 1.96 * se, sd)
}

/// One spec's search for its amount of work: doubling from 1 until the CPU time
/// per decision reaches the target, then bisection to within 5% of the amount.
struct Search {
    spec: String,
    param: &'static str,
    max: u64,
    lo: (u64, f64),
    hi: Option<(u64, f64)>,
    best: Option<u64>,
    seen: Vec<(u64, Measured)>,
}

impl Search {
    /// The amount to measure next, or `None` once decided.
    fn next(&self) -> Option<u64> {
        if self.best.is_some() {
            return None;
        }
        if self.seen.is_empty() {
            return Some(1);
        }
        Some(match self.hi {
            None => (self.lo.0 * 2).min(self.max),
            Some((hi, _)) => self.lo.0 + (hi - self.lo.0) / 2,
        })
    }

    /// Takes the measurement of amount `v` against `target`.
    fn record(&mut self, v: u64, m: Measured, target: f64) {
        self.seen.push((v, m));
        let ms = m.ms;
        if self.seen.len() == 1 {
            self.lo = (1, ms);
            if ms >= target {
                self.best = Some(1);
            }
            return;
        }
        match self.hi {
            None => {
                if ms >= target || v == self.max {
                    self.hi = Some((v, ms));
                } else {
                    self.lo = (v, ms);
                }
            }
            Some(_) => {
                if ms >= target {
                    self.hi = Some((v, ms));
                } else {
                    self.lo = (v, ms);
                }
            }
        }
        if let Some((hi, hi_ms)) = self.hi
            && !(hi_ms >= target && hi - self.lo.0 > (self.lo.0 / 20).max(1))
        {
            let (lo, lo_ms) = self.lo;
            self.best = Some(if (hi_ms - target).abs() < (target - lo_ms).abs() { hi } else { lo });
        }
    }

    /// The chosen amount's spec and measurement.
    fn chosen(&self) -> (String, Measured) {
        let best = self.best.expect("decided");
        let m = self.seen.iter().rev().find(|(v, _)| *v == best).map(|(_, m)| *m).expect("measured");
        (format!("{}:{}={best}", self.spec, self.param), m)
    }
}

/// Runs `tresillo calibrate`: for each spec, doubles the amount of work until
/// the CPU time per decision reaches the target, then bisects (to within 5% of
/// the amount), the specs' measurements interleaved deal by deal; prints each
/// measurement, then each chosen spec with its measurement, then the chosen
/// specs alone (comma-separated, as `--agents` takes them) on the last line.
pub fn run(a: &CalibrateArgs, out: &mut impl Write) -> Result<()> {
    let mut searches = Vec::new();
    for spec in &a.spec {
        let spec = spec.trim();
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
        crate::registry().build_agent(spec)?;
        searches.push(Search {
            spec: spec.to_string(),
            param,
            max,
            lo: (1, 0.0),
            hi: None,
            best: None,
            seen: Vec::new(),
        });
    }
    if !(a.precision > 0.0 && a.precision < 1.0) {
        bail!("--precision {}: a share between 0 and 1 (0.05 is ±5%)", a.precision);
    }
    if a.max_deals < a.n {
        bail!("--max-deals {} is below --n {}", a.max_deals, a.n);
    }
    let rules = a.rules.parse()?;
    let players = a.rules.players()?;
    let target = f64::from(a.ms);
    let specs: Vec<&str> = searches.iter().map(|s| s.spec.as_str()).collect();
    writeln!(
        out,
        "calibrate `{}` to {} CPU ms per decision: whole hands of {rules} at {players} players against {}{}, \
         seed {}, {}, one thread as in a tournament's worker; each amount measured on {} to {} deals until its 95% \
         interval is within {}%{}",
        specs.join("`, `"),
        a.ms,
        a.opponents,
        match &a.bidding {
            Some(b) => format!(", bidding by {b} (card play and the agent's other decisions)"),
            None => " (every decision of the agent, bidding included)".into(),
        },
        a.seed,
        if a.fixed_seats { "slot 0 in its own seat" } else { "each deal at every seating (duplicate)" },
        a.n,
        a.max_deals,
        a.precision * 100.0,
        if searches.len() > 1 { "; the specs' deals interleaved" } else { "" }
    )?;
    // One worker thread, as a tournament's: pimc's `threads=0` then takes one.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    loop {
        let step: Vec<(usize, u64)> =
            searches.iter().enumerate().filter_map(|(k, s)| s.next().map(|v| (k, v))).collect();
        if step.is_empty() {
            break;
        }
        let step_specs: Vec<String> =
            step.iter().map(|&(k, v)| format!("{}:{}={v}", searches[k].spec, searches[k].param)).collect();
        let measured = a.measure_many(&step_specs, &pool)?;
        for ((k, v), m) in step.into_iter().zip(measured) {
            let s = &mut searches[k];
            let who = if a.spec.len() > 1 { format!("{}: ", s.spec) } else { String::new() };
            writeln!(
                out,
                "{who}{}={v}: {:.3} ms per decision [{:.3}, {:.3}]; sd {:.3} ms over {} deals ({} decisions)",
                s.param,
                m.ms,
                m.ms - m.half,
                m.ms + m.half,
                m.sd,
                m.deals,
                m.decisions
            )?;
            s.record(v, m, target);
        }
    }
    let mut chosen = Vec::new();
    for s in &searches {
        let (spec, m) = s.chosen();
        // A measurement stopped by --max-deals before its interval was narrow
        // enough says so: its precision is not the one asked for.
        let missed = if m.ms.is_finite() && m.half <= a.precision * m.ms {
            String::new()
        } else {
            format!(
                "; the --precision target (±{}%) was missed: ±{:.1}% at --max-deals {}",
                a.precision * 100.0,
                100.0 * m.half / m.ms,
                a.max_deals
            )
        };
        writeln!(
            out,
            "calibrated: {spec}: {:.3} CPU ms per decision [{:.3}, {:.3}] (95%), sd {:.3} ms over {} deals{missed}",
            m.ms,
            m.ms - m.half,
            m.ms + m.half,
            m.sd,
            m.deals
        )?;
        chosen.push(spec);
    }
    writeln!(out, "{}", chosen.join(","))?;
    Ok(())
}
