//! The `AuthHost` of the fake world: HTTP through the world's routes and fake ASes, the
//! clock, randomness, SHA-256, storage, the fake signer and the authorization page.

use super::*;

/// Returns `Pending` once (waking itself), then `Ready`.
struct YieldNow(bool);

impl Future for YieldNow {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

async fn pause(n: u32) {
    for _ in 0..n {
        YieldNow(false).await;
    }
}

/// The `AuthHost` over a shared [`World`].
pub struct FakeHost(pub Rc<World>);

impl AuthHost for FakeHost {
    fn fetch(&self, request: AuthRequest) -> LocalBoxFuture<'_, Result<AuthResponse, McpError>> {
        let sent = Sent {
            method: request.method.to_string(),
            url: request.url.clone(),
            content_type: request.content_type.map(str::to_string),
            body: request.body.as_ref().map(|b| b.expose().to_string()),
            authorization: request
                .authorization
                .as_ref()
                .map(|a| a.expose().to_string()),
            dpop: request.dpop.clone(),
        };
        self.0.requests.borrow_mut().push(sent.clone());
        let world = self.0.clone();
        async move {
            pause(world.yields.get()).await;
            let (status, body, dpop_nonce) = world.serve(&sent);
            // As a real host does: the body is read up to the cap and refused past it.
            if body.len() > request.max_bytes {
                return Err(response_too_large(
                    &sent.url,
                    request.max_bytes,
                    "reading stopped there",
                ));
            }
            Ok(AuthResponse {
                status,
                body,
                dpop_nonce,
            })
        }
        .boxed_local()
    }

    fn now_ms(&self) -> u64 {
        self.0.now.get()
    }

    fn random(&self, len: usize) -> Result<Vec<u8>, McpError> {
        let n = self.0.randoms.get() + 1;
        self.0.randoms.set(n);
        Ok((0..len)
            .map(|i| (n as usize * 97 + i * 13 + 7) as u8)
            .collect())
    }

    fn sha256(&self, data: Vec<u8>) -> LocalBoxFuture<'_, Result<[u8; 32], McpError>> {
        futures::future::ready(Ok(sha256(&data))).boxed_local()
    }

    fn load(&self, key: String) -> LocalBoxFuture<'_, Result<Option<String>, McpError>> {
        let v = self.0.storage.borrow().get(&key).cloned();
        futures::future::ready(Ok(v)).boxed_local()
    }

    fn save(&self, key: String, value: Option<String>) -> LocalBoxFuture<'_, Result<(), McpError>> {
        self.0.saves.borrow_mut().push((key.clone(), value.clone()));
        match value {
            Some(v) => self.0.storage.borrow_mut().insert(key, v),
            None => self.0.storage.borrow_mut().remove(&key),
        };
        futures::future::ready(Ok(())).boxed_local()
    }

    fn authorize(
        &self,
        url: String,
        state: String,
        redirect_uri: String,
    ) -> LocalBoxFuture<'_, Result<Authorized, McpError>> {
        let world = self.0.clone();
        async move {
            pause(world.yields.get()).await;
            world.page(&url, &state, &redirect_uri)
        }
        .boxed_local()
    }

    /// The fake signer: the signature is the SHA-256 of the input.
    fn sign_client(&self, input: Vec<u8>) -> LocalBoxFuture<'_, Result<Vec<u8>, McpError>> {
        self.0.client_signs.borrow_mut().push(input.clone());
        futures::future::ready(Ok(sha256(&input).to_vec())).boxed_local()
    }

    fn assertion(
        &self,
        issuer: String,
        resource: Option<String>,
        scope: Option<String>,
    ) -> LocalBoxFuture<'_, Result<Secret, McpError>> {
        let mut calls = self.0.assertion_calls.borrow_mut();
        calls.push((issuer, resource, scope));
        let n = calls.len();
        let answer = self
            .0
            .assertion_script
            .borrow_mut()
            .pop_front()
            .unwrap_or_else(|| Ok(format!("ASSERT-SECRET-{n}")));
        futures::future::ready(answer.map(Secret::new)).boxed_local()
    }

    /// [`DPOP_JWK`] with private members the flow must drop.
    fn dpop_public_jwk(&self) -> LocalBoxFuture<'_, Result<Value, McpError>> {
        let mut jwk = dpop_jwk();
        jwk["d"] = json!("D-PRIVATE-SECRET");
        jwk["ext"] = json!(true);
        jwk["key_ops"] = json!(["verify"]);
        futures::future::ready(Ok(jwk)).boxed_local()
    }

    fn sign_dpop(&self, input: Vec<u8>) -> LocalBoxFuture<'_, Result<Vec<u8>, McpError>> {
        self.0.dpop_signs.borrow_mut().push(input.clone());
        futures::future::ready(Ok(sha256(&input).to_vec())).boxed_local()
    }
}
