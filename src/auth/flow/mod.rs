//! The authorization flow, sequenced: the rules of the sibling modules applied over an
//! [`AuthHost`] that fetches, stores, hashes and shows the authorization page. Pure async,
//! so it runs natively against a fake host (`tests/auth_flow.rs`, `tests/auth_grants.rs`).
//!
//! [`Authorizer`] is the flow of one client; its work is split by job:
//! - [`recovery`]: the seam's side ([`crate::auth::seam::Flow`]): credentials before each
//!   request (refreshing a token about to expire), a success, and a 401 or
//!   `403 insufficient_scope` recovered from (refresh, rediscovery, step-up, a new grant);
//! - [`discover`]: the protected-resource and authorization-server metadata;
//! - [`grants`]: token requests: the grants without a user, refresh, storing the tokens;
//! - [`sign_in`]: the authorization-code sign-in (registration, the authorization page, the
//!   code redeemed), finishing a redirect, signing out;
//! - [`proofs`]: DPoP proofs and nonces, `private_key_jwt` client assertions;
//! - [`config`] is the application's configuration, [`host`] what the flow needs of its host.
//!
//! Recoveries are serialized (one sign-in at a time, however many requests met the 401); a
//! request that finds the tokens changed while it waited just retries.

use std::cell::RefCell;

use crate::auth::metadata::{ResourceMetadata, ServerMetadata};
use crate::auth::seam::{Credentials, Ticket};
use crate::auth::store::{self, Grant, Stored};
use crate::json::Value;
use crate::protocol::error::McpError;
use crate::util::small_map::SmallMap;

pub mod config;
pub mod discover;
pub mod grants;
pub mod host;
pub mod proofs;
pub mod recovery;
pub mod sign_in;

pub use config::{AssertionSource, AuthConfig, GrantConfig, StaticClient};
pub use host::{AuthHost, AuthRequest, AuthResponse, Authorized};
pub use recovery::{Operation, MAX_RECOVERIES};
pub use sign_in::SignOut;

/// The signed-in state shown to the application (`client.authorization`): never a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// The issuer of the tokens.
    pub issuer: String,
    /// The granted scope.
    pub scope: Option<String>,
    /// When the access token expires (ms since the epoch).
    pub expires_at_ms: Option<u64>,
}

/// What the flow holds between requests.
#[derive(Default)]
struct State {
    /// Storage was read.
    loaded: bool,
    stored: Stored,
    /// The server accepted the current access token at least once.
    accepted: bool,
    /// Bumped whenever the tokens change.
    generation: u64,
    prm: Option<ResourceMetadata>,
    meta: Option<ServerMetadata>,
    /// DPoP nonces by origin (RFC 9449 §8, §9).
    dpop_nonces: SmallMap<String, String>,
    /// The DPoP key's public JWK and its RFC 7638 thumbprint.
    dpop_key: Option<(Value, String)>,
    /// The recovery of the operations refused since a token was last accepted.
    episode: Option<recovery::Episode>,
    /// Operations started so far (each takes the next number).
    operations: u64,
}

/// The authorization flow of one client.
pub struct Authorizer<H: AuthHost> {
    config: AuthConfig,
    host: H,
    state: RefCell<State>,
    /// Held while tokens are being obtained or refreshed.
    busy: crate::util::lock::Lock,
}

impl<H: AuthHost> std::fmt::Debug for Authorizer<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authorizer")
            .field("server_url", &self.config.server_url)
            .field("status", &self.status())
            .finish_non_exhaustive()
    }
}

impl<H: AuthHost> Authorizer<H> {
    /// A flow for `config` over `host`; storage is read on first use.
    pub fn new(config: AuthConfig, host: H) -> Self {
        Authorizer {
            config,
            host,
            state: RefCell::new(State::default()),
            busy: Default::default(),
        }
    }

    /// The host (for the JS layer's own use of it).
    pub fn host(&self) -> &H {
        &self.host
    }

    /// The signed-in state, or `None`.
    pub fn status(&self) -> Option<Status> {
        let st = self.state.borrow();
        st.stored.grant.as_ref().map(|g| Status {
            issuer: g.tokens.issuer.clone(),
            scope: g.tokens.scope.clone(),
            expires_at_ms: g.tokens.expires_at_ms,
        })
    }

    /// Reads the stored state once (the first use of the flow).
    async fn load(&self) -> Result<(), McpError> {
        if self.state.borrow().loaded {
            return Ok(());
        }
        let text = self.host.load(store::key(&self.config.server_url)).await?;
        let mut st = self.state.borrow_mut();
        if !st.loaded {
            st.stored = Stored::parse(text.as_deref());
            st.loaded = true;
            st.generation += 1;
        }
        Ok(())
    }

    /// Writes the state to the application's storage.
    async fn persist(&self) -> Result<(), McpError> {
        let text = self.state.borrow().stored.to_text();
        self.host
            .save(store::key(&self.config.server_url), text)
            .await
    }

    /// Replaces the grant (`None`: signed out); the tokens' generation moves on.
    fn set_grant(&self, grant: Option<Grant>) {
        let mut st = self.state.borrow_mut();
        st.stored.grant = grant;
        st.accepted = false;
        st.generation += 1;
    }

    /// A ticket with the current access token (no DPoP proof yet).
    fn ticket(&self) -> Ticket {
        let st = self.state.borrow();
        Ticket {
            credentials: Credentials {
                authorization: st.stored.grant.as_ref().map(|g| g.tokens.authorization()),
                dpop: None,
            },
            generation: st.generation,
        }
    }
}
