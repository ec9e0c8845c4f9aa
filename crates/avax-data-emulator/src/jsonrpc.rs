//! The node's JSON-RPC envelope: how a request body is read, how the method name is resolved,
//! how `params` reach a method's argument fields, and the bytes of the answers.
//!
//! Behaviour reproduced (see `spec/ground-truth.md`, "Index RPC"):
//! - only the first JSON value of the body is read; if it is not an object (bad syntax, an
//!   array, a scalar, nothing) the answer is `-32700`, sent even without an `id` (`"id":null`);
//! - `jsonrpc` other than `"2.0"` is `-32600 jsonrpc must be 2.0`;
//! - a request without `id` (or with `"id":null`) gets no body at all;
//! - `index.getIndex` is looked up as `index.GetIndex`; a name that is already capitalised, has
//!   the wrong service or is not `service.method` gets the node's `rpc: ...` message;
//! - `params` is an object (keys matched case-insensitively, unknown keys ignored) or an array
//!   whose first element is that object; absent params leave every argument at its zero value;
//! - the answer echoes the request `id` as sent and ends with a newline.

use serde::Serialize;
use serde_json::value::RawValue;

use super::raw_json::{self, Kind};

/// JSON-RPC code of a body that is not a JSON object.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC code of an envelope whose `jsonrpc` is not `2.0`.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC code of every method error.
pub(crate) const SERVER_ERROR: i64 = -32000;

/// The node's message for any argument that does not decode.
pub(crate) const BAD_ARGUMENT: &str =
    "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

/// The request envelope, as far as it was decoded. Serialised, it is the `data` the node
/// attaches to envelope errors.
#[derive(Debug, Default, Serialize)]
pub(crate) struct RpcRequest<'a> {
    #[serde(rename = "jsonrpc")]
    pub(crate) version: String,
    pub(crate) method: String,
    /// `None` when absent or `null`.
    pub(crate) params: Option<&'a RawValue>,
    /// `None` when absent or `null`: a notification, answered with an empty body.
    pub(crate) id: Option<&'a RawValue>,
}

/// Index in `fields` of the field a JSON key sets: an exact match, else one ignoring ASCII case.
fn field_for(fields: &[&str], key: &str) -> Option<usize> {
    let exact = fields.iter().position(|field| *field == key);
    exact.or_else(|| fields.iter().position(|field| field.eq_ignore_ascii_case(key)))
}

/// Reads the envelope. On failure, returns `(code, message)` with whatever was read before it.
pub(crate) fn decode_request(body: &[u8]) -> (RpcRequest<'_>, Option<(i64, String)>) {
    let mut request = RpcRequest::default();
    let value = match raw_json::first_value(body) {
        Ok(value) => value,
        Err(message) => return (request, Some((PARSE_ERROR, message))),
    };
    let mut wrong_type = None;
    match Kind::of(value) {
        Kind::Null => {}
        Kind::Object => {
            for (key, member) in raw_json::members(value) {
                const ENVELOPE: [&str; 4] = ["jsonrpc", "method", "params", "id"];
                let present = (Kind::of(member) != Kind::Null).then_some(member);
                match field_for(&ENVELOPE, &key) {
                    Some(2) => request.params = present,
                    Some(3) => request.id = present,
                    Some(text_field) => {
                        let slot = if text_field == 0 { &mut request.version } else { &mut request.method };
                        if let Err(kind) = read_text(member, slot) {
                            let name = ENVELOPE[text_field];
                            wrong_type.get_or_insert_with(|| {
                                format!("json: cannot unmarshal {kind} into Go struct field serverRequest.{name} of type string")
                            });
                        }
                    }
                    None => {}
                }
            }
        }
        other => {
            let kind = other.word();
            wrong_type = Some(format!("json: cannot unmarshal {kind} into Go value of type json2.serverRequest"));
        }
    }
    if let Some(message) = wrong_type {
        return (request, Some((PARSE_ERROR, message)));
    }
    if request.version != "2.0" {
        return (request, Some((INVALID_REQUEST, "jsonrpc must be 2.0".to_string())));
    }
    (request, None)
}

/// Stores a string member in `slot` (`null` leaves it as it is); any other type is refused with
/// its name.
fn read_text(member: &RawValue, slot: &mut String) -> Result<(), &'static str> {
    match Kind::of(member) {
        Kind::Null => Ok(()),
        Kind::String => {
            *slot = serde_json::from_str(member.get()).unwrap_or_default();
            Ok(())
        }
        other => Err(other.word()),
    }
}

/// Finds which of `methods` (capitalised names such as `GetIndex`) of `service` the request's
/// `method` names, or returns the node's error message.
pub(crate) fn resolve_method(method: &str, service: &str, methods: &[&'static str]) -> Result<&'static str, String> {
    let name = capitalise_after_dot(method)?;
    let mut parts = name.split('.');
    let (Some(wanted_service), Some(wanted_method), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("rpc: service/method request ill-formed: {name:?}"));
    };
    if wanted_service != service {
        return Err(format!("rpc: can't find service {name:?}"));
    }
    match methods.iter().find(|known| **known == wanted_method) {
        Some(known) => Ok(known),
        None => Err(format!("rpc: can't find method {name:?}")),
    }
}

/// `index.getIndex` -> `index.GetIndex`; a letter that is already upper case there is refused.
/// Names without a dot, or with nothing after it, are left alone.
fn capitalise_after_dot(method: &str) -> Result<String, String> {
    let Some((head, tail)) = method.split_once('.') else { return Ok(method.to_string()) };
    let Some(first) = tail.chars().next() else { return Ok(method.to_string()) };
    if first.is_uppercase() {
        return Err("method must start with a non-uppercase letter".to_string());
    }
    let mut upper = first.to_uppercase();
    let capital = match (upper.next(), upper.next()) {
        (Some(single), None) => single,
        _ => first, // no one-character capital: keep the letter
    };
    Ok(format!("{head}.{capital}{}", &tail[first.len_utf8()..]))
}

/// Feeds `params` to a method's argument fields, named `fields`: `set(field, raw)` parses one
/// field from its raw JSON text, and its first failure fails the whole call. `Err(())` means
/// [`BAD_ARGUMENT`].
pub(crate) fn decode_params<'a>(
    params: Option<&'a RawValue>,
    fields: &[&str],
    mut set: impl FnMut(usize, &'a [u8]) -> Result<(), ()>,
) -> Result<(), ()> {
    let Some(params) = params else { return Ok(()) };
    let object = match Kind::of(params) {
        Kind::Object => params,
        Kind::Array => match raw_json::first_element(params) {
            None => return Ok(()),
            Some(first) => match Kind::of(first) {
                Kind::Null => return Ok(()),
                Kind::Object => first,
                _ => return Err(()),
            },
        },
        _ => return Err(()),
    };
    for (key, value) in raw_json::members(object) {
        if let Some(field) = field_for(fields, &key) {
            set(field, value.get().as_bytes())?;
        }
    }
    Ok(())
}

/// Starts a success answer; the result JSON is appended next, then [`finish`].
pub(crate) fn start_result(out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"result\":");
}

/// Ends an answer started with [`start_result`] with the request's `id`.
pub(crate) fn finish(out: &mut Vec<u8>, id: Option<&RawValue>) {
    out.extend_from_slice(b",\"id\":");
    out.extend_from_slice(id.map_or("null", RawValue::get).as_bytes());
    out.extend_from_slice(b"}\n");
}

/// A whole error answer. `data` is the request for envelope errors (`-32700`, `-32600`) and
/// `None` for method errors (`"data":null`).
pub(crate) fn error_response(
    id: Option<&RawValue>,
    code: i64,
    message: &str,
    data: Option<&RpcRequest<'_>>,
) -> Vec<u8> {
    #[derive(Serialize)]
    struct Answer<'a> {
        jsonrpc: &'static str,
        error: Failure<'a>,
        id: Option<&'a RawValue>,
    }
    #[derive(Serialize)]
    struct Failure<'a> {
        code: i64,
        message: &'a str,
        data: Option<&'a RpcRequest<'a>>,
    }
    let answer = Answer { jsonrpc: "2.0", error: Failure { code, message, data }, id };
    let mut out = serde_json::to_vec(&answer).expect("strings and raw JSON always serialise");
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const METHODS: &[&str] = &["GetIndex", "IsAccepted"];

    fn text(raw: Option<&RawValue>) -> Option<&str> {
        raw.map(RawValue::get)
    }

    #[test]
    fn the_envelope_is_read_from_the_first_value() {
        let body = br#" {"JSONRPC":"2.0","Method":"index.getIndex","params":{"id":"x"},"id":[1, 2]} junk"#;
        let (r, e) = decode_request(body);
        assert_eq!(e, None);
        assert_eq!((r.version.as_str(), r.method.as_str()), ("2.0", "index.getIndex"));
        assert_eq!(text(r.params), Some(r#"{"id":"x"}"#));
        assert_eq!(text(r.id), Some("[1, 2]"));

        let (r, e) = decode_request(br#"{"jsonrpc":"2.0","method":"m","id":null,"params":null}"#);
        assert!(e.is_none() && r.id.is_none() && r.params.is_none());
    }

    #[test]
    fn envelope_failures() {
        let error = |body: &[u8]| decode_request(body).1;
        let not_object = "json: cannot unmarshal array into Go value of type json2.serverRequest";
        assert_eq!(error(b"[1]"), Some((PARSE_ERROR, not_object.into())));
        assert_eq!(error(b""), Some((PARSE_ERROR, "EOF".into())));
        assert_eq!(error(b"{\"jsonrpc\":"), Some((PARSE_ERROR, "unexpected EOF".into())));
        assert_eq!(error(b"{oops"), Some((PARSE_ERROR, "invalid JSON at line 1 column 2".into())));

        let (r, e) = decode_request(br#"{"jsonrpc":2,"id":5}"#);
        let message = "json: cannot unmarshal number into Go struct field serverRequest.jsonrpc of type string";
        assert_eq!(e, Some((PARSE_ERROR, message.into())));
        assert_eq!(text(r.id), Some("5"), "the id is still known");

        assert_eq!(error(br#"{"jsonrpc":"1.0","id":5}"#), Some((INVALID_REQUEST, "jsonrpc must be 2.0".into())));
        let (r, e) = decode_request(b"null");
        assert_eq!(e, Some((INVALID_REQUEST, "jsonrpc must be 2.0".into())));
        assert!(r.id.is_none());
    }

    #[test]
    fn method_names_resolve_like_the_node() {
        let resolve = |name: &str| resolve_method(name, "index", METHODS);
        assert_eq!(resolve("index.getIndex"), Ok("GetIndex"));
        assert_eq!(resolve("index.foo"), Err("rpc: can't find method \"index.Foo\"".into()));
        assert_eq!(resolve("index.GetIndex"), Err("method must start with a non-uppercase letter".into()));
        assert_eq!(resolve("avm.getTx"), Err("rpc: can't find service \"avm.GetTx\"".into()));
        assert_eq!(resolve("getIndex"), Err("rpc: service/method request ill-formed: \"getIndex\"".into()));
        assert_eq!(resolve(""), Err("rpc: service/method request ill-formed: \"\"".into()));
        assert_eq!(resolve("index.a.b"), Err("rpc: service/method request ill-formed: \"index.A.b\"".into()));
        assert_eq!(resolve("index."), Err("rpc: can't find method \"index.\"".into()));
    }

    #[test]
    fn params_reach_the_fields() {
        let fields = ["index", "encoding"];
        let run = |params: &str| {
            let params: &RawValue = serde_json::from_str(params).unwrap();
            let mut seen = Vec::new();
            let outcome = decode_params(Some(params), &fields, |field, raw| {
                seen.push((field, String::from_utf8(raw.to_vec()).unwrap()));
                if raw == b"\"bad\"" {
                    Err(())
                } else {
                    Ok(())
                }
            });
            (outcome, seen)
        };
        assert_eq!(
            run(r#"{"INDEX":5,"other":1,"encoding":"hex"}"#),
            (Ok(()), vec![(0, "5".into()), (1, "\"hex\"".into())])
        );
        assert_eq!(run(r#"[{"index":"7"}, 3]"#), (Ok(()), vec![(0, "\"7\"".into())]));
        assert_eq!(run("[]").0, Ok(()));
        assert_eq!(run("[null]").0, Ok(()));
        assert_eq!(run("[5]").0, Err(()));
        assert_eq!(run("\"x\"").0, Err(()));
        assert_eq!(run(r#"{"index":"bad"}"#).0, Err(()));
        assert_eq!(decode_params(None, &fields, |_, _| Err(())), Ok(()));
    }

    #[test]
    fn answers_are_byte_exact() {
        let id: &RawValue = serde_json::from_str(" \"a<b\" ").unwrap();
        let mut out = Vec::new();
        start_result(&mut out);
        out.extend_from_slice(b"{\"index\":\"7\"}");
        finish(&mut out, Some(id));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"jsonrpc\":\"2.0\",\"result\":{\"index\":\"7\"},\"id\":\"a<b\"}\n"
        );

        let one: &RawValue = serde_json::from_str("1").unwrap();
        let out = error_response(Some(one), SERVER_ERROR, "not \"found\"", None);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"not \\\"found\\\"\",\"data\":null},\"id\":1}\n"
        );

        let (request, _) = decode_request(b"[");
        let out = error_response(None, PARSE_ERROR, "unexpected EOF", Some(&request));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"unexpected EOF\",\"data\":{\"jsonrpc\":\"\",\"method\":\"\",\"params\":null,\"id\":null}},\"id\":null}\n"
        );
    }
}
