use super::*;

fn legacy_task() -> Value {
    json!({"taskId": "t-1", "status": "working", "createdAt": "2026-08-30T09:00:00Z",
           "lastUpdatedAt": "2026-08-30T09:00:00Z", "ttl": 600000, "pollInterval": 2000})
}

fn modern_stub() -> Value {
    json!({"resultType": "task", "taskId": "t-2", "status": "working", "createdAt": "2026-08-30T09:00:00Z",
           "lastUpdatedAt": "2026-08-30T09:00:00Z", "ttlMs": null, "pollIntervalMs": 500})
}

#[test]
fn statuses() {
    for (s, terminal) in [
        ("working", false),
        ("input_required", false),
        ("completed", true),
        ("failed", true),
        ("cancelled", true),
    ] {
        assert_eq!(Status::parse(s).unwrap().is_terminal(), terminal, "{s}");
    }
    assert_eq!(Status::parse("done"), None);
    assert_eq!(Status::parse("Working"), None);
}

#[test]
fn a_2025_task_gets_the_2026_names() {
    let t = read("x", &legacy_task()).unwrap();
    assert_eq!(t.id, "t-1");
    assert_eq!(t.status, Status::Working);
    assert_eq!(
        t.value,
        json!({"taskId": "t-1", "status": "working", "createdAt": "2026-08-30T09:00:00Z",
               "lastUpdatedAt": "2026-08-30T09:00:00Z", "ttlMs": 600000, "pollIntervalMs": 2000})
    );
    assert_eq!(t.poll_ms(), 2000);
}

#[test]
fn a_2026_task_drops_result_type_and_keeps_a_null_ttl() {
    let t = read("x", &modern_stub()).unwrap();
    assert_eq!(t.value.get("resultType"), None);
    assert_eq!(t.value["ttlMs"], Value::Null);
    assert_eq!(t.value["pollIntervalMs"], 500);
    // An absent ttl reads as null (unlimited).
    let t = read("x", &json!({"taskId": "a", "status": "working"})).unwrap();
    assert_eq!(t.value["ttlMs"], Value::Null);
}

#[test]
fn malformed_tasks_are_named() {
    for (bad, why) in [
        (json!([1]), "not an object"),
        (json!({"status": "working"}), "taskId"),
        (json!({"taskId": "", "status": "working"}), "taskId"),
        (json!({"taskId": 5, "status": "working"}), "taskId"),
        (json!({"taskId": "a"}), "status is not a string"),
        (
            json!({"taskId": "a", "status": "done"}),
            "\"done\" is unknown",
        ),
    ] {
        let e = read("tasks/get", &bad).unwrap_err();
        assert!(e.message.contains(why), "{}", e.message);
        assert!(e.message.contains("tasks/get"), "{}", e.message);
        assert_eq!(e.kind(), Some(ErrorKind::Protocol));
    }
}

#[test]
fn poll_interval_default_floor_and_cap() {
    let with = |v: Value| {
        let mut t = json!({"taskId": "a", "status": "working"});
        t["pollIntervalMs"] = v;
        read("x", &t).unwrap().poll_ms()
    };
    assert_eq!(with(Value::Null), DEFAULT_POLL_MS);
    assert_eq!(with(json!("fast")), DEFAULT_POLL_MS);
    assert_eq!(with(json!(-5)), DEFAULT_POLL_MS);
    assert_eq!(with(json!(0)), MIN_POLL_MS);
    assert_eq!(with(json!(10)), MIN_POLL_MS);
    assert_eq!(with(json!(1500.2)), 1501);
    assert_eq!(with(json!(3_600_000)), MAX_POLL_MS);
    let t = read("x", &json!({"taskId": "a", "status": "working"})).unwrap();
    assert_eq!(t.poll_ms(), DEFAULT_POLL_MS);
}

#[test]
fn created_tasks_per_era() {
    // 2025: the wrapped CreateTaskResult.
    let wrapped = json!({"task": legacy_task()});
    assert_eq!(created(Era::Legacy, &wrapped).unwrap().unwrap().id, "t-1");
    assert!(is_task_stub(&wrapped));
    // A tool result whose structured output has a `task` member is not a task.
    let result = json!({"content": [], "task": {"x": 1}});
    assert_eq!(created(Era::Legacy, &result).unwrap(), None);
    assert!(!is_task_stub(&result));
    assert_eq!(created(Era::Legacy, &modern_stub()).unwrap(), None);
    // 2026: flat, resultType task.
    assert_eq!(
        created(Era::Modern, &modern_stub()).unwrap().unwrap().id,
        "t-2"
    );
    assert!(is_task_stub(&modern_stub()));
    assert_eq!(created(Era::Modern, &wrapped).unwrap(), None);
    assert_eq!(created(Era::Modern, &json!({"content": []})).unwrap(), None);
    let e = created(
        Era::Modern,
        &json!({"resultType": "task", "status": "working"}),
    )
    .unwrap_err();
    assert!(e.message.contains("CreateTaskResult"), "{}", e.message);
}

fn detailed(status: &str, extra: Value) -> Task {
    let mut v = json!({"taskId": "t-3", "status": status});
    if let (Value::Object(o), Value::Object(x)) = (&mut v, extra) {
        o.extend(x);
    }
    read("tasks/get", &v).unwrap()
}

#[test]
fn terminal_outcomes_2026() {
    assert_eq!(outcome(&detailed("working", json!({}))), None);
    assert_eq!(outcome(&detailed("input_required", json!({}))), None);
    let done = json!({"content": [{"type": "text", "text": "ok"}], "isError": true});
    assert_eq!(
        outcome(&detailed("completed", json!({"result": done.clone()}))),
        Some(Ok(done))
    );
    let e = outcome(&detailed("completed", json!({})))
        .unwrap()
        .unwrap_err();
    assert!(e.message.contains("without a result"), "{}", e.message);
    let e = outcome(&detailed(
        "failed",
        json!({"error": {"code": -32603, "message": "disk full", "data": {"disk": "/"}}}),
    ))
    .unwrap()
    .unwrap_err();
    assert_eq!(e.code, -32603);
    assert_eq!(e.message, "disk full");
    assert_eq!(e.kind(), None);
    assert_eq!(e.data.as_ref().unwrap()["disk"], "/");
    assert_eq!(e.data.as_ref().unwrap()["taskId"], "t-3");
    let e = outcome(&detailed("failed", json!({})))
        .unwrap()
        .unwrap_err();
    assert!(e.message.contains("without an error"), "{}", e.message);
    let e = outcome(&detailed("cancelled", json!({"statusMessage": "by admin"})))
        .unwrap()
        .unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::TaskCancelled));
    assert!(e.message.contains("\"t-3\": by admin"), "{}", e.message);
    assert_eq!(e.data_json().unwrap()["kind"], "task_cancelled");
    assert_eq!(e.data_json().unwrap()["taskId"], "t-3");
}

#[test]
fn open_requests_skip_answered_keys() {
    let t = detailed(
        "input_required",
        json!({"inputRequests": {
            "a": {"method": "elicitation/create", "params": {"message": "A?"}},
            "b": {"method": "roots/list"}
        }}),
    );
    let open = open_requests(&t, &[]).unwrap();
    assert_eq!(
        open.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert_eq!(open[1].params, json!({}));
    let open = open_requests(&t, &["a".to_string()]).unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].key, "b");
    assert!(open_requests(&detailed("input_required", json!({})), &[])
        .unwrap()
        .is_empty());
    let bad = detailed("input_required", json!({"inputRequests": {"a": {}}}));
    assert!(open_requests(&bad, &[]).is_err());
    let bad = detailed("input_required", json!({"inputRequests": [1]}));
    assert!(open_requests(&bad, &[]).is_err());
}

#[test]
fn params_of_the_task_methods() {
    assert_eq!(id_params("t"), json!({"taskId": "t"}));
    let mut answers = Map::new();
    answers.insert("a".into(), json!({"action": "decline"}));
    assert_eq!(
        update_params("t", answers),
        json!({"taskId": "t", "inputResponses": {"a": {"action": "decline"}}})
    );
    assert_eq!(task_param(Some(600_000)), json!({"ttl": 600000}));
    assert_eq!(task_param(None), json!({}));
}

#[test]
fn list_results_are_normalised() {
    let page = json!({"tasks": [legacy_task()], "nextCursor": "c2"});
    let out = list(&page).unwrap();
    assert_eq!(out["nextCursor"], "c2");
    assert_eq!(out["tasks"][0]["ttlMs"], 600000);
    assert_eq!(out["tasks"][0].get("ttl"), None);
    assert!(list(&json!({})).is_err());
    assert!(list(&json!({"tasks": [{"taskId": 1}]})).is_err());
    let e = list_unsupported();
    assert_eq!(e.kind(), Some(ErrorKind::Unsupported));
    assert_eq!(e.data_json().unwrap()["kind"], "unsupported");
}

#[test]
fn a_missing_declaration_says_how_to_declare() {
    let e = missing_declaration(McpError::new(
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        "Missing capability",
    ));
    assert!(e.message.contains("tasks: true"), "{}", e.message);
    assert_eq!(e.code, MISSING_REQUIRED_CLIENT_CAPABILITY);
    let other = missing_declaration(McpError::new(-32602, "bad"));
    assert_eq!(other.message, "bad");
}

#[test]
fn related_task_is_echoed_on_answers() {
    let params = json!({"message": "?", "_meta": {RELATED_TASK: {"taskId": "t-1"}}});
    let related = related_task(&params);
    assert_eq!(related, Some(json!({"taskId": "t-1"})));
    let mut answer = json!({"action": "accept", "content": {}});
    echo_related_task(related, &mut answer);
    assert_eq!(answer["_meta"][RELATED_TASK]["taskId"], "t-1");
    let mut plain = json!({"action": "decline"});
    echo_related_task(related_task(&json!({})), &mut plain);
    assert_eq!(plain, json!({"action": "decline"}));
}

#[test]
fn task_notifications_name_their_task() {
    let p = json!({"taskId": "t-1", "status": "completed"});
    assert_eq!(notified_task("notifications/tasks", &p), Some("t-1"));
    assert_eq!(notified_task("notifications/tasks/status", &p), Some("t-1"));
    assert_eq!(notified_task("notifications/progress", &p), None);
    assert_eq!(notified_task("notifications/tasks", &json!({})), None);
}

#[test]
fn task_only_tools_and_servers() {
    assert!(task_required(
        &json!({"name": "a", "execution": {"taskSupport": "required"}})
    ));
    assert!(!task_required(
        &json!({"name": "a", "execution": {"taskSupport": "optional"}})
    ));
    assert!(!task_required(&json!({"name": "a"})));
    let caps = json!({"tasks": {"requests": {"tools": {"call": {}}}}});
    assert!(server_runs_tool_tasks(Some(&caps)));
    assert!(!server_runs_tool_tasks(Some(
        &json!({"tasks": {"list": {}}})
    )));
    assert!(!server_runs_tool_tasks(None));
}

#[test]
fn news_and_the_wait_timeout() {
    let a = detailed("working", json!({"lastUpdatedAt": "1"}));
    assert!(!changed(&a, &a.clone()));
    assert!(changed(
        &a,
        &detailed("working", json!({"lastUpdatedAt": "2"}))
    ));
    assert!(changed(
        &a,
        &detailed("input_required", json!({"lastUpdatedAt": "1"}))
    ));
    assert!(changed(
        &a,
        &detailed(
            "working",
            json!({"lastUpdatedAt": "1", "statusMessage": "50%"})
        )
    ));
    let e = wait_timed_out("t-9", 300);
    assert_eq!(e.kind(), Some(ErrorKind::Timeout));
    assert!(
        e.message.contains("\"t-9\" had no news within 300 ms"),
        "{}",
        e.message
    );
    let data = e.data_json().unwrap();
    assert_eq!(
        (data["timeoutMs"].clone(), data["taskId"].clone()),
        (json!(300), json!("t-9"))
    );
}
