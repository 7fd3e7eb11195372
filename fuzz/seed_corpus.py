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
