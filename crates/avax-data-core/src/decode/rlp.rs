//! Reading RLP items out of untrusted bytes, with their offsets kept for error messages.
//!
//! Item headers are parsed by `alloy-rlp` (canonical-length checks included); this module adds
//! the typed readers coreth blocks need: fixed-size byte strings, unsigned integers without
//! leading zeros, and lists walked item by item.

use alloy_rlp::Header;

use super::DecodeError;

/// One RLP item: a byte string or a list, with its encoding and where it starts.
#[derive(Debug, Clone, Copy)]
pub struct Item<'a> {
    /// Whether the item is a list.
    pub is_list: bool,
    /// The payload (a string's bytes, or a list's concatenated items).
    pub payload: &'a [u8],
    /// The whole encoding: header and payload.
    pub raw: &'a [u8],
    /// Offset of `raw` in the container.
    pub offset: usize,
}

/// Reads the items of a sequence (a list's payload or a whole buffer) one after another.
#[derive(Debug, Clone)]
pub struct Items<'a> {
    rest: &'a [u8],
    offset: usize,
}

impl<'a> Items<'a> {
    /// Items of `bytes`, which start at `offset` in the container.
    pub fn new(bytes: &'a [u8], offset: usize) -> Self {
        Items { rest: bytes, offset }
    }

    /// Offset of the next item.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Whether every item was read.
    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next item, if any.
    #[inline]
    pub fn next_item(&mut self, what: &str) -> Result<Option<Item<'a>>, DecodeError> {
        if self.rest.is_empty() {
            return Ok(None);
        }
        let before = self.rest;
        let mut cursor = self.rest;
        let header = Header::decode(&mut cursor)
            .map_err(|e| DecodeError::new(self.offset, format!("{what}: bad RLP header ({e})")))?;
        let header_len = before.len() - cursor.len();
        // alloy-rlp checks that the payload fits in what is left.
        let payload = &cursor[..header.payload_length];
        let raw = &before[..header_len + header.payload_length];
        let item = Item { is_list: header.list, payload, raw, offset: self.offset };
        self.rest = &before[raw.len()..];
        self.offset += raw.len();
        Ok(Some(item))
    }

    /// The next item, which must be present.
    #[inline]
    pub fn item(&mut self, what: &str) -> Result<Item<'a>, DecodeError> {
        let at = self.offset;
        self.next_item(what)?.ok_or_else(|| DecodeError::new(at, format!("{what}: missing")))
    }

    /// The next item, which must be a list; returns a reader over its items.
    #[inline]
    pub fn list(&mut self, what: &str) -> Result<Items<'a>, DecodeError> {
        let item = self.item(what)?;
        item.as_list(what)
    }

    /// The next item as a byte string.
    #[inline]
    pub fn bytes(&mut self, what: &str) -> Result<&'a [u8], DecodeError> {
        self.item(what)?.as_bytes(what)
    }

    /// The next item as a byte string of exactly `N` bytes.
    #[inline]
    pub fn fixed<const N: usize>(&mut self, what: &str) -> Result<[u8; N], DecodeError> {
        let item = self.item(what)?;
        let bytes = item.as_bytes(what)?;
        bytes
            .try_into()
            .map_err(|_| DecodeError::new(item.offset, format!("{what}: expected {N} bytes, found {}", bytes.len())))
    }

    /// The next item as an unsigned integer of at most 8 bytes.
    #[inline]
    pub fn u64(&mut self, what: &str) -> Result<u64, DecodeError> {
        self.item(what)?.as_u64(what)
    }

    /// The next item as an unsigned integer of at most 16 bytes.
    #[inline]
    pub fn u128(&mut self, what: &str) -> Result<u128, DecodeError> {
        self.item(what)?.as_uint(what, 16)
    }

    /// Fails unless every item was read.
    pub fn finish(&self, what: &str) -> Result<(), DecodeError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(DecodeError::new(self.offset, format!("{what}: {} unexpected trailing bytes", self.rest.len())))
        }
    }
}

impl<'a> Item<'a> {
    /// Offset of the payload in the container.
    #[inline]
    pub fn payload_offset(&self) -> usize {
        self.offset + (self.raw.len() - self.payload.len())
    }

    /// A reader over this list's items.
    #[inline]
    pub fn as_list(&self, what: &str) -> Result<Items<'a>, DecodeError> {
        if !self.is_list {
            return Err(DecodeError::new(self.offset, format!("{what}: expected an RLP list, found a string")));
        }
        Ok(Items::new(self.payload, self.payload_offset()))
    }

    /// This string's bytes.
    #[inline]
    pub fn as_bytes(&self, what: &str) -> Result<&'a [u8], DecodeError> {
        if self.is_list {
            return Err(DecodeError::new(self.offset, format!("{what}: expected an RLP string, found a list")));
        }
        Ok(self.payload)
    }

    /// The bytes of this string as a big-endian unsigned integer of at most `max_len` bytes, no
    /// leading zero.
    #[inline]
    fn uint_bytes(&self, what: &str, max_len: usize) -> Result<&'a [u8], DecodeError> {
        let bytes = self.as_bytes(what)?;
        if bytes.len() > max_len {
            return Err(DecodeError::new(
                self.offset,
                format!("{what}: an integer of {} bytes is wider than {max_len}", bytes.len()),
            ));
        }
        if bytes.first() == Some(&0) {
            return Err(DecodeError::new(self.offset, format!("{what}: integer with a leading zero byte")));
        }
        Ok(bytes)
    }

    /// This string as a big-endian unsigned integer of at most `max_len` bytes, no leading zero.
    #[inline]
    pub fn as_uint(&self, what: &str, max_len: usize) -> Result<u128, DecodeError> {
        let bytes = self.uint_bytes(what, max_len.min(16))?;
        // Right-aligned in a fixed big-endian buffer: one load instead of a loop over the bytes.
        let mut be = [0u8; 16];
        be[16 - bytes.len()..].copy_from_slice(bytes);
        Ok(u128::from_be_bytes(be))
    }

    /// This string as a big-endian unsigned integer of at most 8 bytes, no leading zero (the
    /// rules of [`Item::as_uint`], read into a `u64`).
    #[inline]
    pub fn as_u64(&self, what: &str) -> Result<u64, DecodeError> {
        let bytes = self.uint_bytes(what, 8)?;
        let mut be = [0u8; 8];
        be[8 - bytes.len()..].copy_from_slice(bytes);
        Ok(u64::from_be_bytes(be))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_strings_and_integers_with_offsets() {
        // [ "dog", 0x0400, [] , 0x05 ]
        let bytes = [0xc9, 0x83, b'd', b'o', b'g', 0x82, 0x04, 0x00, 0xc0, 0x05];
        let mut top = Items::new(&bytes, 0);
        let mut list = top.list("top").unwrap();
        top.finish("buffer").unwrap();
        assert_eq!(list.bytes("a").unwrap(), b"dog");
        assert_eq!(list.u64("b").unwrap(), 0x0400);
        let inner = list.item("c").unwrap();
        assert!(inner.is_list && inner.payload.is_empty());
        assert_eq!(inner.offset, 8);
        assert_eq!(list.u64("d").unwrap(), 5);
        assert!(list.item("e").unwrap_err().message.contains("e: missing"));
    }

    #[test]
    fn malformed_items_are_errors_not_panics() {
        // A string header claiming 0xffffffff bytes.
        let err = Items::new(&[0xbb, 0xff, 0xff, 0xff, 0xff, 1], 3).item("x").unwrap_err();
        assert_eq!(err.offset, 3);
        assert!(err.message.contains("bad RLP header"), "{err}");
        let wide = [0x89, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        assert!(Items::new(&wide, 0).u64("n").unwrap_err().message.contains("wider than 8"));
        assert!(Items::new(&[0x82, 0, 1], 0).u64("n").unwrap_err().message.contains("leading zero"));
        assert!(Items::new(&[0xc0], 0).bytes("s").unwrap_err().message.contains("found a list"));
        assert!(Items::new(&[0x80], 0).fixed::<32>("h").unwrap_err().message.contains("expected 32 bytes, found 0"));
    }

    #[test]
    fn integers_of_every_width_read_as_big_endian() {
        // 0x80 is the empty string: zero.
        assert_eq!(Items::new(&[0x80], 0).u64("n").unwrap(), 0);
        assert_eq!(Items::new(&[0x80], 0).u128("n").unwrap(), 0);
        for len in 1..=16usize {
            // A first byte of 0x80 or more: a single byte below it would be its own encoding.
            let digits: Vec<u8> = (1..=len as u8).map(|k| k.wrapping_mul(37) | 0x81).collect();
            let mut bytes = vec![0x80 + len as u8];
            bytes.extend(&digits);
            let want = digits.iter().fold(0u128, |acc, b| (acc << 8) | u128::from(*b));
            assert_eq!(Items::new(&bytes, 0).u128("n").unwrap(), want, "{len} bytes");
            let as_u64 = Items::new(&bytes, 0).u64("n");
            if len <= 8 {
                assert_eq!(as_u64.unwrap(), want as u64, "{len} bytes");
            } else {
                assert!(as_u64.unwrap_err().message.contains(&format!("n: an integer of {len} bytes is wider than 8")));
            }
        }
        let max = [0x88, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
        assert_eq!(Items::new(&max, 0).u64("n").unwrap(), u64::MAX);
        let wide = [0x91, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17];
        assert!(Items::new(&wide, 0).u128("n").unwrap_err().message.contains("17 bytes is wider than 16"));
        // A single byte below 0x80 is its own encoding.
        assert_eq!(Items::new(&[0x7f], 0).u64("n").unwrap(), 0x7f);
    }
}
