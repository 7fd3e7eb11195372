# Writes the hand-made seed inputs of every fuzz target into fuzz/corpus/<target>/ (run once
# before fuzzing a fresh checkout; the committed corpora already contain what is still useful).
import json, os
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
def w(target, name, data):
    d = os.path.join(root, target); os.makedirs(d, exist_ok=True)
    if isinstance(data, str): data = data.encode()
    open(os.path.join(d, name), "wb").write(data)
# sse: header bytes [cap flag, cap extra, nsplits, offsets...] + stream
sse_streams = {
 "basic": b"event: message\nid: 7\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
 "priming": b"id: 0f3c\ndata: \n\nevent: message\nid: 0f3d\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[]}}\n\n",
 "crlf": b"retry: 1500\r\nid: a\r\ndata: x\r\ndata: y\r\n\r\n: keep-alive\r\n\r\n",
 "cr": b"data: x\r\rdata: y\r\r:c\revent: e\rdata\r\r",
 "bom": b"\xEF\xBB\xBFdata: x\n\n\xEF\xBB\xBFdata: y\n\n",
 "endpoint": b"event: endpoint\ndata: /messages/?session_id=abc\n\n",
 "ping": b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"ping\"}\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":0.5}}\n\n",
 "badutf8": b"data: \xff\xfe\xc3(\n\nid: \xe2\x82\n\n",
 "idnul": b"id: a\x00b\ndata: z\n\nid\ndata: q\n\nretry: 12a\nretry: 99\n\n",
 "partial": b"data: incomplete",
 "fieldnames": b"data:nospace\nevent:\nid:\nretry:\nfoo: bar\n data: leading\n\n",
}
for i,(k,s) in enumerate(sse_streams.items()):
    w("sse_parser", k, bytes([0, 0, 3, 40, 90, 200]) + s)
    w("sse_parser", k + "-smallcap", bytes([1, 10, 5, 1, 2, 128, 129, 255]) + s)
w("sse_parser", "bigcap", bytes([1, 0, 0]) + b"data: " + b"a"*100 + b"\n\n")
# jsonrpc
msgs = [
 {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":True}},"serverInfo":{"name":"s","version":"1"}}},
 {"jsonrpc":"2.0","id":"abc","method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},
 {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}},
 {"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad","data":{"x":1}}},
 {"jsonrpc":"2.0","id":None,"error":{"code":-32700,"message":"Parse error"}},
 [{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}],
 {"jsonrpc":"2.0","id":1.5,"method":"ping"},
 {"jsonrpc":"2.0","id":9223372036854775807,"result":{"content":[{"type":"text","text":"x"}],"isError":False}},
 {"jsonrpc":"1.0","id":1,"result":{}},
 [],
 {"jsonrpc":"2.0","id":4,"result":{"resultType":"input_required","inputRequests":{"k":{"method":"roots/list"}},"requestState":"v1.abc"}},
 {"jsonrpc":"2.0","id":5,"error":{"code":"x"}},
 {"jsonrpc":"2.0","id":5,"error":"nope"},
]
for i,m in enumerate(msgs):
    w("jsonrpc_decode", f"msg{i}", json.dumps(m))
w("jsonrpc_decode", "truncated", '{"jsonrpc":"2.0","id":1,"res')
w("jsonrpc_decode", "deep", "["*200 + "]"*200)
# input_required
irs = [
 {"resultType":"input_required","inputRequests":{"__main__:ask_card_holder":{"method":"elicitation/create","params":{"message":"What name should go on the card?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}},"requestState":"v1.sealed"},
 {"resultType":"input_required","requestState":"only-state"},
 {"resultType":"input_required","inputRequests":{"a":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"poem"}}],"maxTokens":100}},"b":{"method":"roots/list"}}},
 [{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}},"requestState":"s2"},{"name":"issue_card","arguments":{},"inputResponses":{"old":{}},"requestState":"s1","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}],
 {"inputRequests":[],"requestState":1},
 {"inputRequests":{"x":{"params":{}}}},
 {"inputRequests":{},"requestState":None},
]
for i,m in enumerate(irs):
    w("input_required", f"ir{i}", json.dumps(m))
# elicitation + output schema
schemas = [
 [{"type":"object","properties":{"name":{"type":"string","minLength":1,"maxLength":50,"title":"Name"},"age":{"type":"integer","minimum":0,"maximum":150,"default":30},"email":{"type":"string","format":"email"},"ok":{"type":"boolean","default":False},"color":{"type":"string","enum":["red","green"],"enumNames":["Red","Green"]},"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"minItems":1},"when":{"type":"string","format":"date-time"},"site":{"type":"string","format":"uri"},"day":{"type":"string","format":"date"},"pick":{"type":"string","oneOf":[{"const":"x","title":"X"},{"const":"y","title":"Y"}]}},"required":["name","email"]},
  {"name":"Ada","age":"36","email":"ada@example.com","ok":"on","color":"red","tags":"a","when":"2024-01-01T00:00:00Z","site":"https://x.y","day":"2024-02-30","pick":"x"}],
 [{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"],"additionalProperties":False},{"sum":42}],
 [{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/definitions/n"},"b":{"type":["string","null"],"pattern":"^x"}},"required":["a"]},{"a":1.0,"b":"xy"}],
 [{"$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}},"$ref":"#/$defs/node"},{"next":{"next":{"next":{}}}}],
 [{"type":"object","allOf":[{"required":["a"]}],"anyOf":[{"properties":{"a":{"const":1}}},{"properties":{"a":{"const":2}}}],"oneOf":[{"minProperties":1},{"maxProperties":0}],"not":{"required":["z"]},"if":{"properties":{"a":{"const":1}}},"then":{"required":["b"]},"else":{"required":["c"]}},{"a":1,"b":2}],
 [{"type":"array","items":{"type":"integer","multipleOf":3},"prefixItems":[{"type":"string"}],"contains":{"const":9},"minContains":1,"uniqueItems":True,"maxItems":5},["s",3,9]],
 [{"type":"object","patternProperties":{"^x":{"type":"string"}},"propertyNames":{"maxLength":3},"dependentRequired":{"a":["b"]},"exclusiveMinimum":0},{"xa":"1","a":1}],
 [{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":True}}},{"n":0}],
 [{"unevaluatedProperties":False},{}],
 [{"$ref":"https://example.com/schema"},{}],
 [True,{"a":1}],
 [{"type":"object","properties":{"n":{"type":"object"}}},{"n":{}}],
]
for i,m in enumerate(schemas):
    w("elicitation_schema", f"s{i}", json.dumps(m))
# ---- authorization (issue 27 point 7): examples from RFC 6750, 9728, 8414, 6749, 8693, 7591,
# 7638, 9449 and /work/shared/spec/mcp-auth-client.md, valid and hostile ----
www = [
 'Bearer realm="example"',                                                   # RFC 6750 §3
 'Bearer realm="example", error="invalid_token", error_description="The access token expired"',
 'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="files:read files:write"',
 'Bearer error="insufficient_scope", scope="files:read files:write admin", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"',
 'Bearer resource_metadata=https://mcp.example.com/.well-known/oauth-protected-resource',  # unquoted, sloppy
 'DPoP algs="ES256 PS256", error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof"',  # RFC 9449 §9
 'Bearer realm="api", DPoP algs="ES256", Basic YWxhZGRpbjpvcGVuc2VzYW1l',
 'Basic YWxhZGRpbjpvcGVuc2VzYW1l==, Bearer scope="a"',
 'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"',  # RFC 9110 §11.6.1
 'Bearer scope="a\\"b c\\\\d \x01e caf\xc3\xa9", error=insufficient_scope',
 'Bearer scope="unterminated',
 'Bearer a="x" b="y" c=z,,, ,DPoP',
 'bearer SCOPE="x" Scope="y" RESOURCE_METADATA="http://127.0.0.1:9/prm"',
 ', , Bearer',
 '=Bearer x=y',
 'Bearer ' + ', '.join(f'p{i}="v{i}"' for i in range(70)),
 ', '.join(f'S{i} t{i}' for i in range(70)),
 'Bearer resource_metadata="javascript:alert(1)"',
 'Bearer resource_metadata="https://user:pw@evil.example/prm"',
]
for i,h in enumerate(www):
    w("www_authenticate", f"h{i}", h.encode("latin-1") if '\xc3' in h else h)
prm = {"resource":"https://mcp.example.com/mcp","authorization_servers":["https://as.example.com"],"scopes_supported":["files:read","files:write"],"resource_name":"Example MCP","bearer_methods_supported":["header"]}
asm = {"issuer":"https://mcp.example.com/mcp","authorization_endpoint":"https://as.example.com/authorize","token_endpoint":"https://as.example.com/token","registration_endpoint":"https://as.example.com/register","response_types_supported":["code"],"grant_types_supported":["authorization_code","refresh_token","client_credentials"],"code_challenge_methods_supported":["S256"],"token_endpoint_auth_methods_supported":["none","client_secret_basic","private_key_jwt"],"scopes_supported":["files:read","offline_access"],"client_id_metadata_document_supported":True,"authorization_response_iss_parameter_supported":True,"dpop_signing_alg_values_supported":["ES256"]}
url = "https://mcp.example.com/mcp"
meta = [
 (url, prm), (url, asm),
 ("https://mcp.example.com/mcp", {**prm, "resource":"https://mcp.example.com"}),     # bare origin covers
 ("https://mcp.example.com/mcpx", prm),                                            # not a whole segment
 ("https://mcp.example.com/mcp", {**prm, "resource":"https://evil.example/mcp"}),  # resource_mismatch
 (url, {**prm, "authorization_servers":[]}),
 (url, {**prm, "authorization_servers":["http://as.example.com"]}),
 (url, {**prm, "authorization_servers":["http://127.0.0.1:9000/tenant1"]}),
 (url, {**prm, "authorization_servers":["https://as.example.com?x=1", 5]}),
 (url, {**prm, "resource":7}),
 (url, {**asm, "issuer":"https://mcp.example.com/mcp/"}),                        # issuer_mismatch
 (url, {**asm, "code_challenge_methods_supported":["plain"]}),
 (url, {**asm, "token_endpoint":"http://as.example.com/token"}),
 (url, {**asm, "authorization_endpoint":"https://as.example.com/a#frag"}),
 (url, {**asm, "response_types_supported":["token"]}),
 ("https://mcp.example.com", {**asm, "issuer":"https://mcp.example.com/oauth"}),  # legacy same origin
 ("https://mcp.example.com", {**asm, "issuer":"https://evil.example"}),
 ("http://localhost:3000/mcp", {"resource":"http://localhost:3000","authorization_servers":["http://localhost:3000"]}),
 ("https://MCP.example.com:443/mcp", {**prm, "resource":"https://mcp.EXAMPLE.com/"}),
 ("https://[::1]:8443/mcp?x=1", {**prm, "resource":"https://[::1]:8443"}),
]
for i,(u,d) in enumerate(meta):
    w("auth_metadata", f"m{i}", u + "\n" + json.dumps(d))
w("auth_metadata", "notjson", url + "\n<html>502 Bad Gateway</html>")
w("auth_metadata", "array", url + "\n[1,2]")
w("auth_metadata", "ctl", "https://mcp.example.com/\x00\r\n" + json.dumps({**prm, "resource":"https://mcp.example.com/\x00\r"}))
def tok(status, body):
    return status.to_bytes(2, "big") + (body if isinstance(body, bytes) else json.dumps(body).encode())
tokens = [
 (200, {"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"Bearer","expires_in":3600,"refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA","scope":"files:read"}),  # RFC 6749 §5.1
 (200, {"access_token":"Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU","token_type":"DPoP","expires_in":"2677"}),  # RFC 9449 §5
 (200, {"access_token":"eyJhbGciOiJFUzI1NiJ9.eyJjbmYiOnsiamt0IjoiMFpjT0NPUkNaNi1YQ29vQ2hZeFJCWkd1Wm1iUWVETVhmLUJIdWMyMERkVSJ9fQ.sig","token_type":"dpop"}),
 (200, {"access_token":"", "token_type":"Bearer"}),
 (200, {"access_token":"secret-access-12345","token_type":"mac"}),
 (200, {"access_token":"secret-access-12345","token_type":"secret-access-12345"}),
 (200, {"access_token":"secret-access-12345","expires_in":-5}),
 (200, {"access_token":"secret-access-12345","expires_in":1e308}),
 (200, {"access_token":"secret-access-12345","expires_in":"NaN"}),
 (200, {"error":"invalid_request","access_token":"secret-access-12345"}),
 (400, {"error":"invalid_grant","error_description":"The provided authorization grant is invalid\r\n\x1b[31m"}),  # RFC 6749 §5.2
 (400, {"error":"use_dpop_nonce","error_description":"Authorization server requires nonce in DPoP proof"}),
 (401, {"error":"invalid_client","error_description":"x"*1000}),
 (200, {"access_token":"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1In0.","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag","token_type":"N_A","expires_in":300}),  # RFC 8693 §2.2.1
 (201, {"client_id":"s6BhdRkqt3","client_secret":"cf136dc3c1fc93f31185e5885805d","client_id_issued_at":2893256800,"client_secret_expires_at":2893276800,"token_endpoint_auth_method":"client_secret_basic"}),  # RFC 7591 §3.2.1
 (201, {"client_id":"","client_secret":"cf136dc3c1fc93f31185e5885805d"}),
 (400, {"error":"invalid_redirect_uri","error_description":"The redirection URI http://sketchy.example.com is not allowed"}),
 (500, b"<html>oops</html>"),
 (200, b'{"access_token":"a","access_token":"secret-access-12345"}'),
 (200, b'{"access_token":"secret\\u002daccess"}'),
 (200, b'[]'),
 (204, b''),
]
for i,(s,b) in enumerate(tokens):
    w("token_response", f"t{i}", tok(s, b))
import base64
b64 = lambda d: base64.urlsafe_b64encode(d if isinstance(d, bytes) else json.dumps(d).encode()).rstrip(b"=").decode()
jose = [
 # RFC 7515 §A.1's JWS.
 "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
 b64({"alg":"ES256","typ":"at+jwt"}) + "." + b64({"sub":"u","cnf":{"jkt":"0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"}}) + ".c2ln",  # RFC 9449 §6.1
 b64({"alg":"ES256"}) + "." + b64({"cnf":{"jkt":5}}) + ".",
 b64({"typ":"oauth-id-jag+jwt","alg":"RS256"}) + "." + b64({"iss":"https://idp.example.com","sub":"u","aud":"https://as.example.com","resource":"https://mcp.example.com/mcp","client_id":"c","jti":"j","exp":1,"iat":0,"scope":"a b"}) + ".c2ln",
 b64({"typ":"JWT"}) + "." + b64({"a":1}) + ".x",            # no alg
 b64([1]) + "." + b64({"a":1}) + ".x",
 "a.b.c.d", "..", "opaque-access-token", b64({"alg":"none"}) + "." + b64(b"\xff\xfe") + ".", "e30=.e30=.e30=",
 json.dumps({"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":"jpsQnnGQmL-YBIffH1136cLVpZ8VcKm1MbnwYg9Lv9A"}),  # RFC 7517 §A.2
 json.dumps({"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","kid":"2011-04-29"}),  # RFC 7638 §3.1
 json.dumps({"kty":"RSA","n":"AQAB","e":"AQAB"}),
 json.dumps({"kty":"EC","crv":"P-384","x":"a","y":"b"}),
 json.dumps({"kty":"oct","k":"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"}),
 json.dumps({"keys":[{"kty":"EC","crv":"P-256","x":"eA","y":"eQ","kid":"1"}]}),
 json.dumps({"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":5}),
]
for i,j in enumerate(jose):
    w("jose", f"j{i}", j)
pk = base64.b64encode(bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420" + "11"*32 + "a144034200" + "04" + "22"*64)).decode()
w("jose", "pem-ec", "-----BEGIN PRIVATE KEY-----\n" + "\n".join(pk[i:i+64] for i in range(0, len(pk), 64)) + "\n-----END PRIVATE KEY-----\n")
w("jose", "pem-rsa1", "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----")
w("jose", "pem-noend", "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n")
w("jose", "der-long", bytes.fromhex("3084ffffffff020100"))
w("jose", "der-ec", bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420" + "11"*32 + "a144034200" + "04" + "22"*64))
nonce = [
 ("eyJ7S_zG.eyJH0-Z.HX4w-7v", 'DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof"', {"error":"use_dpop_nonce","error_description":"Authorization server requires nonce in DPoP proof"}),  # RFC 9449 §8, §9
 ("AS-NONCE-1", 'Bearer error="invalid_token"', {"error":"invalid_dpop_proof"}),
 ("", 'DPoP error=use_dpop_nonce', {"error":"use_dpop_nonce"}),
 ("has space", 'DPoP algs="ES256", error="use_dpop_nonce"', {"error":"use_dpop_nonce"}),
 ('quo"te\\back', 'Basic error="use_dpop_nonce", DPoP error="invalid_token"', {"error":"use_\\u0064pop_nonce"}),
 ("caf\u00e9\x01\x7f", 'DPoP ERROR="use_dpop_nonce"', "not json"),
 ("!#$%&'()*+,-./0123456789:;<=>?@AZ[]^_`az{|}~", 'Bearer, DPoP error="use_dpop_nonce"', {"error":5}),
 ("n"*1025, 'DPoP error="USE_DPOP_NONCE"', {}),
]
for i,(n,h,b) in enumerate(nonce):
    w("dpop_nonce", f"n{i}", (n + "\n" + h + "\n" + (b if isinstance(b, str) else json.dumps(b))).encode())
