// The JOSE side of tests/js/oauth_world.mjs: compact JWTs and JWSs, RFC 7638 thumbprints, signature
// checks with node:crypto, and the world's verifiers of DPoP proofs (RFC 9449) and private_key_jwt
// client assertions.
import { createHash, createPublicKey, randomBytes, verify as verifySignature } from "node:crypto";

export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

export const rand = (n = 12) => randomBytes(n).toString("base64url");
export const b64url = (buf) => Buffer.from(buf).toString("base64url");
export const sha256 = (text) => createHash("sha256").update(text).digest();


/** An unsigned-looking compact JWT (a random signature) with these claims. */
export function fakeJwt(claims, header = { alg: "HS256", typ: "JWT" }) {
  return `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}.${rand(32)}`;
}

/** The header and claims of a compact JWS, or null. */
export function decodeJwt(jwt) {
  const parts = String(jwt).split(".");
  if (parts.length !== 3) return null;
  try {
    return {
      header: JSON.parse(Buffer.from(parts[0], "base64url").toString()),
      claims: JSON.parse(Buffer.from(parts[1], "base64url").toString()),
      input: `${parts[0]}.${parts[1]}`,
      signature: Buffer.from(parts[2], "base64url"),
    };
  } catch {
    return null;
  }
}

/** The RFC 7638 thumbprint of an EC or RSA public JWK. */
export function jwkThumbprint(jwk) {
  const members = jwk.kty === "EC" ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return b64url(sha256(JSON.stringify(members)));
}

/** Verifies a JWS signature (ES256 raw r||s, or RS256) with a node:crypto public key. */
export function verifyJws(alg, key, input, signature) {
  if (alg === "ES256") return verifySignature("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" }, signature);
  if (alg === "RS256") return verifySignature("sha256", Buffer.from(input), key, signature);
  return false;
}

/**
 * The checks of the world `w` (its jti set, failures and proofs; `secret` keeps what it is given):
 * { checkProof, checkClientAssertion }.
 */
export function verifiers(w, secret) {
  /**
   * A DPoP proof of `req` for `htm` `htu` (and `token`: ath), per RFC 9449 §4.3. Resolves to
   * { jkt } or { error, nonce: true when only the nonce was wrong }.
   */
  function checkProof(req, at, htm, htu, { token = null, nonce = null } = {}) {
    const value = req.headers.dpop;
    const fail = (error, extra = {}) => {
      w.failures.push(`${at} DPoP: ${error}`);
      return { error, ...extra };
    };
    if (!value) return fail("no DPoP header");
    secret(value);
    const jws = decodeJwt(value);
    if (!jws) return fail("not a compact JWS");
    const record = { at, header: jws.header, claims: jws.claims, jkt: null, error: null };
    w.proofs.push(record);
    const bad = (e, extra) => {
      record.error = e;
      return fail(e, extra);
    };
    const { header, claims } = jws;
    if (header.typ !== "dpop+jwt") return bad(`typ ${header.typ}`);
    if (header.alg !== "ES256") return bad(`alg ${header.alg}`);
    if (!header.jwk || typeof header.jwk !== "object") return bad("no jwk");
    if ("d" in header.jwk) return bad("the jwk has a private part");
    let key;
    try {
      key = createPublicKey({ key: header.jwk, format: "jwk" });
    } catch (e) {
      return bad(`jwk: ${e.message}`);
    }
    if (!verifyJws("ES256", key, jws.input, jws.signature)) return bad("signature");
    if (claims.htm !== htm) return bad(`htm ${claims.htm} ≠ ${htm}`);
    if (claims.htu !== htu) return bad(`htu ${claims.htu} ≠ ${htu}`);
    const now = Date.now() / 1000;
    if (typeof claims.iat !== "number" || Math.abs(claims.iat - now) > 60) return bad(`iat ${claims.iat}`);
    if (typeof claims.jti !== "string" || claims.jti.length < 16) return bad(`jti ${claims.jti}`);
    if (w.jtis.has(`dpop:${claims.jti}`)) return bad("jti replayed");
    w.jtis.add(`dpop:${claims.jti}`);
    if (token !== null && claims.ath !== b64url(sha256(token))) return bad("ath");
    if (token === null && claims.ath !== undefined) return bad("ath without a token");
    if (nonce !== null && claims.nonce !== nonce) return bad(`nonce ${claims.nonce}`, { nonce: true });
    record.jkt = jwkThumbprint(header.jwk);
    return { jkt: record.jkt };
  }

  /** Verifies a private_key_jwt client assertion for `issuer`: the client_id, or null. */
  function checkClientAssertion(form, issuer) {
    const fail = (why) => {
      w.failures.push(`client assertion: ${why}`);
      return null;
    };
    secret(form.client_assertion);
    if (form.client_assertion_type !== CLIENT_ASSERTION_TYPE) return fail(`client_assertion_type ${form.client_assertion_type}`);
    const jws = decodeJwt(form.client_assertion);
    if (!jws) return fail("not a compact JWS");
    const { header, claims } = jws;
    const id = claims.sub;
    const c = w.clients.get(issuer)?.get(id);
    if (!c?.publicKey) return fail(`no key for ${id}`);
    if (form.client_id !== undefined && form.client_id !== id) return fail("client_id ≠ sub");
    if (header.alg !== c.alg) return fail(`alg ${header.alg} ≠ ${c.alg}`);
    if (!verifyJws(c.alg, c.publicKey, jws.input, jws.signature)) return fail("signature");
    if (claims.iss !== id) return fail("iss ≠ sub");
    if (claims.aud !== issuer) return fail(`aud ${JSON.stringify(claims.aud)} ≠ ${issuer}`);
    const now = Date.now() / 1000;
    if (!(typeof claims.exp === "number" && typeof claims.iat === "number" && claims.exp > claims.iat && claims.exp > now))
      return fail(`exp ${claims.exp} iat ${claims.iat}`);
    if (Math.abs(claims.iat - now) > 60) return fail(`iat ${claims.iat}`);
    if (typeof claims.jti !== "string" || w.jtis.has(`ca:${claims.jti}`)) return fail(`jti ${claims.jti} missing or replayed`);
    w.jtis.add(`ca:${claims.jti}`);
    return id;
  }

  return { checkProof, checkClientAssertion };
}
