//! The application's `auth` options, read and checked: which grant obtains tokens, the
//! client's identity, scopes, step-up and DPoP.

use crate::auth::client::{AuthMethod, ClientInformation};
use crate::auth::jose::Alg;
use crate::auth::scopes::StepUpPolicy;
use crate::json::Value;
use crate::util::secret::Secret;

/// Credentials the application configured for a grant without a user.
#[derive(Debug, Clone)]
pub struct StaticClient {
    /// `clientId`, `clientSecret`, `issuer` (binds them to one AS).
    pub info: ClientInformation,
    /// `method`: the preferred secret method.
    pub method: Option<AuthMethod>,
    /// The signing algorithm of the host's private key (`private_key_jwt`), if one is held.
    pub signing: Option<Alg>,
}

/// Where a `jwt_bearer` assertion comes from.
#[derive(Debug, Clone)]
pub enum AssertionSource {
    /// The application's `assertion` callback (workload identity).
    Callback,
    /// `idJagAssertion(...)`: an RFC 8693 exchange of an ID token at the enterprise IdP.
    IdJag {
        /// The IdP token endpoint.
        token_endpoint: String,
        /// The user's ID token.
        id_token: Secret,
        /// The application's client at the IdP.
        idp_client: ClientInformation,
    },
}

/// Which grant obtains tokens.
#[derive(Debug, Clone, Default)]
pub enum GrantConfig {
    /// The authorization-code flow with PKCE (a user signs in).
    #[default]
    AuthorizationCode,
    /// `client_credentials` (machine to machine).
    ClientCredentials(StaticClient),
    /// RFC 7523 JWT bearer (workload identity, enterprise ID-JAG).
    JwtBearer(StaticClient, AssertionSource),
}

/// The application's `auth` options, read and checked.
#[derive(Debug, Clone, Default)]
pub struct AuthConfig {
    /// The MCP server URL, as given.
    pub server_url: String,
    /// Where the AS sends the user back.
    pub redirect_uri: String,
    /// `clientMetadata`: the RFC 7591 body for dynamic registration.
    pub client_metadata: Option<Value>,
    /// `clientMetadataUrl`: the CIMD `client_id`.
    pub client_metadata_url: Option<String>,
    /// `clientInformation`: pre-registered credentials.
    pub client_information: Option<ClientInformation>,
    /// `scope`: used when neither the challenge nor the PRM names scopes.
    pub scope: Option<String>,
    /// `onInsufficientScope`.
    pub step_up: StepUpPolicy,
    /// `maxStepUp`.
    pub max_step_up: u32,
    /// `grant`: how tokens are obtained.
    pub grant: GrantConfig,
    /// `dpop`: sender-constrained tokens (RFC 9449).
    pub dpop: bool,
}

impl AuthConfig {
    /// True unless `clientMetadata.grant_types` leaves out `refresh_token`.
    pub(super) fn wants_refresh(&self) -> bool {
        match self
            .client_metadata
            .as_ref()
            .and_then(|m| m.get("grant_types"))
        {
            Some(Value::Array(a)) => a.iter().any(|g| g.as_str() == Some("refresh_token")),
            _ => true,
        }
    }
}
