//! `deals.parquet`: the rows of `deals.csv` as Apache Parquet (typed columns,
//! dictionary-encoded names, zstd), written beside or instead of the CSV
//! (`--format csv|parquet|both`, [`Format`]).
//!
//! **Determinism.** The file is a function of the run's rows and its configuration
//! only: row group *k* holds the rows of the scoring units `[k·G, (k+1)·G)` of the
//! whole run (G from [`group_units`], which depends on the rows per unit alone), each
//! group is encoded from one record batch, and the writer's metadata holds no time
//! (`created_by` names this tool's version). So the file is byte-identical whatever
//! the thread count, the batch sizes, the shard split (merge regroups the shards'
//! rows on the same boundaries) and whether the run was interrupted.
//!
//! **Resume.** A Parquet footer is written only at the end, so a run does not
//! write `deals.parquet` as it goes: each checkpointed batch is a small part file
//! `deals.parquet.parts/U0-U1.parquet` (units `[U0, U1)`), written under a
//! temporary name and renamed before the manifest counts it. `--resume` drops the
//! parts the manifest does not count, checks the others, and carries on; when the
//! run completes the parts are read in order, regrouped and written as
//! `deals.parquet`, and the parts removed.
//!
//! Readers take either file through [`records`]: each row as the text record the
//! CSV holds (a null is an empty cell), so a reader written for `deals.csv` reads
//! `deals.parquet` unchanged.

use anyhow::{Context, Result, bail, ensure};
use arrow_array::builder::{
    Int64Builder, StringBuilder, StringDictionaryBuilder, UInt8Builder, UInt64Builder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, UInt8Type, UInt64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use serde::{Deserialize, Serialize};
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tresillo_sim::DealRow;

/// The Parquet file of a run directory's rows.
pub const DEALS_PARQUET: &str = "deals.parquet";

/// The directory of part files of a run still being played (see the module docs).
pub const PARTS_DIR: &str = "deals.parquet.parts";

/// About how many rows a row group holds: a group is the rows of
/// [`group_units`] whole scoring units.
pub const GROUP_ROWS: u64 = 131_072;

/// Which files hold a run's rows: `deals.csv`, `deals.parquet` or both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `deals.csv` only (the default).
    #[default]
    Csv,
    /// `deals.parquet` only.
    Parquet,
    /// Both files, with the same rows.
    Both,
}

impl Format {
    /// The names a user may give, in order.
    pub const NAMES: [&'static str; 3] = ["csv", "parquet", "both"];

    /// Whether the run writes `deals.csv`.
    #[must_use]
    pub fn csv(self) -> bool {
        self != Format::Parquet
    }

    /// Whether the run writes `deals.parquet`.
    #[must_use]
    pub fn parquet(self) -> bool {
        self != Format::Csv
    }

    /// Whether this is the default (`csv`): manifests leave the field out then.
    #[must_use]
    pub fn is_csv(&self) -> bool {
        *self == Format::Csv
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::Csv => "csv",
            Format::Parquet => "parquet",
            Format::Both => "both",
        })
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "csv" => Ok(Format::Csv),
            "parquet" => Ok(Format::Parquet),
            "both" => Ok(Format::Both),
            _ => Err(format!("unknown format `{s}`: expected csv, parquet or both")),
        }
    }
}

/// The Parquet type of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    fn data_type(self) -> DataType {
        match self {
            Kind::U64 => DataType::UInt64,
            Kind::U8 => DataType::UInt8,
            Kind::I64 => DataType::Int64,
            Kind::Name => DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
            Kind::Text => DataType::Utf8,
        }
    }
}

use Kind::{I64, Name, Text, U8, U64};

/// The columns of `deals.parquet`, in the order of `deals.csv`'s: name, type, and
/// whether it may be null (where the CSV may leave the cell empty). The meaning of
/// each is docs/CLI.md's "deals.csv columns" table.
pub const COLUMNS: [(&str, Kind, bool); 50] = [
    ("deal", U64, false),
    ("deal_seed", U64, false),
    ("seating", Name, false),
    ("rules", Name, false),
    ("agent0", Name, false),
    ("agent1", Name, false),
    ("agent2", Name, false),
    ("dealer", U8, false),
    ("bids", Text, true),
    ("contract", Name, true),
    ("trump", Name, true),
    ("declarer", U8, true),
    ("declarer_agent", Name, true),
    ("forced", U8, false),
    ("exchanged0", U8, false),
    ("exchanged1", U8, false),
    ("exchanged2", U8, false),
    ("first_opponent", U8, true),
    ("tricks0", U8, false),
    ("tricks1", U8, false),
    ("tricks2", U8, false),
    ("outcome", Name, false),
    ("puesta_kind", Name, true),
    ("codillo_winner", U8, true),
    ("surrendered", U8, true),
    ("took_over", U8, true),
    ("primeras", U8, false),
    ("bola", Name, true),
    ("estuche", U8, false),
    ("aip", I64, true),
    ("pool0", I64, false),
    ("cond0", I64, false),
    ("pool1", I64, false),
    ("cond1", I64, false),
    ("pool2", I64, false),
    ("cond2", I64, false),
    ("debt0", I64, true),
    ("debt1", I64, true),
    ("debt2", I64, true),
    ("players", U8, false),
    ("agent3", Name, true),
    ("exchanged3", U8, true),
    ("tricks3", U8, true),
    ("pool3", I64, true),
    ("cond3", I64, true),
    ("debt3", I64, true),
    ("penetro", U8, true),
    ("dropped_out", U8, true),
    ("gascarille", U8, true),
    ("vole_declared", U8, true),
];

fn columns() -> impl Iterator<Item = &'static (&'static str, Kind, bool)> {
    COLUMNS.iter()
}

/// The Arrow schema of `deals.parquet`.
#[must_use]
pub fn schema() -> SchemaRef {
    Arc::new(Schema::new(
        columns()
            .map(|&(name, kind, nullable)| Field::new(name, kind.data_type(), nullable))
            .collect::<Vec<_>>(),
    ))
}

/// A value of one cell on its way into a column.
enum Val<'s> {
    U64(u64),
    U8(Option<u8>),
    I64(Option<i64>),
    Str(&'s str),
}

enum Col {
    U64(UInt64Builder),
    U8(UInt8Builder),
    I64(Int64Builder),
    /// A name, and whether the column may be null.
    Name(StringDictionaryBuilder<Int32Type>, bool),
    /// A text, and whether the column may be null.
    Text(StringBuilder, bool),
}

impl Col {
    fn new(kind: Kind, nullable: bool) -> Col {
        match kind {
            U64 => Col::U64(UInt64Builder::new()),
            U8 => Col::U8(UInt8Builder::new()),
            I64 => Col::I64(Int64Builder::new()),
            Name => Col::Name(StringDictionaryBuilder::new(), nullable),
            Text => Col::Text(StringBuilder::new(), nullable),
        }
    }

    fn push(&mut self, v: Val<'_>) {
        // An empty string is the CSV's empty cell: null where the column may be
        // null (in the others, never empty in a run, it stays an empty string).
        match (self, v) {
            (Col::U64(b), Val::U64(x)) => b.append_value(x),
            (Col::U8(b), Val::U8(x)) => b.append_option(x),
            (Col::I64(b), Val::I64(x)) => b.append_option(x),
            (Col::Name(b, nullable), Val::Str(s)) => {
                if s.is_empty() && *nullable {
                    b.append_null();
                } else {
                    b.append_value(s);
                }
            }
            (Col::Text(b, nullable), Val::Str(s)) => {
                if s.is_empty() && *nullable {
                    b.append_null();
                } else {
                    b.append_value(s);
                }
            }
            _ => unreachable!("a deals.parquet column given a value of another type"),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Col::U64(b) => Arc::new(b.finish()),
            Col::U8(b) => Arc::new(b.finish()),
            Col::I64(b) => Arc::new(b.finish()),
            Col::Name(b, _) => Arc::new(b.finish()),
            Col::Text(b, _) => Arc::new(b.finish()),
        }
    }
}

/// Collects rows into columns, then into one record batch.
pub struct RowBuilder {
    cols: Vec<Col>,
    rows: usize,
}

impl Default for RowBuilder {
    fn default() -> RowBuilder {
        RowBuilder::new()
    }
}

impl RowBuilder {
    /// An empty builder.
    #[must_use]
    pub fn new() -> RowBuilder {
        RowBuilder { cols: columns().map(|c| Col::new(c.1, c.2)).collect(), rows: 0 }
    }

    /// Rows collected since the last [`RowBuilder::finish`].
    #[must_use]
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was collected since the last [`RowBuilder::finish`].
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Adds a row (its cells in the order of [`COLUMNS`]).
    pub fn push(&mut self, r: &DealRow<'_>) {
        let o8 = Val::U8;
        let o64 = Val::I64;
        let n8 = |x: u8| Val::U8(Some(x));
        let n64 = |x: i64| Val::I64(Some(x));
        let cells = [
            Val::U64(r.deal),
            Val::U64(r.deal_seed),
            Val::Str(r.seating),
            Val::Str(r.rules),
            Val::Str(r.agent0),
            Val::Str(r.agent1),
            Val::Str(r.agent2),
            n8(r.dealer),
            Val::Str(&r.bids),
            Val::Str(r.contract),
            Val::Str(r.trump),
            o8(r.declarer),
            Val::Str(r.declarer_agent),
            n8(r.forced),
            n8(r.exchanged0),
            n8(r.exchanged1),
            n8(r.exchanged2),
            o8(r.first_opponent),
            n8(r.tricks0),
            n8(r.tricks1),
            n8(r.tricks2),
            Val::Str(r.outcome),
            Val::Str(r.puesta_kind),
            o8(r.codillo_winner),
            o8(r.surrendered),
            o8(r.took_over),
            n8(r.primeras),
            Val::Str(r.bola),
            n8(r.estuche),
            o64(r.aip),
            n64(r.pool0),
            n64(r.cond0),
            n64(r.pool1),
            n64(r.cond1),
            n64(r.pool2),
            n64(r.cond2),
            o64(r.debt0),
            o64(r.debt1),
            o64(r.debt2),
            n8(r.players),
            Val::Str(r.agent3.unwrap_or("")),
            o8(r.exchanged3),
            o8(r.tricks3),
            o64(r.pool3),
            o64(r.cond3),
            o64(r.debt3),
            o8(r.penetro),
            o8(r.dropped_out),
            o8(r.gascarille),
            o8(r.vole_declared),
        ];
        debug_assert_eq!(cells.len(), self.cols.len());
        for (c, v) in self.cols.iter_mut().zip(cells) {
            c.push(v);
        }
        self.rows += 1;
    }

    /// The rows collected so far as one record batch; the builder is empty again.
    pub fn finish(&mut self) -> RecordBatch {
        let arrays: Vec<ArrayRef> = self.cols.iter_mut().map(Col::finish).collect();
        self.rows = 0;
        RecordBatch::try_new(schema(), arrays).expect("the columns match the schema")
    }
}

/// The writer's settings: zstd at `level` (`None`: uncompressed), no time in the
/// metadata (`created_by` names this version), no row group split by the writer
/// itself (groups end where [`GroupWriter`] says).
fn properties(level: Option<i32>) -> WriterProperties {
    let compression = match level {
        Some(l) => Compression::ZSTD(ZstdLevel::try_new(l).expect("a valid zstd level")),
        None => Compression::UNCOMPRESSED,
    };
    WriterProperties::builder()
        .set_compression(compression)
        .set_created_by(format!("tresillo {} (parquet-rs)", env!("CARGO_PKG_VERSION")))
        .set_max_row_group_row_count(None)
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .build()
}

/// zstd level of `deals.parquet`.
const LEVEL: Option<i32> = Some(1);
/// The part files are not compressed: they are read again once, then removed, and
/// a zstd context per column chunk and page costs more than it saves there.
const PART_LEVEL: Option<i32> = None;

/// Scoring units per row group: about [`GROUP_ROWS`] rows, whole units, at least
/// one. The environment variable `TRESILLO_PARQUET_GROUP_ROWS` sets another number
/// of rows, for tests that need row groups in small runs (every command that writes
/// the file must then see the same value).
#[must_use]
pub fn group_units(rows_per_unit: u64) -> u64 {
    let rows = std::env::var("TRESILLO_PARQUET_GROUP_ROWS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(GROUP_ROWS);
    (rows / rows_per_unit.max(1)).max(1)
}

/// Writes rows as Parquet, one row group per [`group_units`] units counted from unit
/// 0 of the whole run, whatever the sizes of the batches it is given.
pub struct GroupWriter {
    writer: ArrowWriter<BufWriter<File>>,
    path: PathBuf,
    pending: Vec<RecordBatch>,
    pending_rows: u64,
    /// Rows left in the current group.
    left: u64,
    group_rows: u64,
}

impl GroupWriter {
    /// A writer of `path` for rows that start at the scoring unit `first_unit` of
    /// the whole run, `rows_per_unit` rows a unit.
    pub fn create(path: &Path, first_unit: u64, rows_per_unit: u64) -> Result<GroupWriter> {
        GroupWriter::with_level(path, first_unit, rows_per_unit, LEVEL)
    }

    fn with_level(
        path: &Path,
        first_unit: u64,
        rows_per_unit: u64,
        level: Option<i32>,
    ) -> Result<GroupWriter> {
        let f = File::create(path).with_context(|| format!("creating {}", path.display()))?;
        let writer =
            ArrowWriter::try_new(BufWriter::with_capacity(1 << 20, f), schema(), Some(properties(level)))
                .with_context(|| format!("writing {}", path.display()))?;
        let g = group_units(rows_per_unit);
        let left = (g - first_unit % g) * rows_per_unit.max(1);
        Ok(GroupWriter {
            writer,
            path: path.to_path_buf(),
            pending: Vec::new(),
            pending_rows: 0,
            left,
            group_rows: g * rows_per_unit.max(1),
        })
    }

    /// Adds the next rows.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let mut at = 0;
        let n = batch.num_rows() as u64;
        while at < n {
            let take = (n - at).min(self.left);
            self.pending.push(batch.slice(at as usize, take as usize));
            self.pending_rows += take;
            self.left -= take;
            at += take;
            if self.left == 0 {
                self.flush_group()?;
                self.left = self.group_rows;
            }
        }
        Ok(())
    }

    /// Writes the pending rows as one row group, encoded from one batch (so that
    /// the pages do not depend on how the rows arrived).
    fn flush_group(&mut self) -> Result<()> {
        if self.pending_rows == 0 {
            return Ok(());
        }
        let batch = arrow_select::concat::concat_batches(&schema(), &self.pending)?;
        self.pending.clear();
        self.pending_rows = 0;
        self.writer.write(&batch).with_context(|| format!("writing {}", self.path.display()))?;
        self.writer.flush().with_context(|| format!("writing {}", self.path.display()))?;
        Ok(())
    }

    /// Writes the last group and the footer, and flushes the file to disk.
    pub fn close(mut self) -> Result<()> {
        self.flush_group()?;
        let path = self.path.clone();
        let buf = self.writer.into_inner().with_context(|| format!("writing {}", path.display()))?;
        let f = buf.into_inner().map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
        f.sync_all().with_context(|| format!("writing {}", path.display()))?;
        Ok(())
    }
}

/// Opens a `deals.parquet` (or part file) for reading and checks that it is one:
/// one line naming the file when it is truncated, not Parquet, or holds other
/// columns.
fn open(path: &Path) -> Result<ParquetRecordBatchReaderBuilder<File>> {
    let f = File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let b = ParquetRecordBatchReaderBuilder::try_new(f).map_err(|e| {
        anyhow::anyhow!("{}: not a readable Parquet file (truncated or damaged?): {e}", path.display())
    })?;
    let want = schema();
    let have = b.schema();
    if have.fields() != want.fields() {
        let names: Vec<&str> = have.fields().iter().map(|f| f.name().as_str()).collect();
        let missing: Vec<&str> =
            want.fields().iter().map(|f| f.name().as_str()).filter(|n| !names.contains(n)).collect();
        bail!(
            "{}: not the deals.parquet of this version of tresillo ({})",
            path.display(),
            if missing.is_empty() {
                "its columns differ in order or type".to_string()
            } else {
                format!("no column {}", missing.join(", "))
            }
        );
    }
    Ok(b)
}

/// The rows of a `deals.parquet` (or part file), batch by batch; checks the file
/// first ([`open`]'s errors).
pub fn batches(path: &Path) -> Result<impl Iterator<Item = Result<RecordBatch>> + use<>> {
    let reader = open(path)?.with_batch_size(8192).build()?;
    let shown = path.display().to_string();
    Ok(reader.map(move |b| {
        b.map_err(|e| anyhow::anyhow!("{shown}: unreadable rows (truncated or damaged?): {e}"))
    }))
}

/// The number of rows a Parquet file of deals holds, from its footer (checked as
/// [`batches`] does).
pub fn row_count(path: &Path) -> Result<u64> {
    Ok(open(path)?.metadata().file_metadata().num_rows().max(0) as u64)
}

/// For each row of a `deals.parquet`, in order: the deal index, the seating and
/// each seat's `pool` + `cond` (seats 0 to `seats - 1`; the rest 0). Reads only
/// those columns, typed (what `pairs.csv` needs, without formatting every cell).
pub fn for_each_result(
    path: &Path,
    seats: usize,
    mut f: impl FnMut(u64, &str, [i64; 4]) -> Result<()>,
) -> Result<()> {
    let b = open(path)?;
    let names: Vec<String> = ["deal".to_string(), "seating".to_string()]
        .into_iter()
        .chain((0..seats.min(4)).flat_map(|s| [format!("pool{s}"), format!("cond{s}")]))
        .collect();
    let index = |n: &str| COLUMNS.iter().position(|c| c.0 == n).expect("a column of the schema");
    let mask = parquet::arrow::ProjectionMask::roots(b.parquet_schema(), names.iter().map(|n| index(n)));
    let shown = path.display().to_string();
    let reader = b.with_projection(mask).with_batch_size(8192).build()?;
    for batch in reader {
        let batch =
            batch.map_err(|e| anyhow::anyhow!("{shown}: unreadable rows (truncated or damaged?): {e}"))?;
        let col = |n: &str| batch.column_by_name(n).expect("projected");
        let deal = col("deal").as_primitive::<UInt64Type>();
        let seating = col("seating").as_dictionary::<Int32Type>();
        let seating_names = seating.values().as_string::<i32>();
        let money: Vec<&arrow_array::PrimitiveArray<Int64Type>> =
            names[2..].iter().map(|n| col(n).as_primitive::<Int64Type>()).collect();
        for i in 0..batch.num_rows() {
            let mut r = [0i64; 4];
            for (s, v) in r.iter_mut().enumerate().take(seats.min(4)) {
                *v = money[2 * s].value(i) + money[2 * s + 1].value(i);
            }
            let name = seating_names.value(seating.keys().value(i) as usize);
            f(deal.value(i), name, r)?;
        }
    }
    Ok(())
}

/// The rows in each row group of a Parquet file of deals, from its footer.
pub fn row_groups(path: &Path) -> Result<Vec<u64>> {
    Ok(open(path)?.metadata().row_groups().iter().map(|g| g.num_rows().max(0) as u64).collect())
}

/// The header of `deals.csv`: the column names.
#[must_use]
pub fn header() -> csv::StringRecord {
    columns().map(|c| c.0).collect()
}

/// Reads the rows of a `deals.parquet` as the text records of `deals.csv` (a null
/// is an empty cell), in order, as `csv::Reader::read_record` does.
pub struct RecordReader {
    batches: Box<dyn Iterator<Item = Result<RecordBatch>>>,
    batch: Option<RecordBatch>,
    at: usize,
    row: u64,
}

impl RecordReader {
    /// Opens `path` (checked as [`batches`] does).
    pub fn open(path: &Path) -> Result<RecordReader> {
        Ok(RecordReader { batches: Box::new(batches(path)?), batch: None, at: 0, row: 0 })
    }

    /// Reads the next row into `rec`; `false` after the last.
    pub fn read_record(&mut self, rec: &mut csv::StringRecord) -> Result<bool> {
        loop {
            if let Some(b) = &self.batch
                && self.at < b.num_rows()
            {
                rec.clear();
                for c in b.columns() {
                    push_cell(rec, c.as_ref(), self.at);
                }
                self.at += 1;
                self.row += 1;
                return Ok(true);
            }
            match self.batches.next() {
                None => return Ok(false),
                Some(b) => {
                    self.batch = Some(b?);
                    self.at = 0;
                }
            }
        }
    }

    /// The number of the row last read (1 is the first).
    #[must_use]
    pub fn row(&self) -> u64 {
        self.row
    }
}

/// The rows of a `deals.parquet` as the text records of `deals.csv` (a null is an
/// empty cell), in order; `f` gets each with its row number (1 is the first row).
pub fn for_each_record(path: &Path, mut f: impl FnMut(&csv::StringRecord, u64) -> Result<()>) -> Result<()> {
    let mut r = RecordReader::open(path)?;
    let mut rec = csv::StringRecord::new();
    while r.read_record(&mut rec)? {
        f(&rec, r.row())?;
    }
    Ok(())
}

fn push_cell(rec: &mut csv::StringRecord, a: &dyn Array, i: usize) {
    if a.is_null(i) {
        rec.push_field("");
        return;
    }
    match a.data_type() {
        DataType::UInt64 => rec.push_field(&a.as_primitive::<UInt64Type>().value(i).to_string()),
        DataType::UInt8 => rec.push_field(&a.as_primitive::<UInt8Type>().value(i).to_string()),
        DataType::Int64 => rec.push_field(&a.as_primitive::<Int64Type>().value(i).to_string()),
        DataType::Utf8 => rec.push_field(a.as_string::<i32>().value(i)),
        DataType::Dictionary(_, _) => {
            let d = a.as_dictionary::<Int32Type>();
            let k = d.keys().value(i) as usize;
            rec.push_field(d.values().as_string::<i32>().value(k));
        }
        other => unreachable!("checked by open: no column of type {other}"),
    }
}

/// Writes the rows of a `deals.parquet` as `deals.csv` text (header included) to `w`:
/// the same bytes the run writes to `deals.csv` (tested).
pub fn to_csv(path: &Path, w: impl Write) -> Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(&header())?;
    for_each_record(path, |r, _| Ok(out.write_record(r)?))?;
    out.flush()?;
    Ok(())
}

/// The name of the part file of units `[u0, u1)`.
fn part_name(u0: u64, u1: u64) -> String {
    format!("{u0:020}-{u1:020}.parquet")
}

/// The unit range a part file's name gives.
fn part_range(name: &str) -> Option<(u64, u64)> {
    let stem = name.strip_suffix(".parquet")?;
    let (a, b) = stem.split_once('-')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// Writes the rows of units `[u0, u1)` as a part file in `parts` (under a temporary
/// name, renamed into place); returns its path.
pub fn write_part(parts: &Path, u0: u64, u1: u64, batch: &RecordBatch) -> Result<PathBuf> {
    let path = parts.join(part_name(u0, u1));
    let tmp = parts.join(format!("{}.tmp", part_name(u0, u1)));
    let f = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    let mut w = ArrowWriter::try_new(BufWriter::new(f), schema(), Some(properties(PART_LEVEL)))?;
    w.write(batch)?;
    let buf = w.into_inner().with_context(|| format!("writing {}", tmp.display()))?;
    buf.into_inner().map_err(|e| anyhow::anyhow!("writing {}: {e}", tmp.display()))?;
    fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// The part files of `parts` that hold the units `[u0, u0 + done)` of a resumed
/// run, in order, each checked (readable, the rows its units have); removes the
/// parts and temporary files a kill left past the checkpoint. One-line errors
/// name the file.
pub fn resume_parts(parts: &Path, u0: u64, done: u64, rows_per_unit: u64) -> Result<Vec<PathBuf>> {
    let end = u0 + done;
    let mut found = Vec::new();
    if parts.exists() {
        for e in fs::read_dir(parts).with_context(|| format!("reading {}", parts.display()))? {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            match part_range(&name) {
                Some((a, b)) if b <= end => found.push((a, b, e.path())),
                // A batch written after the last checkpoint, or a temporary file.
                _ => fs::remove_file(e.path()).with_context(|| format!("removing {}", e.path().display()))?,
            }
        }
    } else {
        fs::create_dir_all(parts).with_context(|| format!("creating {}", parts.display()))?;
    }
    found.sort();
    let mut at = u0;
    for (a, b, p) in &found {
        ensure!(
            *a == at,
            "{}: the rows of units {at} to {a} are missing; start the run again with --force",
            parts.display()
        );
        let n = row_count(p)?;
        ensure!(
            n == (b - a) * rows_per_unit,
            "{}: holds {n} rows but its units {a} to {b} have {}; start the run again with --force",
            p.display(),
            (b - a) * rows_per_unit
        );
        at = *b;
    }
    ensure!(
        at == end,
        "{}: the rows of units {at} to {end} are missing though the manifest counts them; start the run \
         again with --force",
        parts.display()
    );
    Ok(found.into_iter().map(|(_, _, p)| p).collect())
}

/// Reads the part files of a finished run (units from `u0`) and writes them as
/// `out`, regrouped (see [`GroupWriter`]).
pub fn assemble(parts: &[PathBuf], out: &Path, u0: u64, rows_per_unit: u64) -> Result<()> {
    let mut w = GroupWriter::create(out, u0, rows_per_unit)?;
    for p in parts {
        for b in batches(p)? {
            w.write(&b?)?;
        }
    }
    w.close()
}

/// Lists the part files of `parts` in order (for a run whose manifest says it
/// played every unit).
pub fn all_parts(parts: &Path, u0: u64, units: u64, rows_per_unit: u64) -> Result<Vec<PathBuf>> {
    resume_parts(parts, u0, units, rows_per_unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tresillo-parquet-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    /// docs/CLI.md's one table of the columns of both files names every column with its
    /// Parquet type as written here.
    #[test]
    fn the_documented_table_gives_every_column_its_type() {
        let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/CLI.md")).unwrap();
        let start = readme.find("### `deals.csv` and `deals.parquet` columns").expect("the table's heading");
        let mut listed = Vec::new();
        for line in readme[start..].lines().skip_while(|l| !l.starts_with("| `deal`")) {
            let Some(row) = line.strip_prefix("| ") else { break };
            let cells: Vec<&str> = row.split(" | ").collect();
            let mut names = Vec::new();
            for n in cells[0].split(", ") {
                let n = n.trim_matches('`');
                match n.strip_suffix("0..2") {
                    Some(stem) => names.extend((0..3).map(|i| format!("{stem}{i}"))),
                    None => names.push(n.to_string()),
                }
            }
            let types: Vec<&str> = cells[1].split("; ").collect();
            for (i, n) in names.iter().enumerate() {
                listed.push((n.clone(), types[if types.len() == 1 { 0 } else { i }].to_string()));
            }
        }
        let want: Vec<(String, String)> = COLUMNS
            .iter()
            .map(|&(n, kind, nullable)| {
                let t = match kind {
                    U64 => "uint64",
                    U8 => "uint8",
                    I64 => "int64",
                    Name => "dictionary",
                    Text => "string",
                };
                (n.to_string(), if nullable { format!("{t}, null") } else { t.to_string() })
            })
            .collect();
        // (The table groups some columns, `pool0..2`, `cond0..2`: compared as sets.)
        let (mut listed, mut want) = (listed, want);
        listed.sort();
        want.sort();
        assert_eq!(listed, want);
    }

    #[test]
    fn formats_parse_and_print() {
        for n in Format::NAMES {
            assert_eq!(n.parse::<Format>().unwrap().to_string(), n);
        }
        assert!("xml".parse::<Format>().unwrap_err().contains("csv, parquet or both"));
        assert!(Format::Both.csv() && Format::Both.parquet());
        assert!(!Format::Csv.parquet() && !Format::Parquet.csv());
    }

    #[test]
    fn a_row_round_trips_as_the_csv_row() {
        let row = DealRow {
            deal: 7,
            deal_seed: u64::MAX,
            seating: "120",
            rules: "tresillo",
            agent0: "rule",
            agent1: "pimc:worlds=8,ms=3",
            agent2: "random",
            bids: "1:1 2:P".into(),
            contract: "entrada",
            declarer: Some(1),
            outcome: "sacado",
            aip: None,
            pool0: -3,
            debt1: Some(4),
            players: 3,
            ..DealRow::default()
        };
        let d = tmp("roundtrip");
        let p = d.join("deals.parquet");
        let mut b = RowBuilder::new();
        b.push(&row);
        b.push(&DealRow { deal: 8, contract: "", ..row.clone() });
        let mut w = GroupWriter::create(&p, 0, 1).unwrap();
        w.write(&b.finish()).unwrap();
        w.close().unwrap();
        let mut text = Vec::new();
        to_csv(&p, &mut text).unwrap();
        let mut expected = csv::Writer::from_writer(Vec::new());
        expected.serialize(&row).unwrap();
        expected.serialize(DealRow { deal: 8, contract: "", ..row.clone() }).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            String::from_utf8(expected.into_inner().unwrap()).unwrap()
        );
        assert_eq!(row_count(&p).unwrap(), 2);
    }

    #[test]
    fn row_groups_follow_unit_indices_not_batches() {
        // Units of 2 rows, groups of 4 units (8 rows); rows from unit 3 on.
        let d = tmp("groups");
        let rows: Vec<DealRow<'_>> = (0..26).map(|i| DealRow { deal: i, ..DealRow::default() }).collect();
        let mut files = Vec::new();
        for (k, sizes) in [vec![26], vec![1, 5, 20], vec![7, 7, 7, 5]].into_iter().enumerate() {
            let p = d.join(format!("{k}.parquet"));
            let mut w = GroupWriter::with_level(&p, 3, 2, LEVEL).unwrap();
            w.group_rows = 8;
            w.left = 2; // unit 3 of groups of 4 units: one unit (2 rows) left
            let mut at = 0;
            for n in sizes {
                let mut b = RowBuilder::new();
                for r in &rows[at..at + n] {
                    b.push(r);
                }
                w.write(&b.finish()).unwrap();
                at += n;
            }
            w.close().unwrap();
            assert_eq!(row_groups(&p).unwrap(), [2, 8, 8, 8]);
            files.push(fs::read(&p).unwrap());
        }
        assert!(files.windows(2).all(|w| w[0] == w[1]), "the same bytes whatever the batches");
    }

    #[test]
    fn a_truncated_or_foreign_file_is_one_line_naming_it() {
        let d = tmp("bad");
        let p = d.join("deals.parquet");
        let mut w = GroupWriter::create(&p, 0, 1).unwrap();
        let mut b = RowBuilder::new();
        b.push(&DealRow::default());
        w.write(&b.finish()).unwrap();
        w.close().unwrap();
        let bytes = fs::read(&p).unwrap();
        fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
        let e = format!("{:#}", row_count(&p).unwrap_err());
        assert!(e.contains(&p.display().to_string()) && e.contains("not a readable Parquet file"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        // A Parquet file of other columns.
        let other = Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, false)]));
        let batch =
            RecordBatch::try_new(other.clone(), vec![Arc::new(arrow_array::Int64Array::from(vec![1]))])
                .unwrap();
        let mut w = ArrowWriter::try_new(File::create(&p).unwrap(), other, None).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        let e = format!("{:#}", batches(&p).err().unwrap());
        assert!(e.contains(&p.display().to_string()) && e.contains("no column deal"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}
