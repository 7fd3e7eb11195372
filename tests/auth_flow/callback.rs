//! The callback: the RFC 9207 iss table, state mismatch and denial.

use super::*;

// 6. The callback: iss and state -----------------------------------------------------------

/// Signs in with the page in `mode`, AS1 advertising `iss` support or not.
fn callback_outcome(mode: CallbackMode, advertised: bool) -> (Rc<World>, Result<u32, McpError>) {
    let w = world();
    w.with_as("as1", |a| {
        a.metadata["authorization_response_iss_parameter_supported"] = json!(advertised)
    });
    *w.mode.borrow_mut() = mode;
    let auth = authorizer(&w, config());
    let r = call(&auth, protected(&w, challenge("a")));
    (w, r)
}

#[test]
fn iss_table() {
    let wrong = CallbackMode::WrongIss(format!("{AS1}/"));
    for (mode, advertised) in [
        (CallbackMode::NoIss, true),
        (wrong.clone(), true),
        (wrong, false),
        (CallbackMode::WrongIss("https://evil.example".into()), false),
    ] {
        let (w, r) = callback_outcome(mode.clone(), advertised);
        let e = r.unwrap_err();
        assert_eq!(kind(&e), ErrorKind::IssuerMismatch, "{mode:?} {advertised}");
        assert_eq!(w.authorizations.borrow().len(), 1);
        assert!(
            w.posts_to(&format!("{AS1}/token")).is_empty(),
            "the code is never redeemed: {mode:?} {advertised}"
        );
        assert_no_secret(&w, &e);
    }
    // Not advertised and absent; advertised and equal: accepted.
    for (mode, advertised) in [(CallbackMode::NoIss, false), (CallbackMode::Normal, true)] {
        let (w, r) = callback_outcome(mode.clone(), advertised);
        r.unwrap_or_else(|e| panic!("{mode:?} {advertised}: {e:?}"));
        assert_eq!(w.posts_to(&format!("{AS1}/token")).len(), 1);
    }
}

#[test]
fn iss_rejection_hides_the_callback_error_description() {
    let (w, r) = callback_outcome(
        CallbackMode::Custom(
            "error=access_denied&error_description=Call+EVIL+support&state={state}&iss=https%3A%2F%2Fevil.example".into(),
        ),
        true,
    );
    let e = r.unwrap_err();
    assert_eq!(kind(&e), ErrorKind::IssuerMismatch);
    assert!(!format!("{e:?}").contains("EVIL"), "{e:?}");
    assert!(w.posts_to(&format!("{AS1}/token")).is_empty());
}

#[test]
fn state_mismatch_and_denial_never_reach_the_token_endpoint() {
    let (w, r) = callback_outcome(CallbackMode::WrongState, true);
    let e = r.unwrap_err();
    assert_eq!(kind(&e), ErrorKind::StateMismatch);
    assert!(w.posts_to(&format!("{AS1}/token")).is_empty());
    assert_eq!(w.stored(&key()).unwrap()["pending"], Value::Null);

    let (w, r) = callback_outcome(CallbackMode::Denied, true);
    let e = r.unwrap_err();
    assert_eq!(kind(&e), ErrorKind::Unauthorized);
    assert!(e.message.contains("access_denied"), "{}", e.message);
    assert!(w.posts_to(&format!("{AS1}/token")).is_empty());
    assert!(auth_status_none(&w));
}
