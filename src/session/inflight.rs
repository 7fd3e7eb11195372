//! The in-flight table: one slot per outstanding request id, filled by whichever stream
//! carries the response (the POST's own stream or, in legacy, the GET stream) through a
//! [`oneshot`] channel to whoever waits for it.

use crate::json::Value;
use crate::protocol::error::McpError;
use crate::protocol::jsonrpc::RequestId;
use crate::util::oneshot;
use crate::util::small_map::SmallMap;

/// The outcome a waiting request receives.
pub type Outcome = Result<Value, McpError>;

/// Outstanding requests keyed by id.
#[derive(Debug, Default)]
pub struct InFlight {
    slots: SmallMap<RequestId, oneshot::Sender<Outcome>>,
}

impl InFlight {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `id`; the receiver resolves when a response for it is delivered.
    pub fn register(&mut self, id: RequestId) -> oneshot::Receiver<Outcome> {
        let (tx, rx) = oneshot::channel();
        self.slots.insert(id, tx);
        rx
    }

    /// Delivers a response; false when no request with that id is waiting (unknown or duplicate).
    pub fn deliver(&mut self, id: &RequestId, outcome: Outcome) -> bool {
        match self.slots.remove(id) {
            Some(tx) => tx.send(outcome).is_ok(),
            None => false,
        }
    }

    /// True while a request with `id` is waiting.
    pub fn contains(&self, id: &RequestId) -> bool {
        self.slots.contains_key(id)
    }

    /// Forgets `id` (the caller gave up: timeout, abort).
    pub fn forget(&mut self, id: &RequestId) {
        self.slots.remove(id);
    }

    /// Fails every waiting request with `error` (on close).
    pub fn fail_all(&mut self, error: &McpError) {
        for (_, tx) in self.slots.drain() {
            let _ = tx.send(Err(error.clone()));
        }
    }

    /// How many requests are waiting.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True when nothing is waiting.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;
    use futures::executor::block_on;

    #[test]
    fn delivers_once_by_id() {
        let mut t = InFlight::new();
        let a = t.register(RequestId::Num(1));
        let b = t.register(RequestId::Str("x".into()));
        assert!(t.deliver(&RequestId::Str("x".into()), Ok(json!(2))));
        assert!(
            !t.deliver(&RequestId::Str("x".into()), Ok(json!(3))),
            "duplicate is refused"
        );
        assert!(
            !t.deliver(&RequestId::Num(9), Ok(json!(0))),
            "unknown id is refused"
        );
        assert_eq!(block_on(b).unwrap().unwrap(), json!(2));
        t.fail_all(&McpError::closed("closed"));
        assert!(block_on(a).unwrap().is_err());
        assert!(t.is_empty());
    }

    #[test]
    fn forget_drops_the_slot() {
        let mut t = InFlight::new();
        let rx = t.register(RequestId::Num(1));
        t.forget(&RequestId::Num(1));
        assert_eq!(t.len(), 0);
        assert!(block_on(rx).is_err(), "sender dropped");
    }
}
