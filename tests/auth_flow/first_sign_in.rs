//! A first sign-in from a 401: discovery, registration by each client authentication
//! method, the authorization URL, the token request, scope selection.

use super::*;

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
