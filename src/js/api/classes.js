// The JS classes over the wasm (group.rs hands them what they cannot import from the glue).
//
// Client: an EventTarget over a ClientCore (the Rust client). The exported Client's prototype is
// made the facade's (adoptClient): every method and getter of the core is forwarded by one loop,
// and the core tells the facade what happened through an observer(type, detail), dispatched as
// events (statechange, notification, toolschange, promptschange, resourceschange, close). A
// facade made before the wasm is initialised (the default entry's index.js) makes its core once
// the module is ready: methods wait for it, getters answer their not-connected values.
//
// ClientGroup: several MCP servers behind one object, built on such clients. Tools are merged
// under names made by nameTools(); calls are routed to the server that listed the tool; callbacks
// learn which server asked (ctx.server, or { server } as a second argument).

import { refusal, trapped } from "../boundary/error.js";

const SEP = "__";
const CALLBACKS = ["elicitationCallback", "samplingCallback", "listRootsCallback"];
const HTTP_ONLY = ["headers", "fetch", "auth"];
// A server's list_changed notification -> the listing it makes stale (and the group event it fires).
const LIST_CHANGED = {
  "notifications/tools/list_changed": "tools",
  "notifications/prompts/list_changed": "prompts",
  "notifications/resources/list_changed": "resources",
};
const LISTEN = { tools: "toolsListChanged", prompts: "promptsListChanged", resources: "resourcesListChanged" };

/**
 * The merged tool list: `lists` is [[server, tools], ...] in server order; `rule` is "prefix"
 * (`server__tool`), "bare" (the tool's own name; every name two or more servers share gets the
 * prefix) or (server, toolName) => name. A name made twice is kept for the first tool only.
 * (Prompts are named by the same rule.)
 */
export function nameTools(lists, rule = "prefix") {
  const shared = new Map();
  for (const [, tools] of lists)
    for (const n of new Set(tools.map((t) => t.name))) shared.set(n, (shared.get(n) ?? 0) + 1);
  const out = [];
  const taken = new Set();
  for (const [server, tools] of lists)
    for (const tool of tools) {
      const own = tool.name;
      const name =
        typeof rule === "function"
          ? String(rule(server, own))
          : rule === "bare" && shared.get(own) < 2
            ? own
            : server + SEP + own;
      if (taken.has(name)) continue;
      taken.add(name);
      out.push({ ...tool, name, server, originalName: own });
    }
  return out;
}

// A CustomEvent (an Event with `detail` where a runtime has no CustomEvent).
function event(type, detail) {
  if (typeof CustomEvent === "function") return new CustomEvent(type, { detail });
  const e = new Event(type);
  Object.defineProperty(e, "detail", { value: detail ?? null, enumerable: true });
  return e;
}

// The exported class (group.rs) answers instanceof for the objects built here.
let exported;
export function makeGroup(options, newClient, McpError, Exported) {
  if (Exported && exported !== Exported) {
    exported = Exported;
    Object.defineProperty(Exported, Symbol.hasInstance, { value: (v) => v instanceof ClientGroup, configurable: true });
  }
  return new ClientGroup(options, newClient, McpError);
}

// ClientGroup: an EventTarget. `statuschange` ({ server, status, previous, error? }) whenever a
// server's status changes, `status` one frozen object until then; `toolschange` / `promptschange` /
// `resourceschange` ({ server }) when a server's part of a merged list may have changed (its
// list_changed, or it connected or left); `close` after close(). Prompts are merged under the
// toolNames rule; resources keep their URIs and are read from the first server that listed one.
class ClientGroup extends EventTarget {
  #options;
  #newClient;
  #Err;
  #rule;
  #servers = new Map(); // name -> { name, config, client, status, error, lists, version, sub, gone }
  #routes = { tools: new Map(), prompts: new Map(), resources: new Map() }; // merged name or URI -> [entry, own name]
  #connected = false;
  #status; // the frozen object `status` returns until a server's status changes

  constructor(options, newClient, McpError) {
    super();
    this.#Err = McpError;
    this.#newClient = newClient;
    if (!options || typeof options !== "object") throw this.#input("ClientGroup: options must be an object");
    const { servers = {}, toolNames = "prefix", ...clientOptions } = options;
    if (toolNames !== "prefix" && toolNames !== "bare" && typeof toolNames !== "function")
      throw this.#input('ClientGroup: toolNames must be "prefix", "bare" or a function (server, toolName) => name');
    if (!servers || typeof servers !== "object") throw this.#input("ClientGroup: servers must be an object");
    this.#rule = toolNames;
    this.#options = clientOptions;
    for (const [name, config] of Object.entries(servers)) this.#add(name, config);
  }

  #input(message, data) {
    return new this.#Err(-32602, message, { local: true, kind: "input", ...data });
  }

  // An McpError of one server, with data.server added (a new McpError when data is no object).
  #tag(err, server) {
    if (!(err instanceof this.#Err)) return err;
    const data = err.data;
    if (data && typeof data === "object" && !Object.isFrozen(data)) {
      data.server = server;
      return err;
    }
    return new this.#Err(err.code, err.message, data === undefined ? { server } : { server, value: data });
  }

  #add(name, config) {
    if (typeof name !== "string" || !name) throw this.#input("ClientGroup: a server name must be a non-empty string");
    if (this.#servers.has(name))
      throw this.#input(`ClientGroup: a server named "${name}" is already in the group`, { server: name });
    if (!config || typeof config !== "object" || (config.url == null) === (config.transport == null))
      throw this.#input(`ClientGroup: server "${name}" needs either { url } or { transport }`, { server: name });
    const e = { name, config, client: undefined, status: "closed", lists: {}, version: 0, sub: undefined, gone: false };
    e.client = this.#make(e); // throws the Client's own error for a bad option
    this.#servers.set(name, e);
    this.#status = undefined;
    return e;
  }

  #make(e) {
    const { name, config } = e;
    const base = { ...this.#options };
    if (config.transport != null) for (const k of HTTP_ONLY) delete base[k];
    const merged = { ...base, ...config };
    // The group lists a server's tools again when asked after its list_changed, not before.
    merged.listChanged ??= { autoRefresh: false };
    for (const k of CALLBACKS) {
      const f = merged[k];
      if (typeof f === "function") merged[k] = (ctx, ...rest) => f({ ...ctx, server: name }, ...rest);
    }
    const log = merged.loggingCallback;
    if (typeof log === "function") merged.loggingCallback = (params) => log(params, { server: name });
    const handler = merged.messageHandler;
    merged.messageHandler = (message) => {
      const kind = LIST_CHANGED[message?.method];
      if (kind && !e.gone && e.status === "connected") this.#changed(e, kind);
      if (typeof handler === "function") return handler(message, { server: name });
    };
    try {
      if (config.transport != null) return this.#newClient(merged, undefined);
      const { url, ...rest } = merged;
      return this.#newClient(url, rest);
    } catch (err) {
      throw this.#tag(err, name);
    }
  }

  // A server's `kind` listing is stale: fetched again by the next list call.
  #changed(e, kind) {
    e.lists[kind] = undefined;
    e.version++;
    this.dispatchEvent(event(`${kind}change`, { server: e.name }));
  }

  // Sets a server's status; a change makes a new `status` object and fires statuschange (and a
  // list event for each listing the server declares when it joins or leaves the connected ones).
  #set(e, status, error) {
    const previous = e.status;
    e.status = status;
    if (status !== "closed") e.error = error; // closing keeps the last connection error
    if (previous === status || e.gone) return;
    this.#status = undefined;
    this.dispatchEvent(event("statuschange", { server: e.name, status, previous, ...(error ? { error } : {}) }));
    if ((previous === "connected") !== (status === "connected")) this.#listsChanged(e);
  }

  #listsChanged(e) {
    const caps = e.client?.serverCapabilities;
    for (const kind of ["tools", "prompts", "resources"])
      if (caps?.[kind]) this.dispatchEvent(event(`${kind}change`, { server: e.name }));
  }

  async #connect(e) {
    if (e.status === "connected" || e.status === "connecting") return e.settled;
    if (e.status !== "closed" || e.used) {
      await this.#stop(e);
      if (e.gone || e.status === "connected" || e.status === "connecting") return e.settled; // removed or connected meanwhile
      e.client = this.#make(e);
    }
    e.used = true;
    const client = e.client;
    // `settled` is in place before statuschange fires: a listener may close the group at once
    e.settled = (async () => {
      try {
        await client.connect();
      } catch (err) {
        if (e.client !== client || e.status !== "connecting") return; // closed or removed meanwhile
        this.#set(e, err?.data?.kind === "unauthorized" ? "unauthorized" : "failed", this.#tag(err, e.name));
        return;
      }
      if (e.client !== client || e.status !== "connecting") return void client.close().catch(() => {}); // closed meanwhile
      this.#set(e, "connected");
      if (client.era === "modern" && e.status === "connected") this.#listen(e, client);
    })();
    const settled = e.settled;
    this.#set(e, "connecting");
    return settled;
  }
  // 2026 sessions announce list changes only through subscriptions/listen.
  async #listen(e, client) {
    const caps = client.serverCapabilities;
    const filter = {};
    for (const [kind, key] of Object.entries(LISTEN)) if (caps?.[kind]?.listChanged) filter[key] = true;
    if (!Object.keys(filter).length) return;
    try {
      const sub = await client.listen(filter);
      if (e.client !== client || e.status !== "connected") return sub.close(); // closed meanwhile
      e.sub = sub;
      for await (const n of sub) {
        const kind = LIST_CHANGED[n?.method];
        if (kind && e.client === client && e.status === "connected") this.#changed(e, kind);
      }
    } catch {
      // the session ended or the server refused: nothing to watch
    }
  }

  // Closes a server: a connect under way settles first (a client is not closed mid-handshake).
  async #settle(e) {
    const pending = e.status === "connecting" ? e.settled : undefined;
    this.#set(e, "closed");
    await pending;
    await this.#stop(e);
  }

  async #stop(e) {
    const { client, sub } = e;
    e.sub = undefined;
    e.lists = {};
    e.version++;
    try {
      await sub?.close();
    } catch {}
    try {
      await client?.close();
    } catch {}
  }

  // A call's failure: a broken connection marks the server failed (connect() tries again).
  #failed(e, err) {
    const kind = err?.data?.kind;
    const tagged = this.#tag(err, e.name);
    if ((kind === "network" || kind === "transport_closed") && e.status === "connected" && !e.gone) {
      this.#set(e, "failed", tagged);
      this.#stop(e);
    }
    return tagged;
  }

  // Runs `call` with the client of server `e`, a routed call: its failure is `#failed`'s.
  async #onServer(e, call) {
    try {
      return await call(e.client);
    } catch (err) {
      throw this.#failed(e, err);
    }
  }

  /** Connects every server not yet connected, concurrently; resolves when all have settled. */
  async connect() {
    this.#connected = true;
    await Promise.all([...this.#servers.values()].map((e) => this.#connect(e)));
  }

  /** { name: "connecting" | "connected" | "unauthorized" | "failed" | "closed" }: one frozen object until a status changes. */
  get status() {
    return (this.#status ??= Object.freeze(Object.fromEntries([...this.#servers].map(([n, e]) => [n, e.status]))));
  }

  /** The last connection error of each server that has one (an McpError with data.server). */
  get errors() {
    return Object.fromEntries([...this.#servers].filter(([, e]) => e.error).map(([n, e]) => [n, e.error]));
  }

  /** name -> Client, in the order the servers were added. */
  get clients() {
    return new Map([...this.#servers].map(([n, e]) => [n, e.client]));
  }

  client(name) {
    return this.#servers.get(name)?.client;
  }

  /** Adds a server (statuschange with `previous: undefined`); connects it when the group is connected. */
  async addServer(name, config) {
    const e = this.#add(name, config);
    this.dispatchEvent(event("statuschange", { server: name, status: e.status, previous: undefined }));
    if (this.#connected) await this.#connect(e);
  }

  /** Closes and removes a server (statuschange with `removed: true`). */
  async removeServer(name) {
    const e = this.#servers.get(name);
    if (!e) return;
    this.#servers.delete(name);
    this.#status = undefined;
    const previous = e.status;
    e.gone = true;
    this.dispatchEvent(event("statuschange", { server: name, status: "closed", previous, removed: true }));
    if (previous === "connected") this.#listsChanged(e);
    await this.#settle(e);
  }

  /** Closes every server, then fires `close`. */
  async close() {
    this.#connected = false;
    await Promise.all([...this.#servers.values()].map((e) => this.#settle(e)));
    this.dispatchEvent(event("close"));
  }

  /** `await using group = new ClientGroup(…)`: close(). */
  [Symbol.asyncDispose]() {
    return this.close();
  }

  // Each connected server's `kind` listing by `method` ([entry, items] in server order), from the
  // cache unless `fresh` or stale; servers that do not declare `cap` list nothing.
  async #gather(kind, method, options, cap = kind, fresh = false) {
    const live = [...this.#servers.values()].filter((e) => e.status === "connected");
    const got = new Map();
    const fetchOne = async (e) => {
      const { client, version } = e;
      const caps = client.serverCapabilities;
      let items = fresh ? undefined : e.lists[kind];
      if (!items && (!caps || caps[cap])) {
        try {
          items = (await client[method]({ ...options, all: true }))[kind];
        } catch (err) {
          return void this.#failed(e, err);
        }
        if (!fresh && e.client === client && e.version === version) e.lists[kind] = items;
      }
      if (Array.isArray(items)) got.set(e, items);
    };
    await Promise.all(live.map(fetchOne));
    return live.filter((e) => got.has(e) && e.status === "connected").map((e) => [e, got.get(e)]);
  }

  // Merged names (the toolNames rule) over gathered lists, remembered for routing.
  #named(kind, lists) {
    const merged = nameTools(lists.map(([e, items]) => [e.name, items]), this.#rule);
    const byName = new Map(lists.map(([e]) => [e.name, e]));
    this.#routes[kind] = new Map(merged.map((x) => [x.name, [byName.get(x.server), x.originalName]]));
    return merged;
  }

  // The route of a merged name (or URI), listing once more when it is unknown or its server left.
  async #route(kind, key, list) {
    const route = this.#routes[kind].get(key);
    if (route && !route[0].gone) return route;
    await list();
    return this.#routes[kind].get(key);
  }

  /** Every connected server's tools (each listing refetched only after its list_changed). */
  async listTools(options) {
    return { tools: this.#named("tools", await this.#gather("tools", "listTools", options)) };
  }

  /** Calls a tool by its merged name on the server that listed it; options pass through. */
  async callTool(name, args, options) {
    const route = await this.#route("tools", name, () => this.listTools());
    if (!route)
      throw new this.#Err(-32602, `Unknown tool: ${name} (no server of the group lists it)`, {
        local: true,
        kind: "unknown_tool",
        tool: name,
      });
    const [e, tool] = route;
    return this.#onServer(e, (client) => client.callTool(tool, args, options));
  }

  /** Every connected server's prompts, named by the toolNames rule (refetched after a list_changed). */
  async listPrompts(options) {
    return { prompts: this.#named("prompts", await this.#gather("prompts", "listPrompts", options)) };
  }

  /** Gets a prompt by its merged name from the server that listed it. */
  async getPrompt(name, args, options) {
    const route = await this.#route("prompts", name, () => this.listPrompts());
    if (!route) throw this.#input(`Unknown prompt: ${name} (no server of the group lists it)`, { prompt: name });
    const [e, prompt] = route;
    return this.#onServer(e, (client) => client.getPrompt(prompt, args, options));
  }

  /** Every connected server's resources with `server` added; a URI two servers list is there twice. */
  async listResources(options) {
    const lists = await this.#gather("resources", "listResources", options);
    const routes = new Map();
    const resources = [];
    for (const [e, items] of lists)
      for (const r of items) {
        if (!routes.has(r?.uri)) routes.set(r?.uri, [e, r?.uri]); // the first server listing a URI reads it
        resources.push({ ...r, server: e.name });
      }
    this.#routes.resources = routes;
    return { resources };
  }

  /** Every connected server's resource templates with `server` added (read one with `{ server }`). */
  async listResourceTemplates(options) {
    const lists = await this.#gather("resourceTemplates", "listResourceTemplates", options, "resources", true);
    return { resourceTemplates: lists.flatMap(([e, items]) => items.map((t) => ({ ...t, server: e.name }))) };
  }

  /** Reads a URI from the first server that listed it, or from `options.server`. */
  async readResource(uri, options) {
    const { server, ...callOptions } = options ?? {};
    let e;
    if (server !== undefined) {
      e = this.#servers.get(server);
      if (!e) throw this.#input(`readResource: no server named ${JSON.stringify(server)} in the group`, { server: String(server) });
    } else {
      e = (await this.#route("resources", uri, () => this.listResources()))?.[0];
      if (!e) throw this.#input(`Unknown resource: ${uri} (no server of the group lists it; pass { server } to read it from one)`, { uri: String(uri) });
    }
    return this.#onServer(e, (client) => client.readResource(uri, callOptions));
  }
}

// ---- Client ----------------------------------------------------------------------------------

/** The list events: which state getter each refreshes, and the listen() filter key (2026). */
const LIST_EVENTS = {
  toolschange: ["tools", "toolsListChanged"],
  promptschange: ["prompts", "promptsListChanged"],
  resourceschange: ["resources", "resourcesListChanged"],
};
/** What a getter answers before the core exists (every other getter: undefined). */
const BEFORE_CORE = { state: "idle", pendingRequests: 0, discoverResult: null };

/** The popup authorizer's window name and features (src/js/auth/exports.rs's defaults). */
const SIGN_IN_WINDOW = ["mcp-wasm-client-auth", "popup,width=520,height=720"];

// In a page, for an `auth` option whose sign-in page is a popup (the default, or
// authorizeWithPopup() without a window): a blank window opened now, else undefined.
function openSignInWindow(auth) {
  const page = globalThis.window;
  const authorize = auth?.authorize;
  const popup = authorize === undefined || authorize?.mcpWasmClientKind === "popup";
  if (!auth || typeof auth !== "object" || !popup || typeof page?.open !== "function") return undefined;
  const [name, features] = authorize?.windowFeatures ? [SIGN_IN_WINDOW[0], authorize.windowFeatures] : SIGN_IN_WINDOW;
  try {
    const w = page.open("", name, features);
    if (w?.document) w.document.title = "Signing in…";
    return w ?? undefined;
  } catch {
    return undefined; // blocked: the authorizer opens its own, or says popup_blocked
  }
}

let Exported; // the exported Client (its prototype is the facades')
let newCore; // (first, second, observer) => ClientCore
let whenReady = null; // before the wasm is ready (index.js): resolves once it is

class ClientFacade extends EventTarget {
  #core;
  #ready; // before init: the core's promise
  #failed; // before init: the error the core's construction threw
  #loggingCallback;
  #auth; // options.auth, for signIn() before the core exists
  #watching = false;
  #sub; // the 2026 listen stream #watch opened
  #wanted = new Set(); // the list events someone listens for

  constructor(first, second) {
    super();
    const observe = (type, detail) => this.#observe(type, detail);
    this.#auth = [first, second].find((o) => o && typeof o === "object" && "auth" in o)?.auth;
    if (!whenReady) {
      this.#core = ClientFacade.#make(first, second, observe);
      return;
    }
    this.#loggingCallback = [first, second].find((o) => typeof o?.loggingCallback === "function")?.loggingCallback;
    this.#ready = whenReady.then(() => (this.#core = ClientFacade.#make(first, second, observe)));
    this.#ready.catch((error) => {
      this.#failed = error;
      this.#observe("statechange", { state: "failed", previous: "idle", error });
    });
  }

  /** Forwards every method and getter of the core's prototype from the facades'. */
  static forward(proto, coreProto) {
    for (const key of Reflect.ownKeys(coreProto)) {
      if (key === "constructor" || String(key).startsWith("__")) continue;
      const d = Object.getOwnPropertyDescriptor(coreProto, key);
      if (d.get) {
        const get = function () {
          return ClientFacade.#read(this, key, String(key));
        };
        Object.defineProperty(proto, key, { get, configurable: true });
      } else if (typeof d.value === "function") {
        const name = typeof key === "symbol" ? `[${key.description}]` : key;
        const method = {
          [name](...args) {
            return ClientFacade.#call(this, key, args, name);
          },
        }[name];
        Object.defineProperty(proto, key, { value: method, writable: true, configurable: true });
      }
    }
  }

  static #of(self) {
    if (self === null || typeof self !== "object" || !(#core in self))
      throw new TypeError("Client method or getter used on an object that is not a Client");
    return self;
  }

  // A new core; a trap in its construction poisons the instance (a thrown McpError passes).
  static #make(first, second, observe) {
    const refused = refusal("Client");
    if (refused) throw refused;
    try {
      return newCore(first, second, observe);
    } catch (e) {
      throw trapped(e, "Client");
    }
  }

  // Getters on a poisoned instance never enter the wasm: `state` is "failed", `error` the
  // McpError saying why, every other getter throws it.
  static #read(self, key, op) {
    const c = ClientFacade.#of(self);
    const refused = refusal(op);
    if (refused) {
      if (key === "state") return "failed";
      if (key === "error") return refused;
      throw refused;
    }
    if (c.#core) {
      try {
        return c.#core[key];
      } catch (e) {
        throw trapped(e, op);
      }
    }
    if (key === "state") return c.#failed ? "failed" : "idle";
    if (key === "error") return c.#failed;
    if (key === "loggingCallback") return c.#loggingCallback;
    return BEFORE_CORE[key];
  }

  // Every method returns a promise: a trap in its synchronous part, or a poisoned instance,
  // rejects it with the McpError naming `op` (a thrown McpError passes unchanged).
  static #call(self, key, args, op) {
    const c = ClientFacade.#of(self);
    const run = (core) => {
      const refused = refusal(op);
      if (refused) return Promise.reject(refused);
      try {
        return core[key](...args);
      } catch (e) {
        const err = trapped(e, op);
        if (err === e) throw e;
        return Promise.reject(err);
      }
    };
    if (c.#core) return run(c.#core);
    return c.#ready.then(run);
  }

  /**
   * `signIn()`, from a click handler: opens the sign-in window now, inside the gesture (before
   * any await, before the module is ready), so that no browser blocks it; connects, the
   * authorization page showing in that window; resolves with `authorization`. A window the
   * sign-in did not need closes.
   */
  signIn() {
    const c = ClientFacade.#of(this);
    const w = openSignInWindow(c.#auth);
    const forget = (core) => {
      try {
        core?.__useSignInWindow(null);
      } catch {}
      try {
        if (w && !w.closed && w.location.href === "about:blank") w.close();
      } catch {} // navigated to the authorization server: its page is in use
    };
    const run = async (core) => {
      try {
        core.__useSignInWindow(w ?? null);
        if (core.state !== "connected") await core.connect();
        return core.authorization;
      } catch (e) {
        throw trapped(e, "signIn");
      } finally {
        forget(core);
      }
    };
    if (c.#core) return run(c.#core);
    return c.#ready.then(run, (e) => {
      forget(null);
      throw e;
    });
  }

  #observe(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
    if (type !== "statechange") return;
    if (detail.state === "closed") {
      const sub = this.#sub;
      this.#sub = undefined;
      sub?.close().catch(() => {});
      this.dispatchEvent(new Event("close"));
    }
    if (detail.state === "connected") this.#watch();
  }

  addEventListener(type, listener, options) {
    super.addEventListener(type, listener, options);
    if (!Object.hasOwn(LIST_EVENTS, type)) return;
    this.#wanted.add(type);
    if (this.#core && this.state === "connected") this.#watch();
  }

  // 2026 servers announce list changes only on a subscriptions/listen stream: one is opened
  // once someone listens for a list event (never by itself: connecting adds no request).
  async #watch() {
    const core = this.#core;
    const caps = core.serverCapabilities;
    if (this.#watching || this.#wanted.size === 0 || core.era !== "modern" || !caps) return;
    const filter = {};
    for (const [type, [kind, flag]] of Object.entries(LIST_EVENTS))
      if (this.#wanted.has(type) && caps[kind]?.listChanged) filter[flag] = true;
    if (!Object.keys(filter).length) return;
    this.#watching = true;
    try {
      const sub = await core.listen(filter);
      if (core.state !== "connected") return void sub.close().catch(() => {});
      this.#sub = sub;
      // The core applies each notification (events, refetch); the loop only drains the queue.
      for await (const n of sub) void n;
    } catch {
      // closed, or the server refused: nothing to watch
    }
  }
}

/** Makes `exported` (the glue's Client) the facades' class; `ready` (index.js) defers cores. */
export function adoptClient(exported, coreProto, ready) {
  whenReady = ready ? ready.then(() => (whenReady = null)) : null;
  whenReady?.catch(() => {}); // each facade's methods reject with the error instead
  newCore = (first, second, observe) => new coreProto.constructor(first, second, observe);
  if (Exported === exported) return;
  Exported = exported;
  const proto = exported.prototype;
  for (const key of Reflect.ownKeys(proto)) if (key !== "constructor") delete proto[key];
  Object.setPrototypeOf(proto, ClientFacade.prototype);
  Object.setPrototypeOf(exported, ClientFacade); // statics too (Node's EventTarget checks its constructor's)
  ClientFacade.forward(proto, coreProto);
}

/** `new Client(first, second)`: a facade whose prototype is the exported Client's. */
export function makeClient(first, second) {
  return Reflect.construct(ClientFacade, [first, second], Exported);
}

/** `client.listen()`'s async iterable over the engine's subscription (listen.rs). Here, not in an
 *  inline snippet: each snippet module is one more file the wasm-bindgen-test page loads, and its
 *  server has stalled with requests unread. */
export function asyncIterable(next, close, honoured) {
  return {
    honoured,
    next,
    close,
    return: async () => { await close(); return { value: undefined, done: true }; },
    [Symbol.asyncIterator]() { return this; },
  };
}
