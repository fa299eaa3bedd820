//! The directory of a sequential test (`tresillo sprt --out DIR`): `DIR/sprt.json`
//! holds the test and its state after the last look ([`SprtFile`]), and every look
//! `K` is a run directory `DIR/looks/look-K` (a shard of the run of `--max-deals`
//! deals). [`check`] is what `tresillo verify` and `report` make of it: the state
//! must parse, every look it counts must be there and whole (checked against its
//! manifest, as any run directory), and the state must be the one the looks'
//! deals give, look by look (a look deleted, a manifest lost, `sprt.json` cut
//! short or its verdict edited are all refused, naming what is wrong).

use crate::error::{Context, OnFile, Result, RunError, bail, ensure};
use crate::run::{Manifest, Missing, read_manifest, verify_run};
use std::path::{Path, PathBuf};
use tresillo_sim::book::DealBook;
use tresillo_sim::sequential::{Differences, SprtSettings, SprtState, Test, Verdict};
use tresillo_sim::{Shard, TournamentConfig};

/// The file of a sequential test's state in its directory.
pub const SPRT_JSON: &str = "sprt.json";

/// What `sprt.json` holds: the test as it stands after the last look.
#[derive(serde::Serialize, serde::Deserialize, PartialEq, Clone, Debug)]
pub struct SprtFile {
    /// `tresillo`.
    pub tool: String,
    /// The version that wrote it.
    pub version: String,
    /// The run the looks are shards of (`max_deals` deals).
    pub config: TournamentConfig,
    /// The two slots compared, A and B.
    pub slots: (usize, usize),
    /// The probability of naming a better agent when neither is.
    pub alpha: f64,
    /// The probability of missing a difference of the margin.
    pub beta: f64,
    /// The smallest difference worth finding, in tantos per deal.
    pub margin: f64,
    /// Deals between two looks.
    pub batch: u64,
    /// Deals played so far (whole looks).
    pub deals: u64,
    /// The mean difference, A minus B.
    pub mean: f64,
    /// The log-likelihood ratios.
    pub llr: (f64, f64),
    /// The bounds: H0 (or no difference) at or below the first, H1 at or above the second.
    pub bounds: (f64, f64),
    /// `A better`, `B better`, `no difference`, `H1`, `H0` (one-sided tests), or
    /// `undecided` (still running, or at the deal limit).
    pub verdict: String,
    /// `difference`, `better`, `non-regression` or `bounds`.
    #[serde(default = "difference")]
    pub test: String,
    /// The hypotheses of B minus A (one-sided tests).
    #[serde(default)]
    pub h0: Option<f64>,
    /// See `h0`.
    #[serde(default)]
    pub h1: Option<f64>,
    /// Every deal so far gave the same difference.
    #[serde(default)]
    pub zero_variance: bool,
    /// The state after every look: deals, mean (A minus B), the two ratios.
    #[serde(default)]
    pub looks: Vec<SprtLook>,
    /// The deal book the test plays (`--deals-from`); absent on the seed's deals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_book: Option<DealBook>,
    /// The evidence so far ([`Evidence`]; absent in tests of versions before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Evidence>,
}

/// What the units so far show beside the ratios (issue 55): the deals A won,
/// drew and lost against B, the likelihood of superiority and the Elo
/// difference of those counts with its 95% interval (`pairs.csv`'s numbers for
/// the same deals; an infinite Elo end is absent).
#[derive(serde::Serialize, serde::Deserialize, PartialEq, Clone, Debug, Default)]
pub struct Evidence {
    /// Deals A won, drew and lost (its tantos above, equal to, below B's).
    pub wdl: (u64, u64, u64),
    /// The likelihood of superiority of A over B.
    pub los: f64,
    /// The Elo difference of A over B.
    pub elo: Option<f64>,
    /// Its 95% interval's lower end.
    pub elo_low: Option<f64>,
    /// Its upper end.
    pub elo_high: Option<f64>,
    /// What the look cost the two slots (from its run directory's compute.json:
    /// the same when the look is read back on `--resume`); absent when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute: Option<LookCompute>,
}

/// The compute of one look for slots A and B: their decisions and the CPU
/// seconds of those decisions (measured, so not reproducible).
#[derive(serde::Serialize, serde::Deserialize, PartialEq, Clone, Debug, Default)]
pub struct LookCompute {
    /// Decisions of A and of B.
    pub decisions: (u64, u64),
    /// CPU seconds of A's decisions and of B's.
    pub cpu_s: (f64, f64),
}

impl Evidence {
    /// The evidence of `state`, with the look's `compute` when known.
    #[must_use]
    pub fn of(state: &SprtState, compute: Option<LookCompute>) -> Evidence {
        let finite = |x: f64| x.is_finite().then_some(x);
        Evidence {
            wdl: state.wdl,
            los: state.los,
            elo: state.elo.and_then(|e| finite(e.elo)),
            elo_low: state.elo.and_then(|e| finite(e.ci95.0)),
            elo_high: state.elo.and_then(|e| finite(e.ci95.1)),
            compute,
        }
    }

    /// Whether `other` has the same counts and statistics (not the compute).
    #[must_use]
    pub fn same_statistics(&self, other: &Evidence) -> bool {
        let opt = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => same(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        self.wdl == other.wdl
            && same(self.los, other.los)
            && opt(self.elo, other.elo)
            && opt(self.elo_low, other.elo_low)
            && opt(self.elo_high, other.elo_high)
    }
}

/// What slots `slots` of the look in `look` (a complete run directory of
/// `deals` deals) spent, from its compute.json; `None` when it has none.
pub fn look_compute(look: &Path, deals: u64, slots: (usize, usize)) -> Result<Option<LookCompute>> {
    let Some(c) = crate::compute::read_compute(look, deals)? else { return Ok(None) };
    let (Some(a), Some(b)) = (c.slots.get(slots.0), c.slots.get(slots.1)) else { return Ok(None) };
    Ok(Some(LookCompute {
        decisions: (a.decisions.iter().sum(), b.decisions.iter().sum()),
        cpu_s: (a.cpu_ns as f64 / 1e9, b.cpu_ns as f64 / 1e9),
    }))
}

fn difference() -> String {
    "difference".into()
}

/// The state after one look, in `sprt.json`'s `looks`.
#[derive(serde::Serialize, serde::Deserialize, PartialEq, Clone, Debug)]
pub struct SprtLook {
    /// Deals played by then.
    pub deals: u64,
    /// The mean difference, A minus B.
    pub mean: f64,
    /// The log-likelihood ratios (test 1 and test 2; a one-sided test's in both).
    pub llr: (f64, f64),
    /// The evidence by then (absent in tests of versions before it).
    #[serde(default, flatten, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Evidence>,
}

/// The verdict as `sprt.json` writes it.
#[must_use]
pub fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::ABetter => "A better",
        Verdict::BBetter => "B better",
        Verdict::NoDifference => "no difference",
        Verdict::Undecided => "undecided",
        Verdict::AcceptH1 => "H1",
        Verdict::AcceptH0 => "H0",
    }
}

/// The directory of look `k` of the test in `dir`.
#[must_use]
pub fn look_dir(dir: &Path, k: u64) -> PathBuf {
    dir.join("looks").join(format!("look-{k:05}"))
}

impl SprtFile {
    /// Reads `DIR/sprt.json`; an error names the file (and the line).
    pub fn read(dir: &Path) -> Result<SprtFile> {
        let p = dir.join(SPRT_JSON);
        let text = std::fs::read_to_string(&p).on("reading", &p)?;
        serde_json::from_str(&text).map_err(|e| RunError::Line {
            path: p.to_path_buf(),
            line: e.line(),
            what: format!("not a tresillo sprt state ({e})"),
        })
    }

    /// The settings of the test it holds.
    pub fn settings(&self) -> Result<SprtSettings> {
        let test = match (self.test.as_str(), self.h0, self.h1) {
            ("difference", _, _) => Test::Difference,
            ("better" | "non-regression" | "bounds", Some(h0), Some(h1)) => Test::Bounds { h0, h1 },
            (t, _, _) => bail!("test {t:?} without its hypotheses h0 and h1"),
        };
        let s = SprtSettings {
            slots: self.slots,
            alpha: self.alpha,
            beta: self.beta,
            margin: self.margin,
            batch: self.batch,
            test,
        };
        s.check(self.config.players).map_err(|e| RunError::Invalid(e.to_string()))?;
        Ok(s)
    }

    /// The number of looks of the whole test (`max_deals / batch`).
    #[must_use]
    pub fn all_looks(&self) -> u64 {
        self.config.deals / self.batch.max(1)
    }

    /// The configuration of look `k`: shard `k` of the test's run.
    #[must_use]
    pub fn look_config(&self, k: u64) -> TournamentConfig {
        TournamentConfig { shard: Shard { index: k, count: self.all_looks() }, ..self.config.clone() }
    }

    /// Records the state after a look, and what the look cost (`compute`).
    pub fn record(&mut self, state: &SprtState, compute: Option<LookCompute>) {
        self.deals = state.units;
        self.mean = state.mean;
        self.llr = state.llr;
        self.bounds = state.bounds;
        self.verdict = verdict_word(state.verdict).into();
        self.zero_variance = state.zero_variance;
        let evidence = Evidence::of(state, compute);
        self.evidence = Some(Evidence { compute: None, ..evidence.clone() });
        self.looks.push(SprtLook {
            deals: state.units,
            mean: state.mean,
            llr: state.llr,
            evidence: Some(evidence),
        });
    }
}

/// Adds the units of the look in `look` (a run directory of `shard`, complete) to
/// `diffs`: the two slots' scores of each unit, per seating, from its deals.csv.
pub fn push_look(
    diffs: &mut Differences,
    look: &Path,
    shard: &TournamentConfig,
    slots: (usize, usize),
) -> Result<()> {
    let seatings = shard.seatings().len() as f64;
    for t in crate::pairs::unit_totals(&look.join("deals.csv"), shard)?.values() {
        diffs.push(t[slots.0] as f64 / seatings, t[slots.1] as f64 / seatings);
    }
    Ok(())
}

/// Whether two numbers of a state are the same (written to JSON and read back).
fn same(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

/// What [`check`] found in a sequential test's directory.
#[derive(Debug)]
pub struct Checked {
    /// Its state.
    pub file: SprtFile,
    /// The looks it counts (all there and whole).
    pub looks: u64,
    /// The files checked by checksum (of the looks).
    pub files: usize,
}

/// Checks the sequential test in `dir` (see the module's documentation); errors
/// name the first thing wrong.
pub fn check(dir: &Path) -> Result<Checked> {
    let file = SprtFile::read(dir)?;
    let p = dir.join(SPRT_JSON);
    let settings = file.settings().with_context(|| format!("{}: not a valid test", p.display()))?;
    let batch = file.batch;
    ensure!(
        file.config.deals.is_multiple_of(batch) && file.deals.is_multiple_of(batch),
        "{}: {} deals and --max-deals {} are not whole looks of {batch} deals",
        p.display(),
        file.deals,
        file.config.deals
    );
    let counted = file.deals / batch;
    ensure!(
        counted <= file.all_looks() && file.looks.len() as u64 == counted,
        "{}: {} deals in looks of {batch}, but {} looks recorded",
        p.display(),
        file.deals,
        file.looks.len()
    );
    let looks = dir.join("looks");
    if counted > 0 && !looks.is_dir() {
        bail!("{}: missing, though {} counts {counted} looks", looks.display(), p.display());
    }
    let mut diffs = Differences::default();
    let mut state = diffs.look(&settings);
    let mut files = 0;
    for k in 0..counted {
        let l = look_dir(dir, k);
        let m = look_manifest(&l, &p, counted)?;
        let shard = file.look_config(k);
        ensure!(m.complete, "{}: not complete, though {} counts it", l.display(), p.display());
        ensure!(
            m.config == shard,
            "{}: not look {k} of the test in {} (another configuration)",
            l.display(),
            p.display()
        );
        files += verify_run(&l, &m, Missing::Refused)?;
        push_look(&mut diffs, &l, &shard, file.slots)?;
        state = diffs.look(&settings);
        let kept = &file.looks[k as usize];
        let decided_early = k + 1 < counted && state.verdict != Verdict::Undecided;
        if let Some(e) = &kept.evidence
            && !e.same_statistics(&Evidence::of(&state, None))
        {
            let got = Evidence::of(&state, None);
            bail!(
                "{}: look {k} records W/D/L {}/{}/{} and LOS {:.4}, but its deals give W/D/L {}/{}/{} and LOS {:.4} \
                 (edited, or written by a version with other statistics)",
                p.display(),
                e.wdl.0,
                e.wdl.1,
                e.wdl.2,
                e.los,
                got.wdl.0,
                got.wdl.1,
                got.wdl.2,
                got.los
            );
        }
        if kept.deals != state.units
            || !same(kept.mean, state.mean)
            || !same(kept.llr.0, state.llr.0)
            || !same(kept.llr.1, state.llr.1)
            || decided_early
        {
            bail!(
                "{}: look {k} records {} deals, mean {:+.4}, ratios {:+.3} / {:+.3}, but its deals give {} deals, \
                 mean {:+.4}, ratios {:+.3} / {:+.3}{} (edited, or written by a version with other statistics)",
                p.display(),
                kept.deals,
                kept.mean,
                kept.llr.0,
                kept.llr.1,
                state.units,
                state.mean,
                state.llr.0,
                state.llr.1,
                if decided_early { ", a verdict the test did not stop at" } else { "" }
            );
        }
    }
    let word = verdict_word(state.verdict);
    if let Some(e) = &file.evidence {
        ensure!(
            e.same_statistics(&Evidence::of(&state, None)),
            "{}: its evidence (W/D/L {}/{}/{}, LOS {:.4}) is not what the deals of its {counted} looks give \
             (edited, or written by a version with other statistics)",
            p.display(),
            e.wdl.0,
            e.wdl.1,
            e.wdl.2,
            e.los
        );
    }
    ensure!(
        file.verdict == word
            && same(file.mean, state.mean)
            && same(file.llr.0, state.llr.0)
            && same(file.llr.1, state.llr.1)
            && same(file.bounds.0, state.bounds.0)
            && same(file.bounds.1, state.bounds.1)
            && file.zero_variance == state.zero_variance,
        "{}: says {:?} (mean {:+.4}, ratios {:+.3} / {:+.3}), but the deals of its {counted} looks give {word:?} \
         (mean {:+.4}, ratios {:+.3} / {:+.3}): edited, or written by a version with other statistics",
        p.display(),
        file.verdict,
        file.mean,
        file.llr.0,
        file.llr.1,
        state.mean,
        state.llr.0,
        state.llr.1,
    );
    // A look past the last counted one is a kill's (played before sprt.json
    // counted it, or interrupted): it must be whole so far; none past that.
    if looks.is_dir() {
        for e in std::fs::read_dir(&looks).on("reading", &looks)? {
            let l = e.on("reading", &looks)?.path();
            let name = l.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let k = name.strip_prefix("look-").and_then(|n| n.parse::<u64>().ok());
            match k {
                Some(k) if k < counted => {}
                Some(k) if k == counted && state.verdict == Verdict::Undecided && k < file.all_looks() => {
                    if l.join("manifest.json").is_file() {
                        let m = read_manifest(&l)?;
                        ensure!(
                            m.config == file.look_config(k),
                            "{}: not look {k} of the test in {} (another configuration)",
                            l.display(),
                            p.display()
                        );
                        files += verify_run(&l, &m, Missing::Refused)?;
                    }
                }
                _ => bail!("{}: not a look {} counts (it counts {counted})", l.display(), p.display()),
            }
        }
    }
    Ok(Checked { file, looks: counted, files })
}

/// The manifest of a look `sprt.json` (`p`) counts; refused, naming it, when missing.
fn look_manifest(l: &Path, p: &Path, counted: u64) -> Result<Manifest> {
    if !l.is_dir() {
        bail!("{}: missing, though {} counts {counted} looks", l.display(), p.display());
    }
    if !l.join("manifest.json").is_file() {
        bail!("{}: no manifest.json, though {} counts this look", l.display(), p.display());
    }
    read_manifest(l)
}
