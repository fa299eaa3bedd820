//! The records directory (docs/SERVE.md): `games/TOKEN.jsonl`, one log per game
//! (its [`GameSpec`] on the first line, then every decision, each line written
//! and fsynced before the decision is acknowledged), and `records/TOKEN.jsonl`,
//! the game's finished hands as records (docs/RECORDS.md) that `tresillo replay`
//! reads. File names are made here from [`Token`]s only, never from request text.

use crate::spec::GameSpec;
use crate::token::Token;
use serde::{Deserialize, Serialize};
use std::io;
use std::path::{Path, PathBuf};
use tresillo_runs::durable::{self, Journal};
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
/// (`{"hand":0,"seat":1,"play":"7C"}`).
#[derive(Debug)]
pub struct Line {
    /// The hand (0 for the first of the session).
    pub hand: u32,
    /// Who decided what.
    pub step: Step,
}

impl Line {
    /// The line as written (no newline).
    #[must_use]
    pub fn to_json(&self) -> String {
        let step = serde_json::to_string(&self.step).expect("a step serializes");
        let rest = step.strip_prefix('{').expect("a step is an object");
        format!("{{\"hand\":{},{rest}", self.hand)
    }

    /// Parses a decision line.
    ///
    /// # Errors
    /// A one-line reason.
    pub fn parse(text: &str) -> Result<Line, String> {
        let mut m: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(text).map_err(|e| e.to_string())?;
        let hand = m.remove("hand").ok_or("no `hand`")?;
        let hand = hand.as_u64().and_then(|h| u32::try_from(h).ok()).ok_or("`hand` is not a hand number")?;
        let step: Step = serde_json::from_value(serde_json::Value::Object(m)).map_err(|e| e.to_string())?;
        Ok(Line { hand, step })
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
    /// Its decisions with their line numbers (1-based; the header is line 1).
    pub lines: Vec<(usize, Line)>,
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
            decisions.push((i + 1, Line::parse(l).map_err(|e| at(i + 1, &e))?));
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
    pub fn append(&mut self, lines: &[Line]) -> io::Result<()> {
        self.write(lines)?;
        self.sync()
    }

    /// Appends `lines` without fsync (a bot's decision in the middle of a run of
    /// bot decisions: [`Log::sync`] makes the whole run durable at once).
    ///
    /// # Errors
    /// When the write fails.
    pub fn write(&mut self, lines: &[Line]) -> io::Result<()> {
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
    use tresillo_sim::Act;

    #[test]
    fn lines_round_trip() {
        let l = Line { hand: 3, step: Step { seat: Seat(2), act: Act::Play(Card::ESPADA) } };
        let text = l.to_json();
        assert_eq!(text, r#"{"hand":3,"seat":2,"play":"1E"}"#);
        let back = Line::parse(&text).unwrap();
        assert_eq!((back.hand, back.step), (3, l.step));
        assert!(Line::parse(r#"{"seat":2,"play":"1E"}"#).unwrap_err().contains("hand"));
        assert!(Line::parse(r#"{"hand":1,"seat":2,"play":"1E","bid":"paso"}"#).is_err());
    }
}
