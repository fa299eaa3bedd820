//! `tresillo serve`: a person plays against bots in the browser (docs/SERVE.md).
//!
//! A JSON HTTP API ([`router`]) over the engine's [`Hand`](tresillo_core::Hand)
//! (no second engine): games are created with a rule set, table size, options,
//! opponents (agent specs from the operator's allow-list, [`limits`]) and
//! a session length; the person's seat is sent only what it may know (built from
//! its [`PlayerView`](tresillo_core::PlayerView)); a decision is checked, appended
//! to the game's log and fsynced before it is acknowledged ([`Store`]); bots
//! decide on blocking threads with a visible thinking state; a restarted server
//! reloads every game and resumes it at its last logged decision; finished hands
//! are written as records `tresillo replay` reads. The page (HTML, CSS, plain
//! JavaScript drawing its own SVG cards) is embedded in the binary. Every
//! request passes the [`guard`] first (its Host, Origin and Content-Type).

mod api;
mod game;
pub mod guard;
pub mod limits;
pub mod net;
mod replay;
mod server;
mod spec;
pub mod stats;
mod store;
pub mod study;
mod token;
mod view;

pub use api::{BOT_GRACE, LONG_POLL, router, router_with};
pub use game::{Game, GameError};
pub use replay::{INACCURACY, Library, Opened, SEED, WORLDS, analysis_json, replay_json};
pub use server::{Server, Slot};
pub use spec::{GameSpec, HUMAN, MAX_HANDS, MAX_PACE_MS, NewGame};
pub use store::{LOG_FORMAT, LoadError, Log, Store};
pub use token::Token;
pub use tresillo_table::journal::{Entry, Place, Timing};
pub use view::{game_view, game_view_for, label as page_label, outcome_text, question as page_question};

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tresillo_agents::Registry;

/// What `tresillo serve` was asked for.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The address to listen on (loopback by default).
    pub addr: SocketAddr,
    /// The records directory (games' logs and records).
    pub dir: PathBuf,
    /// Runtime worker threads for the connections (bots run on blocking threads).
    pub threads: usize,
    /// Study directories served in study mode (docs/STUDY.md).
    pub studies: Vec<PathBuf>,
    /// Record files the replay board opens (`--open`), read by the caller.
    pub open: Vec<replay::Opened>,
    /// Host names the server is also reached as (`--allowed-host`: a reverse
    /// proxy's), besides its own address and `localhost`.
    pub allowed_hosts: Vec<String>,
    /// What the web may ask for (`--opponents` and the other bounds).
    pub limits: limits::Limits,
    /// The bounds on connections (timeouts, open connections).
    pub net: net::Net,
    /// Server-side timing ([`stats`]) kept and served at `GET /api/stats`
    /// (`--stats`; refused unless `addr` is a loopback address).
    pub stats: bool,
}

impl ServeConfig {
    /// A server on `addr` keeping its games in `dir`, everything else at its
    /// default (`tresillo serve`'s).
    #[must_use]
    pub fn new(addr: SocketAddr, dir: PathBuf) -> ServeConfig {
        ServeConfig {
            addr,
            dir,
            threads: 2,
            studies: Vec::new(),
            open: Vec::new(),
            stats: false,
            allowed_hosts: Vec::new(),
            limits: limits::Limits::default(),
            net: net::Net::default(),
        }
    }
}

/// `app` with every request timed into [`stats::STATS`] and the histograms
/// served at `GET /api/stats` (what `--stats` adds; recording also needs
/// [`stats::enable`]).
pub fn with_stats(app: axum::Router) -> axum::Router {
    app.route(
        "/api/stats",
        axum::routing::get(|| async {
            ([(axum::http::header::CONTENT_TYPE, "application/json")], stats::to_json().to_string())
        }),
    )
    .layer(axum::middleware::from_fn(stats::timing))
}

/// Runs the server until the process ends: loads and resumes the games of
/// `config.dir`, opens the studies of `config.studies`, binds `config.addr`, then
/// calls `ready` with the bound address, the logs that could not be loaded and
/// the studies opened (before serving the first request).
///
/// # Errors
/// When the directory cannot be opened or the address bound, or `stats` is
/// asked for on an address that is not loopback.
pub fn serve(
    config: &ServeConfig,
    registry: Registry,
    ready: impl FnOnce(SocketAddr, &[String], &[study::Opened]),
) -> std::io::Result<()> {
    if config.stats {
        if !config.addr.ip().is_loopback() {
            return Err(std::io::Error::other(format!(
                "--stats serves timing figures: only on a loopback address, not {}",
                config.addr
            )));
        }
        stats::enable();
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(config.threads.max(1))
        .enable_io()
        .enable_time()
        .build()?;
    rt.block_on(async {
        let dir = config.dir.clone();
        let dirs = config.studies.clone();
        let limits = config.limits.clone();
        let (server, errors, studies, opened) = tokio::task::spawn_blocking(move || {
            // The server first: it starts the version clock above the last
            // run's, which the study's pages' versions come from too.
            let (server, errors) = Server::open_with(Some(&dir), registry.clone(), limits)?;
            let (studies, opened) = study::Studies::open(&dirs, &registry).map_err(std::io::Error::other)?;
            Ok::<_, std::io::Error>((server, errors, studies, opened))
        })
        .await
        .map_err(std::io::Error::other)??;
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        ready(listener.local_addr()?, &errors, &opened);
        server.resume_bots();
        let library = Arc::new(Library::new(config.open.clone()));
        let mut access = guard::Access::bound(listener.local_addr()?, &config.allowed_hosts);
        access.body_timeout = config.net.body_timeout;
        let mut app = api::routes(server, library).merge(study::study_routes(studies));
        if config.stats {
            app = with_stats(app);
        }
        let app = guard::guard(app, Arc::new(access));
        net::serve_on(listener, app, &config.net).await
    })
}
