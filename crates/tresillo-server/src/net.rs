//! The connections (docs/SERVE.md, "Threat model"): hyper's HTTP/1 server on
//! each accepted socket, with a deadline for every request's head (which is
//! also how long a kept-alive connection may sit idle), a cap on open
//! connections and on the share of them one address may hold, so that a client
//! that opens sockets and never finishes a request neither keeps them nor
//! locks others out. The body's deadline and size are the
//! [`guard`](crate::guard)'s.

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;

/// How long a request's head may take to arrive by default (and a kept-alive
/// connection may wait for its next request).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Open connections at most by default.
pub const MAX_CONNECTIONS: usize = 1000;

/// The bounds on connections (`tresillo serve` flags).
#[derive(Clone, Debug)]
pub struct Net {
    /// How long a request's head may take, counted from the connection's
    /// opening or the end of its previous response: a connection idle that
    /// long is closed (`--header-timeout-ms`).
    pub header_timeout: Duration,
    /// How long a request's body may take (`--body-timeout-ms`).
    pub body_timeout: Duration,
    /// Open connections at most (`--max-connections`); one address holds at
    /// most half of them. A connection past the cap is closed at once.
    pub max_connections: usize,
}

impl Default for Net {
    fn default() -> Net {
        Net {
            header_timeout: HEADER_TIMEOUT,
            body_timeout: crate::guard::BODY_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
        }
    }
}

/// The open connections, in all and per address.
struct Open {
    all: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// Releases a connection's place when the connection ends.
struct Place {
    open: Arc<Mutex<Open>>,
    ip: IpAddr,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut o = self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        o.all -= 1;
        if let Some(n) = o.by_address.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                o.by_address.remove(&self.ip);
            }
        }
    }
}

/// Serves `app` on `listener` until the process ends (or the listener fails
/// for good). Each request carries its peer's [`ConnectInfo`].
///
/// # Errors
/// Never in practice: a failed accept (too many open files) is waited out.
pub async fn serve_on(listener: TcpListener, app: Router, net: &Net) -> std::io::Result<()> {
    let open = Arc::new(Mutex::new(Open { all: 0, by_address: HashMap::new() }));
    let per_address = (net.max_connections / 2).max(1);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(net.header_timeout);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(x) => x,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it was
                // accepted: the next accept after a pause.
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let place = {
            let mut o = open.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let mine = o.by_address.get(&peer.ip()).copied().unwrap_or(0);
            if o.all >= net.max_connections || mine >= per_address {
                None
            } else {
                o.all += 1;
                *o.by_address.entry(peer.ip()).or_insert(0) += 1;
                Some(Place { open: open.clone(), ip: peer.ip() })
            }
        };
        let Some(place) = place else {
            // Over the cap: closed at once (dropped).
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        // Each request of the connection with its peer, as axum's ConnectInfo.
        let service = hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            tower::ServiceExt::oneshot(app.clone(), req)
        });
        let conn = http.serve_connection(TokioIo::new(stream), service);
        tokio::spawn(async move {
            let _ = conn.await;
            drop(place);
        });
    }
}
