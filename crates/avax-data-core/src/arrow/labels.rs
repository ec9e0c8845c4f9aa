//! A column's type as the tables of the docs show it (`UInt64`, `Datetime(ns, UTC)`, `String
//! (uint256)`, ...): what polars shows for the Arrow type, plus what the text holds when the
//! type alone does not say it.

use super::json::Kind;

/// The label of one column's kind.
pub fn label(kind: Kind) -> String {
    match kind {
        Kind::Str => "String".into(),
        Kind::Json => "String (JSON text)".into(),
        Kind::Extra => "String (JSON text: the fields not named above)".into(),
        Kind::Bool => "Boolean".into(),
        Kind::Int => "Int64".into(),
        Kind::Float => "Float64".into(),
        Kind::U64Str => "UInt64".into(),
        Kind::Dec => "Decimal(38, 0)".into(),
        Kind::U256 => "String (uint256)".into(),
        Kind::U256Float => "Float64 (uint256)".into(),
        Kind::TsSec | Kind::TsMs | Kind::TsUnix | Kind::TsText => "Datetime(ns, UTC)".into(),
        Kind::StrList => "List(String)".into(),
        Kind::Struct(cols) => format!("Struct({} fields)", cols.len()),
        Kind::StructList(cols) => format!("List(Struct({} fields))", cols.len()),
        Kind::List(kind) => format!("List({})", label(*kind)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrow::Col;

    #[test]
    fn labels_name_the_type_and_what_a_text_holds() {
        const INNER: &[Col] = &[Col("a", Kind::Int), Col("b", Kind::Str)];
        assert_eq!(label(Kind::U256), "String (uint256)");
        assert_eq!(label(Kind::TsMs), "Datetime(ns, UTC)");
        assert_eq!(label(Kind::List(&Kind::U64Str)), "List(UInt64)");
        assert_eq!(label(Kind::StructList(INNER)), "List(Struct(2 fields))");
    }
}
