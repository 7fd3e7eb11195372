//! The in-flight table: one slot per outstanding request id, filled by whichever stream
//! carries the response (the POST's own stream or, in legacy, the GET stream); and the
//! single-threaded one-shot channel that carries an [`Outcome`] to whoever waits for it.

use crate::json::Value;
use crate::protocol::error::McpError;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::small_map::SmallMap;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// The outcome a waiting request receives.
pub type Outcome = Result<Value, McpError>;

/// One-shot channels of one [`Outcome`] (single-threaded: no atomics, one allocation).
pub mod oneshot {
    use super::*;

    #[derive(Debug, Default)]
    struct Slot {
        value: Option<Outcome>,
        waker: Option<Waker>,
        sender_gone: bool,
        receiver_gone: bool,
    }

    /// The sending half; dropping it unsent cancels the receiver.
    #[derive(Debug)]
    pub struct Sender(Rc<RefCell<Slot>>);

    /// The receiving half: a future of the outcome, or [`Canceled`] when the sender went away.
    #[derive(Debug)]
    pub struct Receiver(Rc<RefCell<Slot>>);

    /// The sender was dropped without sending.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Canceled;

    /// A new channel.
    pub fn channel() -> (Sender, Receiver) {
        let slot = Rc::new(RefCell::new(Slot::default()));
        (Sender(slot.clone()), Receiver(slot))
    }

    fn wake(slot: &RefCell<Slot>) {
        let waker = slot.borrow_mut().waker.take();
        if let Some(w) = waker {
            w.wake();
        }
    }

    impl Sender {
        /// Sends `value`; gives it back when the receiver is gone.
        pub fn send(self, value: Outcome) -> Result<(), Outcome> {
            if self.0.borrow().receiver_gone {
                return Err(value);
            }
            self.0.borrow_mut().value = Some(value);
            wake(&self.0);
            Ok(())
        }
    }

    impl Drop for Sender {
        fn drop(&mut self) {
            self.0.borrow_mut().sender_gone = true;
            wake(&self.0);
        }
    }

    impl Receiver {
        /// The outcome if it was sent, `None` while it may still come.
        pub fn try_recv(&mut self) -> Result<Option<Outcome>, Canceled> {
            let mut slot = self.0.borrow_mut();
            match slot.value.take() {
                Some(v) => Ok(Some(v)),
                None if slot.sender_gone => Err(Canceled),
                None => Ok(None),
            }
        }
    }

    impl Drop for Receiver {
        fn drop(&mut self) {
            let value = {
                let mut slot = self.0.borrow_mut();
                slot.receiver_gone = true;
                slot.waker = None;
                slot.value.take()
            };
            drop(value);
        }
    }

    impl Future for Receiver {
        type Output = Result<Outcome, Canceled>;

        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            match self.try_recv() {
                Ok(Some(v)) => Poll::Ready(Ok(v)),
                Err(c) => Poll::Ready(Err(c)),
                Ok(None) => {
                    self.0.borrow_mut().waker = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        }
    }
}

/// Outstanding requests keyed by id.
#[derive(Debug, Default)]
pub struct InFlight {
    slots: SmallMap<RequestId, oneshot::Sender>,
}

impl InFlight {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `id`; the receiver resolves when a response for it is delivered.
    pub fn register(&mut self, id: RequestId) -> oneshot::Receiver {
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
