//! The emulator's fixed proposer identity: a P-256 key and its self-signed X.509 certificate
//! (DER), both made once with Python's `cryptography` 50.0.2 and embedded here:
//!
//! ```python
//! key = ec.derive_private_key(int.from_bytes(sha256(b"avax-data emulator proposer key").digest(),
//!                             "big") % P256_ORDER_ISH, ec.SECP256R1())
//! name = x509.Name([])
//! cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
//!         .public_key(key.public_key()).serial_number(1)
//!         .not_valid_before(datetime(2000, 1, 1)).not_valid_after(datetime(9999, 12, 31, 23, 59, 59))
//!         .sign(key, hashes.SHA256()))
//! CERT_DER = cert.public_bytes(Encoding.DER); KEY_SCALAR = key.private_numbers().private_value
//! ```
//!
//! Test material only: the key is public.

use super::hex_array;

/// The certificate, DER (240 bytes): empty subject and issuer, serial 1, valid 2000–9999,
/// ecdsa-with-SHA256, P-256 public key.
pub const CERT_DER: [u8; 240] = hex_array(
    "3081ed308195a003020102020101300a06082a8648ce3d04030230003020170d3030303130313030303030305a180f39393939313233313233353935395a30003059301306072a8648ce3d020106082a8648ce3d03010703420004c27700211950b1608ca40b123a0c3855e829d1b3888c010827769c275e65cfce36bf5df7d5293c18f7c2f56a2412811634e8eb4fe4ee22bc0c1832f21571e0b7300a06082a8648ce3d040302034700304402204c077c4f520cd274e0238a0227715521e36c08e9a228383152eeb04813be21ae02205c2d0c5360a3b08d12f1b8858b42b36168c04cff5517440684055508c65eb822",
);

/// The private key's scalar, big-endian.
pub const KEY_SCALAR: [u8; 32] = hex_array("096485d586e2b84ce0eb909f371080a9d2a5ad2f023e9e26f239793ac0a73156");
