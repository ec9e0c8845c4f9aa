//! A decoded P- or X-Chain tx: the same frame (ID, type, BaseTx, body, credentials, per-asset
//! totals) over each chain's unsigned tx ([`UnsignedTx`]), read signed inside a block or
//! standalone with its codec version.

use std::fmt::Debug;

use super::avax::{self, AmountTotals, AssetAmount, Credential, Framed, Fxs, Id};
use super::codec::Reader;
use super::DecodeError;

/// A chain's unsigned tx, as [`Tx`] frames it.
pub trait UnsignedTx: Sized {
    /// The common fields (`Option<BaseTx>` where some tx types have none).
    type Base: Debug + Clone + PartialEq + Eq;
    /// The type-specific fields.
    type Body: Debug + Clone + PartialEq + Eq;
    /// The fxs its credentials are typed by.
    const FXS: Fxs;
    /// Reads `u32 typeID` and the tx fields.
    fn read(r: &mut Reader<'_>) -> Result<Self, DecodeError>;
    /// The name of a tx type ID, `None` for an unknown one.
    fn type_name(type_id: u32) -> Option<&'static str>;
    /// Per-asset `(consumed, produced)`; `tx_id` is the ID of the tx.
    fn totals(&self, tx_id: &Id) -> (AmountTotals, AmountTotals);
    /// `(type ID, base, body)`.
    fn into_parts(self) -> (u32, Self::Base, Self::Body);
}

/// Reads a tx's `u32 typeID`; an ID `type_name` does not name is an error that names `chain`.
pub fn read_type_id(
    r: &mut Reader<'_>,
    chain: &str,
    type_name: fn(u32) -> Option<&'static str>,
) -> Result<u32, DecodeError> {
    let at = r.pos();
    let type_id = r.u32("tx type ID")?;
    match type_name(type_id) {
        Some(_) => Ok(type_id),
        None => Err(DecodeError::new(at, format!("unknown {chain} tx type ID {type_id}"))),
    }
}

/// A decoded tx of the chain whose unsigned tx is `U`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tx<U: UnsignedTx> {
    /// `sha256(0x0000 ‖ signed tx bytes)`; for a tx decoded by [`Tx::decode_unsigned`], the hash
    /// of the unsigned bytes (what the signatures sign).
    pub tx_id: Id,
    /// The tx type ID.
    pub type_id: u32,
    /// The tx type's name, e.g. `"AddPermissionlessValidatorTx"`.
    pub type_name: &'static str,
    /// The common fields.
    pub base: U::Base,
    /// The type-specific fields.
    pub body: U::Body,
    /// The credentials; `None` for an unsigned tx.
    pub credentials: Option<Vec<Credential>>,
    /// Per-asset amounts spent ([`UnsignedTx::totals`]).
    pub consumed: Vec<AssetAmount>,
    /// Per-asset amounts created ([`UnsignedTx::totals`]).
    pub produced: Vec<AssetAmount>,
}

impl<U: UnsignedTx> Tx<U> {
    fn from_framed(framed: Framed<U>) -> Self {
        let (consumed, produced) = framed.unsigned.totals(&framed.tx_id);
        let (type_id, base, body) = framed.unsigned.into_parts();
        Tx {
            tx_id: framed.tx_id,
            type_id,
            type_name: U::type_name(type_id).unwrap_or("unknown"),
            base,
            body,
            credentials: framed.credentials,
            consumed: consumed.into_vec(),
            produced: produced.into_vec(),
        }
    }

    /// Reads a signed tx without a codec version, as txs sit inside blocks.
    pub fn read_signed(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        avax::read_signed(r, U::FXS, U::read).map(Self::from_framed)
    }

    /// Decodes a standalone signed tx (`u16 codec version ‖ unsigned ‖ credentials`).
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        avax::read_standalone(bytes, U::FXS, true, U::read).map(Self::from_framed)
    }

    /// Decodes `u16 codec version ‖ unsigned tx` with no credentials.
    pub fn decode_unsigned(bytes: &[u8]) -> Result<Self, DecodeError> {
        avax::read_standalone(bytes, U::FXS, false, U::read).map(Self::from_framed)
    }
}
