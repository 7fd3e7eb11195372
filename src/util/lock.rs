//! An async lock for one thread's tasks: one holder at a time, the others wait until it is
//! released. (futures' `Mutex` is built for threads: atomics and a slab of waiters.)

use std::cell::{Cell, RefCell};
use std::future::poll_fn;
use std::task::{Poll, Waker};

/// One holder at a time (authorization: while tokens are obtained or refreshed); others wait.
#[derive(Debug, Default)]
pub struct Lock {
    held: Cell<bool>,
    waiting: RefCell<Vec<Waker>>,
}

/// Holds the lock; dropping it (the holder finished or was cancelled) releases it.
#[derive(Debug)]
pub struct LockGuard<'a>(&'a Lock);

impl Lock {
    /// Waits until nobody holds the lock, then holds it.
    pub async fn lock(&self) -> LockGuard<'_> {
        poll_fn(|cx| {
            if !self.held.replace(true) {
                return Poll::Ready(LockGuard(self));
            }
            let mut waiting = self.waiting.borrow_mut();
            if !waiting.iter().any(|w| w.will_wake(cx.waker())) {
                waiting.push(cx.waker().clone());
            }
            Poll::Pending
        })
        .await
    }
}

impl Drop for LockGuard<'_> {
    fn drop(&mut self) {
        self.0.held.set(false);
        // Every waiter polls again; the first to run takes the lock, the rest wait anew.
        for w in self.0.waiting.take() {
            w.wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::LocalPool;
    use futures::task::LocalSpawnExt;
    use std::rc::Rc;

    #[test]
    fn one_holder_at_a_time_in_order_of_release() {
        let busy = Rc::new(Lock::default());
        let log = Rc::new(RefCell::new(Vec::new()));
        let (tx, rx) = futures::channel::oneshot::channel::<()>();
        let mut pool = LocalPool::new();
        let s = pool.spawner();
        let (b, l) = (busy.clone(), log.clone());
        s.spawn_local(async move {
            let _g = b.lock().await;
            l.borrow_mut().push("a holds");
            let _ = rx.await;
            l.borrow_mut().push("a releases");
        })
        .unwrap();
        for name in ["b", "c"] {
            let (b, l) = (busy.clone(), log.clone());
            s.spawn_local(async move {
                let _g = b.lock().await;
                l.borrow_mut().push(name);
            })
            .unwrap();
        }
        pool.run_until_stalled();
        assert_eq!(
            *log.borrow(),
            ["a holds"],
            "b and c wait while a holds the lock"
        );
        tx.send(()).unwrap();
        pool.run_until_stalled();
        assert_eq!(*log.borrow(), ["a holds", "a releases", "b", "c"]);
        assert!(!busy.held.get());
    }

    #[test]
    fn a_cancelled_holder_releases() {
        let busy = Lock::default();
        let mut pool = LocalPool::new();
        pool.run_until(async {
            let guard = busy.lock().await;
            let mut second = Box::pin(busy.lock());
            assert!(futures::poll!(second.as_mut()).is_pending());
            drop(guard);
            let _g = second.await;
            assert!(busy.held.get());
        });
        assert!(!busy.held.get());
    }
}
