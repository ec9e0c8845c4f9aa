//! Property tests of the proposervm and coreth decoders and the id rules on hostile bytes:
//! random bytes, and real vectors with flipped bytes, cuts and length prefixes set to 4 billion.
//! Every call returns a value or a typed error; none panics, and none allocates by a length
//! prefix it has not checked.

use avax_data_core::arrow::decoded::frame::decode_c_container;
use avax_data_core::decode::{cchain, ids, proposervm};
use avax_data_core::index::{cb58, IndexPath};
use proptest::prelude::*;

fn vector_bytes() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for file in ["cchain_blocks.json", "proposervm_blocks.json", "constructed_examples.json"] {
        let path = format!("{}/../../tests/data/decode/{file}", env!("CARGO_MANIFEST_DIR"));
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for v in doc["vectors"].as_array().unwrap() {
            out.push(hex::decode(v["hex"].as_str().unwrap()).unwrap());
        }
    }
    out
}

/// Runs every decoder on `bytes`; only panics would fail.
fn exercise(bytes: &[u8]) {
    let _ = proposervm::parse(bytes);
    let _ = cchain::decode_block(bytes);
    let _ = cchain::decode_header_only(bytes);
    let _ = cchain::block_hash(bytes);
    let decoded = decode_c_container(bytes);
    if let Err(e) = &decoded.inner {
        assert!(e.offset <= bytes.len(), "offset {} past the end {}", e.offset, bytes.len());
    }
    let digest = cb58::sha256(bytes);
    for path in IndexPath::ALL {
        let prefix = ids::signed_prefix_len(path, bytes);
        if let Some(n) = prefix {
            assert!(n <= bytes.len());
        }
        let _ = ids::check(path, bytes, &digest, &digest, None);
    }
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Cut(usize),
    HugeLength(usize),
    Insert(usize, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(i, x)| Mutation::Flip(i, x)),
        any::<usize>().prop_map(Mutation::Cut),
        any::<usize>().prop_map(Mutation::HugeLength),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
    ]
}

fn apply(mut bytes: Vec<u8>, m: &Mutation) -> Vec<u8> {
    let n = bytes.len().max(1);
    match *m {
        Mutation::Flip(i, x) => {
            if !bytes.is_empty() {
                bytes[i % n] ^= x;
            }
        }
        Mutation::Cut(i) => bytes.truncate(i % n),
        Mutation::HugeLength(i) => {
            let at = i % n;
            for k in at..(at + 4).min(bytes.len()) {
                bytes[k] = 0xff;
            }
        }
        Mutation::Insert(i, b) => bytes.insert(i % n, b),
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        exercise(&bytes);
    }

    #[test]
    fn envelope_shaped_random_bytes_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..400), kind in 0u8..4) {
        let mut bytes = vec![0, 0, 0, 0, 0, kind];
        bytes.extend(tail);
        exercise(&bytes);
    }

    #[test]
    fn mutated_vectors_never_panic(which in any::<usize>(), mutations in proptest::collection::vec(mutation(), 1..4)) {
        let vectors = vector_bytes();
        let mut bytes = vectors[which % vectors.len()].clone();
        for m in &mutations {
            bytes = apply(bytes, m);
        }
        exercise(&bytes);
    }
}

#[test]
fn every_byte_position_set_to_a_huge_length_is_an_error_not_an_allocation() {
    for original in vector_bytes() {
        for at in 0..original.len() {
            let bytes = apply(original.clone(), &Mutation::HugeLength(at));
            exercise(&bytes);
        }
    }
}
