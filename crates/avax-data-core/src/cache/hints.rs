//! Hints for cost plans: the identity (container 0's id) a chain had when a client of a node
//! URL last read it. A plan sends nothing, so a new client cannot read its chain's identity
//! before its first walk; the hint lets its plan count the containers the cache already holds.
//!
//! A hint is never used to serve data: a walk reads the identity from the node (one request per
//! client and path) and keys entries by it. A URL now served by another network (a port reused
//! by another local network) makes a plan count the other network's entries: the walk then
//! asks for them and the plan was low. Hints live in their own subdirectory (not an entry
//! kind: `cache info` does not count them); `cache clear` deletes them.

use std::path::PathBuf;

use sha2::{Digest, Sha256};

use super::entry;
use super::store::Store;
use crate::dataset::durable::temp_beside;
use crate::index::IndexPath;

pub use super::kind::HINTS_DIR;

fn key(url: &str, path: IndexPath) -> String {
    format!("identity/{url}/{}", path.as_str())
}

fn file_of(store: &Store, key: &str) -> PathBuf {
    store.dir().join(HINTS_DIR).join(hex::encode(Sha256::digest(key.as_bytes())))
}

/// Records that `path` at the node named `url` in the cache ([`crate::index::ChainClient::cache_name`]) had the identity `chain_id` (best effort: a hint that
/// cannot be written only makes a later plan count nothing as held).
pub fn remember_identity(store: &Store, url: &str, path: IndexPath, chain_id: &str) {
    let key = key(url, path);
    if identity(store, url, path).as_deref() == Some(chain_id) {
        return;
    }
    let file = file_of(store, &key);
    let Some(parent) = file.parent() else { return };
    let tmp = temp_beside(&file);
    if file.exists() && !super::layout::has_entry_tag(&file) {
        return;
    }
    let written = super::layout::create_dirs(parent)
        .map_err(std::io::Error::other)
        .and_then(|()| super::layout::write_private(&tmp, &entry::encode(&key, chain_id.as_bytes())))
        .and_then(|()| std::fs::rename(&tmp, &file));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        log::debug!("cache {}: cannot write a plan hint: {e}", store.dir().display());
    }
}

/// The identity `path` at `url` had when last read, if a hint holds it (a damaged hint is
/// ignored).
pub fn identity(store: &Store, url: &str, path: IndexPath) -> Option<String> {
    let key = key(url, path);
    let bytes = std::fs::read(file_of(store, &key)).ok()?;
    let payload = entry::decode(&key, &bytes).ok()?;
    std::str::from_utf8(payload).ok().map(str::to_string)
}
