// client.skills (the io.modelcontextprotocol/skills extension) of the built package in Node, against
// two servers this file starts and stops by PID (also on failure):
//   - tests/peers/ts2_skills_server.mjs: the TypeScript SDK 2.x server with its skills extension over
//     tests/peers/skills/ (one skill per skills/list page, directoryRead on), in both eras;
//   - tests/peers/skills_liar.mjs: our server that lies about sizes, digests, listings, frontmatter,
//     duplicate uris, bad entries and skills/get, and records every request it receives.
//
//   Env: MCP_PKG_NODE (tests/js/peers.mjs); SKILLS_TS2_PORT (default 18123), SKILLS_LIAR_PORT (18124).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { pkg, rejection } from "./peers.mjs";

const { Client } = pkg;
const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.join(here, "../peers");
const TS2_PORT = Number(process.env.SKILLS_TS2_PORT ?? 18123);
const LIAR_PORT = Number(process.env.SKILLS_LIAR_PORT ?? 18124);
const TS2 = `http://127.0.0.1:${TS2_PORT}/mcp`;
const liar = (lie) => `http://127.0.0.1:${LIAR_PORT}/${lie}/mcp`;
const liarLog = async (lie) => (await fetch(`http://127.0.0.1:${LIAR_PORT}/${lie}/log`)).json();
const onDisk = (rel) => readFileSync(path.join(peers, "skills", rel));

const PDF = "skill://pdf-processing/SKILL.md";
const children = [];

/** Starts a peer and waits until it answers HTTP. */
async function start(script, port) {
  const child = spawn(process.execPath, [path.join(peers, script), String(port)], { stdio: ["ignore", "ignore", "inherit"] });
  children.push(child);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${script} did not listen on ${port} within 15 s`);
}

const stopAll = () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
};
process.on("exit", stopAll);
before(async () => {
  await start("ts2_skills_server.mjs", TS2_PORT);
  await start("skills_liar.mjs", LIAR_PORT);
});
after(stopAll);

async function connected(url, options = {}) {
  const client = new Client(url, { timeoutMs: 10_000, ...options });
  await client.connect();
  return client;
}

/** A rejection's data.kind and data.reason. */
async function refusal(p) {
  const e = await rejection(p);
  return { kind: e.data?.kind, reason: e.data?.reason, message: e.message, data: e.data };
}

for (const mode of ["auto", "legacy"]) {
  test(`TS2 skills server (${mode}): list walks every page, get, read relative / binary / by URI, readDirectory`, async (t) => {
    const client = await connected(TS2, { mode });
    t.after(() => client.close());
    assert.equal(client.era, mode === "auto" ? "modern" : "legacy");
    assert.equal(client.skills.supported, true);
    assert.equal(client.skills.directoryRead, true);

    const listing = await client.skills.list();
    assert.deepEqual(listing.skills.map((s) => s.uri).sort(), [
      "skill://code-review/SKILL.md",
      PDF,
      "skill://release-notes/SKILL.md",
    ]);
    assert.deepEqual(listing.invalid, []);
    assert.equal(listing.nextCursor, undefined);
    if (mode === "auto") assert.equal(typeof listing.ttlMs, "number");

    // One page when given a cursor: the server's page size is 1.
    const first = await client.request("skills/list", {});
    assert.equal(first.skills.length, 1);
    const second = await client.skills.list({ cursor: first.nextCursor });
    assert.equal(second.skills.length, 1);
    assert.notEqual(second.skills[0].uri, first.skills[0].uri);
    assert.equal(typeof second.nextCursor, "string");

    const { skill } = await client.skills.get(PDF);
    assert.equal(skill.uri, PDF);
    assert.equal(skill.frontmatter.metadata.version, "1.0");

    const manifest = await client.skills.read(skill);
    assert.equal(manifest.uri, PDF);
    assert.equal(manifest.verified, true);
    assert.equal(manifest.text, onDisk("pdf-processing/SKILL.md").toString("utf8"));
    assert.deepEqual(manifest.frontmatter, skill.frontmatter);
    assert.match(manifest.body, /^# PDF processing/);

    const forms = await client.skills.read(skill, "references/FORMS.md");
    assert.ok(forms.bytes instanceof Uint8Array);
    assert.deepEqual(Buffer.from(forms.bytes), onDisk("pdf-processing/references/FORMS.md"));
    assert.equal(forms.text, onDisk("pdf-processing/references/FORMS.md").toString("utf8"));
    assert.equal(forms.frontmatter, undefined);

    const logo = await client.skills.read(skill, "assets/logo.bin");
    assert.deepEqual(Buffer.from(logo.bytes), onDisk("pdf-processing/assets/logo.bin"));
    assert.equal(logo.verified, true);

    // By URI alone: the skill this client got lists it.
    const notes = await client.skills.read("skill://pdf-processing/scripts/nested/notes.txt");
    assert.equal(Buffer.from(notes.bytes).toString("utf8"), "Nested two directories down.\n");

    const dir = await client.skills.readDirectory("skill://pdf-processing");
    const byName = Object.fromEntries(dir.resources.map((r) => [r.uri, r.mimeType]));
    assert.equal(byName["skill://pdf-processing/references"], "inode/directory");
    assert.equal(byName["skill://pdf-processing/scripts"], "inode/directory");
    assert.ok("skill://pdf-processing/SKILL.md" in byName);
    assert.ok(!("skill://pdf-processing/references/FORMS.md" in byName), "direct children only");

    const unlisted = await refusal(client.skills.read(skill, "references/NOPE.md"));
    assert.deepEqual([unlisted.kind, unlisted.reason], ["skill_verification", "unlisted"]);
    const wrong = await refusal(client.skills.get("skill://nope/SKILL.md"));
    assert.equal(wrong.data?.local, undefined, "the server's own -32602 error");
  });
}

test("an honest entry verifies; every lie fails with its reason, and nothing after SKILL.md is read", async () => {
  const honest = await connected(liar("honest"));
  const { skills } = await honest.skills.list();
  assert.equal((await honest.skills.read(skills[0])).verified, true);
  assert.equal((await honest.skills.read(skills[0], "references/FORMS.md")).text, "# Forms\n");
  await honest.close();

  for (const lie of ["size", "digest", "frontmatter"]) {
    const client = await connected(liar(lie));
    const [skill] = (await client.skills.list()).skills;
    const e = await refusal(client.skills.read(skill));
    assert.deepEqual([e.kind, e.reason, e.data.uri], ["skill_verification", lie, PDF], `${lie}: ${e.message}`);
    if (lie === "frontmatter") assert.match(e.data.differences[0], /^description: the entry has "Extract/);
    const reads = (await liarLog(lie)).filter((m) => m.method === "resources/read");
    assert.deepEqual(reads.map((m) => m.params.uri), [PDF]);
    await client.close();
  }
});

test("an unlisted file is refused before any request, by relative path and by URI", async () => {
  const client = await connected(liar("unlisted"));
  const [skill] = (await client.skills.list()).skills;
  const secret = "skill://pdf-processing/references/SECRET.md";
  for (const attempt of [client.skills.read(skill, "references/SECRET.md"), client.skills.read(secret), client.skills.read(skill, "../other-skill/SKILL.md")]) {
    const e = await refusal(attempt);
    assert.deepEqual([e.kind, e.reason], ["skill_verification", "unlisted"], e.message);
  }
  const stranger = await connected(liar("unlisted"));
  const e = await refusal(stranger.skills.read("skill://pdf-processing/references/FORMS.md"));
  assert.equal(e.reason, "unlisted", "a client that never listed the skill holds no entry for it");
  assert.deepEqual((await liarLog("unlisted")).filter((m) => m.method === "resources/read"), []);
  await client.close();
  await stranger.close();
});

test("invalid entries: list throws naming them, skipInvalid returns them in invalid", async () => {
  const dup = await connected(liar("duplicate"));
  const e = await refusal(dup.skills.list());
  assert.equal(e.kind, "protocol");
  assert.deepEqual(e.data.invalid.map((i) => i.index), [0, 2]);
  assert.match(e.message, /listed more than once/);
  const skipped = await dup.skills.list({ skipInvalid: true });
  assert.deepEqual(skipped.skills.map((s) => s.uri), ["skill://other-skill/SKILL.md"]);
  assert.equal(skipped.invalid.length, 2);
  await dup.close();

  const bad = await connected(liar("bad-resources"));
  const { skills, invalid } = await bad.skills.list({ skipInvalid: true });
  assert.deepEqual(skills, []);
  assert.match(invalid[0].reason, /resources must be an array of files or "dynamic"/);
  assert.match(invalid[1].reason, /resources\[1\].*digest/);
  const entry = (await bad.request("skills/list", {})).skills[1];
  const refused = await refusal(bad.skills.read(entry));
  assert.equal(refused.kind, "input", "a caller's invalid entry is refused before any request");
  await bad.close();
});

test("skills/get answering with another skill is refused", async () => {
  const client = await connected(liar("get-other"));
  const e = await refusal(client.skills.get(PDF));
  assert.equal(e.kind, "protocol");
  assert.match(e.message, /skills\/get for skill:\/\/pdf-processing\/SKILL.md returned skill:\/\/other-skill\/SKILL.md/);
  await client.close();
});

test("a server without the extension: list is empty, get/read/readDirectory are unsupported without a request", async () => {
  const client = await connected(liar("no-extension"));
  assert.equal(client.skills.supported, false);
  assert.deepEqual(await client.skills.list(), { skills: [], invalid: [] });
  assert.equal((await refusal(client.skills.get(PDF))).kind, "unsupported");
  assert.equal((await refusal(client.skills.readDirectory("skill://pdf-processing"))).kind, "unsupported");
  const methods = (await liarLog("no-extension")).map((m) => m.method);
  assert.ok(!methods.some((m) => m.startsWith("skills/") || m.startsWith("resources/")), methods.join(", "));
  await client.close();
  const honest = await connected(liar("honest"));
  assert.equal(honest.skills.directoryRead, false);
  assert.equal((await refusal(honest.skills.readDirectory("skill://pdf-processing"))).kind, "unsupported");
  await honest.close();
});

test("a dynamic skill: reads are unverified, its SKILL.md frontmatter is still checked", async () => {
  const client = await connected(liar("dynamic"));
  const [skill] = (await client.skills.list()).skills;
  assert.equal(skill.resources, "dynamic");
  const generated = await client.skills.read(skill, "references/FORMS.md");
  assert.deepEqual([generated.verified, generated.text], [false, "generated on demand\n"]);
  const manifest = await client.skills.read(skill);
  assert.equal(manifest.verified, false);
  assert.equal(manifest.frontmatter.name, "pdf-processing");
  await client.close();
});

test("bad arguments are input errors", async () => {
  const client = await connected(liar("honest"));
  assert.equal((await refusal(client.skills.get(""))).kind, "input");
  assert.equal((await refusal(client.skills.read({ uri: "nope" }))).kind, "input");
  assert.equal((await refusal(client.skills.list({ skipInvalid: "yes" }))).kind, "input");
  await client.close();
});

test("the README's skills example runs as written", () => {
  const root = path.join(here, "../..");
  const readme = readFileSync(path.join(root, "docs/client.md"), "utf8");
  const start = readme.indexOf("## Skills (");
  const example = /```js\n([\s\S]*?)```/.exec(readme.slice(start))?.[1];
  assert.ok(start >= 0 && example, "docs/client.md has a Skills section with an example");
  const code = example
    .replace('from "mcp-wasm-client"', `from ${JSON.stringify(path.join(path.resolve(root, process.env.MCP_PKG_NODE ?? "pkg/nodejs"), "mcp_wasm_client.js"))}`)
    .replace("http://127.0.0.1:18123/mcp", TS2);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "readme-skills-")), "example.mjs");
  writeFileSync(file, code);
  const out = execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 30_000 });
  assert.match(out, /^Extract text and tables from PDF files, fill forms, merge documents\. true$/m);
  assert.match(out, /^# Forms 19 bytes$/m);
  assert.match(out, /skill:\/\/pdf-processing\/references/);
});

test("the core entry leaves skills out: client.skills keeps its names and each call names the full entry", async (t) => {
  const corePath = process.env.MCP_PKG_NODE_CORE ?? path.join(here, "../../pkg/core-nodejs");
  const core = createRequire(import.meta.url)(corePath);
  const client = new core.Client(TS2, { timeoutMs: 10_000 });
  await client.connect();
  t.after(() => client.close());
  assert.equal(client.skills.supported, false);
  assert.equal(client.skills.directoryRead, false);
  for (const call of [client.skills.list(), client.skills.get(PDF), client.skills.read(PDF), client.skills.readDirectory("skill://x")]) {
    const e = await rejection(call).catch((e) => e);
    assert.equal(e.data?.kind, "input");
    assert.match(e.message, /^skills\.\w+ needs the skills extension, which mcp-wasm-client\/core leaves out/);
  }
});
