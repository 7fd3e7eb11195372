//! A test-only transport: the engine's messages go straight to an in-process server function,
//! whose messages come straight back through the engine's inbox. No HTTP, no JS: proof that a
//! new transport is one file implementing `engine::Transport`.

use futures::future::{FutureExt, LocalBoxFuture};
use mcp_wasm_client::engine::{Exchange, Inbox, Sent, Transport};
use mcp_wasm_client::protocol::jsonrpc::{decode, Message};
use mcp_wasm_client::protocol::McpError;
use mcp_wasm_client::session::stamp::Outgoing;
use std::cell::RefCell;
use std::rc::Rc;

/// A server as a function: each message the client sends in, the messages it sends back.
pub type Server = Box<dyn FnMut(Message) -> Vec<Message>>;

/// Messages in both directions, in memory.
pub struct MemoryTransport {
    server: RefCell<Server>,
    /// Where the server's messages go (the engine's inbox, from the first request on).
    inbox: RefCell<Option<Rc<dyn Inbox>>>,
    /// Every message the client sent, as JSON text, in order.
    pub sent: RefCell<Vec<String>>,
    /// The MCP headers of every message sent, in the same order.
    pub headers: RefCell<Vec<Vec<(String, String)>>>,
}

impl MemoryTransport {
    /// A transport to `server`.
    pub fn new(server: Server) -> Rc<Self> {
        Rc::new(MemoryTransport {
            server: RefCell::new(server),
            inbox: RefCell::new(None),
            sent: RefCell::new(Vec::new()),
            headers: RefCell::new(Vec::new()),
        })
    }

    fn send(&self, out: &Outgoing) -> Result<(), McpError> {
        self.sent.borrow_mut().push(out.body.clone());
        self.headers.borrow_mut().push(out.headers.clone());
        let mut replies = Vec::new();
        for m in decode(&out.body)? {
            replies.extend((self.server.borrow_mut())(m));
        }
        let inbox = self.inbox.borrow().clone();
        if let Some(inbox) = inbox {
            for r in replies {
                inbox.deliver(r, None);
            }
        }
        Ok(())
    }
}

impl Transport for MemoryTransport {
    fn name(&self) -> &'static str {
        "memory"
    }

    fn message_based(&self) -> bool {
        true
    }

    fn request<'a>(
        &'a self,
        exchange: Exchange<'a>,
        inbox: Rc<dyn Inbox>,
    ) -> LocalBoxFuture<'a, Result<Sent, McpError>> {
        self.inbox.borrow_mut().get_or_insert(inbox);
        futures::future::ready(self.send(exchange.out).map(|()| Sent::Elsewhere)).boxed_local()
    }

    fn post<'a>(
        &'a self,
        out: &'a Outgoing,
        _what: &'a str,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        futures::future::ready(self.send(out)).boxed_local()
    }

    fn close(&self, _session: Option<Vec<(String, String)>>) -> LocalBoxFuture<'_, ()> {
        self.inbox.borrow_mut().take();
        futures::future::ready(()).boxed_local()
    }
}
