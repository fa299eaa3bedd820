//! `deals.parquet`'s columns are deals.csv's, as tresillo-sim defines them once
//! (`tresillo_sim::schema::COLUMNS`): same names, kinds and nullability, column
//! for column, and the Arrow schema written is built from them.

use tresillo_runs::parquet;
use tresillo_sim::schema::COLUMNS;

#[test]
fn the_parquet_columns_are_the_deals_schema() {
    assert_eq!(parquet::COLUMNS.len(), COLUMNS.len());
    for (p, c) in parquet::COLUMNS.iter().zip(COLUMNS.iter()) {
        // Compared by name: the Parquet writer's `Kind` is the schema's own once
        // parquet.rs takes it from tresillo-sim, a copy with the same variants before.
        assert_eq!((p.0, format!("{:?}", p.1), p.2), (c.name, format!("{:?}", c.kind), c.nullable));
    }
    let schema = parquet::schema();
    let fields: Vec<(&str, bool)> =
        schema.fields().iter().map(|f| (f.name().as_str(), f.is_nullable())).collect();
    let want: Vec<(&str, bool)> = COLUMNS.iter().map(|c| (c.name, c.nullable)).collect();
    assert_eq!(fields, want);
}
