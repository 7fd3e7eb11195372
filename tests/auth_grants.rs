//! The grants without a user (`client_credentials` with a secret or `private_key_jwt`, the
//! JWT bearer grant with a callback's assertion or an ID-JAG from an enterprise IdP) and
//! DPoP (proofs on token and MCP requests, `cnf.jkt`, `use_dpop_nonce` at the AS and the
//! server), natively against the fakes of tests/support/fake_as.rs. As in auth_flow.rs, each
//! test sends its MCP requests through the authorization seam (`auth::seam`), the loop the HTTP
//! transport runs, with a fake HTTP side (tests/support/fake_mcp.rs), and asserts on the
//! requests that were actually sent. This file holds what the tests share; the tests are in
//! auth_grants/, one file per subject.

#[path = "support/fake_as.rs"]
mod fake_as;
#[path = "support/fake_mcp.rs"]
mod fake_mcp;

#[path = "auth_grants/client_credentials.rs"]
mod client_credentials;
#[path = "auth_grants/dpop.rs"]
mod dpop;
#[path = "auth_grants/dpop_nonces.rs"]
mod dpop_nonces;
#[path = "auth_grants/jwt_bearer.rs"]
mod jwt_bearer;
#[path = "auth_grants/secrets.rs"]
mod secrets;

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use fake_as::{
    dpop_jwk, get, jws_part, kind, post, requests, sha256, FakeAs, FakeHost, Sent, World, DPOP_JKT,
};
use fake_mcp::{Answer, FakeRequest};
use futures::executor::block_on;
use mcp_wasm_client::auth::client::{AuthMethod, ClientInformation};
use mcp_wasm_client::auth::flow::{
    AssertionSource, AuthConfig, Authorizer, GrantConfig, StaticClient,
};
use mcp_wasm_client::auth::jose::Alg;
use mcp_wasm_client::auth::seam::Credentials;
use mcp_wasm_client::json::{json, Value};
use mcp_wasm_client::protocol::{ErrorKind, McpError};
use mcp_wasm_client::util::secret::Secret;
use std::cell::RefCell;
use std::rc::Rc;

const SERVER: &str = "https://mcp.example/mcp";
const REDIRECT: &str = "http://localhost:3000/callback";
const PRM_URL: &str = "https://mcp.example/meta/prm";
const AS1: &str = "https://as.example/tenant1";
const AS1_OAUTH: &str = "https://as.example/.well-known/oauth-authorization-server/tenant1";
const AS1_TOKEN: &str = "https://as.example/tenant1/token";
const AS2: &str = "https://as2.example";
const AS2_META: &str = "https://as2.example/.well-known/oauth-authorization-server";
const IDP_TOKEN: &str = "https://idp.example/oauth2/token";
const NOW_MS: u64 = 1_700_000_000_000;
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

type Auth = Authorizer<FakeHost>;

const SVC_SECRET: &str = "CS-SECRET-svc";

/// A world with AS1 (metadata at its RFC 8414 URL, offering both grants and every client
/// authentication method; the static client `svc` with [`SVC_SECRET`], `svc-key` with a
/// key, `pub` public) and the PRM at [`PRM_URL`] naming it.
fn world() -> Rc<World> {
    let w = World::new();
    let mut a = FakeAs::new("as1", AS1, Some(AS1_OAUTH));
    a.metadata["grant_types_supported"] = json!([
        "authorization_code",
        "refresh_token",
        "client_credentials",
        JWT_BEARER
    ]);
    a.metadata["token_endpoint_auth_methods_supported"] = json!([
        "none",
        "client_secret_basic",
        "client_secret_post",
        "private_key_jwt"
    ]);
    a.clients.insert("svc".into(), Some(SVC_SECRET.into()));
    a.clients.insert("pub".into(), None);
    a.key_clients.push("svc-key".into());
    w.add_as(a);
    w.json(
        PRM_URL,
        json!({ "resource": SERVER, "authorization_servers": [AS1] }),
    );
    w
}

fn info(id: &str, secret: Option<&str>, issuer: Option<&str>) -> ClientInformation {
    ClientInformation {
        client_id: id.into(),
        client_secret: secret.map(Secret::from),
        token_endpoint_auth_method: None,
        issuer: issuer.map(str::to_string),
        client_secret_expires_at: None,
    }
}

fn svc(method: Option<AuthMethod>) -> StaticClient {
    StaticClient {
        info: info("svc", Some(SVC_SECRET), None),
        method,
        signing: None,
    }
}

fn config(grant: GrantConfig) -> AuthConfig {
    AuthConfig {
        server_url: SERVER.into(),
        redirect_uri: REDIRECT.into(),
        max_step_up: 2,
        grant,
        ..AuthConfig::default()
    }
}

fn authorizer(w: &Rc<World>, config: AuthConfig) -> Auth {
    Authorizer::new(config, FakeHost(w.clone()))
}

/// What the fake MCP server answers to one request.
enum Reply {
    Ok,
    /// A success with a `DPoP-Nonce`.
    OkWithNonce(String),
    /// Status, `WWW-Authenticate`, `DPoP-Nonce`.
    Refuse(u16, Option<String>, Option<String>),
}

/// One MCP request sent through the authorization seam, as the transport sends it, to the
/// MCP server `server`; the credentials of every send are recorded in `sent`. The number of
/// sends is returned; a final answer that is not a success is an error.
fn call(
    auth: &Auth,
    sent: &RefCell<Vec<Credentials>>,
    mut server: impl FnMut(&Credentials) -> Reply,
) -> Result<u32, McpError> {
    let mut request = FakeRequest::new(SERVER, |c: &Credentials| {
        sent.borrow_mut().push(c.clone());
        match server(c) {
            Reply::Ok => Answer::ok(),
            Reply::OkWithNonce(nonce) => Answer::refused(200, None, Some(nonce)),
            Reply::Refuse(status, header, nonce) => Answer::refused(status, header, nonce),
        }
    });
    block_on(request.run(auth))
}

/// The access token of an `Authorization` value of either scheme.
fn token_of(t: &Credentials) -> Option<String> {
    let a = t.authorization.as_ref()?.expose();
    a.strip_prefix("Bearer ")
        .or_else(|| a.strip_prefix("DPoP "))
        .map(str::to_string)
}

/// An MCP server that accepts any token a fake AS issued and otherwise answers 401 with
/// `header`.
fn protected<'a>(w: &'a Rc<World>, header: Option<&str>) -> impl FnMut(&Credentials) -> Reply + 'a {
    let header = header.map(str::to_string);
    move |t| match token_of(t) {
        Some(tok) if w.token_scope(&tok).is_some() => Reply::Ok,
        _ => Reply::Refuse(401, header.clone(), None),
    }
}

fn challenge(scope: &str) -> Option<String> {
    Some(format!(
        r#"Bearer resource_metadata="{PRM_URL}", scope="{scope}""#
    ))
}

fn run(w: &Rc<World>, auth: &Auth, header: Option<&str>) -> Result<u32, McpError> {
    call(auth, &RefCell::default(), protected(w, header))
}

fn basic(id: &str, secret: &str) -> String {
    format!("Basic {}", STANDARD.encode(format!("{id}:{secret}")))
}

/// The form of a request, keys in order, values decoded.
fn form(s: &Sent) -> Vec<(String, String)> {
    s.form()
}

fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// No secret — anything the fakes or the tests minted carries `SECRET` (client secrets,
/// assertions, ID tokens, ID-JAGs, access and refresh tokens, the DPoP private member) —
/// appears in `e`'s message, data or Debug.
fn assert_no_secret(e: &McpError) {
    let shown = format!("{} {:?} {e:?} {e}", e.message, e.data);
    assert!(!shown.contains("SECRET"), "a secret leaked: {shown}");
}

/// Makes the token expire and moves the clock past it: the next operation needs a new one.
fn expire(w: &World) {
    w.now.set(w.now.get() + 3_700_000);
}

fn bearer_grant() -> GrantConfig {
    GrantConfig::JwtBearer(
        StaticClient {
            info: info("pub", None, None),
            method: None,
            signing: None,
        },
        AssertionSource::Callback,
    )
}

fn id_jag_grant() -> GrantConfig {
    GrantConfig::JwtBearer(
        StaticClient {
            info: info("svc", Some(SVC_SECRET), None),
            method: None,
            signing: None,
        },
        AssertionSource::IdJag {
            token_endpoint: IDP_TOKEN.into(),
            id_token: Secret::new("IDTOKEN-SECRET-alice"),
            idp_client: info("idp-app", Some("IDP-SECRET"), None),
        },
    )
}
