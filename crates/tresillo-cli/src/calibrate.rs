//! `tresillo calibrate`: the amount of work (`worlds` of `pimc`, `iters` of
//! `ismcts`) whose median card decision takes a given time on this machine, so
//! that an equal-time experiment can be written down as reproducible specs.

use anyhow::{Result, bail};
use std::io::Write;
use std::time::Instant;
use tresillo_agents::{Agent, rng_from_seed};
use tresillo_core::PlayerView;

/// Arguments of `tresillo calibrate`.
#[derive(clap::Args)]
pub struct CalibrateArgs {
    /// The agent spec to calibrate: `pimc` or `ismcts`, with any parameters but
    /// the amount of work (`worlds`, `iters`, `ms`).
    #[arg(long)]
    pub spec: String,
    /// The target: milliseconds per card decision (the median).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=3_600_000))]
    pub ms: u32,
    /// Positions to time at each amount (the first card of rule-agent hands).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub n: u32,
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

/// The median milliseconds of `spec`'s decisions on `views`, one thread.
fn median_ms(spec: &str, views: &[PlayerView]) -> Result<f64> {
    let mut agent = crate::registry().build_agent(spec)?;
    let mut rng = rng_from_seed(5);
    let mut ms: Vec<f64> = views
        .iter()
        .map(|v| {
            agent.new_hand();
            let t = Instant::now();
            std::hint::black_box(agent.decide(std::hint::black_box(v), &mut rng));
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    Ok(ms[ms.len() / 2])
}

/// Runs `tresillo calibrate`: doubles the amount of work until the median card
/// decision reaches the target, then bisects (to within 5%); prints each
/// measurement, then the spec whose median is nearest the target, alone on the
/// last line.
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
    crate::registry().build_agent(spec)?;
    let rules = a.rules.parse()?;
    let players = a.rules.players()?;
    let views = crate::bench::first_card_views(rules, players, a.n as usize)?;
    let target = f64::from(a.ms);
    writeln!(
        out,
        "calibrate `{spec}` to {} ms per card decision (median of {} first-card decisions of {rules} at \
         {players} players, one thread as in a tournament's worker)",
        a.ms,
        views.len()
    )?;
    // One worker thread, as a tournament's: pimc's `threads=0` then takes one.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let mut measure = |v: u64| -> Result<f64> {
        let s = format!("{spec}:{param}={v}");
        let m = pool.install(|| median_ms(&s, &views))?;
        writeln!(out, "{param}={v}: {m:.3} ms")?;
        Ok(m)
    };
    // Doubling: `lo` below the target (or 1), `hi` at or above it.
    let (mut lo, mut lo_ms) = (1u64, measure(1)?);
    if lo_ms >= target {
        writeln!(out, "{spec}:{param}=1")?;
        return Ok(());
    }
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
    let best = if (hi_ms - target).abs() < (target - lo_ms).abs() { hi } else { lo };
    writeln!(out, "{spec}:{param}={best}")?;
    Ok(())
}
