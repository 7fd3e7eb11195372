//! `listen()`: what a subscription filter asks for, what the server honoured, and which
//! notifications a subscription receives (2026 `subscriptions/listen`, or the legacy GET stream
//! plus `resources/subscribe`).

use crate::json::{json, Map, Value};
use crate::protocol::error::McpError;
use crate::protocol::model::initialize::ServerCapabilities;
use crate::protocol::model::subscription::{Honoured, NotificationTarget};
use crate::protocol::model::Field;
use crate::util::oneshot;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

/// `_meta` key naming the listen request a notification belongs to.
pub const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

const FLAGS: [&str; 3] = [
    "toolsListChanged",
    "promptsListChanged",
    "resourcesListChanged",
];

/// Checks and normalizes a filter: the three booleans and `resourceSubscriptions` (strings).
pub fn normalize_filter(filter: &Value) -> Result<Value, McpError> {
    let bad = |m: String| McpError::input(m);
    let mut out = Map::new();
    let empty = Map::new();
    let obj = match filter {
        Value::Null => &empty,
        Value::Object(o) => o,
        _ => return Err(bad("listen: the filter must be an object".into())),
    };
    for (k, v) in obj {
        match (k.as_str(), v) {
            (f, Value::Bool(b)) if FLAGS.contains(&f) => {
                if *b {
                    out.insert(k.clone(), json!(true));
                }
            }
            ("resourceSubscriptions", Value::Array(uris)) if uris.iter().all(Value::is_string) => {
                if !uris.is_empty() {
                    out.insert(k.clone(), v.clone());
                }
            }
            ("resourceSubscriptions", _) => {
                return Err(bad(
                    "listen: resourceSubscriptions must be an array of URI strings".into(),
                ))
            }
            // 2026 tasks extension: notifications/tasks for these tasks.
            ("taskIds", Value::Array(ids)) if ids.iter().all(Value::is_string) => {
                if !ids.is_empty() {
                    out.insert(k.clone(), v.clone());
                }
            }
            ("taskIds", _) => {
                return Err(bad(
                    "listen: taskIds must be an array of task id strings".into()
                ))
            }
            (f, _) if FLAGS.contains(&f) => {
                return Err(bad(format!("listen: {f} must be a boolean")))
            }
            (other, _) => {
                return Err(bad([
                    "listen: unknown filter key ",
                    &crate::util::quote::quoted(other),
                ]
                .concat()))
            }
        }
    }
    if out.is_empty() {
        return Err(bad("listen: the filter asks for nothing; set toolsListChanged, promptsListChanged, resourcesListChanged, resourceSubscriptions or taskIds".into()));
    }
    Ok(Value::Object(out))
}

/// Legacy: what the server will deliver, from its capabilities and the URIs it accepted.
pub fn legacy_honoured(
    requested: &Value,
    server_capabilities: &Value,
    subscribed: &[String],
) -> Value {
    let mut out = Map::new();
    let offered = ServerCapabilities::read(Some(server_capabilities));
    let caps = [
        ("toolsListChanged", "tools"),
        ("promptsListChanged", "prompts"),
        ("resourcesListChanged", "resources"),
    ];
    for (flag, cap) in caps {
        let asked = requested.get(flag).and_then(Value::as_bool) == Some(true);
        let offered = offered.list_changed(cap);
        if asked && offered {
            out.insert(flag.into(), json!(true));
        }
    }
    if !subscribed.is_empty() {
        out.insert("resourceSubscriptions".into(), json!(subscribed));
    }
    Value::Object(out)
}

/// True when a notification falls under an honoured filter.
pub fn matches(honoured: &Value, method: &str, params: &Value) -> bool {
    let honoured = Honoured::read(honoured);
    let flag = |f: &Field<bool>| f.ok() == Some(&true);
    match method {
        "notifications/tools/list_changed" => flag(&honoured.tools_list_changed),
        "notifications/prompts/list_changed" => flag(&honoured.prompts_list_changed),
        "notifications/resources/list_changed" => flag(&honoured.resources_list_changed),
        "notifications/resources/updated" => {
            let target = NotificationTarget::read(params);
            let uri = target.uri.ok().map_or("", String::as_str);
            honoured.resource_subscriptions.ok().is_some_and(|subs| {
                subs.iter()
                    .filter_map(Value::as_str)
                    .any(|s| uri == s || uri.starts_with(&format!("{}/", s.trim_end_matches('/'))))
            })
        }
        "notifications/tasks" => {
            let id = match NotificationTarget::read(params).task_id {
                Field::Absent => None,
                Field::Null => Some(Value::Null),
                Field::Wrong(v) | Field::Is(v) => Some(v),
            };
            honoured
                .task_ids
                .ok()
                .is_some_and(|ids| id.is_some_and(|id| ids.contains(&id)))
        }
        _ => false,
    }
}

/// One subscription's queue of notifications (or the error that ended it), read in order by
/// `next()`; filled by whichever stream delivers them.
#[derive(Debug, Default)]
pub struct ListenQueue {
    queue: RefCell<VecDeque<Result<Value, McpError>>>,
    waiter: RefCell<Option<oneshot::Sender<crate::session::inflight::Outcome>>>,
    done: Cell<bool>,
    /// What the server will deliver (the acknowledged or legacy-honoured filter).
    pub honoured: RefCell<Value>,
}

impl ListenQueue {
    /// Queues a notification (or the error that ends the stream); ignored once finished.
    pub fn push(&self, item: Result<Value, McpError>) {
        if self.done.get() {
            return;
        }
        self.queue.borrow_mut().push_back(item);
        self.wake();
    }

    /// No more items will come; `next()` drains what is queued, then ends.
    pub fn finish(&self) {
        self.done.set(true);
        self.wake();
    }

    /// True once finished.
    pub fn is_done(&self) -> bool {
        self.done.get()
    }

    /// Takes the first queued item, if any (without waiting).
    pub fn pop(&self) -> Option<Result<Value, McpError>> {
        self.queue.borrow_mut().pop_front()
    }

    fn wake(&self) {
        if let Some(w) = self.waiter.borrow_mut().take() {
            let _ = w.send(Ok(Value::Null));
        }
    }

    /// True when a notification falls under this subscription.
    pub fn wants(&self, method: &str, params: &Value) -> bool {
        !self.done.get() && matches(&self.honoured.borrow(), method, params)
    }

    /// The next notification; `Ok(None)` once finished and drained.
    pub async fn next(&self) -> Result<Option<Value>, McpError> {
        loop {
            if let Some(item) = self.pop() {
                return item.map(Some);
            }
            if self.done.get() {
                return Ok(None);
            }
            let (tx, rx) = oneshot::channel();
            *self.waiter.borrow_mut() = Some(tx);
            let _ = rx.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_are_checked() {
        assert_eq!(
            normalize_filter(&json!({"toolsListChanged": true, "promptsListChanged": false}))
                .unwrap(),
            json!({"toolsListChanged": true})
        );
        assert!(normalize_filter(&json!({}))
            .unwrap_err()
            .message
            .contains("asks for nothing"));
        assert!(normalize_filter(&json!({"toolsListChanged": "yes"})).is_err());
        assert!(normalize_filter(&json!({"resourceSubscriptions": [1]})).is_err());
        assert_eq!(
            normalize_filter(&json!({"taskIds": ["t-1"]})).unwrap(),
            json!({"taskIds": ["t-1"]})
        );
        assert!(normalize_filter(&json!({"taskIds": [1]}))
            .unwrap_err()
            .message
            .contains("taskIds"));
        let honoured = json!({"taskIds": ["t-1"]});
        assert!(matches(
            &honoured,
            "notifications/tasks",
            &json!({"taskId": "t-1"})
        ));
        assert!(!matches(
            &honoured,
            "notifications/tasks",
            &json!({"taskId": "t-2"})
        ));
        assert!(!matches(
            &json!({}),
            "notifications/tasks",
            &json!({"taskId": "t-1"})
        ));
        assert!(normalize_filter(&json!({"everything": true}))
            .unwrap_err()
            .message
            .contains("unknown filter key"));
    }

    #[test]
    fn legacy_honours_what_the_server_offers() {
        let requested = json!({"toolsListChanged": true, "promptsListChanged": true, "resourceSubscriptions": ["a://x", "a://y"]});
        let caps = json!({"tools": {"listChanged": true}, "prompts": {}});
        assert_eq!(
            legacy_honoured(&requested, &caps, &["a://x".to_string()]),
            json!({"toolsListChanged": true, "resourceSubscriptions": ["a://x"]})
        );
    }

    #[test]
    fn matching() {
        let h = json!({"toolsListChanged": true, "resourceSubscriptions": ["file:///dir"]});
        assert!(matches(
            &h,
            "notifications/tools/list_changed",
            &Value::Null
        ));
        assert!(!matches(
            &h,
            "notifications/prompts/list_changed",
            &Value::Null
        ));
        assert!(matches(
            &h,
            "notifications/resources/updated",
            &json!({"uri": "file:///dir"})
        ));
        assert!(matches(
            &h,
            "notifications/resources/updated",
            &json!({"uri": "file:///dir/a.txt"})
        ));
        assert!(!matches(
            &h,
            "notifications/resources/updated",
            &json!({"uri": "file:///dirt"})
        ));
        assert!(!matches(&h, "notifications/message", &Value::Null));
    }

    #[test]
    fn the_queue_delivers_in_order_then_ends() {
        let q = ListenQueue::default();
        q.push(Ok(json!(1)));
        q.push(Err(McpError::input("x")));
        q.finish();
        q.push(Ok(json!(3)));
        futures::executor::block_on(async {
            assert_eq!(q.next().await.unwrap(), Some(json!(1)));
            assert!(q.next().await.is_err());
            assert_eq!(q.next().await.unwrap(), None);
        });
    }
}
