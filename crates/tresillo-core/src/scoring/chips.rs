//! The [`ChipsLedger`]: chip payments of the `hombre` rule set with the option
//! `hombre-chips` (RULES.md section 12.3).

use super::common::{HandScore, LedgerConfig, ScoringError};
use super::points::{Game, estuches, game_of};
use super::validate::{Checked, check};
use crate::card::{BySeat, Seat};
use crate::game::{Contract, Outcome};
use crate::result::HandResult;
use crate::rules::{Rules, ScoringSystem};
use crate::table::Table;

/// What each opponent pays for a won game: simple 5, vuelta 7, solo 15,
/// obligation 5, gascarille 3; a contrabola is paid as a won simple game (5).
#[must_use]
pub fn chips_contract(r: &HandResult) -> i64 {
    match r.contract {
        _ if r.gascarille => 3,
        Some(Contract::Vuelta) => 7,
        Some(Contract::Solo) => 15,
        // The L'Hombre contracts are never played under hombre.
        Some(
            Contract::Entrada
            | Contract::Contrabola
            | Contract::GrandTourne
            | Contract::Nolo
            | Contract::PureNolo
            | Contract::NoloOuvert,
        )
        | None => 5,
    }
}

/// The chips of a `hombre` session (RULES.md section 12.3): every player's chips
/// and the pool. Chips are conserved: [`ChipsLedger::tokens`] never changes.
///
/// Before every deal the dealer puts `ante` chips (option, default 5) into the
/// pool. A won game: the declarer takes the pool, and each opponent pays the
/// contract (simple 5, vuelta 7, solo 15, obligation 5, gascarille 3), plus 25 for
/// a vole made, 1 for primeras, and the estuches ([`estuches`]). A puesta: the
/// declarer pays into the pool as much as it holds plus 5 for each other player; a
/// codillo: the same amount to the winner instead; either way the declarer also
/// pays each opponent the estuches, and 1 for primeras when the opponents took the
/// first five tricks. A failed vole: the game is paid as won, then the declarer
/// pays each opponent 30 (less 2 in vuelta, 10 in solo) less the estuches.
///
/// Engine choices where RULES.md is silent:
/// - **`favorito`**: with coins as trumps the per-opponent payments and the 5 for
///   each other player of a puesta or codillo are doubled (not the pool taken or
///   matched).
/// - **A declared vole** is paid as a vole (25 made; as a failed vole when it
///   fails with the declarer still taking the most tricks, else as a puesta or
///   codillo).
/// - **A surrender** without takeover is a puesta (with the estuches). After a takeover the new
///   declarer's game is paid first, then the one who gave up pays a puesta into
///   the pool (as it then stands), without estuches or primeras.
/// - **Contrabola** is paid as a simple game won, or as a puesta.
///
/// [`HandScore::pool`] holds the ante and what goes into or out of the pool (and a
/// codillo's amount), [`HandScore::condiciones`] the payments between players,
/// [`HandScore::aip`] the pool after the ante.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChipsLedger {
    config: LedgerConfig,
    bowls: BySeat<i64>,
    pool: i64,
    hands: u32,
    last_dealer: Option<Seat>,
}

impl ChipsLedger {
    /// A ledger at the start of a session: every player holds
    /// [`LedgerConfig::start_bowl`] chips, the pool is empty. Refuses a rule set
    /// not scored by points and chips, or without `hombre-chips`.
    pub fn new(config: LedgerConfig) -> Result<ChipsLedger, ScoringError> {
        if config.table() != Table::THREE {
            return Err(ScoringError::Players(config.players));
        }
        if config.game_rules().scoring() != ScoringSystem::Chips {
            return Err(ScoringError::System { rules: config.rules, ledger: "chips" });
        }
        let mut bowls = BySeat::default();
        for b in &mut bowls.0[..3] {
            *b = config.start_bowl;
        }
        Ok(ChipsLedger { config, bowls, pool: 0, hands: 0, last_dealer: None })
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &LedgerConfig {
        &self.config
    }

    /// Every player's chips, in seat order.
    #[must_use]
    pub fn bowls(&self) -> &[i64] {
        &self.bowls.0[..3]
    }

    /// The pool.
    #[must_use]
    pub fn pool(&self) -> i64 {
        self.pool
    }

    /// Chips held plus the pool: constant over a session.
    #[must_use]
    pub fn tokens(&self) -> i64 {
        self.bowls().iter().sum::<i64>() + self.pool
    }

    /// Hands scored so far.
    #[must_use]
    pub fn hands(&self) -> u32 {
        self.hands
    }

    /// The seat that must deal the next hand, once a hand has been scored.
    #[must_use]
    pub fn next_dealer(&self) -> Option<Seat> {
        self.last_dealer.map(|d| d.next(3))
    }

    fn pay(&mut self, from: Seat, to: Seat, amount: i64, s: &mut HandScore) {
        self.bowls[from] -= amount;
        self.bowls[to] += amount;
        s.condiciones[from] -= amount;
        s.condiciones[to] += amount;
    }

    fn pay_pool(&mut self, from: Seat, amount: i64, s: &mut HandScore) {
        self.bowls[from] -= amount;
        s.pool[from] -= amount;
        self.pool += amount;
    }

    fn take_pool(&mut self, to: Seat, s: &mut HandScore) {
        self.bowls[to] += self.pool;
        s.pool[to] += self.pool;
        self.pool = 0;
    }

    /// A puesta of `d`: as much as the pool holds plus 5 (x `f`) for each other
    /// player, into the pool, or to `winner` in a codillo.
    fn puesta(&mut self, d: Seat, winner: Option<Seat>, f: i64, s: &mut HandScore) {
        let amount = self.pool + 5 * f * 2;
        match winner {
            None => self.pay_pool(d, amount, s),
            Some(w) => {
                self.bowls[d] -= amount;
                self.bowls[w] += amount;
                s.pool[d] -= amount;
                s.pool[w] += amount;
            }
        }
    }

    /// Scores one hand. An invalid result is rejected and the ledger left unchanged.
    pub fn apply(&mut self, r: &HandResult) -> Result<HandScore, ScoringError> {
        let checked = check(&self.config, self.last_dealer, r)?;
        let rules = Rules { set: self.config.rules, options: self.config.options };
        let hand = self.hands + 1;
        let mut s = HandScore::new(hand, r.dealer);
        self.pay_pool(r.dealer, rules.dealer_stake(), &mut s);
        s.aip = self.pool;
        if let Checked::Played { declarer: d, surrendered, takeover } = checked {
            let f = 1 + i64::from(rules.favoured(r.trump));
            let fin = takeover.unwrap_or(d);
            let opp = [fin.next(3), fin.plus(2, 3)];
            let est = estuches(r, fin);
            if !surrendered || takeover.is_some() {
                // A failed declared vole that still wins the most tricks is paid as a
                // failed vole (points count it as a lost game).
                let game = match game_of(r) {
                    Game::Lost { .. } if matches!(r.outcome, Outcome::Sacado) => Game::FailedVole,
                    g => g,
                };
                match game {
                    Game::Won { vole } => {
                        self.take_pool(fin, &mut s);
                        let per = chips_contract(r) + if vole { 25 } else { 0 } + i64::from(r.primeras) + est;
                        for o in opp {
                            self.pay(o, fin, per * f, &mut s);
                        }
                    }
                    Game::FailedVole => {
                        self.take_pool(fin, &mut s);
                        let back = 30
                            - match r.contract {
                                Some(Contract::Vuelta) => 2,
                                Some(Contract::Solo) => 10,
                                _ => 0,
                            };
                        for o in opp {
                            self.pay(o, fin, (chips_contract(r) + est) * f, &mut s);
                            self.pay(fin, o, (back - est) * f, &mut s);
                        }
                    }
                    Game::Lost { winner } => {
                        self.puesta(fin, winner, f, &mut s);
                        let first_five =
                            r.trick_winners.len() >= 5 && r.trick_winners[..5].iter().all(|&w| w != fin);
                        let per = est + i64::from(first_five);
                        for o in opp {
                            self.pay(fin, o, per * f, &mut s);
                        }
                    }
                }
            }
            if surrendered {
                self.puesta(d, None, f, &mut s);
                if takeover.is_none() {
                    // A surrender is the declarer's puesta: the estuches too.
                    for o in [d.next(3), d.plus(2, 3)] {
                        self.pay(d, o, est * f, &mut s);
                    }
                }
            }
        }
        self.hands = hand;
        self.last_dealer = Some(r.dealer);
        Ok(s)
    }
}
