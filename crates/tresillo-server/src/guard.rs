//! Who may ask the server anything (docs/SERVE.md, "Threat model"): every
//! request passes [`guard`] before a route sees it.
//!
//! - **Host**: the request's `Host` must be one of the server's own names (the
//!   bound address, `localhost`, a loopback address, any IP address when bound
//!   to all of them) or a name the operator allowed (`--allowed-host`, for a
//!   reverse proxy). A DNS-rebinding page reaches the server under the
//!   attacker's name: refused.
//! - **Origin**: when a browser says where a request comes from (`Origin`, or
//!   `Sec-Fetch-Site: cross-site` on anything but a navigation), it must be the
//!   server's own origin. A page of another site can neither post to the API
//!   (`fetch(..., {mode: "no-cors"})` included) nor embed its answers.
//! - **POST bodies** are `Content-Type: application/json` (a form or a
//!   `text/plain` post, which a foreign page may send without asking, is
//!   refused), at most [`Access::body_limit`] bytes, read within
//!   [`Access::body_timeout`].
//! - **Every response** carries the security headers ([`SECURITY_HEADERS`]): a
//!   Content-Security-Policy the pages satisfy, no framing, no referrer, no
//!   content sniffing.
//!
//! A refusal is a JSON `{"error": ...}` with a 4xx status, and nothing runs.

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// The Content-Security-Policy of every response: scripts, styles, images and
/// requests from the server itself only (the pages have no inline script or
/// style), no plugins, no framing, no form posted elsewhere.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The headers added to every response (pages, assets, API answers, errors).
pub const SECURITY_HEADERS: [(&str, &str); 5] = [
    ("content-security-policy", CSP),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("x-content-type-options", "nosniff"),
    ("cross-origin-opener-policy", "same-origin"),
];

/// The largest request body by default (a game request or a decision is well
/// under a kilobyte).
pub const BODY_LIMIT: usize = 64 * 1024;

/// How long a request's body may take to arrive by default.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The names a request may be addressed to, and the limits on its body.
#[derive(Clone, Debug)]
pub struct Access {
    /// The bound port: a `Host` or `Origin` naming a local address must name
    /// it (None: any port, for in-process tests).
    port: Option<u16>,
    /// The bound address (None: loopback only).
    ip: Option<IpAddr>,
    /// Names the operator allowed (`--allowed-host`), lowercase, any port.
    names: Vec<String>,
    /// The largest body accepted (larger: 413).
    pub body_limit: usize,
    /// How long a body may take to arrive (longer: 408).
    pub body_timeout: Duration,
}

impl Access {
    /// Loopback names on any port (the in-process router of tests).
    #[must_use]
    pub fn loopback() -> Access {
        Access { port: None, ip: None, names: Vec::new(), body_limit: BODY_LIMIT, body_timeout: BODY_TIMEOUT }
    }

    /// A server bound to `addr`, also reached as each of `names` (a reverse
    /// proxy's host names, `--allowed-host`).
    #[must_use]
    pub fn bound(addr: SocketAddr, names: &[String]) -> Access {
        Access {
            port: Some(addr.port()),
            ip: Some(addr.ip()),
            names: names.iter().map(|n| n.trim().to_ascii_lowercase()).collect(),
            ..Access::loopback()
        }
    }

    /// Whether `authority` (`host[:port]`, a `Host` header or an origin's) is
    /// one of the server's own names.
    #[must_use]
    pub fn host_ok(&self, authority: &str) -> bool {
        let authority = authority.trim().to_ascii_lowercase();
        let (host, port) = split_authority(&authority);
        if host.is_empty() {
            return false;
        }
        if self.names.iter().any(|n| n == host) {
            return true;
        }
        let local = host == "localhost"
            || match host.parse::<IpAddr>() {
                Ok(ip) => {
                    ip.is_loopback()
                        || self.ip.is_some_and(|b| b == ip)
                        // Bound to every address: any of the machine's
                        // addresses, written as an address (a rebinding page
                        // can only come under a name).
                        || self.ip.is_some_and(|b| b.is_unspecified())
                }
                Err(_) => false,
            };
        let port_ok = match (self.port, port) {
            (None, _) => true,
            (Some(p), Some(q)) => q.parse::<u16>().is_ok_and(|q| q == p),
            (Some(p), None) => p == 80,
        };
        local && port_ok
    }

    /// Why the request is refused, if it is: its Host, Origin, fetch metadata
    /// or (a POST) Content-Type.
    fn refusal(&self, method: &Method, headers: &HeaderMap) -> Option<(StatusCode, String)> {
        let text = |name: header::HeaderName| headers.get(name).map(|v| v.to_str().unwrap_or("\u{fffd}"));
        // No Host at all: no browser sends such a request.
        if let Some(host) = text(header::HOST)
            && !self.host_ok(host)
        {
            return Some((
                StatusCode::MISDIRECTED_REQUEST,
                format!("host `{host}` is not this server's (the operator may allow it with --allowed-host)"),
            ));
        }
        if let Some(origin) = text(header::ORIGIN) {
            let ok = ["http://", "https://"]
                .iter()
                .find_map(|s| origin.strip_prefix(s))
                .is_some_and(|a| !a.contains('/') && self.host_ok(a));
            if !ok {
                return Some((StatusCode::FORBIDDEN, format!("requests from `{origin}` are not accepted")));
            }
        }
        let fetch_site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
        let fetch_mode = headers.get("sec-fetch-mode").and_then(|v| v.to_str().ok());
        if fetch_site == Some("cross-site") && (fetch_mode != Some("navigate") || method != Method::GET) {
            return Some((StatusCode::FORBIDDEN, "cross-site requests are not accepted".into()));
        }
        if method == Method::POST {
            let kind = text(header::CONTENT_TYPE).unwrap_or("");
            let media = kind.split(';').next().unwrap_or("").trim();
            if !media.eq_ignore_ascii_case("application/json") {
                let got = if kind.is_empty() { "none".to_string() } else { format!("`{kind}`") };
                return Some((
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    format!("a POST's Content-Type must be application/json, not {got}"),
                ));
            }
        }
        None
    }
}

/// `host[:port]` split (an IPv6 address in brackets loses them).
fn split_authority(a: &str) -> (&str, Option<&str>) {
    if let Some(rest) = a.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((h, tail)) => (h, tail.strip_prefix(':')),
            None => ("", None),
        };
    }
    match a.rsplit_once(':') {
        Some((h, p)) if !h.contains(':') => (h, Some(p)),
        Some(_) => ("", None),
        None => (a, None),
    }
}

fn refuse(status: StatusCode, msg: &str) -> Response {
    let mut r = (
        status,
        [(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")],
        json!({ "error": msg }).to_string(),
    )
        .into_response();
    secure(r.headers_mut());
    r
}

fn secure(h: &mut HeaderMap) {
    for (k, v) in SECURITY_HEADERS {
        h.insert(k, HeaderValue::from_static(v));
    }
}

async fn check(State(access): State<Arc<Access>>, req: Request, next: Next) -> Response {
    if let Some((status, msg)) = access.refusal(req.method(), req.headers()) {
        return refuse(status, &msg);
    }
    let (parts, body) = req.into_parts();
    let too_large = || {
        refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("the request body is larger than {} bytes", access.body_limit),
        )
    };
    if parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|n| n > access.body_limit as u64)
    {
        return too_large();
    }
    // The whole body, within its limit and its time, before any route runs.
    let bytes = match tokio::time::timeout(access.body_timeout, axum::body::to_bytes(body, access.body_limit))
        .await
    {
        Ok(Ok(b)) => b,
        Ok(Err(_)) => return too_large(),
        Err(_) => return refuse(StatusCode::REQUEST_TIMEOUT, "the request body did not arrive in time"),
    };
    let mut resp = next.run(Request::from_parts(parts, Body::from(bytes))).await;
    secure(resp.headers_mut());
    resp
}

/// `app` with every request checked by `access` first and every response
/// given the security headers.
pub fn guard(app: Router, access: Arc<Access>) -> Router {
    app.layer(axum::middleware::from_fn_with_state(access, check))
}

/// A JSON body that must be an object (`{...}`): serde would read a struct
/// from an array too (`["hombre"]`), which no client means.
///
/// # Errors
/// A one-line reason.
pub fn object<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, BodyError> {
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        return Err(BodyError::NotObject);
    }
    Ok(serde_json::from_slice(body)?)
}

/// Why a request's body is refused ([`object`]).
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// Not a JSON object.
    #[error("the body must be a JSON object ({{...}})")]
    NotObject,
    /// An object that is not what the request takes (serde's words).
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        let a = Access::bound("127.0.0.1:8338".parse().unwrap(), &["Play.Example.org".into()]);
        for ok in
            ["127.0.0.1:8338", "localhost:8338", "[::1]:8338", "play.example.org", "play.example.org:443"]
        {
            assert!(a.host_ok(ok), "{ok}");
        }
        for bad in
            ["evil.example", "evil.example:8338", "127.0.0.1:9999", "localhost", "10.0.0.2:8338", "", ":8338"]
        {
            assert!(!a.host_ok(bad), "{bad}");
        }
        let all = Access::bound("0.0.0.0:8338".parse().unwrap(), &[]);
        assert!(all.host_ok("192.168.1.20:8338"));
        assert!(!all.host_ok("rebind.evil.example:8338"));
    }
}
