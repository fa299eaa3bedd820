//! Server-side timing, opt-in (`tresillo serve --stats`, loopback addresses
//! only; docs/SERVE.md "Measuring the server"): fixed-bucket histograms of
//! request times (from the handler's entry, after the request head is read, to
//! the response built: bodies are complete JSON, written right after), of the
//! fsyncs, of the waits for a game's lock and for a blocking thread. Read at
//! `GET /api/stats`, a route that exists only with `--stats`.
//!
//! A histogram is 400 atomic counters (log-linear buckets: 16 per power of two,
//! so a percentile is within 1/16 of the true value), updated without a lock;
//! recording costs a few atomic adds and is skipped entirely when the server was
//! not started with `--stats`.

use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

const SUB: u32 = 16;
const BUCKETS: usize = 16 + 28 * SUB as usize;

/// A log-linear histogram of durations in microseconds.
pub struct Histogram {
    counts: [AtomicU64; BUCKETS],
    sum: AtomicU64,
    max: AtomicU64,
}

#[allow(clippy::declare_interior_mutable_const)]
const ZERO: AtomicU64 = AtomicU64::new(0);

/// The bucket of `us` microseconds: exact below 16, then 16 buckets per power
/// of two.
fn bucket(us: u64) -> usize {
    if us < u64::from(SUB) {
        return us as usize;
    }
    let k = 63 - us.leading_zeros(); // >= 4
    let sub = (us >> (k - 4)) & u64::from(SUB - 1);
    (16 + (k - 4) * SUB + sub as u32).min(BUCKETS as u32 - 1) as usize
}

/// The largest value of bucket `i` (a percentile is reported as its bucket's
/// upper bound: never below the true value).
fn upper(i: usize) -> u64 {
    if i < SUB as usize {
        return i as u64;
    }
    let j = (i - 16) as u32;
    let k = j / SUB + 4;
    let sub = u64::from(j % SUB);
    ((u64::from(SUB) + sub + 1) << (k - 4)) - 1
}

impl Histogram {
    /// An empty histogram.
    #[must_use]
    pub const fn new() -> Histogram {
        Histogram { counts: [ZERO; BUCKETS], sum: AtomicU64::new(0), max: AtomicU64::new(0) }
    }

    /// Records one duration.
    pub fn record(&self, d: Duration) {
        let us = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        self.counts[bucket(us)].fetch_add(1, Relaxed);
        self.sum.fetch_add(us, Relaxed);
        self.max.fetch_max(us, Relaxed);
    }

    /// The number of durations recorded.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.counts.iter().map(|c| c.load(Relaxed)).sum()
    }

    /// The `p`-th percentile in microseconds (its bucket's upper bound, at most
    /// the maximum), 0 when empty.
    #[must_use]
    pub fn percentile(&self, p: f64) -> u64 {
        let counts: Vec<u64> = self.counts.iter().map(|c| c.load(Relaxed)).collect();
        let n: u64 = counts.iter().sum();
        if n == 0 {
            return 0;
        }
        // The rank of the percentile, 1-based, as the load scripts compute it.
        let rank = ((p / 100.0 * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (i, c) in counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return upper(i).min(self.max.load(Relaxed));
            }
        }
        self.max.load(Relaxed)
    }

    /// `{count, mean_ms, p50_ms, p90_ms, p99_ms, max_ms}`.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let n = self.count();
        let ms = |us: u64| us as f64 / 1000.0;
        json!({
            "count": n,
            "mean_ms": if n == 0 { 0.0 } else { ms(self.sum.load(Relaxed)) / n as f64 },
            "p50_ms": ms(self.percentile(50.0)),
            "p90_ms": ms(self.percentile(90.0)),
            "p99_ms": ms(self.percentile(99.0)),
            "max_ms": ms(self.max.load(Relaxed)),
        })
    }
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram::new()
    }
}

/// The server's histograms.
pub struct Stats {
    enabled: AtomicBool,
    /// Every request but long polls: handler entry to response built.
    pub requests: Histogram,
    /// `POST .../decisions` only (play and study).
    pub decisions: Histogram,
    /// Views and states answered at once (`GET /api/games/T` without `wait`).
    pub views: Histogram,
    /// Long polls (`?wait=`): mostly the wait itself.
    pub polls: Histogram,
    /// Each fsync (`sync_data` of a log, a new log's or records file's sync).
    pub fsync: Histogram,
    /// Waiting for a game's lock (play games).
    pub lock_wait: Histogram,
    /// From `spawn_blocking` to the task running (the blocking pool's queue).
    pub blocking_wait: Histogram,
    /// Views whose game was locked (a bot run's fsync): built on a blocking
    /// thread rather than waited for on an async one (counted; times are 0).
    pub view_deferred: Histogram,
}

/// The one set of histograms (recording does nothing until [`enable`]).
pub static STATS: Stats = Stats {
    enabled: AtomicBool::new(false),
    requests: Histogram::new(),
    decisions: Histogram::new(),
    views: Histogram::new(),
    polls: Histogram::new(),
    fsync: Histogram::new(),
    lock_wait: Histogram::new(),
    blocking_wait: Histogram::new(),
    view_deferred: Histogram::new(),
};

/// Turns recording on (`--stats`).
pub fn enable() {
    STATS.enabled.store(true, Relaxed);
}

/// Whether recording is on.
#[must_use]
pub fn enabled() -> bool {
    STATS.enabled.load(Relaxed)
}

/// Records `start.elapsed()` in `h` when recording is on.
pub fn since(h: &Histogram, start: Option<Instant>) {
    if let Some(t) = start {
        h.record(t.elapsed());
    }
}

/// `Some(now)` when recording is on (what [`since`] takes).
#[must_use]
pub fn start() -> Option<Instant> {
    enabled().then(Instant::now)
}

/// Every histogram as JSON (`GET /api/stats`).
#[must_use]
pub fn to_json() -> Value {
    let s = &STATS;
    json!({
        "requests": s.requests.to_json(),
        "decisions": s.decisions.to_json(),
        "views": s.views.to_json(),
        "polls": s.polls.to_json(),
        "fsync": s.fsync.to_json(),
        "lock_wait": s.lock_wait.to_json(),
        "blocking_wait": s.blocking_wait.to_json(),
        "view_deferred": s.view_deferred.to_json(),
    })
}

/// The axum middleware timing every request into [`STATS`] (installed only with
/// `--stats`).
pub async fn timing(req: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    let t = Instant::now();
    let poll = req.uri().query().is_some_and(|q| q.split('&').any(|p| p.starts_with("wait=")));
    let decision = req.method() == axum::http::Method::POST && req.uri().path().ends_with("/decisions");
    let view =
        !poll && req.method() == axum::http::Method::GET && req.uri().path().starts_with("/api/games/");
    let resp = next.run(req).await;
    let d = t.elapsed();
    if poll {
        STATS.polls.record(d);
    } else {
        STATS.requests.record(d);
        if decision {
            STATS.decisions.record(d);
        } else if view {
            STATS.views.record(d);
        }
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_their_values_within_a_sixteenth() {
        for us in (0..5000).chain([65_535, 65_536, 1_000_000, 30_000_000]) {
            let i = bucket(us);
            assert!(upper(i) >= us, "{us} in bucket {i} up to {}", upper(i));
            assert!(i == 0 || upper(i - 1) < us, "{us}: bucket {i} is not the first to hold it");
            assert!(upper(i) - us <= us / 16, "{us}: bucket {i} up to {} is too wide", upper(i));
        }
    }

    #[test]
    fn percentiles_are_ranks_of_the_recorded_values() {
        let h = Histogram::new();
        assert_eq!(h.percentile(99.0), 0);
        for ms in 1..=100u64 {
            h.record(Duration::from_millis(ms));
        }
        assert_eq!(h.count(), 100);
        let p50 = h.percentile(50.0);
        assert!((50_000..=50_000 + 50_000 / 16).contains(&p50), "{p50}");
        let p99 = h.percentile(99.0);
        assert!((99_000..=100_000).contains(&p99), "{p99}");
        assert_eq!(h.percentile(100.0), 100_000);
        assert_eq!(h.to_json()["count"], 100);
    }
}
