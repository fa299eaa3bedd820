//! A participant's journal, `games/ID.jsonl`: one JSON object a line, appended
//! and flushed to disk (`fsync`) before the decision it holds is acknowledged.
//!
//! A line is `{"game": G, "step": {"seat": 1, "play": "1E"}}` (a decision of the
//! participant's game `G`, theirs or an opponent's) or `{"game": G, "record":
//! {...}}` (game `G` finished: its record, docs/RECORDS.md), or `{"game": G,
//! "consent": "TEXT"}` (the participant accepted the consent text TEXT before
//! game `G`, their first), or `{"game": G, "event": {"kind": K, "at": MS, ...}}`
//! (what the participant did beyond decisions, with its time in milliseconds
//! since 1970: `consent`; `decision` with `decision` (its number in the game),
//! `server_ms` (from their turn ready at the server to the decision's receipt)
//! and `page_ms` (from the question shown to the click, the page's clock);
//! `misclick` with `card`; `hidden` and `visible` (the tab)). An append-only file
//! was chosen over an embedded database: one writer per participant, nothing but
//! appends and a read at start, and a file a researcher can read with any tool.
//! A last line cut short by a crash was never acknowledged: loading drops it.

use serde::{Deserialize, Serialize};
use std::path::Path;
use tresillo_durable as durable;
use tresillo_sim::{HandRecord, Step};

/// One entry of a journal.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// A decision of game `game` (the participant's games counted from 0).
    Step {
        /// The game.
        game: u64,
        /// The decision.
        step: Step,
    },
    /// The participant accepted consent text `text` (before game `game`).
    Consent {
        /// The participant's next game when they accepted.
        game: u64,
        /// The text they accepted, as it was.
        text: String,
    },
    /// What the participant did beyond decisions, during game `game`: an
    /// object with `kind` and `at` (see the module's documentation).
    Event {
        /// The participant's game at that moment.
        game: u64,
        /// The event.
        event: serde_json::Value,
    },
    /// Game `game` is over: its record.
    Record {
        /// The game.
        game: u64,
        /// Its record.
        record: Box<HandRecord>,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    game: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    step: Option<Step>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    record: Option<Box<HandRecord>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    consent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    event: Option<serde_json::Value>,
}

/// A journal file, open for appending (a [`durable::Journal`] of [`Entry`] lines).
#[derive(Debug)]
pub struct Journal(durable::Journal);

impl Journal {
    /// Reads the journal at `path` (none yet: empty), each entry with its line
    /// number. A last line without its newline (a write cut short) is removed from
    /// the file; any other line that does not parse is an error naming the file
    /// and the line.
    pub fn load(path: &Path) -> Result<(Journal, Vec<(usize, Entry)>), String> {
        let (journal, text) = durable::Journal::open(path).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for (i, line) in text.split(|&b| b == b'\n').enumerate() {
            if line.is_empty() {
                continue;
            }
            let n = i + 1;
            let l: Line = serde_json::from_slice(line)
                .map_err(|e| format!("{}:{n}: not a journal line: {e}", path.display()))?;
            let entry = match (l.step, l.record, l.consent, l.event) {
                (Some(step), None, None, None) => Entry::Step { game: l.game, step },
                (None, Some(record), None, None) => Entry::Record { game: l.game, record },
                (None, None, Some(text), None) => Entry::Consent { game: l.game, text },
                (None, None, None, Some(event)) => Entry::Event { game: l.game, event },
                _ => {
                    return Err(format!(
                        "{}:{n}: a journal line holds a `step`, a `record`, a `consent` or an `event`",
                        path.display()
                    ));
                }
            };
            out.push((n, entry));
        }
        Ok((Journal(journal), out))
    }

    /// The file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Appends `entries` and flushes them to disk; only then may what they hold be
    /// acknowledged. The file (and its directory) is created at the first append.
    pub fn append(&mut self, entries: &[Entry]) -> Result<(), String> {
        if entries.is_empty() {
            return Ok(());
        }
        let mut bytes = Vec::with_capacity(256 * entries.len());
        for e in entries {
            let line = match e {
                Entry::Step { game, step } => {
                    Line { game: *game, step: Some(*step), record: None, consent: None, event: None }
                }
                Entry::Record { game, record } => {
                    Line { game: *game, step: None, record: Some(record.clone()), consent: None, event: None }
                }
                Entry::Consent { game, text } => {
                    Line { game: *game, step: None, record: None, consent: Some(text.clone()), event: None }
                }
                Entry::Event { game, event } => {
                    Line { game: *game, step: None, record: None, consent: None, event: Some(event.clone()) }
                }
            };
            serde_json::to_writer(&mut bytes, &line).expect("a journal line serializes");
            bytes.push(b'\n');
        }
        self.0.append(&bytes).map_err(|e| e.to_string())
    }
}
