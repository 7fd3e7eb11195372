//! `auth::flow::Authorizer`, natively, against fake authorization servers
//! (tests/support/fake_as.rs): discovery order, registration, the authorization URL, the
//! callback checks, token requests and client authentication, refresh, rediscovery and AS
//! change, step-up and its caps, concurrency, redirect mode, pre-registered and CIMD clients,
//! sign-out, and that no secret reaches an error. Each test sends its MCP requests through the
//! authorization seam (`auth::seam`: credentials → the MCP server's status → `recover` → send
//! again), the loop the HTTP transport runs, with a fake HTTP side (tests/support/fake_mcp.rs),
//! and asserts on the requests that were actually sent.

#[path = "support/fake_as.rs"]
mod fake_as;
#[path = "support/fake_mcp.rs"]
mod fake_mcp;

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
use mcp_wasm_client::auth::secret::Secret;
use mcp_wasm_client::auth::store;
use mcp_wasm_client::json::{json, Value};
use mcp_wasm_client::protocol::{ErrorKind, McpError};
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

// 1. First sign-in from a 401 ------------------------------------------------------------

/// Signs in from scratch with AS1 registering clients with `method`, and checks everything
/// that was sent. Returns the world, the authorizer and the token request.
fn first_sign_in(method: Option<&str>, prefix: &str, resource: &str) -> (Rc<World>, Auth, Sent) {
    let w = World::new();
    let mut a = FakeAs::new("as1", AS1, Some(AS1_OIDC_APPENDED));
    a.register_method = method.map(str::to_string);
    a.client_id_prefix = prefix.into();
    w.add_as(a);
    w.json(PRM_URL, prm(resource, AS1));
    let auth = authorizer(&w, config());

    assert_eq!(call(&auth, protected(&w, challenge("a"))).unwrap(), 2);

    let register = format!("{AS1}/register");
    let token = format!("{AS1}/token");
    // PRM from the challenge's URL; AS metadata in the spec order (issuer with a path).
    assert_eq!(
        requests(&w),
        vec![
            get(PRM_URL),
            get(AS1_OAUTH),
            get(AS1_OIDC_INSERTED),
            get(AS1_OIDC_APPENDED),
            post(&register),
            post(&token),
        ]
    );
    // Dynamic registration.
    let reg = w.posts_to(&register).remove(0);
    assert_eq!(reg.content_type.as_deref(), Some("application/json"));
    let body = reg.json();
    assert_eq!(body["application_type"], "native", "{body}");
    assert_eq!(body["redirect_uris"], json!([REDIRECT]));
    assert_eq!(
        body["grant_types"],
        json!(["authorization_code", "refresh_token"])
    );
    assert_eq!(body["response_types"], json!(["code"]));
    assert!(reg.authorization.is_none());
    let client_id = w.with_as("as1", |a| a.registered[0].clone());
    assert!(client_id.starts_with(prefix));

    // The authorization URL.
    assert_eq!(w.authorizations.borrow().len(), 1);
    assert!(w.authorizations.borrow()[0].starts_with(&format!("{AS1}/authorize?")));
    let q = w.authorization_params(0);
    let names: Vec<&str> = q.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "response_type",
            "client_id",
            "redirect_uri",
            "state",
            "code_challenge",
            "code_challenge_method",
            "scope",
            "resource"
        ]
    );
    assert_eq!(param(&q, "response_type").as_deref(), Some("code"));
    assert_eq!(param(&q, "client_id"), Some(client_id.clone()));
    assert_eq!(param(&q, "redirect_uri").as_deref(), Some(REDIRECT));
    assert_eq!(param(&q, "code_challenge_method").as_deref(), Some("S256"));
    assert_eq!(param(&q, "scope").as_deref(), Some("a"));
    assert_eq!(param(&q, "resource").as_deref(), Some(resource));
    let state = param(&q, "state").unwrap();
    assert!(state.len() >= 22, "state from 16+ random bytes: {state}");

    // The token request.
    let tr = w.posts_to(&token).remove(0);
    assert_eq!(
        tr.content_type.as_deref(),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        tr.param("grant_type").as_deref(),
        Some("authorization_code")
    );
    let callback = w.callbacks.borrow()[0].clone();
    let code = param(
        &fake_as::parse_query(callback.split_once('?').unwrap().1),
        "code",
    );
    assert!(code.as_deref().unwrap().starts_with("CODE-SECRET-"));
    assert_eq!(tr.param("code"), code);
    assert_eq!(tr.param("redirect_uri").as_deref(), Some(REDIRECT));
    assert_eq!(tr.param("resource").as_deref(), Some(resource));
    let verifier = tr.param("code_verifier").unwrap();
    assert_eq!(verifier.len(), 43);
    assert_eq!(
        param(&q, "code_challenge"),
        Some(URL_SAFE_NO_PAD.encode(sha256(verifier.as_bytes())))
    );
    assert_ne!(verifier, state);

    // Stored, then used.
    let at = last_token(&w, "as1");
    let stored = w.stored(&key()).expect("stored");
    assert_eq!(stored["grant"]["access_token"], json!(at));
    assert_eq!(stored["grant"]["resource"], json!(resource));
    assert_eq!(stored["clients"][0]["client_id"], json!(client_id));
    assert_eq!(stored["clients"][0]["issuer"], json!(AS1));
    assert_eq!(stored["pending"], Value::Null);
    assert_eq!(before(&auth), Some(format!("Bearer {at}")));
    let status = auth.status().unwrap();
    assert_eq!(status.issuer, AS1);
    assert_eq!(status.scope.as_deref(), Some("a"));
    assert_eq!(status.expires_at_ms, Some(w.now.get() + 3_600_000));
    let debug = format!("{auth:?} {auth:#?}");
    assert!(!debug.contains("SECRET"), "{debug}");
    assert!(debug.contains(AS1));
    (w, auth, tr)
}

#[test]
fn first_sign_in_public_client() {
    let (_w, _auth, tr) = first_sign_in(None, "as1-client-", SERVER);
    assert!(tr.authorization.is_none());
    assert!(tr
        .param("client_id")
        .is_some_and(|c| c.starts_with("as1-client-")));
    assert_eq!(tr.param("client_secret"), None);
}

#[test]
fn first_sign_in_client_secret_basic_with_a_bare_origin_resource() {
    // The resource is a bare origin without a slash: sent exactly like that.
    let (w, _auth, tr) = first_sign_in(
        Some("client_secret_basic"),
        "as1 client:",
        "https://mcp.example",
    );
    let client_id = w.with_as("as1", |a| a.registered[0].clone());
    let secret = w.with_as("as1", |a| a.clients[&client_id].clone().unwrap());
    // RFC 6749 §2.3.1: each part form-urlencoded before base64.
    let expected = format!(
        "Basic {}",
        STANDARD.encode(format!("as1+client%3A1:{secret}"))
    );
    assert_eq!(tr.authorization, Some(expected));
    assert_eq!(tr.param("client_id"), None);
    assert_eq!(tr.param("client_secret"), None);
}

#[test]
fn first_sign_in_client_secret_post() {
    let (w, _auth, tr) = first_sign_in(Some("client_secret_post"), "as1-client-", SERVER);
    let client_id = w.with_as("as1", |a| a.registered[0].clone());
    assert!(tr.authorization.is_none());
    assert_eq!(tr.param("client_id"), Some(client_id.clone()));
    assert_eq!(
        tr.param("client_secret"),
        w.with_as("as1", |a| a.clients[&client_id].clone())
    );
}

#[test]
fn scope_selection_prm_scopes_and_offline_access() {
    // No scope in the challenge: all of PRM scopes_supported; offline_access when the AS lists it.
    let w = world();
    w.json(
        PRM_URL,
        json!({ "resource": SERVER, "authorization_servers": [AS1], "scopes_supported": ["x", "y"] }),
    );
    w.with_as("as1", |a| {
        a.metadata["scopes_supported"] = json!(["x", "y", "offline_access"])
    });
    let auth = authorizer(&w, config());
    let header = Some(format!(r#"Bearer resource_metadata="{PRM_URL}""#));
    call(&auth, protected(&w, header)).unwrap();
    let q = w.authorization_params(0);
    assert_eq!(param(&q, "scope").as_deref(), Some("x y offline_access"));

    // Nothing anywhere: the scope parameter is omitted.
    let w = world();
    let auth = authorizer(&w, config());
    let header = Some(format!(r#"Bearer resource_metadata="{PRM_URL}""#));
    call(&auth, protected(&w, header)).unwrap();
    assert_eq!(param(&w.authorization_params(0), "scope"), None);
}

// 2. PRM without resource_metadata --------------------------------------------------------

#[test]
fn prm_from_the_well_known_urls_when_the_challenge_names_none() {
    for header in [None, Some(r#"Bearer scope="a""#.to_string())] {
        let w = world();
        w.routes.borrow_mut().remove(PRM_URL);
        w.json(PRM_ROOT, prm(SERVER, AS1));
        let auth = authorizer(&w, config());
        call(&auth, protected(&w, header.clone())).unwrap();
        assert_eq!(
            w.gets(),
            vec![
                PRM_PATH,
                PRM_ROOT,
                AS1_OAUTH,
                AS1_OIDC_INSERTED,
                AS1_OIDC_APPENDED
            ],
            "{header:?}"
        );
        assert_eq!(
            param(&w.authorization_params(0), "resource").as_deref(),
            Some(SERVER)
        );
    }
    // The path-based one is used when it exists.
    let w = world();
    w.json(PRM_PATH, prm(SERVER, AS1));
    let auth = authorizer(&w, config());
    call(&auth, protected(&w, None)).unwrap();
    assert_eq!(w.gets()[0], PRM_PATH);
    assert_eq!(w.gets()[1], AS1_OAUTH);
    // A challenge's URL that fails falls back to the well-known ones.
    let w = world();
    w.route(PRM_URL, 404, "");
    w.json(PRM_ROOT, prm(SERVER, AS1));
    let auth = authorizer(&w, config());
    call(&auth, protected(&w, challenge("a"))).unwrap();
    assert_eq!(&w.gets()[..3], &[PRM_URL, PRM_PATH, PRM_ROOT]);
}

// 3. Resource mismatch -------------------------------------------------------------------

#[test]
fn resource_mismatch_stops_before_registration_and_authorization() {
    for resource in [
        "https://other.example/mcp",
        "https://mcp.example/other",
        "https://mcp.example/mc",
    ] {
        let w = world();
        w.json(PRM_URL, prm(resource, AS1));
        let auth = authorizer(&w, config());
        let e = call(&auth, protected(&w, challenge("a"))).unwrap_err();
        assert_eq!(kind(&e), ErrorKind::ResourceMismatch, "{resource}: {e:?}");
        assert_eq!(w.gets(), vec![PRM_URL], "{resource}");
        assert!(w.posts().is_empty());
        assert!(w.authorizations.borrow().is_empty());
        assert!(auth.status().is_none());
    }
}

#[test]
fn an_oversized_metadata_document_ends_discovery_with_its_reason() {
    let w = world();
    // Larger than the flow reads of a metadata document (256 KiB).
    w.route(
        PRM_URL,
        200,
        format!("{{\"pad\":\"{}\"}}", "a".repeat(300 * 1024)),
    );
    let auth = authorizer(&w, config());
    let e = call(&auth, protected(&w, challenge("a"))).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::AuthMetadata, "{e:?}");
    assert!(e.message.contains("is larger than 262144 bytes"), "{e:?}");
    assert_eq!(w.gets(), vec![PRM_URL], "no other metadata URL is tried");
    assert!(w.posts().is_empty());
    assert!(w.authorizations.borrow().is_empty());
}

// 4. AS metadata checks ------------------------------------------------------------------

#[test]
fn as_issuer_mismatch_and_missing_s256_are_refused_before_authorization() {
    // Trailing slash: not the same issuer (strings compared exactly).
    let w = world();
    w.with_as("as1", |a| a.metadata["issuer"] = json!(format!("{AS1}/")));
    let auth = authorizer(&w, config());
    let e = call(&auth, protected(&w, challenge("a"))).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::IssuerMismatch, "{e:?}");
    assert!(w.posts().is_empty());
    assert!(w.authorizations.borrow().is_empty());

    for methods in [json!(["plain"]), Value::Null] {
        let w = world();
        w.with_as("as1", |a| {
            a.metadata["code_challenge_methods_supported"] = methods.clone()
        });
        let auth = authorizer(&w, config());
        let e = call(&auth, protected(&w, challenge("a"))).unwrap_err();
        assert_eq!(kind(&e), ErrorKind::AuthMetadata, "{e:?}");
        assert!(e.message.contains("S256"), "{}", e.message);
        assert_eq!(w.gets().last().map(String::as_str), Some(AS1_OIDC_APPENDED));
        assert!(
            w.posts().is_empty(),
            "no registration before the AS is accepted"
        );
        assert!(w.authorizations.borrow().is_empty());
    }

    // No AS metadata anywhere: a clear error listing what was tried.
    let w = world();
    w.with_as("as1", |a| a.metadata_url = None);
    let auth = authorizer(&w, config());
    let e = call(&auth, protected(&w, challenge("a"))).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::AuthMetadata);
    assert_eq!(
        e.data.as_ref().unwrap()["tried"].as_array().unwrap().len(),
        3
    );
    assert!(w.posts().is_empty());
}

// 5. 2025-03-26 fallback -----------------------------------------------------------------

#[test]
fn legacy_server_without_prm_uses_metadata_at_its_origin() {
    let w = World::new();
    w.add_as(FakeAs::new(
        "legacy",
        "https://mcp.example",
        Some("https://mcp.example/.well-known/oauth-authorization-server"),
    ));
    let auth = authorizer(&w, config());
    call(&auth, protected(&w, Some("Bearer".into()))).unwrap();
    assert_eq!(
        requests(&w),
        vec![
            get(PRM_PATH),
            get(PRM_ROOT),
            get("https://mcp.example/.well-known/oauth-authorization-server"),
            post("https://mcp.example/register"),
            post("https://mcp.example/token"),
        ]
    );
    let q = w.authorization_params(0);
    assert_eq!(param(&q, "resource"), None, "no PRM, no resource");
    assert!(w.authorizations.borrow()[0].starts_with("https://mcp.example/authorize?"));
    let tr = w.posts_to("https://mcp.example/token").remove(0);
    assert_eq!(tr.param("resource"), None);
    assert_eq!(auth.status().unwrap().issuer, "https://mcp.example");
}

#[test]
fn legacy_issuer_with_a_path_on_the_same_origin_is_accepted() {
    let w = World::new();
    w.add_as(FakeAs::new(
        "legacy",
        "https://mcp.example/oauth",
        Some("https://mcp.example/.well-known/oauth-authorization-server"),
    ));
    let auth = authorizer(&w, config());
    call(&auth, protected(&w, None)).unwrap();
    assert!(w.authorizations.borrow()[0].starts_with("https://mcp.example/oauth/authorize?"));
    assert_eq!(w.posts_to("https://mcp.example/oauth/token").len(), 1);
    assert_eq!(auth.status().unwrap().issuer, "https://mcp.example/oauth");

    // Another origin is not accepted.
    let w = World::new();
    let mut a = FakeAs::new(
        "evil",
        "https://evil.example",
        Some("https://mcp.example/.well-known/oauth-authorization-server"),
    );
    a.metadata["issuer"] = json!("https://evil.example");
    w.add_as(a);
    let auth = authorizer(&w, config());
    let e = call(&auth, protected(&w, None)).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::IssuerMismatch);
    assert!(w.posts().is_empty());
}

#[test]
fn legacy_server_without_any_metadata_uses_the_default_endpoints() {
    let w = World::new();
    w.add_as(FakeAs::new("legacy", "https://mcp.example", None));
    let auth = authorizer(&w, config());
    call(&auth, protected(&w, None)).unwrap();
    assert_eq!(
        requests(&w),
        vec![
            get(PRM_PATH),
            get(PRM_ROOT),
            get("https://mcp.example/.well-known/oauth-authorization-server"),
            get("https://mcp.example/.well-known/openid-configuration"),
            post("https://mcp.example/register"),
            post("https://mcp.example/token"),
        ]
    );
    assert!(w.authorizations.borrow()[0].starts_with("https://mcp.example/authorize?"));
    let q = w.authorization_params(0);
    assert_eq!(param(&q, "code_challenge_method").as_deref(), Some("S256"));
}

#[test]
fn legacy_server_on_plain_http_gets_no_credentials() {
    let w = World::new();
    let mut cfg = config();
    cfg.server_url = "http://mcp.example/mcp".into();
    let auth = authorizer(&w, cfg);
    let e = call(&auth, protected(&w, None)).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::AuthMetadata);
    assert!(e.message.contains("not https"), "{}", e.message);
    assert!(w.posts().is_empty());
    assert!(w.authorizations.borrow().is_empty());
}

// 6. The callback: iss and state -----------------------------------------------------------

/// Signs in with the page in `mode`, AS1 advertising `iss` support or not.
fn callback_outcome(mode: CallbackMode, advertised: bool) -> (Rc<World>, Result<u32, McpError>) {
    let w = world();
    w.with_as("as1", |a| {
        a.metadata["authorization_response_iss_parameter_supported"] = json!(advertised)
    });
    *w.mode.borrow_mut() = mode;
    let auth = authorizer(&w, config());
    let r = call(&auth, protected(&w, challenge("a")));
    (w, r)
}

#[test]
fn iss_table() {
    let wrong = CallbackMode::WrongIss(format!("{AS1}/"));
    for (mode, advertised) in [
        (CallbackMode::NoIss, true),
        (wrong.clone(), true),
        (wrong, false),
        (CallbackMode::WrongIss("https://evil.example".into()), false),
    ] {
        let (w, r) = callback_outcome(mode.clone(), advertised);
        let e = r.unwrap_err();
        assert_eq!(kind(&e), ErrorKind::IssuerMismatch, "{mode:?} {advertised}");
        assert_eq!(w.authorizations.borrow().len(), 1);
        assert!(
            w.posts_to(&format!("{AS1}/token")).is_empty(),
            "the code is never redeemed: {mode:?} {advertised}"
        );
        assert_no_secret(&w, &e);
    }
    // Not advertised and absent; advertised and equal: accepted.
    for (mode, advertised) in [(CallbackMode::NoIss, false), (CallbackMode::Normal, true)] {
        let (w, r) = callback_outcome(mode.clone(), advertised);
        r.unwrap_or_else(|e| panic!("{mode:?} {advertised}: {e:?}"));
        assert_eq!(w.posts_to(&format!("{AS1}/token")).len(), 1);
    }
}

#[test]
fn iss_rejection_hides_the_callback_error_description() {
    let (w, r) = callback_outcome(
        CallbackMode::Custom(
            "error=access_denied&error_description=Call+EVIL+support&state={state}&iss=https%3A%2F%2Fevil.example".into(),
        ),
        true,
    );
    let e = r.unwrap_err();
    assert_eq!(kind(&e), ErrorKind::IssuerMismatch);
    assert!(!format!("{e:?}").contains("EVIL"), "{e:?}");
    assert!(w.posts_to(&format!("{AS1}/token")).is_empty());
}

#[test]
fn state_mismatch_and_denial_never_reach_the_token_endpoint() {
    let (w, r) = callback_outcome(CallbackMode::WrongState, true);
    let e = r.unwrap_err();
    assert_eq!(kind(&e), ErrorKind::StateMismatch);
    assert!(w.posts_to(&format!("{AS1}/token")).is_empty());
    assert_eq!(w.stored(&key()).unwrap()["pending"], Value::Null);

    let (w, r) = callback_outcome(CallbackMode::Denied, true);
    let e = r.unwrap_err();
    assert_eq!(kind(&e), ErrorKind::Unauthorized);
    assert!(e.message.contains("access_denied"), "{}", e.message);
    assert!(w.posts_to(&format!("{AS1}/token")).is_empty());
    assert!(auth_status_none(&w));
}

fn auth_expiry(w: &World) -> u64 {
    w.stored(&key()).unwrap()["grant"]["expires_at"]
        .as_u64()
        .unwrap()
}

fn auth_status_none(w: &World) -> bool {
    w.stored(&key()).is_none_or(|d| d["grant"].is_null())
}

// 7. Refresh ------------------------------------------------------------------------------

fn signed_in() -> (Rc<World>, Auth) {
    let w = world();
    let auth = authorizer(&w, config());
    call(&auth, protected(&w, challenge("a"))).unwrap();
    (w, auth)
}

#[test]
fn refresh_before_a_token_expires() {
    let (w, auth) = signed_in();
    let token = format!("{AS1}/token");
    let first = last_token(&w, "as1");
    let client_id = w.with_as("as1", |a| a.registered[0].clone());
    let expiry = auth.status().unwrap().expires_at_ms.unwrap();

    // 61 s left: sent as is.
    w.now.set(expiry - 61_000);
    assert_eq!(before(&auth), Some(format!("Bearer {first}")));
    assert_eq!(w.posts_to(&token).len(), 1);

    // 59 s left: refreshed first.
    w.now.set(expiry - 59_000);
    let sent = before(&auth).unwrap();
    let refresh = w.posts_to(&token).remove(1);
    assert_eq!(
        refresh.param("grant_type").as_deref(),
        Some("refresh_token")
    );
    assert!(refresh
        .param("refresh_token")
        .is_some_and(|t| t.starts_with("RT-SECRET-as1-")));
    assert_eq!(refresh.param("resource").as_deref(), Some(SERVER));
    assert_eq!(refresh.param("client_id"), Some(client_id));
    assert_eq!(refresh.param("code"), None);
    let second = last_token(&w, "as1");
    assert_ne!(first, second);
    assert_eq!(sent, format!("Bearer {second}"));
    assert_eq!(
        w.stored(&key()).unwrap()["grant"]["access_token"],
        json!(second)
    );
    assert_eq!(
        auth.status().unwrap().expires_at_ms,
        Some(w.now.get() + 3_600_000)
    );
    assert_eq!(auth.status().unwrap().scope.as_deref(), Some("a"));
    assert!(w.authorizations.borrow().len() == 1);
}

#[test]
fn invalid_grant_on_refresh_drops_the_tokens_and_a_401_signs_in_again() {
    let (w, auth) = signed_in();
    let token = format!("{AS1}/token");
    w.with_as("as1", |a| {
        a.token_script
            .push_back((400, json!({ "error": "invalid_grant" }).to_string()))
    });
    w.now
        .set(auth.status().unwrap().expires_at_ms.unwrap() - 10_000);
    let mut op = Operation::default();
    let t = block_on(auth.before_request(&mut op, "POST", SERVER)).unwrap();
    assert_eq!(ticket_auth(&t), None, "sent without a token");
    assert!(auth.status().is_none());
    let stored = w.stored(&key()).unwrap();
    assert_eq!(stored["grant"], Value::Null);
    assert_eq!(
        stored["clients"].as_array().unwrap().len(),
        1,
        "the client stays"
    );
    // The server's 401 starts a sign-in, with the same registration.
    block_on(auth.recover(&t, &refusal(401, challenge("a")), SERVER, &mut op)).unwrap();
    assert_eq!(w.authorizations.borrow().len(), 2);
    assert_eq!(w.posts_to(&format!("{AS1}/register")).len(), 1);
    assert_eq!(w.posts_to(&token).len(), 3);
    assert_eq!(
        ticket_auth(&block_on(auth.before_request(&mut op, "POST", SERVER)).unwrap()),
        Some(format!("Bearer {}", last_token(&w, "as1")))
    );
}

#[test]
fn a_failed_refresh_keeps_the_grant() {
    let (w, auth) = signed_in();
    let first = last_token(&w, "as1");
    w.with_as("as1", |a| a.token_script.push_back((503, "busy".into())));
    w.now
        .set(auth.status().unwrap().expires_at_ms.unwrap() - 10_000);
    let e = block_on(auth.before_request(&mut Operation::default(), "POST", SERVER)).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::TokenError, "{e:?}");
    assert_no_secret(&w, &e);
    assert!(auth.status().is_some());
    assert_eq!(
        w.stored(&key()).unwrap()["grant"]["access_token"],
        json!(first)
    );
    // The next operation refreshes successfully.
    let sent = before(&auth).unwrap();
    assert_eq!(sent, format!("Bearer {}", last_token(&w, "as1")));
    assert_ne!(sent, format!("Bearer {first}"));
}

#[test]
fn an_expired_token_without_refresh_is_dropped_before_sending() {
    let w = world();
    w.with_as("as1", |a| a.issue_refresh = false);
    let auth = authorizer(&w, config());
    call(&auth, protected(&w, challenge("a"))).unwrap();
    w.now.set(auth.status().unwrap().expires_at_ms.unwrap());
    assert_eq!(before(&auth), None);
    assert!(auth_status_none(&w));
    assert_eq!(
        w.posts_to(&format!("{AS1}/token")).len(),
        1,
        "no refresh attempted"
    );
}

// 8. 401 after an accepted token: rediscovery ----------------------------------------------

#[test]
fn accepted_then_401_with_the_same_as_refreshes_after_rediscovery() {
    let (w, auth) = signed_in();
    let first = last_token(&w, "as1");
    let before_count = w.requests.borrow().len();
    // The server revokes the first token.
    let revoked = first.clone();
    call(&auth, |a| match bearer(a) {
        Some(t) if t != revoked && w.token_scope(t).is_some() => Reply::Ok,
        _ => Reply::Refuse(401, challenge("a")),
    })
    .unwrap();
    let later: Vec<(String, String)> = requests(&w)[before_count..].to_vec();
    assert_eq!(
        later,
        vec![
            get(PRM_URL),
            get(AS1_OAUTH),
            get(AS1_OIDC_INSERTED),
            get(AS1_OIDC_APPENDED),
            post(&format!("{AS1}/token")),
        ]
    );
    assert_eq!(
        w.posts_to(&format!("{AS1}/token"))[1]
            .param("grant_type")
            .as_deref(),
        Some("refresh_token")
    );
    assert_eq!(w.authorizations.borrow().len(), 1);
}

#[test]
fn accepted_then_401_naming_another_as_registers_there_without_the_old_client_id() {
    let (w, auth) = signed_in();
    let old_client = w.with_as("as1", |a| a.registered[0].clone());
    let old_refresh = w.with_as("as1", |a| a.refresh_tokens.keys().next().unwrap().clone());
    w.add_as(FakeAs::new("as2", AS2, Some(AS2_META)));
    w.json(PRM_URL, prm(SERVER, AS2));
    let before_count = w.requests.borrow().len();

    call(&auth, |a| match bearer(a) {
        Some(t) if t.starts_with("AT-SECRET-as2-") => Reply::Ok,
        _ => Reply::Refuse(401, challenge("a")),
    })
    .unwrap();

    let later: Vec<(String, String)> = requests(&w)[before_count..].to_vec();
    assert_eq!(
        later,
        vec![
            get(PRM_URL),
            get(AS2_META),
            post(&format!("{AS2}/register")),
            post(&format!("{AS2}/token")),
        ]
    );
    let new_client = w.with_as("as2", |a| a.registered[0].clone());
    let q = w.authorization_params(1);
    assert_eq!(param(&q, "client_id"), Some(new_client.clone()));
    assert!(w.authorizations.borrow()[1].starts_with(&format!("{AS2}/authorize?")));
    // SEP-2352: nothing of AS1's client (or grant) went to AS2.
    for r in w
        .requests
        .borrow()
        .iter()
        .filter(|r| r.url.starts_with(AS2))
    {
        assert!(!r.everything().contains(&old_client), "{r:?}");
        assert!(!r.everything().contains(&old_refresh), "{r:?}");
    }
    assert!(!w.authorizations.borrow()[1].contains(&old_client));
    // Both clients are kept, each bound to its issuer.
    let stored = w.stored(&key()).unwrap();
    let clients: Vec<(Value, Value)> = stored["clients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["client_id"].clone(), c["issuer"].clone()))
        .collect();
    assert!(clients.contains(&(json!(old_client), json!(AS1))));
    assert!(clients.contains(&(json!(new_client), json!(AS2))));
    assert_eq!(auth.status().unwrap().issuer, AS2);
}

// 9. Step-up ------------------------------------------------------------------------------

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

#[test]
fn insufficient_scope_reauthorizes_with_the_union() {
    let (w, auth) = signed_in();
    call(&auth, scoped(&w, "b c")).unwrap();
    assert_eq!(w.authorizations.borrow().len(), 2);
    let q = w.authorization_params(1);
    assert_eq!(param(&q, "scope").as_deref(), Some("a b c"));
    assert_eq!(param(&q, "resource").as_deref(), Some(SERVER));
    assert_eq!(auth.status().unwrap().scope.as_deref(), Some("a b c"));
    assert_eq!(
        w.posts_to(&format!("{AS1}/register")).len(),
        1,
        "same client"
    );

    // Within one operation from scratch: 401 sign-in, then the step-up.
    let w = world();
    let auth = authorizer(&w, config());
    assert_eq!(call(&auth, scoped(&w, "a b")).unwrap(), 3);
    assert_eq!(w.authorizations.borrow().len(), 2);
    assert_eq!(
        param(&w.authorization_params(1), "scope").as_deref(),
        Some("a b")
    );
}

#[test]
fn step_up_respects_max_step_up_and_the_throw_policy() {
    for (max, policy) in [(0, StepUpPolicy::Reauthorize), (5, StepUpPolicy::Throw)] {
        let w = world();
        let auth = authorizer(
            &w,
            AuthConfig {
                max_step_up: max,
                step_up: policy,
                ..config()
            },
        );
        call(&auth, protected(&w, challenge("a"))).unwrap();
        let e = call(&auth, scoped(&w, "b")).unwrap_err();
        assert_eq!(kind(&e), ErrorKind::InsufficientScope, "{max} {policy:?}");
        assert_eq!(e.data.as_ref().unwrap()["scope"], "b");
        assert_eq!(w.authorizations.borrow().len(), 1, "{max} {policy:?}");
        assert_no_secret(&w, &e);
    }
    // maxStepUp counts per operation: 1 allows one step-up in each.
    let w = world();
    let auth = authorizer(
        &w,
        AuthConfig {
            max_step_up: 1,
            ..config()
        },
    );
    call(&auth, protected(&w, challenge("a"))).unwrap();
    call(&auth, scoped(&w, "b")).unwrap();
    call(&auth, scoped(&w, "c")).unwrap();
    assert_eq!(w.authorizations.borrow().len(), 3);
}

#[test]
fn a_server_that_keeps_refusing_gets_at_most_three_authorization_requests() {
    // 403 asking for a new scope every time, the AS never granting more than "a".
    let w = world();
    w.with_as("as1", |a| a.grant_scope = Some("a".into()));
    let auth = authorizer(
        &w,
        AuthConfig {
            max_step_up: 10,
            ..config()
        },
    );
    let mut round = 0;
    let e = call(&auth, |a| {
        if bearer(a).is_none() {
            return Reply::Refuse(401, challenge("a"));
        }
        round += 1;
        Reply::Refuse(
            403,
            Some(format!(
                r#"Bearer error="insufficient_scope", scope="s{round}""#
            )),
        )
    })
    .unwrap_err();
    assert_eq!(kind(&e), ErrorKind::InsufficientScope, "{e:?}");
    assert_eq!(w.authorizations.borrow().len(), 3);

    // 401 whatever the token: one sign-in, its token refreshed once, then unauthorized.
    let w = world();
    let auth = authorizer(&w, config());
    let e = call(&auth, |_| Reply::Refuse(401, challenge("a"))).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::Unauthorized, "{e:?}");
    assert!(e.message.contains("still"), "{}", e.message);
    assert_eq!(w.authorizations.borrow().len(), 1);
    assert_eq!(grants(&w), ["authorization_code", "refresh_token"]);
    assert_eq!(w.posts_to(&format!("{AS1}/register")).len(), 1);
    assert_no_secret(&w, &e);
}

/// The `grant_type` of every token request AS1 received, in order.
fn grants(w: &World) -> Vec<String> {
    w.posts_to(&format!("{AS1}/token"))
        .iter()
        .filter_map(|p| p.param("grant_type"))
        .collect()
}

#[test]
fn a_token_the_server_refuses_forever_costs_one_refresh_and_one_sign_in() {
    // Signed in, the token accepted once; then 401 invalid_token whatever is sent.
    let (w, auth) = signed_in();
    let invalid = Some(format!(
        r#"Bearer error="invalid_token", resource_metadata="{PRM_URL}", scope="a""#
    ));
    let s = sends_of(&auth, |_| Reply::Refuse(401, invalid.clone()));
    let e = s.result.unwrap_err();
    assert_eq!(kind(&e), ErrorKind::Unauthorized, "{e:?}");
    assert!(
        e.message.contains("one refresh and one new sign-in"),
        "{}",
        e.message
    );
    // The refused token, the refreshed one, the new sign-in's: three sends, then the error.
    assert_eq!(s.sent.len(), 3);
    assert_eq!(
        w.authorizations.borrow().len(),
        2,
        "the first sign-in and one more"
    );
    assert_eq!(
        grants(&w),
        ["authorization_code", "refresh_token", "authorization_code"]
    );
    assert_no_secret(&w, &e);
    // The next request gets a budget of its own.
    let s = sends_of(&auth, |_| Reply::Refuse(401, invalid.clone()));
    assert_eq!(kind(&s.result.unwrap_err()), ErrorKind::Unauthorized);
    assert_eq!(w.authorizations.borrow().len(), 3);
}

#[test]
fn five_concurrent_requests_refused_forever_share_one_recovery() {
    let (w, auth) = signed_in();
    w.yields.set(3);
    let refuse = || |_: Option<&str>| Reply::Refuse(401, challenge("a"));
    let results = block_on(async {
        futures::join!(
            run(&auth, refuse()),
            run(&auth, refuse()),
            run(&auth, refuse()),
            run(&auth, refuse()),
            run(&auth, refuse())
        )
    });
    for r in [results.0, results.1, results.2, results.3, results.4] {
        assert_eq!(kind(&r.unwrap_err()), ErrorKind::Unauthorized);
    }
    // The first sign-in, then for all five together: one refresh and one new sign-in.
    assert_eq!(w.authorizations.borrow().len(), 2);
    assert_eq!(
        grants(&w),
        ["authorization_code", "refresh_token", "authorization_code"]
    );
}

#[test]
fn a_request_after_one_that_ended_without_acceptance_gets_its_own_budget() {
    // Signed in, then the server answers 500 to the new token: no success, no refusal.
    let w = world();
    let auth = authorizer(&w, config());
    let s = sends_of(&auth, |a| match a {
        None => Reply::Refuse(401, challenge("a")),
        Some(_) => Reply::Refuse(500, None),
    });
    s.result.unwrap();
    assert_eq!((s.last, w.authorizations.borrow().len()), (Some(500), 1));
    // The next request, refused: its own refresh and its own sign-in.
    let s = sends_of(&auth, |_| Reply::Refuse(401, challenge("a")));
    assert_eq!(kind(&s.result.unwrap_err()), ErrorKind::Unauthorized);
    assert_eq!(w.authorizations.borrow().len(), 2);
    assert_eq!(
        grants(&w),
        ["authorization_code", "refresh_token", "authorization_code"]
    );
}

#[test]
fn five_concurrent_requests_refused_then_accepted_share_one_refresh() {
    let (w, auth) = signed_in();
    w.yields.set(3);
    let first = last_token(&w, "as1");
    let refused_first = || {
        let first = first.clone();
        let w = w.clone();
        move |a: Option<&str>| match bearer(a) {
            Some(t) if t != first && w.token_scope(t).is_some() => Reply::Ok,
            _ => Reply::Refuse(401, challenge("a")),
        }
    };
    let results = block_on(async {
        futures::join!(
            run(&auth, refused_first()),
            run(&auth, refused_first()),
            run(&auth, refused_first()),
            run(&auth, refused_first()),
            run(&auth, refused_first())
        )
    });
    for r in [results.0, results.1, results.2, results.3, results.4] {
        assert_eq!(r.unwrap(), 2);
    }
    assert_eq!(grants(&w), ["authorization_code", "refresh_token"]);
    assert_eq!(w.authorizations.borrow().len(), 1);
}

// 9b. The seam: what the HTTP layer sees ------------------------------------------------------

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

#[test]
fn the_seam_sends_recovers_from_a_401_and_sends_again_with_the_token() {
    let w = world();
    let auth = authorizer(&w, config());
    let s = sends_of(&auth, protected(&w, challenge("a")));
    s.result.unwrap();
    // Anonymous first; the 401 released unread; signed in; the same request again.
    assert_eq!(
        s.sent,
        vec![None, Some(format!("Bearer {}", last_token(&w, "as1")))]
    );
    assert_eq!((s.released, s.last), (1, Some(200)));
    assert_eq!(w.authorizations.borrow().len(), 1);
    // The next request just sends the token.
    let s = sends_of(&auth, protected(&w, challenge("a")));
    s.result.unwrap();
    assert_eq!((s.sent.len(), s.released), (1, 0));
}

#[test]
fn the_seam_hands_back_statuses_the_flow_does_not_recover_from() {
    let (w, auth) = signed_in();
    let forbidden = Some(r#"Bearer error="invalid_token""#.to_string());
    for (status, header) in [(403, forbidden), (403, None), (404, None), (500, None)] {
        let s = sends_of(&auth, |_| Reply::Refuse(status, header.clone()));
        s.result.unwrap();
        assert_eq!(s.sent.len(), 1, "{status}: sent once");
        assert_eq!(s.released, 0, "{status}: the caller reads the body");
        assert_eq!(s.last, Some(status));
    }
    assert_eq!(w.authorizations.borrow().len(), 1, "no new sign-in");
}

#[test]
fn the_seam_steps_up_on_403_insufficient_scope() {
    let (w, auth) = signed_in();
    let s = sends_of(&auth, scoped(&w, "b"));
    s.result.unwrap();
    assert_eq!(s.sent.len(), 2);
    assert_ne!(s.sent[0], s.sent[1], "the stepped-up token");
    assert_eq!((s.released, s.last), (1, Some(200)));
    assert_eq!(
        param(&w.authorization_params(1), "scope").as_deref(),
        Some("a b")
    );
}

#[test]
fn a_refusal_with_no_recovery_left_is_the_unauthorized_error_of_the_request() {
    let w = world();
    let auth = authorizer(&w, config());
    let s = sends_of(&auth, |_| Reply::Refuse(401, challenge("a")));
    let e = s.result.unwrap_err();
    assert_eq!(kind(&e), ErrorKind::Unauthorized, "{e:?}");
    assert!(e.message.starts_with("tools/call: "), "{}", e.message);
    // Anonymous, after the sign-in, after the refresh; then no recovery is left.
    let sends = 3;
    assert!(sends <= MAX_RECOVERIES as usize + 1);
    assert_eq!(s.sent.len(), sends);
    assert_eq!(s.released as usize, sends, "every refusal released");
    assert_eq!(w.authorizations.borrow().len(), 1);
    assert_no_secret(&w, &e);
    // The budget is per operation: the next request gets its own.
    let s = sends_of(&auth, |_| Reply::Refuse(401, challenge("a")));
    assert_eq!(kind(&s.result.unwrap_err()), ErrorKind::Unauthorized);
    assert_eq!(s.sent.len(), sends);
}

// 10. Concurrency -------------------------------------------------------------------------

#[test]
fn a_second_request_with_the_same_ticket_just_retries() {
    let w = world();
    let auth = authorizer(&w, config());
    let (mut op1, mut op2) = (Operation::default(), Operation::default());
    let t1 = block_on(auth.before_request(&mut op1, "POST", SERVER)).unwrap();
    let t2 = block_on(auth.before_request(&mut op2, "POST", SERVER)).unwrap();
    block_on(auth.recover(&t1, &refusal(401, challenge("a")), SERVER, &mut op1)).unwrap();
    let count = w.requests.borrow().len();
    block_on(auth.recover(&t2, &refusal(401, challenge("a")), SERVER, &mut op2)).unwrap();
    assert_eq!(
        w.requests.borrow().len(),
        count,
        "nothing sent for the second"
    );
    assert_eq!(w.authorizations.borrow().len(), 1);
    let t2 = block_on(auth.before_request(&mut op2, "POST", SERVER)).unwrap();
    assert_eq!(
        ticket_auth(&t2),
        Some(format!("Bearer {}", last_token(&w, "as1")))
    );
}

#[test]
fn concurrent_401s_share_one_sign_in_and_concurrent_refreshes_one_refresh() {
    let w = world();
    w.yields.set(3);
    let auth = authorizer(&w, config());
    let (a, b) = block_on(async {
        futures::join!(
            run(&auth, protected(&w, challenge("a"))),
            run(&auth, protected(&w, challenge("a")))
        )
    });
    // Two attempts each: both met the 401 before the sign-in finished (they interleaved).
    assert_eq!((a.unwrap(), b.unwrap()), (2, 2));
    assert_eq!(w.authorizations.borrow().len(), 1);
    assert_eq!(w.posts().len(), 2, "one registration, one token request");

    w.now
        .set(auth.status().unwrap().expires_at_ms.unwrap() - 1_000);
    let (a, b) = block_on(async {
        futures::join!(
            run(&auth, protected(&w, None)),
            run(&auth, protected(&w, None))
        )
    });
    assert_eq!((a.unwrap(), b.unwrap()), (1, 1));
    assert_eq!(w.posts_to(&format!("{AS1}/token")).len(), 2, "one refresh");
}

// 11. Redirect mode -----------------------------------------------------------------------

#[test]
fn redirect_mode_finishes_on_a_new_authorizer() {
    let w = world();
    *w.mode.borrow_mut() = CallbackMode::Redirected;
    let auth = authorizer(&w, config());
    let e = call(&auth, protected(&w, challenge("a"))).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::AuthRedirect);
    assert_eq!(e.data.as_ref().unwrap()["authorizationServer"], AS1);
    assert_no_secret(&w, &e);
    let stored = w.stored(&key()).unwrap();
    let state = param(&w.authorization_params(0), "state").unwrap();
    assert_eq!(stored["pending"]["state"], json!(state));
    assert_eq!(stored["pending"]["issuer"], AS1);
    assert!(w.posts_to(&format!("{AS1}/token")).is_empty());
    drop(auth);

    // The callback page: a new client over the same storage.
    let callback = w.callbacks.borrow()[0].clone();
    let auth = authorizer(&w, config());
    block_on(auth.finish(&callback)).unwrap();
    let tr = w.posts_to(&format!("{AS1}/token")).remove(0);
    assert_eq!(
        tr.param("grant_type").as_deref(),
        Some("authorization_code")
    );
    assert_eq!(tr.param("resource").as_deref(), Some(SERVER));
    assert_eq!(
        tr.param("code_verifier").as_deref(),
        stored["pending"]["code_verifier"].as_str()
    );
    assert_eq!(w.stored(&key()).unwrap()["pending"], Value::Null);
    assert_eq!(
        before(&auth),
        Some(format!("Bearer {}", last_token(&w, "as1")))
    );
    assert_eq!(call(&auth, protected(&w, challenge("a"))).unwrap(), 1);

    // The same callback again.
    let e = block_on(auth.finish(&callback)).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::StateMismatch);
    assert_eq!(w.posts_to(&format!("{AS1}/token")).len(), 1);
    // And on yet another authorizer.
    let e = block_on(authorizer(&w, config()).finish(&callback)).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::StateMismatch);
    assert_no_secret(&w, &e);
}

#[test]
fn redirect_mode_checks_the_callback_before_redeeming() {
    let w = world();
    *w.mode.borrow_mut() = CallbackMode::Redirected;
    let auth = authorizer(&w, config());
    call(&auth, protected(&w, challenge("a"))).unwrap_err();
    let callback = w.callbacks.borrow()[0].replace("iss=", "iss=https%3A%2F%2Fevil.example&x=");
    let e = block_on(authorizer(&w, config()).finish(&callback)).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::IssuerMismatch);
    assert!(w.posts_to(&format!("{AS1}/token")).is_empty());
    assert_no_secret(&w, &e);
}

// 12. Pre-registered clients and CIMD ------------------------------------------------------

fn pre_registered(issuer: Option<&str>) -> ClientInformation {
    ClientInformation {
        client_id: "pre-1".into(),
        client_secret: Some(Secret::new("CS-SECRET-pre")),
        token_endpoint_auth_method: None,
        issuer: issuer.map(str::to_string),
        client_secret_expires_at: None,
    }
}

#[test]
fn pre_registered_credentials_are_used_at_their_issuer_only() {
    let w = world();
    w.with_as("as1", |a| {
        a.clients
            .insert("pre-1".into(), Some("CS-SECRET-pre".into()))
    });
    let auth = authorizer(
        &w,
        AuthConfig {
            client_information: Some(pre_registered(Some(AS1))),
            ..config()
        },
    );
    call(&auth, protected(&w, challenge("a"))).unwrap();
    assert!(w.posts_to(&format!("{AS1}/register")).is_empty());
    assert_eq!(
        param(&w.authorization_params(0), "client_id").as_deref(),
        Some("pre-1")
    );
    let tr = w.posts_to(&format!("{AS1}/token")).remove(0);
    assert_eq!(
        tr.authorization,
        Some(format!("Basic {}", STANDARD.encode("pre-1:CS-SECRET-pre")))
    );

    // Bound to another issuer: not used here, registration instead.
    let w = world();
    let auth = authorizer(
        &w,
        AuthConfig {
            client_information: Some(pre_registered(Some("https://other-as.example"))),
            ..config()
        },
    );
    call(&auth, protected(&w, challenge("a"))).unwrap();
    assert_eq!(w.posts_to(&format!("{AS1}/register")).len(), 1);
    let client = w.with_as("as1", |a| a.registered[0].clone());
    assert_eq!(param(&w.authorization_params(0), "client_id"), Some(client));
    for r in w.requests.borrow().iter() {
        assert!(!r.everything().contains("pre-1"), "{r:?}");
        assert!(!r.everything().contains("CS-SECRET-pre"), "{r:?}");
    }
    assert!(!w.authorizations.borrow()[0].contains("pre-1"));
}

#[test]
fn cimd_client_id_is_the_url_and_nothing_is_registered() {
    const CIMD: &str = "https://app.example/oauth/client.json";
    let w = world();
    w.with_as("as1", |a| {
        a.metadata["client_id_metadata_document_supported"] = json!(true);
        a.clients.insert(CIMD.into(), None);
    });
    let auth = authorizer(
        &w,
        AuthConfig {
            client_metadata_url: Some(CIMD.into()),
            ..config()
        },
    );
    call(&auth, protected(&w, challenge("a"))).unwrap();
    assert!(w.posts_to(&format!("{AS1}/register")).is_empty());
    assert_eq!(
        param(&w.authorization_params(0), "client_id").as_deref(),
        Some(CIMD)
    );
    let tr = w.posts_to(&format!("{AS1}/token")).remove(0);
    assert_eq!(tr.param("client_id").as_deref(), Some(CIMD));
    assert!(tr.authorization.is_none());
    // Refresh works with the CIMD client too.
    w.now
        .set(auth.status().unwrap().expires_at_ms.unwrap() - 1_000);
    before(&auth).unwrap();
    let refresh = w.posts_to(&format!("{AS1}/token")).remove(1);
    assert_eq!(
        refresh.param("grant_type").as_deref(),
        Some("refresh_token")
    );
    assert_eq!(refresh.param("client_id").as_deref(), Some(CIMD));

    // An AS that does not accept CIMD: dynamic registration.
    let w = world();
    let auth = authorizer(
        &w,
        AuthConfig {
            client_metadata_url: Some(CIMD.into()),
            ..config()
        },
    );
    call(&auth, protected(&w, challenge("a"))).unwrap();
    assert_eq!(w.posts_to(&format!("{AS1}/register")).len(), 1);
    assert_ne!(
        param(&w.authorization_params(0), "client_id").as_deref(),
        Some(CIMD)
    );
}

// 13. Sign-out ----------------------------------------------------------------------------

#[test]
fn sign_out_keeps_or_drops_the_registration() {
    let (w, auth) = signed_in();
    block_on(auth.sign_out(SignOut::Tokens)).unwrap();
    assert!(auth.status().is_none());
    let stored = w.stored(&key()).unwrap();
    assert_eq!(stored["grant"], Value::Null);
    assert_eq!(stored["clients"].as_array().unwrap().len(), 1);
    assert_eq!(before(&auth), None);
    call(&auth, protected(&w, challenge("a"))).unwrap();
    assert_eq!(
        w.posts_to(&format!("{AS1}/register")).len(),
        1,
        "no new registration"
    );
    assert_eq!(w.authorizations.borrow().len(), 2);

    block_on(auth.sign_out(SignOut::Everything)).unwrap();
    assert!(auth.status().is_none());
    assert!(!w.storage.borrow().contains_key(&key()));
    assert_eq!(w.saves.borrow().last().cloned(), Some((key(), None)));
    call(&auth, protected(&w, challenge("a"))).unwrap();
    assert_eq!(
        w.posts_to(&format!("{AS1}/register")).len(),
        2,
        "registered again"
    );
}

// 14. No secret in any error ----------------------------------------------------------------

#[test]
fn no_secret_in_errors() {
    // The token endpoint refuses the code.
    let w = world();
    w.with_as("as1", |a| {
        a.token_script.push_back((
            400,
            json!({ "error": "invalid_grant", "error_description": "expired" }).to_string(),
        ))
    });
    let auth = authorizer(&w, config());
    let e = call(&auth, protected(&w, challenge("a"))).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::TokenError);
    assert!(e.message.contains("invalid_grant"), "{}", e.message);
    assert!(w.posts_to(&format!("{AS1}/token"))[0].body.is_some());
    assert_no_secret(&w, &e);

    // A token response the client cannot use, holding a token.
    let w = world();
    w.with_as("as1", |a| {
        a.token_script.push_back((
            200,
            json!({ "access_token": "AT-SECRET-weird", "token_type": "mac" }).to_string(),
        ))
    });
    let auth = authorizer(&w, config());
    let e = call(&auth, protected(&w, challenge("a"))).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::TokenError);
    assert_no_secret(&w, &e);

    // Registration refused; a confidential client refused at the token endpoint.
    let w = world();
    w.with_as("as1", |a| {
        a.register_script.push_back((
            400,
            json!({ "error": "invalid_client_metadata" }).to_string(),
        ))
    });
    let auth = authorizer(&w, config());
    let e = call(&auth, protected(&w, challenge("a"))).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::RegistrationRejected);
    assert_no_secret(&w, &e);

    let w = world();
    w.with_as("as1", |a| {
        a.register_method = Some("client_secret_post".into());
        a.token_script
            .push_back((401, json!({ "error": "invalid_client" }).to_string()));
    });
    let auth = authorizer(&w, config());
    let e = call(&auth, protected(&w, challenge("a"))).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::TokenError);
    assert!(w.posts_to(&format!("{AS1}/token"))[0]
        .param("client_secret")
        .is_some());
    assert_no_secret(&w, &e);

    // A refresh refused with invalid_client, then the sign-in's callback forged.
    let (w, auth) = signed_in();
    w.with_as("as1", |a| {
        a.token_script
            .push_back((401, json!({ "error": "invalid_client" }).to_string()))
    });
    w.now
        .set(auth.status().unwrap().expires_at_ms.unwrap() - 1_000);
    *w.mode.borrow_mut() = CallbackMode::WrongState;
    let e = call(&auth, protected(&w, challenge("a"))).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::StateMismatch, "{e:?}");
    assert_no_secret(&w, &e);
    // invalid_client dropped the client: a new registration was made.
    assert_eq!(w.posts_to(&format!("{AS1}/register")).len(), 2);
}

#[test]
fn pre_registered_credentials_without_issuer_stay_with_the_first_as() {
    // clientInformation given without an issuer is bound to the first AS it is used with
    // (client.rs); when the PRM later names another AS, it must not be sent there.
    let w = world();
    w.with_as("as1", |a| {
        a.clients
            .insert("pre-1".into(), Some("CS-SECRET-pre".into()))
    });
    let auth = authorizer(
        &w,
        AuthConfig {
            client_information: Some(pre_registered(None)),
            ..config()
        },
    );
    call(&auth, protected(&w, challenge("a"))).unwrap();
    assert!(w.posts_to(&format!("{AS1}/register")).is_empty());
    // The binding is stored, the application's secret is not.
    let stored = w.stored(&key()).unwrap();
    assert_eq!(stored["clients"][0]["client_id"], "pre-1");
    assert_eq!(stored["clients"][0]["issuer"], AS1);
    assert_eq!(stored["clients"][0]["client_secret"], Value::Null);
    // A new authorizer (same storage) refreshes at AS1 with the configured secret.
    let auth = authorizer(
        &w,
        AuthConfig {
            client_information: Some(pre_registered(None)),
            ..config()
        },
    );
    w.now.set(auth_expiry(&w) - 1_000);
    before(&auth).unwrap();
    let refresh = w.posts_to(&format!("{AS1}/token")).remove(1);
    assert_eq!(
        refresh.param("grant_type").as_deref(),
        Some("refresh_token")
    );
    assert_eq!(
        refresh.authorization,
        Some(format!("Basic {}", STANDARD.encode("pre-1:CS-SECRET-pre")))
    );
    w.add_as(FakeAs::new("as2", AS2, Some(AS2_META)));
    w.json(PRM_URL, prm(SERVER, AS2));
    call(&auth, |a| match bearer(a) {
        Some(t) if t.starts_with("AT-SECRET-as2-") => Reply::Ok,
        _ => Reply::Refuse(401, challenge("a")),
    })
    .unwrap();
    assert_eq!(w.posts_to(&format!("{AS2}/register")).len(), 1);
    for r in w
        .requests
        .borrow()
        .iter()
        .filter(|r| r.url.starts_with(AS2))
    {
        assert!(!r.everything().contains("pre-1"), "{r:?}");
        assert!(!r.everything().contains("CS-SECRET-pre"), "{r:?}");
    }
    assert!(!w.authorizations.borrow()[1].contains("pre-1"));
}

#[test]
fn step_up_on_a_fresh_authorizer_discovers_first() {
    let (w, auth) = signed_in();
    drop(auth);
    let auth = authorizer(&w, config());
    let before_count = w.requests.borrow().len();
    call(&auth, scoped(&w, "a b")).unwrap();
    assert_eq!(requests(&w)[before_count], get(PRM_URL));
    assert_eq!(w.authorizations.borrow().len(), 2);
    assert_eq!(
        param(&w.authorization_params(1), "scope").as_deref(),
        Some("a b")
    );
    assert_eq!(
        param(&w.authorization_params(1), "resource").as_deref(),
        Some(SERVER)
    );
    assert_eq!(w.posts_to(&format!("{AS1}/register")).len(), 1);
}

#[test]
fn a_stored_token_refused_with_401_is_refreshed_once_then_signs_in() {
    let (w, auth) = signed_in();
    drop(auth);
    let auth = authorizer(&w, config());
    let stale = last_token(&w, "as1");
    // The new authorizer never saw its token accepted: 401 → refresh (no discovery needed).
    let before_count = w.requests.borrow().len();
    call(&auth, |a| match bearer(a) {
        Some(t) if t != stale && w.token_scope(t).is_some() => Reply::Ok,
        _ => Reply::Refuse(401, challenge("a")),
    })
    .unwrap();
    assert_eq!(
        requests(&w)[before_count..].to_vec(),
        vec![post(&format!("{AS1}/token"))]
    );
    assert_eq!(w.authorizations.borrow().len(), 1);
}
