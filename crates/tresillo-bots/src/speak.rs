//! The other side of the protocol: one of the toolkit's own agents played as a
//! bot (`tresillo bot SPEC`), reading the toolkit's messages and writing its
//! answers (docs/PROTOCOL.md, "The toolkit's agents as bots"). Any build of the
//! toolkit can so play a seat for any other build that speaks the protocol: two
//! builds compared in one tournament (`scripts/ab-builds.sh`).
//!
//! The agent sees only its seat's view, rebuilt from the request: the public
//! state the request carries (`public`, asked for by this side's greeting) and
//! the seat's own hand and discards from its `view`
//! ([`PlayerView::from_public`]); nothing else of the hand reaches this side.
//! Its randomness is the request's `seed` alone (a generator seeded with it for
//! each decision), so its answers are the same on every run.

use crate::ProtocolError;
use std::io::{BufRead, Write};
use tresillo_agents::{Agent, Registry, rng_from_seed};
use tresillo_core::{CardSet, Decision, PlayerView, PublicRecord, PublicState, Rules, Seat};

/// A game as the greeting describes it.
struct Game {
    rules: Rules,
    players: u8,
}

/// The bot: the agent, the game, and a discard under way (the agent chooses
/// its whole discard at the first of its requests; the protocol asks it card by
/// card).
struct Speaker {
    agent: Box<dyn Agent>,
    game: Option<Game>,
    discard_plan: Option<CardSet>,
}

/// Plays the agent `spec` of `registry` as a bot: reads the toolkit's messages
/// from `input` and writes each answer to `output` (flushed), until `bye` or the
/// end of the input. `name` and `version` go into the greeting. An unknown or
/// malformed spec, a line that is not a message of the protocol, or a decision
/// the agent cannot make ends it with one line (which names the line number); so
/// does a request whose public state no hand could be in (caught if it trips an
/// invariant: the caller silences the panic message, see `tresillo bot`).
pub fn serve(
    registry: &Registry,
    spec: &str,
    name: &str,
    version: &str,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), ServeError> {
    let agent = registry.build_agent(spec)?;
    let mut me = Speaker { agent, game: None, discard_plan: None };
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(ServeError::Read)?;
        if line.trim().is_empty() {
            continue;
        }
        // A state the record allows but no hand reaches (a phase without its
        // declarer) may trip an invariant of the state machine: one line too.
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| me.read(&line, name, version)))
            .unwrap_or_else(|_| Err("a request whose public state no hand could be in".into()))
            .map_err(|why| ServeError::Line { line: i + 1, why })?;
        match answer {
            Answer::Line(text) => {
                output
                    .write_all(text.as_bytes())
                    .and_then(|()| output.write_all(b"\n"))
                    .and_then(|()| output.flush())
                    .map_err(ServeError::Write)?;
            }
            Answer::Nothing => {}
            Answer::Bye => return Ok(()),
        }
    }
    Ok(())
}

/// Why [`serve`] stopped: one line.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The spec does not build an agent.
    #[error(transparent)]
    Spec(#[from] tresillo_agents::SpecError),
    /// The input could not be read.
    #[error("reading the input: {0}")]
    Read(std::io::Error),
    /// An answer could not be written.
    #[error("writing an answer: {0}")]
    Write(std::io::Error),
    /// Line `line` of the input (from 1) is not a message this side can answer.
    #[error("line {line}: {why}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// Why.
        why: ProtocolError,
    },
}

enum Answer {
    Line(String),
    Nothing,
    Bye,
}

/// The first 80 characters of `s`, for a message.
fn excerpt(s: &str) -> String {
    let short: String = s.chars().take(80).collect();
    let more = if short.len() < s.len() { "..." } else { "" };
    tresillo_core::printable(&format!("{short}{more}")).into_owned()
}

impl Speaker {
    fn read(&mut self, line: &str, name: &str, version: &str) -> Result<Answer, ProtocolError> {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("not JSON ({e}): {}", excerpt(line)))?;
        match v["type"].as_str() {
            Some("hello") => self.hello(&v, name, version).map(Answer::Line),
            Some("hand") => {
                self.agent.new_hand();
                self.discard_plan = None;
                Ok(Answer::Nothing)
            }
            Some("request") => self.request(&v).map(Answer::Line),
            Some("bye") => Ok(Answer::Bye),
            // `result`, and any type a later version adds.
            Some(_) => Ok(Answer::Nothing),
            None => Err(format!("a message without a type: {}", excerpt(line)).into()),
        }
    }

    fn hello(&mut self, v: &serde_json::Value, name: &str, version: &str) -> Result<String, ProtocolError> {
        let protocol = v["protocol"].as_u64().ok_or("the greeting has no protocol")?;
        if protocol < 2 || protocol > u64::from(crate::PROTOCOL) {
            return Err(format!(
                "the toolkit speaks protocol {protocol}; this bot speaks protocol 2{} (it needs the requests' public state)",
                if crate::PROTOCOL > 2 { format!(" to {}", crate::PROTOCOL) } else { String::new() }
            ).into());
        }
        let rules_name = v["rules"].as_str().ok_or("the greeting names no rule set")?;
        let options: Vec<(String, String)> = match &v["options"] {
            serde_json::Value::Object(m) => m
                .iter()
                .map(|(k, x)| (k.clone(), x.as_str().map_or_else(|| x.to_string(), str::to_string)))
                .collect(),
            serde_json::Value::Null => Vec::new(),
            _ => return Err("the greeting's options are not an object".into()),
        };
        let pairs: Vec<(&str, &str)> = options.iter().map(|(k, x)| (k.as_str(), x.as_str())).collect();
        let rules = Rules::parse(rules_name, &pairs).map_err(|e| format!("the greeting's rule set: {e}"))?;
        let players = v["players"]
            .as_u64()
            .and_then(|p| u8::try_from(p).ok())
            .ok_or("the greeting gives no number of players")?;
        rules.check_players(players).map_err(|e| format!("the greeting: {e}"))?;
        self.game = Some(Game { rules, players });
        Ok(serde_json::json!({
            "type": "hello",
            "protocol": crate::PROTOCOL,
            "name": name,
            "version": version,
            "public": true,
        })
        .to_string())
    }

    /// The view of the request's seat, rebuilt from its public state and the
    /// seat's own cards.
    fn view(&self, v: &serde_json::Value) -> Result<PlayerView, ProtocolError> {
        let game = self.game.as_ref().ok_or("a request before the greeting")?;
        let seat = v["seat"]
            .as_u64()
            .and_then(|s| u8::try_from(s).ok())
            .filter(|&s| s < game.players)
            .map(Seat)
            .ok_or("the request names no seat at the table")?;
        let public = v.get("public").ok_or("the request carries no public state")?;
        let record: PublicRecord =
            serde_json::from_value(public.clone()).map_err(|e| format!("the request's public state: {e}"))?;
        let dealer = v["view"]["dealer"]
            .as_u64()
            .and_then(|s| u8::try_from(s).ok())
            .map(Seat)
            .ok_or("the request's view names no dealer")?;
        let public = PublicState::from_record(game.rules, game.players, dealer, &record)
            .map_err(|e| format!("the request's public state: {e}"))?;
        let hand = cards(&v["view"]["hand"]).map_err(|e| format!("the view's hand: {e}"))?;
        let discards = cards(&v["view"]["discards"]).map_err(|e| format!("the view's discards: {e}"))?;
        let view = PlayerView::from_public(seat, hand, discards, public);
        if view.request().seat() != Some(seat) {
            return Err(format!("the request asks seat {} when it is not that seat's turn", seat.0).into());
        }
        Ok(view)
    }

    fn request(&mut self, v: &serde_json::Value) -> Result<String, ProtocolError> {
        let id = v["id"].as_u64().ok_or("the request has no id")?;
        let seed = v["seed"].as_u64().ok_or("the request has no seed")?;
        let legal: Vec<u64> = v["legal"]
            .as_array()
            .ok_or("the request lists no legal actions")?
            .iter()
            .map(|a| a["action"].as_u64().ok_or("a legal action without an id"))
            .collect::<Result<_, _>>()?;
        let view = self.view(v)?;
        let chosen = cards(&v["view"]["discarding"]).map_err(|e| format!("the view's discarding: {e}"))?;
        let action = match self.discard_plan {
            // The rest of a discard the agent chose at its first request.
            Some(plan) if !chosen.is_empty() => tresillo_env::discard_step(plan, chosen),
            _ => {
                let mut rng = rng_from_seed(seed);
                let d = self.agent.decide(&view, &mut rng).map_err(|f| format!("the agent: {f}"))?;
                match d {
                    Decision::Discard(plan) => {
                        self.discard_plan = Some(plan);
                        tresillo_env::discard_step(plan, chosen)
                    }
                    d => {
                        self.discard_plan = None;
                        tresillo_env::decision_actions(d)
                            .and_then(|a| a.first().copied())
                            .ok_or_else(|| format!("the agent's decision {d:?} has no action id"))?
                    }
                }
            }
        };
        if !legal.contains(&(action as u64)) {
            return Err(
                format!("the agent chose action {action}, which the request does not list as legal").into()
            );
        }
        Ok(format!("{{\"type\":\"action\",\"id\":{id},\"action\":{action}}}"))
    }
}

/// A list of cards in the notation of the view.
fn cards(v: &serde_json::Value) -> Result<CardSet, ProtocolError> {
    let list = v.as_array().ok_or("not a list of cards")?;
    let mut set = CardSet::EMPTY;
    for c in list {
        let s = c.as_str().ok_or("a card that is not a string")?;
        set.insert(tresillo_core::parse_card(s).map_err(|e| format!("{s:?}: {e}"))?);
    }
    Ok(set)
}
