//! Step-up on 403 insufficient_scope and its caps, and what one operation may spend recovering.

use super::*;

// 9. Step-up ------------------------------------------------------------------------------

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
