// ClientGroup's declarations (several servers behind one object), appended to the glue's .d.ts
// as types.d.ts is (src/js/api/types.rs).
/** What the group's callbacks get: the Client's context plus the name of the server that asked. */
export interface GroupRequestContext extends RequestContext { server: string }
/** The Client options a group and each of its servers take, callbacks told which server asked. */
export interface GroupClientOptions extends Omit<ClientOptions, "transport" | "elicitationCallback" | "samplingCallback" | "listRootsCallback" | "loggingCallback" | "messageHandler"> {
  elicitationCallback?: (context: GroupRequestContext, params: ElicitParams) => MaybePromise<ElicitResult>;
  samplingCallback?: (context: GroupRequestContext, params: CreateMessageParams) => MaybePromise<CreateMessageResult>;
  listRootsCallback?: (context: GroupRequestContext) => MaybePromise<ListRootsResult>;
  loggingCallback?: (params: LoggingMessageParams, source: { server: string }) => void | Promise<void>;
  messageHandler?: (message: ServerNotification | McpError, source: { server: string }) => void | Promise<void>;
}
/** One server of a group: a Streamable HTTP URL or a transport, with Client options that win over the group's. */
export type GroupServerConfig =
  | (GroupClientOptions & { url: string | URL; transport?: undefined })
  | (Omit<GroupClientOptions, "headers" | "fetch" | "auth" | "reconnection" | "middleware"> & { transport: McpTransport; url?: undefined });
export type GroupServerStatus = "connecting" | "connected" | "unauthorized" | "failed" | "closed";
/** `"prefix"` (default): `server__tool`; `"bare"`: the tool's own name, prefixed when two servers share it. */
export type GroupToolNames = "prefix" | "bare" | ((server: string, toolName: string) => string);
export interface ClientGroupOptions extends GroupClientOptions {
  servers?: { [name: string]: GroupServerConfig };
  toolNames?: GroupToolNames;
}
/** A tool of the merged list: as its server listed it, with the group's `name`. */
export interface GroupTool extends Tool { server: string; originalName: string }
/** A prompt of the merged list: named by the `toolNames` rule, as tools are. */
export interface GroupPrompt extends Prompt { server: string; originalName: string }
/** A resource as `server` listed it (its URI unchanged; a URI two servers list is there twice). */
export interface GroupResource extends Resource { server: string }
export interface GroupResourceTemplate extends ResourceTemplate { server: string }
/** `readResource` options: `server` reads from that server instead of the first one listing the URI. */
export interface GroupReadOptions extends CallOptions { server?: string }
/** `statuschange`'s `detail`: `previous` is `undefined` for a server just added; `removed` once it leaves. */
export interface GroupStatusChange {
  server: string;
  status: GroupServerStatus;
  previous: GroupServerStatus | undefined;
  /** With `"failed"` and `"unauthorized"`: why (an McpError with `data.server`). */
  error?: McpError;
  removed?: true;
}
/** A server's part of a merged list may have changed (its list_changed, or it connected or left). */
export interface GroupListChange { server: string }
/** The group's events, for typed `addEventListener`. */
export interface GroupEventMap {
  statuschange: CustomEvent<GroupStatusChange>;
  toolschange: CustomEvent<GroupListChange>;
  promptschange: CustomEvent<GroupListChange>;
  resourceschange: CustomEvent<GroupListChange>;
  close: Event;
}

/** Several MCP servers behind one object: merged tools, prompts and resources, routed calls, callbacks told which server asked. */
export class ClientGroup extends EventTarget {
  constructor(options: ClientGroupOptions);
  /** Connects every server not connected, concurrently; resolves once all have settled. */
  connect(): Promise<void>;
  /** One frozen object until a server's status changes (then a new one, and `statuschange`). */
  readonly status: Readonly<{ [name: string]: GroupServerStatus }>;
  /** Each server's last connection error (an McpError with `data.server`). */
  readonly errors: { [name: string]: McpError };
  readonly clients: Map<string, Client>;
  client(name: string): Client | undefined;
  /** Every connected server's tools; a server's listing is fetched again after its list_changed. */
  listTools(options?: CallOptions): Promise<{ tools: GroupTool[] }>;
  /** Routed by the merged name; unknown names reject with -32602 and `data.kind === "unknown_tool"`. */
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  /** Every connected server's prompts, named by the `toolNames` rule; fetched again after a list_changed. */
  listPrompts(options?: CallOptions): Promise<{ prompts: GroupPrompt[] }>;
  /** Routed by the merged name; unknown names reject with -32602, `data.kind === "input"` and `data.prompt`. */
  getPrompt(name: string, args?: { [name: string]: string }, options?: CallOptions): Promise<GetPromptResult>;
  /** Every connected server's resources; fetched again after a list_changed. */
  listResources(options?: CallOptions): Promise<{ resources: GroupResource[] }>;
  listResourceTemplates(options?: CallOptions): Promise<{ resourceTemplates: GroupResourceTemplate[] }>;
  /** From the first server (in group order) listing `uri`, or `options.server`; unlisted URIs reject with `data.kind === "input"`. */
  readResource(uri: string, options?: GroupReadOptions): Promise<ReadResourceResult>;
  /** Connects it at once when the group is connected; resolves once it has settled. */
  addServer(name: string, config: GroupServerConfig): Promise<void>;
  removeServer(name: string): Promise<void>;
  /** Closes every server, then fires `close`. */
  close(): Promise<void>;
  /** `await using group = new ClientGroup(…)`: `close()`. */
  [Symbol.asyncDispose](): Promise<void>;
  addEventListener<K extends keyof GroupEventMap>(type: K, listener: (this: ClientGroup, ev: GroupEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof GroupEventMap>(type: K, listener: (this: ClientGroup, ev: GroupEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void;
}
