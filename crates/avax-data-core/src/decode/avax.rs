//! The structures the P-Chain and the X-Chain share (FORMATS.md §5.1, §5.2, §6): the common
//! `BaseTx` fields, transferable outputs and inputs, output owners, validators, subnet
//! authorizations, BLS signers, credentials, the signed-tx framing and its tx ID, and per-asset
//! amount totals.
//!
//! The two chains register different fx types under the same linear codec, so every reader of
//! an interface value takes the [`Fxs`] whose type IDs it accepts. A type ID outside that set is
//! a [`DecodeError`] naming the ID.
//!
//! Amount totals ([`AmountTotals`]): an input counts its amount, an output its amount; a
//! `stakeable.LockIn`/`LockOut` counts the amount of the input/output it wraps (the lock only
//! delays spending). Outputs without an amount (mint, NFT and property outputs) count nothing.
//! Sums are `u128`, so no count of `u64` amounts that fits in a container can overflow them.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use super::codec::{Reader, MAX_DEPTH};
use super::DecodeError;

/// A 32-byte ID (tx, asset, chain, subnet, block).
pub type Id = [u8; 32];
/// A 20-byte short ID (address, node ID).
pub type ShortId = [u8; 20];

/// Smallest encoded `OutputOwners`: locktime, threshold, address count.
pub const MIN_OWNERS_SIZE: usize = 8 + 4 + 4;
/// Smallest encoded `TransferableOutput`: asset ID, type ID, the smallest output body.
pub const MIN_TRANSFERABLE_OUTPUT_SIZE: usize = 32 + 4 + MIN_OWNERS_SIZE;
/// Smallest encoded `TransferableInput`: UTXO ID, asset ID, type ID, a `TransferInput`.
pub const MIN_TRANSFERABLE_INPUT_SIZE: usize = 32 + 4 + 32 + 4 + 8 + 4;
/// Smallest encoded credential: type ID and signature count.
pub const MIN_CREDENTIAL_SIZE: usize = 4 + 4;

/// Type ID of a secp256k1fx `OutputOwners` where an `fx.Owner` interface value stands.
pub const OUTPUT_OWNERS_TYPE_ID: u32 = 11;
/// Type ID of the secp256k1fx `Input` that authorizes a subnet (or L1 validator) action.
pub const SUBNET_AUTH_TYPE_ID: u32 = 10;
/// Type ID of a secp256k1fx `Credential`, the only credential type the P-Chain registers.
pub const SECP_CREDENTIAL_TYPE_ID: u32 = 9;

/// Which chain's fx registrations apply to typed outputs, inputs and credentials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fxs {
    /// platformvm: secp256k1fx plus `stakeable.LockIn` (21) and `stakeable.LockOut` (22).
    Platform,
    /// avm on the primary network: secp256k1fx, nftfx and propertyfx.
    Avm,
}

/// secp256k1fx / nftfx / propertyfx `OutputOwners`: who may spend an output, and from when.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OutputOwners {
    /// Unix seconds before which the output cannot be spent.
    pub locktime: u64,
    /// How many of `addresses` must sign.
    pub threshold: u32,
    /// The 20-byte addresses.
    pub addresses: Vec<ShortId>,
}

impl OutputOwners {
    /// Reads `locktime u64, threshold u32, []addr20`.
    pub fn read(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let locktime = r.u64("owners locktime")?;
        let threshold = r.u32("owners threshold")?;
        let addresses = read_addresses(r)?;
        Ok(OutputOwners { locktime, threshold, addresses })
    }

    /// Reads an `fx.Owner` interface value: `u32 11` then the owners.
    pub fn read_typed(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        expect_type(r, OUTPUT_OWNERS_TYPE_ID, "owner (secp256k1fx.OutputOwners)")?;
        Self::read(r)
    }
}

/// Reads a `u32` count, named `what` in errors, then that many items. Each item takes at least
/// `min_size` bytes, so a count the remaining bytes cannot hold fails before any allocation.
pub fn read_list<T>(
    r: &mut Reader<'_>,
    what: &str,
    min_size: usize,
    mut item: impl FnMut(&mut Reader<'_>) -> Result<T, DecodeError>,
) -> Result<Vec<T>, DecodeError> {
    let n = r.count(what, min_size)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(item(r)?);
    }
    Ok(out)
}

/// Reads a `u32`-counted list of 20-byte addresses.
pub fn read_addresses(r: &mut Reader<'_>) -> Result<Vec<ShortId>, DecodeError> {
    read_list(r, "address count", 20, |r| r.array("address"))
}

/// Reads a `u32`-counted list of `u32` signature indices (a secp256k1fx `Input`).
pub fn read_sig_indices(r: &mut Reader<'_>) -> Result<Vec<u32>, DecodeError> {
    read_list(r, "signature index count", 4, |r| r.u32("signature index"))
}

/// Reads a `u32`-counted list of 32-byte IDs.
pub fn read_ids(r: &mut Reader<'_>, what: &str) -> Result<Vec<Id>, DecodeError> {
    read_list(r, what, 32, |r| r.array(what))
}

/// Reads a `u32` type ID and fails unless it is `want`.
pub fn expect_type(r: &mut Reader<'_>, want: u32, what: &str) -> Result<(), DecodeError> {
    let at = r.pos();
    let got = r.u32("type ID")?;
    if got == want {
        Ok(())
    } else {
        Err(DecodeError::new(at, format!("{what}: expected type ID {want}, found type ID {got}")))
    }
}

/// How one interface (outputs or inputs) reads its typed values: `noun` names it in errors,
/// `lock` is its P-Chain `stakeable` lock (type ID, name) whose body is `locktime u64` then a
/// wrapped value (`locked` builds it), and `body` reads any other type ID (`None` for one the
/// chain's fxs do not register).
struct Typed<T> {
    noun: &'static str,
    type_id: &'static str,
    lock: (u32, &'static str),
    locked: fn(u64, Box<T>) -> T,
    body: fn(&mut Reader<'_>, Fxs, u32) -> Result<Option<T>, DecodeError>,
}

/// Reads `u32 typeID` then a value of `how`, nested `depth` stakeable locks deep.
fn read_typed<T>(how: &Typed<T>, r: &mut Reader<'_>, fxs: Fxs, depth: usize) -> Result<T, DecodeError> {
    let at = r.pos();
    let type_id = r.u32(how.type_id)?;
    if fxs == Fxs::Platform && type_id == how.lock.0 {
        if depth >= MAX_DEPTH {
            return Err(DecodeError::new(at, format!("{} nested too deeply", how.lock.1)));
        }
        let locktime = r.u64("stakeable locktime")?;
        return Ok((how.locked)(locktime, Box::new(read_typed(how, r, fxs, depth + 1)?)));
    }
    (how.body)(r, fxs, type_id)?.ok_or_else(|| DecodeError::new(at, format!("unknown {} type ID {type_id}", how.noun)))
}

/// A typed output body (the value after an output type ID).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// 7, secp256k1fx.TransferOutput: an amount of the asset.
    Transfer {
        /// Amount in the asset's smallest unit.
        amount: u64,
        /// Who may spend it.
        owners: OutputOwners,
    },
    /// 22 (P-Chain), stakeable.LockOut: an output that cannot be spent before `locktime` except
    /// for staking.
    StakeableLock {
        /// Unix seconds until which only staking may use it.
        locktime: u64,
        /// The wrapped output.
        output: Box<Output>,
    },
    /// 6 (X-Chain), secp256k1fx.MintOutput: the right to mint more of a variable-cap asset.
    SecpMint {
        /// Who may mint.
        owners: OutputOwners,
    },
    /// 10 (X-Chain), nftfx.MintOutput: the right to mint NFTs of one group.
    NftMint {
        /// The NFT group.
        group_id: u32,
        /// Who may mint.
        owners: OutputOwners,
    },
    /// 11 (X-Chain), nftfx.TransferOutput: one NFT.
    NftTransfer {
        /// The NFT group.
        group_id: u32,
        /// The NFT payload.
        payload: Vec<u8>,
        /// Who owns it.
        owners: OutputOwners,
    },
    /// 15 (X-Chain), propertyfx.MintOutput.
    PropertyMint {
        /// Who may mint.
        owners: OutputOwners,
    },
    /// 16 (X-Chain), propertyfx.OwnedOutput.
    PropertyOwned {
        /// Who owns it.
        owners: OutputOwners,
    },
}

/// Outputs: secp256k1fx everywhere, `stakeable.LockOut` on the P-Chain, nftfx and propertyfx on
/// the X-Chain.
const OUTPUTS: Typed<Output> = Typed {
    noun: "output",
    type_id: "output type ID",
    lock: (22, "stakeable.LockOut"),
    locked: |locktime, output| Output::StakeableLock { locktime, output },
    body: Output::read_body,
};

impl Output {
    /// Reads `u32 typeID` then the output body, accepting the type IDs of `fxs`.
    pub fn read(r: &mut Reader<'_>, fxs: Fxs) -> Result<Self, DecodeError> {
        read_typed(&OUTPUTS, r, fxs, 0)
    }

    fn read_body(r: &mut Reader<'_>, fxs: Fxs, type_id: u32) -> Result<Option<Self>, DecodeError> {
        Ok(Some(match (fxs, type_id) {
            (_, 7) => Output::Transfer { amount: r.u64("output amount")?, owners: OutputOwners::read(r)? },
            (Fxs::Avm, 6) => Output::SecpMint { owners: OutputOwners::read(r)? },
            (Fxs::Avm, 10) => Output::NftMint { group_id: r.u32("NFT group ID")?, owners: OutputOwners::read(r)? },
            (Fxs::Avm, 11) => {
                let group_id = r.u32("NFT group ID")?;
                let payload = r.bytes_u32("NFT payload")?.to_vec();
                Output::NftTransfer { group_id, payload, owners: OutputOwners::read(r)? }
            }
            (Fxs::Avm, 15) => Output::PropertyMint { owners: OutputOwners::read(r)? },
            (Fxs::Avm, 16) => Output::PropertyOwned { owners: OutputOwners::read(r)? },
            _ => return Ok(None),
        }))
    }

    /// The codec type ID of this output.
    pub fn type_id(&self) -> u32 {
        match self {
            Output::Transfer { .. } => 7,
            Output::StakeableLock { .. } => 22,
            Output::SecpMint { .. } => 6,
            Output::NftMint { .. } => 10,
            Output::NftTransfer { .. } => 11,
            Output::PropertyMint { .. } => 15,
            Output::PropertyOwned { .. } => 16,
        }
    }

    /// The amount this output carries (a lock's wrapped amount); `None` for outputs without one.
    pub fn amount(&self) -> Option<u64> {
        match self {
            Output::Transfer { amount, .. } => Some(*amount),
            Output::StakeableLock { output, .. } => output.amount(),
            _ => None,
        }
    }

    /// The owners of this output (a lock's wrapped owners).
    pub fn owners(&self) -> &OutputOwners {
        match self {
            Output::Transfer { owners, .. }
            | Output::SecpMint { owners }
            | Output::NftMint { owners, .. }
            | Output::NftTransfer { owners, .. }
            | Output::PropertyMint { owners }
            | Output::PropertyOwned { owners } => owners,
            Output::StakeableLock { output, .. } => output.owners(),
        }
    }
}

/// `TransferableOutput`: an asset ID and a typed output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferableOutput {
    /// The asset.
    pub asset_id: Id,
    /// The output.
    pub output: Output,
}

impl TransferableOutput {
    /// Reads one transferable output.
    pub fn read(r: &mut Reader<'_>, fxs: Fxs) -> Result<Self, DecodeError> {
        let asset_id = r.array("output asset ID")?;
        Ok(TransferableOutput { asset_id, output: Output::read(r, fxs)? })
    }

    /// Reads a `u32`-counted list of transferable outputs.
    pub fn read_list(r: &mut Reader<'_>, fxs: Fxs, what: &str) -> Result<Vec<Self>, DecodeError> {
        read_list(r, what, MIN_TRANSFERABLE_OUTPUT_SIZE, |r| Self::read(r, fxs))
    }
}

/// A typed input body (the value after an input type ID).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// 5, secp256k1fx.TransferInput: spends an amount.
    Transfer {
        /// The amount of the spent UTXO.
        amount: u64,
        /// Which of the UTXO's owners sign.
        sig_indices: Vec<u32>,
    },
    /// 21 (P-Chain), stakeable.LockIn: spends a stakeable-locked UTXO.
    StakeableLock {
        /// Unix seconds of the UTXO's stakeable lock.
        locktime: u64,
        /// The wrapped input.
        input: Box<Input>,
    },
}

/// Inputs: secp256k1fx everywhere, `stakeable.LockIn` on the P-Chain.
const INPUTS: Typed<Input> = Typed {
    noun: "input",
    type_id: "input type ID",
    lock: (21, "stakeable.LockIn"),
    locked: |locktime, input| Input::StakeableLock { locktime, input },
    body: |r, _, type_id| match type_id {
        5 => Ok(Some(Input::Transfer { amount: r.u64("input amount")?, sig_indices: read_sig_indices(r)? })),
        _ => Ok(None),
    },
};

impl Input {
    /// Reads `u32 typeID` then the input body, accepting the type IDs of `fxs`.
    pub fn read(r: &mut Reader<'_>, fxs: Fxs) -> Result<Self, DecodeError> {
        read_typed(&INPUTS, r, fxs, 0)
    }

    /// The codec type ID of this input.
    pub fn type_id(&self) -> u32 {
        match self {
            Input::Transfer { .. } => 5,
            Input::StakeableLock { .. } => 21,
        }
    }

    /// The amount spent (a lock's wrapped amount).
    pub fn amount(&self) -> u64 {
        match self {
            Input::Transfer { amount, .. } => *amount,
            Input::StakeableLock { input, .. } => input.amount(),
        }
    }
}

/// `TransferableInput`: the spent UTXO, its asset and a typed input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferableInput {
    /// The tx that produced the UTXO.
    pub tx_id: Id,
    /// The UTXO's index among that tx's outputs.
    pub output_index: u32,
    /// The asset.
    pub asset_id: Id,
    /// The input.
    pub input: Input,
}

impl TransferableInput {
    /// Reads one transferable input.
    pub fn read(r: &mut Reader<'_>, fxs: Fxs) -> Result<Self, DecodeError> {
        let tx_id = r.array("input tx ID")?;
        let output_index = r.u32("input output index")?;
        let asset_id = r.array("input asset ID")?;
        Ok(TransferableInput { tx_id, output_index, asset_id, input: Input::read(r, fxs)? })
    }

    /// Reads a `u32`-counted list of transferable inputs.
    pub fn read_list(r: &mut Reader<'_>, fxs: Fxs, what: &str) -> Result<Vec<Self>, DecodeError> {
        read_list(r, what, MIN_TRANSFERABLE_INPUT_SIZE, |r| Self::read(r, fxs))
    }
}

/// The fields every `BaseTx`-based tx starts with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseTx {
    /// 1 = Mainnet, 5 = Fuji, 12345 = local.
    pub network_id: u32,
    /// The chain the tx was issued on.
    pub blockchain_id: Id,
    /// The outputs.
    pub outputs: Vec<TransferableOutput>,
    /// The inputs.
    pub inputs: Vec<TransferableInput>,
    /// Free bytes.
    pub memo: Vec<u8>,
}

impl BaseTx {
    /// Reads `networkID, blockchainID, outs, ins, memo`.
    pub fn read(r: &mut Reader<'_>, fxs: Fxs) -> Result<Self, DecodeError> {
        let network_id = r.u32("network ID")?;
        let blockchain_id = r.array("blockchain ID")?;
        let outputs = TransferableOutput::read_list(r, fxs, "output count")?;
        let inputs = TransferableInput::read_list(r, fxs, "input count")?;
        let memo = r.bytes_u32("memo")?.to_vec();
        Ok(BaseTx { network_id, blockchain_id, outputs, inputs, memo })
    }

    /// Adds this tx's inputs to `consumed` and its outputs to `produced`.
    pub fn add_totals(&self, consumed: &mut AmountTotals, produced: &mut AmountTotals) {
        consumed.add_inputs(&self.inputs);
        produced.add_outputs(&self.outputs);
    }
}

/// The cross-chain part of an ImportTx or an ExportTx, laid out alike on the P- and the X-Chain
/// (after the BaseTx): the other chain, then the UTXOs that move through shared memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Atomic {
    /// ImportTx (P 17, X 3): spends UTXOs another chain exported to this one.
    Import {
        /// The chain the UTXOs come from.
        source_chain: Id,
        /// The imported UTXOs.
        inputs: Vec<TransferableInput>,
    },
    /// ExportTx (P 18, X 4): creates UTXOs for another chain to import.
    Export {
        /// The chain the UTXOs go to.
        destination_chain: Id,
        /// The exported outputs.
        outputs: Vec<TransferableOutput>,
    },
}

impl Atomic {
    /// Reads an ImportTx's (`export` false) or an ExportTx's fields after the BaseTx.
    pub fn read(r: &mut Reader<'_>, fxs: Fxs, export: bool) -> Result<Self, DecodeError> {
        Ok(if export {
            let destination_chain = r.array("destination chain")?;
            Atomic::Export {
                destination_chain,
                outputs: TransferableOutput::read_list(r, fxs, "exported output count")?,
            }
        } else {
            let source_chain = r.array("source chain")?;
            Atomic::Import { source_chain, inputs: TransferableInput::read_list(r, fxs, "imported input count")? }
        })
    }

    /// Adds the imported inputs to `consumed` or the exported outputs to `produced`.
    pub fn add_totals(&self, consumed: &mut AmountTotals, produced: &mut AmountTotals) {
        match self {
            Atomic::Import { inputs, .. } => consumed.add_inputs(inputs),
            Atomic::Export { outputs, .. } => produced.add_outputs(outputs),
        }
    }
}

/// A validator's node, period and weight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validator {
    /// The node.
    pub node_id: ShortId,
    /// Unix seconds the validation starts.
    pub start: u64,
    /// Unix seconds it ends.
    pub end: u64,
    /// Stake weight.
    pub weight: u64,
}

impl Validator {
    /// Reads `nodeID[20], start u64, end u64, weight u64`.
    pub fn read(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(Validator {
            node_id: r.array("node ID")?,
            start: r.u64("validator start")?,
            end: r.u64("validator end")?,
            weight: r.u64("validator weight")?,
        })
    }
}

/// Reads a subnet authorization (`u32 10` then signature indices).
pub fn read_subnet_auth(r: &mut Reader<'_>) -> Result<Vec<u32>, DecodeError> {
    expect_type(r, SUBNET_AUTH_TYPE_ID, "subnet authorization (secp256k1fx.Input)")?;
    read_sig_indices(r)
}

/// A validator's BLS signer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signer {
    /// 27, signer.Empty.
    Empty,
    /// 28, signer.ProofOfPossession.
    ProofOfPossession {
        /// The BLS public key (compressed, 48 bytes).
        public_key: [u8; 48],
        /// The proof of possession (96 bytes).
        signature: [u8; 96],
    },
}

impl Signer {
    /// Reads a typed signer (27 or 28).
    pub fn read(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let at = r.pos();
        match r.u32("signer type ID")? {
            27 => Ok(Signer::Empty),
            28 => Ok(Signer::ProofOfPossession {
                public_key: r.array("BLS public key")?,
                signature: r.array("BLS proof of possession")?,
            }),
            other => Err(DecodeError::new(at, format!("unknown signer type ID {other}"))),
        }
    }

    /// The codec type ID of this signer.
    pub fn type_id(&self) -> u32 {
        match self {
            Signer::Empty => 27,
            Signer::ProofOfPossession { .. } => 28,
        }
    }

    /// The BLS public key, if any.
    pub fn public_key(&self) -> Option<&[u8; 48]> {
        match self {
            Signer::Empty => None,
            Signer::ProofOfPossession { public_key, .. } => Some(public_key),
        }
    }
}

/// A credential: the signatures that authorize one input (or subnet authorization).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credential {
    /// 9 (secp256k1fx), 14 (nftfx) or 19 (propertyfx).
    pub type_id: u32,
    /// Recoverable secp256k1 signatures `r ‖ s ‖ v`.
    pub signatures: Vec<[u8; 65]>,
}

impl Credential {
    /// Reads a typed credential; the X-Chain accepts 9, 14 and 19, the P-Chain only 9.
    pub fn read(r: &mut Reader<'_>, fxs: Fxs) -> Result<Self, DecodeError> {
        let at = r.pos();
        let type_id = r.u32("credential type ID")?;
        match (fxs, type_id) {
            (_, SECP_CREDENTIAL_TYPE_ID) | (Fxs::Avm, 14) | (Fxs::Avm, 19) => {}
            _ => return Err(DecodeError::new(at, format!("unknown credential type ID {type_id}"))),
        }
        let signatures = read_list(r, "signature count", 65, |r| r.array("signature"))?;
        Ok(Credential { type_id, signatures })
    }

    /// Reads a `u32`-counted list of credentials.
    pub fn read_list(r: &mut Reader<'_>, fxs: Fxs) -> Result<Vec<Self>, DecodeError> {
        read_list(r, "credential count", MIN_CREDENTIAL_SIZE, |r| Self::read(r, fxs))
    }
}

/// A tx read with its framing: the unsigned body, its credentials and its ID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Framed<T> {
    /// The unsigned tx.
    pub unsigned: T,
    /// The credentials; `None` when the bytes held the unsigned tx only.
    pub credentials: Option<Vec<Credential>>,
    /// `sha256(0x0000 ‖ tx bytes)`: the tx ID of a signed tx; of an unsigned tx, the hash its
    /// signatures sign.
    pub tx_id: Id,
}

/// Reads a signed tx (`unsigned ‖ credentials`) without a codec version, as txs sit in blocks,
/// and computes its ID over `0x0000 ‖` the bytes it spans.
pub fn read_signed<T>(
    r: &mut Reader<'_>,
    fxs: Fxs,
    unsigned: impl FnOnce(&mut Reader<'_>) -> Result<T, DecodeError>,
) -> Result<Framed<T>, DecodeError> {
    let start = r.pos();
    let unsigned = unsigned(r)?;
    let credentials = Credential::read_list(r, fxs)?;
    let tx_id = tx_id(&r.all()[start..r.pos()]);
    Ok(Framed { unsigned, credentials: Some(credentials), tx_id })
}

/// Reads a standalone tx: the codec version, then a signed tx (or, when `signed` is false, the
/// unsigned tx alone), then nothing.
pub fn read_standalone<T>(
    bytes: &[u8],
    fxs: Fxs,
    signed: bool,
    unsigned: impl FnOnce(&mut Reader<'_>) -> Result<T, DecodeError>,
) -> Result<Framed<T>, DecodeError> {
    let mut r = Reader::new(bytes);
    r.codec_version()?;
    let framed = if signed {
        read_signed(&mut r, fxs, unsigned)?
    } else {
        let unsigned = unsigned(&mut r)?;
        Framed { unsigned, credentials: None, tx_id: tx_id(&bytes[2..]) }
    };
    r.finish("tx")?;
    Ok(framed)
}

/// `sha256(0x0000 ‖ tx)`: the ID of a tx whose bytes (without codec version) are `tx`.
pub fn tx_id(tx: &[u8]) -> Id {
    let mut hasher = Sha256::new();
    hasher.update([0u8, 0u8]);
    hasher.update(tx);
    hasher.finalize().into()
}

/// Total amount of one asset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AssetAmount {
    /// The asset.
    pub asset_id: Id,
    /// The sum, in the asset's smallest unit.
    pub amount: u128,
}

/// Per-asset sums of amounts, kept sorted by asset ID.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AmountTotals(BTreeMap<Id, u128>);

impl AmountTotals {
    /// Adds `amount` of `asset_id`.
    pub fn add(&mut self, asset_id: &Id, amount: u64) {
        let sum = self.0.entry(*asset_id).or_insert(0);
        // A container holds fewer than 2^32 amounts below 2^64, so a u128 sum cannot overflow.
        *sum = sum.saturating_add(u128::from(amount));
    }

    /// Adds every input's amount.
    pub fn add_inputs(&mut self, inputs: &[TransferableInput]) {
        for input in inputs {
            self.add(&input.asset_id, input.input.amount());
        }
    }

    /// Adds every output's amount (outputs without an amount add nothing).
    pub fn add_outputs(&mut self, outputs: &[TransferableOutput]) {
        for output in outputs {
            self.add_output(&output.asset_id, &output.output);
        }
    }

    /// Adds one output's amount, if it has one.
    pub fn add_output(&mut self, asset_id: &Id, output: &Output) {
        if let Some(amount) = output.amount() {
            self.add(asset_id, amount);
        }
    }

    /// The totals, sorted by asset ID.
    pub fn into_vec(self) -> Vec<AssetAmount> {
        self.0.into_iter().map(|(asset_id, amount)| AssetAmount { asset_id, amount }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        hex::decode(s).unwrap()
    }

    #[test]
    fn transfer_output_and_lock_out_amounts() {
        // LockOut(locktime 5, TransferOutput(amount 9, locktime 0, threshold 1, [addr 0x11..]))
        let mut bytes = hex("00000016000000000000000500000007000000000000000900000000000000000000000100000001");
        bytes.extend([0x11; 20]);
        let mut r = Reader::new(&bytes);
        let out = Output::read(&mut r, Fxs::Platform).unwrap();
        r.finish("out").unwrap();
        assert_eq!(out.type_id(), 22);
        assert_eq!(out.amount(), Some(9));
        assert_eq!(out.owners().addresses, vec![[0x11; 20]]);
        // The X-Chain does not register LockOut.
        let err = Output::read(&mut Reader::new(&bytes), Fxs::Avm).unwrap_err();
        assert_eq!(err.message, "unknown output type ID 22");
    }

    #[test]
    fn nested_locks_stop_at_max_depth() {
        let mut bytes = Vec::new();
        for _ in 0..=MAX_DEPTH {
            bytes.extend(hex("00000015"));
            bytes.extend([0; 8]);
        }
        bytes.extend(hex("00000005000000000000000100000000"));
        let err = Input::read(&mut Reader::new(&bytes), Fxs::Platform).unwrap_err();
        assert!(err.message.contains("nested too deeply"), "{err}");
        // One level less decodes.
        let ok = Input::read(&mut Reader::new(&bytes[12..]), Fxs::Platform).unwrap();
        assert_eq!(ok.amount(), 1);
    }

    #[test]
    fn totals_sum_per_asset_in_u128() {
        let mut t = AmountTotals::default();
        t.add(&[2; 32], u64::MAX);
        t.add(&[1; 32], 3);
        t.add(&[2; 32], u64::MAX);
        let v = t.into_vec();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0], AssetAmount { asset_id: [1; 32], amount: 3 });
        assert_eq!(v[1].amount, 2 * u128::from(u64::MAX));
    }

    #[test]
    fn tx_id_prepends_the_codec_version() {
        assert_eq!(tx_id(b"abc"), crate::index::cb58::sha256(b"\0\0abc"));
    }
}
