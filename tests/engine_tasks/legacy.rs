//! Tasks on 2025-11-25: the server, polls with input on the tasks/result stream, list and
//! cancel under the 2026 names, a task-only tool.

use super::*;

/// A 2025-11-25 server with task support: a task-augmented `tools/call` answers a
/// `CreateTaskResult`; `tasks/get` says working, then input_required; `tasks/result` then
/// sends the task's `elicitation/create` (with related-task) on its stream and answers once
/// the client did; `tasks/list` and `tasks/cancel` serve the task store.
fn legacy_server(seen: Rc<RefCell<Vec<Value>>>) -> Server {
    let polls = Rc::new(Cell::new(0u32));
    let answered = Rc::new(Cell::new(false));
    let waiting: Rc<RefCell<Option<RequestId>>> = Rc::default();
    let task = |status: &str| {
        json!({ "taskId": "L-1", "status": status, "createdAt": "2026-08-30T09:00:00Z",
                "lastUpdatedAt": "2026-08-30T09:00:00Z", "ttl": 60000, "pollInterval": 10 })
    };
    let final_result = || {
        let mut r = done(7);
        r["_meta"] = json!({ RELATED: { "taskId": "L-1" } });
        r
    };
    Box::new(move |m| match m {
        Message::Request { id, method, params } => {
            let p = params.unwrap_or(Value::Null);
            match method.as_str() {
                "initialize" => ok(
                    id,
                    json!({ "protocolVersion": "2025-11-25",
                            "capabilities": { "tools": {}, "tasks": { "list": {}, "cancel": {}, "requests": { "tools": { "call": {} } } } },
                            "serverInfo": { "name": "memory-tasks", "version": "1" } }),
                ),
                "tools/list" => ok(id, tool_listing()),
                "tools/call" if p.get("task").is_some() => {
                    seen.borrow_mut().push(p.clone());
                    ok(id, json!({ "task": task("working") }))
                }
                "tools/call" if p["name"] == "needs_task" => {
                    error(id, -32601, "Tool needs_task requires task augmentation")
                }
                "tools/call" => ok(id, done(1)),
                "tasks/get" => {
                    polls.set(polls.get() + 1);
                    let status = match (polls.get(), answered.get()) {
                        (1, _) => "working",
                        (_, false) => "input_required",
                        (_, true) => "completed",
                    };
                    ok(id, task(status))
                }
                "tasks/result" if answered.get() => ok(id, final_result()),
                "tasks/result" => {
                    *waiting.borrow_mut() = Some(id);
                    let mut params = ask();
                    params["_meta"] = json!({ RELATED: { "taskId": "L-1" } });
                    vec![Message::request(
                        RequestId::Str("ask-1".into()),
                        "elicitation/create",
                        Some(params),
                    )]
                }
                "tasks/list" => ok(
                    id,
                    json!({ "tasks": [task("working")], "nextCursor": "c2" }),
                ),
                "tasks/cancel" => ok(id, task("cancelled")),
                _ => error(id, -32601, "Method not found"),
            }
        }
        Message::Result { id, result } if id == RequestId::Str("ask-1".into()) => {
            seen.borrow_mut().push(result);
            answered.set(true);
            match waiting.borrow_mut().take() {
                Some(call) => ok(call, final_result()),
                None => vec![],
            }
        }
        Message::Notification { .. } | Message::Result { .. } | Message::Error { .. } => vec![],
    })
}

#[test]
fn legacy_task_is_polled_and_its_input_arrives_on_the_tasks_result_stream() {
    let seen: Rc<RefCell<Vec<Value>>> = Rc::default();
    let mut s = setup(Mode::Legacy, legacy_server(seen.clone()), true);
    let tasks_seen = Rc::default();
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.request("tools/list", None, &opts()).await?;
        s.engine
            .call_tool(call("report"), &on_task_recording(&tasks_seen), &opts())
            .await
    });
    let result = result.unwrap();
    assert_eq!(result["structuredContent"]["n"], 7);
    assert_eq!(result["_meta"][RELATED]["taskId"], "L-1");
    // onTask saw the task with the 2026 names.
    let t = &tasks_seen.borrow()[0];
    assert_eq!(
        (t["ttlMs"].clone(), t["pollIntervalMs"].clone()),
        (json!(60000), json!(10))
    );
    assert_eq!(t.get("ttl"), None);
    // params.task carried the ttl; the elicitation's answer echoed related-task.
    let seen = seen.borrow();
    assert_eq!(seen[0]["task"], json!({ "ttl": 600000 }));
    assert_eq!(seen[1]["content"]["ok"], true);
    assert_eq!(seen[1]["_meta"][RELATED]["taskId"], "L-1");
    // initialize declared `tasks: {}`; the calls: tools/call, get, get, result.
    let out = sent(&s.transport);
    let init = out.iter().find(|m| m["method"] == "initialize").unwrap();
    assert_eq!(init["params"]["capabilities"]["tasks"], json!({}));
    let names: Vec<String> = methods(&s.transport)
        .into_iter()
        .filter(|m| m.starts_with("tasks/") || m == "tools/call")
        .collect();
    assert_eq!(
        names,
        ["tools/call", "tasks/get", "tasks/get", "tasks/result"]
    );
}

#[test]
fn legacy_list_and_cancel_use_the_2026_names() {
    let mut s = setup(Mode::Legacy, legacy_server(Rc::default()), false);
    let (list, cancelled, plain) = s.pool.run_until(async {
        s.engine.connect().await.unwrap();
        (
            s.engine.task_list(Some("c1".into()), &opts()).await,
            s.engine.task_cancel("L-1", &opts()).await,
            s.engine
                .call_tool(call("report"), &TaskCall::default(), &opts())
                .await,
        )
    });
    let list = list.unwrap();
    assert_eq!(list["nextCursor"], "c2");
    assert_eq!(list["tasks"][0]["ttlMs"], 60000);
    assert_eq!(cancelled.unwrap().unwrap()["status"], "cancelled");
    // Without the task option a legacy call is an ordinary call.
    assert_eq!(plain.unwrap(), done(1));
    let out = sent(&s.transport);
    let list_msg = out.iter().find(|m| m["method"] == "tasks/list").unwrap();
    assert_eq!(list_msg["params"]["cursor"], "c1");
    let init = out.iter().find(|m| m["method"] == "initialize").unwrap();
    assert_eq!(init["params"]["capabilities"].get("tasks"), None);
}

#[test]
fn a_legacy_task_only_tool_gets_a_task_without_the_task_option() {
    let seen: Rc<RefCell<Vec<Value>>> = Rc::default();
    let mut s = setup(Mode::Legacy, legacy_server(seen.clone()), true);
    let (first, second) = s.pool.run_until(async {
        s.engine.connect().await.unwrap();
        // No listing yet: the client learns the tools first (the server runs tool tasks).
        let first = s
            .engine
            .call_tool(call("needs_task"), &TaskCall::default(), &opts())
            .await;
        // Known now: asked for a task at once.
        let second = s
            .engine
            .call_tool(call("needs_task"), &TaskCall::default(), &opts())
            .await;
        (first, second)
    });
    assert_eq!(first.unwrap()["structuredContent"]["n"], 7);
    assert_eq!(second.unwrap()["structuredContent"]["n"], 7);
    let calls: Vec<Value> = sent(&s.transport)
        .into_iter()
        .filter(|m| m["method"] == "tools/call" || m["method"] == "tools/list")
        .collect();
    let shape: Vec<(String, bool)> = calls
        .iter()
        .map(|m| {
            let method = m["method"].as_str().unwrap_or_default().to_string();
            (method, m["params"].get("task").is_some())
        })
        .collect();
    let expected = [
        ("tools/list", false),
        ("tools/call", true),
        ("tools/call", true),
    ];
    assert_eq!(shape, expected.map(|(m, t)| (m.to_string(), t)).to_vec());
    assert_eq!(calls[1]["params"]["task"], json!({}));
}
