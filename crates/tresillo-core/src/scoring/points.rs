//! The [`PointsLedger`]: points scoring of the `hombre` rule set (RULES.md section
//! 12.3), and the facts of a `hombre` hand that points and chips share.

use super::common::{HandScore, LedgerConfig, ScoringError};
use super::validate::{Checked, check};
use crate::card::{BySeat, Seat};
use crate::game::{Contract, Outcome};
use crate::result::HandResult;
use crate::rules::{Rules, ScoringSystem};
use crate::table::Table;
use crate::tables::table;

/// The base value of a `hombre` game in points: obligation 1, gascarille 3, simple
/// game 2, vuelta 3, solo 5; a contrabola is scored as a simple game (2).
#[must_use]
pub fn hombre_base(r: &HandResult) -> i64 {
    match r.contract {
        _ if r.gascarille => 3,
        Some(Contract::Entrada) if r.forced => 1,
        // The L'Hombre contracts are never played under hombre.
        Some(
            Contract::Entrada
            | Contract::Contrabola
            | Contract::GrandTourne
            | Contract::Nolo
            | Contract::PureNolo
            | Contract::NoloOuvert,
        )
        | None => 2,
        Some(Contract::Vuelta) => 3,
        Some(Contract::Solo) => 5,
    }
}

/// Whether the final declarer won 4-3-2 (*cuatro*).
fn cuatro(r: &HandResult, fin: Seat) -> bool {
    let mut opp: Vec<u8> = (0..r.players).map(Seat).filter(|&s| s != fin).map(|s| r.tricks[s]).collect();
    opp.sort_unstable();
    r.tricks[fin] == 4 && opp == [2, 3]
}

/// How a `hombre` hand ended for its final declarer, as the ledgers pay it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Game {
    /// Won; with the vole made when `vole`.
    Won {
        /// All nine tricks.
        vole: bool,
    },
    /// Won as the contract, then the vole (played on, not declared) failed.
    FailedVole,
    /// Lost: a puesta (or a surrender, or a failed declared vole without a
    /// codillo), or a codillo won by `winner`.
    Lost {
        /// The codillo winner.
        winner: Option<Seat>,
    },
}

pub(crate) fn game_of(r: &HandResult) -> Game {
    match r.outcome {
        _ if r.vole_declared && !r.bola_made => Game::Lost {
            winner: if let Outcome::Codillo { winner } = r.outcome { Some(winner) } else { None },
        },
        Outcome::Sacado if r.bola_attempted && !r.bola_made => Game::FailedVole,
        Outcome::Sacado => Game::Won { vole: r.bola_made },
        Outcome::Codillo { winner } => Game::Lost { winner: Some(winner) },
        Outcome::Puesta { .. } | Outcome::Cancelled => Game::Lost { winner: None },
    }
}

/// The two opponents of `d`, the one earlier in turn order from mano first.
pub(crate) fn opponents_by_priority(players: u8, dealer: Seat, d: Seat) -> [Seat; 2] {
    let mano = dealer.next(players);
    let mut o = [d.next(players), d.plus(2, players)];
    let prio = |s: Seat| (s.0 + players - mano.0) % players;
    o.sort_by_key(|&s| prio(s));
    o
}

/// The top trumps in unbroken sequence from the espada held by `d` when play
/// began (counted when at least three), or, when `d` held none of the estuche,
/// the sequence held by the other players together (at least three); 0 without
/// trumps or without the hands (a result typed in at a table).
#[must_use]
pub fn estuches(r: &HandResult, d: Seat) -> i64 {
    let (Some(hands), Some(_)) = (r.hands_at_play, r.trump) else { return 0 };
    let t = table(r.trump);
    let mine = hands[d];
    let others =
        (0..r.players).map(Seat).filter(|&s| s != d).fold(crate::CardSet::EMPTY, |a, s| a | hands[s]);
    let holder = if (mine & t.estuche).is_empty() { others } else { mine };
    let run = t.trump_order[..t.num_trumps as usize].iter().take_while(|c| holder.contains(**c)).count();
    if run >= 3 { run as i64 } else { 0 }
}

/// The score of a `hombre` session in points (RULES.md section 12.3): each
/// player's points and the pot column.
///
/// A won game adds its value to the declarer: the base value (obligation 1,
/// gascarille 3, simple 2, vuelta 3, solo 5), doubled for *cuatro* (won 4-3-2) or
/// primeras, x4 for the vole, x8 for a declared vole, doubled again with coins as
/// trumps under `favorito`. A lost game subtracts the base (x8 for a failed
/// declared vole); a codillo adds it to the winner, a puesta to the pot. A failed
/// vole that was not declared is won as the contract and then loses base x4 (a
/// solo so won still takes the pot). The pot goes to the next declarer who wins a
/// solo or the vole. A takeover is scored
/// for the new declarer as if they had bid the contract, and the original declarer
/// loses the base as for a puesta.
///
/// Engine choices where RULES.md is silent:
/// - **A takeover** is scored for the new declarer with the base value of the
///   contract as played (an obligation taken over stays worth 1), and the bonuses
///   (cuatro, primeras, vole) count the tricks of the whole hand.
/// - **A failed declared vole** that still wins the most tricks is a lost game
///   without a winner: base x8 off, nothing to the pot (only a puesta feeds it);
///   one that ends in a puesta puts its x8 in the pot.
/// - **Cuatro** needs exactly 4-3-2, the declarer's 4 first; primeras and the vole
///   exclude it.
/// - **A contrabola** won (no trick) scores 2 (a simple game without doublings);
///   lost, 2 to the pot.
///
/// [`HandScore::condiciones`] holds each seat's points from the game,
/// [`HandScore::pool`] what each seat took from the pot, [`HandScore::aip`] the
/// game's base value (doubled in the favoured suit).
///
/// With [`LedgerConfig::deals`] set, the hand of that number ends the session: what
/// is left in the pot goes to the winner of that hand (the declarer who won, or
/// the codillo winner), or, when it was lost otherwise (a puesta, a surrender, a
/// failed declared vole), is shared between the final declarer's two opponents,
/// rounded down, the odd point to the one earlier in turn order from mano (an
/// engine choice for "earlier"). Then the ledger takes no more hands.
///
/// ```
/// use tresillo_core::{table_result, Contract, LedgerConfig, PointsLedger, RuleSet, Rules, Seat};
///
/// let mut config = LedgerConfig::with_rules(Rules::from(RuleSet::HOMBRE), 3);
/// config.deals = 2;
/// let mut points = PointsLedger::new(config)?;
/// let mut r = table_result(3, Seat(0), Seat(1), Contract::Vuelta, &[3, 3, 3]);
/// r.rules = RuleSet::HOMBRE;
/// let s = points.apply(&r)?; // a puesta: -3, and 3 to the pot
/// assert_eq!((s.condiciones.0[1], points.pot()), (-3, 3));
/// let mut r = table_result(3, Seat(1), Seat(2), Contract::Solo, &[2, 2, 5]);
/// r.rules = RuleSet::HOMBRE;
/// let s = points.apply(&r)?; // a won solo: +5, and the pot
/// assert_eq!((s.condiciones.0[2], s.pool.0[2]), (5, 3));
/// assert_eq!(points.scores(), &[0, -3, 8]);
/// # Ok::<(), tresillo_core::ScoringError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PointsLedger {
    config: LedgerConfig,
    scores: BySeat<i64>,
    pot: i64,
    hands: u32,
    last_dealer: Option<Seat>,
}

impl PointsLedger {
    /// A ledger at the start of a session: every score 0, the pot empty. Refuses a
    /// rule set not scored by points.
    pub fn new(config: LedgerConfig) -> Result<PointsLedger, ScoringError> {
        if config.table() != Table::THREE {
            return Err(ScoringError::Players(config.players));
        }
        if config.rules.spec().scoring != ScoringSystem::Points {
            return Err(ScoringError::System { rules: config.rules, ledger: "points" });
        }
        Ok(PointsLedger { config, scores: BySeat::default(), pot: 0, hands: 0, last_dealer: None })
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &LedgerConfig {
        &self.config
    }

    /// Every player's points, in seat order.
    #[must_use]
    pub fn scores(&self) -> &[i64] {
        &self.scores.0[..self.config.players as usize]
    }

    /// The pot column.
    #[must_use]
    pub fn pot(&self) -> i64 {
        self.pot
    }

    /// Hands scored so far.
    #[must_use]
    pub fn hands(&self) -> u32 {
        self.hands
    }

    /// The seat that must deal the next hand, once a hand has been scored.
    #[must_use]
    pub fn next_dealer(&self) -> Option<Seat> {
        self.last_dealer.map(|d| d.next(self.config.players))
    }

    /// Whether the session of [`LedgerConfig::deals`] hands is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.config.deals > 0 && self.hands >= self.config.deals
    }

    /// Scores one hand. An invalid result (or one after the last deal) is rejected
    /// and the ledger left unchanged.
    pub fn apply(&mut self, r: &HandResult) -> Result<HandScore, ScoringError> {
        if self.is_over() {
            return Err(ScoringError::SessionOver(self.config.deals));
        }
        let checked = check(&self.config, self.last_dealer, r)?;
        let hand = self.hands + 1;
        let mut s = HandScore::new(hand, r.dealer);
        let rules = Rules { set: self.config.rules, options: self.config.options };
        let mut hand_winner: Result<Seat, Seat> = Err(r.dealer);
        if let Checked::Played { declarer: d, surrendered, takeover } = checked {
            let base = hombre_base(r) * (1 + i64::from(rules.favoured(r.trump)));
            s.aip = base;
            let fin = takeover.unwrap_or(d);
            if surrendered {
                // The one who gave up loses the base as for a puesta.
                s.condiciones[d] -= base;
                self.pot += base;
            }
            if !surrendered || takeover.is_some() {
                let game = game_of(r);
                let ones = if r.vole_declared { 8 } else { 1 };
                match game {
                    Game::Won { vole } => {
                        let mult = if vole && r.vole_declared {
                            8
                        } else if vole {
                            4
                        } else if r.primeras || cuatro(r, fin) {
                            2
                        } else {
                            1
                        };
                        s.condiciones[fin] += base * mult;
                        if vole || r.contract == Some(Contract::Solo) {
                            s.pool[fin] += self.pot;
                            self.pot = 0;
                        }
                        hand_winner = Ok(fin);
                    }
                    Game::FailedVole => {
                        s.condiciones[fin] += base - 4 * base;
                        // Won as the contract: a solo so won takes the pot.
                        if r.contract == Some(Contract::Solo) {
                            s.pool[fin] += self.pot;
                            self.pot = 0;
                        }
                        hand_winner = Ok(fin);
                    }
                    Game::Lost { winner } => {
                        s.condiciones[fin] -= base * ones;
                        match winner {
                            Some(w) => {
                                s.condiciones[w] += base * ones;
                                hand_winner = Ok(w);
                            }
                            None => {
                                if matches!(r.outcome, Outcome::Puesta { .. }) {
                                    self.pot += base * ones;
                                }
                                hand_winner = Err(fin);
                            }
                        }
                    }
                }
            } else {
                hand_winner = Err(d);
            }
        }
        self.hands = hand;
        self.last_dealer = Some(r.dealer);
        if self.is_over() && self.pot > 0 {
            match hand_winner {
                Ok(w) => s.pool[w] += self.pot,
                Err(loser) => {
                    let [a, b] = opponents_by_priority(r.players, r.dealer, loser);
                    s.pool[a] += self.pot - self.pot / 2;
                    s.pool[b] += self.pot / 2;
                }
            }
            self.pot = 0;
        }
        for x in 0..r.players as usize {
            self.scores.0[x] += s.condiciones.0[x] + s.pool.0[x];
        }
        Ok(s)
    }
}
