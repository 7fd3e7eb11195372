//! Long strings of tool results held in JS (`held.js`): a JSON body of [`COPY_BODIES_BELOW`] or
//! more is parsed by the host, its long `result.content[*].text` / `.blob` strings stay there
//! under a mark, and only the rest of the message enters wasm memory. The engine never reads
//! those strings; the JS value built for the caller gets them back ([`restore`]). The same module
//! reads a body under its cap ([`read_capped_body`]) and makes a request's `fetch` init
//! ([`fetch_init`]).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/boundary/held.js")]
extern "C" {
    #[wasm_bindgen(js_name = holdContent)]
    fn hold_content(text: &JsValue, min_length: u32) -> JsValue;
    #[wasm_bindgen(js_name = restoreHeld)]
    fn restore_held(value: JsValue) -> JsValue;
    /// `reader.cancel()`, its rejection (an errored stream) ignored: a body given up before its
    /// end (`js::http::fetch`'s reader).
    #[wasm_bindgen(js_name = cancelQuietly)]
    pub fn cancel_quietly(reader: &web_sys::ReadableStreamDefaultReader);
    /// A `fetch` init from `head` (method, headers, redirect: a copy of its headers), the body
    /// when given and the signal (`js::http::fetch`).
    #[wasm_bindgen(js_name = fetchInit)]
    pub fn fetch_init(head: &JsValue, body: Option<&str>, signal: &web_sys::AbortSignal)
        -> JsValue;
    /// Resolves to the body's text, its bytes (a body from `from` bytes and under `below`) or
    /// `undefined` (more than `max_bytes`) (`js::http::fetch::capped_body`).
    #[wasm_bindgen(js_name = readCappedBody)]
    pub fn read_capped_body(
        stream: Option<web_sys::ReadableStream>,
        max_bytes: f64,
        from: u32,
        below: u32,
    ) -> js_sys::Promise;
}

/// Where every mark starts (held.js builds them as this, a nonce, `:` and a counter).
const HELD_PREFIX: &str = "\u{0}mcp-wasm-client:held:";

/// Bodies at least this long (UTF-16 units) are parsed by the host first; shorter ones cross
/// into wasm as they are (one copy, one parse), which is what a small message costs least as.
pub const HOLD_BODIES_FROM: u32 = 64 * 1024;

/// Bodies of at least [`HOLD_BODIES_FROM`] bytes and under this many are copied into the wasm as
/// bytes and read by serde_json there, their long strings crossing back on their own (as an SSE
/// event's do): no host `TextDecoder` of the whole body and no host `JSON.parse`, which is what
/// took a 1 MiB result's time (issue 42; docs/benchmarks.md). The wasm's memory, which never
/// shrinks, then grows once to about four times the largest such body (the bytes, serde_json's
/// scratch, the string); larger bodies are held as above, so it stays under 16 MiB for them.
pub const COPY_BODIES_BELOW: u32 = 4 * 1024 * 1024;

/// Content strings at least this long are held in JS.
const HOLD_STRINGS_FROM: u32 = 16 * 1024;

/// A JSON body (a JS string) as the JSON text Rust reads: for a large body, its long content
/// strings replaced by marks.
pub fn hold_long_content(body: &js_sys::JsString) -> String {
    if body.length() < HOLD_BODIES_FROM {
        return String::from(body);
    }
    hold_content(body, HOLD_STRINGS_FROM)
        .as_string()
        .unwrap_or_default()
}

/// Whether a string is a mark (then [`restore`] has work to do).
pub fn is_mark(s: &str) -> bool {
    s.starts_with(HELD_PREFIX)
}

/// Whether JSON text written from a `Value` holds a mark (its control character escaped).
pub fn has_marks(json_text: &str) -> bool {
    json_text.contains("\\u0000mcp-wasm-client:held:")
}

/// `value` (a JS value built from a `Value`) with the held strings put back.
pub fn restore(value: JsValue) -> JsValue {
    restore_held(value)
}
