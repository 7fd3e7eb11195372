//! No secret in any grant's error.

use super::*;

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
