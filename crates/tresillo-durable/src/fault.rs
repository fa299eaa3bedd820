//! Fault injection: the points where a test may stop a process that writes files,
//! to check that what it leaves behind is whole and that resuming gives the bytes
//! of an uninterrupted run.
//!
//! The library only marks the points ([`write_point`] after each change of a
//! file, [`checkpoint`] after each checkpoint of a run) and calls the one
//! [`Faults`] installed in the process, if any. It installs none and reads no
//! environment variable: a library user (the Python package, a program of one's
//! own) is never stopped by it. The `tresillo` binary built for the kill tests
//! installs one that aborts at the point its environment names (see
//! `crates/tresillo-cli/src/bin/tresillo.rs`).
//!
//! The one installed [`Faults`] is global state of the process: it is set at most
//! once, before the work starts, and read at every point.

use std::sync::OnceLock;

/// A point where a process that writes files may be stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    /// Right after one change of a file (written under its temporary name,
    /// renamed into place, removed, cut, or lines appended).
    Write,
    /// Right after a run's checkpoint; `count` is how many checkpoints this run
    /// (this call into the run library) has written, from 1.
    Checkpoint {
        /// The checkpoints written so far by this run, this one included.
        count: u64,
    },
}

/// What happens at each [`Point`]: a test's implementation counts them and
/// stops the process (`std::process::abort`) at a chosen one.
pub trait Faults: Send + Sync {
    /// Called at every point, from the thread that reached it.
    fn reached(&self, point: Point);
}

static FAULTS: OnceLock<&'static dyn Faults> = OnceLock::new();

/// Installs `faults` for the rest of the process. Returns false, and changes
/// nothing, when one was installed before.
pub fn install(faults: &'static dyn Faults) -> bool {
    FAULTS.set(faults).is_ok()
}

/// Marks one change of a file (a point [`Point::Write`]).
pub fn write_point() {
    reach(Point::Write);
}

/// Marks a run's `count`-th checkpoint (a point [`Point::Checkpoint`]).
pub fn checkpoint(count: u64) {
    reach(Point::Checkpoint { count });
}

fn reach(point: Point) {
    if let Some(f) = FAULTS.get() {
        f.reached(point);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    thread_local! {
        /// The points this thread reached (the test threads run side by side).
        static SEEN: RefCell<Vec<Point>> = const { RefCell::new(Vec::new()) };
    }

    struct Record;
    impl Faults for Record {
        fn reached(&self, point: Point) {
            SEEN.with(|s| s.borrow_mut().push(point));
        }
    }

    #[test]
    fn the_installed_faults_see_every_point() {
        static RECORD: Record = Record;
        assert!(install(&RECORD));
        assert!(!install(&RECORD), "installed once");
        let d = std::env::temp_dir().join(format!("tresillo-durable-{}-points", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        SEEN.with(|s| s.borrow_mut().clear());
        crate::write_atomic(&d.join("a"), b"x").unwrap(); // written, renamed
        crate::append(&d.join("a"), b"y").unwrap();
        checkpoint(1);
        let seen = SEEN.with(|s| s.borrow().clone());
        assert_eq!(seen, [Point::Write, Point::Write, Point::Write, Point::Checkpoint { count: 1 }]);
    }
}
