//! `deals.parquet`'s columns are deals.csv's, as tresillo-sim defines them once
//! (`tresillo_sim::schema::COLUMNS`, which parquet.rs re-exports): the Parquet
//! schema written has their names, in order, and their nullability.

use tresillo_runs::parquet;
use tresillo_sim::schema::COLUMNS;

#[test]
fn the_parquet_schema_is_the_deals_schema() {
    let schema = parquet::schema();
    let fields: Vec<(&str, bool)> = schema.get_fields().iter().map(|f| (f.name(), f.is_optional())).collect();
    let want: Vec<(&str, bool)> = COLUMNS.iter().map(|c| (c.name, c.nullable)).collect();
    assert_eq!(fields, want);
}
