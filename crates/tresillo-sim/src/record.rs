//! Game records: one finished hand with everything needed to replay it, checked on
//! load. The CLI writes one record per line (JSON Lines); the format is documented
//! in `docs/RECORDS.md`.
//!
//! A record holds the rule set and options, the seeds, the deal, the dealer, every
//! decision in order with its seat, and the [`HandResult`]. [`HandRecord::replay`]
//! plays the decisions again on a fresh [`Hand`]: every decision must be legal and
//! by the seat whose turn it is, the hand must end exactly with the last decision,
//! and the result derived again must equal the stored one.
//!
//! The seats' generators of a tournament hand are
//! `seat_rngs(seating_rng_seed(deal_seed, seating index))`, the one function the runner
//! and `replay --deal-seed` share, so a deals.csv row replays exactly; `play_recorded`
//! plays a hand and records it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tresillo_agents::{AgentError, AgentRng, BiddingCovers, TablePlayer, play_hand_with, splitmix64};
use tresillo_core::{Deal, Decision, Hand, HandError, HandResult, RuleSet, Seat};

/// The format version written in every record. A reader refuses other versions.
pub const RECORD_FORMAT: u32 = 1;

/// One decision as a record stores it: `{"seat": 1, "play": "7C"}`. Read
/// strictly: the seat and exactly one kind of decision, nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// Who decided.
    pub seat: Seat,
    /// What they decided, in the record's words ([`Decision`]'s serde form: the
    /// key names the kind, the value the choice).
    #[serde(flatten)]
    pub act: Decision,
}

impl<'de> Deserialize<'de> for Step {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Step, D::Error> {
        use serde::de::Error;
        let mut map = serde_json::Map::deserialize(d)?;
        let seat = map.remove("seat").ok_or_else(|| D::Error::missing_field("seat"))?;
        let seat = Seat::deserialize(seat).map_err(D::Error::custom)?;
        if map.len() != 1 {
            let keys: Vec<&str> = map.keys().map(String::as_str).collect();
            return Err(D::Error::custom(format_args!(
                "a decision is its seat and one kind of decision (such as `play`), not {}",
                if keys.is_empty() { "none".to_string() } else { format!("`{}`", keys.join("`, `")) }
            )));
        }
        let act = Decision::deserialize(serde_json::Value::Object(map)).map_err(D::Error::custom)?;
        Ok(Step { seat, act })
    }
}

/// Where a hand of a tournament came from: enough to find its row in `deals.csv`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentOrigin {
    /// The run's master seed.
    pub master_seed: u64,
    /// The deal index in the run.
    pub deal: u64,
    /// The seating (`deals.csv` column `seating`), for example `120`.
    pub seating: String,
}

/// A finished hand with every decision, as one line of a record file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandRecord {
    /// [`RECORD_FORMAT`].
    pub format: u32,
    /// The rule set.
    pub rules: RuleSet,
    /// Rule options (RULES.md section 12.5) not at their defaults, as typed
    /// (`palo_de_favor = "oros"`); a reader refuses an option the rule set does not
    /// have.
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// Seats at the table.
    pub players: u8,
    /// The deal's seed, when the deal came from one (`tresillo deal --seed`).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The seed of the seats' generators (`seat_rngs`), when bots played.
    #[serde(default)]
    pub rng_seed: Option<u64>,
    /// The tournament deal and seating this hand was, if it was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentOrigin>,
    /// Who sat in each seat: an agent spec, or `human`.
    pub agents: Vec<String>,
    /// The agent that made every seat's bidding-phase decisions (tournament
    /// `--bidding`), if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bidding: Option<String>,
    /// The deal, in notation.
    pub deal: Deal,
    /// The dealer.
    pub dealer: Seat,
    /// Every decision, in order.
    pub decisions: Vec<Step>,
    /// The result.
    pub result: HandResult,
    /// Which decisions `bidding` made: absent for the bidding phase, `"all"`
    /// for every decision but card play (tournament `--bidding-covers all`).
    #[serde(
        default,
        skip_serializing_if = "BiddingCovers::is_default",
        with = "crate::config::covers_serde"
    )]
    pub bidding_covers: BiddingCovers,
}

/// A record that does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Another format version.
    #[error("record format {0} is not supported (this tool reads format {RECORD_FORMAT})")]
    Format(u32),
    /// A rule option this tool does not know.
    #[error("unknown rule option `{0}` for rule set {1}")]
    UnknownOption(String, RuleSet),
    /// Not one agent per seat.
    #[error("{got} agents for {players} seats")]
    Agents {
        /// Agents listed.
        got: usize,
        /// Seats.
        players: u8,
    },
    /// The deal, dealer or table cannot start a hand.
    #[error("{0}")]
    Setup(HandError),
    /// A decision by a seat whose turn it was not.
    #[error("decision {index}: by seat {got}, but it is seat {expected}'s turn")]
    WrongSeat {
        /// The decision's position (1-based).
        index: usize,
        /// The seat in the record.
        got: Seat,
        /// The seat whose turn it was.
        expected: Seat,
    },
    /// A decision after the hand was over.
    #[error("decision {index}: the hand is already over")]
    AfterEnd {
        /// The decision's position (1-based).
        index: usize,
    },
    /// An illegal decision.
    #[error("decision {index} (seat {seat}): {source}")]
    Illegal {
        /// The decision's position (1-based).
        index: usize,
        /// Its seat.
        seat: Seat,
        /// Why the hand refused it.
        source: HandError,
    },
    /// The decisions stop before the hand is over.
    #[error("the hand is not over after its {0} decisions (truncated record?)")]
    Unfinished(usize),
    /// The record's `seed` deals other cards than its `deal`.
    #[error("its seed {seed} deals other cards than its `deal` (the seed of another deal?)")]
    SeedMismatch {
        /// The seed the record names.
        seed: u64,
    },
    /// The stored result is not the one the decisions give.
    #[error("the stored result disagrees with the replay in: {0}")]
    ResultMismatch(String),
}

impl HandRecord {
    /// A record of a finished hand (format [`RECORD_FORMAT`], no options, no seeds).
    #[must_use]
    pub fn new(
        rules: RuleSet,
        deal: Deal,
        dealer: Seat,
        agents: Vec<String>,
        decisions: Vec<Step>,
        result: HandResult,
    ) -> HandRecord {
        HandRecord {
            format: RECORD_FORMAT,
            rules,
            options: BTreeMap::new(),
            players: result.players,
            seed: None,
            rng_seed: None,
            tournament: None,
            agents,
            bidding: None,
            deal,
            dealer,
            decisions,
            result,
            bidding_covers: BiddingCovers::Bidding,
        }
    }

    /// The hand before its first decision.
    pub fn start(&self) -> Result<Hand, RecordError> {
        if self.format != RECORD_FORMAT {
            return Err(RecordError::Format(self.format));
        }
        let rules = self.game_rules()?;
        if self.agents.len() != usize::from(self.players) {
            return Err(RecordError::Agents { got: self.agents.len(), players: self.players });
        }
        // An informational field is still checked: the seed must deal these cards.
        if let Some(seed) = self.seed
            && crate::seeds::deal_for_seed(seed).seated(rules.table(self.players), self.dealer) != self.deal
        {
            return Err(RecordError::SeedMismatch { seed });
        }
        Hand::with_rules(rules, self.players, self.deal, self.dealer).map_err(RecordError::Setup)
    }

    /// The rule set with the record's options; an option the rule set does not have
    /// is [`RecordError::UnknownOption`].
    pub fn game_rules(&self) -> Result<tresillo_core::Rules, RecordError> {
        let mut rules = tresillo_core::Rules::from(self.rules);
        for (k, v) in &self.options {
            rules.set_option(k, v).map_err(|_| RecordError::UnknownOption(k.clone(), self.rules))?;
        }
        Ok(rules)
    }

    /// Records the options of `rules` (those not at their defaults).
    pub fn set_rules(&mut self, rules: &tresillo_core::Rules) {
        self.rules = rules.set;
        self.options = rules.set_options().into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    }

    /// Plays the decisions again from the deal and checks everything: each decision
    /// is legal and by the seat to act, the hand ends with the last one, and the
    /// result equals the stored one. Returns the finished hand.
    pub fn replay(&self) -> Result<Hand, RecordError> {
        self.replay_with(|_, _| {})
    }

    /// [`HandRecord::replay`] that also reports each decision with the hand before it
    /// (for narration and analysis). `observe` sees only decisions that were legal.
    pub fn replay_with(&self, mut observe: impl FnMut(&Hand, &Decision)) -> Result<Hand, RecordError> {
        let mut hand = self.start()?;
        for (i, step) in self.decisions.iter().enumerate() {
            let index = i + 1;
            let expected = hand.request().seat().ok_or(RecordError::AfterEnd { index })?;
            if step.seat != expected {
                return Err(RecordError::WrongSeat { index, got: step.seat, expected });
            }
            let d = step.act;
            let before = hand;
            hand.apply(d).map_err(|source| RecordError::Illegal { index, seat: step.seat, source })?;
            observe(&before, &d);
        }
        let Some(derived) = hand.result() else {
            return Err(RecordError::Unfinished(self.decisions.len()));
        };
        let diff = differences(&self.result, &derived);
        if !diff.is_empty() {
            return Err(RecordError::ResultMismatch(diff.join(", ")));
        }
        Ok(hand)
    }
}

/// The names of the fields in which two results differ.
fn differences(a: &HandResult, b: &HandResult) -> Vec<&'static str> {
    let fields: [(&str, bool); 25] = [
        ("rules", a.rules == b.rules),
        ("players", a.players == b.players),
        ("dealer", a.dealer == b.dealer),
        ("bids", a.bids == b.bids),
        ("declarer", a.declarer == b.declarer),
        ("contract", a.contract == b.contract),
        ("trump", a.trump == b.trump),
        ("turned", a.turned == b.turned),
        ("forced", a.forced == b.forced),
        ("penetro", a.penetro == b.penetro),
        ("exchanged", a.exchanged == b.exchanged),
        ("conversation", a.conversation == b.conversation),
        ("first_opponent", a.first_opponent == b.first_opponent),
        ("tricks", a.tricks == b.tricks),
        ("trick_winners", a.trick_winners == b.trick_winners),
        ("outcome", a.outcome == b.outcome),
        ("estuche", a.estuche == b.estuche),
        ("final_estuche", a.final_estuche == b.final_estuche),
        ("primeras", a.primeras == b.primeras),
        ("bola_attempted", a.bola_attempted == b.bola_attempted),
        ("bola_made", a.bola_made == b.bola_made),
        ("surrender", a.surrender == b.surrender),
        ("deal", a.deal == b.deal),
        ("hands_at_play", a.hands_at_play == b.hands_at_play),
        ("all", a == b),
    ];
    let mut out: Vec<&str> = fields.iter().filter(|(_, same)| !same).map(|(n, _)| *n).collect();
    if out.len() > 1 {
        out.retain(|n| *n != "all");
    }
    out
}

/// Plays `hand` to the end like [`tresillo_agents::play_hand`] and returns the
/// result with every decision, ready for a [`HandRecord`].
pub fn play_recorded<P: TablePlayer>(
    hand: &mut Hand,
    agents: &mut [P],
    rngs: &mut [AgentRng],
) -> Result<(HandResult, Vec<Step>), AgentError> {
    let mut steps = Vec::with_capacity(48);
    let r = play_hand_with(hand, agents, rngs, |h, d| {
        if let Some(seat) = h.request().seat() {
            steps.push(Step { seat, act: *d });
        }
    })?;
    Ok((r, steps))
}

/// The seed of the seats' generators for a tournament hand: deal seed
/// `deal_seed` played under the seating at `seating_index` of
/// [`crate::SEATINGS`] (0 without `--duplicate`).
#[must_use]
pub const fn seating_rng_seed(deal_seed: u64, seating_index: usize) -> u64 {
    splitmix64(deal_seed ^ (seating_index as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tresillo_agents::{build_seated, seat_rngs};
    use tresillo_core::{Bid, Card, CardSet, Contract};

    fn recorded(seed: u64, specs: [&str; 3]) -> HandRecord {
        let deal = crate::deal_for_seed(seed);
        let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal, Seat((seed % 3) as u8)).unwrap();
        let mut agents: Vec<_> = specs.iter().map(|s| build_seated(s).unwrap()).collect();
        let (r, steps) = play_recorded(&mut hand, &mut agents, &mut seat_rngs(seed)).unwrap();
        let mut rec = HandRecord::new(
            RuleSet::TRESILLO,
            deal,
            hand.public().dealer,
            specs.map(String::from).to_vec(),
            steps,
            r,
        );
        rec.seed = Some(seed);
        rec
    }

    #[test]
    fn records_replay_and_survive_json() {
        for seed in 0..40 {
            let rec = recorded(seed, ["rule", "random", "rule"]);
            assert!(rec.replay().is_ok(), "seed {seed}");
            let text = serde_json::to_string(&rec).unwrap();
            let back: HandRecord = serde_json::from_str(&text).unwrap();
            assert_eq!(back, rec);
            assert!(back.replay().unwrap().is_done());
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Any hand survives JSON and replays; any strict prefix of its decisions is
        /// refused as unfinished, and removing any one decision is refused.
        #[test]
        fn recorded_hands_roundtrip_and_cuts_are_refused(seed in 0u64..u64::MAX, agents in 0usize..4, cut in 0usize..1000) {
            let specs = [["random"; 3], ["rule"; 3], ["rule", "random", "rule"], ["cheat:rollouts=2", "rule", "random"]][agents];
            let rec = recorded(seed, specs);
            let back: HandRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
            proptest::prop_assert_eq!(&back, &rec);
            proptest::prop_assert!(back.replay().is_ok());
            let n = rec.decisions.len();
            let mut short = rec.clone();
            short.decisions.truncate(cut % n);
            proptest::prop_assert_eq!(short.replay(), Err(RecordError::Unfinished(cut % n)));
            let mut gap = rec;
            gap.decisions.remove(cut % n);
            proptest::prop_assert!(gap.replay().is_err());
        }
    }

    #[test]
    fn steps_read_as_documented() {
        let s: Step = serde_json::from_str(r#"{"seat":2,"play":"7C"}"#).unwrap();
        assert_eq!(s.act, Decision::Play(tresillo_core::parse_card("7C").unwrap()));
        let s: Step = serde_json::from_str(r#"{"seat":0,"declare":{"contract":"vuelta"}}"#).unwrap();
        assert_eq!(s.act, Decision::Declare(Contract::Vuelta, None));
        let s: Step = serde_json::from_str(r#"{"seat":1,"bid":{"level":2}}"#).unwrap();
        assert_eq!(s.act, Decision::Bid(Bid::Level(2)));
        assert_eq!(
            serde_json::to_string(&Step { seat: Seat(1), act: Decision::Bid(Bid::Paso) }).unwrap(),
            r#"{"seat":1,"bid":"paso"}"#
        );
        assert_eq!(
            serde_json::to_string(&Step { seat: Seat(0), act: Decision::Discard(CardSet::EMPTY) }).unwrap(),
            r#"{"seat":0,"discard":""}"#
        );
    }

    /// Issue 34, finding 8: a record is read strictly below its top level: a key
    /// given twice anywhere, an unknown key in a decision or in the result (a
    /// renamed `final_estuche`), and a `seed` of another deal are refused.
    #[test]
    fn records_are_read_strictly_at_every_level() {
        let rec = recorded(5, ["rule", "rule", "rule"]);
        let text = serde_json::to_string(&rec).unwrap();
        let read = |t: &str| crate::json::from_str::<HandRecord>(t).map_err(|e| e.to_string());
        assert_eq!(read(&text).unwrap(), rec);
        let once = |from: &str, to: &str| {
            assert!(text.contains(from), "{from} not in {text}");
            text.replacen(from, to, 1)
        };
        let e = read(&once(r#""dealer":"#, r#""dealer":1,"dealer":"#)).unwrap_err();
        assert!(e.starts_with("duplicate key \"dealer\""), "{e}");
        let e = read(&once(r#""declarer":"#, r#""declarer":2,"declarer":"#)).unwrap_err();
        assert!(e.starts_with("duplicate key \"declarer\""), "{e}");
        let e = read(&once(r#""final_estuche":"#, r#""fifal_estuche":"#)).unwrap_err();
        assert!(e.contains("unknown field `fifal_estuche`"), "{e}");
        let e = read(&once(r#"{"seat":0,"#, r#"{"seat":0,"note":"x","#)).unwrap_err();
        assert!(e.contains("one kind of decision"), "{e}");
        let e = read(&once(r#""contract":"#, r#""x":1,"contract":"#)).unwrap_err();
        assert!(e.contains("unknown field `x`"), "{e}");
        let mut other = rec.clone();
        other.seed = Some(6);
        assert_eq!(other.replay(), Err(RecordError::SeedMismatch { seed: 6 }));
    }

    #[test]
    fn bad_records_are_refused() {
        let good = recorded(5, ["rule", "rule", "rule"]);
        let mut r = good.clone();
        r.decisions.pop();
        assert!(matches!(r.replay(), Err(RecordError::Unfinished(_))));
        let mut r = good.clone();
        r.decisions.push(r.decisions[0]);
        assert!(matches!(r.replay(), Err(RecordError::AfterEnd { .. })));
        let mut r = good.clone();
        r.decisions[0].seat = r.decisions[0].seat.next(3);
        assert!(matches!(r.replay(), Err(RecordError::WrongSeat { index: 1, .. })));
        let mut r = good.clone();
        r.decisions[0].act = Decision::Play(Card::ESPADA);
        assert!(matches!(r.replay(), Err(RecordError::Illegal { index: 1, .. })));
        let mut r = good.clone();
        r.result.tricks.0[0] += 1;
        assert_eq!(r.replay(), Err(RecordError::ResultMismatch("tricks".into())));
        let mut r = good.clone();
        r.format = 2;
        assert_eq!(r.replay(), Err(RecordError::Format(2)));
        let mut r = good.clone();
        r.options.insert("favorito".into(), "true".into());
        assert!(matches!(r.replay(), Err(RecordError::UnknownOption(..))));
        let mut r = good;
        r.agents.pop();
        assert!(matches!(r.replay(), Err(RecordError::Agents { got: 2, players: 3 })));
    }

    #[test]
    fn an_illegal_card_in_play_is_named() {
        let (good, first_play) = (0..)
            .map(|seed| recorded(seed, ["rule", "rule", "rule"]))
            .find_map(|r| {
                let at = r.decisions.iter().position(|s| matches!(s.act, Decision::Play(_)))?;
                Some((r, at))
            })
            .unwrap();
        // Replace the first card played by a card the player does not hold.
        let hand = {
            let mut h = good.start().unwrap();
            for s in &good.decisions[..first_play] {
                h.apply(s.act).unwrap();
            }
            h
        };
        let seat = good.decisions[first_play].seat;
        let foreign = hand.hand_of(seat.next(3)).first().unwrap();
        let mut r = good.clone();
        r.decisions[first_play].act = Decision::Play(foreign);
        let e = r.replay().unwrap_err();
        assert!(e.to_string().starts_with(&format!("decision {}", first_play + 1)), "{e}");
        assert!(e.to_string().contains(&foreign.to_string()), "{e}");
    }
}
