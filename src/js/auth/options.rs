//! Reading the `auth` option of `new Client(url, { auth })` into the flow's `AuthConfig` and
//! its JS host, with errors that name the offending field.

use super::exports::{headless, memory, popup};
use super::host::JsAuthHost;
use crate::auth::client::AuthMethod;
use crate::auth::client::ClientInformation;
use crate::auth::flow::{AssertionSource, AuthConfig, Authorizer, GrantConfig, StaticClient};
use crate::auth::jose::Alg;
use crate::auth::registration::check_metadata_url;
use crate::auth::scopes::StepUpPolicy;
use crate::js::boundary::options::Reader;
use crate::json::Value;
use crate::protocol::error::ErrorKind;
use crate::protocol::error::McpError;
use crate::util::secret::Secret;
use js_sys::{Function, Reflect};
use std::rc::Rc;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

#[wasm_bindgen(module = "/src/js/auth/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = isStorage)]
    fn is_storage(s: &JsValue) -> bool;
}

/// The client's authorization flow in JS.
pub type JsAuthorizer = Authorizer<JsAuthHost>;

const SCOPE: &str = "options.auth";

fn field(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

fn client_information(r: &mut Reader, auth: &JsValue) -> Option<ClientInformation> {
    let v = r.json_object(auth, "clientInformation")?;
    let text = |r: &mut Reader, k: &str| -> Option<String> {
        match v.get(k) {
            Some(Value::String(s)) => Some(s.clone()),
            None | Some(Value::Null) => None,
            Some(_) => {
                r.fail(McpError::input(
                    ["options.auth.clientInformation.", k, " must be a string"].concat(),
                ));
                None
            }
        }
    };
    let Some(client_id) = text(r, "client_id").filter(|s| !s.is_empty()) else {
        r.fail_with("options.auth.clientInformation needs a client_id");
        return None;
    };
    let client_secret = text(r, "client_secret").filter(|s| !s.is_empty());
    let token_endpoint_auth_method = text(r, "token_endpoint_auth_method");
    let issuer = text(r, "issuer");
    Some(ClientInformation {
        client_id,
        client_secret: client_secret.map(Secret::new),
        token_endpoint_auth_method,
        issuer,
        client_secret_expires_at: v.get("client_secret_expires_at").and_then(Value::as_u64),
    })
}

fn storage(r: &mut Reader, auth: &JsValue) -> JsValue {
    if !r.ok() {
        return JsValue::UNDEFINED;
    }
    let s = field(auth, "storage");
    if s.is_null_or_undefined() {
        return memory();
    }
    if !is_storage(&s) {
        r.fail_with("options.auth.storage must be an object with get, set and delete functions (memoryStorage(), webStorage(sessionStorage), indexedDbStorage(name))");
    }
    s
}

fn max_step_up(r: &mut Reader, auth: &JsValue) -> u32 {
    let Some(v) = r.value(auth, "maxStepUp") else {
        return 1;
    };
    match v.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 && n.fract() == 0.0 => n.min(10.0) as u32,
        _ => {
            r.fail_with("options.auth.maxStepUp must be a whole number ≥ 0");
            1
        }
    }
}

/// The `grant` option, read: the flow's config and what the host keeps (key, callback).
struct GrantOption {
    config: GrantConfig,
    key: Option<JsValue>,
    alg: Alg,
    assertion: Option<Function>,
    /// A secret or private key is configured (confidential client).
    confidential: bool,
}

/// Reads `options.auth.grant` (`g`, undefined or null when absent) with `r` scoped to it.
fn grant(r: &mut Reader, g: &JsValue) -> GrantOption {
    let mut out = GrantOption {
        config: GrantConfig::AuthorizationCode,
        key: None,
        alg: Alg::Es256,
        assertion: None,
        confidential: false,
    };
    if g.is_null_or_undefined() || !r.ok() {
        return out;
    }
    if !g.is_object() || js_sys::Array::is_array(g) {
        r.fail_with("options.auth.grant must be an object");
        return out;
    }
    let kind = r.string(g, "type");
    match kind.as_deref() {
        Some("authorization_code") => return out,
        Some("client_credentials" | "jwt_bearer") => {}
        other => {
            let other = other.map_or("missing".to_string(), crate::util::quote::quoted);
            r.fail(crate::auth::errors::auth_error(
                ErrorKind::UnsupportedGrant,
                [
                    "options.auth.grant.type must be \"authorization_code\", \"client_credentials\" or \"jwt_bearer\", not ",
                    &other,
                ]
                .concat(),
                Value::Null,
            ));
            return out;
        }
    }
    let Some(client) = static_client(r, g, &mut out) else {
        return out;
    };
    if !r.ok() {
        return out;
    }
    if kind.as_deref() == Some("client_credentials") {
        if !out.confidential {
            r.fail_with("options.auth.grant: client_credentials needs clientSecret or privateKey");
        }
        out.config = GrantConfig::ClientCredentials(client);
        return out;
    }
    // jwt_bearer (the type was checked above)
    if let Some(source) = assertion_source(r, g, &mut out) {
        out.config = GrantConfig::JwtBearer(client, source);
    }
    out
}

/// The grant's client: `clientId`, its secret or private key (kept in `out`, with the
/// algorithm and whether the client is confidential) and its secret method. `None` without a
/// `clientId`.
fn static_client(r: &mut Reader, g: &JsValue, out: &mut GrantOption) -> Option<StaticClient> {
    let Some(client_id) = r.string(g, "clientId").filter(|s| !s.is_empty()) else {
        r.fail_with("options.auth.grant.clientId is required");
        return None;
    };
    let secret = r.string(g, "clientSecret").filter(|s| !s.is_empty());
    let key = r.value(g, "privateKey");
    if let Some(k) = &key {
        if !(k.is_string() || (k.is_object() && field(k, "algorithm").is_object())) {
            r.fail_with("options.auth.grant.privateKey must be a CryptoKey or a PKCS#8 PEM string");
        }
    }
    if let Some(a) = r.string(g, "algorithm") {
        match Alg::parse(&a) {
            Some(alg) => out.alg = alg,
            None => r.fail_with("options.auth.grant.algorithm must be \"ES256\" or \"RS256\""),
        }
    }
    let method = r.string(g, "method").and_then(|m| match AuthMethod::parse(&m) {
        Some(m @ (AuthMethod::ClientSecretBasic | AuthMethod::ClientSecretPost)) => Some(m),
        _ => {
            r.fail_with("options.auth.grant.method must be \"client_secret_basic\" or \"client_secret_post\"");
            None
        }
    });
    out.confidential = secret.is_some() || key.is_some();
    let client = StaticClient {
        info: ClientInformation {
            client_id,
            client_secret: secret.map(Secret::new),
            token_endpoint_auth_method: None,
            issuer: r.string(g, "issuer"),
            client_secret_expires_at: None,
        },
        method,
        signing: key.as_ref().map(|_| out.alg),
    };
    out.key = key;
    Some(client)
}

/// Where a `jwt_bearer` grant's assertion comes from: an `idJagAssertion(...)` exchange or the
/// app's function (kept in `out`); `None` (the error in `r`) for anything else.
fn assertion_source(r: &mut Reader, g: &JsValue, out: &mut GrantOption) -> Option<AssertionSource> {
    let a = field(g, "assertion");
    let id_jag = field(&a, "mcpWasmClientIdJag");
    if id_jag.is_object() {
        let text = |k: &str| field(&id_jag, k).as_string().filter(|s| !s.is_empty());
        let token_endpoint = text("idpTokenEndpoint").unwrap_or_default();
        // idJagAssertion (builders.js) checked it; an object made otherwise is checked here.
        if !crate::auth::url::is_acceptable_endpoint(&token_endpoint) {
            r.fail_with("options.auth.grant.assertion: idpTokenEndpoint must be an https URL (http only for loopback)");
            return None;
        }
        return Some(AssertionSource::IdJag {
            token_endpoint,
            id_token: Secret::new(text("idToken").unwrap_or_default()),
            idp_client: ClientInformation {
                client_id: text("idpClientId").unwrap_or_default(),
                client_secret: text("idpClientSecret").map(Secret::new),
                token_endpoint_auth_method: None,
                issuer: None,
                client_secret_expires_at: None,
            },
        });
    }
    if let Some(f) = a.dyn_ref::<Function>() {
        out.assertion = Some(f.clone());
        return Some(AssertionSource::Callback);
    }
    r.fail_with("options.auth.grant.assertion must be a function ({ issuer, resource, scope }) => JWT, or idJagAssertion(...)");
    None
}

/// The flow for `options.auth`, or `None` when the option is absent or (the error kept in
/// `r`, the caller's reader, which must hold no error yet) wrong.
pub fn read(
    r: &mut Reader,
    options: &JsValue,
    server_url: &str,
    global_fetch: &Function,
    in_browser: bool,
) -> Option<Rc<JsAuthorizer>> {
    let auth = if options.is_object() {
        field(options, "auth")
    } else {
        JsValue::UNDEFINED
    };
    if auth.is_null_or_undefined() {
        return None;
    }
    if !auth.is_object() || js_sys::Array::is_array(&auth) {
        r.fail_with("options.auth must be an object");
        return None;
    }
    r.scope = SCOPE;
    let client_metadata_url = r.string(&auth, "clientMetadataUrl");
    if let Some(u) = &client_metadata_url {
        if let Err(e) = check_metadata_url(u) {
            r.fail(e.with_context(SCOPE));
        }
    }
    let client_metadata = r.json_object(&auth, "clientMetadata");
    let listed_redirect = client_metadata
        .as_ref()
        .and_then(|m| m.get("redirect_uris"))
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(Value::as_str)
        .map(str::to_string);
    let g = r.value(&auth, "grant").unwrap_or(JsValue::UNDEFINED);
    r.scope = "options.auth.grant";
    let grant = grant(r, &g);
    r.scope = SCOPE;
    let in_page = Reflect::get(&js_sys::global(), &"document".into()).is_ok_and(|d| d.is_object());
    let redirect_uri = redirect_uri(r, &auth, listed_redirect, &grant.config);
    let dpop = dpop(r, &auth);
    let step_up = step_up(r, &auth);
    let authorize = authorize_function(r, &auth, in_page);
    let storage = storage(r, &auth);
    check_redirect_storage(r, &authorize, &storage);
    let fetch = r
        .function(&auth, "fetch")
        .unwrap_or_else(|| global_fetch.clone());
    let client_information = client_information(r, &auth);
    let scope = r.string(&auth, "scope");
    let max_step_up = max_step_up(r, &auth);
    if !r.ok() {
        return None;
    }
    let config = AuthConfig {
        server_url: server_url.to_string(),
        redirect_uri,
        client_metadata,
        client_metadata_url,
        client_information,
        scope,
        step_up,
        max_step_up,
        grant: grant.config,
        dpop: dpop.on,
    };
    let host = JsAuthHost {
        fetch,
        storage,
        authorize: authorize.unchecked_into(),
        in_browser,
        waits: Default::default(),
        client_key: std::cell::RefCell::new(grant.key),
        client_alg: grant.alg.as_str(),
        assertion: grant.assertion,
        dpop_given: dpop.given,
        dpop_pair: Default::default(),
        dpop_storage_key: ["mcp-wasm-client:dpop:", server_url].concat(),
        confidential_in_page: in_page && grant.confidential,
        dpop_on: dpop.on,
        sign_in_window: std::cell::RefCell::new(JsValue::UNDEFINED),
    };
    Some(Rc::new(Authorizer::new(config, host)))
}

/// `options.auth.redirectUri`, else the first of `clientMetadata.redirect_uris`; required for
/// the authorization code grant only.
fn redirect_uri(
    r: &mut Reader,
    auth: &JsValue,
    listed: Option<String>,
    grant: &GrantConfig,
) -> String {
    match (r.string(auth, "redirectUri").or(listed), grant) {
        (Some(u), _) => u,
        (None, GrantConfig::AuthorizationCode) => {
            r.fail_with("options.auth.redirectUri is required (or clientMetadata.redirect_uris)");
            String::new()
        }
        (None, _) => String::new(),
    }
}

/// `options.auth.dpop`: off, on, or on with the app's key pair.
struct DpopOption {
    on: bool,
    given: Option<JsValue>,
}

/// Reads `options.auth.dpop` (`false` when absent, `true`, or `{ keyPair }`).
fn dpop(r: &mut Reader, auth: &JsValue) -> DpopOption {
    let dpop = r.value(auth, "dpop").unwrap_or(JsValue::FALSE);
    match dpop.as_bool() {
        Some(on) => return DpopOption { on, given: None },
        None if dpop.is_object() => {}
        None => {
            r.fail_with("options.auth.dpop must be true or { keyPair }");
            return DpopOption {
                on: false,
                given: None,
            };
        }
    }
    let pair = field(&dpop, "keyPair");
    let ok = pair.is_object()
        && field(&pair, "privateKey").is_object()
        && field(&pair, "publicKey").is_object();
    if !ok {
        r.fail_with("options.auth.dpop.keyPair must be a CryptoKeyPair (ECDSA P-256: { privateKey, publicKey })");
    }
    DpopOption {
        on: true,
        given: Some(pair),
    }
}

/// `options.auth.onInsufficientScope`: `"reauthorize"` (the default) or `"throw"`.
fn step_up(r: &mut Reader, auth: &JsValue) -> StepUpPolicy {
    match r.string(auth, "onInsufficientScope") {
        None => StepUpPolicy::default(),
        Some(s) => StepUpPolicy::parse(&s).unwrap_or_else(|| {
            r.fail_with("options.auth.onInsufficientScope must be \"reauthorize\" or \"throw\"");
            StepUpPolicy::default()
        }),
    }
}

/// `options.auth.authorize`, else the host's default: a popup in a page, headless elsewhere.
fn authorize_function(r: &mut Reader, auth: &JsValue, in_page: bool) -> JsValue {
    match r.function(auth, "authorize") {
        Some(f) => f.into(),
        None if !r.ok() => JsValue::UNDEFINED,
        None if in_page => default_authorizer(r, popup(&JsValue::UNDEFINED)),
        None => default_authorizer(r, headless(&JsValue::UNDEFINED)),
    }
}

/// A redirect sign-in leaves the page: its pending authorization must outlive it, so memory
/// storage is refused with it.
fn check_redirect_storage(r: &mut Reader, authorize: &JsValue, storage: &JsValue) {
    let kind = |v: &JsValue| field(v, "mcpWasmClientKind").as_string();
    if r.ok()
        && kind(authorize).as_deref() == Some("redirect")
        && kind(storage).as_deref() == Some("memory")
    {
        r.fail_with("options.auth: authorizeWithRedirect() needs storage that survives the page navigation: webStorage(sessionStorage) or indexedDbStorage(name), not memoryStorage()");
    }
}

/// The default `authorize` function, or the error saying this host has none.
fn default_authorizer(r: &mut Reader, made: Result<JsValue, JsValue>) -> JsValue {
    match made.ok().filter(|f| f.is_function()) {
        Some(f) => f,
        None => {
            r.fail_with("options.auth.authorize: no default for this host");
            JsValue::UNDEFINED
        }
    }
}
