//! Parameter checks of the Data API, run before any request: each failure is an
//! [`Error::InvalidArgument`] naming the parameter, the value and what is allowed.

use crate::error::{Error, Result};

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

fn one_of(param: &str, value: &str, allowed: &[&str]) -> Result<String> {
    if allowed.contains(&value) {
        Ok(value.to_string())
    } else {
        Err(Error::invalid_text(param, value, format!("one of {}", allowed.join(", "))))
    }
}

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

/// Longest CB58 id accepted (32 bytes and a checksum take at most 50 characters).
pub const MAX_CB58_LEN: usize = 60;
/// Longest decimal id accepted (2^64 has 20 digits).
pub const MAX_DECIMAL_LEN: usize = 20;
/// Longest free-form id accepted (parameters without a grammar of their own).
pub const MAX_TOKEN_LEN: usize = 128;

const BASE58: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

fn decimal(v: &str) -> bool {
    (1..=MAX_DECIMAL_LEN).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_digit())
}

fn hex_of(v: &str, digits: usize) -> bool {
    v.len() == digits + 2
        && v.starts_with("0x") | v.starts_with("0X")
        && v.bytes().skip(2).all(|b| b.is_ascii_hexdigit())
}

fn cb58_text(v: &str) -> bool {
    (40..=MAX_CB58_LEN).contains(&v.len()) && v.bytes().all(|b| BASE58.contains(&b))
}

fn token(v: &str) -> bool {
    (1..=MAX_TOKEN_LEN).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A user value that becomes a URL path segment or an id filter, checked by the grammar its
/// parameter names (in time linear in its length, stopping at the first bad byte) and
/// percent-encoded: `chain_id` is an EVM chain id (decimal) or a CB58 blockchain id; `block_id` a
/// block number, a 0x block hash or a CB58 id; `address`, `contract_address`, `to`, `from_` a 0x
/// address of 20 bytes; blockchain ids a decimal chain id, a CB58 id or a 0x hash; any other
/// parameter letters, digits, `-` and `_`. Empty values, `.`, `..` and encoded forms such as
/// `%2e%2e` never pass any of these grammars.
pub fn segment(param: &str, value: &str) -> Result<String> {
    let v = value.trim();
    let (ok, allowed) = match param {
        "chain_id" => (decimal(v) || cb58_text(v), "an EVM chain id (decimal, e.g. \"43114\") or a CB58 blockchain id"),
        "block_id" => (
            decimal(v) || hex_of(v, 64) || cb58_text(v),
            "a block number (decimal), a 0x block hash (64 hex digits) or a CB58 id",
        ),
        "address" | "contract_address" | "to" | "from_" => (hex_of(v, 40), "a 0x address (40 hex digits)"),
        "source_blockchain_id"
        | "destination_blockchain_id"
        | "blockchain_id"
        | "src_blockchain_id"
        | "dest_blockchain_id" => (
            decimal(v) || cb58_text(v) || hex_of(v, 64),
            "a CB58 blockchain id, an EVM chain id (decimal) or a 0x blockchain id (64 hex digits)",
        ),
        _ => (token(v), "letters, digits, '-' and '_' (at most 128)"),
    };
    if !ok {
        return Err(Error::invalid_text(param, value, allowed));
    }
    Ok(url::form_urlencoded::byte_serialize(v.as_bytes()).collect())
}

/// A page token: a non-empty string (the check both REST services share).
pub use crate::rest::page_token;

/// Splits a comma-separated list into trimmed, non-empty items.
pub fn split_list(value: &str) -> Vec<String> {
    value.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
}

/// The bech32 prefix (HRP) of the P-/X-chain addresses of a Data API `network` (already checked
/// by [`network`]): `avax` on mainnet, `fuji` on fuji and testnet (Fuji is the testnet).
pub fn address_hrp(network: &str) -> &'static str {
    if network == "mainnet" {
        "avax"
    } else {
        "fuji"
    }
}

/// One P-/X-chain address of `network`: an optional `P-`/`X-`, then a BIP 173 bech32 string
/// whose prefix is the network's ([`address_hrp`]), whose checksum holds and whose data is a
/// 20-byte short id. A one-character typo fails the checksum here instead of a 400 later.
pub fn address(value: &str, network: &str) -> Result<String> {
    let hrp = address_hrp(network);
    let bad = |why: String| {
        Error::invalid_text(
            "addresses",
            value,
            format!(
                "{network} addresses like '{hrp}1...', 'P-{hrp}1...' or 'X-{hrp}1...' (bech32 of a 20-byte \
                 address with a valid checksum): {why}"
            ),
        )
    };
    if value.len() > 120 {
        return Err(bad(format!("{} characters is too long", value.len())));
    }
    let bare = value.strip_prefix("P-").or_else(|| value.strip_prefix("X-")).unwrap_or(value);
    if bare.chars().any(|c| c.is_ascii_uppercase()) {
        return Err(bad("upper-case letters (addresses are written in lower case)".to_string()));
    }
    let checked = bech32::primitives::decode::CheckedHrpstring::new::<bech32::Bech32>(bare)
        .map_err(|e| bad(format!("not valid bech32 ({e})")))?;
    if checked.hrp().as_str() != hrp {
        return Err(bad(format!("the prefix {:?} is not {network}'s", checked.hrp().as_str())));
    }
    let data = checked.data_part_ascii_no_checksum();
    if data.len() != 32 {
        return Err(bad(format!("{} data characters instead of the 32 of a 20-byte address", data.len())));
    }
    Ok(value.to_string())
}

/// One node id: `NodeID-` then CB58 text.
pub fn node_id(value: &str) -> Result<String> {
    let ok = value
        .strip_prefix("NodeID-")
        .is_some_and(|rest| rest.len() <= MAX_CB58_LEN && bs58::decode(rest).into_vec().is_ok());
    if !ok {
        return Err(Error::invalid_text("node_ids", value, "node ids like 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg'"));
    }
    Ok(value.to_string())
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
    fn addresses_need_the_network_prefix_and_a_valid_checksum() {
        // Published: a Mainnet P-chain address and the local network's funded "ewoq" address.
        let mainnet = "avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c";
        let ewoq = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
        let fuji = bech32_of("fuji", &[0x3c; 20]);
        for ok in [mainnet.to_string(), format!("P-{mainnet}"), format!("X-{mainnet}"), bech32_of("avax", &[0; 20])] {
            assert_eq!(address(&ok, "mainnet").unwrap(), ok);
        }
        for network in ["fuji", "testnet"] {
            assert_eq!(address(&format!("P-{fuji}"), network).unwrap(), format!("P-{fuji}"));
            let e = msg(address(mainnet, network).unwrap_err());
            assert!(e.contains("the prefix \"avax\" is not "), "{e}");
        }
        assert!(msg(address(&fuji, "mainnet").unwrap_err()).contains("the prefix \"fuji\" is not mainnet's"));
        assert!(msg(address(ewoq, "mainnet").unwrap_err()).contains("the prefix \"local\" is not mainnet's"));

        // Every one-character typo of a valid address fails its checksum.
        let data_at = mainnet.find('1').unwrap() + 1;
        for (i, original) in mainnet.char_indices().skip(data_at) {
            let other = if original == 'q' { 'p' } else { 'q' };
            let typo = format!("{}{other}{}", &mainnet[..i], &mainnet[i + 1..]);
            let e = msg(address(&typo, "mainnet").unwrap_err());
            assert!(e.starts_with(&format!("invalid addresses=\"{typo}\": mainnet addresses like 'avax1...'")), "{e}");
            assert!(e.contains("not valid bech32"), "{e}");
        }

        let bech32m = bech32::encode::<bech32::Bech32m>(bech32::Hrp::parse("avax").unwrap(), &[7; 20]).unwrap();
        let short = bech32::encode::<bech32::Bech32>(bech32::Hrp::parse("avax").unwrap(), &[7; 19]).unwrap();
        for bad in [
            "0x1234",
            "C-avax1x459sj0ssu",
            "avax1",
            "P-avax1BBBBBBBB",
            "avax1x459sj0ssujguq723cljfty4jlae28evjzt7xz", // bech32-shaped, wrong checksum
            &mainnet.to_uppercase(),
            &bech32m,
            &short,
        ] {
            let e = msg(address(bad, "mainnet").unwrap_err());
            assert!(e.starts_with(&format!("invalid addresses={bad:?}: mainnet addresses like")), "{bad}: {e}");
        }
        assert!(msg(address(&short, "mainnet").unwrap_err()).contains("31 data characters instead of the 32"));
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
