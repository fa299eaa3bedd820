//! `tresillo study export`: a study's finished games as a directory that the
//! tournament's readers read (docs/STUDY.md, "Export"): `deals.csv` and/or
//! `deals.parquet` in the tournament's schema, `records.jsonl` (line k is row k),
//! `book.txt` (the study's deal book, for `--deals-from`), `events.csv`,
//! `questionnaire.csv`, `participants.csv` (conditions, withdrawals) and
//! `manifest.json`; with several conditions, `conditions/NAME/` holds each
//! condition's rows as a directory of its own.

use crate::SetupError;
use crate::study::{GameSetup, Study, study_row};
use std::fs;
use std::path::Path;
use tresillo_deals::Format;
use tresillo_deals::parquet::{GroupWriter, RowBuilder};
use tresillo_durable as durable;
use tresillo_sim::HandRecord;
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
fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), SetupError> {
    Ok(durable::write_atomic(path, bytes)?)
}

/// Writes the study's finished games into the new directory `out` (refused when
/// it exists: nothing is overwritten). The files are written in `out.partial`
/// and it is renamed to `out` once complete.
pub fn export(study: &Study, out: &Path, format: Format) -> Result<Exported, SetupError> {
    if out.exists() {
        return Err(SetupError::Exists {
            path: out.to_path_buf(),
            what: "an export writes a new directory; nothing was changed",
        });
    }
    let mut partial = out.as_os_str().to_os_string();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    if partial.exists() {
        fs::remove_dir_all(&partial).map_err(SetupError::file(&partial))?;
    }
    fs::create_dir_all(&partial).map_err(SetupError::file(&partial))?;

    let games = study.finished_games();
    let f = study.file();
    let multi = f.conditions.len() > 1;
    let mut manifest = rows_files(&partial, &games, format)?;
    let mut records = Vec::new();
    for (_, record, _) in &games {
        serde_json::to_writer(&mut records, record)?;
        records.push(b'\n');
    }
    write_synced(&partial.join("records.jsonl"), &records)?;
    write_events(study, &partial)?;
    write_questionnaire(study, &partial)?;
    let progress = study.progress();
    write_participants(&progress, &partial)?;
    write_book(study, &partial)?;

    let mut deals: Vec<u64> = games.iter().map(|(s, _, _)| s.deal_index).collect();
    deals.dedup();
    let withdrawn: Vec<&str> = progress.iter().filter(|p| p.withdrawn).map(|p| p.id.as_str()).collect();
    let mut conditions = Vec::new();
    for c in &f.conditions {
        let mine: Vec<_> = games.iter().filter(|(s, _, _)| s.condition == c.name).cloned().collect();
        conditions.push(serde_json::json!({
            "name": c.name,
            "rules": c.rules,
            "opponents": c.opponents,
            "participants": progress.iter().filter(|p| !p.withdrawn && p.condition == c.name).count(),
            "rows": mine.len(),
            "dir": multi.then(|| format!("conditions/{}", c.name)),
        }));
        if multi {
            // Each condition's rows as a tournament directory of its own, so
            // that `paired.py` compares it with its baseline.
            let dir = partial.join("conditions").join(&c.name);
            fs::create_dir_all(&dir).map_err(SetupError::file(&dir))?;
            let mut m = rows_files(&dir, &mine, format)?;
            m.insert("kind".into(), "study".into());
            m.insert("title".into(), f.title.clone().into());
            m.insert("condition".into(), c.name.clone().into());
            m.insert("config".into(), config(study, c, "human"));
            m.insert("rows".into(), mine.len().into());
            m.insert("format".into(), serde_json::to_value(format)?);
            m.insert("complete".into(), true.into());
            write_manifest(&dir, m)?;
        }
    }
    manifest.insert("kind".into(), "study".into());
    manifest.insert("title".into(), f.title.clone().into());
    manifest.insert("config".into(), config(study, &f.conditions[0], "human"));
    manifest.insert("conditions".into(), conditions.into());
    manifest.insert(
        "assignment".into(),
        f.assignment.map_or(
            serde_json::Value::Null,
            |a| serde_json::json!({"scheme": "permuted blocks", "block": a.block, "seed": a.seed}),
        ),
    );
    manifest.insert("practice_deals".into(), f.practice_count().into());
    manifest.insert(
        "participants".into(),
        progress
            .iter()
            .filter(|p| !p.withdrawn)
            .map(|p| serde_json::json!({"id": p.id, "condition": p.condition, "played": p.played, "games": p.games}))
            .collect::<Vec<_>>()
            .into(),
    );
    manifest.insert("withdrawn".into(), serde_json::json!({"count": withdrawn.len(), "ids": withdrawn}));
    manifest.insert("rows".into(), games.len().into());
    manifest.insert("format".into(), serde_json::to_value(format)?);
    manifest.insert("complete".into(), true.into());
    write_manifest(&partial, manifest)?;
    durable::sync_dir(&partial)?;
    fs::rename(&partial, out).map_err(SetupError::file(out))?;
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        durable::sync_dir(parent)?;
    }
    Ok(Exported { rows: games.len(), deals: deals.len() })
}

/// `events.csv`: what the participants did beyond decisions.
fn write_events(study: &Study, dir: &Path) -> Result<(), SetupError> {
    // What the participants did beyond decisions (docs/STUDY.md, "Timing and
    // behaviour"): one row an event.
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    w.write_record(["participant", "game", "kind", "decision", "card", "at", "server_ms", "page_ms"])?;
    for (id, game, e) in study.events() {
        w.write_record([
            id.to_string(),
            game.to_string(),
            field(e, "kind"),
            field(e, "decision"),
            field(e, "card"),
            field(e, "at"),
            field(e, "server_ms"),
            field(e, "page_ms"),
        ])?;
    }
    write_synced(&dir.join("events.csv"), &w.into_inner()?)?;
    Ok(())
}

/// `questionnaire.csv`: every attempt at every question.
fn write_questionnaire(study: &Study, dir: &Path) -> Result<(), SetupError> {
    let f = study.file();
    // The questionnaire's and comprehension check's answers, every attempt.
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    w.write_record([
        "participant",
        "condition",
        "game",
        "question",
        "when",
        "answer",
        "correct",
        "at",
        "page_ms",
    ])?;
    for (p, game, a) in study.answers() {
        let q = f.questions.iter().find(|q| a["question"] == q.id.as_str());
        w.write_record([
            f.participants[p].id.clone(),
            f.condition_of(p).name.clone(),
            game.to_string(),
            field(a, "question"),
            q.map_or(String::new(), |q| {
                if q.when == crate::When::Before { "before" } else { "after" }.into()
            }),
            field(a, "answer"),
            field(a, "correct"),
            field(a, "at"),
            field(a, "page_ms"),
        ])?;
    }
    write_synced(&dir.join("questionnaire.csv"), &w.into_inner()?)?;
    Ok(())
}

/// `participants.csv`: each participant's condition and progress.
fn write_participants(progress: &[crate::study::Progress], dir: &Path) -> Result<(), SetupError> {
    // Each participant's condition and progress; of one who withdrew, the id
    // only.
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    w.write_record(["participant", "condition", "withdrawn", "practice_played", "played", "games"])?;
    for p in progress {
        let row = if p.withdrawn {
            [p.id.clone(), String::new(), "true".into(), String::new(), String::new(), String::new()]
        } else {
            [
                p.id.clone(),
                p.condition.clone(),
                "false".into(),
                p.practice_played.to_string(),
                p.played.to_string(),
                p.games.to_string(),
            ]
        };
        w.write_record(row)?;
    }
    write_synced(&dir.join("participants.csv"), &w.into_inner()?)?;
    Ok(())
}

/// `book.txt`: the study's deal book, for `tresillo tournament --deals-from`.
fn write_book(study: &Study, dir: &Path) -> Result<(), SetupError> {
    let mut book = String::from("# the study's deal book: tresillo tournament --deals-from this file\n");
    for d in study.book().deals() {
        match d {
            BookDeal::Seed(s) => book.push_str(&format!("{s}\n")),
            BookDeal::Dealt(deal) => book.push_str(&format!("{deal}\n")),
        }
    }
    write_synced(&dir.join("book.txt"), book.as_bytes())?;
    Ok(())
}

/// A journaled object's field as a CSV cell (null: empty).
fn field(e: &serde_json::Value, k: &str) -> String {
    match e.get(k) {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(v) => v.as_str().map_or_else(|| v.to_string(), str::to_string),
    }
}

/// The manifest's `config` for condition `c` with `slot0` in slot 0.
fn config(study: &Study, c: &crate::Condition, slot0: &str) -> serde_json::Value {
    let f = study.file();
    let agents: Vec<String> = std::iter::once(slot0.to_string()).chain(c.opponents.iter().cloned()).collect();
    serde_json::json!({
        "agents": agents,
        "players": f.players,
        "deals": study.book().len(),
        "seed": f.book.seed(),
        "rules": c.rules,
        "scoring": "Deal",
        "duplicate": false,
    })
}

/// Writes `manifest.json` in `dir`.
fn write_manifest(
    dir: &Path,
    manifest: serde_json::Map<String, serde_json::Value>,
) -> Result<(), SetupError> {
    let mut text = serde_json::to_string_pretty(&serde_json::Value::Object(manifest))?;
    text.push('\n');
    write_synced(&dir.join("manifest.json"), text.as_bytes())
}

type Game<'a> = (GameSetup, &'a HandRecord, Vec<String>);

/// Writes `deals.csv` and/or `deals.parquet` of `games` in `dir`; returns the
/// manifest's sizes and checksums of them.
fn rows_files(
    dir: &Path,
    games: &[Game<'_>],
    format: Format,
) -> Result<serde_json::Map<String, serde_json::Value>, SetupError> {
    let mut rows = Vec::with_capacity(games.len());
    for (setup, record, agents) in games {
        rows.push(study_row(setup, record, agents)?);
    }
    let mut manifest = serde_json::Map::new();
    let mut crc = serde_json::Map::new();
    if format.csv() {
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        w.write_record(&tresillo_deals::parquet::header())?;
        for r in &rows {
            w.serialize(r)?;
        }
        let bytes = w.into_inner()?;
        write_synced(&dir.join("deals.csv"), &bytes)?;
        manifest.insert("csv_bytes".into(), bytes.len().into());
        crc.insert("deals.csv".into(), tresillo_durable::checksum::of(&bytes).into());
    }
    if format.parquet() {
        let path = dir.join("deals.parquet");
        let mut b = RowBuilder::new();
        for r in &rows {
            b.push(r);
        }
        let mut w = GroupWriter::create(&path, 0, 1)?;
        w.write(&b.finish())?;
        w.close()?;
        let bytes = fs::read(&path).map_err(SetupError::file(&path))?;
        manifest.insert("parquet_bytes".into(), bytes.len().into());
        crc.insert("deals.parquet".into(), tresillo_durable::checksum::of(&bytes).into());
    }
    manifest.insert("crc32".into(), crc.into());
    Ok(manifest)
}

/// Writes the human baseline of the study's finished games into the new
/// directory `out` (`tresillo study export --baseline AGENT`): `deals.csv` in the
/// tournament's schema, one row for each row of the study's export, the same
/// deal, dealer and seating with `agent` in the participant's slot 0 and the
/// same opponents ([`Study::baseline_games`]), and `manifest.json`, so that
/// `scripts/paired.py EXPORT 0 --across EXPORT/baseline 0` pairs each person
/// with the agent deal by deal. With several conditions, each condition's too,
/// in `EXPORT/conditions/NAME/baseline` (`export` is the study's export
/// directory: `out` is its `baseline`). Returns the rows written.
pub fn export_baseline(study: &Study, out: &Path, agent: &str) -> Result<usize, SetupError> {
    if out.exists() {
        return Err(SetupError::Exists { path: out.to_path_buf(), what: "nothing was changed" });
    }
    let games = study.baseline_games(agent)?;
    let f = study.file();
    baseline_dir(study, out, agent, &games, &f.conditions[0])?;
    if f.conditions.len() > 1
        && let Some(export) = out.parent()
    {
        for c in &f.conditions {
            let mine: Vec<_> = games.iter().filter(|(s, _, _)| s.condition == c.name).cloned().collect();
            baseline_dir(study, &export.join("conditions").join(&c.name).join("baseline"), agent, &mine, c)?;
        }
    }
    Ok(games.len())
}

/// One baseline directory: `deals.csv` of `games` and `manifest.json`.
fn baseline_dir(
    study: &Study,
    out: &Path,
    agent: &str,
    games: &[(GameSetup, HandRecord, Vec<String>)],
    c: &crate::Condition,
) -> Result<(), SetupError> {
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.write_record(&tresillo_deals::parquet::header())?;
    for (setup, record, agents) in games {
        w.serialize(study_row(setup, record, agents)?)?;
    }
    let bytes = w.into_inner()?;
    fs::create_dir_all(out).map_err(SetupError::file(out))?;
    write_synced(&out.join("deals.csv"), &bytes)?;
    let f = study.file();
    let manifest = serde_json::json!({
        "kind": "study-baseline",
        "title": f.title,
        "baseline": agent,
        "condition": (f.conditions.len() > 1).then(|| c.name.clone()),
        "config": config(study, c, agent),
        "rows": games.len(),
        "csv_bytes": bytes.len(),
        "crc32": {"deals.csv": tresillo_durable::checksum::of(&bytes)},
        "complete": true,
    });
    let serde_json::Value::Object(m) = manifest else { unreachable!("an object") };
    write_manifest(out, m)
}
