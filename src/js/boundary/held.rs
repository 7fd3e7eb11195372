//! Long strings of tool results held in JS (`held.js`): a large JSON body is parsed by the host,
//! its long `result.content[*].text` / `.blob` strings stay there under a mark, and only the
//! rest of the message enters wasm memory. The engine never reads those strings; the JS value
//! built for the caller gets them back ([`restore`]). The same module makes a request's `fetch`
//! init ([`fetch_init`]).

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
}

/// Where every mark starts (held.js builds them as this, a nonce, `:` and a counter).
const HELD_PREFIX: &str = "\u{0}mcp-wasm-client:held:";

/// Bodies at least this long (UTF-16 units) are parsed by the host first; shorter ones cross
/// into wasm as they are (one copy, one parse), which is what a small message costs least as.
pub const HOLD_BODIES_FROM: u32 = 64 * 1024;

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
