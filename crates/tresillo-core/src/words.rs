//! What a rule set calls things when it speaks to players: the methods of
//! [`Names`] (a field of each rule set's [`RuleSpec`](crate::RuleSpec)). The
//! Spanish words are the notation of RULES.md section 13; the international ones
//! are `lhombre`'s (section 12.4), whose tables stay in `rulesets/lhombre.rs`.
//! Used by the command-line tool, the Python package and every other edge that
//! shows a hand to a person.

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::game::{Bid, Contract, Outcome};
use crate::rulesets::lhombre;
use crate::spec::Names;
use crate::spec::RuleSet;

impl Names {
    /// The names of rule set `set` (its [`RuleSpec::names`](crate::RuleSpec::names)).
    #[must_use]
    pub fn of(set: RuleSet) -> Names {
        set.spec().names
    }

    /// A card: `1E`, or `spadille` in L'Hombre.
    #[must_use]
    pub fn card(self, c: Card) -> String {
        match self {
            Names::Spanish => c.to_string(),
            Names::International => lhombre::card_name(c),
        }
    }

    /// A set of cards.
    #[must_use]
    pub fn cards(self, s: CardSet) -> String {
        match self {
            Names::Spanish => s.to_string(),
            Names::International => lhombre::cards_name(s),
        }
    }

    /// A suit.
    #[must_use]
    pub fn suit(self, s: Suit) -> String {
        match self {
            Names::Spanish => s.to_string(),
            Names::International => lhombre::suit_name(s).to_string(),
        }
    }

    /// A bid; `equal`: it equals the standing bid (*self* in L'Hombre).
    #[must_use]
    pub fn bid(self, b: Bid, equal: bool) -> String {
        match (self, b) {
            (Names::International, Bid::Paso) => "pass".into(),
            (Names::International, Bid::Level(l)) if equal => format!("self ({})", lhombre::bid_name(l)),
            (Names::International, Bid::Level(l)) => lhombre::bid_name(l).into(),
            (Names::Spanish, b) => b.to_string(),
        }
    }

    /// A contract with its trumps.
    #[must_use]
    pub fn contract(self, c: Contract, trump: Option<Suit>) -> String {
        match self {
            Names::Spanish => c.to_string(),
            Names::International => lhombre::row_of(c, trump).name.into(),
        }
    }

    /// The rank of a contract with its trumps in the auction's order (the level
    /// in the Spanish rule sets, L'Hombre's table rank).
    #[must_use]
    pub fn rank(self, c: Contract, trump: Option<Suit>) -> u8 {
        match self {
            Names::Spanish => c.level(),
            Names::International => lhombre::rank(c, trump),
        }
    }

    /// An outcome.
    #[must_use]
    pub fn outcome(self, o: Outcome) -> String {
        match (self, o) {
            (Names::International, Outcome::Sacado) => "win".into(),
            (Names::International, Outcome::Puesta { .. }) => "draw".into(),
            (Names::International, Outcome::Codillo { .. }) => "loss".into(),
            (_, o) => o.to_string(),
        }
    }
}

impl RuleSet {
    /// The names the rule set shows players ([`RuleSpec::names`](crate::RuleSpec::names)).
    #[must_use]
    pub fn names(self) -> Names {
        self.spec().names
    }
}

impl Names {
    /// A declaration of `c` with trumps `trump` as the action space's text says
    /// it: `declare entrada oros`, or `declare spades game (spades)` in L'Hombre.
    #[must_use]
    pub fn declaration(self, c: Contract, trump: Option<Suit>) -> String {
        match (self, trump) {
            (Names::Spanish, Some(s)) => format!("declare {} {}", self.contract(c, trump), self.suit(s)),
            (Names::International, Some(s)) => {
                format!("declare {} ({})", self.contract(c, trump), self.suit(s))
            }
            (_, None) => format!("declare {}", self.contract(c, trump)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Help, RuleSet};

    /// Every rule set's words are complete: no text is empty, so none falls back
    /// to another rule set's words.
    #[test]
    fn every_rule_set_words_every_text() {
        for set in RuleSet::BUILT_IN {
            let w = set.spec().words;
            let help = match w.help {
                Help::Sections { forced, all_pass, all_pass_penetro } => {
                    vec![forced, all_pass, all_pass_penetro]
                }
                Help::Text(t) => vec![t],
            };
            let texts = [
                w.forced_question,
                w.declare_question,
                w.bola_question,
                w.bola_choices[0],
                w.bola_choices[1],
                w.bola_narration[0],
                w.bola_narration[1],
                w.bola,
                w.primeras,
                w.cancelled,
                w.cancelled_outcome,
                w.forced_name,
                w.forced_label,
                w.all_passed,
            ];
            let optional = [w.forced_exchange, w.entrada_name, w.outcomes_note, w.ledger_note];
            let columns = w.columns.iter().flat_map(|(a, b)| [*a, *b]);
            let all = texts.into_iter().chain(help).chain(optional.into_iter().flatten()).chain(columns);
            for (i, t) in all.enumerate() {
                assert!(!t.trim().is_empty(), "{set}: text {i} of its words is empty");
            }
        }
    }
}
