//! Tasks on the 2026 era: the extension's server, polls through input_required to the final
//! result, terminal states, the missing declaration, timeouts, aborts, the tasks option,
//! tasks/list and tasks/cancel, an onTask that throws, a notification waking the poller.

use super::*;

/// A 2026 server following the tasks extension: `tools/call` needs the extension declared
/// (-32021 otherwise) and answers a task named after the tool; `tasks/get` walks each task
/// through its script.
fn modern_server(updates: Rc<RefCell<Vec<Value>>>) -> Server {
    let polls: Rc<RefCell<Vec<(String, u32)>>> = Rc::default();
    Box::new(move |m| {
        let Message::Request { id, method, params } = m else {
            return vec![];
        };
        let p = params.unwrap_or(Value::Null);
        let declared = p["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
            .get(EXT)
            .is_some();
        let task_id = p["taskId"].as_str().unwrap_or_default().to_string();
        match method.as_str() {
            "tools/list" => ok(id, tool_listing()),
            "tools/call" | "tasks/get" | "tasks/update" | "tasks/cancel" if !declared => {
                error(id, -32021, "Missing required client capability")
            }
            "tools/call" => ok(
                id,
                json!({ "resultType": "task", "taskId": p["name"], "status": "working",
                        "createdAt": "2026-08-30T09:00:00Z", "lastUpdatedAt": "2026-08-30T09:00:00Z",
                        "ttlMs": 60000, "pollIntervalMs": if p["name"] == "sleepy" { 60_000 } else { 10 } }),
            ),
            "tasks/update" => {
                updates.borrow_mut().push(p.clone());
                ok(id, json!({ "resultType": "complete" }))
            }
            "tasks/cancel" => ok(id, json!({ "resultType": "complete" })),
            "tasks/list" => error(id, -32601, "Method not found"),
            "tasks/get" if !KNOWN.contains(&task_id.as_str()) => error(id, -32602, "Unknown task"),
            "tasks/get" => {
                let n = {
                    let mut polls = polls.borrow_mut();
                    match polls.iter_mut().find(|(t, _)| *t == task_id) {
                        Some((_, n)) => {
                            *n += 1;
                            *n
                        }
                        None => {
                            polls.push((task_id.clone(), 1));
                            1
                        }
                    }
                };
                let mut task = json!({ "resultType": "complete", "taskId": task_id, "status": "working",
                    "createdAt": "2026-08-30T09:00:00Z", "lastUpdatedAt": "2026-08-30T09:00:01Z",
                    "ttlMs": 60000, "pollIntervalMs": 10 });
                match (task_id.as_str(), n) {
                    ("sleepy", _) => {
                        task["status"] = json!("completed");
                        task["result"] = done(9);
                    }
                    (_, 1) | ("slow", _) => {}
                    // Asks once; the first poll after the update still lists the answered key
                    // (the ack is eventually consistent), the next one completes.
                    ("report", 2 | 3) => {
                        task["status"] = json!("input_required");
                        task["inputRequests"] =
                            json!({ "go": { "method": "elicitation/create", "params": ask() } });
                    }
                    ("report", _) => {
                        task["status"] = json!("completed");
                        task["result"] = done(3);
                    }
                    ("bad_output", _) => {
                        task["status"] = json!("completed");
                        task["result"] =
                            json!({ "content": [], "structuredContent": { "n": "three" } });
                    }
                    ("tool_error", _) => {
                        task["status"] = json!("completed");
                        task["result"] = json!({ "content": [{ "type": "text", "text": "no" }], "isError": true });
                    }
                    ("fails", _) => {
                        task["status"] = json!("failed");
                        task["error"] = json!({ "code": -32603, "message": "the disk is full" });
                    }
                    ("cancels", _) => {
                        task["status"] = json!("cancelled");
                        task["statusMessage"] = json!("stopped by an operator");
                    }
                    _ => return error(id, -32602, "Unknown task"),
                }
                ok(id, task)
            }
            _ => error(id, -32601, "Method not found"),
        }
    })
}

#[test]
fn modern_task_is_polled_through_input_required_to_its_final_result() {
    let updates: Rc<RefCell<Vec<Value>>> = Rc::default();
    let mut s = modern(modern_server(updates.clone()));
    let tasks_seen = Rc::default();
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.request("tools/list", None, &opts()).await?;
        s.engine
            .call_tool(call("report"), &on_task_recording(&tasks_seen), &opts())
            .await
    });
    // The stub has no structuredContent: the outputSchema is checked on the final result only.
    assert_eq!(result.unwrap(), done(3));
    let tasks_seen = tasks_seen.borrow();
    assert_eq!(tasks_seen.len(), 1, "onTask is called once");
    assert_eq!(tasks_seen[0]["taskId"], "report");
    assert_eq!(tasks_seen[0]["ttlMs"], 60000);
    assert_eq!(tasks_seen[0].get("resultType"), None);
    // The input request was answered once although two polls listed it.
    assert_eq!(s.host.asked.borrow().len(), 1);
    assert_eq!(s.host.asked.borrow()[0]["requestId"], "go");
    let updates = updates.borrow();
    assert_eq!(updates.len(), 1);
    assert_eq!(updates[0]["taskId"], "report");
    assert_eq!(updates[0]["inputResponses"]["go"]["content"]["ok"], true);
    // The call declared the extension on its own request; no legacy task param in 2026.
    let out = sent(&s.transport);
    let call_msg = out.iter().find(|m| m["method"] == "tools/call").unwrap();
    assert_eq!(
        call_msg["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"],
        json!({ "elicitation": { "form": {}, "url": {} }, "extensions": { EXT: {} } })
    );
    assert_eq!(call_msg["params"].get("task"), None);
    // Mcp-Name carries the task id on tasks/get and tasks/update.
    let headers = s.transport.headers.borrow();
    for (m, h) in out.iter().zip(headers.iter()) {
        let name = h
            .iter()
            .find(|(k, _)| k == "Mcp-Name")
            .map(|(_, v)| v.as_str());
        match m["method"].as_str() {
            Some("tasks/get" | "tasks/update") => assert_eq!(name, Some("report")),
            Some("tools/call") => assert_eq!(name, Some("report")),
            _ => {}
        }
    }
    assert!(methods(&s.transport).contains(&"tasks/update".to_string()));
    assert!(s.engine.inflight.borrow().is_empty());
}

#[test]
fn modern_terminal_states_yield_a_result_or_an_error() {
    let mut s = modern(modern_server(Rc::default()));
    let task = TaskCall {
        asked: true,
        ..Default::default()
    };
    let (tool_error, fails, cancels, bad_output) = s.pool.run_until(async {
        s.engine.connect().await.unwrap();
        s.engine.request("tools/list", None, &opts()).await.unwrap();
        let e = &s.engine;
        (
            e.call_tool(call("tool_error"), &task, &opts()).await,
            e.call_tool(call("fails"), &task, &opts()).await,
            e.call_tool(call("cancels"), &task, &opts()).await,
            e.call_tool(call("bad_output"), &task, &opts()).await,
        )
    });
    // A tool error is a completed task whose result says isError.
    assert_eq!(tool_error.unwrap()["isError"], true);
    let e = fails.unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (-32603, "the disk is full"));
    assert_eq!(e.data.as_ref().unwrap()["taskId"], "fails");
    let e = cancels.unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::TaskCancelled));
    assert!(
        e.message.contains("stopped by an operator"),
        "{}",
        e.message
    );
    let e = bad_output.unwrap_err();
    assert!(e.message.contains("bad_output"), "{}", e.message);
}

#[test]
fn a_missing_declaration_is_a_clear_error_and_not_retried() {
    let mut s = modern(modern_server(Rc::default()));
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine
            .call_tool(call("tool_error"), &TaskCall::default(), &opts())
            .await
    });
    let e = result.unwrap_err();
    assert_eq!(e.code, -32021);
    assert!(e.message.contains("tasks: true"), "{}", e.message);
    let calls = methods(&s.transport)
        .into_iter()
        .filter(|m| m == "tools/call")
        .count();
    assert_eq!(
        calls, 1,
        "the client declares only what the caller asked for"
    );
}

#[test]
fn a_timeout_stops_waiting_for_a_task_without_news_and_does_not_cancel_it() {
    let mut s = modern(modern_server(Rc::default()));
    let task = TaskCall {
        asked: true,
        ..Default::default()
    };
    let quick = RequestOptions::with_timeout(300);
    let started = std::time::Instant::now();
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.call_tool(call("slow"), &task, &quick).await
    });
    let e = result.unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::Timeout));
    assert_eq!(e.data_json().unwrap()["taskId"], "slow");
    assert!(e.message.contains("it goes on"), "{}", e.message);
    // One piece of news (the first poll's lastUpdatedAt) restarted the timer once at most.
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    s.pool.run_until_stalled();
    let out = methods(&s.transport);
    assert!(out.iter().filter(|m| *m == "tasks/get").count() >= 2);
    assert!(!out.iter().any(|m| m == "tasks/cancel"));
}

#[test]
fn the_tasks_option_declares_on_every_request_and_tasks_result_resumes_a_task() {
    let mut s = setup(
        Mode::parse("2026-07-28").unwrap(),
        modern_server(Rc::default()),
        true,
    );
    let (stub, result, got) = s.pool.run_until(async {
        s.engine.connect().await.unwrap();
        // A raw request returns the stub as sent; tasks.result (after a "reload") waits.
        let stub = s
            .engine
            .request("tools/call", Some(call("tool_error")), &opts())
            .await
            .unwrap();
        let result = s.engine.task_result("tool_error", &opts()).await;
        let got = s.engine.task_get("tool_error", &opts()).await;
        (stub, result, got)
    });
    assert_eq!(stub["resultType"], "task");
    assert_eq!(result.unwrap()["isError"], true);
    let got = got.unwrap();
    assert_eq!(got["status"], "completed");
    assert_eq!(got["pollIntervalMs"], 10);
    for m in sent(&s.transport) {
        assert!(
            m["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
                .get(EXT)
                .is_some(),
            "{m}"
        );
    }
}

#[test]
fn modern_list_is_unsupported_and_cancel_is_an_ack() {
    let mut s = modern(modern_server(Rc::default()));
    let (list, cancel, unknown) = s.pool.run_until(async {
        s.engine.connect().await.unwrap();
        (
            s.engine.task_list(None, &opts()).await,
            s.engine.task_cancel("slow", &opts()).await,
            s.engine.task_get("nope", &opts()).await,
        )
    });
    let e = list.unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::Unsupported));
    assert_eq!(cancel.unwrap(), None);
    assert_eq!(unknown.unwrap_err().code, -32602);
    let out = sent(&s.transport);
    assert!(!out.iter().any(|m| m["method"] == "tasks/list"));
    let i = out
        .iter()
        .position(|m| m["method"] == "tasks/cancel")
        .unwrap();
    let name = s.transport.headers.borrow()[i]
        .iter()
        .find(|(k, _)| k == "Mcp-Name")
        .map(|(_, v)| v.clone());
    assert_eq!(name.as_deref(), Some("slow"));
}

#[test]
fn an_abort_stops_waiting_without_cancelling_the_task() {
    let mut s = modern(modern_server(Rc::default()));
    let cancel = Cancel::new();
    let mut o = opts();
    o.cancel = Some(cancel.clone());
    let stopper = cancel.clone();
    let host = s.host.clone();
    s.pool
        .spawner()
        .spawn_local(async move {
            host.sleep(600).await;
            stopper.fire(Some("user left".into()));
        })
        .unwrap();
    let task = TaskCall {
        asked: true,
        ..Default::default()
    };
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.call_tool(call("slow"), &task, &o).await
    });
    let e = result.unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::Aborted));
    assert!(e.message.contains("user left"), "{}", e.message);
    s.pool.run_until_stalled();
    let out = sent(&s.transport);
    let polls = out.iter().filter(|m| m["method"] == "tasks/get").count();
    assert!(polls >= 2, "polled at the floored interval: {polls}");
    assert!(!out.iter().any(|m| m["method"] == "tasks/cancel"));
    let call_id = &out.iter().find(|m| m["method"] == "tools/call").unwrap()["id"];
    assert!(!out
        .iter()
        .any(|m| m["method"] == "notifications/cancelled" && m["params"]["requestId"] == *call_id));
}

#[test]
fn max_total_timeout_bounds_the_whole_wait() {
    let mut s = modern(modern_server(Rc::default()));
    let mut o = opts();
    o.max_total_timeout_ms = Some(400);
    let task = TaskCall {
        asked: true,
        ..Default::default()
    };
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.call_tool(call("slow"), &task, &o).await
    });
    assert_eq!(result.unwrap_err().kind(), Some(ErrorKind::Timeout));
}

#[test]
fn an_on_task_that_throws_is_reported_and_the_call_goes_on() {
    let mut s = modern(modern_server(Rc::default()));
    let task = TaskCall {
        asked: true,
        ttl_ms: None,
        on_task: Some(Rc::new(|_: &Value| Err("boom".to_string()))),
    };
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.call_tool(call("tool_error"), &task, &opts()).await
    });
    assert_eq!(result.unwrap()["isError"], true);
    let reports = s.host.reports.borrow();
    assert!(reports
        .iter()
        .any(|e| e.kind() == Some(ErrorKind::Callback) && e.message.contains("boom")));
}

#[test]
fn a_task_notification_wakes_the_poller_early() {
    let mut s = modern(modern_server(Rc::default()));
    let engine = s.engine.clone();
    let host = s.host.clone();
    s.pool
        .spawner()
        .spawn_local(async move {
            host.sleep(300).await;
            // What a listen() stream (2026) or any stream (2025) delivers.
            engine.on_notification(
                "notifications/tasks",
                Some(json!({ "taskId": "sleepy", "status": "completed" })),
            );
        })
        .unwrap();
    let task = TaskCall {
        asked: true,
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.call_tool(call("sleepy"), &task, &opts()).await
    });
    assert_eq!(result.unwrap(), done(9));
    // The server asked for 60 s between polls (capped at 30 s): the notification cut it short.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(s.engine.inflight.borrow().is_empty());
}
