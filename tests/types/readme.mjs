// Every JavaScript/TypeScript code block of README.md, its docs/ guides and pkg-template/README.md, type-checked with
// `tsc --strict` against the package's declarations (the types stage of scripts/test.sh), so the
// READMEs never drift from the API.
//
// Blocks tagged js, javascript, mjs or ts are checked; html, sh and http blocks are not (they are
// markup, shell and wire examples). A block is checked as TypeScript would check it pasted into a .ts
// file, except a block that is a JavaScript file of its own (its first line names it, as
// `// worker.js: …`; the packaging tests run those files): that one as that .mjs file, with
// checkJs (its JSDoc types count). A fragment (it uses names it does not define) has a prelude in
// PRELUDES below, keyed `file ## heading #n` (the n-th code block under that heading): TypeScript
// put before it (imports, and `declare const` of the free names). A prelude whose key matches no
// block fails the check, so none goes stale.
//
// The package is assembled for tsc in a temporary node_modules/mcp-wasm-client as scripts/package.sh
// lays it out (pkg-template's package.json, index.d.ts, core/ and elements/ declarations; dist/ from
// the built pkg/web and pkg/core-web), beside the official TypeScript SDK of tests/peers (a block
// serves a same-page server with it), @types/node (Node examples) and tests/js's @opentelemetry
// packages (the Tracing example).
//
// Usage: node tests/types/readme.mjs   (after the build stage; exits 1 with README file:line errors)
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DOC_FILES } from "../support/docs.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, "../..");
// docs/ai.md: the mcp-wasm-client/ai guide, its whole scripts checked against the provider SDKs'
// own types (openai, @anthropic-ai/sdk, @google/genai, ai: tests/ai's node_modules)
const READMES = [...DOC_FILES, "docs/ai.md", "pkg-template/README.md"];
const CHECKED = new Set(["js", "javascript", "mjs", "ts"]);
// jsx: the React example of docs/ai.md (the react stage runs the hooks it uses)
const SKIPPED = new Set(["html", "sh", "http", "jsx"]);

/** `declare const name: type;` for each of `names`: a fragment's free names. */
const declare = (names) => Object.entries(names).map(([name, type]) => `declare const ${name}: ${type};`).join("\n");
const PKG = (name) => `import("mcp-wasm-client").${name}`;
const TRANSPORT_LINES = declare({
  port: "MessagePort",
  iframe: "{ contentWindow: Window }",
  command: "string",
  args: "string[]",
  StdioClientTransport: `new (options: { command: string; args: string[] }) => ${PKG("McpTransport")}`,
});
/** The "Observable state" fragment (docs/client.md, included in the package README): `Client` imported; url, render, renderTools free. */
const OBSERVABLE_STATE_LINES = `import { Client } from "mcp-wasm-client";\n${declare({
  url: "string",
  render: `(state: ${PKG("ClientState")}) => void`,
  renderTools: `(tools: ${PKG("Tool")}[]) => void`,
})}`;
/** What the fragments use and do not define: TypeScript put before the block (imports, and the
 *  free names through `declare`). */
const PRELUDES = {
  "docs/client.md ## Capabilities and extensions #1": `import { Client } from "mcp-wasm-client";\n${declare({ url: "string" })}`,
  "docs/client.md ## Observable state (for UIs) #1": OBSERVABLE_STATE_LINES,
  "docs/client.md ## Transports written in JavaScript #1": TRANSPORT_LINES,
  "docs/client.md ## Several servers: `ClientGroup` #1": `import { inMemoryPair } from "mcp-wasm-client";\n${declare({
    uri: "string",
    render: `(status: ${PKG("ClientGroup")}["status"]) => void`,
    auth: PKG("AuthOptions"),
    ui: `{ form(server: string, params: ${PKG("ElicitParams")}): Promise<${PKG("ElicitResult")}> }`,
    samplingCallback: PKG("SamplingCallback"),
    listRootsCallback: PKG("ListRootsCallback"),
    args: "Record<string, unknown>",
    url: "string",
    signal: "AbortSignal",
    timeoutMs: "number",
    onProgress: `${PKG("CallOptions")}["onProgress"]`,
  })}`,
  "docs/elements.md ## MCP Apps: `<mcp-app-frame>` #1": declare({ url: "string", container: "HTMLElement", args: "Record<string, unknown>", signal: "AbortSignal" }),
  "docs/elements.md ### Streaming the tool's input #1": declare({
    client: PKG("Client"),
    sandbox: "string",
    chat: "HTMLElement",
    result: "{ fullStream: AsyncIterable<{ type: string; toolName: string; delta: string; input: Record<string, unknown> }> }",
  }),
  "docs/sign-in.md # Sign in (OAuth) #1": declare({
    signInButton: "HTMLButtonElement",
    signOutButton: "HTMLButtonElement",
    show: `(status: ${PKG("AuthorizationStatus")} | null) => void`,
  }),
  "docs/sign-in.md # Sign in (OAuth) #3": declare({
    connectButton: "HTMLButtonElement",
    signInLink: "HTMLAnchorElement",
    show: `(status: ${PKG("AuthorizationStatus")} | null) => void`,
    showError: "(error: unknown) => void",
  }),
  "docs/sign-in.md ## Grants without a user, and DPoP #1": `import * as fs from "node:fs";\n${declare({
    clientSecret: "string",
    idToken: "string",
    idpClientSecret: "string",
    clientMetadata: `${PKG("AuthOptions")}["clientMetadata"]`,
  })}`,
  "docs/sign-in.md ## Grants without a user, and DPoP #2": `export const options: { auth: ${PKG("AuthOptions")} } = {`,
  "pkg-template/README.md ## Sign in (OAuth) #1": declare({ signInButton: "HTMLButtonElement" }),
  "pkg-template/README.md ## Capabilities, extensions, tasks and skills #1": `import { Client } from "mcp-wasm-client";\n${declare({ url: "string", args: "Record<string, unknown>" })}`,
  "pkg-template/README.md ## Chat UI elements: `<mcp-elicitation-form>` and `<mcp-app-frame>` #1": declare({
    url: "string",
    dialog: "HTMLDialogElement",
    container: "HTMLElement",
    args: "Record<string, unknown>",
    signal: "AbortSignal",
    chat: "{ send(content: unknown): void }",
  }),
};
/** What follows a fragment's block (closing what its prelude opened). */
const POSTLUDES = {
  "docs/sign-in.md ## Grants without a user, and DPoP #2": "};",
};

/** Every code block of `file`: its key, language, text and the README line its text starts on. */
function blocks(file) {
  const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
  const out = [];
  let heading = "", count = 0, open = null;
  lines.forEach((line, i) => {
    if (open) {
      if (line.startsWith("```")) {
        out.push(open);
        open = null;
      } else open.text.push(line);
    } else if (/^#{1,6} /.test(line)) {
      heading = line;
      count = 0;
    } else if (line.startsWith("```")) {
      count += 1;
      open = { key: `${file} ${heading} #${count}`, file, lang: line.slice(3).trim(), line: i + 2, text: [] };
    }
  });
  return out;
}

/** node_modules for tsc: the package as package.sh lays it out, the TypeScript SDK, @types/node. */
function assemble(dir) {
  const pkg = path.join(dir, "node_modules/mcp-wasm-client");
  for (const [from, to] of [
    ["pkg/web/mcp_wasm_client.d.ts", "dist/mcp_wasm_client.d.ts"],
    ["pkg/core-web/mcp_wasm_client.d.ts", "dist/core/mcp_wasm_client.d.ts"],
  ]) {
    if (!existsSync(path.join(ROOT, from))) throw new Error(`${from} is missing: run the build stage first`);
    mkdirSync(path.dirname(path.join(pkg, to)), { recursive: true });
    cpSync(path.join(ROOT, from), path.join(pkg, to));
  }
  // package.json and every declaration file of pkg-template (index.d.ts, core/, elements/, …)
  const template = path.join(ROOT, "pkg-template");
  const declarations = readdirSync(template, { recursive: true, encoding: "utf8" }).filter((f) => /\.d\.c?ts$/.test(f));
  for (const f of ["package.json", ...declarations]) {
    mkdirSync(path.dirname(path.join(pkg, f)), { recursive: true });
    cpSync(path.join(template, f), path.join(pkg, f));
  }
  mkdirSync(path.join(dir, "node_modules/@types"), { recursive: true });
  symlinkSync(path.join(ROOT, "tests/peers/node_modules/@modelcontextprotocol"), path.join(dir, "node_modules/@modelcontextprotocol"));
  // the tracer of the Tracing example (docs/client.md), as tests/js's tracing.test.mjs installs it
  symlinkSync(path.join(ROOT, "tests/js/node_modules/@opentelemetry"), path.join(dir, "node_modules/@opentelemetry"));
  symlinkSync(path.join(HERE, "node_modules/@types/node"), path.join(dir, "node_modules/@types/node"));
  // the provider SDKs and the AI SDK of docs/ai.md's scripts, with their dependencies (tests/ai)
  const ai = path.join(ROOT, "tests/ai/node_modules");
  if (!existsSync(path.join(ai, "openai"))) throw new Error("tests/ai/node_modules is missing: run npm ci in tests/ai (scripts/setup.sh)");
  for (const name of readdirSync(ai))
    if (!name.startsWith(".") && !existsSync(path.join(dir, "node_modules", name))) symlinkSync(path.join(ai, name), path.join(dir, "node_modules", name));
  symlinkSync(path.join(HERE, "node_modules/@types/react"), path.join(dir, "node_modules/@types/react"));
}

const dir = mkdtempSync(path.join(tmpdir(), "readme-types-"));
assemble(dir);
const files = []; // { name, block, offset }
const skipped = {};
const used = new Set();
for (const file of READMES) {
  for (const block of blocks(file)) {
    if (!CHECKED.has(block.lang)) {
      if (!SKIPPED.has(block.lang)) throw new Error(`${file}:${block.line - 1}: a \`\`\`${block.lang} block: check it (CHECKED) or say why not (SKIPPED)`);
      skipped[block.lang] = (skipped[block.lang] ?? 0) + 1;
      continue;
    }
    const prelude = PRELUDES[block.key];
    if (prelude !== undefined) used.add(block.key);
    // a block that is a JavaScript file of its own (its first line names it: `// worker.js: …`)
    const js = block.lang !== "ts" && prelude === undefined && /^\/\/ [\w.-]+\.[cm]?js\b/.test(block.text[0] ?? "");
    const ts = !js;
    const name = `block${files.length + 1}.${ts ? "ts" : "mjs"}`;
    const head = prelude === undefined ? [] : prelude.split("\n");
    const tail = POSTLUDES[block.key] ?? "";
    writeFileSync(path.join(dir, name), [...head, ...block.text, tail, "export {};", ""].join("\n"));
    files.push({ name, block, offset: head.length });
  }
}
const stale = Object.keys(PRELUDES).filter((k) => !used.has(k));
if (stale.length) throw new Error(`PRELUDES for blocks that no longer exist: ${stale.join("; ")}`);

writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({
  compilerOptions: {
    strict: true, noEmit: true, allowJs: true, checkJs: true, skipLibCheck: true,
    target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext",
    lib: ["ES2022", "DOM", "DOM.Iterable"], types: ["node"],
  },
  files: files.map((f) => f.name),
}, null, 2));

let output = "";
try {
  execFileSync(path.join(HERE, "node_modules/.bin/tsc"), ["-p", "."], { cwd: dir, encoding: "utf8" });
} catch (e) {
  output = `${e.stdout ?? ""}${e.stderr ?? ""}`;
  if (!output.trim()) throw e;
}
// blockN.ext(line,col): … → README file:line:col: …
const byName = new Map(files.map((f) => [f.name, f]));
const errors = output.trim() ? output.trim().split("\n").map((line) => {
  const m = line.match(/^(block\d+\.(?:ts|mjs))\((\d+),(\d+)\): (.*)$/);
  const f = m && byName.get(m[1]);
  if (!f) return line;
  const at = Number(m[2]) - f.offset;
  const where = at >= 1 && at <= f.block.text.length ? `${f.block.file}:${f.block.line + at - 1}:${m[3]}` : `${f.block.key} (its prelude)`;
  return `${where}: ${m[4]}`;
}) : [];
const summary = `${files.length} README code blocks type-checked (tsc --strict), ${Object.entries(skipped).map(([l, n]) => `${n} ${l}`).join(", ")} blocks skipped`;
if (errors.length) {
  console.error(errors.join("\n"));
  console.error(`${summary}: ${errors.filter((l) => / error TS/.test(l)).length} errors (files kept in ${dir})`);
  process.exit(1);
}
rmSync(dir, { recursive: true, force: true });
console.log(summary);
