// The surface boundary-cases.mjs covers: the wrong values, every export, Client method, getter and
// options field with its valid arguments.

// ---- wrong values ------------------------------------------------------------------------------

/** Wrong values by key: a label for case names and a maker (fresh Symbols, URLs per call). */
export const WRONG = {
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
export const KINDS = {
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
export const CALL_OPTION_FIELDS = [
  ["signal", "42", () => 42],
  ["signal", "{}", () => ({})],
  ["timeoutMs", '"x"', () => "x"],
  ["onProgress", "5", () => 5],
  ["resetTimeoutOnProgress", '"no"', () => "no"],
  ["maxTotalTimeoutMs", "{}", () => ({})],
];
/** Wrong-typed fields of callTool's task options (session::tasks::TASK_CALL_OPTIONS). */
export const CALL_TOOL_OPTION_FIELDS = [
  ["task", '"x"', () => "x"],
  ["task", "5", () => 5],
  ["task", "false", () => false],
  ["task", '{ ttlMs: "x" }', () => ({ ttlMs: "x" })],
  ["onTask", "5", () => 5],
];
export const LIST_OPTION_FIELDS = [
  ["cursor", "5", () => 5],
  ["all", '"yes"', () => "yes"],
  ["maxPages", '"x"', () => "x"],
];

/** Wrong-typed fields of the Client constructor's options (ClientOptions). */
export const CLIENT_OPTION_FIELDS = [
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

export const REDIRECT_URI = "http://127.0.0.1/callback";

export const PROMPT_REF = { type: "ref/prompt", name: "greet" };

/**
 * Every Client method: its parameters (name, kind; "callOptions"/"listOptions" for the options
 * object) and valid arguments for the positions before the one under test.
 */
export const METHODS = {
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
export const CLIENT_GETTERS = [
  "protocolVersion", "era", "transport", "serverInfo", "serverCapabilities", "instructions",
  "sessionId", "pendingRequests", "authorization", "discoverResult", "tasks", "skills", "loggingCallback",
  "state", "error", "tools", "prompts", "resources",
];
/** client.tasks's methods: the taskId (or list's options) and the per-call options. */
export const TASK_METHODS = {
  get: { params: [["taskId", "string"], ["options", "callOptions"]], valid: ["t-1"] },
  result: { params: [["taskId", "string"], ["options", "callOptions"]], valid: ["t-1"] },
  cancel: { params: [["taskId", "string"], ["options", "callOptions"]], valid: ["t-1"] },
  list: { params: [["options", "listTasksOptions"]], valid: [] },
};
export const MCP_ERROR_GETTERS = ["code", "message", "data", "name"];
// `start` is the #[wasm_bindgen(start)] function, which wasm-bindgen also exports.
export const EXPORTS = [
  "Client", "McpError", "elicitationForm", "start", "validateElicitation", "wasmMemoryBytes",
  "authorizeHeadless", "authorizeWithPopup", "authorizeWithRedirect", "completeAuthorizationPopup",
  "memoryStorage", "webStorage", "indexedDbStorage", "idJagAssertion",
  "messagePortTransport", "windowTransport", "inMemoryPair", "ClientGroup", "Tasks", "Skills",
  "ClientCore", // the glue's (the Rust client behind the Client facade); no npm entry exports it
];

export const SCHEMA = {
  type: "object",
  properties: { name: { type: "string", title: "Name" } },
  required: ["name"],
};
