//! The `unauthorized` error of a 401 nobody resolved, and the challenge part (`crate::parts`) that
//! reads its `WWW-Authenticate` (`auth::challenge`) for the error's `resourceMetadata` and `scope`:
//! loaded when a client without `auth` meets its first 401. (The authorization flows read
//! challenges themselves.)

use crate::auth::challenge::AuthHint;
use crate::json::json;
use crate::protocol::error::{ErrorKind, McpError, AUTHORIZATION_FAILED};

/// The error for a 401 the flow did not (or could not) resolve, whose `WWW-Authenticate` was
/// `www_authenticate`: `unauthorized`, with the challenge's `resource_metadata` and `scope` for a
/// UI to act on.
pub async fn unauthorized(
    www_authenticate: Option<String>,
    what: &str,
    has_auth: bool,
) -> McpError {
    let hint = match get().await {
        Ok(part) => part.hint(www_authenticate.as_deref()),
        Err(e) => return e,
    };
    let how = if has_auth {
        "authorization did not succeed"
    } else if cfg!(feature = "auth") {
        "pass the auth option to sign in"
    } else {
        "this build, mcp-wasm-client/core, cannot sign in: import mcp-wasm-client and pass the auth option"
    };
    McpError::local(
        AUTHORIZATION_FAILED,
        ErrorKind::Unauthorized,
        format!("Unauthorized: HTTP 401 for {what}; the server requires authorization ({how})"),
        json!({
            "status": 401,
            "resourceMetadata": hint.resource_metadata,
            "scope": hint.scope,
        }),
    )
}

/// What the part does.
pub trait Challenges {
    /// What a `WWW-Authenticate` value says ([`AuthHint::from_header`]).
    fn hint(&self, www_authenticate: Option<&str>) -> AuthHint;
}

struct Part;

impl Challenges for Part {
    fn hint(&self, www_authenticate: Option<&str>) -> AuthHint {
        AuthHint::from_header(www_authenticate)
    }
}

crate::parts::part!(challenges, "the challenge part", Challenges, Part);
