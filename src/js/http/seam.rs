//! The HTTP side of the authorization seam (`crate::auth::seam`): [`Http::send`], the one
//! path every request takes, and [`Attempt`], one request as the seam's [`Request`]: sent by
//! `Http::send_once` with the credentials the seam stamps, its last response kept for the
//! headers the seam reads and released when refused. Without the `auth` option the request
//! is sent once, without credentials.

use crate::auth::seam::{Credentials, Request};
use crate::engine::trace::StepPhase;
use crate::js::http::fetch::{body_reader, Head, Http, Outbound};
use crate::json::Value;
use crate::protocol::error::{ErrorKind, McpError, CONNECTION_CLOSED};
use futures::future::LocalBoxFuture;
use gloo_net::http::Method;
use web_sys::AbortSignal;

impl Http {
    /// Sends one request; resolves with the response head once headers arrive. With the
    /// `auth` option the authorization seam adds the credentials, and a 401 (or
    /// `403 insufficient_scope`) runs the authorization flow, then the request is sent again;
    /// that recovery is told to a tracer as a step of the span `traceparent` (the MCP request's).
    pub async fn send(
        &self,
        method: Method,
        body: Option<&str>,
        headers: &[(String, String)],
        signal: &AbortSignal,
        what: &str,
        traceparent: Option<&str>,
    ) -> Result<Head, McpError> {
        let mut attempt = Attempt {
            http: self,
            out: Outbound {
                url: self.target(&method),
                method,
                body,
                headers,
                signal,
                what,
                traceparent,
            },
            head: None,
        };
        match &self.auth {
            Some(auth) => auth.send(&mut attempt, what).await?,
            // No authorization: sent once, without credentials (and without a boxed future).
            None => {
                attempt.send_with(&Credentials::default()).await?;
            }
        }
        attempt.head.ok_or_else(|| {
            McpError::local(
                CONNECTION_CLOSED,
                ErrorKind::Network,
                format!("No response for {what}"),
                Value::Null,
            )
        })
    }
}

/// One request of [`Http::send`] as the authorization seam sees it: each send goes through
/// `send_once`, and the last response's head is kept.
struct Attempt<'a> {
    http: &'a Http,
    out: Outbound<'a>,
    /// The last response's head (the answer, once the seam is done).
    head: Option<Head>,
}

impl Attempt<'_> {
    /// Sends the request once with `credentials`; keeps the response's head and resolves
    /// with its status.
    async fn send_with(&mut self, credentials: &Credentials) -> Result<u16, McpError> {
        let head = self.http.send_once(&self.out, credentials).await?;
        let status = head.status;
        self.head = Some(head);
        Ok(status)
    }
}

impl Request for Attempt<'_> {
    fn method(&self) -> &str {
        self.out.method.as_ref()
    }

    fn url(&self) -> &str {
        &self.out.url
    }

    fn send<'a>(
        &'a mut self,
        credentials: &'a Credentials,
    ) -> LocalBoxFuture<'a, Result<u16, McpError>> {
        Box::pin(self.send_with(credentials))
    }

    fn header(&self, name: &str) -> Option<String> {
        self.head.as_ref()?.header(name)
    }

    fn recovering(&mut self, error: Option<&McpError>, done: bool) {
        let phase = if done {
            StepPhase::End
        } else {
            StepPhase::Start
        };
        let out = &self.out;
        let detail = crate::json::json!({});
        self.http.step(
            "authorization",
            phase,
            out.what,
            out.traceparent,
            detail,
            error,
        );
    }

    fn release(&mut self) {
        // The refusal's body is not read: release its connection (a reader dropped before the
        // end cancels the body).
        if let Some(head) = self.head.take() {
            drop(body_reader(&head));
        }
    }
}
