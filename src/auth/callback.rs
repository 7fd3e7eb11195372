//! The authorization callback: `redirect_uri?code=…&state=…&iss=…` (or `?error=…`).
//!
//! Checks, in this order, before the code is redeemed:
//! 1. the URL is the pending `redirect_uri` (same scheme, authority and path);
//! 2. `state` is present once and equals the pending one, which is then used up (a second
//!    callback for it is refused);
//! 3. RFC 9207 / SEP-2468 `iss`, compared exactly as strings:
//!
//!    | AS advertises `authorization_response_iss_parameter_supported` | `iss` | result |
//!    |---|---|---|
//!    | yes | present, equal | accept |
//!    | yes | present, different, or absent | reject (`issuer_mismatch`) |
//!    | no | present, equal | accept |
//!    | no | present, different | reject (`issuer_mismatch`) |
//!    | no | absent | accept |
//!
//!    A rejection here does not show the callback's `error_description`;
//! 4. `error` (with `error_description`, cleaned) from the AS;
//! 5. `code`, present once and not empty.

use crate::json::Value;

use crate::protocol::error::{ErrorKind, McpError};

use super::authorize::PendingAuthorization;
use super::errors;
use super::form;
use super::url;
use crate::util::secret::Secret;

/// The callback's one value of `name`: `Ok(None)` when absent, `Err(())` when repeated.
fn single<'a>(pairs: &'a [(String, String)], name: &str) -> Result<Option<&'a str>, ()> {
    let mut found = pairs
        .iter()
        .filter(|(k, _)| k == name)
        .map(|(_, v)| v.as_str());
    let first = found.next();
    if found.next().is_some() {
        return Err(());
    }
    Ok(first)
}

fn malformed(message: &str) -> McpError {
    errors::auth_error(
        ErrorKind::Unauthorized,
        ["Bad authorization callback: ", message].concat(),
        Value::Null,
    )
}

/// The query of a callback given as a full URL (checked against `redirect_uri`) or as a bare
/// query (`?code=…` or `code=…`).
fn callback_query<'a>(callback: &'a str, redirect_uri: &str) -> Result<&'a str, McpError> {
    if let Some(q) = callback.strip_prefix('?') {
        return Ok(q);
    }
    if !callback.contains("://") && url::scheme_of(callback).is_none() {
        return Ok(callback);
    }
    let base = |s: &'a str| -> &'a str {
        let end = s.find(['?', '#']).unwrap_or(s.len());
        &s[..end]
    };
    let redirect_base = redirect_uri
        .find(['?', '#'])
        .map_or(redirect_uri, |i| &redirect_uri[..i]);
    if base(callback) != redirect_base {
        return Err(malformed("it did not come to the redirect_uri"));
    }
    let after = &callback[base(callback).len()..];
    let query = after.strip_prefix('?').unwrap_or("");
    Ok(query.split('#').next().unwrap_or(""))
}

impl PendingAuthorization {
    /// Checks a callback (see the module doc) and returns the authorization code.
    pub fn accept_callback(&mut self, callback: &str) -> Result<Secret, McpError> {
        let pairs = form::parse(callback_query(callback, &self.redirect_uri)?);
        match single(&pairs, "state") {
            Err(()) => return Err(errors::state_mismatch("The callback carries state twice")),
            Ok(None) => return Err(errors::state_mismatch("The callback carries no state")),
            Ok(Some(s)) if s != self.state => {
                return Err(errors::state_mismatch(
                    "The callback's state is not the one this client sent (another login, or a forged callback)",
                ))
            }
            Ok(Some(_)) if self.used => {
                return Err(errors::state_mismatch(
                    "This authorization callback was already used",
                ))
            }
            Ok(Some(_)) => self.used = true,
        }
        let iss = single(&pairs, "iss")
            .map_err(|()| errors::issuer_mismatch("iss", &self.issuer, Some("(more than one)")))?;
        match iss {
            Some(iss) if iss != self.issuer => {
                return Err(errors::issuer_mismatch("iss", &self.issuer, Some(iss)))
            }
            None if self.iss_supported => {
                return Err(errors::issuer_mismatch("iss", &self.issuer, None))
            }
            _ => {}
        }
        let error = single(&pairs, "error").map_err(|()| malformed("error appears twice"))?;
        if let Some(error) = error {
            let description = single(&pairs, "error_description").ok().flatten();
            return Err(errors::oauth_error(
                ErrorKind::Unauthorized,
                "Authorization was not granted",
                error,
                description,
                None,
            ));
        }
        match single(&pairs, "code") {
            Err(()) => Err(malformed("code appears twice")),
            Ok(None) | Ok(Some("")) => Err(malformed("it carries no code")),
            Ok(Some(code)) => Ok(Secret::new(code)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUER: &str = "https://as.example/tenant";

    fn pending(iss_supported: bool) -> PendingAuthorization {
        PendingAuthorization {
            state: "abc123".into(),
            code_verifier: Secret::new("v".repeat(43)),
            redirect_uri: "http://localhost:3000/callback".into(),
            issuer: ISSUER.into(),
            iss_supported,
            resource: Some("https://mcp.example".into()),
            scope: None,
            used: false,
        }
    }

    fn cb(q: &str) -> String {
        format!("http://localhost:3000/callback?{q}")
    }

    fn kind(r: Result<Secret, McpError>) -> ErrorKind {
        r.unwrap_err().kind.unwrap()
    }

    #[test]
    fn accepts_a_good_callback_once() {
        let mut p = pending(true);
        let q = cb("code=c0de&state=abc123&iss=https%3A%2F%2Fas.example%2Ftenant");
        assert_eq!(p.accept_callback(&q).unwrap().expose(), "c0de");
        assert!(p.used);
        assert_eq!(kind(p.accept_callback(&q)), ErrorKind::StateMismatch);
    }

    #[test]
    fn the_iss_table() {
        let enc = form::encode(ISSUER);
        let other = form::encode("https://as.example/tenant/");
        for (supported, iss, ok) in [
            (true, Some(enc.as_str()), true),
            (true, Some(other.as_str()), false),
            (true, None, false),
            (false, Some(enc.as_str()), true),
            (false, Some(other.as_str()), false),
            (false, None, true),
        ] {
            let mut p = pending(supported);
            let q = match iss {
                Some(i) => cb(&format!("code=c&state=abc123&iss={i}")),
                None => cb("code=c&state=abc123"),
            };
            let r = p.accept_callback(&q);
            assert_eq!(r.is_ok(), ok, "supported={supported} iss={iss:?}");
            if !ok {
                assert_eq!(kind(r), ErrorKind::IssuerMismatch);
            }
        }
    }

    #[test]
    fn iss_is_checked_before_the_error_and_hides_its_description() {
        let mut p = pending(true);
        let e = p
            .accept_callback(&cb(
                "error=access_denied&error_description=click+evil.example&state=abc123&iss=https%3A%2F%2Fevil.example",
            ))
            .unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::IssuerMismatch));
        assert!(!e.message.contains("click"));
        let mut p = pending(true);
        let e = p
            .accept_callback(&cb(
                "error=access_denied&error_description=click+evil&state=abc123",
            ))
            .unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::IssuerMismatch));
        assert!(!e.message.contains("click"));
    }

    #[test]
    fn the_as_error_is_shown_cleaned() {
        let mut p = pending(false);
        let e = p
            .accept_callback(&cb(
                "error=access_denied&error_description=The+user%0Asaid+no&state=abc123",
            ))
            .unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::Unauthorized));
        assert_eq!(
            e.message,
            "Authorization was not granted: access_denied (The user said no)"
        );
        assert_eq!(e.data_json().unwrap()["oauthError"], "access_denied");
    }

    #[test]
    fn state_is_checked_first() {
        for q in [
            "code=c",
            "code=c&state=wrong",
            "code=c&state=abc123&state=abc123",
            "code=c&state=ABC123",
            "code=c&state=",
            "error=access_denied",
        ] {
            let mut p = pending(false);
            assert_eq!(
                kind(p.accept_callback(&cb(q))),
                ErrorKind::StateMismatch,
                "{q}"
            );
            assert!(!p.used);
        }
    }

    #[test]
    fn code_rules_and_duplicates() {
        for q in [
            "state=abc123",
            "state=abc123&code=",
            "state=abc123&code=a&code=b",
            "state=abc123&error=a&error=b",
        ] {
            let mut p = pending(false);
            assert_eq!(
                kind(p.accept_callback(&cb(q))),
                ErrorKind::Unauthorized,
                "{q}"
            );
        }
        let mut p = pending(false);
        let q = cb("state=abc123&code=x&iss=a&iss=a");
        assert_eq!(kind(p.accept_callback(&q)), ErrorKind::IssuerMismatch);
    }

    #[test]
    fn the_callback_must_come_to_the_redirect_uri() {
        for url in [
            "http://localhost:3001/callback?code=c&state=abc123",
            "http://localhost:3000/callback2?code=c&state=abc123",
            "https://localhost:3000/callback?code=c&state=abc123",
            "http://evil.example/callback?code=c&state=abc123",
        ] {
            let mut p = pending(false);
            assert_eq!(
                kind(p.accept_callback(url)),
                ErrorKind::Unauthorized,
                "{url}"
            );
        }
        let mut p = pending(false);
        assert!(p.accept_callback("?code=c&state=abc123").is_ok());
        let mut p = pending(false);
        assert!(p.accept_callback("code=c&state=abc123").is_ok());
        let mut p = pending(false);
        assert!(p
            .accept_callback("http://localhost:3000/callback?code=c&state=abc123#_=_")
            .is_ok());
        let mut p = pending(false);
        p.redirect_uri = "com.example.app:/oauth".into();
        assert!(p
            .accept_callback("com.example.app:/oauth?code=c&state=abc123")
            .is_ok());
    }

    #[test]
    fn hostile_callbacks_never_panic() {
        for q in [
            "",
            "?",
            "#",
            "&&&",
            "=&=",
            "%",
            "%zz",
            "state=%FF",
            "code=\u{0}",
            "é=é",
            "http://localhost:3000/callback",
            "http://localhost:3000/callback#?state=abc123",
        ] {
            let mut p = pending(true);
            assert!(p.accept_callback(q).is_err(), "{q}");
        }
    }
}
