//! The flow's side of the authorization seam ([`Flow`]): the credentials before each request
//! (a token about to expire refreshed, or renewed for a grant without a user), a success
//! noted, and a 401 or `403 insufficient_scope` recovered from: a DPoP nonce retry, a
//! refresh, a (re)discovery, a step-up or new tokens by the configured grant, within the
//! operation's [`Budget`] (`crate::auth::budget`), which the concurrent operations that met
//! the same refusal share: the flow keeps the current [`Episode`] until a token is accepted;
//! an operation refused meanwhile joins it, unless it started after an operation of the
//! episode ended (a request made after the failure gets a budget of its own).

use std::cell::RefCell;
use std::rc::Rc;

use super::{AuthHost, Authorizer, GrantConfig};
use crate::auth::budget::Budget;
use crate::auth::challenge::{AuthHint, ChallengeError};
use crate::auth::errors;
use crate::auth::scopes;
use crate::auth::seam::{Flow, Refusal, Ticket};
use crate::auth::tokens::{self, AfterRediscovery, BeforeRequest, Recovery, SentToken};
use crate::json::{json, Value};
use crate::protocol::error::{ErrorKind, McpError};
use crate::util::secret::Secret;
use futures::future::LocalBoxFuture;

/// Recoveries (401/403 handled) allowed within one operation before it fails: a backstop
/// behind the [`Budget`] (a retry because another request changed the tokens counts too).
pub const MAX_RECOVERIES: u32 = 4;

/// A budget shared by the operations that met the same refusal.
pub(super) type SharedBudget = Rc<RefCell<Budget>>;

/// The authorization attempts of one operation (an MCP request and its retries).
#[derive(Debug, Default)]
pub struct Operation {
    /// Its number among the flow's operations (from its first ticket).
    number: u64,
    budget: Option<SharedBudget>,
    /// Tokens were refreshed (or renewed) before a request of this operation, not after a
    /// refusal: no refresh after a 401 then.
    refreshed_before: bool,
    recoveries: u32,
    nonce_retried: bool,
}

/// The recovery the operations refused since a token was last accepted share.
#[derive(Debug)]
pub(super) struct Episode {
    budget: SharedBudget,
    /// Set when one of its operations ended: the last operation started by then (later ones
    /// start an episode of their own).
    closed_after: Option<u64>,
}

impl<H: AuthHost> Flow for Authorizer<H> {
    type Operation = Operation;

    /// The credentials for the next MCP request: none before sign-in; the access token,
    /// refreshed first when it expires within a minute, with a DPoP proof for a bound token.
    fn before_request<'a>(
        &'a self,
        op: &'a mut Operation,
        method: &'a str,
        url: &'a str,
    ) -> LocalBoxFuture<'a, Result<Ticket, McpError>> {
        Box::pin(self.ticket_for(op, method, url))
    }

    fn credential(&self) -> Option<Secret> {
        self.ticket().credentials.authorization
    }

    fn accepted(&self, ticket: &Ticket, url: &str, dpop_nonce: Option<&str>) {
        {
            let mut st = self.state.borrow_mut();
            if ticket.generation == st.generation && ticket.credentials.authorization.is_some() {
                st.accepted = true;
                // The refusals are over: the next one starts a new budget.
                st.episode = None;
            }
        }
        if let Some(nonce) = dpop_nonce {
            self.remember_nonce(url, nonce);
        }
    }

    /// Boxed: a rare path, kept out of every request's future.
    fn recover<'a>(
        &'a self,
        ticket: &'a Ticket,
        refusal: &'a Refusal,
        url: &'a str,
        op: &'a mut Operation,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        Box::pin(self.recover_from(ticket, refusal, url, op))
    }

    fn finished(&self, op: &mut Operation) {
        if let Some(b) = &op.budget {
            self.close_episode(b);
        }
    }
}

impl<H: AuthHost> Authorizer<H> {
    /// [`Flow::before_request`].
    async fn ticket_for(
        &self,
        op: &mut Operation,
        method: &str,
        url: &str,
    ) -> Result<Ticket, McpError> {
        self.load().await?;
        if op.number == 0 {
            let mut st = self.state.borrow_mut();
            st.operations += 1;
            op.number = st.operations;
        }
        self.prepare_tokens(op).await?;
        let mut ticket = self.ticket();
        let bound = {
            let st = self.state.borrow();
            st.stored
                .grant
                .as_ref()
                .filter(|g| g.tokens.is_dpop())
                .map(|g| g.tokens.access_token.clone())
        };
        if let (true, Some(token)) = (self.config.dpop, bound) {
            ticket.credentials.dpop = Some(self.dpop_proof(method, url, Some(&token)).await?);
        }
        Ok(ticket)
    }

    /// Before a request: a grant without a user gets its next token before the old one
    /// lapses (no refresh token needed, no 401 round trip); a token about to expire is
    /// refreshed; an expired one that cannot be is dropped.
    async fn prepare_tokens(&self, op: &mut Operation) -> Result<(), McpError> {
        let static_grant = !matches!(self.config.grant, GrantConfig::AuthorizationCode);
        if static_grant && !op.refreshed_before && self.renewal_due() {
            return self.renew(op).await;
        }
        if matches!(
            self.token_state(),
            BeforeRequest::Anonymous | BeforeRequest::Send
        ) {
            return Ok(());
        }
        let _busy = self.busy.lock().await;
        match self.token_state() {
            BeforeRequest::Refresh if !self.refreshed(op) => {
                op.refreshed_before = true;
                if let Err(e) = self.refresh().await {
                    // A dead refresh token leaves no grant: the server's 401 starts a sign-in.
                    if self.state.borrow().stored.grant.is_some() {
                        return Err(e);
                    }
                }
            }
            BeforeRequest::Authorize => {
                // Expired and not refreshable: send without it; the 401 signs in again.
                self.set_grant(None);
                self.persist().await?;
            }
            _ => {}
        }
        Ok(())
    }

    /// What the held tokens need before a request.
    fn token_state(&self) -> BeforeRequest {
        let st = self.state.borrow();
        tokens::before_request(
            st.stored.grant.as_ref().map(|g| &g.tokens),
            self.host.now_ms(),
            tokens::DEFAULT_SKEW_MS,
        )
    }

    /// New tokens by a grant without a user, unless another request renewed them while
    /// this one waited for the lock.
    async fn renew(&self, op: &mut Operation) -> Result<(), McpError> {
        let _busy = self.busy.lock().await;
        if self.renewal_due() {
            op.refreshed_before = true;
            let scope = self.status().and_then(|s| s.scope);
            self.obtain_by_grant(scope.as_deref()).await?;
        }
        Ok(())
    }

    /// True when the token of a grant without a user expires within the refresh skew and
    /// the authorization server is known (discovered in this client).
    fn renewal_due(&self) -> bool {
        let st = self.state.borrow();
        let expires = st
            .stored
            .grant
            .as_ref()
            .and_then(|g| g.tokens.expires_at_ms);
        st.meta.is_some()
            && expires
                .is_some_and(|e| self.host.now_ms().saturating_add(tokens::DEFAULT_SKEW_MS) >= e)
    }

    /// [`Flow::recover`]: `Ok(())` means the request should be sent again (with a fresh
    /// ticket).
    async fn recover_from(
        &self,
        ticket: &Ticket,
        refusal: &Refusal,
        url: &str,
        op: &mut Operation,
    ) -> Result<(), McpError> {
        let hint = AuthHint::from_header(refusal.www_authenticate.as_deref());
        if self.nonce_retry(&hint, refusal.dpop_nonce.as_deref(), url, op)? {
            return Ok(());
        }
        self.join(op);
        op.recoveries += 1;
        if op.recoveries > MAX_RECOVERIES {
            return Err(self.still_refused(refusal.status, &hint));
        }
        let _busy = self.busy.lock().await;
        if self.state.borrow().generation != ticket.generation {
            // Another request changed the tokens meanwhile: try with those.
            return Ok(());
        }
        if refusal.status == 403 {
            return self.step_up(&hint, op).await;
        }
        self.reauthorize(ticket, &hint, op).await
    }

    /// Keeps the refusal's DPoP nonce; true when the refusal only asked for one
    /// (`use_dpop_nonce`): the request is sent again with it, once in a row.
    fn nonce_retry(
        &self,
        hint: &AuthHint,
        dpop_nonce: Option<&str>,
        url: &str,
        op: &mut Operation,
    ) -> Result<bool, McpError> {
        let (Some(nonce), true) = (dpop_nonce, self.config.dpop) else {
            return Ok(false);
        };
        self.remember_nonce(url, nonce);
        if !matches!(hint.error, Some(ChallengeError::UseDpopNonce)) {
            return Ok(false);
        }
        if op.nonce_retried {
            return Err(errors::auth_error(
                ErrorKind::DpopError,
                "The server asked for a new DPoP nonce twice in a row",
                Value::Null,
            ));
        }
        op.nonce_retried = true;
        Ok(true)
    }

    /// A `403 insufficient_scope`: a new authorization with the union of the granted scope
    /// and the challenge's, within `maxStepUp` (the AS discovered first if none is known).
    async fn step_up(&self, hint: &AuthHint, op: &mut Operation) -> Result<(), McpError> {
        let granted = self.status().and_then(|s| s.scope).unwrap_or_default();
        let (policy, challenged) = (self.config.step_up, hint.scope.as_deref());
        let scope = self.spend(op, |b| b.step_up(policy, &granted, challenged))?;
        if self.state.borrow().meta.is_none() {
            Box::pin(self.discover(hint)).await?;
        }
        self.authorize_with(Some(scope)).await
    }

    /// A 401: a refresh when the token was accepted before, else a (re)discovery, then a
    /// refresh when the AS is the same, else new tokens by the configured grant.
    async fn reauthorize(
        &self,
        ticket: &Ticket,
        hint: &AuthHint,
        op: &mut Operation,
    ) -> Result<(), McpError> {
        let (sent, has_refresh) = {
            let st = self.state.borrow();
            let sent = match (&ticket.credentials.authorization, st.accepted) {
                (None, _) => SentToken::None,
                (Some(_), true) => SentToken::Accepted,
                (Some(_), false) => SentToken::Unproven,
            };
            let grant = st.stored.grant.as_ref();
            (
                sent,
                grant.is_some_and(|g| g.tokens.refresh_token.is_some()),
            )
        };
        let recovery = tokens::on_unauthorized(sent, has_refresh, self.refreshed(op));
        if recovery == Recovery::Refresh && self.spend(op, Budget::refresh) {
            match self.refresh().await {
                Ok(()) => return Ok(()),
                // A dead refresh token leaves no grant: discover and obtain new tokens.
                Err(e) if self.state.borrow().stored.grant.is_some() => return Err(e),
                Err(_) => {}
            }
        }
        let rediscover = matches!(recovery, Recovery::Rediscover | Recovery::Authorize);
        let old_issuer = if rediscover {
            self.state.borrow_mut().prm = None;
            self.status().map(|s| s.issuer)
        } else {
            None
        };
        Box::pin(self.discover(hint)).await?;
        if let Some(old) = old_issuer {
            let refreshed = self.refreshed(op);
            let same_as = self.state.borrow().meta.as_ref().is_some_and(|new| {
                tokens::after_rediscovery(&old, &new.issuer, has_refresh, refreshed)
                    == AfterRediscovery::Refresh
            });
            if same_as && self.spend(op, Budget::refresh) && self.refresh().await.is_ok() {
                return Ok(());
            }
        }
        if rediscover {
            // Another AS (SEP-2352): its own registration; old credentials stay bound to the
            // old issuer and are never sent to the new one.
            self.set_grant(None);
        }
        self.new_tokens(hint, op).await
    }

    /// New tokens by the configured grant, counted against the per-operation budget: a
    /// sign-in, or a grant without a user.
    async fn new_tokens(&self, hint: &AuthHint, op: &mut Operation) -> Result<(), McpError> {
        self.spend(op, Budget::authorize)?;
        match &self.config.grant {
            GrantConfig::AuthorizationCode => {
                let scope = self.select_scope(hint.scope.as_deref(), self.config.wants_refresh());
                self.authorize_with(scope).await
            }
            _ => {
                // A token just obtained is not renewed again within this operation, however
                // short its life.
                op.refreshed_before = true;
                self.obtain_by_grant(hint.scope.as_deref()).await
            }
        }
    }

    /// The scope to request (see [`scopes::select`]) with the known PRM and AS metadata.
    pub(super) fn select_scope(&self, challenge: Option<&str>, offline: bool) -> Option<String> {
        let st = self.state.borrow();
        scopes::select(
            challenge,
            st.prm.as_ref().and_then(|p| p.scopes_supported.as_deref()),
            self.config.scope.as_deref(),
            st.meta.as_ref().and_then(|m| m.scopes_supported.as_deref()),
            offline,
        )
    }

    /// Counts a token-endpoint request against the budget of the episode under way (none
    /// outside a recovery: a sign-in the application started, a redirect finished; none once
    /// one of its operations ended); `unauthorized` past its cap.
    pub(super) fn count_token_request(&self) -> Result<(), McpError> {
        let live = self
            .state
            .borrow()
            .episode
            .as_ref()
            .filter(|e| e.closed_after.is_none())
            .map(|e| e.budget.clone());
        live.map_or(Ok(()), |b| b.borrow_mut().token_request())
    }

    /// Gives the operation its budget, once: the current episode's when the episode goes on
    /// or was closed after this operation started, else a new episode's.
    fn join(&self, op: &mut Operation) -> SharedBudget {
        if let Some(b) = &op.budget {
            return b.clone();
        }
        let mut st = self.state.borrow_mut();
        let current = st
            .episode
            .as_ref()
            .filter(|e| e.closed_after.is_none_or(|last| op.number <= last));
        let budget = match current {
            Some(e) => e.budget.clone(),
            None => {
                let fresh = Rc::new(RefCell::new(Budget::new(self.config.max_step_up)));
                st.episode = Some(Episode {
                    budget: fresh.clone(),
                    closed_after: None,
                });
                fresh
            }
        };
        op.budget = Some(budget.clone());
        budget
    }

    /// An operation with `budget` ended (failed, or answered with a status the flow does
    /// not recover from): when that is the current episode's, operations started from now on
    /// get a new one; those in flight still share it.
    fn close_episode(&self, budget: &SharedBudget) {
        let mut st = self.state.borrow_mut();
        let last = st.operations;
        if let Some(e) = st
            .episode
            .as_mut()
            .filter(|e| Rc::ptr_eq(&e.budget, budget))
        {
            e.closed_after.get_or_insert(last);
        }
    }

    /// True when the operation refreshed its tokens, before a request or after a refusal
    /// (its one refresh).
    fn refreshed(&self, op: &Operation) -> bool {
        op.refreshed_before || op.budget.as_ref().is_some_and(|b| b.borrow().refreshed())
    }

    /// Runs `f` on the operation's budget ([`Self::join`]).
    fn spend<T>(&self, op: &mut Operation, f: impl FnOnce(&mut Budget) -> T) -> T {
        let budget = self.join(op);
        let mut b = budget.borrow_mut();
        f(&mut b)
    }

    /// The error when the server still refuses after [`MAX_RECOVERIES`].
    fn still_refused(&self, status: u16, hint: &AuthHint) -> McpError {
        if status == 403 {
            return errors::insufficient_scope(
                "The server still refuses the request after re-authorization",
                hint.scope.as_deref(),
            );
        }
        errors::auth_error(
            ErrorKind::Unauthorized,
            format!("The server still answers 401 after {MAX_RECOVERIES} attempts to authorize"),
            json!({ "resourceMetadata": hint.resource_metadata, "scope": hint.scope }),
        )
    }
}
