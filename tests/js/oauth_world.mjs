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
// Every request is logged (`world.log`), every secret the world hands out or receives (access
// and refresh tokens, client secrets, codes, PKCE verifiers) is kept in `world.secrets`, and the
// behaviour is switched per test through `world.opts` (see DEFAULTS), also while running.
import http from "node:http";
import { createHash, randomBytes } from "node:crypto";

const SERVER_INFO = { name: "oauth-world", version: "1" };
const TOOLS = [
  { name: "echo", description: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  { name: "whoami", description: "who the token belongs to", inputSchema: { type: "object", properties: {} } },
  { name: "write", description: "needs mcp:write", inputSchema: { type: "object", properties: {} } },
];
const MODERN = "2026-07-28";
const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/** The switches; each may be changed on `world.opts` at any time. */
const DEFAULTS = {
  /** Which MCP requests need a token: (req, msg) => boolean (msg null for GET/DELETE). */
  protect: () => true,
  /** The 401's WWW-Authenticate: a string, a function of the world, or null for none. */
  challenge: (w) => `Bearer resource_metadata="${w.prmUrl}", scope="mcp:read"`,
  /** Serve PRM at all. */
  prm: true,
  /** PRM `resource` (default: the MCP URL). */
  prmResource: null,
  /** The AS named by PRM: "as" or "as2". */
  activeAs: "as",
  /** PRM scopes_supported. */
  prmScopes: ["mcp:read", "mcp:write"],
  /** Serve AS metadata. */
  asMetadata: true,
  /** An `issuer` other than the one the metadata is fetched for. */
  metadataIssuer: null,
  /** Leave S256 out of code_challenge_methods_supported. */
  noS256: false,
  /** Serve an AS (metadata and endpoints) at the origin root too. */
  rootAs: false,
  /** Registration returns a client_secret (client_secret_post). */
  clientSecret: true,
  /** A refusal for /register: { status, body }. */
  registration: null,
  /** A refusal for the authorization_code grant: { status, body }. */
  tokenError: null,
  /** A refusal for the refresh_token grant: { status, body }. */
  refreshError: null,
  /** "wrong": the callback carries another state. */
  callbackState: "ok",
  /** A string: the callback's iss (default: the issuer). */
  callbackIss: null,
  /** expires_in of tokens from the authorization_code grant, and from refreshes. */
  expiresIn: 3600,
  refreshExpiresIn: 3600,
  /** Required scopes per tool name. */
  toolScopes: { write: "mcp:write" },
  /** Every tools/call answers 403 insufficient_scope, whatever the token. */
  alwaysInsufficient: false,
};

const rand = (n = 12) => randomBytes(n).toString("base64url");
const b64url = (buf) => Buffer.from(buf).toString("base64url");

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * Starts a world. `opts` override DEFAULTS; `port` (default env AUTH_TEST_PORT, else 0).
 * Resolves to the world object: { origin, url, prmUrl, issuer(name), opts, log, secrets,
 * requests(pred), count(pathOrPred), revokeAll(), clients, close() }.
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
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: w.opts.noS256 ? ["plain"] : ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
      scopes_supported: ["mcp:read", "mcp:write"],
      authorization_response_iss_parameter_supported: true,
    };
  }

  function issueTokens(issuer, clientId, scope, resource, expiresIn, grant) {
    const access = secret(`at-${rand()}`);
    const refresh = secret(`rt-${rand()}`);
    w.tokens.set(access, { scope, issuer, clientId, resource, grant, exp: Date.now() + expiresIn * 1000 });
    w.refreshTokens.set(refresh, { scope, issuer, clientId, resource });
    return { access_token: access, token_type: "Bearer", expires_in: expiresIn, refresh_token: refresh, scope };
  }

  /** Client authentication at the token endpoint: the client_id, or null when it fails. */
  function authenticate(req, form, issuer) {
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
      const clientId = authenticate(req, form, issuer);
      if (!clientId) return oauthError(res, 401, "invalid_client", "client authentication failed");
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
        return json(res, 200, issueTokens(issuer, clientId, c.scope, c.resource, w.opts.expiresIn, "authorization_code"));
      }
      if (form.grant_type === "refresh_token") {
        if (w.opts.refreshError) return json(res, w.opts.refreshError.status, w.opts.refreshError.body);
        const r = w.refreshTokens.get(form.refresh_token);
        if (!r || r.clientId !== clientId || r.issuer !== issuer)
          return oauthError(res, 400, "invalid_grant", "unknown refresh token");
        w.refreshTokens.delete(form.refresh_token);
        return json(res, 200, issueTokens(issuer, clientId, r.scope, r.resource, w.opts.refreshExpiresIn, "refresh_token"));
      }
      return oauthError(res, 400, "unsupported_grant_type");
    }
    return json(res, 404, { error: "not found" });
  }

  function challengeHeader() {
    const c = typeof w.opts.challenge === "function" ? w.opts.challenge(w) : w.opts.challenge;
    return c ? { "www-authenticate": c } : {};
  }

  /** The token of the request, when valid: { token, info }; else null. */
  function bearer(req) {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
    const info = m && w.tokens.get(m[1]);
    if (!info || info.exp <= Date.now()) return null;
    return { token: m[1], info };
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
    const auth = bearer(req);
    entry.authorized = Boolean(auth);
    entry.grant = auth?.info.grant;
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
          const scope = w.opts.alwaysInsufficient ? "mcp:read mcp:admin" : [...new Set([...granted, need])].join(" ");
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
    if (p === "/mcp") return mcp(req, res, body, entry);
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
  w.prmUrl = `${w.origin}/.well-known/oauth-protected-resource/mcp`;
  w.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    });
  return w;
}
