//! What the helpers of `helpers.js` answer, read by name: `{ value }` when a helper did its job,
//! `{ failure: { kind, message, name } }` when it did not. No helper answers with a number, an
//! array or a throw; what Rust sends them with more than a few arguments is a named object too
//! ([`object`]).

use js_sys::{Object, Promise, Reflect};
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
    fn failure(this: &Outcome) -> Option<FailureObject>;

    /// `{ kind, message, name }`, as the helper built it.
    type FailureObject;
    #[wasm_bindgen(method, getter)]
    fn kind(this: &FailureObject) -> Option<String>;
    #[wasm_bindgen(method, getter)]
    fn message(this: &FailureObject) -> Option<String>;
    #[wasm_bindgen(method, getter)]
    fn name(this: &FailureObject) -> Option<String>;

    /// `authFetch`'s value: `{ status, body, dpopNonce }`.
    pub type FetchRead;
    /// The HTTP status.
    #[wasm_bindgen(method, getter)]
    pub fn status(this: &FetchRead) -> u16;
    /// The body's text (never more than the request's `maxBytes`).
    #[wasm_bindgen(method, getter)]
    pub fn body(this: &FetchRead) -> Option<String>;
    /// The `DPoP-Nonce` header, when the server sent one.
    #[wasm_bindgen(method, getter = dpopNonce)]
    pub fn dpop_nonce(this: &FetchRead) -> Option<String>;
}

/// Why a helper did not do its job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The step that failed, as `helpers.js` names it (`"unreachable"`, `"too_large"`, `"sign"`…).
    pub kind: String,
    /// Why, in words (the thrown error's text, or what was missing).
    pub message: String,
    /// The thrown error's `name` (`"PopupBlocked"`, `"AbortError"`…), when it had one.
    pub name: Option<String>,
}

impl Failure {
    fn from_js(f: &FailureObject) -> Failure {
        Failure {
            kind: f.kind().unwrap_or_default(),
            message: f.message().unwrap_or_else(|| "unknown error".into()),
            name: f.name(),
        }
    }

    /// A helper's promise that rejected (helpers settle with failures; this is a bug's path).
    fn rejected(e: &JsValue) -> Failure {
        let message = e
            .dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| "unknown error".into());
        Failure {
            kind: "rejected".into(),
            message,
            name: None,
        }
    }
}

impl Outcome {
    /// The value, or the failure.
    pub fn into_result(self) -> Result<JsValue, Failure> {
        match self.failure() {
            Some(f) => Err(Failure::from_js(&f)),
            None => Ok(self.value()),
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
