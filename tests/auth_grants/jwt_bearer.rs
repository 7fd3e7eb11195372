//! The JWT bearer grant: a callback's assertion, and an ID-JAG from an enterprise IdP.

use super::*;

// 5. jwt_bearer with a callback ----------------------------------------------------------

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
