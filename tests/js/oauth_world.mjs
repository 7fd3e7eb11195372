// A small, switchable OAuth world for the auth tests (tests/js/auth.test.mjs): one Node `http`
// server on 127.0.0.1 (port 0 = OS-assigned unless given) that plays
//
//   * an MCP resource server at /mcp, both eras: legacy (`initialize` + Mcp-Session-Id, GET →
//     405, DELETE → 200) and 2026-07-28 (`server/discover`, the `MCP-Protocol-Version` header and
//     the `_meta` envelope checked on every request); tools `echo`, `whoami` and `write` (needs
//     the scope mcp:write). Requests without a valid Bearer token get 401 with a configurable
//     WWW-Authenticate; a token without the tool's scope gets 403 insufficient_scope;
//   * protected resource metadata at /.well-known/oauth-protected-resource/mcp;
//   * authorization servers with issuers <origin>/as and <origin>/as2 (metadata at
//     /.well-known/oauth-authorization-server/as[2], /register, /authorize (302 to the redirect
//     URI with code, state and iss), /token: authorization_code with PKCE S256 checked, and
//     refresh_token), and optionally one at the origin root (2025-03-26 style, `rootAs`).
//
//
// For the grants without a user and DPoP (tests/js/auth-grants.test.mjs) the same world also has
//
//   * static clients (`world.addClient`): client_secret_basic / client_secret_post, or
//     private_key_jwt with a node:crypto public key (the client assertion's signature, iss, sub,
//     aud = the issuer, a unique jti and exp > iat are verified), and the `client_credentials`
//     and JWT bearer (RFC 7523) grants at /as/token (`world.tokenRequests` records each);
//   * an enterprise IdP at /idp/token doing the RFC 8693 exchange of an ID token
//     (`world.idToken()`) for an ID-JAG, which the AS then accepts as a JWT bearer assertion;
//   * DPoP (`opts.dpop`): the token endpoint wants an ES256 proof (verified against its header
//     jwk), issues token_type DPoP as a JWT carrying cnf.jkt, and the MCP server wants
//     `Authorization: DPoP` with a proof whose ath, htm, htu, jti and key match; nonces on demand
//     (`opts.asNonce`, `opts.mcpNonce`). Every proof received is in `world.proofs`.
//
// Every request is logged (`world.log`), every secret the world hands out or receives (access
// and refresh tokens, client secrets, codes, PKCE verifiers, assertions, ID tokens, ID-JAGs,
// DPoP proofs) is kept in `world.secrets`, and the behaviour is switched per test through
// `world.opts` (see DEFAULTS in oauth_world_defaults.mjs), also while running. The JOSE helpers and
// the proof and client-assertion checks are in oauth_world_jose.mjs.
import http from "node:http";
import { createHash } from "node:crypto";
import { readBody } from "../support/http.mjs";
import { DEFAULTS, streamOversized } from "./oauth_world_defaults.mjs";
import { b64url, fakeJwt, rand, sha256, verifiers } from "./oauth_world_jose.mjs";

export { decodeJwt, fakeJwt, jwkThumbprint, verifyJws } from "./oauth_world_jose.mjs";

const SERVER_INFO = { name: "oauth-world", version: "1" };
const TOOLS = [
  { name: "echo", description: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  { name: "whoami", description: "who the token belongs to", inputSchema: { type: "object", properties: {} } },
  { name: "write", description: "needs mcp:write", inputSchema: { type: "object", properties: {} } },
];
const MODERN = "2026-07-28";
const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";

/**
 * Starts a world. `opts` override DEFAULTS; `port` (default env AUTH_TEST_PORT, else 0).
 * Resolves to the world object: { origin, url, prmUrl, issuer(name), opts, log, secrets,
 * requests(pred), count(pathOrPred), revokeAll(), clients, streams, close() }.
 */
export async function startWorld(opts = {}, port = Number(process.env.AUTH_TEST_PORT ?? 0)) {
  const w = {
    opts: { ...DEFAULTS, ...opts },
    log: [],
    secrets: new Set(),
    /** access token → { scope, issuer, clientId, exp } */
    tokens: new Map(),
    /** refresh token → { scope, issuer, clientId, resource } */
    refreshTokens: new Map(),
    /** code → { clientId, challenge, redirectUri, scope, resource, issuer, used } */
    codes: new Map(),
    /** issuer → Map(client_id → { secret, method }) */
    clients: new Map(),
    sessions: new Set(),
    /** Token endpoint requests: { issuer, grant, clientAuth, clientId, form, status, error, assertion }. */
    tokenRequests: [],
    /** IdP exchanges: { form, basic: [id, secret], status }. */
    exchanges: [],
    /** DPoP proofs received: { at: "as" | "mcp", header, claims, jkt, error }. */
    proofs: [],
    /** Why requests were refused (client assertions, proofs), for failing tests to show. */
    failures: [],
    /** jti values of client assertions and proofs seen. */
    jtis: new Set(),
    /** ID tokens the IdP knows, ID-JAGs it issued (ID-JAG → its audience and resource). */
    idTokens: new Set(),
    idJags: new Map(),
    /** Workload assertions the AS accepts for jwt_bearer (`world.assertion()`). */
    assertions: new Set(),
    /** Oversized answers sent (`opts.oversized`): { path, written, closedEarly, done }. */
    streams: [],
    /** The current DPoP nonces of the AS and the MCP server. */
    asNonce: `as-nonce-${rand(6)}`,
    mcpNonce: `mcp-nonce-${rand(6)}`,
  };
  const secret = (s) => {
    w.secrets.add(s);
    return s;
  };
  w.issuer = (name) => (name === "" ? w.origin : `${w.origin}/${name}`);
  w.requests = (pred) => w.log.filter(typeof pred === "function" ? pred : (r) => r.path === pred);
  w.count = (pred) => w.requests(pred).length;
  w.revokeAll = () => w.tokens.clear();
  /** Requests on the MCP endpoint with their JSON-RPC method (null for GET/DELETE). */
  w.mcp = () => w.requests((r) => r.path === "/mcp");
  /**
   * A client the AS at `name` knows (no registration): `secret` for client_secret_basic/post,
   * or `publicKey` (node:crypto KeyObject) and `alg` for private_key_jwt.
   */
  w.addClient = (name, clientId, { secret: s, publicKey, alg } = {}) => {
    const issuer = w.issuer(name);
    if (!w.clients.has(issuer)) w.clients.set(issuer, new Map());
    if (s) secret(s);
    w.clients.get(issuer).set(clientId, { secret: s, publicKey, alg, method: publicKey ? "private_key_jwt" : s ? "client_secret_basic" : "none", redirectUris: [] });
  };
  /** A workload JWT the AS accepts as a jwt_bearer assertion (kept among the secrets). */
  w.assertion = (claims = {}) => {
    const a = secret(fakeJwt({ iss: "https://workload.example", sub: "workload-1", jti: rand(), ...claims }));
    w.assertions.add(a);
    return a;
  };
  /** An ID token the IdP exchanges (kept among the secrets). */
  w.idToken = () => {
    const t = secret(fakeJwt({ iss: `${w.origin}/idp`, sub: "user-1", aud: w.idpClient.id, jti: rand() }));
    w.idTokens.add(t);
    return t;
  };
  /** Ends the life of every access token now (the client still holds them as valid). */
  w.expireAll = () => {
    for (const info of w.tokens.values()) info.exp = Date.now() - 1;
  };
  /** New DPoP nonces at the AS and the MCP server (proofs with the old ones are refused). */
  w.rotateNonces = () => {
    w.asNonce = `as-nonce-${rand(6)}`;
    w.mcpNonce = `mcp-nonce-${rand(6)}`;
  };

  const json = (res, status, obj, headers = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(obj));
  };
  const oauthError = (res, status, error, description) =>
    json(res, status, { error, ...(description ? { error_description: description } : {}) });

  function asMetadata(name) {
    const issuer = w.issuer(name);
    return {
      issuer: w.opts.metadataIssuer ?? issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      response_types_supported: ["code"],
      grant_types_supported: w.opts.grantTypes,
      code_challenge_methods_supported: w.opts.noS256 ? ["plain"] : ["S256"],
      token_endpoint_auth_methods_supported: w.opts.authMethods ?? ["none", "client_secret_post", "client_secret_basic"],
      scopes_supported: ["mcp:read", "mcp:write"],
      authorization_response_iss_parameter_supported: true,
    };
  }

  function issueTokens(issuer, clientId, scope, resource, expiresIn, grant, { jkt = null, refresh: withRefresh = true } = {}) {
    // A DPoP-bound token is a JWT naming its key (cnf.jkt); the world checks the binding itself.
    const bound = jkt && w.opts.bindToOtherKey ? b64url(sha256(`another key ${rand()}`)) : jkt;
    const access = secret(
      jkt ? fakeJwt({ iss: issuer, sub: clientId, aud: resource, jti: rand(), cnf: { jkt: bound } }, { alg: "HS256", typ: "at+jwt" }) : `at-${rand()}`,
    );
    w.tokens.set(access, { scope, issuer, clientId, resource, grant, jkt: bound, exp: Date.now() + expiresIn * 1000 });
    const out = { access_token: access, token_type: jkt ? "DPoP" : "Bearer", expires_in: expiresIn, scope };
    if (withRefresh) {
      const refresh = secret(`rt-${rand()}`);
      w.refreshTokens.set(refresh, { scope, issuer, clientId, resource, jkt });
      out.refresh_token = refresh;
    }
    return out;
  }
  const { checkProof, checkClientAssertion } = verifiers(w, secret);

  /** How a token request authenticated its client: "basic", "post", "private_key_jwt" or "none". */
  function clientAuthOf(req, form) {
    if (/^Basic /i.test(req.headers.authorization ?? "")) return "basic";
    if (form.client_assertion !== undefined) return "private_key_jwt";
    if (form.client_secret !== undefined) return "post";
    return "none";
  }

  /** Client authentication at the token endpoint: the client_id, or null when it fails. */
  function authenticate(req, form, issuer) {
    if (form.client_assertion !== undefined || form.client_assertion_type !== undefined) return checkClientAssertion(form, issuer);
    const known = w.clients.get(issuer) ?? new Map();
    let id = form.client_id;
    let given = form.client_secret;
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? "");
    if (basic) {
      const [u, p] = Buffer.from(basic[1], "base64").toString().split(":");
      id = decodeURIComponent(u);
      given = decodeURIComponent(p ?? "");
    }
    const c = known.get(id);
    if (!c) return null;
    if (c.publicKey) return null;
    if (c.secret && c.secret !== given) return null;
    return id;
  }

  async function authorizationServer(name, rest, req, res, url, body) {
    const issuer = w.issuer(name);
    if (rest === "/register" && req.method === "POST") {
      if (w.opts.registration) return json(res, w.opts.registration.status, w.opts.registration.body);
      let meta;
      try {
        meta = JSON.parse(body);
      } catch {
        return oauthError(res, 400, "invalid_client_metadata", "not JSON");
      }
      if (!Array.isArray(meta.redirect_uris) || meta.redirect_uris.length === 0)
        return oauthError(res, 400, "invalid_redirect_uri", "redirect_uris required");
      const clientId = `${name || "root"}-client-${rand(6)}`;
      const clientSecret = w.opts.clientSecret ? secret(`cs-${rand()}`) : undefined;
      const method = clientSecret ? "client_secret_post" : "none";
      if (!w.clients.has(issuer)) w.clients.set(issuer, new Map());
      w.clients.get(issuer).set(clientId, { secret: clientSecret, method, redirectUris: meta.redirect_uris });
      return json(res, 201, {
        ...meta,
        client_id: clientId,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        token_endpoint_auth_method: method,
      });
    }
    if (rest === "/authorize" && req.method === "GET") {
      const q = Object.fromEntries(url.searchParams);
      const client = w.clients.get(issuer)?.get(q.client_id);
      if (!client) return oauthError(res, 400, "invalid_client", `unknown client_id at ${issuer}`);
      if (q.response_type !== "code" || q.code_challenge_method !== "S256" || !q.code_challenge || !q.state)
        return oauthError(res, 400, "invalid_request", "response_type, S256 challenge and state required");
      if (!client.redirectUris.includes(q.redirect_uri)) return oauthError(res, 400, "invalid_request", "redirect_uri");
      const code = secret(`code-${rand()}`);
      w.codes.set(code, {
        clientId: q.client_id,
        challenge: q.code_challenge,
        redirectUri: q.redirect_uri,
        scope: q.scope ?? "",
        resource: q.resource,
        issuer,
        used: false,
      });
      const cb = new URL(q.redirect_uri);
      cb.searchParams.set("code", code);
      cb.searchParams.set("state", w.opts.callbackState === "wrong" ? "not-the-state" : q.state);
      cb.searchParams.set("iss", w.opts.callbackIss ?? issuer);
      res.writeHead(302, { location: cb.href });
      return res.end();
    }
    if (rest === "/token" && req.method === "POST") {
      const form = Object.fromEntries(new URLSearchParams(body));
      if (form.code_verifier) secret(form.code_verifier);
      if (form.assertion) secret(form.assertion);
      const record = { issuer, grant: form.grant_type, clientAuth: clientAuthOf(req, form), clientId: null, form, status: null, error: null, dpopJkt: null };
      w.tokenRequests.push(record);
      const refuse = (status, error, description, headers = {}) => {
        record.status = status;
        record.error = error;
        return json(res, status, { error, ...(description ? { error_description: description } : {}) }, headers);
      };
      // DPoP first (RFC 9449 §5): a proof of this POST to this endpoint, with the AS's nonce.
      let jkt = null;
      if (w.opts.dpop) {
        const p = checkProof(req, "as", "POST", `${issuer}/token`, { nonce: w.opts.asNonce ? w.asNonce : null });
        if (p.nonce) return refuse(400, "use_dpop_nonce", "a nonce is required", { "dpop-nonce": w.asNonce });
        if (p.error) return refuse(400, "invalid_dpop_proof", p.error);
        jkt = record.dpopJkt = p.jkt;
      }
      const clientId = authenticate(req, form, issuer);
      record.clientId = clientId;
      if (!clientId) return refuse(401, "invalid_client", "client authentication failed");
      const bound = { jkt };
      if (form.grant_type === "client_credentials" || form.grant_type === JWT_BEARER) {
        if (w.opts.grantError) {
          record.status = w.opts.grantError.status;
          return json(res, w.opts.grantError.status, w.opts.grantError.body);
        }
        if (form.grant_type === JWT_BEARER) {
          const a = form.assertion ?? "";
          const jag = w.idJags.get(a);
          const verdict = w.opts.acceptAssertion
            ? w.opts.acceptAssertion(a, form, issuer)
            : jag
              ? jag.audience === issuer || `the ID-JAG is for ${jag.audience}`
              : w.assertions.has(a) || "unknown assertion";
          if (verdict !== true) return refuse(400, "invalid_grant", verdict);
        }
        record.status = 200;
        return json(
          res,
          200,
          issueTokens(issuer, clientId, form.scope ?? "", form.resource, w.opts.expiresIn, form.grant_type, { ...bound, refresh: w.opts.grantRefresh }),
        );
      }
      if (form.grant_type === "authorization_code") {
        if (w.opts.tokenError) return json(res, w.opts.tokenError.status, w.opts.tokenError.body);
        const c = w.codes.get(form.code);
        if (!c || c.used || c.clientId !== clientId || c.issuer !== issuer)
          return oauthError(res, 400, "invalid_grant", "unknown or used code");
        c.used = true;
        if (b64url(createHash("sha256").update(form.code_verifier ?? "").digest()) !== c.challenge)
          return oauthError(res, 400, "invalid_grant", "PKCE verification failed");
        if (form.redirect_uri !== c.redirectUri) return oauthError(res, 400, "invalid_grant", "redirect_uri differs");
        if (c.resource !== undefined && form.resource !== c.resource)
          return oauthError(res, 400, "invalid_target", "resource differs");
        record.status = 200;
        return json(res, 200, issueTokens(issuer, clientId, c.scope, c.resource, w.opts.expiresIn, "authorization_code", bound));
      }
      if (form.grant_type === "refresh_token") {
        if (w.opts.refreshError) return json(res, w.opts.refreshError.status, w.opts.refreshError.body);
        const r = w.refreshTokens.get(form.refresh_token);
        if (!r || r.clientId !== clientId || r.issuer !== issuer)
          return oauthError(res, 400, "invalid_grant", "unknown refresh token");
        // A refresh token bound to a DPoP key is only redeemed with a proof of that key.
        if (r.jkt && r.jkt !== jkt) return refuse(400, "invalid_grant", "the refresh token is bound to another DPoP key");
        w.refreshTokens.delete(form.refresh_token);
        record.status = 200;
        return json(res, 200, issueTokens(issuer, clientId, r.scope, r.resource, w.opts.refreshExpiresIn, "refresh_token", bound));
      }
      return oauthError(res, 400, "unsupported_grant_type");
    }
    return json(res, 404, { error: "not found" });
  }

  /** The enterprise IdP's token endpoint: RFC 8693 ID token → ID-JAG (for the AS `audience`). */
  function idp(req, res, body) {
    const form = Object.fromEntries(new URLSearchParams(body));
    if (form.subject_token) secret(form.subject_token);
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? "");
    const pair = basic ? Buffer.from(basic[1], "base64").toString().split(":").map(decodeURIComponent) : null;
    const record = { form, basic: pair, status: null };
    w.exchanges.push(record);
    const refuse = (status, error, description) => {
      record.status = status;
      return oauthError(res, status, error, description);
    };
    if (w.opts.idpError) {
      record.status = w.opts.idpError.status;
      return json(res, w.opts.idpError.status, w.opts.idpError.body);
    }
    if (!pair || pair[0] !== w.idpClient.id || pair[1] !== w.idpClient.secret) return refuse(401, "invalid_client", "IdP client authentication failed");
    if (form.grant_type !== TOKEN_EXCHANGE) return refuse(400, "unsupported_grant_type");
    if (form.requested_token_type !== ID_JAG_TYPE) return refuse(400, "invalid_request", "requested_token_type");
    if (form.subject_token_type !== ID_TOKEN_TYPE) return refuse(400, "invalid_request", "subject_token_type");
    if (!w.idTokens.has(form.subject_token)) return refuse(400, "invalid_grant", "unknown ID token");
    const jag = secret(
      fakeJwt({ iss: `${w.origin}/idp`, sub: "user-1", aud: form.audience, resource: form.resource, client_id: "from-idp", jti: rand() }, { alg: "HS256", typ: "oauth-id-jag+jwt" }),
    );
    w.idJags.set(jag, { audience: form.audience, resource: form.resource });
    record.status = 200;
    return json(res, 200, { access_token: jag, issued_token_type: ID_JAG_TYPE, token_type: "N_A", expires_in: 300 });
  }

  function challengeHeader() {
    const c = typeof w.opts.challenge === "function" ? w.opts.challenge(w) : w.opts.challenge;
    return c ? { "www-authenticate": c } : {};
  }

  /**
   * The token of the request, when valid: { token, info }; else null, or { nonce: true } when
   * only the DPoP nonce was missing or stale. A DPoP-bound token needs `Authorization: DPoP`
   * and a proof of its key (ath, htm, htu); a Bearer token `Authorization: Bearer`.
   */
  function bearer(req) {
    if (w.opts.refuseTokens) return null;
    const m = /^(Bearer|DPoP) (.+)$/.exec(req.headers.authorization ?? "");
    const info = m && w.tokens.get(m[2]);
    if (!info || info.exp <= Date.now()) return null;
    if (info.jkt) {
      if (m[1] !== "DPoP") {
        w.failures.push("mcp: a DPoP-bound token sent as Bearer");
        return null;
      }
      const p = checkProof(req, "mcp", req.method, w.url, { token: m[2], nonce: w.opts.mcpNonce ? w.mcpNonce : null });
      if (p.nonce) return { nonce: true };
      if (p.error) return null;
      if (p.jkt !== info.jkt) {
        w.failures.push("mcp: the proof's key is not the token's");
        return null;
      }
    } else if (m[1] !== "Bearer") {
      w.failures.push("mcp: a Bearer token sent as DPoP");
      return null;
    }
    return { token: m[2], info };
  }

  function mcp(req, res, body, entry) {
    let msg = null;
    if (req.method === "POST") {
      try {
        msg = JSON.parse(body);
      } catch {
        return json(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      }
      entry.rpc = msg.method ?? null;
    }
    const headerVersion = req.headers["mcp-protocol-version"];
    const metaVersion = msg?.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
    const modern = msg?.method === "server/discover" || headerVersion === MODERN || metaVersion !== undefined;
    if (msg) entry.era = msg.method === "initialize" ? "legacy" : modern ? "modern" : "legacy";
    const checked = bearer(req);
    const auth = checked?.info ? checked : null;
    entry.authorized = Boolean(auth);
    entry.grant = auth?.info.grant;
    if (checked?.nonce) {
      entry.nonceRefused = true;
      res.writeHead(401, {
        "content-type": "application/json",
        "www-authenticate": 'DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof"',
        "dpop-nonce": w.mcpNonce,
      });
      return res.end(JSON.stringify({ error: "use_dpop_nonce" }));
    }
    if (!auth && w.opts.protect(req, msg)) {
      res.writeHead(401, { "content-type": "application/json", ...challengeHeader() });
      return res.end(JSON.stringify({ error: "invalid_token" }));
    }
    if (req.method === "GET") {
      res.writeHead(405, { allow: "POST, DELETE" });
      return res.end();
    }
    if (req.method === "DELETE") {
      w.sessions.delete(req.headers["mcp-session-id"]);
      res.writeHead(200);
      return res.end();
    }
    if (req.method !== "POST") {
      res.writeHead(405);
      return res.end();
    }
    if (typeof msg?.method !== "string" || msg.id === undefined) {
      res.writeHead(202);
      return res.end();
    }
    const id = msg.id;
    const bad = (message) => json(res, 400, { jsonrpc: "2.0", id, error: { code: -32602, message } });
    if (modern) {
      if (headerVersion !== MODERN || metaVersion !== MODERN)
        return bad(`2026 requests need MCP-Protocol-Version and _meta protocolVersion ${MODERN}`);
      if (req.headers["mcp-method"] !== msg.method) return bad("Mcp-Method must equal the method");
    } else if (msg.method !== "initialize" && !w.sessions.has(req.headers["mcp-session-id"])) {
      return json(res, 404, { jsonrpc: "2.0", id, error: { code: -32001, message: "Session not found" } });
    }
    const result = (r) => {
      const stamped = modern ? { resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO }, ...r } : r;
      return json(res, 200, { jsonrpc: "2.0", id, result: stamped });
    };
    switch (msg.method) {
      case "initialize": {
        const sid = rand();
        w.sessions.add(sid);
        const asked = msg.params?.protocolVersion;
        res.setHeader("mcp-session-id", sid);
        return result({
          protocolVersion: LEGACY_VERSIONS.includes(asked) ? asked : LEGACY_VERSIONS[0],
          capabilities: { tools: {} },
          serverInfo: SERVER_INFO,
        });
      }
      case "server/discover":
        return result({ supportedVersions: [MODERN], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private" });
      case "tools/list":
        return result({ tools: TOOLS, ...(modern ? { ttlMs: 0, cacheScope: "private" } : {}) });
      case "tools/call": {
        const name = msg.params?.name;
        const need = w.opts.toolScopes[name];
        const granted = (auth?.info.scope ?? "").split(" ").filter(Boolean);
        if (w.opts.alwaysInsufficient || (need && !granted.includes(need))) {
          const always = w.opts.alwaysInsufficient;
          const scope = always
            ? typeof always === "function"
              ? always(w)
              : "mcp:read mcp:admin"
            : [...new Set([...granted, need])].join(" ");
          res.writeHead(403, {
            "content-type": "application/json",
            "www-authenticate": `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${w.prmUrl}"`,
          });
          return res.end(JSON.stringify({ error: "insufficient_scope" }));
        }
        const text =
          name === "echo"
            ? String(msg.params?.arguments?.text ?? "")
            : name === "whoami"
              ? `${auth?.info.clientId ?? "anonymous"} @ ${auth?.info.issuer ?? "-"} scope=${auth?.info.scope ?? ""}`
              : name === "write"
                ? "written"
                : null;
        if (text === null) return json(res, 200, { jsonrpc: "2.0", id, error: { code: -32602, message: `no tool ${name}` } });
        return result({ content: [{ type: "text", text }] });
      }
      case "ping":
        return result({});
      default:
        return json(res, 200, { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
    }
  }

  async function handle(req, res) {
    const url = new URL(req.url, w.origin);
    const body = req.method === "POST" ? await readBody(req) : "";
    const entry = {
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...req.headers },
      body,
      status: null,
    };
    w.log.push(entry);
    const orig = res.writeHead.bind(res);
    res.writeHead = (status, ...rest) => {
      entry.status = status;
      return orig(status, ...rest);
    };
    const p = url.pathname;
    const big = w.opts.oversized;
    if (big?.path === p && w.log.filter((r) => r.path === p).length > (big.after ?? 0)) {
      w.streams.push(streamOversized(res, w.opts.oversized));
      return;
    }
    if (p === "/mcp") return mcp(req, res, body, entry);
    if (p === "/idp/token" && req.method === "POST") return idp(req, res, body);
    if (p === "/.well-known/oauth-protected-resource/mcp") {
      if (!w.opts.prm) return json(res, 404, { error: "not found" });
      return json(res, 200, {
        resource: w.opts.prmResource ?? w.url,
        authorization_servers: [w.issuer(w.opts.activeAs)],
        scopes_supported: w.opts.prmScopes,
        bearer_methods_supported: ["header"],
      });
    }
    for (const name of ["as", "as2", ""]) {
      if (name === "" && !w.opts.rootAs) continue;
      const suffix = name ? `/${name}` : "";
      if (p === `/.well-known/oauth-authorization-server${suffix}`) {
        if (!w.opts.asMetadata) break;
        return json(res, 200, asMetadata(name));
      }
      if (p.startsWith(`${suffix}/`) && ["/register", "/authorize", "/token"].includes(p.slice(suffix.length)))
        return authorizationServer(name, p.slice(suffix.length), req, res, url, body);
    }
    return json(res, 404, { error: "not found" });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      console.error("oauth_world:", e);
      if (!res.headersSent) json(res, 500, { error: "server_error" });
      else res.destroy();
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  w.origin = `http://127.0.0.1:${server.address().port}`;
  w.url = `${w.origin}/mcp`;
  w.idpTokenEndpoint = `${w.origin}/idp/token`;
  w.idpClient = { id: "idp-client", secret: secret(`idp-cs-${rand()}`) };
  w.prmUrl = `${w.origin}/.well-known/oauth-protected-resource/mcp`;
  w.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    });
  return w;
}
