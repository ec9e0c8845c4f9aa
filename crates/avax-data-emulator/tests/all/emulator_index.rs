//! The emulator's Index RPC, checked over real HTTP against the node behaviour in
//! `spec/ground-truth.md` (and avalanchego's / gorilla-rpc's source where it is silent).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use avax_data_core::index::cb58;
use avax_data_core::index::container::{parse_timestamp_ns, WireContainer};
use avax_data_core::index::{Container, IndexPath, Verify};
use avax_data_emulator::{formats, Emulator, EmulatorConfig};
use serde_json::{json, Value};

const BAD_ARGUMENT: &str =
    "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

async fn start(config: EmulatorConfig) -> Emulator {
    Emulator::start(config).await.expect("emulator starts")
}

async fn start_default() -> Emulator {
    start(EmulatorConfig { seed: 42, default_count: 1000, ..Default::default() }).await
}

fn client() -> reqwest::Client {
    reqwest::Client::new()
}

/// A raw HTTP exchange: (status, content-type, body).
async fn raw(
    emu: &Emulator,
    method: reqwest::Method,
    path: &str,
    content_type: Option<&str>,
    body: &str,
) -> (u16, Option<String>, String) {
    let mut request = client().request(method, format!("{}{}", emu.url(), path)).body(body.to_string());
    if let Some(ct) = content_type {
        request = request.header("content-type", ct);
    }
    let response = request.send().await.expect("request sent");
    let status = response.status().as_u16();
    let ct = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_string());
    (status, ct, response.text().await.unwrap())
}

/// POSTs a JSON-RPC body to an index path; returns the parsed 200 answer.
async fn post(emu: &Emulator, path: IndexPath, body: &Value) -> Value {
    let (status, ct, text) =
        raw(emu, reqwest::Method::POST, &path.url_path(), Some("application/json"), &body.to_string()).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(ct.as_deref(), Some("application/json; charset=utf-8"));
    assert!(text.ends_with("}\n"), "Go's encoder ends with a newline: {text:?}");
    serde_json::from_str(&text).unwrap()
}

async fn call(emu: &Emulator, path: IndexPath, method: &str, params: Value) -> Value {
    post(emu, path, &json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})).await
}

async fn result(emu: &Emulator, path: IndexPath, method: &str, params: Value) -> Value {
    let answer = call(emu, path, method, params.clone()).await;
    assert!(answer.get("error").is_none(), "{method} {params}: {answer}");
    answer["result"].clone()
}

/// [`method_error`] for each (method, params, message) of `cases`, in order.
async fn method_errors<const N: usize>(emu: &Emulator, path: IndexPath, cases: [(&str, Value, &str); N]) {
    for (method, params, message) in cases {
        method_error(emu, path, method, params, message).await;
    }
}

/// Asserts a -32000 method error with this exact message and `data: null`.
async fn method_error(emu: &Emulator, path: IndexPath, method: &str, params: Value, message: &str) {
    let answer = call(emu, path, method, params.clone()).await;
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "error": {"code": -32000, "message": message, "data": null}, "id": 1}),
        "{method} {params}"
    );
}

fn be32(b: &[u8], at: usize) -> usize {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

/// Where the signature length of a typeID 0/2 proposervm envelope starts, if `bytes` is one.
fn signed_envelope_end(bytes: &[u8]) -> Option<usize> {
    let at = |i: usize| bytes.get(i..i + 4).map(|b| u32::from_be_bytes(b.try_into().unwrap()) as usize);
    if bytes.get(..2) != Some(&[0, 0]) {
        return None;
    }
    let type_id = at(2)?;
    if type_id != 0 && type_id != 2 {
        return None;
    }
    let c = at(54)?;
    let l = at(58usize.checked_add(c)?)?;
    let end = 62usize.checked_add(c)?.checked_add(l)? + if type_id == 2 { 24 } else { 0 };
    (end.checked_add(4)?.checked_add(at(end)?)? == bytes.len()).then_some(end)
}

/// The id a container's bytes give by the rule of its kind (FORMATS.md §2-§4): a raw coreth
/// block (an RLP list) is keccak256 of its header item; a proposervm envelope (codec version
/// `0000`, typeID 0 or 2) is sha256 of everything but the signature and its length. Random
/// containers (X/vtx, and the paths without a real encoder yet) are sha256 of all bytes.
fn id_by_kind(path: IndexPath, bytes: &[u8]) -> [u8; 32] {
    match path {
        IndexPath::XTx | IndexPath::XVtx => return cb58::sha256(bytes),
        IndexPath::PBlock | IndexPath::XBlock => {
            // An envelope of typeID 0/2 whose lengths add up exactly; else (option blocks, raw
            // pre-fork blocks) sha256 of all bytes.
            return match signed_envelope_end(bytes) {
                Some(end) => cb58::sha256(&bytes[..end]),
                None => cb58::sha256(bytes),
            };
        }
        IndexPath::CBlock => {}
    }
    if bytes[0] >= 0xf8 {
        let outer = 1 + (bytes[0] - 0xf7) as usize;
        let h = &bytes[outer..];
        assert!(h[0] >= 0xf8, "the header is a long list");
        let n = (h[0] - 0xf7) as usize;
        let len = h[1..1 + n].iter().fold(0usize, |a, &b| a << 8 | b as usize);
        return avax_data_emulator::formats::coreth::keccak256(&h[..1 + n + len]);
    }
    assert_eq!(&bytes[..2], &[0, 0]);
    let type_id = be32(bytes, 2);
    let c = be32(bytes, 54);
    let l = be32(bytes, 58 + c);
    let end = 62 + c + l + if type_id == 2 { 24 } else { 0 };
    assert_eq!(end + 4 + be32(bytes, end), bytes.len(), "no trailing bytes");
    cb58::sha256(&bytes[..end])
}

/// Decodes a served container: checks its checksum and its id by the rule of its kind.
fn decode_on(path: IndexPath, wire: &Value) -> Container {
    let text = wire.to_string();
    let c = serde_json::from_str::<WireContainer>(&text)
        .unwrap()
        .decode(Verify::default(), path)
        .expect("checksum and the client's id rule verify");
    assert_eq!(c.id, cb58::encode(&id_by_kind(path, &c.bytes)), "{path} #{}", c.index);
    c
}

/// Asserts that a served container is exactly the one the emulator says it serves.
fn assert_served(emu: &Emulator, path: IndexPath, wire: &Value, index: u64) {
    let (expected, timestamp) = emu.expected_container(path, index).expect("within the tip");
    assert_eq!(wire, &expected.to_wire_json(&timestamp), "{path} #{index}");
    assert_eq!(decode_on(path, wire), expected);
    assert_eq!(wire["index"], json!(index.to_string()));
    assert_eq!(wire["encoding"], "hex");
}

fn unknown_id() -> String {
    cb58::encode(&cb58::sha256(b"no such container"))
}

#[test]
fn the_emulator_handle_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Emulator>();
    assert_send_sync::<EmulatorConfig>();
}

#[tokio::test(flavor = "multi_thread")]
async fn every_method_answers_on_every_path() {
    let emu = start_default().await;
    for path in IndexPath::ALL {
        let last = result(&emu, path, "index.getLastAccepted", json!({"encoding": "hex"})).await;
        assert_served(&emu, path, &last, 999);

        let first = result(&emu, path, "index.getContainerByIndex", json!({"index": 0, "encoding": "hex"})).await;
        assert_served(&emu, path, &first, 0);

        let range =
            result(&emu, path, "index.getContainerRange", json!({"startIndex": 3, "numToFetch": 5, "encoding": "hex"}))
                .await;
        let containers = range["containers"].as_array().expect("{\"containers\":[...]}");
        assert_eq!(containers.len(), 5);
        for (k, wire) in containers.iter().enumerate() {
            assert_served(&emu, path, wire, 3 + k as u64);
        }

        let id = containers[2]["id"].as_str().unwrap().to_string();
        let by_id = result(&emu, path, "index.getContainerByID", json!({"id": id, "encoding": "hex"})).await;
        assert_served(&emu, path, &by_id, 5);
        assert_eq!(result(&emu, path, "index.getIndex", json!({"id": id})).await, json!({"index": "5"}));
        assert_eq!(result(&emu, path, "index.isAccepted", json!({"id": id})).await, json!({"isAccepted": true}));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn ids_of_another_path_are_not_found() {
    let emu = start_default().await;
    let c_id = emu.expected_container(IndexPath::CBlock, 4).unwrap().0.id;
    assert_eq!(
        result(&emu, IndexPath::PBlock, "index.isAccepted", json!({"id": c_id})).await,
        json!({"isAccepted": false})
    );
    method_error(&emu, IndexPath::XTx, "index.getIndex", json!({"id": c_id}), "not found").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn non_post_methods_get_405() {
    let emu = start_default().await;
    for (method, name) in
        [(reqwest::Method::GET, "GET"), (reqwest::Method::PUT, "PUT"), (reqwest::Method::DELETE, "DELETE")]
    {
        let (status, ct, body) = raw(&emu, method, "/ext/index/C/block", Some("application/json"), "{}").await;
        assert_eq!(status, 405);
        assert_eq!(body, format!("rpc: POST method required, received {name}"));
        assert_eq!(ct.as_deref(), Some("text/plain; charset=utf-8"));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn content_type_must_be_application_json() {
    let emu = start_default().await;
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "index.getLastAccepted", "params": {}}).to_string();
    let path = "/ext/index/X/tx";
    let (status, _, text) = raw(&emu, reqwest::Method::POST, path, None, &body).await;
    assert_eq!((status, text.as_str()), (415, "rpc: unrecognized Content-Type: "));
    let (status, _, text) = raw(&emu, reqwest::Method::POST, path, Some("text/plain"), &body).await;
    assert_eq!((status, text.as_str()), (415, "rpc: unrecognized Content-Type: text/plain"));
    let (status, _, text) = raw(&emu, reqwest::Method::POST, path, Some("text/plain; charset=utf-8"), &body).await;
    assert_eq!((status, text.as_str()), (415, "rpc: unrecognized Content-Type: text/plain"));
    for accepted in ["application/json; charset=utf-8", "Application/JSON", "application/json;charset=UTF-8"] {
        let (status, _, text) = raw(&emu, reqwest::Method::POST, path, Some(accepted), &body).await;
        assert_eq!(status, 200, "{accepted}");
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(answer["result"]["index"], "999", "{accepted}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_body_that_is_not_an_object_is_a_parse_error() {
    let emu = start_default().await;
    let cases = [
        (
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"index.getLastAccepted\"}]",
            "json: cannot unmarshal array into Go value of type json2.serverRequest",
        ),
        ("{oops", "invalid JSON at line 1 column 2"),
        ("\"text\"", "json: cannot unmarshal string into Go value of type json2.serverRequest"),
        ("", "EOF"),
        ("{\"jsonrpc\":\"2.0\"", "unexpected EOF"),
    ];
    for (body, message) in cases {
        let (status, ct, text) =
            raw(&emu, reqwest::Method::POST, "/ext/index/P/block", Some("application/json"), body).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(ct.as_deref(), Some("application/json; charset=utf-8"));
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(answer["jsonrpc"], "2.0");
        assert_eq!(answer["id"], Value::Null, "{body}");
        assert_eq!(answer["error"]["code"], -32700, "{body}");
        assert_eq!(answer["error"]["message"], message, "{body}");
        assert!(answer.get("result").is_none());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn jsonrpc_must_be_2_0() {
    let emu = start_default().await;
    let answer = post(
        &emu,
        IndexPath::CBlock,
        &json!({"jsonrpc": "1.0", "id": 9, "method": "index.getLastAccepted", "params": {}}),
    )
    .await;
    assert_eq!(answer["error"]["code"], -32600);
    assert_eq!(answer["error"]["message"], "jsonrpc must be 2.0");
    assert_eq!(answer["id"], 9);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_request_without_id_gets_an_empty_body() {
    let emu = start_default().await;
    let bodies = [
        json!({"jsonrpc": "2.0", "method": "index.getLastAccepted", "params": {}}),
        json!({"jsonrpc": "2.0", "id": null, "method": "index.getLastAccepted", "params": {}}),
        json!({"jsonrpc": "2.0", "method": "index.nope", "params": {}}),
        json!({"jsonrpc": "2.0", "method": "index.getContainerByIndex", "params": {"index": "x"}}),
        json!({"jsonrpc": "1.0", "method": "index.getLastAccepted"}),
    ];
    for body in bodies {
        let (status, _, text) =
            raw(&emu, reqwest::Method::POST, "/ext/index/C/block", Some("application/json"), &body.to_string()).await;
        assert_eq!((status, text.as_str()), (200, ""), "{body}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_arguments_have_the_node_message() {
    let emu = start_default().await;
    let short_id = cb58::encode(&[7u8; 20]);
    let mut corrupted = emu.expected_container(IndexPath::XTx, 1).unwrap().0.id;
    let last = corrupted.pop().unwrap();
    corrupted.push(if last == '2' { '3' } else { '2' });
    let cases = [
        ("index.getContainerByID", json!({"id": "not-cb58!", "encoding": "hex"})),
        ("index.getContainerByID", json!({"id": short_id, "encoding": "hex"})),
        ("index.getContainerByID", json!({"id": corrupted})),
        ("index.getIndex", json!({"id": ""})),
        ("index.isAccepted", json!({"id": 12})),
        ("index.getContainerByIndex", json!({"index": 1, "encoding": "cb58"})),
        ("index.getLastAccepted", json!({"encoding": "base64"})),
        ("index.getContainerByIndex", json!({"index": -1})),
        ("index.getContainerByIndex", json!({"index": 1.5})),
        ("index.getContainerByIndex", json!({"index": "abc"})),
        ("index.getContainerByIndex", json!({"index": "18446744073709551616"})),
        ("index.getContainerRange", json!({"startIndex": {}, "numToFetch": 1})),
        ("index.getContainerRange", json!({"startIndex": 0, "numToFetch": true})),
        ("index.getLastAccepted", json!("hex")),
        ("index.getLastAccepted", json!([1])),
    ];
    for (method, params) in cases {
        let answer =
            post(&emu, IndexPath::XTx, &json!({"jsonrpc": "2.0", "id": "req-7", "method": method, "params": params}))
                .await;
        assert_eq!(
            answer,
            json!({"jsonrpc": "2.0", "error": {"code": -32000, "message": BAD_ARGUMENT, "data": null}, "id": "req-7"}),
            "{method} {params}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn encoding_defaults_to_hex_and_ignores_case() {
    let emu = start_default().await;
    let path = IndexPath::PBlock;
    for params in [json!({"index": 2}), json!({"index": 2, "encoding": "HEX"}), json!({"index": 2, "encoding": null})] {
        let wire = result(&emu, path, "index.getContainerByIndex", params).await;
        assert_served(&emu, path, &wire, 2);
    }
    // Missing params altogether: Go's zero values (index 0, hex).
    let answer = post(&emu, path, &json!({"jsonrpc": "2.0", "id": 3, "method": "index.getContainerByIndex"})).await;
    assert_served(&emu, path, &answer["result"], 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn numeric_arguments_may_be_strings_and_params_an_array() {
    let emu = start_default().await;
    let path = IndexPath::XBlock;
    let wire = result(&emu, path, "index.getContainerByIndex", json!({"index": "41", "encoding": "hex"})).await;
    assert_served(&emu, path, &wire, 41);
    let range = result(&emu, path, "index.getContainerRange", json!({"startIndex": "2", "numToFetch": "3"})).await;
    let indexes: Vec<&str> =
        range["containers"].as_array().unwrap().iter().map(|c| c["index"].as_str().unwrap()).collect();
    assert_eq!(indexes, ["2", "3", "4"]);
    let wire = result(&emu, path, "index.getContainerByIndex", json!([{"index": 6}])).await;
    assert_served(&emu, path, &wire, 6);
    // Go matches JSON keys to fields case-insensitively.
    let wire = result(&emu, path, "index.getContainerByIndex", json!({"Index": 8})).await;
    assert_served(&emu, path, &wire, 8);
}

#[tokio::test(flavor = "multi_thread")]
async fn range_limits_and_truncation() {
    let emu = start(EmulatorConfig { seed: 1, default_count: 10, ..Default::default() }).await;
    let path = IndexPath::CBlock;
    let m = "index.getContainerRange";
    for (start, count, message) in [
        (0, 0, "numToFetch must be in [1,1024] but is 0"),
        (0, 1025, "numToFetch must be in [1,1024] but is 1025"),
        (10, 1, "start index (10) > last accepted index (9)"),
        (9000, 5, "start index (9000) > last accepted index (9)"),
        // numToFetch is checked before the tip.
        (9000, 0, "numToFetch must be in [1,1024] but is 0"),
    ] {
        method_error(&emu, path, m, json!({"startIndex": start, "numToFetch": count}), message).await;
    }

    let range = result(&emu, path, m, json!({"startIndex": 8, "numToFetch": 5, "encoding": "hex"})).await;
    let containers = range["containers"].as_array().unwrap();
    assert_eq!(containers.len(), 2, "a range past the tip is cut silently");
    assert_served(&emu, path, &containers[0], 8);
    assert_served(&emu, path, &containers[1], 9);
    let whole = result(&emu, path, m, json!({"startIndex": 0, "numToFetch": 1024})).await;
    assert_eq!(whole["containers"].as_array().unwrap().len(), 10);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_empty_index() {
    let emu = start(EmulatorConfig {
        containers: HashMap::from([(IndexPath::CBlock, 0)]),
        default_count: 5,
        ..Default::default()
    })
    .await;
    let path = IndexPath::CBlock;
    let cases = [
        ("index.getLastAccepted", json!({"encoding": "hex"}), "no containers have been accepted"),
        ("index.getContainerRange", json!({"startIndex": 0, "numToFetch": 1}), "no containers have been accepted"),
        ("index.getContainerByIndex", json!({"index": 0}), "no container at index 0"),
        ("index.getContainerByID", json!({"id": unknown_id()}), "not found"),
    ];
    method_errors(&emu, path, cases).await;
    assert_eq!(result(&emu, path, "index.isAccepted", json!({"id": unknown_id()})).await, json!({"isAccepted": false}));
    assert_eq!(emu.container_count(path), 0);
    assert!(emu.expected_container(path, 0).is_none());
    // The other paths keep the default count.
    assert_eq!(emu.container_count(IndexPath::PBlock), 5);
    assert_eq!(result(&emu, IndexPath::PBlock, "index.getLastAccepted", json!({})).await["index"], "4");
}

#[tokio::test(flavor = "multi_thread")]
async fn past_the_tip_and_unknown_ids() {
    let emu = start_default().await;
    let path = IndexPath::XVtx;
    let cases = [
        ("index.getContainerByIndex", json!({"index": 1000}), "no container at index 1000"),
        ("index.getContainerByIndex", json!({"index": u64::MAX}), "no container at index 18446744073709551615"),
        ("index.getContainerByID", json!({"id": unknown_id(), "encoding": "hex"}), "not found"),
        ("index.getIndex", json!({"id": unknown_id()}), "not found"),
    ];
    method_errors(&emu, path, cases).await;
    assert_eq!(result(&emu, path, "index.isAccepted", json!({"id": unknown_id()})).await, json!({"isAccepted": false}));
    // A missing id is Go's zero id: not found.
    method_error(&emu, path, "index.getIndex", json!({}), "not found").await;

    // Container 1000 exists in the world but is not accepted yet.
    let next_id = formats::container(42, path, 1000, 0).0.id;
    assert!(emu.expected_container(path, 1000).is_none());
    assert_eq!(result(&emu, path, "index.isAccepted", json!({"id": next_id})).await, json!({"isAccepted": false}));
    method_error(&emu, path, "index.getContainerByID", json!({"id": next_id}), "not found").await;
    assert_eq!(emu.advance(path, 1), 1001);
    assert_eq!(result(&emu, path, "index.isAccepted", json!({"id": next_id})).await, json!({"isAccepted": true}));
    assert_eq!(result(&emu, path, "index.getIndex", json!({"id": next_id})).await, json!({"index": "1000"}));
    let wire = result(&emu, path, "index.getContainerByID", json!({"id": next_id})).await;
    assert_served(&emu, path, &wire, 1000);
}

#[tokio::test(flavor = "multi_thread")]
async fn method_names_and_paths() {
    let emu = start_default().await;
    let path = IndexPath::CBlock;
    let cases = [
        ("index.foo", json!({}), "rpc: can't find method \"index.Foo\""),
        ("index.getTx", json!({}), "rpc: can't find method \"index.GetTx\""),
        ("index.GetLastAccepted", json!({}), "method must start with a non-uppercase letter"),
        ("avm.getTx", json!({}), "rpc: can't find service \"avm.GetTx\""),
        ("getLastAccepted", json!({}), "rpc: service/method request ill-formed: \"getLastAccepted\""),
    ];
    method_errors(&emu, path, cases).await;

    for unknown in ["/ext/index/Y/tx", "/ext/index/C/block/", "/ext/index/c/block", "/ext/info", "/"] {
        let (status, _, text) = raw(&emu, reqwest::Method::POST, unknown, Some("application/json"), "{}").await;
        assert_eq!((status, text.as_str()), (404, "404 page not found\n"), "{unknown}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_request_id_is_echoed_whatever_its_type() {
    let emu = start_default().await;
    for id in [json!(0), json!("abc"), json!(12.5), json!({"k": [1, 2]}), json!([true])] {
        let answer = post(
            &emu,
            IndexPath::XTx,
            &json!({"jsonrpc": "2.0", "id": id, "method": "index.getIndex", "params": {"id": unknown_id()}}),
        )
        .await;
        assert_eq!(answer["id"], id);
        let answer = post(
            &emu,
            IndexPath::XTx,
            &json!({"jsonrpc": "2.0", "id": id, "method": "index.isAccepted", "params": {"id": unknown_id()}}),
        )
        .await;
        assert_eq!(answer, json!({"jsonrpc": "2.0", "result": {"isAccepted": false}, "id": id}));
    }
    // Echoed as sent: spacing and number spelling kept, big numbers not rounded.
    let id = r#"[1, 2.50,  123456789012345678901234567890]"#;
    let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"index.isAccepted","params":{{}}}}"#);
    let (status, _, text) = raw(&emu, reqwest::Method::POST, "/ext/index/X/tx", Some("application/json"), &body).await;
    assert_eq!(status, 200);
    assert_eq!(text, format!("{{\"jsonrpc\":\"2.0\",\"result\":{{\"isAccepted\":false}},\"id\":{id}}}\n"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_world_is_deterministic() {
    let a = start(EmulatorConfig { seed: 5, ..Default::default() }).await;
    let b = start(EmulatorConfig { seed: 5, ..Default::default() }).await;
    let c = start(EmulatorConfig { seed: 6, ..Default::default() }).await;
    for path in IndexPath::ALL {
        let params = json!({"startIndex": 100, "numToFetch": 20});
        let ra = result(&a, path, "index.getContainerRange", params.clone()).await;
        let rb = result(&b, path, "index.getContainerRange", params.clone()).await;
        let rc = result(&c, path, "index.getContainerRange", params).await;
        assert_eq!(ra, rb, "{path}: same seed, same containers");
        let ids = |r: &Value| r["containers"].as_array().unwrap().iter().map(|c| c["id"].clone()).collect::<Vec<_>>();
        assert!(ids(&ra).iter().zip(ids(&rc)).all(|(x, y)| *x != y), "{path}: another seed, other ids");
        assert_eq!(ra["containers"][0]["id"], formats::container(5, path, 100, 0).0.id);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn ids_checksums_and_timestamps_hold_over_long_ranges() {
    let emu = start(EmulatorConfig { seed: 77, default_count: 3000, ..Default::default() }).await;
    for path in IndexPath::ALL {
        let mut last_ns = i64::MIN;
        for start in [0u64, 1024, 2048] {
            let range =
                result(&emu, path, "index.getContainerRange", json!({"startIndex": start, "numToFetch": 1024})).await;
            let containers = range["containers"].as_array().unwrap();
            assert_eq!(containers.len() as u64, 1024.min(3000 - start));
            for (k, wire) in containers.iter().enumerate() {
                let c = decode_on(path, wire); // verifies the checksum and the id by its kind
                assert_eq!(c.index, start + k as u64);
                assert!(c.timestamp_ns > last_ns, "{path} #{}: timestamps strictly increase", c.index);
                last_ns = c.timestamp_ns;
                let hex = wire["bytes"].as_str().unwrap();
                assert_eq!(&hex[hex.len() - 8..], hex::encode(cb58::checksum(&c.bytes)));
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn timestamps_are_in_the_node_offset() {
    let west = start(EmulatorConfig { seed: 3, utc_offset_minutes: -7 * 60, ..Default::default() }).await;
    let utc = start(EmulatorConfig { seed: 3, ..Default::default() }).await;
    let a = result(&west, IndexPath::XTx, "index.getContainerByIndex", json!({"index": 10})).await;
    let b = result(&utc, IndexPath::XTx, "index.getContainerByIndex", json!({"index": 10})).await;
    let (ta, tb) = (a["timestamp"].as_str().unwrap(), b["timestamp"].as_str().unwrap());
    assert!(ta.ends_with("-07:00") && tb.ends_with('Z'), "{ta} {tb}");
    assert_eq!(parse_timestamp_ns(ta).unwrap(), parse_timestamp_ns(tb).unwrap());
    assert_eq!(parse_timestamp_ns(ta).unwrap(), formats::container(3, IndexPath::XTx, 10, 0).0.timestamp_ns);
    assert_eq!(a["id"], b["id"]);
    assert_served(&west, IndexPath::XTx, &a, 10);
}

#[tokio::test(flavor = "multi_thread")]
async fn advance_moves_the_tip() {
    let emu = start_default().await;
    let path = IndexPath::PBlock;
    assert_eq!(emu.container_count(path), 1000);
    assert_eq!(emu.advance(path, 25), 1025);
    assert_eq!(emu.container_count(path), 1025);
    assert_eq!(emu.container_count(IndexPath::CBlock), 1000, "other paths unchanged");
    let last = result(&emu, path, "index.getLastAccepted", json!({})).await;
    assert_served(&emu, path, &last, 1024);
    method_error(&emu, path, "index.getContainerByIndex", json!({"index": 1025}), "no container at index 1025").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_tip_grows_with_tip_rate() {
    // The count is 100 + floor(50/s * time since the emulator started), and the start lies
    // between `t0` and `t1`: each reading is bracketed exactly by the instants around it, with no
    // window to wait out. The test waits on the count itself until 20 more were accepted.
    let rate = 50.0;
    let t0 = Instant::now();
    let emu = start(EmulatorConfig { seed: 9, default_count: 100, tip_rate: rate, ..Default::default() }).await;
    let t1 = Instant::now();
    let path = IndexPath::CBlock;
    let deadline = t1 + Duration::from_secs(60);
    let grown = loop {
        let before_read = Instant::now();
        let n = emu.container_count(path);
        let after_read = Instant::now();
        let low = 100 + (rate * before_read.saturating_duration_since(t1).as_secs_f64()).floor() as u64;
        let high = 100 + (rate * after_read.duration_since(t0).as_secs_f64()).floor() as u64;
        assert!((low..=high).contains(&n), "count {n} outside [{low}, {high}] at 50/s");
        if n >= 120 {
            break n;
        }
        assert!(Instant::now() < deadline, "the tip stopped growing at {n}");
        // A pause between readings only spares the CPU: no reading depends on its length.
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert!(emu.container_count(IndexPath::XTx) >= grown, "every path grows");
    let last = result(&emu, path, "index.getLastAccepted", json!({})).await;
    let served: u64 = last["index"].as_str().unwrap().parse().unwrap();
    assert!(served + 1 >= grown, "served tip {served} vs count {grown}");
    assert_served(&emu, path, &last, served);
    // advance adds on top of the growth.
    let now = emu.container_count(path);
    assert!(emu.advance(path, 1000) >= now + 1000);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_disabled_index_answers_404() {
    let emu = start(EmulatorConfig { index_enabled: false, ..Default::default() }).await;
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "index.getLastAccepted", "params": {}}).to_string();
    for path in IndexPath::ALL {
        let (status, ct, text) =
            raw(&emu, reqwest::Method::POST, &path.url_path(), Some("application/json"), &body).await;
        assert_eq!((status, text.as_str()), (404, "404 page not found\n"), "{path}");
        assert_eq!(ct.as_deref(), Some("text/plain; charset=utf-8"));
        let (status, _, _) = raw(&emu, reqwest::Method::GET, &path.url_path(), None, "").await;
        assert_eq!(status, 404);
    }
    emu.set_index_enabled(true);
    assert_eq!(result(&emu, IndexPath::XTx, "index.getLastAccepted", json!({})).await["index"], "9999");
    emu.set_index_enabled(false);
    let (status, _, _) = raw(&emu, reqwest::Method::POST, "/ext/index/X/tx", Some("application/json"), &body).await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn latency_is_added_to_every_answer() {
    let emu = start(EmulatorConfig { latency: Duration::from_millis(120), ..Default::default() }).await;
    let t = Instant::now();
    result(&emu, IndexPath::CBlock, "index.getLastAccepted", json!({})).await;
    assert!(t.elapsed() >= Duration::from_millis(120), "{:?}", t.elapsed());
    emu.set_latency(Duration::from_millis(250));
    let t = Instant::now();
    let (status, _, _) = raw(&emu, reqwest::Method::GET, "/nowhere", None, "").await;
    assert_eq!(status, 404);
    assert!(t.elapsed() >= Duration::from_millis(250), "latency applies to every path: {:?}", t.elapsed());
    emu.set_latency(Duration::ZERO);
    result(&emu, IndexPath::CBlock, "index.getLastAccepted", json!({})).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn requests_are_counted() {
    let emu = start_default().await;
    assert_eq!(emu.request_count(), 0);
    result(&emu, IndexPath::CBlock, "index.getLastAccepted", json!({})).await;
    raw(&emu, reqwest::Method::GET, "/ext/index/C/block", None, "").await;
    raw(&emu, reqwest::Method::POST, "/missing", None, "").await;
    assert_eq!(emu.request_count(), 3);
}

#[tokio::test(flavor = "multi_thread")]
async fn expected_container_is_what_is_served_and_none_past_the_tip() {
    let emu =
        start(EmulatorConfig { seed: 12, default_count: 50, utc_offset_minutes: 330, ..Default::default() }).await;
    for path in IndexPath::ALL {
        for index in [0u64, 17, 49] {
            let wire = result(&emu, path, "index.getContainerByIndex", json!({"index": index})).await;
            let (expected, timestamp) = emu.expected_container(path, index).unwrap();
            assert_eq!(wire["timestamp"], timestamp);
            assert!(timestamp.ends_with("+05:30"));
            assert_eq!(decode_on(path, &wire), expected);
            assert_eq!((expected.clone(), timestamp), formats::container(12, path, index, 330));
        }
        assert!(emu.expected_container(path, 50).is_none());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn shutdown_is_idempotent_and_frees_the_port() {
    let emu = start_default().await;
    let url = emu.url();
    assert!(url.starts_with("http://127.0.0.1:") && url.ends_with(&emu.port().to_string()));
    result(&emu, IndexPath::CBlock, "index.getLastAccepted", json!({})).await;
    emu.shutdown();
    emu.shutdown();
    emu.stop().await;
    emu.stop().await;
    let fresh = reqwest::Client::new();
    let err = fresh
        .post(format!("{url}/ext/index/C/block"))
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await;
    assert!(err.is_err(), "nothing listens after stop");
    drop(emu);
}

#[tokio::test(flavor = "multi_thread")]
async fn close_returns_once_neither_listener_takes_a_connection() {
    // A client kept alive across close() (a pooled connection) is what made "fails to connect"
    // racy when closing only signalled the server: close() now waits for both listeners.
    for _ in 0..20 {
        let emu = start_default().await;
        result(&emu, IndexPath::CBlock, "index.getLastAccepted", json!({})).await;
        let addrs = [emu.url(), emu.second_url()].map(|u| u.trim_start_matches("http://").to_string());
        emu.close().await;
        for addr in &addrs {
            let refused = tokio::net::TcpStream::connect(addr.as_str()).await;
            assert!(refused.is_err(), "{addr} still accepted a connection after close()");
        }
        emu.close().await; // idempotent
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_full_range_of_c_chain_blocks_is_fast() {
    let emu = start(EmulatorConfig { seed: 1, default_count: 100_000, ..Default::default() }).await;
    let http = client();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "index.getContainerRange", "params": {"startIndex": 50_000, "numToFetch": 1024, "encoding": "hex"}}).to_string();
    let mut timings = Vec::new();
    let mut size = 0;
    for _ in 0..5 {
        let t = Instant::now();
        let bytes = http
            .post(format!("{}/ext/index/C/block", emu.url()))
            .header("content-type", "application/json")
            .body(body.clone())
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        timings.push(t.elapsed());
        size = bytes.len();
        let answer: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(answer["result"]["containers"].as_array().unwrap().len(), 1024);
    }
    timings.sort();
    println!(
        "1024 C/block containers: {:.1} MB of JSON, median {:?} per request (min {:?}, max {:?})",
        size as f64 / 1e6,
        timings[2],
        timings[0],
        timings[4]
    );
    assert!(timings[2] < Duration::from_secs(2), "{timings:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn id_lookups_on_a_large_index() {
    let emu = start(EmulatorConfig { seed: 2, default_count: 300_000, ..Default::default() }).await;
    for path in [IndexPath::XTx, IndexPath::CBlock] {
        // An id the client got from the emulator is found at once (served ids are recorded).
        let served = result(&emu, path, "index.getContainerByIndex", json!({"index": 287_654})).await;
        let t = Instant::now();
        let answer = result(&emu, path, "index.getIndex", json!({"id": served["id"]})).await;
        let served_lookup = t.elapsed();
        assert_eq!(answer, json!({"index": "287654"}));
        assert!(served_lookup < Duration::from_secs(1), "no map build needed: {served_lookup:?}");

        // Any other id needs every id up to the tip: the first such lookup builds the map.
        let t = Instant::now();
        assert_eq!(
            result(&emu, path, "index.isAccepted", json!({"id": unknown_id()})).await,
            json!({"isAccepted": false})
        );
        let build = t.elapsed();
        let id = emu.expected_container(path, 123_456).unwrap().0.id;
        let t = Instant::now();
        assert_eq!(result(&emu, path, "index.getIndex", json!({"id": id})).await, json!({"index": "123456"}));
        let after = t.elapsed();
        println!(
            "{path}, 300,000 containers: served id {served_lookup:?}; first unknown id (builds the map) {build:?}; then {after:?}"
        );
        assert!(after < Duration::from_secs(1), "the map is reused: {after:?}");
    }
}
