// The argument errors of the grants without a user, jwt_bearer and DPoP options (pkg/nodejs), as
// auth-grants.test.mjs.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { dump } from "./auth-harness.mjs";
import { Client, McpError, idJagAssertion, REDIRECT, subtle, pemPair, cryptoKeyPair } from "./auth-grants-common.mjs";


// ---- argument errors --------------------------------------------------------------------------------

describe("argument errors", () => {
  const url = "http://127.0.0.1:1/mcp";
  const failsWith = (kind, re) => (e) => {
    assert.ok(e instanceof McpError, `not an McpError: ${e}`);
    assert.equal(e.data?.kind, kind, e.message);
    if (re) assert.match(e.message, re);
    return true;
  };
  const cc = { type: "client_credentials", clientId: "a", clientSecret: "s" };
  const jb = { type: "jwt_bearer", clientId: "a", assertion: () => "x" };
  const keyPairP = subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  const cases = [
    ["grant: 5", { grant: 5 }, "input", /options\.auth\.grant must be an object/],
    ["grant: \"client_credentials\"", { grant: "client_credentials" }, "input", /grant must be an object/],
    ["grant: []", { grant: [] }, "input", /grant must be an object/],
    ["grant: true", { grant: true }, "input", /grant must be an object/],
    ["grant.type: \"password\"", { grant: { ...cc, type: "password" } }, "unsupported_grant", /"password"/],
    ["grant.type: \"password\" without other fields", { grant: { type: "password" } }, "unsupported_grant", /"password"/],
    ["grant.type: \"refresh_token\"", { grant: { ...cc, type: "refresh_token" } }, "unsupported_grant", /type must be/],
    ["grant without type", { grant: { clientId: "a", clientSecret: "s" } }, "unsupported_grant", /missing/],
    ["grant.type: 5", { grant: { ...cc, type: 5 } }, "input", /type/],
    ["no clientId", { grant: { type: "client_credentials", clientSecret: "s" } }, "input", /grant\.clientId is required/],
    ["clientId: \"\"", { grant: { ...cc, clientId: "" } }, "input", /clientId is required/],
    ["clientId: 5", { grant: { ...cc, clientId: 5 } }, "input", /clientId/],
    ["client_credentials without secret or key", { grant: { type: "client_credentials", clientId: "a" } }, "input", /needs clientSecret or privateKey/],
    ["client_credentials with clientSecret \"\"", { grant: { type: "client_credentials", clientId: "a", clientSecret: "" } }, "input", /needs clientSecret or privateKey/],
    ["clientSecret: 5", { grant: { ...cc, clientSecret: 5 } }, "input", /clientSecret/],
    ["privateKey: 5", { grant: { type: "client_credentials", clientId: "a", privateKey: 5 } }, "input", /privateKey must be a CryptoKey or a PKCS#8 PEM string/],
    ["privateKey: {}", { grant: { type: "client_credentials", clientId: "a", privateKey: {} } }, "input", /privateKey must be/],
    ["privateKey: []", { grant: { type: "client_credentials", clientId: "a", privateKey: [] } }, "input", /privateKey must be/],
    ["algorithm: \"HS256\"", { grant: { type: "client_credentials", clientId: "a", privateKey: "x", algorithm: "HS256" } }, "input", /algorithm must be "ES256" or "RS256"/],
    ["algorithm: \"es256\"", { grant: { type: "client_credentials", clientId: "a", privateKey: "x", algorithm: "es256" } }, "input", /algorithm/],
    ["algorithm: 5", { grant: { ...cc, algorithm: 5 } }, "input", /algorithm/],
    ["method: \"private_key_jwt\"", { grant: { ...cc, method: "private_key_jwt" } }, "input", /method must be "client_secret_basic" or "client_secret_post"/],
    ["method: \"none\"", { grant: { ...cc, method: "none" } }, "input", /method must be/],
    ["method: 5", { grant: { ...cc, method: 5 } }, "input", /method/],
    ["issuer: 5", { grant: { ...cc, issuer: 5 } }, "input", /issuer/],
    ["jwt_bearer without assertion", { grant: { type: "jwt_bearer", clientId: "a" } }, "input", /assertion must be a function/],
    ["jwt_bearer with assertion: a string", { grant: { ...jb, assertion: "eyJ.a.b" } }, "input", /assertion must be a function/],
    ["jwt_bearer with assertion: {}", { grant: { ...jb, assertion: {} } }, "input", /assertion must be a function/],
    ["dpop: \"yes\"", { dpop: "yes" }, "input", /options\.auth\.dpop must be true or \{ keyPair \}/],
    ["dpop: 1", { dpop: 1 }, "input", /dpop must be/],
    ["dpop: {}", { dpop: {} }, "input", /dpop\.keyPair must be a CryptoKeyPair/],
    ["dpop: { keyPair: {} }", { dpop: { keyPair: {} } }, "input", /dpop\.keyPair must be a CryptoKeyPair/],
    ["dpop: { keyPair: { privateKey: 1, publicKey: 2 } }", { dpop: { keyPair: { privateKey: 1, publicKey: 2 } } }, "input", /keyPair/],
    ["dpop: []", { dpop: [] }, "input", /dpop/],
  ];
  for (const [label, auth, kind, re] of cases) {
    test(`new Client(url, { auth: { ${label} } }) → ${kind}`, () => {
      assert.throws(() => new Client(url, { auth: { redirectUri: REDIRECT, ...auth } }), failsWith(kind, re));
    });
  }

  test("no secret in the argument errors", () => {
    const secretText = "cs-argument-secret-123456";
    for (const grant of [
      { ...cc, clientSecret: secretText, method: "bogus" },
      { ...cc, clientSecret: secretText, algorithm: "HS1" },
      { type: "nope", clientId: "a", clientSecret: secretText },
      { type: "jwt_bearer", clientId: "a", clientSecret: secretText, assertion: secretText },
    ]) {
      try {
        new Client(url, { auth: { grant } });
        assert.fail("constructed");
      } catch (e) {
        assert.ok(e instanceof McpError);
        assert.ok(!dump(e).includes(secretText), dump(e));
      }
    }
  });

  test("redirectUri is not required with a grant (and is with authorization_code)", async () => {
    const { pair } = await cryptoKeyPair();
    const { pem } = pemPair("RS256");
    for (const grant of [
      cc,
      { type: "client_credentials", clientId: "a", privateKey: pair.privateKey },
      { type: "client_credentials", clientId: "a", privateKey: pem, algorithm: "RS256" },
      { type: "client_credentials", clientId: "a", clientSecret: "s", method: "client_secret_post", issuer: "https://as.example" },
      jb,
      { ...jb, assertion: idJagAssertion({ idpTokenEndpoint: "https://idp.example/token", idToken: "t", idpClientId: "c" }) },
    ]) {
      const c = new Client(url, { auth: { grant } });
      assert.equal(c.authorization, null);
      c.free();
    }
    assert.throws(() => new Client(url, { auth: { grant: { type: "authorization_code" } } }), failsWith("input", /redirectUri is required/));
    const c = new Client(url, { auth: { grant: cc, dpop: true } });
    c.free();
    const c2 = new Client(url, { auth: { grant: cc, dpop: { keyPair: await keyPairP } } });
    c2.free();
    const c3 = new Client(url, { auth: { grant: cc, dpop: false } });
    c3.free();
    const c4 = new Client(url, { auth: { grant: null, redirectUri: REDIRECT } });
    c4.free();
  });

  test("idJagAssertion checks its options", () => {
    const ok = { idpTokenEndpoint: "https://idp.example/token", idToken: "id-token-1", idpClientId: "c", idpClientSecret: "s" };
    assert.equal(typeof idJagAssertion(ok), "function");
    for (const endpoint of ["http://127.0.0.1:9/token", "http://localhost:8080/token", "http://[::1]/token"]) {
      assert.equal(typeof idJagAssertion({ ...ok, idpTokenEndpoint: endpoint }), "function", endpoint);
    }
    const bad = [
      [undefined, /idJagAssertion: pass \{ idpTokenEndpoint, idToken, idpClientId, idpClientSecret\? \}/],
      [null, /idJagAssertion: pass/],
      [5, /idJagAssertion: pass/],
      ["https://idp.example/token", /idJagAssertion: pass/],
      [[], /idJagAssertion: pass/],
      [{ ...ok, idpTokenEndpoint: undefined }, /idpTokenEndpoint is required/],
      [{ ...ok, idpTokenEndpoint: "" }, /idpTokenEndpoint is required/],
      [{ ...ok, idpTokenEndpoint: 5 }, /idpTokenEndpoint/],
      [{ ...ok, idpTokenEndpoint: "http://idp.example/token" }, /idpTokenEndpoint must be an https URL \(http only for loopback\)/],
      [{ ...ok, idpTokenEndpoint: "ftp://idp.example/token" }, /https/],
      [{ ...ok, idpTokenEndpoint: "not a url" }, /https/],
      [{ ...ok, idToken: undefined }, /idToken is required/],
      [{ ...ok, idToken: "" }, /idToken is required/],
      [{ ...ok, idToken: 5 }, /idToken/],
      [{ ...ok, idpClientId: undefined }, /idpClientId is required/],
      [{ ...ok, idpClientId: {} }, /idpClientId/],
      [{ ...ok, idpClientSecret: 5 }, /idpClientSecret/],
    ];
    for (const [arg, re] of bad) {
      assert.throws(() => idJagAssertion(arg), failsWith("input", re), JSON.stringify(arg));
    }
    // The ID token is not echoed in its errors.
    try {
      idJagAssertion({ ...ok, idToken: "secret-id-token-abcdef", idpTokenEndpoint: "http://idp.example/t" });
    } catch (e) {
      assert.ok(!dump(e).includes("secret-id-token-abcdef"));
    }
  });
});
