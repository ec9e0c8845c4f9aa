//! Verified containers held column by column, as a frame wants them: the decoded bytes of every
//! container of an answer back to back in one buffer (hex decoded straight into it), the ids in
//! one string, and the timestamps and indexes as plain vectors. No allocation per container,
//! and the buffers become Arrow buffers without a copy ([`crate::arrow::columns_to_batch`]).

use super::container::{Container, ContainerError, Verified, Verify, WireContainer};
use super::IndexPath;

/// Where one container's bytes are: a buffer of [`ColumnParts::blocks`], an offset and a length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// Which buffer.
    pub block: u32,
    /// Where in it the bytes start.
    pub offset: u32,
    /// How many bytes.
    pub len: u32,
}

/// The columns of a [`ContainerColumns`] taken apart (for building Arrow arrays).
#[derive(Debug, Default)]
pub struct ColumnParts {
    /// Buffers of decoded container bytes (one per answer, or more past 4 GiB).
    pub blocks: Vec<Vec<u8>>,
    /// Each container's bytes in `blocks`, in order.
    pub spans: Vec<Span>,
    /// Every id, back to back.
    pub ids: String,
    /// Each container's id in `ids`: start and length.
    pub id_spans: Vec<(u32, u32)>,
    /// Each container's id as its 32 bytes (decoded from the text, checked when ids are).
    pub raw_ids: Vec<[u8; 32]>,
    /// Acceptance times, UTC nanoseconds.
    pub timestamps_ns: Vec<i64>,
    /// Positions in the index.
    pub indexes: Vec<u64>,
}

/// A run of verified containers in index order, held column by column.
#[derive(Debug, Default)]
pub struct ContainerColumns {
    parts: ColumnParts,
}

/// The most bytes one Arrow view buffer may hold (view offsets are `u32`).
const MAX_BLOCK: usize = u32::MAX as usize;

impl ContainerColumns {
    /// Empty columns with room for `wires` (about to be decoded into them): one buffer sized for
    /// all of their bytes.
    pub fn for_answer(wires: &[WireContainer<'_>]) -> Self {
        let hex: usize = wires.iter().map(|w| w.bytes.len()).sum();
        let ids: usize = wires.iter().map(|w| w.id.len()).sum();
        let n = wires.len();
        ContainerColumns {
            parts: ColumnParts {
                blocks: vec![Vec::with_capacity((hex / 2).min(MAX_BLOCK))],
                spans: Vec::with_capacity(n),
                ids: String::with_capacity(ids),
                id_spans: Vec::with_capacity(n),
                raw_ids: Vec::with_capacity(n),
                timestamps_ns: Vec::with_capacity(n),
                indexes: Vec::with_capacity(n),
            },
        }
    }

    /// Decodes and verifies `wire` ([`WireContainer::decode_into`]: the same checks as a
    /// [`Container`]) and appends it; returns its index. On an error nothing is appended.
    pub fn push_wire(
        &mut self,
        wire: &WireContainer<'_>,
        verify: Verify,
        path: IndexPath,
    ) -> Result<u64, ContainerError> {
        let p = &mut self.parts;
        let need = wire.bytes.len() / 2;
        let ids_start = p.ids.len();
        if ids_start.saturating_add(wire.id.len()) > MAX_BLOCK || need > MAX_BLOCK {
            return Err(ContainerError::Decode(format!(
                "container {} ({}): more bytes than an Arrow view can hold (4 GiB)",
                wire.index.value().map_or_else(|e| e, |i| i.to_string()),
                wire.id
            )));
        }
        if p.blocks.last().is_none_or(|b| b.len() + need > MAX_BLOCK) {
            p.blocks.push(Vec::with_capacity(need));
        }
        let block_no = p.blocks.len() - 1;
        let block = &mut p.blocks[block_no];
        let start = block.len();
        let Verified { index, timestamp_ns, id } = wire.decode_into(verify, path, block)?;
        // Both fit: `block` and `ids` stay within MAX_BLOCK (checked above).
        let span = Span { block: block_no as u32, offset: start as u32, len: (block.len() - start) as u32 };
        p.spans.push(span);
        p.ids.push_str(&wire.id);
        p.id_spans.push((ids_start as u32, wire.id.len() as u32));
        p.raw_ids.push(id);
        p.timestamps_ns.push(timestamp_ns);
        p.indexes.push(index);
        Ok(index)
    }

    /// How many containers.
    pub fn len(&self) -> usize {
        self.parts.indexes.len()
    }

    /// Whether there is no container.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The indexes, in order.
    pub fn indexes(&self) -> &[u64] {
        &self.parts.indexes
    }

    /// The ids' bytes, in order.
    pub fn raw_ids(&self) -> &[[u8; 32]] {
        &self.parts.raw_ids
    }

    /// The acceptance times (UTC nanoseconds), in order.
    pub fn timestamps_ns(&self) -> &[i64] {
        &self.parts.timestamps_ns
    }

    /// The bytes of the `k`-th container (checksum stripped).
    pub fn bytes(&self, k: usize) -> &[u8] {
        let s = self.parts.spans[k];
        &self.parts.blocks[s.block as usize][s.offset as usize..(s.offset + s.len) as usize]
    }

    /// The CB58 id of the `k`-th container.
    pub fn id(&self, k: usize) -> &str {
        let (start, len) = self.parts.id_spans[k];
        &self.parts.ids[start as usize..(start + len) as usize]
    }

    /// The `k`-th container as an owned [`Container`].
    pub fn container(&self, k: usize) -> Container {
        Container {
            id: self.id(k).to_string(),
            bytes: self.bytes(k).to_vec(),
            timestamp_ns: self.parts.timestamps_ns[k],
            index: self.parts.indexes[k],
            encoding: "hex".to_string(),
        }
    }

    /// Appends `other`, whose containers follow these (its buffers are moved, not copied).
    pub fn append(&mut self, other: ContainerColumns) {
        if other.is_empty() {
            return;
        }
        if self.is_empty() {
            *self = other;
            return;
        }
        let (p, o) = (&mut self.parts, other.parts);
        let base = p.blocks.len() as u32;
        p.blocks.extend(o.blocks);
        p.spans.extend(o.spans.into_iter().map(|s| Span { block: s.block + base, ..s }));
        // Verified ids are CB58 of 36 bytes (at most 50 characters): a piece of the 1,024
        // containers of one call holds about 50 KB of them.
        let shift = u32::try_from(p.ids.len()).expect("ids of one piece stay under 4 GiB");
        p.ids.push_str(&o.ids);
        p.id_spans.extend(o.id_spans.into_iter().map(|(start, len)| (start + shift, len)));
        p.raw_ids.extend(o.raw_ids);
        p.timestamps_ns.extend(o.timestamps_ns);
        p.indexes.extend(o.indexes);
    }

    /// The columns taken apart.
    pub fn into_parts(self) -> ColumnParts {
        self.parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::cb58;

    fn wire_json(index: u64, bytes: &[u8]) -> String {
        Container {
            id: cb58::container_id(bytes),
            bytes: bytes.to_vec(),
            timestamp_ns: 0,
            index,
            encoding: "hex".into(),
        }
        .to_wire_json(&format!("2021-11-04T00:42:55.0{index}Z"))
        .to_string()
    }

    fn columns(items: &[(u64, Vec<u8>)]) -> (ContainerColumns, Vec<Container>) {
        let texts: Vec<String> = items.iter().map(|(i, b)| wire_json(*i, b)).collect();
        let wires: Vec<WireContainer> = texts.iter().map(|t| serde_json::from_str(t).unwrap()).collect();
        let mut cols = ContainerColumns::for_answer(&wires);
        let mut owned = Vec::new();
        for w in &wires {
            cols.push_wire(w, Verify::default(), IndexPath::XTx).unwrap();
            owned.push(w.decode(Verify::default(), IndexPath::XTx).unwrap());
        }
        (cols, owned)
    }

    #[test]
    fn columns_hold_exactly_what_containers_hold_in_one_buffer() {
        let items: Vec<(u64, Vec<u8>)> = (0..5u64).map(|i| (7 + i, vec![i as u8; 3 + 100 * i as usize])).collect();
        let (cols, owned) = columns(&items);
        assert_eq!(cols.len(), 5);
        assert_eq!((0..5).map(|k| cols.container(k)).collect::<Vec<_>>(), owned);
        assert_eq!(cols.indexes(), &[7, 8, 9, 10, 11]);
        let ids: Vec<String> = cols.raw_ids().iter().map(|id| cb58::encode(id)).collect();
        assert_eq!(ids, owned.iter().map(|c| c.id.clone()).collect::<Vec<_>>(), "each id's bytes kept with its text");
        let parts = cols.into_parts();
        assert_eq!(parts.blocks.len(), 1, "one buffer for the answer");
        assert_eq!(parts.blocks[0], items.iter().flat_map(|(_, b)| b.clone()).collect::<Vec<u8>>());
        assert!(parts.blocks[0].capacity() <= parts.blocks[0].len() + 5 * 5, "sized from the hex");
    }

    #[test]
    fn a_refused_container_leaves_the_columns_as_they_were() {
        let (mut cols, _) = columns(&[(0, vec![1, 2, 3])]);
        let mut text: serde_json::Value = serde_json::from_str(&wire_json(1, &[4, 5, 6])).unwrap();
        text["id"] = cb58::container_id(b"other").into();
        let text = text.to_string();
        let wire: WireContainer = serde_json::from_str(&text).unwrap();
        let err = cols.push_wire(&wire, Verify::default(), IndexPath::XTx).unwrap_err();
        assert!(matches!(err, ContainerError::Integrity(_)), "{err:?}");
        assert_eq!(cols.len(), 1);
        assert_eq!(cols.raw_ids().len(), 1);
        assert_eq!(cols.bytes(0), &[1, 2, 3]);
        assert_eq!(cols.into_parts().blocks[0], vec![1, 2, 3]);
    }

    #[test]
    fn appending_keeps_order_and_moves_buffers() {
        let (mut a, mut all) = columns(&[(0, vec![1; 20]), (1, vec![])]);
        let (b, more) = columns(&[(2, vec![2; 30]), (3, vec![3; 5])]);
        all.extend(more);
        a.append(b);
        a.append(ContainerColumns::default());
        assert_eq!((0..a.len()).map(|k| a.container(k)).collect::<Vec<_>>(), all);
        let ids: Vec<String> = a.raw_ids().iter().map(|id| cb58::encode(id)).collect();
        assert_eq!(ids, all.iter().map(|c| c.id.clone()).collect::<Vec<_>>());
        let mut empty = ContainerColumns::default();
        let (c, _) = columns(&[(9, vec![9])]);
        empty.append(c);
        assert_eq!(empty.indexes(), &[9]);
        let parts = a.into_parts();
        assert_eq!(parts.blocks.len(), 2);
        assert_eq!(parts.spans[2], Span { block: 1, offset: 0, len: 30 });
    }
}
