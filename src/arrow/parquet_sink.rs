//! Writes record batches into a Parquet file as they come: memory stays at one row group.

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use crate::error::{Error, Result};

/// Rows per Parquet row group: bounds the writer's memory.
pub const ROW_GROUP_ROWS: usize = 64 * 1024;

/// A Parquet file being written. The file appears under its name only when [`finish`] succeeds;
/// until then it is written to a temporary name beside it.
///
/// [`finish`]: ParquetSink::finish
pub struct ParquetSink {
    writer: Option<ArrowWriter<File>>,
    tmp_path: PathBuf,
    path: PathBuf,
    rows: u64,
}

fn io_error(path: &Path, what: &str, e: impl std::fmt::Display) -> Error {
    Error::invalid("path", path.display(), format!("a writable file path ({what}: {e})"))
}

impl ParquetSink {
    /// Creates the writer (snappy-compressed, row groups of [`ROW_GROUP_ROWS`]).
    pub fn create(path: impl AsRef<Path>, schema: SchemaRef) -> Result<Self> {
        let path = path.as_ref().to_path_buf();
        let file_name = path.file_name().ok_or_else(|| io_error(&path, "no file name", "empty"))?;
        let tmp_path = path.with_file_name(format!(".{}.partial", file_name.to_string_lossy()));
        let file = File::create(&tmp_path).map_err(|e| io_error(&path, "cannot create", e))?;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .build();
        let writer = ArrowWriter::try_new(file, schema, Some(props)).map_err(|e| io_error(&path, "parquet", e))?;
        Ok(ParquetSink { writer: Some(writer), tmp_path, path, rows: 0 })
    }

    /// Appends a batch.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let writer = self.writer.as_mut().expect("write after finish");
        writer.write(batch).map_err(|e| io_error(&self.path, "write failed", e))?;
        self.rows += batch.num_rows() as u64;
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Closes the file and moves it to its name; returns the rows written.
    pub fn finish(mut self) -> Result<u64> {
        let writer = self.writer.take().expect("finish once");
        writer.close().map_err(|e| io_error(&self.path, "close failed", e))?;
        std::fs::rename(&self.tmp_path, &self.path).map_err(|e| io_error(&self.path, "rename failed", e))?;
        Ok(self.rows)
    }
}

impl Drop for ParquetSink {
    fn drop(&mut self) {
        if self.writer.is_some() {
            // Not finished (an error or a cancellation): leave no half-written file behind.
            let _ = std::fs::remove_file(&self.tmp_path);
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

    #[test]
    fn batches_round_trip_through_a_file() {
        let dir = std::env::temp_dir().join(format!("avax-data-sink-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.parquet");
        let mut sink = ParquetSink::create(&path, container_schema()).unwrap();
        sink.write(&containers_to_batch(&sample(5))).unwrap();
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
        let dir = std::env::temp_dir().join(format!("avax-data-sink-drop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.parquet");
        {
            let mut sink = ParquetSink::create(&path, container_schema()).unwrap();
            sink.write(&containers_to_batch(&sample(2))).unwrap();
        }
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_path_is_a_clear_error() {
        let err = ParquetSink::create("/nonexistent-dir/x.parquet", container_schema()).err().unwrap().to_string();
        assert!(
            err.starts_with("invalid path=/nonexistent-dir/x.parquet: a writable file path (cannot create"),
            "{err}"
        );
    }
}
