//! Text columns of `0x` + hex of fixed-width values (hashes, addresses): each text is written
//! straight into the column's data buffer (no stack copy, no builder block bookkeeping, no
//! UTF-8 check of text that is ASCII hex by construction), its view made once, inline.

use arrow_array::StringViewArray;
use arrow_buffer::{Buffer, NullBufferBuilder, ScalarBuffer};

/// A data buffer holds at most this many bytes (views address buffers with `u32` offsets).
const MAX_BLOCK: usize = i32::MAX as usize;

/// Builder of a `Utf8View` column of `0x` + lowercase hex of `N`-byte values, or nulls.
#[derive(Debug)]
pub struct HexColumn<const N: usize> {
    /// Finished data buffers (only when one would pass [`MAX_BLOCK`]).
    blocks: Vec<Buffer>,
    /// The data buffer being written.
    data: Vec<u8>,
    views: Vec<u128>,
    nulls: NullBufferBuilder,
}

impl<const N: usize> HexColumn<N> {
    /// The length of one text: `0x` and two digits a byte.
    pub const TEXT_LEN: usize = 2 + 2 * N;

    /// A builder with room for `rows` texts.
    pub fn with_capacity(rows: usize) -> Self {
        HexColumn {
            blocks: Vec::new(),
            data: Vec::with_capacity(rows.saturating_mul(Self::TEXT_LEN).min(MAX_BLOCK)),
            views: Vec::with_capacity(rows),
            nulls: NullBufferBuilder::new(rows),
        }
    }

    /// Appends the text of `value`, or a null.
    #[inline]
    pub fn append_option(&mut self, value: Option<&[u8; N]>) {
        let Some(value) = value else {
            self.views.push(0);
            self.nulls.append_null();
            return;
        };
        if self.data.len() + Self::TEXT_LEN > MAX_BLOCK {
            self.blocks.push(Buffer::from_vec(std::mem::take(&mut self.data)));
        }
        let start = self.data.len();
        self.data.resize(start + Self::TEXT_LEN, 0);
        let text = &mut self.data[start..];
        text[..2].copy_from_slice(b"0x");
        hex::encode_to_slice(value, &mut text[2..]).expect("two digits a byte fit");
        let block = u32::try_from(self.blocks.len()).expect("fewer than 2^32 data buffers");
        let offset = u32::try_from(start).expect("a data buffer stays under 2^31 bytes");
        self.views.push(long_view(text, block, offset));
        self.nulls.append_non_null();
    }

    /// Appends the text of `value`.
    #[inline]
    pub fn append_value(&mut self, value: &[u8; N]) {
        self.append_option(Some(value));
    }

    /// The finished column; the builder is left empty.
    pub fn finish(&mut self) -> StringViewArray {
        let mut buffers = std::mem::take(&mut self.blocks);
        let data = std::mem::take(&mut self.data);
        if !data.is_empty() {
            buffers.push(Buffer::from_vec(data));
        }
        let views = ScalarBuffer::from(std::mem::take(&mut self.views));
        let nulls = self.nulls.finish();
        // SAFETY: every view was made by `make_view` over bytes of the buffer it names, at the
        // offset it names, and those bytes are `0x` and the digits `hex` writes (ASCII, so
        // UTF-8); null slots hold the zero view. These are the invariants `new_unchecked` asks
        // for (the tests check them with `StringViewArray::try_new`).
        unsafe { StringViewArray::new_unchecked(views, buffers, nulls) }
    }
}

/// The view of a text longer than 12 bytes stored at `offset` of data buffer `block`: its length,
/// its first four bytes, the buffer and the offset, as the Arrow format lays out a view that does
/// not hold its text. Arrow's `make_view` makes the same, but is never inlined (an out-of-line call
/// per text took 3-4% of a decoded walk's CPU); a text here is always 42 or 66 bytes.
#[inline]
fn long_view(text: &[u8], block: u32, offset: u32) -> u128 {
    debug_assert!(text.len() > 12, "a text of {} bytes is held in its view", text.len());
    let prefix = u32::from_le_bytes(text[..4].try_into().expect("longer than 12 bytes"));
    u128::from(text.len() as u32) | (u128::from(prefix) << 32) | (u128::from(block) << 64) | (u128::from(offset) << 96)
}

#[cfg(test)]
mod tests {
    use arrow_array::builder::make_view;
    use arrow_array::Array;

    use super::*;

    #[test]
    fn long_views_are_those_arrow_makes() {
        let text = b"0xabcdef0123456789abcdef0123456789abcdef01";
        for (block, offset) in [(0, 0), (1, 66), (7, u32::MAX - 42), (u32::MAX, 123_456)] {
            assert_eq!(long_view(text, block, offset), make_view(text, block, offset), "{block} {offset}");
        }
        let hash = [b'f'; 66];
        assert_eq!(long_view(&hash, 3, 9), make_view(&hash, 3, 9));
    }

    #[test]
    fn texts_nulls_and_views_are_those_of_a_valid_string_view_column() {
        let hashes: Vec<[u8; 32]> =
            (0..300u32).map(|k| std::array::from_fn(|i| (k as u8).wrapping_mul(i as u8))).collect();
        let mut column = HexColumn::<32>::with_capacity(2);
        for (k, hash) in hashes.iter().enumerate() {
            column.append_option((k % 7 != 3).then_some(hash));
        }
        let array = column.finish();
        assert_eq!(array.len(), hashes.len());
        for (k, hash) in hashes.iter().enumerate() {
            if k % 7 == 3 {
                assert!(array.is_null(k));
            } else {
                assert_eq!(array.value(k), format!("0x{}", hex::encode(hash)));
            }
        }
        // The same views and buffers pass arrow's own checks.
        let checked =
            StringViewArray::try_new(array.views().clone(), array.data_buffers().to_vec(), array.nulls().cloned())
                .unwrap();
        assert_eq!(checked, array);

        let mut addresses = HexColumn::<20>::with_capacity(1);
        addresses.append_value(&[0xab; 20]);
        addresses.append_option(None);
        let array = addresses.finish();
        assert_eq!(array.value(0), format!("0x{}", "ab".repeat(20)));
        assert!(array.is_null(1));
        // The builder starts over empty.
        assert_eq!(addresses.finish().len(), 0);
        let empty = HexColumn::<20>::with_capacity(0).finish();
        assert!(empty.is_empty() && empty.data_buffers().is_empty());
    }
}
