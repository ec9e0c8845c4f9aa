//! The id rule of the block indexes for envelope-shaped containers: sha256(all bytes) is the id
//! of such a container only on `P/block` and only when the bytes are also, in full, a pre-fork
//! Apricot block. A signed proposervm block labelled sha256(all) is refused on every block index,
//! by the checker and by the wire decoder (as an integrity failure).

use avax_data_core::decode::{ids, pchain, proposervm};
use avax_data_core::index::container::{ContainerError, Verify, WireContainer};
use avax_data_core::index::{cb58, IndexPath};
use serde_json::Value;

const BLOCK_INDEXES: [IndexPath; 3] = [IndexPath::CBlock, IndexPath::PBlock, IndexPath::XBlock];

fn vectors(file: &str) -> Vec<Value> {
    let path = format!("{}/../../tests/data/decode/{file}", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["vectors"].as_array().unwrap().clone()
}

fn bytes_of(v: &Value) -> Vec<u8> {
    hex::decode(v["hex"].as_str().unwrap().trim_start_matches("0x")).unwrap()
}

/// The published signed proposervm blocks (typeID 0 with an RSA certificate, typeID 2 with ECDSA).
fn signed_blocks() -> Vec<Vec<u8>> {
    let blocks: Vec<Vec<u8>> = vectors("proposervm_blocks.json")
        .iter()
        .filter(|v| v["decoded"].get("error").is_none())
        .map(bytes_of)
        .collect();
    assert_eq!(blocks.len(), 2);
    for b in &blocks {
        assert!(proposervm::parse(b).unwrap().is_signed());
    }
    blocks
}

/// An ApricotProposalBlock carrying a RewardValidatorTx whose bytes are also, in full, an
/// unsigned stateless envelope (type id 0 in both codecs): the envelope reads the height as its
/// timestamp, the tx type id and 4 bytes of the staker tx id as its P-chain height, zero
/// certificate and inner lengths from the tx id, then a 20-byte "signature" reaching the end.
fn colliding_apricot_block() -> Vec<u8> {
    let mut b = vec![0, 0, 0, 0, 0, 0];
    b.extend([0x11; 32]); // parent id
    b.extend(1_234u64.to_be_bytes()); // height
    b.extend(20u32.to_be_bytes()); // RewardValidatorTx
    let mut staker = [0x5a; 32];
    staker[4..12].fill(0); // certificate length 0, inner length 0
    staker[12..16].copy_from_slice(&20u32.to_be_bytes()); // signature length
    b.extend(staker);
    b.extend(0u32.to_be_bytes()); // no credentials
    b
}

fn wire(id: &[u8; 32], bytes: &[u8]) -> String {
    serde_json::json!({
        "id": cb58::encode(id),
        "bytes": cb58::encode_hex_with_checksum(bytes),
        "timestamp": "2021-01-01T00:00:00Z",
        "encoding": "hex",
        "index": "7",
    })
    .to_string()
}

#[test]
fn a_signed_block_labelled_sha256_of_all_its_bytes_is_refused_on_every_block_index() {
    for bytes in signed_blocks() {
        let env = proposervm::parse(&bytes).unwrap();
        let right = cb58::sha256(&bytes[..env.id_len]);
        let whole = cb58::sha256(&bytes);
        assert!(pchain::decode_block(&bytes).is_err(), "the vector is no Apricot block");
        for path in BLOCK_INDEXES {
            let err = ids::check(path, &bytes, &whole, &whole, None).unwrap_err();
            assert_eq!((err.rule, err.expected), (ids::IdRule::Sha256BeforeSignature, Some(right)), "{path}");
            assert_eq!(ids::check(path, &bytes, &right, &whole, None), Ok(ids::IdRule::Sha256BeforeSignature));

            let text = wire(&whole, &bytes);
            let container = serde_json::from_str::<WireContainer>(&text).unwrap();
            let err = container.decode(Verify::default(), path).unwrap_err();
            let ContainerError::Integrity(message) = &err else { panic!("{path}: {err:?}") };
            assert!(
                message.contains(&format!(
                    "{path} container 7: id {} does not match sha256 of the proposervm block without its \
                     signature: expected {}",
                    cb58::encode(&whole),
                    cb58::encode(&right)
                )),
                "{message}"
            );
            assert!(container.decode(Verify { ids: false }, path).is_ok());
        }
    }
}

#[test]
fn an_envelope_shaped_apricot_block_keeps_its_sha256_id_on_p_block_only() {
    let bytes = colliding_apricot_block();
    let block = pchain::decode_block(&bytes).unwrap();
    assert_eq!((block.type_name, block.height), ("ApricotProposalBlock", 1_234));
    let env = proposervm::parse(&bytes).unwrap();
    assert_eq!(
        (env.kind, env.certificate.len(), env.inner.len(), env.signature.len()),
        (proposervm::EnvelopeKind::Stateless, 0, 0, 20)
    );
    let whole = cb58::sha256(&bytes);
    assert_eq!(block.block_id, whole);
    let prefix = cb58::sha256(&bytes[..env.id_len]);
    assert_ne!(prefix, whole);

    assert_eq!(ids::check(IndexPath::PBlock, &bytes, &whole, &whole, None), Ok(ids::IdRule::Sha256));
    let text = wire(&whole, &bytes);
    let decoded = serde_json::from_str::<WireContainer>(&text).unwrap().decode(Verify::default(), IndexPath::PBlock);
    assert_eq!(decoded.unwrap().bytes, bytes);
    for path in [IndexPath::XBlock, IndexPath::CBlock] {
        let err = ids::check(path, &bytes, &whole, &whole, None).unwrap_err();
        assert_eq!((err.rule, err.expected), (ids::IdRule::Sha256BeforeSignature, Some(prefix)), "{path}");
    }
    // Read as the envelope the node tries first, the id by the envelope rule holds everywhere.
    for path in BLOCK_INDEXES {
        assert_eq!(ids::check(path, &bytes, &prefix, &whole, None), Ok(ids::IdRule::Sha256BeforeSignature));
    }
}

#[test]
fn one_byte_more_or_a_non_apricot_type_makes_the_collision_refuse_sha256() {
    // A trailing byte breaks both readings: it is no block at all, so the whole-bytes rule
    // applies to it as to any raw block (and the envelope rule has nothing to say).
    let mut longer = colliding_apricot_block();
    longer.push(0);
    assert!(proposervm::parse(&longer).is_err() && pchain::decode_block(&longer).is_err());

    // The same envelope whose tail no longer reads as a RewardValidatorTx (type 19 needs 8 bytes
    // and no tx id): still an envelope, no longer an Apricot block, so sha256(all) is refused.
    let mut other = colliding_apricot_block();
    other[46..50].copy_from_slice(&19u32.to_be_bytes());
    let env = proposervm::parse(&other).unwrap();
    assert!(pchain::decode_block(&other).is_err());
    let whole = cb58::sha256(&other);
    let err = ids::check(IndexPath::PBlock, &other, &whole, &whole, None).unwrap_err();
    assert_eq!(err.expected, Some(cb58::sha256(&other[..env.id_len])));
}

#[test]
fn real_p_chain_blocks_keep_the_sha256_rule_on_p_block() {
    let mut checked = 0;
    for v in vectors("pchain_blocks.json") {
        let bytes = bytes_of(&v);
        let Ok(block) = pchain::decode_block(&bytes) else { continue };
        let whole = cb58::sha256(&bytes);
        assert_eq!(block.block_id, whole);
        assert_eq!(
            ids::check(IndexPath::PBlock, &bytes, &whole, &whole, None),
            Ok(ids::IdRule::Sha256),
            "{}",
            v["name"]
        );
        checked += 1;
    }
    assert_eq!(checked, 5);
}
