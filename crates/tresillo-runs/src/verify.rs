//! Run directories checked against their manifests ([`crate::checksum`]): the
//! check `--resume`, `merge` and `report` make before they read a run, and
//! `tresillo verify DIR` on demand (a cluster user's first command after copying
//! results home).
//!
//! A run directory (`tournament`, `run`, `merge`, each table of a `league`, each
//! look of an `sprt --out`) is checked file by file: every file its manifest's
//! `crc32` map names must have those bytes (`deals.csv` up to the checkpoint's
//! `csv_bytes` while the run plays), the statistics the manifest counts too, and
//! the record file (`--record`), when it is found at the path the manifest names,
//! up to the bytes of its finished hands. A manifest written before checksums
//! records none: nothing is verified by checksum, the sizes still are.

use crate::error::{Context, OnFile, Result, RunError, bail};
use crate::league::LeagueManifest;
use crate::run::{Manifest, read_manifest};
use std::fs;
use std::path::Path;

pub use crate::run::{Missing, verify_run};

/// What [`verify`] found: the line `tresillo verify` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// One line: `ok: DIR: ...`.
    pub line: String,
    /// Files checked by checksum.
    pub files: usize,
}

/// `tresillo verify DIR`: checks the run directory `dir` (a tournament, `run` or
/// `merge` output), a league directory (its files and every table), an `sprt
/// --out` directory (every look), a dataset ([`crate::dataset::verify`]), or names a tuning run's files, which carry no
/// checksums. Errors name the first bad file.
pub fn verify(dir: &Path) -> Result<Verified> {
    if !dir.is_dir() {
        bail!("{}: no such run directory", dir.display());
    }
    if dir.join("league.json").is_file() {
        return verify_league(dir);
    }
    if crate::dataset::is_dataset(dir) {
        let (line, files) = crate::dataset::verify(dir)?;
        return Ok(Verified { line, files });
    }
    if dir.join("manifest.json").is_file() {
        let m = read_manifest(dir)?;
        let files = verify_run(dir, &m, Missing::Refused)?;
        let state = if m.complete {
            format!("complete run of {} deals", m.deals_completed)
        } else {
            format!(
                "run in progress, {} of {} deals checkpointed",
                m.deals_completed,
                m.deal_range[1] - m.deal_range[0]
            )
        };
        return Ok(Verified {
            line: format!("ok: {}: {state}; {}", dir.display(), files_line(files, &m)),
            files,
        });
    }
    if dir.join(crate::sprt::SPRT_JSON).is_file() {
        let c = crate::sprt::check(dir)?;
        return Ok(Verified {
            line: format!(
                "ok: {}: sequential test of {} look{} ({}); {} files match their checksums",
                dir.display(),
                c.looks,
                if c.looks == 1 { "" } else { "s" },
                c.file.verdict,
                c.files
            ),
            files: c.files,
        });
    }
    let names: Vec<String> = fs::read_dir(dir)
        .on("reading", dir)?
        .filter_map(|e| e.ok()?.file_name().to_str().map(String::from))
        .collect();
    let mut tune: Vec<&String> = names.iter().filter(|n| n.ends_with(".manifest.json")).collect();
    let mut interrupted: Vec<&String> = names.iter().filter(|n| n.ends_with(".checkpoint.json")).collect();
    tune.sort();
    interrupted.sort();
    if !tune.is_empty() || !interrupted.is_empty() {
        return verify_tune(dir, &tune, &interrupted);
    }
    bail!(
        "{}: not a run directory (no manifest.json of a tournament, no league.json of a league, no sprt.json of \
         a sequential test, no *.manifest.json or *.checkpoint.json of a tuning run)",
        dir.display()
    )
}

/// A tuning run's files (`tresillo tune --out DIR/c.csv`), which carry no
/// checksums: each finished search's manifest (`c.manifest.json`) must be one and
/// its candidates (`c.csv`) be there, as `report` requires; an interrupted
/// search's checkpoint (`c.csv.checkpoint.json`, which `tune --resume` continues)
/// must be one.
fn verify_tune(dir: &Path, finished: &[&String], interrupted: &[&String]) -> Result<Verified> {
    let json = |name: &str| -> Result<serde_json::Value> {
        let p = dir.join(name);
        let text = fs::read_to_string(&p).on("reading", &p)?;
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| RunError::Line {
            path: p.to_path_buf(),
            line: e.line(),
            what: format!("not a tresillo tuning file ({e})"),
        })?;
        if v.get("tool").and_then(|t| t.as_str()) != Some("tresillo") && v.get("records").is_none() {
            bail!("{}: not a tresillo tuning file", p.display());
        }
        Ok(v)
    };
    let mut parts = Vec::new();
    for m in finished {
        json(m)?;
        let csv = format!("{}.csv", m.trim_end_matches(".manifest.json"));
        let p = dir.join(&csv);
        if !p.is_file() {
            bail!("{}: its candidates file {} is missing", dir.join(m).display(), p.display());
        }
        parts.push(format!("{m} with {csv}"));
    }
    for c in interrupted {
        let v = json(c)?;
        let n = v.get("records").and_then(|r| r.as_array()).map_or(0, Vec::len);
        parts.push(format!(
            "{c}: an interrupted search, {n} candidate{} scored (`tune --resume` continues it)",
            if n == 1 { "" } else { "s" }
        ));
    }
    Ok(Verified {
        line: format!(
            "ok: {}: a tuning run ({}): its files carry no checksums; their form checked only",
            dir.display(),
            parts.join("; ")
        ),
        files: 0,
    })
}

fn files_line(files: usize, m: &Manifest) -> String {
    if m.crc32.is_empty() && m.record.as_ref().is_none_or(|r| r.crc32.is_none()) {
        "its manifest records no checksums (written before them): files and sizes checked only".into()
    } else {
        format!("{files} files match their checksums")
    }
}

fn verify_league(dir: &Path) -> Result<Verified> {
    let mp = dir.join("league.json");
    let text = fs::read_to_string(&mp).on("reading", &mp)?;
    let lm: LeagueManifest = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a tresillo league manifest", mp.display()))?;
    let mut files = crate::league::verify_files(dir, &lm)?;
    let mut complete = 0;
    for t in &lm.tables {
        let td = dir.join(&t.dir);
        if !td.join("manifest.json").is_file() {
            if lm.complete {
                bail!("{}: missing, though {} says the league is complete", td.display(), mp.display());
            }
            continue;
        }
        let m = read_manifest(&td)?;
        files += verify_run(&td, &m, Missing::Refused)?;
        complete += usize::from(m.complete);
    }
    Ok(Verified {
        line: format!(
            "ok: {}: league of {} tables ({complete} complete{}); {files} files match their checksums",
            dir.display(),
            lm.tables.len(),
            if lm.complete { ", league files written" } else { "" }
        ),
        files,
    })
}
