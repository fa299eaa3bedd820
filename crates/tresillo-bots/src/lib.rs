//! External bots: an agent that is a separate program, in any language, speaking
//! the JSON Lines protocol of docs/PROTOCOL.md over its standard input and output.
//! [`register`] adds the spec `ext:cmd=PROGRAM[:ms=N][:hand_ms=N][:log=DIR]` to a
//! [`Registry`], so a bot plays wherever an agent plays (the CLI's `play`,
//! `tournament` and `run`, the Python package's tournaments).
//!
//! Each agent object owns one process, started at its first decision and reused
//! for every hand after (the runner builds one agent per seat slot and worker
//! thread); dropping the agent says `bye`, closes the pipe and ends the process
//! (killed after a grace period), so no process outlives its run. A bot that
//! crashes, answers late, writes something that is not a message of the protocol
//! or answers an action that is not legal makes [`Agent::fault`] say so; the hand
//! refuses its decision and the run stops with that line, every finished deal
//! kept. A bot sees only its seat's view (RULES.md section 9): the request is
//! built from the [`PlayerView`] alone.

mod message;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};
use tresillo_agents::{Agent, AgentInfo, AgentRng, ParamInfo, Registry, SpecError};
use tresillo_core::action::{Action, DiscardBuilder, legal_ids};
use tresillo_core::{Bid, Card, Decision, HandResult, PlayerView, Request};

/// The protocol's version (docs/PROTOCOL.md).
pub const PROTOCOL: u32 = 1;

/// The longest line a bot may write (bytes); a longer one is a fault.
pub const MAX_LINE: usize = 1 << 20;

/// The default time a bot has for each answer, and for its greeting.
pub const DEFAULT_MS: u64 = 10_000;

/// The most bytes of a bot's standard error kept in its log.
pub const MAX_LOG: u64 = 1 << 20;

/// Registers `ext` in `registry`: `ext:cmd=PROGRAM` (an executable path, run
/// with no arguments; words after a space are its arguments), `ms=N` (the time
/// for each answer, default 10,000), `log=DIR` (keep the bot's standard error,
/// its first MiB, in `DIR/NAME-PID.log`; default: discarded).
pub fn register(registry: &mut Registry) -> Result<(), SpecError> {
    let info = AgentInfo {
        name: "ext",
        help: "an external bot: a program speaking the JSON Lines protocol of docs/PROTOCOL.md",
        params: vec![
            ParamInfo {
                name: "cmd",
                default: String::new(),
                help: "the program (and its arguments after spaces)",
            },
            ParamInfo { name: "ms", default: DEFAULT_MS.to_string(), help: "milliseconds for each answer" },
            ParamInfo {
                name: "log",
                default: String::new(),
                help: "a directory for the bot's standard error",
            },
            ParamInfo {
                name: "hand_ms",
                default: String::new(),
                help: "milliseconds for all its answers in one hand",
            },
        ],
    };
    registry.register(info, |p| {
        let cmd = p
            .get("cmd")
            .filter(|c| !c.trim().is_empty())
            .ok_or_else(|| p.bad_value("cmd", "", "an external bot needs its program: ext:cmd=PATH"))?;
        let ms = p.int("ms", 1, 3_600_000)?.map_or(DEFAULT_MS, |m| m as u64);
        let log = p.get("log").filter(|l| !l.is_empty()).map(PathBuf::from);
        let mut bot = ExtBot::new(cmd, Duration::from_millis(ms), log);
        bot.hand_budget = p.int("hand_ms", 1, 86_400_000)?.map(|m| Duration::from_millis(m as u64));
        Ok(Box::new(bot))
    })
}

/// The built-in agents and `ext`.
#[must_use]
pub fn registry() -> Registry {
    let mut r = Registry::builtin();
    register(&mut r).expect("ext is not a built-in name");
    r
}

/// A running bot process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Result<String, String>>,
}

/// An external bot (see the crate documentation).
pub struct ExtBot {
    cmd: String,
    limit: Duration,
    /// The time for all its answers in one hand, if limited.
    pub hand_budget: Option<Duration>,
    /// Time spent on answers in the current hand.
    hand_used: Duration,
    log: Option<PathBuf>,
    process: Option<Process>,
    /// The bot's name from its greeting.
    pub name: String,
    /// Requests sent so far (their ids).
    next_id: u64,
    /// Hands begun; whether the current one was announced to the bot.
    hands: u64,
    announced: bool,
    fault: Option<String>,
    /// Total time spent waiting for answers.
    pub waited: Duration,
    /// Requests answered.
    pub requests: u64,
    /// The longest wait for one answer.
    pub longest: Duration,
}

impl ExtBot {
    /// A bot run as `cmd`, with `limit` for each answer; not started yet.
    #[must_use]
    pub fn new(cmd: &str, limit: Duration, log: Option<PathBuf>) -> ExtBot {
        ExtBot {
            cmd: cmd.to_string(),
            limit,
            hand_budget: None,
            hand_used: Duration::ZERO,
            log,
            process: None,
            name: String::new(),
            next_id: 0,
            hands: 0,
            announced: false,
            fault: None,
            waited: Duration::ZERO,
            requests: 0,
            longest: Duration::ZERO,
        }
    }

    fn spawn(&mut self, view: &PlayerView) -> Result<(), String> {
        let mut words = self.cmd.split_whitespace();
        let program = words.next().ok_or("no program")?;
        let mut command = Command::new(program);
        command.args(words).stdin(Stdio::piped()).stdout(Stdio::piped());
        command.stderr(if self.log.is_some() { Stdio::piped() } else { Stdio::null() });
        let mut child = command.spawn().map_err(|e| format!("could not start `{}`: {e}", self.cmd))?;
        let stdin = child.stdin.take().ok_or("no standard input")?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        let (tx, rx) = sync_channel(64);
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                let n = match (&mut r).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf) {
                    Ok(n) => n,
                    Err(e) => {
                        let _ = tx.send(Err(format!("reading its output: {e}")));
                        return;
                    }
                };
                if n == 0 {
                    let _ = tx.send(Err("closed its output (exited)".into()));
                    return;
                }
                if buf.len() > MAX_LINE {
                    let _ = tx.send(Err(format!("wrote a line longer than {MAX_LINE} bytes")));
                    return;
                }
                let line = match String::from_utf8(buf) {
                    Ok(l) => l,
                    Err(_) => {
                        let _ = tx.send(Err("wrote bytes that are not UTF-8".into()));
                        return;
                    }
                };
                if tx.send(Ok(line.trim_end().to_string())).is_err() {
                    return;
                }
            }
        });
        if let (Some(dir), Some(err)) = (&self.log, child.stderr.take()) {
            let path = dir.join(format!("{}-{}.log", sanitize(&self.cmd), child.id()));
            std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
            let mut file =
                std::fs::File::create(&path).map_err(|e| format!("creating {}: {e}", path.display()))?;
            std::thread::spawn(move || {
                let mut err = err;
                let _ = std::io::copy(&mut (&mut err).take(MAX_LOG), &mut file);
                // Past the bound the rest is read and dropped, so the bot never blocks on it.
                let _ = std::io::copy(&mut err, &mut std::io::sink());
            });
        }
        self.process = Some(Process { child, stdin, lines: rx });
        let p = view.public();
        let hello = message::hello(p, self.limit);
        self.send(&hello)?;
        let answer = self.receive(true)?;
        let v: serde_json::Value = serde_json::from_str(&answer)
            .map_err(|e| format!("greeting is not JSON ({e}): {}", excerpt(&answer)))?;
        if v["type"] != "hello" {
            return Err(format!("answered the greeting with {}", excerpt(&answer)));
        }
        if v["protocol"].as_u64().is_some_and(|n| n != u64::from(PROTOCOL)) {
            return Err(format!("speaks protocol {} (this is protocol {PROTOCOL})", v["protocol"]));
        }
        self.name = v["name"].as_str().unwrap_or("bot").to_string();
        // The start-up is not an answer's time.
        self.waited = Duration::ZERO;
        self.longest = Duration::ZERO;
        self.hand_used = Duration::ZERO;
        Ok(())
    }

    fn send(&mut self, v: &serde_json::Value) -> Result<(), String> {
        let p = self.process.as_mut().ok_or("not running")?;
        let mut line = v.to_string();
        line.push('\n');
        p.stdin.write_all(line.as_bytes()).and_then(|()| p.stdin.flush()).map_err(|e| {
            match p.child.try_wait() {
                Ok(Some(status)) => format!("exited ({status})"),
                _ => format!("closed its input ({e})"),
            }
        })
    }

    /// The next line, within the limit of an answer (and of the hand's budget,
    /// except for the greeting).
    fn receive(&mut self, greeting: bool) -> Result<String, String> {
        let p = self.process.as_mut().ok_or("not running")?;
        let t0 = Instant::now();
        let budget = if greeting { None } else { self.hand_budget };
        let left = budget.map_or(self.limit, |b| b.saturating_sub(self.hand_used).min(self.limit));
        let r = p.lines.recv_timeout(left);
        let took = t0.elapsed();
        self.waited += took;
        self.hand_used += took;
        self.longest = self.longest.max(took);
        match r {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(e)) => Err(match p.child.try_wait() {
                Ok(Some(status)) => format!("{e} ({status})"),
                _ => e,
            }),
            Err(RecvTimeoutError::Timeout) if left < self.limit => Err(format!(
                "used up its time for the hand ({} ms) without answering",
                self.hand_budget.map_or(0, |b| b.as_millis())
            )),
            Err(RecvTimeoutError::Timeout) => {
                Err(format!("gave no answer within its limit of {} ms", self.limit.as_millis()))
            }
            Err(RecvTimeoutError::Disconnected) => Err("closed its output".into()),
        }
    }

    /// One request and its answer: an action id, checked against `legal`.
    fn ask(
        &mut self,
        view: &PlayerView,
        discard: DiscardBuilder,
        legal: &[usize],
        seed: u64,
    ) -> Result<usize, String> {
        self.next_id += 1;
        let id = self.next_id;
        let request = message::request(id, view, discard, legal, seed);
        self.send(&request)?;
        let line = self.receive(false)?;
        let v: serde_json::Value = serde_json::from_str(&line)
            .map_err(|e| format!("wrote a line that is not JSON ({e}): {}", excerpt(&line)))?;
        if v["type"] != "action" {
            return Err(format!("answered request {id} with {}", excerpt(&line)));
        }
        if v["id"].as_u64() != Some(id) {
            return Err(format!("answered request {} instead of request {id}", v["id"]));
        }
        let a = v["action"].as_u64().ok_or_else(|| format!("gave no action id: {}", excerpt(&line)))?;
        let a = usize::try_from(a).map_err(|_| format!("answered action {a}"))?;
        if !legal.contains(&a) {
            return Err(format!("answered action {a}, which is not legal (legal: {legal:?})"));
        }
        self.requests += 1;
        Ok(a)
    }

    fn decide_checked(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, String> {
        if self.process.is_none() {
            self.spawn(view)?;
        }
        if !self.announced {
            self.announced = true;
            let m = message::hand(self.hands, view);
            self.send(&m)?;
        }
        let mut discard = DiscardBuilder::default();
        loop {
            let legal = legal_ids(view, discard);
            let seed = rand_core::RngCore::next_u64(rng);
            let a = self.ask(view, discard, &legal, seed)?;
            match Action::from_id(a).expect("a legal id") {
                Action::Decision(d) => return Ok(d),
                Action::DiscardCard(c) => discard.chosen.insert(c),
                Action::DiscardDone => return Ok(Decision::Discard(discard.chosen)),
            };
        }
    }
}

/// The first 120 characters of a line, for a message.
fn excerpt(line: &str) -> String {
    let s: String = line.chars().take(120).collect();
    if s.len() < line.len() { format!("{s:?}...") } else { format!("{s:?}") }
}

fn sanitize(cmd: &str) -> String {
    let base = cmd.split_whitespace().next().unwrap_or("bot");
    let base = base.rsplit('/').next().unwrap_or(base);
    base.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

impl Agent for ExtBot {
    fn name(&self) -> &str {
        "ext"
    }

    fn new_hand(&mut self) {
        self.hands += 1;
        self.announced = false;
        self.hand_used = Duration::ZERO;
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Decision {
        if self.fault.is_some() {
            // A bot that failed once is not asked again.
            return refused(view);
        }
        match self.decide_checked(view, rng) {
            Ok(d) => d,
            Err(why) => {
                let who = if self.name.is_empty() {
                    self.cmd.clone()
                } else {
                    format!("{} ({})", self.name, self.cmd)
                };
                self.fault = Some(format!("external bot {who}: {why}"));
                refused(view)
            }
        }
    }

    fn fault(&self) -> Option<String> {
        self.fault.clone()
    }

    fn end_hand(&mut self, result: &HandResult) {
        if self.process.is_some() && self.fault.is_none() && self.announced {
            // A bot gone by now is found out at its next request.
            let _ = self.send(&message::result(self.hands, result));
        }
    }
}

/// A decision of another kind than `view` asks for: the hand refuses it.
fn refused(view: &PlayerView) -> Decision {
    match view.request() {
        Request::Play { .. } => Decision::Bid(Bid::Paso),
        _ => Decision::Play(Card::ESPADA),
    }
}

impl ExtBot {
    /// One line on the time the bot used: requests, mean and longest answer.
    #[must_use]
    pub fn time_line(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let mean = if self.requests > 0 { ms(self.waited) / self.requests as f64 } else { 0.0 };
        format!(
            "{} requests answered in {:.3} s: {mean:.3} ms mean, {:.3} ms longest",
            self.requests,
            self.waited.as_secs_f64(),
            ms(self.longest)
        )
    }
}

impl Drop for ExtBot {
    fn drop(&mut self) {
        let Some(mut p) = self.process.take() else { return };
        // The time it used goes to its log directory, beside what it wrote.
        if let Some(dir) = &self.log {
            let path = dir.join(format!("{}-{}.time", sanitize(&self.cmd), p.child.id()));
            let _ = std::fs::write(path, format!("{}\n", self.time_line()));
        }
        let _ = writeln!(p.stdin, "{}", serde_json::json!({"type": "bye"}));
        drop(p.stdin);
        // A grace period to exit at the end of its input, then it is killed.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = p.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = p.child.kill();
        let _ = p.child.wait();
    }
}
