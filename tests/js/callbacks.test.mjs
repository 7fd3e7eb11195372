// Server → client requests answered through the callbacks, on both eras, against real peers.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { pkg, PY, TS, EVERYTHING, fault, rejection, text } from "./peers.mjs";

const { Client, McpError } = pkg;

const accept = (name) => async (_ctx, _params) => ({ action: "accept", content: { name } });
const sampling = async (_ctx, params) => ({
  role: "assistant",
  content: { type: "text", text: `sampled ${params.messages.length} message(s)` },
  model: "test-llm",
});
const roots = async () => ({ roots: [{ uri: "file:///home/ada/notebooks", name: "notebooks" }] });

async function connected(url, options) {
  const c = new Client(url, options);
  await c.connect();
  return c;
}

const eras = [
  ["Python modern", PY, "auto", "modern"],
  ["Python legacy", PY, "legacy", "legacy"],
  ["TypeScript legacy", TS, "auto", "legacy"],
];

for (const [name, url, mode, era] of eras) {
  describe(`callbacks: ${name}`, () => {
    test("elicitation accept issues the card (the README example)", async () => {
      const seen = [];
      const c = await connected(url, {
        mode,
        elicitationCallback: async (ctx, params) => {
          seen.push({ ctx, params });
          return { action: "accept", content: { name: "Ada Lovelace" } };
        },
      });
      assert.equal(c.era, era);
      const r = await c.callTool("issue_card", {});
      assert.equal(text(r), "Card issued to Ada Lovelace.");
      assert.equal(seen.length, 1);
      assert.equal(seen[0].params.message, "What name should go on the card?");
      assert.deepEqual(seen[0].params.requestedSchema.required, ["name"]);
      assert.ok(seen[0].ctx.signal instanceof AbortSignal);
      assert.equal(seen[0].ctx.signal.aborted, false);
      if (era === "modern") assert.match(seen[0].ctx.requestId, /ask_card_holder/);
      else assert.ok(["number", "string"].includes(typeof seen[0].ctx.requestId));
      await c.close();
    });

    test("decline and cancel", async () => {
      for (const action of ["decline", "cancel"]) {
        const c = await connected(url, { mode, elicitationCallback: async () => ({ action }) });
        assert.equal(text(await c.callTool("issue_card", {})), "No card issued.");
        await c.close();
      }
    });

    test("declared capabilities are exactly the registered callbacks", async () => {
      const features = async (options) => {
        const c = await connected(url, { mode, ...options });
        const r = await c.callTool("client_features", {});
        await c.close();
        const list = r.structuredContent?.result ?? JSON.parse(text(r));
        return [...list].sort();
      };
      assert.deepEqual(await features({}), []);
      assert.deepEqual(await features({ elicitationCallback: accept("x") }), ["elicitation"]);
      assert.deepEqual(
        await features({ elicitationCallback: accept("x"), samplingCallback: sampling, listRootsCallback: roots }),
        ["elicitation", "roots", "sampling"],
      );
    });

    test("sampling and roots callbacks answer", async () => {
      const c = await connected(url, { mode, samplingCallback: sampling, listRootsCallback: roots });
      assert.match(text(await c.callTool("ask_llm", { topic: "owls" })), /test-llm: sampled 1 message/);
      assert.match(text(await c.callTool("list_roots", {})), /file:\/\/\/home\/ada\/notebooks/);
      await c.close();
    });

    test("a throwing callback fails the call and the client stays usable", async () => {
      const c = await connected(url, {
        mode,
        elicitationCallback: async () => {
          throw new Error("the form exploded");
        },
      });
      let outcome;
      try {
        outcome = await c.callTool("issue_card", {});
      } catch (e) {
        outcome = e;
      }
      if (era === "modern") {
        assert.ok(outcome instanceof McpError, "modern: fails locally");
        assert.equal(outcome.code, -32603);
        assert.match(outcome.message, /the form exploded/);
      } else {
        // Legacy: the error is the JSON-RPC response to the server, whose tool then fails.
        const msg = outcome instanceof McpError ? outcome.message : text(outcome);
        assert.ok(outcome instanceof McpError || outcome.isError, JSON.stringify(outcome));
        assert.match(msg, /the form exploded|error/i);
      }
      assert.equal(text(await c.callTool("echo", { text: "still here" })), "still here");
      await c.close();
    });

    test("an invalid accepted form is refused in the client", async () => {
      const c = await connected(url, { mode, elicitationCallback: async () => ({ action: "accept", content: { name: 42 } }) });
      let outcome;
      try {
        outcome = await c.callTool("issue_card", {});
      } catch (e) {
        outcome = e;
      }
      const msg = outcome instanceof McpError ? outcome.message : text(outcome);
      if (era === "modern") assert.match(msg, /name must be a string/);
      else assert.ok(outcome instanceof McpError || outcome.isError);
      await c.close();
    });

    test("a callback that never resolves is released by aborting the call", async () => {
      let signalSeen;
      const c = await connected(url, {
        mode,
        elicitationCallback: (ctx) => {
          signalSeen = ctx.signal;
          return new Promise(() => {});
        },
      });
      const ac = new AbortController();
      setTimeout(() => ac.abort("gave up"), 300);
      const e = await rejection(c.callTool("issue_card", {}, { signal: ac.signal }));
      assert.equal(e.code, -32010);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(signalSeen.aborted, true, "the callback's context.signal fired");
      assert.equal(text(await c.callTool("echo", { text: "after" })), "after");
      await c.close();
    });

    test("time spent in a callback does not count against timeoutMs", async () => {
      const c = await connected(url, {
        mode,
        timeoutMs: 400,
        elicitationCallback: async () => {
          await new Promise((r) => setTimeout(r, 1500));
          return { action: "accept", content: { name: "Slow Typist" } };
        },
      });
      assert.equal(text(await c.callTool("issue_card", {})), "Card issued to Slow Typist.");
      await c.close();
    });

    test("two concurrent calls each wait on their own elicitation", async () => {
      let n = 0;
      const c = await connected(url, {
        mode,
        elicitationCallback: async () => {
          const mine = ++n;
          await new Promise((r) => setTimeout(r, mine === 1 ? 300 : 50));
          return { action: "accept", content: { name: `person ${mine}` } };
        },
      });
      const [a, b] = await Promise.all([c.callTool("issue_card", {}), c.callTool("issue_card", {})]);
      assert.deepEqual([text(a), text(b)].sort(), ["Card issued to person 1.", "Card issued to person 2."]);
      await c.close();
    });
  });
}

describe("missing callbacks", () => {
  test("legacy: the server's request is refused with 'Elicitation not supported'", async () => {
    const c = await connected(PY, { mode: "legacy" });
    let outcome;
    try {
      outcome = await c.callTool("issue_card_legacy", {});
    } catch (e) {
      outcome = e;
    }
    const msg = outcome instanceof McpError ? outcome.message : text(outcome);
    assert.match(msg, /Elicitation not supported/);
    await c.close();
  });

  test("modern: a compliant server refuses up front with -32021", async () => {
    const c = await connected(PY, { mode: "auto" });
    const e = await rejection(c.callTool("issue_card", {}));
    assert.equal(e.code, -32021);
    assert.deepEqual(Object.keys(e.data.requiredCapabilities), ["elicitation"]);
    await c.close();
  });

  test("modern: an input request without a callback fails locally", async () => {
    const c = await connected(fault("mrtr-3"), { mode: "2026-07-28" });
    const e = await rejection(c.callTool("x", {}));
    assert.equal(e.code, -32600);
    assert.equal(e.message, "Elicitation not supported");
    await c.close();
  });
});

describe("multi round-trip (2026)", () => {
  test("three rounds: elicitation with defaults, roots, then a state-only round", async () => {
    const c = await connected(fault("mrtr-3"), {
      mode: "2026-07-28",
      elicitationCallback: accept("Ada"),
      listRootsCallback: roots,
    });
    const r = await c.callTool("x", {});
    assert.equal(r.isError, undefined, text(r));
    const answers = JSON.parse(text(r));
    assert.deepEqual(answers.ask_name, { action: "accept", content: { name: "Ada", tries: 3 } });
    assert.equal(answers.ask_roots.roots[0].uri, "file:///home/ada/notebooks");
    await c.close();
  });

  test("the rounds limit stops a server that never finishes", async () => {
    const c = await connected(fault("mrtr-forever"), { mode: "2026-07-28", inputRequiredMaxRounds: 3 });
    const e = await rejection(c.callTool("x", {}));
    assert.equal(e.code, -32603);
    assert.match(e.message, /after 3 rounds/);
    await c.close();
  });
});

describe("legacy extras", () => {
  test("server-everything: the roots request it sends after initialize reaches listRootsCallback", async () => {
    let asked = 0;
    const c = await connected(EVERYTHING, {
      listRootsCallback: async () => {
        asked++;
        return { roots: [{ uri: "file:///srv/project", name: "project" }] };
      },
    });
    for (let i = 0; i < 50 && asked === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(asked >= 1, "roots/list arrived on the GET stream and was answered");
    await c.close();
  });

  test("setLoggingLevel and logging callback; modern sessions refuse legacy-only calls", async () => {
    const logs = [];
    const c = await connected(EVERYTHING, { loggingCallback: (p) => logs.push(p) });
    assert.deepEqual(await c.setLoggingLevel("debug"), {});
    await c.sendRootsListChanged();
    await c.close();
    const m = await connected(PY, { mode: "auto" });
    const e = await rejection(m.setLoggingLevel("debug"));
    assert.match(e.message, /only in the legacy era/);
    await m.close();
  });
});

/** A valid answer for any elicitation form: defaults, else a sample of the right type/format. */
function fillForm(schema) {
  const content = {};
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    if (p.default !== undefined) continue; // the client fills defaults in (SEP-1034)
    const options = p.enum ?? p.oneOf?.map((o) => o.const);
    if (p.type === "array") content[name] = [(p.items?.enum ?? p.items?.anyOf?.map((o) => o.const))[0]];
    else if (options) content[name] = options[0];
    else if (p.type === "boolean") content[name] = true;
    else if (p.type === "integer" || p.type === "number") content[name] = p.minimum ?? 1;
    else if (p.format === "email") content[name] = "ada@example.org";
    else if (p.format === "date") content[name] = "1815-12-10";
    else if (p.format === "date-time") content[name] = "1815-12-10T08:00:00Z";
    else if (p.format === "uri") content[name] = "https://example.org/ada";
    else content[name] = "x".repeat(Math.max(p.minLength ?? 1, 1));
  }
  return content;
}

describe("server-everything callbacks (legacy)", () => {
  test("trigger-elicitation-request: a form with every field kind, accepted with defaults filled", async () => {
    let schema;
    const c = await connected(EVERYTHING, {
      elicitationCallback: async (_ctx, params) => {
        schema = params.requestedSchema;
        return { action: "accept", content: fillForm(schema) };
      },
    });
    const r = await c.callTool("trigger-elicitation-request", {});
    const all = r.content.map((b) => b.text).join("\n");
    assert.match(all, /"action": "accept"/);
    for (const [name, p] of Object.entries(schema.properties)) {
      if (p.default !== undefined) assert.match(all, new RegExp(`"${name}"`), `default of ${name} was sent`);
    }
    await c.close();
  });

  test("trigger-url-elicitation: URL mode reaches the callback, which the client never opens itself", async () => {
    let seen;
    const c = await connected(EVERYTHING, {
      elicitationCallback: async (_ctx, params) => {
        seen = params;
        return { action: "decline" };
      },
    });
    await c.callTool("trigger-url-elicitation", { url: "https://example.org/connect" });
    assert.equal(seen.mode, "url");
    assert.equal(seen.url, "https://example.org/connect");
    await c.close();
  });

  test("trigger-sampling-request and get-roots-list", async () => {
    const c = await connected(EVERYTHING, { samplingCallback: sampling, listRootsCallback: roots });
    assert.match(text(await c.callTool("trigger-sampling-request", { prompt: "hello", maxTokens: 10 })), /sampled 1 message/);
    assert.match(text(await c.callTool("get-roots-list", {})), /file:\/\/\/home\/ada\/notebooks/);
    await c.close();
  });

  test("toggle-simulated-logging: log messages reach loggingCallback and messageHandler", async () => {
    const logs = [];
    const messages = [];
    const c = await connected(EVERYTHING, { loggingCallback: (p) => logs.push(p), messageHandler: (m) => messages.push(m) });
    await c.setLoggingLevel("debug");
    await c.callTool("toggle-simulated-logging", {});
    for (let i = 0; i < 140 && logs.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(logs.length >= 1, "a notifications/message arrived");
    assert.equal(typeof logs[0].level, "string");
    assert.ok(messages.some((m) => m.method === "notifications/message"));
    await c.callTool("toggle-simulated-logging", {});
    await c.close();
  });
});

describe("logging and errors thrown by callbacks", () => {
  for (const [mode, era] of [["auto", "modern"], ["legacy", "legacy"]]) {
    test(`${era}: ctx.info() reaches loggingCallback (2026 only when logLevel asks)`, async () => {
      const logs = [];
      const c = await connected(PY, { mode, logLevel: "info", loggingCallback: (p) => logs.push(p) });
      if (era === "legacy") await c.setLoggingLevel("info").catch(() => {});
      assert.equal(text(await c.callTool("log_it", { text: "hello log" })), "logged");
      for (let i = 0; i < 20 && logs.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(logs.some((l) => l.level === "info" && JSON.stringify(l.data).includes("hello log")), JSON.stringify(logs));
      await c.close();
    });
  }

  test("modern: without logLevel a 2026 server sends no log messages", async () => {
    const logs = [];
    const c = await connected(PY, { mode: "auto", loggingCallback: (p) => logs.push(p) });
    assert.equal(text(await c.callTool("log_it", { text: "quiet" })), "logged");
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(logs, []);
    await c.close();
  });

  test("an McpError thrown by a callback keeps its code and data (2026: the call fails locally)", async () => {
    const c = await connected(fault("mrtr-3"), {
      mode: "2026-07-28",
      elicitationCallback: () => {
        throw new McpError(-32099, "user walked away", { why: "coffee" });
      },
    });
    const e = await rejection(c.callTool("x", {}));
    assert.equal(e.code, -32099);
    assert.equal(e.message, "user walked away");
    assert.deepEqual(e.data, { why: "coffee" });
    await c.close();
  });
});
