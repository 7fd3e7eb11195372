//! The app's cache store (`cache: { store, partition, mode }`): what goes into it and what may
//! come out. The store is any object with async `get`/`set`/`delete`/`clear`; it may be shared
//! by several clients and survive a reload, so unlike [`super::cache::ResponseCache`] (one
//! client's memory) its keys and entries say whose a result is:
//!
//! * The key is a JSON array text: this format's tag, the partition (the app's word for whose
//!   entries these are, e.g. the signed-in user), the server URL, the server's identity
//!   (`serverInfo` name and version and the protocol version; empty for `server/discover`,
//!   which is what tells them), the method and the page key ([`super::cache::key_of`]).
//!   A prefix of that text names every key of a partition, server or method.
//! * The entry is `{ result, receivedMs, ttlMs, scope, auth }`: `auth` is a fingerprint of the
//!   credential the result was fetched with (never the credential), `null` without one. A
//!   `private` entry is served only to the same fingerprint; a `public` one to any credential
//!   of the partition.
//! * An entry that is not such an object, is past its `ttlMs`, or belongs to another credential
//!   is a miss; the call goes to the server.

use crate::json::{json, Value};
use crate::session::cache::{storable, CacheScope};

/// The first element of every key: the format, so that a later one never reads these
/// (`partitionPrefix` of the package's `mcp-wasm-client/cache` writes the same prefix).
pub const KEY_TAG: &str = "mcp-wasm-client/cache/1";

/// How one call uses the cache (the `cacheMode` call option, `cache.mode` by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CacheMode {
    /// A fresh cached result answers; a new one is stored.
    #[default]
    Use,
    /// Always asks the server; its result is stored.
    Refresh,
    /// Asks the server and stores nothing.
    Bypass,
}

impl CacheMode {
    /// The JS spellings, for errors.
    pub const NAMES: [&'static str; 3] = ["use", "refresh", "bypass"];

    /// From its JS spelling.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "use" => Some(Self::Use),
            "refresh" => Some(Self::Refresh),
            "bypass" => Some(Self::Bypass),
            _ => None,
        }
    }

    /// True when a cached result may answer.
    pub fn reads(self) -> bool {
        self == Self::Use
    }

    /// True when the server's result is stored.
    pub fn writes(self) -> bool {
        self != Self::Bypass
    }
}

/// Whose entries a key names: partition, server URL and (once connected) server identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreScope {
    /// The `cache.partition` option ("" when not given).
    pub partition: String,
    /// The server URL (a JS transport: its name).
    pub url: String,
    /// `serverInfo.name`, `serverInfo.version` and the protocol version, joined; "" before
    /// the session is known.
    pub server: String,
}

impl StoreScope {
    /// The identity part of a key for a session with this server.
    pub fn identity(name: &str, version: &str, protocol: &str) -> String {
        json!([name, version, protocol]).to_string()
    }

    /// The key of `method`'s page `key` (as [`super::cache::key_of`]).
    pub fn key(&self, method: &str, key: Option<&str>) -> String {
        let server = if method == "server/discover" {
            ""
        } else {
            &self.server
        };
        json!([KEY_TAG, self.partition, self.url, server, method, key]).to_string()
    }

    /// The prefix of every key of `method` for this server (what a `list_changed` clears).
    pub fn method_prefix(&self, method: &str) -> String {
        let full = json!([KEY_TAG, self.partition, self.url, self.server, method]).to_string();
        // `…,"tools/list"]` → `…,"tools/list",`: every longer array with these first elements
        format!("{},", &full[..full.len() - 1])
    }
}

/// The entry to store for `result`, or `None` when the rules of [`super::cache`] keep it out
/// (not cacheable, not complete, an `input_required` retry, no positive `ttlMs`). Returns the
/// entry and its `ttlMs`.
pub fn entry_for(
    method: &str,
    params: &Value,
    result: &Value,
    now_ms: f64,
    auth: Option<&str>,
) -> Option<(Value, f64)> {
    let (ttl_ms, scope) = storable(method, params, result)?;
    let scope = match scope {
        CacheScope::Public => "public",
        CacheScope::Private => "private",
    };
    let entry = json!({
        "result": result,
        "receivedMs": now_ms,
        "ttlMs": ttl_ms,
        "scope": scope,
        "auth": auth,
    });
    Some((entry, ttl_ms))
}

/// Who asks, as a private entry records it: without a credential, with one (its fingerprint),
/// or with one that could not be fingerprinted (served public entries only, stores none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asker {
    /// No credential goes with the requests.
    Anonymous,
    /// A credential, by its fingerprint.
    Credential(String),
    /// A credential the host could not fingerprint.
    Unrecognised,
}

impl Asker {
    /// What a private entry of this asker records as `auth`; `None` when it may store none.
    pub fn recorded(&self) -> Option<Option<&str>> {
        match self {
            Asker::Anonymous => Some(None),
            Asker::Credential(fp) => Some(Some(fp)),
            Asker::Unrecognised => None,
        }
    }
}

/// The result a stored `entry` answers with at `now_ms` for `asker`: `Ok(None)` for an entry
/// that is stale or another credential's, `Err` naming what is wrong with anything that is no
/// entry this client wrote (the store is told so).
pub fn served(entry: &Value, now_ms: f64, asker: &Asker) -> Result<Option<Value>, String> {
    let number = |key: &str| {
        entry
            .get(key)
            .and_then(Value::as_f64)
            .ok_or_else(|| format!("its answer has no numeric {key}"))
    };
    if !entry.is_object() {
        return Err("its answer is not an entry object".into());
    }
    let (received, ttl) = (number("receivedMs")?, number("ttlMs")?);
    let result = entry
        .get("result")
        .filter(|r| r.is_object())
        .ok_or("its answer has no result object")?;
    let fresh = now_ms < received + ttl && received <= now_ms + 1.0;
    if !fresh {
        return Ok(None);
    }
    let public = entry.get("scope").and_then(Value::as_str) == Some("public");
    let owner = entry.get("auth").and_then(Value::as_str);
    Ok((public || asker.recorded() == Some(owner)).then(|| result.clone()))
}

/// The prefixes and exact keys a server notification makes stale, as `(prefixes, keys)`.
pub fn stale_for_notification(
    scope: &StoreScope,
    method: &str,
    params: &Value,
) -> (Vec<String>, Vec<String>) {
    match method {
        "notifications/tools/list_changed" => (vec![scope.method_prefix("tools/list")], vec![]),
        "notifications/prompts/list_changed" => (vec![scope.method_prefix("prompts/list")], vec![]),
        "notifications/resources/list_changed" => (
            vec![
                scope.method_prefix("resources/list"),
                scope.method_prefix("resources/templates/list"),
            ],
            vec![],
        ),
        "notifications/resources/updated" => match params.get("uri").and_then(Value::as_str) {
            Some(uri) => (vec![], vec![scope.key("resources/read", Some(uri))]),
            None => (vec![], vec![]),
        },
        _ => (vec![], vec![]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope() -> StoreScope {
        StoreScope {
            partition: "alice".into(),
            url: "http://127.0.0.1:1/mcp".into(),
            server: StoreScope::identity("srv", "1.0", "2026-07-28"),
        }
    }

    #[test]
    fn modes_parse_and_say_what_they_do() {
        assert_eq!(CacheMode::parse("use"), Some(CacheMode::Use));
        assert_eq!(CacheMode::parse("Refresh"), None);
        assert!(CacheMode::Use.reads() && CacheMode::Use.writes());
        assert!(!CacheMode::Refresh.reads() && CacheMode::Refresh.writes());
        assert!(!CacheMode::Bypass.reads() && !CacheMode::Bypass.writes());
    }

    #[test]
    fn keys_part_partitions_servers_and_pages() {
        let a = scope();
        let b = StoreScope {
            partition: "bob".into(),
            ..scope()
        };
        let other_server = StoreScope {
            server: StoreScope::identity("srv", "2.0", "2026-07-28"),
            ..scope()
        };
        let k = a.key("tools/list", None);
        assert_ne!(k, b.key("tools/list", None));
        assert_ne!(k, other_server.key("tools/list", None));
        assert_ne!(k, a.key("tools/list", Some("")));
        assert_ne!(
            a.key("tools/list", Some("c1")),
            a.key("prompts/list", Some("c1"))
        );
        // discover is keyed before the server is known
        assert_eq!(
            a.key("server/discover", None),
            other_server.key("server/discover", None)
        );
        // a partition with the separator in it cannot reach into another's keys
        let tricky = StoreScope {
            partition: "alice\",\"http".into(),
            ..scope()
        };
        assert!(!tricky
            .key("tools/list", None)
            .starts_with(&a.method_prefix("tools/list")));
    }

    #[test]
    fn a_method_prefix_covers_its_pages_only() {
        let s = scope();
        let p = s.method_prefix("tools/list");
        assert!(s.key("tools/list", None).starts_with(&p));
        assert!(s.key("tools/list", Some("c2")).starts_with(&p));
        assert!(!s.key("prompts/list", None).starts_with(&p));
        assert!(!s.key("tools/listx", None).starts_with(&p));
    }

    #[test]
    fn entries_follow_the_cache_rules() {
        let page = json!({ "tools": [], "ttlMs": 1000 });
        let (entry, ttl) = entry_for("tools/list", &json!({}), &page, 5.0, Some("fp")).unwrap();
        assert_eq!(ttl, 1000.0);
        assert_eq!(entry["scope"], "private");
        assert_eq!(entry["auth"], "fp");
        assert!(entry_for("tools/call", &json!({}), &page, 5.0, None).is_none());
        let no_ttl = json!({ "tools": [] });
        assert!(entry_for("tools/list", &json!({}), &no_ttl, 5.0, None).is_none());
        let retry = json!({ "requestState": "x" });
        assert!(entry_for("resources/read", &retry, &page, 5.0, None).is_none());
        let pending = json!({ "resultType": "input_required", "ttlMs": 5 });
        assert!(entry_for("tools/list", &json!({}), &pending, 5.0, None).is_none());
    }

    #[test]
    fn served_only_fresh_and_to_its_credential_unless_public() {
        let page = json!({ "tools": [1], "ttlMs": 100 });
        let (private, _) = entry_for("tools/list", &json!({}), &page, 1000.0, Some("a")).unwrap();
        let (a, b) = (Asker::Credential("a".into()), Asker::Credential("b".into()));
        assert_eq!(served(&private, 1050.0, &a).unwrap(), Some(page.clone()));
        assert_eq!(served(&private, 1100.0, &a).unwrap(), None, "expired");
        assert_eq!(
            served(&private, 1050.0, &b).unwrap(),
            None,
            "another credential"
        );
        let anonymous_now = served(&private, 1050.0, &Asker::Anonymous).unwrap();
        assert_eq!(anonymous_now, None, "no credential now");
        assert_eq!(
            served(&private, 1050.0, &Asker::Unrecognised).unwrap(),
            None
        );
        let public_page = json!({ "tools": [1], "ttlMs": 100, "cacheScope": "public" });
        let (public, _) =
            entry_for("tools/list", &json!({}), &public_page, 1000.0, Some("a")).unwrap();
        assert_eq!(
            served(&public, 1050.0, &b).unwrap(),
            Some(public_page.clone())
        );
        assert_eq!(
            served(&public, 1050.0, &Asker::Unrecognised).unwrap(),
            Some(public_page)
        );
        let (anonymous, _) = entry_for("tools/list", &json!({}), &page, 1000.0, None).unwrap();
        assert_eq!(
            served(&anonymous, 1050.0, &Asker::Anonymous).unwrap(),
            Some(page)
        );
        assert_eq!(served(&anonymous, 1050.0, &a).unwrap(), None);
        assert_eq!(
            served(&anonymous, 1050.0, &Asker::Unrecognised).unwrap(),
            None
        );
    }

    #[test]
    fn anything_else_in_the_store_is_refused_by_name() {
        for junk in [
            json!(null),
            json!("text"),
            json!({ "result": 5, "receivedMs": 0, "ttlMs": 10 }),
            json!({ "result": {}, "receivedMs": "0", "ttlMs": 10 }),
            json!({ "result": {}, "ttlMs": 10 }),
        ] {
            assert!(served(&junk, 1.0, &Asker::Anonymous).is_err(), "{junk}");
        }
        let from_the_future = json!({ "result": {}, "receivedMs": 5000, "ttlMs": 10 });
        assert_eq!(served(&from_the_future, 1.0, &Asker::Anonymous), Ok(None));
    }

    #[test]
    fn notifications_name_what_they_make_stale() {
        let s = scope();
        let (p, k) = stale_for_notification(&s, "notifications/resources/list_changed", &json!({}));
        assert_eq!(p.len(), 2);
        assert!(k.is_empty());
        let (p, k) = stale_for_notification(
            &s,
            "notifications/resources/updated",
            &json!({ "uri": "file:///a" }),
        );
        assert!(p.is_empty());
        assert_eq!(k, vec![s.key("resources/read", Some("file:///a"))]);
        let (p, k) = stale_for_notification(&s, "notifications/message", &json!({}));
        assert!(p.is_empty() && k.is_empty());
    }
}
