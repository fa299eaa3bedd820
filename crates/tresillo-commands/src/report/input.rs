//! Reading the runs a report draws: tournament directories (`manifest.json`,
//! `summary.csv`, and `deals.csv` when present) and tuning runs (a candidates CSV
//! and its `.manifest.json`). Every error names the file, and the line where there
//! is one.

use super::compute::{ComputeRow, read_compute};
use super::csv_error::csv_error;
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
    /// A league directory.
    League(super::league::LeagueRun),
    /// An `sprt --out` directory.
    Sprt(super::sprt::SprtRun),
}

impl Run {
    /// Its short name.
    pub fn label(&self) -> &str {
        match self {
            Run::Tournament(t) => &t.label,
            Run::Tune(t) => &t.label,
            Run::League(l) => &l.label,
            Run::Sprt(s) => &s.label,
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
                    Run::League(l) => l.label = l.path.display().to_string(),
                    Run::Sprt(s) => s.label = s.path.display().to_string(),
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
    if path.join("league.json").is_file() {
        return Ok(Run::League(super::league::LeagueRun::load(path, label_of(path))?));
    }
    if path.join("manifest.json").is_file() {
        return Ok(Run::Tournament(TournamentRun::load(path)?));
    }
    if path.join("sprt.json").is_file() {
        return Ok(Run::Sprt(super::sprt::SprtRun::load(path, label_of(path))?));
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
            "{}: not a run directory (no manifest.json of a tournament, no *.manifest.json of a tuning run, no \
             league.json of a league, no sprt.json of a sequential test)",
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

/// A row of `pairs.csv`: slot A and slot B (`slot:spec`), the units, the mean
/// and the interval's ends, and the Elo difference with its interval as text
/// (empty in files before issue 55).
pub type PairRow = (String, String, String, Option<f64>, Option<f64>, Option<f64>, String);

/// The rows of a `pairs.csv`; a file that is not one is refused naming its line.
fn read_pairs(path: &Path) -> Result<Vec<PairRow>> {
    let mut r = csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    let header: Vec<String> = r.headers()?.iter().map(str::to_string).collect();
    // Runs before issue 33 end at ci95_high.
    let width = header.len();
    ensure!(
        [tresillo_runs::pairs::HEADER, tresillo_runs::pairs::HEADER_V2, tresillo_runs::pairs::HEADER_V1]
            .contains(&header.join(",").as_str()),
        "{} line 1: not the header of a pairs.csv (expected {})",
        path.display(),
        tresillo_runs::pairs::HEADER
    );
    let mut out = Vec::new();
    for (i, row) in r.records().enumerate() {
        let row = row.with_context(|| format!("{} line {}", path.display(), i + 2))?;
        ensure!(
            row.len() == width,
            "{} line {}: {} fields, expected {width}",
            path.display(),
            i + 2,
            row.len()
        );
        let num = |k: usize| row[k].parse::<f64>().ok();
        out.push((
            format!("{}:{}", &row[0], &row[1]),
            format!("{}:{}", &row[2], &row[3]),
            row[4].to_string(),
            num(5),
            num(6),
            num(7),
            if width > 14 && !row[12].is_empty() {
                format!("{} [{}, {}]", &row[12], &row[13], &row[14])
            } else {
                String::new()
            },
        ));
    }
    Ok(out)
}

/// Per-agent-slot counts from `deals.csv`, for the hands the slot declared (the
/// original declarer) and, for takeovers, the hands it defended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlotDeals {
    /// Hands declared and played (not cancelled), per contract family.
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
    /// Rows it played, and the sums of its result and of its square, per position
    /// at the table: dealer, mano, medio, postre (the last only at four players).
    pub by_position: [(u64, i64, u64); 4],
    /// Four players: rows it dealt and sat out.
    pub sat_out: u64,
    /// Of which all passed and it penetró.
    pub penetro: u64,
    /// Of which it gave the penetro up at once.
    pub penetro_given_up: u64,
    /// Penetros (not given up at once) it faced as one of the three others.
    pub penetro_faced: u64,
    /// Of which it dropped out.
    pub dropped_out: u64,
}

/// The hands declared under one contract name of the rule set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Named {
    /// The contract as the rule set names it (`game`, `spades solo`, `nolo ouvert`,
    /// `simple game`, `obligation`, `penetro`, ...).
    pub name: String,
    /// Per slot: hands declared under it (played, original declarer).
    pub declared: Vec<u64>,
    /// Per slot: of which won (sacado, without a takeover).
    pub won: Vec<u64>,
}

/// What the report reads from `deals.csv`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deals {
    /// Per agent slot.
    pub slots: Vec<SlotDeals>,
    /// The contracts by the rule set's names, in the order first seen sorted by
    /// rank (the engine's contract order, then the trump suit).
    pub named: Vec<Named>,
    /// Seats at the table (3 or 4).
    pub players: u8,
    /// Whether the dealer sits out each hand: the rule set's table of `players`
    /// ([`tresillo_core::Table::dealer_sits_out`]).
    pub dealer_sits_out: bool,
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

/// The contracts, in the order of the summary's columns (the families every
/// contract counts in, [`tresillo_core::Contract::family`]).
pub const CONTRACTS: [&str; 3] = [
    tresillo_core::Contract::ALL[0].name(),
    tresillo_core::Contract::ALL[1].name(),
    tresillo_core::Contract::ALL[2].name(),
];

/// The columns the report needs (each a column of [`tresillo_sim::schema::COLUMNS`],
/// which a test checks). Columns added by later versions are optional,
/// so a `deals.csv` written before them (no `players`, seat-3, `penetro`,
/// `dropped_out`, `gascarille` columns) is read as a three-player file.
#[derive(Deserialize)]
struct DealRecord {
    seating: String,
    rules: String,
    dealer: u8,
    contract: String,
    trump: String,
    declarer: Option<u8>,
    forced: u8,
    tricks0: u8,
    tricks1: u8,
    tricks2: u8,
    outcome: String,
    puesta_kind: String,
    surrendered: Option<u8>,
    took_over: Option<u8>,
    primeras: u8,
    bola: String,
    pool0: i64,
    cond0: i64,
    pool1: i64,
    cond1: i64,
    pool2: i64,
    cond2: i64,
    #[serde(default)]
    players: Option<u8>,
    #[serde(default)]
    tricks3: Option<u8>,
    #[serde(default)]
    pool3: Option<i64>,
    #[serde(default)]
    cond3: Option<i64>,
    #[serde(default)]
    penetro: Option<u8>,
    #[serde(default)]
    dropped_out: Option<u8>,
    #[serde(default)]
    gascarille: Option<u8>,
}

/// The name the rule set gives the contract of a row (docs/CLI.md, "deals.csv
/// columns"), and its sort key.
fn contract_name(d: &DealRecord, line: u64, path: &Path) -> Result<Option<(u16, String)>> {
    use tresillo_core::{Contract, RuleSet, Suit};
    let set: RuleSet = d.rules.parse().map_err(|_| {
        anyhow::anyhow!("{} line {line}: rule set {:?} is not one tresillo plays", path.display(), d.rules)
    })?;
    if d.contract.is_empty() && d.penetro == Some(1) {
        return Ok(Some((1, "penetro given up at once".into())));
    }
    let Some(contract) = tresillo_sim::schema::contract_named(&d.contract) else {
        return Ok(None);
    };
    let trump: Option<Suit> = if d.trump.is_empty() {
        None
    } else {
        Some(tresillo_core::parse_suit(&d.trump).map_err(|_| {
            anyhow::anyhow!("{} line {line}: trump {:?} is not a suit", path.display(), d.trump)
        })?)
    };
    let names = set.names();
    let words = set.spec().words;
    let rank = u16::from(names.rank(contract, trump));
    let name = match (words.contracts_by_name, contract) {
        (true, _) => names.contract(contract, trump),
        (_, Contract::Entrada) if d.gascarille == Some(1) => "gascarille".into(),
        _ if d.penetro == Some(1) => "penetro".into(),
        (_, Contract::Entrada) if d.forced == 1 => words.forced_name.into(),
        (_, Contract::Entrada) => words.entrada_name.unwrap_or(contract.name()).into(),
        _ => contract.name().into(),
    };
    Ok(Some((rank, name)))
}

/// Reads `deals.csv`, or `deals.parquet` (its rows as the CSV's text records),
/// into per-slot counts; `slots` is the number of agent slots (three, or four at
/// a table of four). In messages a Parquet row *k* is "line *k* + 1", the line of
/// the same row in the CSV.
fn read_deals(path: &Path, slots_n: usize) -> Result<Deals> {
    let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let parquet = path.extension().is_some_and(|e| e == "parquet");
    let mut pq = if parquet { Some(tresillo_runs::parquet::RecordReader::open(path)?) } else { None };
    let mut r = csv::Reader::from_reader(std::io::BufReader::with_capacity(1 << 20, file));
    let mut slots: Vec<SlotDeals> = vec![SlotDeals::default(); slots_n];
    let mut named: Vec<(u16, Named)> = Vec::new();
    let mut players = tresillo_core::Table::DEFAULT_PLAYERS;
    let mut dealer_sits_out = false;
    let mut record = csv::StringRecord::new();
    let headers = match pq {
        Some(_) => tresillo_runs::parquet::header(),
        None => r.headers().map_err(|e| csv_error(path, &e))?.clone(),
    };
    loop {
        let more = match pq.as_mut() {
            Some(p) => p.read_record(&mut record)?,
            None => r.read_record(&mut record).map_err(|e| csv_error(path, &e))?,
        };
        if !more {
            break;
        }
        let line = match &pq {
            Some(p) => p.row() + 1,
            None => record.position().map_or(0, csv::Position::line),
        };
        let d: DealRecord = record.deserialize(Some(&headers)).map_err(|e| match &pq {
            Some(_) => anyhow::anyhow!("{} line {line}: {e}", path.display()),
            None => csv_error(path, &e),
        })?;
        let bad = |what: &str| anyhow::anyhow!("{} line {line}: {what}", path.display());
        let n = usize::from(d.players.unwrap_or(3));
        let seating: Vec<usize> = d.seating.bytes().map(|b| b.wrapping_sub(b'0') as usize).collect();
        let mut sorted = seating.clone();
        sorted.sort_unstable();
        if n != slots_n || !sorted.iter().copied().eq(0..n) {
            return Err(bad(&format!(
                "seating {:?} ({n} players) is not an order of the run's {slots_n} agent slots",
                d.seating
            )));
        }
        players = n as u8;
        let set: tresillo_core::RuleSet =
            d.rules.parse().map_err(|_| bad(&format!("rule set {:?} is not one tresillo plays", d.rules)))?;
        let table = set.table(players);
        dealer_sits_out = table.dealer_sits_out;
        let dealer = usize::from(d.dealer);
        let tricks = [d.tricks0, d.tricks1, d.tricks2, d.tricks3.unwrap_or(0)];
        let results = [
            d.pool0 + d.cond0,
            d.pool1 + d.cond1,
            d.pool2 + d.cond2,
            d.pool3.unwrap_or(0) + d.cond3.unwrap_or(0),
        ];
        if dealer >= n
            || d.declarer.is_some_and(|s| usize::from(s) >= n)
            || tricks.iter().map(|t| u32::from(*t)).sum::<u32>() > u32::from(tresillo_core::MAX_TRICKS)
        {
            return Err(bad("dealer, declarer seat or tricks out of range"));
        }
        for seat in 0..n {
            let p = &mut slots[seating[seat]].by_position[(seat + n - dealer) % n];
            p.0 += 1;
            p.1 += results[seat];
            p.2 += results[seat].unsigned_abs() * results[seat].unsigned_abs();
        }
        if table.dealer_sits_out {
            slots[seating[dealer]].sat_out += 1;
            if d.penetro == Some(1) {
                let given_up = d.contract.is_empty();
                let s = &mut slots[seating[dealer]];
                s.penetro += 1;
                s.penetro_given_up += u64::from(given_up);
                if !given_up {
                    for seat in (0..n).filter(|s| *s != dealer) {
                        let s = &mut slots[seating[seat]];
                        s.penetro_faced += 1;
                        s.dropped_out += u64::from(d.dropped_out == Some(seat as u8));
                    }
                }
            }
        }
        // `lhombre`'s contracts count in the column of their family, as in
        // summary.csv (`Contract::family`; `hombre`'s contrabola in none).
        let column = tresillo_sim::schema::contract_named(&d.contract)
            .and_then(|c| CONTRACTS.iter().position(|x| *x == c.family().name()));
        let name = contract_name(&d, line, path)?;
        if let (Some(decl), Some((rank, name))) = (d.declarer, name) {
            let i = match named.iter().position(|(_, x)| x.name == name) {
                Some(i) => i,
                None => {
                    let z = vec![0; slots_n];
                    named.push((rank, Named { name, declared: z.clone(), won: z }));
                    named.len() - 1
                }
            };
            let slot = seating[usize::from(decl)];
            named[i].1.declared[slot] += 1;
            named[i].1.won[slot] += u64::from(d.outcome == "sacado" && d.took_over.is_none());
        }
        let (Some(decl), Some(c)) = (d.declarer, column) else {
            // Cancelled hands, a penetro given up at once, and `hombre`'s
            // contrabola (outside the per-contract charts, as in summary.csv).
            if d.contract.is_empty() || d.contract == "contrabola" {
                continue;
            }
            return Err(bad(&format!("contract {:?} without a declarer, or unknown", d.contract)));
        };
        let seat = usize::from(decl);
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
    named.sort_by(|a, b| (a.0, &a.1.name).cmp(&(b.0, &b.1.name)));
    Ok(Deals { slots, named: named.into_iter().map(|(_, n)| n).collect(), players, dealer_sits_out })
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
    pub deals: Option<Deals>,
    /// `pairs.csv` (the paired difference of every pair of slots), when the
    /// directory has it: `(slot_a:agent, slot_b:agent, units, mean, low, high)`.
    pub pairs: Vec<PairRow>,
    /// `compute.csv` (what each slot spent), when the directory has it.
    pub compute: Vec<ComputeRow>,
}

impl TournamentRun {
    fn load(dir: &Path) -> Result<TournamentRun> {
        let mp = dir.join("manifest.json");
        let text = fs::read_to_string(&mp).with_context(|| format!("reading {}", mp.display()))?;
        let manifest: Manifest = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a tresillo manifest", mp.display()))?;
        // (The measured compute files are drawn when present, and a page without
        // the rows says they are missing: neither is required here. A directory
        // without its rows is a summary kept for the record, as results/ keeps
        // them, some older than pairs.csv: there only summary.csv is required.)
        let rows = dir.join("deals.csv").exists() || dir.join("deals.parquet").exists();
        let missing: Vec<&str> = tresillo_runs::missing_files(dir, &manifest)
            .into_iter()
            .filter(|f| {
                !["compute.csv", "forfeits.csv", "compute.json", "deals.csv", "deals.parquet"].contains(f)
                    && (rows || *f != "pairs.csv")
            })
            .collect();
        ensure!(
            missing.is_empty(),
            "{}: marked complete but lacks {} (`tresillo tournament --resume` rebuilds what it derives from \
             the rows)",
            dir.display(),
            missing.join(", ")
        );
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
        let dp = tresillo_runs::rows_file(dir);
        let deals = if dp.is_file() && manifest.complete {
            // A malformed row is named first; a well-formed file cut short (or
            // grown) is refused by its size, which the manifest records.
            let deals = read_deals(&dp, agents.len())?;
            crate::tournament::check_deals_size(dir, &manifest)?;
            Some(deals)
        } else {
            None
        };
        let pp = dir.join("pairs.csv");
        let pairs = if pp.is_file() { read_pairs(&pp)? } else { Vec::new() };
        let cp = dir.join("compute.csv");
        let compute = if cp.is_file() { read_compute(&cp)? } else { Vec::new() };
        // Files that parse, of the sizes the manifest counts, must also have the
        // bytes its checksums vouch for.
        tresillo_runs::verify::verify_run(dir, &manifest, tresillo_runs::verify::Missing::Allowed)?;
        Ok(TournamentRun {
            path: dir.to_path_buf(),
            label: label_of(dir),
            manifest,
            summary,
            deals,
            pairs,
            compute,
        })
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
    /// The rule set and its options (a name, or a table with options).
    pub rules: tresillo_core::Rules,
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
    /// The verdict (absent in manifests of older versions).
    #[serde(default)]
    pub recommendation: Option<TuneRecommendation>,
}

/// A tune's verdict, as its manifest records it.
#[derive(Deserialize)]
pub struct TuneRecommendation {
    /// The recommended spec.
    pub spec: String,
    /// The verdict's line.
    pub verdict: String,
    /// The rule that decides.
    pub test: String,
    /// Fresh deals of the confirmation (0: none).
    pub confirm_deals: u64,
    /// Their seed.
    pub confirm_seed: Option<u64>,
    /// The best minus the start on the fresh deals.
    pub gain: Option<f64>,
    /// Its interval's low end.
    pub gain_ci95_low: Option<f64>,
    /// Its interval's high end.
    pub gain_ci95_high: Option<f64>,
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

#[cfg(test)]
mod tests {
    use super::DealRecord;
    use serde::de::{self, Deserialize, Deserializer, Visitor};

    /// A deserializer that only records the field names of the struct asked for.
    struct Fields(Vec<&'static str>);

    impl<'de> Deserializer<'de> for &mut Fields {
        type Error = de::value::Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0.extend_from_slice(fields);
            Err(de::Error::custom("fields recorded"))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
            unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
        }
    }

    #[test]
    fn every_column_the_report_reads_is_a_column_of_the_deals_schema() {
        let mut f = Fields(Vec::new());
        let _ = DealRecord::deserialize(&mut f);
        assert!(f.0.len() > 20, "{:?}", f.0);
        let names: Vec<&str> = tresillo_sim::schema::COLUMNS.iter().map(|c| c.name).collect();
        for field in f.0 {
            assert!(names.contains(&field), "the report reads {field}, which deals.csv does not have");
        }
    }
}
