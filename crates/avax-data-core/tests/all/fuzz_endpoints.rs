//! Fuzzing of the answers to every endpoint (issue 10): a raw HTTP server in front of the
//! emulator forwards each request, takes the true answer, and sends back a proptest-drawn
//! distortion of it: any status, header sets (`Retry-After`, `ratelimit-*`, `Location`,
//! `content-type`, `content-encoding`), framing lies (`content-length` short, long, garbage or
//! twice, broken chunking), and bodies (random bytes, the true JSON with fields dropped,
//! retyped, nulled, huge numbers, deep nesting, non-object items, wrong-typed tokens).
//!
//! Every call of every Index method, Data API endpoint and Metrics API endpoint of the core
//! clients, single answers and walks (with Arrow conversion of the items), must return `Ok` or a
//! typed [`Error`]: never a panic (nor an `Error::Internal`, a panic caught in a background
//! task), never a hang. And every answer handed out is exact (issue 20): each item reads by the
//! rule of `avax_data_core::exact` or is refused, a value read writes back as the same value, and the
//! frame of a page agrees with its exact items (the frame refuses what they refuse, and is the
//! same batch built from their text).

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use avax_data_core::arrow::{to_batch, Resource};
use avax_data_core::data::{DataClient, DataClientOptions, ResourcePager};
use avax_data_core::error::Error;
use avax_data_core::exact::{self, Exact};
use avax_data_core::index::range::walk;
use avax_data_core::index::{IndexClient, IndexClientOptions, IndexPath, RangeSpec};
use avax_data_core::metrics::{series_pager, MetricsClient};
use avax_data_core::paging::JsonItem;
use avax_data_core::transport::TransportConfig;
use avax_data_emulator::{Emulator, EmulatorConfig};
use futures::StreamExt;
use proptest::prelude::*;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const OWNER: &str = "0x6a2474f3e677ce65e495508043237ea93738a031";
const STAKER: &str = "avax1rag2whp8gpgtw80203ttqu5c38tjpkquu00ewr";

// ---- What the server does to one answer ----

/// A value put in place of a JSON node.
#[derive(Clone, Debug)]
enum Val {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// A number no 64-bit type holds, written as is (`1e400`, 40 digits, `-0`).
    Raw(&'static str),
    /// `depth` nested arrays (or objects).
    Deep(usize, bool),
    EmptyList,
    EmptyObject,
    /// The node's value as a string, or a numeric string as a number.
    Retype,
}

/// One change to the true JSON.
#[derive(Clone, Debug)]
enum Mutation {
    /// Removes the `pick`-th node (counted depth first).
    Drop(u32),
    /// Replaces the `pick`-th node.
    Set(u32, Val),
    /// Sets every field named `key` (or adds it to the top object).
    Field(&'static str, Val),
}

#[derive(Clone, Debug)]
enum BodyShape {
    True,
    Mutated(Vec<Mutation>),
    Random(Vec<u8>),
    Empty,
    /// The first `n` bytes of the true body.
    Prefix(usize),
    Text(&'static str),
}

#[derive(Clone, Copy, Debug)]
enum Framing {
    Length,
    /// `content-length` smaller than the body by this much (the server sends the whole body).
    Short(usize),
    /// `content-length` larger than the body by this much (then the connection closes).
    Long(usize),
    Garbage,
    Twice,
    /// No length: the body ends when the connection closes.
    Close,
    Chunked,
    BrokenChunks,
}

#[derive(Clone, Copy, Debug)]
enum Encoding {
    Identity,
    /// `content-encoding: gzip` over a real gzip of the body.
    Gzip,
    /// A `content-encoding` the body is not in.
    Claimed(&'static str),
}

/// The answer to one request.
#[derive(Clone, Debug)]
struct Shape {
    status: Option<u16>,
    headers: Vec<(&'static str, String)>,
    body: BodyShape,
    framing: Framing,
    encoding: Encoding,
}

fn val() -> impl Strategy<Value = Val> {
    prop_oneof![
        Just(Val::Null),
        any::<bool>().prop_map(Val::Bool),
        prop_oneof![Just(i64::MIN), Just(-1i64), Just(0), Just(i64::MAX), any::<i64>()].prop_map(Val::Int),
        prop_oneof![Just(f64::MAX), Just(-1.5f64), Just(1e-300), any::<f64>().prop_filter("finite", |f| f.is_finite())]
            .prop_map(Val::Float),
        prop_oneof![
            Just(String::new()),
            Just("0x".to_string()),
            Just("-1".to_string()),
            Just("18446744073709551616".to_string()),
            Just("99999999999999999999999999999999999999999".to_string()),
            Just("1e400".to_string()),
            Just("2262-04-12T00:00:00Z".to_string()),
            Just("é\u{0}\u{202e}".to_string()),
            "[ -~]{0,40}",
            (1usize..200_000).prop_map(|n| "x".repeat(n)),
        ]
        .prop_map(Val::Str),
        prop_oneof![
            Just("1e400"),
            Just("-1e400"),
            Just("123456789012345678901234567890123456789012"),
            Just("-0"),
            Just("18446744073709551616"),
            Just("-9223372036854775809"),
            Just("0.0000000000000000000000000000001"),
        ]
        .prop_map(Val::Raw),
        (1usize..300, any::<bool>()).prop_map(|(d, a)| Val::Deep(d, a)),
        Just(Val::EmptyList),
        Just(Val::EmptyObject),
        Just(Val::Retype),
    ]
}

const KEYS: [&str; 24] = [
    "nextPageToken",
    "result",
    "containers",
    "error",
    "jsonrpc",
    "id",
    "bytes",
    "timestamp",
    "index",
    "isAccepted",
    "blocks",
    "results",
    "chains",
    "messages",
    "vertices",
    "pendingRewards",
    "collectibleBalances",
    "blockNumber",
    "blockTimestamp",
    "value",
    "chainId",
    "status",
    "metadata",
    "message",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<u32>().prop_map(Mutation::Drop),
        (any::<u32>(), val()).prop_map(|(p, v)| Mutation::Set(p, v)),
        (proptest::sample::select(&KEYS[..]), val()).prop_map(|(k, v)| Mutation::Field(k, v)),
    ]
}

fn body_shape() -> impl Strategy<Value = BodyShape> {
    prop_oneof![
        2 => Just(BodyShape::True),
        8 => proptest::collection::vec(mutation(), 1..4).prop_map(BodyShape::Mutated),
        1 => proptest::collection::vec(any::<u8>(), 0..300).prop_map(BodyShape::Random),
        1 => Just(BodyShape::Empty),
        1 => (0usize..400).prop_map(BodyShape::Prefix),
        1 => prop_oneof![
            Just("<html><body>502 Bad Gateway</body></html>"),
            Just("null"),
            Just("[]"),
            Just("\"text\""),
            Just("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":\"x\"},\"id\":1}"),
            Just("{\"message\":[\"a\",1,null],\"statusCode\":400}"),
        ]
        .prop_map(BodyShape::Text),
    ]
}

fn header() -> impl Strategy<Value = (&'static str, String)> {
    let retry = prop_oneof![
        Just("0"),
        Just("1"),
        Just("-1"),
        Just("NaN"),
        Just("inf"),
        Just("1e999"),
        Just("99999999999999999999"),
        Just("Wed, 21 Oct 2015 07:28:00 GMT"),
        Just("Fri, 31 Dec 9999 23:59:59 GMT"),
        Just("soon"),
        Just(""),
    ];
    let number = prop_oneof![
        Just("100"),
        Just("-5"),
        Just("18446744073709551616"),
        Just("abc"),
        Just("1.5"),
        Just("100;w=60"),
        Just("")
    ];
    let location = prop_oneof![
        Just("/v1/health-check"),
        Just("/ext/index/X/tx"),
        Just("http://127.0.0.1:1/elsewhere"),
        Just("https://other.example/v1/chains"),
        Just(""),
        Just("::::"),
        Just("//evil.example/x"),
        Just("javascript:alert(1)"),
        Just("/a/../../b?c=%zz"),
    ];
    let content_type = prop_oneof![
        Just("application/json"),
        Just("text/html"),
        Just("application/json; charset=latin1"),
        Just(""),
        Just("\u{e9}/\u{e9}"),
    ];
    prop_oneof![
        retry.prop_map(|v| ("retry-after", v.to_string())),
        number.clone().prop_map(|v| ("ratelimit-limit", v.to_string())),
        number.clone().prop_map(|v| ("ratelimit-remaining", v.to_string())),
        number.clone().prop_map(|v| ("ratelimit-reset", v.to_string())),
        number.prop_map(|v| ("ratelimit-policy", v.to_string())),
        location.prop_map(|v| ("location", v.to_string())),
        content_type.prop_map(|v| ("content-type", v.to_string())),
    ]
}

fn shape() -> impl Strategy<Value = Shape> {
    let status = prop_oneof![
        6 => Just(None),
        1 => proptest::sample::select(&[200u16, 201, 204, 206, 301, 302, 303, 307, 308, 400, 401, 403, 404, 409, 429, 500, 502, 503][..]).prop_map(Some),
        1 => (100u16..1000).prop_map(Some),
    ];
    let framing = prop_oneof![
        6 => Just(Framing::Length),
        1 => (1usize..50).prop_map(Framing::Short),
        1 => (1usize..50).prop_map(Framing::Long),
        1 => Just(Framing::Garbage),
        1 => Just(Framing::Twice),
        1 => Just(Framing::Close),
        1 => Just(Framing::Chunked),
        1 => Just(Framing::BrokenChunks),
    ];
    let encoding = prop_oneof![
        6 => Just(Encoding::Identity),
        1 => Just(Encoding::Gzip),
        1 => prop_oneof![Just("gzip"), Just("br"), Just("deflate"), Just("x-unknown"), Just("gzip, gzip")].prop_map(Encoding::Claimed),
    ];
    (status, proptest::collection::vec(header(), 0..4), body_shape(), framing, encoding)
        .prop_map(|(status, headers, body, framing, encoding)| Shape { status, headers, body, framing, encoding })
}

// ---- Applying a shape ----

/// Every JSON pointer of `v`, depth first (the root is "").
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    if out.len() > 5_000 {
        return;
    }
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                pointers(child, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// The value for `val`, with raw literals left as placeholders (`"\u{1}RAWn"`) in `raws`.
fn value_of(val: &Val, old: &Value, raws: &mut Vec<String>) -> Value {
    let mut raw = |text: String| {
        raws.push(text);
        Value::String(format!("\u{1}RAW{}", raws.len() - 1))
    };
    match val {
        Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(*b),
        Val::Int(i) => Value::from(*i),
        Val::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
        Val::Str(s) => Value::String(s.clone()),
        Val::Raw(text) => raw(text.to_string()),
        Val::Deep(depth, arrays) => {
            let (open, close) = if *arrays { ("[", "]") } else { ("{\"a\":", "}") };
            let inner = if *arrays { "1" } else { "null" };
            raw(format!("{}{inner}{}", open.repeat(*depth), close.repeat(*depth)))
        }
        Val::EmptyList => Value::Array(Vec::new()),
        Val::EmptyObject => Value::Object(Default::default()),
        Val::Retype => match old {
            Value::String(s) => s.parse::<i64>().map(Value::from).unwrap_or(Value::Bool(true)),
            Value::Number(n) => Value::String(n.to_string()),
            Value::Null => Value::String("null".into()),
            other => Value::String(other.to_string()),
        },
    }
}

fn set_field(v: &mut Value, key: &str, new: &Value, hit: &mut bool) {
    match v {
        Value::Object(m) => {
            if let Some(slot) = m.get_mut(key) {
                *slot = new.clone();
                *hit = true;
            }
            for child in m.values_mut() {
                set_field(child, key, new, hit);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|c| set_field(c, key, new, hit)),
        _ => {}
    }
}

fn mutate(mut v: Value, mutations: &[Mutation]) -> Vec<u8> {
    let mut raws = Vec::new();
    for m in mutations {
        let mut all = Vec::new();
        pointers(&v, String::new(), &mut all);
        match m {
            Mutation::Drop(pick) => {
                let at = &all[*pick as usize % all.len()];
                match at.rsplit_once('/') {
                    None => v = Value::Null,
                    Some((parent, last)) => match v.pointer_mut(parent) {
                        Some(Value::Object(map)) => {
                            map.remove(&last.replace("~1", "/").replace("~0", "~"));
                        }
                        Some(Value::Array(list)) => {
                            if let Ok(i) = last.parse::<usize>() {
                                if i < list.len() {
                                    list.remove(i);
                                }
                            }
                        }
                        _ => {}
                    },
                }
            }
            Mutation::Set(pick, val) => {
                let at = all[*pick as usize % all.len()].clone();
                if let Some(slot) = v.pointer_mut(&at) {
                    let new = value_of(val, slot, &mut raws);
                    *slot = new;
                }
            }
            Mutation::Field(key, val) => {
                let new = value_of(val, &Value::Null, &mut raws);
                let mut hit = false;
                set_field(&mut v, key, &new, &mut hit);
                if let (false, Value::Object(map)) = (hit, &mut v) {
                    map.insert(key.to_string(), new);
                }
            }
        }
    }
    let mut text = v.to_string();
    for (i, raw) in raws.iter().enumerate().rev() {
        text = text.replace(&format!("\"\\u0001RAW{i}\""), raw);
    }
    text.into_bytes()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// The raw HTTP answer of `shape` to a request whose true answer is `(status, body)`.
fn render(shape: &Shape, status: u16, body: &[u8]) -> Vec<u8> {
    let mut body = match &shape.body {
        BodyShape::True => body.to_vec(),
        BodyShape::Mutated(m) => match serde_json::from_slice::<Value>(body) {
            Ok(v) => mutate(v, m),
            Err(_) => body.to_vec(),
        },
        BodyShape::Random(bytes) => bytes.clone(),
        BodyShape::Empty => Vec::new(),
        BodyShape::Prefix(n) => body[..(*n).min(body.len())].to_vec(),
        BodyShape::Text(t) => t.as_bytes().to_vec(),
    };
    let mut head = format!("HTTP/1.1 {} X\r\nconnection: close\r\n", shape.status.unwrap_or(status)).into_bytes();
    let mut line = |name: &str, value: &[u8]| {
        head.extend_from_slice(name.as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(value);
        head.extend_from_slice(b"\r\n");
    };
    if !shape.headers.iter().any(|(n, _)| *n == "content-type") {
        line("content-type", b"application/json");
    }
    for (name, value) in &shape.headers {
        // Latin-1 bytes for the non-ASCII test values, as a server may send them.
        let bytes: Vec<u8> = value.chars().map(|c| if (c as u32) < 256 { c as u8 } else { b'?' }).collect();
        line(name, &bytes);
    }
    match shape.encoding {
        Encoding::Identity => {}
        Encoding::Gzip => {
            body = gzip(&body);
            line("content-encoding", b"gzip");
        }
        Encoding::Claimed(name) => line("content-encoding", name.as_bytes()),
    }
    let n = body.len();
    match shape.framing {
        Framing::Length => line("content-length", n.to_string().as_bytes()),
        Framing::Short(k) => line("content-length", n.saturating_sub(k).to_string().as_bytes()),
        Framing::Long(k) => line("content-length", (n + k).to_string().as_bytes()),
        Framing::Garbage => line("content-length", b"12abc"),
        Framing::Twice => {
            line("content-length", n.to_string().as_bytes());
            line("content-length", (n + 1).to_string().as_bytes());
        }
        Framing::Close => {}
        Framing::Chunked | Framing::BrokenChunks => {
            line("transfer-encoding", b"chunked");
            let mut chunked = Vec::new();
            for part in body.chunks(97) {
                let size = if matches!(shape.framing, Framing::BrokenChunks) { part.len() + 3 } else { part.len() };
                chunked.extend_from_slice(format!("{size:x}\r\n").as_bytes());
                chunked.extend_from_slice(part);
                chunked.extend_from_slice(b"\r\n");
            }
            if matches!(shape.framing, Framing::Chunked) {
                chunked.extend_from_slice(b"0\r\n\r\n");
            }
            body = chunked;
        }
    }
    head.extend_from_slice(b"\r\n");
    head.extend_from_slice(&body);
    head
}

// ---- The server ----

/// Shapes of the current case, by request number (past the end: the true answer).
#[derive(Default)]
struct Script {
    shapes: Mutex<Vec<Shape>>,
    served: AtomicUsize,
}

/// Reads one request: method, path with query, body.
async fn read_request(socket: &mut tokio::net::TcpStream) -> Option<(String, String, Vec<u8>)> {
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    let head_end = loop {
        if let Some(at) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        match socket.read(&mut buf).await {
            Ok(0) | Err(_) => return None,
            Ok(k) => got.extend_from_slice(&buf[..k]),
        }
    };
    let head = String::from_utf8_lossy(&got[..head_end]).into_owned();
    let mut first = head.lines().next()?.split(' ');
    let (method, target) = (first.next()?.to_string(), first.next()?.to_string());
    let length = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap_or(0)))
        .unwrap_or(0usize);
    let mut body = got[head_end..].to_vec();
    while body.len() < length {
        match socket.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(k) => body.extend_from_slice(&buf[..k]),
        }
    }
    Some((method, target, body))
}

/// A server in front of `emulator`: the `n`-th request gets the emulator's answer distorted by
/// the script's `n`-th shape.
async fn distorting_proxy(emulator: String, script: Arc<Script>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let upstream = reqwest::Client::builder().no_gzip().build().unwrap();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let (script, upstream, emulator) = (script.clone(), upstream.clone(), emulator.clone());
            tokio::spawn(async move {
                let Some((method, target, body)) = read_request(&mut socket).await else { return };
                let n = script.served.fetch_add(1, Ordering::SeqCst);
                let shape = script.shapes.lock().unwrap().get(n).cloned();
                let mut request = upstream.request(method.parse().unwrap(), format!("{emulator}{target}"));
                if !body.is_empty() {
                    request = request.header("content-type", "application/json").body(body);
                }
                let Ok(answer) = request.send().await else { return };
                let status = answer.status().as_u16();
                let true_body = answer.bytes().await.unwrap_or_default();
                let shape = shape.unwrap_or(Shape {
                    status: None,
                    headers: Vec::new(),
                    body: BodyShape::True,
                    framing: Framing::Length,
                    encoding: Encoding::Identity,
                });
                let _ = socket.write_all(&render(&shape, status, &true_body)).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    url
}

// ---- The endpoints ----

#[derive(Clone, Copy, Debug)]
enum Endpoint {
    LastAccepted,
    ContainerByIndex,
    ContainerById,
    ContainerRange,
    IndexOf,
    IsAccepted,
    RangeWalk,
    RangeToTip,
    Chains,
    Chain,
    Block,
    Health,
    Blocks,
    LatestBlocks,
    Collectibles,
    PendingRewards,
    Vertices,
    IcmMessages,
    MetricSeries,
    MetricSharded,
    MetricsChains,
    IcmSummary,
    LiveCheck,
}

const INDEX: [Endpoint; 8] = [
    Endpoint::LastAccepted,
    Endpoint::ContainerByIndex,
    Endpoint::ContainerById,
    Endpoint::ContainerRange,
    Endpoint::IndexOf,
    Endpoint::IsAccepted,
    Endpoint::RangeWalk,
    Endpoint::RangeToTip,
];
const DATA: [Endpoint; 10] = [
    Endpoint::Chains,
    Endpoint::Chain,
    Endpoint::Block,
    Endpoint::Health,
    Endpoint::Blocks,
    Endpoint::LatestBlocks,
    Endpoint::Collectibles,
    Endpoint::PendingRewards,
    Endpoint::Vertices,
    Endpoint::IcmMessages,
];
const METRICS: [Endpoint; 5] = [
    Endpoint::MetricSeries,
    Endpoint::MetricSharded,
    Endpoint::MetricsChains,
    Endpoint::IcmSummary,
    Endpoint::LiveCheck,
];

fn config(retries: u32) -> TransportConfig {
    TransportConfig {
        retry: avax_data_core::transport::RetryPolicy {
            max_retries: retries,
            backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(3),
            retry_budget: Duration::from_millis(50),
            ..Default::default()
        },
        timeout: Duration::from_secs(3),
        connect_timeout: Duration::from_secs(2),
        max_response_bytes: 4 << 20,
        ..TransportConfig::default()
    }
}

fn convert<T: avax_data_core::arrow::json_columns::JsonText>(resource: Resource, items: &[T]) {
    // A value that does not fit the schema is a decode error of the caller, not a panic.
    let _ = to_batch(resource, items);
}

/// An exact value writes back as text that reads as the same value.
fn round_trip(value: &Exact) {
    assert_eq!(exact::parse(&value.to_string()).as_ref(), Ok(value), "{value}");
}

/// The rule's property on a page's items: the frame refuses a page whose items the dicts refuse,
/// and otherwise is the same batch from the text sent and from the text of the exact values.
fn convert_items(resource: Resource, items: &[JsonItem]) {
    let from_text = to_batch(resource, items);
    let mut values = Vec::with_capacity(items.len());
    for (k, item) in items.iter().enumerate() {
        match item.to_exact() {
            Ok(value) => values.push(value),
            Err(e) => {
                assert!(from_text.is_err(), "item {k} is refused as a dict ({e}) but read into a frame: {item}");
                return;
            }
        }
    }
    values.iter().for_each(round_trip);
    let from_values = to_batch(resource, &values);
    assert_eq!(
        from_text.as_ref().ok(),
        from_values.as_ref().ok(),
        "the frame of the text sent and of the exact values"
    );
    assert_eq!(from_text.is_ok(), from_values.is_ok(), "{from_text:?} / {from_values:?}");
}

/// A token-paged endpoint: one page (its items converted), then a limited walk of it.
async fn paged(client: &DataClient, paged: avax_data_core::data::Paged, resource: Resource) -> Result<(), Error> {
    let page = client.page(&paged, None).await;
    if let Ok(page) = &page {
        convert_items(resource, &page.items);
    }
    let pager = ResourcePager::tokens(client, paged, resource, None, Some(25))?;
    pager.to_batches(None, |_| ()).await.map(|_| ())
}

async fn call(endpoint: Endpoint, url: &str, retries: u32, id: &str) -> Result<(), Error> {
    let index = || {
        let options = IndexClientOptions { transport: config(retries), ..IndexClientOptions::default() };
        IndexClient::new(url, options).map(|c| c.chain(IndexPath::XTx))
    };
    let data = || {
        DataClient::new(Some(url), DataClientOptions { transport: config(retries), api_key: Some("fuzz-key".into()) })
    };
    let metrics = || MetricsClient::new(Some(url), config(retries));
    match endpoint {
        Endpoint::LastAccepted => index()?.last_accepted().await.map(|_| ()),
        Endpoint::ContainerByIndex => index()?.container_by_index(3).await.map(|_| ()),
        Endpoint::ContainerById => index()?.container_by_id(id).await.map(|_| ()),
        Endpoint::ContainerRange => index()?.container_range(2, 5).await.map(|_| ()),
        Endpoint::IndexOf => index()?.index_of(id).await.map(|_| ()),
        Endpoint::IsAccepted => index()?.is_accepted(id).await.map(|_| ()),
        Endpoint::RangeWalk | Endpoint::RangeToTip => {
            let end = matches!(endpoint, Endpoint::RangeWalk).then_some(40);
            let spec = RangeSpec { start: 60, end: end.map(|e| e + 60), concurrency: 2, chunk: 7 };
            let results: Vec<_> = walk(index()?, spec).collect().await;
            results.into_iter().find_map(Result::err).map_or(Ok(()), Err)
        }
        Endpoint::Chains => data()?.chains(Some("mainnet"), None)?.await.map(|c| c.iter().for_each(round_trip)),
        Endpoint::Chain => data()?.chain("43114")?.await.map(|v| round_trip(&v)),
        Endpoint::Block => data()?.block("43114", "5")?.await.map(|v| round_trip(&v)),
        Endpoint::Health => data()?.health().await.map(|v| round_trip(&v)),
        Endpoint::Blocks => {
            let c = data()?;
            paged(&c, c.blocks("43114", Some(10))?, Resource::Block).await
        }
        Endpoint::LatestBlocks => {
            let c = data()?;
            paged(&c, c.latest_blocks(Some("mainnet"), Some(10))?, Resource::Block).await
        }
        Endpoint::Collectibles => {
            let c = data()?;
            paged(&c, c.collectibles("43114", OWNER, None, Some(10))?, Resource::Collectible).await
        }
        Endpoint::PendingRewards => {
            let c = data()?;
            paged(
                &c,
                c.pending_rewards("mainnet", &[STAKER.to_string()], &[], None, Some(10))?,
                Resource::PendingReward,
            )
            .await
        }
        Endpoint::Vertices => {
            let c = data()?;
            paged(&c, c.vertices("mainnet", "x-chain", Some(10))?, Resource::Vertex).await
        }
        Endpoint::IcmMessages => {
            let c = data()?;
            paged(&c, c.icm_messages(None, None, None, None, None, Some("mainnet"), Some(10))?, Resource::IcmMessage)
                .await
        }
        Endpoint::MetricSeries => {
            let m = metrics()?;
            let q = m.metric("43114", "txCount", Some("hour"), None, None, Some(10))?;
            if let Ok(page) = m.page(&q.paged(), None).await {
                convert_items(Resource::MetricValue, &page.items);
            }
            series_pager(&m, q, None, Some(25), 1)?.to_batches(None, |_| ()).await.map(|_| ())
        }
        Endpoint::MetricSharded => {
            let m = metrics()?;
            let q = m.metric("43114", "txCount", Some("day"), Some(0), Some(1 << 31), Some(3))?;
            m.sharded(&q, 3).await?.iter().for_each(round_trip);
            series_pager(&m, q, None, None, 3)?.to_batches(None, |_| ()).await.map(|_| ())
        }
        Endpoint::MetricsChains => {
            let m = metrics()?;
            let paged = m.chains(Some("mainnet"))?;
            if let Ok(page) = m.page(&paged, None).await {
                convert_items(Resource::MetricsChain, &page.items);
            }
            let pager = ResourcePager::tokens(&m, paged, Resource::MetricsChain, None, Some(25))?;
            pager.to_batches(None, |_| ()).await.map(|_| ())
        }
        Endpoint::IcmSummary => m_icm(metrics()?).await,
        Endpoint::LiveCheck => metrics()?.live_check().await.map(|v| round_trip(&v)),
    }
}

async fn m_icm(m: MetricsClient) -> Result<(), Error> {
    let summary = m.icm_summary(None, None, None, Some("mainnet")).await?;
    round_trip(&summary);
    if let Exact::Array(rows) = &summary {
        convert(Resource::IcmSummary, rows);
    }
    Ok(())
}

/// One emulator and one distorting proxy for a whole property.
struct Harness {
    rt: tokio::runtime::Runtime,
    _emulator: Emulator,
    url: String,
    script: Arc<Script>,
    id: String,
}

impl Harness {
    fn new() -> Self {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let script = Arc::new(Script::default());
        let (emulator, url) = rt.block_on(async {
            let config = EmulatorConfig { default_count: 100, data_blocks_per_chain: 300, ..EmulatorConfig::default() };
            let emulator = Emulator::start(config).await.unwrap();
            let url = distorting_proxy(emulator.url(), script.clone()).await;
            (emulator, url)
        });
        let id = emulator.expected_container(IndexPath::XTx, 3).unwrap().0.id;
        Harness { rt, _emulator: emulator, url, script, id }
    }

    /// Calls `endpoint` with the answers distorted by `shapes`; checks the outcome.
    fn check(&self, endpoint: Endpoint, shapes: Vec<Shape>, retries: u32) -> Result<(), TestCaseError> {
        *self.script.shapes.lock().unwrap() = shapes;
        self.script.served.store(0, Ordering::SeqCst);
        let outcome = self.rt.block_on(async {
            tokio::time::timeout(Duration::from_secs(30), call(endpoint, &self.url, retries, &self.id)).await
        });
        let Ok(result) = outcome else {
            return Err(TestCaseError::fail(format!("{endpoint:?} hung past 30 s")));
        };
        if let Err(e) = &result {
            prop_assert!(!matches!(e, Error::Internal(_)), "{endpoint:?}: a panic or internal error: {e}");
            prop_assert!(!e.to_string().is_empty());
        }
        Ok(())
    }
}

fn config_for(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(10),
        ..ProptestConfig::default()
    }
}

fn run(endpoints: &'static [Endpoint], cases: u32) {
    let harness = Harness::new();
    let strategy = (proptest::sample::select(endpoints), proptest::collection::vec(shape(), 1..5), 0u32..2);
    proptest::test_runner::TestRunner::new(config_for(cases))
        .run(&strategy, |(endpoint, shapes, retries)| harness.check(endpoint, shapes, retries))
        .unwrap();
}

#[test]
fn index_methods_answer_ok_or_a_typed_error_whatever_the_server_sends() {
    run(&INDEX, 500);
}

#[test]
fn data_api_endpoints_answer_ok_or_a_typed_error_whatever_the_server_sends() {
    run(&DATA, 600);
}

#[test]
fn metrics_api_endpoints_answer_ok_or_a_typed_error_whatever_the_server_sends() {
    run(&METRICS, 400);
}
