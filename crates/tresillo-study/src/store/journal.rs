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
//! `misclick` with `card`; `hidden` and `visible` (the tab)), or `{"game": G,
//! "answer": {"question": ID, "answer": TEXT, "correct": B, "at": MS, "page_ms":
//! MS}}` (an answer to a question of the study file; `correct` null for a
//! question without a correct answer), or `{"game": 0, "withdrawn": MS}`: the
//! participant withdrew at MS and everything else was deleted (the journal was
//! replaced by this one line, atomically). An append-only file
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
    /// An answer to a question of the study file (an object with `question`,
    /// `answer`, `correct`, `at` and `page_ms`).
    Answer {
        /// The participant's game at that moment.
        game: u64,
        /// The answer.
        answer: serde_json::Value,
    },
    /// The participant withdrew at `at` (milliseconds since 1970): the journal
    /// holds nothing else.
    Withdrawn {
        /// When.
        at: u64,
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    answer: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    withdrawn: Option<u64>,
}

impl Line {
    fn of(game: u64) -> Line {
        Line { game, step: None, record: None, consent: None, event: None, answer: None, withdrawn: None }
    }
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
            let kinds = [
                l.step.is_some(),
                l.record.is_some(),
                l.consent.is_some(),
                l.event.is_some(),
                l.answer.is_some(),
                l.withdrawn.is_some(),
            ];
            if kinds.iter().filter(|&&k| k).count() != 1 {
                return Err(format!(
                    "{}:{n}: a journal line holds one of `step`, `record`, `consent`, `event`, `answer` or \
                     `withdrawn`",
                    path.display()
                ));
            }
            let game = l.game;
            let entry = if let Some(step) = l.step {
                Entry::Step { game, step }
            } else if let Some(record) = l.record {
                Entry::Record { game, record }
            } else if let Some(text) = l.consent {
                Entry::Consent { game, text }
            } else if let Some(event) = l.event {
                Entry::Event { game, event }
            } else if let Some(answer) = l.answer {
                Entry::Answer { game, answer }
            } else {
                Entry::Withdrawn { at: l.withdrawn.unwrap_or(0) }
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
        self.0.append(&lines(entries)).map_err(|e| e.to_string())
    }

    /// Replaces the journal at `path` by the one line of a withdrawal at `at`
    /// (atomically and durably: the participant's games, answers and events are
    /// gone from the file when this returns), and opens it again.
    pub fn withdraw(self, at: u64) -> Result<Journal, String> {
        let path = self.path().to_path_buf();
        drop(self);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        durable::write_atomic(&path, &lines(&[Entry::Withdrawn { at }])).map_err(|e| e.to_string())?;
        Journal::load(&path).map(|(j, _)| j)
    }
}

/// The journal lines of `entries`.
fn lines(entries: &[Entry]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(256 * entries.len());
    for e in entries {
        let mut line = Line::of(0);
        match e {
            Entry::Step { game, step } => {
                line.game = *game;
                line.step = Some(*step);
            }
            Entry::Record { game, record } => {
                line.game = *game;
                line.record = Some(record.clone());
            }
            Entry::Consent { game, text } => {
                line.game = *game;
                line.consent = Some(text.clone());
            }
            Entry::Event { game, event } => {
                line.game = *game;
                line.event = Some(event.clone());
            }
            Entry::Answer { game, answer } => {
                line.game = *game;
                line.answer = Some(answer.clone());
            }
            Entry::Withdrawn { at } => line.withdrawn = Some(*at),
        }
        serde_json::to_writer(&mut bytes, &line).expect("a journal line serializes");
        bytes.push(b'\n');
    }
    bytes
}
