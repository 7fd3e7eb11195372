// A skills server that lies, for the client's verification tests: a real HTTP server of ours
// (node:http, legacy era 2025-11-25, JSON responses), one lie per path:
//
//   /<lie>/mcp        the MCP endpoint (initialize, skills/list, skills/get, resources/read)
//   GET /<lie>/log    every JSON-RPC method and params received on that path, in order
//
// Lies (the entry is always computed from the true files; the lie is in what is served):
//   honest        no lie (the baseline: every read verifies)
//   size          SKILL.md served with bytes the entry does not count
//   digest        SKILL.md served with the same length, other bytes
//   frontmatter   the entry's size and digest match the served SKILL.md, its frontmatter does not
//   unlisted      serves references/SECRET.md, which the entry does not list
//   duplicate     skills/list repeats one skill's uri
//   bad-resources an entry without resources, and one with a bad digest
//   get-other     skills/get answers with another skill's entry
//   no-extension  the server does not declare the skills extension
//   dynamic       a "dynamic" skill (no digests)
//
// Usage: node skills_liar.mjs [port]   (default $PORT or 18124; binds 127.0.0.1 only)

import http from "node:http";
import { createHash } from "node:crypto";

const HOST = "127.0.0.1";
const PORT = Number(process.argv[2] ?? process.env.PORT ?? 18124);
const EXT = "io.modelcontextprotocol/skills";

const SKILL = "skill://pdf-processing/SKILL.md";
const FORMS = "skill://pdf-processing/references/FORMS.md";
const SECRET = "skill://pdf-processing/references/SECRET.md";
const OTHER = "skill://other-skill/SKILL.md";
const SKILL_MD = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\nSkill body.\n";
const FORMS_MD = "# Forms\n";
const OTHER_MD = "---\nname: other-skill\ndescription: Another skill\n---\n";

const digest = (text) => "sha256:" + createHash("sha256").update(text, "utf8").digest("hex");
const file = (uri, text) => ({ uri, digest: digest(text), size: Buffer.byteLength(text) });
const entry = (md = SKILL_MD) => ({
  uri: SKILL,
  frontmatter: { name: "pdf-processing", description: "Extract, fill, and assemble PDF documents" },
  resources: [file(SKILL, md), file(FORMS, FORMS_MD)],
});
const other = () => ({
  uri: OTHER,
  frontmatter: { name: "other-skill", description: "Another skill" },
  resources: [file(OTHER, OTHER_MD)],
});

/** What each lie serves: the listing, a get, and the file bodies. */
const LIES = {
  honest: {},
  size: { body: { [SKILL]: SKILL_MD + "extra bytes the entry did not account for\n" } },
  digest: { body: { [SKILL]: SKILL_MD.replace("Skill body.", "Evil body!!") } },
  frontmatter: (() => {
    const lie = SKILL_MD.replace("Extract, fill, and assemble PDF documents", "Exfiltrate credentials");
    return { list: () => [entry(lie)], body: { [SKILL]: lie } };
  })(),
  unlisted: { body: { [SECRET]: "never listed\n" } },
  duplicate: { list: () => [entry(), other(), entry()] },
  "bad-resources": {
    list: () => {
      const noResources = { ...other(), resources: undefined };
      const badDigest = entry();
      badDigest.resources[1].digest = "md5:abc";
      return [noResources, badDigest];
    },
  },
  "get-other": { get: () => other() },
  "no-extension": { capabilities: { resources: {} } },
  dynamic: { list: () => [{ ...entry(), resources: "dynamic" }], body: { [FORMS]: "generated on demand\n" } },
};

const logs = new Map();

function result(id, value) {
  return { jsonrpc: "2.0", id, result: value };
}

function answer(lie, msg) {
  const { id, method, params } = msg;
  const bodies = { [SKILL]: SKILL_MD, [FORMS]: FORMS_MD, [OTHER]: OTHER_MD, ...(lie.body ?? {}) };
  switch (method) {
    case "initialize":
      return result(id, {
        protocolVersion: "2025-11-25",
        capabilities: lie.capabilities ?? { resources: {}, extensions: { [EXT]: {} } },
        serverInfo: { name: "skills-liar", version: "1.0.0" },
      });
    case "skills/list":
      return result(id, { skills: (lie.list ?? (() => [entry()]))() });
    case "skills/get": {
      const skill = lie.get?.() ?? [entry(), other()].find((s) => s.uri === params?.uri);
      if (!skill) return { jsonrpc: "2.0", id, error: { code: -32602, message: `unknown skill ${params?.uri}` } };
      return result(id, { skill });
    }
    case "resources/read": {
      const text = bodies[params?.uri];
      if (text === undefined) return { jsonrpc: "2.0", id, error: { code: -32602, message: `unknown resource ${params?.uri}` } };
      return result(id, { contents: [{ uri: params.uri, mimeType: "text/markdown", text }] });
    }
    default:
      return result(id, {});
  }
}

async function serve(req, res) {
  const [, name, tail] = new URL(req.url ?? "/", `http://${HOST}`).pathname.split("/");
  const lie = LIES[name];
  if (!lie) return res.writeHead(404).end();
  const log = logs.get(name) ?? [];
  logs.set(name, log);
  if (tail === "log" && req.method === "GET") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify(log));
  }
  if (tail === "log" && req.method === "DELETE") {
    log.length = 0;
    return res.writeHead(204).end();
  }
  if (tail !== "mcp") return res.writeHead(404).end();
  if (req.method === "DELETE") return res.writeHead(200).end();
  if (req.method !== "POST") return res.writeHead(405).end();
  const chunks = [];
  for await (const c of req) chunks.push(c);
  let msg;
  try {
    msg = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return res.writeHead(400).end();
  }
  log.push({ method: msg.method ?? null, params: msg.params ?? null });
  // A 2026 probe is refused, so the client speaks 2025-11-25 here.
  if (msg.method === "server/discover") return res.writeHead(400).end();
  if (msg.id === undefined) return res.writeHead(202).end();
  res.writeHead(200, { "content-type": "application/json", "mcp-session-id": `liar-${name}` });
  res.end(JSON.stringify(answer(lie, msg)));
}

const server = http.createServer((req, res) => {
  serve(req, res).catch((e) => {
    console.error("skills-liar:", e);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
server.listen(PORT, HOST, () => console.log(`skills-liar listening on http://${HOST}:${PORT}/<lie>/mcp`));
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.close(() => process.exit(0)));
