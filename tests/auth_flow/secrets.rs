//! No secret in any error.

use super::*;

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
