// Wrong argument types at every entry point of the package, as one table of cases that runs
// unchanged in Node (pkg/nodejs) and in a browser (pkg/web): no imports but its own parts (the
// surface in boundary-cases-surface.mjs, the expectations in boundary-cases-checks.mjs, the auth
// cases in boundary-cases-auth.mjs), no host APIs beyond URL, Symbol and WebAssembly.
//
// What it proves: every export, constructor and Client method (on a Client never connected and on
// a connected legacy session, where the legacy-only methods reach their argument checks), every
// options field, and the McpError constructor, given undefined, null, a number, a plain object, a
// Symbol, an array, or for a string a URL object, throws or rejects with an McpError (instanceof
// McpError, name "McpError", numeric code, data.kind "input" for a bad argument) or applies a
// coercion the API promises: a URL object (anything with a string `href`) works as the Client's
// URL, and McpError coerces its message the way Error does. Never a WebAssembly trap
// (RuntimeError), never a plain TypeError; and after all of it the same instance still connects a
// fresh Client and calls a tool (a trap poisons the instance).
//
//   caseNames()                      the case names, in run order (no package needed)
//   runBoundaryCases(mod, url)       → { [name]: { ok, outcome, detail } } in the same order;
//                                    mod: the package's exports; url: a real peer that answers
//                                    CORS and speaks both eras (the Python peer)
import { WRONG, KINDS, CALL_OPTION_FIELDS, CALL_TOOL_OPTION_FIELDS, LIST_OPTION_FIELDS, CLIENT_OPTION_FIELDS, METHODS, CLIENT_GETTERS, TASK_METHODS, MCP_ERROR_GETTERS, EXPORTS, SCHEMA } from "./boundary-cases-surface.mjs";
import { withTimeout, attempt, show, describeOutcome, inputError, beforeConnectError, anyMcpError, succeeds, mcpErrorOr, noTrap, expectationFor, cleanup } from "./boundary-cases-checks.mjs";
import { authCases } from "./boundary-cases-auth.mjs";

// ---- the cases ---------------------------------------------------------------------------------

const argsWith = (valid, pos, value) => {
  const args = valid.slice(0, pos);
  while (args.length < pos) args.push(undefined);
  args.push(value);
  return args;
};

function methodCases(phase) {
  const out = [];
  const tag = phase === "before" ? "[never connected]" : "[connected, legacy]";
  const clientOf = (ctx) => (phase === "before" ? ctx.unconnected : ctx.connected);
  const expectFor = (spec, method) => (phase === "before" ? beforeConnectError : expectationFor(spec, method));
  for (const [method, { params, valid }] of Object.entries(METHODS)) {
    params.forEach(([param, kind], pos) => {
      const call = (args) => (ctx) => clientOf(ctx)[method](...args(ctx));
      if (kind === "callOptions" || kind === "listOptions") {
        for (const [key, spec] of Object.entries(KINDS.options)) {
          const [label, make] = WRONG[key];
          out.push({
            name: `Client.${method}: ${param} = ${label} ${tag}`,
            run: call(() => argsWith(valid, pos, make())),
            expect: expectFor(spec, method),
          });
        }
        let fields = kind === "listOptions" ? [...CALL_OPTION_FIELDS, ...LIST_OPTION_FIELDS] : CALL_OPTION_FIELDS;
        if (method === "callTool") fields = [...fields, ...CALL_TOOL_OPTION_FIELDS];
        for (const [field, label, make] of fields) {
          out.push({
            name: `Client.${method}: ${param}.${field} = ${label} ${tag}`,
            run: call(() => argsWith(valid, pos, { [field]: make() })),
            expect: expectFor("input", method),
          });
        }
        return;
      }
      for (const [key, spec] of Object.entries(KINDS[kind])) {
        const [label, make] = WRONG[key];
        out.push({
          name: `Client.${method}: ${param} = ${label} ${tag}`,
          run: call(() => argsWith(valid, pos, make())),
          expect: expectFor(spec, method),
        });
      }
    });
  }
  return out;
}

/** client.tasks.*: wrong task ids and options are input errors naming them, in both phases. */
function taskCases(phase) {
  const out = [];
  const tag = phase === "before" ? "[never connected]" : "[connected, legacy]";
  const clientOf = (ctx) => (phase === "before" ? ctx.unconnected : ctx.connected);
  const expectFor = (spec) => (phase === "before" ? beforeConnectError : expectationFor(spec, "tasks"));
  for (const [method, { params, valid }] of Object.entries(TASK_METHODS)) {
    params.forEach(([param, kind], pos) => {
      const call = (args) => (ctx) => clientOf(ctx).tasks[method](...args());
      const wrongs = kind === "string" ? KINDS.string : KINDS.options;
      for (const [key, spec] of Object.entries(wrongs)) {
        if (kind === "string" && key === "url") continue;
        const [label, make] = WRONG[key];
        out.push({ name: `Client.tasks.${method}: ${param} = ${label} ${tag}`, run: call(() => argsWith(valid, pos, make())), expect: expectFor(spec) });
      }
      if (kind === "string") return;
      const fields = kind === "listTasksOptions" ? [...CALL_OPTION_FIELDS, ["cursor", "5", () => 5]] : CALL_OPTION_FIELDS;
      for (const [field, label, make] of fields) {
        out.push({
          name: `Client.tasks.${method}: ${param}.${field} = ${label} ${tag}`,
          run: call(() => argsWith(valid, pos, { [field]: make() })),
          expect: expectFor("input"),
        });
      }
    });
  }
  return out;
}

/** client.skills (the peer declares no skills extension; arguments are checked before that). */
function skillsCases() {
  const out = [];
  const ENTRY = { uri: "skill://a/SKILL.md", frontmatter: { name: "a", description: "d" }, resources: "dynamic" };
  const wrongs = {
    get: [["uri", ["undefined", "null", "number", "object", "symbol"]]],
    readDirectory: [["uri", ["undefined", "null", "number", "object", "symbol"]]],
    read: [["skill", ["undefined", "null", "number", "object", "array", "symbol"]]],
    list: [["options", ["number", "string", "symbol", "boolean"]]],
  };
  for (const [method, [[param, keys]]] of Object.entries(wrongs)) {
    for (const key of keys) {
      const [label, make] = WRONG[key];
      out.push({
        name: `Client.skills.${method}: ${param} = ${label} [connected, legacy]`,
        run: (ctx) => ctx.connected.skills[method](make()),
        expect: inputError,
      });
    }
  }
  for (const [field, label, value] of [["skipInvalid", '"yes"', "yes"], ["maxPages", '"x"', "x"], ["cursor", "5", 5], ["timeoutMs", '"x"', "x"]]) {
    out.push({
      name: `Client.skills.list: options.${field} = ${label} [connected, legacy]`,
      run: (ctx) => ctx.connected.skills.list({ [field]: value }),
      expect: inputError,
    });
  }
  out.push({
    name: "Client.skills.read: ref = 42 [connected, legacy]",
    run: (ctx) => ctx.connected.skills.read(ENTRY, 42),
    expect: inputError,
  });
  for (const method of ["list", "get", "read", "readDirectory"]) {
    out.push({
      name: `Skills.${method}: called with this = {} (a detached method) does not trap`,
      run: (ctx) => ctx.mod.Skills.prototype[method].call({}, "skill://a/SKILL.md"),
      expect: noTrap,
    });
  }
  for (const getter of ["supported", "directoryRead"]) {
    out.push({
      name: `Skills.${getter} getter: read with this = {} does not trap`,
      run: (ctx) => Object.getOwnPropertyDescriptor(ctx.mod.Skills.prototype, getter).get.call({}),
      expect: noTrap,
    });
  }
  return out;
}

function receiverCases() {
  const out = [];
  for (const [method, { valid }] of Object.entries(METHODS)) {
    out.push({
      name: `Client.${method}: called with this = {} (a detached method) does not trap`,
      run: (ctx) => ctx.mod.Client.prototype[method].call({}, ...valid),
      expect: noTrap,
    });
  }
  for (const getter of CLIENT_GETTERS) {
    out.push({
      name: `Client.${getter} getter: read with this = {} does not trap`,
      run: (ctx) => Object.getOwnPropertyDescriptor(ctx.mod.Client.prototype, getter).get.call({}),
      expect: noTrap,
    });
  }
  for (const method of Object.keys(TASK_METHODS)) {
    out.push({
      name: `Tasks.${method}: called with this = {} (a detached method) does not trap`,
      run: (ctx) => ctx.mod.Tasks.prototype[method].call({}, ...TASK_METHODS[method].valid),
      expect: noTrap,
    });
  }
  for (const getter of MCP_ERROR_GETTERS) {
    out.push({
      name: `McpError.${getter} getter: read with this = {} does not trap`,
      run: (ctx) => Object.getOwnPropertyDescriptor(ctx.mod.McpError.prototype, getter).get.call({}),
      expect: noTrap,
    });
  }
  out.push(
    {
      name: "Client.free: called twice does not trap",
      run: (ctx) => {
        const c = new ctx.mod.Client(ctx.url);
        c.free();
        c.free();
      },
      expect: noTrap,
    },
    {
      name: "Client.listTools: after free() does not trap",
      run: (ctx) => {
        const c = new ctx.mod.Client(ctx.url);
        c.free();
        return c.listTools();
      },
      expect: noTrap,
    },
    {
      name: "Client.era getter: after free() does not trap",
      run: (ctx) => {
        const c = new ctx.mod.Client(ctx.url);
        c.free();
        return c.era;
      },
      expect: noTrap,
    },
  );
  return out;
}

function clientConstructorCases() {
  const out = [];
  const construct = (args) => (ctx) => new ctx.mod.Client(...args(ctx));
  out.push({ name: "new Client(): no arguments", run: construct(() => []), expect: inputError });
  for (const key of ["undefined", "null", "number", "boolean", "array", "symbol"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `new Client(url = ${label})`, run: construct(() => [make()]), expect: inputError });
  }
  out.push(
    {
      name: "new Client(url = { url }) (a plain object without href)",
      run: construct((ctx) => [{ url: ctx.url }]),
      expect: inputError,
    },
    {
      name: "new Client(url = { href: 42 }) (href not a string)",
      run: construct(() => [{ href: 42 }]),
      expect: inputError,
    },
    {
      name: "new Client(url = new URL(\"ftp://…\")): a URL object is checked like a string (http/https only)",
      run: construct(() => [new URL("ftp://127.0.0.1/mcp")]),
      expect: inputError,
    },
  );
  const connects = (make) => async (ctx) => {
    const c = new ctx.mod.Client(make(ctx));
    try {
      await c.connect();
      const { tools } = await c.listTools();
      return { era: c.era, tools: tools.map((t) => t.name) };
    } finally {
      await cleanup(c);
    }
  };
  const connected = succeeds((v) =>
    ["legacy", "modern"].includes(v?.era) && v.tools.includes("echo") ? null : `unexpected ${show(v)}`,
  );
  out.push(
    { name: "new Client(new URL(url)): constructs, connects and lists tools", run: connects((ctx) => new URL(ctx.url)), expect: connected },
    { name: "new Client({ href: url }): a URL-like object constructs, connects and lists tools", run: connects((ctx) => ({ href: ctx.url })), expect: connected },
  );
  for (const key of ["number", "string", "boolean", "symbol"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `new Client(url, options = ${label})`, run: construct((ctx) => [ctx.url, make()]), expect: inputError });
  }
  for (const [field, label, make] of CLIENT_OPTION_FIELDS) {
    out.push({
      name: `new Client(url, { ${field}: ${label} })`,
      run: construct((ctx) => [ctx.url, { [field]: make() }]),
      expect: inputError,
    });
  }
  return out;
}

function mcpErrorCases() {
  const out = [];
  // McpError coerces its message like Error: String(x), "" when absent or undefined.
  const message = (name, args, expected) => ({
    name,
    run: (ctx) => new ctx.mod.McpError(...args()),
    expect: succeeds((e) => (e?.message === expected ? null : `message is ${show(e?.message)}, expected ${show(expected)}`)),
  });
  out.push(
    {
      name: "new McpError(-32000, \"boom\", { a: 1 }): the control (an Error with code, message, data)",
      run: (ctx) => new ctx.mod.McpError(-32000, "boom", { a: 1 }),
      expect: succeeds((e) =>
        e instanceof Error && e.name === "McpError" && e.code === -32000 && e.message === "boom" && e.data?.a === 1
          ? null
          : `unexpected ${show({ name: e?.name, code: e?.code, message: e?.message, data: e?.data })}`,
      ),
    },
    message("new McpError(-32000): no message → message \"\"", () => [-32000], ""),
    message("new McpError(-32000, undefined) → message \"\"", () => [-32000, undefined], ""),
    message("new McpError(-32000, null) → message \"null\"", () => [-32000, null], "null"),
    message("new McpError(-32000, 42) → message \"42\"", () => [-32000, 42], "42"),
    message("new McpError(-32000, true) → message \"true\"", () => [-32000, true], "true"),
    message("new McpError(-32000, { wrong: 1 }) → message \"[object Object]\"", () => [-32000, { wrong: 1 }], "[object Object]"),
    message("new McpError(-32000, { toString }) → message from toString()", () => [-32000, { toString: () => "custom" }], "custom"),
    message("new McpError(-32000, new URL(…)) → message is the href", () => [-32000, new URL("https://example.test/x")], "https://example.test/x"),
    {
      // Error(Symbol()) itself throws a TypeError; here either an McpError or String(symbol).
      name: "new McpError(-32000, Symbol()): an McpError thrown, or message \"Symbol(boundary)\"",
      run: (ctx) => new ctx.mod.McpError(-32000, Symbol("boundary")),
      expect: mcpErrorOr((e) => (e?.message === "Symbol(boundary)" ? null : `message is ${show(e?.message)}`)),
    },
  );
  // A non-number code: no trap, no TypeError; the result is an McpError (thrown or constructed).
  const isMcpError = (mod, o) => {
    if (o.threw) return anyMcpError(mod, o);
    return o.value instanceof mod.McpError ? null : `returned ${show(o.value)}, not an McpError`;
  };
  out.push({ name: "new McpError(): no arguments gives an McpError", run: (ctx) => new ctx.mod.McpError(), expect: isMcpError });
  for (const key of ["undefined", "null", "string", "object", "symbol"]) {
    const [label, make] = WRONG[key];
    out.push({
      name: `new McpError(code = ${label}, "m") gives an McpError`,
      run: (ctx) => new ctx.mod.McpError(make(), "m"),
      expect: isMcpError,
    });
  }
  out.push({
    name: 'new McpError(code = "-32000", "m") gives an McpError',
    run: (ctx) => new ctx.mod.McpError("-32000", "m"),
    expect: isMcpError,
  });
  return out;
}

function formCases() {
  const out = [];
  out.push(
    {
      name: "elicitationForm(schema): the control returns the fields",
      run: (ctx) => ctx.mod.elicitationForm(SCHEMA),
      expect: succeeds((v) => (v?.fields?.[0]?.name === "name" ? null : `unexpected ${show(v)}`)),
    },
    {
      name: "validateElicitation(schema, { name }): the control validates",
      run: (ctx) => ctx.mod.validateElicitation(SCHEMA, { name: "Ada" }),
      expect: succeeds((v) => (v?.content?.name === "Ada" && v.errors?.length === 0 ? null : `unexpected ${show(v)}`)),
    },
  );
  for (const [key, spec] of Object.entries(KINDS.object)) {
    const [label, make] = WRONG[key];
    out.push(
      { name: `elicitationForm(requestedSchema = ${label})`, run: (ctx) => ctx.mod.elicitationForm(make()), expect: expectationFor(spec) },
      {
        name: `validateElicitation(requestedSchema = ${label}, {})`,
        run: (ctx) => ctx.mod.validateElicitation(make(), {}),
        expect: expectationFor(spec),
      },
    );
  }
  // absent content reads as nothing typed yet: an McpError, or a result listing the missing field
  const validation = (v) =>
    Array.isArray(v?.errors) && v.errors.some((e) => e.field === "name") ? null : `unexpected ${show(v)}`;
  for (const key of ["undefined", "null", "number", "string", "symbol", "array"]) {
    const [label, make] = WRONG[key];
    const absent = key === "undefined" || key === "null";
    out.push({
      name: `validateElicitation(schema, content = ${label})`,
      run: (ctx) => ctx.mod.validateElicitation(SCHEMA, make()),
      expect: absent ? mcpErrorOr(validation) : inputError,
    });
  }
  out.push({
    name: "start(Symbol(), {}): extra arguments are ignored, no trap",
    run: (ctx) => ctx.mod.start(Symbol("extra"), {}),
    expect: succeeds((v) => (v === undefined ? null : `returned ${show(v)}`)),
  });
  out.push({
    name: "wasmMemoryBytes(Symbol(), {}): extra arguments are ignored, a byte count comes back",
    run: (ctx) => ctx.mod.wasmMemoryBytes(Symbol("extra"), {}),
    expect: succeeds((n) => (typeof n === "number" && n > 0 ? null : `returned ${show(n)}`)),
  });
  return out;
}

function surfaceCases() {
  return [
    {
      name: "surface: every export has cases here (and nothing listed here is missing)",
      run: (ctx) => {
        const names = Object.keys(ctx.mod)
          .filter((k) => k !== "default" && k !== "initSync" && k !== "init" && !k.startsWith("__"))
          .sort();
        return { names, expected: [...EXPORTS].sort() };
      },
      expect: succeeds(({ names, expected }) =>
        JSON.stringify(names) === JSON.stringify(expected) ? null : `exports ${show(names)}, cases cover ${show(expected)}`,
      ),
    },
    {
      name: "surface: every Client method and getter has cases here",
      run: (ctx) => {
        const names = Object.getOwnPropertyNames(ctx.mod.Client.prototype)
          .filter((k) => k !== "constructor" && k !== "free" && !k.startsWith("__"))
          .sort();
        return { names, expected: [...Object.keys(METHODS), ...CLIENT_GETTERS].sort() };
      },
      expect: succeeds(({ names, expected }) =>
        JSON.stringify(names) === JSON.stringify(expected) ? null : `Client has ${show(names)}, cases cover ${show(expected)}`,
      ),
    },
  ];
}

const STILL_WORKS = {
  name: "afterwards: the same instance still connects a fresh Client and calls a tool",
  run: async (ctx) => {
    const c = new ctx.mod.Client(ctx.url);
    try {
      await c.connect();
      const r = await c.callTool("echo", { text: "still here" });
      const e = new ctx.mod.McpError(-32000, "fine");
      const form = ctx.mod.elicitationForm(SCHEMA);
      return { text: r?.content?.[0]?.text, message: e.message, fields: form.fields.length };
    } finally {
      await cleanup(c);
    }
  },
  expect: succeeds((v) =>
    v.text === "still here" && v.message === "fine" && v.fields === 1 ? null : `unexpected ${show(v)}`,
  ),
};

function buildCases() {
  // Method cases first, the trap-prone constructors (today) last: every case still runs on the
  // one instance, and STILL_WORKS at the very end shows whether anything before poisoned it.
  return [
    ...surfaceCases(),
    ...formCases(),
    ...methodCases("before"),
    ...methodCases("after"),
    ...taskCases("before"),
    ...taskCases("after"),
    ...receiverCases(),
    ...skillsCases(),
    ...mcpErrorCases(),
    ...authCases(),
    ...clientConstructorCases(),
    STILL_WORKS,
  ];
}

/** The case names, in run order. */
export function caseNames() {
  const names = buildCases().map((c) => c.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`duplicate case name: ${dup}`);
  return names;
}

/**
 * Runs every case against `mod` (the package's exports, initialised) with `url` a real peer.
 * Resolves to { [name]: { ok, outcome, detail } }: outcome is "McpError", "RuntimeError",
 * "TypeError", another error's constructor name, "hung" or "resolved"; detail says why it failed.
 * `only(name)`, when given, picks the cases to run (to retry one on a fresh instance).
 */
export async function runBoundaryCases(mod, url, { only } = {}) {
  const results = {};
  const ctx = { mod, url };
  let setupError = null;
  try {
    ctx.unconnected = new mod.Client(url);
    ctx.connected = new mod.Client(url, { mode: "legacy" });
    await withTimeout(ctx.connected.connect());
  } catch (e) {
    setupError = `setup failed (a valid Client on ${url}): ${describeOutcome(mod, { threw: true, error: e }).detail}`;
  }
  for (const c of buildCases()) {
    if (only && !only(c.name)) continue;
    if (setupError && c !== STILL_WORKS) {
      results[c.name] = { ok: false, outcome: "setup", detail: setupError };
      continue;
    }
    const o = await attempt(() => c.run(ctx));
    let reason;
    try {
      reason = c.expect(mod, o);
    } catch (e) {
      reason = `the expectation threw: ${e?.message ?? e}`;
    }
    const { outcome, detail } = describeOutcome(mod, o);
    results[c.name] = { ok: reason === null, outcome, detail: reason === null ? detail : `${reason} — ${detail}` };
    if (!o.threw) await cleanup(o.value);
  }
  await cleanup(ctx.connected);
  await cleanup(ctx.unconnected);
  await cleanup(ctx.authed);
  return results;
}
