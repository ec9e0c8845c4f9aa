//! The comparison rules, on hand-made records.

use super::compare::{compare, Difference, Kind};
use super::data_side::{data_record, integer};
use super::record::{BlockRecord, TxRecord};
use super::Chain;
use crate::exact::parse;

fn tx(id: &str, price: &str) -> TxRecord {
    TxRecord { id: id.to_string(), fields: vec![("gasPrice", Some(price.to_string()))] }
}

fn block(hash: &str, txs: Vec<TxRecord>) -> BlockRecord {
    BlockRecord {
        height: 7,
        id: hash.to_string(),
        fields: vec![
            ("blockHash", Some(hash.to_string())),
            ("txCount", Some(txs.len().to_string())),
            ("baseFee", None),
        ],
        txs,
    }
}

fn row(kind: Kind, id: &str, field: &'static str, index: Option<&str>, data: Option<&str>) -> Difference {
    Difference {
        kind,
        chain: "C",
        height: 7,
        id: id.to_string(),
        field,
        index_value: index.map(str::to_string),
        data_value: data.map(str::to_string),
    }
}

#[test]
fn equal_records_have_no_difference() {
    let b = block("0xaa", vec![tx("0x1", "5"), tx("0x2", "6")]);
    assert_eq!(compare(Chain::C, 7, Some(&b), Some(&b.clone())), vec![]);
    assert_eq!(compare(Chain::C, 7, None, None), vec![]);
}

#[test]
fn a_block_on_one_side_is_one_row() {
    let b = block("0xaa", vec![tx("0x1", "5")]);
    assert_eq!(compare(Chain::C, 7, Some(&b), None), vec![row(Kind::Missing, "0xaa", "block", Some("0xaa"), None)]);
    assert_eq!(compare(Chain::C, 7, None, Some(&b)), vec![row(Kind::Extra, "0xaa", "block", None, Some("0xaa"))]);
}

#[test]
fn each_differing_field_is_one_row_and_unstated_index_fields_are_not_compared() {
    let index = block("0xaa", vec![tx("0x1", "5")]);
    let mut data = block("0xbb", vec![tx("0x1", "9")]);
    data.fields[2].1 = Some("25".to_string());
    assert_eq!(
        compare(Chain::C, 7, Some(&index), Some(&data)),
        vec![
            row(Kind::Different, "0xaa", "blockHash", Some("0xaa"), Some("0xbb")),
            row(Kind::Different, "0x1", "gasPrice", Some("5"), Some("9")),
        ]
    );
}

#[test]
fn transactions_on_one_side_are_missing_or_extra_in_their_order() {
    let index = block("0xaa", vec![tx("0x1", "5"), tx("0x2", "5"), tx("0x3", "5")]);
    let mut data = block("0xaa", vec![tx("0x3", "5"), tx("0x9", "5"), tx("0x1", "5"), tx("0x8", "5")]);
    data.fields[1].1 = Some("3".to_string());
    assert_eq!(
        compare(Chain::C, 7, Some(&index), Some(&data)),
        vec![
            row(Kind::Missing, "0x2", "transaction", Some("0x2"), None),
            row(Kind::Extra, "0x9", "transaction", None, Some("0x9")),
            row(Kind::Extra, "0x8", "transaction", None, Some("0x8")),
        ]
    );
}

#[test]
fn a_transaction_listed_twice_is_extra_the_second_time() {
    let index = block("0xaa", vec![tx("0x1", "5")]);
    let mut data = block("0xaa", vec![tx("0x1", "5"), tx("0x1", "7")]);
    data.fields[1].1 = Some("1".to_string());
    assert_eq!(
        compare(Chain::C, 7, Some(&index), Some(&data)),
        vec![row(Kind::Extra, "0x1", "transaction", None, Some("0x1"))]
    );
}

#[test]
fn data_api_values_are_read_in_one_form_and_odd_ones_kept_as_text() {
    assert_eq!(integer(&parse("\"0042\"").unwrap()).as_deref(), Some("42"));
    assert_eq!(integer(&parse("18446744073709551616").unwrap()).as_deref(), Some("18446744073709551616"));
    assert_eq!(integer(&parse("\"0\"").unwrap()).as_deref(), Some("0"));
    assert_eq!(integer(&parse("1.5").unwrap()), None);
    assert_eq!(integer(&parse("-3").unwrap()), None);
    let answer = parse(
        r#"{"blockNumber":"7","blockHash":"0xAB","parentHash":"0x01","txCount":2,"gasUsed":"1.5e3",
            "blockTimestamp":1700000000}"#,
    )
    .unwrap();
    let txs = [parse(r#"{"txHash":"0xCD","gasPrice":"25000000000"}"#).unwrap()];
    let record = data_record(Chain::C, 9, &answer, &txs);
    assert_eq!(record.height, 7);
    assert_eq!(record.id, "0xab");
    assert_eq!(record.field("txCount"), Some("2"));
    assert_eq!(record.field("gasUsed"), Some("\"1.5e3\""));
    assert_eq!(record.field("baseFee"), None);
    assert_eq!(record.txs, vec![tx("0xcd", "25000000000")]);
}

#[test]
fn primary_network_blocks_list_their_transaction_ids() {
    let answer =
        parse(r#"{"blockNumber":"3","blockHash":"abc","txCount":1,"blockTimestamp":5,"transactions":["t1"]}"#).unwrap();
    let record = data_record(Chain::P, 3, &answer, &[]);
    assert_eq!(record.txs, vec![TxRecord { id: "t1".to_string(), fields: vec![] }]);
    assert_eq!(record.field("blockHash"), Some("abc"));
}

#[test]
fn chains_and_ranges_are_checked() {
    assert_eq!(Chain::parse("x").unwrap(), Chain::X);
    assert_eq!(Chain::parse(" C").unwrap_err().to_string(), "invalid chain=\" C\": one of 'C', 'P', 'X'");
    assert_eq!(super::check_range(3, 2).unwrap_err().to_string(), "invalid stop=2: an int > start (3)");
    assert_eq!(Chain::C.block_path("fuji", 5), "/v1/chains/43113/blocks/5");
    assert_eq!(Chain::P.block_path("mainnet", 5), "/v1/networks/mainnet/blockchains/p-chain/blocks/5");
}
