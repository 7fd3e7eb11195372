// Client: an EventTarget over a ClientCore (the Rust client). The exported Client's prototype is
// made the facade's (adoptClient): every method and getter of the core is forwarded by one loop,
// and the core tells the facade what happened through an observer(type, detail), dispatched as
// events (statechange, notification, toolschange, promptschange, resourceschange, close). A
// facade made before the wasm is initialised (the default entry's index.js) makes its core once
// the module is ready: methods wait for it, getters answer their not-connected values.

import { atCallSite, callSite, makeError, moduleLoadError, quoted, refusal, trapped, unknownOption } from "../boundary/error.js";

/** The list events: which state getter each refreshes, and the listen() filter key (2026). */
const LIST_EVENTS = {
  toolschange: ["tools", "toolsListChanged"],
  promptschange: ["prompts", "promptsListChanged"],
  resourceschange: ["resources", "resourcesListChanged"],
};
/** What a getter answers before the core exists (every other getter: undefined). */
const BEFORE_CORE = { state: "idle", pendingRequests: 0, discoverResult: null };

/** The popup authorizer's window name and features (src/js/auth/builders.js's defaults). */
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

// The methods a client without `auth` refuses, and the full module's refusal, which the facade
// gives for a client of the default entry's lean module (whose own would name the core entry).
const NEEDS_AUTH = new Set(["signOut", "finishAuthorization"]);
const needsAuth = (op) => makeError(-32602, `${op} needs the auth option of new Client(url, { auth })`, { local: true, kind: "input" });

// new Client's options, checked here before the core reads them: the target, every option's name
// (an unknown one refused with the closest known name: error.js unknownOption), the shapes the core
// takes as given (the URL, headers as [name, value] pairs, listChanged, reconnection, cache), the
// tracer and the middleware. The core reads the values (mode, clientInfo, the callbacks, the
// numbers...) and checks what they mean.

/** Every option of `new Client(...)` but the facade's `middleware`, in the order an error lists them. */
const CLIENT_OPTIONS = ("transport mode clientInfo logLevel elicitationCallback samplingCallback listRootsCallback " +
  "messageHandler loggingCallback samplingCapabilities capabilities extensions tasks apps discoverResult timeoutMs " +
  "maxMessageBytes reconnection inputRequiredMaxRounds cache tracer listChanged headers fetch auth").split(" ");
/** Options that only mean something over HTTP. */
const HTTP_ONLY = ["headers", "fetch", "auth", "reconnection"];

// An option error of the facade's own options (kind "input", as the core's are, naming the option).
const optionError = (message, option) => makeError(-32602, message, { local: true, kind: "input", option });
// An input McpError, as the core makes them.
const inputError = (message) => makeError(-32602, message, { local: true, kind: "input" });
// An object as the core reads one (a function is not; an array is).
const isObject = (v) => v !== null && typeof v === "object";
const present = (o, key) => isObject(o) && o[key] != null;

// Throws for the first own key of `obj` that `known` lacks.
function refuseUnknown(obj, scope, known, of) {
  const key = Object.keys(obj).find((k) => !known.includes(k));
  if (key !== undefined) throw inputError(unknownOption(scope, key, known, of));
}

// An option that must be an object (not an array) when given, with only the `known` keys.
function nested(options, key, known, shape) {
  const v = options[key];
  if (v == null) return;
  if (!isObject(v) || Array.isArray(v)) throw inputError(`options.${key} must be ${shape}`);
  refuseUnknown(v, `options.${key}`, known, key);
}

// `headers` as fetch takes it (a plain object of string values, a Headers, or any iterable of
// [name, value] pairs) as the core takes it: an array of [name, value] string pairs.
function headerPairs(v) {
  let entries, it;
  if (isObject(v)) {
    try {
      it = v[Symbol.iterator]();
    } catch {
      // not iterable (or its iterator throws): a plain object
    }
    if (typeof it?.next !== "function") entries = Object.entries(v);
    else
      try {
        entries = [];
        for (let step; !(step = it.next()).done; ) entries.push(step.value);
      } catch {
        entries = undefined; // refused below
      }
  }
  const pairs = [];
  for (const entry of entries ?? []) {
    if (!Array.isArray(entry)) break;
    const name = typeof entry[0] === "string" ? entry[0] : "";
    if (typeof entry[1] !== "string") throw inputError(`options.headers[${quoted(name)}] must be a string`);
    pairs.push([name, entry[1]]);
  }
  if (pairs.length !== entries?.length)
    throw inputError("options.headers must be an object of header names to string values, a Headers, or [name, value] pairs");
  return pairs;
}

// The URL of `new Client(url)`: absolute, http: or https:.
function checkUrl(url) {
  let scheme;
  try {
    scheme = new URL(url).protocol;
  } catch {
    throw inputError(`Client url ${quoted(url)} is not an absolute URL`);
  }
  if (scheme !== "http:" && scheme !== "https:") throw inputError(`Client url ${quoted(url)} must be http: or https:, not ${scheme}`);
}

// `middleware: [(next) => (url, init) => Promise<Response>, …]` composed over `fetch` (the option,
// else the global one) into the `fetch` the core uses for every request it makes, MCP and
// authorization alike, and over `auth.fetch` (the authorization requests' own fetch) when that is
// given: every request passes the layers, the given fetch innermost. The first middleware is the
// outermost: it sees each request first and its response last. A client over a JS transport
// (`overTransport`) makes no HTTP request: middleware is refused there.
function withMiddleware(options, overTransport) {
  if (!options || typeof options !== "object" || !("middleware" in options)) return options;
  const { middleware, ...rest } = options;
  if (middleware === undefined) return rest;
  const shape = "(next) => (url, init) => Promise<Response>";
  if (!Array.isArray(middleware)) throw optionError(`options.middleware must be an array of functions ${shape}`, "middleware");
  if (overTransport)
    throw optionError("options.middleware applies to HTTP requests; a client over { transport } makes none", "middleware");
  const over = (base) => {
    let next = (url, init) => base.call(globalThis, url, init);
    for (let i = middleware.length - 1; i >= 0; i--) {
      const layer = middleware[i];
      if (typeof layer !== "function") throw optionError(`options.middleware[${i}] must be a function ${shape}`, "middleware");
      next = layer(next);
      if (typeof next !== "function")
        throw optionError(`options.middleware[${i}] must return a function (url, init) => Promise<Response>`, "middleware");
    }
    return next;
  };
  const base = rest.fetch ?? globalThis.fetch;
  if (typeof base !== "function") return rest; // the core names the missing fetch
  const out = { ...rest, fetch: over(base) };
  if (typeof rest.auth?.fetch === "function") out.auth = { ...rest.auth, fetch: over(rest.auth.fetch) };
  return out;
}

// `tracer`: an @opentelemetry/api Tracer or anything with its startSpan shape (tracing.js,
// loaded when a client has one, makes the spans; the core only reports the steps inside requests).
function checkTracer(tracer) {
  if (tracer !== undefined && (tracer === null || typeof tracer.startSpan !== "function"))
    throw optionError("options.tracer must be an OpenTelemetry Tracer: an object with startSpan(name, options, context)", "tracer");
}

/**
 * `key` of the constructor's options: `new Client(url, options)` or `new Client({ transport, ...
 * }, moreOptions)`, whichever object has it.
 */
const optionOf = (first, second, key) => [first, second].find((o) => o && typeof o === "object" && key in o)?.[key];

// The constructor's arguments with the options the facade applies itself (tracer, middleware)
// checked and taken out.
function prepare(first, second) {
  checkTracer(optionOf(first, second, "tracer"));
  const overTransport = first && typeof first === "object" && !(first instanceof URL) && "transport" in first;
  if (!overTransport) return [first, withMiddleware(second, false)];
  return [withMiddleware(first, true), withMiddleware(second, true)];
}

/**
 * `new Client(url, options)` or `new Client({ transport, ...options }, moreOptions)` checked, in
 * the order the core reads them (the first error thrown; the facade's tracer and middleware
 * first): the core's two arguments, the URL as a string and its options (`fetch` through the
 * middleware), or the one options object with `transport` and no second.
 */
function clientArgs(first, second) {
  [first, second] = prepare(first, second);
  let url = typeof first === "string" ? first : isObject(first) && typeof first.href === "string" ? first.href : undefined;
  let options = second;
  if (url !== undefined || !isObject(first) || Array.isArray(first)) {
    if (url === undefined)
      throw inputError("Client needs a URL (a string or URL object: an absolute http: or https: URL) or an options object with transport");
    if (present(second, "transport"))
      throw inputError("options.transport cannot be combined with a URL: pass new Client({ transport, ...options })");
    if (second != null && !isObject(second)) throw inputError("Client options must be an object");
  } else {
    if (first.transport == null)
      throw inputError(
        "Client options without a URL need transport: new Client({ transport: messagePortTransport(port) }) or new Client(url, options)",
      );
    options = first;
    if (second != null) {
      if (!isObject(second) || Array.isArray(second)) throw inputError("Client options must be an object");
      for (const key of Object.keys(second))
        if (first[key] != null) throw inputError(`Client option ${key} is given twice (in the first and the second argument); give it once`);
      options = { ...second, ...first };
    }
    for (const key of HTTP_ONLY)
      if (options[key] != null) throw inputError(`options.${key} applies to Streamable HTTP only; a transport object carries the messages itself`);
  }
  options ??= {};
  refuseUnknown(options, "options", CLIENT_OPTIONS, "new Client()");
  nested(options, "listChanged", ["autoRefresh"], "an object: { autoRefresh: boolean }");
  const cache = options.cache;
  if (cache != null && typeof cache !== "boolean") {
    nested(options, "cache", ["store", "partition", "mode"], "a boolean or an object { store?, partition?, mode? }");
    const missing = ["get", "set", "delete", "clear"].filter((m) => cache.store != null && typeof cache.store[m] !== "function");
    if (missing.length)
      throw inputError(`options.cache.store must have the methods get, set, delete and clear (missing: ${missing.join(", ")})`);
  }
  if (url === undefined) return [options];
  checkUrl(url);
  if (options.headers != null) options = { ...options, headers: headerPairs(options.headers) };
  nested(options, "reconnection", ["initialDelayMs", "maxDelayMs"], "an object: { initialDelayMs?, maxDelayMs? }");
  return [url, options];
}

// The caller's active OpenTelemetry context, when @opentelemetry/api registered a context manager
// (read synchronously at each call: the span of a call is a child of what was active then).
const OTEL_API = Symbol.for("opentelemetry.js.api.1");
function activeContext() {
  try {
    return globalThis[OTEL_API]?.context?.active?.();
  } catch {
    return undefined;
  }
}

// The tracing module of a client with a tracer (loaded once, when the first such client is made).
let tracingModule;
function loadTracing() {
  tracingModule ??= import("./tracing.js").catch((e) => {
    tracingModule = undefined;
    throw moduleLoadError("the tracing module", "tracing.js", e);
  });
  return tracingModule;
}

let Exported; // the exported Client (its prototype is the facades')
let newCore; // (first, second, observer) => ClientCore
let whenReady = null; // before the wasm is ready (index.js): resolves once it is
let startModule = null; // (index.js) starts the module, on the first client that needs it
// The default entry's other module (index.js): { wants(first, second), load(first, second), full() }
// (full: the full module's newCore, for CompanionSkills), load
// resolving to a newCore of its own (the clients it wants, those with `auth`, are made there, loaded
// on first use), or to a lean one marked `lean` (a client with `auth` and a stored token).
let elsewhere = null;

class ClientFacade extends EventTarget {
  #core;
  #ready; // before init: the core's promise
  #failed; // before init: the error the core's construction threw
  #loggingCallback;
  #auth; // options.auth, for signIn() before the core exists
  #watching = false;
  #sub; // the 2026 listen stream #watch opened
  #wanted = new Set(); // the list events someone listens for
  #tracing; // with a tracer: tracing.js's Tracing, once loaded (#traced: its promise)
  #traced;
  #sampling; // options.samplingCallback, for <mcp-app-frame> (an app's sampling/createMessage)
  #skills; // a client of the default entry's lean module: its CompanionSkills, once asked for
  #args; // …and the constructor's arguments, for the companion

  constructor(first, second) {
    super();
    const observe = (type, detail) => this.#observe(type, detail);
    this.#auth = optionOf(first, second, "auth");
    this.#sampling = optionOf(first, second, "samplingCallback");
    const tracer = optionOf(first, second, "tracer");
    if (typeof tracer?.startSpan === "function")
      this.#traced = loadTracing().then(({ Tracing }) => (this.#tracing = new Tracing(tracer, this)));
    const other = elsewhere?.wants(first, second) ? elsewhere.load(first, second) : null;
    if (elsewhere && !other) this.#args = [first, second];
    const pending = other ? null : awaitModule();
    if (!pending && !other) {
      this.#core = ClientFacade.#make(first, second, observe, newCore);
      return;
    }
    this.#loggingCallback = [first, second].find((o) => typeof o?.loggingCallback === "function")?.loggingCallback;
    const maker = other ?? pending.then(() => newCore);
    this.#ready = maker.then((make) => {
      if (make.lean) this.#args = [first, second]; // a lean core after all (index.js: a stored token)
      return (this.#core = ClientFacade.#make(first, second, observe, make));
    });
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
            // the call site taken here, first: the fewer and the less optimized the frames above
            // the caller's, the cheaper V8's capture (error.js callSite)
            return ClientFacade.#call(this, key, args, name, callSite());
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

  // A new core made by `make` (a module's newCore); a trap in its construction poisons the
  // instance (a thrown McpError passes).
  static #make(first, second, observe, make) {
    const refused = refusal("Client");
    if (refused) throw refused;
    try {
      [first, second] = clientArgs(first, second);
      return make(first, second, observe);
    } catch (e) {
      throw trapped(e, "Client");
    }
  }

  /** A core for CompanionSkills, made by `make` from the client's own arguments (no events). */
  static companion(first, second, make) {
    return ClientFacade.#make(first, second, () => {}, make);
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
      if (key === "skills" && c.#args) return (c.#skills ??= new CompanionSkills(c.#core, c.#args, elsewhere));
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
  // rejects it with the McpError naming `op` (a thrown McpError passes unchanged). `site` is
  // the method's call site (error.js callSite), which its rejection's stack shows.
  static #call(self, key, args, op, site) {
    const c = ClientFacade.#of(self);
    if (c.#args && c.#auth == null && NEEDS_AUTH.has(key) && !refusal(op)) return Promise.reject(needsAuth(op));
    const run = (core, a = args) => {
      const refused = refusal(op);
      if (refused) return Promise.reject(refused);
      try {
        // the wasm takes the call site from here (error.js atCallSite: no capture in the wasm)
        return atCallSite(site, () => core[key](...a));
      } catch (e) {
        const err = trapped(e, op);
        if (err === e) throw e;
        return Promise.reject(err);
      }
    };
    if (c.#traced) {
      const context = activeContext();
      const ready = c.#core ? c.#traced : Promise.all([c.#traced, c.#ready]);
      return ready.then(() => c.#tracing.call(String(key), args, context, (a) => run(c.#core, a)));
    }
    if (c.#core) return run(c.#core);
    return c.#ready.then(run);
  }

  /** `client.skills`: the core's (forwarded like every getter), or a lean client's CompanionSkills
   *  (declared here: the default entry's lean core has no `skills` of its own to forward). */
  get skills() {
    return ClientFacade.#read(this, "skills", "skills");
  }

  /** The `samplingCallback` option, or undefined: where `<mcp-app-frame>` sends its app's sampling requests. */
  get samplingCallback() {
    return ClientFacade.#of(this).#sampling;
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
        if (c.#args && c.#auth == null) throw needsAuth("signIn");
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
    if (type === "trace") this.#tracing?.step(detail);
    this.dispatchEvent(new CustomEvent(type, { detail }));
    if (type !== "statechange") return;
    if (detail.state === "closed") {
      this.#skills?.close();
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

/** The skills extension's id, as a server declares it in `capabilities.extensions`. */
const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/**
 * `client.skills` of a client the default entry made in its lean module, which has no skills
 * code: each call is made by a companion client in the full module (loaded then), with the same
 * options, connected once on first use (a 2026 server's discover result is handed over, so no
 * request repeats it; a legacy server gets a session of its own) and closed with the client. The
 * getters read the server's declaration as the full module does (session::skills::declared).
 */
class CompanionSkills {
  #core;
  #args;
  #other;
  #companion = null; // a promise of the connected companion core
  #closed = false;

  constructor(core, args, other) {
    this.#core = core;
    this.#args = args;
    this.#other = other;
  }

  /** The server declared the extension (`false` before connect). */
  get supported() {
    const extensions = this.#core.serverCapabilities?.extensions;
    return extensions !== null && typeof extensions === "object" && Object.hasOwn(extensions, SKILLS_EXTENSION);
  }

  /** The server declared `directoryRead: true` (it serves `resources/directory/read`). */
  get directoryRead() {
    const declaration = this.#core.serverCapabilities?.extensions?.[SKILLS_EXTENSION];
    return declaration !== null && typeof declaration === "object" && !Array.isArray(declaration) && declaration.directoryRead === true;
  }

  list(options) {
    return this.#run("list", [options]);
  }

  get(uri, options) {
    return this.#run("get", [uri, options]);
  }

  read(skill, reference, options) {
    return this.#run("read", [skill, reference, options]);
  }

  readDirectory(uri, options) {
    return this.#run("readDirectory", [uri, options]);
  }

  /** Closes the companion (the client closed). */
  close() {
    this.#closed = true;
    const companion = this.#companion;
    this.#companion = null;
    companion?.then((core) => core.close()).catch(() => {});
  }

  async #run(method, args) {
    // Never connected, or closed: the McpError any request of the client rejects with (ping's),
    // as the full module's skills would.
    if (this.#closed || this.#core.state === "closed" || this.#core.era == null) return this.#core.ping().then(() => this.#run(method, args));
    const core = await (this.#companion ??= this.#connect());
    return core.skills[method](...args);
  }

  // The companion: the full module's core with the client's options, connected.
  async #connect() {
    try {
      const make = await this.#other.full();
      const [first, second] = this.#args;
      const discoverResult = this.#core.era === "modern" ? this.#core.discoverResult : null;
      const more = discoverResult ? { ...(second ?? {}), discoverResult } : second;
      const core = ClientFacade.companion(first, more, make);
      await core.connect();
      if (this.#closed) core.close().catch(() => {});
      return core;
    } catch (e) {
      this.#companion = null; // a later call tries again
      throw e;
    }
  }
}

/** Null when the module is ready; else the promise of its readiness (started now when lazy). */
function awaitModule() {
  if (!whenReady && startModule) {
    const start = startModule;
    startModule = null;
    whenReady = start().then(() => (whenReady = null));
    whenReady.catch(() => {}); // each facade's methods reject with the error instead
  }
  return whenReady;
}

/**
 * Makes `exported` (the glue's Client) the facades' class; `ready` (index.js) defers cores: the
 * module's readiness, or a function starting it (called when the first core is needed);
 * `other` (index.js: `{ wants(first, second), load(first, second) }`) makes the clients it wants in
 * another module, loaded when the first is made (`load()` resolves to its `newCore(first, second,
 * observe)`, or to a lean one marked `lean`).
 */
export function adoptClient(exported, coreProto, ready, other) {
  // A second module's own start (the default entry's full module, instantiated for the first
  // client with `auth`): the exported Client stays the first's; that module's cores are made
  // through `elsewhere`.
  if (Exported && Exported !== exported && !ready) return;
  if (ready) elsewhere = other ?? null;
  if (typeof ready === "function") {
    startModule = ready; // started by the first client that needs it (awaitModule)
    whenReady = null;
  } else {
    startModule = null;
    whenReady = ready ? ready.then(() => (whenReady = null)) : null;
    whenReady?.catch(() => {}); // each facade's methods reject with the error instead
  }
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
