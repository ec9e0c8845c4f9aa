//! A block's hashes are the same on every keccak path: the published coreth blocks (their
//! published block and transaction hashes) and 300 emulator blocks of ~20 transactions decoded
//! with the one-message keccak (`Path::Scalar`, what a CPU without AVX2 runs) and with the
//! four-message paths (AVX2, AVX-512), each field of each block equal; hashes not asked for stay
//! zero on every path. A path the CPU lacks runs as the scalar one.

use avax_data_core::decode::cchain::{self, keccak256, CBlock, Hashes, Path};
use avax_data_core::decode::proposervm;
use avax_data_core::decode::rlp::Items;
use avax_data_core::index::IndexPath;
use avax_data_emulator::formats::random::container;
use serde_json::Value;

const PATHS: [Path; 3] = [Path::Scalar, Path::Avx2, Path::Avx512];

fn hex32(hash: &[u8; 32]) -> String {
    format!("0x{}", hex::encode(hash))
}

fn decode_on(bytes: &[u8], hashes: Hashes, path: Path) -> CBlock {
    let mut out = CBlock::empty();
    cchain::decode_block_into_on(bytes, hashes, &mut out, path).unwrap();
    out
}

/// keccak256 of the header and of each transaction, read from the RLP apart from the decoder.
fn hashes_apart(bytes: &[u8]) -> ([u8; 32], Vec<[u8; 32]>) {
    let mut top = Items::new(bytes, 0);
    let mut block = top.list("block").unwrap();
    let header = keccak256(block.item("header").unwrap().raw);
    let mut txs = block.list("transactions").unwrap();
    let mut out = Vec::new();
    while let Some(tx) = txs.next_item("tx").unwrap() {
        out.push(keccak256(if tx.is_list { tx.raw } else { tx.payload }));
    }
    (header, out)
}

#[test]
fn the_published_blocks_hash_alike_on_every_path() {
    let path = format!("{}/../../tests/data/decode/cchain_blocks.json", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut checked = 0;
    for v in doc["vectors"].as_array().unwrap() {
        let decoded = &v["decoded"];
        let (Some(header), Some(txs)) = (decoded.get("header"), decoded.get("transactions")) else { continue };
        let name = v["name"].as_str().unwrap();
        let bytes = hex::decode(v["hex"].as_str().unwrap()).unwrap();
        let scalar = decode_on(&bytes, Hashes::ALL, Path::Scalar);
        for path in PATHS {
            let block = decode_on(&bytes, Hashes::ALL, path);
            assert_eq!(hex32(&block.hash), header["hash"].as_str().unwrap(), "{name} {path:?}");
            let published: Vec<&str> = txs.as_array().unwrap().iter().map(|t| t["hash"].as_str().unwrap()).collect();
            let ours: Vec<String> = block.transactions.iter().map(|t| hex32(&t.hash)).collect();
            assert_eq!(ours, published, "{name} {path:?}");
            assert_eq!(block, scalar, "{name} {path:?}");
        }
        checked += 1;
    }
    assert_eq!(checked, 16, "the published coreth blocks");
}

#[test]
fn emulator_blocks_hash_alike_on_every_path() {
    let mut transactions = 0;
    let mut scratch = CBlock::empty();
    for index in 0..300 {
        let (c, _) = container(1, IndexPath::CBlock, index, 0);
        let inner = proposervm::parse(&c.bytes).map_or(c.bytes.as_slice(), |e| e.inner).to_vec();
        let (header, txs) = hashes_apart(&inner);
        let scalar = decode_on(&inner, Hashes::ALL, Path::Scalar);
        assert_eq!(scalar.hash, header, "block {index}");
        let got: Vec<[u8; 32]> = scalar.transactions.iter().map(|t| t.hash).collect();
        assert_eq!(got, txs, "block {index}");
        for path in PATHS {
            assert_eq!(decode_on(&inner, Hashes::ALL, path), scalar, "block {index} {path:?}");
        }
        // The walk's decoder: the detected path into one reused block.
        cchain::decode_block_into(&inner, Hashes::ALL, &mut scratch).unwrap();
        assert_eq!(scratch, scalar, "block {index}, reused");
        transactions += txs.len();
    }
    assert!(transactions > 3_000, "{transactions} transactions: blocks of many, as the x4 path needs");
}

#[test]
fn hashes_not_asked_for_stay_zero_on_every_path() {
    let (c, _) = container(1, IndexPath::CBlock, 7, 0);
    let inner = proposervm::parse(&c.bytes).map_or(c.bytes.as_slice(), |e| e.inner).to_vec();
    let (header, txs) = hashes_apart(&inner);
    assert!(txs.len() >= 4, "a block with a group of four");
    for path in PATHS {
        for (block_hash, tx_hashes) in [(false, false), (true, false), (false, true), (true, true)] {
            let hashes = Hashes { block: block_hash, transactions: tx_hashes };
            let block = decode_on(&inner, hashes, path);
            assert_eq!(block.hash, if block_hash { header } else { [0; 32] }, "{hashes:?} {path:?}");
            for (tx, hash) in block.transactions.iter().zip(&txs) {
                assert_eq!(tx.hash, if tx_hashes { *hash } else { [0; 32] }, "{hashes:?} {path:?}");
            }
        }
    }
}

#[test]
fn a_block_failing_after_hashes_were_handed_out_fails_alike_and_leaves_nothing_behind() {
    // An emulator block whose typed transaction at position 5 or later gets an unknown type:
    // groups of four were hashed and stored before the failure; the error is the same on every
    // path, and the next block decoded into the same scratch equals a fresh decode.
    let (bytes, position, offset) = (0..50)
        .find_map(|index| {
            let (c, _) = container(1, IndexPath::CBlock, index, 0);
            let inner = proposervm::parse(&c.bytes).map_or(c.bytes.as_slice(), |e| e.inner).to_vec();
            let mut top = Items::new(&inner, 0);
            let mut block = top.list("block").unwrap();
            block.item("header").unwrap();
            let mut txs = block.list("transactions").unwrap();
            let mut position = 0;
            while let Some(tx) = txs.next_item("tx").unwrap() {
                if position >= 5 && !tx.is_list {
                    let offset = tx.payload_offset();
                    return Some((inner.clone(), position, offset));
                }
                position += 1;
            }
            None
        })
        .expect("an emulator block with a typed transaction at position 5 or later");
    let mut broken = bytes.clone();
    broken[offset] = 9;
    let (c, _) = container(1, IndexPath::CBlock, 99, 0);
    let next = proposervm::parse(&c.bytes).map_or(c.bytes.as_slice(), |e| e.inner).to_vec();
    let fresh = decode_on(&next, Hashes::ALL, Path::Scalar);
    for path in PATHS {
        let mut scratch = CBlock::empty();
        let err = cchain::decode_block_into_on(&broken, Hashes::ALL, &mut scratch, path).unwrap_err();
        assert!(
            err.message.starts_with(&format!("transaction {position}: unknown transaction type 9")),
            "{path:?}: {err}"
        );
        cchain::decode_block_into_on(&next, Hashes::ALL, &mut scratch, path).unwrap();
        assert_eq!(scratch, fresh, "{path:?}");
        assert_eq!(decode_on(&bytes, Hashes::ALL, path), decode_on(&bytes, Hashes::ALL, Path::Scalar), "{path:?}");
    }
}
