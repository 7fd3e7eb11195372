//! Redirect mode, pre-registered clients and CIMD, sign-out.

use super::*;

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
