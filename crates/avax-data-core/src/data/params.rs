//! Parameter checks of the Data API, run before any request: each failure is an
//! [`Error::InvalidArgument`] naming the parameter, the value and what is allowed.

use crate::error::{Error, Result};
use crate::inputs::{is_cb58_id, is_decimal, one_of, IdKind};

/// Mainnet X-chain blockchain id.
pub const X_CHAIN_MAINNET: &str = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM";
/// Fuji X-chain blockchain id.
pub const X_CHAIN_FUJI: &str = "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm";
/// Networks accepted by `network` (the rule is [`crate::inputs::network`]).
pub use crate::inputs::{network, NETWORKS};
/// Features accepted by `feature`.
pub const FEATURES: &[&str] = &["nftIndexing", "webhooks", "teleporter"];
/// Orders accepted by `sortOrder`.
pub const SORT_ORDERS: &[&str] = &["asc", "desc"];
/// Largest `pageSize` of most lists.
pub const MAX_PAGE_SIZE: u32 = 100;
/// Largest `pageSize` of the collectibles list.
pub const MAX_COLLECTIBLES_PAGE_SIZE: u32 = 500;

/// `feature`: nftIndexing, webhooks or teleporter.
pub fn feature(value: &str) -> Result<String> {
    one_of("feature", value, FEATURES)
}

/// `sortOrder`: asc or desc.
pub fn sort_order(value: &str) -> Result<String> {
    one_of("sort_order", value, SORT_ORDERS)
}

/// `pageSize` within `[1, max]`.
pub fn page_size(value: i64, max: u32) -> Result<u32> {
    if value < 1 || value > max as i64 {
        return Err(Error::invalid("page_size", value, format!("an int in [1, {max}]")));
    }
    Ok(value as u32)
}

/// A `pageSize` in `1..=max`; `None` takes `max` (bulk walks need the fewest requests).
pub fn page_size_or_max(value: Option<i64>, max: u32) -> Result<u32> {
    page_size(value.unwrap_or(i64::from(max)), max)
}

/// The vertices `blockchainId`: one of the two X-chain ids or `x-chain`.
pub fn x_chain_id(value: &str) -> Result<String> {
    one_of("blockchain_id", value, &[X_CHAIN_MAINNET, X_CHAIN_FUJI, "x-chain"])
}

/// Longest CB58 id accepted (the rule is [`crate::inputs::ids`]).
pub use crate::inputs::{MAX_CB58_LEN, MAX_DECIMAL_LEN};
/// Longest free-form id accepted (parameters without a grammar of their own).
pub const MAX_TOKEN_LEN: usize = 128;

fn token(v: &str) -> bool {
    (1..=MAX_TOKEN_LEN).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A user value that becomes a URL path segment or an id filter, checked by the grammar its
/// parameter names (in time linear in its length, stopping at the first bad byte) and
/// percent-encoded: `chain_id` is an EVM chain id (decimal) or a CB58 blockchain id (with its
/// checksum); `block_id` an EVM block's number or 0x hash; `address`, `contract_address`, `to`,
/// `from_` a 0x address of 20 bytes; the blockchain ids of ICM filters a decimal chain id, a CB58
/// id or a 0x hash (the rules of [`crate::inputs::ids`], so every method refuses a value with the
/// same message); any other parameter letters, digits, `-` and `_`. Empty values, `.`, `..` and
/// encoded forms such as `%2e%2e` never pass any of these grammars.
pub fn segment(param: &str, value: &str) -> Result<String> {
    let v = value.trim();
    let kind = match param {
        "chain_id" => {
            if !(is_decimal(v) || is_cb58_id(v)) {
                return Err(Error::invalid_text(param, value, CHAIN_SEGMENT_ALLOWED));
            }
            None
        }
        "block_id" => Some(IdKind::BlockId { primary: false }),
        "address" | "contract_address" | "to" | "from_" => Some(IdKind::EvmAddress),
        "source_blockchain_id"
        | "destination_blockchain_id"
        | "blockchain_id"
        | "src_blockchain_id"
        | "dest_blockchain_id" => Some(IdKind::IcmChain),
        _ => {
            if !token(v) {
                return Err(Error::invalid_text(param, value, "letters, digits, '-' and '_' (at most 128)"));
            }
            None
        }
    };
    let v = match kind {
        Some(kind) => kind.check(param, value, None)?,
        None => v.to_string(),
    };
    Ok(url::form_urlencoded::byte_serialize(v.as_bytes()).collect())
}

/// What a chain id in a path may be.
pub const CHAIN_SEGMENT_ALLOWED: &str = "an EVM chain id (decimal, e.g. \"43114\") or a CB58 blockchain id";

/// A page token: a non-empty string (the check both REST services share).
pub use crate::rest::page_token;

/// Splits a comma-separated list into trimmed, non-empty items.
pub fn split_list(value: &str) -> Vec<String> {
    value.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
}

/// The bech32 prefix (HRP) of the P-/X-chain addresses of a Data API `network` (already checked
/// by [`network`]): `avax` on mainnet, `fuji` on fuji and testnet (Fuji is the testnet).
pub fn address_hrp(network: &str) -> &'static str {
    crate::inputs::address_hrps(Some(network))[0]
}

/// One P-/X-chain address of `network` (the `addresses` rule of every method:
/// [`IdKind::PxAddress`]): an optional `P-`/`X-`, then a BIP 173 bech32 string whose prefix is
/// the network's ([`address_hrp`]), whose checksum holds and whose data is a 20-byte short id.
pub fn address(value: &str, network: &str) -> Result<String> {
    IdKind::PxAddress { evm_too: false }.check("addresses", value, Some(network))
}

/// One node id: `NodeID-` then the CB58 of 20 bytes ([`IdKind::NodeId`]).
pub fn node_id(value: &str) -> Result<String> {
    IdKind::NodeId.check("node_ids", value, None)
}

/// The rewards filters of `network`: at least one of `addresses` / `nodeIds`, each item checked;
/// returns the comma-joined values to send.
pub fn reward_filters(
    network: &str,
    addresses: &[String],
    node_ids: &[String],
) -> Result<(Option<String>, Option<String>)> {
    if addresses.is_empty() && node_ids.is_empty() {
        return Err(Error::invalid("addresses/node_ids", "none", "at least one of addresses or node_ids"));
    }
    let addresses = addresses.iter().map(|a| address(a.trim(), network)).collect::<Result<Vec<_>>>()?;
    let node_ids = node_ids.iter().map(|n| node_id(n.trim())).collect::<Result<Vec<_>>>()?;
    let join = |v: Vec<String>| (!v.is_empty()).then(|| v.join(","));
    Ok((join(addresses), join(node_ids)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(e: Error) -> String {
        e.to_string()
    }

    #[test]
    fn enums_name_the_parameter_and_the_allowed_values() {
        assert_eq!(network("fuji").unwrap(), "fuji");
        assert_eq!(msg(network("devnet").unwrap_err()), "invalid network=\"devnet\": one of mainnet, fuji, testnet");
        assert!(msg(feature("nft").unwrap_err()).contains("nftIndexing, webhooks, teleporter"));
        assert!(sort_order("asc").is_ok() && sort_order("ASC").is_err());
        assert!(x_chain_id("x-chain").is_ok() && x_chain_id(X_CHAIN_FUJI).is_ok());
        assert!(msg(x_chain_id("p-chain").unwrap_err()).contains("x-chain"));
    }

    #[test]
    fn page_size_bounds() {
        assert_eq!(page_size(1, 100).unwrap(), 1);
        assert_eq!(page_size(500, 500).unwrap(), 500);
        assert_eq!(msg(page_size(101, 100).unwrap_err()), "invalid page_size=101: an int in [1, 100]");
        assert!(page_size(0, 500).is_err() && page_size(-3, 100).is_err());
    }

    fn bech32_of(hrp: &str, bytes: &[u8; 20]) -> String {
        bech32::encode::<bech32::Bech32>(bech32::Hrp::parse(hrp).unwrap(), bytes).unwrap()
    }

    #[test]
    fn node_ids_and_reward_filters() {
        assert!(node_id("NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg").is_ok());
        assert!(node_id("7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg").is_err());
        assert!(node_id("NodeID-0OIl").is_err());
        let none = reward_filters("mainnet", &[], &[]).unwrap_err().to_string();
        assert!(none.contains("at least one of addresses or node_ids"));
        let (a, b) = (bech32_of("avax", &[1; 20]), bech32_of("avax", &[2; 20]));
        let (joined, n) = reward_filters("mainnet", &[a.clone(), format!(" X-{b} ")], &[]).unwrap();
        assert_eq!((joined, n), (Some(format!("{a},X-{b}")), None));
        assert!(reward_filters("fuji", &[a], &[]).is_err());
        assert_eq!(split_list(" a, b,,c "), vec!["a", "b", "c"]);
    }

    #[test]
    fn segments_follow_their_grammar_and_refuse_path_tricks() {
        assert_eq!(segment("chain_id", " 43114 ").unwrap(), "43114");
        assert_eq!(segment("chain_id", X_CHAIN_FUJI).unwrap(), X_CHAIN_FUJI);
        let hash = format!("0x{}", "ab".repeat(32));
        assert_eq!(segment("block_id", &hash).unwrap(), hash);
        assert!(segment("address", "0x000000000000000000000000000000000000dEaD").is_ok());
        for (param, bad) in [
            ("chain_id", ""),
            ("chain_id", "."),
            ("chain_id", ".."),
            ("chain_id", "%2e%2e"),
            ("chain_id", "../x"),
            ("block_id", "1/2"),
            ("address", "0xabc"),
            ("address", "a?b"),
            ("chain_id", "123456789012345678901"),
            ("page", "a b"),
        ] {
            let err = segment(param, bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("invalid {param}=")), "{bad}: {err}");
        }
    }

    #[test]
    fn a_megabyte_of_input_is_refused_in_linear_time() {
        let big = "1".repeat(1 << 20);
        let started = std::time::Instant::now();
        for param in ["chain_id", "block_id", "address", "blockchain_id", "other"] {
            assert!(segment(param, &big).is_err());
        }
        assert!(node_id(&format!("NodeID-{big}")).is_err());
        assert!(address(&format!("avax1{}", "q".repeat(1 << 20)), "mainnet").is_err());
        assert!(started.elapsed() < std::time::Duration::from_millis(500), "{:?}", started.elapsed());
    }
}
