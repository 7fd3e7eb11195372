// The switches of tests/js/oauth_world.mjs (DEFAULTS: each may be changed on `world.opts` at any
// time) and its paced oversized answers (`opts.oversized`).

/** The switches; each may be changed on `world.opts` at any time. */
export const DEFAULTS = {
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
  /** Every tools/call answers 403 insufficient_scope, whatever the token (a function of the
   *  world: the scope each 403 asks for). */
  alwaysInsufficient: false,

  // ---- grants without a user, DPoP (auth-grants.test.mjs) ----
  /** AS metadata grant_types_supported. */
  grantTypes: ["authorization_code", "refresh_token", "client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer"],
  /** AS metadata token_endpoint_auth_methods_supported (null: the usual list). */
  authMethods: null,
  /** A refusal for the client_credentials and jwt_bearer grants: { status, body }. */
  grantError: null,
  /** Tokens of the client_credentials and jwt_bearer grants carry a refresh token. */
  grantRefresh: false,
  /** Accept a jwt_bearer assertion: (assertion, form, issuer) => true | an error description. */
  acceptAssertion: null,
  /** A refusal for the IdP's token exchange: { status, body }. */
  idpError: null,
  /** The MCP server refuses every token (401), valid or not. */
  refuseTokens: false,
  /** DPoP at the token endpoint (a proof required, tokens bound) and the MCP server. */
  dpop: false,
  /** The token endpoint asks for a nonce (400 use_dpop_nonce) until proofs carry its current one. */
  asNonce: false,
  /** The MCP server asks for a nonce (401 use_dpop_nonce) until proofs carry its current one. */
  mcpNonce: false,
  /** Issue DPoP tokens bound (cnf.jkt) to another key than the proof's. */
  bindToOtherKey: false,

  // ---- oversized answers (auth.test.mjs) ----
  /**
   * { path, totalBytes, chunkBytes, intervalMs }: every request to `path` (e.g. "/as/token") is
   * answered 200 with a JSON body of `totalBytes` (default 100 MiB), written `chunkBytes` (16 KiB)
   * at a time every `intervalMs` (2) while the socket takes it, until the client goes away.
   * Each such answer is recorded in `world.streams`. `after: n`: the first n requests to `path`
   * are answered as usual.
   */
  oversized: null,
};

const MiB = 1024 * 1024;

/**
 * Answers `res` with a JSON body of `totalBytes`, paced (see DEFAULTS.oversized). Returns the
 * record { path, written, closedEarly, done }: `written` counts the bytes handed to the socket,
 * `done` resolves when the answer ended or the connection closed (closedEarly: before the end).
 */
export function streamOversized(res, { path, totalBytes = 100 * MiB, chunkBytes = 16 * 1024, intervalMs = 2 }) {
  const record = { path, written: 0, closedEarly: false, done: null };
  const chunk = Buffer.alloc(chunkBytes, "a");
  record.done = new Promise((resolve) => {
    let stopped = false;
    let ended = false;
    let timer = null;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      record.closedEarly = !ended;
      resolve(record);
    };
    res.on("close", stop);
    const write = (bytes) => {
      record.written += bytes.length;
      return res.write(bytes);
    };
    const next = () => {
      if (stopped) return;
      if (record.written + chunk.length >= totalBytes) {
        ended = true;
        res.end('"}');
        return;
      }
      // Only when the socket took the last chunk: the server's own memory stays flat.
      if (write(chunk)) timer = setTimeout(next, intervalMs);
      else res.once("drain", () => (timer = setTimeout(next, intervalMs)));
    };
    res.writeHead(200, { "content-type": "application/json" });
    write(Buffer.from('{"access_token":"'));
    timer = setTimeout(next, intervalMs);
  });
  return record;
}
