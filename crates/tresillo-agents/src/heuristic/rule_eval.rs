//! The `rule` agent's hand evaluation and its thresholds ([`RuleParams`], in tenths
//! of a trick): shared by the Spanish heuristics (rule.rs) and `lhombre`'s
//! (rule_lhombre.rs), which both import it and not each other.

use tresillo_core::tables::{TrumpTable, table};
use tresillo_core::{Card, CardSet, Rank, Suit};

/// The tunable numbers of the rule agent, in tenths of a trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleParams {
    /// Least evaluation (best trump suit, exchange included) to bid entrada.
    pub entrada: i32,
    /// Least evaluation (averaged over the suit the turned card may have) to bid
    /// vuelta.
    pub vuelta: i32,
    /// Least evaluation (best trump suit, no exchange) to bid solo.
    pub solo: i32,
    /// After three tricks the declarer gives up when its expected final tricks are
    /// below this.
    pub surrender: i32,
    /// An opponent takes over (*yo sigo*) when its expected final tricks as
    /// declarer reach this.
    pub takeover: i32,
    /// An opponent whose defensive strength reaches this asks to go first
    /// (*vienen*); ten below it says *como quiera*, lower *van*.
    pub vienen: i32,
}

impl Default for RuleParams {
    fn default() -> Self {
        RuleParams { entrada: 45, vuelta: 47, solo: 50, surrender: 28, takeover: 60, vienen: 12 }
    }
}

impl RuleParams {
    /// Parameter names, defaults and meanings (for the registry).
    pub const INFO: [(&'static str, &'static str); 6] = [
        (
            "entrada",
            "least hand evaluation (tenths of a trick, best trump, exchange included) to bid entrada",
        ),
        ("vuelta", "least hand evaluation (tenths of a trick, averaged over the turned suit) to bid vuelta"),
        ("solo", "least hand evaluation (tenths of a trick, best trump, no exchange) to bid solo"),
        ("surrender", "declarer gives up after trick 3 when expected final tricks (tenths) are below this"),
        ("takeover", "opponent says yo sigo when its expected final tricks (tenths) as declarer reach this"),
        ("vienen", "opponent strength (tenths of a trick) to ask to go first; 10 less: como quiera"),
    ];

    /// The value of a parameter by name.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<i32> {
        Some(match name {
            "entrada" => self.entrada,
            "vuelta" => self.vuelta,
            "solo" => self.solo,
            "surrender" => self.surrender,
            "takeover" => self.takeover,
            "vienen" => self.vienen,
            _ => return None,
        })
    }

    /// Sets a parameter by name; `false` if there is no such parameter.
    pub fn set(&mut self, name: &str, v: i32) -> bool {
        let slot = match name {
            "entrada" => &mut self.entrada,
            "vuelta" => &mut self.vuelta,
            "solo" => &mut self.solo,
            "surrender" => &mut self.surrender,
            "takeover" => &mut self.takeover,
            "vienen" => &mut self.vienen,
            _ => return false,
        };
        *slot = v;
        true
    }
}

const fn card(s: Suit, v: u8) -> Card {
    match Rank::new(v) {
        Some(r) => Card::new(s, r),
        None => panic!("bad rank"),
    }
}

// ---------------------------------------------------------------------------
// Hand evaluation
// ---------------------------------------------------------------------------

/// The cards a player keeps when exchanging: trumps, kings, a caballo guarded by
/// its king and a sota under king and caballo. Everything else is discarded, which
/// empties short plain suits (voids to ruff in) and draws as many fresh cards as
/// possible.
#[must_use]
pub fn keep_set(hand: CardSet, trump: Suit) -> CardSet {
    let t = table(Some(trump));
    let mut keep = hand & t.trumps;
    for s in Suit::ALL {
        if s == trump {
            continue;
        }
        let plain = hand & t.suit_mask[s.index()];
        let (k, c, j) = (card(s, 12), card(s, 11), card(s, 10));
        if plain.contains(k) {
            keep.insert(k);
            if plain.contains(c) {
                keep.insert(c);
                if plain.contains(j) {
                    keep.insert(j);
                }
            }
        }
    }
    keep
}

/// Expected tricks from the trumps `mine` (tenths): a trump with `h` higher trumps
/// missing wins with chance about `(n - h) / n` when holding `n` trumps (so the top
/// ones count fully, and length lets lower ones win once the others are drawn), and
/// every trump beyond four adds half a trick of length.
pub(crate) fn trump_value(t: &TrumpTable, mine: CardSet) -> i32 {
    let n = mine.len() as i32;
    if n == 0 {
        return 0;
    }
    let mut missing = 0;
    let mut v = 0;
    for &c in &t.trump_order[..t.num_trumps as usize] {
        if mine.contains(c) {
            v += (10 * (n - missing) / n).max(0);
        } else {
            missing += 1;
        }
    }
    v + 5 * (n - 4).max(0)
}

/// Expected tricks from the plain suits (tenths): a king is worth most of a trick
/// (less in a long suit, which the others will ruff), a caballo under its king half
/// a trick, a guarded caballo a little. With trumps to spare, voids and singletons
/// add ruffs.
pub(crate) fn side_value(t: &TrumpTable, hand: CardSet, trump: Suit) -> i32 {
    let n_tr = (hand & t.trumps).len() as i32;
    let spare = (n_tr - 2).max(0);
    let mut v = 0;
    let mut ruff = 0;
    for s in Suit::ALL {
        if s == trump {
            continue;
        }
        let plain = hand & t.suit_mask[s.index()];
        let len = plain.len() as i32;
        let (k, c, j) = (card(s, 12), card(s, 11), card(s, 10));
        if plain.contains(k) {
            v += if len <= 4 { 8 } else { 5 };
            if plain.contains(c) {
                v += 5;
                if plain.contains(j) {
                    v += 2;
                }
            }
        } else if plain.contains(c) && len >= 2 {
            v += 2;
        }
        ruff += match len {
            0 => 5,
            1 if !plain.contains(k) => 2,
            _ => 0,
        };
    }
    v + ruff.min(spare * 5)
}

/// What one card drawn from the heap is worth on average (tenths), given the
/// unseen cards: a trump is worth its rank (estuche most) plus length, a king most
/// of a trick.
fn draw_value(t: &TrumpTable, hand: CardSet, unseen: CardSet, trump: Suit) -> i32 {
    if unseen.is_empty() {
        return 0;
    }
    let n_tr = (hand & t.trumps).len() as i32;
    let mut sum = 0;
    for (i, &c) in t.trump_order[..t.num_trumps as usize].iter().enumerate() {
        if unseen.contains(c) {
            sum += match i {
                0..=2 => 9,
                3 | 4 => 6,
                _ => 3,
            } + if n_tr >= 4 { 4 } else { 2 };
        }
    }
    for s in Suit::ALL {
        if s != trump && unseen.contains(card(s, 12)) {
            sum += 7;
        }
    }
    sum / unseen.len() as i32
}

/// Hand evaluation for trumps `trump` (tenths of a trick): trumps (each trump with
/// `h` higher trumps missing counts `10 (n - h) / n` when holding `n`, plus five
/// for every trump beyond four) plus side suits (kings, caballos under their king,
/// voids and singletons to ruff in while trumps are to spare), plus, when
/// exchanging, the cards the exchange replaces ([`keep_set`] decides which) times
/// the average worth of a card drawn from the unseen ones.
#[must_use]
pub fn evaluate(hand: CardSet, unseen: CardSet, trump: Suit, exchange: bool) -> i32 {
    let t = table(Some(trump));
    let mut v = trump_value(t, hand & t.trumps) + side_value(t, hand, trump);
    if exchange {
        let d = (hand - keep_set(hand, trump)).len() as i32;
        v += d * draw_value(t, hand, unseen, trump);
    }
    v
}

/// The best trump suit and its evaluation.
pub(crate) fn best_suit(hand: CardSet, unseen: CardSet, exchange: bool) -> (Suit, i32) {
    let mut best = (Suit::Oros, i32::MIN);
    for s in Suit::ALL {
        let v = evaluate(hand, unseen, s, exchange);
        if v > best.1 {
            best = (s, v);
        }
    }
    best
}

/// Vuelta evaluation: the trump suit is the turned card's, so average the entrada
/// evaluation over the suits weighted by how many unseen cards each has; the turned
/// card is a trump drawn for sure (one trick's worth more than a random draw is
/// not: count two tenths).
#[must_use]
pub fn evaluate_vuelta(hand: CardSet, unseen: CardSet) -> i32 {
    let total = unseen.len() as i32;
    if total == 0 {
        return i32::MIN;
    }
    let mut v = 0;
    for s in Suit::ALL {
        let k = unseen.of_suit(s).len() as i32;
        if k > 0 {
            v += k * (evaluate(hand, unseen, s, true) + 2);
        }
    }
    v / total
}
