//! A fake world for `auth::flow` tests: an `AuthHost` whose HTTP is a table of routes plus any
//! number of fake authorization servers (metadata, dynamic registration, a token endpoint that
//! really checks PKCE, codes, client authentication and refresh tokens), a settable clock,
//! deterministic randomness, a real SHA-256, a `HashMap` storage, and an authorization page
//! played by the AS (programmable callbacks). Every request and every authorization URL is
//! recorded so tests can assert on what was sent. For the grants without a user and DPoP
//! (`tests/auth_grants.rs`), the token endpoint also serves `client_credentials` and the JWT
//! bearer grant, checks `private_key_jwt` assertions of the fake signer (signature =
//! SHA-256 of the input, `jti` never reused), issues DPoP tokens (optionally JWTs with a
//! `cnf.jkt`) and demands DPoP nonces; the host signs with the fake signer, answers the
//! assertion callback from a script and holds a fixed DPoP key.
//!
//! Every credential the fakes mint contains `SECRET` (`AT-SECRET-…`, `RT-SECRET-…`,
//! `CODE-SECRET-…`, `CS-SECRET-…`), so a test can look for leaks by that marker.

#![allow(dead_code)]

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use futures::future::{FutureExt, LocalBoxFuture};
use mcp_wasm_client::auth::errors::response_too_large;
use mcp_wasm_client::auth::flow::{AuthHost, AuthRequest, AuthResponse, Authorized};
use mcp_wasm_client::auth::secret::Secret;
use mcp_wasm_client::json::{json, Value};
use mcp_wasm_client::protocol::{ErrorKind, McpError};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

/// One request the flow sent, with its secrets exposed for assertions.
#[derive(Debug, Clone)]
pub struct Sent {
    pub method: String,
    pub url: String,
    pub content_type: Option<String>,
    pub body: Option<String>,
    pub authorization: Option<String>,
    /// The `DPoP` proof header.
    pub dpop: Option<String>,
}

impl Sent {
    /// The DPoP proof's header and claims (panics without a proof).
    pub fn dpop_parts(&self) -> (Value, Value) {
        let proof = self.dpop.as_deref().expect("a DPoP proof");
        (jws_part(proof, 0), jws_part(proof, 1))
    }

    /// The body as form pairs.
    pub fn form(&self) -> Vec<(String, String)> {
        parse_query(self.body.as_deref().unwrap_or(""))
    }

    /// The one value of `name` in the form body.
    pub fn param(&self, name: &str) -> Option<String> {
        param(&self.form(), name)
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        mcp_wasm_client::json::from_str(self.body.as_deref().unwrap_or("null"))
            .expect("a JSON body")
    }

    /// Everything this request carried, for "was X ever sent" checks.
    pub fn everything(&self) -> String {
        format!(
            "{} {} {} {}",
            self.url,
            self.body.as_deref().unwrap_or(""),
            self.authorization.as_deref().unwrap_or(""),
            decode(self.body.as_deref().unwrap_or(""))
        ) + self.dpop.as_deref().unwrap_or("")
    }
}

/// What the authorization page sends back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallbackMode {
    /// `redirect_uri?code&state[&iss]` (`iss` when the AS's `send_iss` is set).
    Normal,
    /// A state the client never sent.
    WrongState,
    /// No `iss`, whatever the AS advertises.
    NoIss,
    /// This `iss`.
    WrongIss(String),
    /// `error=access_denied` (with `state` and `iss`).
    Denied,
    /// The page navigates away: the callback (with code) is kept in `World::callbacks` and
    /// `Authorized::Redirected` is returned.
    Redirected,
    /// This query (after `?`), with `{code}`, `{state}`, `{iss}` substituted.
    Custom(String),
}

/// A code the fake AS issued.
#[derive(Debug, Clone)]
pub struct Code {
    pub client_id: String,
    pub redirect_uri: String,
    pub challenge: String,
    pub scope: Option<String>,
    pub resource: Option<String>,
}

/// A refresh token the fake AS issued.
#[derive(Debug, Clone)]
pub struct Refresh {
    pub client_id: String,
    pub scope: Option<String>,
    pub resource: Option<String>,
}

/// A fake authorization server.
pub struct FakeAs {
    /// Short name used in minted values (`as1`).
    pub tag: String,
    pub issuer: String,
    /// Where the metadata document is served (`None`: nowhere).
    pub metadata_url: Option<String>,
    /// The metadata document (its endpoints are also where the fake answers).
    pub metadata: Value,
    /// Put `iss` in callbacks (mode `Normal`).
    pub send_iss: bool,
    /// Registered `client_id`s start with this (`<tag>-client-`).
    pub client_id_prefix: String,
    /// The `token_endpoint_auth_method` registration grants (`None`: as requested).
    pub register_method: Option<String>,
    /// Scripted registration responses, used first.
    pub register_script: VecDeque<(u16, String)>,
    /// Scripted token responses, used first.
    pub token_script: VecDeque<(u16, String)>,
    /// The scope granted (`None`: as requested).
    pub grant_scope: Option<String>,
    pub expires_in: Option<u64>,
    pub issue_refresh: bool,
    /// Known clients: `client_id` → secret.
    pub clients: HashMap<String, Option<String>>,
    pub codes: HashMap<String, Code>,
    pub refresh_tokens: HashMap<String, Refresh>,
    /// Access tokens issued, with their scope, in order.
    pub access_tokens: Vec<(String, Option<String>)>,
    /// Clients registered here, in order.
    pub registered: Vec<String>,
    /// Clients that authenticate with `private_key_jwt` (the fake signer's assertions).
    pub key_clients: Vec<String>,
    /// Answer `token_type` `DPoP` to a token request carrying a DPoP proof.
    pub dpop_tokens: bool,
    /// Issue access tokens as JWTs with this `cnf.jkt`.
    pub access_jkt: Option<String>,
    /// Each token request first pops one of these: a `400 use_dpop_nonce` with that nonce
    /// (which is then required).
    pub nonce_script: VecDeque<String>,
    /// The DPoP nonce a proof must carry (else `400 use_dpop_nonce` with it).
    pub required_nonce: Option<String>,
    /// Issue refresh tokens to `client_credentials` and JWT bearer grants too.
    pub refresh_for_grants: bool,
    /// `jti`s of the client assertions seen: a replay is `invalid_client` (RFC 7523 §3).
    pub assertion_jtis: Vec<String>,
    serial: u32,
}

fn metadata_for(issuer: &str) -> Value {
    json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "registration_endpoint": format!("{issuer}/register"),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
        "authorization_response_iss_parameter_supported": true,
    })
}

impl FakeAs {
    /// An AS for `issuer` serving its metadata at `metadata_url`, endpoints under the issuer.
    pub fn new(tag: &str, issuer: &str, metadata_url: Option<&str>) -> Self {
        FakeAs {
            tag: tag.into(),
            issuer: issuer.into(),
            metadata_url: metadata_url.map(str::to_string),
            metadata: metadata_for(issuer),
            send_iss: true,
            client_id_prefix: format!("{tag}-client-"),
            register_method: None,
            register_script: VecDeque::new(),
            token_script: VecDeque::new(),
            grant_scope: None,
            expires_in: Some(3600),
            issue_refresh: true,
            clients: HashMap::new(),
            codes: HashMap::new(),
            refresh_tokens: HashMap::new(),
            access_tokens: Vec::new(),
            registered: Vec::new(),
            key_clients: Vec::new(),
            dpop_tokens: false,
            access_jkt: None,
            nonce_script: VecDeque::new(),
            required_nonce: None,
            refresh_for_grants: false,
            assertion_jtis: Vec::new(),
            serial: 0,
        }
    }

    fn endpoint(&self, name: &str) -> Option<String> {
        self.metadata[name].as_str().map(str::to_string)
    }

    pub fn authorization_endpoint(&self) -> String {
        self.endpoint("authorization_endpoint").unwrap()
    }

    pub fn token_endpoint(&self) -> String {
        self.endpoint("token_endpoint").unwrap()
    }

    pub fn registration_endpoint(&self) -> Option<String> {
        self.endpoint("registration_endpoint")
    }

    fn next(&mut self) -> u32 {
        self.serial += 1;
        self.serial
    }

    fn register(&mut self, req: &Sent) -> (u16, String) {
        if let Some(r) = self.register_script.pop_front() {
            return r;
        }
        let body = req.json();
        let n = self.next();
        let client_id = format!("{}{n}", self.client_id_prefix);
        let method = self.register_method.clone().unwrap_or_else(|| {
            body["token_endpoint_auth_method"]
                .as_str()
                .unwrap_or("client_secret_basic")
                .to_string()
        });
        let secret = (method != "none").then(|| format!("CS-SECRET-{}-{n}", self.tag));
        self.clients.insert(client_id.clone(), secret.clone());
        self.registered.push(client_id.clone());
        let mut out = body.clone();
        out["client_id"] = json!(client_id);
        out["token_endpoint_auth_method"] = json!(method);
        if let Some(s) = secret {
            out["client_secret"] = json!(s);
            out["client_secret_expires_at"] = json!(0);
        }
        (201, out.to_string())
    }

    fn oauth_error(status: u16, error: &str, description: &str) -> (u16, String) {
        (
            status,
            json!({ "error": error, "error_description": description }).to_string(),
        )
    }

    /// The token endpoint: the status, the body, and a `DPoP-Nonce`.
    fn token_with_nonce(&mut self, req: &Sent) -> (u16, String, Option<String>) {
        // Like most ASes, this one authenticates the client (using up the assertion's jti)
        // before it looks at the DPoP proof.
        if let Some(assertion) = req.param("client_assertion") {
            let jti = jws_part(&assertion, 1)["jti"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            if jti.is_empty() || self.assertion_jtis.contains(&jti) {
                let (s, b) = Self::oauth_error(401, "invalid_client", "client assertion replayed");
                return (s, b, None);
            }
            self.assertion_jtis.push(jti);
        }
        if let Some(n) = self.nonce_script.pop_front() {
            self.required_nonce = Some(n.clone());
            let (s, b) = Self::oauth_error(400, "use_dpop_nonce", "a nonce is required");
            return (s, b, Some(n));
        }
        if let Some(n) = self.required_nonce.clone() {
            let sent = req
                .dpop
                .as_deref()
                .map(|p| jws_part(p, 1)["nonce"].as_str().map(str::to_string));
            if sent.flatten().as_deref() != Some(n.as_str()) {
                let (s, b) = Self::oauth_error(400, "use_dpop_nonce", "a nonce is required");
                return (s, b, Some(n));
            }
        }
        let (s, b) = self.token(req);
        (s, b, None)
    }

    /// Checks a `private_key_jwt` client assertion made by the fake signer.
    fn check_client_assertion(&self, form: &[(String, String)]) -> Result<String, (u16, String)> {
        let bad = |d: &str| Self::oauth_error(401, "invalid_client", d);
        if param(form, "client_assertion_type").as_deref()
            != Some("urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        {
            return Err(bad("client_assertion_type"));
        }
        let assertion = param(form, "client_assertion").unwrap_or_default();
        let parts: Vec<&str> = assertion.split('.').collect();
        if parts.len() != 3 {
            return Err(bad("not a JWS"));
        }
        let input = format!("{}.{}", parts[0], parts[1]);
        if URL_SAFE_NO_PAD.encode(sha256(input.as_bytes())) != parts[2] {
            return Err(bad("bad signature"));
        }
        let claims = jws_part(&assertion, 1);
        let client_id = param(form, "client_id").unwrap_or_default();
        if claims["iss"] != json!(client_id) || claims["sub"] != json!(client_id) {
            return Err(bad("iss/sub"));
        }
        if claims["aud"] != json!(self.issuer) {
            return Err(bad("aud"));
        }
        if !self.key_clients.contains(&client_id) {
            return Err(bad("no key for this client"));
        }
        Ok(client_id)
    }

    fn token(&mut self, req: &Sent) -> (u16, String) {
        if let Some(r) = self.token_script.pop_front() {
            return r;
        }
        let form = req.form();
        if param(&form, "client_assertion").is_some() {
            return match self.check_client_assertion(&form) {
                Ok(client_id) => self.grant(req, &form, &client_id),
                Err(e) => e,
            };
        }
        let (client_id, secret) = match &req.authorization {
            Some(basic) => {
                let raw = basic.strip_prefix("Basic ").expect("Basic authorization");
                let pair = String::from_utf8(STANDARD.decode(raw).expect("base64")).unwrap();
                let (id, secret) = pair.split_once(':').expect("id:secret");
                (decode(id), Some(decode(secret)))
            }
            None => (
                param(&form, "client_id").unwrap_or_default(),
                param(&form, "client_secret"),
            ),
        };
        match self.clients.get(&client_id) {
            None => return Self::oauth_error(401, "invalid_client", "unknown client"),
            Some(expected) if *expected != secret => {
                return Self::oauth_error(401, "invalid_client", "bad client authentication")
            }
            Some(_) => {}
        }
        self.grant(req, &form, &client_id)
    }

    /// The grant, for an authenticated `client_id`.
    fn grant(&mut self, req: &Sent, form: &[(String, String)], client_id: &str) -> (u16, String) {
        let form = form.to_vec();
        let client_id = client_id.to_string();
        let dpop = req.dpop.is_some();
        let resource = param(&form, "resource");
        match param(&form, "grant_type").as_deref() {
            Some("client_credentials") => {
                let refresh = self.refresh_for_grants;
                self.issue_as(&client_id, param(&form, "scope"), resource, dpop, refresh)
            }
            Some("urn:ietf:params:oauth:grant-type:jwt-bearer") => {
                if param(&form, "assertion").unwrap_or_default().is_empty() {
                    return Self::oauth_error(400, "invalid_grant", "no assertion");
                }
                let refresh = self.refresh_for_grants;
                self.issue_as(&client_id, param(&form, "scope"), resource, dpop, refresh)
            }
            Some("authorization_code") => {
                let Some(code) = param(&form, "code").and_then(|c| self.codes.remove(&c)) else {
                    return Self::oauth_error(400, "invalid_grant", "unknown or used code");
                };
                let verifier = param(&form, "code_verifier").unwrap_or_default();
                if URL_SAFE_NO_PAD.encode(sha256(verifier.as_bytes())) != code.challenge {
                    return Self::oauth_error(400, "invalid_grant", "PKCE verification failed");
                }
                if code.client_id != client_id {
                    return Self::oauth_error(400, "invalid_grant", "code of another client");
                }
                if param(&form, "redirect_uri").as_deref() != Some(code.redirect_uri.as_str()) {
                    return Self::oauth_error(400, "invalid_grant", "redirect_uri differs");
                }
                if resource != code.resource {
                    return Self::oauth_error(400, "invalid_target", "resource differs");
                }
                let refresh = self.issue_refresh;
                self.issue_as(&client_id, code.scope, resource, dpop, refresh)
            }
            Some("refresh_token") => {
                let Some(r) = param(&form, "refresh_token")
                    .and_then(|t| self.refresh_tokens.get(&t).cloned())
                else {
                    return Self::oauth_error(400, "invalid_grant", "unknown refresh token");
                };
                if r.client_id != client_id {
                    return Self::oauth_error(400, "invalid_grant", "token of another client");
                }
                if resource != r.resource {
                    return Self::oauth_error(400, "invalid_target", "resource differs");
                }
                let refresh = self.issue_refresh;
                self.issue_as(&client_id, r.scope, resource, dpop, refresh)
            }
            _ => Self::oauth_error(400, "unsupported_grant_type", "?"),
        }
    }

    fn issue_as(
        &mut self,
        client_id: &str,
        scope: Option<String>,
        resource: Option<String>,
        dpop: bool,
        issue_refresh: bool,
    ) -> (u16, String) {
        let n = self.next();
        let granted = self.grant_scope.clone().or(scope);
        let mut access = format!("AT-SECRET-{}-{n}", self.tag);
        if let Some(jkt) = &self.access_jkt {
            let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"ES256","typ":"at+jwt"}"#);
            let claims = json!({ "sub": client_id, "cnf": { "jkt": jkt }, "n": n });
            let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
            access = format!("{header}.{claims}.{access}");
        }
        self.access_tokens.push((access.clone(), granted.clone()));
        let token_type = if dpop && self.dpop_tokens {
            "DPoP"
        } else {
            "Bearer"
        };
        let mut body = json!({ "access_token": access, "token_type": token_type });
        if let Some(e) = self.expires_in {
            body["expires_in"] = json!(e);
        }
        if let Some(s) = &granted {
            body["scope"] = json!(s);
        }
        if issue_refresh {
            let rt = format!("RT-SECRET-{}-{n}", self.tag);
            self.refresh_tokens.insert(
                rt.clone(),
                Refresh {
                    client_id: client_id.into(),
                    scope: granted,
                    resource,
                },
            );
            body["refresh_token"] = json!(rt);
        }
        (200, body.to_string())
    }
}

/// One `assertion(issuer, resource, scope)` call.
pub type AssertionCall = (String, Option<String>, Option<String>);

/// A handler for one URL.
pub type Handler = Rc<dyn Fn(&Sent) -> (u16, String)>;

/// Everything the fake host serves and records.
pub struct World {
    /// URL → handler; looked up before the fake ASes.
    pub routes: RefCell<HashMap<String, Handler>>,
    pub ases: RefCell<Vec<FakeAs>>,
    /// Every HTTP request, in order.
    pub requests: RefCell<Vec<Sent>>,
    /// Every authorization URL shown, in order.
    pub authorizations: RefCell<Vec<String>>,
    /// Every callback the page produced (including redirect-mode ones), in order.
    pub callbacks: RefCell<Vec<String>>,
    pub mode: RefCell<CallbackMode>,
    pub now: Cell<u64>,
    randoms: Cell<u32>,
    pub storage: RefCell<HashMap<String, String>>,
    /// Every `save`, in order.
    pub saves: RefCell<Vec<(String, Option<String>)>>,
    /// How many times each fetch and authorization yields (`Pending`) before answering.
    pub yields: Cell<u32>,
    /// Every `assertion(issuer, resource, scope)` call, in order.
    pub assertion_calls: RefCell<Vec<AssertionCall>>,
    /// What the assertion callback answers, used first; then `ASSERT-SECRET-<n>`.
    pub assertion_script: RefCell<VecDeque<Result<String, McpError>>>,
    /// Every input `sign_client` signed, in order.
    pub client_signs: RefCell<Vec<Vec<u8>>>,
    /// Every input `sign_dpop` signed, in order.
    pub dpop_signs: RefCell<Vec<Vec<u8>>>,
}

impl World {
    pub fn new() -> Rc<World> {
        Rc::new(World {
            routes: RefCell::default(),
            ases: RefCell::default(),
            requests: RefCell::default(),
            authorizations: RefCell::default(),
            callbacks: RefCell::default(),
            mode: RefCell::new(CallbackMode::Normal),
            now: Cell::new(1_700_000_000_000),
            randoms: Cell::new(0),
            storage: RefCell::default(),
            saves: RefCell::default(),
            yields: Cell::new(0),
            assertion_calls: RefCell::default(),
            assertion_script: RefCell::default(),
            client_signs: RefCell::default(),
            dpop_signs: RefCell::default(),
        })
    }

    /// Serves `body` with `status` at `url`.
    pub fn route(&self, url: &str, status: u16, body: impl Into<String>) {
        let body = body.into();
        self.routes
            .borrow_mut()
            .insert(url.into(), Rc::new(move |_| (status, body.clone())));
    }

    /// Serves `body` (JSON) at `url`.
    pub fn json(&self, url: &str, body: Value) {
        self.route(url, 200, body.to_string());
    }

    pub fn add_as(&self, a: FakeAs) {
        self.ases.borrow_mut().push(a);
    }

    /// The fake AS tagged `tag`.
    pub fn with_as<T>(&self, tag: &str, f: impl FnOnce(&mut FakeAs) -> T) -> T {
        let mut ases = self.ases.borrow_mut();
        f(ases.iter_mut().find(|a| a.tag == tag).expect("a fake AS"))
    }

    /// `GET`s, as URLs, in order.
    pub fn gets(&self) -> Vec<String> {
        self.requests
            .borrow()
            .iter()
            .filter(|r| r.method == "GET")
            .map(|r| r.url.clone())
            .collect()
    }

    /// `POST`s to `url`.
    pub fn posts_to(&self, url: &str) -> Vec<Sent> {
        self.requests
            .borrow()
            .iter()
            .filter(|r| r.method == "POST" && r.url == url)
            .cloned()
            .collect()
    }

    /// All `POST`s.
    pub fn posts(&self) -> Vec<Sent> {
        self.requests
            .borrow()
            .iter()
            .filter(|r| r.method == "POST")
            .cloned()
            .collect()
    }

    /// The query pairs of authorization URL number `i`.
    pub fn authorization_params(&self, i: usize) -> Vec<(String, String)> {
        let url = self.authorizations.borrow()[i].clone();
        parse_query(url.split_once('?').map_or("", |(_, q)| q))
    }

    /// The scope an access token was granted with (`None`: not a token of any fake AS).
    pub fn token_scope(&self, token: &str) -> Option<Option<String>> {
        self.ases.borrow().iter().find_map(|a| {
            a.access_tokens
                .iter()
                .find(|(t, _)| t == token)
                .map(|(_, s)| s.clone())
        })
    }

    /// The stored document under `key`, parsed.
    pub fn stored(&self, key: &str) -> Option<Value> {
        self.storage
            .borrow()
            .get(key)
            .map(|t| mcp_wasm_client::json::from_str(t).expect("stored JSON"))
    }

    fn serve(&self, sent: &Sent) -> (u16, String, Option<String>) {
        let handler = self.routes.borrow().get(&sent.url).cloned();
        if let Some(h) = handler {
            let (s, b) = h(sent);
            return (s, b, None);
        }
        let mut ases = self.ases.borrow_mut();
        for a in ases.iter_mut() {
            if sent.method == "GET" && a.metadata_url.as_deref() == Some(sent.url.as_str()) {
                return (200, a.metadata.to_string(), None);
            }
            if sent.method == "POST" && a.registration_endpoint().as_deref() == Some(&sent.url) {
                let (s, b) = a.register(sent);
                return (s, b, None);
            }
            if sent.method == "POST" && a.token_endpoint() == sent.url {
                return a.token_with_nonce(sent);
            }
        }
        (404, "not found".into(), None)
    }

    fn page(&self, url: &str, state: &str, redirect_uri: &str) -> Result<Authorized, McpError> {
        self.authorizations.borrow_mut().push(url.to_string());
        let (base, query) = url.split_once('?').expect("a query");
        let params = parse_query(query);
        assert_eq!(param(&params, "state").as_deref(), Some(state));
        assert_eq!(
            param(&params, "redirect_uri").as_deref(),
            Some(redirect_uri)
        );
        let mut ases = self.ases.borrow_mut();
        let a = ases
            .iter_mut()
            .find(|a| a.authorization_endpoint() == base)
            .expect("an authorization endpoint of a fake AS");
        let n = a.next();
        let code = format!("CODE-SECRET-{}-{n}", a.tag);
        a.codes.insert(
            code.clone(),
            Code {
                client_id: param(&params, "client_id").unwrap_or_default(),
                redirect_uri: redirect_uri.into(),
                challenge: param(&params, "code_challenge").unwrap_or_default(),
                scope: param(&params, "scope"),
                resource: param(&params, "resource"),
            },
        );
        let iss = encode(&a.issuer);
        let with_iss = |q: String| {
            if a.send_iss {
                format!("{q}&iss={iss}")
            } else {
                q
            }
        };
        let (state, code) = (encode(state), encode(&code));
        let mode = self.mode.borrow().clone();
        let query = match &mode {
            CallbackMode::Normal | CallbackMode::Redirected => {
                with_iss(format!("code={code}&state={state}"))
            }
            CallbackMode::WrongState => with_iss(format!("code={code}&state=forged")),
            CallbackMode::NoIss => format!("code={code}&state={state}"),
            CallbackMode::WrongIss(i) => format!("code={code}&state={state}&iss={}", encode(i)),
            CallbackMode::Denied => with_iss(format!(
                "error=access_denied&error_description=The+user+said+no&state={state}"
            )),
            CallbackMode::Custom(q) => q
                .replace("{code}", &code)
                .replace("{state}", &state)
                .replace("{iss}", &iss),
        };
        let callback = format!("{redirect_uri}?{query}");
        self.callbacks.borrow_mut().push(callback.clone());
        Ok(if mode == CallbackMode::Redirected {
            Authorized::Redirected
        } else {
            Authorized::Callback(callback)
        })
    }
}

/// Returns `Pending` once (waking itself), then `Ready`.
struct YieldNow(bool);

impl Future for YieldNow {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

async fn pause(n: u32) {
    for _ in 0..n {
        YieldNow(false).await;
    }
}

/// The `AuthHost` over a shared [`World`].
pub struct FakeHost(pub Rc<World>);

impl AuthHost for FakeHost {
    fn fetch(&self, request: AuthRequest) -> LocalBoxFuture<'_, Result<AuthResponse, McpError>> {
        let sent = Sent {
            method: request.method.to_string(),
            url: request.url.clone(),
            content_type: request.content_type.map(str::to_string),
            body: request.body.as_ref().map(|b| b.expose().to_string()),
            authorization: request
                .authorization
                .as_ref()
                .map(|a| a.expose().to_string()),
            dpop: request.dpop.clone(),
        };
        self.0.requests.borrow_mut().push(sent.clone());
        let world = self.0.clone();
        async move {
            pause(world.yields.get()).await;
            let (status, body, dpop_nonce) = world.serve(&sent);
            // As a real host does: the body is read up to the cap and refused past it.
            if body.len() > request.max_bytes {
                return Err(response_too_large(
                    &sent.url,
                    request.max_bytes,
                    "reading stopped there",
                ));
            }
            Ok(AuthResponse {
                status,
                body,
                dpop_nonce,
            })
        }
        .boxed_local()
    }

    fn now_ms(&self) -> u64 {
        self.0.now.get()
    }

    fn random(&self, len: usize) -> Result<Vec<u8>, McpError> {
        let n = self.0.randoms.get() + 1;
        self.0.randoms.set(n);
        Ok((0..len)
            .map(|i| (n as usize * 97 + i * 13 + 7) as u8)
            .collect())
    }

    fn sha256(&self, data: Vec<u8>) -> LocalBoxFuture<'_, Result<[u8; 32], McpError>> {
        futures::future::ready(Ok(sha256(&data))).boxed_local()
    }

    fn load(&self, key: String) -> LocalBoxFuture<'_, Result<Option<String>, McpError>> {
        let v = self.0.storage.borrow().get(&key).cloned();
        futures::future::ready(Ok(v)).boxed_local()
    }

    fn save(&self, key: String, value: Option<String>) -> LocalBoxFuture<'_, Result<(), McpError>> {
        self.0.saves.borrow_mut().push((key.clone(), value.clone()));
        match value {
            Some(v) => self.0.storage.borrow_mut().insert(key, v),
            None => self.0.storage.borrow_mut().remove(&key),
        };
        futures::future::ready(Ok(())).boxed_local()
    }

    fn authorize(
        &self,
        url: String,
        state: String,
        redirect_uri: String,
    ) -> LocalBoxFuture<'_, Result<Authorized, McpError>> {
        let world = self.0.clone();
        async move {
            pause(world.yields.get()).await;
            world.page(&url, &state, &redirect_uri)
        }
        .boxed_local()
    }

    /// The fake signer: the signature is the SHA-256 of the input.
    fn sign_client(&self, input: Vec<u8>) -> LocalBoxFuture<'_, Result<Vec<u8>, McpError>> {
        self.0.client_signs.borrow_mut().push(input.clone());
        futures::future::ready(Ok(sha256(&input).to_vec())).boxed_local()
    }

    fn assertion(
        &self,
        issuer: String,
        resource: Option<String>,
        scope: Option<String>,
    ) -> LocalBoxFuture<'_, Result<Secret, McpError>> {
        let mut calls = self.0.assertion_calls.borrow_mut();
        calls.push((issuer, resource, scope));
        let n = calls.len();
        let answer = self
            .0
            .assertion_script
            .borrow_mut()
            .pop_front()
            .unwrap_or_else(|| Ok(format!("ASSERT-SECRET-{n}")));
        futures::future::ready(answer.map(Secret::new)).boxed_local()
    }

    /// [`DPOP_JWK`] with private members the flow must drop.
    fn dpop_public_jwk(&self) -> LocalBoxFuture<'_, Result<Value, McpError>> {
        let mut jwk = dpop_jwk();
        jwk["d"] = json!("D-PRIVATE-SECRET");
        jwk["ext"] = json!(true);
        jwk["key_ops"] = json!(["verify"]);
        futures::future::ready(Ok(jwk)).boxed_local()
    }

    fn sign_dpop(&self, input: Vec<u8>) -> LocalBoxFuture<'_, Result<Vec<u8>, McpError>> {
        self.0.dpop_signs.borrow_mut().push(input.clone());
        futures::future::ready(Ok(sha256(&input).to_vec())).boxed_local()
    }
}

/// The fake DPoP key's public JWK (RFC 9449 §4.1's example key).
pub fn dpop_jwk() -> Value {
    json!({
        "kty": "EC",
        "crv": "P-256",
        "x": "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs",
        "y": "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA",
    })
}

/// The RFC 7638 thumbprint of [`dpop_jwk`] (RFC 9449 §6.1 gives it).
pub const DPOP_JKT: &str = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I";

/// Part `i` (0: header, 1: claims) of a compact JWS, as JSON.
pub fn jws_part(jws: &str, i: usize) -> Value {
    let part = jws.split('.').nth(i).expect("a JWS part");
    mcp_wasm_client::json::from_slice(&URL_SAFE_NO_PAD.decode(part).expect("base64url"))
        .expect("JSON")
}

/// The one value of `name` (panics when repeated).
pub fn param(pairs: &[(String, String)], name: &str) -> Option<String> {
    let mut found = pairs.iter().filter(|(k, _)| k == name).map(|(_, v)| v);
    let first = found.next().cloned();
    assert!(found.next().is_none(), "{name} appears twice");
    first
}

/// Percent-decoding (`+` is a space), written here independently of the crate's.
pub fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap();
                out.push(u8::from_str_radix(hex, 16).expect("hex"));
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).expect("UTF-8")
}

/// Percent-encoding of everything but unreserved characters.
pub fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The pairs of a query or form body, decoded.
pub fn parse_query(q: &str) -> Vec<(String, String)> {
    q.split('&')
        .filter(|s| !s.is_empty())
        .map(|s| match s.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(s), String::new()),
        })
        .collect()
}

/// SHA-256 (FIPS 180-4), for the host and the fake AS's PKCE check: the crate's own test
/// digest (the crate never hashes in production).
pub fn sha256(data: &[u8]) -> [u8; 32] {
    mcp_wasm_client::auth::pkce::test_sha256(data)
}

/// The local error's kind (panics on a peer error: the flow makes only local ones).
pub fn kind(e: &McpError) -> ErrorKind {
    e.kind.unwrap_or_else(|| panic!("a local error: {e:?}"))
}

/// Every request the host sent, as (method, URL).
pub fn requests(w: &World) -> Vec<(String, String)> {
    w.requests
        .borrow()
        .iter()
        .map(|r| (r.method.clone(), r.url.clone()))
        .collect()
}

/// A GET of `url`, as [`requests`] lists it.
pub fn get(url: &str) -> (String, String) {
    ("GET".into(), url.into())
}

/// A POST to `url`, as [`requests`] lists it.
pub fn post(url: &str) -> (String, String) {
    ("POST".into(), url.into())
}
