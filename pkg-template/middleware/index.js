// mcp-wasm-client/middleware: fetch middleware for the Client's `middleware` option, plain JS
// outside the wasm (the main entry never imports it). A middleware is `(next) => (url, init) =>
// Promise<Response>`; in `middleware: [a, b]` the first is the outermost (it sees each request
// first and its response last). The Client's core makes every request through the composed
// fetch, MCP and authorization (metadata, registration, token) alike.
//
//   withLogging(log?, { allowParams })  one record per request: method, URL (every query value
//                                       masked but the allowed ones), status, ms
//   withRetry({ retries, backoff })     GET/HEAD again after a network failure or 408/429/502/503/504
//   createMiddleware(handler)           (next, url, init) => Promise<Response> as a middleware
//   applyMiddlewares(...layers)         several as one (the TypeScript SDK's order: the last outermost)

/** Query (and fragment) parameters whose values are secrets: "[redacted]" even when allowed. */
const SECRET_PARAMS = new Set([
  "code",
  "access_token",
  "refresh_token",
  "token",
  "id_token",
  "client_secret",
  "assertion",
  "client_assertion",
  "code_verifier",
  "state",
]);
const REDACTED = "[redacted]";

const isRequest = (v) => typeof Request === "function" && v instanceof Request;
const now = () => (typeof performance === "object" && performance?.now ? performance.now() : Date.now());

/**
 * `a=1&code=x` with each parameter's value replaced by "[redacted]" (names as sent, order kept),
 * but the values of the parameters `allowed` names (a Set of lower-case names) that are not
 * secrets; a part without `=` is replaced whole unless allowed.
 */
function redactParams(text, allowed) {
  return text
    .split("&")
    .map((part) => {
      const eq = part.indexOf("=");
      const raw = eq < 0 ? part : part.slice(0, eq);
      let name = raw;
      try {
        name = decodeURIComponent(raw.replace(/\+/g, " "));
      } catch {} // a malformed escape: the name as sent
      const key = name.toLowerCase();
      if (allowed.has(key) && !SECRET_PARAMS.has(key)) return part;
      return eq < 0 ? (raw ? REDACTED : raw) : `${raw}=${REDACTED}`; // a bare `?sk-…` may be a key itself
    })
    .join("&");
}

/** `allowParams` read: a Set of lower-case names; anything but an array of strings is a TypeError. */
function allowedParams(allowParams, where) {
  if (allowParams === undefined) return new Set();
  if (!Array.isArray(allowParams) || !allowParams.every((n) => typeof n === "string"))
    throw new TypeError(`${where}: allowParams must be an array of query parameter names`);
  return new Set(allowParams.map((n) => n.toLowerCase()));
}

/**
 * The URL as text with every query and fragment parameter's value replaced by "[redacted]" (the
 * names stay), but those `allowParams` names (case-insensitive), and any user info
 * (user:password@) replaced too. The values of secret parameters (code, access_token,
 * refresh_token, token, id_token, client_secret, assertion, client_assertion, code_verifier,
 * state) are never shown, allowed or not.
 */
export function redactUrl(url, { allowParams } = {}) {
  return redact(url, allowedParams(allowParams, "redactUrl"));
}

/** redactUrl with the allowed names read. */
function redact(url, allowed) {
  const text = String(isRequest(url) ? url.url : url);
  let u;
  try {
    u = new URL(text);
  } catch {
    // not an absolute URL: redact what looks like a query and a fragment
    const [beforeHash, ...hash] = text.split("#");
    const [path, ...query] = beforeHash.split("?");
    let out = path;
    if (query.length) out += `?${redactParams(query.join("?"), allowed)}`;
    if (hash.length) out += `#${redactParams(hash.join("#"), allowed)}`;
    return out;
  }
  const userinfo = u.username || u.password ? `${REDACTED}@` : "";
  const authority = u.host ? `//${userinfo}${u.host}` : "";
  let out = `${u.protocol}${authority}${u.pathname}`;
  if (u.search) out += `?${redactParams(u.search.slice(1), allowed)}`;
  if (u.hash) out += `#${redactParams(u.hash.slice(1), allowed)}`;
  return out;
}

/** The request's method, upper case (init's, else the Request's, else GET). */
function methodOf(url, init) {
  return String(init?.method ?? (isRequest(url) ? url.method : "GET")).toUpperCase();
}

/** One request header's value (init's headers, else the Request's), or undefined. */
function headerOf(url, init, name) {
  try {
    const given = init?.headers ?? (isRequest(url) ? url.headers : undefined);
    if (given === undefined || given === null) return undefined;
    return new Headers(given).get(name) ?? undefined;
  } catch {
    return undefined; // headers fetch itself would refuse: nothing to report
  }
}

/** The default log: one line on console.info. */
function consoleLog(r) {
  const what = r.mcpMethod ? ` (${r.mcpMethod})` : "";
  const outcome = r.error ? `failed: ${r.error}` : `${r.status}${r.statusText ? ` ${r.statusText}` : ""}`;
  console.info(`mcp-wasm-client: ${r.method} ${r.url}${what} ${outcome} ${r.ms} ms`);
}

/**
 * A middleware that calls `log(record)` once per request, after its response head arrived (or
 * its fetch failed): `{ method, url, status, statusText, ms, mcpMethod?, error? }`. `url` has
 * every query and fragment value masked as "[redacted]" but those of `allowParams` (names, never
 * a secret's: redactUrl); no header value and no body is ever recorded. `mcpMethod` is the request's `Mcp-Method` header (the JSON-RPC method of a 2026
 * request). A failed fetch is recorded with `status: 0` and `error` (the error's name and
 * message, its URL redacted) and then rethrown. `ms` is the time to the response head, rounded to
 * 0.1 ms. A `log` that throws does not fail the request. Default `log`: one line on console.info.
 * `withLogging({ allowParams })` takes the default log with options.
 */
export function withLogging(log = consoleLog, options = {}) {
  if (log && typeof log === "object") [log, options] = [consoleLog, log];
  if (typeof log !== "function") throw new TypeError("withLogging(log): log must be a function (record) => void");
  if (!options || typeof options !== "object") throw new TypeError("withLogging(log, options): options must be an object { allowParams }");
  const allowed = allowedParams(options.allowParams, "withLogging");
  const report = (record) => {
    try {
      const out = log(record);
      if (out && typeof out.then === "function") out.then(undefined, () => {});
    } catch {} // the log's own failure never fails the request
  };
  return (next) => async (url, init) => {
    const started = now();
    const base = { method: methodOf(url, init), url: redact(url, allowed) };
    const mcpMethod = headerOf(url, init, "mcp-method");
    if (mcpMethod !== undefined) base.mcpMethod = mcpMethod;
    const ms = () => Math.round((now() - started) * 10) / 10;
    let response;
    try {
      response = await next(url, init);
    } catch (error) {
      const raw = String(isRequest(url) ? url.url : url);
      const text = `${error?.name ?? "Error"}: ${error?.message ?? String(error)}`.split(raw).join(base.url);
      report({ ...base, status: 0, statusText: "", ms: ms(), error: text });
      throw error;
    }
    report({ ...base, status: response.status, statusText: response.statusText, ms: ms() });
    return response;
  };
}

/** The statuses withRetry retries (a GET or HEAD). */
const RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);
/** The longest Retry-After withRetry waits; a longer one gets the response back unretried. */
const MAX_RETRY_AFTER_MS = 30_000;

/** A Retry-After in ms (delta seconds or an HTTP date), null when absent or unreadable. */
function retryAfterMs(response) {
  const value = response.headers?.get?.("retry-after")?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal?.addEventListener("abort", aborted, { once: true });
  });
}

const isAbort = (e) => e?.name === "AbortError" || e?.name === "TimeoutError";

/**
 * A middleware that sends an idempotent request (GET, HEAD) again, up to `retries` times
 * (default 2), after a network failure (a rejected fetch that is not an abort) or a 408, 429,
 * 502, 503 or 504 response. Before each retry it waits the response's Retry-After when that is at
 * most 30 s (a longer one: the response is returned as it is), else `backoff`: ms before the
 * first retry, doubled for each later one (default 250), or `(attempt) => ms` (attempt 1 is the
 * first retry). A retried response's body is released. Never retries once `init.signal` has
 * aborted (a wait is cut short with the signal's reason), and never a POST, PUT, PATCH or DELETE:
 * every MCP message is a POST, so this is for GETs (the legacy GET stream, authorization metadata).
 */
export function withRetry({ retries = 2, backoff = 250 } = {}) {
  if (!Number.isInteger(retries) || retries < 0) throw new TypeError("withRetry: retries must be an integer >= 0");
  if (typeof backoff !== "function" && !(Number.isFinite(backoff) && backoff >= 0))
    throw new TypeError("withRetry: backoff must be a number of ms >= 0 or a function (attempt) => ms");
  const delay = (attempt) => {
    const ms = typeof backoff === "function" ? Number(backoff(attempt)) : backoff * 2 ** (attempt - 1);
    return Number.isFinite(ms) && ms > 0 ? ms : 0;
  };
  return (next) => async (url, init) => {
    const method = methodOf(url, init);
    if (method !== "GET" && method !== "HEAD") return next(url, init);
    const signal = init?.signal ?? (isRequest(url) ? url.signal : undefined);
    for (let attempt = 1; ; attempt++) {
      let response;
      try {
        response = await next(url, init);
      } catch (error) {
        if (attempt > retries || signal?.aborted || isAbort(error)) throw error;
        await pause(delay(attempt), signal);
        continue;
      }
      if (attempt > retries || signal?.aborted || !RETRY_STATUSES.has(response.status)) return response;
      const after = retryAfterMs(response);
      if (after !== null && after > MAX_RETRY_AFTER_MS) return response;
      try {
        await response.body?.cancel();
      } catch {} // already read or locked: nothing more to release
      await pause(after ?? delay(attempt), signal);
    }
  };
}

/**
 * A middleware from `handler(next, url, init)`, which makes the request through `next` (or
 * answers itself): the TypeScript SDK's createMiddleware.
 */
export function createMiddleware(handler) {
  if (typeof handler !== "function") throw new TypeError("createMiddleware(handler): handler must be a function (next, url, init) => Promise<Response>");
  return (next) => (url, init) => handler(next, url, init);
}

/**
 * Several middleware as one, composed as the TypeScript SDK's applyMiddlewares does: each wraps
 * the ones before it, so the LAST given is the outermost (it sees a request first). The Client's
 * `middleware` array is the other way round (its first is the outermost):
 * `middleware: [applyMiddlewares(a, b)]` is `middleware: [b, a]`.
 */
export function applyMiddlewares(...layers) {
  layers.forEach((layer, i) => {
    if (typeof layer !== "function") throw new TypeError(`applyMiddlewares: argument ${i} must be a middleware (next) => (url, init) => Promise<Response>`);
  });
  return (next) => layers.reduce((handler, layer) => layer(handler), next);
}
