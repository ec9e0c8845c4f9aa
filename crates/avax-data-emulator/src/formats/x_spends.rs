//! Who owns, signs and spends what on the emulated X-Chain ([`super::xchain`]).
//!
//! - Every tx has a *sender*: a key of the world's pool ([`pool_key`]: the keys that sign the
//!   C-Chain's txs, so one person holds an address on each chain). Its inputs are the sender's
//!   UTXOs, its credentials the sender's signatures over sha256 of the unsigned tx (one per input,
//!   as avalanchego's wallet signs), and it pays two outputs: a *payment* to another pool key and
//!   the change back to the sender.
//! - What the inputs spend: a tx of `X/tx` (the DAG era) spends one Mainnet genesis allocation, a
//!   UTXO of the genesis tx (whose id is AVAX's asset id) with an output index of its own
//!   ([`genesis_index_dag`]). The first tx of `X/block` height `h < `[`SPENDING_HEIGHTS`] (unless
//!   an ImportTx, which spends only what it imports) spends the payment of `X/tx` tx `h`, whose
//!   owner is then its sender; when that does not cover its fee and payment it also spends a
//!   genesis allocation ([`genesis_index_linear`]). So each DAG payment is spent at most once,
//!   always after Cortina (after it was created), and no output of the linear era is spent.
//! - A signature names its key: every pool key signs with one fixed nonce, so its `r` is the
//!   key's own ([`signer_of`]), which is what recovering the public key from it gives.

use std::collections::HashMap;
use std::sync::OnceLock;

use avax_data_core::decode::avax::{Credential, SECP_CREDENTIAL_TYPE_ID};
use ripemd::Ripemd160;
use sha2::{Digest, Sha256};

use super::evm_keys::{pool_key, TABLE};
use super::px_clock::MIN_SPAN;

/// The `X/block` heights whose first tx spends the payment of the `X/tx` tx of the same number
/// (every `X/tx` index holds at least this many containers, all of them before Cortina).
pub const SPENDING_HEIGHTS: u64 = MIN_SPAN;

/// Keys of the X-Chain's owners: pool entries `0..KEYS`.
pub const KEYS: u64 = TABLE;

/// First genesis output index of the linear era's top-ups (the DAG era's tx `i` spends index `i`).
const LINEAR_GENESIS: u64 = 1 << 31;

/// The genesis output `X/tx` tx `index` spends.
pub fn genesis_index_dag(index: u64) -> u32 {
    u32::try_from(index).ok().filter(|&i| u64::from(i) < LINEAR_GENESIS).expect("the X/tx index is below 2^31")
}

/// The genesis output tx `k` of `X/block` height `height` spends when it needs one.
pub fn genesis_index_linear(height: u64, k: u64) -> u32 {
    u32::try_from(LINEAR_GENESIS + height * 8 + k).expect("the X/block height is below 2^28")
}

/// `(short id, compressed public key)` of each owner key.
fn table() -> &'static [([u8; 20], [u8; 33])] {
    static TABLE_IDS: OnceLock<Vec<([u8; 20], [u8; 33])>> = OnceLock::new();
    TABLE_IDS.get_or_init(|| {
        (0..KEYS)
            .map(|i| {
                let compressed = pool_key(i).compressed;
                let short: [u8; 20] = Ripemd160::digest(Sha256::digest(compressed)).into();
                (short, compressed)
            })
            .collect()
    })
}

/// The short id (ripemd160 of sha256 of the compressed public key) of owner key `key`.
pub fn short_id(key: u64) -> [u8; 20] {
    table()[key as usize].0
}

/// The compressed public key of owner key `key`.
pub fn public_key(key: u64) -> [u8; 33] {
    table()[key as usize].1
}

/// The credential of owner key `key` over the unsigned tx whose hash (sha256 of its codec
/// bytes) is `hash`: one recoverable signature `r ‖ s ‖ v`.
pub fn credential(key: u64, hash: &[u8; 32]) -> Credential {
    let (parity, r, s) = pool_key(key).sign(hash);
    let mut sig = [0u8; 65];
    sig[..32].copy_from_slice(&r);
    sig[32..64].copy_from_slice(&s);
    sig[64] = parity;
    Credential { type_id: SECP_CREDENTIAL_TYPE_ID, signatures: vec![sig] }
}

/// The owner key that made signature `sig` (`None` for one no owner key made).
pub fn signer_of(sig: &[u8; 65]) -> Option<u64> {
    static BY_R: OnceLock<HashMap<[u8; 32], u64>> = OnceLock::new();
    let by_r = BY_R.get_or_init(|| (0..KEYS).map(|i| (pool_key(i).r(), i)).collect());
    by_r.get(&sig[..32]).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};

    #[test]
    fn a_credential_recovers_to_its_owners_key_and_names_it() {
        let mut seen = std::collections::HashSet::new();
        for key in [0, 1, 77, KEYS - 1] {
            let hash: [u8; 32] = Sha256::digest(key.to_be_bytes()).into();
            let c = credential(key, &hash);
            let sig = c.signatures[0];
            let recovered = VerifyingKey::recover_from_prehash(
                &hash,
                &Signature::from_slice(&sig[..64]).unwrap(),
                RecoveryId::from_byte(sig[64]).unwrap(),
            )
            .unwrap();
            assert_eq!(recovered.to_encoded_point(true).as_bytes(), public_key(key));
            assert_eq!(signer_of(&sig), Some(key));
            assert!(seen.insert(short_id(key)));
        }
        assert_eq!(signer_of(&[7; 65]), None);
        assert_eq!(genesis_index_dag(5), 5);
        assert_eq!(genesis_index_linear(0, 2), (1 << 31) + 2);
    }
}
