// A TypeScript SDK 1.x server (its low-level Server, which lists inputSchemas as written) whose
// tools have the schemas the field reports trouble with, for the ai suites: optional properties
// and formats (OpenAI strict), $ref/$defs (Gemini), a cycle, an open map, a root that is no
// object, a name with dots, a name over 64 characters. Every call answers with the arguments it
// received, as text and as structuredContent, so a test sees what reached the server.
// Connected over the SDK's InMemoryTransport: `schemaClient(Client)` is a connected Client of ours.
import { Server } from "../peers/node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js";
import { InMemoryTransport } from "../peers/node_modules/@modelcontextprotocol/sdk/dist/esm/inMemory.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "../peers/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js";

export const LONG_NAME = `report.${"quarterly_revenue_by_region_".repeat(3)}final`;

/** The tools and their input schemas. */
export const TOOLS = [
  {
    name: "book_flight",
    description: "Books a flight.",
    annotations: { destructiveHint: true },
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        from: { type: "string", minLength: 3, maxLength: 3, description: "IATA code" },
        to: { type: "string", minLength: 3, maxLength: 3 },
        date: { type: "string", format: "date" },
        contact: { type: "string", format: "email" },
        website: { type: "string", format: "uri" },
        seats: { type: "integer", minimum: 1, default: 1 },
        traveller: { $ref: "#/$defs/Traveller" },
      },
      required: ["from", "to", "date"],
      $defs: {
        Traveller: {
          type: "object",
          title: "Traveller",
          properties: { name: { type: "string" }, age: { type: "integer" }, loyalty: { $ref: "#/$defs/Loyalty" } },
          required: ["name"],
        },
        Loyalty: { type: "string", enum: ["gold", "silver"] },
      },
    },
  },
  {
    name: "files.read",
    description: "Reads a file.",
    annotations: { readOnlyHint: true },
    inputSchema: { type: "object", properties: { path: { type: "string" }, encoding: { type: ["string", "null"], enum: ["utf8", "base64", null] } }, required: ["path"] },
  },
  {
    name: "tree",
    description: "A recursive schema.",
    inputSchema: { type: "object", properties: { root: { $ref: "#/$defs/Node" } }, required: ["root"], $defs: { Node: { type: "object", properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } }, required: ["label"] } } },
  },
  {
    name: "tag",
    description: "An open map of tags.",
    inputSchema: { type: "object", properties: { tags: { type: "object", additionalProperties: { type: "string" } } }, required: ["tags"] },
  },
  { name: "listing", description: "A root that is an array.", inputSchema: { type: "array", items: { type: "string" } } },
  { name: "remote", description: "A $ref outside the schema.", inputSchema: { type: "object", properties: { x: { $ref: "https://example.com/x.json" } } } },
  { name: LONG_NAME, description: "A name over 64 characters.", inputSchema: { type: "object", properties: {} } },
];

/** A new server over InMemoryTransport: `{ clientSide, seen, close }`; `seen` lists each call's name and arguments. */
export async function schemaServer() {
  const server = new Server({ name: "schema-peer", version: "1.0.0" }, { capabilities: { tools: {} } });
  const seen = [];
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    seen.push({ name, args });
    return { content: [{ type: "text", text: JSON.stringify(args) }], structuredContent: { received: args } };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { clientSide, seen, close: () => server.close() };
}

/** A connected Client (the package's `Client`) to a new schema server: `{ client, seen, close }`. */
export async function schemaClient(Client, options = {}) {
  const server = await schemaServer();
  const client = new Client({ transport: server.clientSide, ...options });
  await client.connect();
  return { client, seen: server.seen, close: async () => (await client.close(), await server.close()) };
}
