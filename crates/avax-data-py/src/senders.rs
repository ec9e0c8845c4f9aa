//! `c_block_senders`: the senders of C-chain transactions, recovered from their signatures.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::errors::to_py;
use avax_data_core::decode::senders::senders_of_containers_until;
use avax_data_core::error::Error;

/// The sender (``from``) of every transaction of each ``C/block`` container, recovered from the
/// transactions' secp256k1 signatures, spread over the cores.
///
/// The engine under :func:`avax_data.transactions` with ``senders=True``.
///
/// Args:
///     items: ``C/block`` container bytes (a proposervm envelope or a raw pre-fork block), a
///         list of ``bytes``.
///     threads: threads to spread the items over; ``0`` (default) one per core.
///
/// Returns:
///     list[list[str]]: per item, the senders of its transactions in order, ``0x`` + 40 hex.
///
/// Raises:
///     DecodeError: an item that does not decode, or a transaction whose signature is invalid
///         (high ``s``, ``r`` or ``s`` out of range, a bad ``v``); the message names the item
///         and the transaction, no address is ever guessed.
///
/// Example:
///     >>> node = ad.IndexClient(emu.url).chain("C/block")
///     >>> senders = ad._native.c_block_senders(node.range(46, 50).to_polars()["bytes"].to_list())
///     >>> [len(s) for s in senders] == node.range(46, 50, decode=True).to_polars()["tx_count"].to_list()
///     True
///     >>> all(a.startswith("0x") and len(a) == 42 for s in senders for a in s)
///     True
#[pyfunction]
#[pyo3(signature = (items, *, threads=0))]
pub fn c_block_senders(py: Python<'_>, items: Vec<Bound<'_, PyBytes>>, threads: usize) -> PyResult<Vec<Vec<String>>> {
    let owned: Vec<Vec<u8>> = items.iter().map(|b| b.as_bytes().to_vec()).collect();
    // Ctrl-C stops the recovery within one block's work and raises its own exception.
    let results = crate::interrupt::run_cpu(py, |stop| {
        let slices: Vec<&[u8]> = owned.iter().map(Vec::as_slice).collect();
        senders_of_containers_until(&slices, threads, stop)
    })?
    .ok_or_else(|| to_py(Error::Interrupted))?;
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| match r {
            Ok(senders) => Ok(senders.iter().map(|a| format!("0x{}", hex::encode(a))).collect()),
            Err(e) => Err(to_py(Error::ContainerDecode {
                path: "C/block".into(),
                position: format!("item {i}"),
                index: None,
                id: None,
                offset: e.offset,
                message: e.message,
            })),
        })
        .collect()
}
