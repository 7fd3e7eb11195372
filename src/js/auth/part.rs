//! The operations a lean client's requests have open in the full module's flow
//! (`api::authorization_part`): the seam's bookkeeping of one operation kept here between the
//! steps the lean module hands over, each step taking it out and putting it back.

use crate::auth::flow::Operation;
use crate::util::small_map::SmallMap;
use std::cell::{Cell, RefCell};

/// The operations a lean client's requests have open in this flow, by number.
#[derive(Debug, Default)]
pub struct PartOperations {
    last: Cell<u32>,
    open: RefCell<SmallMap<u32, Operation>>,
}

impl PartOperations {
    /// Takes operation `id` out while a step runs (`0`, or one not open: a new one, numbered).
    pub fn take(&self, id: u32) -> (u32, Operation) {
        match self.open.borrow_mut().remove(&id) {
            Some(op) if id != 0 => (id, op),
            _ => {
                let next = self.last.get().wrapping_add(1).max(1);
                self.last.set(next);
                (next, Operation::default())
            }
        }
    }

    /// Puts operation `id` back once its step is over.
    pub fn put(&self, id: u32, op: Operation) {
        self.open.borrow_mut().insert(id, op);
    }

    /// Takes operation `id` out for good (it is over).
    pub fn close(&self, id: u32) -> Option<Operation> {
        self.open.borrow_mut().remove(&id)
    }
}
