//! Reading results: the 2026 `resultType` rule (missing means complete; unknown is invalid).

use crate::json::Value;
use crate::protocol::error::{McpError, INVALID_REQUEST};
use crate::protocol::model::list::{items, ListPage};
use crate::protocol::model::result::ResultHead;
use crate::protocol::model::Field;

/// What kind of result arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultKind {
    /// A final result (`resultType` absent or `"complete"`).
    Complete,
    /// A multi-round-trip interim result.
    InputRequired,
    /// A task was created (the 2026 tasks extension; `tools/call` only).
    Task,
}

/// Classifies a result by `resultType`; anything else is a protocol error naming the value.
pub fn result_kind(method: &str, result: &Value) -> Result<ResultKind, McpError> {
    if !result.is_object() {
        return Err(McpError::protocol(
            INVALID_REQUEST,
            format!(
                "The server's result for {method} is not a JSON object: {}",
                crate::protocol::error::truncate(&result.to_string(), 100)
            ),
        ));
    }
    let unknown = |other: Value| {
        McpError::protocol(
            INVALID_REQUEST,
            format!("The server's result for {method} has an unknown resultType {other}"),
        )
    };
    match ResultHead::read(result).unwrap_or_default().result_type {
        Field::Absent | Field::Null => Ok(ResultKind::Complete),
        Field::Wrong(other) => Err(unknown(other)),
        Field::Is(s) => match s.as_str() {
            "complete" => Ok(ResultKind::Complete),
            "input_required" => Ok(ResultKind::InputRequired),
            "task" if method == "tools/call" => Ok(ResultKind::Task),
            "task" => Err(McpError::protocol(
                INVALID_REQUEST,
                format!(
                    "The server answered {method} with a task, which only tools/call may return"
                ),
            )),
            _ => Err(unknown(Value::String(s))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn result_types() {
        assert_eq!(result_kind("m", &json!({})).unwrap(), ResultKind::Complete);
        assert_eq!(
            result_kind("m", &json!({"resultType": "complete"})).unwrap(),
            ResultKind::Complete
        );
        assert_eq!(
            result_kind("m", &json!({"resultType": "input_required"})).unwrap(),
            ResultKind::InputRequired
        );
        assert_eq!(
            result_kind("tools/call", &json!({"resultType": "task"})).unwrap(),
            ResultKind::Task
        );
        assert!(result_kind("prompts/get", &json!({"resultType": "task"}))
            .unwrap_err()
            .message
            .contains("only tools/call"));
        assert!(result_kind("tools/call", &json!({"resultType": "tasks"}))
            .unwrap_err()
            .message
            .contains("\"tasks\""));
        assert!(result_kind("m", &json!({"resultType": 7}))
            .unwrap_err()
            .message
            .ends_with("has an unknown resultType 7"));
        assert_eq!(
            result_kind("m", &json!({"resultType": null})).unwrap(),
            ResultKind::Complete
        );
        assert!(result_kind("m", &json!([1])).is_err());
    }
}

/// Pagination: the `nextCursor` of a list result; `None` is the end, and an empty string is a
/// valid cursor, not the end.
pub fn next_cursor(result: &Value) -> Option<String> {
    ListPage::read(result)?.next_cursor.into_ok()
}

/// The params of a list's next page: the first page's (every field the caller gave, such as a
/// directory read's `uri` or `_meta`) with `cursor` set to the server's `nextCursor`.
pub fn next_page_params(first: Option<&Value>, cursor: String) -> Value {
    let mut next = match first {
        Some(Value::Object(o)) => o.clone(),
        _ => crate::json::Map::new(),
    };
    next.insert("cursor".into(), Value::String(cursor));
    Value::Object(next)
}

/// Collects the pages of a list into one result: items of `key` concatenated, the last page's
/// other fields kept, no `nextCursor`.
#[derive(Debug, Default)]
pub struct Pages {
    items: Vec<Value>,
    seen_cursors: Vec<String>,
    pages: u32,
}

impl Pages {
    /// Adds one page; returns the cursor of the next page to fetch, if any. Errors when the
    /// server repeats a cursor (it would loop forever) or the page cap is reached.
    pub fn add(
        &mut self,
        method: &str,
        key: &str,
        page: &Value,
        max_pages: u32,
    ) -> Result<Option<String>, McpError> {
        self.pages += 1;
        if let Some(items) = items(page, key) {
            self.items.extend(items.iter().cloned());
        }
        let Some(cursor) = next_cursor(page) else {
            return Ok(None);
        };
        if self.seen_cursors.contains(&cursor) {
            return Err(McpError::protocol(
                INVALID_REQUEST,
                format!(
                    "{method}: the server returned cursor {} twice; stopping instead of looping",
                    crate::util::quote::quoted(&cursor)
                ),
            ));
        }
        if self.pages >= max_pages {
            return Err(McpError::local(
                INVALID_REQUEST,
                crate::protocol::error::ErrorKind::Protocol,
                format!("{method}: more than {max_pages} pages; raise maxPages to fetch more"),
                crate::json::json!({ "maxPages": max_pages }),
            ));
        }
        self.seen_cursors.push(cursor.clone());
        Ok(Some(cursor))
    }

    /// The aggregated result.
    pub fn finish(self, key: &str, mut last: Value) -> Value {
        if let Some(o) = last.as_object_mut() {
            o.remove("nextCursor");
            o.insert(key.to_string(), Value::Array(self.items));
        }
        last
    }
}

#[cfg(test)]
mod pagination_tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn the_next_page_keeps_the_first_pages_params() {
        let first = json!({ "uri": "skill://a", "cursor": "old", "_meta": { "k": 1 } });
        assert_eq!(
            next_page_params(Some(&first), "c2".into()),
            json!({ "uri": "skill://a", "cursor": "c2", "_meta": { "k": 1 } })
        );
        assert_eq!(next_page_params(None, "c".into()), json!({ "cursor": "c" }));
    }

    #[test]
    fn empty_cursor_is_a_cursor() {
        assert_eq!(next_cursor(&json!({"nextCursor": ""})).as_deref(), Some(""));
        assert_eq!(next_cursor(&json!({})), None);
        assert_eq!(next_cursor(&json!({"nextCursor": 3})), None);
        assert_eq!(next_cursor(&json!([])), None);
    }

    #[test]
    fn pages_aggregate_and_stop_on_loops_and_caps() {
        let mut p = Pages::default();
        assert_eq!(
            p.add(
                "tools/list",
                "tools",
                &json!({"tools": [1], "nextCursor": ""}),
                10
            )
            .unwrap()
            .as_deref(),
            Some("")
        );
        assert_eq!(
            p.add(
                "tools/list",
                "tools",
                &json!({"tools": [2], "nextCursor": "b"}),
                10
            )
            .unwrap()
            .as_deref(),
            Some("b")
        );
        assert_eq!(
            p.add("tools/list", "tools", &json!({"tools": [3]}), 10)
                .unwrap(),
            None
        );
        assert_eq!(
            p.finish("tools", json!({"tools": [3], "ttlMs": 5})),
            json!({"tools": [1, 2, 3], "ttlMs": 5})
        );
        let mut p = Pages::default();
        p.add("m", "tools", &json!({"nextCursor": "a"}), 10)
            .unwrap();
        assert!(p
            .add("m", "tools", &json!({"nextCursor": "a"}), 10)
            .unwrap_err()
            .message
            .contains("twice"));
        let mut p = Pages::default();
        p.add("m", "tools", &json!({"nextCursor": "a"}), 2).unwrap();
        assert!(p
            .add("m", "tools", &json!({"nextCursor": "b"}), 2)
            .unwrap_err()
            .message
            .contains("more than 2 pages"));
    }
}
