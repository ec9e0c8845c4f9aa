//! One convention for the value an `InvalidArgument` carries: text is written quoted and reads
//! back as the text the user passed (`text_of_literal`), a number is written bare. Each rule of
//! the core that refuses a value is walked here with a value it refuses.

use std::path::Path;

use avax_data_core::data::params as data;
use avax_data_core::error::{text_of_literal, Error};
use avax_data_core::index::{client::validate_id, IndexPath};
use avax_data_core::inputs::{chain_id, network, unix_seconds, ChainIdInput, TimeInput};
use avax_data_core::metrics::params as metrics;
use avax_data_core::plan::ServiceTier;
use avax_data_core::{dataset, rest, transport, Result};

/// The parameter and the value of a refusal (any other error fails the test).
fn refused<T: std::fmt::Debug>(result: Result<T>) -> (String, String) {
    match result {
        Err(Error::InvalidArgument { param, value, .. }) => (param, value),
        other => panic!("expected an InvalidArgument, got {other:?}"),
    }
}

#[test]
fn every_refused_text_is_quoted_and_reads_back_as_given() {
    let text = |t: &str| ChainIdInput::Text(t.into());
    let cases: Vec<(&str, &str, Result<()>)> = vec![
        ("chain_id", "", chain_id("chain_id", &text("")).map(drop)),
        ("chain_id", "18446744073709551616", chain_id("chain_id", &text("18446744073709551616")).map(drop)),
        ("chain_id", "..", data::segment("chain_id", "..").map(drop)),
        ("block_id", "a/b", data::segment("block_id", "a/b").map(drop)),
        ("block_id", "%2e%2e", data::segment("block_id", "%2e%2e").map(drop)),
        ("network", "devnet", network("devnet").map(drop)),
        ("start", "2024-01-01T12:00", unix_seconds("start", &TimeInput::Text("2024-01-01T12:00".into())).map(drop)),
        ("interval", "fortnight", metrics::Interval::parse("fortnight").map(drop)),
        ("metric", "txcount", metrics::metric("txcount").map(drop)),
        ("group_by", "both", metrics::group_by("both").map(drop)),
        ("tier", "enterprise", ServiceTier::parse("enterprise", "tier").map(drop)),
        ("path", "Y/tx", IndexPath::parse("Y/tx").map(drop)),
        ("id", "not-cb58", validate_id("not-cb58")),
        ("page_token", " ", rest::page_token(" ").map(drop)),
        ("sort_order", "up", data::sort_order("up").map(drop)),
        ("node_ids", "NodeID-0", data::node_id("NodeID-0").map(drop)),
        (
            "dir",
            "/nonexistent/a \"dataset\"",
            dataset::verify::verify(Path::new("/nonexistent/a \"dataset\"")).map(drop),
        ),
        (
            "ca_bundle",
            "/nonexistent/ca\n.pem",
            transport::tls::load_pem("ca_bundle", Path::new("/nonexistent/ca\n.pem")).map(drop),
        ),
    ];
    for (param, given, result) in cases {
        let (p, value) = refused(result);
        assert_eq!(p, param, "{given:?}");
        assert_eq!(value, format!("{given:?}"), "{param}");
        assert_eq!(text_of_literal(&value).as_deref(), Some(given), "{param}: {value}");
    }
}

#[test]
fn a_refused_number_is_written_bare() {
    for (param, given, result) in [
        ("chain_id", "-1", chain_id("chain_id", &ChainIdInput::Int(-1)).map(drop)),
        ("start", "-5", unix_seconds("start", &TimeInput::UnixSeconds(-5)).map(drop)),
        ("page_size", "101", data::page_size(101, 100).map(drop)),
    ] {
        let (p, value) = refused(result);
        assert_eq!((p.as_str(), value.as_str()), (param, given));
        assert_eq!(text_of_literal(&value), None, "a number is no text");
    }
}

#[test]
fn text_of_literal_is_the_inverse_of_the_quoting() {
    for given in
        ["", "..", "a\"b", "back\\slash", "tab\tnew\nline\r", "nul\0", "bell\u{7}", "zero\u{200b}width", "é ünï"]
    {
        assert_eq!(text_of_literal(&format!("{given:?}")).as_deref(), Some(given), "{given:?}");
    }
    for not_text in ["5000", "<bool>", "'..'", "\"", "\"a\"b\"", "\"bad \\q escape\"", "none", "\"\\u{110000}\""] {
        assert_eq!(text_of_literal(not_text), None, "{not_text}");
    }
}
