//! The session log of `tresillo score` (docs/SCORING.md): its header and hand
//! lines parsed into [`HandResult`]s with errors that name the field, and the text
//! of a hand and of signed amounts, shared by the puesta scorekeeper (score.rs) and
//! `hombre`'s (score_hombre.rs).

use anyhow::{Result, anyhow, bail};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::fmt::Write as _;
use tresillo_core::{
    HandResult, Ledger, LedgerConfig, Outcome, PuestaKind, Rules, ScoringSystem, Seat, outcome_of,
};

/// The output format of `tresillo score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A readable table after every hand, then the settlement.
    Table,
    /// One JSON object per line: the session, every hand, the settlement.
    Json,
}

/// The session header: the first line of the log.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHeader {
    players: Players,
    #[serde(default)]
    rules: Rules,
    #[serde(default)]
    start_bowl: Option<i64>,
    #[serde(default)]
    pajarito: Option<i64>,
    #[serde(default)]
    first_dealer: Option<Value>,
    #[serde(default)]
    penetro_all_play: bool,
    #[serde(default)]
    deals: Option<u32>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Players {
    Count(u8),
    Names(Vec<String>),
}

/// The header, checked.
#[derive(Debug)]
pub struct Header {
    /// The players' names in seat order.
    pub names: Vec<String>,
    /// The ledger's configuration.
    pub config: LedgerConfig,
    /// Who deals the first hand when its line does not say.
    pub first_dealer: Seat,
}

pub(crate) fn parse_header(text: &str) -> Result<Header> {
    let raw: RawHeader = tresillo_sim::json::from_str(text).map_err(json_error)?;
    let names = match raw.players {
        Players::Count(n) => (0..n).map(|s| format!("seat {s}")).collect(),
        Players::Names(v) => v,
    };
    // The rule set says which tables it is played at.
    let n =
        u8::try_from(names.len()).map_err(|_| anyhow!("{} players: no table has as many", names.len()))?;
    raw.rules.check_players(n)?;
    for (i, a) in names.iter().enumerate() {
        if a.trim().is_empty() {
            bail!("player {i} has an empty name");
        }
        if names[..i].iter().any(|b| b.to_lowercase() == a.to_lowercase()) {
            bail!("the name `{a}` is given twice");
        }
        if a.trim().bytes().all(|b| b.is_ascii_digit()) {
            bail!(
                "the name `{a}` could be read as a seat number: give the player a name with a letter in it"
            );
        }
    }
    let mut config = LedgerConfig::with_rules(raw.rules, n);
    config.penetro_all_play = raw.penetro_all_play;
    if raw.penetro_all_play && !raw.rules.table(n).penetro {
        bail!("`penetro_all_play` is an option of the four-player table");
    }
    if let Some(b) = raw.start_bowl {
        config.start_bowl = b;
    }
    if let Some(p) = raw.pajarito {
        if p <= 0 {
            bail!("the pajarito must be positive, not {p}");
        }
        config.pajarito = p;
    }
    if let Some(d) = raw.deals {
        if (Rules { set: config.rules, options: config.options }).scoring() != ScoringSystem::Points {
            bail!("`deals` is the length of a hombre points session");
        }
        if d == 0 {
            bail!("`deals` is the number of hands of the session: at least 1, not 0");
        }
        config.deals = d;
    }
    if config.rules.spec().scoring.puesta_accounts() {
        Ledger::new(config)?;
    }
    let mut header = Header { names, config, first_dealer: Seat(0) };
    if let Some(mut d) = raw.first_dealer {
        resolve_seat(&mut d, "first_dealer", &header.names)?;
        header.first_dealer =
            Seat(d.as_u64().and_then(|x| u8::try_from(x).ok()).ok_or_else(|| {
                anyhow!("`first_dealer` must be a seat number or a player's name, not {d}")
            })?);
    }
    Ok(header)
}

/// A JSON error of one line, located by column (the line is named by the caller).
fn json_error(e: serde_json::Error) -> anyhow::Error {
    let msg = e.to_string();
    let msg = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]);
    match e.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            anyhow!("malformed JSON at column {}: {msg}", e.column())
        }
        _ => anyhow!("{msg} (at column {})", e.column()),
    }
}

/// The fields of a hand line: those of the serde form of [`HandResult`], and `note`.
const HAND_FIELDS: [&str; 31] = [
    "gascarille",
    "dropped_out",
    "vole_declared",
    "rules",
    "options",
    "contra_estuche",
    "final_contra_estuche",
    "players",
    "dealer",
    "bids",
    "declarer",
    "contract",
    "trump",
    "turned",
    "forced",
    "penetro",
    "exchanged",
    "conversation",
    "first_opponent",
    "tricks",
    "trick_winners",
    "outcome",
    "estuche",
    "final_estuche",
    "primeras",
    "bola_attempted",
    "bola_made",
    "surrender",
    "deal",
    "hands_at_play",
    "note",
];

/// Replaces a player's name by its seat number and checks a seat number.
fn resolve_seat(v: &mut Value, field: &str, names: &[String]) -> Result<()> {
    let n = names.len();
    let list = || names.join(", ");
    match v {
        Value::String(s) => {
            // Names first; a string of digits that is no name is a seat number (names
            // are never all digits: the header refuses them).
            let lower = s.trim().to_lowercase();
            let i = match names.iter().position(|x| x.to_lowercase() == lower) {
                Some(i) => i,
                None => match lower.parse::<usize>() {
                    Ok(i) if i < n && lower.bytes().all(|b| b.is_ascii_digit()) => i,
                    _ => bail!("unknown seat `{s}` in `{field}` (the players are {})", list()),
                },
            };
            *v = Value::from(i);
        }
        Value::Number(x) => match x.as_u64() {
            Some(i) if (i as usize) < n => {}
            _ => bail!("unknown seat {x} in `{field}` (seats are 0 to {}: {})", n - 1, list()),
        },
        _ => {}
    }
    Ok(())
}

fn resolve_in(obj: &mut Map<String, Value>, key: &str, field: &str, names: &[String]) -> Result<()> {
    if let Some(v) = obj.get_mut(key) {
        resolve_seat(v, field, names)?;
    }
    Ok(())
}

/// A per-seat array (`tricks`, `exchanged`): a list in seat order or an object keyed
/// by name or seat, padded to four entries. A list may have the four entries of a
/// game record (docs/RECORDS.md) at three players, the fourth zero.
fn per_seat(v: &mut Value, field: &str, names: &[String]) -> Result<()> {
    let n = names.len();
    let mut out = vec![Value::from(0); 4];
    match v {
        Value::Array(a) => {
            if a.len() > 4 {
                bail!("`{field}` has {} entries: a table has at most 4 seats", a.len());
            }
            for (i, x) in a.iter().enumerate() {
                if i >= n && x.as_u64() != Some(0) {
                    bail!(
                        "`{field}` has {} entries for {n} players: there is no seat {i} (given {x})",
                        a.len()
                    );
                }
                out[i] = x.clone();
            }
        }
        Value::Object(m) => {
            for (k, x) in m.iter() {
                // A key is read as `declarer` is: a name, or else a seat number.
                let mut key = Value::from(k.as_str());
                resolve_seat(&mut key, field, names)?;
                out[key.as_u64().expect("resolved") as usize] = x.clone();
            }
        }
        _ => bail!("`{field}` must be a list in seat order or an object by player, not {v}"),
    }
    *v = Value::Array(out);
    Ok(())
}

/// How the outcome of a hand line is completed after reading.
enum Fill {
    Given,
    InferOutcome,
    InferKind,
}

/// Reads one hand line into a [`HandResult`], filling in what a line typed at a real
/// table may leave out.
pub(crate) fn parse_hand(text: &str, header: &Header, dealer: Seat) -> Result<(HandResult, Option<String>)> {
    let value: Value = tresillo_sim::json::from_str(text).map_err(json_error)?;
    let Value::Object(mut obj) = value else {
        bail!("a hand is a JSON object, not `{value}`");
    };
    if let Some(k) = obj.keys().find(|k| !HAND_FIELDS.contains(&k.as_str())) {
        bail!("unknown field `{k}` (known: {})", HAND_FIELDS.join(", "));
    }
    let names = &header.names;
    let note = match obj.remove("note") {
        None => None,
        Some(Value::String(s)) => Some(s),
        Some(v) => bail!("`note` must be a string, not {v}"),
    };
    obj.entry("rules").or_insert_with(|| json!(header.config.rules));
    if header.config.game_rules().has_options() {
        obj.entry("options").or_insert_with(|| json!(header.config.options));
    }
    obj.entry("players").or_insert_with(|| json!(header.config.players));
    obj.entry("dealer").or_insert_with(|| json!(dealer.0));
    obj.entry("bids").or_insert_with(|| json!([]));
    for key in ["dealer", "declarer", "first_opponent"] {
        resolve_in(&mut obj, key, key, names)?;
    }
    for key in ["tricks", "exchanged"] {
        if let Some(v) = obj.get_mut(key) {
            per_seat(v, key, names)?;
        }
    }
    obj.entry("tricks").or_insert_with(|| json!([0, 0, 0, 0]));
    if let Some(Value::Array(a)) = obj.get_mut("trick_winners") {
        for v in a {
            resolve_seat(v, "trick_winners", names)?;
        }
    }
    for key in ["bids", "conversation"] {
        if let Some(Value::Array(a)) = obj.get_mut(key) {
            for e in a {
                if let Value::Object(e) = e {
                    resolve_in(e, "seat", key, names)?;
                }
            }
        }
    }
    let declarer = obj.get("declarer").cloned().unwrap_or(Value::Null);
    match obj.get_mut("surrender") {
        Some(Value::Bool(true)) => {
            obj.insert("surrender".into(), json!({ "by": declarer, "took_over": null }));
        }
        Some(Value::Bool(false)) => {
            obj.insert("surrender".into(), Value::Null);
        }
        Some(Value::Object(s)) => {
            s.entry("by").or_insert(declarer);
            resolve_in(s, "by", "surrender.by", names)?;
            resolve_in(s, "took_over", "surrender.took_over", names)?;
        }
        _ => {}
    }
    let fill = match obj.get_mut("outcome") {
        None => {
            obj.insert("outcome".into(), json!({ "result": "cancelled" }));
            Fill::InferOutcome
        }
        Some(o) => {
            if let Value::String(s) = o {
                *o = match s.as_str() {
                    "codillo" => bail!(
                        "a codillo needs its winner: \"outcome\": {{\"result\": \"codillo\", \"winner\": SEAT}}"
                    ),
                    other => json!({ "result": other }),
                };
            }
            match o {
                Value::Object(m) => {
                    resolve_in(m, "winner", "outcome.winner", names)?;
                    if m.get("result").and_then(Value::as_str) == Some("puesta") && !m.contains_key("kind") {
                        m.insert("kind".into(), json!("plain"));
                        Fill::InferKind
                    } else {
                        Fill::Given
                    }
                }
                _ => Fill::Given,
            }
        }
    };
    let bola_given = obj.contains_key("bola_attempted") || obj.contains_key("bola_made");
    let contrabola = obj.get("contract").and_then(Value::as_str) == Some("contrabola");
    let mut r: HandResult = serde_json::from_value(Value::Object(obj)).map_err(|e| anyhow!("{e}"))?;
    // Nine tricks for the (final) declarer can only be a bola made (RULES.md section
    // 6: the first five won, then played on): a typed line may leave the flags out.
    if !bola_given
        && !contrabola
        && !r.contract.is_some_and(|c| c.is_nolo())
        && r.surrender.is_none_or(|s| s.took_over.is_some())
        && let Some(fin) = r.final_declarer()
        && r.tricks[fin] == r.game_rules().spec().tricks
    {
        r.bola_attempted = true;
        r.bola_made = true;
    }
    let gave_up = r.surrender.is_some_and(|s| s.took_over.is_none());
    let from_tricks = || {
        let fin = r.final_declarer()?;
        let rules = r.game_rules();
        (r.tricks.0.iter().any(|&t| t > 0)).then(|| {
            if contrabola {
                // `hombre`'s contrabola: won with no trick, a puesta otherwise.
                if r.tricks[fin] == 0 { Outcome::Sacado } else { Outcome::Puesta { kind: PuestaKind::Plain } }
            } else if rules.spec().scoring == ScoringSystem::PerDefender {
                let defenders: Vec<(Seat, u8)> =
                    (1..r.players).map(|k| fin.plus(k, r.players)).map(|s| (s, r.tricks[s])).collect();
                rules.outcome(r.contract, r.tricks[fin], &defenders)
            } else {
                outcome_of(r.table(), r.dealer, fin, r.penetro, &r.tricks)
            }
        })
    };
    match fill {
        Fill::Given => {}
        Fill::InferOutcome => {
            r.outcome = if r.declarer.is_none() {
                Outcome::Cancelled
            } else if gave_up {
                Outcome::Puesta { kind: PuestaKind::Surrendered }
            } else {
                from_tricks()
                    .ok_or_else(|| anyhow!("give the trick counts (`tricks`) or the `outcome` of the hand"))?
            };
        }
        Fill::InferKind => {
            let kind = if gave_up {
                PuestaKind::Surrendered
            } else {
                match from_tricks() {
                    Some(Outcome::Puesta { kind }) => kind,
                    _ => PuestaKind::Plain,
                }
            };
            r.outcome = Outcome::Puesta { kind };
        }
    }
    Ok((r, note))
}

// ------------------------------------------------------------------ text

pub(crate) fn signed(x: i64) -> String {
    if x > 0 { format!("+{x}") } else { x.to_string() }
}

fn outcome_text(o: Outcome, names: &[String]) -> String {
    match o {
        Outcome::Cancelled => "cancelled".into(),
        Outcome::Sacado => "sacado (won)".into(),
        Outcome::Puesta { kind: PuestaKind::Sabia } => "puesta sabia (drawn, paid as lost)".into(),
        Outcome::Puesta { kind: PuestaKind::Real } => "puesta real (drawn, paid as lost)".into(),
        Outcome::Puesta { .. } => "puesta (paid as lost)".into(),
        Outcome::Codillo { winner } => format!("codillo (lost), {} wins", names[winner.index()]),
    }
}

pub(crate) fn describe(r: &HandResult, names: &[String]) -> String {
    let name = |s: Seat| names[s.index()].as_str();
    let mut t = format!("{} deals. ", name(r.dealer));
    let Some(d) = r.declarer else {
        t.push_str(r.rules.spec().words.all_passed);
        return t;
    };
    if r.penetro {
        let _ = write!(t, "{} penetra", name(d));
    } else {
        let contract = r.contract.map_or("?", |c| c.name());
        let _ = write!(t, "{} plays {contract}", name(d));
        if r.gascarille {
            t.push_str(" (gascarille)");
        } else if r.forced {
            let _ = write!(t, " ({})", r.game_rules().spec().words.forced_name);
        }
    }
    match r.surrender {
        Some(s) if r.penetro && s.took_over.is_none() => t.push_str(" and gives up at once"),
        Some(s) => {
            t.push_str(", gives up after three tricks");
            match s.took_over {
                Some(o) => {
                    let _ = write!(t, "; {} takes over (yo sigo)", name(o));
                }
                None => t.push_str(" and nobody takes over"),
            }
        }
        None => {}
    }
    let words = r.rules.spec().words;
    if words.contracts_by_name {
        // L'Hombre (section 12.4): its contract names, win, draw or loss, tout.
        let intl = r.rules.names();
        let contract = r.contract.map_or("?".into(), |c| intl.contract(c, r.trump));
        let forced = if r.forced { " (all passed: scores as game)" } else { "" };
        let mut t = format!(
            "{} deals. {} plays {contract}{forced}: {}",
            name(r.dealer),
            name(d),
            intl.outcome(r.outcome)
        );
        if r.tricks.0.iter().any(|&x| x > 0) {
            let tr: Vec<String> = r.tricks.0[..r.players as usize].iter().map(u8::to_string).collect();
            let _ = write!(t, ", tricks {}", tr.join("-"));
        }
        match (r.primeras, r.bola_attempted, r.bola_made) {
            (true, _, _) => {
                let _ = write!(t, "; {}", words.primeras);
            }
            (_, true, made) => {
                let _ = write!(t, "; {} {}", words.bola, if made { "made" } else { "failed" });
            }
            _ => {}
        }
        t.push('.');
        return t;
    }
    let _ = write!(t, ": {}", outcome_text(r.outcome, names));
    let n = r.players as usize;
    if r.tricks.0.iter().any(|&x| x > 0) {
        let tr: Vec<String> = r.tricks.0[..n].iter().map(u8::to_string).collect();
        let _ = write!(t, ", tricks {}", tr.join("-"));
    }
    let mut extras = Vec::new();
    if r.estuche && r.outcome.is_won() && r.surrender.is_none() {
        extras.push("estuche");
    }
    if r.primeras {
        extras.push("primeras");
    }
    if r.bola_attempted {
        extras.push(match (r.vole_declared, r.bola_made) {
            (true, true) => "declared vole made",
            (true, false) => "declared vole failed",
            (false, true) => "bola made",
            (false, false) => "bola failed",
        });
    }
    if !extras.is_empty() {
        let _ = write!(t, "; {}", extras.join(", "));
    }
    t.push('.');
    t
}
