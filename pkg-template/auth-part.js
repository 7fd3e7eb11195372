// Copied into the package by scripts/package.sh. Not an entry: the default entry (index.js) imports
// it when a client with the `auth` option is made. A returning user's stored token is sent without
// the full module: the client is made in the lean module with an AuthorizationPart in place of its
// `auth` option (src/js/api/without_auth.rs reads it there; src/js/host/auth_part.rs is the seam's
// flow over it). The part attaches the stored Bearer token while it is fresh; everything else (a
// 401 or 403 recovered from, a token to refresh, signing in or out, finishing a redirect) it hands
// to a client core of the full module made with the client's own options, never connected, which
// runs the authorization flow whole (src/js/api/authorization_part.rs). The full module is loaded
// then, once.

/** What tells a part from an `auth` option given by hand (src/js/host/auth_part.rs's BRAND). */
const BRAND = Symbol.for('mcp-wasm-client.authorizationPart');
/** The storage key of a server's document (src/auth/store.rs's `key`). */
const STORE_PREFIX = 'mcp-wasm-client:auth:';
/** A token expiring within this is refreshed before a request (src/auth/tokens DEFAULT_SKEW_MS). */
const SKEW_MS = 60_000;

/**
 * The token a client of `url` can send without the full module, read from `auth.storage` (the
 * document src/auth/store.rs writes): `{ authorization, expiresAt, status }`, or null. Only a
 * Bearer token of the authorization-code grant without DPoP that is not within a minute of expiry:
 * a DPoP-bound token needs proofs, the grants without a user renew their tokens before they lapse,
 * and either may warn when the client is made, all of which is the full module's work. Options or
 * a storage that cannot be read (a getter or `get` that throws, a damaged document) give null too:
 * the full module reads them again and says what is wrong.
 */
export async function storedToken(url, auth) {
  try {
    return await readToken(url, auth);
  } catch {
    return null;
  }
}

/** storedToken's reading, which may throw. */
async function readToken(url, auth) {
  if (auth === null || typeof auth !== 'object') return null;
  const { storage, grant, dpop } = auth;
  if (dpop !== undefined && dpop !== null && dpop !== false) return null;
  if (grant !== undefined && grant !== null && grant.type !== 'authorization_code') return null;
  if (typeof storage?.get !== 'function' || typeof storage.set !== 'function' || typeof storage.delete !== 'function') return null;
  const stored = await storage.get(STORE_PREFIX + url);
  const document = typeof stored === 'string' ? JSON.parse(stored) : null;
  const g = document?.v === 1 ? document.grant : null;
  const text = (v) => (typeof v === 'string' ? v : undefined);
  if (!g || typeof g !== 'object' || !text(g.access_token) || !text(g.issuer) || !text(g.token_endpoint)) return null;
  if (text(g.token_type)?.toLowerCase() === 'dpop') return null;
  const expiresAt = Number.isSafeInteger(g.expires_at) && g.expires_at >= 0 ? g.expires_at : undefined;
  if (!fresh(expiresAt)) return null;
  return {
    authorization: `Bearer ${g.access_token}`,
    expiresAt,
    status: { issuer: g.issuer, scope: text(g.scope) ?? null, expiresAt: expiresAt ?? null },
  };
}

/**
 * How index.js makes a client with `auth` (`auth`) for `first` (its URL): when the storage holds a
 * token storedToken() accepts, a maker of lean cores (`Core`, once `init()` resolved) with an
 * AuthorizationPart in place of `auth`, marked `lean`; else the full module's (`loadFull()`).
 */
export async function makerFor(first, auth, { init, Core, loadFull }) {
  const url = first instanceof URL ? first.href : first;
  const stored = typeof url === 'string' ? await storedToken(url, auth) : null;
  if (!stored) return loadFull();
  await init();
  const authorization = new AuthorizationPart(stored, loadFull);
  const make = (f, s, observe) => {
    authorization.bind(f, s);
    const core = new Core(f, { ...s, auth: authorization }, observe);
    authorization.attach((open) => core.__userWait(open));
    return core;
  };
  make.lean = true;
  return make;
}

/** A token with this expiry (ms since the epoch; undefined: none given) is sent as it is. */
function fresh(expiresAt) {
  return expiresAt === undefined || Date.now() < expiresAt - SKEW_MS;
}

/**
 * A lean client's authorization: the seam's steps (beforeRequest, accepted, recover, finished,
 * credential) and the client's sign-in methods, answered from the stored token until the full
 * module is needed, then by the full module's core.
 */
export class AuthorizationPart {
  #stored; // storedToken()'s answer (sent until the full core is made; answers until it has read)
  #load; // () => Promise<(first, second) => full module's ClientCore>
  #args; // the client's (first, second) as its core was made with them
  #waiting; // the client's waiting(open), from its core
  #window; // signIn()'s window, until the full core takes it
  #full = null; // the promise of the full core
  #core = null; // the full core, once made
  #read = false; // the full core has answered a step (it has read the storage)

  constructor(stored, load) {
    this.#stored = stored;
    this.#load = load;
    this[BRAND] = true;
  }

  /** The client's arguments (the facade's, middleware composed): the full core is made with them. */
  bind(first, second) {
    this.#args = [first, second];
  }

  /** The client core's `waiting(open)`: its request timers pause while a person signs in. */
  attach(waiting) {
    this.#waiting = waiting;
    this.#core?.__useWaits(waiting);
  }

  // The full module's core, made on first need (a failed load is tried again by the next step).
  #delegate() {
    this.#full ??= this.#load()
      .then((make) => {
        const core = make(...this.#args);
        if (this.#waiting) core.__useWaits(this.#waiting);
        if (this.#window !== undefined) core.__useSignInWindow(this.#window);
        return (this.#core = core);
      })
      .catch((error) => {
        this.#full = null;
        throw error;
      });
    return this.#full;
  }

  // `step(core)`'s promise, in the full core; once it settles, the core answers status().
  async #step(step) {
    try {
      return await step(await this.#delegate());
    } finally {
      if (this.#core) this.#read = true;
    }
  }

  async beforeRequest(op, method, url) {
    const stored = this.#stored;
    if (stored && !this.#full && fresh(stored.expiresAt)) return { op: 0, authorization: stored.authorization, generation: 0 };
    return this.#step((core) => core.__beforeRequest(op, method, url));
  }

  accepted(generation, authorization, url, dpopNonce) {
    this.#core?.__accepted(generation, authorization, url, dpopNonce);
  }

  async recover(op, generation, authorization, status, wwwAuthenticate, dpopNonce, url) {
    return this.#step((core) => core.__recover(op, generation, authorization, status, wwwAuthenticate, dpopNonce, url));
  }

  finished(op) {
    if (op) this.#core?.__finished(op);
  }

  credential() {
    return this.#read ? this.#core.__credential() : this.#stored?.authorization;
  }

  status() {
    if (this.#read) return this.#core.authorization;
    return this.#stored ? { ...this.#stored.status } : null;
  }

  useSignInWindow(window) {
    this.#window = window;
    this.#core?.__useSignInWindow(window);
  }

  async finish(callback) {
    return this.#step((core) => core.finishAuthorization(callback));
  }

  async signOut(options) {
    return this.#step((core) => core.signOut(options));
  }
}
