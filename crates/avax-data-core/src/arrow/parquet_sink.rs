//! Writes record batches into a Parquet file as they come: memory stays at one row group.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, GzipLevel, ZstdLevel};
use parquet::file::properties::WriterProperties;

use crate::error::{Error, Result};

/// Default rows per Parquet row group: bounds the writer's memory.
pub const ROW_GROUP_ROWS: usize = 64 * 1024;

/// Most bytes a row group buffers (the writer's estimate of its encoded size) before it is
/// written out, whatever `row_group_size` allows: bounds the memory of an export of large rows
/// (65,536 decoded `C/block` rows hold hundreds of MB) and the work a Ctrl-C waits for when the
/// file is finished.
pub const ROW_GROUP_BYTES: usize = 64 << 20;

/// The compressions a Parquet export can use.
pub const COMPRESSIONS: &str = "one of snappy, zstd, lz4, gzip, none";

/// How a Parquet file is written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParquetOptions {
    /// The codec of every column.
    pub compression: Compression,
    /// Most rows per row group.
    pub row_group_size: usize,
}

impl Default for ParquetOptions {
    fn default() -> Self {
        ParquetOptions { compression: Compression::SNAPPY, row_group_size: ROW_GROUP_ROWS }
    }
}

impl ParquetOptions {
    /// Options from a codec name ([`COMPRESSIONS`]) and a row group size (>= 1), checked.
    pub fn new(compression: &str, row_group_size: u64) -> Result<Self> {
        let compression = match compression.to_ascii_lowercase().as_str() {
            "snappy" => Compression::SNAPPY,
            "zstd" => Compression::ZSTD(ZstdLevel::default()),
            "lz4" => Compression::LZ4_RAW,
            "gzip" => Compression::GZIP(GzipLevel::default()),
            "none" | "uncompressed" => Compression::UNCOMPRESSED,
            _ => return Err(Error::invalid_text("compression", compression, COMPRESSIONS)),
        };
        if row_group_size == 0 || row_group_size > (1 << 30) {
            return Err(Error::invalid("row_group_size", row_group_size, "an int in [1, 2**30]"));
        }
        Ok(ParquetOptions { compression, row_group_size: row_group_size as usize })
    }
}

/// Where a Parquet file goes.
pub enum Target {
    /// A file path: written beside it and moved to its name only when complete.
    Path(PathBuf),
    /// Any writer (a Python file object, a socket, memory): written in place.
    Writer(Box<dyn Write + Send>),
}

impl<P: AsRef<Path>> From<P> for Target {
    fn from(path: P) -> Self {
        Target::Path(path.as_ref().to_path_buf())
    }
}

/// A Parquet file being written. To a path, the file appears under its name only when
/// [`finish`](ParquetSink::finish) succeeds; until then it is written to a temporary name beside it.
pub struct ParquetSink {
    writer: Option<ArrowWriter<Box<dyn Write + Send>>>,
    /// `(temporary, final)` paths of a path target.
    paths: Option<(PathBuf, PathBuf)>,
    name: String,
    rows: u64,
}

fn io_error(name: &str, what: &str, e: impl std::fmt::Display) -> Error {
    Error::invalid("path", name, format!("a writable file path ({what}: {e})"))
}

impl ParquetSink {
    /// Starts a file at `target` with `schema`, written as `options` say.
    pub fn create(target: impl Into<Target>, schema: SchemaRef, options: ParquetOptions) -> Result<Self> {
        let (out, paths, name): (Box<dyn Write + Send>, _, _) = match target.into() {
            Target::Path(path) => {
                let name = path.display().to_string();
                let file_name = path.file_name().ok_or_else(|| io_error(&name, "no file name", "empty"))?;
                let tmp = path.with_file_name(format!(".{}.partial", file_name.to_string_lossy()));
                let file = File::create(&tmp).map_err(|e| Error::file(&path, &e))?;
                (Box::new(file), Some((tmp, path)), name)
            }
            Target::Writer(w) => (w, None, "the file object".to_string()),
        };
        let props = WriterProperties::builder()
            .set_compression(options.compression)
            .set_max_row_group_row_count(Some(options.row_group_size))
            .build();
        let writer = ArrowWriter::try_new(out, schema, Some(props)).map_err(|e| io_error(&name, "parquet", e))?;
        Ok(ParquetSink { writer: Some(writer), paths, name, rows: 0 })
    }

    /// Appends a batch.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let writer =
            self.writer.as_mut().ok_or_else(|| Error::Internal("a Parquet sink written after finish".into()))?;
        writer.write(batch).map_err(|e| Error::File {
            kind: std::io::ErrorKind::Other,
            path: self.name.clone(),
            reason: format!("the Parquet file could not be written ({e})"),
        })?;
        self.rows += batch.num_rows() as u64;
        if writer.in_progress_size() > ROW_GROUP_BYTES {
            writer.flush().map_err(|e| Error::File {
                kind: std::io::ErrorKind::Other,
                path: self.name.clone(),
                reason: format!("the Parquet file could not be written ({e})"),
            })?;
        }
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Closes the file (and moves a path target to its name); returns the rows written.
    ///
    /// When the file cannot be finished (its last writes, the flush or the move fail: a full
    /// disk, a file object that raises), the error is an [`Error::File`] naming the target, and
    /// a path target leaves no file behind, under its name or the temporary one.
    pub fn finish(mut self) -> Result<u64> {
        let writer = self.writer.take().ok_or_else(|| Error::Internal("a Parquet sink finished twice".into()))?;
        let finished = writer
            .into_inner()
            .map_err(|e| self.unfinished(io_kind(&e), format!("close failed: {e}")))
            .and_then(|mut out| match out.flush() {
                Ok(()) => Ok(out),
                Err(e) => Err(self.unfinished(e.kind(), format!("flush failed: {e}"))),
            });
        let moved = finished.and_then(|out| {
            drop(out);
            match &self.paths {
                Some((tmp, path)) => std::fs::rename(tmp, path).map_err(|e| Error::file(path, &e)),
                None => Ok(()),
            }
        });
        match moved {
            Ok(()) => {
                self.paths = None;
                Ok(self.rows)
            }
            Err(e) => {
                if let Some((tmp, _)) = self.paths.take() {
                    let _ = std::fs::remove_file(tmp);
                }
                Err(e)
            }
        }
    }

    /// The error of a file that could not be finished because `what` failed.
    fn unfinished(&self, kind: std::io::ErrorKind, what: String) -> Error {
        let kept = match self.paths {
            Some(_) => "no partial file was kept",
            None => "what the file object holds is not a whole Parquet file",
        };
        let reason = format!("the Parquet file could not be finished ({what}); {kept}");
        Error::File { kind, path: self.name.clone(), reason }
    }
}

/// The kind of the I/O error under a Parquet writer's error (`Other` for any other failure): a
/// full disk stays [`std::io::ErrorKind::StorageFull`].
fn io_kind(e: &parquet::errors::ParquetError) -> std::io::ErrorKind {
    match e {
        parquet::errors::ParquetError::External(inner) => {
            inner.downcast_ref::<std::io::Error>().map_or(std::io::ErrorKind::Other, std::io::Error::kind)
        }
        _ => std::io::ErrorKind::Other,
    }
}

impl Drop for ParquetSink {
    fn drop(&mut self) {
        if let (Some(_), Some((tmp, _))) = (&self.writer, &self.paths) {
            // Not finished (an error or a cancellation): leave no half-written file behind.
            let _ = std::fs::remove_file(tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrow::containers::{container_schema, containers_to_batch};
    use crate::index::Container;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    fn sample(n: u64) -> Vec<Container> {
        (0..n)
            .map(|i| Container {
                id: format!("c{i}"),
                bytes: vec![7; 3],
                timestamp_ns: i as i64,
                index: i,
                encoding: "hex".into(),
            })
            .collect()
    }

    /// A sink writing `c.parquet` in the fresh directory `avax-data-{name}-PID`, `rows` sample
    /// containers written: the directory, the file and the sink.
    fn sink_in(name: &str, rows: u64) -> (std::path::PathBuf, std::path::PathBuf, ParquetSink) {
        let dir = std::env::temp_dir().join(format!("avax-data-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.parquet");
        let mut sink = ParquetSink::create(&path, container_schema(), ParquetOptions::default()).unwrap();
        sink.write(&containers_to_batch(&sample(rows))).unwrap();
        (dir, path, sink)
    }

    #[test]
    fn batches_round_trip_through_a_file() {
        let (dir, path, mut sink) = sink_in("sink", 5);
        sink.write(&containers_to_batch(&sample(3))).unwrap();
        assert!(!path.exists(), "the file appears only when finished");
        assert_eq!(sink.finish().unwrap(), 8);
        let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap()).unwrap().build().unwrap();
        let rows: usize = reader.map(|b| b.unwrap().num_rows()).sum();
        assert_eq!(rows, 8);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unfinished_sink_leaves_no_file() {
        let (dir, path, sink) = sink_in("sink-drop", 2);
        drop(sink);
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_path_that_cannot_take_the_finished_file_leaves_no_file_and_names_the_path() {
        let (dir, path, sink) = sink_in("sink-unmovable", 4);
        // A directory holding a file under the target's name: the final move fails.
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("keep"), b"x").unwrap();
        let err = sink.finish().unwrap_err();
        assert!(matches!(&err, Error::File { path: p, .. } if *p == path.display().to_string()), "{err:?}");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("c.parquet")], "the temporary file was left behind");
        assert!(path.is_dir());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_path_is_a_clear_error_naming_the_path_given() {
        let err = ParquetSink::create("/nonexistent-dir/x.parquet", container_schema(), ParquetOptions::default())
            .err()
            .unwrap();
        assert!(matches!(err, Error::File { .. }), "{err:?}");
        assert_eq!(err.to_string(), "/nonexistent-dir/x.parquet: the directory /nonexistent-dir does not exist");
    }

    #[test]
    fn a_row_group_of_large_rows_is_written_out_at_the_byte_budget() {
        let dir = std::env::temp_dir().join(format!("avax-data-sink-bytes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.parquet");
        let mut sink = ParquetSink::create(&path, container_schema(), ParquetOptions::default()).unwrap();
        // 48 rows of 4 MiB of incompressible bytes: 192 MiB, far under the 65,536 rows a group allows
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..48u64 {
            let bytes = (0..4 << 20)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            let row = Container { id: format!("c{i}"), bytes, timestamp_ns: 0, index: i, encoding: "hex".into() };
            sink.write(&containers_to_batch(&[row])).unwrap();
        }
        assert_eq!(sink.finish().unwrap(), 48);
        let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap()).unwrap();
        let groups: Vec<i64> = reader.metadata().row_groups().iter().map(|g| g.num_rows()).collect();
        assert_eq!(groups.iter().sum::<i64>(), 48);
        assert!(groups.len() >= 3, "row groups of at most {ROW_GROUP_BYTES} bytes: {groups:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
