//! The JSON-RPC 2.0 envelope of the index API and the mapping of its errors.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::container::WireContainer;
use crate::error::{Error, RpcErrorKind};

/// A JSON-RPC error object.
#[derive(Debug, Deserialize)]
pub struct RpcErrorObject<'a> {
    /// Error code (-32000 for every method error).
    pub code: i64,
    /// The node's message.
    #[serde(borrow)]
    pub message: Cow<'a, str>,
}

/// A JSON-RPC response: `result` or `error`.
#[derive(Debug, Deserialize)]
pub struct Envelope<'a, R> {
    /// The result, absent on error (or `null`).
    #[serde(default = "none")]
    pub result: Option<R>,
    /// The error, absent on success.
    #[serde(borrow, default)]
    pub error: Option<RpcErrorObject<'a>>,
}

fn none<R>() -> Option<R> {
    None
}

/// Builds the request body of a call.
pub fn request_body(id: u64, method: &str, params: serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
        .expect("a JSON value always serializes")
}

/// Decodes a response body into its result, mapping JSON-RPC errors and malformed bodies.
/// `Ok(None)` means `"result": null`.
pub fn parse_response<'a, R: Deserialize<'a>>(body: &'a [u8], method: &str, url: &str) -> Result<Option<R>, Error> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::Decode {
            message: format!("{method} answered HTTP 200 with an empty body (a request without an id gets one)"),
            url: url.to_string(),
            body: String::new(),
        });
    }
    let envelope: Envelope<'a, R> = serde_json::from_slice(body).map_err(|e| {
        let what = format!("{method} answered with a body that is not a JSON-RPC response");
        crate::transport::json_error(&e, &what, "POST", url, body)
    })?;
    if let Some(err) = envelope.error {
        return Err(Error::Rpc {
            kind: RpcErrorKind::classify(err.code, &err.message),
            code: err.code,
            message: err.message.into_owned(),
            method: method.to_string(),
            url: url.to_string(),
        });
    }
    Ok(envelope.result)
}

/// At most the first 2 KiB of a body, for error messages.
pub fn snippet(body: &[u8]) -> String {
    const MAX: usize = 2048;
    let text = String::from_utf8_lossy(&body[..body.len().min(MAX)]).into_owned();
    if body.len() > MAX {
        format!("{text}... ({} bytes in all)", body.len())
    } else {
        text
    }
}

/// The result of `getContainerRange` in every form nodes have used: `{"containers":[...]}`, a bare
/// array, or `null` (handled by the enclosing `Option`).
#[derive(Debug, Default)]
pub struct RangeResult<'a>(pub Vec<WireContainer<'a>>);

impl<'de: 'a, 'a> Deserialize<'de> for RangeResult<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RangeVisitor<'a>(std::marker::PhantomData<&'a ()>);
        struct Containers<'a>(std::marker::PhantomData<&'a ()>);

        impl<'de: 'a, 'a> DeserializeSeed<'de> for Containers<'a> {
            type Value = Vec<WireContainer<'a>>;
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                Ok(Option::<Vec<WireContainer<'a>>>::deserialize(d)?.unwrap_or_default())
            }
        }

        impl<'de: 'a, 'a> Visitor<'de> for RangeVisitor<'a> {
            type Value = RangeResult<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("{\"containers\": [...]}, an array of containers, or null")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(c) = seq.next_element::<WireContainer<'a>>()? {
                    out.push(c);
                }
                Ok(RangeResult(out))
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                let mut containers = None;
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    if key == "containers" {
                        containers = Some(map.next_value_seed(Containers(std::marker::PhantomData))?);
                    } else {
                        map.next_value::<de::IgnoredAny>()?;
                    }
                }
                containers.map(RangeResult).ok_or_else(|| de::Error::missing_field("containers"))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(RangeResult(Vec::new()))
            }
        }

        deserializer.deserialize_any(RangeVisitor(std::marker::PhantomData))
    }
}

/// `{"index": "7"}` of `getIndex`.
#[derive(Debug, Deserialize)]
pub struct IndexResult<'a> {
    /// The index (string or number).
    #[serde(borrow)]
    pub index: super::container::U64Field<'a>,
}

/// `{"isAccepted": true}` of `isAccepted`.
#[derive(Debug, Deserialize)]
pub struct IsAcceptedResult {
    /// Whether the id is in the index.
    #[serde(rename = "isAccepted")]
    pub is_accepted: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    const C: &str = r#"{"id":"ZGYTSU8w3zUP6VFseGC798vA2Vnxnfj6fz1QPfA9N93bhjJvo","bytes":"0x00","timestamp":"2021-11-04T00:42:55.01643414Z","encoding":"hex","index":"1"}"#;

    fn range(body: &str) -> Result<usize, Error> {
        parse_response::<RangeResult>(body.as_bytes(), "index.getContainerRange", "u")
            .map(|r| r.map_or(0, |r| r.0.len()))
    }

    #[test]
    fn range_result_in_all_three_forms() {
        assert_eq!(range(&format!(r#"{{"jsonrpc":"2.0","result":{{"containers":[{C},{C}]}},"id":1}}"#)).unwrap(), 2);
        assert_eq!(range(&format!(r#"{{"jsonrpc":"2.0","result":[{C}],"id":1}}"#)).unwrap(), 1);
        assert_eq!(range(r#"{"jsonrpc":"2.0","result":null,"id":1}"#).unwrap(), 0);
        assert_eq!(range(r#"{"jsonrpc":"2.0","result":{"containers":null},"id":1}"#).unwrap(), 0);
        assert!(matches!(range(r#"{"jsonrpc":"2.0","result":{"other":1},"id":1}"#), Err(Error::Decode { .. })));
    }

    #[test]
    fn errors_are_typed_by_their_exact_message() {
        let cases = [
            (-32000, "not found", RpcErrorKind::NotFound),
            (-32000, "no container at index 12", RpcErrorKind::PastTip),
            (-32000, "start index (20) > last accepted index (9)", RpcErrorKind::PastTip),
            (-32000, "no containers have been accepted", RpcErrorKind::EmptyIndex),
            (-32000, "numToFetch must be in [1,1024] but is 1025", RpcErrorKind::FetchLimit),
            (-32000, "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls", RpcErrorKind::BadArgument),
            (-32000, "rpc: can't find method \"index.Foo\"", RpcErrorKind::MethodNotFound),
            (-32600, "jsonrpc must be 2.0", RpcErrorKind::InvalidRequest),
            (-32700, "unexpected EOF", RpcErrorKind::ParseError),
            (-32000, "database closed", RpcErrorKind::Other),
        ];
        for (code, message, kind) in cases {
            let body = serde_json::json!({"jsonrpc":"2.0","error":{"code":code,"message":message,"data":null},"id":1})
                .to_string();
            match parse_response::<IsAcceptedResult>(body.as_bytes(), "index.isAccepted", "http://n") {
                Err(Error::Rpc { kind: k, code: c, message: m, method, .. }) => {
                    assert_eq!((k, c, m.as_str(), method.as_str()), (kind, code, message, "index.isAccepted"));
                }
                other => panic!("{message}: {other:?}"),
            }
        }
    }

    #[test]
    fn empty_and_malformed_bodies_are_decode_errors() {
        let err = parse_response::<IsAcceptedResult>(b"", "index.isAccepted", "u").unwrap_err();
        assert!(err.to_string().contains("empty body"), "{err}");
        let err = parse_response::<IsAcceptedResult>(b"<html>", "index.isAccepted", "u").unwrap_err();
        assert!(matches!(err, Error::Decode { ref body, .. } if body == "<html>"), "{err:?}");
        // a body that ends early is a broken connection (retried), not a decode error
        let err = parse_response::<IsAcceptedResult>(br#"{"jsonrpc":"2.0","result":{"isAcc"#, "index.isAccepted", "u")
            .unwrap_err();
        assert!(
            matches!(err, Error::Transport { kind: crate::error::TransportKind::Io, .. }) && err.is_retryable(),
            "{err:?}"
        );
        let err = parse_response::<IsAcceptedResult>(
            br#"{"jsonrpc":"2.0","result":{"isAccepted":tru}}"#,
            "index.isAccepted",
            "u",
        )
        .unwrap_err();
        assert!(matches!(err, Error::Decode { .. }), "{err:?}");
    }

    #[test]
    fn request_body_is_a_json_rpc_2_object_with_an_id() {
        let body: serde_json::Value =
            serde_json::from_slice(&request_body(7, "index.getIndex", serde_json::json!({"id":"x"}))).unwrap();
        assert_eq!(body["jsonrpc"], "2.0");
        assert_eq!(body["id"], 7);
        assert_eq!(body["method"], "index.getIndex");
        assert_eq!(body["params"]["id"], "x");
    }
}
