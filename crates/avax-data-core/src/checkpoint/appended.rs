//! The checksum of a CSV or NDJSON export appended to its output: the sha256 of the output's
//! first `bytes` bytes, kept up to date chunk by chunk (each chunk's bytes read once), recorded
//! in the checkpoint ([`super::Checkpoint::bytes_sha256`]) and checked by a resume, so an output
//! whose recorded bytes changed (zeros left by a power loss where rows were, an edit) is refused
//! instead of resumed over.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// The running sha256 of an appended output's first [`Appended::bytes`] bytes.
#[derive(Debug, Clone, Default)]
pub struct Appended {
    bytes: u64,
    hasher: Sha256,
}

impl Appended {
    /// How many bytes the digest covers.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Reads `path` from where the digest stands to `to` (not before it) into the digest and
    /// returns it (hex).
    pub fn advance(&mut self, path: &Path, to: u64) -> Result<String> {
        if to < self.bytes {
            return Err(Error::Internal(format!("an output offset {to} before the {} bytes hashed", self.bytes)));
        }
        let mut file = File::open(path).map_err(|e| Error::file(path, &e))?;
        file.seek(SeekFrom::Start(self.bytes)).map_err(|e| Error::file(path, &e))?;
        let mut left = to - self.bytes;
        let mut buffer = vec![0u8; 1 << 16];
        while left > 0 {
            let want = usize::try_from(left.min(buffer.len() as u64)).unwrap_or(buffer.len());
            let n = file.read(&mut buffer[..want]).map_err(|e| Error::file(path, &e))?;
            if n == 0 {
                return Err(Error::file(
                    path,
                    &std::io::Error::new(std::io::ErrorKind::UnexpectedEof, format!("shorter than {to} bytes")),
                ));
            }
            self.hasher.update(&buffer[..n]);
            left -= n as u64;
        }
        self.bytes = to;
        Ok(self.digest())
    }

    /// The digest (hex) of the bytes read so far.
    pub fn digest(&self) -> String {
        hex::encode(self.hasher.clone().finalize())
    }
}

/// What is wrong with the appended output `out` against a checkpoint that recorded `bytes`
/// bytes with the digest `sha256` (`None` in checkpoints of earlier versions: only the size is
/// checked), or `None` when a resume can continue it: its first `bytes` bytes hash to `sha256`,
/// and what lies past them (a chunk written after the checkpoint, which the resume drops) holds
/// no zero byte (the sign of a power loss: the file system grew the file, its data never reached
/// the disk; rows as text hold none: NDJSON escapes it, and only a CSV string holding one would
/// be a false alarm, whose remedy is the same fresh start). On success the running digest is
/// returned, for the resumed run to continue.
pub fn check(out: &Path, bytes: u64, sha256: Option<&str>) -> Result<std::result::Result<Appended, String>> {
    let size = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    if size < bytes {
        return Ok(Err(format!("it holds {size} bytes, fewer than the {bytes} recorded")));
    }
    let mut appended = Appended::default();
    if bytes == 0 && !out.exists() {
        return Ok(Ok(appended));
    }
    let digest = appended.advance(out, bytes)?;
    if sha256.is_some_and(|recorded| recorded != digest) {
        return Ok(Err(format!(
            "its first {bytes} bytes are not those the checkpoint recorded (their sha256 differs: the file changed \
             since, or a power loss left zeros where rows were)"
        )));
    }
    let zeros = zero_bytes_past(out, bytes)?;
    if zeros > 0 {
        return Ok(Err(format!(
            "{zeros} zero byte(s) lie past the {bytes} bytes recorded (a power loss: the file grew, its rows never \
             reached the disk)"
        )));
    }
    Ok(Ok(appended))
}

/// The zero bytes in `path` past `from`.
fn zero_bytes_past(path: &Path, from: u64) -> Result<u64> {
    let mut file = File::open(path).map_err(|e| Error::file(path, &e))?;
    file.seek(SeekFrom::Start(from)).map_err(|e| Error::file(path, &e))?;
    let (mut zeros, mut buffer) = (0u64, vec![0u8; 1 << 16]);
    loop {
        let n = file.read(&mut buffer).map_err(|e| Error::file(path, &e))?;
        if n == 0 {
            return Ok(zeros);
        }
        zeros += buffer[..n].iter().filter(|&&b| b == 0).count() as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("avax-appended-{name}-{}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn the_digest_grows_chunk_by_chunk_as_the_whole_files_does() {
        let path = file("grow", b"a,b\n1,2\n3,4\n");
        let mut appended = Appended::default();
        appended.advance(&path, 4).unwrap();
        let digest = appended.advance(&path, 12).unwrap();
        assert_eq!(digest, hex::encode(Sha256::digest(b"a,b\n1,2\n3,4\n")));
        assert_eq!(appended.bytes(), 12);
        assert!(appended.advance(&path, 13).is_err(), "past the end");
        assert!(appended.advance(&path, 4).is_err(), "backwards");
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn zeros_inside_or_past_the_recorded_bytes_are_found() {
        let text = b"a,b\n1,2\n3,4\n";
        let sha = hex::encode(Sha256::digest(text));
        let path = file("check", text);
        assert_eq!(check(&path, 12, Some(&sha)).unwrap().unwrap().digest(), sha);
        // a torn chunk past the checkpoint: dropped by the resume, no problem
        std::fs::write(&path, b"a,b\n1,2\n3,4\n5,").unwrap();
        assert!(check(&path, 12, Some(&sha)).unwrap().is_ok());
        // the tail zero-filled by a power loss
        std::fs::write(&path, b"a,b\n1,2\n3,4\n\0\0\0\0").unwrap();
        let why = check(&path, 12, Some(&sha)).unwrap().unwrap_err();
        assert!(why.starts_with("4 zero byte(s) lie past the 12 bytes recorded"), "{why}");
        // the recorded bytes themselves zeroed
        std::fs::write(&path, b"a,b\n1,2\n\0\0\0\0").unwrap();
        let why = check(&path, 12, Some(&sha)).unwrap().unwrap_err();
        assert!(why.starts_with("its first 12 bytes are not those the checkpoint recorded"), "{why}");
        // a checkpoint of an earlier version (no digest): the size alone
        assert!(check(&path, 12, None).unwrap().is_ok());
        assert_eq!(check(&path, 20, None).unwrap().unwrap_err(), "it holds 12 bytes, fewer than the 20 recorded");
        std::fs::remove_file(path).unwrap();
    }
}
