//! What the emulated P- and X-chain txs pay: every tx's inputs exceed its outputs (staked and
//! exported ones included) by exactly its fee, so AVAX is burned only as fees.
//!
//! - X-Chain (avm, Mainnet's static fees): [`X_TX_FEE`] (0.001 AVAX) for a BaseTx, ImportTx,
//!   ExportTx and OperationTx, [`X_CREATE_ASSET_FEE`] (0.01 AVAX) for a CreateAssetTx.
//! - P-Chain before Etna ([`ETNA_S`]): Mainnet's static fees: 0.001 AVAX for most txs, 1 AVAX to
//!   create a subnet or a blockchain, nothing to add a primary-network validator or delegator.
//! - P-Chain from Etna on: a dynamic fee, the tx's gas at a gas price of 1 to
//!   [`P_MAX_GAS_PRICE`] nAVAX. The gas is a model of avalanchego's fee complexity (weights:
//!   1 per byte, 1,000 per state read or write, 4 per compute unit): each input reads and deletes
//!   a UTXO and verifies one signature, each output writes one, plus the tx's own bytes.

/// 2024-12-16T17:00:00Z: Etna on Mainnet, when the P-Chain moved to dynamic fees.
pub const ETNA_S: u64 = 1_734_368_400;
/// The X-Chain's (and the pre-Etna P-Chain's) base tx fee, nAVAX.
pub const X_TX_FEE: u64 = 1_000_000;
/// The X-Chain's CreateAssetTx fee, nAVAX.
pub const X_CREATE_ASSET_FEE: u64 = 10_000_000;
/// Highest gas price of the emulated post-Etna P-Chain, nAVAX per gas (the lowest is 1).
pub const P_MAX_GAS_PRICE: u64 = 10;

/// The avm fee of a tx of type `type_id` (1: CreateAssetTx).
pub fn x_fee(type_id: u32) -> u64 {
    if type_id == 1 {
        X_CREATE_ASSET_FEE
    } else {
        X_TX_FEE
    }
}

/// Mainnet's pre-Etna static fee of a platformvm tx of type `type_id`, nAVAX.
pub fn p_static_fee(type_id: u32) -> u64 {
    match type_id {
        // AddValidatorTx, AddDelegatorTx, AddPermissionlessValidatorTx/DelegatorTx (primary network).
        12 | 14 | 25 | 26 => 0,
        // CreateChainTx, CreateSubnetTx.
        15 | 16 => 1_000_000_000,
        _ => X_TX_FEE,
    }
}

/// The modelled gas of a platformvm tx with `n_in` inputs and `n_out` outputs (all of them:
/// change, staked, exported).
pub fn p_gas(n_in: u64, n_out: u64) -> u64 {
    const TX_BYTES: u64 = 100;
    const INPUT: u64 = 153 + 1_000 + 1_000 + 4 * 200;
    const OUTPUT: u64 = 80 + 1_000;
    TX_BYTES + n_in * INPUT + n_out * OUTPUT
}

/// The fee of a platformvm tx of type `type_id` accepted at Unix second `time` with `n_in`
/// inputs and `n_out` outputs, at `gas_price` nAVAX per gas once fees are dynamic.
pub fn p_fee(type_id: u32, time: u64, n_in: u64, n_out: u64, gas_price: u64) -> u64 {
    if time < ETNA_S {
        p_static_fee(type_id)
    } else {
        p_gas(n_in, n_out) * gas_price
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_before_etna_dynamic_after() {
        assert_eq!(p_fee(34, ETNA_S - 1, 1, 2, 7), 1_000_000);
        assert_eq!(p_fee(16, ETNA_S - 1, 1, 1, 7), 1_000_000_000);
        assert_eq!(p_fee(25, ETNA_S - 1, 1, 2, 7), 0, "staking on the primary network was free");
        assert_eq!(p_fee(25, ETNA_S, 1, 2, 7), 7 * p_gas(1, 2));
        assert_eq!(p_gas(1, 2), 100 + 2_953 + 2 * 1_080);
        assert!(p_fee(16, ETNA_S, 2, 2, P_MAX_GAS_PRICE) < 100_000, "dynamic fees are far below the static ones");
        assert_eq!((x_fee(0), x_fee(1), x_fee(4)), (1_000_000, 10_000_000, 1_000_000));
    }
}
