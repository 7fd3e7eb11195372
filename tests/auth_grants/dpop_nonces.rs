//! DPoP nonces: use_dpop_nonce at the AS and at the server.

use super::*;

// 8. DPoP nonces -------------------------------------------------------------------------

/// A client_credentials client with DPoP.
fn dpop_cc(w: &Rc<World>) -> Auth {
    w.with_as("as1", |a| a.dpop_tokens = true);
    let mut c = config(GrantConfig::ClientCredentials(svc(None)));
    c.dpop = true;
    authorizer(w, c)
}

#[test]
fn as_use_dpop_nonce_is_retried_once_with_the_nonce() {
    let w = world();
    w.with_as("as1", |a| a.nonce_script.push_back("AS-NONCE-1".into()));
    let auth = dpop_cc(&w);
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    let posts = w.posts_to(AS1_TOKEN);
    assert_eq!(posts.len(), 2, "exactly one retry");
    let (_, first) = posts[0].dpop_parts();
    let (_, second) = posts[1].dpop_parts();
    assert_eq!(first.get("nonce"), None);
    assert_eq!(second["nonce"], "AS-NONCE-1");
    assert_ne!(first["jti"], second["jti"], "a new jti");
    assert_eq!(posts[0].body, posts[1].body, "the same request otherwise");
    assert_eq!(auth.status().unwrap().issuer, AS1);

    // A second use_dpop_nonce in a row is the token error.
    let w = world();
    w.with_as("as1", |a| {
        a.nonce_script.push_back("N1".into());
        a.nonce_script.push_back("N2".into());
    });
    let auth = dpop_cc(&w);
    let e = run(&w, &auth, challenge("s").as_deref()).unwrap_err();
    assert_eq!(kind(&e), ErrorKind::TokenError);
    assert!(format!("{:?}", e.data).contains("use_dpop_nonce"), "{e:?}");
    assert_no_secret(&e);
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 2);
}

#[test]
fn as_use_dpop_nonce_retry_signs_a_new_client_assertion() {
    // The AS authenticated the client before asking for a nonce: the retry must not replay
    // the client assertion (its jti is used up, RFC 7523 §3).
    let w = world();
    w.with_as("as1", |a| a.nonce_script.push_back("AS-NONCE-1".into()));
    let client = StaticClient {
        info: info("svc-key", None, Some(AS1)),
        method: None,
        signing: Some(Alg::Es256),
    };
    w.with_as("as1", |a| a.dpop_tokens = true);
    let mut c = config(GrantConfig::ClientCredentials(client));
    c.dpop = true;
    let auth = authorizer(&w, c);
    let r = run(&w, &auth, challenge("s").as_deref());
    if let Err(e) = &r {
        assert_no_secret(e);
    }
    let posts = w.posts_to(AS1_TOKEN);
    assert_eq!(posts.len(), 2, "exactly one retry");
    let jti = |p: &Sent| jws_part(&p.param("client_assertion").unwrap(), 1)["jti"].clone();
    assert_ne!(jti(&posts[0]), jti(&posts[1]), "a new client assertion");
    let others = |p: &Sent| -> Vec<(String, String)> {
        form(p)
            .into_iter()
            .filter(|(k, _)| k != "client_assertion")
            .collect()
    };
    assert_eq!(
        others(&posts[0]),
        others(&posts[1]),
        "the same request otherwise"
    );
    assert_eq!(
        jws_part(&posts[1].param("client_assertion").unwrap(), 1)["aud"],
        AS1
    );
    assert_eq!(posts[1].dpop_parts().1["nonce"], "AS-NONCE-1");
    r.expect("the retry succeeds");
    assert_eq!(w.client_signs.borrow().len(), 2);
}

const NONCE_CHALLENGE: &str = r#"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#;

#[test]
fn server_use_dpop_nonce_is_retried_with_the_nonce_without_a_new_token() {
    let w = world();
    let auth = dpop_cc(&w);
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 1);

    // The next operation: the server wants a nonce, then accepts.
    let tickets = RefCell::default();
    let mut answers = 0;
    let attempts = call(&auth, &tickets, |t| {
        answers += 1;
        let claims = jws_part(t.dpop.as_deref().expect("a proof"), 1);
        if claims.get("nonce").is_none() {
            Reply::Refuse(401, Some(NONCE_CHALLENGE.into()), Some("RS-NONCE-1".into()))
        } else {
            assert_eq!(claims["nonce"], "RS-NONCE-1");
            Reply::Ok
        }
    })
    .unwrap();
    assert_eq!(attempts, 2);
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 1, "no new token request");
    let tickets = tickets.borrow();
    assert_eq!(tickets[0].authorization, tickets[1].authorization);
    let (a, b) = (
        jws_part(tickets[0].dpop.as_deref().unwrap(), 1),
        jws_part(tickets[1].dpop.as_deref().unwrap(), 1),
    );
    assert_ne!(a["jti"], b["jti"]);
    assert_eq!(b["ath"], a["ath"]);
    // The server's nonce is not sent to the AS (another origin).
    assert_eq!(
        dpop_nonce_of_token_requests(&w),
        vec![None::<String>],
        "no server nonce at the AS"
    );
}

#[test]
fn a_success_with_a_dpop_nonce_is_accepted_and_its_nonce_used_next() {
    let w = world();
    let auth = dpop_cc(&w);
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    // The server accepts and sends a nonce for the next proof.
    let sent = RefCell::default();
    let sends = call(&auth, &sent, |_| Reply::OkWithNonce("RS-NONCE-9".into())).unwrap();
    assert_eq!(sends, 1);
    let first = jws_part(sent.borrow()[0].dpop.as_deref().unwrap(), 1);
    assert!(first.get("nonce").is_none(), "{first}");
    // The next request's proof carries it.
    let sent = RefCell::default();
    call(&auth, &sent, |_| Reply::Ok).unwrap();
    let next = jws_part(sent.borrow()[0].dpop.as_deref().unwrap(), 1);
    assert_eq!(next["nonce"], "RS-NONCE-9");
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 1, "no new token request");
}

/// A `DPoP-Nonce` outside RFC 9449 §8.1's grammar (`1*NQCHAR`) is network data the client
/// does not keep: the next proof carries no nonce (nor the previous valid one replaced by it).
#[test]
fn a_dpop_nonce_with_invalid_characters_is_not_echoed() {
    let w = world();
    let auth = dpop_cc(&w);
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    for bad in [
        "",
        "has space",
        "quo\"te",
        "back\\slash",
        "ctl\u{1}",
        "caf\u{e9}",
    ] {
        call(&auth, &RefCell::default(), |_| {
            Reply::OkWithNonce(bad.into())
        })
        .unwrap();
        let sent = RefCell::default();
        call(&auth, &sent, |_| Reply::Ok).unwrap();
        let next = jws_part(sent.borrow()[0].dpop.as_deref().unwrap(), 1);
        assert!(next.get("nonce").is_none(), "{bad:?} was echoed: {next}");
    }
    let long = "n".repeat(mcp_wasm_client::auth::jose::MAX_DPOP_NONCE_BYTES + 1);
    call(&auth, &RefCell::default(), |_| {
        Reply::OkWithNonce("GOOD-1".into())
    })
    .unwrap();
    call(&auth, &RefCell::default(), |_| {
        Reply::OkWithNonce(long.clone())
    })
    .unwrap();
    let sent = RefCell::default();
    call(&auth, &sent, |_| Reply::Ok).unwrap();
    let next = jws_part(sent.borrow()[0].dpop.as_deref().unwrap(), 1);
    assert_eq!(
        next["nonce"], "GOOD-1",
        "an over-long nonce replaced a valid one"
    );
}

fn dpop_nonce_of_token_requests(w: &World) -> Vec<Option<String>> {
    w.posts_to(AS1_TOKEN)
        .iter()
        .map(|p| p.dpop_parts().1["nonce"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn server_use_dpop_nonce_twice_in_one_operation_is_a_dpop_error() {
    let w = world();
    let auth = dpop_cc(&w);
    run(&w, &auth, challenge("s").as_deref()).unwrap();
    let mut n = 0;
    let e = call(&auth, &RefCell::default(), |_| {
        n += 1;
        Reply::Refuse(
            401,
            Some(NONCE_CHALLENGE.into()),
            Some(format!("RS-NONCE-{n}")),
        )
    })
    .unwrap_err();
    assert_eq!(kind(&e), ErrorKind::DpopError);
    assert_no_secret(&e);
    assert_eq!(n, 2);
    assert_eq!(w.posts_to(AS1_TOKEN).len(), 1, "no new token request");
    // The grant is kept.
    assert!(auth.status().is_some());
}
