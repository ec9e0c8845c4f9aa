//! coreth's block encoding (FORMATS.md §4): `rlp([header, [tx...], [uncles], version, extData])`
//! with the header in coreth's field order (extDataHash right after nonce, then the optional
//! fields of ApricotPhase3, ApricotPhase4, Etna and Granite), legacy and EIP-1559 transactions.
//!
//! - Block hash = `keccak256(rlp(header))`; tx hash = `keccak256(tx encoding)` (a legacy tx is
//!   an RLP list, a type-2 tx is `0x02 ‖ rlp(fields)`, embedded in the block as an RLP string).
//! - An optional header field is written when it or any later one is set (a `None` before a set
//!   field is written as `0x80`, as coreth's generated encoder does).

use alloy_rlp::Encodable;

use super::hex_array;

/// keccak256 of `data`: the client decoder's own (one keccak in the workspace).
pub use avax_data_core::decode::cchain::keccak256;
/// A coreth header: the client decoder's own type, which the emulator writes ([`HeaderRlp`]).
pub use avax_data_core::decode::cchain::Header;

/// keccak256(rlp([])): the `sha3Uncles` of a block without uncles.
pub const EMPTY_UNCLE_HASH: [u8; 32] = hex_array("1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347");
/// keccak256(0x80): the root of an empty trie, and coreth's `extDataHash` of empty extData.
pub const EMPTY_ROOT: [u8; 32] = hex_array("56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421");

/// Appends an RLP list whose payload `body` writes (straight into `out`, no temporary buffer).
pub fn rlp_list(out: &mut Vec<u8>, body: impl FnOnce(&mut Vec<u8>)) {
    rlp_wrap(out, 0xc0, body);
}

/// Appends an RLP item (`base` 0xc0: a list, 0x80: a string) whose payload `body` writes: room
/// for a header of [`GUESS`] bytes is left, and the payload moves only when its header has
/// another length. A block, its transaction list and its larger transactions (payloads of 256
/// bytes to 64 KiB) are written in place; the payload of a block used to be moved once for each
/// list around it.
fn rlp_wrap(out: &mut Vec<u8>, base: u8, body: impl FnOnce(&mut Vec<u8>)) {
    /// The header length of a payload of 256 bytes to 64 KiB.
    const GUESS: usize = 3;
    let start = out.len();
    out.extend_from_slice(&[0u8; GUESS]);
    body(out);
    let len = out.len() - start - GUESS;
    let mut head = [0u8; 9];
    let head_len = if len < 56 {
        head[0] = base + len as u8;
        1
    } else {
        let be = (len as u64).to_be_bytes();
        let skip = be.iter().take_while(|&&b| b == 0).count();
        head[0] = base + 55 + (8 - skip) as u8;
        head[1..1 + 8 - skip].copy_from_slice(&be[skip..]);
        1 + 8 - skip
    };
    if head_len > GUESS {
        out.resize(out.len() + head_len - GUESS, 0);
        out.copy_within(start + GUESS..start + GUESS + len, start + head_len);
    } else if head_len < GUESS {
        out.copy_within(start + GUESS.., start + head_len);
        out.truncate(start + head_len + len);
    }
    out[start..start + head_len].copy_from_slice(&head[..head_len]);
}

/// Appends `bytes` as an RLP string.
pub fn rlp_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    bytes.encode(out);
}

/// Writing a coreth header (the client core only reads one).
pub trait HeaderRlp {
    /// Appends `rlp(header)`.
    fn encode(&self, out: &mut Vec<u8>);
    /// `keccak256(rlp(header))`.
    fn hash(&self) -> [u8; 32];
}

impl HeaderRlp for Header {
    fn encode(&self, out: &mut Vec<u8>) {
        rlp_list(out, |p| {
            let fixed: [&dyn Encodable; 16] = [
                &self.parent_hash,
                &self.uncle_hash,
                &self.coinbase,
                &self.state_root,
                &self.transactions_root,
                &self.receipts_root,
                &self.logs_bloom.as_slice(),
                &self.difficulty,
                &self.number,
                &self.gas_limit,
                &self.gas_used,
                &self.time,
                &self.extra.as_slice(),
                &self.mix_digest,
                &self.nonce,
                &self.ext_data_hash,
            ];
            fixed.iter().for_each(|field| field.encode(p));
            let optional: [Option<&dyn Encodable>; 8] = [
                self.base_fee.as_ref().map(|v| v as &dyn Encodable),
                self.ext_data_gas_used.as_ref().map(|v| v as &dyn Encodable),
                self.block_gas_cost.as_ref().map(|v| v as &dyn Encodable),
                self.blob_gas_used.as_ref().map(|v| v as &dyn Encodable),
                self.excess_blob_gas.as_ref().map(|v| v as &dyn Encodable),
                self.parent_beacon_root.as_ref().map(|v| v as &dyn Encodable),
                self.time_milliseconds.as_ref().map(|v| v as &dyn Encodable),
                self.min_delay_excess.as_ref().map(|v| v as &dyn Encodable),
            ];
            let present = optional.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
            for field in &optional[..present] {
                match field {
                    Some(value) => value.encode(p),
                    None => p.push(0x80),
                }
            }
        });
    }

    fn hash(&self) -> [u8; 32] {
        let mut out = Vec::with_capacity(640);
        self.encode(&mut out);
        keccak256(&out)
    }
}

/// A transaction's signature values (the emulator signs with its sender's pool key: [`super::evm_keys`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signature {
    /// Legacy: `27/28` or `chainId*2+35/36`; typed: the y parity `0/1`.
    pub v: u64,
    pub r: [u8; 32],
    pub s: [u8; 32],
}

/// One transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tx {
    /// Pre-EIP-2718: `rlp([nonce, gasPrice, gas, to, value, data, v, r, s])`.
    Legacy { nonce: u64, gas_price: u128, gas: u64, to: Option<[u8; 20]>, value: u128, data: Vec<u8>, sig: Signature },
    /// EIP-1559: `0x02 ‖ rlp([chainId, nonce, maxPriorityFee, maxFee, gas, to, value, data,
    /// accessList, yParity, r, s])`.
    DynamicFee {
        chain_id: u64,
        nonce: u64,
        max_priority_fee: u128,
        max_fee: u128,
        gas: u64,
        to: Option<[u8; 20]>,
        value: u128,
        data: Vec<u8>,
        sig: Signature,
    },
}

/// An RLP integer as the minimal big-endian bytes of a 32-byte value (leading zeros dropped).
fn encode_word(word: &[u8; 32], out: &mut Vec<u8>) {
    let start = word.iter().position(|&b| b != 0).unwrap_or(32);
    word[start..].encode(out);
}

fn encode_to(to: &Option<[u8; 20]>, out: &mut Vec<u8>) {
    match to {
        Some(address) => address.encode(out),
        None => out.push(0x80),
    }
}

impl Tx {
    /// The canonical encoding whose keccak is the tx hash (what `eth_sendRawTransaction` takes).
    pub fn encode(&self, out: &mut Vec<u8>) {
        let sig = match self {
            Tx::Legacy { sig, .. } => sig,
            Tx::DynamicFee { sig, .. } => {
                out.push(0x02);
                sig
            }
        };
        rlp_list(out, |p| {
            self.encode_unsigned_fields(p);
            sig.v.encode(p);
            encode_word(&sig.r, p);
            encode_word(&sig.s, p);
        });
    }

    /// Appends the payload whose keccak the sender signs: a legacy tx's six fields with EIP-155's
    /// `chainId, 0, 0` when its `v` names a chain (`chainId*2+35/36`); a typed tx's `0x02 ‖
    /// rlp(fields without the signature)`.
    pub fn encode_signing_payload(&self, out: &mut Vec<u8>) {
        match self {
            Tx::Legacy { sig, .. } => rlp_list(out, |p| {
                self.encode_unsigned_fields(p);
                if sig.v >= 35 {
                    ((sig.v - 35) / 2).encode(p);
                    p.extend_from_slice(&[0x80, 0x80]);
                }
            }),
            Tx::DynamicFee { .. } => {
                out.push(0x02);
                rlp_list(out, |p| self.encode_unsigned_fields(p));
            }
        }
    }

    /// keccak256 of [`Tx::encode_signing_payload`]: the hash the sender signs.
    pub fn signing_hash(&self, scratch: &mut Vec<u8>) -> [u8; 32] {
        scratch.clear();
        self.encode_signing_payload(scratch);
        keccak256(scratch)
    }

    /// Appends the RLP items of the fields before the signature values.
    fn encode_unsigned_fields(&self, p: &mut Vec<u8>) {
        match self {
            Tx::Legacy { nonce, gas_price, gas, to, value, data, .. } => {
                nonce.encode(p);
                gas_price.encode(p);
                gas.encode(p);
                encode_to(to, p);
                value.encode(p);
                data.as_slice().encode(p);
            }
            Tx::DynamicFee { chain_id, nonce, max_priority_fee, max_fee, gas, to, value, data, .. } => {
                chain_id.encode(p);
                nonce.encode(p);
                max_priority_fee.encode(p);
                max_fee.encode(p);
                gas.encode(p);
                encode_to(to, p);
                value.encode(p);
                data.as_slice().encode(p);
                p.push(0xc0); // empty access list
            }
        }
    }

    /// Appends the tx as a block body element: a legacy tx as its list, a typed tx as an RLP
    /// string around its encoding.
    pub fn encode_in_block(&self, out: &mut Vec<u8>) {
        match self {
            Tx::Legacy { .. } => self.encode(out),
            Tx::DynamicFee { .. } => rlp_wrap(out, 0x80, |p| self.encode(p)),
        }
    }

    /// keccak256 of [`Tx::encode`].
    pub fn hash(&self) -> [u8; 32] {
        let mut enc = Vec::with_capacity(160);
        self.encode(&mut enc);
        keccak256(&enc)
    }
}

/// Appends `rlp([header, [tx...], [], version, extData])`; returns the block hash (the keccak of
/// the header as written, so the header is encoded once).
pub fn encode_block(out: &mut Vec<u8>, header: &Header, txs: &[Tx], version: u32, ext_data: &[u8]) -> [u8; 32] {
    let mut hash = [0; 32];
    rlp_list(out, |p| {
        let start = p.len();
        header.encode(p);
        hash = keccak256(&p[start..]);
        rlp_list(p, |t| txs.iter().for_each(|tx| tx.encode_in_block(t)));
        p.push(0xc0);
        version.encode(p);
        ext_data.encode(p);
    });
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_rlp::Header as RlpHeader;
    use serde_json::Value;

    fn bytes(v: &Value) -> Vec<u8> {
        hex::decode(v.as_str().unwrap().trim_start_matches("0x")).unwrap()
    }

    fn arr<const N: usize>(v: &Value) -> [u8; N] {
        bytes(v).try_into().unwrap()
    }

    /// The published C-chain block vectors (`tests/data/decode/cchain_blocks.json`).
    fn fixture_blocks() -> Value {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/decode/cchain_blocks.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn header_from_json(h: &Value) -> Header {
        let u = |k: &str| h.get(k).and_then(Value::as_u64);
        Header {
            parent_hash: arr(&h["parentHash"]),
            uncle_hash: arr(&h["sha3Uncles"]),
            coinbase: arr(&h["miner"]),
            state_root: arr(&h["stateRoot"]),
            transactions_root: arr(&h["transactionsRoot"]),
            receipts_root: arr(&h["receiptsRoot"]),
            logs_bloom: arr(&h["logsBloom"]),
            difficulty: u("difficulty").map(u128::from).unwrap(),
            number: u("number").unwrap(),
            gas_limit: u("gasLimit").unwrap(),
            gas_used: u("gasUsed").unwrap(),
            time: u("timestamp").unwrap(),
            extra: bytes(&h["extraData"]),
            mix_digest: arr(&h["mixHash"]),
            nonce: arr(&h["nonce"]),
            ext_data_hash: arr(&h["extDataHash"]),
            base_fee: u("baseFeePerGas").map(u128::from),
            ext_data_gas_used: u("extDataGasUsed").map(u128::from),
            block_gas_cost: u("blockGasCost").map(u128::from),
            blob_gas_used: u("blobGasUsed"),
            excess_blob_gas: u("excessBlobGas"),
            parent_beacon_root: h.get("parentBeaconBlockRoot").map(arr),
            time_milliseconds: u("timestampMilliseconds"),
            min_delay_excess: u("minDelayExcess"),
        }
    }

    /// Re-encodes the fixture blocks' headers field by field from their decoded JSON: the
    /// published block hashes come out (16-, 17-, 19-, 22- and 24-field headers), and the
    /// client's decoder reads each header back equal to the one encoded.
    #[test]
    fn header_encoder_reproduces_the_published_fixture_hashes() {
        let doc = fixture_blocks();
        let mut counts = std::collections::BTreeSet::new();
        let mut checked = 0;
        for v in doc["vectors"].as_array().unwrap() {
            if !v["name"].as_str().unwrap().starts_with("synchronoustest") {
                continue;
            }
            let h = &v["decoded"]["header"];
            let header = header_from_json(h);
            let mut enc = Vec::new();
            header.encode(&mut enc);
            assert_eq!(hex::encode(keccak256(&enc)), v["expected"]["hash"].as_str().unwrap()[2..], "{}", v["name"]);
            // One header type serves both sides: the client decoder reads back what was written.
            let decoded = avax_data_core::decode::cchain::decode_header_only(&enc).unwrap();
            assert_eq!(decoded.header, header, "{}", v["name"]);
            // The header is also the first item of the published block bytes.
            let block = bytes(&v["hex"]);
            let at = block.windows(enc.len()).position(|w| w == enc.as_slice());
            assert!(matches!(at, Some(1..=4)), "{}: {at:?}", v["name"]);
            counts.insert(h["_fieldCount"].as_u64().unwrap());
            checked += 1;
        }
        assert!(checked >= 10, "{checked}");
        assert!(counts.contains(&16) && counts.contains(&19) && counts.contains(&24), "{counts:?}");
    }

    /// The items of an RLP list item (its payload split into items).
    fn rlp_items(item: &[u8]) -> Vec<&[u8]> {
        let mut rest = item;
        let h = RlpHeader::decode(&mut rest).unwrap();
        assert!(h.list);
        let mut payload = &rest[..h.payload_length];
        let mut out = Vec::new();
        while !payload.is_empty() {
            let start = payload;
            let h = RlpHeader::decode(&mut payload).unwrap();
            let whole = start.len() - payload.len() + h.payload_length;
            out.push(&start[..whole]);
            payload = &payload[h.payload_length..];
        }
        out
    }

    /// The payload of an RLP string item.
    fn rlp_str(item: &[u8]) -> &[u8] {
        let mut rest = item;
        let h = RlpHeader::decode(&mut rest).unwrap();
        assert!(!h.list);
        &rest[..h.payload_length]
    }

    fn rlp_uint(item: &[u8]) -> u128 {
        rlp_str(item).iter().fold(0u128, |a, &b| a << 8 | b as u128)
    }

    fn rlp_to(item: &[u8]) -> Option<[u8; 20]> {
        let b = rlp_str(item);
        (!b.is_empty()).then(|| b.try_into().unwrap())
    }

    fn word(item: &[u8]) -> [u8; 32] {
        let b = rlp_str(item);
        let mut w = [0u8; 32];
        w[32 - b.len()..].copy_from_slice(b);
        w
    }

    /// `(gas, to, value, data)`: the four fields both transaction types have in this order.
    fn call_fields(f: &[&[u8]]) -> (u64, Option<[u8; 20]>, u128, Vec<u8>) {
        (rlp_uint(f[0]) as u64, rlp_to(f[1]), rlp_uint(f[2]), rlp_str(f[3]).to_vec())
    }

    /// The signature values `v, r, s`, the last three fields of both transaction types.
    fn signature(f: &[&[u8]]) -> Signature {
        Signature { v: rlp_uint(f[0]) as u64, r: word(f[1]), s: word(f[2]) }
    }

    /// Rebuilds the fixture blocks' transactions field by field with [`Tx`] (a legacy and an
    /// EIP-1559 one at least): the encoder gives the published tx hashes and the same bytes.
    #[test]
    fn tx_encoder_reproduces_the_published_tx_hashes() {
        let doc = fixture_blocks();
        let (mut legacy, mut dynamic) = (0, 0);
        for v in doc["vectors"].as_array().unwrap() {
            if !v["name"].as_str().unwrap().starts_with("synchronoustest") {
                continue;
            }
            let Some(published) = v["decoded"]["transactions"].as_array() else {
                continue;
            };
            let block = bytes(&v["hex"]);
            let parts = rlp_items(&block);
            let txs = rlp_items(parts[1]);
            assert_eq!(txs.len(), published.len());
            for (item, p) in txs.iter().zip(published) {
                let tx = if item[0] >= 0xc0 {
                    let f = rlp_items(item);
                    legacy += 1;
                    let (gas, to, value, data) = call_fields(&f[2..6]);
                    let sig = signature(&f[6..]);
                    Tx::Legacy { nonce: rlp_uint(f[0]) as u64, gas_price: rlp_uint(f[1]), gas, to, value, data, sig }
                } else {
                    let typed = rlp_str(item);
                    if typed[0] != 2 {
                        continue;
                    }
                    let f = rlp_items(&typed[1..]);
                    if f[8] != [0xc0] {
                        continue; // an access list: not something the emulator writes
                    }
                    dynamic += 1;
                    let (chain_id, nonce) = (rlp_uint(f[0]) as u64, rlp_uint(f[1]) as u64);
                    let (max_priority_fee, max_fee) = (rlp_uint(f[2]), rlp_uint(f[3]));
                    let (gas, to, value, data) = call_fields(&f[4..8]);
                    let sig = signature(&f[9..]);
                    Tx::DynamicFee { chain_id, nonce, max_priority_fee, max_fee, gas, to, value, data, sig }
                };
                assert_eq!(hex::encode(tx.hash()), p["hash"].as_str().unwrap()[2..], "{}", v["name"]);
                let mut in_block = Vec::new();
                tx.encode_in_block(&mut in_block);
                assert_eq!(in_block, *item);
            }
        }
        assert!(legacy >= 5 && dynamic >= 1, "{legacy} {dynamic}");
    }

    /// Items of every header length (1, 2, 3 and 4 bytes, around each boundary), after a prefix
    /// already in the buffer: the bytes alloy-rlp writes for the same header and payload.
    #[test]
    fn wrapped_items_have_the_canonical_header_whatever_their_length() {
        for len in [0, 1, 55, 56, 57, 255, 256, 257, 4_000, 65_535, 65_536, 70_000] {
            for (base, list) in [(0xc0, true), (0x80, false)] {
                let payload: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
                let mut out = vec![7u8; 5];
                rlp_wrap(&mut out, base, |p| p.extend_from_slice(&payload));
                let mut expected = vec![7u8; 5];
                RlpHeader { list, payload_length: len }.encode(&mut expected);
                expected.extend_from_slice(&payload);
                assert!(out == expected, "payload of {len} bytes, list {list}");
            }
        }
    }

    #[test]
    fn empty_constants_are_the_keccaks_they_claim() {
        assert_eq!(keccak256(&[0x80]), EMPTY_ROOT);
        assert_eq!(keccak256(&[0xc0]), EMPTY_UNCLE_HASH);
    }
}
