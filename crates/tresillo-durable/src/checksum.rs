//! Checksums of a run directory's files: CRC-32 (the checksum of zlib, which
//! Python's standard library computes as `zlib.crc32`, so the scripts and the
//! Python reader check them without a dependency), written as 8 lowercase hex
//! digits. A CRC-32 detects every change of up to 32 consecutive bits, so every
//! single changed byte, and any other change with probability 1 - 2^-32. It
//! guards against damage (a bad copy, a bad disk, a stray edit), not against
//! someone who rewrites the manifest too.
//!
//! The manifest's `crc32` map holds, at every checkpoint, the checksum of the
//! committed prefix of `deals.csv` (its first `csv_bytes` bytes), of every Parquet
//! part file the checkpoint counts (`deals.parquet.parts/NAME`) and of the
//! statistics the manifest counts (`stats.json`); the record file's finished prefix
//! has its own in `record.crc32`. Once the run is complete the map holds every file
//! of the run but the manifest itself and the two files of measured times
//! (`compute.json`, `compute.csv`), so that the manifest stays byte-identical
//! whatever the thread count, shard split or interruption.
//!
//! **Checksums vouch for the bytes** (`tresillo_runs::checksum`: CRC-32 with
//! `crc32fast`, zlib's, so Python checks it with the standard library). The writer
//! thread keeps running checksums of what it appends to `deals.csv` and the record file
//! and records them, with each new Parquet part's and the statistics' (`checkpoint`),
//! in the manifest's `crc32` map at every checkpoint; `--resume` checks the kept prefix
//! and continues the checksum from it. `complete_checksums` adds the finished files
//! (never `compute.json`/`compute.csv`: measured, and the manifest must not depend on
//! them). `verify_run` (in `run.rs`, re-exported by `verify`, so that `run` imports
//! nothing above it) is the one check that `complete_run` (before any rebuild), `merge`
//! (each shard), `report` and `tresillo verify` (`verify::verify`: run, league, sprt
//! directories) call; `sprt.rs` holds `sprt.json`'s type and `sprt::check` (every look
//! counted there and whole, and the state recomputed from the looks' deals), for
//! `verify` and `report`; `read_stats` takes the statistics file whose bytes the
//! manifest vouches for. `tests/cli/checksums_cli.rs` changes every byte of a small
//! run.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Why a file's checksum could not be had or does not match; each message is
/// one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read (the cause is the source).
    #[error("reading {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: io::Error,
    },
    /// The file is shorter than the bytes its manifest counts.
    #[error(
        "{}: holds {read} bytes but its manifest counts {want}: the file was truncated; restore it or run \
         again with --force",
        path.display()
    )]
    Truncated {
        /// The file.
        path: PathBuf,
        /// The bytes it holds.
        read: u64,
        /// The bytes its manifest counts.
        want: u64,
    },
    /// The checksum the manifest records is not 8 hex digits.
    #[error("{}: its manifest records `{want}` as its checksum, not 8 hex digits", path.display())]
    NotHex {
        /// The file.
        path: PathBuf,
        /// The recorded text.
        want: String,
    },
    /// The file's bytes have another checksum than the one its manifest records.
    #[error(
        "{}: its bytes do not match the checksum its manifest records (crc32 {want}, found {}): the file \
         was changed or damaged; restore it or run again with --force",
        path.display(),
        hex(*got)
    )]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The recorded checksum.
        want: String,
        /// The checksum of the bytes found.
        got: u32,
    },
}

/// A checksum's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A running checksum.
pub type Hasher = crc32fast::Hasher;

/// `crc` as the manifest writes it.
#[must_use]
pub fn hex(crc: u32) -> String {
    format!("{crc:08x}")
}

/// The checksum of `bytes`, as the manifest writes it.
#[must_use]
pub fn of(bytes: &[u8]) -> String {
    hex(crc32fast::hash(bytes))
}

/// A running checksum that continues `crc`, the checksum of the bytes before.
#[must_use]
pub fn continuing(crc: u32) -> Hasher {
    Hasher::new_with_initial(crc)
}

/// The value of a checksum as the manifest writes it; `None` when `hex` is not
/// 8 hex digits.
#[must_use]
pub fn parse(hex: &str) -> Option<u32> {
    (hex.len() == 8 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u32::from_str_radix(hex, 16).ok())
        .flatten()
}

/// The checksum of the first `len` bytes of `path` (all of it when `None`),
/// read in blocks; an error names the file (and says when it is shorter).
pub fn file(path: &Path, len: Option<u64>) -> Result<u32> {
    let read_error = |source| Error::Read { path: path.to_path_buf(), source };
    let f = File::open(path).map_err(read_error)?;
    let mut r = f.take(len.unwrap_or(u64::MAX));
    let mut h = Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut read = 0u64;
    loop {
        let n = r.read(&mut buf).map_err(read_error)?;
        if n == 0 {
            break;
        }
        read += n as u64;
        h.update(&buf[..n]);
    }
    if let Some(want) = len
        && read < want
    {
        return Err(Error::Truncated { path: path.to_path_buf(), read, want });
    }
    Ok(h.finalize())
}

/// Refuses, in one line naming `path`, a checksum `got` that is not `want`, the
/// one its manifest records.
pub fn check(path: &Path, got: u32, want: &str) -> Result<()> {
    let Some(w) = parse(want) else {
        return Err(Error::NotHex { path: path.to_path_buf(), want: want.to_string() });
    };
    if got != w {
        return Err(Error::Mismatch { path: path.to_path_buf(), want: want.to_string(), got });
    }
    Ok(())
}

/// Refuses, in one line naming the file, a file whose first `len` bytes (all of
/// it when `None`) do not have the checksum `want` its manifest records.
pub fn verify(path: &Path, len: Option<u64>, want: &str) -> Result<()> {
    let got = file(path, len)?;
    check(path, got, want)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksum_is_zlibs_crc32_and_continues_from_a_prefix() {
        // Python: format(zlib.crc32(b"hello world"), "08x") == "0d4a1185"
        assert_eq!(of(b"hello world"), "0d4a1185");
        let mut h = continuing(parse(&of(b"hello ")).unwrap());
        h.update(b"world");
        assert_eq!(hex(h.finalize()), "0d4a1185");
        assert_eq!(of(b""), "00000000");
        assert!(parse("xyz").is_none() && parse("+0d4a118").is_none() && parse("0D4A1185").is_some());
    }
}
