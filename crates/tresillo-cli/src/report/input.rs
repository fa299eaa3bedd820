//! Reading the runs a report draws: tournament directories (`manifest.json`,
//! `summary.csv`, and `deals.csv` when present) and tuning runs (a candidates CSV
//! and its `.manifest.json`). Every error names the file, and the line where there
//! is one.

use crate::tournament::Manifest;
use anyhow::{Context, Result, bail, ensure};
use serde::Deserialize;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use tresillo_sim::SummaryRow;

/// One run given on the command line.
pub enum Run {
    /// A tournament directory.
    Tournament(TournamentRun),
    /// A tuning run.
    Tune(TuneRun),
}

impl Run {
    /// Its short name.
    pub fn label(&self) -> &str {
        match self {
            Run::Tournament(t) => &t.label,
            Run::Tune(t) => &t.label,
        }
    }

    /// Names runs that share a short name by their paths instead.
    pub fn disambiguate(runs: &mut [Run]) {
        let labels: Vec<String> = runs.iter().map(|r| r.label().to_string()).collect();
        for r in runs.iter_mut() {
            if labels.iter().filter(|l| l.as_str() == r.label()).count() > 1 {
                match r {
                    Run::Tournament(t) => t.label = t.path.display().to_string(),
                    Run::Tune(t) => t.label = t.path.display().to_string(),
                }
            }
        }
    }
}

/// Finds and reads the run at `path`: a tournament directory, a directory holding
/// one tuning run, or a tuning run's CSV.
pub fn load(path: &Path) -> Result<Run> {
    if path.is_file() {
        let manifest = tune_manifest_path(path);
        ensure!(
            manifest.is_file(),
            "{}: not a run directory, and not a tuning CSV ({} is missing)",
            path.display(),
            manifest.display()
        );
        return Ok(Run::Tune(TuneRun::load(path, &manifest)?));
    }
    ensure!(path.is_dir(), "{}: no such file or directory", path.display());
    if path.join("manifest.json").is_file() {
        return Ok(Run::Tournament(TournamentRun::load(path)?));
    }
    let mut manifests = Vec::new();
    for entry in fs::read_dir(path).with_context(|| format!("reading {}", path.display()))? {
        let p = entry?.path();
        if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".manifest.json")) {
            manifests.push(p);
        }
    }
    manifests.sort();
    match &manifests[..] {
        [m] => {
            let name = m.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let csv = m.with_file_name(format!("{}.csv", name.trim_end_matches(".manifest.json")));
            ensure!(csv.is_file(), "{}: its candidates file {} is missing", m.display(), csv.display());
            Ok(Run::Tune(TuneRun::load(&csv, m)?))
        }
        [] => bail!(
            "{}: not a run directory (no manifest.json of a tournament, no *.manifest.json of a tuning run)",
            path.display()
        ),
        _ => bail!(
            "{}: holds several tuning runs ({}); name the CSV of one",
            path.display(),
            manifests.iter().filter_map(|m| m.file_name()?.to_str()).collect::<Vec<_>>().join(", ")
        ),
    }
}

fn tune_manifest_path(csv: &Path) -> PathBuf {
    let stem = csv.file_stem().map_or_else(|| "tune".into(), |s| s.to_string_lossy().into_owned());
    csv.with_file_name(format!("{stem}.manifest.json"))
}

/// A short name for a run: its directory's (or file's) name.
fn label_of(path: &Path) -> String {
    let p = if path.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".csv")) {
        path.parent().filter(|d| d.file_name().is_some()).unwrap_or(path)
    } else {
        path
    };
    p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

fn csv_error(file: &Path, e: &csv::Error) -> anyhow::Error {
    match e.position() {
        Some(p) => anyhow::anyhow!("{} line {}: {}", file.display(), p.line(), e.kind_message()),
        None => anyhow::anyhow!("{}: {e}", file.display()),
    }
}

/// The message of a CSV error without the position csv puts in its own text.
trait KindMessage {
    fn kind_message(&self) -> String;
}

impl KindMessage for csv::Error {
    fn kind_message(&self) -> String {
        match self.kind() {
            csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
                format!("{len} fields where the header has {expected_len}")
            }
            csv::ErrorKind::Deserialize { err, .. } => match err.field() {
                Some(f) => format!("field {}: {}", f + 1, err.kind()),
                None => err.kind().to_string(),
            },
            csv::ErrorKind::Utf8 { err, .. } => format!("invalid UTF-8 in field {}", err.field() + 1),
            _ => self.to_string(),
        }
    }
}

/// One row of `summary.csv`, as written, with its line number.
pub struct Summary {
    /// The fields in the order of [`SummaryRow::header`].
    pub fields: Vec<String>,
}

impl Summary {
    /// The field of column `name` (a column of [`SummaryRow::header`]).
    pub fn get(&self, name: &str) -> &str {
        let i = SummaryRow::header().iter().position(|h| *h == name).expect("a summary column");
        &self.fields[i]
    }

    /// The field of column `name` as a number, if it has one.
    pub fn num(&self, name: &str) -> Option<f64> {
        self.get(name).parse().ok()
    }
}

/// Per-agent-slot counts from `deals.csv`, for the hands the slot declared (the
/// original declarer) and, for takeovers, the hands it defended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlotDeals {
    /// Hands declared and played (not cancelled), per contract.
    pub declared: [u64; 3],
    /// Tricks the declarer won, 0 to 9, over those hands.
    pub tricks: [u64; 10],
    /// Outcome per contract, from the original declarer's side, in the order of
    /// [`MIX`].
    pub mix: [[u64; 7]; 3],
    /// Hands stopped with primeras.
    pub primeras: u64,
    /// Hands played on for the bola.
    pub bola_tried: u64,
    /// Of which made.
    pub bola_made: u64,
    /// Hands it gave up.
    pub surrendered: u64,
    /// Hands given up by a declarer while this slot defended.
    pub offered: u64,
    /// Of which it took over.
    pub took_over: u64,
}

/// The outcome kinds of [`SlotDeals::mix`].
pub const MIX: [&str; 7] = [
    "sacado",
    "puesta (plain)",
    "puesta sabia (3-3-3)",
    "puesta real (1-4-4)",
    "given up",
    "given up, taken over",
    "codillo",
];

/// The contracts, in the order of the summary's columns.
pub const CONTRACTS: [&str; 3] = ["entrada", "vuelta", "solo"];

#[derive(Deserialize)]
struct DealRecord {
    seating: String,
    contract: String,
    declarer: Option<u8>,
    tricks0: u8,
    tricks1: u8,
    tricks2: u8,
    outcome: String,
    puesta_kind: String,
    surrendered: Option<u8>,
    took_over: Option<u8>,
    primeras: u8,
    bola: String,
}

/// Reads `deals.csv` into per-slot counts.
fn read_deals(path: &Path) -> Result<[SlotDeals; 3]> {
    let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut r = csv::Reader::from_reader(std::io::BufReader::with_capacity(1 << 20, file));
    let mut slots: [SlotDeals; 3] = Default::default();
    let mut record = csv::StringRecord::new();
    let headers = r.headers().map_err(|e| csv_error(path, &e))?.clone();
    loop {
        match r.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => return Err(csv_error(path, &e)),
        }
        let line = record.position().map_or(0, csv::Position::line);
        let d: DealRecord = record.deserialize(Some(&headers)).map_err(|e| csv_error(path, &e))?;
        let bad = |what: &str| anyhow::anyhow!("{} line {line}: {what}", path.display());
        let seating: Vec<usize> = d.seating.bytes().map(|b| b.wrapping_sub(b'0') as usize).collect();
        let mut sorted = seating.clone();
        sorted.sort_unstable();
        if sorted == [0, 1, 2, 3] {
            return Err(bad(
                "a four-player run (RULES.md section 12.2): the report charts three-player runs only",
            ));
        }
        if sorted != [0, 1, 2] {
            return Err(bad(&format!("seating {:?} is not an order of the slots 0, 1, 2", d.seating)));
        }
        let (Some(decl), Some(c)) = (d.declarer, CONTRACTS.iter().position(|c| *c == d.contract)) else {
            // Cancelled hands, and `hombre`'s contrabola (outside the per-contract
            // charts, as in summary.csv).
            if d.contract.is_empty() || d.contract == "contrabola" {
                continue;
            }
            return Err(bad(&format!("contract {:?} without a declarer, or unknown", d.contract)));
        };
        let tricks = [d.tricks0, d.tricks1, d.tricks2];
        let seat = decl as usize;
        if seat > 2 || tricks.iter().map(|t| *t as u32).sum::<u32>() > 9 {
            return Err(bad("declarer seat or tricks out of range"));
        }
        let s = &mut slots[seating[seat]];
        s.declared[c] += 1;
        s.tricks[tricks[seat] as usize] += 1;
        s.primeras += u64::from(d.primeras);
        s.bola_tried += u64::from(!d.bola.is_empty());
        s.bola_made += u64::from(d.bola == "made");
        let kind = match (d.took_over, d.outcome.as_str(), d.puesta_kind.as_str()) {
            (Some(_), _, _) => 5,
            (None, "sacado", _) => 0,
            (None, "codillo", _) => 6,
            (None, "puesta", "plain") => 1,
            (None, "puesta", "sabia") => 2,
            (None, "puesta", "real") => 3,
            (None, "puesta", "surrendered") => 4,
            (None, o, k) => return Err(bad(&format!("outcome {o:?} with puesta kind {k:?}"))),
        };
        s.mix[c][kind] += 1;
        if d.surrendered.is_some() {
            s.surrendered += 1;
            for (other, slot) in seating.iter().enumerate() {
                if other != seat {
                    slots[*slot].offered += 1;
                    slots[*slot].took_over += u64::from(d.took_over == Some(other as u8));
                }
            }
        }
    }
    Ok(slots)
}

/// A tournament directory.
pub struct TournamentRun {
    /// As given on the command line.
    pub path: PathBuf,
    /// Its short name.
    pub label: String,
    /// `manifest.json`.
    pub manifest: Manifest,
    /// `summary.csv`, row by row.
    pub summary: Vec<Summary>,
    /// From `deals.csv`, when the directory has it.
    pub deals: Option<Box<[SlotDeals; 3]>>,
}

impl TournamentRun {
    fn load(dir: &Path) -> Result<TournamentRun> {
        let mp = dir.join("manifest.json");
        let text = fs::read_to_string(&mp).with_context(|| format!("reading {}", mp.display()))?;
        let manifest: Manifest = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a tresillo manifest", mp.display()))?;
        let sp = dir.join("summary.csv");
        ensure!(
            sp.is_file(),
            "{}: missing; the run is {} (finish it with `tresillo tournament --resume`)",
            sp.display(),
            if manifest.complete { "marked complete but has no summary" } else { "not complete" }
        );
        let summary = read_summary(&sp)?;
        let agents = &manifest.config.agents;
        ensure!(
            summary.len() == 3 * agents.len() + 1,
            "{}: {} rows, but its manifest names {} agents (expected {})",
            sp.display(),
            summary.len(),
            agents.len(),
            3 * agents.len() + 1
        );
        let dp = dir.join("deals.csv");
        let deals = if dp.is_file() && manifest.complete { Some(Box::new(read_deals(&dp)?)) } else { None };
        Ok(TournamentRun { path: dir.to_path_buf(), label: label_of(dir), manifest, summary, deals })
    }

    /// The summary rows of the agents for role `all`, in slot order.
    pub fn agent_rows(&self) -> impl Iterator<Item = &Summary> {
        self.summary.iter().filter(|r| r.get("role") == "all" && r.get("agent") != "all")
    }

    /// The summary row of `agent` (`slot:spec`) in `role`.
    pub fn row(&self, agent: &str, role: &str) -> Option<&Summary> {
        self.summary.iter().find(|r| r.get("agent") == agent && r.get("role") == role)
    }
}

fn read_summary(path: &Path) -> Result<Vec<Summary>> {
    let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(file);
    let header = SummaryRow::header();
    let mut out = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| csv_error(path, &e))?;
        let line = rec.position().map_or(i as u64 + 1, csv::Position::line);
        if i == 0 {
            ensure!(
                rec.iter().eq(header.iter().copied()),
                "{} line 1: not the header of a summary.csv (expected {})",
                path.display(),
                header.join(",")
            );
            continue;
        }
        ensure!(
            rec.len() == header.len(),
            "{} line {line}: {} fields where the header has {}",
            path.display(),
            rec.len(),
            header.len()
        );
        for (k, f) in rec.iter().enumerate().skip(2) {
            ensure!(
                f.is_empty() || f.parse::<f64>().is_ok_and(f64::is_finite),
                "{} line {line}: column {}: {f:?} is not a number",
                path.display(),
                header[k]
            );
        }
        let role = &rec[1];
        ensure!(
            ["all", "declarer", "opponent"].contains(&role),
            "{} line {line}: role {role:?} is not all, declarer or opponent",
            path.display()
        );
        out.push(Summary { fields: rec.iter().map(str::to_string).collect() });
    }
    ensure!(!out.is_empty(), "{}: no rows", path.display());
    Ok(out)
}

/// The manifest of a tuning run (the fields a report shows).
#[derive(Deserialize)]
pub struct TuneManifest {
    /// The tool's version.
    pub version: String,
    /// The command line.
    pub command_line: Vec<String>,
    /// The tuned agent.
    pub agent: String,
    /// The parameters and their values.
    pub params: Vec<TuneParam>,
    /// The start spec.
    pub start: String,
    /// `coordinate` or `grid`.
    pub method: String,
    /// The opponents.
    pub opponents: Vec<String>,
    /// Deals per candidate.
    pub deals: u64,
    /// The master seed.
    pub seed: u64,
    /// The rule set.
    pub rules: String,
    /// The scoring.
    pub scoring: String,
    /// Candidates evaluated.
    pub evaluations: usize,
    /// Coordinate rounds.
    pub rounds: u32,
    /// Whether the search converged.
    pub converged: bool,
    /// The best candidate.
    pub best: TuneBest,
}

/// A tuned parameter.
#[derive(Deserialize)]
pub struct TuneParam {
    /// Its name.
    pub name: String,
    /// Its values, in order.
    pub values: Vec<String>,
}

/// The best candidate, as the manifest records it.
#[derive(Deserialize)]
pub struct TuneBest {
    /// Its spec.
    pub spec: String,
}

/// One row of a candidates CSV.
pub struct Candidate {
    /// The fields as written.
    pub fields: Vec<String>,
    /// The tuned parameters' values.
    pub values: Vec<String>,
    /// Mean tantos and its interval.
    pub mean: f64,
    /// Low end.
    pub low: f64,
    /// High end.
    pub high: f64,
}

/// A tuning run.
pub struct TuneRun {
    /// The candidates CSV.
    pub path: PathBuf,
    /// Its short name.
    pub label: String,
    /// Its manifest.
    pub manifest: TuneManifest,
    /// The CSV's header.
    pub header: Vec<String>,
    /// Its candidates, in order.
    pub candidates: Vec<Candidate>,
}

impl TuneRun {
    fn load(csv_path: &Path, manifest_path: &Path) -> Result<TuneRun> {
        let text = fs::read_to_string(manifest_path)
            .with_context(|| format!("reading {}", manifest_path.display()))?;
        let manifest: TuneManifest = serde_json::from_str(&text)
            .with_context(|| format!("{}: not the manifest of a tuning run", manifest_path.display()))?;
        let file = File::open(csv_path).with_context(|| format!("reading {}", csv_path.display()))?;
        let mut r = csv::Reader::from_reader(file);
        let header: Vec<String> =
            r.headers().map_err(|e| csv_error(csv_path, &e))?.iter().map(str::to_string).collect();
        let k = manifest.params.len();
        let mut expected = vec!["spec".to_string()];
        expected.extend(manifest.params.iter().map(|p| p.name.clone()));
        expected.extend(["mean_tantos", "ci95_low", "ci95_high"].map(String::from));
        ensure!(
            header.len() > k + 3 && header[..k + 4] == expected[..],
            "{} line 1: the header does not begin with {} (the parameters of {})",
            csv_path.display(),
            expected.join(","),
            manifest_path.display()
        );
        let mut candidates = Vec::new();
        for rec in r.records() {
            let rec = rec.map_err(|e| csv_error(csv_path, &e))?;
            let line = rec.position().map_or(0, csv::Position::line);
            let num = |i: usize| -> Result<f64> {
                rec[i].parse::<f64>().ok().filter(|x| x.is_finite()).with_context(|| {
                    format!(
                        "{} line {line}: column {}: {:?} is not a number",
                        csv_path.display(),
                        header[i],
                        &rec[i]
                    )
                })
            };
            candidates.push(Candidate {
                values: rec.iter().skip(1).take(k).map(str::to_string).collect(),
                mean: num(k + 1)?,
                low: num(k + 2)?,
                high: num(k + 3)?,
                fields: rec.iter().map(str::to_string).collect(),
            });
        }
        ensure!(!candidates.is_empty(), "{}: no candidates", csv_path.display());
        ensure!(
            candidates.iter().any(|c| c.fields[0] == manifest.best.spec),
            "{}: its best spec {} is not in {}",
            manifest_path.display(),
            manifest.best.spec,
            csv_path.display()
        );
        Ok(TuneRun { path: csv_path.to_path_buf(), label: label_of(csv_path), manifest, header, candidates })
    }

    /// The best candidate.
    pub fn best(&self) -> &Candidate {
        self.candidates.iter().find(|c| c.fields[0] == self.manifest.best.spec).expect("checked on load")
    }
}
