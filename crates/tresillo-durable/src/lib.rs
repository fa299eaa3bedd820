//! Files that survive a crash: the one place where tresillo writes a file so that a
//! kill of the process (or a power loss) leaves either the old content or the new,
//! never a mix, and where an append-only journal is written and read back. The
//! run directories, `tresillo tune` and `sprt`, the server's game logs and records
//! and the study's journals and exports all write through it.
//!
//! What each step protects against:
//!
//! - **A temporary file, renamed over the target** ([`write_atomic`]): a kill in
//!   the middle of the write leaves the old file whole (readers never see half a
//!   file), since a rename within a directory replaces the name in one step.
//! - **`fsync` of the temporary file before the rename**: a power loss (or an
//!   operating-system crash) after the rename cannot leave the new name pointing
//!   at a file whose blocks never reached the disk (an empty or short file).
//! - **`fsync` of the directory after the rename** ([`sync_dir`]): the rename
//!   itself (a change of the directory) is on disk, so that after a power loss
//!   the file is not found under its old content again once the caller has
//!   acted on the new one. A file created in a directory ([`create_new`], a
//!   journal's first line) is made durable the same way.
//! - **A journal's append fsynced before the call returns** ([`Journal::append`]):
//!   once it returns, what the lines say may be acknowledged (a player told that
//!   a decision is taken); a crash after that loses none of them.
//! - **Torn tails cut at open** ([`Journal::open`]): a crash during an append
//!   can leave a last line without its newline. That line was never
//!   acknowledged (the append had not returned), so it is removed from the file,
//!   and the next append starts on a line of its own.
//!
//! [`write_atomic_unsynced`] keeps the first step only: for files rewritten often
//! whose loss in a power failure costs work, not results (a run's periodic
//! checkpoints, synced at the end).
//!
//! Every step that changes a file is a write point ([`fault::write_point`]): a
//! test build installs a [`fault::Faults`] that kills the process at each in turn
//! (the library itself injects nothing).
//!
//! Beside them: the checksums of the files ([`checksum`]) and readers of line
//! inputs in bounded memory ([`lines`]). This crate depends on no other crate of
//! the workspace: the run directories (tresillo-runs), the study and the server
//! write through it.
//!
//! Errors are [`io::Error`]s of the original kind whose message names the file
//! (`PATH: reason`), one line.
//!
//! **Files are written in one place** (`tresillo_runs::durable`). A file that is
//! replaced (a run's manifest, statistics, summary files; a league's files through
//! `write_shared`; `tune`'s and `sprt`'s state; the server's records when they are
//! written again at start; the study's export) is written by `durable::write_atomic`:
//! `NAME.tmp` in the same directory, fsynced, renamed over `NAME`, the directory
//! fsynced, so that a kill or a power loss leaves the old content or the new, and a
//! temporary file a kill left is replaced by the next write of the same file. A run's
//! checkpoints between batches use `write_atomic_unsynced` (kill-safe, synced at the
//! end), and so do the server's records files at each hand's end (derived from the
//! fsynced log, which the server compares them with at start). A file that grows line
//! by line and whose lines are acknowledged (the server's game logs, the study's
//! journals) is a `durable::Journal`: each append fsynced before the caller
//! acknowledges it (or batched and synced with `sync`), and at open a torn last line
//! (no newline: an append a crash cut short, never acknowledged) is cut, never a
//! complete line. The only other writes are streams that are finished and fsynced
//! before a rename publishes them (`deals.csv`, `deals.parquet` and its parts, the
//! record file, a merge's `deals.csv.partial`). Each of durable's steps passes
//! `write_point`, so the kill-at-every-write tests walk them.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub mod checksum;
pub mod fault;
pub mod lines;

pub use fault::write_point;

/// `e` with the file it happened to in its message (`PATH: reason`), its kind kept.
fn named(path: &Path, e: &io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// The directory that holds `path` (`.` for a bare file name).
fn parent(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// `path` with `suffix` added to its file name (`manifest.json` → `manifest.json.tmp`).
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// The temporary file [`write_atomic`] writes before renaming it over `path`:
/// `NAME.tmp` in the same directory (a rename does not cross file systems). The
/// name is the target's own, so two files of one directory never share a
/// temporary file, and a temporary file a kill left behind is replaced by the
/// next write of the same file instead of piling up.
#[must_use]
pub fn temp_path(path: &Path) -> PathBuf {
    with_suffix(path, ".tmp")
}

/// Flushes the directory `dir` to disk, so that a file created, renamed or removed
/// in it stays so after a power loss.
///
/// # Errors
/// When the directory cannot be opened or synced; the message names it.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir).and_then(|d| d.sync_all()).map_err(|e| named(dir, &e))
}

/// Replaces the content of `path` with `bytes`, atomically and durably: written
/// to [`temp_path`], fsynced, renamed over `path`, and the directory fsynced. A
/// kill at any point leaves `path` with its old content or its new one; when this
/// returns Ok the new content survives a power loss. On an error the temporary
/// file is removed (when this call created it) and `path` is unchanged.
///
/// One writer of a given file at a time per directory: several processes that
/// may write the same file at once use [`write_shared`].
///
/// # Errors
/// When a step fails; the message names the file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, &temp_path(path), bytes, true)
}

/// [`write_atomic`] without the fsyncs: a kill leaves the old content or the new,
/// but a power loss may lose the new one. For files rewritten often whose loss
/// costs work, not results (a run's checkpoints between batches).
///
/// # Errors
/// When a step fails; the message names the file.
pub fn write_atomic_unsynced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, &temp_path(path), bytes, false)
}

/// [`write_atomic`] for a file that several processes may write at once (the
/// same bytes, as a league's shards do): the temporary file is `NAME.PID.tmp`, of
/// this process, so that no process renames another's temporary file away. A
/// killed process's file is left behind: its owner cleans it up by its name.
///
/// # Errors
/// When a step fails; the message names the file.
pub fn write_shared(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, &with_suffix(path, &format!(".{}.tmp", std::process::id())), bytes, true)
}

/// Writes `bytes` to `tmp` (fsynced when `sync`) and renames it over `path`
/// (the directory fsynced when `sync`); removes `tmp` on an error.
fn replace(path: &Path, tmp: &Path, bytes: &[u8], sync: bool) -> io::Result<()> {
    let mut f = File::create(tmp).map_err(|e| named(tmp, &e))?;
    let written = f.write_all(bytes).and_then(|()| if sync { f.sync_all() } else { Ok(()) });
    drop(f);
    if let Err(e) = written {
        let _ = fs::remove_file(tmp);
        return Err(named(tmp, &e));
    }
    write_point();
    if let Err(e) = fs::rename(tmp, path) {
        let _ = fs::remove_file(tmp);
        return Err(named(path, &e));
    }
    if sync {
        sync_dir(parent(path))?;
    }
    write_point();
    Ok(())
}

/// Writes `bytes` as the new file `path`, its directory created if missing, and
/// makes it durable (file and directory fsynced). An existing file is never
/// overwritten: that is an error of kind [`io::ErrorKind::AlreadyExists`].
///
/// # Errors
/// When the file exists or a step fails; the message names the file.
pub fn create_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    Journal::create_new(path, bytes).map(drop)
}

/// Appends `bytes` to the existing file `path` and fsyncs it (a missing file is
/// an error, not created).
///
/// # Errors
/// When the file cannot be opened, written or synced; the message names it.
pub fn append(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = OpenOptions::new().append(true).open(path).map_err(|e| named(path, &e))?;
    f.write_all(bytes).and_then(|()| f.sync_all()).map_err(|e| named(path, &e))?;
    write_point();
    Ok(())
}

/// An error and its causes on one line (`error: cause: cause`), as `{:#}` shows
/// an error with its chain: for error types that say their cause in their own
/// message (the runs' and the deal files' steps).
#[must_use]
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

/// An append-only journal: a file of lines, each ending in `\n`, only ever added
/// to at its end (the server's game logs, the study's participant journals).
///
/// A **torn** line is a last line without its newline: the bytes of an append
/// that a crash cut short. [`Journal::open`] removes it from the file, since the
/// append that wrote it never returned (nothing it said was acknowledged). Only
/// an unterminated last line is cut, never a complete one: a line ending in `\n`
/// is kept whatever it holds (its reader judges it, and reports it by its line
/// number).
///
/// The file is opened at the first write (so that many journals can be loaded
/// without holding a descriptor each) and created then, with its directory, when
/// it does not exist.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Option<File>,
    torn: u64,
}

impl Journal {
    /// Reads the journal at `path` and returns it, open for appending, with its
    /// complete lines (the file's bytes up to and including its last `\n`). A
    /// torn last line is cut from the file (and the cut fsynced). A missing file
    /// is an empty journal, created at the first append.
    ///
    /// # Errors
    /// When the file cannot be read or cut; the message names it.
    pub fn open(path: &Path) -> io::Result<(Journal, Vec<u8>)> {
        let mut bytes = match fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(named(path, &e)),
        };
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let torn = (bytes.len() - whole) as u64;
        if torn > 0 {
            let f = OpenOptions::new().write(true).open(path).map_err(|e| named(path, &e))?;
            f.set_len(whole as u64).and_then(|()| f.sync_all()).map_err(|e| named(path, &e))?;
            write_point();
            bytes.truncate(whole);
        }
        Ok((Journal { path: path.to_path_buf(), file: None, torn }, bytes))
    }

    /// Creates the journal `path` with its first line(s) `first` (its directory
    /// created if missing), durable when this returns (file and directory
    /// fsynced). An existing file is an error of kind
    /// [`io::ErrorKind::AlreadyExists`] and is left as it is.
    ///
    /// # Errors
    /// When the file exists or a step fails; the message names it.
    pub fn create_new(path: &Path, first: &[u8]) -> io::Result<Journal> {
        let dir = parent(path);
        fs::create_dir_all(dir).map_err(|e| named(dir, &e))?;
        let mut file =
            OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| named(path, &e))?;
        file.write_all(first).and_then(|()| file.sync_all()).map_err(|e| named(path, &e))?;
        sync_dir(dir)?;
        write_point();
        Ok(Journal { path: path.to_path_buf(), file: Some(file), torn: 0 })
    }

    /// The file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many bytes [`Journal::open`] cut from the end of the file (a torn last
    /// line), 0 when none.
    #[must_use]
    pub fn torn_bytes(&self) -> u64 {
        self.torn
    }

    /// Appends `lines` (whole lines, the last ending in `\n`) and fsyncs the
    /// file: when this returns Ok they, and every line written before, are on
    /// disk and may be acknowledged. Nothing to append still syncs what
    /// [`Journal::write`] left unsynced.
    ///
    /// # Errors
    /// When `lines` does not end in `\n` (kind [`io::ErrorKind::InvalidInput`],
    /// nothing written), or the write or the sync fails; the message names the
    /// file. After an error the caller acknowledges nothing.
    pub fn append(&mut self, lines: &[u8]) -> io::Result<()> {
        self.write(lines)?;
        self.sync()
    }

    /// Appends `lines` without fsync, for a writer that batches: [`Journal::sync`]
    /// (or the next [`Journal::append`]) makes them durable. Until then a crash
    /// may lose them, or leave the last one torn.
    ///
    /// # Errors
    /// As [`Journal::append`], without the sync.
    pub fn write(&mut self, lines: &[u8]) -> io::Result<()> {
        if lines.is_empty() {
            return Ok(());
        }
        if lines.last() != Some(&b'\n') {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: a journal append must end with a newline (nothing written)",
                    self.path.display()
                ),
            ));
        }
        let path = &self.path;
        let f = match &mut self.file {
            Some(f) => f,
            None => self.file.insert(open_for_append(path)?),
        };
        f.write_all(lines).map_err(|e| named(path, &e))?;
        write_point();
        Ok(())
    }

    /// Fsyncs every line written so far (nothing to do before the first write).
    ///
    /// # Errors
    /// When the sync fails; the message names the file.
    pub fn sync(&mut self) -> io::Result<()> {
        match &self.file {
            Some(f) => f.sync_data().map_err(|e| named(&self.path, &e)),
            None => Ok(()),
        }
    }
}

/// Opens `path` for appending, creating it (and its directory) when missing; a
/// created file's directory is fsynced so that the file survives a power loss.
fn open_for_append(path: &Path) -> io::Result<File> {
    let dir = parent(path);
    fs::create_dir_all(dir).map_err(|e| named(dir, &e))?;
    let created = !path.exists();
    let f = OpenOptions::new().create(true).append(true).open(path).map_err(|e| named(path, &e))?;
    if created {
        sync_dir(dir)?;
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory for test `name`.
    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tresillo-durable-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(d: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    /// The library once aborted the process at the N-th write when the
    /// environment held `TRESILLO_ABORT_AFTER_WRITES=N` (a Python user with it
    /// set lost the interpreter): this test runs itself again with it set.
    #[test]
    fn the_environment_injects_no_fault() {
        const VAR: &str = "TRESILLO_ABORT_AFTER_WRITES";
        if std::env::var_os(VAR).is_some() {
            let d = tmp("env-child");
            write_atomic(&d.join("a"), b"x").unwrap();
            append(&d.join("a"), b"y").unwrap();
            return;
        }
        let me = std::env::current_exe().unwrap();
        let out = std::process::Command::new(me)
            .args(["--exact", "tests::the_environment_injects_no_fault", "--test-threads", "1"])
            .env(VAR, "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }

    #[test]
    fn write_atomic_creates_and_replaces_leaving_no_temporary() {
        let d = tmp("replace");
        let p = d.join("stats.json");
        write_atomic(&p, b"old").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"old");
        write_atomic(&p, b"new content").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"new content");
        write_atomic_unsynced(&p, b"third").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"third");
        assert_eq!(names(&d), ["stats.json"]);
    }

    #[test]
    fn temporary_files_are_the_targets_own() {
        // compute.csv and compute.json once shared compute.tmp.
        let d = Path::new("run");
        assert_ne!(temp_path(&d.join("compute.csv")), temp_path(&d.join("compute.json")));
        assert_eq!(temp_path(&d.join("manifest.json")), d.join("manifest.json.tmp"));
        assert_ne!(temp_path(&d.join("stats.json.partial")), temp_path(&d.join("stats.json")));
    }

    #[test]
    fn a_temporary_file_left_by_a_kill_is_replaced() {
        let d = tmp("leftover");
        let p = d.join("manifest.json");
        fs::write(temp_path(&p), b"half a manifest from a killed run").unwrap();
        write_atomic(&p, b"{}").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"{}");
        assert_eq!(names(&d), ["manifest.json"]);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file() {
        let d = tmp("failed");
        let p = d.join("summary.csv");
        write_atomic(&p, b"old").unwrap();
        // The temporary file cannot be created (a directory holds its name).
        fs::create_dir(temp_path(&p)).unwrap();
        let e = write_atomic(&p, b"new").unwrap_err();
        assert!(e.to_string().contains("summary.csv.tmp"), "{e}");
        assert_eq!(fs::read(&p).unwrap(), b"old");
        assert!(temp_path(&p).is_dir(), "what this call did not create is not removed");
        // The rename fails (the target is a directory that holds a file): the
        // temporary file is removed, the target untouched.
        let q = d.join("pairs.csv");
        fs::create_dir(&q).unwrap();
        fs::write(q.join("inside"), b"kept").unwrap();
        let e = write_atomic(&q, b"new").unwrap_err();
        assert!(e.to_string().contains("pairs.csv"), "{e}");
        assert!(!temp_path(&q).exists());
        assert_eq!(fs::read(q.join("inside")).unwrap(), b"kept");
        // A missing directory names the file.
        let e = write_atomic(&d.join("no/such/file"), b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(e.to_string().contains("no/such/file.tmp"), "{e}");
    }

    #[test]
    fn write_shared_uses_this_processs_temporary_file() {
        let d = tmp("shared");
        let p = d.join("ratings.csv");
        write_shared(&p, b"a").unwrap();
        write_shared(&p, b"b").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"b");
        assert_eq!(names(&d), ["ratings.csv"]);
    }

    #[test]
    fn create_new_never_overwrites() {
        let d = tmp("create");
        let p = d.join("sub/study.toml");
        create_new(&p, b"title = 'a'\n").unwrap();
        let e = create_new(&p, b"title = 'b'\n").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert!(e.to_string().contains("study.toml"), "{e}");
        append(&p, b"more\n").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"title = 'a'\nmore\n");
        let e = append(&d.join("missing"), b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(!d.join("missing").exists());
    }

    #[test]
    fn a_torn_tail_is_cut_and_complete_lines_kept() {
        let d = tmp("torn");
        let p = d.join("g.jsonl");
        fs::write(&p, b"{\"a\":1}\nnot json but complete\n{\"b\":").unwrap();
        let (j, lines) = Journal::open(&p).unwrap();
        assert_eq!(lines, b"{\"a\":1}\nnot json but complete\n");
        assert_eq!(j.torn_bytes(), 5);
        assert_eq!(fs::read(&p).unwrap(), lines, "the torn line is cut from the file");
        // A journal whose every line is complete is left as it is.
        let (j, again) = Journal::open(&p).unwrap();
        assert_eq!((again, j.torn_bytes()), (lines, 0));
        // A file of only a torn line holds no line.
        fs::write(&p, b"{\"half").unwrap();
        let (_, none) = Journal::open(&p).unwrap();
        assert!(none.is_empty());
        assert_eq!(fs::metadata(&p).unwrap().len(), 0);
    }

    #[test]
    fn a_torn_multibyte_character_is_cut_before_the_text_is_read() {
        // The server read its logs as UTF-8 before cutting: a tail torn inside a
        // character made the whole log unreadable.
        let d = tmp("utf8");
        let p = d.join("g.jsonl");
        let mut bytes = "{\"name\":\"Peña\"}\n{\"name\":\"Ñ".as_bytes().to_vec();
        bytes.pop(); // half of the Ñ
        fs::write(&p, &bytes).unwrap();
        let (_, lines) = Journal::open(&p).unwrap();
        assert_eq!(String::from_utf8(lines).unwrap(), "{\"name\":\"Peña\"}\n");
    }

    #[test]
    fn reopen_and_append() {
        let d = tmp("append");
        let p = d.join("games/p1.jsonl");
        // Missing: empty, and nothing is created until the first append.
        let (mut j, lines) = Journal::open(&p).unwrap();
        assert!(lines.is_empty());
        j.append(b"").unwrap();
        assert!(!p.exists());
        j.append(b"one\n").unwrap();
        j.write(b"two\nthree\n").unwrap();
        j.sync().unwrap();
        drop(j);
        fs::OpenOptions::new().append(true).open(&p).unwrap().write_all(b"fo").unwrap();
        let (mut j, lines) = Journal::open(&p).unwrap();
        assert_eq!(lines, b"one\ntwo\nthree\n");
        j.append(b"four\n").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"one\ntwo\nthree\nfour\n");
        assert_eq!(j.path(), p);
    }

    #[test]
    fn an_append_without_its_newline_is_refused() {
        let d = tmp("newline");
        let p = d.join("j.jsonl");
        let mut j = Journal::create_new(&p, b"header\n").unwrap();
        let e = j.append(b"no newline").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("j.jsonl"), "{e}");
        assert_eq!(fs::read(&p).unwrap(), b"header\n");
        let e = Journal::create_new(&p, b"again\n").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&p).unwrap(), b"header\n");
    }
}
