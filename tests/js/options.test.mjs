// new Client's options as the facade checks them (src/js/api/client.js) before the core reads the
// values: the target, every option's name with "did you mean", the shapes the core takes as given
// (the URL, headers, listChanged, reconnection, cache), each error the McpError the core made
// before (kind "input", thrown synchronously, its stack at the caller); and the core's own
// refusal of what only the facade could have let through.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { pkg, PY } from "./peers.mjs";
import { unknownOption } from "../../src/js/boundary/error.js";

const { Client, ClientCore, McpError, inMemoryPair } = pkg;
const f = () => {};
const store = { get: f, set: f, delete: f, clear: f };

describe("unknownOption: the closest known name", () => {
  const KNOWN = ["timeoutMs", "maxTotalTimeoutMs", "samplingCallback", "samplingCapabilities", "mode"];
  const near = (word) => /did you mean (.*)\?$/.exec(unknownOption("options", word, KNOWN, "a call"))?.[1];

  test("the same name in another case, a name it starts, or one close by Jaro-Winkler", () => {
    assert.equal(near("timeout"), "timeoutMs");
    assert.equal(near("TIMEOUTMS"), "timeoutMs");
    assert.equal(near("timeoutMS"), "timeoutMs");
    assert.equal(near("samplingCalback"), "samplingCallback");
    assert.equal(near("sampling"), "samplingCallback");
    assert.equal(near("mdoe"), "mode");
    assert.equal(near("timeot"), "timeoutMs");
    assert.equal(near("maxTotalTimeout"), "maxTotalTimeoutMs");
    for (const word of ["zzz", "odd key", "url", "x", ""]) assert.equal(near(word), undefined, word);
  });

  test("no close name lists them all; a key that is not a plain name is quoted", () => {
    assert.equal(unknownOption("options", "zzz", "a,b", "x"), "options.zzz is not an option of x (its options: a, b)");
    assert.equal(unknownOption("options", 'a "b"\n\u001b', ["a"], "x"), 'options["a \\"b\\"\\n\\u{1b}"] is not an option of x (its options: a)');
  });
});

describe("new Client: the facade's checks", () => {
  const U = "http://127.0.0.1:1/mcp";
  const cases = [
    [[5], "Client needs a URL (a string or URL object: an absolute http: or https: URL) or an options object with transport"],
    [["ftp://x/"], "Client url \"ftp://x/\" must be http: or https:, not ftp:"],
    [["/mcp"], "Client url \"/mcp\" is not an absolute URL"],
    [[U, 5], "Client options must be an object"],
    [[U, { transport: {} }], "options.transport cannot be combined with a URL: pass new Client({ transport, ...options })"],
    [[{ mode: "legacy" }], "Client options without a URL need transport: new Client({ transport: messagePortTransport(port) }) or new Client(url, options)"],
    [[{ transport: inMemoryPair()[0] }, []], "Client options must be an object"],
    [[{ transport: inMemoryPair()[0], mode: "legacy" }, { mode: "auto" }], "Client option mode is given twice (in the first and the second argument); give it once"],
    [[{ transport: inMemoryPair()[0], headers: {} }], "options.headers applies to Streamable HTTP only; a transport object carries the messages itself"],
    [[U, { timeot: 1 }], "options.timeot is not an option of new Client(): did you mean timeoutMs?"],
    [[U, { listChanged: [] }], "options.listChanged must be an object: { autoRefresh: boolean }"],
    [[U, { listChanged: { auto: false } }], "options.listChanged.auto is not an option of listChanged: did you mean autoRefresh?"],
    [[U, { cache: "x" }], "options.cache must be a boolean or an object { store?, partition?, mode? }"],
    [[U, { cache: { stor: store } }], "options.cache.stor is not an option of cache: did you mean store?"],
    [[U, { cache: { store: { get: f, clear: f } } }], "options.cache.store must have the methods get, set, delete and clear (missing: set, delete)"],
    [[U, { headers: { "x-a": 5 } }], 'options.headers["x-a"] must be a string'],
    [[U, { headers: [["x-a", "1"], 5] }], "options.headers must be an object of header names to string values, a Headers, or [name, value] pairs"],
    [[U, { reconnection: 5 }], "options.reconnection must be an object: { initialDelayMs?, maxDelayMs? }"],
    [[U, { reconnection: { initialDelay: 5 } }], "options.reconnection.initialDelay is not an option of reconnection: did you mean initialDelayMs?"],
  ];
  for (const [args, message] of cases)
    test(message, () => {
      let thrown;
      try {
        new Client(...args);
      } catch (e) {
        thrown = e;
      }
      assert.ok(thrown instanceof McpError, String(thrown));
      assert.equal(thrown.message, message);
      assert.equal(thrown.code, -32602);
      assert.deepEqual(thrown.data, { local: true, kind: "input" });
      assert.match(thrown.stack.split("\n")[1], /options\.test\.mjs/, "the stack starts at the caller");
    });

  test("what the facade passes the core works: a URL object, headers as fetch takes them, a store", () => {
    for (const options of [{ headers: new Headers({ a: "b" }) }, { headers: new Map([["a", "b"]]) }, { cache: { store, partition: "p" } }, {}])
      assert.equal(new Client(new URL(PY), options).state, "idle");
    assert.equal(new Client({ transport: inMemoryPair()[0] }, { mode: "legacy" }).state, "idle");
  });

  test("the core made without the facade refuses what only the facade checks", () => {
    assert.throws(() => new ClientCore(PY, { headers: { a: "b" } }), (e) => /^options\.headers is not what new Client passes/.test(e.message));
    assert.throws(() => new ClientCore(PY, { reconnection: 5 }), (e) => /^options\.reconnection is not what new Client passes/.test(e.message));
  });
});
