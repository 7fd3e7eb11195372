//! The grants without a user (`client_credentials` with a secret or `private_key_jwt`, the
//! JWT bearer grant with a callback's assertion or an ID-JAG from an enterprise IdP) and
//! DPoP (proofs on token and MCP requests, `cnf.jkt`, `use_dpop_nonce` at the AS and the
//! server), natively against the fakes of tests/support/fake_as.rs. As in auth_flow.rs, each
//! test sends its MCP requests through the authorization seam (`auth::seam`), the loop the HTTP
//! transport runs, with a fake HTTP side (tests/support/fake_mcp.rs), and asserts on the
//! requests that were actually sent.

#[path = "support/fake_as.rs"]
mod fake_as;
#[path = "support/fake_mcp.rs"]
mod fake_mcp;

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
use mcp_wasm_client::auth::secret::Secret;
use mcp_wasm_client::json::{json, Value};
use mcp_wasm_client::protocol::{ErrorKind, McpError};
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

// 1. client_credentials with a secret ---------------------------------------------------

#[test]
fn client_credentials_basic_by_default_with_challenge_scope_and_resource() {
    let w = world();
    let auth = authorizer(&w, config(GrantConfig::ClientCredentials(svc(None))));
    assert_eq!(
        run(&w, &auth, challenge("read write").as_deref()).unwrap(),
        2
    );

    assert_eq!(
        requests(&w),
        vec![get(PRM_URL), get(AS1_OAUTH), post(AS1_TOKEN)]
    );
    assert!(
        w.authorizations.borrow().is_empty(),
        "no authorization page"
    );
    let t = &w.posts_to(AS1_TOKEN)[0];
    assert_eq!(
        t.content_type.as_deref(),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        t.authorization.as_deref(),
        Some(basic("svc", SVC_SECRET).as_str())
    );
    assert_eq!(
        form(t),
        pairs(&[
            ("grant_type", "client_credentials"),
            ("scope", "read write"),
            ("resource", SERVER),
        ])
    );
    assert!(t.dpop.is_none());
    let status = auth.status().expect("signed in");
    assert_eq!(status.issuer, AS1);
    assert_eq!(status.scope.as_deref(), Some("read write"));
    assert_eq!(status.expires_at_ms, Some(NOW_MS + 3_600_000));
}

#[test]
fn client_credentials_scope_from_the_prm_then_the_config() {
    // No challenge scope: the PRM's scopes_supported.
    let w = world();
    w.json(
        PRM_URL,
        json!({ "resource": SERVER, "authorization_servers": [AS1], "scopes_supported": ["p1", "p2"] }),
    );
    let mut c = config(GrantConfig::ClientCredentials(svc(None)));
    c.scope = Some("cfg".into());
    let auth = authorizer(&w, c);
    let header = format!(r#"Bearer resource_metadata="{PRM_URL}""#);
    run(&w, &auth, Some(&header)).unwrap();
    assert_eq!(
        w.posts_to(AS1_TOKEN)[0].param("scope").as_deref(),
        Some("p1 p2")
    );

    // Neither: the configured scope (and no offline_access: no refresh is wanted).
    let w = world();
    w.with_as("as1", |a| {
        a.metadata["scopes_supported"] = json!(["cfg", "offline_access"])
    });
    let mut c = config(GrantConfig::ClientCredentials(svc(None)));
    c.scope = Some("cfg".into());
    let auth = authorizer(&w, c);
    run(&w, &auth, Some(&header)).unwrap();
    assert_eq!(
        w.posts_to(AS1_TOKEN)[0].param("scope").as_deref(),
        Some("cfg")
    );

    // Nothing at all: no scope parameter.
    let w = world();
    let auth = authorizer(&w, config(GrantConfig::ClientCredentials(svc(None))));
    run(&w, &auth, Some(&header)).unwrap();
    assert_eq!(
        form(&w.posts_to(AS1_TOKEN)[0]),
        pairs(&[("grant_type", "client_credentials"), ("resource", SERVER)])
    );
}

#[test]
fn client_credentials_post_preference_and_the_as_list_overriding_it() {
    // client_secret_post preferred, the AS lists both: post.
    let w = world();
    let auth = authorizer(
        &w,
        config(GrantConfig::ClientCredentials(svc(Some(
            AuthMethod::ClientSecretPost,
        )))),
    );
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    let t = &w.posts_to(AS1_TOKEN)[0];
    assert_eq!(t.authorization, None);
    assert_eq!(
        form(t),
        pairs(&[
            ("grant_type", "client_credentials"),
            ("scope", "s"),
            ("resource", SERVER),
            ("client_id", "svc"),
            ("client_secret", SVC_SECRET),
        ])
    );

    // client_secret_post preferred, the AS lists only basic: basic.
    let w = world();
    w.with_as("as1", |a| {
        a.metadata["token_endpoint_auth_methods_supported"] = json!(["client_secret_basic"])
    });
    let auth = authorizer(
        &w,
        config(GrantConfig::ClientCredentials(svc(Some(
            AuthMethod::ClientSecretPost,
        )))),
    );
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    let t = &w.posts_to(AS1_TOKEN)[0];
    assert_eq!(
        t.authorization.as_deref(),
        Some(basic("svc", SVC_SECRET).as_str())
    );
    assert_eq!(t.param("client_secret"), None);
    assert_eq!(t.param("client_id"), None);

    // No preference (basic), the AS lists only post: post.
    let w = world();
    w.with_as("as1", |a| {
        a.metadata["token_endpoint_auth_methods_supported"] = json!(["client_secret_post"])
    });
    let auth = authorizer(&w, config(GrantConfig::ClientCredentials(svc(None))));
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    let t = &w.posts_to(AS1_TOKEN)[0];
    assert_eq!(t.authorization, None);
    assert_eq!(t.param("client_secret").as_deref(), Some(SVC_SECRET));
    // No registration anywhere, no authorization page.
    assert!(w.with_as("as1", |a| a.registered.is_empty()));
    assert!(w.authorizations.borrow().is_empty());
}

// 2. private_key_jwt --------------------------------------------------------------------

#[test]
fn private_key_jwt_client_assertions() {
    let w = world();
    let client = StaticClient {
        info: info("svc-key", None, Some(AS1)),
        method: None,
        signing: Some(Alg::Es256),
    };
    let auth = authorizer(&w, config(GrantConfig::ClientCredentials(client)));
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    // A second token: the first expired (no refresh token), the next request gets a 401.
    expire(&w);
    let later = w.now.get();
    run(&w, &auth, challenge("s").as_deref()).unwrap();

    let posts = w.posts_to(AS1_TOKEN);
    assert_eq!(posts.len(), 2);
    let signs = w.client_signs.borrow().clone();
    assert_eq!(signs.len(), 2);
    let mut jtis = Vec::new();
    for (i, (t, now)) in posts.iter().zip([NOW_MS, later]).enumerate() {
        assert_eq!(t.authorization, None);
        let f = form(t);
        let keys: Vec<&str> = f.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "grant_type",
                "scope",
                "resource",
                "client_id",
                "client_assertion_type",
                "client_assertion"
            ]
        );
        assert_eq!(t.param("client_id").as_deref(), Some("svc-key"));
        assert_eq!(
            t.param("client_assertion_type").as_deref(),
            Some("urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        );
        let jws = t.param("client_assertion").unwrap();
        let parts: Vec<&str> = jws.split('.').collect();
        assert_eq!(parts.len(), 3);
        let input = format!("{}.{}", parts[0], parts[1]);
        assert_eq!(signs[i], input.as_bytes(), "the signing input is the JWS's");
        assert_eq!(parts[2], URL_SAFE_NO_PAD.encode(sha256(input.as_bytes())));
        let header = jws_part(&jws, 0);
        assert_eq!(header["alg"], "ES256");
        let claims = jws_part(&jws, 1);
        assert_eq!(claims["iss"], "svc-key");
        assert_eq!(claims["sub"], "svc-key");
        assert_eq!(claims["aud"], AS1);
        let iat = claims["iat"].as_u64().unwrap();
        assert_eq!(iat, now / 1000);
        assert!(claims["exp"].as_u64().unwrap() > iat);
        jtis.push(claims["jti"].as_str().unwrap().to_string());
    }
    assert!(!jtis[0].is_empty());
    assert_ne!(jtis[0], jtis[1], "jti is unique");
}

// 3. credentials bound to another AS -----------------------------------------------------

#[test]
fn credentials_bound_to_as1_are_not_sent_to_as2() {
    let w = world();
    let mut a2 = FakeAs::new("as2", AS2, Some(AS2_META));
    a2.metadata["grant_types_supported"] = json!(["client_credentials"]);
    a2.clients.insert("svc".into(), Some(SVC_SECRET.into()));
    w.add_as(a2);
    w.json(
        PRM_URL,
        json!({ "resource": SERVER, "authorization_servers": [AS2] }),
    );
    let mut client = svc(None);
    client.info.issuer = Some(AS1.into());
    let auth = authorizer(&w, config(GrantConfig::ClientCredentials(client)));
    let e = run(&w, &auth, challenge("s").as_deref()).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::IssuerMismatch);
    assert_no_secret(&e);
    assert!(w.posts().is_empty(), "nothing posted anywhere");
    assert_eq!(requests(&w), vec![get(PRM_URL), get(AS2_META)]);
    assert!(auth.status().is_none());
}

// 4. an AS without the grant -------------------------------------------------------------

#[test]
fn an_as_without_the_grant_is_unsupported_grant() {
    for grant in [
        GrantConfig::ClientCredentials(svc(None)),
        GrantConfig::JwtBearer(svc(None), AssertionSource::Callback),
    ] {
        let w = world();
        w.with_as("as1", |a| {
            a.metadata["grant_types_supported"] = json!(["authorization_code", "refresh_token"])
        });
        let auth = authorizer(&w, config(grant));
        let e = run(&w, &auth, challenge("s").as_deref()).unwrap_err();
        assert_eq!(kind(&e), ErrorKind::UnsupportedGrant);
        assert_no_secret(&e);
        assert!(w.posts().is_empty(), "no token request");
        assert!(w.assertion_calls.borrow().is_empty(), "no assertion asked");
    }
}

// 5. jwt_bearer with a callback ----------------------------------------------------------

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

#[test]
fn jwt_bearer_asks_the_callback_once_per_new_token() {
    let w = world();
    let auth = authorizer(&w, config(bearer_grant()));
    run(&w, &auth, challenge("a b").as_deref()).unwrap();
    let asked = (
        AS1.to_string(),
        Some(SERVER.to_string()),
        Some("a b".into()),
    );
    assert_eq!(w.assertion_calls.borrow().clone(), vec![asked.clone()]);
    let t = &w.posts_to(AS1_TOKEN)[0];
    assert_eq!(t.authorization, None);
    assert_eq!(
        form(t),
        pairs(&[
            ("grant_type", JWT_BEARER),
            ("assertion", "ASSERT-SECRET-1"),
            ("scope", "a b"),
            ("resource", SERVER),
            ("client_id", "pub"),
        ])
    );
    // The token is reused: no new assertion while it lives.
    run(&w, &auth, challenge("a b").as_deref()).unwrap();
    assert_eq!(w.assertion_calls.borrow().len(), 1);
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 1);
    // A new token: asked again.
    expire(&w);
    run(&w, &auth, challenge("a b").as_deref()).unwrap();
    assert_eq!(
        w.assertion_calls.borrow().clone(),
        vec![asked.clone(), asked]
    );
    assert_eq!(
        w.posts_to(AS1_TOKEN)[1].param("assertion").as_deref(),
        Some("ASSERT-SECRET-2")
    );
}

#[test]
fn jwt_bearer_refused_assertion_fails_at_once_and_the_next_operation_asks_again() {
    let w = world();
    w.with_as("as1", |a| {
        a.token_script.push_back((
            400,
            json!({ "error": "invalid_grant", "error_description": "assertion expired" })
                .to_string(),
        ))
    });
    let auth = authorizer(&w, config(bearer_grant()));
    let e = run(&w, &auth, challenge("s").as_deref()).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::TokenError);
    assert_no_secret(&e);
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 1, "no retry in the operation");
    assert_eq!(w.assertion_calls.borrow().len(), 1);
    assert!(auth.status().is_none());

    // A later operation asks the callback again and succeeds.
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    assert_eq!(w.assertion_calls.borrow().len(), 2);
    let posts = w.posts_to(AS1_TOKEN);
    assert_eq!(posts.len(), 2);
    assert_eq!(
        posts[1].param("assertion").as_deref(),
        Some("ASSERT-SECRET-2")
    );
}

#[test]
fn jwt_bearer_empty_or_failed_assertion() {
    let w = world();
    w.assertion_script.borrow_mut().push_back(Ok(String::new()));
    let auth = authorizer(&w, config(bearer_grant()));
    let e = run(&w, &auth, challenge("s").as_deref()).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::AssertionError);
    assert_no_secret(&e);
    assert!(w.posts().is_empty());
}

// 6. ID-JAG ------------------------------------------------------------------------------

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

#[test]
fn id_jag_exchange_then_jwt_bearer() {
    let w = world();
    w.json(
        IDP_TOKEN,
        json!({
            "access_token": "IDJAG-SECRET-1",
            "issued_token_type": "urn:ietf:params:oauth:token-type:id-jag",
            "token_type": "N_A",
            "expires_in": 300,
        }),
    );
    let auth = authorizer(&w, config(id_jag_grant()));
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    assert_eq!(
        requests(&w),
        vec![
            get(PRM_URL),
            get(AS1_OAUTH),
            post(IDP_TOKEN),
            post(AS1_TOKEN)
        ]
    );
    let x = &w.posts_to(IDP_TOKEN)[0];
    assert_eq!(
        x.authorization.as_deref(),
        Some(basic("idp-app", "IDP-SECRET").as_str())
    );
    assert_eq!(
        x.param("grant_type").as_deref(),
        Some("urn:ietf:params:oauth:grant-type:token-exchange")
    );
    assert_eq!(
        x.param("subject_token").as_deref(),
        Some("IDTOKEN-SECRET-alice")
    );
    assert_eq!(
        x.param("subject_token_type").as_deref(),
        Some("urn:ietf:params:oauth:token-type:id_token")
    );
    assert_eq!(
        x.param("requested_token_type").as_deref(),
        Some("urn:ietf:params:oauth:token-type:id-jag")
    );
    assert_eq!(x.param("audience").as_deref(), Some(AS1));
    assert_eq!(x.param("resource").as_deref(), Some(SERVER));
    assert_eq!(x.param("client_secret"), None);
    assert!(w.assertion_calls.borrow().is_empty(), "no callback");

    let t = &w.posts_to(AS1_TOKEN)[0];
    assert_eq!(
        t.authorization.as_deref(),
        Some(basic("svc", SVC_SECRET).as_str())
    );
    assert_eq!(
        form(t),
        pairs(&[
            ("grant_type", JWT_BEARER),
            ("assertion", "IDJAG-SECRET-1"),
            ("scope", "s"),
            ("resource", SERVER),
        ])
    );
    assert_eq!(auth.status().unwrap().issuer, AS1);
}

#[test]
fn id_jag_idp_error_is_a_token_error_naming_the_exchange() {
    let w = world();
    w.route(
        IDP_TOKEN,
        400,
        json!({ "error": "invalid_grant", "error_description": "ID token expired" }).to_string(),
    );
    let auth = authorizer(&w, config(id_jag_grant()));
    let e = run(&w, &auth, challenge("s").as_deref()).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::TokenError);
    let shown = format!("{} {:?}", e.message, e.data);
    assert!(shown.contains("exchange"), "names the exchange: {shown}");
    assert!(shown.contains("invalid_grant"), "{shown}");
    assert_no_secret(&e);
    assert!(w.posts_to(AS1_TOKEN).is_empty(), "nothing sent to the AS");
}

// 7. DPoP with the authorization code ----------------------------------------------------

/// A world where AS1 answers DPoP tokens, its token endpoint has a query, and a client
/// signs in with the authorization code (dynamic registration, public).
fn dpop_world(dpop_tokens: bool) -> (Rc<World>, Auth) {
    let w = World::new();
    let mut a = FakeAs::new("as1", AS1, Some(AS1_OAUTH));
    a.metadata["token_endpoint"] = json!(format!("{AS1_TOKEN}?tenant=1"));
    a.dpop_tokens = dpop_tokens;
    w.add_as(a);
    w.json(
        PRM_URL,
        json!({ "resource": SERVER, "authorization_servers": [AS1] }),
    );
    let mut c = config(GrantConfig::AuthorizationCode);
    c.client_metadata = Some(json!({ "token_endpoint_auth_method": "none" }));
    c.dpop = true;
    let auth = authorizer(&w, c);
    (w, auth)
}

fn dpop_token_post(w: &World) -> Vec<Sent> {
    w.posts_to(&format!("{AS1_TOKEN}?tenant=1"))
}

/// Checks a DPoP proof's header and signature; its claims.
fn proof_claims(w: &World, proof: &str) -> Value {
    let header = jws_part(proof, 0);
    assert_eq!(
        header,
        json!({ "typ": "dpop+jwt", "alg": "ES256", "jwk": dpop_jwk() })
    );
    let parts: Vec<&str> = proof.split('.').collect();
    let input = format!("{}.{}", parts[0], parts[1]);
    assert!(w.dpop_signs.borrow().iter().any(|s| s == input.as_bytes()));
    assert_eq!(parts[2], URL_SAFE_NO_PAD.encode(sha256(input.as_bytes())));
    jws_part(proof, 1)
}

#[test]
fn dpop_proofs_on_the_token_request_and_dpop_bound_mcp_requests() {
    let (w, auth) = dpop_world(true);
    let tickets = RefCell::default();
    call(&auth, &tickets, protected(&w, challenge("s").as_deref())).unwrap();

    let t = &dpop_token_post(&w)[0];
    assert_eq!(t.param("grant_type").as_deref(), Some("authorization_code"));
    let proof = t
        .dpop
        .as_deref()
        .expect("a DPoP proof on the token request");
    let claims = proof_claims(&w, proof);
    let keys: Vec<&String> = claims.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 4, "jti, htm, htu, iat only: {claims}");
    assert_eq!(claims["htm"], "POST");
    assert_eq!(claims["htu"], AS1_TOKEN, "without the query");
    assert_eq!(claims["iat"], NOW_MS / 1000);
    assert!(!claims["jti"].as_str().unwrap().is_empty());
    // Nothing else (metadata, registration) carried a proof.
    for r in w.requests.borrow().iter() {
        assert_eq!(r.dpop.is_some(), r.url.starts_with(AS1_TOKEN), "{}", r.url);
    }

    // The MCP request after sign-in: DPoP scheme and a proof with ath.
    let tickets = tickets.borrow();
    let last = tickets.last().unwrap();
    let token = token_of(last).unwrap();
    assert_eq!(
        last.authorization.as_ref().unwrap().expose(),
        format!("DPoP {token}")
    );
    let mcp = proof_claims(&w, last.dpop.as_deref().expect("a proof"));
    assert_eq!(mcp["htm"], "POST");
    assert_eq!(mcp["htu"], SERVER);
    assert_eq!(
        mcp["ath"],
        URL_SAFE_NO_PAD.encode(sha256(token.as_bytes())),
        "ath = base64url(sha256(token))"
    );
    assert_ne!(mcp["jti"], claims["jti"]);
    // The first (anonymous) request carried no proof.
    assert!(tickets[0].authorization.is_none() && tickets[0].dpop.is_none());
}

#[test]
fn dpop_client_with_a_bearer_token_sends_bearer_and_no_proof() {
    let (w, auth) = dpop_world(false);
    let tickets = RefCell::default();
    call(&auth, &tickets, protected(&w, challenge("s").as_deref())).unwrap();
    assert!(
        dpop_token_post(&w)[0].dpop.is_some(),
        "the token request had a proof"
    );
    let last = tickets.borrow().last().unwrap().clone();
    assert!(last
        .authorization
        .as_ref()
        .unwrap()
        .expose()
        .starts_with("Bearer AT-SECRET-"));
    assert_eq!(last.dpop, None);
}

#[test]
fn dpop_jwt_access_token_bound_to_another_key_is_refused() {
    let (w, auth) = dpop_world(true);
    w.with_as("as1", |a| {
        a.access_jkt = Some("another-key-thumbprint".into())
    });
    let e = run(&w, &auth, challenge("s").as_deref()).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::DpopError);
    assert_no_secret(&e);
    assert!(auth.status().is_none(), "the token is not kept");

    // Bound to our key (RFC 7638 thumbprint of the public JWK): accepted.
    let (w, auth) = dpop_world(true);
    w.with_as("as1", |a| a.access_jkt = Some(DPOP_JKT.into()));
    let tickets = RefCell::default();
    call(&auth, &tickets, protected(&w, challenge("s").as_deref())).unwrap();
    let last = tickets.borrow().last().unwrap().clone();
    assert!(last.authorization.unwrap().expose().starts_with("DPoP ey"));
}

// 8. DPoP nonces -------------------------------------------------------------------------

/// A client_credentials client with DPoP.
fn dpop_cc(w: &Rc<World>) -> Auth {
    w.with_as("as1", |a| a.dpop_tokens = true);
    let mut c = config(GrantConfig::ClientCredentials(svc(None)));
    c.dpop = true;
    authorizer(w, c)
}

#[test]
fn as_use_dpop_nonce_is_retried_once_with_the_nonce() {
    let w = world();
    w.with_as("as1", |a| a.nonce_script.push_back("AS-NONCE-1".into()));
    let auth = dpop_cc(&w);
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    let posts = w.posts_to(AS1_TOKEN);
    assert_eq!(posts.len(), 2, "exactly one retry");
    let (_, first) = posts[0].dpop_parts();
    let (_, second) = posts[1].dpop_parts();
    assert_eq!(first.get("nonce"), None);
    assert_eq!(second["nonce"], "AS-NONCE-1");
    assert_ne!(first["jti"], second["jti"], "a new jti");
    assert_eq!(posts[0].body, posts[1].body, "the same request otherwise");
    assert_eq!(auth.status().unwrap().issuer, AS1);

    // A second use_dpop_nonce in a row is the token error.
    let w = world();
    w.with_as("as1", |a| {
        a.nonce_script.push_back("N1".into());
        a.nonce_script.push_back("N2".into());
    });
    let auth = dpop_cc(&w);
    let e = run(&w, &auth, challenge("s").as_deref()).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::TokenError);
    assert!(format!("{:?}", e.data).contains("use_dpop_nonce"), "{e:?}");
    assert_no_secret(&e);
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 2);
}

#[test]
fn as_use_dpop_nonce_retry_signs_a_new_client_assertion() {
    // The AS authenticated the client before asking for a nonce: the retry must not replay
    // the client assertion (its jti is used up, RFC 7523 §3).
    let w = world();
    w.with_as("as1", |a| a.nonce_script.push_back("AS-NONCE-1".into()));
    let client = StaticClient {
        info: info("svc-key", None, Some(AS1)),
        method: None,
        signing: Some(Alg::Es256),
    };
    w.with_as("as1", |a| a.dpop_tokens = true);
    let mut c = config(GrantConfig::ClientCredentials(client));
    c.dpop = true;
    let auth = authorizer(&w, c);
    let r = run(&w, &auth, challenge("s").as_deref());
    if let Err(e) = &r {
        assert_no_secret(e);
    }
    let posts = w.posts_to(AS1_TOKEN);
    assert_eq!(posts.len(), 2, "exactly one retry");
    let jti = |p: &Sent| jws_part(&p.param("client_assertion").unwrap(), 1)["jti"].clone();
    assert_ne!(jti(&posts[0]), jti(&posts[1]), "a new client assertion");
    let others = |p: &Sent| -> Vec<(String, String)> {
        form(p)
            .into_iter()
            .filter(|(k, _)| k != "client_assertion")
            .collect()
    };
    assert_eq!(
        others(&posts[0]),
        others(&posts[1]),
        "the same request otherwise"
    );
    assert_eq!(
        jws_part(&posts[1].param("client_assertion").unwrap(), 1)["aud"],
        AS1
    );
    assert_eq!(posts[1].dpop_parts().1["nonce"], "AS-NONCE-1");
    r.expect("the retry succeeds");
    assert_eq!(w.client_signs.borrow().len(), 2);
}

const NONCE_CHALLENGE: &str = r#"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#;

#[test]
fn server_use_dpop_nonce_is_retried_with_the_nonce_without_a_new_token() {
    let w = world();
    let auth = dpop_cc(&w);
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 1);

    // The next operation: the server wants a nonce, then accepts.
    let tickets = RefCell::default();
    let mut answers = 0;
    let attempts = call(&auth, &tickets, |t| {
        answers += 1;
        let claims = jws_part(t.dpop.as_deref().expect("a proof"), 1);
        if claims.get("nonce").is_none() {
            Reply::Refuse(401, Some(NONCE_CHALLENGE.into()), Some("RS-NONCE-1".into()))
        } else {
            assert_eq!(claims["nonce"], "RS-NONCE-1");
            Reply::Ok
        }
    })
    .unwrap();
    assert_eq!(attempts, 2);
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 1, "no new token request");
    let tickets = tickets.borrow();
    assert_eq!(tickets[0].authorization, tickets[1].authorization);
    let (a, b) = (
        jws_part(tickets[0].dpop.as_deref().unwrap(), 1),
        jws_part(tickets[1].dpop.as_deref().unwrap(), 1),
    );
    assert_ne!(a["jti"], b["jti"]);
    assert_eq!(b["ath"], a["ath"]);
    // The server's nonce is not sent to the AS (another origin).
    assert_eq!(
        dpop_nonce_of_token_requests(&w),
        vec![None::<String>],
        "no server nonce at the AS"
    );
}

#[test]
fn a_success_with_a_dpop_nonce_is_accepted_and_its_nonce_used_next() {
    let w = world();
    let auth = dpop_cc(&w);
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    // The server accepts and sends a nonce for the next proof.
    let sent = RefCell::default();
    let sends = call(&auth, &sent, |_| Reply::OkWithNonce("RS-NONCE-9".into())).unwrap();
    assert_eq!(sends, 1);
    let first = jws_part(sent.borrow()[0].dpop.as_deref().unwrap(), 1);
    assert!(first.get("nonce").is_none(), "{first}");
    // The next request's proof carries it.
    let sent = RefCell::default();
    call(&auth, &sent, |_| Reply::Ok).unwrap();
    let next = jws_part(sent.borrow()[0].dpop.as_deref().unwrap(), 1);
    assert_eq!(next["nonce"], "RS-NONCE-9");
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 1, "no new token request");
}

/// A `DPoP-Nonce` outside RFC 9449 §8.1's grammar (`1*NQCHAR`) is network data the client
/// does not keep: the next proof carries no nonce (nor the previous valid one replaced by it).
#[test]
fn a_dpop_nonce_with_invalid_characters_is_not_echoed() {
    let w = world();
    let auth = dpop_cc(&w);
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    for bad in [
        "",
        "has space",
        "quo\"te",
        "back\\slash",
        "ctl\u{1}",
        "caf\u{e9}",
    ] {
        call(&auth, &RefCell::default(), |_| {
            Reply::OkWithNonce(bad.into())
        })
        .unwrap();
        let sent = RefCell::default();
        call(&auth, &sent, |_| Reply::Ok).unwrap();
        let next = jws_part(sent.borrow()[0].dpop.as_deref().unwrap(), 1);
        assert!(next.get("nonce").is_none(), "{bad:?} was echoed: {next}");
    }
    let long = "n".repeat(mcp_wasm_client::auth::jose::MAX_DPOP_NONCE_BYTES + 1);
    call(&auth, &RefCell::default(), |_| {
        Reply::OkWithNonce("GOOD-1".into())
    })
    .unwrap();
    call(&auth, &RefCell::default(), |_| {
        Reply::OkWithNonce(long.clone())
    })
    .unwrap();
    let sent = RefCell::default();
    call(&auth, &sent, |_| Reply::Ok).unwrap();
    let next = jws_part(sent.borrow()[0].dpop.as_deref().unwrap(), 1);
    assert_eq!(
        next["nonce"], "GOOD-1",
        "an over-long nonce replaced a valid one"
    );
}

fn dpop_nonce_of_token_requests(w: &World) -> Vec<Option<String>> {
    w.posts_to(AS1_TOKEN)
        .iter()
        .map(|p| p.dpop_parts().1["nonce"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn server_use_dpop_nonce_twice_in_one_operation_is_a_dpop_error() {
    let w = world();
    let auth = dpop_cc(&w);
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    let mut n = 0;
    let e = call(&auth, &RefCell::default(), |_| {
        n += 1;
        Reply::Refuse(
            401,
            Some(NONCE_CHALLENGE.into()),
            Some(format!("RS-NONCE-{n}")),
        )
    })
    .unwrap_err();
    assert_eq!(kind(&e), ErrorKind::DpopError);
    assert_no_secret(&e);
    assert_eq!(n, 2);
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 1, "no new token request");
    // The grant is kept.
    assert!(auth.status().is_some());
}

// 9. No secret in errors -----------------------------------------------------------------

#[test]
fn no_secret_in_any_grant_error() {
    let mut errors: Vec<McpError> = Vec::new();
    // invalid_client at the AS with a secret sent by post and by Basic.
    for method in [AuthMethod::ClientSecretPost, AuthMethod::ClientSecretBasic] {
        let w = world();
        w.with_as("as1", |a| {
            a.clients
                .insert("svc".into(), Some("CS-SECRET-other".into()))
        });
        let auth = authorizer(
            &w,
            config(GrantConfig::ClientCredentials(svc(Some(method)))),
        );
        errors.push(run(&w, &auth, challenge("s").as_deref()).unwrap_err());
    }
    // A private_key_jwt client the AS does not know.
    let w = world();
    let client = StaticClient {
        info: info("svc-unknown", None, None),
        method: None,
        signing: Some(Alg::Es256),
    };
    let auth = authorizer(&w, config(GrantConfig::ClientCredentials(client)));
    errors.push(run(&w, &auth, challenge("s").as_deref()).unwrap_err());
    // The assertion callback fails; the token endpoint refuses an assertion; the IdP is down.
    let w = world();
    w.assertion_script
        .borrow_mut()
        .push_back(Err(McpError::input("workload identity unavailable")));
    let auth = authorizer(&w, config(bearer_grant()));
    errors.push(run(&w, &auth, challenge("s").as_deref()).unwrap_err());
    let w = world();
    w.with_as("as1", |a| {
        a.token_script
            .push_back((400, r#"{"error":"invalid_grant"}"#.into()))
    });
    let auth = authorizer(&w, config(bearer_grant()));
    errors.push(run(&w, &auth, challenge("s").as_deref()).unwrap_err());
    let w = world();
    w.route(IDP_TOKEN, 503, "upstream down");
    let auth = authorizer(&w, config(id_jag_grant()));
    errors.push(run(&w, &auth, challenge("s").as_deref()).unwrap_err());
    // The token endpoint answers a 2xx without an access token, or a bad token_type.
    for body in [
        r#"{"token_type":"DPoP"}"#,
        r#"{"access_token":"AT-SECRET-x","token_type":"mac"}"#,
    ] {
        let w = world();
        w.with_as("as1", |a| a.token_script.push_back((200, body.into())));
        let auth = authorizer(&w, config(GrantConfig::ClientCredentials(svc(None))));
        errors.push(run(&w, &auth, challenge("s").as_deref()).unwrap_err());
    }
    assert_eq!(errors.len(), 8);
    for e in &errors {
        assert_no_secret(e);
        assert!(e.kind.is_some(), "{e:?}");
    }
}

#[test]
fn a_grant_without_a_user_renews_before_expiry_without_a_401() {
    let w = world();
    let auth = authorizer(&w, config(GrantConfig::ClientCredentials(svc(None))));
    assert_eq!(run(&w, &auth, challenge("s").as_deref()).unwrap(), 2);
    // Half a minute before the hour-long token lapses: renewed first, sent once.
    w.now.set(w.now.get() + 3_600_000 - 30_000);
    assert_eq!(run(&w, &auth, challenge("s").as_deref()).unwrap(), 1);
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 2);
    assert_eq!(
        form(&w.posts_to(AS1_TOKEN)[1])
            .iter()
            .find(|(k, _)| k == "grant_type")
            .map(|(_, v)| v.as_str()),
        Some("client_credentials")
    );
    // Well inside the new token's life: no token request.
    w.now.set(w.now.get() + 60_000);
    assert_eq!(run(&w, &auth, challenge("s").as_deref()).unwrap(), 1);
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 2);
}
