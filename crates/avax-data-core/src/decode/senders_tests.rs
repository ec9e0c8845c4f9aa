//! Tests of [`super`]: the EIP-155 text's published vector, round trips of every transaction
//! type signed with k256, the fixture blocks, and the signatures coreth refuses.

use super::*;
use alloy_rlp::Encodable;
use k256::ecdsa::SigningKey;
use k256::elliptic_curve::PrimeField;
use serde_json::Value;

/// The signed transaction of the EIP-155 text (private key 0x4646…46, nonce 9, 20 gwei, 21000
/// gas, to 0x3535…35, 1 ether, chain id 1).
const EIP155_TX: &str = "f86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83";
/// Its signing hash, as the EIP text publishes it.
const EIP155_SIGNING_HASH: &str = "daf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53";

fn item(bytes: &[u8]) -> Item<'_> {
    let mut top = Items::new(bytes, 0);
    let item = top.item("tx").unwrap();
    top.finish("tx").unwrap();
    item
}

/// The address of a k256 key (the signer the tests use; the core recovers with libsecp256k1).
fn key_of(key: &SigningKey) -> [u8; 20] {
    address_of(key.verifying_key().to_encoded_point(false).as_bytes().try_into().unwrap())
}

fn key_address(secret: &[u8; 32]) -> [u8; 20] {
    key_of(&SigningKey::from_slice(secret).unwrap())
}

/// A block `rlp([header, [txs], [], 0, ""])` around the body items `txs`.
fn block(txs: &[Vec<u8>]) -> Vec<u8> {
    let header = [0xc1, 0x80];
    let body: Vec<u8> = txs.concat();
    let mut list = Vec::new();
    alloy_rlp::Header { list: true, payload_length: body.len() }.encode(&mut list);
    list.extend_from_slice(&body);
    let payload_len = header.len() + list.len() + 1 + 1 + 1;
    let mut out = Vec::new();
    alloy_rlp::Header { list: true, payload_length: payload_len }.encode(&mut out);
    out.extend_from_slice(&header);
    out.extend_from_slice(&list);
    out.extend_from_slice(&[0xc0, 0x80, 0x80]);
    out
}

#[test]
fn eip155_vector_gives_the_published_signing_hash_and_the_keys_address() {
    let bytes = hex::decode(EIP155_TX).unwrap();
    let parts = signed_parts(&item(&bytes)).unwrap();
    assert_eq!(hex::encode(parts.signing_hash), EIP155_SIGNING_HASH);
    assert_eq!(parts.y_parity, 0, "v = 37 = 1*2 + 35");
    let from = sender(&item(&bytes), 0).unwrap();
    assert_eq!(from, key_address(&[0x46; 32]));
    assert_eq!(hex::encode(from), "9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f");
}

/// Signs `unsigned` fields (already RLP-encoded, concatenated) as the given type and returns
/// the body item: legacy when `tx_type` is `None` (`chain_id` `None`: pre-EIP-155).
fn sign(key: &SigningKey, tx_type: Option<u8>, chain_id: Option<u64>, unsigned: &[u8]) -> Vec<u8> {
    let mut payload = Vec::new();
    if let Some(t) = tx_type {
        payload.push(t);
    }
    let mut extra = Vec::new();
    if let (None, Some(id)) = (tx_type, chain_id) {
        id.encode(&mut extra);
        extra.extend_from_slice(&[0x80, 0x80]);
    }
    alloy_rlp::Header { list: true, payload_length: unsigned.len() + extra.len() }.encode(&mut payload);
    payload.extend_from_slice(unsigned);
    payload.extend_from_slice(&extra);
    // k256 signs with low s (and the matching recovery id), as EIP-2 requires.
    let (sig, id) = key.sign_prehash_recoverable(&keccak256(&payload)).unwrap();
    assert!(sig.normalize_s().is_none(), "k256 gives low-s signatures");
    let parity = u64::from(id.is_y_odd());
    let mut fields = unsigned.to_vec();
    let v = match (tx_type, chain_id) {
        (Some(_), _) => parity,
        (None, Some(id)) => id * 2 + 35 + parity,
        (None, None) => 27 + parity,
    };
    v.encode(&mut fields);
    let r = sig.r().to_bytes();
    let s = sig.s().to_bytes();
    r.as_slice()[r.iter().position(|&b| b != 0).unwrap()..].encode(&mut fields);
    s.as_slice()[s.iter().position(|&b| b != 0).unwrap()..].encode(&mut fields);
    let mut tx = Vec::new();
    if let Some(t) = tx_type {
        tx.push(t);
    }
    alloy_rlp::Header { list: true, payload_length: fields.len() }.encode(&mut tx);
    tx.extend_from_slice(&fields);
    if tx_type.is_none() {
        return tx;
    }
    let mut wrapped = Vec::new();
    tx.as_slice().encode(&mut wrapped);
    wrapped
}

fn unsigned_fields(tx_type: Option<u8>, nonce: u64) -> Vec<u8> {
    let mut f = Vec::new();
    if tx_type.is_some() {
        43114u64.encode(&mut f);
    }
    nonce.encode(&mut f);
    if tx_type == Some(2) {
        2_000_000_000u64.encode(&mut f);
    }
    25_000_000_000u64.encode(&mut f);
    21_000u64.encode(&mut f);
    [0x35u8; 20].as_slice().encode(&mut f);
    1_000_000_000_000_000_000u128.encode(&mut f);
    [0xa9u8, 0x05, 0x9c, 0xbb].as_slice().encode(&mut f);
    if tx_type.is_some() {
        // One access-list entry: [address, [storage key]].
        let mut entry = Vec::new();
        [0x11u8; 20].as_slice().encode(&mut entry);
        let mut keys = Vec::new();
        [0x22u8; 32].as_slice().encode(&mut keys);
        alloy_rlp::Header { list: true, payload_length: keys.len() }.encode(&mut entry);
        entry.extend_from_slice(&keys);
        let mut list = Vec::new();
        alloy_rlp::Header { list: true, payload_length: entry.len() }.encode(&mut list);
        list.extend_from_slice(&entry);
        alloy_rlp::Header { list: true, payload_length: list.len() }.encode(&mut f);
        f.extend_from_slice(&list);
    }
    f
}

#[test]
fn every_type_round_trips_through_k256_signing() {
    let keys: Vec<SigningKey> = (1u8..=6).map(|i| SigningKey::from_slice(&[i; 32]).unwrap()).collect();
    let kinds = [(None, None), (None, Some(43114)), (Some(1), None), (Some(2), None)];
    let mut txs = Vec::new();
    let mut expected = Vec::new();
    for (n, key) in keys.iter().enumerate() {
        for (t, chain) in kinds {
            let tx = sign(key, t, chain, &unsigned_fields(t, n as u64));
            assert_eq!(sender(&item(&tx), 0).unwrap(), key_of(key), "{t:?} {chain:?}");
            txs.push(tx);
            expected.push(key_of(key));
        }
    }
    // The same transactions in blocks, recovered sequentially and over threads, in order.
    let blocks: Vec<Vec<u8>> = txs.chunks(5).map(block).collect();
    let refs: Vec<&[u8]> = blocks.iter().map(Vec::as_slice).collect();
    for threads in [1, 2, 3, 0] {
        let got: Vec<[u8; 20]> = senders_of_blocks(&refs, threads).into_iter().flat_map(Result::unwrap).collect();
        assert_eq!(got, expected, "threads={threads}");
    }
    assert!(senders_of_blocks(&[], 0).is_empty());
}

#[test]
fn a_requested_stop_ends_the_recovery_on_every_thread() {
    let key = SigningKey::from_slice(&[7; 32]).unwrap();
    let blocks: Vec<Vec<u8>> =
        (0..8).map(|n| block(&[sign(&key, Some(2), None, &unsigned_fields(Some(2), n))])).collect();
    let refs: Vec<&[u8]> = blocks.iter().map(Vec::as_slice).collect();
    let stop = Stop::new();
    for threads in [1, 3] {
        let got = senders_of_containers_until(&refs, threads, &stop).expect("not stopped");
        assert_eq!(got.len(), 8);
        assert!(got.iter().all(|s| s.as_ref().ok() == Some(&vec![key_of(&key)])), "threads={threads}");
    }
    stop.request();
    for threads in [1, 3] {
        assert!(senders_of_containers_until(&refs, threads, &stop).is_none(), "threads={threads}");
    }
}

/// coreth's synchronous-test blocks carry real signatures: every tx recovers. go-ethereum's
/// encoding tests sign with made-up values; one of them has a high `s`, which is refused.
#[test]
fn the_fixture_blocks_recover_and_a_high_s_test_signature_is_refused() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/decode/cchain_blocks.json"))
            .unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let mut recovered = 0;
    for v in doc["vectors"].as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        let bytes = hex::decode(v["hex"].as_str().unwrap().trim_start_matches("0x")).unwrap();
        let published = v["decoded"]["transactions"].as_array().map_or(0, Vec::len);
        if name == "TestEIP1559BlockEncoding" {
            let err = block_senders(&bytes).unwrap_err();
            assert!(err.message.starts_with("transaction 0 (0x77b19baa"), "{}", err.message);
            assert!(err.message.contains("above half the curve order"), "{}", err.message);
            continue;
        }
        if !name.starts_with("synchronoustest") {
            continue;
        }
        let senders = block_senders(&bytes).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(senders.len(), published, "{name}");
        assert!(senders.iter().all(|a| *a != [0; 20]), "{name}");
        recovered += senders.len();
    }
    assert!(recovered >= 10, "{recovered}");
}

/// The EIP-155 vector with `s` replaced by `n - s` and the parity flipped: the same signer
/// mathematically, but coreth (EIP-2) refuses it, and so do we.
#[test]
fn high_s_is_refused_with_the_tx_named() {
    let mut bytes = hex::decode(EIP155_TX).unwrap();
    let s_at = bytes.len() - 32;
    let s: [u8; 32] = bytes[s_at..].try_into().unwrap();
    let order = k256::Scalar::from_repr(s.into()).unwrap();
    let high = (-order).to_bytes();
    bytes[s_at..].copy_from_slice(&high);
    let v_at = bytes.len() - 32 - 1 - 32 - 1 - 1;
    assert_eq!(bytes[v_at], 0x25);
    bytes[v_at] = 0x26;
    let err = sender(&item(&bytes), 7).unwrap_err();
    assert!(err.message.starts_with("transaction 7 (0x"), "{}", err.message);
    assert!(err.message.contains("above half the curve order (EIP-2)"), "{}", err.message);
}

#[test]
fn bad_signatures_are_errors_never_addresses() {
    let good = hex::decode(EIP155_TX).unwrap();
    // r = 0 (the 32-byte r becomes a one-byte 0x80 would change lengths: zero it in place).
    let mut zero_r = good.clone();
    let r_at = good.len() - 32 - 1 - 32;
    zero_r[r_at..r_at + 32].fill(0);
    let err = sender(&item(&zero_r), 0).unwrap_err();
    assert!(err.message.contains("r or s is zero or not below the curve order"), "{}", err.message);
    // v = 29: neither 27/28 nor an EIP-155 value.
    let mut bad_v = good.clone();
    bad_v[good.len() - 67] = 29;
    let err = sender(&item(&bad_v), 3).unwrap_err();
    assert!(err.message.contains("transaction 3") && err.message.contains("v 29"), "{}", err.message);
    // A typed tx with yParity 2.
    let key = SigningKey::from_slice(&[9; 32]).unwrap();
    let mut typed = sign(&key, Some(2), None, &unsigned_fields(Some(2), 1));
    let parity_at = typed.len() - 2 * 33 - 1;
    assert!(typed[parity_at] <= 1);
    typed[parity_at] = 2;
    let err = sender(&item(&typed), 0).unwrap_err();
    assert!(err.message.contains("yParity 2"), "{}", err.message);
    // Unknown type and a truncated block.
    let err = sender(&item(&[0x82, 0x05, 0xc0]), 0).unwrap_err();
    assert!(err.message.contains("unknown transaction type 5"), "{}", err.message);
    assert!(block_senders(&block(&[good])[..40]).is_err());
}

/// The checks before libsecp256k1 sees a signature: `r` equal to the order (or above) and a
/// zero `s` are refused by name; an `r` that is no point's x refuses to recover.
#[test]
fn r_at_the_order_zero_s_and_off_curve_r_are_errors() {
    let hash = [7u8; 32];
    let parts = |r: [u8; 32], s: [u8; 32]| SignedParts { signing_hash: hash, y_parity: 0, r, s };
    let mut one = [0u8; 32];
    one[31] = 1;
    for (r, s) in [(ORDER, one), ([0xff; 32], one), (one, [0; 32])] {
        let err = recover(&parts(r, s)).unwrap_err();
        assert_eq!(err, "r or s is zero or not below the curve order", "r {r:02x?} s {s:02x?}");
    }
    // About half of all x are not on the curve: among r = 1..=16 some recover, some do not.
    let mut refused = 0;
    for x in 1u8..=16 {
        let mut r = [0u8; 32];
        r[31] = x;
        match recover(&parts(r, one)) {
            Ok(address) => assert_ne!(address, [0; 20]),
            Err(e) => {
                assert_eq!(e, "no public key recovers from this signature");
                refused += 1;
            }
        }
    }
    assert!((1..16).contains(&refused), "{refused} of 16 refused");
}

/// Differential: libsecp256k1 (the core) and k256 (the former path, which re-verifies what it
/// recovers) agree on every signature: k256-signed ones give the key's address, and arbitrary
/// (r, s, parity) triples give the same address or both an error, never a different address.
#[test]
fn libsecp256k1_and_k256_agree_on_signed_and_arbitrary_signatures() {
    use k256::ecdsa::{RecoveryId as KId, Signature as KSig, VerifyingKey};
    let k256_recover = |p: &SignedParts| -> Option<[u8; 20]> {
        let sig = KSig::from_scalars(p.r, p.s).ok()?;
        let key = VerifyingKey::recover_from_prehash(&p.signing_hash, &sig, KId::from_byte(p.y_parity)?).ok()?;
        Some(address_of(key.to_encoded_point(false).as_bytes().try_into().unwrap()))
    };
    let (mut signed, mut agreed_ok, mut agreed_err) = (0, 0, 0);
    for i in 0u32..64 {
        let secret = keccak256(&i.to_be_bytes());
        let hash = keccak256(&secret);
        if let Ok(key) = SigningKey::from_slice(&secret) {
            let (sig, id) = key.sign_prehash_recoverable(&hash).unwrap();
            let parts = SignedParts {
                signing_hash: hash,
                y_parity: u8::from(id.is_y_odd()),
                r: sig.r().to_bytes().into(),
                s: sig.s().to_bytes().into(),
            };
            assert_eq!(recover(&parts).unwrap(), key_of(&key), "key {i}");
            signed += 1;
        }
        // Arbitrary values: r and s from hashes, s kept low as EIP-2 requires.
        let mut s = keccak256(&hash);
        s[0] &= 0x7f;
        let parts = SignedParts { signing_hash: hash, y_parity: (i % 2) as u8, r: keccak256(&s), s };
        match (recover(&parts), k256_recover(&parts)) {
            (Ok(a), Some(b)) => {
                assert_eq!(a, b, "arbitrary {i}");
                agreed_ok += 1;
            }
            (Err(_), None) => agreed_err += 1,
            (a, b) => panic!("arbitrary {i}: libsecp256k1 {a:?}, k256 {b:?}"),
        }
    }
    assert_eq!(signed, 64);
    assert!(agreed_ok > 10 && agreed_err > 10, "{agreed_ok} recovered, {agreed_err} refused by both");
}

/// The signing payload hashed in place (its list header written on the stack) is the one the
/// signer hashed after copying it: short and long list headers (a 300-byte call data takes two
/// length bytes), a chain id of eight bytes, and every type.
#[test]
fn signing_hashes_in_place_equal_those_of_the_copied_payload() {
    let key = SigningKey::from_slice(&[9; 32]).unwrap();
    let long_input = |t: Option<u8>| {
        let mut f = unsigned_fields(t, 1);
        vec![0x5au8; 300].as_slice().encode(&mut f);
        f
    };
    let cases: Vec<(Option<u8>, Option<u64>, Vec<u8>)> = vec![
        (None, None, unsigned_fields(None, 0)),
        (None, Some(1), unsigned_fields(None, 0)),
        (None, Some(u64::MAX / 4), unsigned_fields(None, 7)),
        (None, Some(43114), long_input(None)),
        (Some(1), None, long_input(Some(1))),
        (Some(2), None, unsigned_fields(Some(2), 3)),
    ];
    for (t, chain, unsigned) in cases {
        let unsigned = if t.is_none() && unsigned.len() > 200 {
            // Legacy: six fields only (the long call data replaces the short one).
            let mut f = Vec::new();
            let mut items = Items::new(&unsigned, 0);
            for _ in 0..5 {
                f.extend_from_slice(items.item("field").unwrap().raw);
            }
            items.item("short input").unwrap();
            f.extend_from_slice(items.item("long input").unwrap().raw);
            f
        } else {
            unsigned
        };
        let tx = sign(&key, t, chain, &unsigned);
        assert_eq!(sender(&item(&tx), 0).unwrap(), key_of(&key), "{t:?} {chain:?} {} bytes", unsigned.len());
    }
}

/// Blocks of very different sizes over 2 and 3 threads: every block's senders in the blocks'
/// order, each block once.
#[test]
fn uneven_blocks_over_threads_keep_their_order() {
    let keys: Vec<SigningKey> = (1u8..=3).map(|i| SigningKey::from_slice(&[i; 32]).unwrap()).collect();
    let mut blocks = Vec::new();
    let mut expected = Vec::new();
    for b in 0..37u64 {
        let n = [0usize, 1, 9, 2][b as usize % 4];
        let key = &keys[b as usize % 3];
        let txs: Vec<Vec<u8>> =
            (0..n).map(|k| sign(key, Some(2), None, &unsigned_fields(Some(2), b * 10 + k as u64))).collect();
        expected.push(vec![key_of(key); n]);
        blocks.push(block(&txs));
    }
    let refs: Vec<&[u8]> = blocks.iter().map(Vec::as_slice).collect();
    for threads in [2, 3] {
        let got: Vec<Vec<[u8; 20]>> = senders_of_blocks(&refs, threads).into_iter().map(Result::unwrap).collect();
        assert_eq!(got, expected, "threads={threads}");
    }
}
