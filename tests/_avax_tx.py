"""Independent re-implementations of the X-Chain's ids, to check answers of the Data API against
the protocol: a UTXO's id, an address from a public key, a transaction's id from the fields of its
Data API record (secp256k1 transfers only: ``BaseTx``, ``ImportTx``, ``ExportTx``).

The encoding is the AVM codec, version 0 (avalanchego ``vms/avm/txs``): big-endian integers,
outputs sorted by their bytes, inputs by (tx id, output index), a credential per input.
"""

from __future__ import annotations

import base64
import hashlib
import struct
from typing import Any

from _helpers import _ALPHABET, cb58

_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_GEN = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
#: AVM codec type ids: transactions, the secp256k1 output, input and credential.
_TX_TYPE = {"BaseTx": 0, "ImportTx": 3, "ExportTx": 4}
_OUTPUT, _INPUT, _CREDENTIAL = 7, 5, 9


def cb58_decode(text: str) -> bytes:
    """The bytes of a CB58 string, its 4-byte checksum checked."""
    n = 0
    for char in text:
        n = n * 58 + _ALPHABET.index(char)
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(text) - len(text.lstrip("1"))) + raw
    body, check = raw[:-4], raw[-4:]
    assert hashlib.sha256(body).digest()[-4:] == check, f"bad CB58 checksum: {text}"
    return body


def utxo_id(tx_id: str, output_index: int) -> str:
    """A UTXO's id: CB58 of sha256(output index as 8 big-endian bytes ‖ the creating tx's id)."""
    return cb58(hashlib.sha256(struct.pack(">Q", output_index) + cb58_decode(tx_id)).digest())


def _polymod(values: list[int]) -> int:
    check = 1
    for value in values:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ value
        for i, gen in enumerate(_GEN):
            check ^= gen if (top >> i) & 1 else 0
    return check


def _regroup(data: bytes | list[int], source: int, target: int) -> list[int]:
    acc, bits, out = 0, 0, []
    for value in data:
        acc, bits = (acc << source) | value, bits + source
        while bits >= target:
            bits -= target
            out.append((acc >> bits) & ((1 << target) - 1))
    if bits and target == 5:
        out.append((acc << (target - bits)) & 31)
    return out


def bech32_address(hrp: str, short_id: bytes) -> str:
    """The bech32 address (``fuji1...``) of a 20-byte short id."""
    data = _regroup(short_id, 8, 5)
    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    mod = _polymod(expanded + data + [0] * 6) ^ 1
    return hrp + "1" + "".join(_BECH32[d] for d in data + [(mod >> 5 * (5 - i)) & 31 for i in range(6)])


def short_id(address: str) -> bytes:
    """The 20 bytes of a bech32 address (its checksum not checked here: the answer's own)."""
    data = [_BECH32.index(c) for c in address.rsplit("1", 1)[1][:-6]]
    return bytes(_regroup(data, 5, 8))


def address_of_key(hrp: str, public_key_b64: str) -> str:
    """The address of a compressed secp256k1 public key in base64: ripemd160(sha256(key))."""
    key = base64.b64decode(public_key_b64)
    return bech32_address(hrp, hashlib.new("ripemd160", hashlib.sha256(key).digest()).digest())


def _output(utxo: dict[str, Any]) -> bytes:
    asset = utxo["asset"]
    owners = sorted(short_id(a) for a in utxo["addresses"])
    head = struct.pack(">IQQII", _OUTPUT, int(asset["amount"]), utxo["locktime"], utxo["threshold"], len(owners))
    return cb58_decode(asset["assetId"]) + head + b"".join(owners)


def utxo_bytes(utxo: dict[str, Any]) -> bytes:
    """The bytes of a UTXO (codec version, creating tx id, output index, asset, output)."""
    return struct.pack(">H", 0) + cb58_decode(utxo["creationTxHash"]) + struct.pack(">I", int(utxo["outputIndex"])) + _output(utxo)


def _spent_order(utxo: dict[str, Any]) -> tuple[bytes, int]:
    return cb58_decode(utxo["creationTxHash"]), int(utxo["outputIndex"])


def _input(utxo: dict[str, Any]) -> bytes:
    tx, index = _spent_order(utxo)
    asset = utxo["asset"]
    # One signature, of the owner at index 0: the records checked have single-owner inputs.
    body = struct.pack(">IQII", _INPUT, int(asset["amount"]), 1, 0)
    return tx + struct.pack(">I", index) + cb58_decode(asset["assetId"]) + body


def _outputs(utxos: list[dict[str, Any]]) -> bytes:
    encoded = sorted(_output(u) for u in utxos)
    return struct.pack(">I", len(encoded)) + b"".join(encoded)


def _inputs(utxos: list[dict[str, Any]]) -> bytes:
    return struct.pack(">I", len(utxos)) + b"".join(_input(u) for u in utxos)


def x_tx_id(record: dict[str, Any], network_id: int, x_chain_id: str) -> str:
    """The id (sha256 of the signed bytes) of the X-Chain transaction a Data API record describes.

    The record's ``emittedUtxos`` are the transaction's outputs (an export's exported ones are
    those consumed on another chain), its ``consumedUtxos`` the inputs (an import's are all
    imported), each input's ``credentials`` its signatures.
    """
    kind = record["txType"]
    emitted, consumed = record["emittedUtxos"], sorted(record["consumedUtxos"], key=_spent_order)
    exported = [u for u in emitted if kind == "ExportTx" and u["consumedOnChainId"] != x_chain_id]
    outputs = [u for u in emitted if u not in exported]
    inputs, imported = ([], consumed) if kind == "ImportTx" else (consumed, [])
    memo = bytes.fromhex(record["memo"].removeprefix("0x"))
    unsigned = struct.pack(">HII", 0, _TX_TYPE[kind], network_id) + cb58_decode(x_chain_id)
    unsigned += _outputs(outputs) + _inputs(inputs) + struct.pack(">I", len(memo)) + memo
    if kind == "ImportTx":
        unsigned += cb58_decode(record["sourceChain"]) + _inputs(imported)
    if kind == "ExportTx":
        unsigned += cb58_decode(record["destinationChain"]) + _outputs(exported)
    signed = unsigned + struct.pack(">I", len(consumed))
    for utxo in inputs + imported:
        signatures = [base64.b64decode(c["signature"] + "=" * (-len(c["signature"]) % 4)) for c in utxo["credentials"]]
        signed += struct.pack(">II", _CREDENTIAL, len(signatures)) + b"".join(signatures)
    return cb58(hashlib.sha256(signed).digest())
