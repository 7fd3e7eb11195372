#!/usr/bin/env node
// The client the official MCP conformance suite runs for its client scenarios:
//
//   conformance client --command "node tests/conformance/client.mjs" --scenario <name>
//
// The suite starts a mock server, appends its URL as the last argument and sets
// MCP_CONFORMANCE_SCENARIO (the scenario name), MCP_CONFORMANCE_PROTOCOL_VERSION (the revision
// the scenario runs at) and, for some scenarios, MCP_CONFORMANCE_CONTEXT (JSON: credentials,
// tool arguments...). This file does what each scenario expects of a client, using only the
// public JS surface of the built package (pkg/nodejs, or MCP_PKG_NODE), as a user would. It
// exits 0 when the flow completed and 1 when anything threw; the suite then judges its checks.
// Where a scenario wants the client to refuse (a resource or issuer mismatch, a rejected `iss`,
// a scope step-up that never ends, a tampered skill), the error simply propagates: the suite
// allows a non-zero exit there.
//
// Env (besides the suite's):
//   MCP_PKG_NODE             the built `--target nodejs` package (default <repo>/pkg/nodejs)
//   CONFORMANCE_CLIENT_MODE  the client's `mode` option (default "auto", the client's default), or
//                            "protocol": legacy or 2026-07-28 after MCP_CONFORMANCE_PROTOCOL_VERSION
//   CONFORMANCE_VERBOSE=1    log each step to stderr
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const pkg = require(process.env.MCP_PKG_NODE ?? path.join(here, "../../pkg/nodejs"));
const { Client, McpError } = pkg;

const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
const protocolVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const serverUrl = process.argv.at(-1);
// "protocol" pins the mode the suite's revision implies, as its reference client does: legacy for
// the handshake revisions, 2026-07-28 otherwise.
const HANDSHAKE_REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const modeOption = process.env.CONFORMANCE_CLIENT_MODE ?? "auto";
const mode =
  modeOption === "protocol" ? (HANDSHAKE_REVISIONS.includes(protocolVersion ?? "2025-11-25") ? "legacy" : "2026-07-28") : modeOption;
const clientInfo = { name: "mcp-wasm-client-conformance", version: "1.0.0" };

const log = (...args) => {
  if (process.env.CONFORMANCE_VERBOSE) console.error(`[client ${scenario}]`, ...args);
};

/** A client with the driver's defaults; `options` adds callbacks, auth, headers. */
async function connect(options = {}) {
  const client = new Client(serverUrl, { mode, clientInfo, timeoutMs: 20_000, ...options });
  await client.connect();
  log(`connected: era ${client.era}, protocol ${client.protocolVersion}, transport ${client.transport}`);
  return client;
}

const handlers = new Map();
const register = (names, fn) => {
  for (const name of [names].flat()) handlers.set(name, fn);
};

// ---- the basics ---------------------------------------------------------------------------------

// initialize, tools_call: connect, list the tools, call the first one with the numbers the mock
// server's add_numbers expects.
register(["initialize", "tools_call"], async () => {
  const client = await connect();
  const { tools } = await client.listTools();
  log("tools:", tools.map((t) => t.name));
  if (tools[0]) log("result:", JSON.stringify(await client.callTool(tools[0].name, { a: 2, b: 3 })));
  await client.close();
});

// SEP-2106: list the tools (whose schema has a network $ref) and fetch nothing else.
register("json-schema-ref-no-deref", async () => {
  const client = await connect();
  const { tools } = await client.listTools();
  log("tools:", JSON.stringify(tools));
  await client.close();
});

// SEP-1613/2106: send back the inputSchema of json_schema_2020_12_tool exactly as listed; the
// scenario diffs the echo against its fixture to catch keywords the client dropped.
register("json-schema-2020-12-preservation", async () => {
  const client = await connect();
  const { tools } = await client.listTools();
  const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
  if (!focal) throw new Error("json_schema_2020_12_tool not listed");
  log("result:", JSON.stringify(await client.callTool("json_schema_echo", { schema: focal.inputSchema })));
  await client.close();
});

// SEP-1034: accept the form with no content at all; the client fills in the schema's defaults.
register("elicitation-sep1034-client-defaults", async () => {
  const client = await connect({
    elicitationCallback: async (_ctx, params) => {
      log("elicitation:", JSON.stringify(params));
      return { action: "accept", content: {} };
    },
  });
  const { tools } = await client.listTools();
  if (!tools.some((t) => t.name === "test_client_elicitation_defaults")) throw new Error("test tool not listed");
  const result = await client.callTool("test_client_elicitation_defaults", {});
  log("result:", JSON.stringify(result));
  await client.close();
});

// SEP-1699: the tool's SSE stream closes after a priming event with `retry: 500`; the client
// resumes with GET + Last-Event-ID after that delay and gets the result there.
register("sse-retry", async () => {
  const client = await connect();
  const { tools } = await client.listTools();
  const result = await client.callTool(tools[0]?.name ?? "test_reconnection", {});
  log("result:", JSON.stringify(result));
  await client.close();
});

// SEP-2575: every request carries MCP-Protocol-Version and the _meta envelope; the first one is
// refused with -32022 and the client retries with a version the server lists. The three
// callbacks are registered so the capability checks see each capability declared.
register("request-metadata", async () => {
  const client = await connect({
    elicitationCallback: () => ({ action: "decline" }),
    samplingCallback: () => ({ role: "assistant", content: { type: "text", text: "" }, model: "none" }),
    listRootsCallback: () => ({ roots: [] }),
  });
  const { tools } = await client.listTools();
  log("tools:", tools.map((t) => t.name));
  await client.close();
});

// SEP-2322 (MRTR): two tools answer input_required (one with requestState, one without); the
// client answers the elicitation and retries with a new id, echoing requestState byte for byte.
// While the first tool's round is open (inside the callback) the client calls an unrelated tool,
// which must carry none of the round's state. The last tool's result has no resultType.
register("sep-2322-client-request-state", async () => {
  let client;
  let unrelatedCalled = false;
  client = await connect({
    elicitationCallback: async (_ctx, params) => {
      log("elicitation:", JSON.stringify(params));
      if (!unrelatedCalled) {
        unrelatedCalled = true;
        log("unrelated:", JSON.stringify(await client.callTool("test_mrtr_unrelated", {})));
      }
      return { action: "accept", content: { confirmed: true } };
    },
  });
  const { tools } = await client.listTools();
  log("tools:", tools.map((t) => t.name));
  for (const name of ["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_no_result_type"]) {
    log(`${name}:`, JSON.stringify(await client.callTool(name, {})));
  }
  await client.close();
});

// SEP-2243: Mcp-Method on every request, Mcp-Name on tools/call, resources/read, prompts/get:
// exercise each listed tool, resource and prompt once.
register("http-standard-headers", async () => {
  const client = await connect();
  const { tools } = await client.listTools();
  for (const tool of tools) log(`call ${tool.name}:`, JSON.stringify(await client.callTool(tool.name, {})));
  const { resources } = await client.listResources();
  for (const r of resources) log(`read ${r.uri}:`, JSON.stringify(await client.readResource(r.uri)));
  const { prompts } = await client.listPrompts();
  for (const p of prompts) log(`get ${p.name}:`, JSON.stringify(await client.getPrompt(p.name, {})));
  await client.close();
});

// SEP-2243: x-mcp-header parameters mirrored into Mcp-Param-* headers; the arguments come from
// the scenario's context.
register("http-custom-headers", async () => {
  const client = await connect();
  const { tools } = await client.listTools();
  log("tools:", tools.map((t) => t.name));
  const calls = context.toolCalls ?? [];
  if (calls.length === 0) throw new Error("MCP_CONFORMANCE_CONTEXT has no toolCalls");
  for (const { name, arguments: args } of calls) log(`call ${name}:`, JSON.stringify(await client.callTool(name, args)));
  await client.close();
});

// SEP-2243: tools with invalid x-mcp-header annotations must be dropped from the listing; a host
// calls what it is shown, so call every listed tool with arguments made from its schema.
register("http-invalid-tool-headers", async () => {
  const client = await connect({ messageHandler: (m) => log("message:", m instanceof McpError ? m.message : JSON.stringify(m)) });
  const { tools } = await client.listTools();
  log("tools kept:", tools.map((t) => t.name));
  for (const tool of tools) log(`call ${tool.name}:`, JSON.stringify(await client.callTool(tool.name, sampleArguments(tool.inputSchema))));
  await client.close();
});

/** Arguments that satisfy a simple object schema's required properties. */
function sampleArguments(schema) {
  const args = {};
  for (const name of schema?.required ?? []) {
    const type = [schema.properties?.[name]?.type].flat()[0];
    args[name] = { string: "x", integer: 1, number: 1, boolean: true, object: {}, array: [], null: null }[type] ?? "x";
  }
  return args;
}

// ---- SEP-2640 skills (extension): client.skills ----------------------------------------------
//
// What these scenarios check is the host's behaviour: fetch nothing ahead of need; verify a loaded
// file's size, digest and frontmatter against the skills/list entry and refuse it on any mismatch
// (then read none of the skill's other files). client.skills does the verification; its refusal
// is an McpError with data.kind "skill_verification" and data.reason size / digest / frontmatter.
const SKILLS = "io.modelcontextprotocol/skills";

register("sep-2640-client-no-prefetch", async () => {
  const client = await connect();
  const { skills } = await client.skills.list();
  log("skills:", JSON.stringify(skills));
  // Listing is not loading: nothing is read until a skill is needed, and none is here.
  await client.close();
});

register(["sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"], async () => {
  const client = await connect();
  if (!client.skills.supported) log("server does not declare", SKILLS);
  const { skills } = await client.skills.list();
  const skill = skills[0];
  if (!skill) throw new Error("skills/list listed no skill");
  // Load the skill: its SKILL.md first, verified before anything else is used or read.
  await client.skills.read(skill);
  // Verified: the supporting files are now fair game.
  for (const file of skill.resources) if (file.uri !== skill.uri) await client.skills.read(file.uri);
  log("skill loaded:", skill.uri);
  await client.close();
});

// ---- authorization --------------------------------------------------------------------------

// The client ID metadata document URL the suite's CIMD scenario expects (basic-cimd.ts,
// CIMD_CLIENT_METADATA_URL); an AS that does not advertise CIMD support gets dynamic
// registration instead.
const CIMD_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const REDIRECT_URI = "http://127.0.0.1:3000/callback";

/** The `auth` option: the authorization contract of the package (authorizeHeadless, memoryStorage). */
function authOptions({ cimd = true } = {}) {
  const { authorizeHeadless, memoryStorage } = pkg;
  if (typeof authorizeHeadless !== "function" || typeof memoryStorage !== "function") {
    throw new Error("this build of the package has no authorizeHeadless/memoryStorage (the authorization API)");
  }
  const preRegistered = context.client_id
    ? { client_id: context.client_id, client_secret: context.client_secret, issuer: context.issuer }
    : undefined;
  return {
    clientMetadata: { client_name: "mcp-wasm-client conformance", redirect_uris: [REDIRECT_URI] },
    clientMetadataUrl: cimd && !preRegistered ? CIMD_CLIENT_METADATA_URL : undefined,
    clientInformation: preRegistered,
    authorize: authorizeHeadless(),
    storage: memoryStorage(),
    scope: undefined,
    onInsufficientScope: "reauthorize",
    maxStepUp: 1,
  };
}

// The suite's protected MCP server: list the tools, call test-tool (a scope step-up or an AS
// migration happens on the second request), close.
async function authFlow(options) {
  const client = await connect({ auth: authOptions(options) });
  const { tools } = await client.listTools();
  log("tools:", tools.map((t) => t.name));
  log("result:", JSON.stringify(await client.callTool("test-tool", {})));
  await client.close();
}

register(
  [
    "auth/basic-cimd",
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/2025-03-26-oauth-metadata-backcompat",
    "auth/2025-03-26-oauth-endpoint-fallback",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/iss-supported",
    "auth/iss-not-advertised",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
  ],
  () => authFlow(),
);
// Pre-registered credentials come from MCP_CONFORMANCE_CONTEXT (authOptions reads them).
register("auth/pre-registration", () => authFlow({ cimd: false }));
// SEP-2352: the second request finds another AS in the PRM; the client registers there anew.
register("auth/authorization-server-migration", () => authFlow({ cimd: false }));

// ---- grants without a user (issue 11) --------------------------------------------------------

/** A client whose `auth.grant` is `grant` (no redirect, no authorize function needed). */
async function grantFlow(grant, extra = {}) {
  const client = await connect({ auth: { grant, storage: pkg.memoryStorage(), ...extra } });
  const { tools } = await client.listTools();
  log("tools:", tools.map((t) => t.name));
  if (tools.some((t) => t.name === "test-tool")) {
    log("result:", JSON.stringify(await client.callTool("test-tool", {})));
  }
  await client.close();
}

register("auth/client-credentials-basic", () =>
  grantFlow({ type: "client_credentials", clientId: context.client_id, clientSecret: context.client_secret }),
);
register("auth/client-credentials-jwt", () =>
  grantFlow({
    type: "client_credentials",
    clientId: context.client_id,
    privateKey: context.private_key_pem,
    algorithm: context.signing_algorithm ?? "ES256",
  }),
);
// Workload identity: the platform's JWT is the assertion (asked for each new token).
register("auth/wif-jwt-bearer", () =>
  grantFlow({ type: "jwt_bearer", clientId: context.client_id, assertion: async () => context.valid_jwt }),
);
// Enterprise-managed authorization: the ID token is exchanged at the IdP for an ID-JAG.
register(["auth/cross-app-access-complete-flow", "auth/enterprise-managed-authorization"], () =>
  grantFlow({
    type: "jwt_bearer",
    clientId: context.client_id,
    clientSecret: context.client_secret,
    assertion: pkg.idJagAssertion({
      idpTokenEndpoint: context.idp_token_endpoint,
      idToken: context.idp_id_token,
      idpClientId: context.idp_client_id,
    }),
  }),
);
// DPoP with the authorization-code flow: a fresh non-extractable key per run.
register(["auth/dpop", "auth/dpop-nonce"], async () => {
  const client = await connect({ auth: { ...authOptions({ cimd: false }), dpop: true } });
  const { tools } = await client.listTools();
  log("tools:", tools.map((t) => t.name));
  if (tools.some((t) => t.name === "test-tool")) {
    log("result:", JSON.stringify(await client.callTool("test-tool", {})));
  }
  await client.close();
});

// ---- refusals --------------------------------------------------------------------------------
//
// The suite accepts any non-zero exit from these scenarios, so a driver crash or a network error
// would pass them too. The driver therefore names the refusal each one expects: the right one
// exits 1 as the scenario wants; anything else (another error, or no refusal at all) prints a
// line starting "client.mjs: UNEXPECTED", which run.mjs counts as a failure.
const REFUSALS = {
  "auth/resource-mismatch": "resource_mismatch",
  "auth/iss-supported-missing": "issuer_mismatch",
  "auth/iss-wrong-issuer": "issuer_mismatch",
  "auth/iss-unexpected": "issuer_mismatch",
  "auth/iss-normalized": "issuer_mismatch",
  "auth/metadata-issuer-mismatch": "issuer_mismatch",
  "auth/scope-retry-limit": "insufficient_scope",
  "sep-2640-client-verify-digest": "skill_verification",
  "sep-2640-client-verify-size": "skill_verification",
  "sep-2640-client-verify-frontmatter": "skill_verification",
};

// ---- main -----------------------------------------------------------------------------------

async function main() {
  if (!scenario || !serverUrl || serverUrl === fileURLToPath(import.meta.url)) {
    console.error("usage: MCP_CONFORMANCE_SCENARIO=<scenario> node tests/conformance/client.mjs <server-url>");
    console.error(`scenarios: ${[...handlers.keys()].sort().join(", ")}`);
    return 2;
  }
  const handler = handlers.get(scenario);
  if (!handler) {
    console.error(`client.mjs: no handler for scenario '${scenario}'`);
    return 2;
  }
  log(`url ${serverUrl}, protocol ${protocolVersion}, mode ${mode}`);
  const refusal = REFUSALS[scenario];
  try {
    await handler();
  } catch (e) {
    const kind = e instanceof McpError ? e.data?.kind : undefined;
    const what = e instanceof McpError ? ` [McpError ${e.code}${kind ? `, kind ${kind}` : ""}]` : kind ? ` [${kind}]` : "";
    if (refusal && kind === refusal) {
      console.error(`client.mjs: ${scenario}: refused, as the scenario expects${what}: ${e.message}`);
    } else {
      console.error(`client.mjs: ${refusal ? `UNEXPECTED error (the scenario expects a ${refusal} refusal)` : `${scenario} failed`}${what}: ${e?.stack ?? e}`);
    }
    if (e instanceof McpError && e.data !== undefined) console.error(`data: ${JSON.stringify(e.data)}`);
    return 1;
  }
  if (refusal) {
    console.error(`client.mjs: UNEXPECTED success: ${scenario} completed, but the scenario expects a ${refusal} refusal`);
    return 1;
  }
  return 0;
}

process.exit(await main());
