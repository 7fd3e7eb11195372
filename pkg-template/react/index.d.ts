// mcp-wasm-client/react: the hooks over the package's Client and ClientGroup (React >= 18).
import type {
  AuthorizationStatus,
  CallOptions,
  CallToolOptions,
  CallToolResult,
  Client,
  ClientGroup,
  ClientGroupOptions,
  ClientOptions,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  GetPromptResult,
  GroupPrompt,
  GroupReadOptions,
  GroupResource,
  GroupServerConfig,
  GroupServerStatus,
  GroupTool,
  McpError,
  Prompt,
  ReadResourceResult,
  Resource,
  Tool,
} from "../index.js";

/** The connection's state: `client.state` (a group: connected while one server is). */
export type McpState = "idle" | "connecting" | "connected" | "closed" | "failed";

/** A server's elicitation/create waiting for the user (`server`: which server of a group asked). */
export interface PendingElicitation {
  readonly id: number;
  readonly kind: "elicitation";
  readonly params: ElicitParams;
  readonly server?: string;
  /** The answer, e.g. `{ action: "accept", content }`. */
  respond(result: ElicitResult): void;
  /** `{ action: "decline" }`. */
  decline(): void;
  /** `{ action: "cancel" }` (also what the request gets when the server cancels it or the hook unmounts). */
  cancel(): void;
}
/** A server's sampling/createMessage waiting for the user (and the app's model). */
export interface PendingSampling {
  readonly id: number;
  readonly kind: "sampling";
  readonly params: CreateMessageParams;
  readonly server?: string;
  respond(result: CreateMessageResult): void;
  /** Refuses it: an McpError with code -1 (the spec's user rejection). */
  decline(): void;
  cancel(): void;
}
export type PendingRequest = PendingElicitation | PendingSampling;
/** The hooks' options beyond the Client's: `pendingRequests: false` keeps requests without a callback refused, as a Client does. */
export interface McpHookOptions { pendingRequests?: boolean }

/** What both hooks return: one object, the same until one of its fields changes; the functions never change. */
export interface McpHookResult<TTool = Tool, TPrompt = Prompt, TResource = Resource, TAuthorization = AuthorizationStatus | null> {
  readonly state: McpState;
  /** The server's lists, fetched after connecting (the kinds its capabilities advertise) and again on each change. */
  readonly tools: TTool[] | undefined;
  readonly prompts: TPrompt[] | undefined;
  readonly resources: TResource[] | undefined;
  /** The last connection or listing error (`error.data.kind === "popup_blocked"`: call `signIn()` from a click). */
  readonly error: McpError | undefined;
  readonly authorization: TAuthorization;
  /** The server's elicitation and sampling requests waiting for the user, when the app passes no callback of that kind (a new array when one comes or goes). */
  readonly pendingRequests: readonly PendingRequest[];
  /** Waits for a connect under way; rejects with McpError `closed` after unmount. */
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult>;
  getPrompt(name: string, args?: { [name: string]: string }, options?: CallOptions): Promise<GetPromptResult>;
  /**
   * From a click handler: opens the sign-in window at once (popup blockers allow it there) and
   * connects again; the authorization page opens in it. A client you pass in signs in its own way.
   */
  signIn(options?: { features?: string }): Promise<void>;
  /** The client's (each server's) `signOut`. */
  signOut(options?: { all?: boolean }): Promise<void>;
  /** Connects again (a client the hook made is replaced by a new one). */
  retry(): Promise<void>;
}

export interface UseMcpResult extends McpHookResult {
  /** The Client (undefined until the hook has made it). */
  readonly client: Client | undefined;
}

export interface UseMcpGroupResult extends McpHookResult<GroupTool, GroupPrompt, GroupResource, { readonly [server: string]: AuthorizationStatus }> {
  readonly client: ClientGroup | undefined;
  /** From the first server listing `uri`, or `options.server`. */
  readResource(uri: string, options?: GroupReadOptions): Promise<ReadResourceResult>;
  /** `group.status`: the same object until a server's status changes. */
  readonly status: { readonly [server: string]: GroupServerStatus };
}

/**
 * One MCP server: a URL (a Client made with `options`, connected on mount, closed on unmount; the
 * callbacks may be new functions on every render) or a Client you own (connected when idle, never closed).
 */
export function useMcp(urlOrClient: string | URL | Client, options?: ClientOptions & McpHookOptions): UseMcpResult;

/** Several servers as a ClientGroup (made from `servers` and `options`, or one you own). */
export function useMcpGroup(
  servers: { [name: string]: GroupServerConfig } | ClientGroup,
  options?: Omit<ClientGroupOptions, "servers"> & McpHookOptions,
): UseMcpGroupResult;
