// mcp-wasm-client/react: useMcp(urlOrClient, options) and useMcpGroup(servers, options).
//
// Plain JS (no JSX, no build step). Importing this module does nothing but define the two hooks:
// the package itself ("mcp-wasm-client", resolved by the consumer's bundler or Node as any other
// import of it) is loaded the first time a hook has to create a Client or a ClientGroup, inside an
// effect, so a server render (effects never run there) loads no WebAssembly and touches no window.
//
// One Session per hook instance holds the client (or group) and the fields the hook returns. It
// is created in an effect and closed a tick after the effect's cleanup, unless the same component
// mounts again with the same target meanwhile (StrictMode's mount → unmount → mount): then the
// first Session is reused, so the server sees one connection. A client or group passed in is
// connected when idle and never closed.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";

const KINDS = [
  // field, capability, list method, result key, change event
  ["tools", "tools", "listTools", "tools", "toolschange"],
  ["prompts", "prompts", "listPrompts", "prompts", "promptschange"],
  ["resources", "resources", "listResources", "resources", "resourceschange"],
];
// The options the hook reads through a ref at call time, so a component may pass new closures on
// every render (registering one still declares its capability: only those given at creation).
const FORWARDED = ["elicitationCallback", "samplingCallback", "listRootsCallback", "loggingCallback", "messageHandler"];
// The server's requests the hook keeps as `pendingRequests` when the app passes no callback of
// that kind: option name → request kind.
const ASKED = { elicitationCallback: "elicitation", samplingCallback: "sampling" };
const SIGN_IN_WINDOW = "mcp-sign-in";
const SIGN_IN_FEATURES = "popup,width=520,height=720";

let loading;
/** The package, loaded once, on first use (never at import), and initialised (its `init()`: once). */
const load = () =>
  (loading ??= import("mcp-wasm-client").then(
    async (mcp) => {
      await mcp.init?.();
      return mcp;
    },
    (err) => {
      loading = undefined; // a chunk that failed to load: the next use tries again
      throw err;
    },
  ));

/** A local McpError of `kind` (the package loaded for its class). */
async function localError(code, kind, message) {
  const { McpError } = await load();
  return new McpError(code, message, { local: true, kind });
}

const INITIAL = Object.freeze({
  state: "idle",
  tools: undefined,
  prompts: undefined,
  resources: undefined,
  error: undefined,
  authorization: null,
  client: undefined,
  pendingRequests: Object.freeze([]),
});
const INITIAL_GROUP = Object.freeze({ ...INITIAL, authorization: Object.freeze({}), status: Object.freeze({}) });

/** Equal as JSON values (the authorization status, a group's status): kept as the same object when equal. */
function sameJson(a, b) {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** `prev` when `patch` changes nothing, else a new frozen object: React compares by identity. */
function merge(prev, patch) {
  let next = null;
  for (const [k, v] of Object.entries(patch)) {
    if (Object.is(prev[k], v)) continue;
    if ((k === "authorization" || k === "status") && sameJson(prev[k], v)) continue;
    next ??= { ...prev };
    next[k] = v;
  }
  return next ? Object.freeze(next) : prev;
}

/** Calls `f` when it is a function, ignoring what it throws (a listener of the UI's). */
function safely(f, ...args) {
  try {
    return f?.(...args);
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------------------------------ Session

/**
 * One connection as the hook sees it: `target` is a URL (the Session creates, connects and
 * closes its Client), a Client or a ClientGroup (connected when idle, never closed), or the
 * servers of a group it creates. `fields` is what the hook returns, `onChange` the component's
 * setter (null between a StrictMode unmount and the remount).
 */
class Session {
  constructor(key, spec, optionsRef) {
    this.key = key;
    this.spec = spec; // { kind ("client" or "group"), owned, target }
    this.optionsRef = optionsRef;
    this.fields = spec.kind === "group" ? INITIAL_GROUP : INITIAL;
    this.onChange = null;
    this.target = spec.owned ? undefined : spec.target;
    this.ready = undefined; // settles when the connection attempt under way has
    this.listed = undefined; // the target whose lists were fetched
    this.detach = [];
    this.disposed = false;
    this.closeTimer = undefined;
    this.signInWindow = null; // a window signIn() opened in its click handler, until used
    this.generation = 0; // which target the asynchronous steps belong to
    this.asked = 0; // the ids of pendingRequests
  }

  emit(patch) {
    const next = merge(this.fields, patch);
    if (next === this.fields) return;
    this.fields = next;
    safely(this.onChange, next);
  }

  get group() {
    return this.spec.kind === "group";
  }

  /** Starts: creates the owned target, or adopts the given one (connecting it when idle). */
  start() {
    if (this.spec.owned) return this.restart();
    const target = this.spec.target;
    this.adopt(target);
    const st = stateOf(target, this.group);
    if (st === "idle" || (this.group && st === "closed")) return this.connect(target);
    if (st === "connected") return this.listAll(target, this.generation);
    return undefined;
  }

  /** A new owned client (or group) in place of the current one, which is closed. */
  restart() {
    const generation = ++this.generation;
    const old = this.target;
    this.unwatch();
    this.target = undefined;
    this.emit({ state: "connecting", error: undefined, tools: undefined, prompts: undefined, resources: undefined, client: undefined });
    if (old) closeQuietly(old, this.ready);
    const p = (async () => {
      let target;
      try {
        const mcp = await load();
        if (this.disposed || generation !== this.generation) return;
        target = this.create(mcp);
      } catch (err) {
        if (!this.disposed && generation === this.generation) this.emit({ state: "failed", error: err });
        return;
      }
      this.adopt(target);
      await this.connect(target);
    })();
    this.ready = p;
    return p;
  }

  /** new Client(url, options) or new ClientGroup({ servers, ...options }), the callbacks read through the ref. */
  create(mcp) {
    const options = this.clientOptions(mcp);
    if (this.group) return new mcp.ClientGroup({ ...options, servers: this.spec.target });
    return new mcp.Client(this.spec.target, options);
  }

  clientOptions(mcp) {
    const { pendingRequests: keep = true, ...given } = this.optionsRef.current ?? {};
    const options = { ...given };
    for (const name of FORWARDED)
      if (typeof given[name] === "function") options[name] = (...args) => this.optionsRef.current?.[name]?.(...args);
    if (keep !== false)
      for (const [name, kind] of Object.entries(ASKED))
        if (given[name] === undefined) options[name] = (context, params) => this.ask(mcp, kind, context, params);
    if (given.auth && typeof given.auth === "object" && given.auth.authorize === undefined && typeof window !== "undefined")
      options.auth = { ...given.auth, authorize: (request) => this.authorize(mcp, request) };
    return options;
  }

  /**
   * The `authorize` of a client the hook made: the sign-in page opens only in the window signIn()
   * opened in its click handler. Without one (a connect on mount) it fails as a blocked popup does,
   * so `error.data.kind === "popup_blocked"` (with `data.authorizationUrl`) tells the UI to offer signIn.
   */
  authorize(mcp, request) {
    const w = this.signInWindow;
    this.signInWindow = null;
    if (!w || w.closed) {
      const e = new Error("Sign-in needs a click: call signIn() from a click handler");
      e.name = "PopupBlocked";
      return Promise.reject(e);
    }
    return mcp.authorizeWithPopup({ window: w })(request);
  }

  /** Follows the target's events (Client / ClientGroup as EventTargets) and exposes it. */
  adopt(target) {
    this.target = target;
    this.emit({ client: target, authorization: authorizationOf(target, this.group) });
    if (typeof target?.addEventListener !== "function") return;
    const generation = this.generation;
    const on = (type, f) => {
      target.addEventListener(type, f);
      this.detach.push(() => target.removeEventListener(type, f));
    };
    if (this.group) {
      // a server's part of a merged list changed (its list_changed, or it connected or left)
      on("statuschange", () => this.groupChanged(target, generation));
      for (const [field, , method, , event] of KINDS) on(event, () => this.list(target, field, method, generation));
      return;
    }
    on("statechange", (e) => this.stateChanged(target, e?.detail ?? { state: target.state }, generation));
    for (const [field, , , , event] of KINDS) on(event, () => this.emit({ [field]: target[field] }));
  }

  unwatch() {
    for (const f of this.detach.splice(0)) safely(f);
  }

  /** `statechange` (`{ state, previous, error? }`): a connection lost for good says why in `error`. */
  stateChanged(client, { state, error }, generation) {
    if (generation !== this.generation || this.disposed) return;
    this.emit({ state, ...(error ? { error } : {}), authorization: authorizationOf(client, false) });
    if (state === "connected" && this.listed !== client) this.listAll(client, generation);
  }

  groupChanged(group, generation) {
    if (generation !== this.generation || this.disposed) return;
    const status = group.status;
    this.emit({ status, state: groupState(status, this.fields.state), authorization: authorizationOf(group, true) });
  }

  /** connect(), then the lists (not awaited); the state follows (from the target's own events when it has them). */
  connect(target) {
    const generation = this.generation;
    const current = () => generation === this.generation && !this.disposed;
    this.listed = undefined;
    this.emit({ state: "connecting", error: undefined });
    const p = (async () => {
      try {
        await target.connect();
      } catch (err) {
        if (current()) this.emit({ state: stateOf(target, this.group, "failed"), error: err, authorization: authorizationOf(target, this.group) });
        return;
      } finally {
        this.releaseWindow();
      }
      if (!current()) return;
      if (this.group) {
        const status = target.status;
        const errors = target.errors ?? {};
        this.emit({ status, state: groupState(status, "connecting", true), error: Object.values(errors)[0] });
      } else {
        this.emit({ state: stateOf(target, false, "connected") });
      }
      this.emit({ authorization: authorizationOf(target, this.group) });
      if (this.group || this.listed !== target) this.listAll(target, generation);
    })();
    this.ready = p;
    return p;
  }

  /** A sign-in window signIn() opened but no sign-in page used is closed. */
  releaseWindow() {
    const w = this.signInWindow;
    this.signInWindow = null;
    if (w && !w.closed) safely(() => w.close());
  }

  /** Every list the server advertises (a group: every list it merges). */
  listAll(target, generation) {
    this.listed = target;
    const jobs = [];
    for (const [field, capability, method] of KINDS) {
      if (typeof target[method] !== "function") continue;
      if (!this.group && !target.serverCapabilities?.[capability]) continue;
      jobs.push(this.list(target, field, method, generation));
    }
    return Promise.all(jobs);
  }

  async list(target, field, method, generation) {
    try {
      const result = await target[method](this.group ? {} : { all: true });
      if (generation === this.generation && !this.disposed) this.emit({ [field]: result[field] });
    } catch (err) {
      if (generation === this.generation && !this.disposed) this.emit({ error: err });
    }
  }

  /** A method of the target once it is connected (waits for a connect under way). */
  async call(method, args) {
    if (this.fields.state === "connecting") await this.ready;
    const target = this.target;
    if (this.disposed || !target) throw await localError(-32011, "closed", `${method}: the client is closed`);
    if (typeof target[method] !== "function")
      throw await localError(-32602, "unsupported", `${method}: this ${this.group ? "ClientGroup" : "Client"} has no ${method}`);
    try {
      return await target[method](...args);
    } finally {
      if (!this.disposed) this.emit({ authorization: authorizationOf(target, this.group) });
    }
  }

  /** signIn(): `w` is the window the click handler opened (or null); connects again. */
  signIn(w) {
    this.releaseWindow();
    this.signInWindow = w;
    return this.retry();
  }

  async signOut(options) {
    const target = this.target;
    if (!target) return;
    const clients = this.group ? [...(target.clients?.values?.() ?? [])] : [target];
    await Promise.all(clients.map((c) => c?.signOut?.(options)));
    if (!this.disposed) this.emit({ authorization: authorizationOf(target, this.group) });
  }

  /** Connects again: an owned client is replaced by a new one; a given one (or a group) connects again. */
  retry() {
    if (this.disposed) return Promise.resolve();
    if (this.spec.owned && !this.group) return this.restart();
    if (!this.target) return this.spec.owned ? this.restart() : Promise.resolve();
    return this.connect(this.target);
  }

  /**
   * A request of the server's (`kind` elicitation or sampling) kept in `pendingRequests` until the
   * UI answers it (`respond(result)`, `decline()`, `cancel()`), the server cancels it, or the hook
   * unmounts (then cancelled).
   */
  ask(mcp, kind, context, params) {
    return new Promise((resolve, reject) => {
      const id = ++this.asked;
      let done = false;
      const settle = (f, value) => {
        if (done) return;
        done = true;
        context?.signal?.removeEventListener?.("abort", onAbort);
        this.emit({ pendingRequests: Object.freeze(this.fields.pendingRequests.filter((r) => r.id !== id)) });
        f(value);
      };
      // a sampling request the user turns down is the spec's user rejection (code -1)
      const refuse = (what) => settle(reject, new mcp.McpError(-1, `The user ${what} the sampling request`));
      const request = Object.freeze({
        id,
        kind,
        params,
        ...(context?.server === undefined ? {} : { server: context.server }),
        respond: (result) => settle(resolve, result),
        decline: () => (kind === "elicitation" ? settle(resolve, { action: "decline" }) : refuse("declined")),
        cancel: () => (kind === "elicitation" ? settle(resolve, { action: "cancel" }) : refuse("cancelled")),
      });
      const onAbort = () => request.cancel();
      if (this.disposed || context?.signal?.aborted) return request.cancel();
      context?.signal?.addEventListener?.("abort", onAbort, { once: true });
      this.emit({ pendingRequests: Object.freeze([...this.fields.pendingRequests, request]) });
    });
  }

  /** Closes what the Session made; a target given to the hook stays open. */
  dispose() {
    for (const request of this.fields.pendingRequests) request.cancel();
    this.disposed = true;
    this.generation++;
    this.unwatch();
    this.releaseWindow();
    if (this.spec.owned && this.target) closeQuietly(this.target, this.ready);
  }
}

/** Closes a client or group, after a connect under way has settled. */
async function closeQuietly(target, connecting) {
  try {
    await connecting;
  } catch {}
  try {
    await target.close();
  } catch {}
}

/** The state of a client (`client.state`) or group; `fallback` when the target does not say. */
function stateOf(target, group, fallback = "idle") {
  if (group) return fallback === "idle" ? "idle" : groupState(target.status, fallback, true);
  const st = target?.state;
  if (typeof st === "string") return st;
  return target?.protocolVersion !== undefined && fallback === "idle" ? "connected" : fallback;
}

/** A group's state from its servers': connected when one is, connecting while one is, else failed. */
function groupState(status, current, settled = false) {
  const all = Object.values(status ?? {});
  if (all.includes("connected")) return "connected";
  if (all.includes("connecting")) return "connecting";
  if (all.length === 0 || all.every((s) => s === "closed")) return settled ? "closed" : current;
  return "failed";
}

/** `client.authorization`, or per server of a group (null entries left out). */
function authorizationOf(target, group) {
  if (!group) return readQuietly(target, "authorization") ?? null;
  const out = {};
  for (const [name, client] of target?.clients ?? []) {
    const a = readQuietly(client, "authorization");
    if (a) out[name] = a;
  }
  return out;
}

function readQuietly(target, name) {
  try {
    return target?.[name];
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------------------------------ the hooks

/** What a target argument is: a Client / ClientGroup given (duck-typed), or what to create. */
function specOf(kind, target) {
  if (kind === "client") {
    if (target && typeof target === "object" && !(target instanceof URL) && typeof target.callTool === "function")
      return { kind, owned: false, target, key: target };
    return { kind, owned: true, target: String(target), key: `url:${String(target)}` };
  }
  if (target && typeof target.connect === "function" && typeof target.callTool === "function")
    return { kind, owned: false, target, key: target };
  const servers = target ?? {};
  return { kind, owned: true, target: servers, key: `servers:${serversKey(servers)}` };
}

/** A group's identity: its servers' names and URLs (a new object with the same servers is the same group). */
function serversKey(servers) {
  return JSON.stringify(Object.entries(servers).map(([name, c]) => [name, c?.url != null ? String(c.url) : c?.transport ? "(transport)" : null]));
}

/** The Session of this component, kept across StrictMode's unmount → remount, closed a tick after the last unmount. */
function useSession(kind, target, options) {
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const spec = specOf(kind, target);
  const sessionRef = useRef(null);
  const [fields, setFields] = useState(kind === "group" ? INITIAL_GROUP : INITIAL);
  useEffect(() => {
    let session = sessionRef.current;
    if (session && session.key === spec.key && !session.disposed) {
      clearTimeout(session.closeTimer);
      session.closeTimer = undefined;
    } else {
      session = new Session(spec.key, spec, optionsRef);
      sessionRef.current = session;
      session.start();
    }
    session.onChange = setFields;
    setFields(session.fields);
    return () => {
      session.onChange = null;
      session.closeTimer = setTimeout(() => session.dispose(), 0);
    };
  }, [spec.key]); // only the spec's key: a new options object with the same key keeps the session
  const current = () => sessionRef.current;
  const callTool = useCallback((...args) => callOn(current(), "callTool", args), []);
  const readResource = useCallback((...args) => callOn(current(), "readResource", args), []);
  const getPrompt = useCallback((...args) => callOn(current(), "getPrompt", args), []);
  const signIn = useCallback((opts) => {
    const session = current();
    return session ? session.signIn(openSignInWindow(session, opts)) : Promise.resolve();
  }, []);
  const signOut = useCallback((opts) => current()?.signOut(opts) ?? Promise.resolve(), []);
  const retry = useCallback(() => current()?.retry() ?? Promise.resolve(), []);
  return useMemo(
    () => Object.freeze({ ...fields, callTool, readResource, getPrompt, signIn, signOut, retry }),
    [fields, callTool, readResource, getPrompt, signIn, signOut, retry],
  );
}

function callOn(session, method, args) {
  if (!session) return localError(-32011, "closed", `${method}: the component has not mounted`).then((e) => Promise.reject(e));
  return session.call(method, args);
}

/**
 * In the click handler, before anything awaits: the window the sign-in page will use (popup
 * blockers allow a window opened synchronously in a user gesture). Only for the clients the hook
 * makes with `auth` and no `authorize` of their own; a given client signs in its own way.
 */
function openSignInWindow(session, opts) {
  const auth = session.optionsRef.current?.auth;
  if (!session.spec.owned || !auth || auth.authorize !== undefined) return null;
  if (typeof window === "undefined" || typeof window.open !== "function") return null;
  try {
    return window.open("", SIGN_IN_WINDOW, opts?.features ?? SIGN_IN_FEATURES) ?? null;
  } catch {
    return null;
  }
}

/**
 * One MCP server in a component: `useMcp(url, options)` creates a Client (Client options; the
 * callbacks may change between renders), connects it on mount and closes it on unmount;
 * `useMcp(client)` uses a Client you own (connected when idle, never closed).
 * Returns `{ state, tools, prompts, resources, callTool, readResource, getPrompt, error,
 * authorization, pendingRequests, signIn, signOut, retry, client }`: the same object until a field
 * changes. Without an elicitationCallback / samplingCallback (and `pendingRequests: false` not
 * given) the server's requests of that kind wait in `pendingRequests` for the UI's answer.
 */
export function useMcp(urlOrClient, options) {
  return useSession("client", urlOrClient, options);
}

/**
 * Several servers in a component: `useMcpGroup({ name: { url, ...options } }, options)` creates a
 * ClientGroup (or pass one), with what `useMcp` returns over the group (merged lists, routed
 * calls; `authorization` per server) plus `status` (`{ [server]: status }`).
 */
export function useMcpGroup(servers, options) {
  return useSession("group", servers, options);
}
