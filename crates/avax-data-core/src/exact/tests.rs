use super::*;

fn ok(text: &str) -> Exact {
    parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn err(text: &str) -> String {
    parse(text).expect_err(text).to_string()
}

fn obj(entries: &[(&str, Exact)]) -> Exact {
    Exact::Object(entries.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
}

#[test]
fn integers_are_exact_at_every_size_and_edge() {
    assert_eq!(ok("0"), Exact::Int(0));
    assert_eq!(ok("-0"), Exact::Int(0));
    assert_eq!(ok("9223372036854775807"), Exact::Int(i64::MAX));
    assert_eq!(ok("-9223372036854775808"), Exact::Int(i64::MIN));
    assert_eq!(ok("9223372036854775808"), Exact::UInt(1 << 63));
    assert_eq!(ok("18446744073709551615"), Exact::UInt(u64::MAX));
    assert_eq!(ok("18446744073709551616"), Exact::BigInt("18446744073709551616".into()));
    assert_eq!(ok("-9223372036854775809"), Exact::BigInt("-9223372036854775809".into()));
    let d38 = "9".repeat(38);
    let d39 = format!("-{}", "9".repeat(39));
    assert_eq!(ok(&d38), Exact::BigInt(d38.clone().into()));
    assert_eq!(ok(&d39), Exact::BigInt(d39.clone().into()));
    let huge = "1".repeat(5000);
    assert_eq!(ok(&huge), Exact::BigInt(huge.clone().into()));
    // Each writes back as it was read.
    for text in ["0", "-9223372036854775808", "18446744073709551615", &d38, &d39, "123456789012345678901234567890"] {
        assert_eq!(ok(text).to_string(), text);
    }
}

#[test]
fn floats_are_correctly_rounded_and_those_past_f64_refused() {
    assert_eq!(ok("1.5"), Exact::Float(1.5));
    assert_eq!(ok("1E2"), Exact::Float(100.0));
    assert_eq!(ok("-0.0"), Exact::Float(-0.0));
    assert_eq!(ok("1.7976931348623157e308"), Exact::Float(f64::MAX));
    assert_eq!(ok("-1.7976931348623157e308"), Exact::Float(f64::MIN));
    assert_eq!(ok("5e-324"), Exact::Float(5e-324));
    assert_eq!(ok("1e-400"), Exact::Float(0.0), "below the smallest magnitude reads as zero, as in Python");
    // A literal whose correctly rounded value differs from a quick parse.
    assert_eq!(ok("2.2250738585072011e-308"), Exact::Float(2.225_073_858_507_201e-308));
    assert_eq!(ok("0.30000000000000004"), Exact::Float(0.1 + 0.2));
    for text in ["1e400", "-1e400", "1.8e308", "123456789e400"] {
        assert_eq!(err(text), format!("{text} is past the range of a 64-bit float"));
    }
    // Floats write back with a `.` or an exponent, so they read back as floats.
    for x in [1.0, 1e300, -0.5, 5e-324, f64::MAX, 1e20] {
        assert_eq!(ok(&Exact::Float(x).to_string()), Exact::Float(x), "{x}");
    }
}

#[test]
fn strings_decode_escapes_and_pairs_and_refuse_lone_surrogates() {
    assert_eq!(ok(r#""plain""#), Exact::Str("plain".into()));
    assert_eq!(ok(r#""a\"b\\c\n\u00e9\/""#), Exact::Str("a\"b\\c\né/".into()));
    assert_eq!(ok(r#""\ud83d\ude00""#), Exact::Str("😀".into()), "a surrogate pair is one astral character");
    assert_eq!(ok("\"😀𝄞\""), Exact::Str("😀𝄞".into()));
    for (text, escape) in [
        (r#""\ud800""#, r"\ud800"),
        (r#""\udc00""#, r"\udc00"),
        (r#""x\ud83dy""#, r"\ud83d"),
        (r#""\ude00\ud83d""#, r"\ude00"),
        (r#""\ud83d\ude00\uDBFF\u0041""#, r"\uDBFF"),
        (r#""\\\ud800""#, r"\ud800"),
    ] {
        assert_eq!(err(text), format!("{text} is not valid text (lone surrogate escape {escape})"));
    }
    // An escaped backslash before `ud800` is text, not an escape.
    assert_eq!(ok(r#""\\ud800""#), Exact::Str(r"\ud800".into()));
    assert!(parse(r#""\x""#).is_err());
    assert_eq!(err(r#"{"k\ud800": 1}"#), r"not a JSON object with valid keys (lone surrogate escape \ud800)");
}

#[test]
fn a_key_given_twice_keeps_its_first_place_and_last_value() {
    assert_eq!(
        ok(r#"{"a": 1, "b": 2, "a": 3}"#),
        obj(&[("a", Exact::Int(3)), ("b", Exact::Int(2))]),
        "as json.loads: {{'a': 3, 'b': 2}}"
    );
    // Past the scan size, through the map: the same rule.
    let keys: Vec<String> = (0..40).map(|k| format!("\"k{}\": {k}", k % 20)).collect();
    let Exact::Object(entries) = ok(&format!("{{{}}}", keys.join(","))) else { panic!() };
    assert_eq!(entries.len(), 20);
    assert_eq!(entries[3], ("k3".to_string(), Exact::Int(23)));
    // An escaped key equals its plain spelling.
    assert_eq!(ok(r#"{"\u0061": 1, "a": 2}"#), obj(&[("a", Exact::Int(2))]));
    // The value a repeated key replaces is checked all the same.
    assert_eq!(err(r#"{"a": 1e400, "a": 1}"#), r#"field "a": 1e400 is past the range of a 64-bit float"#);
}

#[test]
fn errors_name_the_path_to_the_value() {
    assert_eq!(
        err(r#"{"ok": 1, "foo": {"bar": [1, 2, {"x": 1e400}]}}"#),
        r#"field "foo.bar[2].x": 1e400 is past the range of a 64-bit float"#
    );
    assert!(err(r#"[{"blockHash": "\ud800"}]"#).starts_with(r#"field "[0].blockHash": "\ud800" is not valid text"#));
    assert!(err("{").starts_with("not JSON ("));
    assert!(err("1 2").starts_with("not JSON ("));
    let deep = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert!(parse(&deep).is_ok());
    let deeper = format!("{}1{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    assert!(err(&deeper).ends_with("nested deeper than 128 arrays and objects"), "no stack overflow");
    let very_deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(parse(&very_deep).is_err());
}

#[test]
fn nested_values_read_and_write_back() {
    let text = r#"{"a":[1,-2.5,"x",true,false,null,{"b":{}}],"c":18446744073709551616,"d":[]}"#;
    let value = ok(text);
    assert_eq!(value.to_string(), text);
    assert_eq!(value.get("c"), Some(&Exact::BigInt("18446744073709551616".into())));
    assert_eq!(
        value.get("a").and_then(|a| if let Exact::Array(a) = a { a.first() } else { None }),
        Some(&Exact::Int(1))
    );
    assert!(value.get("zz").is_none() && Exact::Null.get("a").is_none());
    let mut value = value;
    assert_eq!(value.take("d"), Some(Exact::Array(vec![])));
    assert_eq!(value.get("d"), Some(&Exact::Null));
}

#[test]
fn check_applies_the_same_rule_without_keeping_the_value() {
    let raw = |t: &str| serde_json::from_str::<Box<RawValue>>(t).unwrap();
    use serde_json::value::RawValue;
    assert!(check(&raw("[1, {\"a\": \"\\ud83d\\ude00\"}, 1e308]")).is_ok());
    assert_eq!(check(&raw("1e400")).unwrap_err().to_string(), "1e400 is past the range of a 64-bit float");
    assert!(check(&raw(r#""\ud800""#)).unwrap_err().to_string().contains("surrogate"));
    assert_eq!(
        check(&raw(r#"{"a": [0, 1e999]}"#)).unwrap_err().to_string(),
        r#"field "a[1]": 1e999 is past the range of a 64-bit float"#
    );
}
