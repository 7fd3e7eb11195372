//! The 2026 response cache for cacheable results (spec b.0 "Caching fields"), with an injected
//! clock: callers pass `now_ms`, nothing here reads the system time.
//!
//! * Cacheable: `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`
//!   (keyed by cursor, each page separately; `None` is the first page and differs from `""`),
//!   `resources/read` (keyed by uri) and `server/discover` (no key).
//! * Stored only with `ttlMs` > 0 (missing or negative means 0), never for MRTR retries
//!   (params with `inputResponses` or `requestState`), never for a result whose `resultType` is
//!   not `complete` (absent counts as complete).
//! * Fresh while `now < received + ttlMs`.
//! * `cacheScope` is kept on the entry. The spec keys a private cache by authorization context;
//!   one client is one authorization context and each client owns its own cache, so both
//!   `private` and `public` results are cached here. A client whose credentials change must
//!   [`ResponseCache::clear`] it.

use crate::json::Value;
use crate::util::small_map::SmallMap;

/// At most this many entries; the oldest is dropped to make room.
pub const MAX_ENTRIES: usize = 256;

/// Methods whose results may be cached.
pub const CACHEABLE_METHODS: &[&str] = &[
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "server/discover",
];

/// The result's `cacheScope`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheScope {
    /// `"public"`: shareable across authorization contexts.
    Public,
    /// `"private"` (also when absent or unknown): for this authorization context only.
    Private,
}

/// One cached result.
#[derive(Debug, Clone, PartialEq)]
pub struct CacheEntry {
    /// The result as received.
    pub result: Value,
    /// When it was received (ms, caller's clock).
    pub received_ms: f64,
    /// Its `ttlMs` (> 0).
    pub ttl_ms: f64,
    /// Its `cacheScope`.
    pub scope: CacheScope,
    seq: u64,
}

impl CacheEntry {
    /// True while `now < received + ttlMs`.
    pub fn is_fresh(&self, now_ms: f64) -> bool {
        now_ms < self.received_ms + self.ttl_ms
    }
}

/// Cached results keyed by (method, cursor or uri).
#[derive(Debug, Default)]
pub struct ResponseCache {
    entries: SmallMap<(String, Option<String>), CacheEntry>,
    next_seq: u64,
}

/// The cache key of a request: `cursor` for list methods, `uri` for `resources/read`.
pub fn key_of(method: &str, params: &Value) -> Option<String> {
    let field = if method == "resources/read" {
        "uri"
    } else {
        "cursor"
    };
    params
        .get(field)
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// The `ttlMs` and `cacheScope` under which `method`'s `result` (asked with `params`) may be
/// cached, or `None`: not a cacheable method, not a complete object result, an MRTR retry, or
/// no positive finite `ttlMs`.
pub fn storable(method: &str, params: &Value, result: &Value) -> Option<(f64, CacheScope)> {
    let ttl_ms = result
        .get("ttlMs")
        .and_then(Value::as_f64)
        .unwrap_or(0.0)
        .max(0.0);
    let complete = match result.get("resultType") {
        None | Some(Value::Null) => true,
        Some(t) => t.as_str() == Some("complete"),
    };
    let retry = params.get("inputResponses").is_some() || params.get("requestState").is_some();
    if !CACHEABLE_METHODS.contains(&method)
        || !result.is_object()
        || !complete
        || retry
        || ttl_ms <= 0.0
        || !ttl_ms.is_finite()
    {
        return None;
    }
    let scope = match result.get("cacheScope").and_then(Value::as_str) {
        Some("public") => CacheScope::Public,
        _ => CacheScope::Private,
    };
    Some((ttl_ms, scope))
}

impl ResponseCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The cached result for (method, key) if still fresh; `key` as in [`key_of`].
    pub fn get(&self, method: &str, key: Option<&str>, now_ms: f64) -> Option<Value> {
        let entry = self
            .entries
            .get(&(method.to_string(), key.map(str::to_string)))?;
        entry.is_fresh(now_ms).then(|| entry.result.clone())
    }

    /// Stores `result` for (method, key) if the rules allow; returns whether it was stored.
    pub fn put(
        &mut self,
        method: &str,
        key: Option<&str>,
        params: &Value,
        result: &Value,
        now_ms: f64,
    ) -> bool {
        let Some((ttl_ms, scope)) = storable(method, params, result) else {
            return false;
        };
        let k = (method.to_string(), key.map(str::to_string));
        if !self.entries.contains_key(&k) && self.entries.len() >= MAX_ENTRIES {
            self.entries.retain(|_, e| e.is_fresh(now_ms));
            if self.entries.len() >= MAX_ENTRIES {
                let oldest = self.entries.iter().min_by_key(|(_, e)| e.seq);
                if let Some(oldest) = oldest.map(|(k, _)| k.clone()) {
                    self.entries.remove(&oldest);
                }
            }
        }
        self.next_seq += 1;
        let entry = CacheEntry {
            result: result.clone(),
            received_ms: now_ms,
            ttl_ms,
            scope,
            seq: self.next_seq,
        };
        self.entries.insert(k, entry);
        true
    }

    /// The stored entry for (method, key), fresh or not.
    pub fn entry(&self, method: &str, key: Option<&str>) -> Option<&CacheEntry> {
        self.entries
            .get(&(method.to_string(), key.map(str::to_string)))
    }

    /// Drops what a server notification makes stale (list_changed, resources/updated).
    pub fn invalidate_for_notification(&mut self, method: &str, params: &Value) {
        match method {
            "notifications/tools/list_changed" => self.drop_method("tools/list"),
            "notifications/prompts/list_changed" => self.drop_method("prompts/list"),
            "notifications/resources/list_changed" => {
                self.drop_method("resources/list");
                self.drop_method("resources/templates/list");
            }
            "notifications/resources/updated" => {
                if let Some(uri) = params.get("uri").and_then(Value::as_str) {
                    self.entries
                        .remove(&("resources/read".to_string(), Some(uri.to_string())));
                }
            }
            _ => {}
        }
    }

    /// Drops every page of one method.
    pub fn drop_method(&mut self, method: &str) {
        self.entries.retain(|(m, _), _| m != method);
    }

    /// Drops everything.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Number of stored entries (fresh or not).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    fn page(ttl: Value) -> Value {
        json!({"tools": [], "ttlMs": ttl, "cacheScope": "private", "resultType": "complete"})
    }

    #[test]
    fn fresh_until_ttl_elapses() {
        let mut c = ResponseCache::new();
        assert!(c.put("tools/list", None, &json!({}), &page(json!(1000)), 5000.0));
        assert_eq!(c.get("tools/list", None, 5000.0), Some(page(json!(1000))));
        assert!(c.get("tools/list", None, 5999.9).is_some());
        assert!(c.get("tools/list", None, 6000.0).is_none());
        assert_eq!(c.len(), 1);
    }

    #[test]
    fn ttl_missing_zero_or_negative_is_not_stored() {
        let mut c = ResponseCache::new();
        let no_ttl = json!({"tools": [], "resultType": "complete"});
        assert!(!c.put("tools/list", None, &json!({}), &no_ttl, 0.0));
        assert!(!c.put("tools/list", None, &json!({}), &page(json!(0)), 0.0));
        assert!(!c.put("tools/list", None, &json!({}), &page(json!(-5)), 0.0));
        assert!(!c.put("tools/list", None, &json!({}), &page(json!("100")), 0.0));
        assert!(c.is_empty());
    }

    #[test]
    fn each_page_separately_and_empty_cursor_is_its_own_page() {
        let mut c = ResponseCache::new();
        let p1 = json!({"tools": [1], "ttlMs": 100});
        let p2 = json!({"tools": [2], "ttlMs": 100});
        let p3 = json!({"tools": [3], "ttlMs": 100});
        c.put("tools/list", None, &json!({}), &p1, 0.0);
        c.put("tools/list", Some("c2"), &json!({"cursor": "c2"}), &p2, 0.0);
        c.put("tools/list", Some(""), &json!({"cursor": ""}), &p3, 0.0);
        assert_eq!(c.get("tools/list", None, 1.0), Some(p1));
        assert_eq!(c.get("tools/list", Some("c2"), 1.0), Some(p2));
        assert_eq!(c.get("tools/list", Some(""), 1.0), Some(p3));
        assert!(c.get("prompts/list", None, 1.0).is_none());
    }

    #[test]
    fn only_cacheable_methods() {
        let mut c = ResponseCache::new();
        let r = json!({"ttlMs": 100});
        for m in CACHEABLE_METHODS {
            assert!(c.put(m, None, &json!({}), &r, 0.0), "{m}");
        }
        for m in ["tools/call", "prompts/get", "completion/complete", "ping"] {
            assert!(!c.put(m, None, &json!({}), &r, 0.0), "{m}");
        }
        assert!(!c.put("tools/list", None, &json!({}), &json!([1]), 0.0));
    }

    #[test]
    fn never_mrtr_retries_or_non_complete_results() {
        let mut c = ResponseCache::new();
        let r = json!({"contents": [], "ttlMs": 100});
        let m = "resources/read";
        assert!(!c.put(
            m,
            Some("u"),
            &json!({"uri": "u", "inputResponses": {}}),
            &r,
            0.0
        ));
        assert!(!c.put(
            m,
            Some("u"),
            &json!({"uri": "u", "requestState": "s"}),
            &r,
            0.0
        ));
        let ir = json!({"resultType": "input_required", "inputRequests": {}, "ttlMs": 100});
        assert!(!c.put(m, Some("u"), &json!({"uri": "u"}), &ir, 0.0));
        let task = json!({"resultType": "task", "ttlMs": 100});
        assert!(!c.put(m, Some("u"), &json!({"uri": "u"}), &task, 0.0));
        assert!(c.is_empty());
        assert!(c.put(m, Some("u"), &json!({"uri": "u"}), &r, 0.0));
    }

    #[test]
    fn scope_is_kept() {
        let mut c = ResponseCache::new();
        c.put(
            "tools/list",
            None,
            &json!({}),
            &json!({"ttlMs": 9, "cacheScope": "public"}),
            0.0,
        );
        c.put(
            "prompts/list",
            None,
            &json!({}),
            &json!({"ttlMs": 9, "cacheScope": "private"}),
            0.0,
        );
        c.put(
            "resources/list",
            None,
            &json!({}),
            &json!({"ttlMs": 9}),
            0.0,
        );
        assert_eq!(
            c.entry("tools/list", None).unwrap().scope,
            CacheScope::Public
        );
        assert_eq!(
            c.entry("prompts/list", None).unwrap().scope,
            CacheScope::Private
        );
        assert_eq!(
            c.entry("resources/list", None).unwrap().scope,
            CacheScope::Private
        );
    }

    fn filled() -> ResponseCache {
        let mut c = ResponseCache::new();
        let r = json!({"ttlMs": 1000});
        for m in [
            "tools/list",
            "prompts/list",
            "resources/list",
            "resources/templates/list",
        ] {
            c.put(m, None, &json!({}), &r, 0.0);
            c.put(m, Some("p2"), &json!({"cursor": "p2"}), &r, 0.0);
        }
        c.put(
            "resources/read",
            Some("file:///a"),
            &json!({"uri": "file:///a"}),
            &r,
            0.0,
        );
        c.put(
            "resources/read",
            Some("file:///b"),
            &json!({"uri": "file:///b"}),
            &r,
            0.0,
        );
        c.put("server/discover", None, &json!({}), &r, 0.0);
        c
    }

    #[test]
    fn list_changed_invalidates_matching_lists() {
        let mut c = filled();
        c.invalidate_for_notification("notifications/tools/list_changed", &json!({}));
        assert!(c.get("tools/list", None, 1.0).is_none());
        assert!(c.get("tools/list", Some("p2"), 1.0).is_none());
        assert!(c.get("prompts/list", None, 1.0).is_some());
        assert_eq!(c.len(), 9);

        c.invalidate_for_notification("notifications/prompts/list_changed", &Value::Null);
        assert!(c.get("prompts/list", Some("p2"), 1.0).is_none());
        assert_eq!(c.len(), 7);

        c.invalidate_for_notification("notifications/resources/list_changed", &json!({}));
        assert!(c.get("resources/list", None, 1.0).is_none());
        assert!(c.get("resources/templates/list", Some("p2"), 1.0).is_none());
        assert!(c.get("resources/read", Some("file:///a"), 1.0).is_some());
        assert!(c.get("server/discover", None, 1.0).is_some());
        assert_eq!(c.len(), 3);
    }

    #[test]
    fn resource_updated_drops_that_uri_only() {
        let mut c = filled();
        let n = "notifications/resources/updated";
        c.invalidate_for_notification(n, &json!({"uri": "file:///a"}));
        assert!(c.get("resources/read", Some("file:///a"), 1.0).is_none());
        assert!(c.get("resources/read", Some("file:///b"), 1.0).is_some());
        c.invalidate_for_notification(n, &json!({}));
        c.invalidate_for_notification("notifications/message", &json!({"uri": "file:///b"}));
        assert_eq!(c.len(), 10);
    }

    #[test]
    fn clear_drops_everything() {
        let mut c = filled();
        c.clear();
        assert!(c.is_empty());
    }

    #[test]
    fn key_of_reads_cursor_or_uri() {
        assert_eq!(
            key_of("tools/list", &json!({"cursor": ""})).as_deref(),
            Some("")
        );
        assert_eq!(key_of("tools/list", &json!({})), None);
        assert_eq!(
            key_of("resources/read", &json!({"uri": "u"})).as_deref(),
            Some("u")
        );
        assert_eq!(key_of("server/discover", &Value::Null), None);
    }

    #[test]
    fn bounded_size_drops_oldest_then_expired_first() {
        let mut c = ResponseCache::new();
        let r = json!({"ttlMs": 1_000_000});
        for i in 0..MAX_ENTRIES {
            let k = i.to_string();
            assert!(c.put("tools/list", Some(&k), &json!({}), &r, i as f64));
        }
        assert_eq!(c.len(), MAX_ENTRIES);
        // Re-storing an existing key does not evict.
        c.put("tools/list", Some("5"), &json!({}), &r, 300.0);
        assert_eq!(c.len(), MAX_ENTRIES);
        c.put("tools/list", Some("new"), &json!({}), &r, 301.0);
        assert_eq!(c.len(), MAX_ENTRIES);
        assert!(c.entry("tools/list", Some("0")).is_none());
        assert!(c.entry("tools/list", Some("1")).is_some());
        assert!(c.entry("tools/list", Some("5")).is_some());

        // Expired entries go before any fresh one.
        let mut c = ResponseCache::new();
        c.put("tools/list", Some("old"), &json!({}), &r, 0.0);
        c.put("prompts/list", None, &json!({}), &json!({"ttlMs": 1}), 0.0);
        for i in 2..MAX_ENTRIES {
            c.put("resources/list", Some(&i.to_string()), &json!({}), &r, 0.0);
        }
        c.put("resources/list", Some("new"), &json!({}), &r, 10.0);
        assert!(c.entry("prompts/list", None).is_none());
        assert!(c.entry("tools/list", Some("old")).is_some());
    }
}
