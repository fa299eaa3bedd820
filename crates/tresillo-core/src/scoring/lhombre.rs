//! The `lhombre` ledger (RULES.md section 12.4): payments straight between the
//! players, from or to each defender, by the table of
//! [`rulesets::lhombre`](crate::rulesets::lhombre).
//!
//! - **Win** (nolo: no trick): each defender pays the declarer the win/draw amount.
//! - **Draw** (nolo: one trick): the declarer pays each defender the win/draw
//!   amount.
//! - **Loss** (nolo: two or more): the declarer pays each defender the loss amount.
//! - **Tout**, paid separately (in [`HandScore::condiciones`]): made, 1 from each
//!   defender; failed, 1 to each (the contract itself is won with the first five
//!   tricks).
//! - **All pass**: the forced hand scores as game (1 and 2) whatever was named.
//!
//! There is no plato, paper or pajaritos dish; the contract payments are
//! [`HandScore::pool`].

use super::common::{ScoringError, same_result};
use crate::card::{BySeat, Seat};
use crate::game::{Contract, Outcome};
use crate::result::HandResult;
use crate::rulesets::lhombre::{TOUT, row_of};

fn inconsistent(msg: &'static str) -> ScoringError {
    ScoringError::Inconsistent(msg)
}

/// What one hand pays: `(pool, tout)` per seat, each summing to zero. A cancelled
/// hand pays nothing.
pub(super) fn payments(r: &HandResult) -> Result<(BySeat<i64>, BySeat<i64>), ScoringError> {
    let mut pool = BySeat::default();
    let mut tout = BySeat::default();
    let Some(d) = r.declarer else {
        if !matches!(r.outcome, Outcome::Cancelled) {
            return Err(inconsistent("a hand without a declarer must be cancelled"));
        }
        if !r.game_rules().redeal_all_pass() {
            return Err(inconsistent(
                "an lhombre hand is cancelled only under redeal_all_pass: otherwise the spadille's holder \
                 or the dealer must play",
            ));
        }
        return Ok((pool, tout));
    };
    if d.0 >= r.players {
        return Err(ScoringError::UnknownSeat { role: "declarer", seat: d, last: r.players - 1 });
    }
    let Some(contract) = r.contract else {
        return Err(inconsistent("a hand with a declarer needs its contract"));
    };
    if !crate::rulesets::lhombre::CONTRACTS.contains(&contract) {
        return Err(inconsistent("the contract is not one of lhombre"));
    }
    if r.surrender.is_some() || r.penetro {
        return Err(inconsistent("lhombre has no surrender and no penetro"));
    }
    if r.forced && !matches!(contract, Contract::Entrada | Contract::Vuelta) {
        return Err(inconsistent("after all passed the forced player plays game or tourné"));
    }
    let nolo = contract.is_nolo();
    if nolo && (r.trump.is_some() || r.primeras || r.bola_attempted) {
        return Err(inconsistent("a nolo has no trumps and no tout"));
    }
    if r.primeras && r.bola_attempted {
        return Err(inconsistent("stopping after five and playing for tout exclude each other"));
    }
    if r.bola_made && !r.bola_attempted {
        return Err(inconsistent("tout made without playing for it"));
    }
    let total: u32 = r.tricks.0.iter().map(|&t| u32::from(t)).sum();
    if total > 0 {
        let all = r.game_rules().spec().tricks;
        let expected = if r.primeras { 5 } else { u32::from(all) };
        if total != expected {
            return Err(ScoringError::TrickTotal { got: total, expected: expected as u8 });
        }
        if (r.primeras || r.bola_attempted) && r.tricks[d] < 5 {
            return Err(inconsistent("a tout needs the declarer's first five tricks"));
        }
        if r.bola_attempted && r.bola_made != (r.tricks[d] == all) {
            return Err(inconsistent("a tout is made exactly when the declarer takes all nine tricks"));
        }
        let defenders: Vec<(Seat, u8)> =
            (1..r.players).map(|k| d.plus(k, r.players)).map(|s| (s, r.tricks[s])).collect();
        let expected = r.game_rules().outcome(Some(contract), r.tricks[d], &defenders);
        if !same_result(r.outcome, expected) {
            return Err(ScoringError::OutcomeMismatch { given: r.outcome, expected });
        }
    }
    let row = if r.forced { row_of(Contract::Entrada, None) } else { row_of(contract, r.trump) };
    let per = match r.outcome {
        Outcome::Sacado => row.win,
        Outcome::Puesta { .. } => -row.win,
        Outcome::Codillo { .. } => -row.loss,
        Outcome::Cancelled => return Err(inconsistent("a cancelled hand has no declarer")),
    };
    let per_tout = match (r.bola_attempted, r.bola_made) {
        (false, _) => 0,
        (true, true) => TOUT,
        (true, false) => -TOUT,
    };
    for k in 1..r.players {
        let o = d.plus(k, r.players);
        pool[o] -= per;
        pool[d] += per;
        tout[o] -= per_tout;
        tout[d] += per_tout;
    }
    Ok((pool, tout))
}
