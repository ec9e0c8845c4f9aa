//! A scripted node serving `/ext/index/X/tx` the way proxies, balancers and lagging nodes do.
//!
//! The fixed [`Script`] sets standing misbehaviour (answers capped at `cap`, a lagging node in
//! front of `lag_from`, empty answers, a tip reported at the top of u64). A [`Plan`], when set,
//! decides each request on its own (an HTTP status, a cut or truncated body, a short prefix, a
//! lagging "past the tip" answer, an older tip read, a JSON-RPC error, a bad checksum), so that
//! property tests can draw a whole schedule of faults.

#![allow(dead_code)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use avax_data_core::index::cb58;
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use bytes::Bytes;
use serde_json::{json, Value};

/// What the scripted node does on every request.
#[derive(Clone, Copy, Debug)]
pub struct Script {
    /// Containers the node holds: indices `0..len`.
    pub len: u64,
    /// Most containers per answer (a proxy cutting answers short).
    pub cap: u64,
    /// Requests starting at or above this index answer "past the tip" this many times first.
    pub lag_from: u64,
    pub lag_times: u64,
    /// Answer an empty list (instead of containers) this many times for starts above `lag_from`.
    pub empty_times: u64,
    /// The tip getLastAccepted reports (default `len - 1`).
    pub reported_tip: Option<u64>,
}

/// A node of `len` containers that answers every request correctly.
pub fn script(len: u64) -> Script {
    Script { len, cap: u64::MAX, lag_from: u64::MAX, lag_times: 0, empty_times: 0, reported_tip: None }
}

/// One request, as a [`Plan`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// `index.getLastAccepted`, the `n`-th one (from 0).
    Tip { n: u64 },
    /// `index.getContainerRange` from `start` for `count`, the `n`-th time this start is asked.
    Range { start: u64, count: u64, n: u64 },
}

/// What the node does with one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// The true answer.
    Serve,
    /// This HTTP status with a proxy's plain-text body (`Retry-After: 0` on 429).
    Status(u16),
    /// The headers with the full `content-length`, half the body, then the connection drops.
    Cut,
    /// A complete HTTP answer holding the first half of the JSON.
    Truncated,
    /// A range answer of the first `k` containers (at least 1, fewer than the true answer).
    Short(u64),
    /// A range answer from a node `by` containers behind: "start index (S) > last accepted
    /// index (L)" (only for a start at or below the true tip and above 0).
    Lag(u64),
    /// A tip read from a node `by` containers behind. Never older than a start the node has
    /// already answered "past the tip" for: a lagging answer followed by a lagging tip read
    /// would be indistinguishable from the true end of the index.
    OlderTip(u64),
    /// A JSON-RPC error the walk must not retry ("database closed").
    RpcError,
    /// One container's checksum is wrong.
    BadChecksum,
}

/// Decides what the node does with each request.
pub type Plan = Arc<dyn Fn(Call) -> Act + Send + Sync>;

/// The node's state, shared with the test.
pub struct Node {
    pub script: Script,
    plan: Option<Plan>,
    lagged: AtomicU64,
    emptied: AtomicU64,
    /// `getContainerRange` calls served (every answer counts).
    pub range_calls: AtomicU64,
    tip_calls: AtomicU64,
    asked: Mutex<std::collections::HashMap<u64, u64>>,
    /// One past the highest start answered "past the tip" by a [`Act::Lag`] (0: none).
    lagged_past: AtomicU64,
    /// The tips read, in the order they were answered.
    pub tips: Mutex<Vec<u64>>,
    /// Faults produced, by kind.
    pub acts: Mutex<std::collections::BTreeMap<&'static str, u64>>,
}

/// The container at index `i`: 42 bytes whose id is their sha256, as an X/tx index has.
pub fn bytes_of(i: u64) -> Vec<u8> {
    let mut b = vec![0, 0];
    b.extend(i.to_be_bytes());
    b.extend([7u8; 40]);
    b
}

/// The wire form of container `i`.
pub fn wire(i: u64) -> Value {
    let bytes = bytes_of(i);
    json!({"id": cb58::container_id(&bytes), "bytes": cb58::encode_hex_with_checksum(&bytes),
           "timestamp": "2024-01-01T00:00:00Z", "encoding": "hex", "index": i.to_string()})
}

/// A JSON-RPC error envelope with the node's code.
pub fn error(message: String) -> Value {
    json!({"jsonrpc": "2.0", "error": {"code": -32000, "message": message, "data": null}, "id": 1})
}

fn ok(result: Value) -> Value {
    json!({"jsonrpc": "2.0", "result": result, "id": 1})
}

fn body_response(value: &Value) -> Response {
    let mut response = Json(value).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, "application/json".parse().unwrap());
    response
}

impl Node {
    fn count(&self, kind: &'static str) {
        *self.acts.lock().unwrap().entry(kind).or_default() += 1;
    }

    fn act(&self, call: Call) -> Act {
        self.plan.as_ref().map_or(Act::Serve, |plan| plan(call))
    }

    /// The answer to getLastAccepted.
    fn tip_answer(&self) -> Response {
        let s = self.script;
        let n = self.tip_calls.fetch_add(1, Ordering::SeqCst);
        if s.len == 0 {
            return body_response(&error("no containers have been accepted".into()));
        }
        let true_tip = s.reported_tip.unwrap_or(s.len - 1);
        let act = self.act(Call::Tip { n });
        let tip = match act {
            Act::OlderTip(by) => {
                let floor = self.lagged_past.load(Ordering::SeqCst).saturating_sub(1);
                let older = true_tip.saturating_sub(by).max(floor).min(true_tip);
                if older < true_tip {
                    self.count("older_tip");
                }
                older
            }
            _ => true_tip,
        };
        let value = ok(self.tip_container(tip));
        if let Some(response) = self.transport_act(act, &value) {
            return response;
        }
        self.tips.lock().unwrap().push(tip);
        body_response(&value)
    }

    fn tip_container(&self, tip: u64) -> Value {
        let mut c = wire(tip.min(self.script.len - 1));
        c["index"] = json!(tip.to_string());
        c
    }

    /// Acts that do not depend on the method: the response to send instead of `value`.
    fn transport_act(&self, act: Act, value: &Value) -> Option<Response> {
        let text = value.to_string().into_bytes();
        match act {
            Act::Status(code) => {
                self.count(match code {
                    429 => "429",
                    500..=599 => "5xx",
                    _ => "status",
                });
                let status = StatusCode::from_u16(code).unwrap();
                let mut response = (status, format!("{code} proxy error\n")).into_response();
                if code == 429 {
                    response.headers_mut().insert(header::RETRY_AFTER, "0".parse().unwrap());
                }
                Some(response)
            }
            Act::Cut => {
                self.count("cut");
                let half = Bytes::from(text[..text.len() / 2].to_vec());
                let parts: Vec<Result<Bytes, std::io::Error>> =
                    vec![Ok(half), Err(std::io::Error::new(std::io::ErrorKind::ConnectionReset, "cut"))];
                let mut response = Response::new(Body::from_stream(futures::stream::iter(parts)));
                response.headers_mut().insert(header::CONTENT_LENGTH, text.len().into());
                response.headers_mut().insert(header::CONTENT_TYPE, "application/json".parse().unwrap());
                Some(response)
            }
            Act::Truncated => {
                self.count("truncated");
                let mut response = Response::new(Body::from(text[..text.len() / 2].to_vec()));
                response.headers_mut().insert(header::CONTENT_TYPE, "application/json".parse().unwrap());
                Some(response)
            }
            Act::RpcError => {
                self.count("rpc_error");
                Some(body_response(&error("database closed".into())))
            }
            _ => None,
        }
    }

    fn range_answer(&self, start: u64, count: u64) -> Response {
        let s = self.script;
        self.range_calls.fetch_add(1, Ordering::SeqCst);
        let n = {
            let mut asked = self.asked.lock().unwrap();
            let n = asked.entry(start).or_default();
            *n += 1;
            *n - 1
        };
        if s.len == 0 {
            return body_response(&error("no containers have been accepted".into()));
        }
        if start >= s.lag_from && self.lagged.fetch_add(1, Ordering::SeqCst) < s.lag_times {
            return body_response(&error(format!("start index ({start}) > last accepted index ({})", s.lag_from - 1)));
        }
        if start >= s.lag_from && self.emptied.fetch_add(1, Ordering::SeqCst) < s.empty_times {
            return body_response(&ok(json!({"containers": []})));
        }
        if start >= s.len {
            return body_response(&error(format!("start index ({start}) > last accepted index ({})", s.len - 1)));
        }
        let end = (start + count.min(s.cap)).min(s.len);
        let act = self.act(Call::Range { start, count, n });
        let end = match act {
            Act::Lag(by) if start > 0 => {
                self.count("lag");
                let last = start.saturating_sub(1).saturating_sub(by);
                self.lagged_past.fetch_max(start + 1, Ordering::SeqCst);
                return body_response(&error(format!("start index ({start}) > last accepted index ({last})")));
            }
            Act::Short(k) if end - start > 1 => {
                self.count("short");
                start + k.clamp(1, end - start - 1)
            }
            _ => end,
        };
        let mut items: Vec<Value> = (start..end).map(wire).collect();
        if act == Act::BadChecksum {
            self.count("bad_checksum");
            let last = items.len() - 1;
            let bytes = items[last]["bytes"].as_str().unwrap().to_string();
            let flipped = if bytes.ends_with('0') { "1" } else { "0" };
            items[last]["bytes"] = json!(format!("{}{flipped}", &bytes[..bytes.len() - 1]));
        }
        let value = ok(json!({"containers": items}));
        self.transport_act(act, &value).unwrap_or_else(|| body_response(&value))
    }
}

async fn handle(State(node): State<Arc<Node>>, Json(req): Json<Value>) -> Response {
    let params = &req["params"];
    let num = |v: &Value| v.as_u64().or_else(|| v.as_str().and_then(|t| t.parse().ok())).unwrap();
    match req["method"].as_str().unwrap() {
        "index.getLastAccepted" => node.tip_answer(),
        "index.getContainerRange" => node.range_answer(num(&params["startIndex"]), num(&params["numToFetch"])),
        other => body_response(&error(format!("rpc: can't find method \"{other}\""))),
    }
}

/// Serves `script` (and `plan`, when given) on a loopback port; returns its URL and state.
pub async fn serve_planned(script: Script, plan: Option<Plan>) -> (String, Arc<Node>) {
    let node = Arc::new(Node {
        script,
        plan,
        lagged: AtomicU64::new(0),
        emptied: AtomicU64::new(0),
        range_calls: AtomicU64::new(0),
        tip_calls: AtomicU64::new(0),
        asked: Mutex::default(),
        lagged_past: AtomicU64::new(0),
        tips: Mutex::default(),
        acts: Mutex::default(),
    });
    let app = Router::new().route("/ext/index/X/tx", post(handle)).with_state(node.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, node)
}

/// Serves `script` on a loopback port; returns its URL and state.
pub async fn serve(script: Script) -> (String, Arc<Node>) {
    serve_planned(script, None).await
}
