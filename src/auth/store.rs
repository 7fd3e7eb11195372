//! What the authorization flow keeps in the application's storage, one JSON document per MCP
//! server URL: the tokens with what refreshing them needs (token endpoint, `resource`, the
//! AS's auth methods), the client credentials of every issuer registered with, and the
//! pending authorization of a redirect-mode sign-in (it must survive the page navigation).
//!
//! The document holds secrets: it goes only to the storage the application chose. Reading a
//! damaged or foreign document gives an empty state, never an error: storage is a cache.

use crate::json::{json, Map, Value};

use super::authorize::PendingAuthorization;
use super::client::ClientInformation;
use super::tokens::TokenSet;
use crate::util::secret::Secret;

/// Format version of the stored document.
const VERSION: u64 = 1;

/// The storage key for the MCP server at `server_url`.
pub fn key(server_url: &str) -> String {
    ["mcp-wasm-client:auth:", server_url].concat()
}

/// Tokens and what a refresh needs without rediscovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// The tokens.
    pub tokens: TokenSet,
    /// The AS token endpoint.
    pub token_endpoint: String,
    /// The PRM `resource` sent with token requests (`None` for 2025-03-26 servers).
    pub resource: Option<String>,
    /// The AS `token_endpoint_auth_methods_supported` (with RFC 8414's default).
    pub auth_methods: Vec<String>,
}

/// A pending authorization and where its code is redeemed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// State, verifier, issuer, `iss` support, resource, scope.
    pub request: PendingAuthorization,
    /// The AS token endpoint.
    pub token_endpoint: String,
    /// The AS `token_endpoint_auth_methods_supported`.
    pub auth_methods: Vec<String>,
}

/// Everything stored for one server.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stored {
    /// The current grant, if signed in.
    pub grant: Option<Grant>,
    /// Client credentials, each bound to its issuer.
    pub clients: Vec<ClientInformation>,
    /// A redirect-mode authorization awaiting its callback.
    pub pending: Option<Pending>,
}

fn s(o: &Map<String, Value>, k: &str) -> Option<String> {
    o.get(k).and_then(Value::as_str).map(str::to_string)
}

fn strings(o: &Map<String, Value>, k: &str) -> Vec<String> {
    o.get(k)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn client_json(c: &ClientInformation) -> Value {
    json!({
        "client_id": c.client_id,
        "client_secret": c.client_secret.as_ref().map(Secret::expose),
        "token_endpoint_auth_method": c.token_endpoint_auth_method,
        "issuer": c.issuer,
        "client_secret_expires_at": c.client_secret_expires_at,
    })
}

fn client_from(v: &Value) -> Option<ClientInformation> {
    let o = v.as_object()?;
    Some(ClientInformation {
        client_id: s(o, "client_id").filter(|c| !c.is_empty())?,
        client_secret: s(o, "client_secret").map(Secret::new),
        token_endpoint_auth_method: s(o, "token_endpoint_auth_method"),
        issuer: s(o, "issuer"),
        client_secret_expires_at: o.get("client_secret_expires_at").and_then(Value::as_u64),
    })
}

fn grant_from(v: &Value) -> Option<Grant> {
    let o = v.as_object()?;
    Some(Grant {
        tokens: TokenSet {
            access_token: Secret::new(s(o, "access_token").filter(|t| !t.is_empty())?),
            token_type: s(o, "token_type").unwrap_or_else(|| "Bearer".into()),
            refresh_token: s(o, "refresh_token").map(Secret::new),
            expires_at_ms: o.get("expires_at").and_then(Value::as_u64),
            scope: s(o, "scope"),
            issuer: s(o, "issuer")?,
        },
        token_endpoint: s(o, "token_endpoint")?,
        resource: s(o, "resource"),
        auth_methods: strings(o, "auth_methods"),
    })
}

fn pending_from(v: &Value) -> Option<Pending> {
    let o = v.as_object()?;
    Some(Pending {
        request: PendingAuthorization {
            state: s(o, "state")?,
            code_verifier: Secret::new(s(o, "code_verifier")?),
            redirect_uri: s(o, "redirect_uri")?,
            issuer: s(o, "issuer")?,
            iss_supported: o
                .get("iss_supported")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            resource: s(o, "resource"),
            scope: s(o, "scope"),
            used: false,
        },
        token_endpoint: s(o, "token_endpoint")?,
        auth_methods: strings(o, "auth_methods"),
    })
}

impl Stored {
    /// Reads a stored document; anything unreadable is an empty state.
    pub fn parse(text: Option<&str>) -> Stored {
        let Some(Value::Object(o)) = text.and_then(|t| crate::json::from_str(t).ok()) else {
            return Stored::default();
        };
        if o.get("v").and_then(Value::as_u64) != Some(VERSION) {
            return Stored::default();
        }
        Stored {
            grant: o.get("grant").and_then(grant_from),
            clients: o
                .get("clients")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(client_from).collect())
                .unwrap_or_default(),
            pending: o.get("pending").and_then(pending_from),
        }
    }

    /// The document to store; `None` when there is nothing to keep (delete the key).
    pub fn to_text(&self) -> Option<String> {
        if self.grant.is_none() && self.clients.is_empty() && self.pending.is_none() {
            return None;
        }
        let grant = self.grant.as_ref().map(|g| {
            json!({
                "access_token": g.tokens.access_token.expose(),
                "token_type": g.tokens.token_type,
                "refresh_token": g.tokens.refresh_token.as_ref().map(Secret::expose),
                "expires_at": g.tokens.expires_at_ms,
                "scope": g.tokens.scope,
                "issuer": g.tokens.issuer,
                "token_endpoint": g.token_endpoint,
                "resource": g.resource,
                "auth_methods": g.auth_methods,
            })
        });
        let pending = self.pending.as_ref().map(|p| {
            json!({
                "state": p.request.state,
                "code_verifier": p.request.code_verifier.expose(),
                "redirect_uri": p.request.redirect_uri,
                "issuer": p.request.issuer,
                "iss_supported": p.request.iss_supported,
                "resource": p.request.resource,
                "scope": p.request.scope,
                "token_endpoint": p.token_endpoint,
                "auth_methods": p.auth_methods,
            })
        });
        let clients: Vec<Value> = self.clients.iter().map(client_json).collect();
        Some(
            json!({ "v": VERSION, "grant": grant, "clients": clients, "pending": pending })
                .to_string(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Stored {
        Stored {
            grant: Some(Grant {
                tokens: TokenSet {
                    access_token: Secret::new("at"),
                    token_type: "Bearer".into(),
                    refresh_token: Some(Secret::new("rt")),
                    expires_at_ms: Some(1_000),
                    scope: Some("a b".into()),
                    issuer: "https://as".into(),
                },
                token_endpoint: "https://as/token".into(),
                resource: Some("https://mcp".into()),
                auth_methods: vec!["none".into()],
            }),
            clients: vec![ClientInformation {
                client_id: "c1".into(),
                client_secret: Some(Secret::new("s")),
                token_endpoint_auth_method: Some("client_secret_post".into()),
                issuer: Some("https://as".into()),
                client_secret_expires_at: Some(0),
            }],
            pending: Some(Pending {
                request: PendingAuthorization {
                    state: "st".into(),
                    code_verifier: Secret::new("v".repeat(43)),
                    redirect_uri: "https://app/cb".into(),
                    issuer: "https://as".into(),
                    iss_supported: true,
                    resource: None,
                    scope: Some("a".into()),
                    used: false,
                },
                token_endpoint: "https://as/token".into(),
                auth_methods: vec![],
            }),
        }
    }

    #[test]
    fn round_trips_every_field() {
        let s = sample();
        let text = s.to_text().expect("something to store");
        assert_eq!(Stored::parse(Some(&text)), s);
    }

    #[test]
    fn empty_state_deletes_the_key() {
        assert_eq!(Stored::default().to_text(), None);
    }

    #[test]
    fn damaged_or_foreign_documents_read_as_empty() {
        for text in [
            "",
            "null",
            "[]",
            "{\"v\":2,\"grant\":{}}",
            "{not json",
            "{\"v\":1,\"grant\":{\"access_token\":\"\"}}",
        ] {
            assert_eq!(Stored::parse(Some(text)).grant, None, "{text}");
        }
        assert_eq!(Stored::parse(None), Stored::default());
    }

    #[test]
    fn keys_are_per_server_url_as_given() {
        assert_ne!(key("https://a/mcp"), key("https://a/mcp/"));
    }
}
