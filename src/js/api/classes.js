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

const SEP = "__";
const CALLBACKS = ["elicitationCallback", "samplingCallback", "listRootsCallback"];
const HTTP_ONLY = ["headers", "fetch", "auth"];
const LIST_CHANGED = "notifications/tools/list_changed";

/**
 * The merged tool list: `lists` is [[server, tools], ...] in server order; `rule` is "prefix"
 * (`server__tool`), "bare" (the tool's own name; every name two or more servers share gets the
 * prefix) or (server, toolName) => name. A name made twice is kept for the first tool only.
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

// The exported class (group.rs) answers instanceof for the objects built here.
let exported;
export function makeGroup(options, newClient, McpError, Exported) {
  if (Exported && exported !== Exported) {
    exported = Exported;
    Object.defineProperty(Exported, Symbol.hasInstance, { value: (v) => v instanceof ClientGroup, configurable: true });
  }
  return new ClientGroup(options, newClient, McpError);
}

class ClientGroup {
  #options;
  #newClient;
  #Err;
  #rule;
  #servers = new Map(); // name -> { name, config, client, status, tools, sub, gone }
  #routes = new Map(); // merged name -> [entry, originalName]
  #connected = false;

  constructor(options, newClient, McpError) {
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

  #input(message, server) {
    return new this.#Err(-32602, message, { local: true, kind: "input", ...(server ? { server } : {}) });
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
    if (this.#servers.has(name)) throw this.#input(`ClientGroup: a server named "${name}" is already in the group`, name);
    if (!config || typeof config !== "object" || (config.url == null) === (config.transport == null))
      throw this.#input(`ClientGroup: server "${name}" needs either { url } or { transport }`, name);
    const e = { name, config, client: undefined, status: "closed", tools: undefined, sub: undefined, gone: false };
    e.client = this.#make(e); // throws the Client's own error for a bad option
    this.#servers.set(name, e);
    return e;
  }

  #make(e) {
    const { name, config } = e;
    const base = { ...this.#options };
    if (config.transport != null) for (const k of HTTP_ONLY) delete base[k];
    const merged = { ...base, ...config };
    for (const k of CALLBACKS) {
      const f = merged[k];
      if (typeof f === "function") merged[k] = (ctx, ...rest) => f({ ...ctx, server: name }, ...rest);
    }
    const log = merged.loggingCallback;
    if (typeof log === "function") merged.loggingCallback = (params) => log(params, { server: name });
    const handler = merged.messageHandler;
    merged.messageHandler = (message) => {
      if (message?.method === LIST_CHANGED && !e.gone) this.#changed(e);
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

  #changed(e) {
    e.tools = undefined;
  }

  async #connect(e) {
    if (e.status === "connected" || e.status === "connecting") return e.settled;
    if (e.status !== "closed" || e.used) {
      await this.#stop(e);
      e.client = this.#make(e);
    }
    e.used = true;
    e.status = "connecting";
    e.error = undefined;
    const client = e.client;
    e.settled = (async () => {
      try {
        await client.connect();
      } catch (err) {
        if (e.client !== client || e.status !== "connecting") return; // closed or removed meanwhile
        e.error = this.#tag(err, e.name);
        e.status = err?.data?.kind === "unauthorized" ? "unauthorized" : "failed";
        return;
      }
      if (e.client !== client || e.status !== "connecting") return void client.close().catch(() => {}); // closed meanwhile
      e.status = "connected";
      if (client.era === "modern" && client.serverCapabilities?.tools?.listChanged) this.#listen(e, client);
    })();
    return e.settled;
  }

  // 2026 sessions announce list changes only through subscriptions/listen.
  async #listen(e, client) {
    try {
      const sub = await client.listen({ toolsListChanged: true });
      if (e.client !== client || e.status !== "connected") return sub.close(); // closed meanwhile
      e.sub = sub;
      for await (const n of sub) if (n?.method === LIST_CHANGED) this.#changed(e);
    } catch {
      // the session ended or the server refused: nothing to watch
    }
  }

  // Closes a server: a connect under way settles first (a client is not closed mid-handshake).
  async #settle(e) {
    const pending = e.status === "connecting" ? e.settled : undefined;
    e.status = "closed";
    await pending;
    await this.#stop(e);
  }

  async #stop(e) {
    const { client, sub } = e;
    e.sub = undefined;
    e.tools = undefined;
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
    if ((kind === "network" || kind === "transport_closed") && e.status === "connected" && !e.gone) {
      e.status = "failed";
      e.error = err;
      e.tools = undefined;
      this.#stop(e);
    }
    return this.#tag(err, e.name);
  }

  /** Connects every server not yet connected, concurrently; resolves when all have settled. */
  async connect() {
    this.#connected = true;
    await Promise.all([...this.#servers.values()].map((e) => this.#connect(e)));
  }

  /** { name: "connecting" | "connected" | "unauthorized" | "failed" | "closed" } */
  get status() {
    return Object.fromEntries([...this.#servers].map(([n, e]) => [n, e.status]));
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

  async addServer(name, config) {
    const e = this.#add(name, config);
    if (this.#connected) await this.#connect(e);
  }

  async removeServer(name) {
    const e = this.#servers.get(name);
    if (!e) return;
    this.#servers.delete(name);
    e.gone = true;
    await this.#settle(e);
  }

  async close() {
    this.#connected = false;
    await Promise.all([...this.#servers.values()].map((e) => this.#settle(e)));
  }

  /** `await using group = new ClientGroup(…)`: close(). */
  [Symbol.asyncDispose]() {
    return this.close();
  }

  /** Every connected server's tools (each listing refetched only after its list_changed). */
  async listTools(options) {
    const live = [...this.#servers.values()].filter((e) => e.status === "connected");
    await Promise.all(
      live.map(async (e) => {
        if (e.tools) return;
        const client = e.client;
        try {
          const { tools } = await client.listTools({ ...options, all: true });
          if (e.client === client) e.tools = tools;
        } catch (err) {
          this.#failed(e, err);
        }
      }),
    );
    const lists = live.filter((e) => e.tools && e.status === "connected").map((e) => [e.name, e.tools]);
    const tools = nameTools(lists, this.#rule);
    this.#routes = new Map(tools.map((t) => [t.name, [this.#servers.get(t.server), t.originalName]]));
    return { tools };
  }

  /** Calls a tool by its merged name on the server that listed it; options pass through. */
  async callTool(name, args, options) {
    let route = this.#routes.get(name);
    if (!route || route[0].gone) route = (await this.listTools(), this.#routes.get(name));
    if (!route)
      throw new this.#Err(-32602, `Unknown tool: ${name} (no server of the group lists it)`, {
        local: true,
        kind: "unknown_tool",
        tool: name,
      });
    const [e, tool] = route;
    try {
      return await e.client.callTool(tool, args, options);
    } catch (err) {
      throw this.#failed(e, err);
    }
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

let Exported; // the exported Client (its prototype is the facades')
let newCore; // (first, second, observer) => ClientCore
let whenReady = null; // before the wasm is ready (index.js): resolves once it is

class ClientFacade extends EventTarget {
  #core;
  #ready; // before init: the core's promise
  #failed; // before init: the error the core's construction threw
  #loggingCallback;
  #watching = false;
  #sub; // the 2026 listen stream #watch opened
  #wanted = new Set(); // the list events someone listens for

  constructor(first, second) {
    super();
    const observe = (type, detail) => this.#observe(type, detail);
    if (!whenReady) {
      this.#core = newCore(first, second, observe);
      return;
    }
    this.#loggingCallback = [first, second].find((o) => typeof o?.loggingCallback === "function")?.loggingCallback;
    this.#ready = whenReady.then(() => (this.#core = newCore(first, second, observe)));
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
          return ClientFacade.#read(this, key);
        };
        Object.defineProperty(proto, key, { get, configurable: true });
      } else if (typeof d.value === "function") {
        const name = typeof key === "symbol" ? `[${key.description}]` : key;
        const method = {
          [name](...args) {
            return ClientFacade.#call(this, key, args);
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

  static #read(self, key) {
    const c = ClientFacade.#of(self);
    if (c.#core) return c.#core[key];
    if (key === "state") return c.#failed ? "failed" : "idle";
    if (key === "error") return c.#failed;
    if (key === "loggingCallback") return c.#loggingCallback;
    return BEFORE_CORE[key];
  }

  static #call(self, key, args) {
    const c = ClientFacade.#of(self);
    if (c.#core) return c.#core[key](...args);
    return c.#ready.then((core) => core[key](...args));
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
    if (this.#core?.state === "connected") this.#watch();
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
