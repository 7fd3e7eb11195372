//! DPoP with the authorization code: proofs on token and MCP requests, cnf.jkt.

use super::*;

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
