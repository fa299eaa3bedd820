//! The columns of `deals.csv` (and of `deals.parquet`, the same rows typed), defined
//! once: each column's name, [`Kind`] and whether a row may leave it empty, in the
//! order of [`DealRow`](crate::DealRow)'s fields, which is the order the CSV
//! writer gives its header (a test holds them equal). The Parquet writer, the
//! report, the Python package and the scripts take the columns from here: the
//! non-Rust readers through [`json`] (`tresillo schema deals` prints it, the
//! committed `docs/deals-columns.json` holds it, the Python extension returns the
//! columns). The contracts' families ([`contract_families`]) go with them: the
//! summary's three contract columns count each contract of the `contract` column
//! in its family. The meaning of each column is docs/CLI.md's "deals.csv columns".

use serde::Serialize;
use std::collections::BTreeMap;
use tresillo_core::{Contract, RuleSet};

/// The Parquet type of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Unsigned 64-bit integer (`UINT_64`).
    U64,
    /// Unsigned 8-bit integer (`UINT_8`).
    U8,
    /// Signed 64-bit integer (`INT64`).
    I64,
    /// A name from a small set: a UTF-8 string, dictionary-encoded (read back as a
    /// category by pandas, a dictionary by Arrow readers).
    Name,
    /// A UTF-8 string.
    Text,
}

impl Kind {
    /// Its name in the JSON form: `u64`, `u8`, `i64`, `name` or `text`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::U64 => "u64",
            Kind::U8 => "u8",
            Kind::I64 => "i64",
            Kind::Name => "name",
            Kind::Text => "text",
        }
    }

    /// Whether it is an integer type.
    #[must_use]
    pub const fn is_integer(self) -> bool {
        matches!(self, Kind::U64 | Kind::U8 | Kind::I64)
    }
}

/// One column of `deals.csv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Column {
    /// Its name in the header.
    pub name: &'static str,
    /// Its type.
    pub kind: Kind,
    /// Whether a row may leave it empty (a null in Parquet).
    pub nullable: bool,
}

const fn col(name: &'static str, kind: Kind, nullable: bool) -> Column {
    Column { name, kind, nullable }
}

use Kind::{I64, Name, Text, U8, U64};

/// The columns of `deals.csv`, in order: name, type, and whether a row may leave
/// the cell empty (a null in `deals.parquet`).
pub const COLUMNS: [Column; 50] = [
    col("deal", U64, false),
    col("deal_seed", U64, false),
    col("seating", Name, false),
    col("rules", Name, false),
    col("agent0", Name, false),
    col("agent1", Name, false),
    col("agent2", Name, false),
    col("dealer", U8, false),
    col("bids", Text, true),
    col("contract", Name, true),
    col("trump", Name, true),
    col("declarer", U8, true),
    col("declarer_agent", Name, true),
    col("forced", U8, false),
    col("exchanged0", U8, false),
    col("exchanged1", U8, false),
    col("exchanged2", U8, false),
    col("first_opponent", U8, true),
    col("tricks0", U8, false),
    col("tricks1", U8, false),
    col("tricks2", U8, false),
    col("outcome", Name, false),
    col("puesta_kind", Name, true),
    col("codillo_winner", U8, true),
    col("surrendered", U8, true),
    col("took_over", U8, true),
    col("primeras", U8, false),
    col("bola", Name, true),
    col("estuche", U8, false),
    col("aip", I64, true),
    col("pool0", I64, false),
    col("cond0", I64, false),
    col("pool1", I64, false),
    col("cond1", I64, false),
    col("pool2", I64, false),
    col("cond2", I64, false),
    col("debt0", I64, true),
    col("debt1", I64, true),
    col("debt2", I64, true),
    col("players", U8, false),
    col("agent3", Name, true),
    col("exchanged3", U8, true),
    col("tricks3", U8, true),
    col("pool3", I64, true),
    col("cond3", I64, true),
    col("debt3", I64, true),
    col("penetro", U8, true),
    col("dropped_out", U8, true),
    col("gascarille", U8, true),
    col("vole_declared", U8, true),
];

/// Every contract a rule set plays, low to high, with its family
/// ([`Contract::family`]): the summary column (`entrada`, `vuelta`, `solo`) it
/// counts in; `hombre`'s contrabola is its own family, outside those columns.
#[must_use]
pub fn contract_families() -> Vec<(Contract, Contract)> {
    let mut all: Vec<Contract> = every_contract().collect();
    all.sort_unstable();
    all.dedup();
    all.into_iter().map(|c| (c, c.family())).collect()
}

/// The contract of a `contract` cell (a contract's [`Contract::name`]), if it is
/// one a rule set plays.
#[must_use]
pub fn contract_named(name: &str) -> Option<Contract> {
    every_contract().find(|c| c.name() == name)
}

/// The contracts of every rule set, rule set by rule set (some more than once).
fn every_contract() -> impl Iterator<Item = Contract> {
    RuleSet::all().flat_map(|s| s.spec().contracts.iter().copied())
}

/// The JSON form of the definition, for readers in other languages:
/// `{"columns": [{"name", "kind", "nullable"}, ...], "contract_families": {contract:
/// family, ...}}`, pretty-printed, with a final newline. `tresillo schema deals`
/// prints it; `docs/deals-columns.json` is a copy a test keeps equal to it.
#[must_use]
pub fn json() -> String {
    #[derive(Serialize)]
    struct Schema<'a> {
        columns: &'a [Column],
        contract_families: BTreeMap<&'static str, &'static str>,
    }
    let families = contract_families().into_iter().map(|(c, f)| (c.name(), f.name())).collect();
    let mut s = serde_json::to_string_pretty(&Schema { columns: &COLUMNS, contract_families: families })
        .expect("the schema serializes");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DealRow;

    fn header() -> Vec<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(DealRow::default()).unwrap();
        let bytes = w.into_inner().unwrap();
        let text = String::from_utf8(bytes).unwrap();
        text.lines().next().unwrap().split(',').map(str::to_string).collect()
    }

    #[test]
    fn the_columns_are_the_csv_writers_header_in_order() {
        let names: Vec<&str> = COLUMNS.iter().map(|c| c.name).collect();
        assert_eq!(names, header());
    }

    #[test]
    fn a_column_is_nullable_only_where_a_row_may_leave_it_empty() {
        // A default row writes 0 in every integer field that is not an Option and
        // leaves every Option and every text empty: a nullable column is one of
        // those, and an integer column is nullable exactly when it is an Option.
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        w.serialize(DealRow::default()).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let cells: Vec<&str> = text.trim_end().split(',').collect();
        assert_eq!(cells.len(), COLUMNS.len());
        for (c, cell) in COLUMNS.iter().zip(cells) {
            if c.nullable {
                assert_eq!(cell, "", "{} is nullable but DealRow always fills it", c.name);
            }
            if c.kind.is_integer() {
                assert_eq!(
                    c.nullable,
                    cell.is_empty(),
                    "{}: nullable is not whether DealRow's field is an Option",
                    c.name
                );
            }
        }
    }

    #[test]
    fn every_contract_of_every_rule_set_has_its_family() {
        let names: Vec<(&str, &str)> =
            contract_families().iter().map(|(c, f)| (c.name(), f.name())).collect();
        assert_eq!(
            names,
            [
                ("entrada", "entrada"),
                ("vuelta", "vuelta"),
                ("solo", "solo"),
                ("contrabola", "contrabola"),
                ("grand-tourne", "vuelta"),
                ("nolo", "entrada"),
                ("pure-nolo", "solo"),
                ("nolo-ouvert", "solo"),
            ]
        );
        assert_eq!(contract_named("nolo-ouvert"), Some(Contract::NoloOuvert));
        assert_eq!(contract_named(""), None);
    }

    #[test]
    fn the_committed_json_file_is_the_definition() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/deals-columns.json");
        let text = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            text == json(),
            "{path} is not the definition in tresillo-sim's schema.rs: regenerate it with \
             `cargo run -p tresillo-cli -- schema deals > docs/deals-columns.json`"
        );
    }

    #[test]
    fn the_json_form_lists_every_column_and_family() {
        let v: serde_json::Value = serde_json::from_str(&json()).unwrap();
        let cols = v["columns"].as_array().unwrap();
        assert_eq!(cols.len(), COLUMNS.len());
        assert_eq!(cols[14], serde_json::json!({"name": "exchanged0", "kind": "u8", "nullable": false}));
        assert_eq!(v["contract_families"]["pure-nolo"], "solo");
    }
}
