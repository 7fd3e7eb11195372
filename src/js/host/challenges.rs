//! The challenge part (`crate::parts`): a refusal's `WWW-Authenticate` read (`auth::challenge`)
//! for the `unauthorized` error's `resourceMetadata` and `scope`, loaded when a client without
//! `auth` meets its first 401. (The authorization flows read challenges themselves.)

use crate::auth::challenge::AuthHint;

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
