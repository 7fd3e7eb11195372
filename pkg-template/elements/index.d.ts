// The package's custom elements (elements/*.js, plain JS beside the wasm): <mcp-app-frame>, an MCP
// Apps host, and <mcp-elicitation-form>, a drop-in elicitation form. Every entry exports both
// classes; a page (customElements) gets the tags defined, other hosts get the classes only.
import type {
  CallToolOptions,
  CallToolResult,
  Client,
  ClientGroup,
  ContentBlock,
  CreateMessageParams,
  ElicitParams,
  ElicitResult,
  GroupTool,
  Implementation,
  JsonObject,
  JsonValue,
  LoggingMessageParams,
  Tool,
} from "../dist/mcp_wasm_client.js";

/** HTMLElement where the DOM types are loaded (lib "dom"); an empty base elsewhere, so Node-only projects still compile. */
type DomElement = typeof globalThis extends { HTMLElement: { prototype: infer E } } ? E : {};
declare const ElementBase: { new (): DomElement; prototype: DomElement };

/** A view's display mode (MCP Apps 2026-01-26). */
export type McpUiDisplayMode = "inline" | "fullscreen" | "pip";

/** What the page tells an app about itself (`hostContext` of the ui/initialize result; open for more keys). */
export interface McpUiHostContext {
  theme?: "light" | "dark";
  locale?: string;
  timeZone?: string;
  userAgent?: string;
  platform?: "web" | "desktop" | "mobile";
  displayMode?: McpUiDisplayMode;
  availableDisplayModes?: McpUiDisplayMode[];
  containerDimensions?: JsonObject;
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
  styles?: JsonObject;
  [key: string]: JsonValue | undefined;
}

/** An app's latest `ui/update-model-context`. */
export interface AppModelContext {
  content?: ContentBlock[];
  structuredContent?: JsonObject;
}

/** The `detail` of each event an `<mcp-app-frame>` dispatches (all bubble and are composed). */
export interface AppFrameEventDetails {
  /** `ui/message` (cancelable: refused, the app gets isError); `content` is always an array. */
  "mcp-app-message": { role: "user"; content: ContentBlock[] };
  /** `ui/open-link` (cancelable; unrefused http(s) links open in a new tab with noopener). */
  "mcp-app-open-link": { url: string };
  /** `ui/update-model-context` (cancelable; unrefused, kept as `frame.modelContext`). */
  "mcp-app-context": AppModelContext;
  /** `ui/request-display-mode` (cancelable; unrefused, hostContext.displayMode changes). */
  "mcp-app-display-mode": { mode: McpUiDisplayMode; current: McpUiDisplayMode };
  /** `ui/notifications/request-teardown` (cancelable; unrefused, the frame tears down). */
  "mcp-app-request-teardown": {};
  /** The app's `notifications/message`. */
  "mcp-app-log": LoggingMessageParams & { server?: string; tool: string };
  /** The app's `ui/notifications/size-changed`, once applied. */
  "mcp-app-size": { width?: number; height?: number };
  /** `ui/download-file`, its files checked (cancelable: refused, the app gets isError; unrefused, the frame offers them to the person). */
  "mcp-app-download": { files: AppDownloadFile[]; tool: string; server?: string };
  /** The app's `sampling/createMessage` (cancelable: refused, the app gets an error; unrefused, the client's samplingCallback answers). */
  "mcp-app-sampling": CreateMessageParams & { app: { tool: string; server?: string } };
  /** The tools the app registered changed (`frame.appTools`). */
  "mcp-app-tools": { tools: Tool[]; tool: string; server?: string };
}

/** One file of an app's `ui/download-file`, as checked by the frame. */
export interface AppDownloadFile {
  /** The safe file name it is saved as. */
  name: string;
  /** The MIME type the app gave (lower case, parameters dropped). */
  mimeType: string;
  /** Its size in bytes. */
  size: number;
  /** Its bytes (typed application/octet-stream for HTML, SVG, XML and scripts). */
  blob: Blob;
}

/** The limits of an app's downloads. */
export interface AppDownloadLimits {
  /** Files per request (default 10). */
  maxFiles?: number;
  /** Bytes per request, all files together (default 10 MiB). */
  maxBytes?: number;
}

/** `<mcp-app-frame>`: renders a tool's `ui://` app in a sandbox on another origin and hosts it (MCP Apps). */
export declare class AppFrame extends ElementBase {
  /** The Client (declare `apps: true`) or ClientGroup the app's tool belongs to. */
  client: Client | ClientGroup | undefined;
  /** The URL of mcp-app-sandbox.html, served from another origin than the page. */
  sandbox: string | undefined;
  /** What the app is told about the page; setting it later sends only the changed fields. */
  hostContext: McpUiHostContext;
  /** The host's name and version in the ui/initialize result. */
  hostInfo: Implementation;
  /** Takes the app's log messages instead of the client's `loggingCallback`. */
  loggingCallback?: (params: LoggingMessageParams, source: { server?: string; tool: string; frame: AppFrame }) => void;
  /** The app's latest ui/update-model-context. */
  readonly modelContext: AppModelContext | undefined;
  /** The tool whose app is shown. */
  readonly tool: Tool | undefined;
  /** The tools the shown app registered (`[]` when none is shown); `mcp-app-tools` tells a change. */
  readonly appTools: Tool[];
  /** The limits of the app's downloads (unset: 10 files, 10 MiB per request). */
  downloadLimits?: AppDownloadLimits;
  /** Mounts the tool's app, calls the tool through the client and delivers its input and result to the app. */
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  /** Mounts the tool's app for a result that arrived elsewhere (no call is made); without `args` its input is still to come (partial arguments, then callTool or show with them). */
  show(tool: Tool | GroupTool | string, args?: Record<string, unknown>, result?: CallToolResult, options?: { signal?: AbortSignal }): Promise<void>;
  /** Sends partial arguments while the input streams; false when dropped (the input was sent, or nothing streams). */
  sendToolInputPartial(args: Record<string, unknown>): boolean;
  /** Takes a text delta of the arguments' streamed JSON and sends what it reads as so far; false when dropped. */
  feedToolInput(delta: string): boolean;
  /** Calls a tool the shown app registered (tools/call to the app). */
  callAppTool(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<CallToolResult>;
  /** Sends ui/resource-teardown, waits for the app's reply (up to 3 s), then removes the iframes. */
  teardown(options?: { reason?: string }): Promise<void>;
}

/** `<mcp-elicitation-form>`: a drop-in form for an `elicitation/create` request (form and URL mode). */
export declare class ElicitationForm extends ElementBase {
  /**
   * Shows a form for `params` in `container` (a closed `<dialog>` is opened modally and closed
   * afterwards) and resolves with the answer once: a button, Escape or `signal` aborted (cancel).
   * The page's first form waits for the drawing module (`elements/elicitation-view.js`); one that
   * cannot be fetched rejects with an McpError of kind "module_load".
   */
  static ask(container: Element, params: ElicitParams, options?: { signal?: AbortSignal }): Promise<ElicitResult>;
  /** The request shown; setting it draws the form, once the drawing module has arrived on a page's first form (an McpError, kind "input", on bad params or once answered). */
  params: ElicitParams | null;
  /** The answer, settled once. */
  readonly answer: Promise<ElicitResult>;
  /** Whether the person has answered (the controls are then disabled). */
  readonly answered: boolean;
  /** Answers `{ action: "cancel" }`. */
  cancel(): void;
  /** Answers `{ action: "decline" }`. */
  decline(): void;
  /** Accepts with the typed content when valid (true), else shows the errors inline (false; false also before the form is drawn). */
  submit(): boolean;
  /** Focuses the first field (URL mode: the Decline button); before the form is drawn, once it is. */
  focusFirst(): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "mcp-app-frame": AppFrame;
    "mcp-elicitation-form": ElicitationForm;
  }
  interface HTMLElementEventMap {
    "mcp-app-message": CustomEvent<AppFrameEventDetails["mcp-app-message"]>;
    "mcp-app-open-link": CustomEvent<AppFrameEventDetails["mcp-app-open-link"]>;
    "mcp-app-context": CustomEvent<AppFrameEventDetails["mcp-app-context"]>;
    "mcp-app-display-mode": CustomEvent<AppFrameEventDetails["mcp-app-display-mode"]>;
    "mcp-app-request-teardown": CustomEvent<AppFrameEventDetails["mcp-app-request-teardown"]>;
    "mcp-app-log": CustomEvent<AppFrameEventDetails["mcp-app-log"]>;
    "mcp-app-size": CustomEvent<AppFrameEventDetails["mcp-app-size"]>;
    "mcp-app-download": CustomEvent<AppFrameEventDetails["mcp-app-download"]>;
    "mcp-app-sampling": CustomEvent<AppFrameEventDetails["mcp-app-sampling"]>;
    "mcp-app-tools": CustomEvent<AppFrameEventDetails["mcp-app-tools"]>;
    "mcp-elicitation-answer": CustomEvent<ElicitResult>;
  }
}

/** Builds both classes over one entry's wasm exports and defines their tags where customElements exists. */
export declare function defineElements(wasm: object): { AppFrame: typeof AppFrame; ElicitationForm: typeof ElicitationForm };
/** The tag of each element class. */
export declare const TAGS: { AppFrame: "mcp-app-frame"; ElicitationForm: "mcp-elicitation-form" };
