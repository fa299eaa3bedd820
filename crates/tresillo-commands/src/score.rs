//! `tresillo score`: a scorekeeper for the puesta system (RULES.md section 8).
//!
//! It reads a session log in JSON Lines (documented in docs/SCORING.md): a header
//! naming the players, the rule set and the starting bowl, then one hand result per
//! line. Every hand is scored by a [`Ledger`]; the ledger after every hand and the
//! settlement are printed as a table or as JSON Lines. The whole log is scored before
//! anything is printed, so a bad line gives an error naming it and no output.

use crate::score_log::{Format, Header, describe, parse_hand, parse_header, signed};
use anyhow::{Context, Result, anyhow};
use serde_json::json;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use tresillo_core::{Debt, HandResult, HandScore, Ledger, Rules, Seat, Settlement};

/// Arguments of `tresillo score`.
#[derive(clap::Args, Debug)]
pub struct ScoreArgs {
    /// The session log in JSON Lines (see docs/SCORING.md); `-` reads standard input.
    pub file: PathBuf,
    /// Print the ledger after every hand as a table, or as JSON Lines.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Runs `tresillo score`.
pub fn run(args: &ScoreArgs) -> Result<()> {
    let stdin = args.file.as_os_str() == "-";
    let name = if stdin { "standard input".to_string() } else { args.file.display().to_string() };
    // Line by line, each line bounded: an endless line is one error naming it.
    let text = if stdin {
        tresillo_runs::lines::read_text(std::io::stdin().lock(), &name)?
    } else {
        let f = std::fs::File::open(&args.file).with_context(|| format!("reading {name}"))?;
        tresillo_runs::lines::read_text(std::io::BufReader::new(f), &name)?
    };
    // A `hombre` session is kept in points or chips (score_hombre.rs).
    let out =
        match crate::score_hombre::score(&text, args.format).with_context(|| format!("scoring {name}"))? {
            Some(out) => out,
            None => {
                let session = score_log(&text).with_context(|| format!("scoring {name}"))?;
                match args.format {
                    Format::Table => render_table(&session),
                    Format::Json => render_json(&session),
                }
            }
        };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// One scored hand.
#[derive(Debug)]
pub struct ScoredHand {
    /// Its line in the log (1-based).
    pub line: usize,
    /// The text after `note`, if any.
    pub note: Option<String>,
    /// The result as read (with defaults filled in).
    pub result: HandResult,
    /// What it changed.
    pub score: HandScore,
    /// The ledger after it.
    pub ledger: Ledger,
}

/// A scored session.
#[derive(Debug)]
pub struct Session {
    /// The header.
    pub header: Header,
    /// Every hand in order.
    pub hands: Vec<ScoredHand>,
    /// The settlement after the last hand.
    pub settlement: Settlement,
    /// The ledger after the last hand.
    pub ledger: Ledger,
}

/// Scores a whole log. The error names the line.
pub fn score_log(text: &str) -> Result<Session> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let (hline, htext) =
        lines.next().ok_or_else(|| anyhow!("the log is empty: its first line must name the players"))?;
    let header = parse_header(htext).with_context(|| format!("line {hline}: bad session header"))?;
    let mut ledger = Ledger::new(header.config).with_context(|| format!("line {hline}"))?;
    let mut hands = Vec::new();
    for (line, text) in lines {
        let dealer = ledger.next_dealer().unwrap_or(header.first_dealer);
        let (result, note) = parse_hand(text, &header, dealer).with_context(|| format!("line {line}"))?;
        let score = ledger.apply(&result).with_context(|| format!("line {line}"))?;
        hands.push(ScoredHand { line, note, result, score, ledger: ledger.clone() });
    }
    Ok(Session { header, hands, settlement: ledger.settle(), ledger })
}

// ------------------------------------------------------------------ output

fn debt_text(d: &Debt, names: &[String]) -> String {
    format!("{} {} (hand {})", names[d.owner.index()], d.amount, d.hand)
}

pub(crate) fn ledger_line(l: &Ledger, names: &[String]) -> String {
    if let Some(note) = l.config().rules.spec().words.ledger_note {
        return note.into();
    }
    let paper = if l.paper().is_empty() {
        "empty".to_string()
    } else {
        l.paper().iter().map(|d| debt_text(d, names)).collect::<Vec<_>>().join(", ")
    };
    format!(
        "plato {}{} · pajaritos {} · paper: {paper} · next hand: {}, amount in play {}",
        l.plato(),
        if l.plato_has_failure() { " (holds a failure payment)" } else { "" },
        l.pajaritos(),
        l.next_case(),
        l.next_aip()
    )
}

/// The table output.
pub fn render_table(s: &Session) -> String {
    let names = &s.header.names;
    let cfg = &s.header.config;
    let n = names.len();
    let w = names.iter().map(|x| x.chars().count()).max().unwrap_or(0).max(6);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Session: rule set {}, {} players, starting bowl {}, pajaritos of {}",
        Rules { set: cfg.rules, options: cfg.options },
        n,
        cfg.start_bowl,
        cfg.pajarito
    );
    let seats: Vec<String> = names.iter().enumerate().map(|(i, x)| format!("{i} {x}")).collect();
    let _ = writeln!(o, "Seats: {}", seats.join(", "));
    let fresh = Ledger::new(*cfg).expect("checked");
    let _ = writeln!(o, "Start: bowls {} each; {}", fresh.bowl(Seat(0)), ledger_line(&fresh, names));
    for h in &s.hands {
        let _ = writeln!(o);
        let _ = writeln!(o, "Hand {} (line {}): {}", h.score.hand, h.line, describe(&h.result, names));
        if let Some(note) = &h.note {
            let _ = writeln!(o, "  note: {note}");
        }
        let sc = &h.score;
        if cfg.rules.spec().scoring.puesta_accounts() {
            let _ = write!(o, "  {}, amount in play {}", sc.case, sc.aip);
            if let Some(d) = sc.played_for {
                let _ = write!(o, " (the debt of {})", debt_text(&d, names));
            }
            let _ = writeln!(o);
        }
        if let Some(d) = sc.crossed_out {
            let _ = writeln!(o, "  crossed out: {}", debt_text(&d, names));
        }
        let written: Vec<String> = sc.written().map(|d| debt_text(&d, names)).collect();
        if !written.is_empty() {
            let _ = writeln!(o, "  written on the paper: {}", written.join(", "));
        }
        let _ = writeln!(
            o,
            "  {:>4}  {:<w$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}",
            "seat", "player", "pool", "cond.", "total", "bowl", "owes"
        );
        for (i, name) in names.iter().enumerate() {
            let x = Seat(i as u8);
            let _ = writeln!(
                o,
                "  {:>4}  {:<w$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}",
                i,
                name,
                signed(sc.pool[x]),
                signed(sc.condiciones[x]),
                signed(sc.total(x)),
                h.ledger.bowl(x),
                h.ledger.owed_by(x)
            );
        }
        let _ = writeln!(o, "  {}", ledger_line(&h.ledger, names));
    }
    let st = &s.settlement;
    let debts: i64 = st.debts_paid.0.iter().sum();
    let rem = st.remainder.0.iter().filter(|&&b| b).count();
    let _ = writeln!(o);
    let _ =
        writeln!(o, "Settlement after {} hand{}", s.hands.len(), if s.hands.len() == 1 { "" } else { "s" });
    let _ = writeln!(
        o,
        "  fund {} = plato {} + pajaritos {} + debts {}; {} each, {} left over to the lowest bowls",
        st.fund, st.plato, st.pajaritos, debts, st.share, rem
    );
    let _ = writeln!(
        o,
        "  {:>4}  {:<w$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}",
        "seat", "player", "bowl", "debts", "share", "final", "result"
    );
    for (i, name) in names.iter().enumerate() {
        let x = Seat(i as u8);
        let _ = writeln!(
            o,
            "  {:>4}  {:<w$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}",
            i,
            name,
            s.ledger.bowl(x),
            -st.debts_paid[x],
            st.share + i64::from(st.remainder[x]),
            st.final_bowls[x],
            signed(st.results[x])
        );
    }
    o
}

/// The JSON Lines output: the session, every hand, the settlement.
pub fn render_json(s: &Session) -> String {
    let names = &s.header.names;
    let cfg = &s.header.config;
    let n = names.len();
    let mut o = String::new();
    let session = json!({ "session": {
        "players": names,
        "rules": Rules { set: cfg.rules, options: cfg.options },
        "start_bowl": cfg.start_bowl,
        "pajarito": cfg.pajarito,
    }});
    let _ = writeln!(o, "{session}");
    for h in &s.hands {
        let sc = &h.score;
        let l = &h.ledger;
        let r = &h.result;
        let v = json!({
            "hand": sc.hand,
            "line": h.line,
            "note": h.note,
            "dealer": r.dealer,
            "declarer": r.declarer,
            "final_declarer": r.final_declarer(),
            "contract": r.contract,
            "penetro": r.penetro,
            "surrender": r.surrender,
            "outcome": r.outcome,
            "tricks": &r.tricks.0[..n],
            "case": sc.case,
            "aip": sc.aip,
            "played_for": sc.played_for,
            "pool": &sc.pool.0[..n],
            "condiciones": &sc.condiciones.0[..n],
            "total": &sc.totals().0[..n],
            "debts": &sc.debts.0[..n],
            "crossed_out": sc.crossed_out,
            "written": sc.written().collect::<Vec<_>>(),
            "ledger": {
                "bowls": l.bowls(),
                "plato": l.plato(),
                "plato_has_failure": l.plato_has_failure(),
                "pajaritos": l.pajaritos(),
                "paper": l.paper(),
                "next_case": l.next_case(),
                "next_aip": l.next_aip(),
                "next_dealer": l.next_dealer(),
            },
        });
        let _ = writeln!(o, "{v}");
    }
    let st = &s.settlement;
    let v = json!({ "settlement": {
        "plato": st.plato,
        "pajaritos": st.pajaritos,
        "debts_paid": &st.debts_paid.0[..n],
        "fund": st.fund,
        "share": st.share,
        "remainder": &st.remainder.0[..n],
        "final_bowls": &st.final_bowls.0[..n],
        "results": &st.results.0[..n],
    }});
    let _ = writeln!(o, "{v}");
    o
}
