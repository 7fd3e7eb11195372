//! The HTTP side of the authorization seam, faked: one MCP request whose every send is
//! answered by a closure standing for the MCP server (given the credentials the seam
//! stamped), with the answers' statuses and headers kept as a real response's would be.
//! Tests hand it to `auth::seam` exactly as `js/http/fetch.rs` hands its `Attempt`.

#![allow(dead_code)]

use futures::future::LocalBoxFuture;
use mcp_wasm_client::auth::seam::{Authorize, Credentials, Request};
use mcp_wasm_client::protocol::McpError;

/// The MCP server's answer to one send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// `WWW-Authenticate`.
    pub www_authenticate: Option<String>,
    /// `DPoP-Nonce`.
    pub dpop_nonce: Option<String>,
}

impl Answer {
    /// A 200 without headers.
    pub fn ok() -> Answer {
        Answer::refused(200, None, None)
    }

    /// A response of `status` with these headers.
    pub fn refused(
        status: u16,
        www_authenticate: Option<String>,
        dpop_nonce: Option<String>,
    ) -> Answer {
        Answer {
            status,
            www_authenticate,
            dpop_nonce,
        }
    }
}

/// More sends than any flow makes for one request: a loop that never ends fails the test.
pub const MAX_SENDS: u32 = 20;

/// One MCP request (a POST to `url`) answered by `server`.
pub struct FakeRequest<S> {
    url: String,
    server: S,
    /// Sends so far.
    pub sends: u32,
    /// Responses released unread (refusals before a resend).
    pub released: u32,
    /// The last answer, while not released.
    pub last: Option<Answer>,
}

impl<S: FnMut(&Credentials) -> Answer> FakeRequest<S> {
    /// A POST to `url` whose sends `server` answers.
    pub fn new(url: &str, server: S) -> Self {
        FakeRequest {
            url: url.to_string(),
            server,
            sends: 0,
            released: 0,
            last: None,
        }
    }
}

impl<S: FnMut(&Credentials) -> Answer> FakeRequest<S> {
    /// Sends the request through the seam to `auth` (as `tools/call`), as the transport
    /// does; resolves with the number of sends. A final answer that is not a success is an
    /// error, and every refusal before it must have been released.
    pub async fn run(&mut self, auth: &dyn Authorize) -> Result<u32, McpError> {
        auth.send(self, "tools/call").await?;
        assert_eq!(self.released, self.sends - 1, "every refusal released");
        match self.last.as_ref().map_or(0, |a| a.status) {
            200..=299 => Ok(self.sends),
            status => Err(McpError::input(format!(
                "the server answered HTTP {status}"
            ))),
        }
    }
}

impl<S: FnMut(&Credentials) -> Answer> Request for FakeRequest<S> {
    fn method(&self) -> &str {
        "POST"
    }

    fn url(&self) -> &str {
        &self.url
    }

    fn send<'a>(
        &'a mut self,
        credentials: &'a Credentials,
    ) -> LocalBoxFuture<'a, Result<u16, McpError>> {
        self.sends += 1;
        assert!(self.sends <= MAX_SENDS, "the flow never gave up");
        let answer = (self.server)(credentials);
        let status = answer.status;
        self.last = Some(answer);
        Box::pin(async move { Ok(status) })
    }

    fn header(&self, name: &str) -> Option<String> {
        let last = self.last.as_ref()?;
        match name {
            "www-authenticate" => last.www_authenticate.clone(),
            "dpop-nonce" => last.dpop_nonce.clone(),
            _ => None,
        }
    }

    fn release(&mut self) {
        self.released += 1;
        self.last = None;
    }
}
