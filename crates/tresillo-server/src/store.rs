//! The records directory (docs/SERVE.md): `games/TOKEN.jsonl`, one log per game
//! (its [`GameSpec`] on the first line, then every decision, each line written
//! and fsynced before the decision is acknowledged), and `records/TOKEN.jsonl`,
//! the game's finished hands as records (docs/RECORDS.md) that `tresillo replay`
//! reads. File names are made here from [`Token`]s only, never from request text.
//!
//! Reloading drops a torn last line; everything is written through the durable-file
//! functions (a `Journal` per game, `write_atomic` for records).

use crate::spec::GameSpec;
use crate::token::Token;
use serde::{Deserialize, Serialize};
use std::io;
use std::path::{Path, PathBuf};
use tresillo_durable::{self as durable, Journal};
use tresillo_sim::{HandRecord, Step};

/// The log format version on every log's first line.
pub const LOG_FORMAT: u32 = 1;

/// A log's first line.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// [`LOG_FORMAT`].
    pub format: u32,
    /// The game.
    pub game: GameSpec,
}

/// One decision line: the hand's index in the session and the record's step
/// (`{"hand":0,"seat":1,"play":"7C"}`), with the person's timing when a person
/// took it (`"server_ms"`, `"page_ms"`, `"at"`: see [`Timing`]).
#[derive(Debug)]
pub struct Line {
    /// The hand (0 for the first of the session).
    pub hand: u32,
    /// Who decided what.
    pub step: Step,
    /// How long the person took (absent for a bot's decision).
    pub timing: Option<Timing>,
}

/// How long a person took over a decision (docs/SERVE.md, "Timing and
/// behaviour").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// Milliseconds from the moment the server had the person's turn ready to
    /// the decision's receipt (the server's clock).
    pub server_ms: u64,
    /// Milliseconds from the moment the page showed the question to the click
    /// (the page's own clock, as it reports it; absent when it sent none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_ms: Option<u64>,
    /// When the server received it: milliseconds since 1970 (UTC).
    pub at: u64,
}

/// A line of a game's log after its header.
#[derive(Debug)]
pub enum Entry {
    /// A decision.
    Decision(Line),
    /// The person took back their last decision of hand `hand` (a casual game
    /// with undo): the hand's decisions are cut to the first `keep`
    /// (`{"hand":0,"undo":12}`).
    Undo {
        /// The hand.
        hand: u32,
        /// Decisions of the hand kept.
        keep: usize,
    },
    /// Something the page saw the person do that is not a decision
    /// (`{"hand":0,"event":"misclick","card":"7C","seat":0,"at":...}`, `hidden`,
    /// `visible`): kept in the log for the researcher, not replayed.
    Event(serde_json::Value),
}

impl Line {
    /// The line as written (no newline).
    #[must_use]
    pub fn to_json(&self) -> String {
        let step = serde_json::to_string(&self.step).expect("a step serializes");
        let rest = step.strip_prefix('{').expect("a step is an object");
        match &self.timing {
            None => format!("{{\"hand\":{},{rest}", self.hand),
            Some(t) => {
                let rest = rest.strip_suffix('}').expect("a step is an object");
                let page = t.page_ms.map_or(String::new(), |p| format!(",\"page_ms\":{p}"));
                format!(
                    "{{\"hand\":{},{rest},\"server_ms\":{}{page},\"at\":{}}}",
                    self.hand, t.server_ms, t.at
                )
            }
        }
    }

    /// Parses a decision line.
    ///
    /// # Errors
    /// A one-line reason.
    pub fn parse(text: &str) -> Result<Line, String> {
        match Entry::parse(text)? {
            Entry::Decision(l) => Ok(l),
            _ => Err("not a decision line".into()),
        }
    }
}

impl Entry {
    /// The line as written (no newline).
    #[must_use]
    pub fn to_json(&self) -> String {
        match self {
            Entry::Decision(l) => l.to_json(),
            Entry::Undo { hand, keep } => format!("{{\"hand\":{hand},\"undo\":{keep}}}"),
            Entry::Event(v) => v.to_string(),
        }
    }

    /// Parses a line of the log after its header.
    ///
    /// # Errors
    /// A one-line reason.
    pub fn parse(text: &str) -> Result<Entry, String> {
        let mut m: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(text).map_err(|e| e.to_string())?;
        if m.contains_key("event") {
            return Ok(Entry::Event(serde_json::Value::Object(m)));
        }
        let hand = m.remove("hand").ok_or("no `hand`")?;
        let hand = hand.as_u64().and_then(|h| u32::try_from(h).ok()).ok_or("`hand` is not a hand number")?;
        if let Some(keep) = m.remove("undo") {
            let keep = keep.as_u64().and_then(|k| usize::try_from(k).ok()).ok_or("`undo` is not a count")?;
            if !m.is_empty() {
                return Err("an undo line has only `hand` and `undo`".into());
            }
            return Ok(Entry::Undo { hand, keep });
        }
        let num =
            |m: &mut serde_json::Map<String, serde_json::Value>, k: &str| -> Result<Option<u64>, String> {
                m.remove(k).map(|v| v.as_u64().ok_or(format!("`{k}` is not a number"))).transpose()
            };
        let server_ms = num(&mut m, "server_ms")?;
        let page_ms = num(&mut m, "page_ms")?;
        let at = num(&mut m, "at")?;
        let timing = server_ms.map(|server_ms| Timing { server_ms, page_ms, at: at.unwrap_or(0) });
        let step: Step = serde_json::from_value(serde_json::Value::Object(m)).map_err(|e| e.to_string())?;
        Ok(Entry::Decision(Line { hand, step, timing }))
    }
}

/// The directory's two folders.
#[derive(Clone, Debug)]
pub struct Store {
    games: PathBuf,
    records: PathBuf,
}

/// An open game log, appended to (a [`Journal`]), and the game's records file.
#[derive(Debug)]
pub struct Log {
    journal: Journal,
    records: PathBuf,
}

/// A game read back from its log.
pub struct Loaded {
    /// The game's token (its file name).
    pub token: Token,
    /// Its spec.
    pub game: GameSpec,
    /// Its decisions (and undos and events) with their line numbers (1-based;
    /// the header is line 1).
    pub lines: Vec<(usize, Entry)>,
    /// The open log, to append to.
    pub log: Log,
    /// Its records file as it is on disk (None: missing or unreadable), to know
    /// whether it is whole and current.
    pub records_on_disk: Option<String>,
}

impl Store {
    /// The store in `dir`, its folders created if missing.
    ///
    /// # Errors
    /// When the folders cannot be created.
    pub fn open(dir: &Path) -> io::Result<Store> {
        let games = dir.join("games");
        let records = dir.join("records");
        std::fs::create_dir_all(&games)?;
        std::fs::create_dir_all(&records)?;
        Ok(Store { games, records })
    }

    fn game_path(&self, t: Token) -> PathBuf {
        self.games.join(format!("{t}.jsonl"))
    }

    /// The path of a game's records file (it may not exist yet).
    #[must_use]
    pub fn records_path(&self, t: Token) -> PathBuf {
        self.records.join(format!("{t}.jsonl"))
    }

    /// Creates a game's log with its header, fsynced (file and folder).
    ///
    /// # Errors
    /// When the file exists or cannot be written.
    pub fn create(&self, t: Token, game: &GameSpec) -> io::Result<Log> {
        let header = serde_json::to_string(&Header { format: LOG_FORMAT, game: game.clone() })?;
        // The fsyncs of the new log and its folder, timed with the write (one line).
        let synced = crate::stats::start();
        let journal = Journal::create_new(&self.game_path(t), format!("{header}\n").as_bytes())?;
        crate::stats::since(&crate::stats::STATS.fsync, synced);
        Ok(Log { journal, records: self.records_path(t) })
    }

    /// Reads every game log. A log cut in the middle of a line (the server killed
    /// while writing a decision it had not acknowledged) is truncated to its last
    /// whole line. A log that cannot be read is an error naming its file and line,
    /// and the other games still load.
    pub fn load_all(&self) -> (Vec<Loaded>, Vec<String>) {
        let mut games = Vec::new();
        let mut errors = Vec::new();
        let entries = match std::fs::read_dir(&self.games) {
            Ok(e) => e,
            Err(e) => return (games, vec![format!("{}: {e}", self.games.display())]),
        };
        let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        names.sort();
        for path in names {
            let token = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".jsonl"))
                .and_then(Token::parse);
            let Some(token) = token else {
                errors.push(format!("{}: not a game log (TOKEN.jsonl); ignored", path.display()));
                continue;
            };
            match self.load(token, &path) {
                Ok(g) => games.push(g),
                Err(e) => errors.push(e),
            }
        }
        (games, errors)
    }

    /// Reads game `t`'s log again (a game unloaded from memory): None when it
    /// has no log.
    pub fn load_one(&self, t: Token) -> Option<Result<Loaded, String>> {
        let path = self.game_path(t);
        path.exists().then(|| self.load(t, &path))
    }

    /// The bytes the directory's logs and records take.
    #[must_use]
    pub fn disk_usage(&self) -> u64 {
        let mut n = 0;
        for d in [&self.games, &self.records] {
            if let Ok(rd) = std::fs::read_dir(d) {
                n +=
                    rd.filter_map(Result::ok).filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum::<u64>();
            }
        }
        n
    }

    /// The first version this run of the server gives out: above every version
    /// the runs before it gave (whatever the clock says), kept in `DIR/epoch`
    /// (durably: written before the first request is answered).
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn version_floor(&self, now: u64) -> io::Result<u64> {
        let path = self.games.parent().unwrap_or(Path::new(".")).join("epoch");
        let before = std::fs::read_to_string(&path).ok().and_then(|t| t.trim().parse::<u64>().ok());
        // A run gives out fewer than 2^32 versions: the next starts above them
        // even if the clock went back.
        let floor = before.map_or(now, |b| now.max(b.saturating_add(1 << 32)));
        durable::write_atomic(&path, format!("{floor}\n").as_bytes())?;
        Ok(floor)
    }

    fn load(&self, token: Token, path: &Path) -> Result<Loaded, String> {
        let at = |line: usize, e: &dyn std::fmt::Display| format!("{}:{line}: {e}", path.display());
        // A torn last line was never acknowledged: the journal drops it.
        let (journal, bytes) = Journal::open(path).map_err(|e| e.to_string())?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let line =
                1 + e.as_bytes()[..e.utf8_error().valid_up_to()].iter().filter(|&&b| b == b'\n').count();
            at(line, &"not UTF-8 text")
        })?;
        let mut lines = text.lines().enumerate();
        let (_, first) = lines.next().ok_or_else(|| at(1, &"empty log"))?;
        let header: Header = serde_json::from_str(first).map_err(|e| at(1, &e))?;
        if header.format != LOG_FORMAT {
            return Err(at(1, &format!("log format {} (this server reads {LOG_FORMAT})", header.format)));
        }
        let mut decisions = Vec::new();
        for (i, l) in lines {
            decisions.push((i + 1, Entry::parse(l).map_err(|e| at(i + 1, &e))?));
        }
        let records = self.records_path(token);
        let records_on_disk = std::fs::read_to_string(&records).ok();
        Ok(Loaded {
            token,
            game: header.game,
            lines: decisions,
            log: Log { journal, records },
            records_on_disk,
        })
    }
}

/// A records file's text: one record a line (docs/RECORDS.md).
#[must_use]
pub fn records_text(records: &[HandRecord]) -> String {
    let mut text = String::new();
    for r in records {
        text.push_str(&serde_json::to_string(r).expect("a record serializes"));
        text.push('\n');
    }
    text
}

impl Log {
    /// Appends `lines` and fsyncs: when this returns Ok they are on disk.
    ///
    /// # Errors
    /// When the write or the sync fails (the caller then acknowledges nothing).
    pub fn append(&mut self, lines: &[Entry]) -> io::Result<()> {
        self.write(lines)?;
        self.sync()
    }

    /// Appends `lines` without fsync (a bot's decision in the middle of a run of
    /// bot decisions: [`Log::sync`] makes the whole run durable at once).
    ///
    /// # Errors
    /// When the write fails.
    pub fn write(&mut self, lines: &[Entry]) -> io::Result<()> {
        let mut buf = String::new();
        for l in lines {
            buf.push_str(&l.to_json());
            buf.push('\n');
        }
        self.journal.write(buf.as_bytes())
    }

    /// Fsyncs every line written so far.
    ///
    /// # Errors
    /// When the sync fails.
    pub fn sync(&mut self) -> io::Result<()> {
        let t = crate::stats::start();
        let r = self.journal.sync();
        crate::stats::since(&crate::stats::STATS.fsync, t);
        r
    }

    /// Writes the game's finished hands as its records file: a new file renamed
    /// over the old one, so a reader sees the old file or the new one whole. Not
    /// fsynced: the file is derived from the log, whose lines are durable before
    /// the hand's end is acknowledged, and [`Server::open`](crate::Server::open)
    /// compares it with the log's hands at every start and writes it again when
    /// it differs (a crash of the machine before the page cache reached the
    /// disk). Its fsyncs were the slowest step of a hand's last decision.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn write_records(&self, records: &[HandRecord]) -> io::Result<()> {
        durable::write_atomic_unsynced(&self.records, records_text(records).as_bytes())
    }

    /// Writes the records file and fsyncs it and its folder (when it is written
    /// again at start): [`durable::write_atomic`].
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn write_records_durably(&self, records: &[HandRecord]) -> io::Result<()> {
        durable::write_atomic(&self.records, records_text(records).as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tresillo_core::{Card, Seat};

    #[test]
    fn lines_round_trip() {
        let l = Line {
            hand: 3,
            step: Step { seat: Seat(2), act: tresillo_core::Decision::Play(Card::ESPADA) },
            timing: None,
        };
        let text = l.to_json();
        assert_eq!(text, r#"{"hand":3,"seat":2,"play":"1E"}"#);
        let back = Line::parse(&text).unwrap();
        assert_eq!((back.hand, back.step), (3, l.step));
        assert!(Line::parse(r#"{"seat":2,"play":"1E"}"#).unwrap_err().contains("hand"));
        assert!(Line::parse(r#"{"hand":1,"seat":2,"play":"1E","bid":"paso"}"#).is_err());
        // A person's decision keeps its timing; an undo and an event read back.
        let t = Line { timing: Some(Timing { server_ms: 1500, page_ms: Some(1400), at: 7 }), ..l };
        let text = t.to_json();
        assert_eq!(text, r#"{"hand":3,"seat":2,"play":"1E","server_ms":1500,"page_ms":1400,"at":7}"#);
        assert_eq!(Line::parse(&text).unwrap().timing, t.timing);
        let u = Entry::Undo { hand: 1, keep: 12 }.to_json();
        assert!(matches!(Entry::parse(&u).unwrap(), Entry::Undo { hand: 1, keep: 12 }));
        assert!(matches!(Entry::parse(r#"{"event":"hidden","hand":0,"at":5}"#).unwrap(), Entry::Event(_)));
        assert!(Entry::parse(r#"{"hand":1,"undo":"x"}"#).is_err());
    }
}
