//! `tresillo study export`: a study's finished games as a directory that the
//! tournament's readers read (docs/STUDY.md, "Export"): `deals.csv` and/or
//! `deals.parquet` in the tournament's schema, `records.jsonl` (line k is row k),
//! `book.txt` (the study's deal book, for `--deals-from`) and `manifest.json`.

use crate::study::{Study, study_row};
use std::fs;
use std::path::Path;
use tresillo_deals::Format;
use tresillo_deals::parquet::{GroupWriter, RowBuilder};
use tresillo_durable as durable;
use tresillo_sim::book::BookDeal;

/// What an export wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    /// Rows (finished games).
    pub rows: usize,
    /// Distinct deals among them.
    pub deals: usize,
}

/// Writes a file of the export ([`tresillo_durable::write_atomic`]).
fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), String> {
    durable::write_atomic(path, bytes).map_err(|e| e.to_string())
}

/// Writes the study's finished games into the new directory `out` (refused when
/// it exists: nothing is overwritten). The files are written in `out.partial`
/// and it is renamed to `out` once complete.
pub fn export(study: &Study, out: &Path, format: Format) -> Result<Exported, String> {
    if out.exists() {
        return Err(format!(
            "{}: already exists (an export writes a new directory; nothing was changed)",
            out.display()
        ));
    }
    let mut partial = out.as_os_str().to_os_string();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    if partial.exists() {
        fs::remove_dir_all(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;
    }
    fs::create_dir_all(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;

    let games = study.finished_games();
    let mut rows = Vec::with_capacity(games.len());
    for (setup, record, agents) in &games {
        rows.push(study_row(setup, record, agents)?);
    }
    let mut manifest = serde_json::Map::new();
    let mut crc = serde_json::Map::new();
    if format.csv() {
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        w.write_record(&tresillo_deals::parquet::header()).map_err(|e| e.to_string())?;
        for r in &rows {
            w.serialize(r).map_err(|e| e.to_string())?;
        }
        let bytes = w.into_inner().map_err(|e| e.to_string())?;
        write_synced(&partial.join("deals.csv"), &bytes)?;
        manifest.insert("csv_bytes".into(), bytes.len().into());
        crc.insert("deals.csv".into(), tresillo_durable::checksum::of(&bytes).into());
    }
    if format.parquet() {
        let path = partial.join("deals.parquet");
        let mut b = RowBuilder::new();
        for r in &rows {
            b.push(r);
        }
        let mut w = GroupWriter::create(&path, 0, 1).map_err(|e| format!("{e:#}"))?;
        w.write(&b.finish()).map_err(|e| format!("{e:#}"))?;
        w.close().map_err(|e| format!("{e:#}"))?;
        let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        manifest.insert("parquet_bytes".into(), bytes.len().into());
        crc.insert("deals.parquet".into(), tresillo_durable::checksum::of(&bytes).into());
    }
    let mut records = Vec::new();
    for (_, record, _) in &games {
        serde_json::to_writer(&mut records, record).map_err(|e| e.to_string())?;
        records.push(b'\n');
    }
    write_synced(&partial.join("records.jsonl"), &records)?;
    // What the participants did beyond decisions (docs/STUDY.md, "Timing and
    // behaviour"): one row an event.
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    w.write_record(["participant", "game", "kind", "decision", "card", "at", "server_ms", "page_ms"])
        .map_err(|e| e.to_string())?;
    for (id, game, e) in study.events() {
        let field = |k: &str| {
            e.get(k).map_or(String::new(), |v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
        };
        let field = |k: &str| if field(k) == "null" { String::new() } else { field(k) };
        w.write_record([
            id.to_string(),
            game.to_string(),
            field("kind"),
            field("decision"),
            field("card"),
            field("at"),
            field("server_ms"),
            field("page_ms"),
        ])
        .map_err(|e| e.to_string())?;
    }
    write_synced(&partial.join("events.csv"), &w.into_inner().map_err(|e| e.to_string())?)?;
    let mut book = String::from("# the study's deal book: tresillo tournament --deals-from this file\n");
    for d in study.book().deals() {
        match d {
            BookDeal::Seed(s) => book.push_str(&format!("{s}\n")),
            BookDeal::Dealt(deal) => book.push_str(&format!("{deal}\n")),
        }
    }
    write_synced(&partial.join("book.txt"), book.as_bytes())?;

    let f = study.file();
    let mut deals: Vec<u64> = games.iter().map(|(s, _, _)| s.deal_index).collect();
    deals.dedup();
    let agents: Vec<String> =
        std::iter::once("human".to_string()).chain(f.opponents.iter().cloned()).collect();
    let config = serde_json::json!({
        "agents": agents,
        "players": f.players,
        "deals": study.book().len(),
        "seed": f.book.seed(),
        "rules": f.rules,
        "scoring": "Deal",
        "duplicate": false,
    });
    manifest.insert("kind".into(), "study".into());
    manifest.insert("title".into(), f.title.clone().into());
    manifest.insert("config".into(), config);
    manifest.insert(
        "participants".into(),
        study
            .progress()
            .into_iter()
            .map(|p| serde_json::json!({"id": p.id, "played": p.played, "games": p.games}))
            .collect::<Vec<_>>()
            .into(),
    );
    manifest.insert("rows".into(), rows.len().into());
    manifest.insert("format".into(), serde_json::to_value(format).map_err(|e| e.to_string())?);
    manifest.insert("crc32".into(), crc.into());
    manifest.insert("complete".into(), true.into());
    let mut text =
        serde_json::to_string_pretty(&serde_json::Value::Object(manifest)).map_err(|e| e.to_string())?;
    text.push('\n');
    write_synced(&partial.join("manifest.json"), text.as_bytes())?;
    durable::sync_dir(&partial).map_err(|e| e.to_string())?;
    fs::rename(&partial, out).map_err(|e| format!("{}: {e}", out.display()))?;
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        durable::sync_dir(parent).map_err(|e| e.to_string())?;
    }
    Ok(Exported { rows: rows.len(), deals: deals.len() })
}

/// Writes the human baseline of the study's finished games into the new
/// directory `out` (`tresillo study export --baseline AGENT`): `deals.csv` in the
/// tournament's schema, one row for each row of the study's export, the same
/// deal, dealer and seating with `agent` in the participant's slot 0 and the
/// same opponents ([`Study::baseline_games`]), and `manifest.json`, so that
/// `scripts/paired.py EXPORT 0 --across EXPORT/baseline 0` pairs each person
/// with the agent deal by deal. Returns the rows written.
pub fn export_baseline(study: &Study, out: &Path, agent: &str) -> Result<usize, String> {
    if out.exists() {
        return Err(format!("{}: already exists (nothing was changed)", out.display()));
    }
    let games = study.baseline_games(agent)?;
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.write_record(&tresillo_deals::parquet::header()).map_err(|e| e.to_string())?;
    for (setup, record, agents) in &games {
        w.serialize(study_row(setup, record, agents)?).map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    write_synced(&out.join("deals.csv"), &bytes)?;
    let f = study.file();
    let agents: Vec<String> = std::iter::once(agent.to_string()).chain(f.opponents.iter().cloned()).collect();
    let manifest = serde_json::json!({
        "kind": "study-baseline",
        "title": f.title,
        "baseline": agent,
        "config": {"agents": agents, "players": f.players, "deals": study.book().len(), "seed": f.book.seed(),
                   "rules": f.rules, "scoring": "Deal", "duplicate": false},
        "rows": games.len(),
        "csv_bytes": bytes.len(),
        "crc32": {"deals.csv": tresillo_durable::checksum::of(&bytes)},
        "complete": true,
    });
    let mut text = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?;
    text.push('\n');
    write_synced(&out.join("manifest.json"), text.as_bytes())?;
    Ok(games.len())
}
