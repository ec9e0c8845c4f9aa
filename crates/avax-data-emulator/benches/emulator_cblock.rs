//! How fast the emulator makes `C/block` containers, in process (no HTTP): the rate a walk of
//! the index can be served at, for the first walk (every container built: block encoded, each
//! transaction signed by its sender's key, the envelope signed by the proposer) and for a walk
//! of containers built before (served from the bounded cache of recent runs).
//!
//! Also the two signatures each way: the library's ECDSA (a point multiplication per
//! signature, what the emulator paid per container and per transaction before) against the
//! fixed-nonce signing of the emulator's public keys.
//!
//! ```sh
//! cargo bench -p avax-data-emulator --bench emulator_cblock -- --count 20000
//! ```
//! Prints one JSON line.

use std::time::Instant;

use avax_data_emulator::formats::{evm_keys, proposer_sign};
use avax_data_emulator::world::cchain::EvmChain;
use avax_data_emulator::world::chain;

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map_or(default, |v| v.parse().expect("a number"))
}

fn per_second(n: u64, t: Instant) -> f64 {
    n as f64 / t.elapsed().as_secs_f64()
}

fn main() {
    let count = arg("--count", 20_000);
    let start = arg("--start", 5_000);
    let rewalk = count.min(4_096);
    let evm = EvmChain::shared(arg("--seed", 7), 5_000, chain(43114).expect("the C-chain"));
    let mut buf = Vec::new();
    let t = Instant::now();
    evm.index_state(start);
    let id_chain = per_second(start, t);
    let (t, mut bytes) = (Instant::now(), 0usize);
    for h in start..start + count {
        evm.c_block(h, &mut buf);
        bytes += buf.len();
    }
    let first = per_second(count, t);
    let t = Instant::now();
    for h in start + count - rewalk..start + count {
        evm.c_block(h, &mut buf);
    }
    let again = per_second(rewalk, t);

    let n = 2_000u64;
    let msg = [7u8; 98];
    let t = Instant::now();
    for i in 0..n {
        std::hint::black_box(proposer_sign::sign(&[&msg[..], &i.to_be_bytes()].concat()));
    }
    let p256_fixed = per_second(n, t);
    let library = {
        use p256::ecdsa::signature::Signer;
        let key = p256::ecdsa::SigningKey::from_slice(&[3u8; 32]).expect("a scalar");
        let t = Instant::now();
        for i in 0..n {
            let sig: p256::ecdsa::DerSignature = key.sign(&[&msg[..], &i.to_be_bytes()].concat());
            std::hint::black_box(sig);
        }
        per_second(n, t)
    };
    let key = evm_keys::pool_key(1);
    let t = Instant::now();
    for i in 0..n {
        std::hint::black_box(key.sign(&[i as u8; 32]));
    }
    let k256_fixed = per_second(n, t);
    let k256_library = {
        let key = k256::ecdsa::SigningKey::from_slice(&key.secret_bytes()).expect("a scalar");
        let t = Instant::now();
        for i in 0..n {
            std::hint::black_box(key.sign_prehash_recoverable(&[i as u8 | 1; 32]).expect("signs"));
        }
        per_second(n, t)
    };
    println!(
        "{{\"containers\": {count}, \"start\": {start}, \"avg_bytes\": {}, \"id_chain_heights_per_s\": {id_chain:.0}, \
         \"first_walk_per_s\": {first:.0}, \"cached_walk_per_s\": {again:.0}, \"p256_library_sign_per_s\": {library:.0}, \
         \"p256_fixed_nonce_sign_per_s\": {p256_fixed:.0}, \"k256_library_sign_per_s\": {k256_library:.0}, \
         \"k256_fixed_nonce_sign_per_s\": {k256_fixed:.0}}}",
        bytes / count as usize
    );
}
