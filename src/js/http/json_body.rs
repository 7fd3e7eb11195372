//! An `application/json` response body as JSON-RPC messages. A small body is read by the host
//! as a JS string and copied into the wasm as it is; a body from 64 KiB to 4 MiB is copied in as
//! bytes (no decode of the whole body in JS, no host `JSON.parse`) and read there by serde_json;
//! a larger one stays a JS string and keeps its long content strings in JS (`boundary::held`).
//! The size cap holds while reading: a declared length over it is refused before the body is
//! read, an undeclared one as soon as the bytes read pass it.

use crate::js::boundary::awaited::awaited;
use crate::js::boundary::error::error_text;
use crate::js::boundary::held;
use crate::js::http::fetch::Head;
use crate::js::http::fetch::{body_failed, capped_body, declared_length, too_large, utf8_text};
use crate::protocol::error::McpError;
use crate::protocol::jsonrpc::{decode, Message};
use js_sys::JsString;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The body's messages; a body over `max_bytes` is an error naming the cap.
pub async fn read_messages(
    head: &Head,
    max_bytes: usize,
    what: &str,
) -> Result<Vec<Message>, McpError> {
    let (from, below) = (held::HOLD_BODIES_FROM, held::COPY_BODIES_BELOW);
    let text = match declared_length(head) {
        Some(n) if n > max_bytes => return Err(too_large(what, max_bytes)),
        // Fewer bytes than HOLD_BODIES_FROM, so fewer UTF-16 units: nothing to hold.
        Some(n) if n < from as usize => whole_text(head, what).await?.into(),
        _ => match capped_body(head, max_bytes, what, from, below).await? {
            Ok(bytes) => utf8_text(bytes),
            Err(text) => held::hold_long_content(&text),
        },
    };
    decode(&text)
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
