//! The proposer's P-256 signature over an envelope header, at the cost of two scalar products.
//!
//! Like the EVM pool keys ([`super::evm_keys`]), the proposer key is public test material
//! ([`super::test_key`]), so it signs with ONE fixed nonce `k`: `R = k·G`, `r` and `k⁻¹` are
//! computed once and a signature is `s = k⁻¹·(sha256(msg) + r·d)`. The signature is a valid
//! ECDSA P-256 signature (it verifies with the certificate's key); reusing `k` would expose a
//! real key, which is why nothing but emulator keys is ever signed this way.

use std::sync::OnceLock;

use p256::ecdsa::{DerSignature, Signature};
use p256::elliptic_curve::ops::Reduce;
use p256::elliptic_curve::point::AffineCoordinates;
use p256::{ProjectivePoint, Scalar, U256};
use sha2::{Digest, Sha256};

use super::test_key::KEY_SCALAR;

struct Fixed {
    secret: Scalar,
    r: Scalar,
    k_inv: Scalar,
}

fn fixed() -> &'static Fixed {
    static FIXED: OnceLock<Fixed> = OnceLock::new();
    FIXED.get_or_init(|| {
        let secret = <Scalar as Reduce<U256>>::reduce_bytes(&KEY_SCALAR.into());
        let k_bytes: [u8; 32] = Sha256::digest(b"avax-data emulator proposer nonce").into();
        let k = <Scalar as Reduce<U256>>::reduce_bytes(&k_bytes.into());
        let x: [u8; 32] = (ProjectivePoint::GENERATOR * k).to_affine().x().into();
        let r = <Scalar as Reduce<U256>>::reduce_bytes(&x.into());
        Fixed { secret, r, k_inv: k.invert().expect("a non-zero nonce") }
    })
}

/// The DER signature of `msg` (hashed with sha256) by the proposer key.
pub fn sign(msg: &[u8]) -> DerSignature {
    let f = fixed();
    let z_bytes: [u8; 32] = Sha256::digest(msg).into();
    let z = <Scalar as Reduce<U256>>::reduce_bytes(&z_bytes.into());
    let s = f.k_inv * (z + f.r * f.secret);
    Signature::from_scalars(f.r.to_bytes(), s.to_bytes()).expect("non-zero r and s").to_der()
}
