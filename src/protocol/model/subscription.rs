//! Subscriptions (2026 `subscriptions/listen`, or the legacy GET stream): the honoured filter
//! (the server's `notifications/subscriptions/acknowledged`, or what the client computed for a
//! legacy server) and the params of the notifications a filter selects.

use super::{view, Field};
use crate::json::Value;
use serde::Deserialize;

/// What a subscription receives (`{ toolsListChanged?, …, resourceSubscriptions?, taskIds? }`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Honoured {
    /// `notifications/tools/list_changed`.
    pub tools_list_changed: Field<bool>,
    /// `notifications/prompts/list_changed`.
    pub prompts_list_changed: Field<bool>,
    /// `notifications/resources/list_changed`.
    pub resources_list_changed: Field<bool>,
    /// `notifications/resources/updated` for these URIs (and what is under them).
    pub resource_subscriptions: Field<Vec<Value>>,
    /// 2026 tasks extension: `notifications/tasks` for these tasks.
    pub task_ids: Field<Vec<Value>>,
}

impl Honoured {
    /// Reads an honoured filter (empty when not an object).
    pub fn read(v: &Value) -> Self {
        view(v).unwrap_or_default()
    }
}

/// `notifications/subscriptions/acknowledged` params: what the server honours.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Acknowledged {
    /// The honoured filter as sent (kept whole: the subscription holds it).
    pub notifications: Field<Value>,
}

/// The params of a notification a filter selects by what it names.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NotificationTarget {
    /// `notifications/resources/updated`: the resource.
    pub uri: Field<String>,
    /// `notifications/tasks`: the task (compared with the filter's ids as sent).
    pub task_id: Field<Value>,
}

impl NotificationTarget {
    /// Reads notification params (empty when not an object).
    pub fn read(v: &Value) -> Self {
        view(v).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn an_honoured_filter_and_notification_targets() {
        let h = Honoured::read(
            &json!({"toolsListChanged": true, "resourceSubscriptions": ["a"],
            "taskIds": "t", "other": 1}),
        );
        assert_eq!(h.tools_list_changed, Field::Is(true));
        assert_eq!(h.prompts_list_changed, Field::Absent);
        assert_eq!(h.resource_subscriptions.ok().map(Vec::len), Some(1));
        assert!(matches!(h.task_ids, Field::Wrong(_)));
        assert_eq!(Honoured::read(&Value::Null), Honoured::default());
        let t = NotificationTarget::read(&json!({"uri": "file:///a", "taskId": 5}));
        assert_eq!(
            (t.uri.ok().map(String::as_str), t.task_id),
            (Some("file:///a"), Field::Is(json!(5)))
        );
        let a: Acknowledged = view(&json!({"notifications": {"toolsListChanged": true}})).unwrap();
        assert_eq!(
            a.notifications.into_ok(),
            Some(json!({"toolsListChanged": true}))
        );
    }
}
