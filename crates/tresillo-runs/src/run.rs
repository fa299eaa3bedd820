//! Run directories: a tournament written to disk with checkpoints, resume and
//! progress, and the merge of shards (what `tresillo tournament` and `tresillo
//! merge` do).
//!
//! A run directory holds `deals.csv` (rows in deal order), `stats.json` (the counts
//! and sums so far), `compute.json` (what each agent spent so far, see
//! [`crate::compute`]), `manifest.json` (configuration and progress) and, once
//! complete, `summary.csv`, `pairs.csv`, `compute.csv` and `forfeits.csv`. After every batch (sized by time, see `Batches`) the
//! rows are appended, then the statistics (first as `stats.next.json`) and
//! `manifest.json` are replaced atomically, so an interrupted run loses at most the
//! few seconds of batches in flight; `--resume`
//! truncates `deals.csv` to the length the manifest records, takes the statistics
//! of exactly the deals it counts, and carries on.
//!
//! One process writes a run directory at a time: a writer holds an exclusive
//! advisory lock on `DIR/run.lock` (which names its pid) for the whole run, released
//! by the operating system however the process ends; `merge` holds a shared lock on
//! each input, so no writer starts while it reads. Merged outputs, and the results
//! of `tresillo run`, are written under temporary names and renamed into place only
//! when complete.
//!
//! Also here: `run_book` (a run on a deal book, kept in the manifest's `deal_book`;
//! resume and merge keep it) and `read_book`; progress lines where stderr is no
//! terminal (every `TRESILLO_PROGRESS_EVERY` seconds: deals, rate, ETA, slots 0-1's
//! running paired score), a progress bar where it is (the one output of this library,
//! ARCHITECTURE.md "Library code that prints"); the manifest's `time_budget` (the
//! agents on a clock); `RunOptions` (out, threads, resume, force, record, progress,
//! build, registry, notes), `run` and `run_experiment` (checkpoints, resume,
//! `DIR.partial` replacement, records), the merge of shards, the run lock, `Manifest`,
//! `check_deals_size` and the summary table.
//!
//! **No finished work is lost.** Rows are appended, then the stats (first as
//! `stats.next.json`) and the manifest are replaced atomically and the stats renamed
//! into place; `--resume` truncates `deals.csv` (and the `--record` file) to the
//! checkpointed length and takes the stats file that counts exactly the manifest's
//! deals (a kill between the two files once double-counted a batch). Batches are sized
//! by time (`tresillo_runs` run.rs `Batches`): one unit per thread first, then about 3
//! s at the measured speed (at most 4x growth, at most ~16k rows), so a kill loses
//! seconds even with a slow agent; the progress bar counts units as they finish. Batch
//! boundaries change no byte (rows in unit order); `TRESILLO_BATCH_UNITS=N` forces
//! fixed batches and `TRESILLO_ABORT_AFTER_CHECKPOINTS=N` aborts after N checkpoints,
//! for the tests that check this (`tournament_cli`). A `deals.csv` whose size disagrees
//! with the manifest's `csv_bytes` (shorter, or any other size once complete) is
//! refused by `--resume`, `merge`, `report` and `scripts/analyze.py`, never read as the
//! run.
//!
//! **A complete manifest is the last word.** Everything a complete run holds is in
//! place before its manifest says `complete` (`play` writes the summary files, then the
//! final checkpoint); `publish` (a replacement's move into `DIR`, and `merge`'s)
//! removes the old manifest first, moves the files, the manifest last, and can be done
//! again after a kill (a file no longer at its source was moved). Every change of a run
//! directory's files passes `tresillo_runs::write_point`, where
//! `TRESILLO_ABORT_AFTER_WRITES=N` aborts after the N-th: `tests/cli/atomic_cli.rs`
//! walks every point of a tournament (csv, both), a replacement and a `run` and
//! compares the resumed run byte for byte. `complete_run` rebuilds the derived files of
//! a complete run that lacks them; `missing_files` names them for `report`. Commands
//! outside tresillo-runs that write run files (`tune`, `sprt`) can call `write_point`
//! at their own writes to join the walk.
//!
//! **Records stay outside the run.** `--record FILE` (and an experiment's `record`) is
//! refused inside `DIR` or `DIR.partial`, comparing resolved paths.
//!
//! **One writer per run directory.** `tournament` (and `run`, on its `OUT` and
//! `OUT.partial`) holds an exclusive `flock`-style lock on `DIR/run.lock`, with its pid
//! in the file, for the whole run (`std::fs::File::try_lock`, Rust 1.89); `merge` holds
//! shared locks on its inputs; `tune` locks `OUT.lock` beside its CSV the same way
//! (`tresillo_runs::lock_file`). Outputs that replace earlier ones (`tournament
//! --force` and its `--record` file, `merge`, the results of `run`, tune CSVs) are
//! written under temporary names (`.partial`) and renamed into place only when
//! complete. `merge` compares canonical paths so that its output is never an input,
//! inside one, or around one.

use crate::Build;
use crate::compute::{COMPUTE_CSV, COMPUTE_JSON, COMPUTE_NEXT, FORFEITS_CSV, read_compute};
use crate::error::{Context, Interrupted, OnFile, Result, RunError, bail, ensure, invalid};
use crate::parquet::{DEALS_PARQUET, Format, PARTS_DIR, RowBuilder};
use crate::threads::check_threads;
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{IsTerminal, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tresillo_agents::Registry;
use tresillo_bots::BotIdentity;
use tresillo_durable::{self as durable, write_point};
use tresillo_sim::book::DealBook;
use tresillo_sim::{AgentSlots, Compute, DealRow, Stats, SummaryRow, Tournament, TournamentConfig};

/// How a tournament is written to its run directory (the configuration itself is a
/// [`TournamentConfig`]).
#[derive(Clone)]
pub struct RunOptions<'a> {
    /// The run directory.
    pub out: PathBuf,
    /// Worker threads (`None`: all cores). The output does not depend on it.
    pub threads: Option<usize>,
    /// Continue the interrupted run in `out`.
    pub resume: bool,
    /// Replace a run already in `out` (the old one stays whole until the new one
    /// is complete).
    pub force: bool,
    /// Also write every hand played to this file as JSON Lines (docs/RECORDS.md).
    pub record: Option<PathBuf>,
    /// Show progress on standard error: a bar when it is a terminal; otherwise
    /// (a log file, nohup, SLURM, CI) one line through `note` every
    /// [`progress_every`] seconds: deals done, rate, ETA and the running paired
    /// difference of slots 0 and 1. `false` (`--quiet`): nothing.
    pub progress: bool,
    /// The build recorded in the manifest (`None`: none recorded).
    pub build: Option<Build>,
    /// The registry the agent specs are built from (the built-in agents, and any
    /// the caller registered).
    pub registry: Registry,
    /// Receives each note for the user (one line, no newline), as it happens.
    pub note: &'a (dyn Fn(&str) + Sync),
    /// Which files hold the rows: `deals.csv`, `deals.parquet` or both.
    pub format: Format,
    /// The external bots of the run ([`tresillo_bots::identities`]), recorded in
    /// the manifest; `--resume` refuses a run whose bots are not these.
    pub bots: Vec<BotIdentity>,
}

impl RunOptions<'_> {
    /// Options for `out`: no resume, no force, no record, no progress bar, no
    /// build, the built-in agents, notes dropped.
    #[must_use]
    pub fn new(out: impl Into<PathBuf>) -> RunOptions<'static> {
        RunOptions {
            out: out.into(),
            threads: None,
            resume: false,
            force: false,
            record: None,
            progress: false,
            build: None,
            registry: Registry::builtin(),
            note: &|_| {},
            format: Format::Csv,
            bots: Vec::new(),
        }
    }
}

/// Seconds between two progress lines when standard error is not a terminal:
/// `TRESILLO_PROGRESS_EVERY` (0: a line at every checkpoint), 30 by default.
#[must_use]
pub fn progress_every() -> f64 {
    std::env::var("TRESILLO_PROGRESS_EVERY").ok().and_then(|v| v.trim().parse::<f64>().ok()).unwrap_or(30.0)
}

/// The running score of slots 0 and 1 for the progress lines: per scoring
/// unit, slot 0's tantos minus slot 1's (integers, summed over the seatings).
#[derive(Default)]
struct Running {
    diff: tresillo_sim::Moments,
    wdl: [u64; 3],
}

impl Running {
    fn add(&mut self, s: &Stats) {
        if let (Some(a), Some(b)) = (s.agents.first(), s.agents.get(1)) {
            let d = a.units.sum - b.units.sum;
            self.diff.add(d);
            self.wdl[usize::from(d <= 0) + usize::from(d < 0)] += 1;
        }
    }

    /// `0:A - 1:B +m [lo, hi] tantos per deal, W/D/L w/d/l` (Student's t).
    fn line(&self, config: &TournamentConfig, rows_per_unit: u64) -> String {
        let name = |k: usize| config.agents.get(k).map_or("?", String::as_str);
        let ci = match self.diff.mean_ci(rows_per_unit as f64) {
            Some((m, h)) if h.is_finite() => format!("{m:+.4} [{:+.4}, {:+.4}]", m - h, m + h),
            Some((m, _)) => format!("{m:+.4}"),
            None => "-".into(),
        };
        format!(
            "0:{} - 1:{} {ci} tantos per deal, W/D/L {}/{}/{}",
            name(0),
            name(1),
            self.wdl[0],
            self.wdl[1],
            self.wdl[2]
        )
    }
}

fn duration(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 { format!("{}h{:02}m", s / 3600, s / 60 % 60) } else { format!("{}m{:02}s", s / 60, s % 60) }
}

/// The progress and identity of a run directory.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Manifest {
    /// Always `tresillo`.
    pub tool: String,
    /// The tool's version.
    pub version: String,
    /// The build (commit) that last wrote the manifest; absent in manifests of
    /// versions before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<Build>,
    /// The command line that started (or last resumed) the run.
    pub command_line: Vec<String>,
    /// The configuration.
    pub config: TournamentConfig,
    /// The deals of this shard, `[start, end)`.
    pub deal_range: [u64; 2],
    /// Deals finished and written.
    pub deals_completed: u64,
    /// Scoring units finished and written.
    pub units_completed: u64,
    /// Bytes of `deals.csv` that hold finished rows.
    pub csv_bytes: u64,
    /// Whether the shard is finished.
    pub complete: bool,
    /// The record file (`--record`) and how much of it holds finished hands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<RecordProgress>,
    /// Which files hold the rows (absent: `csv`, the default, so that manifests
    /// of CSV runs are unchanged).
    #[serde(default, skip_serializing_if = "Format::is_csv")]
    pub format: Format,
    /// Bytes of the finished `deals.parquet` (set when a run with Parquet output
    /// completes; until then its rows are in part files, see [`crate::parquet`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parquet_bytes: Option<u64>,
    /// The agents whose decisions depend on the clock (a time budget: `ms=`
    /// of a search agent, `--ms-per-decision`): when present, the run is not
    /// reproducible (another machine, or the same one busier, plays other
    /// cards). Absent when every agent does a fixed amount of work, so that
    /// manifests of reproducible runs are unchanged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub time_budget: Vec<String>,
    /// The deal book the run plays (`--deals-from`): deal `i` is its line `i`
    /// instead of the master seed's deal `i`. Absent for runs on the seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_book: Option<DealBook>,
    /// The external bots that play (command, arguments, working directory and
    /// digests of their files), which `--resume` checks; absent when none plays.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<BotIdentity>,
    /// CRC-32 checksums (8 hex digits, as zlib computes them) of the run's files,
    /// by name ([`crate::checksum`]): while the run plays, of the committed prefix
    /// of `deals.csv`, of each Parquet part file and of the statistics the manifest
    /// counts; once complete, of every file of the run but the manifest and the
    /// measured `compute.json` and `compute.csv`. Absent in manifests of versions
    /// before checksums (nothing to verify).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub crc32: BTreeMap<String, String>,
}

/// Where a run writes its records, and the bytes of that file that hold the hands
/// of the finished deals (`--resume` truncates the file to them).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RecordProgress {
    /// The record file, as given to `--record`.
    pub path: PathBuf,
    /// Bytes holding finished hands.
    pub bytes: u64,
    /// The CRC-32 of those bytes ([`crate::checksum`]; absent before checksums).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crc32: Option<String>,
}

/// Opens the record file of a run for appending: a new run creates (or, when
/// `fresh`, truncates) it; a resumed one truncates it to its checkpoint, once the
/// bytes kept are checked against the checksum the checkpoint records. `partial`:
/// the run replaces another, and writes [`partial_record`] instead. Returns the
/// file and the checksum of the bytes it keeps.
fn open_record(progress: &RecordProgress, fresh: bool, partial: bool) -> Result<(File, u32)> {
    let file = if partial { partial_record(&progress.path) } else { progress.path.clone() };
    let p = &file;
    // A run killed after its first manifest, before it created the record file,
    // has recorded nothing: the file is created as for a new run.
    let mut crc = 0;
    let f = if fresh || (progress.bytes == 0 && !p.exists()) {
        File::create(p).on("creating", p)?
    } else {
        let f = OpenOptions::new().write(true).open(p).on("opening", p)?;
        let len = f.metadata()?.len();
        ensure!(
            len >= progress.bytes,
            "{} holds {len} bytes but its checkpoint counts {}; start the run again with --force",
            p.display(),
            progress.bytes
        );
        crc = tresillo_durable::checksum::file(p, Some(progress.bytes))?;
        if let Some(want) = &progress.crc32 {
            tresillo_durable::checksum::check(p, crc, want)?;
        }
        f.set_len(progress.bytes).with_context(|| format!("truncating {} to its checkpoint", p.display()))?;
        f
    };
    drop(f);
    let f = OpenOptions::new().append(true).open(p).on("opening", p)?;
    Ok((f, crc))
}

/// Where a run that replaces another (it plays in `DIR.partial`) writes its
/// records until it is complete: `FILE.partial`, renamed over `FILE` when the run's
/// files are moved into place, so that an earlier `FILE` stays whole until then.
pub(crate) fn partial_record(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

/// Renames `from` over `to` (a write point of [`write_point`]).
pub(crate) fn rename(from: &Path, to: &Path) -> Result<()> {
    fs::rename(from, to).on("writing", to)?;
    write_point();
    Ok(())
}

/// Removes the file `p` (a write point of [`write_point`]).
fn remove(p: &Path) -> Result<()> {
    fs::remove_file(p).on("removing", p)?;
    write_point();
    Ok(())
}

/// Records progress: the new statistics as `stats.next.json`, then `manifest.json`
/// (which names the rows of `deals.csv` that are finished), then `stats.next.json`
/// renamed over `stats.json`. A run killed at any point leaves, in one of the two
/// statistics files, the statistics of exactly the deals the manifest counts
/// ([`read_stats`] picks that one), never those of a batch the manifest does not.
///
/// The compute checkpoint goes the same way, `compute.next.json` then
/// `compute.json` ([`read_compute`] picks the one of the manifest's deals).
///
/// The manifest records the checksum of the statistics (`crc32["stats.json"]`).
fn checkpoint(
    dir: &Path,
    stats: &Stats,
    compute: &Compute,
    manifest: &mut Manifest,
    sync: bool,
) -> Result<()> {
    let write_replacing = |p: &Path, b: &[u8], sync: bool| {
        if sync { durable::write_atomic(p, b) } else { durable::write_atomic_unsynced(p, b) }
    };
    let next = dir.join(STATS_NEXT);
    let bytes = serde_json::to_string(stats)?;
    manifest.crc32.insert("stats.json".into(), tresillo_durable::checksum::of(bytes.as_bytes()));
    write_replacing(&next, bytes.as_bytes(), sync)?;
    let compute_next = dir.join(COMPUTE_NEXT);
    write_replacing(&compute_next, serde_json::to_string(compute)?.as_bytes(), sync)?;
    write_replacing(&dir.join("manifest.json"), serde_json::to_string_pretty(manifest)?.as_bytes(), sync)?;
    rename(&next, &dir.join("stats.json"))?;
    rename(&compute_next, &dir.join(COMPUTE_JSON))
}

/// The statistics written before the manifest that counts them (see [`checkpoint`]).
const STATS_NEXT: &str = "stats.next.json";

/// Reads `DIR/manifest.json`.
pub fn read_manifest(dir: &Path) -> Result<Manifest> {
    let p = dir.join("manifest.json");
    let text = fs::read_to_string(&p).on("reading", &p)?;
    serde_json::from_str(&text).with_context(|| format!("{}: not a tresillo manifest", p.display()))
}

fn read_stats_file(p: &Path) -> Result<Stats> {
    let text = fs::read_to_string(p).on("reading", p)?;
    serde_json::from_str(&text).with_context(|| format!("{}: malformed statistics", p.display()))
}

/// The statistics of the deals the manifest `m` counts: `stats.json`, or
/// `stats.next.json` when the run was killed between writing the manifest and
/// renaming it (see [`checkpoint`]); the one taken must have the checksum the
/// manifest records, when it records one.
pub(crate) fn read_stats(dir: &Path, m: &Manifest) -> Result<Stats> {
    let deals_completed = m.deals_completed;
    let stats = dir.join("stats.json");
    let next = dir.join(STATS_NEXT);
    if let Some(want) = m.crc32.get("stats.json") {
        // The file whose bytes the manifest vouches for (stats.next.json after a
        // kill between the manifest and its renaming).
        for p in [&stats, &next] {
            if p.exists()
                && tresillo_durable::checksum::parse(want) == Some(tresillo_durable::checksum::file(p, None)?)
            {
                let s = read_stats_file(p)?;
                ensure!(
                    s.deals == deals_completed,
                    "{}: the statistics count {} deals but the manifest {deals_completed}",
                    p.display(),
                    s.deals
                );
                return Ok(s);
            }
        }
    }
    // (With a checksum recorded, none matched: the file of the right count is
    // refused by its checksum, one of another count by its count.)
    let vouched = |p: &Path| {
        m.crc32.get("stats.json").map_or(Ok(()), |want| tresillo_durable::checksum::verify(p, None, want))
    };
    let s = read_stats_file(&stats)?;
    if s.deals == deals_completed {
        vouched(&stats)?;
        return Ok(s);
    }
    if next.exists() {
        let n = read_stats_file(&next)?;
        if n.deals == deals_completed {
            vouched(&next)?;
            return Ok(n);
        }
    }
    bail!(
        "{}: the statistics count {} deals but the manifest {}; start the run again with --force",
        stats.display(),
        s.deals,
        deals_completed
    )
}

/// The files of a run directory (besides its lock and its parts).
pub(crate) const RUN_FILES: [&str; 11] = [
    "manifest.json",
    "deals.csv",
    DEALS_PARQUET,
    "stats.json",
    "summary.csv",
    "pairs.csv",
    STATS_NEXT,
    COMPUTE_JSON,
    COMPUTE_NEXT,
    COMPUTE_CSV,
    FORFEITS_CSV,
];

/// The files of `dir` that hold more than a start killed before its first
/// checkpoint leaves behind (the manifest is written last: a `deals.csv` of its
/// header alone, the empty statistics and compute, an empty parts directory):
/// rows or results of a run, which `--resume` without a manifest must not replace.
fn played_files(dir: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let deals = dir.join("deals.csv");
    if let Ok(m) = fs::metadata(&deals)
        && m.len() > csv_header()?.len() as u64
    {
        out.push(format!("deals.csv of {} bytes", m.len()));
    }
    for f in [DEALS_PARQUET, "summary.csv", "pairs.csv", STATS_NEXT, COMPUTE_NEXT, COMPUTE_CSV, FORFEITS_CSV]
    {
        if dir.join(f).exists() {
            out.push(f.to_string());
        }
    }
    if fs::read_dir(dir.join(PARTS_DIR)).is_ok_and(|mut d| d.next().is_some()) {
        out.push(format!("{PARTS_DIR}/"));
    }
    Ok(out)
}

/// Refuses to touch a directory holding another run unless `force`; with `force`,
/// removes that run's files. `resume` (no manifest found) starts over only a run
/// killed before its first checkpoint: a directory whose manifest is lost but
/// whose files hold rows is refused without `force`.
fn claim_dir(dir: &Path, force: bool, resume: bool) -> Result<()> {
    if !force && !dir.join("manifest.json").exists() {
        let played = played_files(dir)?;
        if !played.is_empty() {
            bail!(
                "{} holds a run's files ({}) but no manifest.json, so it cannot be resumed{}; use --force to \
                 overwrite it",
                dir.display(),
                played.join(", "),
                if resume {
                    " (--resume starts over only a run killed before its first checkpoint)"
                } else {
                    ""
                }
            );
        }
    }
    let force = force || resume;
    let mut existing: Vec<&str> = RUN_FILES.iter().copied().filter(|f| dir.join(f).exists()).collect();
    if dir.join(PARTS_DIR).exists() {
        if !force {
            existing.push(PARTS_DIR);
        } else {
            fs::remove_dir_all(dir.join(PARTS_DIR)).on("removing", &dir.join(PARTS_DIR))?;
        }
    }
    if !existing.is_empty() {
        if !force {
            bail!(
                "{} already holds a run ({}); use --resume to continue it or --force to overwrite it",
                dir.display(),
                existing.join(", ")
            );
        }
        for f in existing.into_iter().filter(|f| *f != PARTS_DIR) {
            fs::remove_file(dir.join(f)).on("removing", &dir.join(f))?;
        }
    }
    fs::create_dir_all(dir).on("creating", dir)?;
    Ok(())
}

fn csv_header() -> Result<Vec<u8>> {
    // The header is DealRow's field names in order: serialize a default row with
    // headers on and keep the first line.
    let mut w = csv::WriterBuilder::new().has_headers(true).from_writer(Vec::new());
    w.serialize(tresillo_sim::DealRow::default())?;
    let bytes = w.into_inner().map_err(|e| RunError::Invalid(e.to_string()))?;
    let end = bytes.iter().position(|b| *b == b'\n').expect("a header line") + 1;
    Ok(bytes[..end].to_vec())
}

/// Refuses a `deals.csv` whose header is not this version's (a run started by an
/// older `tresillo`, with fewer columns): appending rows of another width to it
/// would make a file no reader accepts. `what` says what cannot be done.
fn check_csv_header(path: &Path, what: &str) -> Result<()> {
    let header = csv_header()?;
    let mut first = Vec::with_capacity(header.len());
    let f = File::open(path).on("reading", path)?;
    std::io::BufRead::read_until(&mut std::io::BufReader::new(f), b'\n', &mut first).on("reading", path)?;
    if first == header {
        return Ok(());
    }
    let mine: Vec<&str> = std::str::from_utf8(&header).unwrap_or_default().trim_end().split(',').collect();
    let text = String::from_utf8_lossy(&first);
    let theirs: Vec<&str> = text.trim_end().split(',').collect();
    let missing: Vec<&str> = mine.iter().copied().filter(|c| !theirs.contains(c)).collect();
    bail!(
        "{} line 1: not the deals.csv header of this version of tresillo{}; it cannot {what} \
         (start the run again with --force)",
        path.display(),
        if missing.is_empty() { String::new() } else { format!(" (no column {})", missing.join(", ")) }
    )
}

/// The file of a run directory's rows that readers take: `deals.csv` when it is
/// there, else `deals.parquet`.
pub fn rows_file(dir: &Path) -> PathBuf {
    let csv = dir.join("deals.csv");
    if csv.exists() { csv } else { dir.join(DEALS_PARQUET) }
}

/// The bytes of `summary.csv` and the printable table.
fn summary(config: &TournamentConfig, stats: &Stats, rows_per_unit: u64) -> Result<(Vec<u8>, String)> {
    // A spec's `name=` label, when it has one, names its slot in the table.
    let labels: Vec<String> =
        config.agents.iter().map(|s| tresillo_agents::spec_label(s).to_string()).collect();
    let rows = stats.summary(&labels, rows_per_unit);
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(SummaryRow::header())?;
    for r in &rows {
        w.write_record(r.fields())?;
    }
    let bytes = w.into_inner().map_err(|e| RunError::Invalid(e.to_string()))?;
    Ok((bytes, table(&rows)))
}

/// Writes `summary.csv` and `pairs.csv` in `dir` (and, with a compute,
/// `compute.csv` and `forfeits.csv`) and returns the printable table.
fn write_summary(
    dir: &Path,
    config: &TournamentConfig,
    stats: &Stats,
    compute: Option<&Compute>,
    rows_per_unit: u64,
) -> Result<String> {
    let (bytes, table) = summary(config, stats, rows_per_unit)?;
    durable::write_atomic(&dir.join("summary.csv"), &bytes)?;
    let pairs = write_pairs(&rows_file(dir), &dir.join("pairs.csv"), config)?;
    let compute = match compute {
        Some(c) => write_compute(|f| dir.join(f), config, c)?,
        None => String::new(),
    };
    Ok(table + &pairs + &compute)
}

/// Writes `compute.csv` and `forfeits.csv` (at `at(name)`) and returns the
/// printed compute lines.
fn write_compute(at: impl Fn(&str) -> PathBuf, config: &TournamentConfig, c: &Compute) -> Result<String> {
    durable::write_atomic(&at(COMPUTE_CSV), &crate::compute::compute_csv(config, c)?)?;
    durable::write_atomic(&at(FORFEITS_CSV), &crate::compute::forfeits_csv(c)?)?;
    Ok(crate::compute::compute_table(config, c))
}

/// Writes `pairs.csv` (at `to`) from the rows of the `deals.csv` at `from`;
/// returns its lines for the printed table.
fn write_pairs(from: &Path, to: &Path, config: &TournamentConfig) -> Result<String> {
    let p = crate::pairs::pairs(from, config)?;
    durable::write_atomic(to, &crate::pairs::csv(&p))?;
    let unit = match config.scoring.unit_len() {
        1 => "deal",
        _ => "session",
    };
    Ok(crate::pairs::table(&p, unit))
}

/// A readable table of the summary rows.
pub fn table(rows: &[SummaryRow]) -> String {
    let mut s = format!(
        "{:<28} {:<9} {:>9} {:>8} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>10} {:>21}\n",
        "agent",
        "role",
        "deals",
        "declare",
        "entr",
        "vuel",
        "solo",
        "entr%",
        "vuel%",
        "solo%",
        "tantos",
        "95% CI"
    );
    let pct = |x: &str| x.parse::<f64>().map_or(String::from("-"), |v| format!("{:.1}", v * 100.0));
    for r in rows {
        let ci =
            if r.ci95_low.is_empty() { String::new() } else { format!("[{}, {}]", r.ci95_low, r.ci95_high) };
        s.push_str(&format!(
            "{:<28} {:<9} {:>9} {:>8} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>10} {:>21}\n",
            truncate(&r.agent, 28),
            r.role,
            r.deals,
            if r.declare_rate.is_empty() { "-".into() } else { pct(&r.declare_rate) },
            r.contracts[0],
            r.contracts[1],
            r.contracts[2],
            pct(&r.success[0]),
            pct(&r.success[1]),
            pct(&r.success[2]),
            if r.mean_tantos.is_empty() { "-" } else { &r.mean_tantos },
            ci
        ));
    }
    s
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n { s.to_string() } else { s.chars().take(n - 1).collect::<String>() + "~" }
}

pub(crate) fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        check_threads(t, "threads")?;
        b = b.num_threads(t);
    }
    Ok(b.build()?)
}

/// The lock file of a run directory: it holds the pid of the process writing the run.
pub const LOCK_FILE: &str = "run.lock";

/// An advisory lock on a run directory, held until it is dropped or the process
/// ends (the operating system releases it however the process ends).
pub struct DirLock {
    _file: File,
}

/// The pid written in a lock file, if it can be read.
fn holder(path: &Path) -> String {
    // The holder writes its pid just after taking the lock: give it a moment.
    for _ in 0..20 {
        if let Ok(text) = fs::read_to_string(path) {
            let pid = text.trim();
            if !pid.is_empty() {
                return pid.to_string();
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    "unknown".into()
}

fn in_use(dir: &Path, path: &Path) -> RunError {
    RunError::InUse { dir: dir.to_path_buf(), holder: holder(path) }
}

/// The nearest of `path` and its ancestors that exists and is not a directory: a
/// file where a directory must be (or be created).
pub fn file_in_the_way(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .find_map(|a| fs::metadata(a).ok().map(|m| (a, m.is_dir())))
        .and_then(|(a, is_dir)| (!is_dir).then(|| a.to_path_buf()))
}

/// Refuses, in one line, an output directory that is a file (or a device) or lies
/// under one, and the file-system root (a run there would write `/.partial` and
/// files beside everything else).
pub fn check_run_dir(dir: &Path) -> Result<()> {
    ensure!(!dir.as_os_str().is_empty(), "the output directory is empty: name one");
    if dir.file_name().is_none() && resolved(dir)?.parent().is_none() {
        bail!(
            "{}: the file-system root cannot be a run directory; name a directory of its own",
            dir.display()
        );
    }
    match file_in_the_way(dir) {
        Some(f) if f == dir => bail!("{} is a file, not a run directory", dir.display()),
        Some(f) => bail!(
            "{} is a file, not a directory: it cannot hold the run directory {}",
            f.display(),
            dir.display()
        ),
        None => Ok(()),
    }
}

/// Refuses, in one line and before any work, an output file (`what` names the
/// option, as `--record`) that cannot be a file of its own: a path naming a
/// directory (an existing one, the root, `..`, or ending in `/`), a device or pipe
/// or anything else that is not a regular file, or one under a file. A file that
/// replaces another is first written beside it (`FILE.partial`), never above it.
pub fn check_output_file(path: &Path, what: &str) -> Result<()> {
    let shown = path.display();
    ensure!(!path.as_os_str().is_empty(), "{what}: the path is empty; name a file");
    let text = path.as_os_str().to_string_lossy();
    let names_dir = text.ends_with('/')
        || text.ends_with(std::path::MAIN_SEPARATOR)
        || path.file_name().is_none()
        || path.ends_with(".");
    ensure!(!names_dir, "{what} {shown}: names a directory; name a file");
    if let Ok(m) = fs::metadata(path) {
        ensure!(!m.is_dir(), "{what} {shown}: is a directory; name a file");
        ensure!(m.is_file(), "{what} {shown}: is not a regular file (a device or a pipe); name a file");
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty())
        && let Some(f) = file_in_the_way(parent)
    {
        bail!("{what} {shown}: {} is a file, not a directory", f.display());
    }
    Ok(())
}

/// Creates `dir` if needed and takes the exclusive lock of its writer, writing this
/// process's pid into the lock file; refuses with the holder's pid when another
/// process has it.
pub fn lock_dir(dir: &Path) -> Result<DirLock> {
    check_run_dir(dir)?;
    fs::create_dir_all(dir).on("creating", dir)?;
    lock_file(&dir.join(LOCK_FILE), dir)
}

/// Takes the exclusive lock of the lock file `path` (created if needed) for the
/// writer of `dir` (a run directory, or a tune's CSV), writing this process's pid
/// into it; refuses with the holder's pid when another process has it.
pub fn lock_file(path: &Path, dir: &Path) -> Result<DirLock> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .on("opening", path)?;
    match retry_lock(|| file.try_lock()) {
        Ok(()) => {
            file.set_len(0)?;
            file.write_all(format!("{}\n", std::process::id()).as_bytes())?;
            file.flush()?;
            Ok(DirLock { _file: file })
        }
        Err(fs::TryLockError::WouldBlock) => Err(in_use(dir, path)),
        Err(fs::TryLockError::Error(e)) => Err(e).on("locking", path),
    }
}

/// `lock` (a `try_lock` of a lock file), tried again for up to about 50 ms while
/// it would block. The lock is `flock`'s, which belongs to the open file, and a
/// process this one starts shares its open files from its fork until its exec
/// closes them: a lock just released by one thread of a library caller can stay
/// held for that instant while another thread starts a process (a test binary
/// starting bots once found its own run "in use by another tresillo process").
/// Another process's lock is held far longer, and is still refused.
fn retry_lock(mut lock: impl FnMut() -> Result<(), fs::TryLockError>) -> Result<(), fs::TryLockError> {
    for _ in 0..10 {
        match lock() {
            Err(fs::TryLockError::WouldBlock) => std::thread::sleep(std::time::Duration::from_millis(5)),
            other => return other,
        }
    }
    lock()
}

/// Takes a shared lock on a directory that is only read, so that no writer holds
/// it or starts while it is read; refuses with the writer's pid when one holds it.
/// A directory without a lock file has never had a writer that locks.
fn lock_input(dir: &Path) -> Result<Option<DirLock>> {
    let path = dir.join(LOCK_FILE);
    let Ok(file) = File::open(&path) else { return Ok(None) };
    match retry_lock(|| file.try_lock_shared()) {
        Ok(()) => Ok(Some(DirLock { _file: file })),
        Err(fs::TryLockError::WouldBlock) => Err(in_use(dir, &path)),
        Err(fs::TryLockError::Error(e)) => Err(e).on("locking", &path),
    }
}

/// A field of a configuration, for a message.
fn show_field(c: &TournamentConfig, key: &str, v: &serde_json::Value) -> String {
    use serde_json::Value;
    match (key, v) {
        ("scoring", _) => c.scoring.to_string(),
        ("shard", _) => c.shard.to_string(),
        ("rules", _) => c.rules.to_string(),
        (_, Value::String(s)) => s.clone(),
        (_, Value::Null) => "none".into(),
        (_, Value::Array(xs)) => xs
            .iter()
            .map(|x| if let Value::String(s) = x { s.clone() } else { x.to_string() })
            .collect::<Vec<_>>()
            .join(","),
        (_, other) => other.to_string(),
    }
}

/// The fields in which two configurations differ, each with both values.
fn config_diff(stored: &TournamentConfig, given: &TournamentConfig) -> String {
    let as_map = |c: &TournamentConfig| match serde_json::to_value(c) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    let (a, b) = (as_map(stored), as_map(given));
    let mut keys: Vec<&String> = a.keys().collect();
    keys.extend(b.keys().filter(|k| !a.contains_key(*k)));
    let null = serde_json::Value::Null;
    let diffs: Vec<String> = keys
        .into_iter()
        .filter_map(|k| {
            let (x, y) = (a.get(k).unwrap_or(&null), b.get(k).unwrap_or(&null));
            (x != y).then(|| {
                format!(
                    "{k}: {} in the directory, {} given",
                    show_field(stored, k, x),
                    show_field(given, k, y)
                )
            })
        })
        .collect();
    diffs.join("; ")
}

/// Plays the tournament `config` into the run directory `a.out` (or continues it,
/// or replaces the run there); returns the printed summary table and speed line.
///
/// A run that replaces another (`--force` on a directory holding a run), or that
/// continues such a replacement (`--resume` when `DIR.partial` holds a run), plays in
/// `DIR.partial` and moves its files into `DIR` once complete: until then the old
/// run stays whole.
pub fn run(config: &TournamentConfig, a: &RunOptions<'_>, command_line: Vec<String>) -> Result<String> {
    run_book(config, a, None, command_line)
}

/// [`run`] on the deals of `book` (`--deals-from`): deal `i` is the book's deal
/// `i` ([`DealBook::deal`]), recorded in the manifest's `deal_book`. A resumed
/// run takes the book from its manifest; a different book is refused.
pub fn run_book(
    config: &TournamentConfig,
    a: &RunOptions<'_>,
    book: Option<&DealBook>,
    command_line: Vec<String>,
) -> Result<String> {
    run_stoppable(config, a, book, command_line, &|| false)
}

/// [`run`], asking `stop` before each batch (in the calling thread): when it
/// answers `true` the run stops there with every finished deal checkpointed,
/// resumable, and the error is an [`Interrupted`] (a caller's Ctrl-C: the
/// Python package polls its interpreter's signals).
pub fn run_stoppable(
    config: &TournamentConfig,
    a: &RunOptions<'_>,
    book: Option<&DealBook>,
    command_line: Vec<String>,
    stop: &dyn Fn() -> bool,
) -> Result<String> {
    let dir = a.out.as_path();
    check_record_path(a.record.as_deref(), dir)?;
    let _lock = lock_dir(dir)?;
    if let Some(note) = empty_shard(config) {
        (a.note)(&note);
    }
    let holds_run = |d: &Path| RUN_FILES.iter().any(|f| d.join(f).exists());
    let replacing = if a.force && holds_run(dir) {
        Some(partial_dir(dir)?)
    } else if a.resume {
        partial_dir(dir).ok().filter(|p| p.join("manifest.json").exists())
    } else {
        None
    };
    match replacing {
        Some(partial) => replace(a, config, dir, &partial, book, command_line, stop),
        None => play(a, config, dir, dir, book, command_line, stop),
    }
}

/// A note for a shard that holds no deals (more shards than scoring units): it is
/// written as a finished run of no deals, which `merge` accepts, so that a script
/// may split any run into N shards.
fn empty_shard(config: &TournamentConfig) -> Option<String> {
    let (d0, d1) = config.deal_range();
    (d0 == d1).then(|| {
        format!(
            "note: shard {} of a run of {} deals holds no deals (there are fewer scoring units than \
             shards); it is written as a finished shard of 0 deals, which merge accepts",
            config.shard, config.deals
        )
    })
}

/// Runs the tournament of an experiment (`tresillo run`): it plays in the sibling
/// directory `OUT.partial` and, once complete, moves its files into `OUT`, replacing
/// the results of an earlier run, which stay in place until then. `--resume`
/// continues `OUT.partial`; `--force` starts it over.
pub fn run_experiment(
    config: &TournamentConfig,
    a: &RunOptions<'_>,
    command_line: Vec<String>,
) -> Result<String> {
    let out = a.out.as_path();
    check_record_path(a.record.as_deref(), out)?;
    let _lock = lock_dir(out)?;
    let partial = partial_dir(out)?;
    if a.resume && !partial.join("manifest.json").exists() && out.join("manifest.json").exists() {
        let m = read_manifest(out)?;
        if m.complete && m.config == *config {
            complete_run(out, &m, a.note)?;
            return Ok(already_complete(out, &m));
        }
    }
    replace(a, config, out, &partial, None, command_line, &|| false)
}

/// Plays the run in `partial` (locked here; `out` is locked by the caller) and, once
/// it is complete, moves its files into `out` and removes `partial`.
fn replace(
    a: &RunOptions<'_>,
    config: &TournamentConfig,
    out: &Path,
    partial: &Path,
    book: Option<&DealBook>,
    command_line: Vec<String>,
    stop: &dyn Fn() -> bool,
) -> Result<String> {
    let partial_lock = lock_dir(partial)?;
    // A run complete in `partial` was killed while its files moved into `out`
    // (some may be there already): finish moving them.
    let published = a.resume && read_manifest(partial).is_ok_and(|m| m.complete && m.config == *config);
    let table = if published {
        already_complete(out, &read_manifest(partial)?)
    } else {
        play(a, config, partial, out, book, command_line, stop)?
    };
    // The records first: a kill before the run's files move leaves `--resume` to
    // find the run complete in `partial` and move them; the record is then in place.
    if let Some(rec) = &a.record {
        let from = partial_record(rec);
        if from.exists() {
            fs::rename(&from, rec)
                .with_context(|| format!("moving {} to {}", from.display(), rec.display()))?;
            write_point();
        }
    }
    let m = read_manifest(partial)?;
    let compute = partial.join(COMPUTE_JSON).exists() || out.join(COMPUTE_JSON).exists();
    publish(|f| partial.join(f), out, &complete_files(m.format, compute))?;
    remove(&partial.join(LOCK_FILE))?;
    drop(partial_lock);
    // Every file of the run has moved; what is left is a kill's temporary litter.
    fs::remove_dir_all(partial).on("removing", partial)?;
    Ok(table)
}

/// `DIR.partial`, beside `DIR`.
fn partial_dir(dir: &Path) -> Result<PathBuf> {
    let dir = match dir.file_name() {
        Some(_) => dir.to_path_buf(),
        None => resolved(dir)?, // `.`, `..`, `/`: name it
    };
    let name =
        dir.file_name().ok_or_else(|| invalid!("{}: the output needs a directory name", dir.display()))?;
    Ok(dir.with_file_name(format!("{}.partial", name.to_string_lossy())))
}

/// Moves the finished files `files` of a complete run (the manifest last) from
/// `from(name)` into the run directory `out`, each rename replacing its target
/// atomically. The manifest of `out` goes first, so that `out` never claims to be
/// complete while it holds a mix of two runs; the files of an older run that the
/// new one does not have go next. It can be done again after a kill at any point:
/// a file no longer at its source has been moved already, and one found nowhere
/// is named.
fn publish(from: impl Fn(&str) -> PathBuf, out: &Path, files: &[&str]) -> Result<()> {
    if !from("manifest.json").exists() {
        return Ok(()); // every file moved, the manifest last
    }
    if out.join("manifest.json").exists() {
        remove(&out.join("manifest.json"))?;
    }
    for f in RUN_FILES.iter().filter(|f| !files.contains(f)) {
        if out.join(f).exists() {
            remove(&out.join(f))?;
        }
    }
    for f in files {
        let (src, to) = (from(f), out.join(f));
        if src.exists() {
            fs::rename(&src, &to).with_context(|| format!("moving {} to {}", src.display(), to.display()))?;
            write_point();
        } else if !to.exists() {
            bail!(
                "{}: no {f}, which the complete run in {} lists; run it again",
                out.display(),
                src.display()
            );
        }
    }
    Ok(())
}

/// What the workers hand the writer for one scoring unit: its `deals.csv` bytes
/// (empty without CSV output), statistics, record lines, compute, and its rows
/// (empty without Parquet output).
type UnitRows<'a> = (Vec<u8>, Stats, Vec<u8>, Compute, Vec<DealRow<'a>>);

/// Seconds of play a batch aims at once the speed is known: a kill loses about
/// that (the batch being played, and the one being written), never the run.
const BATCH_SECS: f64 = 3.0;

/// The sizes of the batches a run plays between checkpoints, in scoring units:
/// first one unit per worker thread, then sized from the measured speed to take
/// about [`BATCH_SECS`], growing at most fourfold from one batch to the next and
/// never above about 16k rows (enough work for every core, little memory). The
/// boundaries change no byte of the output: rows are written in unit order.
#[derive(Debug)]
struct Batches {
    threads: u64,
    max: u64,
    fixed: Option<u64>,
    size: u64,
}

impl Batches {
    /// The schedule of a run on `threads` workers whose units have `rows_per_unit`
    /// rows; `fixed` forces every batch to that size (`TRESILLO_BATCH_UNITS`).
    fn new(threads: u64, rows_per_unit: u64, fixed: Option<u64>) -> Batches {
        let max = (16_384 / rows_per_unit.max(1)).max(1);
        let size = fixed.unwrap_or(threads.clamp(1, max));
        Batches { threads: threads.max(1), max, fixed, size }
    }

    /// The size of the next batch.
    fn next(&self) -> u64 {
        self.size
    }

    /// Records that `units` were played in `secs` seconds, and sizes the next batch.
    fn played(&mut self, units: u64, secs: f64) {
        if self.fixed.is_some() {
            return;
        }
        let least = self.threads.min(self.max);
        let by_rate = if secs > 0.0 { (units as f64 * BATCH_SECS / secs) as u64 } else { u64::MAX };
        self.size = by_rate.min(units.max(1).saturating_mul(4)).clamp(least, self.max);
    }
}

/// `TRESILLO_BATCH_UNITS`: a fixed batch size, for tests that check that the
/// batch boundaries change no byte of the output.
fn batch_override() -> Result<Option<u64>> {
    positive_env("TRESILLO_BATCH_UNITS")
}

fn positive_env(name: &str) -> Result<Option<u64>> {
    match std::env::var(name) {
        Err(_) => Ok(None),
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(Some(n)),
            _ => bail!("environment variable {name}: `{v}` is not a positive integer"),
        },
    }
}

/// Refuses a record file (`--record`) anywhere inside the run directory `out` or
/// the `OUT.partial` beside it, where it would be (or mix with) one of the run's
/// own files; paths are compared resolved, the record file need not exist yet.
pub fn check_record_path(record: Option<&Path>, out: &Path) -> Result<()> {
    let Some(rec) = record else { return Ok(()) };
    check_output_file(rec, "--record")?;
    check_run_dir(out)?;
    let at = resolved(rec)?;
    for d in [out.to_path_buf(), partial_dir(out)?] {
        if at.starts_with(resolved(&d)?) {
            bail!(
                "--record {}: inside the run directory {}; write the records outside it (for example \
                 beside it, as {}.jsonl)",
                rec.display(),
                d.display(),
                out.display()
            );
        }
    }
    Ok(())
}

/// Refuses the `deals.csv` of the complete run in `dir` unless it holds exactly the
/// bytes its manifest counts (`csv_bytes`): a truncated or changed file is never read
/// as if it were the run.
pub fn check_deals_size(dir: &Path, m: &Manifest) -> Result<()> {
    let mut files = Vec::new();
    if m.format.csv() {
        files.push((dir.join("deals.csv"), m.csv_bytes));
    }
    if m.format.parquet() {
        files.push((dir.join(DEALS_PARQUET), m.parquet_bytes.unwrap_or(0)));
    }
    for (p, want) in files {
        let len = fs::metadata(&p).on("reading", &p)?.len();
        ensure!(
            len == want,
            "{}: holds {len} bytes but the run's manifest counts {want}: the file was truncated or changed \
             (run the tournament again with --force)",
            p.display(),
        );
    }
    Ok(())
}

/// Refuses, naming the file, a Parquet part file (of `kept`, the parts a resumed
/// run keeps) whose bytes are not those its manifest `m` vouches for; a part of a
/// run started by a version before checksums gets its checksum recorded now.
fn check_parts(kept: &[PathBuf], m: &mut Manifest) -> Result<()> {
    for p in kept {
        let name = format!("{PARTS_DIR}/{}", p.file_name().unwrap_or_default().to_string_lossy());
        let crc = tresillo_durable::checksum::file(p, None)?;
        match m.crc32.get(&name) {
            Some(want) => tresillo_durable::checksum::check(p, crc, want)?,
            None => {
                m.crc32.insert(name, tresillo_durable::checksum::hex(crc));
            }
        }
    }
    Ok(())
}

/// The checksums of a complete run's files in its manifest `m` ([`crate::checksum`]):
/// those of the Parquet parts give way to that of `deals.parquet`, and the files
/// derived from the rows (`summary.csv`, `pairs.csv`, `forfeits.csv`) are added
/// (`deals.csv`'s is kept as the rows were written, `stats.json`'s is added by the
/// checkpoint that marks the run complete). Not `compute.json` nor `compute.csv`:
/// their times are measured, and the manifest must not depend on them.
fn complete_checksums(dir: &Path, m: &mut Manifest) -> Result<()> {
    m.crc32.retain(|k, _| !k.starts_with(PARTS_DIR));
    let mut files = vec!["summary.csv", "pairs.csv", FORFEITS_CSV];
    if m.format.parquet() {
        files.push(DEALS_PARQUET);
    }
    for f in files {
        let p = dir.join(f);
        if p.exists() {
            m.crc32.insert(
                f.into(),
                tresillo_durable::checksum::hex(tresillo_durable::checksum::file(&p, None)?),
            );
        }
    }
    Ok(())
}

/// The files a complete run directory holds (besides its lock), the manifest last:
/// what its manifest promises and what a replacement moves into place. `compute`:
/// the run has a compute checkpoint (every run of this version has one).
fn complete_files(format: Format, compute: bool) -> Vec<&'static str> {
    let mut files = Vec::new();
    if format.csv() {
        files.push("deals.csv");
    }
    if format.parquet() {
        files.push(DEALS_PARQUET);
    }
    files.extend(["stats.json", "summary.csv", "pairs.csv"]);
    if compute {
        files.extend([COMPUTE_JSON, COMPUTE_CSV, FORFEITS_CSV]);
    }
    files.push("manifest.json");
    files
}

/// Makes sure the run in `dir`, whose manifest `m` says it is complete, holds every
/// file a complete run holds: its rows are checked against the manifest (a missing
/// or changed file of rows is refused, naming it); the files derived from its rows
/// and statistics (`summary.csv`, `pairs.csv`, `compute.csv`, `forfeits.csv`) are
/// rebuilt, byte for byte as the run wrote them, when one is missing (a run killed
/// while a version before this one finished it) or when the last checkpoint's
/// statistics are still in `stats.next.json`. `note` says what was rebuilt.
pub(crate) fn complete_run(dir: &Path, m: &Manifest, note: &(dyn Fn(&str) + Sync)) -> Result<()> {
    check_deals_size(dir, m)?;
    // Every file kept must have the bytes the manifest vouches for before anything
    // is rebuilt from them (a missing derived file is rebuilt, then checked).
    verify_run(dir, m, Missing::Allowed)?;
    if m.format.parquet() {
        crate::parquet::row_count(&dir.join(DEALS_PARQUET))?;
        // A kill after the manifest counted deals.parquet, before the parts went.
        if dir.join(PARTS_DIR).exists() {
            fs::remove_dir_all(dir.join(PARTS_DIR)).on("removing", &dir.join(PARTS_DIR))?;
            write_point();
        }
    }
    let s = read_stats(dir, m)?;
    let c = read_compute(dir, m.deals_completed)?;
    let derived: Vec<&str> = complete_files(m.format, c.is_some())
        .into_iter()
        .filter(|f| ["summary.csv", "pairs.csv", COMPUTE_CSV, FORFEITS_CSV].contains(f))
        .collect();
    let missing: Vec<&str> = derived.iter().copied().filter(|f| !dir.join(f).exists()).collect();
    let next = dir.join(STATS_NEXT).exists() || dir.join(COMPUTE_NEXT).exists();
    if !next && missing.is_empty() {
        return Ok(());
    }
    // A kill during the last checkpoint leaves the statistics in `stats.next.json`:
    // put them in place.
    durable::write_atomic(&dir.join("stats.json"), serde_json::to_string(&s)?.as_bytes())?;
    if dir.join(STATS_NEXT).exists() {
        remove(&dir.join(STATS_NEXT))?;
    }
    if let Some(c) = &c {
        durable::write_atomic(&dir.join(COMPUTE_JSON), serde_json::to_string(c)?.as_bytes())?;
        if dir.join(COMPUTE_NEXT).exists() {
            remove(&dir.join(COMPUTE_NEXT))?;
        }
    }
    let rows_per_unit = m.config.scoring.unit_len() * m.config.seatings().len() as u64;
    write_summary(dir, &m.config, &s, c.as_ref(), rows_per_unit)?;
    for f in &missing {
        if let Some(want) = m.crc32.get(*f) {
            tresillo_durable::checksum::verify(&dir.join(f), None, want)?;
        }
    }
    if !missing.is_empty() {
        note(&format!(
            "{}: the run was marked complete without {}; rebuilt from its rows and statistics",
            dir.display(),
            missing.join(", ")
        ));
    }
    Ok(())
}

/// The files that the run directory `dir`, whose manifest `m` says it is complete,
/// lacks (none for a run that is not complete): `--resume` rebuilds the ones
/// derived from its rows and statistics; `report` and `verify` name them. A run
/// without a compute checkpoint (written by a version before compute accounting)
/// is not expected to hold the compute files.
pub fn missing_files(dir: &Path, m: &Manifest) -> Vec<&'static str> {
    if !m.complete {
        return Vec::new();
    }
    let compute = dir.join(COMPUTE_JSON).exists() || dir.join(COMPUTE_NEXT).exists();
    complete_files(m.format, compute).into_iter().filter(|f| !dir.join(f).exists()).collect()
}

fn already_complete(dir: &Path, m: &Manifest) -> String {
    format!("{}: the run is already complete ({} deals); nothing to do\n", dir.display(), m.deals_completed)
}

/// The book a run plays: `book`, or the one the manifest of a run being resumed
/// names; a resumed run given another book is refused.
fn book_of(a: &RunOptions<'_>, dir: &Path, book: Option<&DealBook>) -> Result<Option<DealBook>> {
    let stored = if a.resume && dir.join("manifest.json").exists() {
        read_manifest(dir).ok().and_then(|m| m.deal_book)
    } else {
        None
    };
    if let (Some(s), Some(b)) = (&stored, book)
        && s != b
    {
        bail!(
            "{} holds a run played on another deal book; resume it with its own book (or without \
             --deals-from), or use --force to start it again",
            dir.display()
        );
    }
    Ok(book.cloned().or(stored))
}

/// What a run starts from: its manifest, statistics and compute so far, and the
/// checksum of the rows `deals.csv` holds.
struct Begun {
    manifest: Manifest,
    stats: Stats,
    compute: Compute,
    csv_crc: u32,
}

/// A resumed run: the state to play on from, or the line of a run already complete.
enum Resumed {
    Play(Box<Begun>),
    Done(String),
}

/// Checks the run in `dir` against the options and configuration it is resumed
/// with, and its files against its manifest; cuts `deals.csv` to its checkpoint.
fn resume_start(
    a: &RunOptions<'_>,
    config: &TournamentConfig,
    dir: &Path,
    t: &Tournament,
    command_line: Vec<String>,
) -> Result<Resumed> {
    let (u0, _) = config.unit_range();
    let mut csv_crc = 0;
    let mut m = read_manifest(dir)?;
    if m.config != *config {
        bail!(
            "{} holds a run with another configuration ({}); use --force to overwrite it",
            dir.display(),
            config_diff(&m.config, config)
        );
    }
    if let Some(change) = tresillo_bots::identity_change(&m.bots, &a.bots) {
        bail!("{} was played by another bot: {change}; use --force to start it again", dir.display());
    }
    if m.format != a.format {
        bail!(
            "{} holds a run written with --format {}; resume it with --format {} (or use --force to \
             start it again)",
            dir.display(),
            m.format,
            m.format
        );
    }
    if m.complete {
        complete_run(dir, &m, a.note)?;
        return Ok(Resumed::Done(already_complete(dir, &m)));
    }
    let s = read_stats(dir, &m)?;
    let c = read_compute(dir, m.deals_completed)?;
    match (&m.record, &a.record) {
        (Some(r), Some(p)) if r.path == *p => {}
        (Some(r), _) => bail!(
            "{} was recording to {}; resume it with --record {}",
            dir.display(),
            r.path.display(),
            r.path.display()
        ),
        (None, Some(_)) => {
            bail!("{} was started without --record; a run cannot start recording halfway", dir.display())
        }
        (None, None) => {}
    }
    if m.format.parquet() {
        // Checks every part the manifest counts before anything is changed.
        let kept =
            crate::parquet::resume_parts(&dir.join(PARTS_DIR), u0, m.units_completed, t.rows_per_unit())?;
        check_parts(&kept, &mut m)?;
    }
    if m.format.csv() {
        csv_crc = resume_csv(dir, &m)?;
    }
    let c = c.unwrap_or_else(|| {
        (a.note)(&format!(
            "{}: no compute checkpoint of its {} deals (a run of an older version); compute.csv \
             counts only the deals played from now",
            dir.display(),
            m.deals_completed
        ));
        Compute { deals: m.deals_completed, ..Compute::new(config.agents.len()) }
    });
    let manifest = Manifest { build: a.build.clone(), command_line, ..m };
    Ok(Resumed::Play(Box::new(Begun { manifest, stats: s, compute: c, csv_crc })))
}

/// Checks the rows of `deals.csv` that the manifest `m` counts against its
/// checksum and cuts the file after them; their checksum.
fn resume_csv(dir: &Path, m: &Manifest) -> Result<u32> {
    check_csv_header(&dir.join("deals.csv"), "resume it")?;
    let f = OpenOptions::new().write(true).open(dir.join("deals.csv")).context("opening deals.csv")?;
    let len = f.metadata()?.len();
    if len < m.csv_bytes {
        bail!(
            "{}: deals.csv holds {len} bytes but its checkpoint counts {} (was the machine \
             restarted?); start the run again with --force",
            dir.display(),
            m.csv_bytes
        );
    }
    // The rows kept must have the bytes the checkpoint vouches for.
    let crc = tresillo_durable::checksum::file(&dir.join("deals.csv"), Some(m.csv_bytes))?;
    if let Some(want) = m.crc32.get("deals.csv") {
        tresillo_durable::checksum::check(&dir.join("deals.csv"), crc, want)?;
    }
    f.set_len(m.csv_bytes).context("truncating deals.csv to its last checkpoint")?;
    Ok(crc)
}

/// Starts the run in `dir` afresh: its empty files and its first manifest.
fn fresh_start(
    a: &RunOptions<'_>,
    config: &TournamentConfig,
    dir: &Path,
    book: Option<DealBook>,
    command_line: Vec<String>,
) -> Result<Begun> {
    let (d0, d1) = config.deal_range();
    let mut csv_crc = 0;
    // With --resume and no manifest, any run files are those of a start killed
    // before its first checkpoint (the manifest is written last): start over.
    claim_dir(dir, a.force, a.resume)?;
    if a.resume {
        (a.note)(&format!("{}: no run to resume there; starting it", dir.display()));
    }
    let header = if a.format.csv() { csv_header()? } else { Vec::new() };
    if a.format.csv() {
        durable::write_atomic(&dir.join("deals.csv"), &header)?;
        csv_crc = crc32fast::hash(&header);
    }
    if a.format.parquet() {
        fs::create_dir_all(dir.join(PARTS_DIR)).on("creating", &dir.join(PARTS_DIR))?;
    }
    let mut m = Manifest {
        tool: "tresillo".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        build: a.build.clone(),
        command_line,
        config: config.clone(),
        deal_range: [d0, d1],
        deals_completed: 0,
        units_completed: 0,
        csv_bytes: header.len() as u64,
        complete: false,
        record: a.record.as_ref().map(|p| RecordProgress {
            path: p.clone(),
            bytes: 0,
            crc32: Some(tresillo_durable::checksum::of(b"")),
        }),
        format: a.format,
        parquet_bytes: None,
        time_budget: config.timed_agents(&a.registry).into_iter().map(String::from).collect(),
        deal_book: book,
        bots: a.bots.clone(),
        crc32: BTreeMap::new(),
    };
    if a.format.csv() {
        m.crc32.insert("deals.csv".into(), tresillo_durable::checksum::hex(csv_crc));
    }
    let s = Stats::default();
    let c = Compute::new(config.agents.len());
    m.crc32
        .insert("stats.json".into(), tresillo_durable::checksum::of(serde_json::to_string(&s)?.as_bytes()));
    durable::write_atomic(&dir.join("stats.json"), serde_json::to_string(&s)?.as_bytes())?;
    durable::write_atomic(&dir.join(COMPUTE_JSON), serde_json::to_string(&c)?.as_bytes())?;
    durable::write_atomic(&dir.join("manifest.json"), serde_json::to_string_pretty(&m)?.as_bytes())?;
    Ok(Begun { manifest: m, stats: s, compute: c, csv_crc })
}

/// The progress bar on a terminal (`shown`), hidden otherwise.
fn progress_bar(shown: bool, deals: u64, done: u64) -> ProgressBar {
    if !shown {
        return ProgressBar::hidden();
    }
    // No speed and no ETA until a unit has finished: before that there is no rate.
    let b = ProgressBar::new(deals);
    b.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} deals  {msg}").expect("template"));
    b.set_message("(measuring the speed)");
    b.set_position(done);
    b.reset_eta();
    b
}

/// The progress lines where no terminal is (standard error a file or a pipe).
struct ProgressLines {
    on: bool,
    every: f64,
    running: Running,
    started: Instant,
    last: Instant,
    /// The deals done when this process started playing.
    from: u64,
    /// The deals of the run.
    deals: u64,
}

impl ProgressLines {
    /// A line when the last one is `every` seconds old: `done` deals so far.
    fn report(&mut self, done: u64, config: &TournamentConfig, rows_per_unit: u64, note: &dyn Fn(&str)) {
        if !self.on || self.last.elapsed().as_secs_f64() < self.every {
            return;
        }
        self.last = Instant::now();
        let secs = self.started.elapsed().as_secs_f64().max(1e-9);
        let rate = (done - self.from) as f64 / secs;
        let left = self.deals.saturating_sub(done);
        let eta = if rate > 0.0 { duration(left as f64 / rate) } else { "-".into() };
        note(&format!(
            "progress: {done}/{} deals ({:.1}%), {rate:.1} deals/s, ETA {eta}; {}",
            self.deals,
            100.0 * done as f64 / self.deals.max(1) as f64,
            self.running.line(config, rows_per_unit)
        ));
    }
}

/// The run's files as it plays: the rows appended to `deals.csv`, the part files
/// and the live `deals.parquet`, the record file, the running checksums, and the
/// manifest, statistics and compute that each checkpoint writes.
struct Sink<'d> {
    dir: &'d Path,
    format: Format,
    parts: PathBuf,
    u0: u64,
    unit_len: u64,
    rows_per_unit: u64,
    csv_file: Option<std::io::BufWriter<File>>,
    csv_crc: tresillo_durable::checksum::Hasher,
    record_file: Option<File>,
    rec_crc: tresillo_durable::checksum::Hasher,
    row_builder: RowBuilder,
    live: Option<crate::parquet::GroupWriter>,
    live_tmp: PathBuf,
    manifest: Manifest,
    stats: Stats,
    compute: Compute,
}

impl<'d> Sink<'d> {
    /// Opens the files a run appends to, from the state `b` it starts from.
    fn open(
        dir: &'d Path,
        shown: &Path,
        resuming: bool,
        b: Begun,
        config: &TournamentConfig,
        rows_per_unit: u64,
    ) -> Result<Self> {
        let (u0, _) = config.unit_range();
        let (record_file, rec_crc) = match &b.manifest.record {
            // Replacing another run (playing in `DIR.partial`): records in `FILE.partial`.
            Some(r) => {
                let (f, crc) = open_record(r, !resuming, dir != shown)?;
                (Some(f), tresillo_durable::checksum::continuing(crc))
            }
            None => (None, tresillo_durable::checksum::Hasher::new()),
        };
        let format = b.manifest.format;
        let csv_file = if format.csv() {
            let mut f =
                OpenOptions::new().append(true).open(dir.join("deals.csv")).context("opening deals.csv")?;
            f.seek(SeekFrom::End(0))?;
            // Rows are buffered (one write a unit was a system call per deal) and the
            // buffer is flushed before every checkpoint, so the file still holds every
            // row the manifest counts.
            Some(std::io::BufWriter::with_capacity(1 << 20, f))
        } else {
            None
        };
        // A run that starts at its first unit also encodes deals.parquet as it goes, in
        // the writer thread while the workers play (the same GroupWriter `assemble`
        // uses, so the same bytes); a resumed run assembles it from the parts at the end.
        let live_tmp = dir.join(format!("{DEALS_PARQUET}.tmp"));
        let live = if format.parquet() && b.manifest.units_completed == 0 {
            Some(crate::parquet::GroupWriter::create(&live_tmp, u0, rows_per_unit)?)
        } else {
            None
        };
        Ok(Sink {
            dir,
            format,
            parts: dir.join(PARTS_DIR),
            u0,
            unit_len: config.scoring.unit_len(),
            rows_per_unit,
            csv_file,
            csv_crc: tresillo_durable::checksum::continuing(b.csv_crc),
            record_file,
            rec_crc,
            row_builder: RowBuilder::new(),
            live,
            live_tmp,
            manifest: b.manifest,
            stats: b.stats,
            compute: b.compute,
        })
    }

    /// The writer thread's loop: each batch the workers send appended and
    /// checkpointed, a progress line now and then.
    fn write_batches(
        &mut self,
        rx: std::sync::mpsc::Receiver<(u64, Vec<UnitRows<'_>>)>,
        lines: &mut ProgressLines,
        config: &TournamentConfig,
        note: &dyn Fn(&str),
    ) -> Result<()> {
        let mut checkpoints = 0;
        for (units, outs) in rx {
            for out in &outs {
                lines.running.add(&out.1);
                self.append(out)?;
            }
            self.commit(units)?;
            lines.report(self.manifest.deals_completed, config, self.rows_per_unit, note);
            checkpoints += 1;
            tresillo_durable::fault::checkpoint(checkpoints); // where a test may stop the run
        }
        Ok(())
    }

    /// One unit's rows, statistics, compute and records added.
    fn append(&mut self, (bytes, s, recs, c, rows): &UnitRows<'_>) -> Result<()> {
        let dir = self.dir;
        if let Some(f) = self.csv_file.as_mut() {
            f.write_all(bytes).on("writing", &dir.join("deals.csv"))?;
            self.csv_crc.update(bytes);
            self.manifest.csv_bytes += bytes.len() as u64;
        }
        for r in rows {
            self.row_builder.push(r);
        }
        self.stats.merge(s);
        self.compute.try_merge(c).with_context(|| format!("{}: compute.json", dir.display()))?;
        if let (Some(f), Some(r)) = (self.record_file.as_mut(), self.manifest.record.as_mut()) {
            f.write_all(recs).on("writing", &r.path)?;
            self.rec_crc.update(recs);
            r.bytes += recs.len() as u64;
        }
        Ok(())
    }

    /// The batch of `units` units just appended: its part file, then the
    /// checkpoint that counts it.
    fn commit(&mut self, units: u64) -> Result<()> {
        let dir = self.dir;
        let manifest = &mut self.manifest;
        if self.format.parquet() {
            let from = self.u0 + manifest.units_completed;
            let batch = self.row_builder.finish();
            let part = crate::parquet::write_part(&self.parts, from, from + units, &batch)?;
            let name = format!("{PARTS_DIR}/{}", part.file_name().unwrap_or_default().to_string_lossy());
            manifest.crc32.insert(
                name,
                tresillo_durable::checksum::hex(tresillo_durable::checksum::file(&part, None)?),
            );
            if let Some(w) = self.live.as_mut() {
                w.write(&batch)?;
            }
        }
        manifest.units_completed += units;
        manifest.deals_completed = manifest.units_completed * self.unit_len;
        // The rows are in the file before the manifest counts them, so a
        // killed process loses nothing that was written. (No fsync per batch:
        // it would protect only against the machine itself going down, at a
        // large cost; resume refuses a deals.csv shorter than its checkpoint.)
        if let Some(f) = self.csv_file.as_mut() {
            f.flush().on("writing", &dir.join("deals.csv"))?;
            write_point();
            manifest
                .crc32
                .insert("deals.csv".into(), tresillo_durable::checksum::hex(self.csv_crc.clone().finalize()));
        }
        if let Some(r) = manifest.record.as_mut() {
            r.crc32 = Some(tresillo_durable::checksum::hex(self.rec_crc.clone().finalize()));
        }
        checkpoint(dir, &self.stats, &self.compute, manifest, false)
    }

    /// Completes the run: `deals.parquet` from its parts, the summary files, the
    /// checksums, and the manifest that says it is complete, last. The summary
    /// table.
    fn finish(&mut self, config: &TournamentConfig) -> Result<String> {
        let dir = self.dir;
        if self.format.parquet() {
            // The parts, regrouped, become deals.parquet before the manifest says the run
            // is complete; the parts go only after that.
            let tmp = &self.live_tmp;
            match self.live.take() {
                Some(w) => w.close()?,
                None => {
                    let list = crate::parquet::all_parts(
                        &self.parts,
                        self.u0,
                        self.manifest.units_completed,
                        self.rows_per_unit,
                    )?;
                    crate::parquet::assemble(&list, tmp, self.u0, self.rows_per_unit)?;
                }
            }
            let target = dir.join(DEALS_PARQUET);
            rename(tmp, &target)?;
            self.manifest.parquet_bytes = Some(fs::metadata(&target)?.len());
        }
        // Every file of the finished run is in place (each written under a temporary
        // name, then renamed) before the manifest says the run is complete.
        let table = write_summary(dir, config, &self.stats, Some(&self.compute), self.rows_per_unit)?;
        let manifest = &mut self.manifest;
        if self.format.csv() {
            manifest
                .crc32
                .insert("deals.csv".into(), tresillo_durable::checksum::hex(self.csv_crc.clone().finalize()));
        }
        if let Some(r) = manifest.record.as_mut() {
            r.crc32 = Some(tresillo_durable::checksum::hex(self.rec_crc.clone().finalize()));
        }
        complete_checksums(dir, manifest)?;
        manifest.complete = true;
        checkpoint(dir, &self.stats, &self.compute, manifest, true)?;
        if self.format.parquet() {
            fs::remove_dir_all(&self.parts).on("removing", &self.parts)?;
            write_point();
        }
        Ok(table)
    }
}

/// One finished unit as the writer takes it: its `deals.csv` rows (when the run
/// writes the CSV), its records, and its rows for Parquet (when it writes that).
fn unit_rows<'t>(
    u: tresillo_sim::UnitOutput<'t>,
    format: Format,
    bar: &ProgressBar,
    rate_known: &std::sync::atomic::AtomicBool,
    unit_len: u64,
) -> UnitRows<'t> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::with_capacity(if format.csv() { 256 * u.rows.len() } else { 0 }));
    if format.csv() {
        for r in &u.rows {
            w.serialize(r).expect("rows serialize");
        }
    }
    let mut recs = Vec::new();
    for r in &u.records {
        serde_json::to_writer(&mut recs, r).expect("records serialize");
        recs.push(b'\n');
    }
    // The bar counts deals as they finish, not batch by batch.
    bar.inc(unit_len);
    if !rate_known.swap(true, std::sync::atomic::Ordering::Relaxed) {
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} deals  {per_sec}  ETA {eta}")
                .expect("template"),
        );
    }
    let rows = if format.parquet() { u.rows } else { Vec::new() };
    (w.into_inner().expect("in memory"), u.stats, recs, u.compute, rows)
}

/// What plays the batches: the worker threads, their agents, the batch sizes and
/// the progress bar.
struct Players<'p, 't> {
    t: &'t Tournament,
    workers: &'p rayon::ThreadPool,
    slots: &'p AgentSlots,
    schedule: &'p mut Batches,
    bar: &'p ProgressBar,
    format: Format,
    unit_len: u64,
}

impl<'t> Players<'_, 't> {
    /// Plays the units `units` batch after batch, each sent to the writer, until
    /// the end, `stop`, or a fault (the error). True when `stop` ended it.
    fn play(
        &mut self,
        units: std::ops::Range<u64>,
        stop: &dyn Fn() -> bool,
        tx: std::sync::mpsc::SyncSender<(u64, Vec<UnitRows<'t>>)>,
    ) -> Result<bool> {
        let rate_known = std::sync::atomic::AtomicBool::new(false);
        let (format, unit_len, bar) = (self.format, self.unit_len, self.bar);
        let mut next = units.start;
        while next < units.end {
            if stop() {
                return Ok(true);
            }
            let end = (next + self.schedule.next()).min(units.end);
            let t0 = Instant::now();
            let (outs, failed) = self.workers.install(|| {
                self.t
                    .run_in_kept(self.slots, next..end, |u| unit_rows(u, format, bar, &rate_known, unit_len))
            });
            // A run that stops (an agent's fault, an interruption) keeps the units of
            // the batch finished before it.
            let kept = outs.len() as u64;
            if failed.is_none() {
                self.schedule.played(end - next, t0.elapsed().as_secs_f64());
            }
            if kept > 0 && tx.send((kept, outs)).is_err() {
                break; // the writer failed; its error is reported by the caller
            }
            if let Some(e) = failed {
                return Err(e.into());
            }
            next = end;
        }
        Ok(false)
    }
}

/// Plays (or continues) the run in `dir`, which the caller has locked; `shown` is
/// the directory named in the last printed line.
fn play(
    a: &RunOptions<'_>,
    config: &TournamentConfig,
    dir: &Path,
    shown: &Path,
    book: Option<&DealBook>,
    command_line: Vec<String>,
    stop: &dyn Fn() -> bool,
) -> Result<String> {
    let config = config.clone();
    // A resumed run plays the book its manifest names; another book is refused.
    let book = book_of(a, dir, book)?;
    let t = Tournament::with_registry(config.clone(), a.registry.clone())?.with_book(book.clone())?;
    let (u0, u1) = config.unit_range();
    let (d0, d1) = config.deal_range();
    let resuming = a.resume && dir.join("manifest.json").exists();
    let begun = if resuming {
        match resume_start(a, &config, dir, &t, command_line)? {
            Resumed::Play(b) => *b,
            Resumed::Done(line) => return Ok(line),
        }
    } else {
        fresh_start(a, &config, dir, book, command_line)?
    };
    let unit_len = config.scoring.unit_len();
    let rows_per_unit = t.rows_per_unit();
    let terminal = std::io::stderr().is_terminal();
    let bar = progress_bar(a.progress && terminal, d1 - d0, begun.manifest.deals_completed);
    let mut sink = Sink::open(dir, shown, resuming, begun, &config, rows_per_unit)?;
    let t = t.recording(sink.record_file.is_some());
    let workers = pool(a.threads)?;
    let mut schedule = Batches::new(workers.current_num_threads() as u64, rows_per_unit, batch_override()?);
    let format = sink.format;
    // Each worker thread keeps its agents for the whole run (an external bot's
    // process serves every batch); they are dropped, and bots ended, at the end.
    let slots = workers.install(AgentSlots::new);
    let started = Instant::now();
    let first = u0 + sink.manifest.units_completed;
    let mut lines = ProgressLines {
        on: a.progress && !terminal,
        every: progress_every(),
        running: Running::default(),
        started,
        last: started,
        from: sink.manifest.deals_completed,
        deals: d1 - d0,
    };
    // The workers play batch after batch; a writer thread appends each finished
    // batch and checkpoints it while the next one is being played.
    let (tx, rx) = std::sync::mpsc::sync_channel::<(u64, Vec<UnitRows<'_>>)>(1);
    let mut players = Players {
        t: &t,
        workers: &workers,
        slots: &slots,
        schedule: &mut schedule,
        bar: &bar,
        format,
        unit_len,
    };
    let interrupted = std::thread::scope(|scope| -> Result<bool> {
        let writer = scope.spawn(|| sink.write_batches(rx, &mut lines, &config, a.note));
        let played = players.play(first..u1, stop, tx);
        writer.join().map_err(|_| invalid!("the writer thread panicked"))??;
        played
    })?;
    bar.finish_and_clear();
    drop(slots);
    if interrupted {
        return Err(Interrupted { deals_completed: sink.manifest.deals_completed }.into());
    }
    let table = sink.finish(&config)?;
    let secs = started.elapsed().as_secs_f64();
    // Only the deals this process played count toward its speed.
    let played = (u1 - first) * unit_len;
    let mut out = table;
    if secs > 0.0 && played > 0 {
        out.push_str(&format!(
            "{} deals played in {:.2} s ({} rows in all): {:.0} deals/s; output in {}\n",
            played,
            secs,
            sink.stats.rows,
            played as f64 / secs,
            shown.display()
        ));
    }
    Ok(out)
}

/// `p` made absolute with its symbolic links resolved; a path that does not exist
/// yet is resolved through its nearest existing ancestor.
fn resolved(p: &Path) -> Result<PathBuf> {
    let abs = if p.is_absolute() { p.to_path_buf() } else { std::env::current_dir()?.join(p) };
    let mut tail = Vec::new();
    let mut base = abs.as_path();
    loop {
        if let Ok(c) = fs::canonicalize(base) {
            let mut out = c;
            for part in tail.iter().rev() {
                match part {
                    std::path::Component::ParentDir => {
                        out.pop();
                    }
                    std::path::Component::Normal(x) => out.push(x),
                    _ => {}
                }
            }
            return Ok(out);
        }
        let mut parts = base.components();
        let Some(last) = parts.next_back() else { bail!("{}: no such directory", p.display()) };
        tail.push(last);
        base = parts.as_path();
    }
}

/// Removes the temporary files of an unfinished merge when dropped.
struct Partial(Vec<PathBuf>);

impl Drop for Partial {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = fs::remove_file(p);
        }
    }
}

/// Refuses an output directory `out` that is, contains or is inside one of the
/// inputs `dirs`, or an input that is not a directory.
fn check_apart(out: &Path, dirs: &[PathBuf]) -> Result<()> {
    let out_at = resolved(out)?;
    for d in dirs {
        let at = fs::canonicalize(d).on("reading the input", d)?;
        ensure!(at.is_dir(), "{} is a file, not a run directory: merge takes shard directories", d.display());
        if out_at.starts_with(&at) || at.starts_with(&out_at) {
            bail!(
                "the output {} is, contains or is inside the input {}: merge into a directory apart \
                 from the shards",
                out.display(),
                d.display()
            );
        }
    }
    Ok(())
}

/// The format a merge writes: `format`, or (`None`) the files every shard holds.
fn merge_format(format: Option<Format>, parts: &[(Manifest, PathBuf)]) -> Format {
    match format {
        Some(f) => f,
        None => {
            match (parts.iter().all(|(m, _)| m.format.csv()), parts.iter().all(|(m, _)| m.format.parquet())) {
                (true, true) => Format::Both,
                (false, true) => Format::Parquet,
                _ => Format::Csv, // a shard without deals.csv is named by check_shard_files
            }
        }
    }
}

/// Refuses a shard that lacks a file of rows `format` asks for, or whose files
/// do not have the sizes and checksums its manifest vouches for.
fn check_shard_files(parts: &[(Manifest, PathBuf)], format: Format) -> Result<()> {
    for (m, d) in parts {
        let lacks = |f: &str| {
            invalid!(
                "{}: no {f} (the shard was run with --format {}); merge it with --format {}, or run the \
                 shards with --format {}",
                d.display(),
                m.format,
                m.format,
                if format == Format::Both { "both".to_string() } else { format.to_string() }
            )
        };
        if format.csv() {
            if !m.format.csv() {
                return Err(lacks("deals.csv"));
            }
            let csv = d.join("deals.csv");
            let len = fs::metadata(&csv).on("reading", &csv)?.len();
            ensure!(
                len == m.csv_bytes,
                "{}: deals.csv holds {len} bytes but its checkpoint counts {}: the shard was changed or is \
                 incomplete; run it again",
                d.display(),
                m.csv_bytes
            );
            check_csv_header(&csv, "merge it")?;
        }
        if format.parquet() {
            if !m.format.parquet() {
                return Err(lacks(DEALS_PARQUET));
            }
            let p = d.join(DEALS_PARQUET);
            let len = fs::metadata(&p).on("reading", &p)?.len();
            ensure!(
                Some(len) == m.parquet_bytes,
                "{}: holds {len} bytes but its checkpoint counts {}: the shard was changed or is incomplete; \
                 run it again",
                p.display(),
                m.parquet_bytes.unwrap_or(0)
            );
        }
        // Every file of the shard with the bytes its manifest vouches for.
        verify_run(d, m, Missing::Allowed)?;
    }
    Ok(())
}

/// Refuses shards of different runs, a shard given twice and a missing one;
/// sorts them by index. The whole run's configuration.
fn check_one_run(parts: &mut [(Manifest, PathBuf)]) -> Result<TournamentConfig> {
    let whole = parts[0].0.config.whole();
    let count = parts[0].0.config.shard.count;
    for (m, d) in parts.iter() {
        ensure!(
            m.config.whole() == whole,
            "{} belongs to another run than {} (configurations differ)",
            d.display(),
            parts[0].1.display()
        );
        ensure!(m.config.shard.count == count, "{} was split into another number of shards", d.display());
        ensure!(
            m.deal_book == parts[0].0.deal_book,
            "{} was played on another deal book than {}",
            d.display(),
            parts[0].1.display()
        );
    }
    parts.sort_by_key(|(m, _)| m.config.shard.index);
    for w in parts.windows(2) {
        let ((m, a), (n, b)) = (&w[0], &w[1]);
        ensure!(
            m.config.shard.index != n.config.shard.index,
            "shard {} is given twice: {} and {}",
            m.config.shard,
            a.display(),
            b.display()
        );
    }
    // Indices are distinct and below `count`: the first gap is a missing shard.
    if let Some(k) = (0..=parts.len() as u64)
        .find(|&k| parts.get(k as usize).is_none_or(|(m, _)| m.config.shard.index != k))
        && k < count
    {
        bail!("shard {k}/{count} is missing ({} of {count} shards given)", parts.len());
    }
    Ok(whole)
}

/// The shards' rows, statistics and compute merged: the rows streamed into
/// `csv` (`deals.csv`'s temporary file) and `parquet` (`deals.parquet`'s) as
/// `format` asks.
struct Merged {
    stats: Stats,
    /// The shards' compute, in shard (deal) order; none when a shard has none.
    compute: Option<Compute>,
    csv_bytes: u64,
    parquet_bytes: Option<u64>,
}

fn merge_rows(
    parts: &[(Manifest, PathBuf)],
    format: Format,
    csv: &Path,
    parquet: &Path,
    rows_per_unit: u64,
) -> Result<Merged> {
    let header = csv_header()?;
    let mut w = if format.csv() {
        let mut w = std::io::BufWriter::new(File::create(csv).on("creating", csv)?);
        w.write_all(&header).on("writing", csv)?;
        Some(w)
    } else {
        None
    };
    // The merged rows' row groups start at unit 0 of the whole run, as one run's.
    let mut pw = if format.parquet() {
        Some(crate::parquet::GroupWriter::create(parquet, 0, rows_per_unit)?)
    } else {
        None
    };
    let mut stats = Stats::default();
    let mut compute = Some(Compute::default());
    for (m, d) in parts {
        // Streamed: a shard's rows are never all in memory.
        if let Some(w) = w.as_mut() {
            let p = d.join("deals.csv");
            check_csv_header(&p, "merge it")?;
            let mut r = File::open(&p).on("reading", &p)?;
            let mut head = vec![0; header.len()];
            r.read_exact(&mut head).on("reading", &p)?;
            std::io::copy(&mut r, w).on("copying", &p)?;
        }
        if let Some(pw) = pw.as_mut() {
            let p = d.join(DEALS_PARQUET);
            let want = m.units_completed * rows_per_unit;
            let n = crate::parquet::row_count(&p)?;
            ensure!(
                n == want,
                "{}: holds {n} rows but its shard has {want}; run the shard again",
                p.display()
            );
            for b in crate::parquet::batches(&p)? {
                pw.write(&b?)?;
            }
        }
        stats.merge(&read_stats(d, m)?);
        compute = match (compute, read_compute(d, m.deals_completed)?) {
            (Some(mut all), Some(c)) => {
                all.try_merge(&c).with_context(|| format!("{}: its compute", d.display()))?;
                Some(all)
            }
            _ => None,
        };
    }
    let csv_bytes = match w {
        Some(w) => {
            let mut f = w.into_inner().map_err(std::io::IntoInnerError::into_error).on("writing", csv)?;
            f.flush().on("writing", csv)?;
            f.sync_all().on("writing", csv)?;
            f.metadata()?.len()
        }
        None => 0,
    };
    let parquet_bytes = match pw {
        Some(pw) => {
            pw.close()?;
            Some(fs::metadata(parquet)?.len())
        }
        None => None,
    };
    Ok(Merged { stats, compute, csv_bytes, parquet_bytes })
}

/// Merges the finished shard directories `dirs` (in any order) into the run
/// directory `out` (`force`: replacing a run there); returns the summary table.
/// `format` says which files of rows to write (`None`: the shards' format); each
/// shard must hold them.
pub fn merge(
    out: &Path,
    dirs: &[PathBuf],
    force: bool,
    build: Option<Build>,
    command_line: Vec<String>,
    format: Option<Format>,
) -> Result<String> {
    // Before anything is touched: the output must be apart from every input.
    check_apart(out, dirs)?;
    let mut parts = Vec::new();
    let mut input_locks = Vec::new();
    for d in dirs {
        input_locks.push(lock_input(d)?);
        let m = read_manifest(d)?;
        ensure!(m.complete, "{} is not a finished shard (run it again with --resume)", d.display());
        parts.push((m, d.clone()));
    }
    let format = merge_format(format, &parts);
    check_shard_files(&parts, format)?;
    let whole = check_one_run(&mut parts)?;
    let _lock = lock_dir(out)?;
    let existing: Vec<&str> = RUN_FILES.iter().copied().filter(|f| out.join(f).exists()).collect();
    if !existing.is_empty() && !force {
        bail!("{} already holds a run ({}); use --force to overwrite it", out.display(), existing.join(", "));
    }
    // Everything is written under temporary names, renamed into place at the end.
    let tmp_of = |f: &str| out.join(format!("{f}.partial"));
    let partial = Partial(RUN_FILES.iter().map(|f| tmp_of(f)).collect());
    let tmp = tmp_of("deals.csv");
    let rows_per_unit = whole.scoring.unit_len() * whole.seatings().len() as u64;
    let tmp_parquet = tmp_of(DEALS_PARQUET);
    let Merged { stats, compute, csv_bytes, parquet_bytes } =
        merge_rows(&parts, format, &tmp, &tmp_parquet, rows_per_unit)?;
    durable::write_atomic(&tmp_of("stats.json"), serde_json::to_string(&stats)?.as_bytes())?;
    // (The merged run may seat agents of another registry: only its shape counts.)
    let mut m = Manifest {
        tool: "tresillo".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        build,
        command_line,
        config: whole.clone(),
        deal_range: [0, whole.deals],
        deals_completed: whole.deals,
        units_completed: whole.units(),
        csv_bytes,
        complete: true,
        record: None,
        format,
        parquet_bytes,
        time_budget: parts.iter().flat_map(|(m, _)| m.time_budget.iter().cloned()).fold(
            Vec::new(),
            |mut v, s| {
                if !v.contains(&s) {
                    v.push(s);
                }
                v
            },
        ),
        deal_book: parts[0].0.deal_book.clone(),
        bots: parts[0].0.bots.clone(),
        crc32: BTreeMap::new(),
    };
    let (bytes, table) = summary(&whole, &stats, rows_per_unit)?;
    durable::write_atomic(&tmp_of("summary.csv"), &bytes)?;
    let rows = if format.csv() { &tmp } else { &tmp_parquet };
    let mut table = table + &write_pairs(rows, &tmp_of("pairs.csv"), &whole)?;
    if let Some(c) = &compute {
        durable::write_atomic(&tmp_of(COMPUTE_JSON), serde_json::to_string(c)?.as_bytes())?;
        table += &write_compute(tmp_of, &whole, c)?;
    }
    // The checksums of the files written, as a run in one piece records them
    // (not the measured compute files); the manifest is written last.
    for f in complete_files(format, compute.is_some()) {
        if !["manifest.json", COMPUTE_JSON, COMPUTE_CSV].contains(&f) {
            m.crc32.insert(
                f.into(),
                tresillo_durable::checksum::hex(tresillo_durable::checksum::file(&tmp_of(f), None)?),
            );
        }
    }
    durable::write_atomic(&tmp_of("manifest.json"), serde_json::to_string_pretty(&m)?.as_bytes())?;
    publish(tmp_of, out, &complete_files(format, compute.is_some()))?;
    drop(partial);
    drop(input_locks);
    Ok(table)
}

/// Whether a file the manifest names may be missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// Every file of a complete run must be there (`tresillo verify`).
    Refused,
    /// Files that are there are checked, missing ones are left to the caller
    /// (`--resume` rebuilds derived files; `report` draws a run kept without its
    /// rows).
    Allowed,
}

/// Checks the run in `dir`, whose manifest is `m`, against the checksums its
/// manifest records (see the module's documentation); returns how many files were
/// checked by checksum. The first bad file is named in a one-line error.
pub fn verify_run(dir: &Path, m: &Manifest, missing: Missing) -> Result<usize> {
    let mut checked = 0;
    if m.complete && missing == Missing::Refused {
        let lacks = missing_files(dir, m);
        if !lacks.is_empty() {
            bail!(
                "{}: marked complete but lacks {} (`--resume` rebuilds what it derives from the rows)",
                dir.display(),
                lacks.join(", ")
            );
        }
        check_deals_size(dir, m)?;
    }
    // A checksum of a name no run writes (a key edited, a byte flipped) vouches
    // for nothing, and leaves the file it was for unchecked.
    for name in m.crc32.keys() {
        if !RUN_FILES.contains(&name.as_str()) && !name.starts_with(&format!("{PARTS_DIR}/")) {
            bail!(
                "{}: its manifest records a checksum of {name:?}, which is not a file of a run (was the \
                 manifest edited?)",
                dir.display()
            );
        }
    }
    if !m.crc32.is_empty() {
        // A manifest with checksums has one of the rows and of the statistics.
        for f in ["stats.json", "deals.csv"] {
            if (f == "stats.json" || m.format.csv()) && !m.crc32.contains_key(f) {
                bail!(
                    "{}: its manifest records checksums but none of {f} (was the manifest edited?)",
                    dir.display()
                );
            }
        }
    }
    for (name, want) in &m.crc32 {
        let p = dir.join(name);
        if name == "stats.json" {
            // The statistics the manifest counts (stats.next.json after a kill
            // between the manifest and its renaming).
            if missing == Missing::Refused || p.exists() || dir.join("stats.next.json").exists() {
                read_stats(dir, m)?;
                checked += 1;
            }
            continue;
        }
        if !p.exists() && missing == Missing::Allowed && !name.starts_with(PARTS_DIR) {
            continue;
        }
        if m.complete && name.starts_with(PARTS_DIR) {
            continue; // a kill left them after deals.parquet was counted; unused
        }
        // deals.csv up to the checkpoint: rows past it are a kill's and unchecked.
        let len = (name == "deals.csv" && !m.complete).then_some(m.csv_bytes);
        tresillo_durable::checksum::verify(&p, len, want)?;
        checked += 1;
    }
    // The compute checkpoint carries no checksum, but must be one: `--resume`,
    // `merge` and `report` read it and refuse a malformed one.
    if dir.join(COMPUTE_JSON).exists() || dir.join(COMPUTE_NEXT).exists() {
        read_compute(dir, m.deals_completed)?;
    }
    if let Some(r) = &m.record
        && let Some(want) = &r.crc32
    {
        // A run that replaces another records into FILE.partial until complete.
        let partial =
            !m.complete && dir.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".partial"));
        let p = if partial { partial_record(&r.path) } else { r.path.clone() };
        if p.is_file() {
            tresillo_durable::checksum::verify(&p, Some(r.bytes), want)?;
            checked += 1;
        }
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parquet_columns_are_the_csv_header() {
        let names: Vec<&str> = crate::parquet::COLUMNS.iter().map(|c| c.name).collect();
        assert_eq!(format!("{}\n", names.join(",")).into_bytes(), csv_header().unwrap());
    }

    #[test]
    fn batches_start_at_one_unit_per_thread_and_grow_with_the_speed() {
        // Duplicate deals: six rows a unit, at most 2730 units a batch.
        let mut b = Batches::new(2, 6, None);
        assert_eq!(b.next(), 2, "the first checkpoint comes after one unit per thread");
        // A slow agent: 2 units in 4 s. The next batch takes about BATCH_SECS.
        b.played(2, 4.0);
        assert_eq!(b.next(), 2);
        b.played(2, 1.0); // 2 units a second: 6 in 3 s
        assert_eq!(b.next(), 6);
        // A fast agent grows at most fourfold a batch, up to the old 16k rows.
        let mut b = Batches::new(2, 6, None);
        let mut sizes = vec![b.next()];
        for _ in 0..6 {
            b.played(b.next(), 0.001);
            sizes.push(b.next());
        }
        assert_eq!(sizes, [2, 8, 32, 128, 512, 2048, 2730]);
        // Never fewer than one unit per thread, never more than the cap, even at
        // one thread and huge units.
        let mut b = Batches::new(1, 20_000, None);
        assert_eq!(b.next(), 1);
        b.played(1, 100.0);
        assert_eq!(b.next(), 1);
        let mut b = Batches::new(8, 6, None);
        b.played(8, 1000.0);
        assert_eq!(b.next(), 8);
        // A fixed size (TRESILLO_BATCH_UNITS) stays fixed.
        let mut b = Batches::new(2, 6, Some(3));
        b.played(3, 0.001);
        assert_eq!(b.next(), 3);
    }
}
