// Legacy-era (2025-11-25) MCP server for the JS-transport tests: a TypeScript SDK 1.x McpServer
// with no transport of its own. The tests connect it over the SDK's InMemoryTransport, over
// mcp-wasm-client's inMemoryPair() / messagePortTransport() (a MessageChannel, a worker_threads
// Worker: ts_transport_worker.mjs), and bundled for the browser (tests/e2e/transports.mjs).
//
//   buildServer({ onHangUp }) -> McpServer with tools:
//     echo {text}           the text back
//     issue_card            elicits a name (form), answers "Card issued to <name>."
//     count {steps, ms}     sends `steps` progress notifications, ms apart, then "counted <steps>"
//     sleep {ms}            answers after ms ("slept <ms>"); records cancellations in `cancelled`
//     hang_up               calls onHangUp() (closes the server's end) and never answers
//     notify                sends notifications/tools/list_changed, then "notified"

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

const text = (t) => ({ content: [{ type: "text", text: String(t) }] });

/** An McpServer; `cancelled` lists the request ids whose handler saw its signal abort. */
export function buildServer({ onHangUp } = {}) {
  const server = new McpServer(
    { name: "ts-transport-peer", version: "1.0.0" },
    { capabilities: { logging: {}, tools: { listChanged: true } } },
  );
  const cancelled = [];
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text: t }) => text(t));
  server.registerTool("issue_card", { description: "Elicit a name and issue a card." }, async (extra) => {
    const answer = await server.server.elicitInput(
      {
        mode: "form",
        message: "What name should go on the card?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
      { relatedRequestId: extra.requestId },
    );
    return text(answer.action === "accept" ? `Card issued to ${answer.content?.name}.` : "No card issued.");
  });
  server.registerTool(
    "count",
    { inputSchema: { steps: z.number().int().min(1), ms: z.number().int().min(0) } },
    async ({ steps, ms }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await new Promise((r) => setTimeout(r, ms));
        if (token !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: i, total: steps, message: `step ${i}` },
          });
        }
      }
      return text(`counted ${steps}`);
    },
  );
  server.registerTool("sleep", { inputSchema: { ms: z.number().int().min(0) } }, async ({ ms }, extra) => {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      extra.signal.addEventListener("abort", () => {
        cancelled.push(extra.requestId);
        clearTimeout(timer);
        resolve();
      });
    });
    return text(`slept ${ms}`);
  });
  server.registerTool("hang_up", { description: "Closes the server's end mid-call." }, async () => {
    setTimeout(() => onHangUp?.(), 20);
    return new Promise(() => {});
  });
  server.registerTool("notify", { description: "Sends tools/list_changed." }, async () => {
    server.sendToolListChanged();
    return text("notified");
  });
  return { server, cancelled };
}
