//! One fake authorization server: metadata, dynamic registration, and a token endpoint that
//! checks PKCE, codes, client authentication (private_key_jwt assertions of the fake signer
//! included), refresh tokens, the grants without a user, DPoP tokens and nonces.

use super::*;

/// A fake authorization server.
pub struct FakeAs {
    /// Short name used in minted values (`as1`).
    pub tag: String,
    pub issuer: String,
    /// Where the metadata document is served (`None`: nowhere).
    pub metadata_url: Option<String>,
    /// The metadata document (its endpoints are also where the fake answers).
    pub metadata: Value,
    /// Put `iss` in callbacks (mode `Normal`).
    pub send_iss: bool,
    /// Registered `client_id`s start with this (`<tag>-client-`).
    pub client_id_prefix: String,
    /// The `token_endpoint_auth_method` registration grants (`None`: as requested).
    pub register_method: Option<String>,
    /// Scripted registration responses, used first.
    pub register_script: VecDeque<(u16, String)>,
    /// Scripted token responses, used first.
    pub token_script: VecDeque<(u16, String)>,
    /// The scope granted (`None`: as requested).
    pub grant_scope: Option<String>,
    pub expires_in: Option<u64>,
    pub issue_refresh: bool,
    /// Known clients: `client_id` → secret.
    pub clients: HashMap<String, Option<String>>,
    pub codes: HashMap<String, Code>,
    pub refresh_tokens: HashMap<String, Refresh>,
    /// Access tokens issued, with their scope, in order.
    pub access_tokens: Vec<(String, Option<String>)>,
    /// Clients registered here, in order.
    pub registered: Vec<String>,
    /// Clients that authenticate with `private_key_jwt` (the fake signer's assertions).
    pub key_clients: Vec<String>,
    /// Answer `token_type` `DPoP` to a token request carrying a DPoP proof.
    pub dpop_tokens: bool,
    /// Issue access tokens as JWTs with this `cnf.jkt`.
    pub access_jkt: Option<String>,
    /// Each token request first pops one of these: a `400 use_dpop_nonce` with that nonce
    /// (which is then required).
    pub nonce_script: VecDeque<String>,
    /// The DPoP nonce a proof must carry (else `400 use_dpop_nonce` with it).
    pub required_nonce: Option<String>,
    /// Issue refresh tokens to `client_credentials` and JWT bearer grants too.
    pub refresh_for_grants: bool,
    /// `jti`s of the client assertions seen: a replay is `invalid_client` (RFC 7523 §3).
    pub assertion_jtis: Vec<String>,
    serial: u32,
}

fn metadata_for(issuer: &str) -> Value {
    json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "registration_endpoint": format!("{issuer}/register"),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
        "authorization_response_iss_parameter_supported": true,
    })
}

impl FakeAs {
    /// An AS for `issuer` serving its metadata at `metadata_url`, endpoints under the issuer.
    pub fn new(tag: &str, issuer: &str, metadata_url: Option<&str>) -> Self {
        FakeAs {
            tag: tag.into(),
            issuer: issuer.into(),
            metadata_url: metadata_url.map(str::to_string),
            metadata: metadata_for(issuer),
            send_iss: true,
            client_id_prefix: format!("{tag}-client-"),
            register_method: None,
            register_script: VecDeque::new(),
            token_script: VecDeque::new(),
            grant_scope: None,
            expires_in: Some(3600),
            issue_refresh: true,
            clients: HashMap::new(),
            codes: HashMap::new(),
            refresh_tokens: HashMap::new(),
            access_tokens: Vec::new(),
            registered: Vec::new(),
            key_clients: Vec::new(),
            dpop_tokens: false,
            access_jkt: None,
            nonce_script: VecDeque::new(),
            required_nonce: None,
            refresh_for_grants: false,
            assertion_jtis: Vec::new(),
            serial: 0,
        }
    }

    fn endpoint(&self, name: &str) -> Option<String> {
        self.metadata[name].as_str().map(str::to_string)
    }

    pub fn authorization_endpoint(&self) -> String {
        self.endpoint("authorization_endpoint").unwrap()
    }

    pub fn token_endpoint(&self) -> String {
        self.endpoint("token_endpoint").unwrap()
    }

    pub fn registration_endpoint(&self) -> Option<String> {
        self.endpoint("registration_endpoint")
    }

    pub(super) fn next(&mut self) -> u32 {
        self.serial += 1;
        self.serial
    }

    pub(super) fn register(&mut self, req: &Sent) -> (u16, String) {
        if let Some(r) = self.register_script.pop_front() {
            return r;
        }
        let body = req.json();
        let n = self.next();
        let client_id = format!("{}{n}", self.client_id_prefix);
        let method = self.register_method.clone().unwrap_or_else(|| {
            body["token_endpoint_auth_method"]
                .as_str()
                .unwrap_or("client_secret_basic")
                .to_string()
        });
        let secret = (method != "none").then(|| format!("CS-SECRET-{}-{n}", self.tag));
        self.clients.insert(client_id.clone(), secret.clone());
        self.registered.push(client_id.clone());
        let mut out = body.clone();
        out["client_id"] = json!(client_id);
        out["token_endpoint_auth_method"] = json!(method);
        if let Some(s) = secret {
            out["client_secret"] = json!(s);
            out["client_secret_expires_at"] = json!(0);
        }
        (201, out.to_string())
    }

    fn oauth_error(status: u16, error: &str, description: &str) -> (u16, String) {
        (
            status,
            json!({ "error": error, "error_description": description }).to_string(),
        )
    }

    /// The token endpoint: the status, the body, and a `DPoP-Nonce`.
    pub(super) fn token_with_nonce(&mut self, req: &Sent) -> (u16, String, Option<String>) {
        // Like most ASes, this one authenticates the client (using up the assertion's jti)
        // before it looks at the DPoP proof.
        if let Some(assertion) = req.param("client_assertion") {
            let jti = jws_part(&assertion, 1)["jti"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            if jti.is_empty() || self.assertion_jtis.contains(&jti) {
                let (s, b) = Self::oauth_error(401, "invalid_client", "client assertion replayed");
                return (s, b, None);
            }
            self.assertion_jtis.push(jti);
        }
        if let Some(n) = self.nonce_script.pop_front() {
            self.required_nonce = Some(n.clone());
            let (s, b) = Self::oauth_error(400, "use_dpop_nonce", "a nonce is required");
            return (s, b, Some(n));
        }
        if let Some(n) = self.required_nonce.clone() {
            let sent = req
                .dpop
                .as_deref()
                .map(|p| jws_part(p, 1)["nonce"].as_str().map(str::to_string));
            if sent.flatten().as_deref() != Some(n.as_str()) {
                let (s, b) = Self::oauth_error(400, "use_dpop_nonce", "a nonce is required");
                return (s, b, Some(n));
            }
        }
        let (s, b) = self.token(req);
        (s, b, None)
    }

    /// Checks a `private_key_jwt` client assertion made by the fake signer.
    fn check_client_assertion(&self, form: &[(String, String)]) -> Result<String, (u16, String)> {
        let bad = |d: &str| Self::oauth_error(401, "invalid_client", d);
        if param(form, "client_assertion_type").as_deref()
            != Some("urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        {
            return Err(bad("client_assertion_type"));
        }
        let assertion = param(form, "client_assertion").unwrap_or_default();
        let parts: Vec<&str> = assertion.split('.').collect();
        if parts.len() != 3 {
            return Err(bad("not a JWS"));
        }
        let input = format!("{}.{}", parts[0], parts[1]);
        if URL_SAFE_NO_PAD.encode(sha256(input.as_bytes())) != parts[2] {
            return Err(bad("bad signature"));
        }
        let claims = jws_part(&assertion, 1);
        let client_id = param(form, "client_id").unwrap_or_default();
        if claims["iss"] != json!(client_id) || claims["sub"] != json!(client_id) {
            return Err(bad("iss/sub"));
        }
        if claims["aud"] != json!(self.issuer) {
            return Err(bad("aud"));
        }
        if !self.key_clients.contains(&client_id) {
            return Err(bad("no key for this client"));
        }
        Ok(client_id)
    }

    fn token(&mut self, req: &Sent) -> (u16, String) {
        if let Some(r) = self.token_script.pop_front() {
            return r;
        }
        let form = req.form();
        if param(&form, "client_assertion").is_some() {
            return match self.check_client_assertion(&form) {
                Ok(client_id) => self.grant(req, &form, &client_id),
                Err(e) => e,
            };
        }
        let (client_id, secret) = match &req.authorization {
            Some(basic) => {
                let raw = basic.strip_prefix("Basic ").expect("Basic authorization");
                let pair = String::from_utf8(STANDARD.decode(raw).expect("base64")).unwrap();
                let (id, secret) = pair.split_once(':').expect("id:secret");
                (decode(id), Some(decode(secret)))
            }
            None => (
                param(&form, "client_id").unwrap_or_default(),
                param(&form, "client_secret"),
            ),
        };
        match self.clients.get(&client_id) {
            None => return Self::oauth_error(401, "invalid_client", "unknown client"),
            Some(expected) if *expected != secret => {
                return Self::oauth_error(401, "invalid_client", "bad client authentication")
            }
            Some(_) => {}
        }
        self.grant(req, &form, &client_id)
    }

    /// The grant, for an authenticated `client_id`.
    fn grant(&mut self, req: &Sent, form: &[(String, String)], client_id: &str) -> (u16, String) {
        let form = form.to_vec();
        let client_id = client_id.to_string();
        let dpop = req.dpop.is_some();
        let resource = param(&form, "resource");
        match param(&form, "grant_type").as_deref() {
            Some("client_credentials") => {
                let refresh = self.refresh_for_grants;
                self.issue_as(&client_id, param(&form, "scope"), resource, dpop, refresh)
            }
            Some("urn:ietf:params:oauth:grant-type:jwt-bearer") => {
                if param(&form, "assertion").unwrap_or_default().is_empty() {
                    return Self::oauth_error(400, "invalid_grant", "no assertion");
                }
                let refresh = self.refresh_for_grants;
                self.issue_as(&client_id, param(&form, "scope"), resource, dpop, refresh)
            }
            Some("authorization_code") => {
                let Some(code) = param(&form, "code").and_then(|c| self.codes.remove(&c)) else {
                    return Self::oauth_error(400, "invalid_grant", "unknown or used code");
                };
                let verifier = param(&form, "code_verifier").unwrap_or_default();
                if URL_SAFE_NO_PAD.encode(sha256(verifier.as_bytes())) != code.challenge {
                    return Self::oauth_error(400, "invalid_grant", "PKCE verification failed");
                }
                if code.client_id != client_id {
                    return Self::oauth_error(400, "invalid_grant", "code of another client");
                }
                if param(&form, "redirect_uri").as_deref() != Some(code.redirect_uri.as_str()) {
                    return Self::oauth_error(400, "invalid_grant", "redirect_uri differs");
                }
                if resource != code.resource {
                    return Self::oauth_error(400, "invalid_target", "resource differs");
                }
                let refresh = self.issue_refresh;
                self.issue_as(&client_id, code.scope, resource, dpop, refresh)
            }
            Some("refresh_token") => {
                let Some(r) = param(&form, "refresh_token")
                    .and_then(|t| self.refresh_tokens.get(&t).cloned())
                else {
                    return Self::oauth_error(400, "invalid_grant", "unknown refresh token");
                };
                if r.client_id != client_id {
                    return Self::oauth_error(400, "invalid_grant", "token of another client");
                }
                if resource != r.resource {
                    return Self::oauth_error(400, "invalid_target", "resource differs");
                }
                let refresh = self.issue_refresh;
                self.issue_as(&client_id, r.scope, resource, dpop, refresh)
            }
            _ => Self::oauth_error(400, "unsupported_grant_type", "?"),
        }
    }

    fn issue_as(
        &mut self,
        client_id: &str,
        scope: Option<String>,
        resource: Option<String>,
        dpop: bool,
        issue_refresh: bool,
    ) -> (u16, String) {
        let n = self.next();
        let granted = self.grant_scope.clone().or(scope);
        let mut access = format!("AT-SECRET-{}-{n}", self.tag);
        if let Some(jkt) = &self.access_jkt {
            let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"ES256","typ":"at+jwt"}"#);
            let claims = json!({ "sub": client_id, "cnf": { "jkt": jkt }, "n": n });
            let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
            access = format!("{header}.{claims}.{access}");
        }
        self.access_tokens.push((access.clone(), granted.clone()));
        let token_type = if dpop && self.dpop_tokens {
            "DPoP"
        } else {
            "Bearer"
        };
        let mut body = json!({ "access_token": access, "token_type": token_type });
        if let Some(e) = self.expires_in {
            body["expires_in"] = json!(e);
        }
        if let Some(s) = &granted {
            body["scope"] = json!(s);
        }
        if issue_refresh {
            let rt = format!("RT-SECRET-{}-{n}", self.tag);
            self.refresh_tokens.insert(
                rt.clone(),
                Refresh {
                    client_id: client_id.into(),
                    scope: granted,
                    resource,
                },
            );
            body["refresh_token"] = json!(rt);
        }
        (200, body.to_string())
    }
}
