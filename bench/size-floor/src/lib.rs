//! Floor of the mandated stack: one async class method that POSTs JSON-RPC with gloo-net,
//! reads the body as text, splits SSE events, and reads the reply through the host's JSON.parse
//! (no JSON code in the wasm: the package's own crate left serde and serde_json too).
use std::cell::Cell;
use std::rc::Rc;

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = parse)]
    fn json_parse_catch(text: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify)]
    fn json_stringify(v: &JsValue) -> Option<String>;
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

fn get(v: &JsValue, k: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
}

/// The parsed message's answer: `error` rejects, else `result` (null when absent).
fn to_js(msg: &JsValue) -> Result<JsValue, JsValue> {
    let e = get(msg, "error");
    if !e.is_undefined() {
        return Err(e);
    }
    let r = get(msg, "result");
    Ok(if r.is_undefined() { JsValue::NULL } else { r })
}

/// JSON.parse that throws into a rejection; an object only.
fn parse(text: &str) -> Result<JsValue, JsValue> {
    let v = json_parse_catch(text)?;
    if !v.is_object() {
        return Err(JsValue::from_str("not a JSON-RPC message"));
    }
    Ok(v)
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
            // The body is composed as text: JSON.stringify does the escaping.
            let method_json = json_stringify(&JsValue::from_str(&method)).unwrap_or_default();
            let mut body = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":{method_json}");
            if !params.is_undefined() {
                if let Some(p) = json_stringify(&params) {
                    body.push_str(",\"params\":");
                    body.push_str(&p);
                }
            }
            body.push('}');
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
                return to_js(&parse(&text)?);
            }
            let mut parser = Sse::default();
            let mut events = Vec::new();
            parser.feed(&text, &mut events);
            parser.feed("\n\n", &mut events);
            for ev in events {
                if !ev.event.is_empty() && ev.event != "message" {
                    continue;
                }
                let msg = parse(&ev.data)?;
                if get(&msg, "id").as_f64() == Some(id as f64)
                    && get(&msg, "method").is_undefined()
                    && get(&msg, "jsonrpc").as_string().as_deref() == Some("2.0")
                {
                    return to_js(&msg);
                }
            }
            Err(JsValue::from_str("no response"))
        })
    }
}
