//! client_credentials: the secret methods, private_key_jwt, credentials bound to their AS, an AS
//! without the grant, renewal before expiry.

use super::*;

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
