//! Sender recovery per signature, side by side in one process: RustCrypto's k256 (the core's
//! path before issue 24's switch: `VerifyingKey::recover_from_prehash`, which re-verifies the
//! signature it recovered from) against libsecp256k1 through the `secp256k1` crate (the core's
//! [`recover`] today). The signatures are k256's (low s, as coreth requires) over distinct
//! hashes with distinct keys; each round recovers all of them with one contender, then the other,
//! the order alternating between rounds; the report gives medians of the rounds, in µs per
//! recovery, and the ratio. Every round's addresses are checked against the keys' own.
//!
//! ```sh
//! cargo bench -p avax-data-core --bench senders_recover [-- SIGNATURES ROUNDS]   # 2000 9
//! ```

use std::hint::black_box;
use std::time::Instant;

use avax_data_core::decode::cchain::keccak256;
use avax_data_core::decode::senders::{address_of, recover, SignedParts};
use k256::ecdsa::{RecoveryId, Signature, SigningKey, VerifyingKey};

/// The former path: k256's recovery (with its re-verification) and the key's address.
fn k256_recover(p: &SignedParts) -> [u8; 20] {
    let sig = Signature::from_scalars(p.r, p.s).expect("valid scalars");
    let id = RecoveryId::from_byte(p.y_parity).expect("parity 0 or 1");
    let key = VerifyingKey::recover_from_prehash(&p.signing_hash, &sig, id).expect("recovers");
    address_of(key.to_encoded_point(false).as_bytes().try_into().expect("65 bytes"))
}

fn libsecp256k1_recover(p: &SignedParts) -> [u8; 20] {
    recover(p).expect("recovers")
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with('-'));
    let count: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(9);
    let mut signed = Vec::with_capacity(count as usize);
    for i in 0..count {
        let key = SigningKey::from_slice(&keccak256(&i.to_be_bytes())).expect("a valid key");
        let hash = keccak256(&(i ^ 0x5a5a_5a5a).to_le_bytes());
        let (sig, id) = key.sign_prehash_recoverable(&hash).expect("signs");
        let parts = SignedParts {
            signing_hash: hash,
            y_parity: u8::from(id.is_y_odd()),
            r: sig.r().to_bytes().into(),
            s: sig.s().to_bytes().into(),
        };
        let address = address_of(key.verifying_key().to_encoded_point(false).as_bytes().try_into().expect("65"));
        signed.push((parts, address));
    }
    type Contender = (&'static str, fn(&SignedParts) -> [u8; 20]);
    let contenders: [Contender; 2] =
        [("k256 (recover + re-verify)", k256_recover), ("libsecp256k1 (secp256k1 0.29)", libsecp256k1_recover)];
    let mut times = [Vec::new(), Vec::new()];
    for round in 0..rounds {
        let order: [usize; 2] = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for c in order {
            let start = Instant::now();
            for (parts, address) in &signed {
                let got = (contenders[c].1)(black_box(parts));
                assert_eq!(&got, address, "{} recovered a wrong address", contenders[c].0);
            }
            times[c].push(start.elapsed().as_secs_f64() * 1e6 / f64::from(count));
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "sender recovery: {count} signatures, median of {rounds} alternated rounds, load average {}",
        load.split_whitespace().next().unwrap_or("?")
    );
    let base = median(times[0].clone());
    for (c, t) in contenders.iter().zip(times) {
        let m = median(t);
        println!("  {:32} {m:8.1} us/recovery  {:5.2}x", c.0, base / m);
    }
}
