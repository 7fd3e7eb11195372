//! Scopes: which to ask for, the step-up union after `403 insufficient_scope` (SEP-2350), and
//! the caps on authorization requests within one operation ([`Budget`]).
//!
//! Selection: the challenge's `scope`, else all of PRM `scopes_supported`, else the scope the
//! application configured, else none (the parameter is omitted). `offline_access` is added
//! (SEP-2207) only when refresh tokens are wanted, the AS lists it, and there is a scope to
//! add it to.

use crate::protocol::error::McpError;

use super::errors;

/// The OIDC scope that asks for a refresh token.
pub const OFFLINE_ACCESS: &str = "offline_access";

/// Authorization requests allowed within one operation, whatever `maxStepUp` says.
pub const MAX_AUTHORIZATIONS_PER_OPERATION: u32 = 3;

/// The scopes of a space-delimited list, duplicates dropped, order kept (borrowed).
fn words(scope: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for s in scope
        .split([' ', '\t', '\n', '\r'])
        .filter(|s| !s.is_empty())
    {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The scopes of a space-delimited list, duplicates dropped, order kept.
pub fn split(scope: &str) -> Vec<String> {
    words(scope).into_iter().map(str::to_string).collect()
}

/// A space-delimited list of `scopes`.
pub fn join(scopes: &[String]) -> String {
    crate::util::quote::join(scopes, " ")
}

/// The scope for an authorization request (see the module doc for the order).
pub fn select(
    challenge_scope: Option<&str>,
    prm_scopes: Option<&[String]>,
    configured: Option<&str>,
    as_scopes: Option<&[String]>,
    want_refresh: bool,
) -> Option<String> {
    let prm = prm_scopes.map(join);
    let mut scopes = [challenge_scope, prm.as_deref(), configured]
        .into_iter()
        .flatten()
        .map(words)
        .find(|s| !s.is_empty())?;
    let as_lists_offline = as_scopes.is_some_and(|s| s.iter().any(|x| x == OFFLINE_ACCESS));
    if want_refresh && as_lists_offline && !scopes.contains(&OFFLINE_ACCESS) {
        scopes.push(OFFLINE_ACCESS);
    }
    Some(scopes.join(" "))
}

/// The union of what was granted and what the challenge asks, granted first, in order.
pub fn union(granted: &str, challenged: &str) -> String {
    words(&[granted, " ", challenged].concat()).join(" ")
}

/// True when `needed` adds no scope to `granted`.
pub fn covers(granted: &str, needed: &str) -> bool {
    let g = words(granted);
    words(needed).iter().all(|s| g.contains(s))
}

/// What to do on `403 insufficient_scope` (the `onInsufficientScope` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StepUpPolicy {
    /// Authorize again with the union of scopes (`"reauthorize"`, the default).
    #[default]
    Reauthorize,
    /// Fail the call with `insufficient_scope` (`"throw"`).
    Throw,
}

impl StepUpPolicy {
    /// Reads the option's string.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "reauthorize" => Some(StepUpPolicy::Reauthorize),
            "throw" => Some(StepUpPolicy::Throw),
            _ => None,
        }
    }
}

/// The authorization attempts of one operation: at most `max_step_up` step-ups and never
/// more than [`MAX_AUTHORIZATIONS_PER_OPERATION`] authorization requests in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    max_step_up: u32,
    step_ups: u32,
    requests: u32,
}

impl Budget {
    /// A fresh budget for one operation.
    pub fn new(max_step_up: u32) -> Self {
        Budget {
            max_step_up,
            step_ups: 0,
            requests: 0,
        }
    }

    /// Authorization requests made so far.
    pub fn requests(&self) -> u32 {
        self.requests
    }

    /// Step-ups made so far.
    pub fn step_ups(&self) -> u32 {
        self.step_ups
    }

    /// Counts one authorization request (after a 401), or refuses when the cap is reached.
    pub fn authorize(&mut self) -> Result<(), McpError> {
        if self.requests >= MAX_AUTHORIZATIONS_PER_OPERATION {
            return Err(errors::unauthorized(format!(
                "The server still refuses after {} authorization attempts",
                self.requests
            )));
        }
        self.requests += 1;
        Ok(())
    }

    /// The scope to re-authorize with after `403 insufficient_scope` asking for
    /// `challenged`, when `granted` is held: the union; or the `insufficient_scope` error
    /// (policy `throw`, no scope asked for, nothing new asked for, caps reached).
    pub fn step_up(
        &mut self,
        policy: StepUpPolicy,
        granted: &str,
        challenged: Option<&str>,
    ) -> Result<String, McpError> {
        let challenged = challenged.filter(|c| !words(c).is_empty());
        let fail = |why: &str| {
            Err(errors::insufficient_scope(
                format!("The server needs more scopes: {why}"),
                challenged,
            ))
        };
        if policy == StepUpPolicy::Throw {
            return fail(&errors::clean_text(challenged.unwrap_or("(none named)")));
        }
        let Some(challenged) = challenged else {
            return fail("it did not say which");
        };
        if covers(granted, challenged) {
            return fail("it asks for scopes already granted");
        }
        if self.step_ups >= self.max_step_up {
            return fail(&format!(
                "{} (step-up limit of {} reached)",
                errors::clean_text(challenged),
                self.max_step_up
            ));
        }
        if self.requests >= MAX_AUTHORIZATIONS_PER_OPERATION {
            return fail(&format!(
                "{} (authorization attempts exhausted)",
                errors::clean_text(challenged)
            ));
        }
        self.step_ups += 1;
        self.requests += 1;
        Ok(union(granted, challenged))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::error::ErrorKind;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn split_and_join() {
        assert_eq!(split("  a b\ta  c "), v(&["a", "b", "c"]));
        assert!(split("   ").is_empty());
        assert_eq!(join(&v(&["a", "b"])), "a b");
    }

    #[test]
    fn selection_order() {
        let prm = v(&["mcp:read", "mcp:write"]);
        let as_s = v(&["mcp:read", OFFLINE_ACCESS]);
        assert_eq!(
            select(Some("files:read"), Some(&prm), Some("cfg"), None, true).as_deref(),
            Some("files:read")
        );
        assert_eq!(
            select(None, Some(&prm), Some("cfg"), None, true).as_deref(),
            Some("mcp:read mcp:write")
        );
        assert_eq!(
            select(Some(" "), None, Some("cfg"), None, true).as_deref(),
            Some("cfg")
        );
        assert_eq!(select(None, Some(&[]), None, None, true), None);
        assert_eq!(select(None, None, None, Some(&as_s), true), None);
        assert_eq!(
            select(None, Some(&prm), None, Some(&as_s), true).as_deref(),
            Some("mcp:read mcp:write offline_access")
        );
        assert_eq!(
            select(None, Some(&prm), None, Some(&as_s), false).as_deref(),
            Some("mcp:read mcp:write")
        );
        assert_eq!(
            select(Some("a offline_access"), None, None, Some(&as_s), true).as_deref(),
            Some("a offline_access")
        );
        assert_eq!(
            select(Some("a"), None, None, Some(&v(&["a"])), true).as_deref(),
            Some("a")
        );
    }

    #[test]
    fn union_keeps_granted_first() {
        assert_eq!(union("a b", "b c"), "a b c");
        assert_eq!(union("", "x"), "x");
        assert!(covers("a b c", "c a"));
        assert!(!covers("a b", "a d"));
        assert!(covers("a", ""));
    }

    #[test]
    fn policy_strings() {
        assert_eq!(StepUpPolicy::parse("throw"), Some(StepUpPolicy::Throw));
        assert_eq!(
            StepUpPolicy::parse("reauthorize"),
            Some(StepUpPolicy::Reauthorize)
        );
        assert_eq!(StepUpPolicy::parse("Throw"), None);
        assert_eq!(StepUpPolicy::default(), StepUpPolicy::Reauthorize);
    }

    #[test]
    fn one_step_up_by_default() {
        let mut b = Budget::new(1);
        b.authorize().unwrap();
        assert_eq!(
            b.step_up(StepUpPolicy::Reauthorize, "a", Some("a b"))
                .unwrap(),
            "a b"
        );
        let e = b
            .step_up(StepUpPolicy::Reauthorize, "a b", Some("c"))
            .unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::InsufficientScope));
        assert_eq!(e.data_json().unwrap()["scope"], "c");
        assert!(e.message.contains("step-up limit"));
        assert_eq!((b.requests(), b.step_ups()), (2, 1));
    }

    #[test]
    fn never_more_than_three_authorization_requests() {
        let mut b = Budget::new(10);
        b.authorize().unwrap();
        b.step_up(StepUpPolicy::Reauthorize, "a", Some("b"))
            .unwrap();
        b.step_up(StepUpPolicy::Reauthorize, "a b", Some("c"))
            .unwrap();
        let e = b
            .step_up(StepUpPolicy::Reauthorize, "a b c", Some("d"))
            .unwrap_err();
        assert!(e.message.contains("exhausted"));
        let e = b.authorize().unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::Unauthorized));
        let mut b = Budget::new(0);
        for _ in 0..3 {
            b.authorize().unwrap();
        }
        assert!(b.authorize().is_err());
    }

    #[test]
    fn step_up_refusals() {
        let mut b = Budget::new(1);
        let e = b.step_up(StepUpPolicy::Throw, "a", Some("b")).unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::InsufficientScope));
        assert!(e.message.contains('b'));
        assert!(b.step_up(StepUpPolicy::Reauthorize, "a", None).is_err());
        assert!(b
            .step_up(StepUpPolicy::Reauthorize, "a", Some("  "))
            .is_err());
        let e = b
            .step_up(StepUpPolicy::Reauthorize, "a b", Some("b"))
            .unwrap_err();
        assert!(e.message.contains("already granted"));
        assert_eq!(b.requests(), 0);
        let mut b = Budget::new(0);
        assert!(b
            .step_up(StepUpPolicy::Reauthorize, "a", Some("b"))
            .is_err());
    }
}
