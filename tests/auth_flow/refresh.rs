//! Refresh, and a 401 after an accepted token (rediscovery, another AS).

use super::*;

// 7. Refresh ------------------------------------------------------------------------------

#[test]
fn refresh_before_a_token_expires() {
    let (w, auth) = signed_in();
    let token = format!("{AS1}/token");
    let first = last_token(&w, "as1");
    let client_id = w.with_as("as1", |a| a.registered[0].clone());
    let expiry = auth.status().unwrap().expires_at_ms.unwrap();

    // 61 s left: sent as is.
    w.now.set(expiry - 61_000);
    assert_eq!(before(&auth), Some(format!("Bearer {first}")));
    assert_eq!(w.posts_to(&token).len(), 1);

    // 59 s left: refreshed first.
    w.now.set(expiry - 59_000);
    let sent = before(&auth).unwrap();
    let refresh = w.posts_to(&token).remove(1);
    assert_eq!(
        refresh.param("grant_type").as_deref(),
        Some("refresh_token")
    );
    assert!(refresh
        .param("refresh_token")
        .is_some_and(|t| t.starts_with("RT-SECRET-as1-")));
    assert_eq!(refresh.param("resource").as_deref(), Some(SERVER));
    assert_eq!(refresh.param("client_id"), Some(client_id));
    assert_eq!(refresh.param("code"), None);
    let second = last_token(&w, "as1");
    assert_ne!(first, second);
    assert_eq!(sent, format!("Bearer {second}"));
    assert_eq!(
        w.stored(&key()).unwrap()["grant"]["access_token"],
        json!(second)
    );
    assert_eq!(
        auth.status().unwrap().expires_at_ms,
        Some(w.now.get() + 3_600_000)
    );
    assert_eq!(auth.status().unwrap().scope.as_deref(), Some("a"));
    assert!(w.authorizations.borrow().len() == 1);
}

#[test]
fn invalid_grant_on_refresh_drops_the_tokens_and_a_401_signs_in_again() {
    let (w, auth) = signed_in();
    let token = format!("{AS1}/token");
    w.with_as("as1", |a| {
        a.token_script
            .push_back((400, json!({ "error": "invalid_grant" }).to_string()))
    });
    w.now
        .set(auth.status().unwrap().expires_at_ms.unwrap() - 10_000);
    let mut op = Operation::default();
    let t = block_on(auth.before_request(&mut op, "POST", SERVER)).unwrap();
    assert_eq!(ticket_auth(&t), None, "sent without a token");
    assert!(auth.status().is_none());
    let stored = w.stored(&key()).unwrap();
    assert_eq!(stored["grant"], Value::Null);
    assert_eq!(
        stored["clients"].as_array().unwrap().len(),
        1,
        "the client stays"
    );
    // The server's 401 starts a sign-in, with the same registration.
    block_on(auth.recover(&t, &refusal(401, challenge("a")), SERVER, &mut op)).unwrap();
    assert_eq!(w.authorizations.borrow().len(), 2);
    assert_eq!(w.posts_to(&format!("{AS1}/register")).len(), 1);
    assert_eq!(w.posts_to(&token).len(), 3);
    assert_eq!(
        ticket_auth(&block_on(auth.before_request(&mut op, "POST", SERVER)).unwrap()),
        Some(format!("Bearer {}", last_token(&w, "as1")))
    );
}

#[test]
fn a_failed_refresh_keeps_the_grant() {
    let (w, auth) = signed_in();
    let first = last_token(&w, "as1");
    w.with_as("as1", |a| a.token_script.push_back((503, "busy".into())));
    w.now
        .set(auth.status().unwrap().expires_at_ms.unwrap() - 10_000);
    let e = block_on(auth.before_request(&mut Operation::default(), "POST", SERVER)).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::TokenError, "{e:?}");
    assert_no_secret(&w, &e);
    assert!(auth.status().is_some());
    assert_eq!(
        w.stored(&key()).unwrap()["grant"]["access_token"],
        json!(first)
    );
    // The next operation refreshes successfully.
    let sent = before(&auth).unwrap();
    assert_eq!(sent, format!("Bearer {}", last_token(&w, "as1")));
    assert_ne!(sent, format!("Bearer {first}"));
}

#[test]
fn an_expired_token_without_refresh_is_dropped_before_sending() {
    let w = world();
    w.with_as("as1", |a| a.issue_refresh = false);
    let auth = authorizer(&w, config());
    call(&auth, protected(&w, challenge("a"))).unwrap();
    w.now.set(auth.status().unwrap().expires_at_ms.unwrap());
    assert_eq!(before(&auth), None);
    assert!(auth_status_none(&w));
    assert_eq!(
        w.posts_to(&format!("{AS1}/token")).len(),
        1,
        "no refresh attempted"
    );
}

// 8. 401 after an accepted token: rediscovery ----------------------------------------------

#[test]
fn accepted_then_401_with_the_same_as_refreshes_after_rediscovery() {
    let (w, auth) = signed_in();
    let first = last_token(&w, "as1");
    let before_count = w.requests.borrow().len();
    // The server revokes the first token.
    let revoked = first.clone();
    call(&auth, |a| match bearer(a) {
        Some(t) if t != revoked && w.token_scope(t).is_some() => Reply::Ok,
        _ => Reply::Refuse(401, challenge("a")),
    })
    .unwrap();
    let later: Vec<(String, String)> = requests(&w)[before_count..].to_vec();
    assert_eq!(
        later,
        vec![
            get(PRM_URL),
            get(AS1_OAUTH),
            get(AS1_OIDC_INSERTED),
            get(AS1_OIDC_APPENDED),
            post(&format!("{AS1}/token")),
        ]
    );
    assert_eq!(
        w.posts_to(&format!("{AS1}/token"))[1]
            .param("grant_type")
            .as_deref(),
        Some("refresh_token")
    );
    assert_eq!(w.authorizations.borrow().len(), 1);
}

#[test]
fn accepted_then_401_naming_another_as_registers_there_without_the_old_client_id() {
    let (w, auth) = signed_in();
    let old_client = w.with_as("as1", |a| a.registered[0].clone());
    let old_refresh = w.with_as("as1", |a| a.refresh_tokens.keys().next().unwrap().clone());
    w.add_as(FakeAs::new("as2", AS2, Some(AS2_META)));
    w.json(PRM_URL, prm(SERVER, AS2));
    let before_count = w.requests.borrow().len();

    call(&auth, |a| match bearer(a) {
        Some(t) if t.starts_with("AT-SECRET-as2-") => Reply::Ok,
        _ => Reply::Refuse(401, challenge("a")),
    })
    .unwrap();

    let later: Vec<(String, String)> = requests(&w)[before_count..].to_vec();
    assert_eq!(
        later,
        vec![
            get(PRM_URL),
            get(AS2_META),
            post(&format!("{AS2}/register")),
            post(&format!("{AS2}/token")),
        ]
    );
    let new_client = w.with_as("as2", |a| a.registered[0].clone());
    let q = w.authorization_params(1);
    assert_eq!(param(&q, "client_id"), Some(new_client.clone()));
    assert!(w.authorizations.borrow()[1].starts_with(&format!("{AS2}/authorize?")));
    // SEP-2352: nothing of AS1's client (or grant) went to AS2.
    for r in w
        .requests
        .borrow()
        .iter()
        .filter(|r| r.url.starts_with(AS2))
    {
        assert!(!r.everything().contains(&old_client), "{r:?}");
        assert!(!r.everything().contains(&old_refresh), "{r:?}");
    }
    assert!(!w.authorizations.borrow()[1].contains(&old_client));
    // Both clients are kept, each bound to its issuer.
    let stored = w.stored(&key()).unwrap();
    let clients: Vec<(Value, Value)> = stored["clients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["client_id"].clone(), c["issuer"].clone()))
        .collect();
    assert!(clients.contains(&(json!(old_client), json!(AS1))));
    assert!(clients.contains(&(json!(new_client), json!(AS2))));
    assert_eq!(auth.status().unwrap().issuer, AS2);
}

#[test]
fn a_stored_token_refused_with_401_is_refreshed_once_then_signs_in() {
    let (w, auth) = signed_in();
    drop(auth);
    let auth = authorizer(&w, config());
    let stale = last_token(&w, "as1");
    // The new authorizer never saw its token accepted: 401 → refresh (no discovery needed).
    let before_count = w.requests.borrow().len();
    call(&auth, |a| match bearer(a) {
        Some(t) if t != stale && w.token_scope(t).is_some() => Reply::Ok,
        _ => Reply::Refuse(401, challenge("a")),
    })
    .unwrap();
    assert_eq!(
        requests(&w)[before_count..].to_vec(),
        vec![post(&format!("{AS1}/token"))]
    );
    assert_eq!(w.authorizations.borrow().len(), 1);
}
