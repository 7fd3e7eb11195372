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
//!
//! This file holds the world and the helpers; fake_as/server.rs is one fake authorization
//! server, fake_as/host.rs the `AuthHost`.

#![allow(dead_code)]

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use futures::future::{FutureExt, LocalBoxFuture};
use mcp_wasm_client::auth::errors::response_too_large;
use mcp_wasm_client::auth::flow::{AuthHost, AuthRequest, AuthResponse, Authorized};
use mcp_wasm_client::json::{json, Value};
use mcp_wasm_client::protocol::{ErrorKind, McpError};
use mcp_wasm_client::util::secret::Secret;
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

#[path = "fake_as/host.rs"]
mod host;
#[path = "fake_as/server.rs"]
mod server;

pub use host::FakeHost;
pub use server::FakeAs;

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
