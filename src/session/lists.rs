//! The lists a client keeps for UIs (`client.tools`, `client.prompts`, `client.resources`) and
//! the connection state it shows (`client.state`): which notification changes which list, which
//! request fetches it, and when a listing is the complete list.

use crate::json::Value;
use crate::protocol::model::list::{items, ListPage};

/// A list the client keeps up to date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    /// `tools/list` → `tools`.
    Tools,
    /// `prompts/list` → `prompts`.
    Prompts,
    /// `resources/list` → `resources`.
    Resources,
}

impl ListKind {
    /// Every kind, in the order of [`ListKind::index`].
    pub const ALL: [ListKind; 3] = [ListKind::Tools, ListKind::Prompts, ListKind::Resources];

    /// The kind a `…/list` method fetches.
    pub fn from_method(method: &str) -> Option<ListKind> {
        Self::ALL.into_iter().find(|k| k.method() == method)
    }

    /// The kind a `notifications/…/list_changed` announces a change of.
    pub fn from_notification(method: &str) -> Option<ListKind> {
        Self::ALL.into_iter().find(|k| k.notification() == method)
    }

    /// The request that lists it.
    pub fn method(self) -> &'static str {
        match self {
            ListKind::Tools => "tools/list",
            ListKind::Prompts => "prompts/list",
            ListKind::Resources => "resources/list",
        }
    }

    /// The notification that announces a change.
    pub fn notification(self) -> &'static str {
        match self {
            ListKind::Tools => "notifications/tools/list_changed",
            ListKind::Prompts => "notifications/prompts/list_changed",
            ListKind::Resources => "notifications/resources/list_changed",
        }
    }

    /// The result's key (and the client's getter).
    pub fn key(self) -> &'static str {
        match self {
            ListKind::Tools => "tools",
            ListKind::Prompts => "prompts",
            ListKind::Resources => "resources",
        }
    }

    /// Its slot in a table of the three.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The complete list in a listing: `Some(items)` when the request started at the beginning
/// (no `cursor` in `params`) and the result ends it (no `nextCursor`); `None` for one page of
/// several or a malformed result.
pub fn complete_list(kind: ListKind, params: Option<&Value>, result: &Value) -> Option<Value> {
    let from_start = params.is_none_or(|p| p.get("cursor").is_none());
    let ends = ListPage::read(result)?.next_cursor.is_missing();
    let items = items(result, kind.key())?;
    (from_start && ends).then(|| Value::Array(items.clone()))
}

/// `client.state`: where the connection is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Phase {
    /// Made, not connected yet.
    #[default]
    Idle,
    /// `connect()` is under way.
    Connecting,
    /// Connected.
    Connected,
    /// `close()` was called.
    Closed,
    /// `connect()` failed, or the connection was lost for good.
    Failed,
}

impl Phase {
    /// Its name in JavaScript.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Connecting => "connecting",
            Phase::Connected => "connected",
            Phase::Closed => "closed",
            Phase::Failed => "failed",
        }
    }

    /// Whether moving from `self` to `to` is a change to show: nothing leaves `closed`, and a
    /// phase does not change into itself.
    pub fn moves_to(self, to: Phase) -> bool {
        self != to && self != Phase::Closed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn kinds_map_methods_notifications_and_keys() {
        for k in ListKind::ALL {
            assert_eq!(ListKind::from_method(k.method()), Some(k));
            assert_eq!(ListKind::from_notification(k.notification()), Some(k));
            assert_eq!(ListKind::ALL[k.index()], k);
        }
        assert_eq!(ListKind::from_method("resources/templates/list"), None);
        assert_eq!(
            ListKind::from_notification("notifications/roots/list_changed"),
            None
        );
        assert_eq!(ListKind::Prompts.key(), "prompts");
    }

    #[test]
    fn only_a_listing_from_the_start_to_the_end_is_the_complete_list() {
        let k = ListKind::Tools;
        let done = json!({ "tools": [{ "name": "a" }] });
        assert_eq!(
            complete_list(k, None, &done),
            Some(json!([{ "name": "a" }]))
        );
        let meta = json!({ "_meta": { "x": 1 } });
        assert!(complete_list(k, Some(&meta), &done).is_some());
        assert!(complete_list(k, Some(&json!({ "cursor": "c" })), &done).is_none());
        let more = json!({ "tools": [], "nextCursor": "" });
        assert!(
            complete_list(k, None, &more).is_none(),
            "an empty cursor is a cursor"
        );
        assert!(complete_list(k, None, &json!({ "tools": [], "nextCursor": null })).is_some());
        assert!(complete_list(k, None, &json!({ "tools": 5 })).is_none());
        assert!(complete_list(ListKind::Prompts, None, &done).is_none());
    }

    #[test]
    fn closed_is_final_and_a_phase_is_no_change_into_itself() {
        assert!(Phase::Idle.moves_to(Phase::Connecting));
        assert!(Phase::Connected.moves_to(Phase::Failed));
        assert!(Phase::Failed.moves_to(Phase::Connecting));
        assert!(!Phase::Connected.moves_to(Phase::Connected));
        assert!(!Phase::Closed.moves_to(Phase::Failed));
        assert_eq!(Phase::default().name(), "idle");
    }
}
