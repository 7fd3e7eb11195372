//! An `application/json` response body as JSON-RPC messages. The body is read by the host and
//! stays a JS string until we know what it holds: a large one keeps its long content strings in
//! JS (`boundary::held`), so a 1 MiB tool result never enters wasm memory; the rest is read by
//! serde_json in Rust. The size cap holds while reading: a declared length over it is refused
//! before the body is read, an undeclared one as soon as the bytes read pass it.

use crate::js::boundary::awaited::awaited;
use crate::js::boundary::error::error_text;
use crate::js::boundary::held;
use crate::js::http::fetch::{body_failed, declared_length, too_large, Head};
use crate::protocol::error::McpError;
use crate::protocol::jsonrpc::{decode, Message};
use js_sys::JsString;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/src/js/boundary/held.js")]
extern "C" {
    /// Resolves to `{ text }` or `{ tooLarge: true }` (see held.js).
    #[wasm_bindgen(js_name = readCappedText)]
    fn read_capped_text(stream: Option<web_sys::ReadableStream>, max_bytes: f64)
        -> js_sys::Promise;
}

/// The body's messages; a body over `max_bytes` is an error naming the cap.
pub async fn read_messages(
    head: &Head,
    max_bytes: usize,
    what: &str,
) -> Result<Vec<Message>, McpError> {
    let text = match declared_length(head) {
        Some(n) if n > max_bytes => return Err(too_large(what, max_bytes)),
        Some(_) => whole_text(head, what).await?,
        None => capped_text(head, max_bytes, what).await?,
    };
    decode(&held::hold_long_content(&text))
}

/// The error for a body that could not be read.
fn failed(what: &str, e: &JsValue) -> McpError {
    body_failed(what, &error_text(e))
}

/// A body of declared length, read whole by the host (`Response.text()`: the text stays a JS
/// string).
async fn whole_text(head: &Head, what: &str) -> Result<JsString, McpError> {
    let promise = head.response.text().map_err(|e| failed(what, &e))?;
    let text = awaited(&promise).await.map_err(|e| failed(what, &e))?;
    text.dyn_into::<JsString>()
        .map_err(|_| failed(what, &"Response.text() gave no string".into()))
}

/// A body of unknown length, read by the host chunk by chunk (the chunks stay in JS) and refused
/// as soon as it passes `max_bytes`; malformed UTF-8 reads as U+FFFD.
async fn capped_text(head: &Head, max_bytes: usize, what: &str) -> Result<JsString, McpError> {
    let read = read_capped_text(head.response.body(), max_bytes as f64);
    let outcome = awaited(&read).await.map_err(|e| failed(what, &e))?;
    let field = |k: &str| js_sys::Reflect::get(&outcome, &k.into()).unwrap_or_default();
    if field("tooLarge").is_truthy() {
        return Err(too_large(what, max_bytes));
    }
    field("text")
        .dyn_into::<JsString>()
        .map_err(|_| failed(what, &"the body reader gave no text".into()))
}
