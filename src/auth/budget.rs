//! The recovery budget of one operation (an MCP request and its resends): what the flow may
//! still spend on a server that keeps refusing, whatever it answers. Concurrent operations
//! that meet the same refusal share one budget (the flow hands them the same [`Budget`]), so
//! five calls refused at once cost what one does.
//!
//! Per operation, at most:
//! - one refresh (before a request, or after a 401);
//! - one new sign-in after a 401 (or new tokens by a grant without a user);
//! - `maxStepUp` step-ups after `403 insufficient_scope`, and
//!   [`MAX_AUTHORIZATIONS_PER_OPERATION`] authorization requests in all;
//! - [`MAX_TOKEN_REQUESTS_PER_OPERATION`] token-endpoint requests (a refresh, a code redeemed,
//!   and one `use_dpop_nonce` retry).
//!
//! Against a resource server answering `401 invalid_token` forever that is one authorization
//! request and at most three token requests, then the `unauthorized` error.

use crate::protocol::error::McpError;

use super::errors;
use super::scopes::{covers, union, words, StepUpPolicy};

/// Authorization requests allowed within one operation, whatever `maxStepUp` says.
pub const MAX_AUTHORIZATIONS_PER_OPERATION: u32 = 3;

/// New sign-ins (or new tokens by a grant without a user) after a 401, per operation.
pub const MAX_SIGN_INS_PER_OPERATION: u32 = 1;

/// Token-endpoint requests allowed within one operation.
pub const MAX_TOKEN_REQUESTS_PER_OPERATION: u32 = 3;

/// What one operation (or the concurrent operations sharing a refusal) spent on recovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    max_step_up: u32,
    step_ups: u32,
    requests: u32,
    sign_ins: u32,
    token_requests: u32,
    refreshed: bool,
}

impl Budget {
    /// A fresh budget for one operation, allowing `max_step_up` step-ups.
    pub fn new(max_step_up: u32) -> Self {
        Budget {
            max_step_up,
            step_ups: 0,
            requests: 0,
            sign_ins: 0,
            token_requests: 0,
            refreshed: false,
        }
    }

    /// Authorization requests made so far (sign-ins and step-ups).
    pub fn requests(&self) -> u32 {
        self.requests
    }

    /// Step-ups made so far.
    pub fn step_ups(&self) -> u32 {
        self.step_ups
    }

    /// Token-endpoint requests made so far.
    pub fn token_requests(&self) -> u32 {
        self.token_requests
    }

    /// True once the operation's one refresh was taken.
    pub fn refreshed(&self) -> bool {
        self.refreshed
    }

    /// Takes the operation's one refresh: true the first time, false after.
    pub fn refresh(&mut self) -> bool {
        !std::mem::replace(&mut self.refreshed, true)
    }

    /// Counts one new sign-in (after a 401), or refuses with `unauthorized` when the
    /// operation already had its one, or used up its authorization requests.
    pub fn authorize(&mut self) -> Result<(), McpError> {
        if self.sign_ins >= MAX_SIGN_INS_PER_OPERATION
            || self.requests >= MAX_AUTHORIZATIONS_PER_OPERATION
        {
            return Err(errors::unauthorized(
                "The server still refuses the token (a request gets one refresh and one new sign-in at most)",
            ));
        }
        self.sign_ins += 1;
        self.requests += 1;
        Ok(())
    }

    /// Counts one token-endpoint request, or refuses with `unauthorized` past
    /// [`MAX_TOKEN_REQUESTS_PER_OPERATION`].
    pub fn token_request(&mut self) -> Result<(), McpError> {
        if self.token_requests >= MAX_TOKEN_REQUESTS_PER_OPERATION {
            return Err(errors::unauthorized(
                "The server still refuses the token (a request gets 3 token requests at most)",
            ));
        }
        self.token_requests += 1;
        Ok(())
    }

    /// The scope to re-authorize with after `403 insufficient_scope` asking for
    /// `challenged`, when `granted` is held: the union; or the `insufficient_scope` error
    /// (policy `throw`, no scope asked for, nothing new asked for, caps reached).
    pub fn step_up(
        &mut self,
        policy: StepUpPolicy,
        granted: &str,
        challenged: Option<&str>,
    ) -> Result<String, McpError> {
        let challenged = challenged.filter(|c| !words(c).is_empty());
        let fail = |why: &str| {
            Err(errors::insufficient_scope(
                format!("The server needs more scopes: {why}"),
                challenged,
            ))
        };
        if policy == StepUpPolicy::Throw {
            return fail(&errors::clean_text(challenged.unwrap_or("(none named)")));
        }
        let Some(challenged) = challenged else {
            return fail("it did not say which");
        };
        if covers(granted, challenged) {
            return fail("it asks for scopes already granted");
        }
        if self.step_ups >= self.max_step_up {
            return fail(&format!(
                "{} (step-up limit of {} reached)",
                errors::clean_text(challenged),
                self.max_step_up
            ));
        }
        if self.requests >= MAX_AUTHORIZATIONS_PER_OPERATION {
            return fail(&format!(
                "{} (authorization attempts exhausted)",
                errors::clean_text(challenged)
            ));
        }
        self.step_ups += 1;
        self.requests += 1;
        Ok(union(granted, challenged))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::error::ErrorKind;

    #[test]
    fn one_refresh_one_sign_in_then_unauthorized() {
        let mut b = Budget::new(1);
        assert!(!b.refreshed());
        assert!(b.refresh());
        assert!(!b.refresh(), "the second refresh is refused");
        assert!(b.refreshed());
        b.authorize().unwrap();
        let e = b.authorize().unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::Unauthorized));
        assert!(
            e.message.contains("one refresh and one new sign-in"),
            "{}",
            e.message
        );
        assert_eq!(b.requests(), 1);
    }

    #[test]
    fn at_most_three_token_requests() {
        let mut b = Budget::new(1);
        for _ in 0..MAX_TOKEN_REQUESTS_PER_OPERATION {
            b.token_request().unwrap();
        }
        let e = b.token_request().unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::Unauthorized));
        assert!(e.message.contains('3'), "{}", e.message);
        assert_eq!(b.token_requests(), 3);
    }

    #[test]
    fn one_step_up_by_default() {
        let mut b = Budget::new(1);
        b.authorize().unwrap();
        assert_eq!(
            b.step_up(StepUpPolicy::Reauthorize, "a", Some("a b"))
                .unwrap(),
            "a b"
        );
        let e = b
            .step_up(StepUpPolicy::Reauthorize, "a b", Some("c"))
            .unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::InsufficientScope));
        assert_eq!(e.data_json().unwrap()["scope"], "c");
        assert!(e.message.contains("step-up limit"));
        assert_eq!((b.requests(), b.step_ups()), (2, 1));
    }

    #[test]
    fn never_more_than_three_authorization_requests() {
        let mut b = Budget::new(10);
        b.authorize().unwrap();
        b.step_up(StepUpPolicy::Reauthorize, "a", Some("b"))
            .unwrap();
        b.step_up(StepUpPolicy::Reauthorize, "a b", Some("c"))
            .unwrap();
        let e = b
            .step_up(StepUpPolicy::Reauthorize, "a b c", Some("d"))
            .unwrap_err();
        assert!(e.message.contains("exhausted"));
        let e = b.authorize().unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::Unauthorized));
        // Step-ups alone: maxStepUp counts step-ups only, the cap counts them all.
        let mut b = Budget::new(10);
        for s in ["b", "c", "d"] {
            b.step_up(StepUpPolicy::Reauthorize, "a", Some(s)).unwrap();
        }
        assert!(b
            .step_up(StepUpPolicy::Reauthorize, "a", Some("e"))
            .is_err());
        assert_eq!((b.requests(), b.step_ups()), (3, 3));
        assert!(b.authorize().is_err(), "no sign-in past the cap");
    }

    #[test]
    fn step_up_refusals() {
        let mut b = Budget::new(1);
        let e = b.step_up(StepUpPolicy::Throw, "a", Some("b")).unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::InsufficientScope));
        assert!(e.message.contains('b'));
        assert!(b.step_up(StepUpPolicy::Reauthorize, "a", None).is_err());
        assert!(b
            .step_up(StepUpPolicy::Reauthorize, "a", Some("  "))
            .is_err());
        let e = b
            .step_up(StepUpPolicy::Reauthorize, "a b", Some("b"))
            .unwrap_err();
        assert!(e.message.contains("already granted"));
        assert_eq!(b.requests(), 0);
        let mut b = Budget::new(0);
        assert!(b
            .step_up(StepUpPolicy::Reauthorize, "a", Some("b"))
            .is_err());
    }
}
