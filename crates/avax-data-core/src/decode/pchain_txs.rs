//! The unsigned P-Chain txs (FORMATS.md §5, "Tx field order"): every tx type ID 12–20, 23–26
//! and 33–42, read into [`PTxBody`].

use super::avax::{
    read_ids, read_list, read_subnet_auth, AmountTotals, Atomic, BaseTx, Fxs, Id, OutputOwners, ShortId, Signer,
    TransferableOutput, Validator,
};
use super::codec::Reader;
use super::tx::{read_type_id, UnsignedTx};
use super::DecodeError;

/// The fields a P-Chain tx type adds (after its `BaseTx`, for the types that have one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PTxBody {
    /// 12, AddValidatorTx (primary network, pre-Durango).
    AddValidator {
        /// Node and period.
        validator: Validator,
        /// The staked outputs.
        stake: Vec<TransferableOutput>,
        /// Who receives the rewards.
        rewards_owner: OutputOwners,
        /// Delegation fee, in millionths.
        shares: u32,
    },
    /// 13, AddSubnetValidatorTx.
    AddSubnetValidator {
        /// Node and period.
        validator: Validator,
        /// The subnet.
        subnet_id: Id,
        /// Signature indices of the subnet owners.
        subnet_auth: Vec<u32>,
    },
    /// 14, AddDelegatorTx.
    AddDelegator {
        /// Node and period.
        validator: Validator,
        /// The staked outputs.
        stake: Vec<TransferableOutput>,
        /// Who receives the rewards.
        rewards_owner: OutputOwners,
    },
    /// 15, CreateChainTx.
    CreateChain {
        /// The subnet that validates the chain.
        subnet_id: Id,
        /// The chain's name.
        chain_name: String,
        /// The VM.
        vm_id: Id,
        /// The feature extensions.
        fx_ids: Vec<Id>,
        /// The chain's genesis bytes.
        genesis: Vec<u8>,
        /// Signature indices of the subnet owners.
        subnet_auth: Vec<u32>,
    },
    /// 16, CreateSubnetTx.
    CreateSubnet {
        /// The subnet's owner.
        owner: OutputOwners,
    },
    /// 17, ImportTx, and 18, ExportTx.
    Atomic(Atomic),
    /// 19, AdvanceTimeTx (no BaseTx).
    AdvanceTime {
        /// The new chain time, unix seconds.
        time: u64,
    },
    /// 20, RewardValidatorTx (no BaseTx).
    RewardValidator {
        /// The staking tx whose period ended.
        staker_tx_id: Id,
    },
    /// 23, RemoveSubnetValidatorTx.
    RemoveSubnetValidator {
        /// The node.
        node_id: ShortId,
        /// The subnet.
        subnet_id: Id,
        /// Signature indices of the subnet owners.
        subnet_auth: Vec<u32>,
    },
    /// 24, TransformSubnetTx.
    TransformSubnet(Box<TransformSubnet>),
    /// 25, AddPermissionlessValidatorTx.
    AddPermissionlessValidator {
        /// Node and period.
        validator: Validator,
        /// The subnet (the primary network is all zeros).
        subnet_id: Id,
        /// The BLS signer.
        signer: Signer,
        /// The staked outputs.
        stake: Vec<TransferableOutput>,
        /// Who receives the validation rewards.
        validator_rewards_owner: OutputOwners,
        /// Who receives the delegation fees.
        delegator_rewards_owner: OutputOwners,
        /// Delegation fee, in millionths.
        shares: u32,
    },
    /// 26, AddPermissionlessDelegatorTx.
    AddPermissionlessDelegator {
        /// Node and period.
        validator: Validator,
        /// The subnet.
        subnet_id: Id,
        /// The staked outputs.
        stake: Vec<TransferableOutput>,
        /// Who receives the rewards.
        rewards_owner: OutputOwners,
    },
    /// 33, TransferSubnetOwnershipTx.
    TransferSubnetOwnership {
        /// The subnet.
        subnet_id: Id,
        /// Signature indices of the current owners.
        subnet_auth: Vec<u32>,
        /// The new owner.
        owner: OutputOwners,
    },
    /// 34, BaseTx (only the BaseTx fields).
    Base,
    /// 35, ConvertSubnetToL1Tx.
    ConvertSubnetToL1 {
        /// The subnet.
        subnet_id: Id,
        /// The chain that manages the L1's validators.
        chain_id: Id,
        /// The validator manager's address on that chain.
        address: Vec<u8>,
        /// The initial L1 validators.
        validators: Vec<L1Validator>,
        /// Signature indices of the subnet owners.
        subnet_auth: Vec<u32>,
    },
    /// 36, RegisterL1ValidatorTx.
    RegisterL1Validator {
        /// Initial balance (nAVAX) for the validator's fees.
        balance: u64,
        /// BLS proof of possession.
        proof_of_possession: [u8; 96],
        /// The signed warp message.
        message: Vec<u8>,
    },
    /// 37, SetL1ValidatorWeightTx.
    SetL1ValidatorWeight {
        /// The signed warp message.
        message: Vec<u8>,
    },
    /// 38, IncreaseL1ValidatorBalanceTx.
    IncreaseL1ValidatorBalance {
        /// The L1 validator.
        validation_id: Id,
        /// nAVAX added to its balance.
        balance: u64,
    },
    /// 39, DisableL1ValidatorTx.
    DisableL1Validator {
        /// The L1 validator.
        validation_id: Id,
        /// Signature indices of its deactivation owner.
        disable_auth: Vec<u32>,
    },
    /// 40, AddAutoRenewedValidatorTx.
    AddAutoRenewedValidator(Box<AutoRenewedValidator>),
    /// 41, SetAutoRenewedValidatorConfigTx.
    SetAutoRenewedValidatorConfig {
        /// The AddAutoRenewedValidatorTx that created the validator.
        staker_tx_id: Id,
        /// Signature indices of the validator authority.
        auth: Vec<u32>,
        /// Share of rewards restaked each period, in millionths.
        auto_compound_reward_shares: u32,
        /// Period length, seconds.
        period: u64,
    },
    /// 42, RewardAutoRenewedValidatorTx (no BaseTx).
    RewardAutoRenewedValidator {
        /// The AddAutoRenewedValidatorTx that created the validator.
        staker_tx_id: Id,
        /// Unix seconds.
        timestamp: u64,
    },
}

/// The parameters of a TransformSubnetTx (24).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransformSubnet {
    /// The subnet.
    pub subnet_id: Id,
    /// Its staking asset.
    pub asset_id: Id,
    /// Initial supply of the asset.
    pub initial_supply: u64,
    /// Maximum supply.
    pub maximum_supply: u64,
    /// Minimum consumption rate (reward curve).
    pub min_consumption_rate: u64,
    /// Maximum consumption rate.
    pub max_consumption_rate: u64,
    /// Minimum validator stake.
    pub min_validator_stake: u64,
    /// Maximum validator stake.
    pub max_validator_stake: u64,
    /// Minimum staking duration, seconds.
    pub min_stake_duration: u32,
    /// Maximum staking duration, seconds.
    pub max_stake_duration: u32,
    /// Minimum delegation fee, millionths.
    pub min_delegation_fee: u32,
    /// Minimum delegator stake.
    pub min_delegator_stake: u64,
    /// Maximum validator weight factor.
    pub max_validator_weight_factor: u8,
    /// Uptime requirement, millionths.
    pub uptime_requirement: u32,
    /// Signature indices of the subnet owners.
    pub subnet_auth: Vec<u32>,
}

/// The parameters of an AddAutoRenewedValidatorTx (40).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoRenewedValidator {
    /// The node (raw bytes; 20 for a NodeID).
    pub node_id: Vec<u8>,
    /// The BLS signer.
    pub signer: Signer,
    /// The staked outputs.
    pub stake: Vec<TransferableOutput>,
    /// Who receives the validation rewards.
    pub validator_rewards_owner: OutputOwners,
    /// Who receives the delegation fees.
    pub delegator_rewards_owner: OutputOwners,
    /// Who may change the validator's configuration.
    pub validator_authority: OutputOwners,
    /// Delegation fee, in millionths.
    pub delegation_shares: u32,
    /// Share of rewards restaked each period, in millionths.
    pub auto_compound_reward_shares: u32,
    /// Period length, seconds.
    pub period: u64,
}

/// One initial validator of a ConvertSubnetToL1Tx.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L1Validator {
    /// The node (raw bytes; 20 for a NodeID).
    pub node_id: Vec<u8>,
    /// Weight.
    pub weight: u64,
    /// Initial balance, nAVAX.
    pub balance: u64,
    /// BLS public key.
    pub public_key: [u8; 48],
    /// BLS proof of possession.
    pub proof_of_possession: [u8; 96],
    /// Who receives the remaining balance when the validator leaves.
    pub remaining_balance_owner: L1Owner,
    /// Who may deactivate the validator.
    pub deactivation_owner: L1Owner,
}

/// A `PChainOwner`: threshold and addresses (no locktime, no type ID).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L1Owner {
    /// How many of `addresses` must sign.
    pub threshold: u32,
    /// The addresses.
    pub addresses: Vec<ShortId>,
}

impl L1Owner {
    fn read(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let threshold = r.u32("owner threshold")?;
        Ok(L1Owner { threshold, addresses: super::avax::read_addresses(r)? })
    }
}

/// Smallest encoded [`L1Validator`]: node ID length, weight, balance, key, proof, two owners.
const MIN_L1_VALIDATOR_SIZE: usize = 4 + 8 + 8 + 48 + 96 + 8 + 8;

/// The name of every P-Chain tx type ID, or `None` for an ID that is not a tx.
pub fn tx_type_name(type_id: u32) -> Option<&'static str> {
    Some(match type_id {
        12 => "AddValidatorTx",
        13 => "AddSubnetValidatorTx",
        14 => "AddDelegatorTx",
        15 => "CreateChainTx",
        16 => "CreateSubnetTx",
        17 => "ImportTx",
        18 => "ExportTx",
        19 => "AdvanceTimeTx",
        20 => "RewardValidatorTx",
        23 => "RemoveSubnetValidatorTx",
        24 => "TransformSubnetTx",
        25 => "AddPermissionlessValidatorTx",
        26 => "AddPermissionlessDelegatorTx",
        33 => "TransferSubnetOwnershipTx",
        34 => "BaseTx",
        35 => "ConvertSubnetToL1Tx",
        36 => "RegisterL1ValidatorTx",
        37 => "SetL1ValidatorWeightTx",
        38 => "IncreaseL1ValidatorBalanceTx",
        39 => "DisableL1ValidatorTx",
        40 => "AddAutoRenewedValidatorTx",
        41 => "SetAutoRenewedValidatorConfigTx",
        42 => "RewardAutoRenewedValidatorTx",
        _ => return None,
    })
}

/// An unsigned P-Chain tx as read: its type, its BaseTx (absent for 19, 20 and 42), its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsignedPTx {
    /// The tx type ID.
    pub type_id: u32,
    /// The common fields.
    pub base: Option<BaseTx>,
    /// The type-specific fields.
    pub body: PTxBody,
}

impl UnsignedTx for UnsignedPTx {
    type Base = Option<BaseTx>;
    type Body = PTxBody;
    const FXS: Fxs = Fxs::Platform;
    /// Reads `u32 typeID` and the tx fields.
    fn read(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let type_id = read_type_id(r, "P-Chain", tx_type_name)?;
        let base = match type_id {
            19 | 20 | 42 => None,
            _ => Some(BaseTx::read(r, Fxs::Platform)?),
        };
        let body = read_body(r, type_id)?;
        Ok(UnsignedPTx { type_id, base, body })
    }
    fn type_name(type_id: u32) -> Option<&'static str> {
        tx_type_name(type_id)
    }
    fn totals(&self, _tx_id: &Id) -> (AmountTotals, AmountTotals) {
        UnsignedPTx::totals(self)
    }
    fn into_parts(self) -> (u32, Option<BaseTx>, PTxBody) {
        (self.type_id, self.base, self.body)
    }
}

impl UnsignedPTx {
    /// Per-asset totals: `consumed` = BaseTx inputs + imported inputs; `produced` = BaseTx
    /// outputs + exported outputs + staked outputs (stake is locked, not burned). L1 validator
    /// balances are fees paid from the inputs, not outputs, so they are in neither.
    pub fn totals(&self) -> (AmountTotals, AmountTotals) {
        let mut consumed = AmountTotals::default();
        let mut produced = AmountTotals::default();
        if let Some(base) = &self.base {
            base.add_totals(&mut consumed, &mut produced);
        }
        if let PTxBody::Atomic(atomic) = &self.body {
            atomic.add_totals(&mut consumed, &mut produced);
        }
        if let Some(stake) = self.body.stake() {
            produced.add_outputs(stake);
        }
        (consumed, produced)
    }
}

impl PTxBody {
    /// The staked outputs of the staking tx types (12, 14, 25, 26, 40).
    pub fn stake(&self) -> Option<&[TransferableOutput]> {
        match self {
            PTxBody::AddValidator { stake, .. }
            | PTxBody::AddDelegator { stake, .. }
            | PTxBody::AddPermissionlessValidator { stake, .. }
            | PTxBody::AddPermissionlessDelegator { stake, .. } => Some(stake),
            PTxBody::AddAutoRenewedValidator(v) => Some(&v.stake),
            _ => None,
        }
    }
}

fn stake(r: &mut Reader<'_>) -> Result<Vec<TransferableOutput>, DecodeError> {
    TransferableOutput::read_list(r, Fxs::Platform, "stake output count")
}

fn read_body(r: &mut Reader<'_>, type_id: u32) -> Result<PTxBody, DecodeError> {
    Ok(match type_id {
        12 => PTxBody::AddValidator {
            validator: Validator::read(r)?,
            stake: stake(r)?,
            rewards_owner: OutputOwners::read_typed(r)?,
            shares: r.u32("shares")?,
        },
        13 => PTxBody::AddSubnetValidator {
            validator: Validator::read(r)?,
            subnet_id: r.array("subnet ID")?,
            subnet_auth: read_subnet_auth(r)?,
        },
        14 => PTxBody::AddDelegator {
            validator: Validator::read(r)?,
            stake: stake(r)?,
            rewards_owner: OutputOwners::read_typed(r)?,
        },
        15 => {
            let subnet_id = r.array("subnet ID")?;
            let chain_name = r.string_u16("chain name")?.to_owned();
            PTxBody::CreateChain {
                subnet_id,
                chain_name,
                vm_id: r.array("VM ID")?,
                fx_ids: read_ids(r, "fx ID")?,
                genesis: r.bytes_u32("genesis")?.to_vec(),
                subnet_auth: read_subnet_auth(r)?,
            }
        }
        16 => PTxBody::CreateSubnet { owner: OutputOwners::read_typed(r)? },
        17 | 18 => PTxBody::Atomic(Atomic::read(r, Fxs::Platform, type_id == 18)?),
        19 => PTxBody::AdvanceTime { time: r.u64("time")? },
        20 => PTxBody::RewardValidator { staker_tx_id: r.array("staker tx ID")? },
        23 => PTxBody::RemoveSubnetValidator {
            node_id: r.array("node ID")?,
            subnet_id: r.array("subnet ID")?,
            subnet_auth: read_subnet_auth(r)?,
        },
        24 => PTxBody::TransformSubnet(Box::new(TransformSubnet {
            subnet_id: r.array("subnet ID")?,
            asset_id: r.array("asset ID")?,
            initial_supply: r.u64("initial supply")?,
            maximum_supply: r.u64("maximum supply")?,
            min_consumption_rate: r.u64("min consumption rate")?,
            max_consumption_rate: r.u64("max consumption rate")?,
            min_validator_stake: r.u64("min validator stake")?,
            max_validator_stake: r.u64("max validator stake")?,
            min_stake_duration: r.u32("min stake duration")?,
            max_stake_duration: r.u32("max stake duration")?,
            min_delegation_fee: r.u32("min delegation fee")?,
            min_delegator_stake: r.u64("min delegator stake")?,
            max_validator_weight_factor: r.u8("max validator weight factor")?,
            uptime_requirement: r.u32("uptime requirement")?,
            subnet_auth: read_subnet_auth(r)?,
        })),
        25 => PTxBody::AddPermissionlessValidator {
            validator: Validator::read(r)?,
            subnet_id: r.array("subnet ID")?,
            signer: Signer::read(r)?,
            stake: stake(r)?,
            validator_rewards_owner: OutputOwners::read_typed(r)?,
            delegator_rewards_owner: OutputOwners::read_typed(r)?,
            shares: r.u32("shares")?,
        },
        26 => PTxBody::AddPermissionlessDelegator {
            validator: Validator::read(r)?,
            subnet_id: r.array("subnet ID")?,
            stake: stake(r)?,
            rewards_owner: OutputOwners::read_typed(r)?,
        },
        33 => PTxBody::TransferSubnetOwnership {
            subnet_id: r.array("subnet ID")?,
            subnet_auth: read_subnet_auth(r)?,
            owner: OutputOwners::read_typed(r)?,
        },
        34 => PTxBody::Base,
        35 => {
            let subnet_id = r.array("subnet ID")?;
            let chain_id = r.array("chain ID")?;
            let address = r.bytes_u32("manager address")?.to_vec();
            let validators = read_list(r, "L1 validator count", MIN_L1_VALIDATOR_SIZE, |r| {
                Ok(L1Validator {
                    node_id: r.bytes_u32("node ID")?.to_vec(),
                    weight: r.u64("weight")?,
                    balance: r.u64("balance")?,
                    public_key: r.array("BLS public key")?,
                    proof_of_possession: r.array("BLS proof of possession")?,
                    remaining_balance_owner: L1Owner::read(r)?,
                    deactivation_owner: L1Owner::read(r)?,
                })
            })?;
            PTxBody::ConvertSubnetToL1 { subnet_id, chain_id, address, validators, subnet_auth: read_subnet_auth(r)? }
        }
        36 => PTxBody::RegisterL1Validator {
            balance: r.u64("balance")?,
            proof_of_possession: r.array("BLS proof of possession")?,
            message: r.bytes_u32("warp message")?.to_vec(),
        },
        37 => PTxBody::SetL1ValidatorWeight { message: r.bytes_u32("warp message")?.to_vec() },
        38 => {
            PTxBody::IncreaseL1ValidatorBalance { validation_id: r.array("validation ID")?, balance: r.u64("balance")? }
        }
        39 => {
            PTxBody::DisableL1Validator { validation_id: r.array("validation ID")?, disable_auth: read_subnet_auth(r)? }
        }
        40 => PTxBody::AddAutoRenewedValidator(Box::new(AutoRenewedValidator {
            node_id: r.bytes_u32("node ID")?.to_vec(),
            signer: Signer::read(r)?,
            stake: stake(r)?,
            validator_rewards_owner: OutputOwners::read_typed(r)?,
            delegator_rewards_owner: OutputOwners::read_typed(r)?,
            validator_authority: OutputOwners::read_typed(r)?,
            delegation_shares: r.u32("delegation shares")?,
            auto_compound_reward_shares: r.u32("auto-compound reward shares")?,
            period: r.u64("period")?,
        })),
        41 => PTxBody::SetAutoRenewedValidatorConfig {
            staker_tx_id: r.array("staker tx ID")?,
            auth: read_subnet_auth(r)?,
            auto_compound_reward_shares: r.u32("auto-compound reward shares")?,
            period: r.u64("period")?,
        },
        42 => PTxBody::RewardAutoRenewedValidator {
            staker_tx_id: r.array("staker tx ID")?,
            timestamp: r.u64("timestamp")?,
        },
        other => return Err(r.error(format!("unknown P-Chain tx type ID {other}"))),
    })
}
