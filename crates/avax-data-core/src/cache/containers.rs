//! Accepted index containers in the cache. An entry is keyed by the chain's identity on its
//! network (the id of the container at index 0, which differs between networks and between
//! chains), the index path and the position; it holds the container as the node sent it (id,
//! bytes with their 4-byte checksum, timestamp). A hit goes through the same checks as an answer
//! from the node (the checksum, the id by the rule of the index, the position), so a damaged
//! entry is deleted and fetched again, never returned.
//!
//! Only positions below a later accepted one are stored (a later container in the same answer,
//! for which a call that fills the cache asks one container more, or below the last accepted
//! index the client read): the tip itself is never cached.

use std::borrow::Cow;
use std::sync::Arc;

use super::kind::Kind;
use super::store::Store;
use crate::error::{Error, Result};
use crate::index::container::{U64Field, WireContainer};
use crate::index::{ChainClient, IndexPath, RangePiece};

/// The cache key of the container at `index` of `path`, on the chain whose first container is
/// `chain_id`.
pub fn key(chain_id: &str, path: IndexPath, index: u64) -> String {
    format!("index/{chain_id}/{}/{index}", path.as_str())
}

/// A container's wire fields, owned, as stored in an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredContainer {
    /// CB58 id.
    pub id: String,
    /// The bytes followed by their 4-byte checksum.
    pub raw: Vec<u8>,
    /// The timestamp as the node wrote it.
    pub timestamp: String,
    /// Position in the index.
    pub index: u64,
}

impl StoredContainer {
    /// The fields of a wire container that passed the client's checks; `None` when its bytes are
    /// not `0x` + hex (they were checked, so this does not happen).
    pub fn from_wire(wire: &WireContainer<'_>, index: u64) -> Option<StoredContainer> {
        let digits = wire.bytes.strip_prefix(b"0x").or_else(|| wire.bytes.strip_prefix(b"0X"))?;
        let raw = hex::decode(digits).ok()?;
        Some(StoredContainer { id: wire.id.to_string(), raw, timestamp: wire.timestamp.to_string(), index })
    }

    /// The entry payload: id and timestamp (each after its u32 length), index (u64), bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + self.id.len() + self.timestamp.len() + self.raw.len());
        for text in [&self.id, &self.timestamp] {
            out.extend_from_slice(&(text.len() as u32).to_le_bytes());
            out.extend_from_slice(text.as_bytes());
        }
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&self.raw);
        out
    }

    /// Reads an entry payload; `None` when it is not one.
    pub fn decode(payload: &[u8]) -> Option<StoredContainer> {
        let mut rest = payload;
        let mut text = || -> Option<String> {
            let len = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
            let value = std::str::from_utf8(rest.get(4..4 + len)?).ok()?.to_string();
            rest = &rest[4 + len..];
            Some(value)
        };
        let id = text()?;
        let timestamp = text()?;
        let index = u64::from_le_bytes(rest.get(..8)?.try_into().ok()?);
        Some(StoredContainer { id, timestamp, index, raw: rest[8..].to_vec() })
    }

    /// The wire form the node sent (`0x` + hex), to be checked like a fresh answer.
    pub fn wire(&self) -> WireContainer<'_> {
        WireContainer {
            id: Cow::Borrowed(&self.id),
            bytes: Cow::Owned(hex::encode_prefixed(&self.raw).into_bytes()),
            timestamp: Cow::Borrowed(&self.timestamp),
            encoding: None,
            index: U64Field::Number(self.index),
        }
    }
}

/// `getContainerRange(start, count)` through the cache: the cached run from `start` is checked
/// and served without a request; the rest is asked for in one call and its accepted positions
/// stored (one more container is asked for, to prove the last is not the tip). Without a chain identity (an empty index) nothing is cached.
pub async fn cached_range<P: RangePiece>(chain: &ChainClient, store: &Arc<Store>, start: u64, count: u64) -> Result<P> {
    let Some(chain_id) = chain.chain_identity().await? else {
        return chain.range_call::<P>(start, count, false).await.map(|answer| answer.piece);
    };
    let path = chain.path();
    let found = {
        let (store, chain_id) = (store.clone(), chain_id.clone());
        blocking(move || read_run(&store, &chain_id, path, start, count)).await?
    };
    let mut piece = P::default();
    let mut next = start;
    for stored in &found {
        // read_run checked the position; a refused container leaves the piece as it was.
        if let Err(e) = piece.push_wire(&stored.wire(), chain.verify(), path) {
            store.drop_damaged(Kind::Index, &key(&chain_id, path, next), &format!("{e:?}"));
            break;
        }
        next += 1;
    }
    let end = start + count;
    if next == end {
        return Ok(piece);
    }
    match chain.range_call::<P>(next, end - next, true).await {
        Err(e) if piece.is_empty() => Err(e),
        // A short answer: the walk asks again from `next`, and gets the error then.
        Err(_) => Ok(piece),
        Ok(answer) => {
            let fetched = answer.piece;
            // Positions below a later accepted container: the last of the answer when the node
            // sent one more, or the last accepted index the client read.
            let highest = fetched.last_index().map(|i| if answer.later { i.saturating_add(1) } else { i });
            let highest = highest.max(chain.tip_seen());
            let accepted = chain.pending().settle(path, answer.kept, highest);
            if !accepted.is_empty() {
                let (store, chain_id) = (store.clone(), chain_id.clone());
                blocking(move || {
                    for stored in &accepted {
                        if let Err(e) = store.put(Kind::Index, &key(&chain_id, path, stored.index), &stored.encode()) {
                            log::warn!("cache {}: cannot store a container: {e}", store.dir().display());
                            break;
                        }
                    }
                    Ok(())
                })
                .await?;
            }
            piece.append(fetched);
            Ok(piece)
        }
    }
}

/// The cached containers from `start` on, up to `count` or the first miss. An entry whose
/// payload does not parse, or that holds another position, is dropped (and ends the run).
fn read_run(store: &Store, chain_id: &str, path: IndexPath, start: u64, count: u64) -> Result<Vec<StoredContainer>> {
    let mut out = Vec::new();
    for index in start..start + count {
        let key = key(chain_id, path, index);
        let Some(payload) = store.get(Kind::Index, &key) else { break };
        match StoredContainer::decode(&payload) {
            Some(stored) if stored.index == index => out.push(stored),
            Some(stored) => {
                store.drop_damaged(Kind::Index, &key, &format!("it holds container {}", stored.index));
                break;
            }
            None => {
                store.drop_damaged(Kind::Index, &key, "its payload is not a container");
                break;
            }
        }
    }
    Ok(out)
}

/// The most containers kept waiting for proof per client (beyond it the oldest are not cached).
const MAX_PENDING: usize = 256;

/// Containers received whose position is not yet proven below a later accepted one (the last
/// of a full 1024-container answer, whose follower another chunk of the walk brings), and the
/// highest index each path is known to hold.
#[derive(Debug, Default)]
pub struct Pending {
    state: std::sync::Mutex<PendingState>,
}

#[derive(Debug, Default)]
struct PendingState {
    highest: std::collections::HashMap<IndexPath, u64>,
    waiting: Vec<(IndexPath, StoredContainer)>,
}

impl Pending {
    /// Records containers received on `path` and the highest index known to exist there
    /// (`highest`); returns those now proven to lie below it (this answer's and earlier
    /// waiting ones), in index order. The rest wait.
    pub fn settle(&self, path: IndexPath, kept: Vec<StoredContainer>, highest: Option<u64>) -> Vec<StoredContainer> {
        let mut state = self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let bound = match (state.highest.get(&path).copied(), highest) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        if let Some(bound) = bound {
            state.highest.insert(path, bound);
        }
        let proven = |c: &StoredContainer| bound.is_some_and(|b| c.index < b);
        let mut out = Vec::new();
        for c in kept {
            if proven(&c) {
                out.push(c);
            } else {
                state.waiting.push((path, c));
            }
        }
        let waiting = std::mem::take(&mut state.waiting);
        for (p, c) in waiting {
            if p == path && proven(&c) {
                out.push(c);
            } else {
                state.waiting.push((p, c));
            }
        }
        let excess = state.waiting.len().saturating_sub(MAX_PENDING);
        state.waiting.drain(..excess);
        out.sort_by_key(|c| c.index);
        out
    }
}

/// Runs file work off the runtime's workers.
pub(crate) async fn blocking<T: Send + 'static>(work: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(work).await.map_err(|e| Error::Internal(format!("a cache task failed: {e}")))?
}
