//! Floor of the mandated stack: one async class method that POSTs JSON-RPC with gloo-net,
//! reads the body as text, parses it (plain JSON or SSE) with serde_json into a derived struct,
//! and returns the result through the host's JSON.parse.
use std::cell::Cell;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse)]
    fn json_parse(text: &str) -> JsValue;
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify)]
    fn json_stringify(v: &JsValue) -> Option<String>;
}

#[derive(Serialize)]
struct Request<'a> {
    jsonrpc: &'static str,
    id: u64,
    method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<Value>,
}

#[derive(Deserialize, Serialize)]
struct RpcError {
    code: i64,
    message: String,
    #[serde(default)]
    data: Option<Value>,
}

#[derive(Deserialize, Serialize)]
struct Response {
    jsonrpc: String,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    result: Option<Value>,
    #[serde(default)]
    error: Option<RpcError>,
}

/// A minimal incremental SSE parser: CR, LF or CRLF line ends; event/data/id/retry fields.
#[derive(Default)]
struct Sse {
    buf: String,
    data: String,
    event: String,
    last_id: String,
    retry: Option<u64>,
}

struct Event {
    event: String,
    data: String,
}

impl Sse {
    fn feed(&mut self, chunk: &str, out: &mut Vec<Event>) {
        self.buf.push_str(chunk);
        loop {
            let Some(end) = self.buf.find(|c| c == '\n' || c == '\r') else {
                break;
            };
            let mut next = end + 1;
            if self.buf.as_bytes()[end] == b'\r' && self.buf.as_bytes().get(next) == Some(&b'\n') {
                next += 1;
            }
            let line: String = self.buf[..end].to_owned();
            self.buf.drain(..next);
            self.line(&line, out);
        }
    }
    fn line(&mut self, line: &str, out: &mut Vec<Event>) {
        if line.is_empty() {
            if !self.data.is_empty() {
                if self.data.ends_with('\n') {
                    self.data.pop();
                }
                out.push(Event {
                    event: std::mem::take(&mut self.event),
                    data: std::mem::take(&mut self.data),
                });
            }
            self.event.clear();
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.find(':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (line, ""),
        };
        match field {
            "data" => {
                self.data.push_str(value);
                self.data.push('\n');
            }
            "event" => self.event = value.to_owned(),
            "id" => {
                if !value.contains('\0') {
                    self.last_id = value.to_owned()
                }
            }
            "retry" => {
                if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
                    self.retry = value.parse().ok();
                }
            }
            _ => {}
        }
    }
}

fn err(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

fn to_js(resp: Response) -> Result<JsValue, JsValue> {
    if let Some(e) = resp.error {
        return Err(json_parse(&serde_json::to_string(&e).map_err(err)?));
    }
    Ok(json_parse(
        &serde_json::to_string(&resp.result).map_err(err)?,
    ))
}

#[wasm_bindgen]
pub struct Client {
    url: Rc<str>,
    next_id: Rc<Cell<u64>>,
}

#[wasm_bindgen]
impl Client {
    #[wasm_bindgen(constructor)]
    pub fn new(url: String) -> Client {
        Client {
            url: url.into(),
            next_id: Rc::new(Cell::new(1)),
        }
    }

    /// request(method, params) → Promise<result>
    pub fn request(&self, method: String, params: JsValue) -> js_sys::Promise {
        let url = self.url.clone();
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        wasm_bindgen_futures::future_to_promise(async move {
            let params = match json_stringify(&params) {
                Some(t) if !params.is_undefined() => {
                    Some(serde_json::from_str::<Value>(&t).map_err(err)?)
                }
                _ => None,
            };
            let body = serde_json::to_string(&Request {
                jsonrpc: "2.0",
                id,
                method: &method,
                params,
            })
            .map_err(err)?;
            let resp = gloo_net::http::Request::post(&url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .body(body)
                .map_err(err)?
                .send()
                .await
                .map_err(err)?;
            if !resp.ok() {
                return Err(JsValue::from_str(&resp.status_text()));
            }
            let sse = resp
                .headers()
                .get("content-type")
                .is_some_and(|c| c.starts_with("text/event-stream"));
            let text = resp.text().await.map_err(err)?;
            if !sse {
                return to_js(serde_json::from_str::<Response>(&text).map_err(err)?);
            }
            let mut parser = Sse::default();
            let mut events = Vec::new();
            parser.feed(&text, &mut events);
            parser.feed("\n\n", &mut events);
            for ev in events {
                if !ev.event.is_empty() && ev.event != "message" {
                    continue;
                }
                let msg: Response = serde_json::from_str(&ev.data).map_err(err)?;
                if msg.id == Some(id) && msg.method.is_none() && msg.jsonrpc == "2.0" {
                    return to_js(msg);
                }
            }
            Err(JsValue::from_str("no response"))
        })
    }
}
