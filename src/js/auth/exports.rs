//! The `auth` option's builders as exports of the glue: `authorizeWithPopup`,
//! `authorizeWithRedirect`, `authorizeHeadless`, `completeAuthorizationPopup`, `memoryStorage`,
//! `webStorage`, `indexedDbStorage`, `idJagAssertion`. They are plain JS (`builders.js`, which
//! checks the arguments and builds the objects), usable before the module is ready: the package's
//! entries export them from there. These shims keep them on the glue itself (a plain `wasm-pack
//! build`, and code that imports the glue) with their TypeScript declarations.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/auth/builders.js")]
extern "C" {
    #[wasm_bindgen(js_name = authorizeWithPopup, catch)]
    pub(super) fn popup(options: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = authorizeWithRedirect)]
    fn redirect() -> JsValue;
    #[wasm_bindgen(js_name = authorizeHeadless, catch)]
    pub(super) fn headless(options: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = completeAuthorizationPopup, catch)]
    fn complete_popup(options: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(js_name = memoryStorage)]
    pub(super) fn memory() -> JsValue;
    #[wasm_bindgen(js_name = webStorage, catch)]
    fn web(storage: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = indexedDbStorage, catch)]
    fn indexed_db(name: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = idJagAssertion, catch)]
    fn id_jag(options: &JsValue) -> Result<JsValue, JsValue>;
}

/// `authorizeWithPopup({ features, timeoutMs, window })`: builders.js's.
#[wasm_bindgen(js_name = authorizeWithPopup, unchecked_return_type = "Authorize")]
pub fn authorize_with_popup(
    #[wasm_bindgen(unchecked_optional_param_type = "AuthorizeWithPopupOptions")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    popup(&options.unwrap_or(JsValue::UNDEFINED))
}

/// `authorizeWithRedirect()`: builders.js's.
#[wasm_bindgen(js_name = authorizeWithRedirect, unchecked_return_type = "Authorize")]
pub fn authorize_with_redirect() -> JsValue {
    redirect()
}

/// `authorizeHeadless({ fetch })`: builders.js's.
#[wasm_bindgen(js_name = authorizeHeadless, unchecked_return_type = "Authorize")]
pub fn authorize_headless(
    #[wasm_bindgen(unchecked_optional_param_type = "{ fetch?: typeof fetch }")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    headless(&options.unwrap_or(JsValue::UNDEFINED))
}

/// `completeAuthorizationPopup({ close })`: builders.js's.
#[wasm_bindgen(js_name = completeAuthorizationPopup)]
pub fn complete_authorization_popup(
    #[wasm_bindgen(unchecked_optional_param_type = "{ close?: boolean }")] options: Option<JsValue>,
) -> Result<bool, JsValue> {
    complete_popup(&options.unwrap_or(JsValue::UNDEFINED))
}

/// `memoryStorage()`: builders.js's.
#[wasm_bindgen(js_name = memoryStorage, unchecked_return_type = "AuthStorage")]
pub fn memory_storage() -> JsValue {
    memory()
}

/// `webStorage(sessionStorage | localStorage)`: builders.js's.
#[wasm_bindgen(js_name = webStorage, unchecked_return_type = "AuthStorage")]
pub fn web_storage(
    #[wasm_bindgen(unchecked_param_type = "Storage")] storage: JsValue,
) -> Result<JsValue, JsValue> {
    web(&storage)
}

/// `indexedDbStorage(name)`: builders.js's.
#[wasm_bindgen(js_name = indexedDbStorage, unchecked_return_type = "AuthStorage")]
pub fn indexed_db_storage(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
) -> Result<JsValue, JsValue> {
    indexed_db(&name)
}

/// `idJagAssertion({ idpTokenEndpoint, idToken, idpClientId, idpClientSecret })`: builders.js's.
#[wasm_bindgen(js_name = idJagAssertion, unchecked_return_type = "JwtBearerAssertion")]
pub fn id_jag_assertion(
    #[wasm_bindgen(unchecked_param_type = "IdJagOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    id_jag(&options)
}
