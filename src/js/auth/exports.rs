//! The exported helpers of the `auth` option: `authorizeWithPopup`, `authorizeWithRedirect`,
//! `authorizeHeadless`, `completeAuthorizationPopup`, `memoryStorage`, `webStorage`,
//! `indexedDbStorage`. Arguments are checked here; the objects are built by `helpers.js`.

use super::outcome::Outcome;
use crate::js::boundary::error as jserr;
use crate::js::boundary::options;
use crate::protocol::error::McpError;
use js_sys::Function;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/auth/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = popupAuthorizer)]
    fn popup_authorizer(features: &str, timeout_ms: f64, window: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = completePopup)]
    fn complete_popup(close: bool) -> bool;
    #[wasm_bindgen(js_name = redirectAuthorizer)]
    fn redirect_authorizer() -> JsValue;
    #[wasm_bindgen(js_name = headlessAuthorizer)]
    fn headless_authorizer(fetch: &JsValue, max_hops: u32) -> JsValue;
    #[wasm_bindgen(js_name = memoryStore)]
    fn memory_store() -> JsValue;
    #[wasm_bindgen(js_name = webStore)]
    fn web_store(storage: &JsValue) -> Outcome;
    #[wasm_bindgen(js_name = idbStore)]
    fn idb_store(name: &str) -> Outcome;
    #[wasm_bindgen(js_name = isStorage)]
    pub(super) fn is_storage(s: &JsValue) -> bool;
    #[wasm_bindgen(js_name = idJag)]
    fn id_jag(config: &JsValue) -> JsValue;
}

/// Default popup window features.
const POPUP_FEATURES: &str = "popup,width=520,height=720";
/// Default wait for the popup's callback: five minutes.
const POPUP_TIMEOUT_MS: u64 = 300_000;
/// Redirects a headless authorization follows on the AS before the callback.
const HEADLESS_MAX_HOPS: u32 = 10;

fn options_object(v: Option<JsValue>, what: &str) -> Result<JsValue, McpError> {
    let v = v.unwrap_or(JsValue::UNDEFINED);
    if !(v.is_null_or_undefined() || v.is_object()) || js_sys::Array::is_array(&v) {
        return Err(McpError::input(format!(
            "{what}: options must be an object"
        )));
    }
    Ok(v)
}

/// `authorizeWithPopup({ features, timeoutMs, window })`: opens the authorization page in a
/// popup (or navigates `window`, opened by the app in its click handler) and waits for the
/// callback page's `completeAuthorizationPopup()`.
#[wasm_bindgen(js_name = authorizeWithPopup, unchecked_return_type = "Authorize")]
pub fn authorize_with_popup(
    #[wasm_bindgen(unchecked_optional_param_type = "AuthorizeWithPopupOptions")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    (|| {
        const W: &str = "authorizeWithPopup options";
        let o = options_object(options, "authorizeWithPopup")?;
        let features = options::string(&o, "features", W)?;
        let timeout = options::positive_number(&o, "timeoutMs", W)?;
        let window = given_window(&o)?;
        Ok(popup_authorizer(
            features.as_deref().unwrap_or(POPUP_FEATURES),
            timeout.unwrap_or(POPUP_TIMEOUT_MS) as f64,
            &window,
        ))
    })()
    .map_err(jserr::to_js)
}

/// `options.window`: undefined or null (the client opens the popup), else a Window-like
/// object with `location` (the app opened it in its click handler).
fn given_window(o: &JsValue) -> Result<JsValue, McpError> {
    if o.is_null_or_undefined() {
        return Ok(JsValue::UNDEFINED);
    }
    let w = js_sys::Reflect::get(o, &"window".into())
        .map_err(|_| McpError::input("authorizeWithPopup options: window could not be read"))?;
    if w.is_null_or_undefined() {
        return Ok(JsValue::UNDEFINED);
    }
    let window_like = w.is_object()
        && !js_sys::Array::is_array(&w)
        && js_sys::Reflect::has(&w, &"location".into()).unwrap_or(false);
    if !window_like {
        return Err(McpError::input(
            "authorizeWithPopup options: window must be a window the app opened (window.open(\"\", \"mcp-sign-in\") in the click handler), or null",
        ));
    }
    Ok(w)
}

/// `authorizeWithRedirect()`: navigates the page to the authorization server; the call that
/// needed it rejects with `data.kind === "auth_redirect"`.
#[wasm_bindgen(js_name = authorizeWithRedirect, unchecked_return_type = "Authorize")]
pub fn authorize_with_redirect() -> JsValue {
    redirect_authorizer()
}

/// `authorizeHeadless({ fetch })`: fetches the authorization URL with `redirect: "manual"`
/// and reads the callback from `Location` (Node, Deno, tests; not in a browser).
#[wasm_bindgen(js_name = authorizeHeadless, unchecked_return_type = "Authorize")]
pub fn authorize_headless(
    #[wasm_bindgen(unchecked_optional_param_type = "{ fetch?: typeof fetch }")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    (|| {
        let o = options_object(options, "authorizeHeadless")?;
        let fetch: Option<Function> = options::function(&o, "fetch", "authorizeHeadless options")?;
        Ok(headless_authorizer(
            &fetch.map_or(JsValue::UNDEFINED, JsValue::from),
            HEADLESS_MAX_HOPS,
        ))
    })()
    .map_err(jserr::to_js)
}

/// `completeAuthorizationPopup({ close })`: on the callback page, hands the callback URL to
/// the page that opened the popup (same origin only) and closes the window. True when it
/// was handed over.
#[wasm_bindgen(js_name = completeAuthorizationPopup)]
pub fn complete_authorization_popup(
    #[wasm_bindgen(unchecked_optional_param_type = "{ close?: boolean }")] options: Option<JsValue>,
) -> Result<bool, JsValue> {
    (|| {
        let o = options_object(options, "completeAuthorizationPopup")?;
        let close = options::boolean(&o, "close", "completeAuthorizationPopup options")?;
        Ok(complete_popup(close.unwrap_or(true)))
    })()
    .map_err(jserr::to_js)
}

/// `memoryStorage()`: tokens live as long as the page or process (the default).
#[wasm_bindgen(js_name = memoryStorage, unchecked_return_type = "AuthStorage")]
pub fn memory_storage() -> JsValue {
    memory_store()
}

/// `webStorage(sessionStorage | localStorage)`: a Web Storage area as auth storage.
#[wasm_bindgen(js_name = webStorage, unchecked_return_type = "AuthStorage")]
pub fn web_storage(
    #[wasm_bindgen(unchecked_param_type = "Storage")] storage: JsValue,
) -> Result<JsValue, JsValue> {
    web_store(&storage)
        .into_result()
        .map_err(|f| jserr::to_js(McpError::input(f.message)))
}

/// `indexedDbStorage(name)`: an IndexedDB database of that name as auth storage.
#[wasm_bindgen(js_name = indexedDbStorage, unchecked_return_type = "AuthStorage")]
pub fn indexed_db_storage(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
) -> Result<JsValue, JsValue> {
    let name = options::non_empty(&name, "indexedDbStorage", "name").map_err(jserr::to_js)?;
    idb_store(&name)
        .into_result()
        .map_err(|f| jserr::to_js(McpError::input(f.message)))
}

/// `idJagAssertion({ idpTokenEndpoint, idToken, idpClientId, idpClientSecret })`: the
/// `assertion` of a `jwt_bearer` grant that exchanges the user's ID token for an ID-JAG at the
/// enterprise IdP (RFC 8693) before each token request.
#[wasm_bindgen(js_name = idJagAssertion, unchecked_return_type = "JwtBearerAssertion")]
pub fn id_jag_assertion(
    #[wasm_bindgen(unchecked_param_type = "IdJagOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    (|| {
        const W: &str = "idJagAssertion";
        if !options.is_object() || js_sys::Array::is_array(&options) {
            return Err(McpError::input(
                "idJagAssertion: pass { idpTokenEndpoint, idToken, idpClientId, idpClientSecret? }",
            ));
        }
        let need = |k: &str| {
            options::string(&options, k, W)?
                .filter(|s| !s.is_empty())
                .ok_or_else(|| McpError::input(format!("{W}: {k} is required")))
        };
        let endpoint = need("idpTokenEndpoint")?;
        if !crate::auth::url::is_acceptable_endpoint(&endpoint) {
            return Err(McpError::input(
                "idJagAssertion: idpTokenEndpoint must be an https URL (http only for loopback)",
            ));
        }
        need("idToken")?;
        need("idpClientId")?;
        options::string(&options, "idpClientSecret", W)?;
        Ok(id_jag(&options))
    })()
    .map_err(jserr::to_js)
}
