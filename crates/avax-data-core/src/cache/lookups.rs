//! `container(index)` and `container(id)` through the cache of accepted containers
//! ([`super::containers`]).
//!
//! By index: a held container is checked like a range's and returned without a request; a miss
//! is fetched as a one-container range that fills the cache (one container more is asked for,
//! to prove it lies below the tip). An index the range does not answer is asked for with
//! `getContainerByIndex`, so its error is the one a client without a cache gets.
//!
//! By id: the id's position, which never changes once accepted, is stored beside the
//! containers (`.../id/{id}`); a held position leads to the container by index (checked to hold
//! that id), a miss asks `getContainerByID` and stores the position.

use std::sync::Arc;

use super::containers::{blocking, cached_range};
use super::kind::Kind;
use super::store::Store;
use crate::error::Result;
use crate::index::{ChainClient, Container, IndexPath};

/// The cache key of the position of container `id` on the chain whose first container is
/// `chain_id`.
pub fn id_key(chain_id: &str, path: IndexPath, id: &str) -> String {
    format!("index/{chain_id}/{}/id/{id}", path.as_str())
}

/// The container at `index`, through the cache; `None` when the cache cannot answer (an empty
/// index, or a range that does not reach `index`): the caller asks the node directly.
pub async fn by_index(chain: &ChainClient, store: &Arc<Store>, index: u64) -> Result<Option<Container>> {
    if chain.chain_identity().await?.is_none() {
        return Ok(None);
    }
    match cached_range::<Vec<Container>>(chain, store, index, 1).await {
        Ok(found) => Ok(found.into_iter().next().filter(|c| c.index == index)),
        // The direct call answers with the node's own error for this index.
        Err(_) => Ok(None),
    }
}

/// The held position of container `id`, if any (an entry that is not 8 bytes is dropped).
pub async fn held_position(chain: &ChainClient, store: &Arc<Store>, id: &str) -> Result<Option<u64>> {
    let Some(chain_id) = chain.chain_identity().await? else { return Ok(None) };
    let (store, key) = (store.clone(), id_key(&chain_id, chain.path(), id));
    blocking(move || {
        Ok(match store.get(Kind::Index, &key) {
            None => None,
            Some(bytes) => match <[u8; 8]>::try_from(bytes.as_slice()) {
                Ok(le) => Some(u64::from_le_bytes(le)),
                Err(_) => {
                    store.drop_damaged(Kind::Index, &key, "it holds no position");
                    None
                }
            },
        })
    })
    .await
}

/// Stores the position of container `id` (accepted: it never changes).
pub async fn store_position(chain: &ChainClient, store: &Arc<Store>, id: &str, index: u64) -> Result<()> {
    let Some(chain_id) = chain.chain_identity().await? else { return Ok(()) };
    let (store, key) = (store.clone(), id_key(&chain_id, chain.path(), id));
    blocking(move || {
        if let Err(e) = store.put(Kind::Index, &key, &index.to_le_bytes()) {
            log::warn!("cache {}: cannot store {key}: {e}", store.dir().display());
        }
        Ok(())
    })
    .await
}

/// Drops a held position that led to another container.
pub async fn drop_position(chain: &ChainClient, store: &Arc<Store>, id: &str, why: String) -> Result<()> {
    let Some(chain_id) = chain.chain_identity().await? else { return Ok(()) };
    let (store, key) = (store.clone(), id_key(&chain_id, chain.path(), id));
    blocking(move || {
        store.drop_damaged(Kind::Index, &key, &why);
        Ok(())
    })
    .await
}
