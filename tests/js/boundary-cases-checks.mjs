// The outcomes and expectations of boundary-cases.mjs: running a case with a timeout, what it threw
// or returned, and the checks (an McpError of the right kind, a promised coercion, no trap).

export const CASE_TIMEOUT_MS = 8000;
export const HUNG = Symbol("hung");

// ---- outcomes and expectations -----------------------------------------------------------------

export function withTimeout(p) {
  let timer;
  return Promise.race([
    p,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(HUNG), CASE_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Runs `fn`, awaiting a returned promise: { threw, error | value, sync }. */
export async function attempt(fn) {
  let value;
  try {
    value = fn();
  } catch (error) {
    return { threw: true, error, sync: true };
  }
  if (value && typeof value.then === "function") {
    try {
      return { threw: false, value: await withTimeout(value), sync: false };
    } catch (error) {
      return { threw: true, error, sync: false };
    }
  }
  return { threw: false, value, sync: true };
}

export function symptom(mod, e) {
  if (e === HUNG) return "hung";
  if (typeof WebAssembly !== "undefined" && e instanceof WebAssembly.RuntimeError) return "RuntimeError";
  if (e instanceof mod.McpError) return "McpError";
  if (e instanceof TypeError) return "TypeError";
  return e?.constructor?.name ?? typeof e;
}

export function show(v) {
  if (typeof v === "symbol") return v.toString();
  if (typeof v === "string") return JSON.stringify(v.length > 160 ? `${v.slice(0, 160)}…` : v);
  try {
    const s = JSON.stringify(v);
    if (s === undefined) return String(v);
    return s.length > 160 ? `${s.slice(0, 160)}…` : s;
  } catch {
    return Object.prototype.toString.call(v);
  }
}

export function describeOutcome(mod, o) {
  if (!o.threw) {
    const v = o.value instanceof mod.McpError ? `McpError(${show(o.value.code)}, ${show(o.value.message)})` : show(o.value);
    return { outcome: "resolved", detail: `${o.sync ? "returned" : "resolved"} ${v}` };
  }
  const e = o.error;
  const outcome = symptom(mod, e);
  const how = o.sync ? "threw" : "rejected";
  if (e === HUNG) return { outcome, detail: `no answer within ${CASE_TIMEOUT_MS} ms` };
  let detail = `${how} ${outcome}: ${String(e?.message ?? show(e)).split("\n")[0]}`;
  if (outcome === "McpError") detail += ` (code ${show(e.code)}, data ${show(e.data)})`;
  return { outcome, detail };
}

/** Why `e` is not a proper McpError (null when it is). */
export function notMcpError(mod, e) {
  if (!(e instanceof mod.McpError)) return "not an McpError";
  if (e.name !== "McpError") return `name is ${show(e.name)}`;
  if (typeof e.code !== "number") return `code is ${show(e.code)}`;
  // a real Error (issue 26): own code, message and data that JSON.stringify shows; no wasm pointer
  if (!(e instanceof Error)) return "not an Error";
  const missing = ["code", "message", "data"].filter((k) => !Object.hasOwn(e, k));
  if (missing.length) return `${missing.join(", ")} not own properties`;
  if ("free" in e || "__wbg_ptr" in e) return "has free() or __wbg_ptr";
  const json = JSON.parse(JSON.stringify(e));
  if (json.code !== e.code || json.message !== e.message) return `JSON.stringify gives ${JSON.stringify(json)}`;
  return null;
}

/** Expectation: an McpError whose data.kind is one of `kinds` (any kind when `kinds` is null). */
export const mcpError = (kinds) => (mod, o) => {
  if (!o.threw) return "expected an McpError, but it succeeded";
  const bad = notMcpError(mod, o.error);
  if (bad) return `expected an McpError: ${bad}`;
  if (kinds && !kinds.includes(o.error.data?.kind)) {
    return `expected data.kind ${kinds.map(show).join(" or ")}, got ${show(o.error.data?.kind)}`;
  }
  return null;
};
export const inputError = mcpError(["input"]);
export const beforeConnectError = mcpError(["closed", "input"]);
export const anyMcpError = mcpError(null);

/** Expectation: succeeds and `check(value)` holds (returns a reason string when it does not). */
export const succeeds = (check) => (_mod, o) => (o.threw ? "expected success" : check(o.value));
/** Expectation: an McpError, or success where `check(value)` holds. */
export const mcpErrorOr = (check) => (mod, o) => (o.threw ? anyMcpError(mod, o) : check(o.value));
/** Expectation: anything but a WebAssembly trap or a hang (a wrong `this`). */
export const noTrap = (mod, o) => {
  if (!o.threw) return null;
  const s = symptom(mod, o.error);
  return s === "RuntimeError" || s === "hung" ? `expected no trap, got ${s}` : null;
};

export const CHECKS = {
  readsHello: (v) => (v?.contents?.[0]?.uri === "demo://hello" ? null : `unexpected result ${show(v)}`),
  emptyResult: (v) => (v && typeof v === "object" ? null : `unexpected result ${show(v)}`),
  subscription: (v) =>
    v && typeof v[Symbol.asyncIterator] === "function" && typeof v.close === "function"
      ? null
      : `unexpected result ${show(v)}`,
};

export function expectationFor(spec, method) {
  if (spec === "input") return inputError;
  if (spec === "mcp") return anyMcpError;
  const check = spec.slice("either:".length);
  // subscribe/unsubscribe answer {} when a URL object is taken as its href
  if (check === "readsHello" && method !== "readResource") return mcpErrorOr(CHECKS.emptyResult);
  return mcpErrorOr(CHECKS[check]);
}

/** Ends whatever a call that should have failed opened (a Subscription, a Client). */
export async function cleanup(value) {
  if (value && typeof value.close === "function") {
    try {
      await withTimeout(Promise.resolve(value.close()));
    } catch {
      /* best effort */
    }
  }
}
