//! A trivial external bot in a compiled language: it answers every request with
//! its first legal action. It measures the toolkit's share of a decision's round
//! trip (`scripts/bench-bot-overhead.sh`, `scripts/bench-bots.sh`).
//!
//! By default it reads only what it needs of each line (the type, the id and the
//! legal actions' ids; the view is skipped unread into memory), so its own time
//! is next to nothing. With `--tree` it parses each whole line into a
//! `serde_json::Value` first, as a bot that looks at its view would: on the
//! project's guest that costs about 10 µs per request (some hundred small
//! allocations), which the overhead script reports apart.
//!
//! With `--awake` it waits for its next request awake for up to 50 µs after each
//! answer (polling its input without sleeping, as the toolkit waits for a fast
//! bot's answer, docs/PROTOCOL.md), before it sleeps in `read`: a sleeping
//! process is woken through the scheduler, and on a virtual machine its halted
//! CPU by an interrupt, which costs more than a trivial bot's whole answer.
//!
//! At its end it writes on standard error the requests it answered and the CPU
//! time it used (user and system, from `/proc/self/stat`, in clock ticks of
//! 10 ms), so the script can tell the bot's share of the cost from the toolkit's.

use std::borrow::Cow;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// How long `--awake` waits awake for the next request.
const AWAKE: Duration = Duration::from_micros(50);

/// What the bot reads of a message.
#[derive(serde::Deserialize)]
struct Message<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    id: Option<u64>,
    #[serde(default)]
    legal: Vec<Legal>,
}

/// A legal action: its id.
#[derive(serde::Deserialize)]
struct Legal {
    action: u64,
}

/// Its CPU time so far in ms (user + system), from /proc/self/stat; 0 where
/// there is none.
fn cpu_ms() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's closing parenthesis; utime and stime are the
    // 14th and 15th of the line, the 12th and 13th after it.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: u64 = rest.split_whitespace().skip(11).take(2).filter_map(|t| t.parse::<u64>().ok()).sum();
    ticks * 10
}

fn main() {
    let mut answered = 0u64;
    run(&mut answered);
    eprintln!("first-legal: {answered} requests, {} ms of CPU", cpu_ms());
}

/// Waits awake until standard input has something to read, for at most `wait`.
fn wait_awake(stdin: &std::io::StdinLock<'_>, wait: Duration) {
    let t0 = Instant::now();
    let mut fds = [rustix::event::PollFd::new(stdin, rustix::event::PollFlags::IN)];
    let zero = rustix::event::Timespec { tv_sec: 0, tv_nsec: 0 };
    while !matches!(rustix::event::poll(&mut fds, Some(&zero)), Ok(n) if n > 0) && t0.elapsed() < wait {
        std::hint::spin_loop();
    }
}

fn run(answered: &mut u64) {
    let tree = std::env::args().any(|a| a == "--tree");
    let awake = std::env::args().any(|a| a == "--awake");
    let mut stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut answer = String::with_capacity(64);
    // The bytes read are buf[..end], of which the first `start` are taken as lines
    // (zeroed once: a read does not clear the room it reads into).
    let mut buf = vec![0u8; 1 << 16];
    let (mut start, mut end) = (0, 0);
    loop {
        let Some(nl) = buf[start..end].iter().position(|&b| b == b'\n') else {
            buf.copy_within(start..end, 0);
            end -= start;
            start = 0;
            if end == buf.len() {
                buf.resize(2 * end, 0);
            }
            if awake {
                wait_awake(&stdin, AWAKE);
            }
            match stdin.read(&mut buf[end..]) {
                Ok(n) if n > 0 => end += n,
                _ => return,
            }
            continue;
        };
        let Ok(line) = std::str::from_utf8(&buf[start..start + nl]) else { return };
        start += nl + 1;
        let (kind, id, action) = if tree {
            let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else { return };
            let kind = msg["type"].as_str().unwrap_or("").to_string();
            (kind, msg["id"].as_u64(), msg["legal"][0]["action"].as_u64())
        } else {
            let Ok(msg) = serde_json::from_str::<Message<'_>>(line) else { return };
            (msg.kind.into_owned(), msg.id, msg.legal.first().map(|l| l.action))
        };
        answer.clear();
        match kind.as_str() {
            "hello" => answer.push_str(r#"{"type":"hello","protocol":1,"name":"first-legal"}"#),
            "request" => {
                let (Some(id), Some(action)) = (id, action) else { return };
                answer.push_str(&format!(r#"{{"type":"action","id":{id},"action":{action}}}"#));
                *answered += 1;
            }
            "bye" => return,
            _ => continue,
        }
        answer.push('\n');
        if out.write_all(answer.as_bytes()).and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}
