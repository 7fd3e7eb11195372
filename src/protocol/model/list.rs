//! A page of a list result (`tools/list`, `prompts/list`, `resources/list`, …,
//! `skills/list`): its items under the method's key, `nextCursor`, and the 2026
//! `CacheableResult` fields. The items themselves are passed to JS as sent.

use super::{view, Field};
use crate::json::Value;
use serde::Deserialize;

/// The fields every list page shares.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ListPage {
    /// The next page's cursor: absent (or not a string) is the end; `""` is a cursor.
    pub next_cursor: Field<String>,
    /// How long the page may be reused, in ms (2026).
    pub ttl_ms: Field<f64>,
    /// `"public"` or `"private"` (2026).
    pub cache_scope: Field<String>,
}

impl ListPage {
    /// Reads a page (`None` when it is not an object).
    pub fn read(v: &Value) -> Option<Self> {
        view(v)
    }

    /// The cursor of the next page, if any.
    pub fn cursor(&self) -> Option<&str> {
        self.next_cursor.ok().map(String::as_str)
    }
}

/// The items of a page under `key` (`tools`, `prompts`, …: the method's, so not a fixed
/// field name), when they are an array.
pub fn items<'a>(page: &'a Value, key: &str) -> Option<&'a Vec<Value>> {
    page.as_object()?.get(key)?.as_array()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn a_page_and_its_cursor() {
        let v = json!({"tools": [1, 2], "nextCursor": "c", "ttlMs": 5, "cacheScope": "public"});
        let p = ListPage::read(&v).unwrap();
        assert_eq!(p.cursor(), Some("c"));
        assert_eq!(p.ttl_ms, Field::Is(5.0));
        assert_eq!(p.cache_scope.ok().map(String::as_str), Some("public"));
        assert_eq!(items(&v, "tools").unwrap().len(), 2);
        assert_eq!(
            ListPage::read(&json!({"nextCursor": ""})).unwrap().cursor(),
            Some("")
        );
    }

    #[test]
    fn wrong_types_end_the_list() {
        let p = ListPage::read(&json!({"nextCursor": 7, "ttlMs": "x", "tools": {}})).unwrap();
        assert_eq!(p.cursor(), None);
        assert_eq!(p.next_cursor, Field::Wrong(json!(7)));
        assert!(matches!(p.ttl_ms, Field::Wrong(_)));
        assert!(items(&json!({"tools": {}}), "tools").is_none());
        assert!(ListPage::read(&json!([])).is_none());
    }
}
