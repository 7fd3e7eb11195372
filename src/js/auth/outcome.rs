//! What the helpers of `helpers.js` answer, read by name: `{ value }` when a helper did its job,
//! `{ failure: { kind, message, name } }` when it did not. No helper answers with a number, an
//! array or a throw; what Rust sends them with more than a few arguments is a named object too
//! ([`object`], or a serde-wasm-bindgen record). Records of fixed fields ([`Failure`],
//! [`FetchRead`], [`FetchRequest`]) are derived structs read and written by serde-wasm-bindgen.

use js_sys::{Object, Promise, Reflect};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// A helper's answer: `{ value }` or `{ failure }`.
    pub type Outcome;
    #[wasm_bindgen(method, getter)]
    fn value(this: &Outcome) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn failure(this: &Outcome) -> JsValue;
}

/// `authFetch`'s request: what to send and how much of the answer to read.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FetchRequest<'a> {
    /// Where.
    pub url: &'a str,
    /// `GET` or `POST`.
    pub method: &'a str,
    /// `Content-Type` of the body.
    pub content_type: Option<&'a str>,
    /// `Authorization` (client_secret_basic).
    pub authorization: Option<&'a str>,
    /// A `DPoP` proof.
    pub dpop: Option<&'a str>,
    /// The body.
    pub body: Option<&'a str>,
    /// The most bytes of the answer to read.
    pub max_bytes: usize,
}

/// `authFetch`'s value: `{ status, body, dpopNonce }`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FetchRead {
    /// The HTTP status.
    pub status: u16,
    /// The body's text (never more than the request's `maxBytes`).
    pub body: Option<String>,
    /// The `DPoP-Nonce` header, when the server sent one.
    pub dpop_nonce: Option<String>,
}

impl FetchRead {
    /// Reads `authFetch`'s value; a value of another shape is a failure naming it.
    pub fn from_js(value: JsValue) -> Result<FetchRead, Failure> {
        serde_wasm_bindgen::from_value(value).map_err(|e| Failure {
            kind: "not_a_response".into(),
            message: format!("authFetch answered an unexpected value: {e}"),
            name: None,
        })
    }
}

/// A record for a helper (`None` fields are `undefined`).
pub fn record(value: &impl Serialize) -> JsValue {
    // Records of strings, numbers and options: serialization cannot fail.
    serde_wasm_bindgen::to_value(value).unwrap_or(JsValue::UNDEFINED)
}

/// Why a helper did not do its job: `{ kind, message, name }`, as the helper built it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Failure {
    /// The step that failed, as `helpers.js` names it (`"unreachable"`, `"too_large"`, `"sign"`…).
    #[serde(default)]
    pub kind: String,
    /// Why, in words (the thrown error's text, or what was missing).
    #[serde(default = "unknown_error")]
    pub message: String,
    /// The thrown error's `name` (`"PopupBlocked"`, `"AbortError"`…), when it had one.
    pub name: Option<String>,
}

fn unknown_error() -> String {
    "unknown error".into()
}

impl Failure {
    /// Reads a helper's failure record; one of another shape is a failure saying so.
    fn from_js(f: JsValue) -> Failure {
        serde_wasm_bindgen::from_value(f).unwrap_or_else(|e| Failure {
            kind: "rejected".into(),
            message: format!("a helper failed with an unexpected record: {e}"),
            name: None,
        })
    }

    /// A helper's promise that rejected (helpers settle with failures; this is a bug's path).
    fn rejected(e: &JsValue) -> Failure {
        Failure {
            kind: "rejected".into(),
            message: crate::js::boundary::error::error_text(e),
            name: None,
        }
    }
}

impl Outcome {
    /// The value, or the failure.
    pub fn into_result(self) -> Result<JsValue, Failure> {
        let failure = self.failure();
        if failure.is_null_or_undefined() {
            Ok(self.value())
        } else {
            Err(Failure::from_js(failure))
        }
    }
}

/// Awaits a helper that settles with an outcome: its value, or its failure.
pub async fn settled(outcome: Promise) -> Result<JsValue, Failure> {
    let o = JsFuture::from(outcome)
        .await
        .map_err(|e| Failure::rejected(&e))?;
    o.unchecked_into::<Outcome>().into_result()
}

/// A plain object of these named fields (`None` fields are `undefined`).
pub fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (name, value) in fields {
        // Setting a data property of a fresh plain object cannot fail.
        let _ = Reflect::set(&o, &JsValue::from_str(name), value);
    }
    o.into()
}
