//! Checks a [`HandResult`] before it is scored: the seats, the dealer's turn, the
//! trick counts, the outcome and the flags must hold together.

use super::common::{LedgerConfig, ScoringError, is_active, outcome_of, same_result};
use crate::card::Seat;
use crate::game::{Contract, Outcome, PuestaKind};
use crate::result::HandResult;
use crate::rules::Rules;
use crate::table::Table;

/// A result that passed the checks, reduced to what scoring needs.
#[derive(Clone, Copy, Debug)]
pub(super) enum Checked {
    /// Nobody played.
    Cancelled,
    /// A hand with a declarer.
    Played {
        /// The declarer who won the auction (or penetró, or was forced).
        declarer: Seat,
        /// The declarer gave up.
        surrendered: bool,
        /// Who took over after the surrender.
        takeover: Option<Seat>,
    },
}

fn inconsistent(msg: &'static str) -> ScoringError {
    ScoringError::Inconsistent(msg)
}

/// What every scoring system checks first: the contract is one the rule set
/// plays (with its options), and the winners of the tricks, when given, are seats
/// at the table and add up to the trick counts.
pub(super) fn check_shared(cfg: &LedgerConfig, r: &HandResult) -> Result<(), ScoringError> {
    let rules = Rules { set: cfg.rules, options: cfg.options };
    if let Some(c) = r.contract
        && (!rules.spec().contracts.contains(&c) || !rules.has_contract(c))
    {
        return Err(ScoringError::NoSuchContract { contract: c, rules: cfg.rules });
    }
    if !r.trick_winners.is_empty() {
        let mut count = [0u8; 4];
        for &w in &r.trick_winners {
            if w.0 >= cfg.players {
                return Err(ScoringError::UnknownSeat {
                    role: "trick winner",
                    seat: w,
                    last: cfg.players - 1,
                });
            }
            count[w.index()] = count[w.index()].saturating_add(1);
        }
        if count != r.tricks.0 {
            return Err(inconsistent("the winners of the tricks do not match the trick counts"));
        }
    }
    Ok(())
}

/// A result being checked, with what the checks share.
struct Hand<'a> {
    cfg: &'a LedgerConfig,
    r: &'a HandResult,
    table: Table,
    dealer: Seat,
    /// The tricks the result counts, and whether it counts any.
    total: u32,
    recorded: bool,
}

impl Hand<'_> {
    fn active(&self, s: Seat) -> bool {
        is_active(self.table, self.dealer, self.r.penetro, s)
    }

    /// A hand without a declarer: cancelled, with nothing played.
    fn check_cancelled(&self) -> Result<Checked, ScoringError> {
        let (cfg, r) = (self.cfg, self.r);
        if !matches!(r.outcome, Outcome::Cancelled) {
            return Err(inconsistent("a hand without a declarer must be cancelled"));
        }
        if self.table.penetro {
            return Err(inconsistent(
                "a four-player hand is never cancelled: when all pass and nobody holds the espada, the dealer penetra",
            ));
        }
        if cfg.rules.spec().always_played {
            return Err(inconsistent(
                "a hand of this rule set is never cancelled: when all pass somebody must play an entrada",
            ));
        }
        if r.contract.is_some()
            || self.recorded
            || r.surrender.is_some()
            || r.penetro
            || r.forced
            || r.primeras
            || r.bola_attempted
            || r.bola_made
        {
            return Err(inconsistent(
                "a cancelled hand has no contract, tricks, surrender, penetro, primeras or bola",
            ));
        }
        Ok(Checked::Cancelled)
    }

    /// Penetro and the inactive dealer, for the declarer `d`.
    fn check_declarer(&self, d: Seat) -> Result<(), ScoringError> {
        let (cfg, r, dealer) = (self.cfg, self.r, self.dealer);
        if r.penetro {
            if !self.table.penetro {
                return Err(inconsistent("a penetro is played only at a table of four"));
            }
            if d != dealer {
                return Err(inconsistent("in a penetro the dealer is the declarer"));
            }
            if !matches!(r.contract, None | Some(Contract::Entrada)) {
                return Err(inconsistent("a penetro is played as an entrada: the dealer names trumps"));
            }
            if r.forced {
                return Err(inconsistent("a penetro is not an espada forzada"));
            }
        } else {
            if !self.active(d) {
                return Err(ScoringError::InactiveDealer { seat: d, role: "declarer" });
            }
            if r.contract.is_none() {
                return Err(inconsistent("a hand with a declarer needs its contract"));
            }
            if r.forced && r.contract != Some(Contract::Entrada) {
                return Err(inconsistent("an espada forzada is an entrada"));
            }
            if r.gascarille && !(r.forced && cfg.game_rules().gascarille()) {
                return Err(inconsistent(
                    "a gascarille is forced after all pass, under the option `gascarille`",
                ));
            }
            if r.vole_declared && !(r.bola_attempted && cfg.rules.spec().declared_vole) {
                return Err(inconsistent("a declared vole is played for all nine tricks (bola_attempted)"));
            }
        }
        if self.recorded {
            for s in (0..cfg.players).map(Seat) {
                if r.tricks[s] > 0 && !self.active(s) {
                    return Err(ScoringError::InactiveDealer { seat: s, role: "winner of a trick" });
                }
            }
            let opponents_with_tricks =
                (0..cfg.players).map(Seat).filter(|&s| s != d && r.tricks[s] > 0).count();
            if r.penetro
                && opponents_with_tricks == 3
                && !(cfg.penetro_all_play || cfg.game_rules().penetro_all_play())
            {
                return Err(inconsistent(
                    "three opponents hold tricks in a penetro, but one drops out unless the session \
                     declares penetro_all_play (RULES.md section 12.2)",
                ));
            }
        }
        Ok(())
    }

    /// Surrender and takeover, for the declarer `d`: (surrendered, who took over).
    fn check_surrender(&self, d: Seat) -> Result<(bool, Option<Seat>), ScoringError> {
        let (cfg, r) = (self.cfg, self.r);
        let Some(sr) = r.surrender else { return Ok((false, None)) };
        if sr.by != d {
            return Err(inconsistent("only the declarer can give up"));
        }
        if r.contract.is_some_and(|c| !c.may_surrender()) || r.vole_declared {
            return Err(inconsistent("a solo, a contrabola or a declared vole cannot be given up"));
        }
        if let Some(o) = sr.took_over {
            if r.penetro {
                return Err(inconsistent(
                    "a penetro can be given up only at once, before play, and nobody takes it over",
                ));
            }
            if o == d {
                return Err(inconsistent("the declarer cannot take over their own hand"));
            }
            let rules = Rules { set: cfg.rules, options: cfg.options };
            if r.contract.is_some_and(|c| !rules.takeover_allowed(c)) {
                return Err(inconsistent("this rule set allows no takeover of this contract"));
            }
            if !self.active(o) {
                return Err(ScoringError::InactiveDealer { seat: o, role: "player who took over" });
            }
        }
        Ok((true, sr.took_over))
    }

    /// Trick counts, primeras and bola, for `fin` who played the hand out.
    fn check_tricks(&self, fin: Seat, gave_up: bool) -> Result<(), ScoringError> {
        let (cfg, r, recorded) = (self.cfg, self.r, self.recorded);
        let all = cfg.rules.spec().tricks;
        let expected_total = if gave_up && r.penetro {
            0
        } else if gave_up {
            3
        } else if r.primeras {
            5
        } else {
            all
        };
        if recorded && self.total != u32::from(expected_total) {
            return Err(ScoringError::TrickTotal { got: self.total, expected: expected_total });
        }
        if (r.estuche && r.contra_estuche) || (r.final_estuche && r.final_contra_estuche) {
            return Err(inconsistent("a declarer cannot hold all and none of the estuche"));
        }

        // Primeras and bola.
        if r.primeras && r.bola_attempted {
            return Err(inconsistent("primeras (stop after five) and bola (play on) exclude each other"));
        }
        if r.bola_made && !r.bola_attempted {
            return Err(inconsistent("bola made without playing on for it"));
        }
        // A vole declared before the first trick (`hombre`) needs no five tricks first.
        let played_on = r.bola_attempted && !r.vole_declared;
        if (r.primeras || played_on) && !matches!(r.outcome, Outcome::Sacado) {
            return Err(inconsistent("primeras and bola need the first five tricks, a won hand"));
        }
        if recorded {
            if (r.primeras || played_on) && r.tricks[fin] < 5 {
                return Err(inconsistent("primeras and bola need the declarer's first five tricks"));
            }
            if r.bola_attempted && r.bola_made != (r.tricks[fin] == all) {
                return Err(inconsistent("a bola is made exactly when the declarer takes all nine tricks"));
            }
            if !gave_up
                && r.tricks[fin] == all
                && !r.bola_attempted
                && r.contract != Some(Contract::Contrabola)
            {
                return Err(inconsistent(
                    "nine tricks for the declarer are a bola made (RULES.md section 6: the first five won, \
                     then played on): set bola_attempted and bola_made",
                ));
            }
        }
        if (r.primeras || played_on)
            && r.trick_winners.len() >= 5
            && r.trick_winners[..5].iter().any(|&w| w != fin)
        {
            return Err(inconsistent(
                "primeras and bola need the declarer's first five tricks, and trick_winners gives one of them \
                 to another player",
            ));
        }
        Ok(())
    }

    /// The outcome, for `fin` who played the hand out.
    fn check_outcome(&self, fin: Seat, gave_up: bool) -> Result<(), ScoringError> {
        let r = self.r;
        let surrendered_puesta = Outcome::Puesta { kind: PuestaKind::Surrendered };
        if gave_up {
            if r.outcome != surrendered_puesta {
                return Err(ScoringError::OutcomeMismatch { given: r.outcome, expected: surrendered_puesta });
            }
            return Ok(());
        }
        if let Outcome::Codillo { winner } = r.outcome {
            if winner == fin {
                return Err(inconsistent("the codillo winner must be an opponent of the declarer"));
            }
            if !self.active(winner) {
                return Err(ScoringError::InactiveDealer { seat: winner, role: "codillo winner" });
            }
        }
        if self.recorded {
            let expected = if r.contract == Some(Contract::Contrabola) {
                r.game_rules().outcome(r.contract, r.tricks[fin], &[])
            } else {
                outcome_of(self.table, self.dealer, fin, r.penetro, &r.tricks)
            };
            let agrees = if r.penetro { same_result(r.outcome, expected) } else { r.outcome == expected };
            if !agrees {
                return Err(ScoringError::OutcomeMismatch { given: r.outcome, expected });
            }
        } else if r.outcome == surrendered_puesta {
            return Err(inconsistent(
                "a puesta is `surrendered` only when the declarer gave up and nobody took over",
            ));
        }
        Ok(())
    }
}

/// The table, the rules and every seat the result names; the dealer, in turn
/// after `last_dealer`.
fn check_seats(cfg: &LedgerConfig, last_dealer: Option<Seat>, r: &HandResult) -> Result<Seat, ScoringError> {
    let n = cfg.players;
    if r.players != n {
        return Err(ScoringError::WrongTable { expected: n, got: r.players });
    }
    if r.rules != cfg.rules {
        return Err(ScoringError::WrongRules { expected: cfg.rules, got: r.rules });
    }
    if r.options != cfg.options {
        return Err(inconsistent("the result was played with other rule options than the ledger's"));
    }
    check_shared(cfg, r)?;
    let seat = |role: &'static str, s: Seat| {
        if s.0 < n { Ok(s) } else { Err(ScoringError::UnknownSeat { role, seat: s, last: n - 1 }) }
    };
    let dealer = seat("dealer", r.dealer)?;
    if let Some(last) = last_dealer {
        let expected = last.next(n);
        if dealer != expected {
            return Err(ScoringError::DealerOutOfTurn { expected, got: dealer });
        }
    }
    for (i, &t) in r.tricks.0.iter().enumerate() {
        if t > 0 {
            seat("trick winner", Seat(i as u8))?;
        }
    }
    for &w in &r.trick_winners {
        seat("trick winner", w)?;
    }
    if let Some(sr) = r.surrender {
        seat("player who gave up", sr.by)?;
        if let Some(o) = sr.took_over {
            seat("player who took over", o)?;
        }
    }
    if let Outcome::Codillo { winner } = r.outcome {
        seat("codillo winner", winner)?;
    }
    if let Some(d) = r.declarer {
        seat("declarer", d)?;
    }
    Ok(dealer)
}

pub(super) fn check(
    cfg: &LedgerConfig,
    last_dealer: Option<Seat>,
    r: &HandResult,
) -> Result<Checked, ScoringError> {
    let dealer = check_seats(cfg, last_dealer, r)?;
    let total: u32 = r.tricks.0.iter().map(|&t| u32::from(t)).sum();
    let hand = Hand { cfg, r, table: cfg.table(), dealer, total, recorded: total > 0 };
    let Some(d) = r.declarer else {
        return hand.check_cancelled();
    };
    if matches!(r.outcome, Outcome::Cancelled) {
        return Err(inconsistent("a cancelled hand has no declarer"));
    }
    hand.check_declarer(d)?;
    let (surrendered, takeover) = hand.check_surrender(d)?;
    let fin = takeover.unwrap_or(d);
    let gave_up = surrendered && takeover.is_none();
    hand.check_tricks(fin, gave_up)?;
    hand.check_outcome(fin, gave_up)?;
    Ok(Checked::Played { declarer: d, surrendered, takeover })
}
