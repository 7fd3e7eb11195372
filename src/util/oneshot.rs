//! A single-threaded one-shot channel: one value from one sender to one receiver (no atomics,
//! one allocation). The in-flight table's waiters and the JS timers use it.

use std::cell::RefCell;
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
