// The package's hand-written TypeScript declarations: options, callback signatures, and the
// protocol's params and results (wire shape, camelCase). src/js/api/types.rs includes this file
// (typescript_custom_section), so it is appended to the .d.ts wasm-bindgen writes for the glue,
// beside the classes it declares (Client, ClientGroup, McpError…); tests/types checks it with tsc.
/** JSON values as they travel on the wire. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** `"auto"` probes the era (default), `"legacy"` initializes, a version pins the 2026 era. */
export type ClientMode = "auto" | "legacy" | "2026-07-28";
export type LoggingLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
export type RequestId = string | number;

declare global {
  /** `Symbol.asyncDispose` (Client and ClientGroup implement it: `await using`), declared as
   *  TypeScript's lib "esnext.disposable" and @types/node declare it, so a project without that lib
   *  still compiles. */
  interface SymbolConstructor { readonly asyncDispose: unique symbol }
}

export interface Implementation { name: string; version: string; title?: string; description?: string; websiteUrl?: string; icons?: Icon[] }
export interface Icon { src: string; mimeType?: string; sizes?: string[]; theme?: "light" | "dark" }
export interface Annotations { audience?: ("user" | "assistant")[]; priority?: number; lastModified?: string }

export interface TextContent { type: "text"; text: string; annotations?: Annotations; _meta?: JsonObject }
export interface ImageContent { type: "image"; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
export interface AudioContent { type: "audio"; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
export interface ResourceLink { type: "resource_link"; uri: string; name: string; title?: string; description?: string; mimeType?: string; size?: number; annotations?: Annotations; _meta?: JsonObject }
export interface TextResourceContents { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
export interface BlobResourceContents { uri: string; mimeType?: string; blob: string; _meta?: JsonObject }
export interface EmbeddedResource { type: "resource"; resource: TextResourceContents | BlobResourceContents; annotations?: Annotations; _meta?: JsonObject }
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** Fields every result may carry (2026 adds resultType and caching hints). */
export interface ResultBase { resultType?: "complete"; _meta?: JsonObject; [key: string]: unknown }
export interface Cacheable { ttlMs?: number; cacheScope?: "public" | "private" }
export interface Paginated { nextCursor?: string }

export interface ToolAnnotations { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean }
export interface Tool { name: string; title?: string; description?: string; inputSchema: JsonObject & { type: "object" }; outputSchema?: JsonObject; annotations?: ToolAnnotations; icons?: Icon[]; _meta?: JsonObject }
export interface ListToolsResult extends ResultBase, Cacheable, Paginated { tools: Tool[] }
export interface CallToolResult extends ResultBase { content: ContentBlock[]; structuredContent?: JsonObject; isError?: boolean }

export interface Resource { uri: string; name: string; title?: string; description?: string; mimeType?: string; size?: number; annotations?: Annotations; icons?: Icon[]; _meta?: JsonObject }
export interface ResourceTemplate { uriTemplate: string; name: string; title?: string; description?: string; mimeType?: string; annotations?: Annotations; icons?: Icon[] }
export interface ListResourcesResult extends ResultBase, Cacheable, Paginated { resources: Resource[] }
export interface ListResourceTemplatesResult extends ResultBase, Cacheable, Paginated { resourceTemplates: ResourceTemplate[] }
export interface ReadResourceResult extends ResultBase, Cacheable { contents: (TextResourceContents | BlobResourceContents)[] }

export interface PromptArgument { name: string; title?: string; description?: string; required?: boolean }
export interface Prompt { name: string; title?: string; description?: string; arguments?: PromptArgument[]; icons?: Icon[]; _meta?: JsonObject }
export interface PromptMessage { role: "user" | "assistant"; content: ContentBlock }
export interface ListPromptsResult extends ResultBase, Cacheable, Paginated { prompts: Prompt[] }
export interface GetPromptResult extends ResultBase { description?: string; messages: PromptMessage[] }

export type CompletionReference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };
export interface CompleteResult extends ResultBase { completion: { values: string[]; total?: number; hasMore?: boolean } }
export type EmptyResult = ResultBase;

/** Options every call takes. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Per-request timeout (default: the client's `timeoutMs`, 60 000). */
  timeoutMs?: number;
  /** Receives this call's `notifications/progress`. */
  onProgress?: (progress: ProgressParams) => void;
  /** Progress restarts the timeout (default true). */
  resetTimeoutOnProgress?: boolean;
  /** Hard cap on the whole call, progress or not. */
  maxTotalTimeoutMs?: number;
  /** Keys merged into the request's `params._meta` (they win over the 2026 envelope's). */
  _meta?: JsonObject;
  /** With a `cache` store: `"use"` a fresh entry (the default), `"refresh"` (ask the server and store its answer) or `"bypass"` (ask the server, store nothing). */
  cacheMode?: CacheMode;
}
/** A task's state; `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";
/** A server's task, with the 2026 names on both eras (the 2025-11-25 wire's `ttl` and
 *  `pollInterval` arrive as `ttlMs` and `pollIntervalMs`). */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** How long the server keeps the task, from its creation; `null`: unlimited. */
  ttlMs: number | null;
  /** The server's suggested gap between polls. */
  pollIntervalMs?: number;
  /** 2026, `input_required`: what the server asks (answered through the callbacks). */
  inputRequests?: { [key: string]: { method: string; params?: JsonObject } };
  /** 2026, `completed`: the final result. */
  result?: CallToolResult;
  /** 2026, `failed`: the error. */
  error?: { code: number; message: string; data?: unknown };
  [key: string]: unknown;
}
/** `callTool`'s `task` option. */
export interface TaskOptions {
  /** How long the server should keep the task (2025-11-25: the wire's `ttl`; 2026: the server decides). */
  ttlMs?: number;
}
/** `callTool`'s options: a call may become a task. Then `timeoutMs` bounds each request and
 *  the wait without news (a poll showing a new status, statusMessage or lastUpdatedAt restarts
 *  it); `maxTotalTimeoutMs` bounds the whole call; stopping the wait never cancels the task
 *  (`client.tasks.cancel` does; `client.tasks.result` waits again). */
export interface CallToolOptions extends CallOptions {
  /** Ask for a task (2025-11-25 `params.task`; 2026 declares the tasks extension on this call). `true` = `{}`. */
  task?: TaskOptions | true;
  /** Called once when the server answers with a task: keep `task.taskId` to find the result after a reload. A throw is reported to `messageHandler`; the call goes on. */
  onTask?: (task: Task) => void;
}
export interface ListTasksOptions extends CallOptions { cursor?: string }
export interface ListTasksResult { tasks: Task[]; nextCursor?: string }
/** `client.tasks`: the server's tasks by id, both eras. */
export interface Tasks {
  get(taskId: string, options?: CallOptions): Promise<Task>;
  /** Waits for the final result (2026: polls, answering input requests through the callbacks; 2025-11-25: `tasks/result`). */
  result(taskId: string, options?: CallOptions): Promise<CallToolResult>;
  /** 2025-11-25: the cancelled task; 2026: `undefined` (an acknowledgement: cancelling is cooperative). */
  cancel(taskId: string, options?: CallOptions): Promise<Task | undefined>;
  /** 2025-11-25 only; 2026 removed `tasks/list`: an McpError with `data.kind === "unsupported"`. */
  list(options?: ListTasksOptions): Promise<ListTasksResult>;
}
export interface ListOptions extends CallOptions {
  cursor?: string;
  /** Fetch every page (an empty-string cursor is a cursor). */
  all?: boolean;
  /** Page cap with `all` (default 64). */
  maxPages?: number;
}
export interface ProgressParams { progressToken: RequestId; progress: number; total?: number; message?: string }
export interface LoggingMessageParams { level: LoggingLevel; logger?: string; data: JsonValue }
/** A server notification as `messageHandler` and `listen()` deliver it. */
export interface ServerNotification { method: string; params?: JsonObject }

/** What a callback gets besides the params. */
export interface RequestContext {
  /** The server's request id; in the 2026 era the `inputRequests` key. */
  requestId: RequestId;
  meta: JsonObject | null;
  /** Fires when the server cancels the request or the call is aborted. */
  signal: AbortSignal;
  /** A `sampling/createMessage` from an MCP App shown by `<mcp-app-frame>`: its tool and (in a `ClientGroup`) server; the request id is the app's. */
  app?: { tool: string; server?: string };
}

export type PrimitiveSchema =
  | { type: "string"; title?: string; description?: string; minLength?: number; maxLength?: number; format?: "email" | "uri" | "date" | "date-time"; default?: string }
  | { type: "number" | "integer"; title?: string; description?: string; minimum?: number; maximum?: number; default?: number }
  | { type: "boolean"; title?: string; description?: string; default?: boolean }
  | { type: "string"; title?: string; description?: string; enum: string[]; enumNames?: string[]; default?: string }
  | { type: "string"; title?: string; description?: string; oneOf: { const: string; title: string }[]; default?: string }
  | { type: "array"; title?: string; description?: string; minItems?: number; maxItems?: number; items: { type?: "string"; enum: string[] } | { anyOf: { const: string; title: string }[] }; default?: string[] };
export interface RequestedSchema { type: "object"; properties: { [name: string]: PrimitiveSchema }; required?: string[]; $schema?: string }
export interface ElicitFormParams { mode?: "form"; message: string; requestedSchema: RequestedSchema; _meta?: JsonObject }
export interface ElicitUrlParams { mode: "url"; message: string; url: string; elicitationId?: string; _meta?: JsonObject }
export type ElicitParams = ElicitFormParams | ElicitUrlParams;
export type ElicitContent = { [name: string]: string | number | boolean | string[] };
export type ElicitResult = { action: "accept"; content?: ElicitContent } | { action: "decline" } | { action: "cancel" };

export type SamplingContent = TextContent | ImageContent | AudioContent
  | { type: "tool_use"; id: string; name: string; input: JsonObject; _meta?: JsonObject }
  | { type: "tool_result"; toolUseId: string; content: ContentBlock[]; structuredContent?: JsonObject; isError?: boolean; _meta?: JsonObject };
export interface SamplingMessage { role: "user" | "assistant"; content: SamplingContent | SamplingContent[] }
export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  modelPreferences?: { hints?: { name?: string }[]; costPriority?: number; speedPriority?: number; intelligencePriority?: number };
  systemPrompt?: string;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  metadata?: JsonObject;
  tools?: Tool[];
  toolChoice?: { mode?: "auto" | "required" | "none" };
  _meta?: JsonObject;
}
export interface CreateMessageResult { role: "assistant" | "user"; content: SamplingContent | SamplingContent[]; model: string; stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | string }
export interface Root { uri: string; name?: string; _meta?: JsonObject }
export interface ListRootsResult { roots: Root[] }

type MaybePromise<T> = T | Promise<T>;
export type ElicitationCallback = (context: RequestContext, params: ElicitParams) => MaybePromise<ElicitResult>;
export type SamplingCallback = (context: RequestContext, params: CreateMessageParams) => MaybePromise<CreateMessageResult>;
export type ListRootsCallback = (context: RequestContext) => MaybePromise<ListRootsResult>;

/** A JSON-RPC 2.0 message as a plain object (what a transport carries). */
export type JsonRpcMessage = { jsonrpc: "2.0"; [key: string]: unknown };
/**
 * The official TypeScript SDK's `Transport` shape: `new Client({ transport })` takes any such object
 * (the SDK's stdio, WebSocket and in-memory transports, or `messagePortTransport`, `windowTransport`,
 * `inMemoryPair`). The client sets `onmessage`, `onclose` and `onerror`, and calls `start()` before
 * its first message.
 */
export interface McpTransport {
  start(): Promise<void> | void;
  send(message: JsonRpcMessage, options?: unknown): Promise<void> | void;
  close(): Promise<void> | void;
  onmessage?: ((message: any, extra?: any) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
}
/** The transports this package makes (`messagePortTransport`, `windowTransport`, `inMemoryPair`):
 *  every method returns a promise, as the official SDK's `Transport` has them (an SDK server can
 *  `connect()` to one). */
export interface PromiseTransport extends McpTransport {
  start(): Promise<void>;
  send(message: JsonRpcMessage, options?: unknown): Promise<void>;
  close(): Promise<void>;
}
/** What `messagePortTransport` takes: a `MessagePort`, a `Worker` (browser or `node:worker_threads`), a `BroadcastChannel`. */
export interface MessagePortLike { postMessage(message: any, ...rest: any[]): void }
/** What `windowTransport` takes: another window (`iframe.contentWindow`, `window.opener`, a popup). */
export interface WindowLike { postMessage(message: any, targetOrigin: string, ...rest: any[]): void }

/** The backoff of a dropped stream's reconnects: `initialDelayMs` doubled per failure in a row, up to `maxDelayMs` (each 1 to 3 600 000). */
export interface ReconnectionOptions {
  /** Delay before the first reconnect (default 1 000 ms). */
  initialDelayMs?: number;
  /** Longest delay between two reconnects (default 30 000 ms); a server's longer `retry:` is still waited. */
  maxDelayMs?: number;
}

// ---- Extension points (issue 37): fetch middleware, a cache store, a tracer --------------------
/** A `fetch`, as the client calls it: the core passes a URL string and a RequestInit (method, headers as a plain object, body, signal). The TypeScript SDK's `FetchLike`. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;
/** A fetch middleware: given the next fetch (the next middleware, else `fetch`), the fetch to use; it must resolve with a `Response`. The TypeScript SDK's `Middleware`. `mcp-wasm-client/middleware` has `withLogging`, `withRetry`, `createMiddleware` and `applyMiddlewares`. */
export type FetchMiddleware = (next: FetchLike) => FetchLike;
/** What a cache store keeps: a plain structured-cloneable object the client makes and reads back; a store never interprets it. */
export type CacheEntry = unknown;
/** How a call uses the cache: `"use"` a fresh entry (default), `"refresh"` it from the server, or `"bypass"` it (neither read nor written). */
export type CacheMode = "use" | "refresh" | "bypass";
/** Where cached results are kept (`mcp-wasm-client/cache`: `memoryCacheStore()`, `indexedDbCacheStore(name?)`). Each method may return a promise; one that throws, rejects or takes too long never fails a call (the call goes to the server, the error reaches `messageHandler`). */
export interface CacheStore {
  /** The entry under `key`, or undefined when there is none or it expired. */
  get(key: string): MaybePromise<CacheEntry | undefined>;
  /** Keeps `entry` under `key` for `ttlMs` ms. */
  set(key: string, entry: CacheEntry, ttlMs: number): MaybePromise<void>;
  delete(key: string): MaybePromise<void>;
  /** Drops every key starting with `prefix`, or every key. */
  clear(prefix?: string): MaybePromise<void>;
}
/** The `cache` option: `store` (default: in memory, this client only), `partition` (a key prefix that keeps apps or users sharing a store apart), `mode` (every call's default `cacheMode`). */
export interface CacheOptions { store?: CacheStore; partition?: string; mode?: CacheMode }
/** A span attribute's value, as OpenTelemetry's `AttributeValue`. */
export type SpanAttributeValue = string | number | boolean | (string | null | undefined)[] | (number | null | undefined)[] | (boolean | null | undefined)[];
/** What the client reads of a span's context (an OpenTelemetry `SpanContext`). */
export interface SpanContextLike { traceId: string; spanId: string; traceFlags: number; traceState?: unknown; isRemote?: boolean }
/** The span methods the client calls (an OpenTelemetry `Span` has them). */
export interface SpanLike {
  spanContext(): SpanContextLike;
  setAttribute(key: string, value: SpanAttributeValue): unknown;
  setAttributes(attributes: { [key: string]: SpanAttributeValue | undefined }): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: unknown, time?: unknown): void;
  end(endTime?: unknown): void;
}
/** The options the client passes to `startSpan` (an OpenTelemetry `SpanOptions`). */
export interface SpanOptionsLike { kind?: number; attributes?: { [key: string]: SpanAttributeValue | undefined }; links?: unknown[]; startTime?: unknown; root?: boolean }
/** A tracer (an OpenTelemetry `Tracer`, e.g. `trace.getTracer("mcp")`): the client starts a span per call. */
export interface TracerLike {
  startSpan(name: string, options?: SpanOptionsLike, context?: unknown): SpanLike;
  startActiveSpan?(...args: any[]): unknown;
}

export interface ClientOptions {
  /** A transport written in JavaScript (then no URL, `headers`, `fetch` or `auth`). */
  transport?: McpTransport;
  mode?: ClientMode;
  clientInfo?: Implementation;
  /** Sent on every request (same origin only). */
  headers?: { [name: string]: string } | Headers | Iterable<[string, string]>;
  /** A `fetch` to use instead of the global one. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Fetch middleware composed over `fetch` (the first is the outermost), for every request the client makes: MCP and authorization. Not with `transport`. */
  middleware?: FetchMiddleware[];
  /** Per-request timeout in ms (default 60 000). */
  timeoutMs?: number;
  /** Declares tasks: the 2026 tasks extension on every request, the `tasks` capability on 2025-11-25 `initialize`. */
  tasks?: boolean;
  /** Largest message the client buffers (default 16 MiB); over a `transport` object, the longest JSON text (in UTF-16 units) of a message handed to `onmessage`, checked before it is copied. */
  maxMessageBytes?: number;
  /** How soon a dropped SSE stream (the GET stream, a resumed request's stream) is reconnected when the server's `retry:` does not say (Streamable HTTP only). */
  reconnection?: ReconnectionOptions;
  /** Cache 2026 results for their ttlMs (default true, in memory); `false` turns it off; `{ store, partition, mode }` keeps them in a store of yours. */
  cache?: boolean | CacheOptions;
  /** Starts a span per call (OpenTelemetry's `Tracer` fits). */
  tracer?: TracerLike;
  /** Registering it declares `elicitation: { form: {}, url: {} }`. */
  elicitationCallback?: ElicitationCallback;
  /** Registering it declares `sampling` (plus `samplingCapabilities`). */
  samplingCallback?: SamplingCallback;
  samplingCapabilities?: { tools?: JsonObject; context?: JsonObject };
  /** Registering it declares `roots`. */
  listRootsCallback?: ListRootsCallback;
  loggingCallback?: (params: LoggingMessageParams) => void | Promise<void>;
  /** Every server notification, and transport-level `McpError`s (session renewals, warnings...). */
  messageHandler?: (message: ServerNotification | McpError) => void | Promise<void>;
  /** 2026: the log level stamped on each request. */
  logLevel?: LoggingLevel;
  /** Cap on 2026 input_required rounds (default 10). */
  inputRequiredMaxRounds?: number;
  /** OAuth authorization: a 401 signs in, every request carries the token. */
  auth?: AuthOptions;
  /** Merged into what the callbacks declare, on both eras (`elicitation`, `sampling` and
   * `roots` need their callback). */
  capabilities?: ClientCapabilities;
  /** Extensions the client declares: `capabilities.extensions`, id → settings (`{}` for none). */
  extensions?: { [id: string]: JsonObject };
  /** Declares MCP Apps: `extensions["io.modelcontextprotocol/ui"] = { mimeTypes: ["text/html;profile=mcp-app"] }`. */
  apps?: boolean;
  /** A stored `client.discoverResult`: connect adopts it without a probe (probing again if
   * the server refuses it). Not with `mode: "legacy"`. */
  discoverResult?: DiscoverResult;
}

/** What a client declares (`capabilities` option; the callbacks add their own). */
export interface ClientCapabilities {
  experimental?: { [name: string]: JsonObject };
  extensions?: { [id: string]: JsonObject };
  [key: string]: JsonValue | undefined;
}
/** A 2026 `server/discover` result, as `client.discoverResult` gives it. */
export interface DiscoverResult {
  supportedVersions: string[];
  capabilities?: JsonObject & { extensions?: { [id: string]: JsonObject } };
  instructions?: string;
  _meta?: JsonObject;
  [key: string]: JsonValue | undefined;
}

/** What an `authorize` function gets: open `url`, resolve with the callback URL (or "redirected"). */
export interface AuthorizeRequest { url: string; state: string; redirectUri: string; signal: AbortSignal }
export type Authorize = (request: AuthorizeRequest) => MaybePromise<string | URL | "redirected">;
/** `authorizeWithPopup`'s options. */
export interface AuthorizeWithPopupOptions {
  /** `window.open` features (default "popup,width=520,height=720"). */
  features?: string;
  /** How long to wait for the callback (default 300000). */
  timeoutMs?: number;
  /** A window the app opened in its click handler (`window.open("", "mcp-sign-in")`): the first sign-in navigates it to the authorization page. */
  window?: Window | null;
}
/** Where tokens and registrations are kept (sync or async). */
export interface AuthStorage {
  get(key: string): MaybePromise<string | null | undefined>;
  set(key: string, value: string): MaybePromise<void>;
  delete(key: string): MaybePromise<void>;
}
export interface AuthOptions {
  /** A client ID metadata document URL (https), used when the AS supports it. */
  clientMetadataUrl?: string;
  /** RFC 7591 body for dynamic registration. */
  clientMetadata?: { client_name?: string; redirect_uris?: string[]; application_type?: "web" | "native"; grant_types?: string[]; scope?: string; [key: string]: JsonValue | undefined };
  /** Pre-registered credentials; `issuer` binds them to one authorization server. */
  clientInformation?: { client_id: string; client_secret?: string; issuer?: string; token_endpoint_auth_method?: string };
  /** Default: clientMetadata.redirect_uris[0]. */
  redirectUri?: string;
  /** Default: authorizeWithPopup() in a page, authorizeHeadless() elsewhere. */
  authorize?: Authorize;
  /** Default: memoryStorage(). */
  storage?: AuthStorage;
  /** Used when neither the challenge nor the resource metadata names scopes. */
  scope?: string;
  onInsufficientScope?: "reauthorize" | "throw";
  /** Step-ups per operation (default 1). */
  maxStepUp?: number;
  /** fetch for discovery, registration and token requests only. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** How tokens are obtained (default: the authorization-code flow with a user). */
  grant?: AuthGrant;
  /** DPoP-bound tokens (RFC 9449): a fresh non-extractable P-256 key, or your own key pair. */
  dpop?: boolean | { keyPair: CryptoKeyPair };
}
/** The assertion of a jwt_bearer grant: a workload JWT, asked for each new token. */
export type JwtBearerAssertion = (request: { issuer: string; resource?: string; scope?: string }) => MaybePromise<string>;
export interface IdJagOptions { idpTokenEndpoint: string; idToken: string; idpClientId: string; idpClientSecret?: string }
interface StaticCredentials {
  clientId: string;
  clientSecret?: string;
  /** private_key_jwt: a CryptoKey, or a PKCS#8 PEM string (imported once, not kept). */
  privateKey?: CryptoKey | string;
  algorithm?: "ES256" | "RS256";
  /** A preference; the AS's token_endpoint_auth_methods_supported overrides it. */
  method?: "client_secret_basic" | "client_secret_post";
  /** Binds the credentials to one authorization server: never sent to another. */
  issuer?: string;
}
export type AuthGrant =
  | { type: "authorization_code" }
  | ({ type: "client_credentials" } & StaticCredentials)
  | ({ type: "jwt_bearer"; assertion: JwtBearerAssertion } & StaticCredentials);
export interface AuthorizationStatus { issuer: string; scope: string | null; expiresAt: number | null }

export interface SubscriptionFilter { toolsListChanged?: boolean; promptsListChanged?: boolean; resourcesListChanged?: boolean; resourceSubscriptions?: string[]; /** 2026 tasks extension: `notifications/tasks` for these task ids (declare `tasks: true`). */ taskIds?: string[] }
/** What `listen()` resolves to: `for await (const n of sub)`. */
export interface Subscription extends AsyncIterableIterator<ServerNotification> {
  /** The filter the server will honour. */
  readonly honoured: SubscriptionFilter;
  close(): Promise<void>;
}

export interface FormField {
  name: string;
  title: string;
  description?: string;
  required: boolean;
  kind: "text" | "email" | "uri" | "date" | "date-time" | "number" | "integer" | "boolean" | "single-select" | "multi-select";
  constraints: { minLength?: number; maxLength?: number; minimum?: number; maximum?: number; minItems?: number; maxItems?: number; format?: string };
  options?: { value: string; label: string }[];
  default?: string | number | boolean | string[];
}
export interface ElicitationValidation { content: ElicitContent; errors: { field: string; message: string }[] }

/**
 * The fields each `data.kind` carries besides `local` and `kind`: one entry per kind of error the
 * client makes itself (tests/error_kinds.rs keeps this list equal to the kinds the code emits).
 */
export interface McpErrorKinds {
  /** The peer could not be reached, or a response stream broke (`midEvent`) or ended without the response. */
  network: { midEvent?: boolean; url?: string };
  /** A browser refused the request (CORS): `headers` are the request headers the preflight must allow. */
  cors: { url: string; headers: string[] };
  /** No response within `timeoutMs`. */
  timeout: { timeoutMs: number };
  /** The call's `AbortSignal` fired (`reason` as the signal gave it). */
  aborted: { reason?: string | null };
  /** The client is closed or not connected. */
  closed: {};
  /** An HTTP status or redirect the client refuses (`body`: the first 500 characters). */
  http: { status?: number; body?: string };
  /** The server broke the protocol: bad JSON or shape, a result over `maxMessageBytes`, too many pages or rounds, structuredContent that fails the tool's outputSchema (`tool`, `errors`), invalid skill entries (`invalid`). */
  protocol: { maxMessageBytes?: number; maxPages?: number; rounds?: number; tool?: string; errors?: string[]; invalid?: InvalidSkillEntry[] };
  /** Bad arguments or options from the caller. */
  input: {};
  /** A callback returned something unusable (`errors`: an elicitation answer's field errors). */
  callback: { errors?: { field: string; message: string }[] };
  /** (to `messageHandler`) a legacy session expired and is renewed. */
  session_expired: { status?: number; expiredSessionId?: string | null };
  /** (to `messageHandler`) not a failure: something the client dropped or doubted. */
  warning: {};
  /** (to `messageHandler`) not a failure: the `cache.store` threw, answered something unusable or took longer than 1 s (`operation`: get, set, delete or clear); the call went to the server. */
  cache_store: { operation: "get" | "set" | "delete" | "clear" };
  /** A transport written in JavaScript closed while the call was in flight, or before it. */
  transport_closed: {};
  /** (to `messageHandler`) a transport refused a message from another origin or source. */
  dropped: { origin: string | null; reason: "origin" | "source" | null };
  /** Authorization is required and none could be obtained (`reason === "PopupClosed"`: the user closed the sign-in window). */
  unauthorized: { status?: number | null; resourceMetadata?: string | null; scope?: string | null; reason?: string | null; oauthError?: string };
  /** Redirect mode: the page is going to the authorization server. */
  auth_redirect: { authorizationServer?: string };
  /** The browser blocked the sign-in popup: show `authorizationUrl` as a link. */
  popup_blocked: { authorizationUrl: string };
  /** The server wants scopes the client may not (or may no longer) ask for. */
  insufficient_scope: { scope?: string | null };
  /** Protected-resource or authorization-server metadata missing or unusable (`tried`: every URL with its status). */
  auth_metadata: { tried?: { url: string; status: number | null }[]; url?: string; maxBytes?: number };
  /** An authorization-server request failed in a browser (no CORS). */
  auth_cors: { url: string };
  /** The authorization server's `issuer` or the callback's `iss` is not the one expected. */
  issuer_mismatch: { expected: string; received: string | null };
  /** The protected resource metadata names another resource than this server. */
  resource_mismatch: { resource: string; serverUrl: string };
  /** The authorization callback's `state` is not the pending one. */
  state_mismatch: {};
  /** Client registration was refused or is impossible. */
  registration_rejected: { oauthError?: string; status?: number | null };
  /** The token endpoint refused a request or answered something unusable. */
  token_error: { oauthError?: string; status?: number | null };
  /** A DPoP key, proof or bound token could not be made or does not match. */
  dpop_error: {};
  /** A jwt_bearer grant's `assertion` callback threw or returned nothing. */
  assertion_error: {};
  /** The grant is unknown, or the authorization server does not offer it. */
  unsupported_grant: { grant?: string };
  /** The server cancelled the task the call was waiting for. */
  task_cancelled: { taskId: string };
  /** A skill file failed verification against its entry. */
  skill_verification: { reason: SkillVerificationReason; uri: string; differences: string[] };
  /** Not in this session's era or server (an extension it did not declare; a custom element without a page). */
  unsupported: {};
  /** `ClientGroup.callTool`: no server of the group lists this tool. */
  unknown_tool: { tool: string };
  /** `mcp-wasm-client/ai`: a tool left out of a model's tool set for `provider` (its schema or name
   *  cannot be made to fit, `reason` says why), told to `messageHandler`. */
  tool_schema: { tool: string; provider: string; reason: string; server?: string };
  /** `<mcp-app-frame>`: the call was aborted before its app was shown. */
  cancelled: {};
  /** A bug inside the client (a WebAssembly trap): this package instance cannot be used any more;
   *  `cause` is the trap. Create the clients again in a new instance (reload, a new process or worker). */
  internal: {};
  /** The WebAssembly module could not be loaded from `url` (a status, not WebAssembly, a CSP
   *  refusal; `cause`: the engine's words): every call of the package rejects with it (`part`:
   *  "authorization" for the default entry's full module, which only the clients with `auth` need). */
  wasm_load: { url?: string; cause: string; part?: string };
  /** A part of the package loaded when first used (`<mcp-app-frame>`'s view-session.js, the
   *  default entry's authorization part) could not be loaded from `url` (`cause`: the engine's
   *  words; `part`: which part). */
  module_load: { url: string; cause: string; part?: string };
}
/** Every `data.kind` of an error the client makes itself. */
export type McpErrorKind = keyof McpErrorKinds;
/** `data` of an error the client made: `local: true`, the `kind` and its fields; `server` when a
 *  `ClientGroup` passed it on, `taskId` when the call was a task's. */
export type McpLocalErrorData = { [K in McpErrorKind]: { local: true; kind: K; server?: string; taskId?: string } & McpErrorKinds[K] }[McpErrorKind];
/** `data` of an error the server sent, as it sent it (no `local`), with `server` (`ClientGroup`)
 *  or `taskId` (a task's call) added. Typed as an object: a server may send any JSON (or none),
 *  and a `kind` of its own is not the client's (check `data.local` before trusting one). */
export interface McpServerErrorData { local?: undefined; kind?: undefined; server?: string; taskId?: string; [key: string]: unknown }
/** `McpError.data`: branch on `data.kind` (`if (e.data?.kind === "popup_blocked") e.data.authorizationUrl`). */
export type McpErrorData = McpLocalErrorData | McpServerErrorData;

/**
 * An MCP error: from the server (its code, message, data) or local (`data.local === true`, `data.kind`).
 * A real `Error`: `code`, `message` and `data` are own properties (`JSON.stringify` shows them).
 */
export class McpError extends Error {
  constructor(code: number, message: string, data?: unknown);
  readonly code: number;
  readonly message: string;
  readonly data: McpErrorData | undefined;
  readonly name: "McpError";
  /**
   * An McpError again from what crossed a structured clone or `postMessage`: a cloned Error
   * keeps only `message` (and `stack`); send `{ ...err }` (own `code`, `message`, `data`) to keep all three.
   */
  static from(value: unknown): McpError;
}

/** An MCP client over Streamable HTTP, speaking the legacy and the 2026 protocol eras; an `EventTarget` (see `ClientEventMap`). */
export class Client extends EventTarget {
  /** A Streamable HTTP URL and options, or `{ transport, ...options }` (more options may follow). */
  constructor(url: string | URL, options?: ClientOptions);
  constructor(options: ClientOptions & { transport: McpTransport }, moreOptions?: ClientOptions);
  /** Probes the era (`auto`), initializes (`legacy`), or adopts a pinned version. */
  connect(): Promise<void>;
  readonly protocolVersion: string | undefined;
  readonly era: "legacy" | "modern" | undefined;
  readonly transport: "streamable-http" | "http+sse" | "javascript";
  readonly serverInfo: Implementation | undefined;
  /** As the server sent them (`extensions` among them). */
  readonly serverCapabilities: (JsonObject & { extensions?: { [id: string]: JsonObject } }) | undefined;
  /** The 2026 `server/discover` result (probed or adopted), `null` on a legacy session or before connecting. */
  readonly discoverResult: DiscoverResult | null;
  /** The `loggingCallback` option, or undefined: where `<mcp-app-frame>` sends its app's log messages. */
  readonly loggingCallback: ((params: LoggingMessageParams) => void | Promise<void>) | undefined;
  /** The `samplingCallback` option, or undefined: where `<mcp-app-frame>` sends its app's `sampling/createMessage` (context `{ app: { tool, server } }`). */
  readonly samplingCallback: SamplingCallback | undefined;
  readonly instructions: string | undefined;
  readonly sessionId: string | undefined;
  /** Requests waiting for a response right now. */
  readonly pendingRequests: number;
  listTools(options?: ListOptions): Promise<ListToolsResult>;
  listResources(options?: ListOptions): Promise<ListResourcesResult>;
  listResourceTemplates(options?: ListOptions): Promise<ListResourceTemplatesResult>;
  listPrompts(options?: ListOptions): Promise<ListPromptsResult>;
  /** The final result, also when the server runs the call as a task. */
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  /** The server's tasks by id (`get`, `result` after a reload, `cancel`, `list`). */
  readonly tasks: Tasks;
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult>;
  getPrompt(name: string, args?: { [name: string]: string }, options?: CallOptions): Promise<GetPromptResult>;
  complete(ref: CompletionReference, argument: { name: string; value: string }, context?: { arguments?: { [name: string]: string } }, options?: CallOptions): Promise<CompleteResult>;
  /** Any method; the result as the server sent it (`T` names its shape; not checked). */
  request<T = JsonObject>(method: string, params?: JsonObject, options?: CallOptions): Promise<T>;
  /** Change notifications as an async iterable, on both eras. */
  listen(filter: SubscriptionFilter, options?: CallOptions): Promise<Subscription>;
  /** Legacy only. */
  ping(options?: CallOptions): Promise<EmptyResult>;
  /** Legacy only (2026: the `logLevel` option). */
  setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<EmptyResult>;
  /** Legacy only (2026: `listen({ resourceSubscriptions })`). */
  subscribeResource(uri: string, options?: CallOptions): Promise<EmptyResult>;
  unsubscribeResource(uri: string, options?: CallOptions): Promise<EmptyResult>;
  /** Legacy only. */
  sendRootsListChanged(): Promise<void>;
  /** Redirect mode, on the callback page, before connect(). */
  finishAuthorization(callbackUrl: string | URL): Promise<void>;
  /** Signed-in state (never the token), or null. */
  readonly authorization: AuthorizationStatus | null;
  /** From a click handler: opens the sign-in popup at once (inside the gesture, so no browser
   *  blocks it), connects, and resolves with `authorization`; a window not needed closes. */
  signIn(): Promise<AuthorizationStatus | null>;
  /** Forget tokens (and registrations with `{ all: true }`). */
  signOut(options?: { all?: boolean }): Promise<void>;
  /** The skills extension (`io.modelcontextprotocol/skills`): list, get, verified reads. */
  readonly skills: Skills;
  /** Pending calls fail; a legacy session is DELETEd. */
  close(): Promise<void>;
  /** `await using client = new Client(…)`: `close()`. */
  [Symbol.asyncDispose](): Promise<void>;
  free(): void;
}

// ---- Observable state (issue 26): the Client's state, lists and events --------------------
/** `client.state`. */
export type ClientState = "idle" | "connecting" | "connected" | "closed" | "failed";
/** `e.detail` of `statechange`: the new state, the one before, and (to `failed`) why. */
export interface StateChangeDetail { state: ClientState; previous: ClientState; error?: McpError }
/** The Client's events: `addEventListener(type, (e) => e.detail…)` is typed by this map. */
export interface ClientEventMap {
  /** `client.state` changed. */
  statechange: CustomEvent<StateChangeDetail>;
  /** Every server notification `messageHandler` gets (progress, `resources/updated`, …). */
  notification: CustomEvent<ServerNotification>;
  /** `client.tools` is a new complete list: fetched after `list_changed`, or a complete `listTools()`. */
  toolschange: CustomEvent<Tool[]>;
  /** `client.prompts` is a new complete list. */
  promptschange: CustomEvent<Prompt[]>;
  /** `client.resources` is a new complete list. */
  resourceschange: CustomEvent<Resource[]>;
  /** `close()` was called (after `statechange` to `closed`). */
  close: Event;
}
export interface Client {
  /** Where the connection is: `connect()` → `connecting` → `connected` or `failed`; `close()` → `closed`; a connection lost for good → `failed`. */
  readonly state: ClientState;
  /** Why `state` is `failed` (undefined otherwise). */
  readonly error: McpError | undefined;
  /** The last complete tools list (after a `list_changed`, or a complete `listTools()`); undefined before. */
  readonly tools: Tool[] | undefined;
  /** The last complete prompts list; undefined before one was listed. */
  readonly prompts: Prompt[] | undefined;
  /** The last complete resources list; undefined before one was listed. */
  readonly resources: Resource[] | undefined;
  addEventListener<K extends keyof ClientEventMap>(type: K, listener: (this: Client, event: ClientEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof ClientEventMap>(type: K, listener: (this: Client, event: ClientEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void;
}
export interface ClientOptions {
  /** After a `notifications/{tools,prompts,resources}/list_changed` the client fetches the whole list again (`client.tools`…, the `…change` event); `autoRefresh: false` turns that off (the `notification` event still fires). Default `{ autoRefresh: true }`. */
  listChanged?: { autoRefresh?: boolean };
}
// ---- end of Observable state ----------------------------------------------------------------
