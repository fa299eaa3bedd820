//! `tresillo tournament` and `tresillo merge`: files, checkpoints, resume, progress.
//!
//! A run directory holds `deals.csv` (rows in deal order), `stats.json` (the counts
//! and sums so far), `manifest.json` (configuration and progress) and, once
//! complete, `summary.csv`. After every batch the rows are appended and synced, then
//! `stats.json` and `manifest.json` are replaced atomically, so an interrupted run
//! loses at most the batch in flight; `--resume` truncates `deals.csv` to the length
//! the manifest records and carries on.

use anyhow::{Context, Result, bail, ensure};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::fs::{self, File, OpenOptions};
use std::io::{IsTerminal, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tresillo_core::RuleSet;
use tresillo_sim::{Scoring, Shard, Stats, SummaryRow, Tournament, TournamentConfig};

/// Arguments of `tresillo tournament`.
#[derive(clap::Args, Clone)]
pub struct TournamentArgs {
    /// Three agent specs, comma-separated, one per agent slot (see `tresillo agents`).
    #[arg(long, default_value = "rule,rule,random")]
    pub agents: String,
    /// Deals to play (the whole run, all shards).
    #[arg(long, default_value_t = 100_000)]
    pub deals: u64,
    /// The master seed: deal i is a pure function of (seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The output directory.
    #[arg(long, default_value = "out/tournament")]
    pub out: PathBuf,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Play every deal under all six seatings of the three agents.
    #[arg(long)]
    pub duplicate: bool,
    /// `deal` (a fresh ledger per hand) or `session:K` (K consecutive deals per ledger).
    #[arg(long, default_value = "deal")]
    pub scoring: String,
    /// The rule set.
    #[arg(long, default_value = "tresillo")]
    pub rules: String,
    /// Play only shard K of N (`K/N`); merge the shards with `tresillo merge`.
    #[arg(long)]
    pub shard: Option<String>,
    /// Continue the interrupted run in the output directory.
    #[arg(long)]
    pub resume: bool,
    /// Overwrite a run already in the output directory.
    #[arg(long)]
    pub force: bool,
    /// An agent spec that makes every seat's auction, contract/trump, exchange and
    /// conversation decisions, so the seated agents differ only in card play,
    /// surrender, takeover and bola (for example `--bidding rule`).
    #[arg(long)]
    pub bidding: Option<String>,
    /// Also write every hand played to FILE as JSON Lines (docs/RECORDS.md), in
    /// deal order then seating order, like deals.csv.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

impl TournamentArgs {
    /// The tournament configuration these arguments describe.
    pub fn config(&self) -> Result<TournamentConfig> {
        let agents: Vec<String> = self.agents.split(',').map(|s| s.trim().to_string()).collect();
        let config = TournamentConfig {
            agents,
            deals: self.deals,
            seed: self.seed,
            rules: self.rules.parse::<RuleSet>().map_err(anyhow::Error::msg)?,
            scoring: self.scoring.parse::<Scoring>()?,
            duplicate: self.duplicate,
            shard: match &self.shard {
                Some(s) => s.parse::<Shard>()?,
                None => Shard::WHOLE,
            },
            bidding: self.bidding.as_deref().map(|b| b.trim().to_string()),
        };
        config.validate()?;
        Ok(config)
    }
}

/// The progress and identity of a run directory.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Manifest {
    /// Always `tresillo`.
    pub tool: String,
    /// The tool's version.
    pub version: String,
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
}

/// Where a run writes its records, and the bytes of that file that hold the hands
/// of the finished deals (`--resume` truncates the file to them).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RecordProgress {
    /// The record file, as given to `--record`.
    pub path: PathBuf,
    /// Bytes holding finished hands.
    pub bytes: u64,
}

/// Opens the record file of a run for appending: a new run creates (or, when
/// `fresh`, truncates) it; a resumed one truncates it to its checkpoint.
fn open_record(progress: &RecordProgress, fresh: bool) -> Result<File> {
    let p = &progress.path;
    let f = if fresh {
        File::create(p).with_context(|| format!("creating {}", p.display()))?
    } else {
        let f = OpenOptions::new().write(true).open(p).with_context(|| format!("opening {}", p.display()))?;
        let len = f.metadata()?.len();
        ensure!(
            len >= progress.bytes,
            "{} holds {len} bytes but its checkpoint counts {}; start the run again with --force",
            p.display(),
            progress.bytes
        );
        f.set_len(progress.bytes).with_context(|| format!("truncating {} to its checkpoint", p.display()))?;
        f
    };
    drop(f);
    OpenOptions::new().append(true).open(p).with_context(|| format!("opening {}", p.display()))
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_replacing(path, bytes, true)
}

/// Writes `bytes` to a temporary file and renames it over `path`, so that readers
/// see the old or the new content, never a mix; `sync` also flushes it to disk.
fn write_replacing(path: &Path, bytes: &[u8], sync: bool) -> Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let mut f = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        f.write_all(bytes)?;
        if sync {
            f.sync_all()?;
        }
    }
    fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// Records progress: `stats.json`, then `manifest.json` (which names the rows of
/// `deals.csv` that are finished).
fn checkpoint(dir: &Path, stats: &Stats, manifest: &Manifest, sync: bool) -> Result<()> {
    write_replacing(&dir.join("stats.json"), serde_json::to_string(stats)?.as_bytes(), sync)?;
    write_replacing(&dir.join("manifest.json"), serde_json::to_string_pretty(manifest)?.as_bytes(), sync)
}

fn read_manifest(dir: &Path) -> Result<Manifest> {
    let p = dir.join("manifest.json");
    let text = fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}: not a tresillo manifest", p.display()))
}

fn read_stats(dir: &Path) -> Result<Stats> {
    let p = dir.join("stats.json");
    let text = fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}: malformed statistics", p.display()))
}

const RUN_FILES: [&str; 4] = ["manifest.json", "deals.csv", "stats.json", "summary.csv"];

/// Refuses to touch a directory holding another run unless `force`; with `force`,
/// removes that run's files.
fn claim_dir(dir: &Path, force: bool) -> Result<()> {
    let existing: Vec<&str> = RUN_FILES.iter().copied().filter(|f| dir.join(f).exists()).collect();
    if !existing.is_empty() {
        if !force {
            bail!(
                "{} already holds a run ({}); use --resume to continue it or --force to overwrite it",
                dir.display(),
                existing.join(", ")
            );
        }
        for f in existing {
            fs::remove_file(dir.join(f)).with_context(|| format!("removing {}", dir.join(f).display()))?;
        }
    }
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(())
}

fn csv_header() -> Result<Vec<u8>> {
    // The header is DealRow's field names in order: serialize a default row with
    // headers on and keep the first line.
    let mut w = csv::WriterBuilder::new().has_headers(true).from_writer(Vec::new());
    w.serialize(tresillo_sim::DealRow::default())?;
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    let end = bytes.iter().position(|b| *b == b'\n').expect("a header line") + 1;
    Ok(bytes[..end].to_vec())
}

/// Writes `summary.csv` in `dir` and returns the printable table.
fn write_summary(dir: &Path, config: &TournamentConfig, stats: &Stats, rows_per_unit: u64) -> Result<String> {
    let rows = stats.summary(&config.agents, rows_per_unit);
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(SummaryRow::header())?;
    for r in &rows {
        w.write_record(r.fields())?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    write_atomic(&dir.join("summary.csv"), &bytes)?;
    Ok(table(&rows))
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

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        ensure!(t >= 1, "--threads must be at least 1");
        b = b.num_threads(t);
    }
    Ok(b.build()?)
}

/// Runs `tresillo tournament`; returns the printed summary table.
pub fn run(a: &TournamentArgs, command_line: Vec<String>) -> Result<String> {
    let config = a.config()?;
    let dir = a.out.as_path();
    let t = Tournament::new(config.clone())?;
    let (u0, u1) = config.unit_range();
    let (d0, d1) = config.deal_range();
    let resumed = a.resume && dir.join("manifest.json").exists();
    let (mut manifest, mut stats) = if resumed {
        let m = read_manifest(dir)?;
        if m.config != config {
            bail!(
                "{} holds a run with another configuration ({:?}); use --force to overwrite it",
                dir.display(),
                m.config
            );
        }
        let s = read_stats(dir)?;
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
        f.set_len(m.csv_bytes).context("truncating deals.csv to its last checkpoint")?;
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
        (Manifest { command_line: command_line.clone(), ..m }, s)
    } else {
        claim_dir(dir, a.force)?;
        let header = csv_header()?;
        write_atomic(&dir.join("deals.csv"), &header)?;
        let m = Manifest {
            tool: "tresillo".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            command_line,
            config: config.clone(),
            deal_range: [d0, d1],
            deals_completed: 0,
            units_completed: 0,
            csv_bytes: header.len() as u64,
            complete: false,
            record: a.record.as_ref().map(|p| RecordProgress { path: p.clone(), bytes: 0 }),
        };
        let s = Stats::default();
        write_atomic(&dir.join("stats.json"), serde_json::to_string(&s)?.as_bytes())?;
        write_atomic(&dir.join("manifest.json"), serde_json::to_string_pretty(&m)?.as_bytes())?;
        (m, s)
    };
    let unit_len = config.scoring.unit_len();
    let rows_per_unit = t.rows_per_unit();
    // About 16k rows per batch: enough work for every core, little memory.
    let batch = (16_384 / rows_per_unit).max(1);
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(d1 - d0);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} deals  {per_sec}  ETA {eta}")
                .expect("template"),
        );
        b.set_position(manifest.deals_completed);
        b
    } else {
        ProgressBar::hidden()
    };
    let mut record_file = match &manifest.record {
        Some(r) => Some(open_record(r, !resumed)?),
        None => None,
    };
    let t = t.recording(record_file.is_some());
    let workers = pool(a.threads)?;
    let mut csv_file =
        OpenOptions::new().append(true).open(dir.join("deals.csv")).context("opening deals.csv")?;
    csv_file.seek(SeekFrom::End(0))?;
    let started = Instant::now();
    let first = u0 + manifest.units_completed;
    // The workers play batch after batch; a writer thread appends each finished
    // batch and checkpoints it while the next one is being played.
    let (tx, rx) = std::sync::mpsc::sync_channel::<(u64, Vec<(Vec<u8>, Stats, Vec<u8>)>)>(1);
    let (mut manifest, stats) = std::thread::scope(|scope| -> Result<(Manifest, Stats)> {
        let writer = scope.spawn(|| -> Result<(Manifest, Stats)> {
            for (units, outs) in rx {
                for (bytes, s, recs) in &outs {
                    csv_file.write_all(bytes)?;
                    manifest.csv_bytes += bytes.len() as u64;
                    stats.merge(s);
                    if let (Some(f), Some(r)) = (record_file.as_mut(), manifest.record.as_mut()) {
                        f.write_all(recs)?;
                        r.bytes += recs.len() as u64;
                    }
                }
                manifest.units_completed += units;
                manifest.deals_completed = manifest.units_completed * unit_len;
                // The rows are in the file before the manifest counts them, so a
                // killed process loses nothing that was written. (No fsync per batch:
                // it would protect only against the machine itself going down, at a
                // large cost; resume refuses a deals.csv shorter than its checkpoint.)
                checkpoint(dir, &stats, &manifest, false)?;
                bar.set_position(manifest.deals_completed);
            }
            Ok((manifest, stats))
        });
        let mut next = first;
        while next < u1 {
            let end = (next + batch).min(u1);
            let outs = workers.install(|| {
                t.run(next..end, |u| {
                    let mut w = csv::WriterBuilder::new()
                        .has_headers(false)
                        .from_writer(Vec::with_capacity(256 * u.rows.len()));
                    for r in &u.rows {
                        w.serialize(r).expect("rows serialize");
                    }
                    let mut recs = Vec::new();
                    for r in &u.records {
                        serde_json::to_writer(&mut recs, r).expect("records serialize");
                        recs.push(b'\n');
                    }
                    (w.into_inner().expect("in memory"), u.stats, recs)
                })
            })?;
            if tx.send((end - next, outs)).is_err() {
                break; // the writer failed; its error is reported below
            }
            next = end;
        }
        drop(tx);
        writer.join().map_err(|_| anyhow::anyhow!("the writer thread panicked"))?
    })?;
    bar.finish_and_clear();
    manifest.complete = true;
    checkpoint(dir, &stats, &manifest, true)?;
    let secs = started.elapsed().as_secs_f64();
    let table = write_summary(dir, &config, &stats, rows_per_unit)?;
    let played = (u1 - u0) * unit_len;
    let mut out = table;
    if secs > 0.0 && played > 0 {
        out.push_str(&format!(
            "{} deals ({} rows) in {:.2} s: {:.0} deals/s; output in {}\n",
            played,
            stats.rows,
            secs,
            played as f64 / secs,
            dir.display()
        ));
    }
    Ok(out)
}

/// Arguments of `tresillo merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The output directory for the merged run.
    pub out: PathBuf,
    /// The shard directories, in any order.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Overwrite a run already in the output directory.
    #[arg(long)]
    pub force: bool,
}

/// Runs `tresillo merge`; returns the printed summary table.
pub fn merge(a: &MergeArgs, command_line: Vec<String>) -> Result<String> {
    let mut parts = Vec::new();
    for d in &a.dirs {
        let m = read_manifest(d)?;
        ensure!(m.complete, "{} is not a finished shard (run it again with --resume)", d.display());
        parts.push((m, d.clone()));
    }
    let whole = parts[0].0.config.whole();
    let count = parts[0].0.config.shard.count;
    for (m, d) in &parts {
        ensure!(
            m.config.whole() == whole,
            "{} belongs to another run than {} (configurations differ)",
            d.display(),
            parts[0].1.display()
        );
        ensure!(m.config.shard.count == count, "{} was split into another number of shards", d.display());
    }
    parts.sort_by_key(|(m, _)| m.config.shard.index);
    for (k, (m, d)) in parts.iter().enumerate() {
        ensure!(
            m.config.shard.index == k as u64,
            "shard {k}/{count} is missing or given twice (found {} in {})",
            m.config.shard,
            d.display()
        );
    }
    ensure!(parts.len() as u64 == count, "{} of {count} shards given", parts.len());
    let out = a.out.as_path();
    claim_dir(out, a.force)?;
    let header = csv_header()?;
    let tmp = out.join("deals.csv.tmp");
    let mut w = std::io::BufWriter::new(File::create(&tmp)?);
    w.write_all(&header)?;
    let mut stats = Stats::default();
    for (_, d) in &parts {
        let text = fs::read(d.join("deals.csv"))
            .with_context(|| format!("reading {}", d.join("deals.csv").display()))?;
        ensure!(text.starts_with(&header), "{}: unexpected deals.csv header", d.display());
        w.write_all(&text[header.len()..])?;
        stats.merge(&read_stats(d)?);
    }
    let mut f = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    f.flush()?;
    f.sync_all()?;
    let csv_bytes = f.metadata()?.len();
    fs::rename(&tmp, out.join("deals.csv"))?;
    write_atomic(&out.join("stats.json"), serde_json::to_string(&stats)?.as_bytes())?;
    let t = Tournament::new(whole.clone())?;
    let m = Manifest {
        tool: "tresillo".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        command_line,
        config: whole.clone(),
        deal_range: [0, whole.deals],
        deals_completed: whole.deals,
        units_completed: whole.units(),
        csv_bytes,
        complete: true,
        record: None,
    };
    write_atomic(&out.join("manifest.json"), serde_json::to_string_pretty(&m)?.as_bytes())?;
    write_summary(out, &whole, &stats, t.rows_per_unit())
}
