//! A big-endian writer for Avalanche's linear codec (FORMATS.md §2) and the structures P-chain and
//! X-chain transactions share (§5.1, §5.2): `BaseTx`, transferable outputs and inputs, output
//! owners, validators, subnet auth, BLS signers and secp256k1 credentials.
//!
//! The value types are the core decoder's ([`avax_data_core::decode::avax`]): the emulator builds
//! what the decoder reads, and [`Writer`] lays it out in declaration order with the type IDs the
//! values name (`Output::type_id` and the like), so the two cannot disagree on a layout. [`Rng`]
//! gives the deterministic pseudo-random field values the emulator fills them with; signatures
//! are random 65-byte strings, not real secp256k1 signatures.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

pub use avax_data_core::decode::avax::{
    Atomic, BaseTx, Credential, Input, Output, OutputOwners, Signer, TransferableInput, TransferableOutput, Validator,
};
use avax_data_core::decode::avax::{OUTPUT_OWNERS_TYPE_ID, SECP_CREDENTIAL_TYPE_ID, SUBNET_AUTH_TYPE_ID};

/// A growable big-endian byte buffer with the codec's field writers.
#[derive(Debug, Clone, Default)]
pub struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// An empty writer.
    pub fn new() -> Writer {
        Writer { buf: Vec::with_capacity(512) }
    }

    /// The bytes written so far.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Nothing written yet.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// One byte.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }

    /// Big-endian u16.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.buf.extend_from_slice(&v.to_be_bytes());
        self
    }

    /// Big-endian u32.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.buf.extend_from_slice(&v.to_be_bytes());
        self
    }

    /// Big-endian u64.
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.buf.extend_from_slice(&v.to_be_bytes());
        self
    }

    /// A fixed array (ID, short ID, key, signature): raw, no length.
    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(bytes);
        self
    }

    /// `[]byte`: u32 length then the bytes.
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.u32(bytes.len() as u32).raw(bytes)
    }

    /// A string: u16 byte length then UTF-8.
    pub fn str16(&mut self, text: &str) -> &mut Self {
        self.u16(text.len() as u16).raw(text.as_bytes())
    }

    /// `[]u32`: count then the values.
    pub fn u32s(&mut self, values: &[u32]) -> &mut Self {
        self.u32(values.len() as u32);
        for v in values {
            self.u32(*v);
        }
        self
    }

    /// `[][32]byte`: count then the IDs.
    pub fn ids(&mut self, ids: &[[u8; 32]]) -> &mut Self {
        self.u32(ids.len() as u32);
        for id in ids {
            self.raw(id);
        }
        self
    }

    /// OutputOwners fields without a type ID.
    pub fn owners_body(&mut self, owners: &OutputOwners) -> &mut Self {
        self.u64(owners.locktime).u32(owners.threshold).u32(owners.addresses.len() as u32);
        for a in &owners.addresses {
            self.raw(a);
        }
        self
    }

    /// An `Owner` interface value: `u32 11` then OutputOwners.
    pub fn owner(&mut self, owners: &OutputOwners) -> &mut Self {
        self.u32(OUTPUT_OWNERS_TYPE_ID).owners_body(owners)
    }

    /// A typed output (a stakeable lock: its locktime, then the output it wraps).
    pub fn output(&mut self, output: &Output) -> &mut Self {
        self.u32(output.type_id());
        match output {
            Output::Transfer { amount, owners } => self.u64(*amount).owners_body(owners),
            Output::StakeableLock { locktime, output } => self.u64(*locktime).output(output),
            Output::SecpMint { owners } | Output::PropertyMint { owners } | Output::PropertyOwned { owners } => {
                self.owners_body(owners)
            }
            Output::NftMint { group_id, owners } => self.u32(*group_id).owners_body(owners),
            Output::NftTransfer { group_id, payload, owners } => self.u32(*group_id).bytes(payload).owners_body(owners),
        }
    }

    /// `[]TransferableOutput`.
    pub fn outputs(&mut self, outputs: &[TransferableOutput]) -> &mut Self {
        self.u32(outputs.len() as u32);
        for o in outputs {
            self.raw(&o.asset_id).output(&o.output);
        }
        self
    }

    /// A typed input (a stakeable lock: its locktime, then the input it wraps).
    pub fn input(&mut self, input: &Input) -> &mut Self {
        self.u32(input.type_id());
        match input {
            Input::Transfer { amount, sig_indices } => self.u64(*amount).u32s(sig_indices),
            Input::StakeableLock { locktime, input } => self.u64(*locktime).input(input),
        }
    }

    /// `[]TransferableInput`.
    pub fn inputs(&mut self, inputs: &[TransferableInput]) -> &mut Self {
        self.u32(inputs.len() as u32);
        for i in inputs {
            self.raw(&i.tx_id).u32(i.output_index).raw(&i.asset_id).input(&i.input);
        }
        self
    }

    /// BaseTx fields (no type ID).
    pub fn base_tx(&mut self, base: &BaseTx) -> &mut Self {
        self.u32(base.network_id).raw(&base.blockchain_id).outputs(&base.outputs).inputs(&base.inputs).bytes(&base.memo)
    }

    /// Validator fields.
    pub fn validator(&mut self, v: &Validator) -> &mut Self {
        self.raw(&v.node_id).u64(v.start).u64(v.end).u64(v.weight)
    }

    /// SubnetAuth: `u32 10, []u32 sigIndices`.
    pub fn subnet_auth(&mut self, sig_indices: &[u32]) -> &mut Self {
        self.u32(SUBNET_AUTH_TYPE_ID).u32s(sig_indices)
    }

    /// A typed BLS signer.
    pub fn signer(&mut self, signer: &Signer) -> &mut Self {
        self.u32(signer.type_id());
        if let Signer::ProofOfPossession { public_key, signature } = signer {
            self.raw(public_key).raw(signature);
        }
        self
    }

    /// The fields an ImportTx or ExportTx adds after its BaseTx.
    pub fn atomic(&mut self, atomic: &Atomic) -> &mut Self {
        match atomic {
            Atomic::Import { source_chain, inputs } => self.raw(source_chain).inputs(inputs),
            Atomic::Export { destination_chain, outputs } => self.raw(destination_chain).outputs(outputs),
        }
    }

    /// `[]Credential`, each `u32 typeID, []sig65`.
    pub fn credentials(&mut self, credentials: &[Credential]) -> &mut Self {
        self.u32(credentials.len() as u32);
        for c in credentials {
            self.u32(c.type_id).u32(c.signatures.len() as u32);
            for s in &c.signatures {
                self.raw(s);
            }
        }
        self
    }
}

/// An unsigned tx type the writer lays out as `u32 typeID ‖ fields`.
pub trait UnsignedTx {
    /// Writes `u32 typeID ‖ fields`.
    fn write(&self, w: &mut Writer);
}

/// A signed P-chain or X-chain tx: the unsigned part and its credentials (one per signed input,
/// then one per X-chain operation or for a P-chain subnet authorization).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedTx<U> {
    /// The unsigned part.
    pub unsigned: U,
    /// The credentials, in the order the node checks them.
    pub credentials: Vec<Credential>,
}

impl<U: UnsignedTx> SignedTx<U> {
    /// Block form: unsigned bytes then credentials, no codec version.
    pub fn bytes(&self) -> Vec<u8> {
        let mut w = Writer::new();
        self.unsigned.write(&mut w);
        w.credentials(&self.credentials);
        w.into_bytes()
    }

    /// Standalone form (an `X/tx` container, a tx vector): codec version first.
    pub fn standalone(&self) -> Vec<u8> {
        with_version(&self.bytes())
    }
}

/// A signed tx as it sits inside a block: the unsigned bytes (type ID and fields, no codec
/// version) followed by the credentials.
pub fn signed_tx(unsigned: &[u8], credentials: &[Credential]) -> Vec<u8> {
    let mut w = Writer { buf: Vec::with_capacity(unsigned.len() + 8 + credentials.len() * 77) };
    w.raw(unsigned).credentials(credentials);
    w.into_bytes()
}

/// The standalone serialization of `tx` (block form): codec version `0x0000` prepended.
pub fn with_version(tx: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(tx.len() + 2);
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(tx);
    out
}

/// The tx ID of a signed tx in block form: `sha256(0x0000 ‖ tx)`.
pub fn tx_id(tx: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update([0u8, 0u8]);
    h.update(tx);
    h.finalize().into()
}

/// `sha256(bytes)`: the ID of a block or of a standalone (versioned) tx.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Deterministic pseudo-random field values: a ChaCha8 stream keyed by a label and numbers.
#[derive(Debug, Clone)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// The stream of `(label, parts)`: same inputs, same values.
    pub fn new(label: &str, parts: &[u64]) -> Rng {
        let mut h = Sha256::new();
        h.update(label.as_bytes());
        for p in parts {
            h.update(p.to_be_bytes());
        }
        Rng(ChaCha8Rng::from_seed(h.finalize().into()))
    }

    /// Next u64.
    pub fn u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.u64() % (hi - lo + 1)
    }

    /// `true` with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.u64() % den < num
    }

    /// `N` random bytes.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        self.0.fill_bytes(&mut out);
        out
    }

    /// A signature-shaped 65 bytes: random `r ‖ s`, recovery byte 0 or 1.
    pub fn signature(&mut self) -> [u8; 65] {
        let mut sig: [u8; 65] = self.array();
        sig[64] &= 1;
        sig
    }

    /// One secp256k1fx credential with `n` signatures.
    pub fn credential(&mut self, n: usize) -> Credential {
        Credential { type_id: SECP_CREDENTIAL_TYPE_ID, signatures: (0..n).map(|_| self.signature()).collect() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitives_are_big_endian_and_counted() {
        let mut w = Writer::new();
        w.u16(0x0102).u32(0x0304_0506).u64(7).bytes(&[9, 9]).str16("AB").u32s(&[1]);
        assert_eq!(hex::encode(w.into_bytes()), "0102030405060000000000000007000000020909000241420000000100000001");
    }

    #[test]
    fn outputs_inputs_and_owners_carry_their_type_ids() {
        let owners = OutputOwners { locktime: 1, threshold: 1, addresses: vec![[0xaa; 20]] };
        let mut w = Writer::new();
        let transfer = Output::Transfer { amount: 6, owners: owners.clone() };
        w.output(&Output::StakeableLock { locktime: 5, output: Box::new(transfer) });
        let b = w.into_bytes();
        assert_eq!(&b[..4], &22u32.to_be_bytes());
        assert_eq!(&b[12..16], &7u32.to_be_bytes());
        assert_eq!(b.len(), 4 + 8 + 4 + 8 + 8 + 4 + 4 + 20);
        let mut w = Writer::new();
        w.input(&Input::Transfer { amount: 3, sig_indices: vec![0, 1] }).owner(&owners);
        assert_eq!(w.len(), 4 + 8 + 4 + 8 + 4 + 8 + 4 + 4 + 20);
    }

    #[test]
    fn tx_id_hashes_the_versioned_form_and_rng_is_deterministic() {
        let tx = [0u8, 0, 0, 34, 1];
        assert_eq!(tx_id(&tx), sha256(&with_version(&tx)));
        assert_ne!(tx_id(&tx), sha256(&tx));
        let mut a = Rng::new("x", &[1, 2]);
        let mut b = Rng::new("x", &[1, 2]);
        let mut c = Rng::new("x", &[1, 3]);
        let (sa, sb, sc) = (a.signature(), b.signature(), c.signature());
        assert_eq!(sa, sb);
        assert_ne!(sa, sc);
        assert!(sa[64] <= 1);
        let signed = signed_tx(&[1, 2], &[a.credential(2)]);
        assert_eq!(signed.len(), 2 + 4 + 4 + 4 + 2 * 65);
    }
}
