//! What a range call's answer is decoded into: a [`RangePiece`] is a run of verified
//! containers in index order, either as [`Container`]s (one owned value each, for callers that
//! take containers one by one) or as columns ([`ContainerColumns`], for frames: every
//! container's bytes in one buffer per answer, no allocation per container).

use super::columns::ContainerColumns;
use super::container::{Container, ContainerError, Verify, WireContainer};
use super::IndexPath;

/// A run of verified containers, contiguous in index order, that range calls fill and walks
/// hand on.
pub trait RangePiece: Default + Send + 'static {
    /// An empty piece with room for the answer of `wires` (decoded next, in order).
    fn for_answer(wires: &[WireContainer<'_>]) -> Self;

    /// Decodes and verifies `wire` (as [`WireContainer::decode`] does) and appends it;
    /// returns its index. On an error the piece is left as it was.
    fn push_wire(&mut self, wire: &WireContainer<'_>, verify: Verify, path: IndexPath) -> Result<u64, ContainerError>;

    /// How many containers the piece holds.
    fn len(&self) -> usize;

    /// Whether the piece holds no container.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of the last container, if any.
    fn last_index(&self) -> Option<u64>;

    /// Appends `other`, whose containers follow this piece's.
    fn append(&mut self, other: Self);
}

impl RangePiece for Vec<Container> {
    fn for_answer(wires: &[WireContainer<'_>]) -> Self {
        Vec::with_capacity(wires.len())
    }

    fn push_wire(&mut self, wire: &WireContainer<'_>, verify: Verify, path: IndexPath) -> Result<u64, ContainerError> {
        let c = wire.decode(verify, path)?;
        let index = c.index;
        self.push(c);
        Ok(index)
    }

    fn len(&self) -> usize {
        Vec::len(self)
    }

    fn last_index(&self) -> Option<u64> {
        self.last().map(|c| c.index)
    }

    fn append(&mut self, other: Self) {
        self.extend(other);
    }
}

impl RangePiece for ContainerColumns {
    fn for_answer(wires: &[WireContainer<'_>]) -> Self {
        ContainerColumns::for_answer(wires)
    }

    fn push_wire(&mut self, wire: &WireContainer<'_>, verify: Verify, path: IndexPath) -> Result<u64, ContainerError> {
        ContainerColumns::push_wire(self, wire, verify, path)
    }

    fn len(&self) -> usize {
        ContainerColumns::len(self)
    }

    fn last_index(&self) -> Option<u64> {
        self.indexes().last().copied()
    }

    fn append(&mut self, other: Self) {
        ContainerColumns::append(self, other);
    }
}
