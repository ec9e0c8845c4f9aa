//! The emulator's EVM accounts: entry `i` of the shared address pool is the address of a
//! deterministic secp256k1 key (secret = sha256("avax-data evm key" ‖ i) reduced to a scalar),
//! and every C-chain transaction the emulator encodes is signed by its sender's key, so a
//! client recovers `from` from the signature exactly as on a real node.
//!
//! **Speed, and why it is safe here.** A textbook ECDSA signature costs a point multiplication
//! (`R = k·G`). The emulator signs every transaction it encodes, so each key gets ONE fixed
//! nonce `k` (derived like the secret) with `R`, `r`, `k⁻¹` and `k⁻¹·r·d` computed once; a
//! signature is then `s = k⁻¹·(z + r·d) = k⁻¹·z + k⁻¹·r·d`: one scalar product and a sum. The signatures are valid (low-s, verifying,
//! recovering to the key) but reuse `k`, which exposes the secret — harmless for keys anyone can
//! derive from this file, and never to be done with a real key.

use std::sync::OnceLock;

use k256::elliptic_curve::ops::{MulByGenerator, Reduce};
use k256::elliptic_curve::point::AffineCoordinates;
use k256::elliptic_curve::scalar::IsHigh;
use k256::elliptic_curve::sec1::ToEncodedPoint;
use k256::{ProjectivePoint, Scalar, U256};
use sha2::{Digest, Sha256};

use avax_data_core::decode::cchain::keccak256;

use super::coreth::Tx;

/// Pool entries computed once per process (every chain's pool is at most this long).
pub const TABLE: u64 = 1_024;

/// One pool key: its address and what signing with its fixed nonce needs.
#[derive(Debug, Clone)]
pub struct PoolKey {
    secret: Scalar,
    /// The key's Ethereum address.
    pub address: [u8; 20],
    /// The compressed public key (SEC1, 33 bytes): what an X- or P-Chain address hashes.
    pub compressed: [u8; 33],
    r_bytes: [u8; 32],
    r_y_odd: bool,
    k_inv: Scalar,
    /// `k⁻¹·r·d`: the part of every `s` that does not depend on the message.
    k_inv_r_d: Scalar,
}

/// A non-zero scalar from `sha256(label ‖ i)`.
fn scalar(label: &str, i: u64) -> Scalar {
    let mut h = Sha256::new();
    h.update(label.as_bytes());
    h.update(i.to_le_bytes());
    let bytes: [u8; 32] = h.finalize().into();
    let s = <Scalar as Reduce<U256>>::reduce_bytes(&bytes.into());
    if bool::from(s.is_zero()) {
        Scalar::ONE
    } else {
        s
    }
}

impl PoolKey {
    /// The key of pool entry `i` (two multiplications of the generator, through k256's
    /// precomputed tables: the world's first 1,024 keys are made when the emulator starts).
    pub fn derive(i: u64) -> PoolKey {
        let secret = scalar("avax-data evm key", i);
        let affine = ProjectivePoint::mul_by_generator(&secret).to_affine();
        let public = affine.to_encoded_point(false);
        let address = keccak256(&public.as_bytes()[1..])[12..].try_into().expect("20 bytes");
        let compressed = affine.to_encoded_point(true).as_bytes().try_into().expect("33 bytes");
        let k = scalar("avax-data evm nonce", i);
        let point = ProjectivePoint::mul_by_generator(&k).to_affine();
        let x: [u8; 32] = point.x().into();
        let r = <Scalar as Reduce<U256>>::reduce_bytes(&x.into());
        let k_inv = k.invert().expect("a non-zero nonce");
        PoolKey {
            secret,
            address,
            compressed,
            r_bytes: r.to_bytes().into(),
            r_y_odd: bool::from(point.y_is_odd()),
            k_inv,
            k_inv_r_d: k_inv * r * secret,
        }
    }

    /// The secret key's 32 bytes (for tests that sign with a library).
    pub fn secret_bytes(&self) -> [u8; 32] {
        self.secret.to_bytes().into()
    }

    /// The `r` of every signature of this key (its nonce is fixed): which key signed a
    /// signature, as recovering its public key would say.
    pub fn r(&self) -> [u8; 32] {
        self.r_bytes
    }

    /// Signs the 32-byte `hash`: `(y parity, r, s)` with a low `s` (EIP-2).
    pub fn sign(&self, hash: &[u8; 32]) -> (u8, [u8; 32], [u8; 32]) {
        let z = <Scalar as Reduce<U256>>::reduce_bytes(&(*hash).into());
        let s = self.k_inv * z + self.k_inv_r_d;
        // Negating s negates R: the recovery parity flips with it.
        let (s, odd) = if bool::from(s.is_high()) { (-s, !self.r_y_odd) } else { (s, self.r_y_odd) };
        (u8::from(odd), self.r_bytes, s.to_bytes().into())
    }
}

/// The key of pool entry `i` (entries below [`TABLE`] computed once for all).
pub fn pool_key(i: u64) -> std::borrow::Cow<'static, PoolKey> {
    static KEYS: OnceLock<Vec<PoolKey>> = OnceLock::new();
    if i < TABLE {
        std::borrow::Cow::Borrowed(&KEYS.get_or_init(|| (0..TABLE).map(PoolKey::derive).collect())[i as usize])
    } else {
        std::borrow::Cow::Owned(PoolKey::derive(i))
    }
}

/// Signs `tx` with `key`: its `v` (legacy: the EIP-155 value for its chain, already in `v` as
/// `chainId*2+35`, or 27 for a pre-EIP-155 tx; typed: 0), `r` and `s` are replaced by the
/// signature over its signing hash ([`Tx::signing_hash`], written from the fields).
pub fn sign_tx(tx: &mut Tx, key: &PoolKey) {
    thread_local! {
        /// The signing payload's buffer, reused (a block signs ~20 transactions).
        static PAYLOAD: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(Vec::with_capacity(512));
    }
    let hash = PAYLOAD.with(|payload| tx.signing_hash(&mut payload.borrow_mut()));
    let (parity, r, s) = key.sign(&hash);
    let sig = match tx {
        Tx::Legacy { sig, .. } => {
            let base = if sig.v >= 35 { (sig.v - 35) / 2 * 2 + 35 } else { 27 };
            sig.v = base + u64::from(parity);
            sig
        }
        Tx::DynamicFee { sig, .. } => {
            sig.v = u64::from(parity);
            sig
        }
    };
    sig.r = r;
    sig.s = s;
}

#[cfg(test)]
mod tests {
    use super::*;
    use avax_data_core::decode::senders::{recover, SignedParts};
    use k256::ecdsa::signature::hazmat::PrehashVerifier;
    use k256::ecdsa::{Signature, SigningKey};

    #[test]
    fn signatures_verify_recover_and_are_low_s() {
        for i in [0, 1, 2, 517, TABLE - 1, TABLE + 3] {
            let key = pool_key(i);
            let library = SigningKey::from_slice(&key.secret_bytes()).unwrap();
            let point = library.verifying_key().to_encoded_point(false);
            assert_eq!(avax_data_core::decode::senders::address_of(point.as_bytes().try_into().unwrap()), key.address);
            for m in 0u8..8 {
                let hash = keccak256(&[m, i as u8]);
                let (parity, r, s) = key.sign(&hash);
                let sig = Signature::from_scalars(r, s).unwrap();
                assert!(sig.normalize_s().is_none(), "low s");
                library.verifying_key().verify_prehash(&hash, &sig).unwrap();
                let parts = SignedParts { signing_hash: hash, y_parity: parity, r, s };
                assert_eq!(recover(&parts).unwrap(), key.address, "key {i} message {m}");
            }
        }
    }

    /// The signing hash written straight from the fields is the one a client's decoder derives
    /// from the signed bytes (EIP-155 legacy, pre-EIP-155 legacy and EIP-1559; a creation too).
    #[test]
    fn signing_hashes_match_the_decoders() {
        use crate::formats::coreth::Signature as Sig;
        use avax_data_core::decode::rlp::Items;
        use avax_data_core::decode::senders::signed_parts;
        let unsigned = |v| Sig { v, r: [0; 32], s: [0; 32] };
        let txs = [
            Tx::Legacy {
                nonce: 9,
                gas_price: 25,
                gas: 21_000,
                to: Some([7; 20]),
                value: 1,
                data: vec![],
                sig: unsigned(43114 * 2 + 35),
            },
            Tx::Legacy {
                nonce: 0,
                gas_price: 1 << 40,
                gas: 90_000,
                to: None,
                value: 0,
                data: vec![0x60; 300],
                sig: unsigned(27),
            },
            Tx::DynamicFee {
                chain_id: 43113,
                nonce: 70_000,
                max_priority_fee: 2,
                max_fee: 30_000_000_000,
                gas: 50_000,
                to: Some([1; 20]),
                value: 10u128.pow(20),
                data: vec![0xa9, 0x05, 0x9c, 0xbb],
                sig: unsigned(0),
            },
        ];
        for (i, mut tx) in txs.into_iter().enumerate() {
            let key = pool_key(i as u64);
            sign_tx(&mut tx, &key);
            let mut item = Vec::new();
            tx.encode_in_block(&mut item);
            let parts = signed_parts(&Items::new(&item, 0).item("tx").unwrap()).unwrap();
            assert_eq!(tx.signing_hash(&mut Vec::new()), parts.signing_hash, "tx {i}");
            assert_eq!(recover(&parts).unwrap(), key.address, "tx {i}");
        }
    }

    #[test]
    fn pool_addresses_are_distinct_and_stable() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..TABLE {
            assert!(seen.insert(pool_key(i).address), "entry {i}");
        }
        assert_eq!(pool_key(5).address, PoolKey::derive(5).address);
    }
}
