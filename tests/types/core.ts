// The core build's declarations (the crate without its `auth` feature: pkg/core-nodejs, shipped
// as mcp-wasm-client/core), compiled with `tsc --noEmit --strict`: the same client API, and no
// authorization helper of its own (the package's core entry adds stand-ins that throw, declared
// with the full entry's types in core/index.d.ts).
import { Client, McpError, type ClientOptions, type CallToolResult } from "../../pkg/core-nodejs/mcp_wasm_client.js";
// @ts-expect-error: the core build exports no authorization helper
import { memoryStorage } from "../../pkg/core-nodejs/mcp_wasm_client.js";
void memoryStorage;

async function main(): Promise<void> {
  const options: ClientOptions = { mode: "auto", timeoutMs: 5_000 };
  const client = new Client("http://127.0.0.1:18101/mcp", options);
  await client.connect();
  const result: CallToolResult = await client.callTool("echo", { text: "core" });
  void result;
  // the sign-in methods exist in both builds (here they reject), so one type serves both
  const status: null | { issuer: string } = client.authorization;
  void status;
  await client.signOut().catch((e: unknown) => e instanceof McpError);
  await client.close();
}
void main;
