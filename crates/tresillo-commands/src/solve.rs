//! `tresillo solve`: the exact solver on a position given on the command line,
//! for any rule set's objective (`--goal`) with three hands or four.

use crate::analyze::class_name;
use anyhow::{Context, Result, bail};
use std::io::Write;
use tresillo_agents::gsolver::{Goal, Solvers};
use tresillo_agents::{Position, SolverContext};
use tresillo_core::{CardSet, PlayState, Rules, Seat, Suit, parse_hand, parse_suit};

/// Arguments of `tresillo solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// The hands in seat order, `h0 / h1 / h2` (three players) or
    /// `h0 / h1 / h2 / h3` (four players: `-` for the seat that sits out, or
    /// four hands when all four play under `penetro_all_play`); the hands in
    /// play of equal size (1 to 9 cards).
    #[arg(long, allow_hyphen_values = true)]
    deal: String,
    /// Trumps: espadas, bastos, copas or oros; `none` for a nolo.
    #[arg(long)]
    trump: String,
    /// The declarer's objective: spanish (section 7: sacado, puesta, codillo;
    /// the default), lhombre (12.4: win, draw, loss), nolo (12.4: no trick wins,
    /// one draws, two or more lose; with `--trump none`), contrabola (12.3: no
    /// trick at all: won, lost), cuatro (hombre points: won 4-3-2, won, lost),
    /// won (hombre chips: won, lost) or all (every trick: made, failed).
    #[arg(long, default_value = "spanish")]
    goal: String,
    /// The declarer's seat.
    #[arg(long)]
    declarer: u8,
    /// The seat that leads the next trick.
    #[arg(long)]
    leader: u8,
    /// Tricks already won by each seat, comma-separated (three or four counts,
    /// as many as hands); they must sum to 9 minus the hand size (default all 0,
    /// for nine-card hands).
    #[arg(long)]
    won: Option<String>,
}

/// The goal named `s` (`--goal`).
fn parse_goal(s: &str) -> Result<Goal> {
    Ok(match s.trim().to_ascii_lowercase().as_str() {
        "spanish" => Goal::Spanish,
        "lhombre" => Goal::Lhombre,
        "nolo" => Goal::Nolo,
        "contrabola" => Goal::Contrabola,
        "cuatro" => Goal::Cuatro,
        "won" => Goal::Won,
        "all" => Goal::Reach(9),
        _ => bail!("bad --goal `{s}`: expected spanish, lhombre, nolo, contrabola, cuatro, won or all"),
    })
}

/// A position of any goal: the play state, the declarer and the goal.
pub struct Problem {
    /// The position, the leader to lead.
    pub state: PlayState,
    /// The declarer.
    pub declarer: Seat,
    /// What the declarer plays for.
    pub goal: Goal,
}

/// The position the arguments describe.
pub fn problem(a: &SolveArgs) -> Result<Problem> {
    let goal = parse_goal(&a.goal)?;
    let parts: Vec<&str> = a.deal.split('/').collect();
    let n = parts.len();
    // The table the hands describe: tresillo's (RULES.md) at as many seats as hands
    // given; no other rule set is involved in a position.
    let tresillo = Rules::default();
    let table = match u8::try_from(n) {
        Ok(players) if tresillo.check_players(players).is_ok() => tresillo.table(players),
        _ => bail!("bad --deal: expected three or four hands separated by ` / `, found {n}"),
    };
    let mut hands = [CardSet::EMPTY; 4];
    let mut active = 0u8;
    for (i, p) in parts.iter().enumerate() {
        if table.dealer_sits_out && p.trim() == "-" {
            continue;
        }
        hands[i] = parse_hand(p).with_context(|| format!("bad --deal: hand of seat {i}"))?;
        active |= 1 << i;
    }
    let seats: Vec<usize> = (0..n).filter(|&s| active & (1 << s) != 0).collect();
    if seats.len() < 3 {
        bail!("bad --deal: at most one seat sits out (`-`)");
    }
    if table.dealer_sits_out && !matches!(goal, Goal::Spanish | Goal::Reach(_)) {
        bail!("four hands are four-player tresillo (RULES.md section 12.2): --goal spanish or all");
    }
    let size = hands[seats[0]].len();
    if seats.iter().any(|&s| hands[s].len() != size) {
        let sizes: Vec<String> = seats.iter().map(|&s| hands[s].len().to_string()).collect();
        bail!("bad --deal: the hands in play must be of equal size, found {} cards", sizes.join(", "));
    }
    if !(1..=9).contains(&size) {
        bail!("bad --deal: hands of {size} cards (1 to 9)");
    }
    for (x, &i) in seats.iter().enumerate() {
        for &j in &seats[x + 1..] {
            if let Some(c) = (hands[i] & hands[j]).first() {
                bail!("bad --deal: duplicate card `{c}` in the hands of seats {i} and {j}");
            }
        }
    }
    let trump: Option<Suit> = if a.trump.trim().eq_ignore_ascii_case("none") {
        None
    } else {
        Some(parse_suit(&a.trump).context("bad --trump")?)
    };
    match (goal, trump) {
        (Goal::Nolo, Some(_)) => {
            bail!("--goal nolo is played without trumps (RULES.md section 12.4): give --trump none")
        }
        (g, None) if g != Goal::Nolo => bail!("--trump none is only for --goal nolo"),
        _ => {}
    }
    let seat = |flag: &str, s: u8| -> Result<Seat> {
        if usize::from(s) >= n || active & (1 << s) == 0 {
            let list: Vec<String> = seats.iter().map(ToString::to_string).collect();
            let (last, rest) = list.split_last().expect("three seats or four");
            bail!("bad {flag} {s}: seats are {} and {last}", rest.join(", "));
        }
        Ok(Seat(s))
    };
    let declarer = seat("--declarer", a.declarer)?;
    let leader = seat("--leader", a.leader)?;
    let mut won = [0u8; 4];
    match &a.won {
        None if size == 9 => {}
        None => bail!(
            "--won is needed with hands of {size} cards: the tricks won by each seat (summing to {})",
            9 - size
        ),
        Some(w) => {
            let v: Vec<&str> = w.split(',').map(str::trim).collect();
            if v.len() != n {
                bail!("bad --won `{w}`: expected {n} counts, one per hand, like 1,2,0");
            }
            for (i, t) in v.iter().enumerate() {
                won[i] = t.parse().map_err(|_| anyhow::anyhow!("bad --won `{w}`: `{t}` is not a count"))?;
                if active & (1 << i) == 0 && won[i] != 0 {
                    bail!("bad --won `{w}`: seat {i} sits out: it wins no trick");
                }
            }
            let sum: u32 = won.iter().map(|&x| u32::from(x)).sum();
            if sum + size != 9 {
                bail!(
                    "bad --won `{w}`: the counts sum to {sum}, but {size}-card hands leave {} tricks played",
                    9 - size
                );
            }
        }
    }
    let mut state = PlayState::with_seats(hands, trump, leader, active);
    state.tricks = won;
    state.tricks_done = won.iter().sum();
    Ok(Problem { state, declarer, goal })
}

/// Runs `tresillo solve`: one line per legal card of the leader, `CARD CLASS`,
/// then `value: CLASS`, in the classes of the goal.
pub fn run(a: &SolveArgs, out: &mut impl Write) -> Result<()> {
    let pb = problem(a)?;
    let ps = &pb.state;
    if pb.goal == Goal::Spanish && ps.hands[3].is_empty() && ps.hands[..3].iter().all(|h| !h.is_empty()) {
        // Seats 0, 1 and 2 play, with trumps: the fast solver, in its card order.
        if let Some(trump) = ps.trump {
            let h = [ps.hands[0], ps.hands[1], ps.hands[2]];
            let won = [ps.tricks[0], ps.tricks[1], ps.tricks[2]];
            let pos = Position::new(h, trump, pb.declarer, ps.leader, &[], won).context("bad position")?;
            let sol = SolverContext::new().solve(&pos);
            for (c, v) in sol.cards() {
                writeln!(out, "{c} {v}")?;
            }
            writeln!(out, "value: {}", sol.value)?;
            return Ok(());
        }
    }
    let mut solvers = Solvers::new();
    for c in ps.legal_moves().iter() {
        let v = solvers.card_value(ps, c, pb.declarer, pb.goal);
        writeln!(out, "{c} {}", class_name(pb.goal, v))?;
    }
    writeln!(out, "value: {}", class_name(pb.goal, solvers.value(ps, pb.declarer, pb.goal)))?;
    Ok(())
}
