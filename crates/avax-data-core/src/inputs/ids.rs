//! The ids and addresses parameters name, each checked by one rule before any request, so a
//! typo is an error naming the value instead of a 400 (or, worse, an answer about something
//! else): P-/X-Chain addresses (bech32 with the network's prefix and a valid checksum), EVM
//! addresses and hashes (`0x` and hex digits), CB58 ids (32 bytes and a valid checksum; the
//! P-Chain's id of 32 zero bytes, `11111111111111111111111111111111LpoYY`, is one), node ids
//! (`NodeID-` and the CB58 of 20 bytes), block ids and the blockchain ids of ICM filters.
//! [`IdKind`] names which rule a parameter follows; the operation table gives each parameter
//! its kind (`rest::openapi`), the hand-written methods call the same rules.

use crate::error::{Error, Result};
use crate::index::cb58;

/// Longest CB58 text accepted (32 bytes and a checksum take at most 50 characters).
pub const MAX_CB58_LEN: usize = 60;
/// Longest decimal id accepted (2^64 has 20 digits).
pub const MAX_DECIMAL_LEN: usize = 20;
/// Longest address text read (a bech32 address of 20 bytes and its prefix take about 50).
const MAX_ADDRESS_LEN: usize = 120;

/// What rule an id parameter follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdKind {
    /// A P-/X-Chain address of the network: optional `P-`/`X-`, then bech32 of a 20-byte
    /// address whose prefix is the network's (`avax`, `fuji`) and whose checksum holds; with
    /// `evm_too`, a 0x address is taken as well (the document says so).
    PxAddress {
        /// Whether a 0x address is also taken.
        evm_too: bool,
    },
    /// A 0x address: `0x` and 40 hex digits.
    EvmAddress,
    /// A CB58 id of 32 bytes with a valid checksum, named `noun` in messages.
    Cb58 {
        /// What the id is (`blockchain id`, `transaction hash`, ...).
        noun: &'static str,
    },
    /// `NodeID-` and the CB58 of 20 bytes with a valid checksum.
    NodeId,
    /// `0x` and 64 hex digits, named `noun` in messages.
    EvmHash {
        /// What the hash is (`transaction hash`).
        noun: &'static str,
    },
    /// A block number (decimal), or a block's hash: CB58 (`primary`: the P-/X-Chain's) or 0x.
    BlockId {
        /// Whether the block is a primary network chain's (a CB58 id) or an EVM chain's (0x).
        primary: bool,
    },
    /// A chain of an ICM filter: a CB58 blockchain id, an EVM chain id (decimal) or a 0x
    /// blockchain id (64 hex digits).
    IcmChain,
}

/// Whether `v` is the decimal digits of an id (at most [`MAX_DECIMAL_LEN`]).
pub fn is_decimal(v: &str) -> bool {
    (1..=MAX_DECIMAL_LEN).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `v` is `0x` (or `0X`) and exactly `digits` hex digits.
pub fn is_hex(v: &str, digits: usize) -> bool {
    v.len() == digits + 2
        && (v.starts_with("0x") || v.starts_with("0X"))
        && v.bytes().skip(2).all(|b| b.is_ascii_hexdigit())
}

/// Whether `v` is a CB58 id: 32 bytes with a valid checksum.
pub fn is_cb58_id(v: &str) -> bool {
    v.len() <= MAX_CB58_LEN && cb58::decode_id(v).is_ok()
}

fn is_node_id(v: &str) -> bool {
    v.strip_prefix("NodeID-")
        .is_some_and(|rest| rest.len() <= MAX_CB58_LEN && cb58::decode(rest).is_ok_and(|raw| raw.len() == 20))
}

/// The bech32 prefix (HRP) of the P-/X-Chain addresses of a `network` (`avax` on mainnet,
/// `fuji` on fuji and testnet); `None` (no network given) takes either.
pub fn address_hrps(network: Option<&str>) -> &'static [&'static str] {
    match network {
        Some("mainnet") => &["avax"],
        Some(_) => &["fuji"],
        None => &["avax", "fuji"],
    }
}

impl IdKind {
    /// A short name of the rule (`px_address`, `px_or_evm_address`, `evm_address`, `cb58`,
    /// `node_id`, `evm_hash`, `block_id`, `icm_chain`), for tables and tests.
    pub fn name(&self) -> &'static str {
        match self {
            IdKind::PxAddress { evm_too: false } => "px_address",
            IdKind::PxAddress { evm_too: true } => "px_or_evm_address",
            IdKind::EvmAddress => "evm_address",
            IdKind::Cb58 { .. } => "cb58",
            IdKind::NodeId => "node_id",
            IdKind::EvmHash { .. } => "evm_hash",
            IdKind::BlockId { .. } => "block_id",
            IdKind::IcmChain => "icm_chain",
        }
    }

    /// What the kind allows, for messages (`network` names the addresses' prefix).
    pub fn allowed(&self, network: Option<&str>) -> String {
        match self {
            IdKind::PxAddress { evm_too } => {
                let hrp = address_hrps(network)[0];
                let who = network.unwrap_or("Avalanche");
                let evm = if *evm_too { ", or a 0x address (40 hex digits)" } else { "" };
                format!(
                    "{who} addresses like '{hrp}1...', 'P-{hrp}1...' or 'X-{hrp}1...' (bech32 of a 20-byte address \
                     with a valid checksum){evm}"
                )
            }
            IdKind::EvmAddress => "a 0x address (40 hex digits)".into(),
            IdKind::Cb58 { noun } => format!("a CB58 {noun} (32 bytes and a valid checksum)"),
            IdKind::NodeId => "a node id: 'NodeID-' and the CB58 of 20 bytes with a valid checksum, like \
                 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg'"
                .into(),
            IdKind::EvmHash { noun } => format!("a 0x {noun} (64 hex digits)"),
            IdKind::BlockId { primary: true } => {
                "a block number (decimal) or a CB58 block id (32 bytes and a valid checksum)".into()
            }
            IdKind::BlockId { primary: false } => "a block number (decimal) or a 0x block hash (64 hex digits)".into(),
            IdKind::IcmChain => "a CB58 blockchain id (32 bytes and a valid checksum), an EVM chain id (decimal) or a \
                                 0x blockchain id (64 hex digits)"
                .into(),
        }
    }

    /// `value` (trimmed) when it follows the kind's rule, else an error naming `param`, the
    /// value as given and what is allowed (for an address, also what is wrong with it).
    ///
    /// ```
    /// use avax_data_core::inputs::IdKind;
    /// let blockchain = IdKind::Cb58 { noun: "blockchain id" };
    /// let p_chain = "11111111111111111111111111111111LpoYY";
    /// assert_eq!(blockchain.check("blockchain_id", p_chain, None).unwrap(), p_chain);
    /// let e = blockchain.check("blockchain_id", "11111111111111111111111111111111LpoYZ", None).unwrap_err();
    /// assert_eq!(e.to_string(), "invalid blockchain_id=\"11111111111111111111111111111111LpoYZ\": \
    ///     a CB58 blockchain id (32 bytes and a valid checksum)");
    /// ```
    pub fn check(&self, param: &str, value: &str, network: Option<&str>) -> Result<String> {
        let v = value.trim();
        let ok = match self {
            IdKind::PxAddress { evm_too } => {
                return px_address(v, network, *evm_too)
                    .map_err(|why| Error::invalid_text(param, value, format!("{}: {why}", self.allowed(network))));
            }
            IdKind::EvmAddress => is_hex(v, 40),
            IdKind::Cb58 { .. } => is_cb58_id(v),
            IdKind::NodeId => is_node_id(v),
            IdKind::EvmHash { .. } => is_hex(v, 64),
            IdKind::BlockId { primary: true } => is_decimal(v) || is_cb58_id(v),
            IdKind::BlockId { primary: false } => is_decimal(v) || is_hex(v, 64),
            IdKind::IcmChain => is_decimal(v) || is_cb58_id(v) || is_hex(v, 64),
        };
        if ok {
            Ok(v.to_string())
        } else {
            Err(Error::invalid_text(param, value, self.allowed(network)))
        }
    }
}

/// A P-/X-Chain address, or why it is not one.
fn px_address(value: &str, network: Option<&str>, evm_too: bool) -> std::result::Result<String, String> {
    if value.len() > MAX_ADDRESS_LEN {
        return Err(format!("{} characters is too long", value.len()));
    }
    if evm_too && (value.starts_with("0x") || value.starts_with("0X")) {
        return if is_hex(value, 40) { Ok(value.to_string()) } else { Err("not 40 hex digits after 0x".into()) };
    }
    let bare = value.strip_prefix("P-").or_else(|| value.strip_prefix("X-")).unwrap_or(value);
    if bare.chars().any(|c| c.is_ascii_uppercase()) {
        return Err("upper-case letters (addresses are written in lower case)".into());
    }
    let checked = bech32::primitives::decode::CheckedHrpstring::new::<bech32::Bech32>(bare)
        .map_err(|e| format!("not valid bech32 ({e})"))?;
    let hrp = checked.hrp();
    if !address_hrps(network).contains(&hrp.as_str()) {
        let whose = network.map_or_else(|| "an Avalanche network's".to_string(), |n| format!("{n}'s"));
        return Err(format!("the prefix {:?} is not {whose}", hrp.as_str()));
    }
    let data = checked.data_part_ascii_no_checksum();
    if data.len() != 32 {
        return Err(format!("{} data characters instead of the 32 of a 20-byte address", data.len()));
    }
    Ok(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bech32_of(hrp: &str, bytes: &[u8; 20]) -> String {
        bech32::encode::<bech32::Bech32>(bech32::Hrp::parse(hrp).unwrap(), bytes).unwrap()
    }

    const BLOCKCHAIN: IdKind = IdKind::Cb58 { noun: "blockchain id" };

    #[test]
    fn cb58_ids_need_32_bytes_and_their_checksum() {
        let zero = "11111111111111111111111111111111LpoYY";
        assert_eq!(cb58::decode_id(zero).unwrap(), [0; 32]);
        let x_chain = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM";
        for ok in [zero, x_chain, " 2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM "] {
            assert_eq!(BLOCKCHAIN.check("blockchain_id", ok, None).unwrap(), ok.trim());
        }
        let twenty = cb58::encode(&[7; 20]);
        for bad in ["", "p-chain", "11111111111111111111111111111111LpoYZ", &twenty, "0OIl", &"1".repeat(100)] {
            let e = BLOCKCHAIN.check("blockchain_id", bad, None).unwrap_err().to_string();
            assert_eq!(
                e,
                format!("invalid blockchain_id={bad:?}: a CB58 blockchain id (32 bytes and a valid checksum)")
            );
        }
    }

    #[test]
    fn node_ids_are_the_cb58_of_20_bytes() {
        for ok in ["NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", "NodeID-111111111111111111116DBWJs"] {
            assert_eq!(IdKind::NodeId.check("node_id", ok, None).unwrap(), ok);
        }
        let id32 = format!("NodeID-{}", cb58::encode(&[1; 32]));
        for bad in
            ["7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", "NodeID-0OIl", "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lh", &id32]
        {
            let e = IdKind::NodeId.check("node_id", bad, None).unwrap_err().to_string();
            assert!(e.starts_with(&format!("invalid node_id={bad:?}: a node id: 'NodeID-'")), "{e}");
        }
    }

    #[test]
    fn evm_addresses_hashes_and_block_ids() {
        let address = "0x000000000000000000000000000000000000dEaD";
        assert_eq!(IdKind::EvmAddress.check("address", address, None).unwrap(), address);
        for bad in ["0xabc", "000000000000000000000000000000000000dEaD00", "0x000000000000000000000000000000000000dEaG"]
        {
            let e = IdKind::EvmAddress.check("address", bad, None).unwrap_err().to_string();
            assert_eq!(e, format!("invalid address={bad:?}: a 0x address (40 hex digits)"));
        }
        let hash = format!("0x{}", "ab".repeat(32));
        let tx = IdKind::EvmHash { noun: "transaction hash" };
        assert_eq!(tx.check("tx_hash", &hash, None).unwrap(), hash);
        assert!(tx.check("tx_hash", &hash[..65], None).is_err());
        let (evm, primary) = (IdKind::BlockId { primary: false }, IdKind::BlockId { primary: true });
        assert!(evm.check("block_id", "123", None).is_ok() && evm.check("block_id", &hash, None).is_ok());
        assert!(evm.check("block_id", "11111111111111111111111111111111LpoYY", None).is_err());
        assert!(primary.check("block_id", "11111111111111111111111111111111LpoYY", None).is_ok());
        assert!(primary.check("block_id", &hash, None).is_err() && primary.check("block_id", "1.5", None).is_err());
        let icm = IdKind::IcmChain;
        for ok in ["43114", &hash, "11111111111111111111111111111111LpoYY"] {
            assert!(icm.check("source_blockchain_id", ok, None).is_ok(), "{ok}");
        }
        assert!(icm.check("source_blockchain_id", "11111111111111111111111111111111LpoYZ", None).is_err());
    }

    #[test]
    fn addresses_need_the_network_prefix_and_a_valid_checksum() {
        let kind = IdKind::PxAddress { evm_too: false };
        let check = |v: &str, n: &str| kind.check("addresses", v, Some(n)).map_err(|e| e.to_string());
        // Published: a Mainnet P-chain address and the local network's funded "ewoq" address.
        let mainnet = "avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c";
        let ewoq = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
        let fuji = bech32_of("fuji", &[0x3c; 20]);
        for ok in [mainnet.to_string(), format!("P-{mainnet}"), format!("X-{mainnet}"), bech32_of("avax", &[0; 20])] {
            assert_eq!(check(&ok, "mainnet").unwrap(), ok);
        }
        for network in ["fuji", "testnet"] {
            assert_eq!(check(&format!("P-{fuji}"), network).unwrap(), format!("P-{fuji}"));
            assert!(check(mainnet, network).unwrap_err().contains("the prefix \"avax\" is not "));
        }
        assert!(check(&fuji, "mainnet").unwrap_err().contains("the prefix \"fuji\" is not mainnet's"));
        assert!(check(ewoq, "mainnet").unwrap_err().contains("the prefix \"local\" is not mainnet's"));
        // No network: either prefix.
        assert!(kind.check("addresses", &fuji, None).is_ok() && kind.check("addresses", mainnet, None).is_ok());

        // Every one-character typo of a valid address fails its checksum.
        let data_at = mainnet.find('1').unwrap() + 1;
        for (i, original) in mainnet.char_indices().skip(data_at) {
            let other = if original == 'q' { 'p' } else { 'q' };
            let typo = format!("{}{other}{}", &mainnet[..i], &mainnet[i + 1..]);
            let e = check(&typo, "mainnet").unwrap_err();
            assert!(e.starts_with(&format!("invalid addresses=\"{typo}\": mainnet addresses like 'avax1...'")), "{e}");
            assert!(e.contains("not valid bech32"), "{e}");
        }
        let bech32m = bech32::encode::<bech32::Bech32m>(bech32::Hrp::parse("avax").unwrap(), &[7; 20]).unwrap();
        let short = bech32::encode::<bech32::Bech32>(bech32::Hrp::parse("avax").unwrap(), &[7; 19]).unwrap();
        for bad in [
            "hello",
            "0x1234",
            "0x000000000000000000000000000000000000dEaD",
            "C-avax1x459sj0ssu",
            "avax1",
            "P-avax1BBBBBBBB",
            "avax1x459sj0ssujguq723cljfty4jlae28evjzt7xz",
            &mainnet.to_uppercase(),
            &bech32m,
            &short,
        ] {
            let e = check(bad, "mainnet").unwrap_err();
            assert!(e.starts_with(&format!("invalid addresses={bad:?}: mainnet addresses like")), "{bad}: {e}");
        }
        assert!(check(&short, "mainnet").unwrap_err().contains("31 data characters instead of the 32"));
        // Where the document takes 0x addresses too.
        let both = IdKind::PxAddress { evm_too: true };
        assert!(both.check("addresses", "0x000000000000000000000000000000000000dEaD", Some("mainnet")).is_ok());
        let e = both.check("addresses", "0x1234", Some("mainnet")).unwrap_err().to_string();
        assert!(e.ends_with("or a 0x address (40 hex digits): not 40 hex digits after 0x"), "{e}");
    }

    #[test]
    fn a_megabyte_of_input_is_refused_in_linear_time() {
        let big = "1".repeat(1 << 20);
        let started = std::time::Instant::now();
        for kind in [
            BLOCKCHAIN,
            IdKind::NodeId,
            IdKind::EvmAddress,
            IdKind::IcmChain,
            IdKind::BlockId { primary: true },
            IdKind::PxAddress { evm_too: true },
        ] {
            assert!(kind.check("p", &big, Some("mainnet")).is_err());
            assert!(kind.check("p", &format!("NodeID-{big}"), None).is_err());
        }
        assert!(started.elapsed() < std::time::Duration::from_millis(500), "{:?}", started.elapsed());
    }
}
