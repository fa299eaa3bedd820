//! Value parsers shared by every subcommand's integer flags.
//!
//! Every integer flag is declared with `allow_negative_numbers = true` (so that
//! `--deals -5` reaches the parser instead of being taken for an unknown flag) and
//! `value_parser = non_negative::<T>` or [`threads`], so that a negative number, a
//! word or an overflow gets a message saying what the value must be.
//!
//! **Bounded inputs.** Every integer flag goes through `tresillo-commands/src/args.rs`
//! (non-negative, with a clear message); `--threads` is at most 1,024; tune deals per
//! candidate (`TuneSetup::MAX_DEALS`) and session lengths (`Scoring::MAX_SESSION`) are
//! bounded because they are held in memory; the scorekeeper bounds its stakes
//! (`LedgerConfig::MAX_BOWL`) so no sum overflows.

use std::str::FromStr;

/// The check of a worker-thread count (1 to [`tresillo_runs::MAX_THREADS`];
/// `what` names it in the message: `--threads` on the command line, `threads`
/// in an experiment file): the run library's, one for every caller.
pub use tresillo_runs::check_threads;

/// An unsigned integer type a flag may hold.
pub trait Unsigned: FromStr + Copy + Send + Sync + 'static {
    /// The largest value, as text.
    fn max_text() -> String;
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl Unsigned for $t {
            fn max_text() -> String {
                <$t>::MAX.to_string()
            }
        }
    )*};
}

unsigned!(u8, u32, u64, usize);

/// Parses a non-negative integer, saying "must be a non-negative integer" for
/// anything else (a sign, a word, a fraction) and "at most MAX" on overflow.
pub fn non_negative<T: Unsigned>(s: &str) -> Result<T, String> {
    let t = s.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse::<T>().map_err(|_| format!("must be a non-negative integer, at most {}", T::max_text()))
    } else {
        Err("must be a non-negative integer".into())
    }
}

/// The value parser of every `--threads` flag.
pub fn threads(s: &str) -> Result<usize, String> {
    let t = non_negative::<usize>(s)?;
    check_threads(t, "--threads").map_err(|e| e.to_string().trim_start_matches("--threads ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_checked() {
        assert_eq!(non_negative::<u64>("42"), Ok(42));
        assert_eq!(non_negative::<u8>("255"), Ok(255));
        for bad in ["-5", "", "x", "1.5", "+3", "-0"] {
            assert_eq!(non_negative::<u64>(bad), Err("must be a non-negative integer".into()), "{bad}");
        }
        assert!(non_negative::<u8>("256").unwrap_err().contains("at most 255"));
        assert!(non_negative::<u32>("4294967296").unwrap_err().contains("at most 4294967295"));
        assert_eq!(threads("1024"), Ok(1024));
        assert!(threads("1025").unwrap_err().contains("at most 1024"));
        assert!(threads("0").unwrap_err().contains("at least 1"));
        assert!(check_threads(5000, "threads").unwrap_err().to_string().starts_with("threads 5000"));
    }
}
