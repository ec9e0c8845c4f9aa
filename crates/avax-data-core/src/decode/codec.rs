//! The Avalanche linear codec's primitives over untrusted bytes: big-endian integers, fixed
//! arrays, `u32`-counted slices and `u16`-length strings (FORMATS.md §2).
//!
//! [`Reader::count`] refuses a count whose elements cannot fit in the bytes left (each element
//! has a known minimum size), so a length prefix of four billion never allocates anything.

use super::DecodeError;

/// Deepest nesting a decoder follows (lock-in inside lock-in, ...) before it refuses the bytes.
pub const MAX_DEPTH: usize = 8;

/// A cursor over container bytes. Every read is bounds-checked and returns a [`DecodeError`]
/// carrying the offset of the failed read.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    /// The offset of the next byte to read.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// How many bytes are left.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// All the bytes this reader walks over.
    pub fn all(&self) -> &'a [u8] {
        self.bytes
    }

    /// An error at the current offset.
    pub fn error(&self, message: impl Into<String>) -> DecodeError {
        DecodeError::new(self.pos, message)
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], DecodeError> {
        if n > self.remaining() {
            return Err(self.error(format!("{what}: needs {n} bytes, {} left", self.remaining())));
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// A fixed-size array (ids, short ids, keys, signatures).
    pub fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], DecodeError> {
        let slice = self.take(N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    /// One byte.
    pub fn u8(&mut self, what: &str) -> Result<u8, DecodeError> {
        Ok(self.array::<1>(what)?[0])
    }

    /// A big-endian `u16`.
    pub fn u16(&mut self, what: &str) -> Result<u16, DecodeError> {
        Ok(u16::from_be_bytes(self.array(what)?))
    }

    /// A big-endian `u32`.
    pub fn u32(&mut self, what: &str) -> Result<u32, DecodeError> {
        Ok(u32::from_be_bytes(self.array(what)?))
    }

    /// A big-endian `u64`.
    pub fn u64(&mut self, what: &str) -> Result<u64, DecodeError> {
        Ok(u64::from_be_bytes(self.array(what)?))
    }

    /// A big-endian two's-complement `i64`.
    pub fn i64(&mut self, what: &str) -> Result<i64, DecodeError> {
        Ok(i64::from_be_bytes(self.array(what)?))
    }

    /// A boolean byte, which must be 0 or 1.
    pub fn bool(&mut self, what: &str) -> Result<bool, DecodeError> {
        let at = self.pos;
        match self.u8(what)? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(DecodeError::new(at, format!("{what}: a boolean is 0 or 1, found {other}"))),
        }
    }

    /// A `u32` element count, refused when `count * min_element_size` exceeds the bytes left.
    pub fn count(&mut self, what: &str, min_element_size: usize) -> Result<usize, DecodeError> {
        let at = self.pos;
        let n = self.u32(what)? as usize;
        let needed = n.saturating_mul(min_element_size.max(1));
        if needed > self.remaining() {
            return Err(DecodeError::new(
                at,
                format!("{what}: count {n} needs at least {needed} bytes, {} left", self.remaining()),
            ));
        }
        Ok(n)
    }

    /// `u32`-length-prefixed bytes.
    pub fn bytes_u32(&mut self, what: &str) -> Result<&'a [u8], DecodeError> {
        let n = self.count(what, 1)?;
        self.take(n, what)
    }

    /// A `u16`-length-prefixed UTF-8 string.
    pub fn string_u16(&mut self, what: &str) -> Result<&'a str, DecodeError> {
        let at = self.pos;
        let n = self.u16(what)? as usize;
        let raw = self.take(n, what)?;
        std::str::from_utf8(raw).map_err(|_| DecodeError::new(at, format!("{what}: not UTF-8")))
    }

    /// Fails unless every byte was read (the codec refuses trailing bytes).
    pub fn finish(&self, what: &str) -> Result<(), DecodeError> {
        if self.remaining() == 0 {
            Ok(())
        } else {
            Err(self.error(format!("{what}: {} trailing bytes", self.remaining())))
        }
    }

    /// Reads the codec version, which is 0 for every structure in the containers.
    pub fn codec_version(&mut self) -> Result<(), DecodeError> {
        let at = self.pos;
        match self.u16("codec version")? {
            0 => Ok(()),
            v => Err(DecodeError::new(at, format!("unknown codec version {v}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_big_endian_and_reads_are_bounded() {
        let bytes = [0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe];
        let mut r = Reader::new(&bytes);
        assert_eq!(r.u32("a").unwrap(), 1);
        assert_eq!(r.i64("b").unwrap(), -2);
        assert_eq!(r.remaining(), 0);
        let err = r.u8("c").unwrap_err();
        assert_eq!(err.offset, 12);
        assert!(err.message.contains("needs 1 bytes, 0 left"), "{err}");
        r.finish("x").unwrap();
    }

    #[test]
    fn a_huge_count_is_refused_before_any_allocation() {
        let bytes = [0xff, 0xff, 0xff, 0xff, 1, 2, 3];
        let mut r = Reader::new(&bytes);
        let err = r.count("outputs", 40).unwrap_err();
        assert_eq!(err.offset, 0);
        assert!(err.message.contains("count 4294967295 needs at least"), "{err}");
        let mut r = Reader::new(&bytes);
        assert!(r.bytes_u32("memo").is_err());
    }

    #[test]
    fn strings_booleans_versions_and_trailing_bytes() {
        let bytes = [0, 2, b'h', b'i', 1, 2, 0, 1];
        let mut r = Reader::new(&bytes);
        assert_eq!(r.string_u16("name").unwrap(), "hi");
        assert!(r.bool("flag").unwrap());
        let err = r.bool("flag").unwrap_err();
        assert!(err.message.contains("0 or 1, found 2"));
        assert!(r.finish("tx").unwrap_err().message.contains("2 trailing bytes"));
        let err = Reader::new(&[0, 1]).codec_version().unwrap_err();
        assert_eq!(err.message, "unknown codec version 1");
    }
}
