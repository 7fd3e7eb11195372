// The auth cases of boundary-cases.mjs: the auth option's fields, the authorization helpers and
// the sign-in methods, given wrong types.
import { WRONG, REDIRECT_URI } from "./boundary-cases-surface.mjs";
import { show, mcpError, inputError, succeeds } from "./boundary-cases-checks.mjs";

/** Wrong-typed fields of the auth option (AuthOptions), each beside a valid redirectUri. */
export const AUTH_OPTION_FIELDS = [
  ["redirectUri", "5", () => 5],
  ["redirectUri", "Symbol()", () => Symbol("redirect")],
  ["clientMetadataUrl", "5", () => 5],
  ["clientMetadataUrl", '"not a url"', () => "not a url"],
  ["clientMetadata", "5", () => 5],
  ["clientMetadata", "[]", () => []],
  ["clientInformation", '"id"', () => "id"],
  ["clientInformation", "{ client_id: 5 }", () => ({ client_id: 5 })],
  ["clientInformation", "{ wrong: 1 }", () => ({ wrong: 1 })],
  ["authorize", '"popup"', () => "popup"],
  ["authorize", "{}", () => ({})],
  ["storage", "5", () => 5],
  ["storage", "{ wrong: 1 }", () => ({ wrong: 1 })],
  ["storage", "{ get, set } (no delete)", () => ({ get() {}, set() {} })],
  ["scope", "5", () => 5],
  ["onInsufficientScope", '"never"', () => "never"],
  ["onInsufficientScope", "true", () => true],
  ["maxStepUp", "-1", () => -1],
  ["maxStepUp", '"1"', () => "1"],
  ["maxStepUp", "1.5", () => 1.5],
  ["fetch", '"no"', () => "no"],
  ["grant", "5", () => 5],
  ["grant", '"client_credentials"', () => "client_credentials"],
  ["grant", "[]", () => []],
  ["grant", "Symbol()", () => Symbol("grant")],
  ["grant", "{ type: 5 }", () => ({ type: 5 })],
  ["grant", '{ type: "client_credentials" } (no clientId)', () => ({ type: "client_credentials" })],
  ["grant", '{ type: "client_credentials", clientId: 5, clientSecret }', () => ({ type: "client_credentials", clientId: 5, clientSecret: "s" })],
  ["grant", '{ type: "client_credentials", clientId } (no secret, no key)', () => ({ type: "client_credentials", clientId: "c" })],
  ["grant", "{ …, privateKey: 5 }", () => ({ type: "client_credentials", clientId: "c", privateKey: 5 })],
  ["grant", "{ …, privateKey: {} }", () => ({ type: "client_credentials", clientId: "c", privateKey: {} })],
  ["grant", '{ …, algorithm: "HS256" }', () => ({ type: "client_credentials", clientId: "c", clientSecret: "s", algorithm: "HS256" })],
  ["grant", '{ …, method: "none" }', () => ({ type: "client_credentials", clientId: "c", clientSecret: "s", method: "none" })],
  ["grant", "{ …, method: Symbol() }", () => ({ type: "client_credentials", clientId: "c", clientSecret: "s", method: Symbol("m") })],
  ["grant", '{ type: "jwt_bearer", clientId } (no assertion)', () => ({ type: "jwt_bearer", clientId: "c" })],
  ["grant", '{ type: "jwt_bearer", clientId, assertion: "jwt" }', () => ({ type: "jwt_bearer", clientId: "c", assertion: "jwt" })],
  ["dpop", '"yes"', () => "yes"],
  ["dpop", "1", () => 1],
  ["dpop", "[]", () => []],
  ["dpop", "Symbol()", () => Symbol("dpop")],
  ["dpop", "{ keyPair: {} }", () => ({ keyPair: {} })],
  ["dpop", "{ keyPair: 5 }", () => ({ keyPair: 5 })],
];

export function authCases() {
  const out = [];
  const isStorage = (v) =>
    v && ["get", "set", "delete"].every((k) => typeof v[k] === "function") ? null : `unexpected ${show(v)}`;
  const isFunction = (v) => (typeof v === "function" ? null : `unexpected ${show(v)}`);
  // The helpers that take an options object.
  const helperFields = {
    authorizeWithPopup: [
      ["features", "5", () => 5], ["timeoutMs", '"x"', () => "x"], ["timeoutMs", "-1", () => -1],
      ["window", '"https://as.example/"', () => "https://as.example/"], ["window", "{}", () => ({})],
    ],
    authorizeHeadless: [["fetch", '"no"', () => "no"], ["fetch", "{}", () => ({})]],
    completeAuthorizationPopup: [["close", '"yes"', () => "yes"]],
  };
  for (const [helper, fields] of Object.entries(helperFields)) {
    for (const key of ["number", "string", "boolean", "symbol", "array"]) {
      const [label, make] = WRONG[key];
      out.push({ name: `${helper}(options = ${label})`, run: (ctx) => ctx.mod[helper](make()), expect: inputError });
    }
    for (const [field, label, make] of fields) {
      out.push({ name: `${helper}({ ${field}: ${label} })`, run: (ctx) => ctx.mod[helper]({ [field]: make() }), expect: inputError });
    }
  }
  for (const helper of ["authorizeWithPopup", "authorizeHeadless"]) {
    out.push({
      name: `${helper}(): the control returns an authorize function`,
      run: (ctx) => ctx.mod[helper](),
      expect: succeeds(isFunction),
    });
  }
  out.push(
    {
      name: "authorizeWithRedirect(Symbol(), {}): extra arguments are ignored, an authorize function comes back",
      run: (ctx) => ctx.mod.authorizeWithRedirect(Symbol("extra"), {}),
      expect: succeeds(isFunction),
    },
    {
      name: "memoryStorage(Symbol(), {}): extra arguments are ignored, a storage comes back",
      run: (ctx) => ctx.mod.memoryStorage(Symbol("extra"), {}),
      expect: succeeds(isStorage),
    },
    {
      name: "webStorage({ getItem, setItem, removeItem }): the control returns a storage",
      run: (ctx) => ctx.mod.webStorage({ getItem() {}, setItem() {}, removeItem() {} }),
      expect: succeeds(isStorage),
    },
  );
  for (const key of ["undefined", "null", "number", "string", "object", "array", "symbol", "url"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `webStorage(storage = ${label})`, run: (ctx) => ctx.mod.webStorage(make()), expect: inputError });
  }
  // (indexedDbStorage("x") is a storage in a browser and an input error in Node: not a case here.)
  for (const key of ["undefined", "null", "number", "object", "array", "symbol", "url"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `indexedDbStorage(name = ${label})`, run: (ctx) => ctx.mod.indexedDbStorage(make()), expect: inputError });
  }
  out.push({ name: 'indexedDbStorage(name = "")', run: (ctx) => ctx.mod.indexedDbStorage(""), expect: inputError });

  // Transports written in JavaScript: the exported ones, and the transport option.
  const isTransport = (t) =>
    ["start", "send", "close"].every((m) => typeof t?.[m] === "function") ? null : `not a transport: ${show(t)}`;
  for (const key of ["undefined", "null", "number", "string", "object", "array", "symbol", "url"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `messagePortTransport(port = ${label})`, run: (ctx) => ctx.mod.messagePortTransport(make()), expect: inputError });
    out.push({ name: `windowTransport(target = ${label}, { targetOrigin })`, run: (ctx) => ctx.mod.windowTransport(make(), { targetOrigin: "https://tools.example" }), expect: inputError });
    out.push({ name: `windowTransport(window, options = ${label})`, run: (ctx) => ctx.mod.windowTransport({ postMessage() {} }, make()), expect: inputError });
    if (key !== "undefined" && key !== "null") {
      out.push({ name: `new Client({ transport: ${label} })`, run: (ctx) => new ctx.mod.Client({ transport: make() }), expect: inputError });
    }
  }
  out.push(
    {
      name: "messagePortTransport(new MessageChannel().port1): the control returns a transport",
      run: (ctx) => ctx.mod.messagePortTransport(new MessageChannel().port1),
      expect: succeeds(isTransport),
    },
    {
      name: 'windowTransport(window, { targetOrigin: "*" }) is refused',
      run: (ctx) => ctx.mod.windowTransport({ postMessage() {} }, { targetOrigin: "*" }),
      expect: inputError,
    },
    {
      name: "inMemoryPair(Symbol()): extra arguments are ignored, two transports come back",
      run: (ctx) => ctx.mod.inMemoryPair(Symbol("extra")),
      expect: succeeds((p) => (Array.isArray(p) && p.length === 2 ? isTransport(p[0]) ?? isTransport(p[1]) : `not a pair: ${show(p)}`)),
    },
    {
      name: "new Client({ transport: { start, close } }) (no send)",
      run: (ctx) => new ctx.mod.Client({ transport: { start() {}, close() {} } }),
      expect: inputError,
    },
  );

  // ClientGroup: the options and each server's config.
  for (const [label, options] of [
    ["undefined", undefined], ["null", null], ["5", 5], ['"x"', "x"],
    ['{ servers: 5 }', { servers: 5 }], ['{ servers: { x: {} } }', { servers: { x: {} } }],
    ['{ servers: { x: null } }', { servers: { x: null } }], ['{ toolNames: "suffix" }', { toolNames: "suffix" }],
    ['{ servers: { x: { url: "ftp://a" } } }', { servers: { x: { url: "ftp://a" } } }],
  ]) {
    out.push({ name: `new ClientGroup(${label})`, run: (ctx) => new ctx.mod.ClientGroup(options), expect: inputError });
  }
  out.push({
    name: "new ClientGroup({ servers: {} }): the control builds a group",
    run: (ctx) => new ctx.mod.ClientGroup({ servers: {} }),
    expect: succeeds((g) => (typeof g.connect === "function" && typeof g.callTool === "function" ? null : `not a group: ${show(g)}`)),
  });

  // idJagAssertion: the options object and each field.
  const ID_JAG = { idpTokenEndpoint: "https://idp.example/token", idToken: "id-token", idpClientId: "idp-client" };
  out.push({
    name: "idJagAssertion({ idpTokenEndpoint, idToken, idpClientId }): the control returns an assertion function",
    run: (ctx) => ctx.mod.idJagAssertion(ID_JAG),
    expect: succeeds(isFunction),
  });
  for (const key of ["undefined", "null", "number", "string", "boolean", "array", "symbol", "url"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `idJagAssertion(options = ${label})`, run: (ctx) => ctx.mod.idJagAssertion(make()), expect: inputError });
  }
  for (const [field, label, make] of [
    ["idpTokenEndpoint", "undefined", () => undefined],
    ["idpTokenEndpoint", "5", () => 5],
    ["idpTokenEndpoint", "Symbol()", () => Symbol("endpoint")],
    ["idpTokenEndpoint", "a URL object", () => new URL("https://idp.example/token")],
    ["idpTokenEndpoint", '"not a url"', () => "not a url"],
    ["idpTokenEndpoint", '"http://idp.example/token" (not https, not loopback)', () => "http://idp.example/token"],
    ["idToken", "undefined", () => undefined],
    ["idToken", '""', () => ""],
    ["idToken", "5", () => 5],
    ["idpClientId", "{}", () => ({})],
    ["idpClientId", "null", () => null],
    ["idpClientSecret", "5", () => 5],
    ["idpClientSecret", "Symbol()", () => Symbol("secret")],
  ]) {
    out.push({
      name: `idJagAssertion({ …, ${field}: ${label} })`,
      run: (ctx) => ctx.mod.idJagAssertion({ ...ID_JAG, [field]: make() }),
      expect: inputError,
    });
  }

  // The auth option's fields.
  const withAuth = (auth) => (ctx) => new ctx.mod.Client(ctx.url, { auth });
  out.push({
    name: "new Client(url, { auth: { redirectUri } }): the control constructs, signed out",
    run: (ctx) => {
      const c = withAuth({ redirectUri: REDIRECT_URI })(ctx);
      const status = c.authorization;
      c.free();
      return status;
    },
    expect: succeeds((v) => (v === null ? null : `authorization is ${show(v)}`)),
  });
  out.push({ name: "new Client(url, { auth: {} }) (no redirectUri)", run: withAuth({}), expect: inputError });
  for (const [field, label, make] of AUTH_OPTION_FIELDS) {
    out.push({
      name: `new Client(url, { auth: { redirectUri, ${field}: ${label} } })`,
      run: (ctx) => withAuth({ redirectUri: REDIRECT_URI, [field]: make() })(ctx),
      expect: inputError,
    });
  }
  // An unknown grant type is its own kind.
  for (const [label, grant] of [
    ['{ type: "password", clientId, clientSecret }', { type: "password", clientId: "c", clientSecret: "s" }],
    ['{ type: "password" }', { type: "password" }],
    ["{ clientId, clientSecret } (no type)", { clientId: "c", clientSecret: "s" }],
  ]) {
    out.push({
      name: `new Client(url, { auth: { grant: ${label} } }) → unsupported_grant`,
      run: withAuth({ grant }),
      expect: mcpError(["unsupported_grant"]),
    });
  }
  out.push({
    name: 'new Client(url, { auth: { grant: { type: "client_credentials", clientId, clientSecret }, dpop: true } }): the control constructs without a redirectUri',
    run: (ctx) => {
      const c = withAuth({ grant: { type: "client_credentials", clientId: "c", clientSecret: "s" }, dpop: true })(ctx);
      const status = c.authorization;
      c.free();
      return status;
    },
    expect: succeeds((v) => (v === null ? null : `authorization is ${show(v)}`)),
  });

  // finishAuthorization and signOut on a client with the auth option (no request is made:
  // nothing is pending, nobody is signed in).
  const authed = (ctx) => (ctx.authed ??= new ctx.mod.Client(ctx.url, { auth: { redirectUri: REDIRECT_URI } }));
  for (const key of ["undefined", "null", "number", "object", "symbol", "array"]) {
    const [label, make] = WRONG[key];
    out.push({
      name: `Client.finishAuthorization: callbackUrl = ${label} [auth option]`,
      run: (ctx) => authed(ctx).finishAuthorization(make()),
      expect: inputError,
    });
  }
  out.push({
    name: "Client.finishAuthorization: callbackUrl = a URL object, nothing pending → state_mismatch [auth option]",
    run: (ctx) => authed(ctx).finishAuthorization(new URL(`${REDIRECT_URI}?code=c&state=s`)),
    expect: mcpError(["state_mismatch"]),
  });
  for (const key of ["number", "string", "boolean", "symbol", "array"]) {
    const [label, make] = WRONG[key];
    out.push({ name: `Client.signOut: options = ${label} [auth option]`, run: (ctx) => authed(ctx).signOut(make()), expect: inputError });
  }
  out.push(
    { name: 'Client.signOut: options.all = "yes" [auth option]', run: (ctx) => authed(ctx).signOut({ all: "yes" }), expect: inputError },
    {
      name: "Client.signOut({ all: true }): the control resolves, signed out [auth option]",
      run: async (ctx) => {
        await authed(ctx).signOut({ all: true });
        return authed(ctx).authorization;
      },
      expect: succeeds((v) => (v === null ? null : `authorization is ${show(v)}`)),
    },
  );
  return out;
}
