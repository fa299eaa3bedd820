//! League directories: many agents ranked from a balanced schedule of tables.
//!
//! A league of `n` agents at tables of `k` (3, or 4 with `players = 4`) plays
//! every `k`-subset of the agents as a table ([`tresillo_sim::league::subsets`],
//! in lexicographic order), each table a duplicate tournament on the same deal
//! seeds under every seating: every agent meets every other equally often, in
//! every seat, on the same cards. Each table is an ordinary run directory,
//! `DIR/tables/table-I-J-K` (the agents' league indices), played by [`run`]: it
//! checkpoints, resumes after a kill and replaces a run with `force` exactly like
//! a tournament. `shard K/N` plays every N-th table from the K-th, into the same
//! league directory (on one machine or a shared filesystem, or copied together).
//!
//! When every table is complete, the league files are written from the tables'
//! `deals.csv`: `ratings.csv` (the model of [`tresillo_sim::league`]: agent,
//! rating in tantos per deal over an average table, 95% interval, tables, deals;
//! best first), `matrix.csv` (every pair that met: the paired difference per deal,
//! with its interval; then the difference of the two ratings with its interval
//! and likelihood of superiority, and the deals each won, drew and lost; all
//! intervals Student's t) and `league.json` (configuration, tables, completeness).
//! They depend only on the tables' rows: the same bytes whatever the thread
//! count, shard split or interruption. Beside them, `compute.csv`: each agent's
//! compute (the columns of a run's `compute.csv`, `slot` being the agent's league
//! index) summed over its tables; its counts are exact, its times measurements.

use crate::error::{Context, OnFile, Result, bail, ensure, invalid};
use crate::run::{RunOptions, check_deals_size, read_manifest};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::Path;
use tresillo_agents::Registry;
use tresillo_durable as durable;
use tresillo_sim::book::DealBook;
use tresillo_sim::compute::Compute;
use tresillo_sim::league::{Fit, Matchup, Rating, TableResults, fit_cov, matrix, subsets};
use tresillo_sim::{Scoring, Shard, TournamentConfig};

/// The header of `ratings.csv`.
pub const RATINGS_HEADER: &str = "agent,rating,ci95_low,ci95_high,tables,deals";
/// The header of `matrix.csv`.
pub const MATRIX_HEADER: &str = "agent_a,agent_b,tables,deals,mean,ci95_low,ci95_high,rating_diff,\
                                  rating_diff_low,rating_diff_high,los,wins,draws,losses,elo,elo_low,elo_high";

/// The header of `matrix.csv` before the Elo columns were added (issue 55).
pub const MATRIX_HEADER_V2: &str = "agent_a,agent_b,tables,deals,mean,ci95_low,ci95_high,rating_diff,\
                                     rating_diff_low,rating_diff_high,los,wins,draws,losses";

/// The header of `matrix.csv` before the rating differences, likelihood of
/// superiority and win/draw/loss counts were added (issue 33).
pub const MATRIX_HEADER_V1: &str = "agent_a,agent_b,tables,deals,mean,ci95_low,ci95_high";

/// The most agents a league takes (a table of three per 3-subset: 1,140 tables
/// at 20).
pub const MAX_AGENTS: usize = 20;

/// What `league.json` holds.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct LeagueManifest {
    /// Always `tresillo`.
    pub tool: String,
    /// The tool's version.
    pub version: String,
    /// The configuration: every agent of the league in `agents`; each table's
    /// run plays it with the table's agents.
    pub config: TournamentConfig,
    /// The tables, in order: their directories under the league and the league
    /// indices of their agents.
    pub tables: Vec<LeagueTable>,
    /// Whether every table is complete and the league files written.
    pub complete: bool,
    /// The deal book every table plays (`--deals-from`); absent for leagues on the seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_book: Option<DealBook>,
    /// Once the league is complete, the CRC-32 checksums of `ratings.csv` and
    /// `matrix.csv` ([`crate::checksum`]; not of the measured `compute.csv`);
    /// absent before then and in leagues of versions before checksums.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub crc32: std::collections::BTreeMap<String, String>,
}

/// One table of a league.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct LeagueTable {
    /// Its run directory, relative to the league directory.
    pub dir: String,
    /// The league indices of its agents, in slot order.
    pub agents: Vec<usize>,
}

/// The tables of a league of `config` (its `agents` are the league's).
#[must_use]
pub fn tables(config: &TournamentConfig) -> Vec<LeagueTable> {
    subsets(config.agents.len(), usize::from(config.players))
        .into_iter()
        .map(|agents| {
            let ids: Vec<String> = agents.iter().map(usize::to_string).collect();
            LeagueTable { dir: format!("tables/table-{}", ids.join("-")), agents }
        })
        .collect()
}

/// The tournament of one table.
#[must_use]
pub fn table_config(config: &TournamentConfig, table: &LeagueTable) -> TournamentConfig {
    TournamentConfig {
        agents: table.agents.iter().map(|&i| config.agents[i].clone()).collect(),
        ..config.clone()
    }
}

/// Checks a league's configuration against the registry its agents come from:
/// one-line errors.
pub fn check(config: &TournamentConfig, registry: &Registry) -> Result<()> {
    let n = config.agents.len();
    let k = usize::from(config.players);
    ensure!(
        (k..=MAX_AGENTS).contains(&n),
        "--agents: a league takes {k} to {MAX_AGENTS} agents (tables of {k}), not {n}"
    );
    for (i, s) in config.agents.iter().enumerate() {
        if let Some(j) = config.agents[..i].iter().position(|t| t == s) {
            bail!("--agents: `{s}` is agent {j} and agent {i}; name each agent once");
        }
    }
    ensure!(config.duplicate, "a league plays every table under every seating (duplicate)");
    ensure!(config.scoring == Scoring::Deal, "a league scores by deal");
    ensure!(config.shard == Shard::WHOLE, "a league shards by tables: give the shard to `league`");
    for t in tables(config) {
        table_config(config, &t).validate_with(registry)?;
    }
    Ok(())
}

/// Plays (or continues) the tables of shard `shard` of the league of `config`
/// into `a.out`, then, when every table of the league is complete, writes the
/// league files; returns the printed lines (the ranking, or how many tables are
/// complete).
pub fn league(
    config: &TournamentConfig,
    shard: Shard,
    a: &RunOptions<'_>,
    book: Option<&DealBook>,
    command_line: &[String],
) -> Result<String> {
    check(config, &a.registry)?;
    let dir = a.out.as_path();
    let all = tables(config);
    let manifest_path = dir.join("league.json");
    let mut book = book.cloned();
    if manifest_path.exists() && !a.force {
        let text = fs::read_to_string(&manifest_path).on("reading", &manifest_path)?;
        let m: LeagueManifest = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a tresillo league manifest", manifest_path.display()))?;
        ensure!(
            m.config == *config,
            "{} holds a league with another configuration; use --force to overwrite it",
            dir.display()
        );
        ensure!(
            book.is_none() || book == m.deal_book,
            "{} holds a league played on another deal book; use --force to overwrite it",
            dir.display()
        );
        book = book.or(m.deal_book);
    }
    fs::create_dir_all(dir.join("tables")).on("creating", dir)?;
    let mut manifest = LeagueManifest {
        tool: "tresillo".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        config: config.clone(),
        tables: all.clone(),
        complete: false,
        deal_book: book.clone(),
        crc32: Default::default(),
    };
    if a.force || !manifest_path.exists() {
        for f in ["ratings.csv", "matrix.csv", crate::compute::COMPUTE_CSV] {
            let p = dir.join(f);
            match fs::remove_file(&p) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(e).on("removing", &p);
                }
                _ => {}
            }
        }
        durable::write_shared(&manifest_path, serde_json::to_string_pretty(&manifest)?.as_bytes())?;
    }
    let mine: Vec<(usize, &LeagueTable)> =
        all.iter().enumerate().filter(|(i, _)| *i as u64 % shard.count == shard.index).collect();
    for (n, (i, t)) in mine.iter().enumerate() {
        let tc = table_config(config, t);
        let out = dir.join(&t.dir);
        let done =
            !a.force && out.join("manifest.json").exists() && read_manifest(&out).is_ok_and(|m| m.complete);
        (a.note)(&format!(
            "table {} of {} ({} of this shard): {}{}",
            i + 1,
            all.len(),
            n + 1,
            tc.agents.join(","),
            if done { ", complete" } else { "" }
        ));
        if done && read_manifest(&out)?.config == tc {
            // A table marked complete by an older version may lack a file it derives
            // from its rows: rebuilt, under the table's lock.
            let _lock = crate::run::lock_dir(&out)?;
            crate::run::complete_run(&out, &read_manifest(&out)?, a.note)?;
            continue;
        }
        let opts = RunOptions { out: out.clone(), progress: a.progress, ..a.clone() };
        let mut line = command_line.to_vec();
        line.push(format!("(table {})", t.dir));
        crate::run::run_book(&tc, &opts, book.as_ref(), line)?;
    }
    let complete: Vec<bool> = all.iter().map(|t| is_complete(&dir.join(&t.dir))).collect();
    let done = complete.iter().filter(|c| **c).count();
    if done < all.len() {
        return Ok(format!(
            "{done} of {} tables complete in {}; the league's ratings are written when all are (run the other \
             shards, then this command with --resume)\n",
            all.len(),
            dir.display()
        ));
    }
    let results: Vec<TableResults> = all
        .iter()
        .map(|t| table_results(&dir.join(&t.dir), &table_config(config, t), t))
        .collect::<Result<_>>()?;
    let n = config.agents.len();
    let fitted = fit_cov(n, &results).map_err(|e| invalid!("{}: {e}", dir.display()))?;
    let pairs = matrix(n, &results);
    let ranked = ranking(&fitted.ratings);
    // Every league file is in place before its manifest says the league is complete.
    let ratings = ratings_csv(&ranked, &config.agents);
    let matrix = matrix_csv(&pairs, &fitted, &config.agents);
    durable::write_shared(&dir.join("ratings.csv"), ratings.as_bytes())?;
    durable::write_shared(&dir.join("matrix.csv"), matrix.as_bytes())?;
    manifest.crc32.insert("ratings.csv".into(), tresillo_durable::checksum::of(ratings.as_bytes()));
    manifest.crc32.insert("matrix.csv".into(), tresillo_durable::checksum::of(matrix.as_bytes()));
    let compute = league_compute(dir, config, &all)?;
    if let Some(c) = &compute {
        durable::write_shared(
            &dir.join(crate::compute::COMPUTE_CSV),
            &crate::compute::compute_csv(config, c)?,
        )?;
    }
    remove_stale_temporaries(dir);
    manifest.complete = true;
    durable::write_shared(&manifest_path, serde_json::to_string_pretty(&manifest)?.as_bytes())?;
    let mut text = printed(config, all.len(), &ranked, &pairs, &fitted, dir);
    if let Some(c) = &compute {
        text.push_str("what each agent spent, over all its tables:\n");
        text.push_str(&crate::compute::compute_table(config, c));
    }
    Ok(text)
}

/// Checks the league files of the league in `dir` (manifest `m`): when it is
/// complete, `ratings.csv` and `matrix.csv` must be there with the checksums the
/// manifest records (a league of a version before checksums records none: their
/// presence alone is checked). Returns how many files were checked by checksum.
pub fn verify_files(dir: &Path, m: &LeagueManifest) -> Result<usize> {
    if !m.complete {
        return Ok(0);
    }
    for f in ["ratings.csv", "matrix.csv"] {
        let p = dir.join(f);
        ensure!(
            p.is_file(),
            "{}: missing, though {} says the league is complete",
            p.display(),
            "league.json"
        );
    }
    for (name, want) in &m.crc32 {
        tresillo_durable::checksum::verify(&dir.join(name), None, want)?;
    }
    Ok(m.crc32.len())
}

/// Removes the temporary files of [`durable::write_shared`] (league files that
/// several shards, started together, may write at once) that a killed process left in
/// `dir` (`NAME.PID.tmp` whose process is gone; on Linux, where `/proc` says so),
/// so that a finished league holds its files and nothing else. Another shard's
/// file in flight is left alone: its process is alive.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let proc = Path::new("/proc/self");
    if !proc.exists() {
        return;
    }
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".tmp") else { continue };
        let Some(pid) = stem.rsplit('.').next().and_then(|p| p.parse::<u32>().ok()) else { continue };
        if pid != std::process::id() && !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// Each league agent's compute summed over the tables it sat at (its slot at
/// each table), with `slot` the agent's league index; `None` when a table has no
/// compute (written by a version before compute accounting). The counts are
/// exact; the times are measurements, like a table's `compute.csv`.
fn league_compute(dir: &Path, config: &TournamentConfig, all: &[LeagueTable]) -> Result<Option<Compute>> {
    let mut total = Compute::new(config.agents.len());
    for t in all {
        let table = dir.join(&t.dir);
        let m = read_manifest(&table)?;
        let Some(c) = crate::compute::read_compute(&table, m.deals_completed)? else { return Ok(None) };
        for (slot, &agent) in t.agents.iter().enumerate() {
            if let (Some(from), Some(to)) = (c.slots.get(slot), total.slots.get_mut(agent)) {
                to.merge(from);
            }
        }
        if let Some(b) = &c.bidding {
            total.bidding.get_or_insert_with(Default::default).merge(b);
        }
    }
    total.deals = config.deals;
    Ok(Some(total))
}

fn is_complete(dir: &Path) -> bool {
    read_manifest(dir).is_ok_and(|m| m.complete)
}

/// The results of a complete table: each slot's tantos per deal.
fn table_results(dir: &Path, config: &TournamentConfig, t: &LeagueTable) -> Result<TableResults> {
    let m = read_manifest(dir)?;
    ensure!(
        m.config == *config,
        "{} holds a run with another configuration than the league's table; run the league with --force",
        dir.display()
    );
    check_deals_size(dir, &m)?;
    let totals = crate::pairs::unit_totals(&dir.join("deals.csv"), config)?;
    let seatings = config.seatings().len() as f64;
    let k = t.agents.len();
    let deals =
        totals.into_iter().map(|(d, s)| (d, s[..k].iter().map(|&x| x as f64 / seatings).collect())).collect();
    Ok(TableResults { agents: t.agents.clone(), deals })
}

/// The ratings best first (ties in league order).
fn ranking(ratings: &[Rating]) -> Vec<Rating> {
    let mut r = ratings.to_vec();
    r.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.agent.cmp(&b.agent)));
    r
}

fn ratings_csv(ranked: &[Rating], agents: &[String]) -> String {
    let mut s = format!("{RATINGS_HEADER}\n");
    for r in ranked {
        s.push_str(&format!(
            "{},{:.4},{:.4},{:.4},{},{}\n",
            crate::pairs::quote(&agents[r.agent]),
            r.rating,
            r.ci95.0,
            r.ci95.1,
            r.tables,
            r.deals
        ));
    }
    s
}

fn matrix_csv(pairs: &[Matchup], fitted: &Fit, agents: &[String]) -> String {
    let mut s = format!("{MATRIX_HEADER}\n");
    for p in pairs {
        let (lo, hi) = crate::pairs::ci_fields(p.ci95);
        let d = fitted.difference(p.a, p.b);
        let (elo, elo_lo, elo_hi) =
            crate::pairs::elo_fields(tresillo_sim::Elo::of(p.wins, p.draws, p.losses));
        s.push_str(&format!(
            "{},{},{},{},{:.4},{lo},{hi},{:.4},{:.4},{:.4},{:.4},{},{},{},{elo},{elo_lo},{elo_hi}\n",
            crate::pairs::quote(&agents[p.a]),
            crate::pairs::quote(&agents[p.b]),
            p.tables,
            p.deals,
            p.mean,
            d.diff,
            d.ci95.0,
            d.ci95.1,
            d.los,
            p.wins,
            p.draws,
            p.losses
        ));
    }
    s
}

fn printed(
    config: &TournamentConfig,
    tables: usize,
    ranked: &[Rating],
    pairs: &[Matchup],
    fitted: &Fit,
    dir: &Path,
) -> String {
    let mut s = format!(
        "league of {} agents: {tables} tables of {}, {} deals each under every seating; ratings in tantos per \
         deal over an average table (95% CI, Student's t):\n",
        config.agents.len(),
        config.players,
        config.deals
    );
    for (i, r) in ranked.iter().enumerate() {
        s.push_str(&format!(
            "{:>3}. {:<36} {:>+9.4} [{:+.4}, {:+.4}]\n",
            i + 1,
            config.agents[r.agent],
            r.rating,
            r.ci95.0,
            r.ci95.1
        ));
    }
    s.push_str(
        "rating differences (A minus B, 95% CI), likelihood of superiority, deals A won/drew/lost, Elo of A over \
         B from them (95% CI):\n",
    );
    for p in pairs {
        let d = fitted.difference(p.a, p.b);
        s.push_str(&format!(
            "  {:<28} - {:<28} {:>+10.4} [{:+.4}, {:+.4}] LOS {:.4} W/D/L {}/{}/{}{}\n",
            config.agents[p.a],
            config.agents[p.b],
            d.diff,
            d.ci95.0,
            d.ci95.1,
            d.los,
            p.wins,
            p.draws,
            p.losses,
            crate::pairs::elo_text(tresillo_sim::Elo::of(p.wins, p.draws, p.losses))
        ));
    }
    s.push_str("paired differences where they met, tantos per deal (A minus B, 95% CI, Student's t):\n");
    for p in pairs {
        let ci = p.ci95.map_or(String::new(), |(l, h)| format!("[{l:+.4}, {h:+.4}]"));
        s.push_str(&format!(
            "  {:<28} - {:<28} {:>+10.4} {ci}\n",
            config.agents[p.a], config.agents[p.b], p.mean
        ));
    }
    s.push_str(&format!("output in {}\n", dir.display()));
    s
}
