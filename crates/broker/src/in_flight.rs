//! Requests in flight, counted in front of rmcp: a session's transport is wrapped ([`Guarded`]) so that a
//! request counts from the moment it is read until its answer is written.
//!
//! - Bounded work: beyond the session's or the service's limit ([`Budget`]) a request is refused at once,
//!   a tools/call with TOO_MANY_REQUESTS, anything else with a JSON-RPC error carrying that code. Nothing
//!   queues: the refusal is written before the next message is read.
//! - Duplicate ids: rmcp keys a request's cancellation and its answer by id, so a second request with the
//!   id of one in flight would take the first one's answer and lose its own. It is refused with -32600
//!   (Invalid Request) and never reaches rmcp.
//! - Cancellation: rmcp answers nothing for a request the client cancelled, which would leave its id
//!   counted forever. The notification is taken here instead: the call's [`ClientCancel`] fires, the
//!   handler stops, and its answer is dropped here, which frees the id.

use crate::envelope;
use protocol::{ErrorCode, ToolError};
use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, ErrorData, GetExtensions, RequestId, ServerJsonRpcMessage,
    ServerResult,
};
use rmcp::transport::Transport;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

/// JSON-RPC error code of a request refused for load (the implementation-defined server error range).
const BUSY: rmcp::model::ErrorCode = rmcp::model::ErrorCode(-32000);

/// The limits on requests in flight: per session, and over every session of the service.
pub struct Budget {
    per_session: usize,
    service: usize,
    permits: Arc<Semaphore>,
    /// Requests admitted since the start, for [`crate::heap`] to see bursts.
    admitted: AtomicU64,
}

impl Budget {
    pub fn new(per_session: u32, service: u32) -> Arc<Self> {
        let service = service as usize;
        Arc::new(Self {
            per_session: per_session as usize,
            service,
            permits: Arc::new(Semaphore::new(service)),
            admitted: AtomicU64::new(0),
        })
    }

    pub fn admitted(&self) -> u64 {
        self.admitted.load(Ordering::Relaxed)
    }

    /// Whether no request of any session is in flight.
    pub fn idle(&self) -> bool {
        self.permits.available_permits() == self.service
    }

    /// Admits `request` of a session that has `in_session` requests in flight (`duplicate`: one of them has
    /// its id): its share of the service's budget, or its refusal. The one rule for every transport.
    pub fn admit(
        &self,
        in_session: usize,
        duplicate: bool,
        request: &ClientRequest,
        id: &RequestId,
    ) -> Result<OwnedSemaphorePermit, Box<ServerJsonRpcMessage>> {
        if duplicate {
            tracing::warn!(%id, "refused a request whose id is already in flight");
            let error = ErrorData::invalid_request(format!("id {id} is already in flight"), None);
            return Err(Box::new(ServerJsonRpcMessage::error(error, Some(id.clone()))));
        }
        if in_session >= self.per_session {
            return Err(Box::new(busy(request, id.clone(), "session", self.per_session)));
        }
        let permit = self
            .permits
            .clone()
            .try_acquire_owned()
            .map_err(|_| Box::new(busy(request, id.clone(), "service", self.service)))?;
        self.admitted.fetch_add(1, Ordering::Relaxed);
        Ok(permit)
    }
}

/// The client's cancellation of one request, handed to its handler in the request's extensions.
#[derive(Clone, Default)]
pub struct ClientCancel(Arc<Mutex<Cancelled>>);

#[derive(Default)]
struct Cancelled {
    requested: bool,
    tokens: Vec<CancellationToken>,
}

impl ClientCancel {
    /// A token for the handler: cancelled when `ct` is (rmcp: the session ends) or when the client cancels
    /// the request (`extensions` of a request read through [`Guarded`]).
    pub fn token(ct: &CancellationToken, extensions: &rmcp::model::Extensions) -> CancellationToken {
        let token = ct.child_token();
        if let Some(cancel) = extensions.get::<ClientCancel>() {
            let mut state = cancel.0.lock().unwrap_or_else(PoisonError::into_inner);
            if state.requested {
                token.cancel();
            } else {
                state.tokens.push(token.clone());
            }
        }
        token
    }

    fn fire(&self) {
        let mut state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        state.requested = true;
        state.tokens.drain(..).for_each(|token| token.cancel());
    }

    fn requested(&self) -> bool {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).requested
    }
}

/// One request in flight: its share of the service's budget and its cancellation.
struct Entry {
    _permit: OwnedSemaphorePermit,
    cancel: ClientCancel,
}

type Requests = Arc<Mutex<HashMap<RequestId, Entry>>>;

/// A session's transport with its requests in flight counted (see the module's documentation).
pub struct Guarded<T> {
    inner: T,
    budget: Arc<Budget>,
    requests: Requests,
    /// A refusal being written: finished before the next message is read, so that a flood of refused
    /// requests is paced by the client reading its refusals. Kept here because `receive` may be dropped
    /// at any await (rmcp polls it in a `select!`).
    refusing: Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
}

/// What becomes of a message the client sent.
enum Admission {
    Pass(ClientJsonRpcMessage),
    Refuse(ServerJsonRpcMessage),
    /// A cancellation taken here.
    Taken,
}

impl<T: Transport<RoleServer>> Guarded<T> {
    pub fn new(inner: T, budget: &Arc<Budget>) -> Self {
        Self { inner, budget: budget.clone(), requests: Requests::default(), refusing: None }
    }

    fn admit(&self, message: ClientJsonRpcMessage) -> Admission {
        let mut requests = self.requests.lock().unwrap_or_else(PoisonError::into_inner);
        match message {
            ClientJsonRpcMessage::Request(mut request) => {
                let id = request.id.clone();
                let duplicate = requests.contains_key(&id);
                let permit = match self.budget.admit(requests.len(), duplicate, &request.request, &id) {
                    Ok(permit) => permit,
                    Err(refusal) => return Admission::Refuse(*refusal),
                };
                let cancel = ClientCancel::default();
                request.request.extensions_mut().insert(cancel.clone());
                requests.insert(id, Entry { _permit: permit, cancel });
                Admission::Pass(ClientJsonRpcMessage::Request(request))
            }
            ClientJsonRpcMessage::Notification(notification) => {
                let cancelled = match &notification.notification {
                    ClientNotification::CancelledNotification(n) => n.params.request_id.as_ref(),
                    _ => None,
                };
                match cancelled.and_then(|id| requests.get(id)) {
                    Some(entry) => {
                        entry.cancel.fire();
                        Admission::Taken
                    }
                    None => Admission::Pass(ClientJsonRpcMessage::Notification(notification)),
                }
            }
            other => Admission::Pass(other),
        }
    }
}

/// The refusal of a request beyond a limit: a tool result for tools/call (what agents read), a JSON-RPC
/// error for anything else.
fn busy(request: &ClientRequest, id: RequestId, scope: &str, limit: usize) -> ServerJsonRpcMessage {
    tracing::warn!(%id, scope, limit, "refused a request: too many in flight");
    let error = ToolError::new(
        ErrorCode::TOO_MANY_REQUESTS,
        format!("Too many requests in flight for this {scope} (at most {limit}); retry when some have answered"),
    )
    .detail("scope", scope)
    .detail("limit", limit);
    match request {
        ClientRequest::CallToolRequest(_) => {
            ServerJsonRpcMessage::response(ServerResult::CallToolResult(envelope::failure(error)), id)
        }
        _ => {
            let data = serde_json::to_value(&error).ok();
            ServerJsonRpcMessage::error(ErrorData::new(BUSY, error.message, data), Some(id))
        }
    }
}

impl<T: Transport<RoleServer> + 'static> Transport<RoleServer> for Guarded<T> {
    type Error = T::Error;

    fn send(&mut self, item: ServerJsonRpcMessage) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let answered = match &item {
            ServerJsonRpcMessage::Response(response) => Some(response.id.clone()),
            ServerJsonRpcMessage::Error(error) => error.id.clone(),
            _ => None,
        };
        let requests = self.requests.clone();
        let cancelled = answered.as_ref().is_some_and(|id| {
            let requests = requests.lock().unwrap_or_else(PoisonError::into_inner);
            requests.get(id).is_some_and(|entry| entry.cancel.requested())
        });
        // The client asked for no answer to a request it cancelled.
        let send = (!cancelled).then(|| self.inner.send(item));
        async move {
            let sent = match send {
                Some(send) => send.await,
                None => Ok(()),
            };
            // Counted until written: an unread answer still holds its place.
            if let Some(id) = answered {
                requests.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
            }
            sent
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if let Some(refusing) = self.refusing.as_mut() {
                refusing.await;
                self.refusing = None;
            }
            let message = self.inner.receive().await?;
            match self.admit(message) {
                Admission::Pass(message) => return Some(message),
                Admission::Taken => {}
                Admission::Refuse(refusal) => {
                    let send = self.inner.send(refusal);
                    self.refusing = Some(Box::pin(async move {
                        if let Err(error) = send.await {
                            tracing::debug!(%error, "writing a refusal failed");
                        }
                    }));
                }
            }
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
