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
use std::io;
use std::path::{Path, PathBuf};
use tresillo_durable as durable;
use tresillo_sim::HandRecord;
use tresillo_table::journal::{Entry, FORMAT, Journal, JournalError};

/// The log format version on every new log's first line (the journal's,
/// docs/JOURNAL.md); logs of format 1 are read too.
pub const LOG_FORMAT: u32 = FORMAT;

/// Why a game's log cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file, or one of its lines (named).
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// Its header: missing, or not a game's spec.
    #[error("{}:1: {why}", path.display())]
    Header {
        /// The log.
        path: PathBuf,
        /// Why.
        why: String,
    },
}

/// The directory's two folders.
#[derive(Clone, Debug)]
pub struct Store {
    games: PathBuf,
    records: PathBuf,
}

/// An open game log, appended to (the table's [`Journal`]), and the game's
/// records file.
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
        let spec = serde_json::to_value(game)?;
        // The fsyncs of the new log and its folder, timed with the write (one line).
        let synced = crate::stats::start();
        let journal = Journal::create(&self.game_path(t), &spec)?;
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
                Err(e) => errors.push(e.to_string()),
            }
        }
        (games, errors)
    }

    /// Reads game `t`'s log again (a game unloaded from memory): None when it
    /// has no log.
    pub fn load_one(&self, t: Token) -> Option<Result<Loaded, LoadError>> {
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

    fn load(&self, token: Token, path: &Path) -> Result<Loaded, LoadError> {
        let header = |why: String| LoadError::Header { path: path.to_path_buf(), why };
        // A torn last line was never acknowledged: the journal drops it.
        let opened = Journal::open(path)?;
        let h = opened.header.ok_or_else(|| header("no header (a log's first line is its game)".into()))?;
        let game: GameSpec = serde_json::from_value(h.spec).map_err(|e| header(e.to_string()))?;
        let records = self.records_path(token);
        let records_on_disk = std::fs::read_to_string(&records).ok();
        Ok(Loaded {
            token,
            game,
            lines: opened.entries,
            log: Log { journal: opened.journal, records },
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
        self.journal.write(lines)
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
