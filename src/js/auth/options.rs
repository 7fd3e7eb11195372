//! Reading the `auth` option of `new Client(url, { auth })` into the flow's `AuthConfig` and
//! its JS host, with errors that name the offending field.

use super::exports::{authorize_headless, authorize_with_popup, memory_storage};
use super::host::JsAuthHost;
use crate::auth::client::AuthMethod;
use crate::auth::client::ClientInformation;
use crate::auth::flow::{AssertionSource, AuthConfig, Authorizer, GrantConfig, StaticClient};
use crate::auth::jose::Alg;
use crate::auth::registration::check_metadata_url;
use crate::auth::scopes::StepUpPolicy;
use crate::auth::secret::Secret;
use crate::js::options::{function, json_object, string};
use crate::protocol::error::ErrorKind;
use crate::protocol::error::McpError;
use js_sys::{Function, Reflect};
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};

/// The client's authorization flow in JS.
pub type JsAuthorizer = Authorizer<JsAuthHost>;

const SCOPE: &str = "options.auth";

fn field(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

fn client_information(auth: &JsValue) -> Result<Option<ClientInformation>, McpError> {
    let Some(v) = json_object(auth, "clientInformation", SCOPE)? else {
        return Ok(None);
    };
    let text = |k: &str| -> Result<Option<String>, McpError> {
        match v.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(McpError::input(format!(
                "{SCOPE}.clientInformation.{k} must be a string"
            ))),
        }
    };
    let client_id = text("client_id")?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| McpError::input("options.auth.clientInformation needs a client_id"))?;
    Ok(Some(ClientInformation {
        client_id,
        client_secret: text("client_secret")?
            .filter(|s| !s.is_empty())
            .map(Secret::new),
        token_endpoint_auth_method: text("token_endpoint_auth_method")?,
        issuer: text("issuer")?,
        client_secret_expires_at: v.get("client_secret_expires_at").and_then(Value::as_u64),
    }))
}

fn storage(auth: &JsValue) -> Result<JsValue, McpError> {
    let s = field(auth, "storage");
    if s.is_null_or_undefined() {
        return Ok(memory_storage());
    }
    let ok = s.is_object()
        && ["get", "set", "delete"]
            .iter()
            .all(|k| field(&s, k).is_function());
    if !ok {
        return Err(McpError::input("options.auth.storage must be an object with get, set and delete functions (memoryStorage(), webStorage(sessionStorage), indexedDbStorage(name))"));
    }
    Ok(s)
}

fn max_step_up(auth: &JsValue) -> Result<u32, McpError> {
    let v = field(auth, "maxStepUp");
    if v.is_null_or_undefined() {
        return Ok(1);
    }
    match v.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 && n.fract() == 0.0 => Ok(n.min(10.0) as u32),
        _ => Err(McpError::input(
            "options.auth.maxStepUp must be a whole number ≥ 0",
        )),
    }
}

fn default_authorizer(made: Result<JsValue, JsValue>) -> Result<Function, McpError> {
    made.ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| McpError::input("options.auth.authorize: no default for this host"))
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

fn grant(g: &JsValue) -> Result<GrantOption, McpError> {
    const G: &str = "options.auth.grant";
    let mut out = GrantOption {
        config: GrantConfig::AuthorizationCode,
        key: None,
        alg: Alg::Es256,
        assertion: None,
        confidential: false,
    };
    if g.is_null_or_undefined() {
        return Ok(out);
    }
    if !g.is_object() || js_sys::Array::is_array(g) {
        return Err(McpError::input("options.auth.grant must be an object"));
    }
    let kind = string(g, "type", G)?;
    match kind.as_deref() {
        Some("authorization_code") => return Ok(out),
        Some("client_credentials" | "jwt_bearer") => {}
        other => {
            return Err(crate::auth::errors::auth_error(
                ErrorKind::UnsupportedGrant,
                format!(
                    "{G}.type must be \"authorization_code\", \"client_credentials\" or \"jwt_bearer\", not {}",
                    other.map_or("missing".to_string(), |o| format!("{o:?}"))
                ),
                Value::Null,
            ))
        }
    }
    let client_id = string(g, "clientId", G)?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| McpError::input("options.auth.grant.clientId is required"))?;
    let secret = string(g, "clientSecret", G)?.filter(|s| !s.is_empty());
    let key = field(g, "privateKey");
    let key = if key.is_null_or_undefined() {
        None
    } else if key.is_string() || (key.is_object() && field(&key, "algorithm").is_object()) {
        Some(key)
    } else {
        return Err(McpError::input(
            "options.auth.grant.privateKey must be a CryptoKey or a PKCS#8 PEM string",
        ));
    };
    if let Some(a) = string(g, "algorithm", G)? {
        out.alg = Alg::parse(&a).ok_or_else(|| {
            McpError::input("options.auth.grant.algorithm must be \"ES256\" or \"RS256\"")
        })?;
    }
    let method = match string(g, "method", G)? {
        None => None,
        Some(m) => match AuthMethod::parse(&m) {
            Some(m @ (AuthMethod::ClientSecretBasic | AuthMethod::ClientSecretPost)) => Some(m),
            _ => {
                return Err(McpError::input("options.auth.grant.method must be \"client_secret_basic\" or \"client_secret_post\""))
            }
        },
    };
    out.confidential = secret.is_some() || key.is_some();
    let client = StaticClient {
        info: ClientInformation {
            client_id,
            client_secret: secret.map(Secret::new),
            token_endpoint_auth_method: None,
            issuer: string(g, "issuer", G)?,
            client_secret_expires_at: None,
        },
        method,
        signing: key.as_ref().map(|_| out.alg),
    };
    out.key = key;
    match kind.as_deref() {
        Some("client_credentials") => {
            if !out.confidential {
                return Err(McpError::input(
                    "options.auth.grant: client_credentials needs clientSecret or privateKey",
                ));
            }
            out.config = GrantConfig::ClientCredentials(client);
        }
        // jwt_bearer (the type was checked above)
        _ => {
            let a = field(g, "assertion");
            let id_jag = field(&a, "mcpWasmClientIdJag");
            let source = if id_jag.is_object() {
                let text = |k: &str| field(&id_jag, k).as_string().filter(|s| !s.is_empty());
                AssertionSource::IdJag {
                    token_endpoint: text("idpTokenEndpoint").unwrap_or_default(),
                    id_token: Secret::new(text("idToken").unwrap_or_default()),
                    idp_client: ClientInformation {
                        client_id: text("idpClientId").unwrap_or_default(),
                        client_secret: text("idpClientSecret").map(Secret::new),
                        token_endpoint_auth_method: None,
                        issuer: None,
                        client_secret_expires_at: None,
                    },
                }
            } else if let Some(f) = a.dyn_ref::<Function>() {
                out.assertion = Some(f.clone());
                AssertionSource::Callback
            } else {
                return Err(McpError::input("options.auth.grant.assertion must be a function ({ issuer, resource, scope }) => JWT, or idJagAssertion(...)"));
            };
            out.config = GrantConfig::JwtBearer(client, source);
        }
    }
    Ok(out)
}

/// The flow for `options.auth`, or `None` when the option is absent.
pub fn read(
    options: &JsValue,
    server_url: &str,
    global_fetch: &Function,
    in_browser: bool,
) -> Result<Option<Rc<JsAuthorizer>>, McpError> {
    let auth = if options.is_object() {
        field(options, "auth")
    } else {
        JsValue::UNDEFINED
    };
    if auth.is_null_or_undefined() {
        return Ok(None);
    }
    if !auth.is_object() || js_sys::Array::is_array(&auth) {
        return Err(McpError::input("options.auth must be an object"));
    }
    let client_metadata_url = string(&auth, "clientMetadataUrl", SCOPE)?;
    if let Some(u) = &client_metadata_url {
        check_metadata_url(u).map_err(|e| e.with_context(SCOPE))?;
    }
    let client_metadata = json_object(&auth, "clientMetadata", SCOPE)?;
    let listed_redirect = client_metadata
        .as_ref()
        .and_then(|m| m.get("redirect_uris"))
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(Value::as_str)
        .map(str::to_string);
    let grant = grant(&field(&auth, "grant"))?;
    let in_page = Reflect::get(&js_sys::global(), &"document".into()).is_ok_and(|d| d.is_object());
    let redirect_uri = match (
        string(&auth, "redirectUri", SCOPE)?.or(listed_redirect),
        &grant.config,
    ) {
        (Some(u), _) => u,
        (None, GrantConfig::AuthorizationCode) => {
            return Err(McpError::input(
                "options.auth.redirectUri is required (or clientMetadata.redirect_uris)",
            ))
        }
        (None, _) => String::new(),
    };
    let dpop = field(&auth, "dpop");
    let (dpop_on, dpop_given) = if dpop.is_undefined()
        || dpop.is_null()
        || dpop.as_bool() == Some(false)
    {
        (false, None)
    } else if dpop.as_bool() == Some(true) {
        (true, None)
    } else if dpop.is_object() {
        let pair = field(&dpop, "keyPair");
        let ok = pair.is_object()
            && field(&pair, "privateKey").is_object()
            && field(&pair, "publicKey").is_object();
        if !ok {
            return Err(McpError::input("options.auth.dpop.keyPair must be a CryptoKeyPair (ECDSA P-256: { privateKey, publicKey })"));
        }
        (true, Some(pair))
    } else {
        return Err(McpError::input(
            "options.auth.dpop must be true or { keyPair }",
        ));
    };
    let step_up = match string(&auth, "onInsufficientScope", SCOPE)? {
        None => StepUpPolicy::default(),
        Some(s) => StepUpPolicy::parse(&s).ok_or_else(|| {
            McpError::input("options.auth.onInsufficientScope must be \"reauthorize\" or \"throw\"")
        })?,
    };
    let authorize = match function(&auth, "authorize", SCOPE)? {
        Some(f) => f,
        // A page shows a popup; anything else fetches headless.
        None if in_page => default_authorizer(authorize_with_popup(None))?,
        None => default_authorizer(authorize_headless(None))?,
    };
    let storage = storage(&auth)?;
    let kind = |v: &JsValue| field(v, "mcpWasmClientKind").as_string();
    if kind(&authorize).as_deref() == Some("redirect")
        && kind(&storage).as_deref() == Some("memory")
    {
        return Err(McpError::input("options.auth: authorizeWithRedirect() needs storage that survives the page navigation: webStorage(sessionStorage) or indexedDbStorage(name), not memoryStorage()"));
    }
    let fetch = function(&auth, "fetch", SCOPE)?.unwrap_or_else(|| global_fetch.clone());
    let config = AuthConfig {
        server_url: server_url.to_string(),
        redirect_uri,
        client_metadata,
        client_metadata_url,
        client_information: client_information(&auth)?,
        scope: string(&auth, "scope", SCOPE)?,
        step_up,
        max_step_up: max_step_up(&auth)?,
        grant: grant.config,
        dpop: dpop_on,
    };
    let host = JsAuthHost {
        fetch,
        storage,
        authorize,
        in_browser,
        waits: Default::default(),
        client_key: std::cell::RefCell::new(grant.key),
        client_alg: grant.alg.as_str(),
        assertion: grant.assertion,
        dpop_given,
        dpop_pair: Default::default(),
        dpop_storage_key: format!("mcp-wasm-client:dpop:{server_url}"),
        confidential_in_page: in_page && grant.confidential,
        dpop_on,
    };
    Ok(Some(Rc::new(Authorizer::new(config, host))))
}
