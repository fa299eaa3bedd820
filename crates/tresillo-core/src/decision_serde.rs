//! The serde form of a [`Decision`], as records, the play page and the
//! replay's JSON write it: one key naming the kind, its value the choice
//! (`{"play": "7C"}`, `{"bid": "paso"}`, `{"declare": {"contract": "entrada",
//! "trump": "oros"}}`, `{"surrender": true}`). A yes/no answer's key is its
//! question's [`name`](crate::QuestionDef), so a new question needs
//! nothing here.

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::game::{Bid, Contract, Word};
use crate::hand::QUESTIONS;
use crate::penetro::{DropWord, HeapEnd};
use crate::question::Question;
use crate::state::Decision;
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A declaration's value: the contract and, for entrada and solo, trumps.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Declaration {
    contract: Contract,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trump: Option<Suit>,
}

const KINDS: usize = 7 + QUESTIONS.len();

/// Every key, in the order error messages list them.
static KEYS: [&str; KINDS] = {
    let mut k = [""; KINDS];
    let first = ["bid", "declare", "discard", "word", "play"];
    let mut i = 0;
    while i < first.len() {
        k[i] = first[i];
        i += 1;
    }
    let mut q = 0;
    while q < QUESTIONS.len() {
        k[5 + q] = QUESTIONS[q].name;
        q += 1;
    }
    k[KINDS - 2] = "penetro";
    k[KINDS - 1] = "drop_out";
    k
};

impl Serialize for Decision {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        match *self {
            Decision::Bid(b) => m.serialize_entry("bid", &b)?,
            Decision::Declare(contract, trump) => {
                m.serialize_entry("declare", &Declaration { contract, trump })?
            }
            Decision::Discard(set) => m.serialize_entry("discard", &set)?,
            Decision::Word(w) => m.serialize_entry("word", &w)?,
            Decision::Play(c) => m.serialize_entry("play", &c)?,
            Decision::Answer(q, yes) => m.serialize_entry(q.name(), &yes)?,
            Decision::Penetro(e) => m.serialize_entry("penetro", &e)?,
            Decision::DropOut(w) => m.serialize_entry("drop_out", &w)?,
        }
        m.end()
    }
}

struct DecisionVisitor;

impl<'de> Visitor<'de> for DecisionVisitor {
    type Value = Decision;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a decision: one key naming its kind")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Decision, A::Error> {
        let Some(key) = map.next_key::<String>()? else {
            return Err(de::Error::invalid_length(0, &self));
        };
        let d = match key.as_str() {
            "bid" => Decision::Bid(map.next_value::<Bid>()?),
            "declare" => {
                let Declaration { contract, trump } = map.next_value()?;
                Decision::Declare(contract, trump)
            }
            "discard" => Decision::Discard(map.next_value::<CardSet>()?),
            "word" => Decision::Word(map.next_value::<Word>()?),
            "play" => Decision::Play(map.next_value::<Card>()?),
            "penetro" => Decision::Penetro(map.next_value::<HeapEnd>()?),
            "drop_out" => Decision::DropOut(map.next_value::<DropWord>()?),
            other => match Question::by_name(other) {
                Some(q) => Decision::Answer(q, map.next_value::<bool>()?),
                None => return Err(de::Error::unknown_variant(other, &KEYS)),
            },
        };
        if map.next_key::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::custom("a decision has one key"));
        }
        Ok(d)
    }
}

impl<'de> Deserialize<'de> for Decision {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Decision, D::Error> {
        d.deserialize_map(DecisionVisitor)
    }
}

/// A question is its name (`surrender`), as in a decision's key.
impl Serialize for Question {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Question {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Question, D::Error> {
        let name = String::deserialize(d)?;
        Question::by_name(&name).ok_or_else(|| {
            let names: Vec<&str> = QUESTIONS.iter().map(|q| q.name).collect();
            de::Error::custom(format_args!("unknown question `{name}`, expected one of {}", names.join(", ")))
        })
    }
}
