//! Datasets of training rows (issue 51, docs/DATASETS.md): the rows of
//! [`tresillo_learn::data`] (one per action of every decision of played deals)
//! written as Parquet shards `rows-NNNNN.parquet` of [`DatasetConfig::shard_deals`]
//! deals each, with a `manifest.json`, by `tresillo dataset`; and read back
//! ([`read_rows`]) by `tresillo train` and the tests.
//!
//! The files are written with the `parquet` crate's column writers (as
//! `deals.parquet` is, [`crate::parquet`]): zstd, the Arrow schema in the footer
//! (so that pyarrow, pandas and polars see `fixed_size_binary` columns and the two
//! names as categories), no time in the metadata. Bit-packed columns are
//! fixed-size binaries; [`COLUMNS`] lists them and `tresillo schema dataset`
//! prints them.
//!
//! **Determinism.** A shard is a function of its deals' rows only (its row groups
//! hold the deals `[k·G, (k+1)·G)` of the dataset, G = [`GROUP_DEALS`]), and its
//! rows are the same whatever the thread count ([`tresillo_learn::play_deals`]),
//! so every shard is byte-identical whatever `--threads` and however often the
//! run was interrupted and resumed.
//!
//! **Resume.** A shard is written under a temporary name, fsynced and renamed
//! ([`tresillo_durable::write_atomic`]): a shard file that exists is whole. Each
//! holds its settings in its footer (key [`SHARD_KEY`]); `--resume` keeps the
//! shards of the same settings and plays the others.
//!
//! **Speed.** Row group g+1 is played (on every thread) while group g is encoded
//! into its shard's file, so writing costs little wall time beyond its CPU, and
//! one group's rows are in memory at a time, not a shard's.

use crate::error::{Context, OnFile, Result, bail, chain, ensure, invalid};
use base64::Engine as _;
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::column::reader::ColumnReader;
use parquet::data_type::{
    ByteArray, ByteArrayType, DataType as PqType, FixedLenByteArray, FixedLenByteArrayType, Int32Type,
    Int64Type,
};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, Type, TypePtr};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tresillo_agents::Registry;
use tresillo_core::Rules;
use tresillo_durable as durable;
use tresillo_learn::Row;
use tresillo_learn::data::{EXTRA_BYTES, LEGAL_BYTES, OBS_BYTES, Setup};

/// The manifest of a dataset directory.
pub const MANIFEST: &str = "manifest.json";
/// Deals per shard unless told otherwise.
pub const SHARD_DEALS: u64 = 10_000;
/// Deals per row group (about 45,000 rows of three-player rule play).
pub const GROUP_DEALS: u64 = 1_000;
/// The key of a shard's settings in its footer's key-value metadata.
pub const SHARD_KEY: &str = "tresillo:dataset";
/// The version of the files' columns (bumped when a column changes).
pub const FORMAT: u32 = 1;

/// The type of a dataset column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColKind {
    /// Unsigned 8-bit integer.
    U8,
    /// Unsigned 64-bit integer.
    U64,
    /// Signed 32-bit integer.
    I32,
    /// A UTF-8 name from a small set (a category in pandas).
    Name,
    /// Bytes of a fixed length (Arrow's `fixed_size_binary`).
    Fixed(usize),
}

impl ColKind {
    /// Its name in docs/DATASETS.md and `tresillo schema dataset`.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            ColKind::U8 => "uint8".into(),
            ColKind::U64 => "uint64".into(),
            ColKind::I32 => "int32".into(),
            ColKind::Name => "dictionary".into(),
            ColKind::Fixed(n) => format!("fixed_size_binary[{n}]"),
        }
    }
}

/// One column of a dataset file.
#[derive(Clone, Copy, Debug)]
pub struct DatasetColumn {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub kind: ColKind,
    /// What it holds (one line).
    pub doc: &'static str,
}

const fn col(name: &'static str, kind: ColKind, doc: &'static str) -> DatasetColumn {
    DatasetColumn { name, kind, doc }
}

/// The columns of a dataset file, in order (none may be null).
pub const COLUMNS: [DatasetColumn; 15] = [
    col("rules", ColKind::Name, "the rule set and its options not at their default (`tresillo rules`)"),
    col("players", ColKind::U8, "seats at the table, 3 or 4"),
    col("deal", ColKind::U64, "the deal's index in the dataset (the tournament's deal of the master seed)"),
    col("seed", ColKind::U64, "the deal's seed: its cards are `tresillo deal --seed SEED`"),
    col("seat", ColKind::U8, "the deciding seat (the dealer of deal i is seat i mod players)"),
    col("slot", ColKind::U8, "the agent that decided: its index in the dataset's agents (seat s is agent s)"),
    col("agent", ColKind::Name, "the spec of that agent"),
    col("phase", ColKind::U8, "the kind of request, 0..15 (the observation tensor's request index)"),
    col(
        "obs",
        ColKind::Fixed(OBS_BYTES),
        "the observation tensor's 416 values as bits, bit i%8 of byte i/8 (its 8 counts are 0 here)",
    ),
    col(
        "counts",
        ColKind::Fixed(8),
        "the tensor's counts undivided: tricks won (positions 381..385), cards exchanged (412..416)",
    ),
    col(
        "extra",
        ColKind::Fixed(EXTRA_BYTES),
        "196 more inputs as bits: cards each relative seat cannot hold (4x40), its auction (4x9)",
    ),
    col("legal", ColKind::Fixed(LEGAL_BYTES), "the legal action ids (0..153) as bits"),
    col("action", ColKind::U8, "the action id taken (the label of a policy)"),
    col(
        "owners",
        ColKind::Fixed(40),
        "where each card (by index) lies: 0 known, 1..3 the next seats' hands, 4 heap, 5 discards",
    ),
    col("tantos", ColKind::I32, "what the hand scored for the deciding seat (the label of a value)"),
];

/// The Parquet column of `c`.
fn parquet_type(c: &DatasetColumn) -> TypePtr {
    let (physical, logical, len) = match c.kind {
        ColKind::U8 => (Physical::INT32, Some(LogicalType::integer(8, false)), -1),
        ColKind::U64 => (Physical::INT64, Some(LogicalType::integer(64, false)), -1),
        ColKind::I32 => (Physical::INT32, None, -1),
        ColKind::Name => (Physical::BYTE_ARRAY, Some(LogicalType::String), -1),
        ColKind::Fixed(n) => (Physical::FIXED_LEN_BYTE_ARRAY, None, n as i32),
    };
    Arc::new(
        Type::primitive_type_builder(c.name, physical)
            .with_logical_type(logical)
            .with_length(len)
            .with_repetition(Repetition::REQUIRED)
            .build()
            .expect("a valid Parquet column"),
    )
}

/// The Parquet schema of a dataset file.
#[must_use]
pub fn schema() -> TypePtr {
    Arc::new(
        Type::group_type_builder("arrow_schema")
            .with_fields(COLUMNS.iter().map(parquet_type).collect())
            .build()
            .expect("a valid Parquet schema"),
    )
}

/// The Arrow schema of a dataset file as Arrow's Parquet writer stores it (see
/// [`crate::parquet::arrow_schema_ipc`]): an IPC `Schema` message behind the
/// continuation marker and its length. `U8`, `U64`, `I32` as `Int`, `Name` as a
/// dictionary of `Utf8` (`Int32` indices), `Fixed(n)` as `FixedSizeBinary(n)`;
/// none nullable.
#[must_use]
pub fn arrow_schema_ipc() -> Vec<u8> {
    use flatbuffers::{FlatBufferBuilder, TableFinishedWIPOffset, WIPOffset};
    // Slots and enum values of Arrow's format/Schema.fbs and format/Message.fbs.
    const INT_BIT_WIDTH: u16 = 4;
    const INT_IS_SIGNED: u16 = 6;
    const FSB_BYTE_WIDTH: u16 = 4;
    const DICT_ID: u16 = 4;
    const DICT_INDEX_TYPE: u16 = 6;
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
    const TYPE_FIXED_SIZE_BINARY: u8 = 15;
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
    for c in &COLUMNS {
        let name = fbb.create_string(c.name);
        let (type_type, type_) = match c.kind {
            ColKind::U8 => (TYPE_INT, int(&mut fbb, 8, false)),
            ColKind::U64 => (TYPE_INT, int(&mut fbb, 64, false)),
            ColKind::I32 => (TYPE_INT, int(&mut fbb, 32, true)),
            ColKind::Name => {
                let t = fbb.start_table();
                (TYPE_UTF8, fbb.end_table(t))
            }
            ColKind::Fixed(n) => {
                let t = fbb.start_table();
                fbb.push_slot(FSB_BYTE_WIDTH, n as i32, 0);
                (TYPE_FIXED_SIZE_BINARY, fbb.end_table(t))
            }
        };
        let children = fbb.create_vector(&no_children);
        let dictionary = (c.kind == ColKind::Name).then(|| {
            let index = int(&mut fbb, 32, true);
            let d = fbb.start_table();
            fbb.push_slot(DICT_ID, dict_id, 0);
            fbb.push_slot_always(DICT_INDEX_TYPE, index);
            dict_id += 1;
            fbb.end_table(d)
        });
        let f = fbb.start_table();
        fbb.push_slot_always(FIELD_NAME, name);
        if let Some(d) = dictionary {
            fbb.push_slot_always(FIELD_DICTIONARY, d);
        }
        fbb.push_slot(FIELD_TYPE_TYPE, type_type, 0);
        fbb.push_slot(FIELD_NULLABLE, false, false);
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

/// The schema as JSON (`tresillo schema dataset`): the format and layout
/// versions, each column's name, type and meaning, the names of the `owners`
/// values and how a network's input is unpacked.
#[must_use]
pub fn schema_json() -> String {
    let columns: Vec<serde_json::Value> = COLUMNS
        .iter()
        .map(|c| serde_json::json!({ "name": c.name, "type": c.kind.name(), "doc": c.doc }))
        .collect();
    let v = serde_json::json!({
        "format": FORMAT,
        "layout": tresillo_learn::features::LAYOUT,
        "columns": columns,
        "places": tresillo_learn::data::PLACES,
        "input": {
            "length": tresillo_learn::features::INPUT,
            "obs_bits": tresillo_learn::features::OBS,
            "count_positions": tresillo_learn::features::COUNT_POSITIONS,
            "count_scale": 9,
            "extra_bits": tresillo_learn::features::EXTRA,
        },
    });
    let mut s = serde_json::to_string_pretty(&v).expect("JSON of plain values");
    s.push('\n');
    s
}

/// What every row of one file shares: written as the `rules`, `players` and
/// `agent` columns, and (with the deals) in the footer under [`SHARD_KEY`].
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ShardInfo {
    /// The version of the columns ([`FORMAT`]).
    pub format: u32,
    /// The input layout ([`tresillo_learn::features::LAYOUT`]).
    pub layout: u32,
    /// The rule set as `tresillo rules` names it, with its options.
    pub rules: String,
    /// Seats at the table.
    pub players: u8,
    /// The master seed.
    pub seed: u64,
    /// The agent specs, one per seat.
    pub agents: Vec<String>,
    /// The exploration percentage of auction and contract decisions.
    pub explore: u32,
    /// The kinds of request whose rows are kept ([`tresillo_learn::data::PHASES`]
    /// names); empty: every row.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<String>,
    /// The first deal of the file.
    pub first_deal: u64,
    /// Its number of deals.
    pub deals: u64,
}

/// The writer's settings: zstd 1, no dictionary, statistics or page index for the
/// bit columns (nearly every value differs), the Arrow schema and `info` in the
/// key-value metadata, `created_by` naming this version (no time).
fn properties(info: &ShardInfo) -> Arc<WriterProperties> {
    let mut b = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(1).expect("a valid zstd level")))
        .set_created_by(format!("tresillo {} (parquet-rs)", env!("CARGO_PKG_VERSION")))
        .set_max_row_group_row_count(None)
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_key_value_metadata(Some(vec![
            KeyValue::new(
                crate::parquet::ARROW_SCHEMA_KEY.to_string(),
                base64::engine::general_purpose::STANDARD.encode(arrow_schema_ipc()),
            ),
            KeyValue::new(SHARD_KEY.to_string(), serde_json::to_string(info).expect("JSON of plain values")),
        ]));
    for c in &COLUMNS {
        if let ColKind::Fixed(_) = c.kind {
            let path = ColumnPath::from(c.name);
            b = b
                .set_column_dictionary_enabled(path.clone(), false)
                .set_column_statistics_enabled(path, EnabledStatistics::None);
        }
    }
    Arc::new(b.build())
}

/// Writes one column of a row group.
fn write_column<T: PqType>(
    group: &mut parquet::file::writer::SerializedRowGroupWriter<'_, Vec<u8>>,
    values: &[T::T],
) -> Result<()> {
    let mut w = group.next_column()?.context("a column of the schema")?;
    w.typed::<T>().write_batch(values, None, None)?;
    w.close()?;
    Ok(())
}

/// The bytes of a dataset file of `rows` (in deal order, every deal of `info`),
/// one row group per [`GROUP_DEALS`] deals of the dataset.
pub fn encode(rows: &[Row], info: &ShardInfo) -> Result<Vec<u8>> {
    let mut w = SerializedFileWriter::new(Vec::new(), schema(), properties(info))?;
    let mut at = 0;
    while at < rows.len() {
        let group = rows[at].deal / GROUP_DEALS;
        let n = rows[at..].iter().take_while(|r| r.deal / GROUP_DEALS == group).count();
        write_group(&mut w, &rows[at..at + n], info)?;
        at += n;
    }
    Ok(w.into_inner()?)
}

/// Writes `rows` as one row group.
fn write_group(w: &mut SerializedFileWriter<Vec<u8>>, rows: &[Row], info: &ShardInfo) -> Result<()> {
    let n = rows.len();
    let mut g = w.next_row_group()?;
    let rules = ByteArray::from(info.rules.as_str());
    let agents: Vec<ByteArray> = info.agents.iter().map(|a| ByteArray::from(a.as_str())).collect();
    let u8s = |f: fn(&Row) -> u8| rows.iter().map(|r| i32::from(f(r))).collect::<Vec<i32>>();
    // The fixed-size columns: one buffer, each value a slice of it.
    let fixed = |width: usize, f: &dyn Fn(&Row) -> &[u8]| -> Vec<FixedLenByteArray> {
        let mut buf = Vec::with_capacity(n * width);
        for r in rows {
            buf.extend_from_slice(f(r));
        }
        let buf = bytes::Bytes::from(buf);
        (0..n)
            .map(|i| FixedLenByteArray::from(ByteArray::from(buf.slice(i * width..(i + 1) * width))))
            .collect()
    };
    write_column::<ByteArrayType>(&mut g, &vec![rules; n])?;
    write_column::<Int32Type>(&mut g, &vec![i32::from(info.players); n])?;
    write_column::<Int64Type>(&mut g, &rows.iter().map(|r| r.deal as i64).collect::<Vec<_>>())?;
    write_column::<Int64Type>(&mut g, &rows.iter().map(|r| r.seed as i64).collect::<Vec<_>>())?;
    write_column::<Int32Type>(&mut g, &u8s(|r| r.seat))?;
    write_column::<Int32Type>(&mut g, &u8s(|r| r.slot))?;
    let agent: Vec<ByteArray> = rows
        .iter()
        .map(|r| agents.get(usize::from(r.slot)).cloned().context("a row of a slot with no agent"))
        .collect::<Result<_>>()?;
    write_column::<ByteArrayType>(&mut g, &agent)?;
    write_column::<Int32Type>(&mut g, &u8s(|r| r.phase))?;
    write_column::<FixedLenByteArrayType>(&mut g, &fixed(OBS_BYTES, &|r| &r.obs))?;
    write_column::<FixedLenByteArrayType>(&mut g, &fixed(8, &|r| &r.counts))?;
    write_column::<FixedLenByteArrayType>(&mut g, &fixed(EXTRA_BYTES, &|r| &r.extra))?;
    write_column::<FixedLenByteArrayType>(&mut g, &fixed(LEGAL_BYTES, &|r| &r.legal))?;
    write_column::<Int32Type>(&mut g, &u8s(|r| r.action))?;
    write_column::<FixedLenByteArrayType>(&mut g, &fixed(40, &|r| &r.owners))?;
    write_column::<Int32Type>(&mut g, &rows.iter().map(|r| r.tantos).collect::<Vec<_>>())?;
    g.close()?;
    Ok(())
}

/// Opens a dataset file and checks its columns: one line naming the file when it
/// is truncated, not Parquet, or of other columns.
fn open(path: &Path) -> Result<SerializedFileReader<fs::File>> {
    let f = fs::File::open(path).on("reading", path)?;
    check(SerializedFileReader::new(f), path)
}

/// [`open`] of a file's bytes, read already.
fn open_bytes(bytes: Vec<u8>, path: &Path) -> Result<SerializedFileReader<bytes::Bytes>> {
    check(SerializedFileReader::new(bytes::Bytes::from(bytes)), path)
}

/// A reader of a file whose columns are checked.
fn check<R: parquet::file::reader::ChunkReader + 'static>(
    r: parquet::errors::Result<SerializedFileReader<R>>,
    path: &Path,
) -> Result<SerializedFileReader<R>> {
    let r = r.map_err(|e| {
        invalid!("{}: not a readable Parquet file (truncated or damaged?): {e}", path.display())
    })?;
    let want = schema();
    let have = r.metadata().file_metadata().schema_descr();
    let same = have.num_columns() == COLUMNS.len()
        && have.columns().iter().zip(want.get_fields()).all(|(h, w)| h.self_type() == w.as_ref());
    if !same {
        let names: Vec<&str> = have.columns().iter().map(|c| c.name()).collect();
        let missing: Vec<&str> = COLUMNS.iter().map(|c| c.name).filter(|n| !names.contains(n)).collect();
        bail!(
            "{}: not a dataset file of this version of tresillo ({})",
            path.display(),
            if missing.is_empty() {
                "its columns differ in order or type".to_string()
            } else {
                format!("no column {}", missing.join(", "))
            }
        );
    }
    Ok(r)
}

/// The settings a dataset file holds in its footer ([`SHARD_KEY`]), checked as
/// [`read_rows`] checks the file.
pub fn read_info(path: &Path) -> Result<ShardInfo> {
    info_of(&open(path)?, path)
}

fn info_of<R: parquet::file::reader::ChunkReader + 'static>(
    r: &SerializedFileReader<R>,
    path: &Path,
) -> Result<ShardInfo> {
    let kv = r.metadata().file_metadata().key_value_metadata();
    let text = kv
        .and_then(|kv| kv.iter().find(|k| k.key == SHARD_KEY))
        .and_then(|k| k.value.as_deref())
        .with_context(|| {
            format!("{}: not a tresillo dataset file (no {SHARD_KEY} in its footer)", path.display())
        })?;
    let info: ShardInfo = serde_json::from_str(text)
        .with_context(|| format!("{}: a damaged {SHARD_KEY} in its footer", path.display()))?;
    ensure!(
        info.format == FORMAT,
        "{}: a dataset file of format {}, this tresillo reads format {FORMAT}",
        path.display(),
        info.format
    );
    Ok(info)
}

/// The number of rows of a dataset file, from its footer.
pub fn row_count(path: &Path) -> Result<u64> {
    Ok(open(path)?.metadata().file_metadata().num_rows().max(0) as u64)
}

/// Reads `n` values of one column.
fn read_values<T: PqType>(
    r: &mut parquet::column::reader::ColumnReaderImpl<T>,
    n: usize,
    out: &mut Vec<T::T>,
) -> Result<()> {
    out.clear();
    while out.len() < n {
        let (got, _, _) = r.read_records(n - out.len(), None, None, out)?;
        ensure!(got > 0, "a column chunk ends before its row group's last row");
    }
    Ok(())
}

/// The rows of a dataset file, in order. A file that is not one (truncated,
/// damaged, another Parquet file) is a one-line error naming it.
pub fn read_rows(path: &Path) -> Result<Vec<Row>> {
    let bytes = fs::read(path).on("reading", path)?;
    rows_of(bytes, path)
}

/// The rows of a dataset file's bytes (`path` names it in errors).
fn rows_of(bytes: Vec<u8>, path: &Path) -> Result<Vec<Row>> {
    let r = open_bytes(bytes, path)?;
    info_of(&r, path)?;
    read_groups(&r)
        .map_err(|e| invalid!("{}: unreadable rows (truncated or damaged?): {}", path.display(), chain(&e)))
}

fn read_groups<R: parquet::file::reader::ChunkReader + 'static>(
    r: &SerializedFileReader<R>,
) -> Result<Vec<Row>> {
    let total = usize::try_from(r.metadata().file_metadata().num_rows().max(0)).unwrap_or(usize::MAX);
    let mut rows = Vec::with_capacity(total);
    let (mut ints, mut longs, mut fixed) = (Vec::new(), Vec::new(), Vec::new());
    let blank = Row {
        deal: 0,
        seed: 0,
        seat: 0,
        slot: 0,
        phase: 0,
        obs: [0; OBS_BYTES],
        counts: [0; 8],
        extra: [0; EXTRA_BYTES],
        legal: [0; LEGAL_BYTES],
        action: 0,
        owners: [0; 40],
        tantos: 0,
    };
    for gi in 0..r.num_row_groups() {
        let g = r.get_row_group(gi)?;
        let n = usize::try_from(g.metadata().num_rows().max(0)).unwrap_or(usize::MAX);
        let start = rows.len();
        rows.resize(start + n, blank.clone());
        let group = &mut rows[start..];
        for (ci, c) in COLUMNS.iter().enumerate() {
            // What the footer's settings hold too: not in a row.
            if c.kind == ColKind::Name || c.name == "players" {
                continue;
            }
            match (g.get_column_reader(ci)?, c.kind) {
                (ColumnReader::Int32ColumnReader(mut cr), ColKind::U8 | ColKind::I32) => {
                    read_values(&mut cr, n, &mut ints)?;
                    for (row, &v) in group.iter_mut().zip(&ints) {
                        let b = || u8::try_from(v).map_err(|_| invalid!("{} {v} is not a byte", c.name));
                        match c.name {
                            "seat" => row.seat = b()?,
                            "slot" => row.slot = b()?,
                            "phase" => row.phase = b()?,
                            "action" => row.action = b()?,
                            "tantos" => row.tantos = v,
                            _ => {}
                        }
                    }
                }
                (ColumnReader::Int64ColumnReader(mut cr), ColKind::U64) => {
                    read_values(&mut cr, n, &mut longs)?;
                    for (row, &v) in group.iter_mut().zip(&longs) {
                        match c.name {
                            "deal" => row.deal = v as u64,
                            _ => row.seed = v as u64,
                        }
                    }
                }
                (ColumnReader::FixedLenByteArrayColumnReader(mut cr), ColKind::Fixed(w)) => {
                    read_values(&mut cr, n, &mut fixed)?;
                    for (row, v) in group.iter_mut().zip(&fixed) {
                        let v = v.data();
                        ensure!(v.len() == w, "a {} value of {} bytes, not {w}", c.name, v.len());
                        match c.name {
                            "obs" => row.obs.copy_from_slice(v),
                            "counts" => row.counts.copy_from_slice(v),
                            "extra" => row.extra.copy_from_slice(v),
                            "legal" => row.legal.copy_from_slice(v),
                            _ => row.owners.copy_from_slice(v),
                        }
                    }
                }
                _ => bail!("column {} is not of its type", c.name),
            }
        }
    }
    Ok(rows)
}

/// What a dataset plays ([`make`]).
#[derive(Clone, Debug)]
pub struct DatasetConfig {
    /// One agent spec per seat.
    pub agents: Vec<String>,
    /// The rule set and its options.
    pub rules: Rules,
    /// Seats at the table.
    pub players: u8,
    /// The master seed.
    pub seed: u64,
    /// Deals to play.
    pub deals: u64,
    /// Exploration percentage of auction and contract decisions (0..=100).
    pub explore: u32,
    /// The kinds of request whose rows are kept, a mask of
    /// [`tresillo_learn::data::PHASES`] indices ([`tresillo_learn::data::phase_mask`]);
    /// 0: every row.
    pub phases: u16,
    /// Deals per shard file.
    pub shard_deals: u64,
}

/// How a dataset is written ([`make`]).
pub struct DatasetOptions<'a> {
    /// The output directory.
    pub out: PathBuf,
    /// Worker threads (`None`: all cores); the files do not depend on it.
    pub threads: Option<usize>,
    /// Continue the dataset in `out`.
    pub resume: bool,
    /// Replace the dataset in `out`.
    pub force: bool,
    /// Lines of progress and notes (on standard error for the CLI).
    pub note: &'a (dyn Fn(&str) + Sync),
    /// Whether to report progress through `note`.
    pub progress: bool,
    /// The build writing the manifest.
    pub build: Option<crate::Build>,
}

/// One shard of a manifest.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ShardEntry {
    /// Its file name in the directory.
    pub file: String,
    /// Its first deal.
    pub first_deal: u64,
    /// Its deals.
    pub deals: u64,
    /// Its rows.
    pub rows: u64,
    /// Its size in bytes.
    pub bytes: u64,
    /// The CRC-32 of its bytes (zlib's, 8 hex digits).
    pub crc32: String,
}

/// `manifest.json` of a dataset directory.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct DatasetManifest {
    /// Always `tresillo`.
    pub tool: String,
    /// Always `dataset`.
    pub kind: String,
    /// The tool's version.
    pub version: String,
    /// The build that wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<crate::Build>,
    /// The version of the files' columns ([`FORMAT`]).
    pub format: u32,
    /// The input layout ([`tresillo_learn::features::LAYOUT`]).
    pub layout: u32,
    /// One agent spec per seat.
    pub agents: Vec<String>,
    /// The rule set with its options.
    pub rules: String,
    /// Seats at the table.
    pub players: u8,
    /// The master seed.
    pub seed: u64,
    /// Deals of the whole dataset.
    pub deals: u64,
    /// Exploration percentage.
    pub explore: u32,
    /// The kinds of request whose rows are kept; empty (and absent): every row.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<String>,
    /// Deals per shard.
    pub shard_deals: u64,
    /// Whether every shard is written.
    pub complete: bool,
    /// Rows of the shards written.
    pub rows: u64,
    /// The shards written, in order.
    pub shards: Vec<ShardEntry>,
    /// The command line that last wrote it.
    pub command: Vec<String>,
}

impl DatasetManifest {
    /// The settings that make the rows, named, for comparing a resumed dataset's.
    fn settings(&self) -> [(&'static str, String); 10] {
        [
            ("format", self.format.to_string()),
            ("layout", self.layout.to_string()),
            ("agents", self.agents.join(",")),
            ("rules", self.rules.clone()),
            ("players", self.players.to_string()),
            ("seed", self.seed.to_string()),
            ("deals", self.deals.to_string()),
            ("explore", self.explore.to_string()),
            ("phases", if self.phases.is_empty() { "all".into() } else { self.phases.join(",") }),
            ("shard deals", self.shard_deals.to_string()),
        ]
    }

    /// The number of shards of the whole dataset.
    #[must_use]
    pub fn shard_count(&self) -> u64 {
        self.deals.div_ceil(self.shard_deals.max(1))
    }
}

/// Reads a dataset directory's `manifest.json`.
pub fn read_manifest(dir: &Path) -> Result<DatasetManifest> {
    let p = dir.join(MANIFEST);
    let text = fs::read_to_string(&p).on("reading", &p)?;
    let m: DatasetManifest =
        serde_json::from_str(&text).with_context(|| format!("{}: not a dataset manifest", p.display()))?;
    ensure!(m.kind == "dataset", "{}: the manifest of a {}, not a dataset", p.display(), m.kind);
    Ok(m)
}

/// Every row of the complete dataset in `dir`, in order, with its manifest: each
/// shard the manifest lists checked against its size and CRC-32 and read
/// ([`read_rows`]); a dataset of another input layout, unfinished, or with a
/// missing or damaged shard is one error line naming it.
pub fn read_dataset(dir: &Path) -> Result<(DatasetManifest, Vec<Row>)> {
    let m = read_manifest(dir)?;
    let layout = tresillo_learn::features::LAYOUT;
    ensure!(
        m.layout == layout,
        "{}: a dataset of input layout {}, and this tresillo's is {layout}: make it again",
        dir.display(),
        m.layout
    );
    ensure!(
        m.complete,
        "{}: an unfinished dataset ({} of {} shards); `tresillo dataset --resume` completes it",
        dir.display(),
        m.shards.len(),
        m.shard_count()
    );
    let mut rows = Vec::with_capacity(usize::try_from(m.rows).unwrap_or(0));
    for s in &m.shards {
        let p = dir.join(&s.file);
        let bytes = fs::read(&p).on("reading", &p)?;
        let crc = tresillo_durable::checksum::of(&bytes);
        ensure!(
            bytes.len() as u64 == s.bytes && crc == s.crc32,
            "{}: its bytes do not match the size and checksum its manifest records (damaged?)",
            p.display()
        );
        let part = rows_of(bytes, &p)?;
        ensure!(
            part.len() as u64 == s.rows,
            "{}: holds {} rows, its manifest says {}",
            p.display(),
            part.len(),
            s.rows
        );
        rows.extend(part);
    }
    Ok((m, rows))
}

/// `tresillo verify DIR` of a dataset directory: every shard its manifest lists
/// has the size and CRC-32 it records (a complete dataset every shard); returns the
/// line printed and the number of files checked. The first bad file is named in a
/// one-line error.
pub fn verify(dir: &Path) -> Result<(String, usize)> {
    let m = read_manifest(dir)?;
    if m.complete {
        ensure!(
            m.shards.len() as u64 == m.shard_count(),
            "{}: marked complete but lists {} of its {} shards",
            dir.join(MANIFEST).display(),
            m.shards.len(),
            m.shard_count()
        );
    }
    for s in &m.shards {
        let p = dir.join(&s.file);
        let len = fs::metadata(&p).on("reading", &p)?.len();
        ensure!(len == s.bytes, "{}: {len} bytes, its manifest records {}", p.display(), s.bytes);
        tresillo_durable::checksum::verify(&p, None, &s.crc32)?;
    }
    let state = if m.complete {
        format!("complete dataset of {} rows of {} deals", m.rows, m.deals)
    } else {
        format!("dataset in progress, {} of {} shards written", m.shards.len(), m.shard_count())
    };
    Ok((
        format!("ok: {}: {state}; {} files match their checksums", dir.display(), m.shards.len()),
        m.shards.len(),
    ))
}

/// Whether `dir`'s manifest is a dataset's.
#[must_use]
pub fn is_dataset(dir: &Path) -> bool {
    fs::read_to_string(dir.join(MANIFEST))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .is_some_and(|v| v["kind"] == "dataset")
}

/// The file name of shard `k`.
#[must_use]
pub fn shard_name(k: u64) -> String {
    format!("rows-{k:05}.parquet")
}

/// The shard files of `dir` (complete ones: written atomically), in order.
pub fn shard_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut v = Vec::new();
    for e in fs::read_dir(dir).on("reading", dir)? {
        let p = e?.path();
        let name = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if name.starts_with("rows-") && name.ends_with(".parquet") {
            v.push(p);
        }
    }
    v.sort();
    Ok(v)
}

/// What [`make`] did.
#[derive(Clone, Debug)]
pub struct Made {
    /// The manifest written.
    pub manifest: DatasetManifest,
    /// Rows played by this call (not those of shards kept on resume).
    pub rows_played: u64,
    /// Seconds this call took.
    pub seconds: f64,
}

impl std::fmt::Display for Made {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = &self.manifest;
        let shards =
            if m.shards.len() == 1 { "1 shard".to_string() } else { format!("{} shards", m.shards.len()) };
        writeln!(
            f,
            "{} rows of {} deals in {shards}; {} rows played in {:.1} s ({:.0} rows/s)",
            m.rows,
            m.deals,
            self.rows_played,
            self.seconds,
            self.rows_played as f64 / self.seconds.max(1e-9)
        )
    }
}

/// Refuses settings no dataset can be made of (and agents the registry cannot build).
fn check_config(config: &DatasetConfig, registry: &Registry, a: &DatasetOptions<'_>) -> Result<()> {
    ensure!(
        !(a.resume && a.force),
        "--resume and --force exclude each other: --resume continues the dataset, --force replaces it"
    );
    ensure!(
        config.agents.len() == usize::from(config.players),
        "--agents names {} agents, and a table of {} needs {}",
        config.agents.len(),
        config.players,
        config.players
    );
    config.rules.check_players(config.players)?;
    ensure!(config.explore <= 100, "--explore {} is not a percentage (0 to 100)", config.explore);
    ensure!(config.shard_deals > 0, "--shard-deals must be at least 1");
    for s in &config.agents {
        registry.build_agent(s)?;
    }
    Ok(())
}

/// The manifest of a dataset of `config` with no shard yet.
fn new_manifest(config: &DatasetConfig, a: &DatasetOptions<'_>, command: Vec<String>) -> DatasetManifest {
    DatasetManifest {
        tool: "tresillo".into(),
        kind: "dataset".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        build: a.build.clone(),
        format: FORMAT,
        layout: tresillo_learn::features::LAYOUT,
        agents: config.agents.clone(),
        rules: config.rules.to_string(),
        players: config.players,
        seed: config.seed,
        deals: config.deals,
        explore: config.explore,
        phases: phase_names(config.phases),
        shard_deals: config.shard_deals,
        complete: false,
        rows: 0,
        shards: Vec::new(),
        command,
    }
}

/// Makes the locked directory `dir` ready for the dataset `manifest`: a dataset
/// there is resumed (the same settings) or removed (`force`), or refused; the
/// temporary files a kill left behind are removed.
fn claim(dir: &Path, a: &DatasetOptions<'_>, manifest: &DatasetManifest) -> Result<()> {
    let mpath = dir.join(MANIFEST);
    let existing = shard_files(dir)?;
    let has_manifest = mpath.exists();
    if a.resume && !has_manifest {
        // Killed before its manifest was written (shards never are before it).
        (a.note)(&format!("{}: no dataset to resume there; starting it", dir.display()));
    } else if a.resume {
        let old = read_manifest(dir)?;
        for ((name, was), (_, now)) in old.settings().iter().zip(manifest.settings()) {
            ensure!(
                *was == now,
                "--resume: {} holds a dataset of {name} {was}, not {now}; --force replaces it",
                dir.display()
            );
        }
    } else if has_manifest || !existing.is_empty() {
        if !a.force {
            let what = match read_manifest(dir) {
                Ok(m) if m.complete => "a dataset".to_string(),
                Ok(m) => format!("an unfinished dataset ({} of {} shards)", m.shards.len(), m.shard_count()),
                Err(_) => "dataset files".to_string(),
            };
            bail!("{} already holds {what}; --resume continues it, --force replaces it", dir.display());
        }
        for p in &existing {
            fs::remove_file(p).on("removing", p)?;
        }
        if has_manifest {
            fs::remove_file(&mpath).on("removing", &mpath)?;
        }
    }
    // Temporary files a kill left behind.
    for e in fs::read_dir(dir).on("reading", dir)? {
        let p = e?.path();
        let name = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if name.starts_with("rows-") && name.ends_with(".tmp") {
            fs::remove_file(&p).on("removing", &p)?;
        }
    }
    Ok(())
}

/// A shard being written: its file's writer and rows so far.
struct Open {
    k: u64,
    writer: SerializedFileWriter<Vec<u8>>,
    rows: u64,
}

/// The dataset's shards as they are written, and its manifest, rewritten after
/// each shard with the shards written so far.
struct Shards<'c> {
    dir: &'c Path,
    config: &'c DatasetConfig,
    rules: String,
    manifest: DatasetManifest,
    entries: Vec<Option<ShardEntry>>,
    /// The shard being written.
    open: Option<Open>,
    /// Rows written by this call.
    played: u64,
}

impl Shards<'_> {
    fn count(&self) -> u64 {
        self.manifest.shard_count()
    }

    /// What shard `k`'s file holds (its settings and deals).
    fn info(&self, k: u64) -> ShardInfo {
        let config = self.config;
        let first = k * config.shard_deals;
        ShardInfo {
            format: FORMAT,
            layout: tresillo_learn::features::LAYOUT,
            rules: self.rules.clone(),
            players: config.players,
            seed: config.seed,
            agents: config.agents.clone(),
            explore: config.explore,
            phases: phase_names(config.phases),
            first_deal: first,
            deals: config.shard_deals.min(config.deals - first),
        }
    }

    /// The shards to play: those not kept (with `resume`, a shard whose file
    /// checks is kept, and listed).
    fn unplayed(&mut self, a: &DatasetOptions<'_>) -> Vec<u64> {
        let mut todo = Vec::new();
        for k in 0..self.count() {
            let p = self.dir.join(shard_name(k));
            if a.resume && p.exists() {
                match keep(&p, &self.info(k)) {
                    Ok(e) => {
                        self.entries[k as usize] = Some(e);
                        continue;
                    }
                    Err(e) => (a.note)(&format!("{e:#}; playing it again")),
                }
            }
            todo.push(k);
        }
        todo
    }

    /// The manifest's list of shards from those written so far.
    fn listed(&mut self) {
        let m = &mut self.manifest;
        m.shards = self.entries.iter().flatten().cloned().collect();
        m.rows = m.shards.iter().map(|s| s.rows).sum();
        m.complete = m.shards.len() as u64 == m.shard_count();
    }

    fn write_manifest(&self) -> Result<()> {
        let mut text = serde_json::to_string_pretty(&self.manifest)?;
        text.push('\n');
        durable::write_atomic(&self.dir.join(MANIFEST), text.as_bytes())?;
        Ok(())
    }

    /// Shard `o`'s file written; its entry.
    fn finish(&self, o: Open) -> Result<ShardEntry> {
        let inf = self.info(o.k);
        let bytes = o.writer.into_inner()?;
        let p = self.dir.join(shard_name(o.k));
        durable::write_atomic(&p, &bytes)?;
        Ok(ShardEntry {
            file: shard_name(o.k),
            first_deal: inf.first_deal,
            deals: inf.deals,
            rows: o.rows,
            bytes: bytes.len() as u64,
            crc32: tresillo_durable::checksum::of(&bytes),
        })
    }

    /// Adds the rows of one row group to shard `k`'s file, opening it (and
    /// finishing the one before) as needed; returns the shard finished.
    fn add(&mut self, k: u64, rows: &[Row]) -> Result<Option<ShardEntry>> {
        let mut finished = None;
        if self.open.as_ref().is_some_and(|o| o.k != k)
            && let Some(o) = self.open.take()
        {
            finished = Some(self.finish(o)?);
        }
        if self.open.is_none() {
            let writer = SerializedFileWriter::new(Vec::new(), schema(), properties(&self.info(k)))?;
            self.open = Some(Open { k, writer, rows: 0 });
        }
        let inf = self.info(k);
        if let Some(o) = self.open.as_mut()
            && !rows.is_empty()
        {
            write_group(&mut o.writer, rows, &inf)?;
            o.rows += rows.len() as u64;
        }
        Ok(finished)
    }

    /// The shard `e` written: listed in the manifest, which is rewritten.
    fn record(&mut self, e: ShardEntry) -> Result<()> {
        self.played += e.rows;
        let k = (e.first_deal / self.config.shard_deals) as usize;
        self.entries[k] = Some(e);
        self.listed();
        self.manifest.complete = false;
        self.write_manifest()
    }

    /// The row groups to play, in order: (shard, deals), the deals of a group
    /// ([`GROUP_DEALS`] of the dataset) within its shard.
    fn groups(&self, todo: &[u64]) -> Vec<(u64, std::ops::Range<u64>)> {
        let mut units = Vec::new();
        for &k in todo {
            let inf = self.info(k);
            let mut d = inf.first_deal;
            let end = inf.first_deal + inf.deals;
            while d < end {
                let next = ((d / GROUP_DEALS + 1) * GROUP_DEALS).min(end);
                units.push((k, d..next));
                d = next;
            }
        }
        units
    }

    /// Plays the row groups `units` into their shards (group g is played while
    /// group g-1 is encoded into its shard's file); true when an interruption
    /// stopped it (between shards only: the shard begun is finished).
    fn play(
        &mut self,
        units: Vec<(u64, std::ops::Range<u64>)>,
        registry: &Registry,
        a: &DatasetOptions<'_>,
    ) -> Result<bool> {
        let config = self.config;
        let setup = Setup {
            rules: config.rules,
            players: config.players,
            seed: config.seed,
            explore: config.explore,
            phases: config.phases,
        };
        let mut last_note = std::time::Instant::now();
        let mut pending: Option<(u64, Vec<Row>)> = None;
        for (k, range) in units {
            // Stopped between shards only: the shard begun is finished.
            if range.start == self.info(k).first_deal && tresillo_agents::interrupt::stop_requested() {
                return Ok(true);
            }
            let (rows, done) = rayon::join(
                || tresillo_learn::play_deals(&setup, &config.agents, registry, range),
                || match pending.take() {
                    Some((j, rows)) => self.add(j, &rows),
                    None => Ok(None),
                },
            );
            if let Some(e) = done? {
                self.record(e)?;
            }
            pending = Some((k, rows?));
            if a.progress && last_note.elapsed().as_secs_f64() >= crate::progress_every() {
                last_note = std::time::Instant::now();
                let n = self.entries.iter().flatten().count();
                (a.note)(&format!("{n} of {} shards written, {} rows this run", self.count(), self.played));
            }
        }
        if let Some((j, rows)) = pending.take()
            && let Some(e) = self.add(j, &rows)?
        {
            self.record(e)?;
        }
        if let Some(o) = self.open.take() {
            let e = self.finish(o)?;
            self.record(e)?;
        }
        Ok(false)
    }
}

/// Plays the deals of `config` with agents from `registry` into the dataset
/// directory `a.out` (see the module docs): refuses a directory holding a
/// dataset unless `resume` (the same settings: the missing shards are played)
/// or `force` (its shards and manifest are removed first); locks it while
/// writing. An interruption ([`tresillo_agents::interrupt`]) ends after the
/// shard being written, with [`tresillo_sim::SimError::Interrupted`].
pub fn make(
    config: &DatasetConfig,
    registry: &Registry,
    a: &DatasetOptions<'_>,
    command: Vec<String>,
) -> Result<Made> {
    let t0 = std::time::Instant::now();
    check_config(config, registry, a)?;
    let dir = &a.out;
    crate::check_run_dir(dir)?;
    let _lock = crate::lock_dir(dir)?;
    let manifest = new_manifest(config, a, command);
    claim(dir, a, &manifest)?;
    let rules = manifest.rules.clone();
    let n_shards = manifest.shard_count();
    let mut shards = Shards {
        dir,
        config,
        rules,
        manifest,
        entries: vec![None; n_shards as usize],
        open: None,
        played: 0,
    };
    // The shards kept (resume), the others to play.
    let todo = shards.unplayed(a);
    shards.listed();
    shards.manifest.complete = false;
    shards.write_manifest()?;
    let pool = crate::run::pool(a.threads)?;
    let units = shards.groups(&todo);
    let interrupted = pool.install(|| shards.play(units, registry, a))?;
    shards.listed();
    shards.write_manifest()?;
    if interrupted && !shards.manifest.complete {
        return Err(tresillo_sim::SimError::Interrupted.into());
    }
    Ok(Made { manifest: shards.manifest, rows_played: shards.played, seconds: t0.elapsed().as_secs_f64() })
}

/// The names of the phases of `mask` (none for 0: every row).
fn phase_names(mask: u16) -> Vec<String> {
    let names = tresillo_learn::data::PHASES;
    (0..names.len()).filter(|i| mask & (1 << i) != 0).map(|i| names[i].to_string()).collect()
}

/// The manifest entry of a shard kept on resume: readable, of the settings `want`.
fn keep(p: &Path, want: &ShardInfo) -> Result<ShardEntry> {
    let r = open(p)?;
    let have = info_of(&r, p)?;
    ensure!(have == *want, "{}: a shard of other settings", p.display());
    let bytes = fs::read(p).on("reading", p)?;
    Ok(ShardEntry {
        file: p.file_name().unwrap_or_default().to_string_lossy().into_owned(),
        first_deal: want.first_deal,
        deals: want.deals,
        rows: r.metadata().file_metadata().num_rows().max(0) as u64,
        bytes: bytes.len() as u64,
        crc32: tresillo_durable::checksum::of(&bytes),
    })
}
