//! A single-threaded one-shot channel: one value from one sender to one receiver (no atomics,
//! one allocation). The in-flight table's waiters and the JS timers use it; [`Waiting`] files
//! channels by id for values delivered from outside by that id.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

#[derive(Debug)]
struct Slot<T> {
    value: Option<T>,
    waker: Option<Waker>,
    sender_gone: bool,
    receiver_gone: bool,
}

/// The sending half; dropping it unsent cancels the receiver.
#[derive(Debug)]
pub struct Sender<T>(Rc<RefCell<Slot<T>>>);

/// The receiving half: a future of the value, or [`Canceled`] when the sender went away.
#[derive(Debug)]
pub struct Receiver<T>(Rc<RefCell<Slot<T>>>);

/// The sender was dropped without sending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Canceled;

/// A new channel.
pub fn channel<T>() -> (Sender<T>, Receiver<T>) {
    let slot = Rc::new(RefCell::new(Slot {
        value: None,
        waker: None,
        sender_gone: false,
        receiver_gone: false,
    }));
    (Sender(slot.clone()), Receiver(slot))
}

fn wake<T>(slot: &RefCell<Slot<T>>) {
    let waker = slot.borrow_mut().waker.take();
    if let Some(w) = waker {
        w.wake();
    }
}

impl<T> Sender<T> {
    /// Sends `value`; gives it back when the receiver is gone.
    pub fn send(self, value: T) -> Result<(), T> {
        if self.0.borrow().receiver_gone {
            return Err(value);
        }
        self.0.borrow_mut().value = Some(value);
        wake(&self.0);
        Ok(())
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        self.0.borrow_mut().sender_gone = true;
        wake(&self.0);
    }
}

impl<T> Receiver<T> {
    /// The value if it was sent, `None` while it may still come.
    pub fn try_recv(&mut self) -> Result<Option<T>, Canceled> {
        let mut slot = self.0.borrow_mut();
        match slot.value.take() {
            Some(v) => Ok(Some(v)),
            None if slot.sender_gone => Err(Canceled),
            None => Ok(None),
        }
    }
}

impl<T> Drop for Receiver<T> {
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

impl<T> Future for Receiver<T> {
    type Output = Result<T, Canceled>;

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

/// Channels filed by id, for values delivered from outside by that id: one JS callback made once
/// is told the id (the JS timers, the promises a call awaits) instead of a closure per wait.
#[derive(Debug)]
pub struct Waiting<T> {
    next: Cell<u32>,
    senders: RefCell<Vec<(u32, Sender<T>)>>,
}

impl<T> Waiting<T> {
    /// An empty table (`const`: it can be a `thread_local!`'s).
    pub const fn new() -> Self {
        Waiting {
            next: Cell::new(0),
            senders: RefCell::new(Vec::new()),
        }
    }

    /// A new channel filed under a fresh id: the id, and its receiver.
    pub fn open(&self) -> (u32, Receiver<T>) {
        let id = self.next.get();
        self.next.set(id.wrapping_add(1));
        let (tx, rx) = channel();
        self.senders.borrow_mut().push((id, tx));
        (id, rx)
    }

    /// The sender filed under `id`, taken out (to send; dropped, it cancels the receiver), or
    /// `None` when it was taken already.
    pub fn take(&self, id: u32) -> Option<Sender<T>> {
        let mut senders = self.senders.borrow_mut();
        let at = senders.iter().position(|(i, _)| *i == id)?;
        Some(senders.swap_remove(at).1)
    }
}

impl<T> Default for Waiting<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_delivers_by_id_once_and_cancels_what_is_dropped() {
        let waiting = Waiting::new();
        let (a, mut rx_a) = waiting.open();
        let (b, mut rx_b) = waiting.open();
        assert_ne!(a, b);
        assert!(waiting.take(b).unwrap().send("b").is_ok());
        assert_eq!(rx_b.try_recv(), Ok(Some("b")));
        assert!(waiting.take(b).is_none(), "delivered once");
        assert_eq!(rx_a.try_recv(), Ok(None));
        drop(waiting.take(a));
        assert_eq!(rx_a.try_recv(), Err(Canceled));
        assert!(waiting.take(99).is_none());
    }
}
