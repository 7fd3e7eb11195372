// Wrong argument types at every entry point of the package, as one table of cases that runs
// unchanged in Node (pkg/nodejs) and in a browser (pkg/web): no imports, no host APIs beyond URL,
// Symbol and WebAssembly.
//
// What it proves: every export, constructor and Client method (on a Client never connected and on
// a connected legacy session, where the legacy-only methods reach their argument checks), every
// options field, and the McpError constructor, given undefined, null, a number, a plain object, a
// Symbol, an array, or for a string a URL object, throws or rejects with an McpError (instanceof
// McpError, name "McpError", numeric code, data.kind "input" for a bad argument) or applies a
// coercion the API promises: a URL object (anything with a string `href`) works as the Client's
// URL, and McpError coerces its message the way Error does. Never a WebAssembly trap
// (RuntimeError), never a plain TypeError; and after all of it the same instance still connects a
// fresh Client and calls a tool (a trap poisons the instance).
//
//   caseNames()                      the case names, in run order (no package needed)
//   runBoundaryCases(mod, url)       → { [name]: { ok, outcome, detail } } in the same order;
//                                    mod: the package's exports; url: a real peer that answers
//                                    CORS and speaks both eras (the Python peer)

const CASE_TIMEOUT_MS = 8000;
const HUNG = Symbol("hung");

// ---- wrong values ------------------------------------------------------------------------------

/** Wrong values by key: a label for case names and a maker (fresh Symbols, URLs per call). */
const WRONG = {
  undefined: ["undefined", () => undefined],
  null: ["null", () => null],
  number: ["42", () => 42],
  string: ['"text"', () => "text"],
  boolean: ["true", () => true],
  object: ["{ wrong: 1 }", () => ({ wrong: 1 })],
  array: ["[]", () => []],
  symbol: ["Symbol()", () => Symbol("boundary")],
  url: ["a URL object", () => new URL("demo://hello")],
};

// ---- the surface -------------------------------------------------------------------------------

/**
 * Parameter kinds: which wrong values each gets, and what a connected session must do with them.
 * `input`: McpError with data.kind "input". `mcp`: any McpError. `either:<check>`: an McpError,
 * or the call succeeds and the check holds (a coercion). Before connect, any McpError of kind
 * "closed" or "input" is right for every wrong value.
 */
const KINDS = {
  // a required non-empty string that is not a URL: a tool/prompt name, a method, a level
  string: { undefined: "input", null: "input", number: "input", object: "input", symbol: "input", url: "mcp" },
  // a resource URI: a URL object may be taken as its href
  uri: { undefined: "input", null: "input", number: "input", object: "input", symbol: "input", url: "either:readsHello" },
  // a required object
  object: { undefined: "input", null: "input", number: "input", string: "input", symbol: "input", array: "input" },
  // an optional object (undefined and null mean absent)
  optObject: { number: "input", string: "input", symbol: "input", array: "input" },
  // listen's filter: undefined/null may read as the empty filter
  filter: { undefined: "either:subscription", null: "either:subscription", number: "input", string: "input", symbol: "input", array: "input" },
  // an options object as a whole
  options: { number: "input", string: "input", symbol: "input", boolean: "input" },
};

/** Wrong-typed fields of per-call options (CallOptions), and the extra ones of ListOptions. */
const CALL_OPTION_FIELDS = [
  ["signal", "42", () => 42],
  ["signal", "{}", () => ({})],
  ["timeoutMs", '"x"', () => "x"],
  ["onProgress", "5", () => 5],
  ["resetTimeoutOnProgress", '"no"', () => "no"],
  ["maxTotalTimeoutMs", "{}", () => ({})],
];
/** Wrong-typed fields of callTool's task options (session::tasks::TASK_CALL_OPTIONS). */
const CALL_TOOL_OPTION_FIELDS = [
  ["task", '"x"', () => "x"],
  ["task", "5", () => 5],
  ["task", "false", () => false],
  ["task", '{ ttlMs: "x" }', () => ({ ttlMs: "x" })],
  ["onTask", "5", () => 5],
];
const LIST_OPTION_FIELDS = [
  ["cursor", "5", () => 5],
  ["all", '"yes"', () => "yes"],
  ["maxPages", '"x"', () => "x"],
];

/** Wrong-typed fields of the Client constructor's options (ClientOptions). */
const CLIENT_OPTION_FIELDS = [
  ["mode", "{}", () => ({})],
  ["mode", "42", () => 42],
  ["mode", "Symbol()", () => Symbol("mode")],
  ["clientInfo", "5", () => 5],
  ["clientInfo", "{ name: 1, version: 1 }", () => ({ name: 1, version: 1 })],
  ["headers", "5", () => 5],
  ["headers", "Symbol()", () => Symbol("headers")],
  ["headers", '{ "x-a": 5 }', () => ({ "x-a": 5 })],
  ["fetch", '"no"', () => "no"],
  ["fetch", "{}", () => ({})],
  ["timeoutMs", '"x"', () => "x"],
  ["timeoutMs", "Symbol()", () => Symbol("timeout")],
  ["maxMessageBytes", '"big"', () => "big"],
  ["cache", '"yes"', () => "yes"],
  ["elicitationCallback", "1", () => 1],
  ["samplingCallback", "{}", () => ({})],
  ["samplingCapabilities", "5", () => 5],
  ["listRootsCallback", '"f"', () => "f"],
  ["loggingCallback", "3", () => 3],
  ["messageHandler", "true", () => true],
  ["logLevel", "7", () => 7],
  ["inputRequiredMaxRounds", "{}", () => ({})],
  ["capabilities", "5", () => 5],
  ["extensions", '"x"', () => "x"],
  ["apps", '"yes"', () => "yes"],
  ["discoverResult", "[]", () => []],
  ["tasks", '"yes"', () => "yes"],
  ["auth", "5", () => 5],
  ["auth", '"x"', () => "x"],
  ["auth", "[]", () => []],
  ["auth", "Symbol()", () => Symbol("auth")],
];

const REDIRECT_URI = "http://127.0.0.1/callback";
/** Wrong-typed fields of the auth option (AuthOptions), each beside a valid redirectUri. */
const AUTH_OPTION_FIELDS = [
  ["redirectUri", "5", () => 5],
  ["redirectUri", "Symbol()", () => Symbol("redirect")],
  ["clientMetadataUrl", "5", () => 5],
  ["clientMetadataUrl", '"not a url"', () => "not a url"],
  ["clientMetadata", "5", () => 5],
  ["clientMetadata", "[]", () => []],
  ["clientInformation", '"id"', () => "id"],
  ["clientInformation", "{ client_id: 5 }", () => ({ client_id: 5 })],
  ["clientInformation", "{ wrong: 1 }", () => ({ wrong: 1 })],
  ["authorize", '"popup"', () => "popup"],
  ["authorize", "{}", () => ({})],
  ["storage", "5", () => 5],
  ["storage", "{ wrong: 1 }", () => ({ wrong: 1 })],
  ["storage", "{ get, set } (no delete)", () => ({ get() {}, set() {} })],
  ["scope", "5", () => 5],
  ["onInsufficientScope", '"never"', () => "never"],
  ["onInsufficientScope", "true", () => true],
  ["maxStepUp", "-1", () => -1],
  ["maxStepUp", '"1"', () => "1"],
  ["maxStepUp", "1.5", () => 1.5],
  ["fetch", '"no"', () => "no"],
  ["grant", "5", () => 5],
  ["grant", '"client_credentials"', () => "client_credentials"],
  ["grant", "[]", () => []],
  ["grant", "Symbol()", () => Symbol("grant")],
  ["grant", "{ type: 5 }", () => ({ type: 5 })],
  ["grant", '{ type: "client_credentials" } (no clientId)', () => ({ type: "client_credentials" })],
  ["grant", '{ type: "client_credentials", clientId: 5, clientSecret }', () => ({ type: "client_credentials", clientId: 5, clientSecret: "s" })],
  ["grant", '{ type: "client_credentials", clientId } (no secret, no key)', () => ({ type: "client_credentials", clientId: "c" })],
  ["grant", "{ …, privateKey: 5 }", () => ({ type: "client_credentials", clientId: "c", privateKey: 5 })],
  ["grant", "{ …, privateKey: {} }", () => ({ type: "client_credentials", clientId: "c", privateKey: {} })],
  ["grant", '{ …, algorithm: "HS256" }', () => ({ type: "client_credentials", clientId: "c", clientSecret: "s", algorithm: "HS256" })],
  ["grant", '{ …, method: "none" }', () => ({ type: "client_credentials", clientId: "c", clientSecret: "s", method: "none" })],
  ["grant", "{ …, method: Symbol() }", () => ({ type: "client_credentials", clientId: "c", clientSecret: "s", method: Symbol("m") })],
  ["grant", '{ type: "jwt_bearer", clientId } (no assertion)', () => ({ type: "jwt_bearer", clientId: "c" })],
  ["grant", '{ type: "jwt_bearer", clientId, assertion: "jwt" }', () => ({ type: "jwt_bearer", clientId: "c", assertion: "jwt" })],
  ["dpop", '"yes"', () => "yes"],
  ["dpop", "1", () => 1],
  ["dpop", "[]", () => []],
  ["dpop", "Symbol()", () => Symbol("dpop")],
  ["dpop", "{ keyPair: {} }", () => ({ keyPair: {} })],
  ["dpop", "{ keyPair: 5 }", () => ({ keyPair: 5 })],
];

const PROMPT_REF = { type: "ref/prompt", name: "greet" };

/**
 * Every Client method: its parameters (name, kind; "callOptions"/"listOptions" for the options
 * object) and valid arguments for the positions before the one under test.
 */
const METHODS = {
  connect: { params: [], valid: [] },
  listTools: { params: [["options", "listOptions"]], valid: [] },
  listResources: { params: [["options", "listOptions"]], valid: [] },
  listResourceTemplates: { params: [["options", "listOptions"]], valid: [] },
  listPrompts: { params: [["options", "listOptions"]], valid: [] },
  readResource: { params: [["uri", "uri"], ["options", "callOptions"]], valid: ["demo://hello"] },
  getPrompt: {
    params: [["name", "string"], ["args", "optObject"], ["options", "callOptions"]],
    valid: ["greet", { name: "Ada" }],
  },
  complete: {
    params: [["ref", "object"], ["argument", "object"], ["context", "optObject"], ["options", "callOptions"]],
    valid: [PROMPT_REF, { name: "name", value: "A" }, undefined],
  },
  listen: { params: [["filter", "filter"], ["options", "callOptions"]], valid: [{ toolsListChanged: true }] },
  ping: { params: [["options", "callOptions"]], valid: [] },
  subscribeResource: { params: [["uri", "uri"], ["options", "callOptions"]], valid: ["demo://hello"] },
  unsubscribeResource: { params: [["uri", "uri"], ["options", "callOptions"]], valid: ["demo://hello"] },
  callTool: {
    params: [["name", "string"], ["args", "optObject"], ["options", "callOptions"]],
    valid: ["echo", { text: "hi" }],
  },
  request: {
    params: [["method", "string"], ["params", "optObject"], ["options", "callOptions"]],
    valid: ["tools/list", {}],
  },
  setLoggingLevel: { params: [["level", "string"], ["options", "callOptions"]], valid: ["info"] },
  sendRootsListChanged: { params: [], valid: [] },
  // Without the auth option both refuse with an input error, whatever the argument.
  finishAuthorization: { params: [["callbackUrl", "string"]], valid: [`${REDIRECT_URI}?code=c&state=s`] },
  signOut: { params: [["options", "optObject"]], valid: [] },
  close: { params: [], valid: [] },
};
const CLIENT_GETTERS = [
  "protocolVersion", "era", "transport", "serverInfo", "serverCapabilities", "instructions",
  "sessionId", "pendingRequests", "authorization", "discoverResult", "tasks", "skills", "loggingCallback",
  "state", "error", "tools", "prompts", "resources",
];
/** client.tasks's methods: the taskId (or list's options) and the per-call options. */
const TASK_METHODS = {
  get: { params: [["taskId", "string"], ["options", "callOptions"]], valid: ["t-1"] },
  result: { params: [["taskId", "string"], ["options", "callOptions"]], valid: ["t-1"] },
  cancel: { params: [["taskId", "string"], ["options", "callOptions"]], valid: ["t-1"] },
  list: { params: [["options", "listTasksOptions"]], valid: [] },
};
const MCP_ERROR_GETTERS = ["code", "message", "data", "name"];
// `start` is the #[wasm_bindgen(start)] function, which wasm-bindgen also exports.
const EXPORTS = [
  "Client", "McpError", "elicitationForm", "start", "validateElicitation", "wasmMemoryBytes",
  "authorizeHeadless", "authorizeWithPopup", "authorizeWithRedirect", "completeAuthorizationPopup",
  "memoryStorage", "webStorage", "indexedDbStorage", "idJagAssertion",
  "messagePortTransport", "windowTransport", "inMemoryPair", "ClientGroup", "Tasks", "Skills",
  "ClientCore", // the glue's (the Rust client behind the Client facade); no npm entry exports it
];

const SCHEMA = {
  type: "object",
  properties: { name: { type: "string", title: "Name" } },
  required: ["name"],
};

// ---- outcomes and expectations -----------------------------------------------------------------

function withTimeout(p) {
  let timer;
  return Promise.race([
    p,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(HUNG), CASE_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Runs `fn`, awaiting a returned promise: { threw, error | value, sync }. */
async function attempt(fn) {
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

function symptom(mod, e) {
  if (e === HUNG) return "hung";
  if (typeof WebAssembly !== "undefined" && e instanceof WebAssembly.RuntimeError) return "RuntimeError";
  if (e instanceof mod.McpError) return "McpError";
  if (e instanceof TypeError) return "TypeError";
  return e?.constructor?.name ?? typeof e;
}

function show(v) {
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

function describeOutcome(mod, o) {
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
function notMcpError(mod, e) {
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
const mcpError = (kinds) => (mod, o) => {
  if (!o.threw) return "expected an McpError, but it succeeded";
  const bad = notMcpError(mod, o.error);
  if (bad) return `expected an McpError: ${bad}`;
  if (kinds && !kinds.includes(o.error.data?.kind)) {
    return `expected data.kind ${kinds.map(show).join(" or ")}, got ${show(o.error.data?.kind)}`;
  }
  return null;
};
const inputError = mcpError(["input"]);
const beforeConnectError = mcpError(["closed", "input"]);
const anyMcpError = mcpError(null);

/** Expectation: succeeds and `check(value)` holds (returns a reason string when it does not). */
const succeeds = (check) => (_mod, o) => (o.threw ? "expected success" : check(o.value));
/** Expectation: an McpError, or success where `check(value)` holds. */
const mcpErrorOr = (check) => (mod, o) => (o.threw ? anyMcpError(mod, o) : check(o.value));
/** Expectation: anything but a WebAssembly trap or a hang (a wrong `this`). */
const noTrap = (mod, o) => {
  if (!o.threw) return null;
  const s = symptom(mod, o.error);
  return s === "RuntimeError" || s === "hung" ? `expected no trap, got ${s}` : null;
};

const CHECKS = {
  readsHello: (v) => (v?.contents?.[0]?.uri === "demo://hello" ? null : `unexpected result ${show(v)}`),
  emptyResult: (v) => (v && typeof v === "object" ? null : `unexpected result ${show(v)}`),
  subscription: (v) =>
    v && typeof v[Symbol.asyncIterator] === "function" && typeof v.close === "function"
      ? null
      : `unexpected result ${show(v)}`,
};

function expectationFor(spec, method) {
  if (spec === "input") return inputError;
  if (spec === "mcp") return anyMcpError;
  const check = spec.slice("either:".length);
  // subscribe/unsubscribe answer {} when a URL object is taken as its href
  if (check === "readsHello" && method !== "readResource") return mcpErrorOr(CHECKS.emptyResult);
  return mcpErrorOr(CHECKS[check]);
}

/** Ends whatever a call that should have failed opened (a Subscription, a Client). */
async function cleanup(value) {
  if (value && typeof value.close === "function") {
    try {
      await withTimeout(Promise.resolve(value.close()));
    } catch {
      /* best effort */
    }
  }
}

// ---- the cases ---------------------------------------------------------------------------------

const argsWith = (valid, pos, value) => {
  const args = valid.slice(0, pos);
  while (args.length < pos) args.push(undefined);
  args.push(value);
  return args;
};

function methodCases(phase) {
  const out = [];
  const tag = phase === "before" ? "[never connected]" : "[connected, legacy]";
  const clientOf = (ctx) => (phase === "before" ? ctx.unconnected : ctx.connected);
  const expectFor = (spec, method) => (phase === "before" ? beforeConnectError : expectationFor(spec, method));
  for (const [method, { params, valid }] of Object.entries(METHODS)) {
    params.forEach(([param, kind], pos) => {
      const call = (args) => (ctx) => clientOf(ctx)[method](...args(ctx));
      if (kind === "callOptions" || kind === "listOptions") {
        for (const [key, spec] of Object.entries(KINDS.options)) {
          const [label, make] = WRONG[key];
          out.push({
            name: `Client.${method}: ${param} = ${label} ${tag}`,
            run: call(() => argsWith(valid, pos, make())),
            expect: expectFor(spec, method),
          });
        }
        let fields = kind === "listOptions" ? [...CALL_OPTION_FIELDS, ...LIST_OPTION_FIELDS] : CALL_OPTION_FIELDS;
        if (method === "callTool") fields = [...fields, ...CALL_TOOL_OPTION_FIELDS];
        for (const [field, label, make] of fields) {
          out.push({
            name: `Client.${method}: ${param}.${field} = ${label} ${tag}`,
            run: call(() => argsWith(valid, pos, { [field]: make() })),
            expect: expectFor("input", method),
          });
        }
        return;
      }
      for (const [key, spec] of Object.entries(KINDS[kind])) {
        const [label, make] = WRONG[key];
        out.push({
          name: `Client.${method}: ${param} = ${label} ${tag}`,
          run: call(() => argsWith(valid, pos, make())),
          expect: expectFor(spec, method),
        });
      }
    });
  }
  return out;
}

/** client.tasks.*: wrong task ids and options are input errors naming them, in both phases. */
function taskCases(phase) {
  const out = [];
  const tag = phase === "before" ? "[never connected]" : "[connected, legacy]";
  const clientOf = (ctx) => (phase === "before" ? ctx.unconnected : ctx.connected);
  const expectFor = (spec) => (phase === "before" ? beforeConnectError : expectationFor(spec, "tasks"));
  for (const [method, { params, valid }] of Object.entries(TASK_METHODS)) {
    params.forEach(([param, kind], pos) => {
      const call = (args) => (ctx) => clientOf(ctx).tasks[method](...args());
      const wrongs = kind === "string" ? KINDS.string : KINDS.options;
      for (const [key, spec] of Object.entries(wrongs)) {
        if (kind === "string" && key === "url") continue;
        const [label, make] = WRONG[key];
        out.push({ name: `Client.tasks.${method}: ${param} = ${label} ${tag}`, run: call(() => argsWith(valid, pos, make())), expect: expectFor(spec) });
      }
      if (kind === "string") return;
      const fields = kind === "listTasksOptions" ? [...CALL_OPTION_FIELDS, ["cursor", "5", () => 5]] : CALL_OPTION_FIELDS;
      for (const [field, label, make] of fields) {
        out.push({
          name: `Client.tasks.${method}: ${param}.${field} = ${label} ${tag}`,
          run: call(() => argsWith(valid, pos, { [field]: make() })),
          expect: expectFor("input"),
        });
      }
    });
  }
  return out;
}

/** client.skills (the peer declares no skills extension; arguments are checked before that). */
function skillsCases() {
  const out = [];
  const ENTRY = { uri: "skill://a/SKILL.md", frontmatter: { name: "a", description: "d" }, resources: "dynamic" };
  const wrongs = {
    get: [["uri", ["undefined", "null", "number", "object", "symbol"]]],
    readDirectory: [["uri", ["undefined", "null", "number", "object", "symbol"]]],
    read: [["skill", ["undefined", "null", "number", "object", "array", "symbol"]]],
    list: [["options", ["number", "string", "symbol", "boolean"]]],
  };
  for (const [method, [[param, keys]]] of Object.entries(wrongs)) {
    for (const key of keys) {
      const [label, make] = WRONG[key];
      out.push({
        name: `Client.skills.${method}: ${param} = ${label} [connected, legacy]`,
        run: (ctx) => ctx.connected.skills[method](make()),
        expect: inputError,
      });
    }
  }
  for (const [field, label, value] of [["skipInvalid", '"yes"', "yes"], ["maxPages", '"x"', "x"], ["cursor", "5", 5], ["timeoutMs", '"x"', "x"]]) {
    out.push({
      name: `Client.skills.list: options.${field} = ${label} [connected, legacy]`,
      run: (ctx) => ctx.connected.skills.list({ [field]: value }),
      expect: inputError,
    });
  }
  out.push({
    name: "Client.skills.read: ref = 42 [connected, legacy]",
    run: (ctx) => ctx.connected.skills.read(ENTRY, 42),
    expect: inputError,
  });
  for (const method of ["list", "get", "read", "readDirectory"]) {
    out.push({
      name: `Skills.${method}: called with this = {} (a detached method) does not trap`,
      run: (ctx) => ctx.mod.Skills.prototype[method].call({}, "skill://a/SKILL.md"),
      expect: noTrap,
    });
  }
  for (const getter of ["supported", "directoryRead"]) {
    out.push({
      name: `Skills.${getter} getter: read with this = {} does not trap`,
      run: (ctx) => Object.getOwnPropertyDescriptor(ctx.mod.Skills.prototype, getter).get.call({}),
      expect: noTrap,
    });
  }
  return out;
}

function receiverCases() {
  const out = [];
  for (const [method, { valid }] of Object.entries(METHODS)) {
    out.push({
      name: `Client.${method}: called with this = {} (a detached method) does not trap`,
      run: (ctx) => ctx.mod.Client.prototype[method].call({}, ...valid),
      expect: noTrap,
    });
  }
  for (const getter of CLIENT_GETTERS) {
    out.push({
      name: `Client.${getter} getter: read with this = {} does not trap`,
      run: (ctx) => Object.getOwnPropertyDescriptor(ctx.mod.Client.prototype, getter).get.call({}),
      expect: noTrap,
    });
  }
  for (const method of Object.keys(TASK_METHODS)) {
    out.push({
      name: `Tasks.${method}: called with this = {} (a detached method) does not trap`,
      run: (ctx) => ctx.mod.Tasks.prototype[method].call({}, ...TASK_METHODS[method].valid),
      expect: noTrap,
    });
  }
  for (const getter of MCP_ERROR_GETTERS) {
    out.push({
      name: `McpError.${getter} getter: read with this = {} does not trap`,
      run: (ctx) => Object.getOwnPropertyDescriptor(ctx.mod.McpError.prototype, getter).get.call({}),
      expect: noTrap,
    });
  }
  out.push(
    {
      name: "Client.free: called twice does not trap",
      run: (ctx) => {
        const c = new ctx.mod.Client(ctx.url);
        c.free();
        c.free();
      },
      expect: noTrap,
    },
    {
      name: "Client.listTools: after free() does not trap",
      run: (ctx) => {
        const c = new ctx.mod.Client(ctx.url);
        c.free();
        return c.listTools();
      },
      expect: noTrap,
    },
    {
      name: "Client.era getter: after free() does not trap",
      run: (ctx) => {
        const c = new ctx.mod.Client(ctx.url);
        c.free();
        return c.era;
      },
      expect: noTrap,
    },
  );
  return out;
}

function clientConstructorCases() {
  const out = [];
  const construct = (args) => (ctx) => new ctx.mod.Client(...args(ctx));
  out.push({ name: "new Client(): no arguments", run: construct(() => []), expect: inputError });
  for (const key of ["undefined", "null", "number", "boolean", "array", "symbol"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `new Client(url = ${label})`, run: construct(() => [make()]), expect: inputError });
  }
  out.push(
    {
      name: "new Client(url = { url }) (a plain object without href)",
      run: construct((ctx) => [{ url: ctx.url }]),
      expect: inputError,
    },
    {
      name: "new Client(url = { href: 42 }) (href not a string)",
      run: construct(() => [{ href: 42 }]),
      expect: inputError,
    },
    {
      name: "new Client(url = new URL(\"ftp://…\")): a URL object is checked like a string (http/https only)",
      run: construct(() => [new URL("ftp://127.0.0.1/mcp")]),
      expect: inputError,
    },
  );
  const connects = (make) => async (ctx) => {
    const c = new ctx.mod.Client(make(ctx));
    try {
      await c.connect();
      const { tools } = await c.listTools();
      return { era: c.era, tools: tools.map((t) => t.name) };
    } finally {
      await cleanup(c);
    }
  };
  const connected = succeeds((v) =>
    ["legacy", "modern"].includes(v?.era) && v.tools.includes("echo") ? null : `unexpected ${show(v)}`,
  );
  out.push(
    { name: "new Client(new URL(url)): constructs, connects and lists tools", run: connects((ctx) => new URL(ctx.url)), expect: connected },
    { name: "new Client({ href: url }): a URL-like object constructs, connects and lists tools", run: connects((ctx) => ({ href: ctx.url })), expect: connected },
  );
  for (const key of ["number", "string", "boolean", "symbol"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `new Client(url, options = ${label})`, run: construct((ctx) => [ctx.url, make()]), expect: inputError });
  }
  for (const [field, label, make] of CLIENT_OPTION_FIELDS) {
    out.push({
      name: `new Client(url, { ${field}: ${label} })`,
      run: construct((ctx) => [ctx.url, { [field]: make() }]),
      expect: inputError,
    });
  }
  return out;
}

function mcpErrorCases() {
  const out = [];
  // McpError coerces its message like Error: String(x), "" when absent or undefined.
  const message = (name, args, expected) => ({
    name,
    run: (ctx) => new ctx.mod.McpError(...args()),
    expect: succeeds((e) => (e?.message === expected ? null : `message is ${show(e?.message)}, expected ${show(expected)}`)),
  });
  out.push(
    {
      name: "new McpError(-32000, \"boom\", { a: 1 }): the control (an Error with code, message, data)",
      run: (ctx) => new ctx.mod.McpError(-32000, "boom", { a: 1 }),
      expect: succeeds((e) =>
        e instanceof Error && e.name === "McpError" && e.code === -32000 && e.message === "boom" && e.data?.a === 1
          ? null
          : `unexpected ${show({ name: e?.name, code: e?.code, message: e?.message, data: e?.data })}`,
      ),
    },
    message("new McpError(-32000): no message → message \"\"", () => [-32000], ""),
    message("new McpError(-32000, undefined) → message \"\"", () => [-32000, undefined], ""),
    message("new McpError(-32000, null) → message \"null\"", () => [-32000, null], "null"),
    message("new McpError(-32000, 42) → message \"42\"", () => [-32000, 42], "42"),
    message("new McpError(-32000, true) → message \"true\"", () => [-32000, true], "true"),
    message("new McpError(-32000, { wrong: 1 }) → message \"[object Object]\"", () => [-32000, { wrong: 1 }], "[object Object]"),
    message("new McpError(-32000, { toString }) → message from toString()", () => [-32000, { toString: () => "custom" }], "custom"),
    message("new McpError(-32000, new URL(…)) → message is the href", () => [-32000, new URL("https://example.test/x")], "https://example.test/x"),
    {
      // Error(Symbol()) itself throws a TypeError; here either an McpError or String(symbol).
      name: "new McpError(-32000, Symbol()): an McpError thrown, or message \"Symbol(boundary)\"",
      run: (ctx) => new ctx.mod.McpError(-32000, Symbol("boundary")),
      expect: mcpErrorOr((e) => (e?.message === "Symbol(boundary)" ? null : `message is ${show(e?.message)}`)),
    },
  );
  // A non-number code: no trap, no TypeError; the result is an McpError (thrown or constructed).
  const isMcpError = (mod, o) => {
    if (o.threw) return anyMcpError(mod, o);
    return o.value instanceof mod.McpError ? null : `returned ${show(o.value)}, not an McpError`;
  };
  out.push({ name: "new McpError(): no arguments gives an McpError", run: (ctx) => new ctx.mod.McpError(), expect: isMcpError });
  for (const key of ["undefined", "null", "string", "object", "symbol"]) {
    const [label, make] = WRONG[key];
    out.push({
      name: `new McpError(code = ${label}, "m") gives an McpError`,
      run: (ctx) => new ctx.mod.McpError(make(), "m"),
      expect: isMcpError,
    });
  }
  out.push({
    name: 'new McpError(code = "-32000", "m") gives an McpError',
    run: (ctx) => new ctx.mod.McpError("-32000", "m"),
    expect: isMcpError,
  });
  return out;
}

function formCases() {
  const out = [];
  out.push(
    {
      name: "elicitationForm(schema): the control returns the fields",
      run: (ctx) => ctx.mod.elicitationForm(SCHEMA),
      expect: succeeds((v) => (v?.fields?.[0]?.name === "name" ? null : `unexpected ${show(v)}`)),
    },
    {
      name: "validateElicitation(schema, { name }): the control validates",
      run: (ctx) => ctx.mod.validateElicitation(SCHEMA, { name: "Ada" }),
      expect: succeeds((v) => (v?.content?.name === "Ada" && v.errors?.length === 0 ? null : `unexpected ${show(v)}`)),
    },
  );
  for (const [key, spec] of Object.entries(KINDS.object)) {
    const [label, make] = WRONG[key];
    out.push(
      { name: `elicitationForm(requestedSchema = ${label})`, run: (ctx) => ctx.mod.elicitationForm(make()), expect: expectationFor(spec) },
      {
        name: `validateElicitation(requestedSchema = ${label}, {})`,
        run: (ctx) => ctx.mod.validateElicitation(make(), {}),
        expect: expectationFor(spec),
      },
    );
  }
  // absent content reads as nothing typed yet: an McpError, or a result listing the missing field
  const validation = (v) =>
    Array.isArray(v?.errors) && v.errors.some((e) => e.field === "name") ? null : `unexpected ${show(v)}`;
  for (const key of ["undefined", "null", "number", "string", "symbol", "array"]) {
    const [label, make] = WRONG[key];
    const absent = key === "undefined" || key === "null";
    out.push({
      name: `validateElicitation(schema, content = ${label})`,
      run: (ctx) => ctx.mod.validateElicitation(SCHEMA, make()),
      expect: absent ? mcpErrorOr(validation) : inputError,
    });
  }
  out.push({
    name: "start(Symbol(), {}): extra arguments are ignored, no trap",
    run: (ctx) => ctx.mod.start(Symbol("extra"), {}),
    expect: succeeds((v) => (v === undefined ? null : `returned ${show(v)}`)),
  });
  out.push({
    name: "wasmMemoryBytes(Symbol(), {}): extra arguments are ignored, a byte count comes back",
    run: (ctx) => ctx.mod.wasmMemoryBytes(Symbol("extra"), {}),
    expect: succeeds((n) => (typeof n === "number" && n > 0 ? null : `returned ${show(n)}`)),
  });
  return out;
}

function authCases() {
  const out = [];
  const isStorage = (v) =>
    v && ["get", "set", "delete"].every((k) => typeof v[k] === "function") ? null : `unexpected ${show(v)}`;
  const isFunction = (v) => (typeof v === "function" ? null : `unexpected ${show(v)}`);
  // The helpers that take an options object.
  const helperFields = {
    authorizeWithPopup: [
      ["features", "5", () => 5], ["timeoutMs", '"x"', () => "x"], ["timeoutMs", "-1", () => -1],
      ["window", '"https://as.example/"', () => "https://as.example/"], ["window", "{}", () => ({})],
    ],
    authorizeHeadless: [["fetch", '"no"', () => "no"], ["fetch", "{}", () => ({})]],
    completeAuthorizationPopup: [["close", '"yes"', () => "yes"]],
  };
  for (const [helper, fields] of Object.entries(helperFields)) {
    for (const key of ["number", "string", "boolean", "symbol", "array"]) {
      const [label, make] = WRONG[key];
      out.push({ name: `${helper}(options = ${label})`, run: (ctx) => ctx.mod[helper](make()), expect: inputError });
    }
    for (const [field, label, make] of fields) {
      out.push({ name: `${helper}({ ${field}: ${label} })`, run: (ctx) => ctx.mod[helper]({ [field]: make() }), expect: inputError });
    }
  }
  for (const helper of ["authorizeWithPopup", "authorizeHeadless"]) {
    out.push({
      name: `${helper}(): the control returns an authorize function`,
      run: (ctx) => ctx.mod[helper](),
      expect: succeeds(isFunction),
    });
  }
  out.push(
    {
      name: "authorizeWithRedirect(Symbol(), {}): extra arguments are ignored, an authorize function comes back",
      run: (ctx) => ctx.mod.authorizeWithRedirect(Symbol("extra"), {}),
      expect: succeeds(isFunction),
    },
    {
      name: "memoryStorage(Symbol(), {}): extra arguments are ignored, a storage comes back",
      run: (ctx) => ctx.mod.memoryStorage(Symbol("extra"), {}),
      expect: succeeds(isStorage),
    },
    {
      name: "webStorage({ getItem, setItem, removeItem }): the control returns a storage",
      run: (ctx) => ctx.mod.webStorage({ getItem() {}, setItem() {}, removeItem() {} }),
      expect: succeeds(isStorage),
    },
  );
  for (const key of ["undefined", "null", "number", "string", "object", "array", "symbol", "url"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `webStorage(storage = ${label})`, run: (ctx) => ctx.mod.webStorage(make()), expect: inputError });
  }
  // (indexedDbStorage("x") is a storage in a browser and an input error in Node: not a case here.)
  for (const key of ["undefined", "null", "number", "object", "array", "symbol", "url"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `indexedDbStorage(name = ${label})`, run: (ctx) => ctx.mod.indexedDbStorage(make()), expect: inputError });
  }
  out.push({ name: 'indexedDbStorage(name = "")', run: (ctx) => ctx.mod.indexedDbStorage(""), expect: inputError });

  // Transports written in JavaScript: the exported ones, and the transport option.
  const isTransport = (t) =>
    ["start", "send", "close"].every((m) => typeof t?.[m] === "function") ? null : `not a transport: ${show(t)}`;
  for (const key of ["undefined", "null", "number", "string", "object", "array", "symbol", "url"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `messagePortTransport(port = ${label})`, run: (ctx) => ctx.mod.messagePortTransport(make()), expect: inputError });
    out.push({ name: `windowTransport(target = ${label}, { targetOrigin })`, run: (ctx) => ctx.mod.windowTransport(make(), { targetOrigin: "https://tools.example" }), expect: inputError });
    out.push({ name: `windowTransport(window, options = ${label})`, run: (ctx) => ctx.mod.windowTransport({ postMessage() {} }, make()), expect: inputError });
    if (key !== "undefined" && key !== "null") {
      out.push({ name: `new Client({ transport: ${label} })`, run: (ctx) => new ctx.mod.Client({ transport: make() }), expect: inputError });
    }
  }
  out.push(
    {
      name: "messagePortTransport(new MessageChannel().port1): the control returns a transport",
      run: (ctx) => ctx.mod.messagePortTransport(new MessageChannel().port1),
      expect: succeeds(isTransport),
    },
    {
      name: 'windowTransport(window, { targetOrigin: "*" }) is refused',
      run: (ctx) => ctx.mod.windowTransport({ postMessage() {} }, { targetOrigin: "*" }),
      expect: inputError,
    },
    {
      name: "inMemoryPair(Symbol()): extra arguments are ignored, two transports come back",
      run: (ctx) => ctx.mod.inMemoryPair(Symbol("extra")),
      expect: succeeds((p) => (Array.isArray(p) && p.length === 2 ? isTransport(p[0]) ?? isTransport(p[1]) : `not a pair: ${show(p)}`)),
    },
    {
      name: "new Client({ transport: { start, close } }) (no send)",
      run: (ctx) => new ctx.mod.Client({ transport: { start() {}, close() {} } }),
      expect: inputError,
    },
  );

  // ClientGroup: the options and each server's config.
  for (const [label, options] of [
    ["undefined", undefined], ["null", null], ["5", 5], ['"x"', "x"],
    ['{ servers: 5 }', { servers: 5 }], ['{ servers: { x: {} } }', { servers: { x: {} } }],
    ['{ servers: { x: null } }', { servers: { x: null } }], ['{ toolNames: "suffix" }', { toolNames: "suffix" }],
    ['{ servers: { x: { url: "ftp://a" } } }', { servers: { x: { url: "ftp://a" } } }],
  ]) {
    out.push({ name: `new ClientGroup(${label})`, run: (ctx) => new ctx.mod.ClientGroup(options), expect: inputError });
  }
  out.push({
    name: "new ClientGroup({ servers: {} }): the control builds a group",
    run: (ctx) => new ctx.mod.ClientGroup({ servers: {} }),
    expect: succeeds((g) => (typeof g.connect === "function" && typeof g.callTool === "function" ? null : `not a group: ${show(g)}`)),
  });

  // idJagAssertion: the options object and each field.
  const ID_JAG = { idpTokenEndpoint: "https://idp.example/token", idToken: "id-token", idpClientId: "idp-client" };
  out.push({
    name: "idJagAssertion({ idpTokenEndpoint, idToken, idpClientId }): the control returns an assertion function",
    run: (ctx) => ctx.mod.idJagAssertion(ID_JAG),
    expect: succeeds(isFunction),
  });
  for (const key of ["undefined", "null", "number", "string", "boolean", "array", "symbol", "url"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `idJagAssertion(options = ${label})`, run: (ctx) => ctx.mod.idJagAssertion(make()), expect: inputError });
  }
  for (const [field, label, make] of [
    ["idpTokenEndpoint", "undefined", () => undefined],
    ["idpTokenEndpoint", "5", () => 5],
    ["idpTokenEndpoint", "Symbol()", () => Symbol("endpoint")],
    ["idpTokenEndpoint", "a URL object", () => new URL("https://idp.example/token")],
    ["idpTokenEndpoint", '"not a url"', () => "not a url"],
    ["idpTokenEndpoint", '"http://idp.example/token" (not https, not loopback)', () => "http://idp.example/token"],
    ["idToken", "undefined", () => undefined],
    ["idToken", '""', () => ""],
    ["idToken", "5", () => 5],
    ["idpClientId", "{}", () => ({})],
    ["idpClientId", "null", () => null],
    ["idpClientSecret", "5", () => 5],
    ["idpClientSecret", "Symbol()", () => Symbol("secret")],
  ]) {
    out.push({
      name: `idJagAssertion({ …, ${field}: ${label} })`,
      run: (ctx) => ctx.mod.idJagAssertion({ ...ID_JAG, [field]: make() }),
      expect: inputError,
    });
  }

  // The auth option's fields.
  const withAuth = (auth) => (ctx) => new ctx.mod.Client(ctx.url, { auth });
  out.push({
    name: "new Client(url, { auth: { redirectUri } }): the control constructs, signed out",
    run: (ctx) => {
      const c = withAuth({ redirectUri: REDIRECT_URI })(ctx);
      const status = c.authorization;
      c.free();
      return status;
    },
    expect: succeeds((v) => (v === null ? null : `authorization is ${show(v)}`)),
  });
  out.push({ name: "new Client(url, { auth: {} }) (no redirectUri)", run: withAuth({}), expect: inputError });
  for (const [field, label, make] of AUTH_OPTION_FIELDS) {
    out.push({
      name: `new Client(url, { auth: { redirectUri, ${field}: ${label} } })`,
      run: (ctx) => withAuth({ redirectUri: REDIRECT_URI, [field]: make() })(ctx),
      expect: inputError,
    });
  }
  // An unknown grant type is its own kind.
  for (const [label, grant] of [
    ['{ type: "password", clientId, clientSecret }', { type: "password", clientId: "c", clientSecret: "s" }],
    ['{ type: "password" }', { type: "password" }],
    ["{ clientId, clientSecret } (no type)", { clientId: "c", clientSecret: "s" }],
  ]) {
    out.push({
      name: `new Client(url, { auth: { grant: ${label} } }) → unsupported_grant`,
      run: withAuth({ grant }),
      expect: mcpError(["unsupported_grant"]),
    });
  }
  out.push({
    name: 'new Client(url, { auth: { grant: { type: "client_credentials", clientId, clientSecret }, dpop: true } }): the control constructs without a redirectUri',
    run: (ctx) => {
      const c = withAuth({ grant: { type: "client_credentials", clientId: "c", clientSecret: "s" }, dpop: true })(ctx);
      const status = c.authorization;
      c.free();
      return status;
    },
    expect: succeeds((v) => (v === null ? null : `authorization is ${show(v)}`)),
  });

  // finishAuthorization and signOut on a client with the auth option (no request is made:
  // nothing is pending, nobody is signed in).
  const authed = (ctx) => (ctx.authed ??= new ctx.mod.Client(ctx.url, { auth: { redirectUri: REDIRECT_URI } }));
  for (const key of ["undefined", "null", "number", "object", "symbol", "array"]) {
    const [label, make] = WRONG[key];
    out.push({
      name: `Client.finishAuthorization: callbackUrl = ${label} [auth option]`,
      run: (ctx) => authed(ctx).finishAuthorization(make()),
      expect: inputError,
    });
  }
  out.push({
    name: "Client.finishAuthorization: callbackUrl = a URL object, nothing pending → state_mismatch [auth option]",
    run: (ctx) => authed(ctx).finishAuthorization(new URL(`${REDIRECT_URI}?code=c&state=s`)),
    expect: mcpError(["state_mismatch"]),
  });
  for (const key of ["number", "string", "boolean", "symbol", "array"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `Client.signOut: options = ${label} [auth option]`, run: (ctx) => authed(ctx).signOut(make()), expect: inputError });
  }
  out.push(
    { name: 'Client.signOut: options.all = "yes" [auth option]', run: (ctx) => authed(ctx).signOut({ all: "yes" }), expect: inputError },
    {
      name: "Client.signOut({ all: true }): the control resolves, signed out [auth option]",
      run: async (ctx) => {
        await authed(ctx).signOut({ all: true });
        return authed(ctx).authorization;
      },
      expect: succeeds((v) => (v === null ? null : `authorization is ${show(v)}`)),
    },
  );
  return out;
}

function surfaceCases() {
  return [
    {
      name: "surface: every export has cases here (and nothing listed here is missing)",
      run: (ctx) => {
        const names = Object.keys(ctx.mod)
          .filter((k) => k !== "default" && k !== "initSync" && k !== "init" && !k.startsWith("__"))
          .sort();
        return { names, expected: [...EXPORTS].sort() };
      },
      expect: succeeds(({ names, expected }) =>
        JSON.stringify(names) === JSON.stringify(expected) ? null : `exports ${show(names)}, cases cover ${show(expected)}`,
      ),
    },
    {
      name: "surface: every Client method and getter has cases here",
      run: (ctx) => {
        const names = Object.getOwnPropertyNames(ctx.mod.Client.prototype)
          .filter((k) => k !== "constructor" && k !== "free" && !k.startsWith("__"))
          .sort();
        return { names, expected: [...Object.keys(METHODS), ...CLIENT_GETTERS].sort() };
      },
      expect: succeeds(({ names, expected }) =>
        JSON.stringify(names) === JSON.stringify(expected) ? null : `Client has ${show(names)}, cases cover ${show(expected)}`,
      ),
    },
  ];
}

const STILL_WORKS = {
  name: "afterwards: the same instance still connects a fresh Client and calls a tool",
  run: async (ctx) => {
    const c = new ctx.mod.Client(ctx.url);
    try {
      await c.connect();
      const r = await c.callTool("echo", { text: "still here" });
      const e = new ctx.mod.McpError(-32000, "fine");
      const form = ctx.mod.elicitationForm(SCHEMA);
      return { text: r?.content?.[0]?.text, message: e.message, fields: form.fields.length };
    } finally {
      await cleanup(c);
    }
  },
  expect: succeeds((v) =>
    v.text === "still here" && v.message === "fine" && v.fields === 1 ? null : `unexpected ${show(v)}`,
  ),
};

function buildCases() {
  // Method cases first, the trap-prone constructors (today) last: every case still runs on the
  // one instance, and STILL_WORKS at the very end shows whether anything before poisoned it.
  return [
    ...surfaceCases(),
    ...formCases(),
    ...methodCases("before"),
    ...methodCases("after"),
    ...taskCases("before"),
    ...taskCases("after"),
    ...receiverCases(),
    ...skillsCases(),
    ...mcpErrorCases(),
    ...authCases(),
    ...clientConstructorCases(),
    STILL_WORKS,
  ];
}

/** The case names, in run order. */
export function caseNames() {
  const names = buildCases().map((c) => c.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`duplicate case name: ${dup}`);
  return names;
}

/**
 * Runs every case against `mod` (the package's exports, initialised) with `url` a real peer.
 * Resolves to { [name]: { ok, outcome, detail } }: outcome is "McpError", "RuntimeError",
 * "TypeError", another error's constructor name, "hung" or "resolved"; detail says why it failed.
 * `only(name)`, when given, picks the cases to run (to retry one on a fresh instance).
 */
export async function runBoundaryCases(mod, url, { only } = {}) {
  const results = {};
  const ctx = { mod, url };
  let setupError = null;
  try {
    ctx.unconnected = new mod.Client(url);
    ctx.connected = new mod.Client(url, { mode: "legacy" });
    await withTimeout(ctx.connected.connect());
  } catch (e) {
    setupError = `setup failed (a valid Client on ${url}): ${describeOutcome(mod, { threw: true, error: e }).detail}`;
  }
  for (const c of buildCases()) {
    if (only && !only(c.name)) continue;
    if (setupError && c !== STILL_WORKS) {
      results[c.name] = { ok: false, outcome: "setup", detail: setupError };
      continue;
    }
    const o = await attempt(() => c.run(ctx));
    let reason;
    try {
      reason = c.expect(mod, o);
    } catch (e) {
      reason = `the expectation threw: ${e?.message ?? e}`;
    }
    const { outcome, detail } = describeOutcome(mod, o);
    results[c.name] = { ok: reason === null, outcome, detail: reason === null ? detail : `${reason} — ${detail}` };
    if (!o.threw) await cleanup(o.value);
  }
  await cleanup(ctx.connected);
  await cleanup(ctx.unconnected);
  await cleanup(ctx.authed);
  return results;
}
