//! Discovery: the PRM from the well-known URLs, a resource mismatch, an oversized document,
//! the AS metadata checks, and the 2025-03-26 fallback for servers without a PRM.

use super::*;

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
