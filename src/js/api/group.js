// ClientGroup: several MCP servers behind one object, built on the exported Client (client.js;
// group.rs hands this module what it cannot import from the glue: a Client factory, the McpError
// class and the exported ClientGroup class). Tools are merged under names made by nameTools();
// calls are routed to the server that listed the tool; callbacks learn which server asked
// (ctx.server, or { server } as a second argument).

const SEP = "__";
const CALLBACKS = ["elicitationCallback", "samplingCallback", "listRootsCallback"];
const HTTP_ONLY = ["headers", "fetch", "auth", "reconnection", "middleware"];
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
