//! Every option of every built-in rule set round-trips through its serialized
//! forms, which are pinned byte for byte: `Rules`' `Display` (flags, record
//! headers), its serde form (experiment files, manifests), and `RuleOptions`'
//! serde form inside a hand result and a ledger's configuration (records).

#![cfg(feature = "serde")]

use tresillo_core::*;

/// The values each option is tried with, as typed.
fn samples(info: &OptionInfo) -> Vec<&'static str> {
    match info.name {
        "palo_de_favor" => vec!["espadas", "bastos", "copas", "oros", "none"],
        "ante" => vec!["0", "7", "1000", "5"],
        _ => vec!["true", "false"],
    }
}

/// The options an option needs beside it (`ante` is read with `hombre-chips`).
fn with_needs(name: &'static str, value: &'static str) -> Vec<(&'static str, &'static str)> {
    if name == "ante" { vec![("hombre-chips", "true"), (name, value)] } else { vec![(name, value)] }
}

#[test]
fn every_option_of_every_set_round_trips_through_text_and_serde() {
    let mut tried = 0;
    for set in RuleSet::BUILT_IN {
        for info in set.spec().options {
            for value in samples(info) {
                let pairs = with_needs(info.name, value);
                let r = Rules::parse(set.name(), &pairs).unwrap_or_else(|e| panic!("{set} {info:?}: {e}"));
                // Display, and back through `key=value` words.
                let text = r.to_string();
                let mut words = text.split(' ');
                let name = words.next().unwrap();
                let kv: Vec<(&str, &str)> = words.map(|w| Rules::split_option(w).unwrap()).collect();
                assert_eq!(Rules::parse(name, &kv).unwrap(), r, "{text}");
                assert_eq!(r.set_options().len(), kv.len(), "{text}");
                // serde: the rules value, and the options inside a ledger config.
                let json = serde_json::to_string(&r).unwrap();
                assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), r, "{json}");
                let config = LedgerConfig::with_rules(r, 3);
                let cj = serde_json::to_string(&config).unwrap();
                let back: LedgerConfig = serde_json::from_str(&cj).unwrap();
                assert_eq!(back.game_rules(), r, "{cj}");
                assert_eq!(serde_json::to_string(&back).unwrap(), cj);
                tried += 1;
            }
        }
    }
    assert!(tried >= 25, "{tried}");
}

/// A rule set and options as typed, then its `Display`, its serde form and its
/// options' serde form.
type Pinned =
    (&'static str, &'static [(&'static str, &'static str)], &'static str, &'static str, &'static str);

#[test]
fn the_serialized_forms_are_pinned() {
    let cases: [Pinned; 6] = [
        ("tresillo", &[], "tresillo", r#""tresillo""#, "{}"),
        (
            "tresillo",
            &[("codillo_old", "true"), ("palo_de_favor", "oros")],
            "tresillo palo_de_favor=oros codillo_old=true",
            r#"{"name":"tresillo","palo_de_favor":"oros","codillo_old":true}"#,
            r#"{"palo_de_favor":"oros","codillo_old":true}"#,
        ),
        (
            "tresillo",
            &[("penetro_all_play", "true")],
            "tresillo penetro_all_play=true",
            r#"{"name":"tresillo","penetro_all_play":true}"#,
            r#"{"penetro_all_play":true}"#,
        ),
        (
            "hombre",
            &[("contrabola", "true"), ("ante", "7"), ("hombre-chips", "true"), ("show_heap", "true")],
            "hombre show_heap=true hombre-chips=true ante=7 contrabola=true",
            r#"{"name":"hombre","show_heap":true,"hombre-chips":true,"ante":"7","contrabola":true}"#,
            r#"{"show_heap":true,"chips":true,"ante":7,"contrabola":true}"#,
        ),
        (
            "hombre",
            &[("gascarille", "true"), ("favorito", "true"), ("ante", "5"), ("hombre-chips", "false")],
            "hombre favorito=true gascarille=true",
            r#"{"name":"hombre","favorito":true,"gascarille":true}"#,
            r#"{"favorito":true,"gascarille":true}"#,
        ),
        (
            "lhombre",
            &[("redeal_all_pass", "true")],
            "lhombre redeal_all_pass=true",
            r#"{"name":"lhombre","redeal_all_pass":true}"#,
            r#"{"redeal_all_pass":true}"#,
        ),
    ];
    for (name, opts, text, rules_json, options_json) in cases {
        let r = Rules::parse(name, opts).unwrap_or_else(|e| panic!("{name} {opts:?}: {e}"));
        assert_eq!(r.to_string(), text);
        assert_eq!(serde_json::to_string(&r).unwrap(), rules_json);
        let config = serde_json::to_string(&LedgerConfig::with_rules(r, 3)).unwrap();
        let options =
            config.split_once(r#""options":"#).map_or("{}", |(_, rest)| &rest[..=rest.find('}').unwrap()]);
        assert_eq!(options, options_json, "{text}");
        if options_json != "{}" {
            let back: RuleOptions = serde_json::from_str(options_json).unwrap();
            assert_eq!(Rules { set: r.set, options: back }, r, "{options_json}");
        }
    }
    // An unknown key in serialized options is refused, naming it.
    let e = serde_json::from_str::<RuleOptions>(r#"{"no_such":true}"#).unwrap_err();
    assert!(e.to_string().contains("no_such"), "{e}");
}

#[test]
fn an_outcome_with_a_key_it_does_not_have_is_refused() {
    // Issue 52, item 7: serde's internally tagged enum let unknown keys pass
    // beside a unit variant; the records' format refuses them in every object.
    use tresillo_core::{Outcome, PuestaKind, Seat};
    let read = |s: &str| serde_json::from_str::<Outcome>(s);
    assert_eq!(read(r#"{"result":"sacado"}"#).unwrap(), Outcome::Sacado);
    assert_eq!(read(r#"{"result":"cancelled"}"#).unwrap(), Outcome::Cancelled);
    assert_eq!(read(r#"{"result":"codillo","winner":2}"#).unwrap(), Outcome::Codillo { winner: Seat(2) });
    let p = Outcome::Puesta { kind: PuestaKind::Sabia };
    assert_eq!(read(&serde_json::to_string(&p).unwrap()).unwrap(), p);
    for (bad, says) in [
        (r#"{"result":"sacado","x":1}"#, "unknown field `x`"),
        (r#"{"result":"codillo","winner":1,"extra":true}"#, "unknown field `extra`"),
        (r#"{"result":"sacado","winner":1}"#, "has no `winner`"),
        (r#"{"result":"codillo"}"#, "needs its `winner`"),
        (r#"{"result":"won"}"#, "unknown outcome `won`"),
    ] {
        let e = read(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}
