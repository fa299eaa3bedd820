//! `tresillo serve`: the browser table (tresillo_server, docs/SERVE.md).

use anyhow::{Context, Result};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `tresillo serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// The address to listen on (port 0: any free port). Loopback by default:
    /// another address lets other machines play.
    #[arg(long, default_value = "127.0.0.1:8338")]
    addr: SocketAddr,
    /// Where games are kept: DIR/games (one log per game, every decision fsynced
    /// before it is acknowledged) and DIR/records (finished hands, as `replay`
    /// reads them). Created if missing; its games are resumed at start.
    #[arg(long, value_name = "DIR", default_value = "tresillo-games")]
    records: PathBuf,
    /// Threads answering requests (bots decide on threads of their own).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Serve the study in DIR (docs/STUDY.md; repeatable): participants play at
    /// /study/TOKEN, the researcher watches at /research/TOKEN (the study file's
    /// `researcher_token`, printed at start). The study's journals are its record.
    #[arg(long, value_name = "DIR")]
    study: Vec<PathBuf>,
    /// A record file (JSON Lines: a tournament's or `play`'s `--record`, a study
    /// export's records.jsonl) to open in the replay board at /replay
    /// (repeatable). Read and checked at start.
    #[arg(long, value_name = "FILE")]
    open: Vec<PathBuf>,
    /// Keep server-side timing histograms (requests, fsyncs, lock waits) and
    /// serve them at /api/stats, for load tests (docs/SERVE.md). Loopback
    /// addresses only.
    #[arg(long)]
    stats: bool,
    /// A host name the server is also reached as (repeatable): a reverse
    /// proxy's name. Requests whose Host or Origin is neither the bound
    /// address, `localhost` nor an allowed name are refused (DNS rebinding,
    /// other sites' pages).
    #[arg(long = "allowed-host", value_name = "NAME")]
    allowed_host: Vec<String>,
    /// The opponents a game created from the web may seat, comma-separated
    /// agent specs (the page offers exactly these). Default: the built-in
    /// agents at bounded settings. External bots (`ext:`, named bots) run only
    /// when listed here.
    #[arg(long, value_name = "SPEC,...", value_delimiter = ',')]
    opponents: Vec<String>,
    /// The longest a bot may think over one decision, in milliseconds: past
    /// it the game is stopped with the reason shown on its page.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    decision_ms: u64,
    /// The most games kept in memory: the games idle longest are unloaded
    /// (their logs stay on disk and are read again at their next request).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    live_games: u64,
    /// The most games one client address may create in a minute (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 30)]
    games_per_minute: u32,
    /// The most megabytes the records directory may hold: past it no game is
    /// created (games in progress continue).
    #[arg(long, value_name = "MB", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    disk_budget_mb: u64,
    /// How long a request's head may take to arrive, in milliseconds; also how
    /// long a kept-alive connection may wait idle for its next request.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    header_timeout_ms: u64,
    /// How long a request's body may take to arrive, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    body_timeout_ms: u64,
    /// Open connections at most (one client address holds at most half):
    /// keep it under the process's open-file limit (`ulimit -n`).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    max_connections: u64,
}

/// Runs `tresillo serve` until it is stopped.
pub fn run(a: &ServeArgs, out: &mut impl Write) -> Result<()> {
    let mut open = Vec::new();
    for path in &a.open {
        let mut records = Vec::new();
        crate::replay::for_each_record(path, |_, rec| {
            records.push(rec.clone());
            Ok(())
        })?;
        open.push(tresillo_server::Opened { name: path.display().to_string(), records });
    }
    let registry = crate::registry();
    let mut limits = tresillo_server::limits::Limits::default();
    if !a.opponents.is_empty() {
        for spec in &a.opponents {
            registry.build_seated(spec).with_context(|| format!("--opponents: `{spec}`"))?;
        }
        limits.opponents = a.opponents.iter().map(|s| s.trim().to_string()).collect();
    }
    limits.decision_time = Duration::from_millis(a.decision_ms);
    limits.live_games = a.live_games as usize;
    limits.games_per_minute = a.games_per_minute;
    limits.disk_budget = a.disk_budget_mb << 20;
    let net = tresillo_server::net::Net {
        header_timeout: Duration::from_millis(a.header_timeout_ms),
        body_timeout: Duration::from_millis(a.body_timeout_ms),
        max_connections: a.max_connections as usize,
    };
    let config = tresillo_server::ServeConfig {
        addr: a.addr,
        dir: a.records.clone(),
        threads: usize::from(a.threads),
        studies: a.study.clone(),
        open,
        stats: a.stats,
        allowed_hosts: a.allowed_host.clone(),
        limits,
        net,
    };
    let mut printed = Ok(());
    tresillo_server::serve(&config, registry, |addr, errors, studies| {
        for e in errors {
            note!("warning: {e}");
        }
        printed = (|| {
            writeln!(out, "tresillo serve: http://{addr}/ (games in {})", a.records.display())?;
            for s in studies {
                match &s.researcher_path {
                    Some(p) => writeln!(
                        out,
                        "study {} ({} participants, links in its study file): researcher's page http://{addr}{p}",
                        s.dir.display(),
                        s.participants
                    )?,
                    None => writeln!(
                        out,
                        "study {} ({} participants): no researcher_token in its study file, no researcher's page",
                        s.dir.display(),
                        s.participants
                    )?,
                }
            }
            out.flush()
        })();
    })
    .with_context(|| format!("serving on {} with records in {}", a.addr, a.records.display()))?;
    printed.context("writing output")
}
