// mcp-wasm-client/middleware: fetch middleware for the Client's `middleware` option (docs/client.md, "Fetch middleware").
import type { FetchLike, FetchMiddleware } from "../index.js";

export type { FetchLike, FetchMiddleware };

/** What withLogging records of one request: never a header value, never a body. */
export interface RequestLogRecord {
  /** GET, POST, DELETE, … */
  method: string;
  /** The URL with every query and fragment value (and any user info) shown as "[redacted]", the names kept, but the values of `allowParams` (never those of code, access_token, refresh_token, token, id_token, client_secret, assertion, client_assertion, code_verifier, state). */
  url: string;
  /** The response's status; 0 when the fetch failed. */
  status: number;
  statusText: string;
  /** Time to the response head (or the failure), in ms. */
  ms: number;
  /** The request's `Mcp-Method` header (a 2026 request's JSON-RPC method), when it has one. */
  mcpMethod?: string;
  /** A failed fetch: the error's name and message (its URL redacted); the error is rethrown. */
  error?: string;
}

/** Which query values a log may show. */
export interface RedactOptions {
  /** Query and fragment parameters whose values are shown (case-insensitive); every other value is "[redacted]", and a secret's always is. */
  allowParams?: string[];
}

/** A middleware that calls `log` once per request (default: one line on console.info). A `log` that throws does not fail the request. */
export function withLogging(log?: (record: RequestLogRecord) => void | Promise<void>, options?: RedactOptions): FetchMiddleware;
/** withLogging with the default log (one line on console.info) and options. */
export function withLogging(options: RedactOptions): FetchMiddleware;

export interface RetryOptions {
  /** How many times a request is sent again (default 2). */
  retries?: number;
  /** Ms before the first retry, doubled for each later one (default 250), or `(attempt) => ms` (attempt 1: the first retry). A Retry-After of at most 30 s is waited instead. */
  backoff?: number | ((attempt: number) => number);
}
/** A middleware that sends a GET or HEAD again after a network failure (not an abort) or a 408, 429, 502, 503 or 504 response; never a POST, never once the request's signal aborted. */
export function withRetry(options?: RetryOptions): FetchMiddleware;

/** A middleware from `handler(next, url, init)` (the TypeScript SDK's createMiddleware). */
export function createMiddleware(handler: (next: FetchLike, url: string | URL, init?: RequestInit) => Promise<Response>): FetchMiddleware;

/** Several middleware as one, as the TypeScript SDK composes them: each wraps the ones before it, so the LAST is the outermost (the Client's `middleware` array: the first). */
export function applyMiddlewares(...middleware: FetchMiddleware[]): FetchMiddleware;

/** The URL as withLogging shows it: every query and fragment value but the allowed ones, and user info, as "[redacted]". */
export function redactUrl(url: string | URL | Request, options?: RedactOptions): string;
