//! `tresillo solve`: the exact solver on a position given on the command line.

use anyhow::{Context, Result, bail};
use std::io::Write;
use tresillo_agents::{Position, SolverContext};
use tresillo_core::{CardSet, Seat, parse_hand, parse_suit};

/// Arguments of `tresillo solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// The three hands in seat order, `h0 / h1 / h2`, of equal size (1 to 9 cards).
    #[arg(long)]
    deal: String,
    /// Trumps: espadas, bastos, copas or oros.
    #[arg(long)]
    trump: String,
    /// The declarer's seat (0, 1 or 2).
    #[arg(long)]
    declarer: u8,
    /// The seat that leads the next trick (0, 1 or 2).
    #[arg(long)]
    leader: u8,
    /// Tricks already won by seats 0, 1 and 2, comma-separated; they must sum to
    /// 9 minus the hand size (default 0,0,0, for nine-card hands).
    #[arg(long)]
    won: Option<String>,
}

fn seat(flag: &str, s: u8) -> Result<Seat> {
    if s > 2 {
        bail!("bad {flag} {s}: seats are 0, 1 and 2");
    }
    Ok(Seat(s))
}

/// The position the arguments describe.
pub fn position(a: &SolveArgs) -> Result<Position> {
    let parts: Vec<&str> = a.deal.split('/').collect();
    if parts.len() != 3 {
        bail!("bad --deal: expected three hands separated by ` / `, found {}", parts.len());
    }
    let mut hands = [CardSet::EMPTY; 3];
    for (i, p) in parts.iter().enumerate() {
        hands[i] = parse_hand(p).with_context(|| format!("bad --deal: hand of seat {i}"))?;
    }
    let n = hands[0].len();
    if hands.iter().any(|h| h.len() != n) {
        bail!(
            "bad --deal: the hands must be of equal size, found {}, {} and {} cards",
            hands[0].len(),
            hands[1].len(),
            hands[2].len()
        );
    }
    if !(1..=9).contains(&n) {
        bail!("bad --deal: hands of {n} cards (1 to 9)");
    }
    for i in 0..3 {
        for j in i + 1..3 {
            if let Some(c) = (hands[i] & hands[j]).first() {
                bail!("bad --deal: duplicate card `{c}` in the hands of seats {i} and {j}");
            }
        }
    }
    let trump = parse_suit(&a.trump).context("bad --trump")?;
    let declarer = seat("--declarer", a.declarer)?;
    let leader = seat("--leader", a.leader)?;
    let won = match &a.won {
        None if n == 9 => [0, 0, 0],
        None => bail!(
            "--won is needed with hands of {n} cards: the tricks won by seats 0, 1, 2 (summing to {})",
            9 - n
        ),
        Some(w) => {
            let v: Vec<&str> = w.split(',').map(str::trim).collect();
            if v.len() != 3 {
                bail!("bad --won `{w}`: expected three counts, like 1,2,0");
            }
            let mut out = [0u8; 3];
            for (i, t) in v.iter().enumerate() {
                out[i] = t.parse().map_err(|_| anyhow::anyhow!("bad --won `{w}`: `{t}` is not a count"))?;
            }
            let sum: u32 = out.iter().map(|&x| u32::from(x)).sum();
            if sum + n != 9 {
                bail!(
                    "bad --won `{w}`: the counts sum to {sum}, but {n}-card hands leave {} tricks played",
                    9 - n
                );
            }
            out
        }
    };
    Position::new(hands, trump, declarer, leader, &[], won).context("bad position")
}

/// Runs `tresillo solve`: one line per legal card of the leader, `CARD CLASS`,
/// then `value: CLASS`.
pub fn run(a: &SolveArgs, out: &mut impl Write) -> Result<()> {
    let pos = position(a)?;
    let mut ctx = SolverContext::new();
    let sol = ctx.solve(&pos);
    for (c, v) in sol.cards() {
        writeln!(out, "{c} {v}")?;
    }
    writeln!(out, "value: {}", sol.value)?;
    Ok(())
}
