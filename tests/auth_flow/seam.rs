//! The seam, as the HTTP layer sees it, and concurrency.

use super::*;

// 9b. The seam: what the HTTP layer sees ------------------------------------------------------

#[test]
fn the_seam_sends_recovers_from_a_401_and_sends_again_with_the_token() {
    let w = world();
    let auth = authorizer(&w, config());
    let s = sends_of(&auth, protected(&w, challenge("a")));
    s.result.unwrap();
    // Anonymous first; the 401 released unread; signed in; the same request again.
    assert_eq!(
        s.sent,
        vec![None, Some(format!("Bearer {}", last_token(&w, "as1")))]
    );
    assert_eq!((s.released, s.last), (1, Some(200)));
    assert_eq!(w.authorizations.borrow().len(), 1);
    // The next request just sends the token.
    let s = sends_of(&auth, protected(&w, challenge("a")));
    s.result.unwrap();
    assert_eq!((s.sent.len(), s.released), (1, 0));
}

#[test]
fn the_seam_hands_back_statuses_the_flow_does_not_recover_from() {
    let (w, auth) = signed_in();
    let forbidden = Some(r#"Bearer error="invalid_token""#.to_string());
    for (status, header) in [(403, forbidden), (403, None), (404, None), (500, None)] {
        let s = sends_of(&auth, |_| Reply::Refuse(status, header.clone()));
        s.result.unwrap();
        assert_eq!(s.sent.len(), 1, "{status}: sent once");
        assert_eq!(s.released, 0, "{status}: the caller reads the body");
        assert_eq!(s.last, Some(status));
    }
    assert_eq!(w.authorizations.borrow().len(), 1, "no new sign-in");
}

#[test]
fn the_seam_steps_up_on_403_insufficient_scope() {
    let (w, auth) = signed_in();
    let s = sends_of(&auth, scoped(&w, "b"));
    s.result.unwrap();
    assert_eq!(s.sent.len(), 2);
    assert_ne!(s.sent[0], s.sent[1], "the stepped-up token");
    assert_eq!((s.released, s.last), (1, Some(200)));
    assert_eq!(
        param(&w.authorization_params(1), "scope").as_deref(),
        Some("a b")
    );
}

#[test]
fn a_refusal_with_no_recovery_left_is_the_unauthorized_error_of_the_request() {
    let w = world();
    let auth = authorizer(&w, config());
    let s = sends_of(&auth, |_| Reply::Refuse(401, challenge("a")));
    let e = s.result.unwrap_err();
    assert_eq!(kind(&e), ErrorKind::Unauthorized, "{e:?}");
    assert!(e.message.starts_with("tools/call: "), "{}", e.message);
    // Anonymous, after the sign-in, after the refresh; then no recovery is left.
    let sends = 3;
    assert!(sends <= MAX_RECOVERIES as usize + 1);
    assert_eq!(s.sent.len(), sends);
    assert_eq!(s.released as usize, sends, "every refusal released");
    assert_eq!(w.authorizations.borrow().len(), 1);
    assert_no_secret(&w, &e);
    // The budget is per operation: the next request gets its own.
    let s = sends_of(&auth, |_| Reply::Refuse(401, challenge("a")));
    assert_eq!(kind(&s.result.unwrap_err()), ErrorKind::Unauthorized);
    assert_eq!(s.sent.len(), sends);
}

// 10. Concurrency -------------------------------------------------------------------------

#[test]
fn a_second_request_with_the_same_ticket_just_retries() {
    let w = world();
    let auth = authorizer(&w, config());
    let (mut op1, mut op2) = (Operation::default(), Operation::default());
    let t1 = block_on(auth.before_request(&mut op1, "POST", SERVER)).unwrap();
    let t2 = block_on(auth.before_request(&mut op2, "POST", SERVER)).unwrap();
    block_on(auth.recover(&t1, &refusal(401, challenge("a")), SERVER, &mut op1)).unwrap();
    let count = w.requests.borrow().len();
    block_on(auth.recover(&t2, &refusal(401, challenge("a")), SERVER, &mut op2)).unwrap();
    assert_eq!(
        w.requests.borrow().len(),
        count,
        "nothing sent for the second"
    );
    assert_eq!(w.authorizations.borrow().len(), 1);
    let t2 = block_on(auth.before_request(&mut op2, "POST", SERVER)).unwrap();
    assert_eq!(
        ticket_auth(&t2),
        Some(format!("Bearer {}", last_token(&w, "as1")))
    );
}

#[test]
fn concurrent_401s_share_one_sign_in_and_concurrent_refreshes_one_refresh() {
    let w = world();
    w.yields.set(3);
    let auth = authorizer(&w, config());
    let (a, b) = block_on(async {
        futures::join!(
            run(&auth, protected(&w, challenge("a"))),
            run(&auth, protected(&w, challenge("a")))
        )
    });
    // Two attempts each: both met the 401 before the sign-in finished (they interleaved).
    assert_eq!((a.unwrap(), b.unwrap()), (2, 2));
    assert_eq!(w.authorizations.borrow().len(), 1);
    assert_eq!(w.posts().len(), 2, "one registration, one token request");

    w.now
        .set(auth.status().unwrap().expires_at_ms.unwrap() - 1_000);
    let (a, b) = block_on(async {
        futures::join!(
            run(&auth, protected(&w, None)),
            run(&auth, protected(&w, None))
        )
    });
    assert_eq!((a.unwrap(), b.unwrap()), (1, 1));
    assert_eq!(w.posts_to(&format!("{AS1}/token")).len(), 2, "one refresh");
}
