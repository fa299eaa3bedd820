//! Strict JSON: a reader for every JSON input from outside (game records,
//! `score` sessions, protocol answers, manifests) that refuses a key given twice
//! in one object, at any depth.
//!
//! serde_json keeps the last value of a repeated key (`{"declarer": "B",
//! "declarer": "C"}` reads as C), and a derived struct refuses a repeated field
//! only at its own level (not inside a map, a flattened field or a `Value`). A
//! document that says two things is refused here before it is read: the text is
//! walked once for repeated keys ([`NoRepeats`]), then deserialized as usual.
//! Unknown keys are refused by the types themselves (`deny_unknown_fields`).

use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// [`serde_json::from_str`] that also refuses a key repeated in an object at any
/// depth (`duplicate key "declarer" at line 1 column 31`).
pub fn from_str<T: DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    let mut d = serde_json::Deserializer::from_str(text);
    // The recursion limit of serde_json applies: deep nesting is an error.
    NoRepeats.deserialize(&mut d)?;
    d.end()?;
    serde_json::from_str(text)
}

/// Walks a JSON value, refusing an object that holds a key twice; keeps nothing.
#[derive(Clone, Copy, Debug)]
pub struct NoRepeats;

impl<'de> DeserializeSeed<'de> for NoRepeats {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NoRepeats {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(NoRepeats)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if keys.iter().any(|k| *k == key) {
                return Err(serde::de::Error::custom(format_args!("duplicate key \"{key}\"")));
            }
            keys.push(key.into_owned());
            map.next_value_seed(NoRepeats)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_is_refused_at_any_depth() {
        let v: serde_json::Value = from_str(r#"{"a": [1, {"b": "x\"y", "c": null}], "d": 2.5}"#).unwrap();
        assert_eq!(v["d"], 2.5);
        for (text, key) in [
            (r#"{"declarer":"B","declarer":"C"}"#, "declarer"),
            (r#"{"a":{"b":1,"c":2,"b":3}}"#, "b"),
            (r#"[{"x":1},{"y":1,"y":2}]"#, "y"),
            (r#"{"k\u0065y":1,"key":2}"#, "key"),
        ] {
            let e = from_str::<serde_json::Value>(text).unwrap_err().to_string();
            assert!(e.starts_with(&format!("duplicate key \"{key}\" at line 1 column")), "{text}: {e}");
        }
        // Trailing text and malformed JSON are still errors.
        assert!(from_str::<serde_json::Value>("{} x").is_err());
        assert!(from_str::<serde_json::Value>("{\"a\":").is_err());
    }
}
