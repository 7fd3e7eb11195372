//! Scopes: which to ask for, and the step-up union after `403 insufficient_scope` (SEP-2350)
//! (the caps on step-ups are [`crate::auth::budget`]'s).
//!
//! Selection: the challenge's `scope`, else all of PRM `scopes_supported`, else the scope the
//! application configured, else none (the parameter is omitted). `offline_access` is added
//! (SEP-2207) only when refresh tokens are wanted, the AS lists it, and there is a scope to
//! add it to.

/// The OIDC scope that asks for a refresh token.
pub const OFFLINE_ACCESS: &str = "offline_access";

/// The scopes of a space-delimited list, duplicates dropped, order kept (borrowed).
pub(crate) fn words(scope: &str) -> Vec<&str> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
