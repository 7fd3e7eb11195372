//! The queue of legacy server requests: at most [`MAX_ANSWERING`] are answered at once (their
//! callbacks and response POSTs), the rest wait in order of arrival; on each stream the
//! responses are POSTed in the order the requests arrived (a response waits for the previous
//! one of its stream to be sent). A server that sends 1 000 requests at once gets 1 000
//! answers, in order, from at most 16 callbacks and POSTs in flight. The engine's side
//! (`queue_server_request`, `answer_server_request`) is in inbound.rs.

use super::host::Cancel;
use crate::json::Value;
use crate::protocol::jsonrpc::RequestId;
use futures::channel::oneshot;
use std::collections::VecDeque;

/// Server requests answered at once; the others wait in order of arrival.
pub const MAX_ANSWERING: usize = 16;

/// One server request waiting for, or holding, an answering slot.
#[derive(Debug)]
pub struct Queued {
    pub(super) id: RequestId,
    pub(super) method: String,
    pub(super) params: Option<Value>,
    pub(super) cancel: Cancel,
    /// Resolves (or is cancelled) once the previous request of the same stream was answered.
    pub(super) after: Option<oneshot::Receiver<()>>,
    /// Dropped or fired once this request's response was sent (or will never be).
    pub(super) sent: oneshot::Sender<()>,
}

/// Waiting requests, the count being answered, and each stream's last response to wait for.
#[derive(Default)]
pub(super) struct AnswerQueue {
    waiting: VecDeque<Queued>,
    running: usize,
    /// Per stream (the carrier call, `None` for the GET stream): the last queued request's
    /// "sent" signal.
    last_sent: Vec<(Option<RequestId>, oneshot::Receiver<()>)>,
}

impl AnswerQueue {
    /// The signal the next request on `carrier` waits for, replaced by `sent`'s.
    fn chain(
        &mut self,
        carrier: &Option<RequestId>,
        sent: oneshot::Receiver<()>,
    ) -> Option<oneshot::Receiver<()>> {
        // Streams whose last response went out need no entry.
        self.last_sent
            .retain_mut(|(_, rx)| matches!(rx.try_recv(), Ok(None)));
        match self.last_sent.iter_mut().find(|(c, _)| c == carrier) {
            Some((_, rx)) => Some(std::mem::replace(rx, sent)),
            None => {
                self.last_sent.push((carrier.clone(), sent));
                None
            }
        }
    }

    /// Queues a request of `carrier`'s stream; its response waits for the previous one's.
    pub(super) fn push(
        &mut self,
        id: RequestId,
        method: String,
        params: Option<Value>,
        carrier: &Option<RequestId>,
        cancel: Cancel,
    ) {
        let (sent, sent_rx) = oneshot::channel();
        let after = self.chain(carrier, sent_rx);
        self.waiting.push_back(Queued {
            id,
            method,
            params,
            cancel,
            after,
            sent,
        });
    }

    /// A request was answered: its slot is free.
    pub(super) fn finished(&mut self) {
        self.running = self.running.saturating_sub(1);
    }

    /// The next request to start, when a slot is free.
    pub(super) fn start_next(&mut self) -> Option<Queued> {
        if self.running >= MAX_ANSWERING {
            return None;
        }
        let next = self.waiting.pop_front()?;
        self.running += 1;
        Some(next)
    }

    /// Requests waiting plus being answered.
    pub(super) fn len(&self) -> usize {
        self.waiting.len() + self.running
    }

    /// Requests being answered (at most [`MAX_ANSWERING`]).
    pub(super) fn running(&self) -> usize {
        self.running
    }
}
