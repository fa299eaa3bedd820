//! The journal of a table (docs/JOURNAL.md): `games/TOKEN.jsonl` of `tresillo
//! serve`, `games/ID.jsonl` of a study's participant. One JSON object a line,
//! appended, and fsynced before what it holds is acknowledged; a last line cut
//! short by a crash was never acknowledged, and opening drops it
//! ([`tresillo_durable::Journal`] does the file's work).
//!
//! Format 2, the one vocabulary ([`Entry`]). A line may say where it belongs
//! ([`Place`]): `game` (the journal's game: a participant's games counted from
//! 0; a server's log holds one game and leaves it out) and `hand` (the hand of
//! a session, from 0; a study's game is one hand and leaves it out). Then one
//! of:
//! - a decision, flat as a record's step, with the person's timing when a person
//!   took it at a server: `{"hand":0,"seat":1,"play":"7C"}`,
//!   `{"game":2,"seat":0,"bid":"paso","server_ms":1500,"page_ms":1400,"at":MS}`;
//! - `undo`: the hand's decisions cut to the first N (`{"hand":0,"undo":12}`);
//! - `event`: what a person did beyond decisions, flat: its kind the value of
//!   `event`, its fields beside it
//!   (`{"hand":0,"event":"misclick","card":"7C","seat":0,"seq":5,"at":MS}`,
//!   `{"game":1,"event":"hidden","at":MS}`);
//! - `record`: the game (hand) finished, its record (docs/RECORDS.md);
//! - `consent`: the consent text a participant accepted;
//! - `answer`: an answer to a question of a study file;
//! - `withdrawn`: the participant withdrew at MS (it replaces the journal).
//!
//! A journal may start with a header, `{"format":2,"spec":{...}}` (a server's
//! log: its game's spec); a study's journal has none (the study file describes
//! its games).
//!
//! Read too: the server's log format 1 (header `{"format":1,"game":{...}}`, the
//! same lines) and the study's journals before format 2 (no header; a decision
//! as `{"game":G,"step":{...}}`, an event as an object, `{"game":G,"event":
//! {"kind":K,...}}`).
//! A journal of an older format is never rewritten: new lines are appended to it
//! in format 2, and the mixed file reads back.

use serde::Serialize;
use serde_json::{Map, Value};
use std::io;
use std::path::{Path, PathBuf};
use tresillo_durable as durable;
use tresillo_sim::{HandRecord, Step};

/// The format this crate writes (a header's `format`).
pub const FORMAT: u32 = 2;

/// Where a line belongs: the journal's game and the game's hand, each written
/// only when given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// The game (a study participant's, from 0); absent in a server's log.
    pub game: Option<u64>,
    /// The hand of the game (a session's, from 0); absent in a study's journal.
    pub hand: Option<u32>,
}

impl Place {
    /// Game `game` of a journal of games (a study participant's).
    #[must_use]
    pub fn game(game: u64) -> Place {
        Place { game: Some(game), hand: None }
    }

    /// Hand `hand` of a journal's one game (a server's session).
    #[must_use]
    pub fn hand(hand: u32) -> Place {
        Place { game: None, hand: Some(hand) }
    }

    /// The game, 0 when the line leaves it out.
    #[must_use]
    pub fn game_or_0(&self) -> u64 {
        self.game.unwrap_or(0)
    }

    fn write(self, out: &mut String) {
        out.push('{');
        if let Some(g) = self.game {
            out.push_str(&format!("\"game\":{g},"));
        }
        if let Some(h) = self.hand {
            out.push_str(&format!("\"hand\":{h},"));
        }
    }
}

/// How long a person took over a decision at a server (docs/SERVE.md, "Timing
/// and behaviour"): the keys `server_ms`, `page_ms`, `at` of a decision line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    /// Milliseconds from the moment the server had the person's turn ready to
    /// the decision's receipt (the server's clock).
    pub server_ms: u64,
    /// Milliseconds from the moment the page showed the question to the click
    /// (the page's own clock, as it reports it; absent when it sent none).
    pub page_ms: Option<u64>,
    /// When the server received it: milliseconds since 1970 (UTC).
    pub at: u64,
}

/// One line of a journal after its header.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// A decision, with the person's timing when a person took it at a server.
    Step {
        /// Where.
        place: Place,
        /// Who decided what.
        step: Step,
        /// How long the person took (absent for a bot's decision).
        timing: Option<Timing>,
    },
    /// The person took back decisions: the hand's are cut to the first `keep`.
    Undo {
        /// Where.
        place: Place,
        /// Decisions of the hand kept.
        keep: usize,
    },
    /// What a person did beyond decisions: an object with its `kind` (the
    /// line's `event`) and its other fields (`at`, `seat`, `card`, ...).
    Event {
        /// Where.
        place: Place,
        /// The event, `kind` included.
        event: Value,
    },
    /// The game (hand) is over: its record.
    Record {
        /// Where.
        place: Place,
        /// Its record.
        record: Box<HandRecord>,
    },
    /// A participant accepted consent text `text`, as it was.
    Consent {
        /// Where (the participant's next game).
        place: Place,
        /// The text.
        text: String,
    },
    /// An answer to a question of a study file (an object with `question`,
    /// `answer`, `correct`, `at` and `page_ms`).
    Answer {
        /// Where (the participant's game at that moment).
        place: Place,
        /// The answer.
        answer: Value,
    },
    /// The participant withdrew at `ms` (milliseconds since 1970): the journal
    /// holds nothing else.
    Withdrawn {
        /// Where (game 0).
        place: Place,
        /// When.
        ms: u64,
    },
}

/// A journal's first line, when it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// Its format (1: a server's log before format 2).
    pub format: u32,
    /// What the journal's game is (a server's `GameSpec`), for its writer to read.
    pub spec: Value,
}

/// Why a journal cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file could not be read, cut, written or synced (the message names it).
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A line that is not the format's: the file, the line (from 1) and why.
    #[error("{}:{line}: {why}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// Why.
        why: String,
    },
}

/// Why a line is not a journal's line (one line of text, without the file's
/// name: [`JournalError::Line`] adds it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LineError(String);

impl From<String> for LineError {
    fn from(why: String) -> LineError {
        LineError(why)
    }
}

impl From<&str> for LineError {
    fn from(why: &str) -> LineError {
        LineError(why.to_string())
    }
}

/// The keys of a line that say what it holds (one each), besides a decision's
/// `seat` and an `event`.
const KINDS: [&str; 6] = ["step", "undo", "record", "consent", "answer", "withdrawn"];

impl Entry {
    /// Where the line belongs.
    #[must_use]
    pub fn place(&self) -> Place {
        match self {
            Entry::Step { place, .. }
            | Entry::Undo { place, .. }
            | Entry::Event { place, .. }
            | Entry::Record { place, .. }
            | Entry::Consent { place, .. }
            | Entry::Answer { place, .. }
            | Entry::Withdrawn { place, .. } => *place,
        }
    }

    /// The line as written (no newline).
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(64);
        self.place().write(&mut out);
        match self {
            Entry::Step { step, timing, .. } => {
                let s = json(step);
                out.push_str(
                    s.strip_prefix('{').and_then(|s| s.strip_suffix('}')).expect("a step is an object"),
                );
                if let Some(t) = timing {
                    out.push_str(&format!(",\"server_ms\":{}", t.server_ms));
                    if let Some(p) = t.page_ms {
                        out.push_str(&format!(",\"page_ms\":{p}"));
                    }
                    out.push_str(&format!(",\"at\":{}", t.at));
                }
            }
            Entry::Undo { keep, .. } => out.push_str(&format!("\"undo\":{keep}")),
            Entry::Event { event, .. } => {
                let kind = event.get("kind").cloned().unwrap_or(Value::Null);
                out.push_str(&format!("\"event\":{kind}"));
                if let Some(fields) = event.as_object() {
                    for (k, v) in
                        fields.iter().filter(|(k, _)| !matches!(k.as_str(), "kind" | "game" | "hand"))
                    {
                        out.push_str(&format!(",{}:{v}", Value::from(k.as_str())));
                    }
                }
            }
            Entry::Record { record, .. } => out.push_str(&format!("\"record\":{}", json(record))),
            Entry::Consent { text, .. } => out.push_str(&format!("\"consent\":{}", json(text))),
            Entry::Answer { answer, .. } => out.push_str(&format!("\"answer\":{answer}")),
            Entry::Withdrawn { ms, .. } => out.push_str(&format!("\"withdrawn\":{ms}")),
        }
        out.push('}');
        out
    }

    /// Parses a line after the header (format 2, or one of the formats before
    /// it).
    ///
    /// # Errors
    /// A one-line reason.
    pub fn parse(text: &str) -> Result<Entry, LineError> {
        let m: Map<String, Value> =
            serde_json::from_str(text).map_err(|e| format!("not a journal line: {e}"))?;
        Entry::from_map(m)
    }

    fn from_map(mut m: Map<String, Value>) -> Result<Entry, LineError> {
        let game = m.remove("game").map(|g| g.as_u64().ok_or("`game` is not a game number")).transpose()?;
        let hand = m
            .remove("hand")
            .map(|h| h.as_u64().and_then(|h| u32::try_from(h).ok()).ok_or("`hand` is not a hand number"))
            .transpose()?;
        let place = Place { game, hand };
        if let Some(event) = m.remove("event") {
            let event = match event {
                // Format 2 and the server's log: the kind, its fields beside it.
                Value::String(kind) => {
                    m.insert("kind".into(), Value::String(kind));
                    Value::Object(m)
                }
                // A study's journal before format 2: an object with `kind`.
                Value::Object(e) if m.is_empty() => Value::Object(e),
                _ => return Err("`event` is its kind (a string) or an object".into()),
            };
            return Ok(Entry::Event { place, event });
        }
        let kinds: Vec<&str> = KINDS.iter().copied().filter(|k| m.contains_key(*k)).collect();
        let kind = match (&kinds[..], m.contains_key("seat")) {
            ([], true) => return Entry::decision(place, m),
            ([k], false) => *k,
            _ => {
                return Err("a journal line holds one of `step`, `record`, `consent`, `event`, `answer` or \
                            `withdrawn`, or `undo`, or a decision (`seat` and what it decided)"
                    .into());
            }
        };
        let v = m.remove(kind).expect("found above");
        if let Some(extra) = m.keys().next() {
            return Err(format!("a `{kind}` line has no `{extra}`").into());
        }
        let number = |v: &Value| v.as_u64().ok_or_else(|| LineError(format!("`{kind}` is not a number")));
        Ok(match kind {
            // A study's journal before format 2.
            "step" => Entry::Step {
                place,
                step: serde_json::from_value(v).map_err(|e| e.to_string())?,
                timing: None,
            },
            "undo" => Entry::Undo {
                place,
                keep: usize::try_from(number(&v)?).map_err(|_| LineError::from("`undo` is not a count"))?,
            },
            "record" => Entry::Record {
                place,
                record: Box::new(serde_json::from_value(v).map_err(|e| LineError(format!("`record`: {e}")))?),
            },
            "consent" => match v {
                Value::String(text) => Entry::Consent { place, text },
                _ => return Err("`consent` is the text accepted".into()),
            },
            "answer" => Entry::Answer { place, answer: v },
            _ => Entry::Withdrawn { place, ms: number(&v)? },
        })
    }

    /// A flat decision line: the step's keys and the timing's.
    fn decision(place: Place, mut m: Map<String, Value>) -> Result<Entry, LineError> {
        let mut num = |k: &str| -> Result<Option<u64>, LineError> {
            m.remove(k)
                .map(|v| v.as_u64().ok_or_else(|| LineError(format!("`{k}` is not a number"))))
                .transpose()
        };
        let server_ms = num("server_ms")?;
        let page_ms = num("page_ms")?;
        let at = num("at")?;
        let timing = server_ms.map(|server_ms| Timing { server_ms, page_ms, at: at.unwrap_or(0) });
        let step: Step = serde_json::from_value(Value::Object(m)).map_err(|e| LineError(e.to_string()))?;
        Ok(Entry::Step { place, step, timing })
    }
}

/// A value of a line as JSON (never fails for a line's types).
fn json<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).expect("a journal line's value serializes")
}

/// The text of `entries`, a line each.
fn lines(entries: &[Entry]) -> Vec<u8> {
    let mut out = String::with_capacity(96 * entries.len());
    for e in entries {
        out.push_str(&e.to_json());
        out.push('\n');
    }
    out.into_bytes()
}

/// A journal read back: the open file, its header if it has one, its lines
/// with their numbers (from 1; the header is line 1).
#[derive(Debug)]
pub struct Opened {
    /// The journal, open for appending.
    pub journal: Journal,
    /// Its first line, when it is a header.
    pub header: Option<Header>,
    /// Every line after it.
    pub entries: Vec<(usize, Entry)>,
}

/// A journal file, open for appending (a [`durable::Journal`] of [`Entry`]
/// lines).
#[derive(Debug)]
pub struct Journal(durable::Journal);

#[derive(Serialize)]
struct HeaderLine<'a> {
    format: u32,
    spec: &'a Value,
}

impl Journal {
    /// Creates the journal at `path` with a header holding `spec` (format
    /// [`FORMAT`]), durable when this returns (file and folder fsynced).
    ///
    /// # Errors
    /// When the file exists or cannot be written.
    pub fn create(path: &Path, spec: &Value) -> io::Result<Journal> {
        let mut header = serde_json::to_vec(&HeaderLine { format: FORMAT, spec })?;
        header.push(b'\n');
        durable::Journal::create_new(path, &header).map(Journal)
    }

    /// Reads the journal at `path` (none yet: empty, created at the first
    /// append): a last line without its newline (a write cut short) is cut from
    /// the file; any other line that does not parse is an error naming the file
    /// and the line.
    ///
    /// # Errors
    /// The file cannot be read or cut, or a line is not a journal's.
    pub fn open(path: &Path) -> Result<Opened, JournalError> {
        let (journal, bytes) = durable::Journal::open(path)?;
        let bad = |line: usize, why: String| JournalError::Line { path: path.to_path_buf(), line, why };
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            bad(1 + valid.iter().filter(|&&b| b == b'\n').count(), "not UTF-8 text".into())
        })?;
        let mut header = None;
        let mut entries = Vec::new();
        for (i, line) in text.split('\n').enumerate() {
            if line.is_empty() {
                continue;
            }
            let n = i + 1;
            let m: Map<String, Value> =
                serde_json::from_str(line).map_err(|e| bad(n, format!("not a journal line: {e}")))?;
            if n == 1 && m.contains_key("format") {
                header = Some(read_header(m).map_err(|why| bad(1, why.to_string()))?);
                continue;
            }
            entries.push((n, Entry::from_map(m).map_err(|why| bad(n, why.0))?));
        }
        Ok(Opened { journal: Journal(journal), header, entries })
    }

    /// The file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Appends `entries` and fsyncs: when this returns Ok they (and every line
    /// written before) are on disk and may be acknowledged. The file (and its
    /// folder) is created at the first append.
    ///
    /// # Errors
    /// When the write or the sync fails (the caller then acknowledges nothing).
    pub fn append(&mut self, entries: &[Entry]) -> io::Result<()> {
        self.write(entries)?;
        self.sync()
    }

    /// Appends `entries` without fsync (a run of bot decisions: [`Journal::sync`]
    /// makes it durable at once).
    ///
    /// # Errors
    /// When the write fails.
    pub fn write(&mut self, entries: &[Entry]) -> io::Result<()> {
        self.0.write(&lines(entries))
    }

    /// Fsyncs every line written so far.
    ///
    /// # Errors
    /// When the sync fails.
    pub fn sync(&mut self) -> io::Result<()> {
        self.0.sync()
    }

    /// Replaces the whole journal by `entries` (a withdrawal: atomically and
    /// durably, the old lines gone from the file when this returns) and opens
    /// it again.
    ///
    /// # Errors
    /// When the file cannot be replaced (it is then as it was) or read back.
    pub fn replace(self, entries: &[Entry]) -> Result<Journal, JournalError> {
        let path = self.path().to_path_buf();
        drop(self);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        }
        durable::write_atomic(&path, &lines(entries))?;
        Journal::open(&path).map(|o| o.journal)
    }
}

/// A header line: format 2's `spec`, or format 1's `game` (a server's log).
fn read_header(mut m: Map<String, Value>) -> Result<Header, LineError> {
    let format = m.remove("format").and_then(|f| f.as_u64()).ok_or("`format` is not a number")?;
    let key = match format {
        1 => "game",
        2 => "spec",
        _ => return Err(format!("journal format {format} (this reads 1 and {FORMAT})").into()),
    };
    let spec = m.remove(key).ok_or(format!("a format {format} header has a `{key}`"))?;
    if let Some(extra) = m.keys().next() {
        return Err(format!("a header has no `{extra}`").into());
    }
    Ok(Header { format: u32::try_from(format).unwrap_or(0), spec })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tresillo_core::{Card, Decision, Seat};

    fn step() -> Step {
        Step { seat: Seat(2), act: Decision::Play(Card::ESPADA) }
    }

    #[test]
    fn lines_round_trip_in_format_2() {
        let cases = [
            (
                Entry::Step { place: Place::hand(3), step: step(), timing: None },
                r#"{"hand":3,"seat":2,"play":"1E"}"#,
            ),
            (
                Entry::Step {
                    place: Place::hand(3),
                    step: step(),
                    timing: Some(Timing { server_ms: 1500, page_ms: Some(1400), at: 7 }),
                },
                r#"{"hand":3,"seat":2,"play":"1E","server_ms":1500,"page_ms":1400,"at":7}"#,
            ),
            (
                Entry::Step { place: Place::game(1), step: step(), timing: None },
                r#"{"game":1,"seat":2,"play":"1E"}"#,
            ),
            (Entry::Undo { place: Place::hand(1), keep: 12 }, r#"{"hand":1,"undo":12}"#),
            (
                Entry::Event {
                    place: Place::hand(0),
                    event: serde_json::json!({"kind": "misclick", "card": "7C", "at": 5, "seat": 0}),
                },
                r#"{"hand":0,"event":"misclick","at":5,"card":"7C","seat":0}"#,
            ),
            (
                Entry::Event { place: Place::game(2), event: serde_json::json!({"kind": "hidden", "at": 5}) },
                r#"{"game":2,"event":"hidden","at":5}"#,
            ),
            (
                Entry::Consent { place: Place::game(0), text: "I agree.".into() },
                r#"{"game":0,"consent":"I agree."}"#,
            ),
            (
                Entry::Answer { place: Place::game(1), answer: serde_json::json!({"question": "q"}) },
                r#"{"game":1,"answer":{"question":"q"}}"#,
            ),
            (Entry::Withdrawn { place: Place::game(0), ms: 9 }, r#"{"game":0,"withdrawn":9}"#),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_json(), text);
            assert_eq!(Entry::parse(text).unwrap(), e, "{text}");
        }
    }

    #[test]
    fn older_lines_read_and_bad_ones_are_refused_with_a_reason() {
        // A study's journal before format 2.
        assert_eq!(
            Entry::parse(r#"{"game":0,"step":{"seat":2,"play":"1E"}}"#).unwrap(),
            Entry::Step { place: Place::game(0), step: step(), timing: None }
        );
        assert_eq!(
            Entry::parse(r#"{"game":0,"event":{"kind":"hidden","at":5}}"#).unwrap(),
            Entry::Event { place: Place::game(0), event: serde_json::json!({"kind": "hidden", "at": 5}) }
        );
        // The server's format 1 (its events' keys in any order).
        assert!(matches!(
            Entry::parse(r#"{"at":5,"card":"1E","event":"misclick","hand":0,"seat":0,"seq":5}"#).unwrap(),
            Entry::Event { place: Place { game: None, hand: Some(0) }, .. }
        ));
        for (bad, why) in [
            (
                r#"{"game": 0}"#,
                "a journal line holds one of `step`, `record`, `consent`, `event`, `answer` or",
            ),
            (r#"{"hand":1,"seat":2,"play":"1E","bid":"paso"}"#, ""),
            (r#"{"hand":1,"undo":"x"}"#, "`undo` is not a number"),
            (r#"{"hand":1,"undo":2,"x":1}"#, "no `x`"),
            (r#"{"game":0,"consent":"a","answer":1}"#, "holds one of"),
            (r#"{"game":-1,"withdrawn":1}"#, "`game` is not"),
            ("[1]", "not a journal line"),
        ] {
            let e = Entry::parse(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
