// The browser sign-in examples of the docs, run as written in a plain page (an import map pointing
// "mcp-wasm-client" at the unpacked package, no bundler) in headless Chromium against the OAuth
// peer (tests/peers/oauth_server.py): docs/sign-in.md's first example and its callback page, and
// the package README's (pkg-template/README.md, "Sign in (OAuth)"). Only the server URL is
// replaced (https://mcp.example.com/mcp → the peer); the page gives the examples the elements and
// the function they name (signInButton, signOutButton: buttons with those ids; show: records its
// argument), and one line after the README's example hands its `client` to the test. A click on
// Sign in opens the popup, the consent page is approved, the callback page (the doc's block, at
// /oauth/callback.html) hands the URL over and closes, and the example gets signed in.
//
//   node tests/packaging/doc-examples.mjs [PACKAGE_DIR | TARBALL.tgz]   (default pkg/npm)
//
// Prints one line per check and `doc-examples: N passed, M failed`.
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, start, waitAnswering } from "../e2e/lib.mjs";
import { checks } from "./checks.mjs";
import { placePackage, serveStatic } from "./serve.mjs";
import { approveConsent, closeAll } from "./page-tests.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const source = path.resolve(process.argv[2] ?? path.join(root, "pkg/npm"));
const port = Number(process.env.DOC_EXAMPLES_PORT ?? 18995);
const MCP = `http://127.0.0.1:${port}/mcp`;

/** The fenced blocks of `lang` in the section of `file` headed `heading` (to the next heading of its level). */
async function blocks(file, heading, lang) {
  const text = await readFile(path.join(root, file), "utf8");
  const at = `\n${text}`.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`${file} has no section ${heading}`);
  const level = heading.match(/^#+/)[0];
  const rest = text.slice(at + heading.length + 1);
  const end = rest.search(new RegExp(`\\n${level} `));
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);
}

const site = await mkdtemp(path.join(tmpdir(), "doc-examples-"));
await placePackage(source, path.join(site, "pkg"));
const IMPORTS = `<script type="importmap">{ "imports": { "mcp-wasm-client": "/pkg/index.js" } }</script>`;
const page = (body) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">\n${IMPORTS}\n${body}`;
const asWritten = (code) => code.replaceAll("https://mcp.example.com/mcp", MCP);
const PRELUDE = `<button id="signInButton">Sign in</button><button id="signOutButton">Sign out</button>
<script>window.show = (value) => { window.__shown = value; };</script>`;

const [signInJs] = await blocks("docs/sign-in.md", "# Sign in (OAuth)", "js");
const [callbackHtml] = await blocks("docs/sign-in.md", "# Sign in (OAuth)", "html");
const [readmeJs] = await blocks("pkg-template/README.md", "## Sign in (OAuth)", "js");
const [readmeCallback] = await blocks("pkg-template/README.md", "## Sign in (OAuth)", "html");
await mkdir(path.join(site, "oauth"));
await writeFile(path.join(site, "doc.html"), page(`${PRELUDE}\n<script type="module">\n${asWritten(signInJs)}\n</script>`));
await writeFile(path.join(site, "readme.html"), page(`${PRELUDE}\n<script type="module">\n${asWritten(readmeJs)}\nwindow.__client = client;\n</script>`));
await writeFile(path.join(site, "oauth/callback.html"), page(callbackHtml));
await writeFile(path.join(site, "oauth/readme-callback.html"), page(readmeCallback));

const { report, done } = checks("doc-examples");

/** Opens `file`, clicks Sign in, approves the consent page in the popup; resolves when it closed. */
async function signIn(context, file) {
  const tab = await context.newPage();
  const problems = [];
  tab.on("pageerror", (e) => problems.push(e.message));
  await tab.goto(`${base}/${file}`);
  const popup = context.waitForEvent("page", { timeout: 30_000 });
  await tab.click("#signInButton");
  await approveConsent(popup);
  return { tab, problems };
}

const peer = start("the OAuth peer", "python3", ["tests/peers/oauth_server.py", "--port", String(port), "--as-port", String(port + 1)]);
const { server, base } = await serveStatic(site);
const browser = await launchChromium();
try {
  await waitAnswering(MCP, peer);
  {
    const context = await browser.newContext();
    const { tab, problems } = await signIn(context, "doc.html");
    await tab.waitForFunction(() => window.__shown !== undefined, null, { timeout: 60_000 });
    const shown = await tab.evaluate(() => window.__shown);
    report("docs/sign-in.md's first example and callback page, as written: Sign in → consent → show({ issuer, scope, expiresAt })",
      typeof shown?.issuer === "string" && typeof shown?.expiresAt === "number" && !problems.length, { shown, problems });
    await tab.click("#signOutButton");
    await context.close();
  }
  {
    // The README's callback block is the same page (checked here), served at its own path for its example.
    const same = readmeCallback.replace(/\s+/g, " ").includes("completeAuthorizationPopup();");
    await writeFile(path.join(site, "oauth/callback.html"), page(readmeCallback));
    const context = await browser.newContext();
    const { tab, problems } = await signIn(context, "readme.html");
    await tab.waitForFunction(() => window.__client?.authorization != null, null, { timeout: 60_000 });
    const authorization = await tab.evaluate(() => window.__client.authorization);
    const whoami = await tab.evaluate(async () => (await window.__client.callTool("whoami", {})).content?.[0]?.text);
    report("the package README's example and callback page, as written: Sign in → consent → signed in, calls carry the token",
      same && typeof authorization?.issuer === "string" && typeof whoami === "string" && !problems.length, { authorization, whoami, problems });
    await context.close();
  }
} catch (e) {
  report(`the examples ran: ${e.message}`, false);
} finally {
  await closeAll({ browser, server, site });
}
process.exit(done());
