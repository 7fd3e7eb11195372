//! `auth::flow::Authorizer`, natively, against fake authorization servers
//! (tests/support/fake_as.rs): discovery order, registration, the authorization URL, the
//! callback checks, token requests and client authentication, refresh, rediscovery and AS
//! change, step-up and its caps, concurrency, redirect mode, pre-registered and CIMD clients,
//! sign-out, and that no secret reaches an error. Each test sends its MCP requests through the
//! authorization seam (`auth::seam`: credentials → the MCP server's status → `recover` → send
//! again), the loop the HTTP transport runs, with a fake HTTP side (tests/support/fake_mcp.rs),
//! and asserts on the requests that were actually sent. This file holds what the tests share;
//! the tests are in auth_flow/, one file per subject.

#[path = "support/fake_as.rs"]
mod fake_as;
#[path = "support/fake_mcp.rs"]
mod fake_mcp;

#[path = "auth_flow/callback.rs"]
mod callback;
#[path = "auth_flow/clients.rs"]
mod clients;
#[path = "auth_flow/discovery.rs"]
mod discovery;
#[path = "auth_flow/first_sign_in.rs"]
mod first_sign_in;
#[path = "auth_flow/refresh.rs"]
mod refresh;
#[path = "auth_flow/seam.rs"]
mod seam;
#[path = "auth_flow/secrets.rs"]
mod secrets;
#[path = "auth_flow/step_up.rs"]
mod step_up;

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use fake_as::{
    get, kind, param, post, requests, sha256, CallbackMode, FakeAs, FakeHost, Sent, World,
};
use fake_mcp::{Answer, FakeRequest};
use futures::executor::block_on;
use mcp_wasm_client::auth::client::ClientInformation;
use mcp_wasm_client::auth::flow::{AuthConfig, Authorizer, Operation, SignOut, MAX_RECOVERIES};
use mcp_wasm_client::auth::scopes::StepUpPolicy;
use mcp_wasm_client::auth::seam::{Authorize, Credentials, Flow, Refusal, Ticket};
use mcp_wasm_client::auth::store;
use mcp_wasm_client::json::{json, Value};
use mcp_wasm_client::protocol::{ErrorKind, McpError};
use mcp_wasm_client::util::secret::Secret;
use std::rc::Rc;

const SERVER: &str = "https://mcp.example/mcp";
const REDIRECT: &str = "http://localhost:3000/callback";
/// A PRM URL only the challenge names (not a well-known one).
const PRM_URL: &str = "https://mcp.example/meta/prm";
const PRM_PATH: &str = "https://mcp.example/.well-known/oauth-protected-resource/mcp";
const PRM_ROOT: &str = "https://mcp.example/.well-known/oauth-protected-resource";
const AS1: &str = "https://as.example/tenant1";
const AS1_OAUTH: &str = "https://as.example/.well-known/oauth-authorization-server/tenant1";
const AS1_OIDC_INSERTED: &str = "https://as.example/.well-known/openid-configuration/tenant1";
const AS1_OIDC_APPENDED: &str = "https://as.example/tenant1/.well-known/openid-configuration";
const AS2: &str = "https://as2.example";
const AS2_META: &str = "https://as2.example/.well-known/oauth-authorization-server";

type Auth = Authorizer<FakeHost>;

fn key() -> String {
    store::key(SERVER)
}

fn config() -> AuthConfig {
    AuthConfig {
        server_url: SERVER.into(),
        redirect_uri: REDIRECT.into(),
        max_step_up: 2,
        ..AuthConfig::default()
    }
}

fn prm(resource: &str, issuer: &str) -> Value {
    json!({ "resource": resource, "authorization_servers": [issuer] })
}

/// `WWW-Authenticate` of a 401 naming [`PRM_URL`] and `scope`.
fn challenge(scope: &str) -> Option<String> {
    Some(format!(
        r#"Bearer resource_metadata="{PRM_URL}", scope="{scope}""#
    ))
}

/// A world with AS1 (metadata at the OIDC path-appended URL, the last one tried) and the PRM
/// at [`PRM_URL`] naming it.
fn world() -> Rc<World> {
    let w = World::new();
    w.add_as(FakeAs::new("as1", AS1, Some(AS1_OIDC_APPENDED)));
    w.json(PRM_URL, prm(SERVER, AS1));
    w
}

fn authorizer(w: &Rc<World>, config: AuthConfig) -> Auth {
    Authorizer::new(config, FakeHost(w.clone()))
}

/// What the fake MCP server answers to one request.
enum Reply {
    Ok,
    Refuse(u16, Option<String>),
}

/// One MCP request sent through the authorization seam, as the transport sends it, to the
/// MCP server `server` (given the `Authorization` of each send). The number of sends is
/// returned; a final answer that is not a success is an error.
async fn run(auth: &Auth, mut server: impl FnMut(Option<&str>) -> Reply) -> Result<u32, McpError> {
    let mut request = FakeRequest::new(SERVER, |c: &Credentials| {
        match server(c.authorization.as_ref().map(Secret::expose)) {
            Reply::Ok => Answer::ok(),
            Reply::Refuse(status, header) => Answer::refused(status, header, None),
        }
    });
    request.run(auth).await
}

/// A 401 or 403 with `WWW-Authenticate: header`, as the seam hands it to `recover`.
fn refusal(status: u16, header: Option<String>) -> Refusal {
    Refusal::of(status, header, None).expect("a refusal the flow recovers from")
}

fn call(auth: &Auth, server: impl FnMut(Option<&str>) -> Reply) -> Result<u32, McpError> {
    block_on(run(auth, server))
}

/// The bearer token of an `Authorization` value.
fn bearer(a: Option<&str>) -> Option<&str> {
    a.and_then(|a| a.strip_prefix("Bearer "))
}

/// An MCP server that accepts any token a fake AS issued and answers 401 with `header`.
fn protected(w: &Rc<World>, header: Option<String>) -> impl FnMut(Option<&str>) -> Reply + '_ {
    move |a| match bearer(a) {
        Some(t) if w.token_scope(t).is_some() => Reply::Ok,
        _ => Reply::Refuse(401, header.clone()),
    }
}

fn ticket_auth(t: &Ticket) -> Option<String> {
    t.credentials
        .authorization
        .as_ref()
        .map(|s| s.expose().to_string())
}

fn before(auth: &Auth) -> Option<String> {
    ticket_auth(&block_on(auth.before_request(&mut Operation::default(), "POST", SERVER)).unwrap())
}

fn last_token(w: &World, tag: &str) -> String {
    w.with_as(tag, |a| a.access_tokens.last().unwrap().0.clone())
}

/// No secret the fakes minted (all contain `SECRET`) nor any PKCE verifier the flow made
/// appears in `e`'s message, data or Debug.
fn assert_no_secret(w: &World, e: &McpError) {
    let shown = format!("{} {:?} {e:?} {e}", e.message, e.data);
    assert!(!shown.contains("SECRET"), "a secret leaked: {shown}");
    let mut verifiers: Vec<String> = w
        .posts()
        .iter()
        .filter_map(|p| p.param("code_verifier"))
        .collect();
    for (_, doc) in w.saves.borrow().iter() {
        if let Some(v) = doc
            .as_deref()
            .and_then(|d| mcp_wasm_client::json::from_str::<mcp_wasm_client::json::Value>(d).ok())
            .and_then(|d| d["pending"]["code_verifier"].as_str().map(str::to_string))
        {
            verifiers.push(v);
        }
    }
    for v in verifiers {
        assert!(!shown.contains(&v), "a verifier leaked: {shown}");
    }
}

fn auth_expiry(w: &World) -> u64 {
    w.stored(&key()).unwrap()["grant"]["expires_at"]
        .as_u64()
        .unwrap()
}

fn auth_status_none(w: &World) -> bool {
    w.stored(&key()).is_none_or(|d| d["grant"].is_null())
}

fn signed_in() -> (Rc<World>, Auth) {
    let w = world();
    let auth = authorizer(&w, config());
    call(&auth, protected(&w, challenge("a"))).unwrap();
    (w, auth)
}

/// A server that wants `needs` (space-delimited) and answers 403 insufficient_scope otherwise.
fn scoped<'a>(w: &'a Rc<World>, needs: &'a str) -> impl FnMut(Option<&str>) -> Reply + 'a {
    move |a| match bearer(a).and_then(|t| w.token_scope(t)) {
        None => Reply::Refuse(401, challenge("a")),
        Some(granted) => {
            let granted = granted.unwrap_or_default();
            let granted: Vec<&str> = granted.split(' ').collect();
            if needs.split(' ').all(|n| granted.contains(&n)) {
                Reply::Ok
            } else {
                Reply::Refuse(
                    403,
                    Some(format!(
                        r#"Bearer error="insufficient_scope", scope="{needs}", resource_metadata="{PRM_URL}""#
                    )),
                )
            }
        }
    }
}

/// One request through the seam, as the HTTP side saw it.
struct Sends {
    result: Result<(), McpError>,
    /// The `Authorization` of every send.
    sent: Vec<Option<String>>,
    /// Responses released unread.
    released: u32,
    /// The status of the answer handed back.
    last: Option<u16>,
}

fn sends_of(auth: &Auth, mut server: impl FnMut(Option<&str>) -> Reply) -> Sends {
    let sent = std::cell::RefCell::new(Vec::new());
    let mut request = FakeRequest::new(SERVER, |c: &Credentials| {
        let a = c.authorization.as_ref().map(|s| s.expose().to_string());
        sent.borrow_mut().push(a.clone());
        match server(a.as_deref()) {
            Reply::Ok => Answer::ok(),
            Reply::Refuse(status, header) => Answer::refused(status, header, None),
        }
    });
    let result = block_on(Authorize::send(auth, &mut request, "tools/call"));
    let (released, last) = (request.released, request.last.map(|a| a.status));
    Sends {
        result,
        sent: sent.take(),
        released,
        last,
    }
}
