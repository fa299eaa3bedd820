//! `deals.parquet`: the rows of `deals.csv` as Apache Parquet (typed columns,
//! dictionary-encoded names, zstd), written beside or instead of the CSV
//! (`--format csv|parquet|both`, [`Format`]).
//!
//! The file is written and read with the `parquet` crate's column writers and
//! readers, without Arrow (issue 37: Arrow was a third of the build). What Arrow's
//! writer used to add is written here: the Arrow schema in the footer's key-value
//! metadata (`ARROW:schema`, [`arrow_schema_ipc`]), so that Arrow readers see each
//! `Name` column as a dictionary and pandas as a category. The bytes are those
//! parquet-rs's `ArrowWriter` wrote for the same rows (tested against a committed
//! file).
//!
//! **Determinism.** The file is a function of the run's rows and its configuration
//! only: row group *k* holds the rows of the scoring units `[k·G, (k+1)·G)` of the
//! whole run (G from [`group_units`], which depends on the rows per unit alone), each
//! column of a group is encoded in one pass over its rows (how its pages are cut
//! depends on the group's values alone, see `write_group`), and the writer's
//! metadata holds no time (`created_by` names this tool's version). So the file is
//! byte-identical whatever the thread count, the batch sizes, the shard split (merge
//! regroups the shards' rows on the same boundaries) and whether the run was
//! interrupted.
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
//!
//! **deals.parquet is a function of the rows.** Row group *k* holds the units `[k·G,
//! (k+1)·G)` of the whole run (G depends on the rows per unit only), each column of a
//! group handed to parquet's column writer in one pass, in pieces that depend on the
//! group's cells only (the writer decides page boundaries per piece, so the rows'
//! arrival must not show), and the writer's metadata holds no time. A Parquet footer
//! exists only at the end, so a running run writes each checkpointed batch as a part
//! file `deals.parquet.parts/U0-U1.parquet` (before the manifest counts it); `--resume`
//! drops parts past the checkpoint and checks the rest. A run that starts at its first
//! unit also feeds every batch to a `GroupWriter` on `deals.parquet.tmp` in the writer
//! thread, so the encoding overlaps the play; a resumed run regroups the parts at
//! completion instead (the same bytes). Either way `deals.parquet` is in place before
//! the manifest says complete, and the parts are removed after; `merge` regroups the
//! shards' rows the same way. The parts cost a second encoding at the end
//! (results/BENCHMARKS.md).

use base64::Engine as _;
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::column::reader::ColumnReader;
use parquet::column::writer::ColumnWriterImpl;
use parquet::data_type::{ByteArray, ByteArrayType, DataType as PqType, Int32Type, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{Type, TypePtr};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tresillo_durable::error_chain as chain;
use tresillo_sim::DealRow;

/// Why a file of deals (`deals.parquet`, a part file) could not be written or
/// read: one line naming the file. The variants that wrap an error of the system
/// or of the Parquet library say it after the step (`writing FILE: No space left
/// on device`), in the message, not as a source.
#[derive(Debug, thiserror::Error)]
pub enum DealsError {
    /// The system refused a step on a file (`creating FILE`, `reading FILE`, ...).
    #[error("{verb} {}: {}", path.display(), chain(error))]
    Io {
        /// The step, as the message says it (`reading`, `writing`, ...).
        verb: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The Parquet library failed to write or read a file (`writing FILE`).
    #[error("{verb} {}: {}", path.display(), chain(error))]
    Parquet {
        /// The step, as the message says it.
        verb: &'static str,
        /// The file.
        path: PathBuf,
        /// What the library said.
        error: ParquetError,
    },
    /// A file that is not Parquet, or is cut short (the reader's words in `why`).
    #[error("{}: not a readable Parquet file (truncated or damaged?): {why}", path.display())]
    NotParquet {
        /// The file.
        path: PathBuf,
        /// The reader's words.
        why: String,
    },
    /// A Parquet file whose columns are not those of this version's deals table.
    #[error("{}: not the deals.parquet of this version of tresillo ({why})", path.display())]
    OtherColumns {
        /// The file.
        path: PathBuf,
        /// The columns it lacks, or that their order or types differ.
        why: String,
    },
    /// Rows that could not be decoded (`why`: the reader's words, with their causes).
    #[error("{path}: unreadable rows (truncated or damaged?): {why}")]
    Rows {
        /// The file, as shown.
        path: String,
        /// Why.
        why: String,
    },
    /// The part files of a resumed run do not hold the units its manifest counts
    /// (the message names the file and says what to do).
    #[error("{0}")]
    Parts(String),
    /// An error of the Parquet library on no particular file.
    #[error(transparent)]
    Library(#[from] ParquetError),
    /// An error writing CSV text ([`to_csv`]).
    #[error(transparent)]
    Csv(#[from] csv::Error),
    /// An I/O error on no particular file.
    #[error(transparent)]
    System(#[from] io::Error),
}

/// Returns [`DealsError::Parts`] with the message unless the condition holds.
macro_rules! ensure_parts {
    ($cond:expr, $($message:tt)+) => {
        if !$cond {
            return Err(DealsError::Parts(format!($($message)+)));
        }
    };
}

/// What a step of [`DealsError`] returns.
type Result<T, E = DealsError> = std::result::Result<T, E>;

/// Names the file of an I/O or Parquet step that failed.
trait OnFile<T> {
    /// The error of `verb` (`reading`, `writing`, ...) on `path`.
    fn on(self, verb: &'static str, path: &Path) -> Result<T>;
}

impl<T> OnFile<T> for std::result::Result<T, io::Error> {
    fn on(self, verb: &'static str, path: &Path) -> Result<T> {
        self.map_err(|error| DealsError::Io { verb, path: path.to_path_buf(), error })
    }
}

impl<T> OnFile<T> for std::result::Result<T, ParquetError> {
    fn on(self, verb: &'static str, path: &Path) -> Result<T> {
        self.map_err(|error| DealsError::Parquet { verb, path: path.to_path_buf(), error })
    }
}

/// Why a column chunk could not be decoded (within [`DealsError::Rows`]).
#[derive(Debug, thiserror::Error)]
enum ReadError {
    /// The Parquet library's error.
    #[error(transparent)]
    Parquet(#[from] ParquetError),
    /// Cells that do not fit the schema or each other.
    #[error("{0}")]
    Damaged(&'static str),
}

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

/// A format name that is not `csv`, `parquet` or `both`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format `{0}`: expected csv, parquet or both")]
pub struct UnknownFormat(pub String);

impl std::str::FromStr for Format {
    type Err = UnknownFormat;
    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        match s {
            "csv" => Ok(Format::Csv),
            "parquet" => Ok(Format::Parquet),
            "both" => Ok(Format::Both),
            _ => Err(UnknownFormat(s.to_string())),
        }
    }
}

use Kind::{I64, Name, Text, U8, U64};
pub use tresillo_sim::schema::{COLUMNS, Column, Kind};

fn columns() -> impl Iterator<Item = &'static Column> {
    COLUMNS.iter()
}

/// The Parquet column of kind `kind`: the physical and logical types Arrow's
/// writer gave the Arrow type this column had (`UInt64`, `UInt8`, `Int64`,
/// `Dictionary(Int32, Utf8)`, `Utf8`).
fn parquet_type(kind: Kind, name: &str, nullable: bool) -> TypePtr {
    let (physical, logical) = match kind {
        U64 => (Physical::INT64, Some(LogicalType::integer(64, false))),
        U8 => (Physical::INT32, Some(LogicalType::integer(8, false))),
        I64 => (Physical::INT64, None),
        Name | Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
    };
    let repetition = if nullable { Repetition::OPTIONAL } else { Repetition::REQUIRED };
    Arc::new(
        Type::primitive_type_builder(name, physical)
            .with_logical_type(logical)
            .with_repetition(repetition)
            .build()
            .expect("a valid Parquet column"),
    )
}

/// The Parquet schema of `deals.parquet` (its root named `arrow_schema`, as Arrow's
/// writer named it).
#[must_use]
pub fn schema() -> TypePtr {
    Arc::new(
        Type::group_type_builder("arrow_schema")
            .with_fields(columns().map(|c| parquet_type(c.kind, c.name, c.nullable)).collect())
            .build()
            .expect("a valid Parquet schema"),
    )
}

/// The key of the Arrow schema in a Parquet file's key-value metadata.
pub const ARROW_SCHEMA_KEY: &str = "ARROW:schema";

/// The Arrow schema of `deals.parquet` as Arrow's Parquet writer stores it under
/// [`ARROW_SCHEMA_KEY`] (before base64): an Arrow IPC `Schema` message (a
/// flatbuffer) behind the continuation marker `FF FF FF FF` and its length (u32,
/// little-endian). Fields in the order of [`COLUMNS`]: `U64`, `U8` and `I64` as
/// `Int` (64 unsigned, 8 unsigned, 64 signed), `Text` as `Utf8`, `Name` as `Utf8`
/// with a dictionary encoding (`Int32` indices, ids 0, 1, ... in column order, not
/// ordered); nullability as in `COLUMNS`.
///
/// The flatbuffer is built with the `flatbuffers` crate in the order Arrow's IPC
/// writer (arrow-ipc 60, `IpcSchemaEncoder`) builds it, so the bytes are the ones
/// `ArrowWriter` wrote (tested against a committed file).
#[must_use]
pub fn arrow_schema_ipc() -> Vec<u8> {
    use flatbuffers::{FlatBufferBuilder, TableFinishedWIPOffset, WIPOffset};
    // The slots (vtable offsets) and enum values of Arrow's format/Schema.fbs and
    // format/Message.fbs.
    const INT_BIT_WIDTH: u16 = 4;
    const INT_IS_SIGNED: u16 = 6;
    const DICT_ID: u16 = 4;
    const DICT_INDEX_TYPE: u16 = 6;
    const DICT_IS_ORDERED: u16 = 8;
    const FIELD_NAME: u16 = 4;
    const FIELD_NULLABLE: u16 = 6;
    const FIELD_TYPE_TYPE: u16 = 8;
    const FIELD_TYPE: u16 = 10;
    const FIELD_DICTIONARY: u16 = 12;
    const FIELD_CHILDREN: u16 = 14;
    const SCHEMA_FIELDS: u16 = 6;
    const MESSAGE_VERSION: u16 = 4;
    const MESSAGE_HEADER_TYPE: u16 = 6;
    const MESSAGE_HEADER: u16 = 8;
    const MESSAGE_BODY_LENGTH: u16 = 10;
    const TYPE_INT: u8 = 2;
    const TYPE_UTF8: u8 = 5;
    const HEADER_SCHEMA: u8 = 1;
    const VERSION_V5: i16 = 4;
    type Table = WIPOffset<TableFinishedWIPOffset>;
    fn int(fbb: &mut FlatBufferBuilder<'_>, bits: i32, signed: bool) -> Table {
        let t = fbb.start_table();
        fbb.push_slot(INT_IS_SIGNED, signed, false);
        fbb.push_slot(INT_BIT_WIDTH, bits, 0);
        fbb.end_table(t)
    }
    let mut fbb = FlatBufferBuilder::new();
    let no_children: [Table; 0] = [];
    let mut dict_id = 0i64;
    let mut fields: Vec<Table> = Vec::new();
    for &Column { name, kind, nullable } in columns() {
        let name = fbb.create_string(name);
        let (type_type, type_, children) = match kind {
            U64 | U8 | I64 => {
                let children = fbb.create_vector(&no_children);
                let (bits, signed) = match kind {
                    U8 => (8, false),
                    U64 => (64, false),
                    _ => (64, true),
                };
                (TYPE_INT, int(&mut fbb, bits, signed), children)
            }
            Name | Text => {
                let t = fbb.start_table();
                let utf8 = fbb.end_table(t);
                (TYPE_UTF8, utf8, fbb.create_vector(&no_children))
            }
        };
        let dictionary = if kind == Name {
            let index = int(&mut fbb, 32, true);
            let d = fbb.start_table();
            fbb.push_slot(DICT_ID, dict_id, 0);
            fbb.push_slot_always(DICT_INDEX_TYPE, index);
            fbb.push_slot(DICT_IS_ORDERED, false, false);
            dict_id += 1;
            Some(fbb.end_table(d))
        } else {
            None
        };
        let f = fbb.start_table();
        fbb.push_slot_always(FIELD_NAME, name);
        if let Some(d) = dictionary {
            fbb.push_slot_always(FIELD_DICTIONARY, d);
        }
        fbb.push_slot(FIELD_TYPE_TYPE, type_type, 0);
        fbb.push_slot(FIELD_NULLABLE, nullable, false);
        fbb.push_slot_always(FIELD_CHILDREN, children);
        fbb.push_slot_always(FIELD_TYPE, type_);
        fields.push(fbb.end_table(f));
    }
    let fields = fbb.create_vector(&fields);
    let schema = fbb.start_table();
    fbb.push_slot_always(SCHEMA_FIELDS, fields);
    let schema = fbb.end_table(schema);
    let message = fbb.start_table();
    fbb.push_slot(MESSAGE_VERSION, VERSION_V5, 0);
    fbb.push_slot(MESSAGE_HEADER_TYPE, HEADER_SCHEMA, 0);
    fbb.push_slot(MESSAGE_BODY_LENGTH, 0i64, 0);
    fbb.push_slot_always(MESSAGE_HEADER, schema);
    let message = fbb.end_table(message);
    fbb.finish(message, None);
    let body = fbb.finished_data();
    let mut out = Vec::with_capacity(body.len() + 8);
    out.extend_from_slice(&[0xff; 4]);
    out.extend_from_slice(&u32::try_from(body.len()).expect("a small schema").to_le_bytes());
    out.extend_from_slice(body);
    out
}

/// The cells of one column of a [`Batch`].
#[derive(Clone, Debug)]
enum Col {
    /// An integer column (`U64` as its bits, `U8`, `I64`).
    Int(Ints),
    /// A string column: each cell an index into `dict` (`None`: null).
    Str(Strings),
}

/// Integers and whether each is a value (not null); a null's integer is 0.
#[derive(Clone, Debug, Default)]
struct Ints {
    values: Vec<i64>,
    valid: Vec<bool>,
}

impl Ints {
    fn push(&mut self, x: Option<i64>) {
        self.values.push(x.unwrap_or(0));
        self.valid.push(x.is_some());
    }

    fn get(&self, i: usize) -> Option<i64> {
        self.valid[i].then(|| self.values[i])
    }
}

/// Strings held once each, cells as indices.
#[derive(Clone, Debug, Default)]
struct Strings {
    dict: Vec<Box<str>>,
    /// The index of every string of `dict` once it holds more than [`SCAN`].
    index: HashMap<Box<str>, u32>,
    cells: Vec<Option<u32>>,
}

/// Up to this many distinct strings (names: a few agents, contracts, suits) a
/// string's index is found by comparing it with each, faster than hashing it.
const SCAN: usize = 16;

impl Strings {
    fn key(&mut self, s: &str) -> u32 {
        let found = if self.dict.len() <= SCAN {
            self.dict.iter().position(|d| **d == *s).map(|k| k as u32)
        } else {
            self.index.get(s).copied()
        };
        if let Some(k) = found {
            return k;
        }
        let k = u32::try_from(self.dict.len()).expect("fewer than 2^32 distinct strings");
        self.dict.push(s.into());
        if self.dict.len() > SCAN {
            if self.index.is_empty() {
                self.index = self.dict.iter().zip(0..).map(|(d, i)| (d.clone(), i)).collect();
            } else {
                self.index.insert(s.into(), k);
            }
        }
        k
    }

    fn get(&self, i: usize) -> Option<&str> {
        self.cells[i].map(|k| &*self.dict[k as usize])
    }
}

impl Col {
    fn new(kind: Kind) -> Col {
        match kind {
            U64 | U8 | I64 => Col::Int(Ints::default()),
            Name | Text => Col::Str(Strings::default()),
        }
    }

    fn len(&self) -> usize {
        match self {
            Col::Int(v) => v.values.len(),
            Col::Str(s) => s.cells.len(),
        }
    }

    /// Appends the cells `range` of `other` (a column of the same kind).
    fn extend(&mut self, other: &Col, range: std::ops::Range<usize>) {
        match (self, other) {
            (Col::Int(a), Col::Int(b)) => {
                a.values.extend_from_slice(&b.values[range.clone()]);
                a.valid.extend_from_slice(&b.valid[range]);
            }
            (Col::Str(a), Col::Str(b)) => {
                let mut keys: Vec<Option<u32>> = vec![None; b.dict.len()];
                for c in &b.cells[range] {
                    let cell = c.map(|k| *keys[k as usize].get_or_insert_with(|| a.key(&b.dict[k as usize])));
                    a.cells.push(cell);
                }
            }
            _ => unreachable!("columns of one schema"),
        }
    }
}

/// Rows of deals held by column, as `deals.parquet` stores them: what
/// [`RowBuilder`] collects, [`GroupWriter`] and [`write_part`] write and [`batches`]
/// reads.
#[derive(Clone, Debug)]
pub struct Batch {
    cols: Vec<Col>,
}

impl Default for Batch {
    fn default() -> Batch {
        Batch::new()
    }
}

impl Batch {
    /// No rows.
    #[must_use]
    pub fn new() -> Batch {
        Batch { cols: columns().map(|c| Col::new(c.kind)).collect() }
    }

    /// The number of rows.
    #[must_use]
    pub fn num_rows(&self) -> usize {
        self.cols[0].len()
    }

    /// Appends the rows `range` of `other`.
    fn extend(&mut self, other: &Batch, range: std::ops::Range<usize>) {
        for (a, b) in self.cols.iter_mut().zip(&other.cols) {
            a.extend(b, range.clone());
        }
    }
}

/// A value of one cell on its way into a column.
enum Val<'s> {
    Int(Option<i64>),
    Str(&'s str),
}

/// Collects rows into a [`Batch`].
pub struct RowBuilder {
    batch: Batch,
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
        RowBuilder { batch: Batch::new() }
    }

    /// Rows collected since the last [`RowBuilder::finish`].
    #[must_use]
    pub fn len(&self) -> usize {
        self.batch.num_rows()
    }

    /// Whether no row was collected since the last [`RowBuilder::finish`].
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a row (its cells in the order of [`COLUMNS`]).
    pub fn push(&mut self, r: &DealRow<'_>) {
        let o8 = |x: Option<u8>| Val::Int(x.map(i64::from));
        let o64 = Val::Int;
        let n8 = |x: u8| Val::Int(Some(i64::from(x)));
        let n64 = |x: i64| Val::Int(Some(x));
        // A u64 is stored as the i64 of the same bits (Parquet's UINT_64).
        let u64 = |x: u64| Val::Int(Some(x as i64));
        let cells = [
            u64(r.deal),
            u64(r.deal_seed),
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
        debug_assert_eq!(cells.len(), self.batch.cols.len());
        for ((c, v), &Column { nullable, .. }) in self.batch.cols.iter_mut().zip(cells).zip(columns()) {
            match (c, v) {
                (Col::Int(c), Val::Int(x)) => c.push(x),
                // An empty string is the CSV's empty cell: null where the column may
                // be null (in the others, never empty in a run, it stays an empty
                // string).
                (Col::Str(c), Val::Str(s)) => {
                    let cell = if s.is_empty() && nullable { None } else { Some(c.key(s)) };
                    c.cells.push(cell);
                }
                _ => unreachable!("a deals.parquet column given a value of another type"),
            }
        }
    }

    /// The rows collected so far as one batch; the builder is empty again.
    pub fn finish(&mut self) -> Batch {
        std::mem::take(&mut self.batch)
    }
}

/// The writer's settings: zstd at `level` (`None`: uncompressed), no time in the
/// metadata (`created_by` names this version), the Arrow schema in the key-value
/// metadata; parquet-rs's defaults otherwise (dictionary encoding with its
/// fallback, page limits, version 1 pages), as `ArrowWriter` had them.
fn properties(level: Option<i32>) -> Arc<WriterProperties> {
    let compression = match level {
        Some(l) => Compression::ZSTD(ZstdLevel::try_new(l).expect("a valid zstd level")),
        None => Compression::UNCOMPRESSED,
    };
    Arc::new(
        WriterProperties::builder()
            .set_compression(compression)
            .set_created_by(format!("tresillo {} (parquet-rs)", env!("CARGO_PKG_VERSION")))
            .set_max_row_group_row_count(None)
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_key_value_metadata(Some(vec![KeyValue::new(
                ARROW_SCHEMA_KEY.to_string(),
                base64::engine::general_purpose::STANDARD.encode(arrow_schema_ipc()),
            )]))
            .build(),
    )
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

/// Writes one column's cells: `values` the non-null ones, `defs` the definition
/// levels (`None` for a column that may not be null).
///
/// The column writer checks its page limits after each mini-batch of levels it is
/// given. Arrow's writer gave it levels in mini-batches of `write_batch_size` (1024)
/// when a column of the group mixes nulls and values, and of
/// `data_page_row_count_limit` (20,000) when every cell is a value or every cell
/// is null; so a page of such a column ends after 20,000 rows rather than 20,480.
/// The same here: such a column is handed over 20,000 levels at a time (the writer
/// splits each call into 1024-level mini-batches, and the page limits are checked
/// at the same row counts). This depends on the group's cells only.
fn write_cells<T: PqType>(
    w: &mut ColumnWriterImpl<'_, T>,
    values: &[T::T],
    defs: Option<&[i16]>,
    row_count_limit: usize,
) -> Result<(), ParquetError> {
    match defs {
        Some(defs) if !defs.is_empty() && defs.iter().all(|d| *d == defs[0]) => {
            let mut at = 0;
            for chunk in defs.chunks(row_count_limit) {
                let n = if defs[0] == 1 { chunk.len() } else { 0 };
                w.write_batch(&values[at..at + n], Some(chunk), None)?;
                at += n;
            }
        }
        _ => {
            w.write_batch(values, defs, None)?;
        }
    }
    Ok(())
}

/// Writes `batch` as one row group of `w` (nothing for no rows).
fn write_group<W: Write + Send>(w: &mut SerializedFileWriter<W>, batch: &Batch) -> Result<(), ParquetError> {
    if batch.num_rows() == 0 {
        return Ok(());
    }
    let limit = w.properties().data_page_row_count_limit();
    let mut group = w.next_row_group()?;
    for (col, &Column { kind, nullable, .. }) in batch.cols.iter().zip(columns()) {
        let mut cw = group.next_column()?.expect("a column of the schema");
        match col {
            Col::Int(cells) => {
                let defs: Option<Vec<i16>> =
                    nullable.then(|| cells.valid.iter().map(|&v| i16::from(v)).collect());
                let values = cells.values.iter().zip(&cells.valid).filter(|(_, v)| **v).map(|(x, _)| *x);
                if kind == U8 {
                    let values: Vec<i32> = values.map(|x| x as i32).collect();
                    write_cells(cw.typed::<Int32Type>(), &values, defs.as_deref(), limit)?;
                } else {
                    let values: Vec<i64> = values.collect();
                    write_cells(cw.typed::<Int64Type>(), &values, defs.as_deref(), limit)?;
                }
            }
            Col::Str(s) => {
                let dict: Vec<ByteArray> =
                    s.dict.iter().map(|v| ByteArray::from(v.as_bytes().to_vec())).collect();
                let values: Vec<ByteArray> =
                    s.cells.iter().flatten().map(|&k| dict[k as usize].clone()).collect();
                let defs: Option<Vec<i16>> =
                    nullable.then(|| s.cells.iter().map(|c| i16::from(c.is_some())).collect());
                write_cells(cw.typed::<ByteArrayType>(), &values, defs.as_deref(), limit)?;
            }
        }
        cw.close()?;
    }
    group.close()?;
    Ok(())
}

/// Writes rows as Parquet, one row group per [`group_units`] units counted from unit
/// 0 of the whole run, whatever the sizes of the batches it is given.
pub struct GroupWriter {
    writer: SerializedFileWriter<BufWriter<File>>,
    path: PathBuf,
    pending: Batch,
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
        let f = File::create(path).on("creating", path)?;
        let writer =
            SerializedFileWriter::new(BufWriter::with_capacity(1 << 20, f), schema(), properties(level))
                .on("writing", path)?;
        let g = group_units(rows_per_unit);
        let left = (g - first_unit % g) * rows_per_unit.max(1);
        Ok(GroupWriter {
            writer,
            path: path.to_path_buf(),
            pending: Batch::new(),
            left,
            group_rows: g * rows_per_unit.max(1),
        })
    }

    /// Adds the next rows.
    pub fn write(&mut self, batch: &Batch) -> Result<()> {
        let mut at = 0;
        let n = batch.num_rows() as u64;
        while at < n {
            let take = (n - at).min(self.left);
            self.pending.extend(batch, at as usize..(at + take) as usize);
            self.left -= take;
            at += take;
            if self.left == 0 {
                self.flush_group()?;
                self.left = self.group_rows;
            }
        }
        Ok(())
    }

    /// Writes the pending rows as one row group.
    fn flush_group(&mut self) -> Result<()> {
        let batch = std::mem::take(&mut self.pending);
        write_group(&mut self.writer, &batch).on("writing", &self.path)
    }

    /// Writes the last group and the footer, and flushes the file to disk.
    pub fn close(mut self) -> Result<()> {
        self.flush_group()?;
        let path = self.path.clone();
        let buf = self.writer.into_inner().on("writing", &path)?;
        let f = buf.into_inner().map_err(io::IntoInnerError::into_error).on("writing", &path)?;
        f.sync_all().on("writing", &path)?;
        Ok(())
    }
}

/// Opens a `deals.parquet` (or part file) for reading and checks that it is one:
/// one line naming the file when it is truncated, not Parquet, or holds other
/// columns.
fn open(path: &Path) -> Result<SerializedFileReader<File>> {
    let f = File::open(path).on("reading", path)?;
    let r = SerializedFileReader::new(f)
        .map_err(|e| DealsError::NotParquet { path: path.to_path_buf(), why: e.to_string() })?;
    let want = schema();
    let have = r.metadata().file_metadata().schema_descr();
    let same = have.num_columns() == COLUMNS.len()
        && have.columns().iter().zip(want.get_fields()).all(|(h, w)| h.self_type() == w.as_ref());
    if !same {
        let names: Vec<&str> = have.columns().iter().map(|c| c.name()).collect();
        let missing: Vec<&str> = columns().map(|c| c.name).filter(|n| !names.contains(n)).collect();
        return Err(DealsError::OtherColumns {
            path: path.to_path_buf(),
            why: if missing.is_empty() {
                "its columns differ in order or type".to_string()
            } else {
                format!("no column {}", missing.join(", "))
            },
        });
    }
    Ok(r)
}

/// Rows read from each column at a time.
const READ_ROWS: usize = 8192;

/// Reads `n` rows of one column into `col`.
fn read_cells(r: &mut ColumnReader, col: &mut Col, nullable: bool, n: usize) -> Result<(), ReadError> {
    fn read<T: PqType>(
        r: &mut parquet::column::reader::ColumnReaderImpl<T>,
        nullable: bool,
        n: usize,
        defs: &mut Vec<i16>,
        values: &mut Vec<T::T>,
    ) -> Result<(), ReadError> {
        let mut rows = 0;
        while rows < n {
            let (got, _, _) = r.read_records(n - rows, nullable.then_some(&mut *defs), None, values)?;
            if got == 0 {
                return Err(ReadError::Damaged("a column chunk ends before its row group's last row"));
            }
            rows += got;
        }
        if !nullable {
            defs.resize(n, 1);
        }
        if defs.len() != n {
            return Err(ReadError::Damaged("a column chunk's levels do not match its rows"));
        }
        Ok(())
    }
    let mut defs = Vec::with_capacity(n);
    match (r, col) {
        (ColumnReader::Int32ColumnReader(r), Col::Int(cells)) => {
            let mut values = Vec::with_capacity(n);
            read(r, nullable, n, &mut defs, &mut values)?;
            let mut v = values.into_iter();
            for &d in &defs {
                cells.push(if d == 1 { v.next().map(i64::from) } else { None });
            }
        }
        (ColumnReader::Int64ColumnReader(r), Col::Int(cells)) => {
            let mut values = Vec::with_capacity(n);
            read(r, nullable, n, &mut defs, &mut values)?;
            let mut v = values.into_iter();
            for &d in &defs {
                cells.push(if d == 1 { v.next() } else { None });
            }
        }
        (ColumnReader::ByteArrayColumnReader(r), Col::Str(s)) => {
            let mut values = Vec::with_capacity(n);
            read(r, nullable, n, &mut defs, &mut values)?;
            let mut v = values.iter();
            // Values decoded from a dictionary page are slices of that page: the same
            // address and length is the same string, found without reading it again.
            let mut seen: Vec<(*const u8, usize, u32)> = Vec::new();
            for &d in &defs {
                let cell = match d {
                    1 => {
                        let b = v.next().ok_or(ReadError::Damaged("fewer values than levels"))?;
                        let at = (b.data().as_ptr(), b.len());
                        match seen.iter().find(|x| (x.0, x.1) == at) {
                            Some(x) => Some(x.2),
                            None => {
                                let k = s.key(
                                    b.as_utf8()
                                        .map_err(|_| ReadError::Damaged("a string that is not UTF-8"))?,
                                );
                                if seen.len() < SCAN {
                                    seen.push((at.0, at.1, k));
                                }
                                Some(k)
                            }
                        }
                    }
                    _ => None,
                };
                s.cells.push(cell);
            }
        }
        _ => unreachable!("checked by open: the columns have the schema's types"),
    }
    Ok(())
}

/// The rows of a checked file, [`READ_ROWS`] at a time, of the columns `cols`
/// (indices into [`COLUMNS`], in order): each item holds those columns, the others
/// empty.
struct Reader {
    file: SerializedFileReader<File>,
    cols: Vec<usize>,
    shown: String,
    /// The next row group.
    next_group: usize,
    /// The column readers of the current group, and its rows left.
    readers: Vec<ColumnReader>,
    left: usize,
}

impl Reader {
    fn new(path: &Path, cols: Vec<usize>) -> Result<Reader> {
        Ok(Reader {
            file: open(path)?,
            cols,
            shown: path.display().to_string(),
            next_group: 0,
            readers: Vec::new(),
            left: 0,
        })
    }

    fn read(&mut self) -> Result<Option<Batch>, ReadError> {
        while self.left == 0 {
            if self.next_group == self.file.num_row_groups() {
                return Ok(None);
            }
            let g = self.file.get_row_group(self.next_group)?;
            self.left = usize::try_from(g.metadata().num_rows().max(0)).unwrap_or(0);
            self.readers = self.cols.iter().map(|&c| g.get_column_reader(c)).collect::<Result<_, _>>()?;
            self.next_group += 1;
        }
        let n = self.left.min(READ_ROWS);
        let mut batch = Batch::new();
        for (r, &c) in self.readers.iter_mut().zip(&self.cols) {
            read_cells(r, &mut batch.cols[c], COLUMNS[c].nullable, n)?;
        }
        self.left -= n;
        Ok(Some(batch))
    }
}

impl Iterator for Reader {
    type Item = Result<Batch>;

    fn next(&mut self) -> Option<Result<Batch>> {
        self.read().map_err(|e| DealsError::Rows { path: self.shown.clone(), why: chain(&e) }).transpose()
    }
}

/// The rows of a `deals.parquet` (or part file), batch by batch; checks the file
/// first ([`open`]'s errors).
pub fn batches(path: &Path) -> Result<impl Iterator<Item = Result<Batch>> + use<>> {
    Reader::new(path, (0..COLUMNS.len()).collect())
}

/// The number of rows a Parquet file of deals holds, from its footer (checked as
/// [`batches`] does).
pub fn row_count(path: &Path) -> Result<u64> {
    Ok(open(path)?.metadata().file_metadata().num_rows().max(0) as u64)
}

/// For each row of a `deals.parquet`, in order: the deal index, the seating and
/// each seat's `pool` + `cond` (seats 0 to `seats - 1`; the rest 0). Reads only
/// those columns, typed (what `pairs.csv` needs, without formatting every cell).
pub fn for_each_result<E: From<DealsError>>(
    path: &Path,
    seats: usize,
    mut f: impl FnMut(u64, &str, [i64; 4]) -> Result<(), E>,
) -> Result<(), E> {
    let names: Vec<String> = ["deal".to_string(), "seating".to_string()]
        .into_iter()
        .chain((0..seats.min(4)).flat_map(|s| [format!("pool{s}"), format!("cond{s}")]))
        .collect();
    let index = |n: &str| COLUMNS.iter().position(|c| c.name == n).expect("a column of the schema");
    let cols: Vec<usize> = names.iter().map(|n| index(n)).collect();
    for batch in Reader::new(path, cols.clone())? {
        let batch = batch?;
        let int = |c: usize| match &batch.cols[c] {
            Col::Int(v) => v,
            Col::Str(_) => unreachable!("an integer column"),
        };
        let (Col::Int(deal), Col::Str(seating)) = (&batch.cols[cols[0]], &batch.cols[cols[1]]) else {
            unreachable!("the schema's types")
        };
        let money: Vec<&Ints> = cols[2..].iter().map(|&c| int(c)).collect();
        for i in 0..deal.values.len() {
            let mut r = [0i64; 4];
            for (s, v) in r.iter_mut().enumerate().take(seats.min(4)) {
                *v = money[2 * s].values[i] + money[2 * s + 1].values[i];
            }
            f(deal.values[i] as u64, seating.get(i).unwrap_or(""), r)?;
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
    columns().map(|c| c.name).collect()
}

/// Reads the rows of a `deals.parquet` as the text records of `deals.csv` (a null
/// is an empty cell), in order, as `csv::Reader::read_record` does.
pub struct RecordReader {
    batches: Box<dyn Iterator<Item = Result<Batch>>>,
    batch: Option<Batch>,
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
                for (c, &Column { kind, .. }) in b.cols.iter().zip(columns()) {
                    push_cell(rec, c, kind, self.at);
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
pub fn for_each_record<E: From<DealsError>>(
    path: &Path,
    mut f: impl FnMut(&csv::StringRecord, u64) -> Result<(), E>,
) -> Result<(), E> {
    let mut r = RecordReader::open(path)?;
    let mut rec = csv::StringRecord::new();
    while r.read_record(&mut rec)? {
        f(&rec, r.row())?;
    }
    Ok(())
}

fn push_cell(rec: &mut csv::StringRecord, c: &Col, kind: Kind, i: usize) {
    match c {
        Col::Int(v) => match v.get(i) {
            None => rec.push_field(""),
            Some(x) if kind == U64 => rec.push_field(&(x as u64).to_string()),
            Some(x) => rec.push_field(&x.to_string()),
        },
        Col::Str(s) => rec.push_field(s.get(i).unwrap_or("")),
    }
}

/// Writes the rows of a `deals.parquet` as `deals.csv` text (header included) to `w`:
/// the same bytes the run writes to `deals.csv` (tested).
pub fn to_csv(path: &Path, w: impl Write) -> Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(&header())?;
    for_each_record(path, |r, _| out.write_record(r).map_err(DealsError::from))?;
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
pub fn write_part(parts: &Path, u0: u64, u1: u64, batch: &Batch) -> Result<PathBuf> {
    let path = parts.join(part_name(u0, u1));
    let tmp = parts.join(format!("{}.tmp", part_name(u0, u1)));
    let f = File::create(&tmp).on("creating", &tmp)?;
    let mut w = SerializedFileWriter::new(BufWriter::new(f), schema(), properties(PART_LEVEL))?;
    write_group(&mut w, batch).on("writing", &tmp)?;
    let buf = w.into_inner().on("writing", &tmp)?;
    buf.into_inner().map_err(io::IntoInnerError::into_error).on("writing", &tmp)?;
    fs::rename(&tmp, &path).on("writing", &path)?;
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
        for e in fs::read_dir(parts).on("reading", parts)? {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            match part_range(&name) {
                Some((a, b)) if b <= end => found.push((a, b, e.path())),
                // A batch written after the last checkpoint, or a temporary file.
                _ => fs::remove_file(e.path()).on("removing", &e.path())?,
            }
        }
    } else {
        fs::create_dir_all(parts).on("creating", parts)?;
    }
    found.sort();
    let mut at = u0;
    for (a, b, p) in &found {
        ensure_parts!(
            *a == at,
            "{}: the rows of units {at} to {a} are missing; start the run again with --force",
            parts.display()
        );
        let n = row_count(p)?;
        ensure_parts!(
            n == (b - a) * rows_per_unit,
            "{}: holds {n} rows but its units {a} to {b} have {}; start the run again with --force",
            p.display(),
            (b - a) * rows_per_unit
        );
        at = *b;
    }
    ensure_parts!(
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

    /// Rows that exercise every kind of column: names with nulls, texts, integers
    /// with nulls among values, never null (`debt0`), null in one row group only
    /// (`took_over`) and always null (`agent3`, `pool3`); 50,000 of them, so that
    /// a group spans pages.
    fn golden_rows() -> Vec<DealRow<'static>> {
        const AGENTS: [&str; 3] = ["rule", "pimc:worlds=8,ms=3", "random"];
        const CONTRACTS: [&str; 4] = ["", "entrada", "vuelta", "solo"];
        const SUITS: [&str; 4] = ["oros", "copas", "espadas", "bastos"];
        const OUTCOMES: [&str; 3] = ["sacado", "puesta", "codillo"];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..50_000u64)
            .map(|i| {
                let r = next();
                let c = (r % 4) as usize;
                DealRow {
                    deal: i,
                    deal_seed: next(),
                    seating: ["012", "120", "201"][(i % 3) as usize],
                    rules: "tresillo",
                    agent0: AGENTS[(r >> 8) as usize % 3],
                    agent1: AGENTS[(r >> 10) as usize % 3],
                    agent2: "random",
                    dealer: (i % 3) as u8,
                    bids: format!("{}:{} {}:P {}", i % 3, r % 7, (i + 1) % 3, (r >> 40) % 500),
                    contract: CONTRACTS[c],
                    trump: if c == 0 { "" } else { SUITS[(r >> 12) as usize % 4] },
                    declarer: (c != 0).then_some((r >> 14) as u8 % 3),
                    declarer_agent: if c == 0 { "" } else { AGENTS[0] },
                    outcome: OUTCOMES[(r >> 16) as usize % 3],
                    took_over: (i < 45_000).then_some(1),
                    aip: ((r >> 20) % 5 == 0).then_some((r >> 22) as i64 % 100 - 50),
                    pool0: (r >> 24) as i64 % 40 - 20,
                    cond1: (r >> 28) as i64 % 7,
                    debt0: Some((r >> 30) as i64 % 9),
                    players: 3,
                    ..DealRow::default()
                }
            })
            .collect()
    }

    /// Writes the golden rows in groups of 45,000 rows from batches of `sizes` rows.
    fn write_golden(path: &Path, rows: &[DealRow<'_>], sizes: &[usize]) -> Vec<u8> {
        let mut w = GroupWriter::with_level(path, 0, 1, LEVEL).unwrap();
        w.group_rows = 45_000;
        w.left = 45_000;
        write_batches(&mut w, rows, sizes);
        w.close().unwrap();
        fs::read(path).unwrap()
    }

    /// Hands `rows` to `w` in batches of `sizes` rows.
    fn write_batches(w: &mut GroupWriter, rows: &[DealRow<'_>], sizes: &[usize]) {
        let mut at = 0;
        for &n in sizes {
            let mut b = RowBuilder::new();
            for r in &rows[at..at + n] {
                b.push(r);
            }
            w.write(&b.finish()).unwrap();
            at += n;
        }
    }

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tresillo-parquet-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    /// The files are byte for byte those parquet-rs's `ArrowWriter` wrote for the
    /// same rows before issue 37 took Arrow out (commit 400f20c's GroupWriter and
    /// write_part, run on these rows: the lengths and CRC-32s below), whatever the
    /// batches the rows arrive in; and they read back as the rows.
    #[test]
    fn the_bytes_are_those_arrows_writer_wrote() {
        let rows = golden_rows();
        let d = tmp("golden");
        let mut sizes = vec![7000; 7];
        sizes.push(1000);
        let pieces = write_golden(&d.join("pieces.parquet"), &rows, &sizes);
        let whole = write_golden(&d.join("whole.parquet"), &rows, &[50_000]);
        let small = write_golden(&d.join("small.parquet"), &rows[..40], &[40]);
        let mut b = RowBuilder::new();
        for r in &rows[..25_000] {
            b.push(r);
        }
        let part = fs::read(write_part(&d, 0, 25_000, &b.finish()).unwrap()).unwrap();
        let sum = |v: &[u8]| {
            let mut h = tresillo_durable::checksum::Hasher::new();
            h.update(v);
            (v.len(), h.finalize())
        };
        assert_eq!(sum(&pieces), (977_328, 0x0ff9_381a));
        assert!(whole == pieces, "the same bytes whatever the batches");
        assert_eq!(sum(&small), (14_083, 0x32bb_77ca));
        assert_eq!(sum(&part), (803_457, 0xfa82_6a96));
        assert_eq!(row_groups(&d.join("pieces.parquet")).unwrap(), [45_000, 5_000]);
        let mut text = Vec::new();
        to_csv(&d.join("pieces.parquet"), &mut text).unwrap();
        let mut expected = csv::Writer::from_writer(Vec::new());
        for r in &rows {
            expected.serialize(r).unwrap();
        }
        assert!(text == expected.into_inner().unwrap(), "the rows read back");
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
            .map(|&Column { name: n, kind, nullable }| {
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
        assert!("xml".parse::<Format>().unwrap_err().to_string().contains("csv, parquet or both"));
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
            write_batches(&mut w, &rows, &sizes);
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
        let other = Arc::new(
            Type::group_type_builder("schema")
                .with_fields(vec![Arc::new(
                    Type::primitive_type_builder("x", Physical::INT64)
                        .with_repetition(Repetition::REQUIRED)
                        .build()
                        .unwrap(),
                )])
                .build()
                .unwrap(),
        );
        let mut w = SerializedFileWriter::new(File::create(&p).unwrap(), other, Default::default()).unwrap();
        let mut g = w.next_row_group().unwrap();
        let mut c = g.next_column().unwrap().unwrap();
        c.typed::<Int64Type>().write_batch(&[1], None, None).unwrap();
        c.close().unwrap();
        g.close().unwrap();
        w.close().unwrap();
        let e = format!("{:#}", batches(&p).err().unwrap());
        assert!(e.contains(&p.display().to_string()) && e.contains("no column deal"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}
