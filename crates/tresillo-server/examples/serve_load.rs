//! The load client of `scripts/serve-load.py --client rust` (docs/SERVE.md,
//! "Measuring the server"): TABLES tables at once against a running `tresillo
//! serve` on the loopback address, each a person on a thread of its own with one
//! HTTP/1.1 keep-alive connection, answering with the first legal choice
//! (optionally after --think-ms), against `rule` opponents. The scenario is
//! serve-load.py's (`table` there), without the Python client's CPU: plain
//! std::net, blocking threads.
//!
//! ```text
//! cargo run --release -p tresillo-server --example serve_load -- http://127.0.0.1:PORT \
//!     [--tables 100] [--hands 2] [--think-ms 0] [--rules tresillo] [--max-seconds 300]
//! ```
//!
//! Prints one JSON object: `times_ms` (every timed request: creation, views,
//! decisions; long polls not counted), `polls`, `done`, `errors`.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Args {
    addr: String,
    tables: usize,
    hands: u32,
    think: Duration,
    rules: String,
    deadline: Instant,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let base = it.next().ok_or("usage: serve_load http://127.0.0.1:PORT [--tables N] [--hands N] [--think-ms MS] [--rules R] [--max-seconds S]")?;
    let addr = base
        .strip_prefix("http://")
        .map(|a| a.trim_end_matches('/').to_string())
        .filter(|a| a.starts_with("127.0.0.1:") || a.starts_with("[::1]:") || a.starts_with("localhost:"))
        .ok_or_else(|| {
            format!("`{base}`: a loopback URL http://127.0.0.1:PORT (load tests stay on this machine)")
        })?;
    let mut a = Args {
        addr,
        tables: 100,
        hands: 2,
        think: Duration::ZERO,
        rules: "tresillo".into(),
        deadline: Instant::now() + Duration::from_secs(300),
    };
    while let Some(flag) = it.next() {
        let v = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let num = |v: &str| v.parse::<f64>().map_err(|_| format!("{flag} `{v}`: a number"));
        match flag.as_str() {
            "--tables" => a.tables = num(&v)? as usize,
            "--hands" => a.hands = num(&v)? as u32,
            "--think-ms" => a.think = Duration::from_secs_f64(num(&v)? / 1000.0),
            "--rules" => a.rules = v,
            "--max-seconds" => a.deadline = Instant::now() + Duration::from_secs_f64(num(&v)?),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(a)
}

/// One keep-alive connection with the request times.
struct Conn {
    addr: String,
    r: BufReader<TcpStream>,
    times: Vec<f64>,
    polls: u64,
}

impl Conn {
    fn open(addr: &str) -> std::io::Result<Conn> {
        let s = TcpStream::connect(addr)?;
        s.set_nodelay(true)?;
        s.set_read_timeout(Some(Duration::from_secs(60)))?;
        Ok(Conn { addr: addr.to_string(), r: BufReader::new(s), times: Vec::new(), polls: 0 })
    }

    fn call(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        timed: bool,
    ) -> Result<(u16, Value), String> {
        let body = body.map(Value::to_string).unwrap_or_default();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        let t = Instant::now();
        let io = |e: std::io::Error| format!("{method} {path}: {e}");
        self.r.get_mut().write_all(req.as_bytes()).map_err(io)?;
        let mut line = String::new();
        self.r.read_line(&mut line).map_err(io)?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{method} {path}: bad status line {line:?}"))?;
        let mut len = None;
        loop {
            line.clear();
            self.r.read_line(&mut line).map_err(io)?;
            let h = line.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                len = v.trim().parse::<usize>().ok();
            }
        }
        let len = len.ok_or_else(|| format!("{method} {path}: no Content-Length"))?;
        let mut buf = vec![0; len];
        self.r.read_exact(&mut buf).map_err(io)?;
        if timed {
            self.times.push(t.elapsed().as_secs_f64() * 1000.0);
        } else {
            self.polls += 1;
        }
        let v = serde_json::from_slice(&buf).map_err(|e| format!("{method} {path}: {e}"))?;
        Ok((status, v))
    }

    fn view(&mut self, token: &str, wait: Option<&Value>) -> Result<Value, String> {
        let path = match wait {
            Some(w) => format!("/api/games/{token}?wait={w}"),
            None => format!("/api/games/{token}"),
        };
        let (s, v) = self.call("GET", &path, None, wait.is_none())?;
        if s != 200 {
            return Err(format!("view: {s} {v}"));
        }
        Ok(v)
    }

    /// Long polls until it is the person's turn or the game is over.
    fn until_turn(&mut self, token: &str, mut v: Value) -> Result<Value, String> {
        while v["status"] == "thinking" || v["status"] == "waiting" {
            let w = v["version"].clone();
            v = self.view(token, Some(&w))?;
        }
        Ok(v)
    }
}

/// The first choice offered, the first legal card, or the smallest discard
/// (serve_client.py's `first_legal`).
fn first_legal(v: &Value) -> Value {
    let r = &v["request"];
    match r["kind"].as_str() {
        Some("play") => json!({"play": r["legal"][0]}),
        Some("discard") => {
            let min = r["discard"]["min"].as_u64().unwrap_or(0) as usize;
            let hand: Vec<&str> = v["view"]["hand"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .take(min)
                .collect();
            json!({"discard": hand.join(" ")})
        }
        _ => r["choices"][0]["decision"].clone(),
    }
}

fn table(a: &Args, i: usize, c: &mut Conn) -> Result<(), String> {
    let game = json!({
        "rules": a.rules, "seat": i % 3, "hands": a.hands, "seed": 1000 + i, "opponents": ["rule", "rule"]
    });
    let (s, v) = c.call("POST", "/api/games", Some(&game), true)?;
    if s != 201 {
        return Err(format!("creating a game: {s} {v}"));
    }
    let token = v["token"].as_str().ok_or("no token")?.to_string();
    let first = c.view(&token, None)?;
    let mut v = c.until_turn(&token, first)?;
    while v["status"] == "your_turn" && Instant::now() < a.deadline {
        if !a.think.is_zero() {
            std::thread::sleep(a.think);
        }
        let posted = json!({"seq": v["seq"], "decision": first_legal(&v)});
        let (s, after) = c.call("POST", &format!("/api/games/{token}/decisions"), Some(&posted), true)?;
        if s != 200 {
            return Err(format!("decision refused: {s} {after}"));
        }
        v = c.until_turn(&token, after)?;
    }
    if v["status"] != "over" {
        return Err(format!("ended {}", v["status"]));
    }
    Ok(())
}

fn main() {
    let a = match parse_args() {
        Ok(a) => Arc::new(a),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let out = Arc::new(Mutex::new((Vec::new(), 0u64, 0usize, Vec::new())));
    let threads: Vec<_> = (0..a.tables)
        .map(|i| {
            let (a, out) = (a.clone(), out.clone());
            std::thread::spawn(move || {
                let mut times = Vec::new();
                let mut polls = 0;
                let r = Conn::open(&a.addr).map_err(|e| e.to_string()).and_then(|mut c| {
                    let r = table(&a, i, &mut c);
                    times = std::mem::take(&mut c.times);
                    polls = c.polls;
                    r
                });
                let mut o = out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                o.0.extend(times);
                o.1 += polls;
                match r {
                    Ok(()) => o.2 += 1,
                    Err(e) => o.3.push(format!("table {i}: {e}")),
                }
            })
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
    let o = out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    println!("{}", json!({"times_ms": o.0, "polls": o.1, "done": o.2, "errors": o.3}));
    if !o.3.is_empty() {
        std::process::exit(1);
    }
}
