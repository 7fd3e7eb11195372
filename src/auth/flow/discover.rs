//! Discovery, sequenced: the protected-resource metadata (a challenge's URL first, then the
//! well-known ones), then the authorization server's metadata, each checked (`resource`,
//! `issuer`); a 2025-03-26 server without PRM uses its origin's metadata or the default
//! endpoints.

use super::{AuthHost, AuthRequest, Authorizer};
use crate::auth::challenge::AuthHint;
use crate::auth::discovery::{self, Verdict};
use crate::auth::errors;
use crate::auth::metadata::{self, ServerMetadata};
use crate::auth::url;
use crate::json::{json, Value};
use crate::protocol::error::{ErrorKind, McpError};

/// One metadata URL tried, with its status (`None`: the fetch failed).
type Tried = Vec<(String, Option<u16>)>;

/// The document found among some URLs (if any), and every URL tried.
struct Search {
    found: Option<String>,
    tried: Tried,
}

fn tried_json(tried: &Tried) -> Value {
    Value::Array(
        tried
            .iter()
            .map(|(url, status)| json!({ "url": url, "status": status }))
            .collect(),
    )
}

/// The `auth_metadata` error naming every URL tried and its status.
fn not_found(what: &str, tried: &Tried) -> McpError {
    let mut message = format!("No {what} found; tried ");
    for (i, (url, status)) in tried.iter().enumerate() {
        if i > 0 {
            message.push_str(", ");
        }
        message.push_str(url);
        match status {
            Some(s) => message.push_str(&format!(" ({s})")),
            None => message.push_str(" (fetch failed)"),
        }
    }
    errors::auth_error(
        ErrorKind::AuthMetadata,
        message,
        json!({ "tried": tried_json(tried) }),
    )
}

/// The PRM URLs to try: a challenge's `resource_metadata` first, then the well-known ones.
fn prm_url_list(server_url: &str, hint: &AuthHint) -> Result<Vec<String>, McpError> {
    let mut urls = discovery::prm_urls(server_url, hint.resource_metadata.as_deref())?;
    if hint.resource_metadata.is_some() {
        // A challenge's URL that fails falls back to the well-known ones.
        for u in discovery::prm_urls(server_url, None)? {
            if !urls.contains(&u) {
                urls.push(u);
            }
        }
    }
    Ok(urls)
}

/// The 2025-03-26 authorization server of a server without PRM: its origin, if https.
fn legacy_issuer(server_url: &str) -> Result<String, McpError> {
    let issuer = discovery::legacy_issuer(server_url)?;
    if !url::is_acceptable_endpoint(&issuer) {
        return Err(errors::metadata(format!(
            "The server {} has no protected resource metadata, and its own origin (the 2025-03-26 authorization server) is not https: credentials are not sent there",
            errors::clean_text(server_url)
        )));
    }
    Ok(issuer)
}

/// The AS metadata from the document `found` at one of `tried` (`legacy`: of a server
/// without PRM, whose AS may have none: then the default endpoints).
fn server_metadata(
    search: Search,
    issuer: &str,
    legacy: bool,
    server_url: &str,
) -> Result<ServerMetadata, McpError> {
    match (search.found, legacy) {
        (Some(body), false) => metadata::parse_server_metadata(&body, issuer),
        (Some(body), true) => metadata::parse_legacy_server_metadata(&body, issuer),
        (None, false) => Err(not_found("authorization server metadata", &search.tried)),
        (None, true) => Ok(ServerMetadata::legacy_defaults(
            issuer,
            &discovery::legacy_endpoints(server_url)?,
        )),
    }
}

impl<H: AuthHost> Authorizer<H> {
    /// Fetches PRM (unless known) and the AS metadata, checking `resource` and `issuer`.
    pub(super) async fn discover(&self, hint: &AuthHint) -> Result<(), McpError> {
        let server_url = self.config.server_url.as_str();
        let mut prm = self.state.borrow().prm.clone();
        if prm.is_none() {
            let search = self
                .first_document(&prm_url_list(server_url, hint)?)
                .await?;
            if let Some(body) = search.found {
                prm = Some(metadata::parse_resource_metadata(&body, server_url)?);
            }
        }
        // 2025-03-26 (no PRM): the AS is the server's origin, else default endpoints.
        let issuer = match &prm {
            Some(prm) => prm.issuer().to_string(),
            None => legacy_issuer(server_url)?,
        };
        let search = self
            .first_document(&discovery::as_metadata_urls(&issuer)?)
            .await?;
        let meta = server_metadata(search, &issuer, prm.is_none(), server_url)?;
        let mut st = self.state.borrow_mut();
        st.prm = prm;
        st.meta = Some(meta);
        Ok(())
    }

    /// GETs `urls` in order until one reads as a document; none found when none exists. A
    /// document that exists but fails its checks (or is too large) is the error; so is a 5xx
    /// or 3xx; and when
    /// every fetch failed for CORS, that `auth_cors` error.
    async fn first_document(&self, urls: &[String]) -> Result<Search, McpError> {
        let mut tried: Tried = Vec::new();
        let mut cors: Option<McpError> = None;
        for url in urls {
            let get = AuthRequest::new("GET", url, None, None, None, metadata::MAX_DOCUMENT_BYTES);
            let response = self.host.fetch(get).await;
            let status = match &response {
                Ok(r) => Some(r.status),
                // A document that exists but is refused (too large) ends the search.
                Err(e) if e.kind == Some(ErrorKind::AuthMetadata) => return Err(e.clone()),
                Err(e) => {
                    if e.kind == Some(ErrorKind::AuthCors) && cors.is_none() {
                        cors = Some(e.clone());
                    }
                    None
                }
            };
            tried.push((url.clone(), status));
            match discovery::verdict(status) {
                Verdict::Use => {
                    let found = Some(response.map(|r| r.body).unwrap_or_default());
                    return Ok(Search { found, tried });
                }
                Verdict::Next => continue,
                Verdict::Fail => {
                    return Err(not_found("usable metadata", &tried)
                        .with_context(format!("{url} answered HTTP {}", status.unwrap_or(0))))
                }
            }
        }
        match cors {
            // Every fetch failed (none got a status) and one of them for CORS.
            Some(e) if tried.iter().all(|(_, s)| s.is_none()) => Err(e),
            _ => Ok(Search { found: None, tried }),
        }
    }
}
