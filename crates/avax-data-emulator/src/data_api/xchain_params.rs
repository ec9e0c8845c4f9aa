//! What the X-Chain routes share ([`super::xchain_txs`], [`super::xchain_utxos`],
//! [`super::xchain_assets`], [`super::xchain_activity`]): the `addresses` parameter read as
//! bech32 addresses of the network asked (checksum checked, chain prefix optional), the
//! `txTypes` names of the document, `minUtxoAmount`, an empty list's answer.

use serde_json::{json, Value};

use super::params::Params;
use super::primary_chain::{chain_info, PrimaryChain};
use crate::world::Network;

/// The document's `PrimaryNetworkTxType` values (`UNKNOWN` aside): what `txTypes` may name.
pub(crate) const TX_TYPES: &[&str] = &[
    "AddValidatorTx",
    "AddSubnetValidatorTx",
    "AddDelegatorTx",
    "CreateChainTx",
    "CreateSubnetTx",
    "ImportTx",
    "ExportTx",
    "AdvanceTimeTx",
    "RewardValidatorTx",
    "RemoveSubnetValidatorTx",
    "TransformSubnetTx",
    "AddPermissionlessValidatorTx",
    "AddPermissionlessDelegatorTx",
    "BaseTx",
    "TransferSubnetOwnershipTx",
    "ConvertSubnetToL1Tx",
    "RegisterL1ValidatorTx",
    "SetL1ValidatorWeightTx",
    "DisableL1ValidatorTx",
    "IncreaseL1ValidatorBalanceTx",
    "CreateAssetTx",
    "OperationTx",
];

/// One address of `network` as its 20-byte short id: bech32 with the network's prefix (`avax`,
/// `fuji`), a chain prefix (`X-`, `P-`, `C-`) optional; `None` when it is not one.
pub(crate) fn short_id(network: Network, text: &str) -> Option<[u8; 20]> {
    let bare = ["X-", "P-", "C-"].iter().find_map(|p| text.strip_prefix(p)).unwrap_or(text);
    let (hrp, data) = bech32::decode(bare).ok()?;
    if hrp.as_str() != network.hrp() {
        return None;
    }
    data.try_into().ok()
}

/// The `addresses` parameter as short ids, in the order given, each once; a problem when one is
/// not an address of `network`, or when none is given and `required`.
pub(crate) fn addresses(params: &mut Params, network: Option<Network>, required: bool) -> Vec<[u8; 20]> {
    let Some(network) = network else { return Vec::new() };
    let texts = params.list("addresses");
    if texts.is_empty() && required {
        params.problem("addresses must be a comma separated list of X-Chain or P-Chain addresses".to_string());
    }
    let mut out: Vec<[u8; 20]> = Vec::new();
    for text in texts {
        match short_id(network, &text) {
            Some(id) if !out.contains(&id) => out.push(id),
            Some(_) => {}
            None => params.problem(format!(
                "addresses: {text:?} is no {} address (bech32 {}1..., X-, P- or C- prefix optional)",
                network.as_str(),
                network.hrp()
            )),
        }
    }
    out
}

/// The `txTypes` parameter: a problem naming a value that is not a `PrimaryNetworkTxType`.
pub(crate) fn tx_types(params: &mut Params) -> Vec<String> {
    let types = params.list("txTypes");
    if let Some(bad) = types.iter().find(|t| !TX_TYPES.contains(&t.as_str())) {
        params.problem(format!(
            "txTypes {bad:?} is no primary network transaction type; one of: {}",
            TX_TYPES.join(", ")
        ));
    }
    types
}

/// `minUtxoAmount` (nAVAX, inclusive; 0 when absent): a problem when not a number >= 0.
pub(crate) fn min_utxo_amount(params: &mut Params) -> u128 {
    let Some(text) = params.get("minUtxoAmount").map(str::to_string) else { return 0 };
    match text.trim().parse::<f64>().ok().filter(|v| *v >= 0.0) {
        Some(v) => v.ceil() as u128,
        None => {
            params.problem("minUtxoAmount must not be less than 0".to_string());
            0
        }
    }
}

/// An answer `{field: [], chainInfo}`: a list the world holds nothing of.
pub(crate) fn empty_list(field: &str, network: Network, chain: PrimaryChain) -> Value {
    json!({ field: [], "chainInfo": chain_info(network, chain) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::p_txs::p_address_of;

    #[test]
    fn addresses_are_checked_bech32_of_the_network() {
        let short = [7u8; 20];
        let text = p_address_of(Network::Mainnet, &short);
        for form in [text.clone(), format!("X-{text}"), format!("P-{text}"), format!("C-{text}")] {
            assert_eq!(short_id(Network::Mainnet, &form), Some(short), "{form}");
        }
        assert_eq!(short_id(Network::Fuji, &text), None, "another network's prefix");
        let mut typo = text.clone().into_bytes();
        let last = typo.len() - 1;
        typo[last] = if typo[last] == b'q' { b'p' } else { b'q' };
        assert_eq!(short_id(Network::Mainnet, std::str::from_utf8(&typo).unwrap()), None, "a bad checksum");
        let query = format!("addresses={text},{text},nope");
        let mut params = Params::parse(Some(query.as_str()));
        assert_eq!(addresses(&mut params, Some(Network::Mainnet), true), vec![short]);
        assert!(params.finish().is_err());
        let mut none = Params::parse(None);
        assert!(addresses(&mut none, Some(Network::Mainnet), true).is_empty());
        assert!(none.finish().is_err());
    }
}
