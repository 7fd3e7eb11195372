// mcp-wasm-client/ai: from an MCP server's tools to a language model and back (docs/ai.md).
// The shapes below are the providers' own (checked against the openai, @anthropic-ai/sdk,
// @google/genai and ai packages' types in the types stage), written here so that none of those
// packages is needed to use this entry.
import type { CallToolResult, Client, ClientGroup, GroupTool, McpError, Tool } from "../index.js";

/** The providers `toolsFor` and `toModelContent` speak. */
export type Provider = "openai-chat" | "openai-responses" | "anthropic" | "gemini";
/** A Client or a ClientGroup (a group's tools route to their server). */
export type ToolSource = Client | ClientGroup;
/** A tool as listed (a group's with `server` and `originalName`). */
export type SourceTool = Tool | GroupTool;
/** Which calls ask the user first: never (default), unless a tool says readOnlyHint/destructiveHint false, always, or your rule. */
export type Approval = "never" | "destructive" | "always" | ((tool: SourceTool, args: Record<string, unknown>) => boolean | Promise<boolean>);

export interface AiToolOptions {
  /** Keeps only the tools it answers true for. */
  filter?: (tool: SourceTool) => boolean | Promise<boolean>;
  approval?: Approval;
  /** A tool left out (its schema cannot be converted, or its name collides): an McpError with `data.kind === "tool_schema"`. Default: console.warn. */
  messageHandler?: (error: McpError) => void | Promise<void>;
  /** Stops following list changes (`onChange`) when it aborts. */
  signal?: AbortSignal;
}
/** A tool left out, and why. */
export interface SkippedTool { name: string; error: McpError }

// ---------------------------------------------------------------- OpenAI Chat Completions
export interface OpenAIChatTool {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown>; strict: boolean };
}
export interface OpenAIChatTextPart { type: "text"; text: string }
export type OpenAIChatAttachment =
  | { type: "image_url"; image_url: { url: string } }
  | { type: "input_audio"; input_audio: { data: string; format: "wav" | "mp3" } };
/** A `tool` message; `attachments` (not sent with it): images and audio for a `user` message after the turn's tool messages. */
export interface OpenAIChatToolResult {
  role: "tool";
  content: OpenAIChatTextPart[];
  readonly attachments: OpenAIChatAttachment[];
}

// ---------------------------------------------------------------- OpenAI Responses
export interface OpenAIResponsesTool { type: "function"; name: string; description?: string; parameters: Record<string, unknown>; strict: boolean }
export type OpenAIResponsesOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" }
  | { type: "input_file"; file_data: string; filename: string };
export interface OpenAIResponsesToolResult { type: "function_call_output"; output: OpenAIResponsesOutputPart[] }

// ---------------------------------------------------------------- Anthropic
export interface AnthropicTool { name: string; description?: string; input_schema: { type: "object"; [key: string]: unknown } }
export type AnthropicToolResultPart =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp"; data: string } }
  | { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string } };
export interface AnthropicToolResult { type: "tool_result"; content: AnthropicToolResultPart[]; is_error?: boolean }

// ---------------------------------------------------------------- Gemini
export type GeminiType = "STRING" | "NUMBER" | "INTEGER" | "BOOLEAN" | "ARRAY" | "OBJECT";
/** Gemini's Schema (the OpenAPI subset of `parameters`). */
export interface GeminiSchema {
  /** A GeminiType: typed `any` because @google/genai's `Type` is an enum, which no string literal type is assignable to. */
  type?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  description?: string;
  title?: string;
  format?: string;
  nullable?: boolean;
  enum?: string[];
  items?: GeminiSchema;
  properties?: { [name: string]: GeminiSchema };
  required?: string[];
  anyOf?: GeminiSchema[];
  minLength?: string;
  maxLength?: string;
  minItems?: string;
  maxItems?: string;
  minProperties?: string;
  maxProperties?: string;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  default?: unknown;
}
export interface GeminiFunctionDeclaration { name: string; description?: string; parameters?: GeminiSchema; parametersJsonSchema?: unknown }
export interface GeminiTool { functionDeclarations: GeminiFunctionDeclaration[] }
export interface GeminiToolResult {
  functionResponse: { name: string; id?: string; response: { output: string } | { error: string }; parts?: { inlineData: { mimeType: string; data: string } }[] };
}

/** Per provider: the request body's `tools`, the tool-result item, and the key its call id goes in. */
export interface ProviderTypes {
  "openai-chat": { tools: OpenAIChatTool[]; result: OpenAIChatToolResult; id: "tool_call_id" };
  "openai-responses": { tools: OpenAIResponsesTool[]; result: OpenAIResponsesToolResult; id: "call_id" };
  anthropic: { tools: AnthropicTool[]; result: AnthropicToolResult; id: "tool_use_id" };
  gemini: { tools: GeminiTool[]; result: GeminiToolResult; id: never };
}
/** The item `call` resolves with: with `{ id }`, the call id in its place (Gemini: `functionResponse.id`); `result` the CallToolResult (for the UI); `declined` when approve said no. */
export type ToolResultItem<P extends Provider, WithId extends boolean = false> = (WithId extends true
  ? P extends "gemini" ? ProviderTypes[P]["result"] : ProviderTypes[P]["result"] & { [K in ProviderTypes[P]["id"]]: string }
  : ProviderTypes[P]["result"]) & { readonly result?: CallToolResult; readonly declined?: true };

export interface ToolsForOptions<P extends Provider = Provider> extends AiToolOptions {
  /** Asks the user when `approval` says a call needs it; false: the call is not run and the model is told. Required with an approval other than "never". */
  approve?: (tool: SourceTool, args: Record<string, unknown>) => boolean | Promise<boolean>;
  /** After the server's tools/list_changed: the tools as listed again. */
  onChange?: (next: ProviderTools<P>) => void;
}
export interface CallOptions { signal?: AbortSignal }
export interface ProviderTools<P extends Provider> {
  /** Exactly the request body's `tools` (Gemini: `[{ functionDeclarations }]`, or `[]`). */
  readonly tools: ProviderTypes[P]["tools"];
  /** Runs the tool the model named, with the arguments it sent (JSON text or an object); a tool error (isError) is the provider's error form, a call the server refuses rejects (McpError). */
  call(name: string, args: string | Record<string, unknown> | null | undefined, options: CallOptions & { id: string }): Promise<ToolResultItem<P, true>>;
  call(name: string, args: string | Record<string, unknown> | null | undefined, options?: CallOptions): Promise<ToolResultItem<P>>;
  /** The MCP name (a group's name) of a model name; undefined for a name not in `tools`. */
  toolName(modelName: string): string | undefined;
  readonly skipped: SkippedTool[];
  /** Stops following list changes (`onChange`). */
  close(): void;
}

/** The tools of `source` as `provider` takes them, and `call` to run what the model asks for. */
export function toolsFor<P extends Provider>(source: ToolSource, provider: P, options?: ToolsForOptions<P>): Promise<ProviderTools<P>>;

/** A CallToolResult as `provider`'s tool-result item, without the call's id (Gemini needs the tool's `name`). */
export function toModelContent<P extends Exclude<Provider, "gemini">>(result: CallToolResult, provider: P): ProviderTypes[P]["result"];
export function toModelContent(result: CallToolResult, provider: "gemini", options: { name: string }): GeminiToolResult;

/** Whether a call of `tool` may change things, by its annotations and the spec's defaults (what `approval: "destructive"` asks for). */
export function mayDestroy(tool: SourceTool): boolean;

export interface AiSdkToolsOptions extends AiToolOptions {
  /** After the server's tools/list_changed: a fresh ToolSet. */
  onChange?: (next: McpToolSet) => void;
}
/** The AI SDK's ToolSet (`import type { ToolSet } from "ai"` accepts it): dynamic tools whose `execute` resolves with the CallToolResult. */
export type McpToolSet = { [name: string]: McpAiSdkTool };
/** One tool of the set: `dynamicTool(...)`'s result (typed loosely so that AI SDK 6 and 7 both accept it). */
export interface McpAiSdkTool {
  type: "dynamic";
  description?: string;
  title?: string;
  inputSchema: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the installed ai's FlexibleSchema
  execute: (input: any, options: any) => Promise<CallToolResult>; // eslint-disable-line @typescript-eslint/no-explicit-any
  toModelOutput?: (options: { toolCallId: string; input: unknown; output: any }) => any; // eslint-disable-line @typescript-eslint/no-explicit-any
  needsApproval?: boolean | ((input: any, options: any) => boolean | PromiseLike<boolean>); // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A ToolSet for the AI SDK 6 or 7 (generateText, streamText, useChat's route) of the tools `source` lists now. */
export function toAiSdkTools(source: ToolSource, options?: AiSdkToolsOptions): Promise<McpToolSet>;
