//! Arrow columns of decoded P-Chain txs ([`PTxColumns`], one row per tx) and blocks
//! ([`PBlockColumns`], one row per block, its txs as a `txs: List<Struct<tx columns>>`).
//!
//! Tx columns: first the ones every tx has (`tx_id`, `tx_type`, `network_id`, `blockchain_id`,
//! `memo_len`, `credential_count`, `consumed`, `produced`; see
//! [`TxCommonColumns`]), then one column per meaning, null for
//! tx types that do not carry it. Which tx types fill which column:
//!
//! | column | tx types |
//! |---|---|
//! | `node_id` (`NodeID-…`) | AddValidator, AddSubnetValidator, AddDelegator, RemoveSubnetValidator, AddPermissionlessValidator, AddPermissionlessDelegator, AddAutoRenewedValidator |
//! | `start_time`, `end_time`, `weight` | AddValidator, AddSubnetValidator, AddDelegator, AddPermissionlessValidator, AddPermissionlessDelegator |
//! | `subnet_id` | AddSubnetValidator, CreateChain, RemoveSubnetValidator, TransformSubnet, AddPermissionlessValidator, AddPermissionlessDelegator, TransferSubnetOwnership, ConvertSubnetToL1 |
//! | `chain_id` (the L1's validator-manager chain), `manager_address` (hex), `l1_validator_count` | ConvertSubnetToL1 |
//! | `blockchain_name`, `vm_id`, `fx_ids`, `genesis_len` | CreateChain |
//! | `source_chain` | Import |
//! | `destination_chain` | Export |
//! | `staked` (per-asset stake totals; stake is also in `produced`) | AddValidator, AddDelegator, AddPermissionlessValidator, AddPermissionlessDelegator, AddAutoRenewedValidator |
//! | `rewards_owner` (`0x` addresses) | AddValidator, AddDelegator, AddPermissionlessDelegator (rewards owner); AddPermissionlessValidator, AddAutoRenewedValidator (validator rewards owner) |
//! | `delegator_rewards_owner` | AddPermissionlessValidator, AddAutoRenewedValidator |
//! | `owner` | CreateSubnet (subnet owner), TransferSubnetOwnership (new owner) |
//! | `validator_authority` | AddAutoRenewedValidator |
//! | `shares` (millionths) | AddValidator, AddPermissionlessValidator, AddAutoRenewedValidator (delegation shares) |
//! | `auto_compound_reward_shares`, `period` (seconds) | AddAutoRenewedValidator, SetAutoRenewedValidatorConfig |
//! | `signer_public_key` (hex; null for signer.Empty) | AddPermissionlessValidator, AddAutoRenewedValidator |
//! | `validation_id` | IncreaseL1ValidatorBalance, DisableL1Validator |
//! | `balance` (nAVAX) | RegisterL1Validator, IncreaseL1ValidatorBalance, ConvertSubnetToL1 (sum of the initial validators' balances) |
//! | `warp_message_len` | RegisterL1Validator, SetL1ValidatorWeight |
//! | `time` | AdvanceTime (new chain time), RewardAutoRenewedValidator (timestamp) |
//! | `staker_tx_id` | RewardValidator, SetAutoRenewedValidatorConfig, RewardAutoRenewedValidator |
//! | `asset_id`, `initial_supply`, `maximum_supply`, `min_consumption_rate`, `max_consumption_rate`, `min_validator_stake`, `max_validator_stake`, `min_stake_duration`, `max_stake_duration`, `min_delegation_fee`, `min_delegator_stake`, `max_validator_weight_factor`, `uptime_requirement` | TransformSubnet |
//!
//! Block columns: `block_id`, `block_type`, `parent_id`, `height`, `block_time` (null for
//! Apricot blocks), `tx_count`, `tx_ids`, `tx_types`, `txs`.

use super::avax::{
    address_texts, columns, hex_text, id_text, len_u32, node_id_text, Amounts, BlockColumns, Dec, Text, TextList, Ts,
    TxColumns, U32, U64, U8,
};
use crate::decode::avax::{AmountTotals, Atomic, Validator};
use crate::decode::pchain::{PBlock, PTx, PTxBody};

columns! {
    /// The type-specific facts of a P-Chain tx (see the module doc for who fills what).
    facts PTxFacts;
    /// Builders of the type-specific P-Chain tx columns.
    columns PTxSpecificColumns;
    row PTx => PTxFacts::of;
    {
        /// Validator node.
        node_id: Text,
        /// Validation start.
        start_time: Ts,
        /// Validation end.
        end_time: Ts,
        /// Validator or delegator weight.
        weight: U64,
        /// Subnet.
        subnet_id: Text,
        /// L1 validator-manager chain.
        chain_id: Text,
        /// L1 validator-manager address (hex).
        manager_address: Text,
        /// Number of initial L1 validators.
        l1_validator_count: U32,
        /// New chain's name.
        blockchain_name: Text,
        /// New chain's VM.
        vm_id: Text,
        /// New chain's fxs.
        fx_ids: TextList,
        /// New chain's genesis length.
        genesis_len: U32,
        /// Import source chain.
        source_chain: Text,
        /// Export destination chain.
        destination_chain: Text,
        /// Per-asset staked amounts.
        staked: Amounts,
        /// (Validator) rewards owner addresses.
        rewards_owner: TextList,
        /// Delegator rewards owner addresses.
        delegator_rewards_owner: TextList,
        /// Subnet owner addresses.
        owner: TextList,
        /// Auto-renewed validator authority addresses.
        validator_authority: TextList,
        /// Delegation fee, millionths.
        shares: U32,
        /// Auto-compounded reward share, millionths.
        auto_compound_reward_shares: U32,
        /// Auto-renew period, seconds.
        period: U64,
        /// BLS public key (hex).
        signer_public_key: Text,
        /// L1 validation ID.
        validation_id: Text,
        /// L1 validator balance, nAVAX.
        balance: Dec,
        /// Warp message length.
        warp_message_len: U32,
        /// AdvanceTime's new time or RewardAutoRenewedValidator's timestamp.
        time: Ts,
        /// The staking tx referred to.
        staker_tx_id: Text,
        /// TransformSubnet staking asset.
        asset_id: Text,
        /// TransformSubnet initial supply.
        initial_supply: Dec,
        /// TransformSubnet maximum supply.
        maximum_supply: Dec,
        /// TransformSubnet minimum consumption rate.
        min_consumption_rate: U64,
        /// TransformSubnet maximum consumption rate.
        max_consumption_rate: U64,
        /// TransformSubnet minimum validator stake.
        min_validator_stake: Dec,
        /// TransformSubnet maximum validator stake.
        max_validator_stake: Dec,
        /// TransformSubnet minimum stake duration, seconds.
        min_stake_duration: U32,
        /// TransformSubnet maximum stake duration, seconds.
        max_stake_duration: U32,
        /// TransformSubnet minimum delegation fee, millionths.
        min_delegation_fee: U32,
        /// TransformSubnet minimum delegator stake.
        min_delegator_stake: Dec,
        /// TransformSubnet maximum validator weight factor.
        max_validator_weight_factor: U8,
        /// TransformSubnet uptime requirement, millionths.
        uptime_requirement: U32,
    }
}

impl PTxFacts {
    fn validator(&mut self, v: &Validator) {
        self.node_id = Some(node_id_text(&v.node_id));
        self.start_time = Some(v.start);
        self.end_time = Some(v.end);
        self.weight = Some(v.weight);
    }

    /// The type-specific facts of `tx`.
    pub fn of(tx: &PTx) -> Self {
        let mut f = PTxFacts::default();
        if let Some(stake) = tx.body.stake() {
            let mut totals = AmountTotals::default();
            totals.add_outputs(stake);
            f.staked = Some(totals.into_vec());
        }
        match &tx.body {
            PTxBody::AddValidator { validator, rewards_owner, shares, .. } => {
                f.validator(validator);
                f.rewards_owner = Some(address_texts(&rewards_owner.addresses));
                f.shares = Some(*shares);
            }
            PTxBody::AddSubnetValidator { validator, subnet_id, .. } => {
                f.validator(validator);
                f.subnet_id = Some(id_text(subnet_id));
            }
            PTxBody::AddDelegator { validator, rewards_owner, .. } => {
                f.validator(validator);
                f.rewards_owner = Some(address_texts(&rewards_owner.addresses));
            }
            PTxBody::CreateChain { subnet_id, chain_name, vm_id, fx_ids, genesis, .. } => {
                f.subnet_id = Some(id_text(subnet_id));
                f.blockchain_name = Some(chain_name.clone());
                f.vm_id = Some(id_text(vm_id));
                f.fx_ids = Some(fx_ids.iter().map(|id| id_text(id)).collect());
                f.genesis_len = Some(len_u32(genesis.len()));
            }
            PTxBody::CreateSubnet { owner } => f.owner = Some(address_texts(&owner.addresses)),
            PTxBody::Atomic(Atomic::Import { source_chain, .. }) => f.source_chain = Some(id_text(source_chain)),
            PTxBody::Atomic(Atomic::Export { destination_chain, .. }) => {
                f.destination_chain = Some(id_text(destination_chain))
            }
            PTxBody::AdvanceTime { time } => f.time = Some(*time),
            PTxBody::RewardValidator { staker_tx_id } => f.staker_tx_id = Some(id_text(staker_tx_id)),
            PTxBody::RemoveSubnetValidator { node_id, subnet_id, .. } => {
                f.node_id = Some(node_id_text(node_id));
                f.subnet_id = Some(id_text(subnet_id));
            }
            PTxBody::TransformSubnet(t) => {
                f.subnet_id = Some(id_text(&t.subnet_id));
                f.asset_id = Some(id_text(&t.asset_id));
                f.initial_supply = Some(t.initial_supply.into());
                f.maximum_supply = Some(t.maximum_supply.into());
                f.min_consumption_rate = Some(t.min_consumption_rate);
                f.max_consumption_rate = Some(t.max_consumption_rate);
                f.min_validator_stake = Some(t.min_validator_stake.into());
                f.max_validator_stake = Some(t.max_validator_stake.into());
                f.min_stake_duration = Some(t.min_stake_duration);
                f.max_stake_duration = Some(t.max_stake_duration);
                f.min_delegation_fee = Some(t.min_delegation_fee);
                f.min_delegator_stake = Some(t.min_delegator_stake.into());
                f.max_validator_weight_factor = Some(t.max_validator_weight_factor);
                f.uptime_requirement = Some(t.uptime_requirement);
            }
            PTxBody::AddPermissionlessValidator {
                validator,
                subnet_id,
                signer,
                validator_rewards_owner,
                delegator_rewards_owner,
                shares,
                ..
            } => {
                f.validator(validator);
                f.subnet_id = Some(id_text(subnet_id));
                f.signer_public_key = signer.public_key().map(|k| hex_text(k));
                f.rewards_owner = Some(address_texts(&validator_rewards_owner.addresses));
                f.delegator_rewards_owner = Some(address_texts(&delegator_rewards_owner.addresses));
                f.shares = Some(*shares);
            }
            PTxBody::AddPermissionlessDelegator { validator, subnet_id, rewards_owner, .. } => {
                f.validator(validator);
                f.subnet_id = Some(id_text(subnet_id));
                f.rewards_owner = Some(address_texts(&rewards_owner.addresses));
            }
            PTxBody::TransferSubnetOwnership { subnet_id, owner, .. } => {
                f.subnet_id = Some(id_text(subnet_id));
                f.owner = Some(address_texts(&owner.addresses));
            }
            PTxBody::Base => {}
            PTxBody::ConvertSubnetToL1 { subnet_id, chain_id, address, validators, .. } => {
                f.subnet_id = Some(id_text(subnet_id));
                f.chain_id = Some(id_text(chain_id));
                f.manager_address = Some(hex_text(address));
                f.l1_validator_count = Some(len_u32(validators.len()));
                f.balance = Some(validators.iter().map(|v| u128::from(v.balance)).sum());
            }
            PTxBody::RegisterL1Validator { balance, message, .. } => {
                f.balance = Some((*balance).into());
                f.warp_message_len = Some(len_u32(message.len()));
            }
            PTxBody::SetL1ValidatorWeight { message } => f.warp_message_len = Some(len_u32(message.len())),
            PTxBody::IncreaseL1ValidatorBalance { validation_id, balance } => {
                f.validation_id = Some(id_text(validation_id));
                f.balance = Some((*balance).into());
            }
            PTxBody::DisableL1Validator { validation_id, .. } => f.validation_id = Some(id_text(validation_id)),
            PTxBody::AddAutoRenewedValidator(v) => {
                f.node_id = Some(node_id_text(&v.node_id));
                f.signer_public_key = v.signer.public_key().map(|k| hex_text(k));
                f.rewards_owner = Some(address_texts(&v.validator_rewards_owner.addresses));
                f.delegator_rewards_owner = Some(address_texts(&v.delegator_rewards_owner.addresses));
                f.validator_authority = Some(address_texts(&v.validator_authority.addresses));
                f.shares = Some(v.delegation_shares);
                f.auto_compound_reward_shares = Some(v.auto_compound_reward_shares);
                f.period = Some(v.period);
            }
            PTxBody::SetAutoRenewedValidatorConfig { staker_tx_id, auto_compound_reward_shares, period, .. } => {
                f.staker_tx_id = Some(id_text(staker_tx_id));
                f.auto_compound_reward_shares = Some(*auto_compound_reward_shares);
                f.period = Some(*period);
            }
            PTxBody::RewardAutoRenewedValidator { staker_tx_id, timestamp } => {
                f.staker_tx_id = Some(id_text(staker_tx_id));
                f.time = Some(*timestamp);
            }
        }
        f
    }
}

/// One row per P-Chain tx: the common tx columns, then the type-specific ones.
pub type PTxColumns = TxColumns<PTxSpecificColumns>;

/// One row per P-Chain block; `txs` holds its txs as [`PTxColumns`] structs.
pub type PBlockColumns = BlockColumns<PBlock, PTxColumns>;

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::cast::AsArray;
    use arrow_array::types::{Decimal128Type, TimestampNanosecondType, UInt32Type, UInt64Type};
    use arrow_array::{Array, RecordBatch};
    use arrow_schema::{DataType, Schema};

    use super::*;
    use crate::arrow::decoded::RowColumns;
    use crate::decode::pchain;
    use crate::decode::test_bytes::decoded;

    fn batch<C: RowColumns>(rows: &[Option<&C::Row>]) -> RecordBatch {
        let mut cols = C::with_capacity(rows.len());
        for row in rows {
            cols.append(*row);
        }
        RecordBatch::try_new(Arc::new(Schema::new(C::fields())), cols.finish()).unwrap()
    }

    #[test]
    fn block_frame_has_heights_tx_types_and_nested_tx_amounts() {
        let blocks = decoded("pchain_blocks.json", pchain::decode_block);
        let mut rows: Vec<Option<&PBlock>> = blocks.iter().map(Some).collect();
        rows.push(None);
        let b = batch::<PBlockColumns>(&rows);
        assert_eq!(b.num_rows(), 6);
        let schema = b.schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(
            names,
            ["block_id", "block_type", "parent_id", "height", "block_time", "tx_count", "tx_ids", "tx_types", "txs"]
        );
        assert!(b.schema().fields().iter().all(|f| f.is_nullable()));
        let heights = b.column_by_name("height").unwrap().as_primitive::<UInt64Type>();
        assert_eq!(heights.value(3), 1000001);
        assert!(heights.is_null(5));
        let times = b.column_by_name("block_time").unwrap().as_primitive::<TimestampNanosecondType>();
        assert!(!times.is_null(0) && times.is_null(3));
        assert_eq!(b.column_by_name("block_type").unwrap().as_string_view().value(3), "ApricotStandardBlock");
        assert_eq!(
            b.column_by_name("block_id").unwrap().as_string_view().value(3),
            "d7WYmb8VeZNHsny3EJCwMm6QA37s1EHwMxw1Y71V3FqPZ5EFG"
        );
        let tx_types = b.column_by_name("tx_types").unwrap().as_list::<i32>();
        assert_eq!(tx_types.value(3).as_string_view().value(0), "ExportTx");
        assert_eq!(tx_types.value(0).as_string_view().value(0), "AdvanceTimeTx");
        assert_eq!(b.column_by_name("tx_count").unwrap().as_primitive::<UInt32Type>().value(2), 0);

        let txs = b.column_by_name("txs").unwrap().as_list::<i32>();
        assert!(txs.is_null(5));
        let export = txs.value(3);
        let export = export.as_struct();
        assert_eq!(export.column_by_name("tx_type").unwrap().as_string_view().value(0), "ExportTx");
        assert_eq!(
            export.column_by_name("destination_chain").unwrap().as_string_view().value(0),
            "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"
        );
        let consumed = export.column_by_name("consumed").unwrap().as_list::<i32>().value(0);
        assert_eq!(
            consumed.as_struct().column(0).as_string_view().value(0),
            "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"
        );
        assert_eq!(consumed.as_struct().column(1).as_primitive::<Decimal128Type>().value(0), 13839124063);
        assert_eq!(*consumed.as_struct().column(1).data_type(), DataType::Decimal128(38, 0));
    }

    #[test]
    fn tx_frame_fills_type_specific_columns() {
        let txs = decoded("pchain_txs.json", |raw| pchain::decode_tx(raw).or_else(|_| pchain::decode_unsigned_tx(raw)));
        let rows: Vec<Option<&PTx>> = txs.iter().map(Some).collect();
        let b = batch::<PTxColumns>(&rows);
        let tx_type = b.column_by_name("tx_type").unwrap().as_string_view();
        let row = |name: &str| (0..b.num_rows()).find(|&i| tx_type.value(i) == name).unwrap();

        let add_validator = row("AddValidatorTx");
        let node = b.column_by_name("node_id").unwrap().as_string_view();
        assert!(node.value(add_validator).starts_with("NodeID-"));
        assert!(b.column_by_name("subnet_id").unwrap().is_null(add_validator));
        let staked = b.column_by_name("staked").unwrap().as_list::<i32>();
        assert_eq!(staked.value(add_validator).len(), 1);
        assert!(staked.is_null(row("BaseTx")));
        let weight = b.column_by_name("weight").unwrap().as_primitive::<UInt64Type>();
        let staked_amount = staked.value(add_validator).as_struct().column(1).as_primitive::<Decimal128Type>().value(0);
        assert_eq!(i128::from(weight.value(add_validator)), staked_amount);

        let convert = row("ConvertSubnetToL1Tx");
        assert_eq!(b.column_by_name("l1_validator_count").unwrap().as_primitive::<UInt32Type>().value(convert), 1);
        assert_eq!(b.column_by_name("balance").unwrap().as_primitive::<Decimal128Type>().value(convert), 1_000_000_000);
        let credential_count = b.column_by_name("credential_count").unwrap().as_primitive::<UInt32Type>();
        assert_eq!(credential_count.value(convert), 2);
        assert!(credential_count.is_null(row("AddAutoRenewedValidatorTx")));
        let period = b.column_by_name("period").unwrap().as_primitive::<UInt64Type>();
        assert_eq!(period.value(row("AddAutoRenewedValidatorTx")), 17280000);
        let tx_id = b.column_by_name("tx_id").unwrap().as_string_view();
        assert_eq!(tx_id.value(convert), "NEDXHk9nctWRwUV6bGv2ayHJQkkwbohqigUV2b682yEy9Goo7");
        let network = b.column_by_name("network_id").unwrap().as_primitive::<UInt32Type>();
        assert_eq!(network.value(convert), 12345);
    }
}
