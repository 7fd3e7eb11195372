//! Scopes: which to ask for, and the step-up union after `403 insufficient_scope` (SEP-2350)
//! (the caps on step-ups are [`crate::auth::budget`]'s).
//!
//! Selection: the challenge's `scope`, else all of PRM `scopes_supported`, else the scope the
//! application configured, else none (the parameter is omitted). Each counts by its valid
//! RFC 6749 §3.3 scope-tokens only ([`is_token`]): a challenge whose scope holds none counts
//! as one without a scope. `offline_access` is added
//! (SEP-2207) only when refresh tokens are wanted, the AS lists it, and there is a scope to
//! add it to.

/// The OIDC scope that asks for a refresh token.
pub const OFFLINE_ACCESS: &str = "offline_access";

/// True when `s` is an RFC 6749 §3.3 scope-token: `1*( %x21 / %x23-5B / %x5D-7E )`
/// (printable ASCII but space, `"` and `\`).
pub fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| matches!(b, 0x21 | 0x23..=0x5B | 0x5D..=0x7E))
}

/// The scope-tokens of a space-separated list (RFC 6749 §3.3): invalid ones (control
/// characters, non-ASCII, `"`, `\`) dropped, duplicates dropped, order kept (borrowed).
/// Scopes from the network (a challenge, metadata) are data: only these are ever sent.
pub(crate) fn words(scope: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for s in scope.split(' ').filter(|s| is_token(s)) {
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

/// The valid scope-tokens of `scope` ([`words`]) space-separated, or `None` when none is
/// valid (then the scope counts as absent: see [`select`]).
pub fn valid(scope: &str) -> Option<String> {
    let w = words(scope);
    (!w.is_empty()).then(|| w.join(" "))
}

/// The entries of a metadata `scopes_supported` that are scope-tokens, space-separated (an
/// entry that is not one, `"a b"` included, is dropped whole).
fn listed(scopes: &[String]) -> String {
    let valid: Vec<String> = scopes.iter().filter(|s| is_token(s)).cloned().collect();
    join(&valid)
}

/// The scope for an authorization request (see the module doc for the order).
pub fn select(
    challenge_scope: Option<&str>,
    prm_scopes: Option<&[String]>,
    configured: Option<&str>,
    as_scopes: Option<&[String]>,
    want_refresh: bool,
) -> Option<String> {
    let prm = prm_scopes.map(listed);
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
    fn scope_tokens_per_rfc_6749() {
        for ok in [
            "a",
            "mcp:read",
            "files:read/write",
            "!#[]^~",
            "x=1&y=2",
            "offline_access",
        ] {
            assert!(is_token(ok), "{ok:?}");
        }
        for bad in [
            "",
            "a b",
            "a\tb",
            "a\u{0}",
            "a\u{7f}",
            "\"a\"",
            "a\\b",
            "caf\u{e9}",
            "\u{2028}",
        ] {
            assert!(!is_token(bad), "{bad:?}");
        }
        assert_eq!(
            words("read \"admin\" caf\u{e9} x\\y a\u{1}b write\tall ok read"),
            ["read", "ok"]
        );
        assert_eq!(valid(" a  b ").as_deref(), Some("a b"));
        assert_eq!(valid("\"\" \\ \u{0}"), None);
    }

    #[test]
    fn invalid_tokens_never_reach_the_request() {
        // A challenge with nothing valid counts as no challenge scope.
        let prm = v(&["mcp:read", "bad scope", "caf\u{e9}", "mcp:write"]);
        assert_eq!(
            select(Some("\"x\" \u{7}"), Some(&prm), None, None, false).as_deref(),
            Some("mcp:read mcp:write")
        );
        assert_eq!(
            select(Some("a \"b\" c"), Some(&prm), None, None, false).as_deref(),
            Some("a c")
        );
        assert_eq!(
            select(Some("\\"), Some(&v(&["\u{0}"])), None, None, false),
            None
        );
        assert_eq!(union("a b\u{0}", "c \"d\""), "a c");
    }

    #[test]
    fn split_and_join() {
        assert_eq!(split("  a b a  c "), v(&["a", "b", "c"]));
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
