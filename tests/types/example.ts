// A typed usage example: compiled with `tsc --noEmit --strict` against the built package's
// declarations. The @ts-expect-error lines prove the types are precise, not `any`.
import {
  Client,
  McpError,
  type McpErrorKind,
  elicitationForm,
  validateElicitation,
  authorizeWithPopup,
  authorizeWithRedirect,
  authorizeHeadless,
  completeAuthorizationPopup,
  memoryStorage,
  webStorage,
  indexedDbStorage,
  messagePortTransport,
  windowTransport,
  inMemoryPair,
  type McpTransport,
  type DiscoverResult,
  type JsonObject,
  type JsonRpcMessage,
  type AuthOptions,
  type AuthStorage,
  type Authorize,
  type AuthorizeWithPopupOptions,
  type AuthorizationStatus,
  type CallToolResult,
  type ElicitationCallback,
  type SamplingCallback,
  type ListRootsCallback,
  type ServerNotification,
  type Tool,
  type ClientState,
  type ClientEventMap,
  type StateChangeDetail,
  type SkillEntry,
  type SkillFile,
  type SkillListing,
  type SkillVerificationReason,
  ClientGroup,
  type GroupTool,
  type GroupServerStatus,
  type GroupPrompt,
  type GroupResource,
  type GroupStatusChange,
  type Task,
  type TaskStatus,
  type Tasks,
  type CallToolOptions,
  type ListTasksResult,
  type ReconnectionOptions,
} from "../../pkg/nodejs/mcp_wasm_client.js";
// @ts-expect-error: internal exports of the glue (the tests' memory checks) are not declared
import { wasmMemoryBytes, start } from "../../pkg/nodejs/mcp_wasm_client.js";
void wasmMemoryBytes;
void start;

const elicit: ElicitationCallback = async (context, params) => {
  const id: string | number = context.requestId;
  void id;
  if (params.mode === "url") {
    return { action: "decline" };
  }
  const schema = params.requestedSchema;
  const names: string[] = Object.keys(schema.properties);
  void names;
  return { action: "accept", content: { name: "Ada Lovelace", age: 36, tags: ["a"] } };
};

// @ts-expect-error: "maybe" is not an elicitation action
const badElicit: ElicitationCallback = async () => ({ action: "maybe" });
void badElicit;

const sample: SamplingCallback = (_context, params) => ({
  role: "assistant",
  content: { type: "text", text: `answering ${params.messages.length} messages in ${params.maxTokens} tokens` },
  model: "my-llm",
});
const roots: ListRootsCallback = () => ({ roots: [{ uri: "file:///home/ada", name: "home" }] });

async function main(): Promise<void> {
  const client = new Client("http://127.0.0.1:18101/mcp", {
    mode: "auto",
    clientInfo: { name: "typed", version: "1.0.0" },
    timeoutMs: 5_000,
    reconnection: { initialDelayMs: 500, maxDelayMs: 10_000 },
    elicitationCallback: elicit,
    samplingCallback: sample,
    samplingCapabilities: { tools: {} },
    listRootsCallback: roots,
    logLevel: "info",
    loggingCallback: (p) => console.log(p.level, p.data),
    messageHandler: (m: ServerNotification | McpError) => {
      if (m instanceof McpError) console.error(m.code, m.message);
      else console.log(m.method);
    },
  });
  // @ts-expect-error: mode is an enumerated string
  new Client("http://x", { mode: "fast" });
  const declaring = new Client("http://x", {
    capabilities: { experimental: { "x-demo": {} } },
    extensions: { "io.example/thing": { level: 2 } },
    apps: true,
  });
  await declaring.connect();
  const stored: DiscoverResult | null = declaring.discoverResult;
  const ext: JsonObject | undefined = declaring.serverCapabilities?.extensions?.["io.example/thing"];
  void ext;
  if (stored) void new Client("http://x", { discoverResult: stored });
  await declaring.callTool("t", {}, { _meta: { "io.example/trace": "t-1" } });
  // await using: the client closes when the block ends
  {
    await using scoped = new Client("http://x");
    void scoped.era;
  }
  // the loggingCallback option, as <mcp-app-frame> reads it back to send an app's log messages
  const logTo = declaring.loggingCallback;
  if (logTo) void logTo({ level: "info", data: "from an app" });
  // @ts-expect-error: read-only
  declaring.loggingCallback = undefined;
  // @ts-expect-error: an extension's settings are an object
  new Client("http://x", { extensions: { "io.example/thing": true } });

  await client.connect();
  const era: "legacy" | "modern" | undefined = client.era;
  void era;
  const { tools, nextCursor } = await client.listTools({ all: true });
  const first: Tool | undefined = tools[0];
  const cursor: string | undefined = nextCursor;
  void first;
  void cursor;
  const result: CallToolResult = await client.callTool("add", { a: 2, b: 40 }, { timeoutMs: 1_000, onProgress: (p) => console.log(p.progress, p.total) });
  for (const block of result.content) {
    if (block.type === "text") console.log(block.text);
    // @ts-expect-error: image blocks have no text
    if (block.type === "image") console.log(block.text);
  }
  const sub = await client.listen({ toolsListChanged: true });
  for await (const n of sub) {
    console.log(n.method, sub.honoured.toolsListChanged);
    break;
  }
  const read = await client.readResource("demo://hello");
  const prompt = await client.getPrompt("greet", { name: "Ada" });
  const done = await client.complete({ type: "ref/prompt", name: "greet" }, { name: "name", value: "A" });
  console.log(read.contents.length, prompt.messages.length, done.completion.values);
  const form = elicitationForm({ type: "object", properties: { email: { type: "string", format: "email" } }, required: ["email"] });
  for (const field of form.fields) console.log(field.kind, field.required);
  const checked = validateElicitation({ type: "object", properties: { n: { type: "integer" } } }, { n: "42" });
  console.log(checked.errors.map((e) => `${e.field}: ${e.message}`), checked.content);
  // @ts-expect-error: callTool needs a tool name string
  await client.callTool(42);
  // Tool arguments of an app's own type (not only JSON types): Record<string, unknown>.
  const typedArgs: Record<string, unknown> = { when: new Date(0).toISOString(), count: 3 as unknown };
  await client.callTool("schedule", typedArgs);
  // @ts-expect-error: tool arguments are an object, not a string
  await client.callTool("schedule", "when=now");
  // request<T>(): the result typed by the caller; JsonObject by default.
  const pong = await client.request<{ pongs: number }>("example/ping");
  const pongs: number = pong.pongs;
  void pongs;
  const raw: JsonObject = await client.request("example/ping");
  void raw;
  // @ts-expect-error: pongs is a number
  const pongText: string = (await client.request<{ pongs: number }>("example/ping")).pongs;
  void pongText;
  if (client.skills.supported) {
    const listing: SkillListing = await client.skills.list({ skipInvalid: true });
    const entry: SkillEntry | undefined = listing.skills[0];
    if (entry) {
      const { skill } = await client.skills.get(entry.uri);
      const file: SkillFile = await client.skills.read(skill, "references/FORMS.md");
      const bytes: Uint8Array = file.bytes;
      const same = await client.skills.read(file.uri, { timeoutMs: 5000 });
      console.log(skill.frontmatter.name, bytes.byteLength, same.verified, listing.invalid.length);
      if (client.skills.directoryRead) console.log((await client.skills.readDirectory("skill://x")).resources.length);
      try {
        await client.skills.read(skill, "unlisted.md");
      } catch (e) {
        if (e instanceof McpError && e.data?.kind === "skill_verification") {
          const reason: SkillVerificationReason = e.data.reason;
          console.log(reason, e.data.uri, e.data.differences.length);
        }
      }
      // @ts-expect-error: bytes is a Uint8Array, not a string
      const wrong: string = file.bytes;
      console.log(wrong);
    }
  }
  await client.close();
}

const err = new McpError(-32602, "bad", { field: "x" });
const isError: boolean = err instanceof Error;
const code: number = err.code;
void isError;
void code;
void main;
// data narrows by kind: each kind's fields, a misspelt field or kind is an error
function explain(e: McpError): string {
  if (e.data?.kind === "popup_blocked") return e.data.authorizationUrl;
  if (e.data?.kind === "http") return `HTTP ${e.data.status ?? "?"}`;
  if (e.data?.kind === "timeout") return `${e.data.timeoutMs} ms`;
  if (e.data?.kind === "unknown_tool") return `${e.data.tool} on no server of ${e.data.server ?? "the group"}`;
  if (e.data?.kind === "unauthorized") {
    // @ts-expect-error: the field is resourceMetadata
    void e.data.resourceMetadataUrl;
    return e.data.resourceMetadata ?? "";
  }
  // @ts-expect-error: "popup-blocked" is not a kind (popup_blocked is)
  if (e.data?.kind === "popup-blocked") return "";
  if (e.data?.local) {
    const kind: McpErrorKind = e.data.kind;
    return kind;
  }
  // a server's own data, as it sent it
  const detail: unknown = e.data?.["detail"];
  return String(detail);
}
void explain;
// rebuilt after structured clone / postMessage; no wasm pointer to free
const rebuilt: McpError = McpError.from({ ...err });
// @ts-expect-error McpError is a plain Error subclass: nothing to free
rebuilt.free();

// Authorization: the auth option, the helpers and the client's auth members.
const store: AuthStorage = memoryStorage();
const custom: AuthStorage = { get: async (k) => k, set: () => {}, delete: async () => {} };
void custom;
void webStorage;
void indexedDbStorage;
const ownAuthorize: Authorize = async ({ url, state, redirectUri, signal }) => {
  void state;
  void signal;
  return new URL(`${redirectUri}?code=x&from=${encodeURIComponent(url)}`);
};
const authOptions: AuthOptions = {
  clientMetadata: { client_name: "Typed app", redirect_uris: ["https://app.example/cb"], application_type: "web" },
  clientInformation: { client_id: "id", issuer: "https://as.example" },
  authorize: authorizeWithPopup({ features: "popup", timeoutMs: 60_000 }),
  storage: store,
  onInsufficientScope: "throw",
  maxStepUp: 2,
};
void ownAuthorize;
void authorizeWithRedirect();
void authorizeHeadless({ fetch });
const handedOver: boolean = completeAuthorizationPopup({ close: false });
void handedOver;
// Every helper is callable without arguments; a window opened in a click handler is navigated.
const noArgs: Authorize[] = [authorizeWithPopup(), authorizeWithRedirect(), authorizeHeadless()];
void noArgs;
const handedOverDefault: boolean = completeAuthorizationPopup();
void handedOverDefault;
const popupOptions: AuthorizeWithPopupOptions = { window: window.open("", "mcp-sign-in") };
void authorizeWithPopup(popupOptions);
void authorizeWithPopup({ window: null });
// @ts-expect-error: window is a Window, not a URL
void authorizeWithPopup({ window: "https://as.example/authorize" });
// @ts-expect-error: timeoutMs is a number
void authorizeWithPopup({ timeoutMs: "60s" });
const backoff: ReconnectionOptions = { maxDelayMs: 5_000 };
void backoff;
// @ts-expect-error: initialDelayMs is a number of milliseconds
const badBackoff: ReconnectionOptions = { initialDelayMs: "1s" };
void badBackoff;
// @ts-expect-error: onInsufficientScope is "reauthorize" | "throw"
const badAuth: AuthOptions = { onInsufficientScope: "retry" };
void badAuth;
async function signedIn(): Promise<void> {
  const c = new Client("https://mcp.example/mcp", { auth: authOptions });
  await c.finishAuthorization(new URL("https://app.example/cb?code=1&state=2"));
  const status: AuthorizationStatus | null = c.authorization;
  if (status) {
    const issuer: string = status.issuer;
    const expires: number | null = status.expiresAt;
    void issuer;
    void expires;
  }
  await c.signOut({ all: true });
}
void signedIn;

// Transports written in JavaScript: the shipped ones, and any object of the TS SDK's shape.
async function overTransports(iframe: HTMLIFrameElement, worker: Worker): Promise<void> {
  const [clientSide, serverSide] = inMemoryPair();
  const sent: JsonRpcMessage[] = [];
  serverSide.onmessage = (m: JsonRpcMessage) => sent.push(m);
  const viaPair = new Client({ transport: clientSide, mode: "legacy" }, { timeoutMs: 5_000 });
  await viaPair.connect();
  const name: "streamable-http" | "http+sse" | "javascript" = viaPair.transport;
  void name;
  const own: McpTransport = {
    start: async () => {},
    send: (message) => {
      const version: "2.0" = message.jsonrpc;
      void version;
    },
    close: () => {},
  };
  void new Client({ transport: own, elicitationCallback: elicit });
  void new Client({ transport: messagePortTransport(worker) });
  void new Client({ transport: messagePortTransport(new MessageChannel().port1) });
  if (iframe.contentWindow) {
    void new Client({ transport: windowTransport(iframe.contentWindow, { targetOrigin: "https://tools.example" }) });
  }
  // @ts-expect-error: a transport needs send()
  void new Client({ transport: { start() {}, close() {} } });
  // @ts-expect-error: windowTransport needs { targetOrigin }
  void windowTransport(window, {});
}
void overTransports;

// The TS SDK's own transports fit McpTransport as they are (types only: the SDK of tests/peers).
import type { Transport as SdkTransport } from "../peers/node_modules/@modelcontextprotocol/sdk/dist/esm/shared/transport.js";
function sdkTransportFits(t: SdkTransport): McpTransport {
  return t;
}
void sdkTransportFits;

// ClientGroup: several servers, merged tools, callbacks told which server asked.
async function group(): Promise<void> {
  const [clientSide] = inMemoryPair();
  const g = new ClientGroup({
    servers: {
      github: { url: "https://example.com/mcp", headers: { Authorization: "Bearer x" }, timeoutMs: 5_000 },
      docs: { url: new URL("https://docs.example/mcp"), mode: "legacy" },
      local: { transport: clientSide },
    },
    toolNames: "bare",
    elicitationCallback: async (ctx, params) => {
      const server: string = ctx.server;
      void server;
      void ctx.requestId;
      void params.message;
      return { action: "decline" };
    },
    loggingCallback: (params, { server }) => void [params.level, server],
    messageHandler: (message, source) => void [message, source.server],
  });
  await g.connect();
  const state: GroupServerStatus | undefined = g.status["github"];
  void state;
  const { tools } = await g.listTools();
  const first: GroupTool | undefined = tools[0];
  if (first) {
    const origin: [string, string] = [first.server, first.originalName];
    void origin;
  }
  const result: CallToolResult = await g.callTool("github__create_issue", { title: "t" }, { timeoutMs: 1_000, signal: new AbortController().signal });
  void result;
  // observable state: an EventTarget with typed events; status is one frozen object until a change
  const target: EventTarget = g;
  void target;
  g.addEventListener("statuschange", (e) => {
    const change: GroupStatusChange = e.detail;
    const status: GroupServerStatus = e.detail.status;
    void [change.server, change.previous, change.error?.data, status];
  });
  g.addEventListener("toolschange", (e) => void e.detail.server);
  g.addEventListener("close", (e) => void e.type);
  // @ts-expect-error: status is read-only
  g.status["github"] = "closed";
  // prompts and resources merged, routed by server
  const { prompts } = await g.listPrompts();
  const p: GroupPrompt | undefined = prompts[0];
  if (p) void (await g.getPrompt(p.name, { name: "Ada" })).messages;
  const { resources } = await g.listResources();
  const r: GroupResource | undefined = resources[0];
  if (r) void (await g.readResource(r.uri, { server: r.server, timeoutMs: 1_000 })).contents;
  for (const t of (await g.listResourceTemplates()).resourceTemplates) void [t.uriTemplate, t.server];
  await g.addServer("more", { url: "https://more.example/mcp" });
  await g.removeServer("more");
  const c: Client | undefined = g.client("docs");
  void c;
  for (const [name, client] of g.clients) void [name, client.era];
  void new ClientGroup({ servers: {}, toolNames: (server, tool) => `${server}.${tool}` });
  // @ts-expect-error: toolNames is "prefix", "bare" or a function
  void new ClientGroup({ servers: {}, toolNames: "suffix" });
  // @ts-expect-error: a transport server takes no headers
  void new ClientGroup({ servers: { x: { transport: clientSide, headers: {} } } });
  // @ts-expect-error: a server needs a url or a transport
  void new ClientGroup({ servers: { x: { timeoutMs: 1 } } });
  await g.close();
}
void group;

// Tasks: a call that may become a task, its id kept for a reload, the result found again.
async function tasks(): Promise<void> {
  const client = new Client("http://127.0.0.1:18121/mcp", { tasks: true });
  await client.connect();
  let saved: string | undefined;
  const options: CallToolOptions = {
    task: { ttlMs: 600_000 },
    onTask: (task: Task) => {
      saved = task.taskId;
      const ttl: number | null = task.ttlMs;
      const interval: number | undefined = task.pollIntervalMs;
      void ttl;
      void interval;
    },
    signal: new AbortController().signal,
  };
  const result: CallToolResult = await client.callTool("slow", { n: 1 }, options);
  console.log(result.isError);
  await client.callTool("slow", {}, { task: true });
  const tasks: Tasks = client.tasks;
  if (saved !== undefined) {
    const task: Task = await tasks.get(saved);
    const status: TaskStatus = task.status;
    if (status === "input_required") console.log(task.inputRequests);
    const final: CallToolResult = await tasks.result(saved, { timeoutMs: 30_000 });
    console.log(final.content.length);
    const cancelled: Task | undefined = await tasks.cancel(saved);
    console.log(cancelled?.status);
  }
  if (saved !== undefined) {
    const sub = await client.listen({ taskIds: [saved] });
    await sub.close();
  }
  const page: ListTasksResult = await tasks.list({ cursor: "c" });
  console.log(page.tasks.length, page.nextCursor);
  // @ts-expect-error: a task's status is one of five words
  const wrong: TaskStatus = "done";
  // @ts-expect-error: task takes { ttlMs }, not a number
  await client.callTool("slow", {}, { task: 5 });
  void wrong;
}
void tasks;

// Observable state (issue 26): the Client is an EventTarget with typed events, state and lists.
async function observable(): Promise<void> {
  const client = new Client("https://example.com/mcp", { listChanged: { autoRefresh: false } });
  const target: EventTarget = client;
  void target;
  const state: ClientState = client.state;
  const error: McpError | undefined = client.error;
  const tools: Tool[] | undefined = client.tools;
  const names: string[] = (client.prompts ?? []).map((p) => p.name).concat((client.resources ?? []).map((r) => r.uri));
  client.addEventListener("statechange", (e) => {
    const detail: StateChangeDetail = e.detail;
    const next: ClientState = detail.state;
    console.log(next, detail.previous, detail.error?.code, e.target);
  });
  const onTools = (e: ClientEventMap["toolschange"]): void => console.log(e.detail.map((t) => t.name));
  client.addEventListener("toolschange", onTools);
  client.removeEventListener("toolschange", onTools);
  client.addEventListener("notification", (e) => console.log(e.detail.method, e.detail.params));
  client.addEventListener("close", (e) => console.log(e.type));
  // @ts-expect-error: a state is one of five words
  const wrongState: ClientState = "open";
  // @ts-expect-error: toolschange's detail is the list, not a notification
  client.addEventListener("toolschange", (e) => e.detail.method);
  // @ts-expect-error: autoRefresh is a boolean
  new Client("https://example.com/mcp", { listChanged: { autoRefresh: "yes" } });
  console.log(state, error, tools, names, wrongState);
  await client.close();
}
void observable;
