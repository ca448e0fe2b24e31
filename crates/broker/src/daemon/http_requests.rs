//! Requests in flight over HTTP, bounded as a socket session's are (see [`crate::in_flight`]): each
//! counts against its MCP session (`Mcp-Session-Id`) and the service's budget from its POST until its
//! response (an event stream) ends or is dropped, and one whose id is already in flight in its session
//! is refused (-32600) before rmcp, which would route the first one's answer to it, sees it.

use crate::in_flight::Budget;
use axum::body::{Body, Bytes};
use http_body::{Frame, SizeHint};
use rmcp::model::{ClientRequest, RequestId, ServerJsonRpcMessage};
use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use tokio::sync::OwnedSemaphorePermit;

/// The ids in flight of every HTTP session.
pub struct HttpRequests {
    budget: Arc<Budget>,
    sessions: Mutex<HashMap<String, HashSet<RequestId>>>,
}

/// One admitted request: released when dropped.
pub struct Ticket {
    requests: Arc<HttpRequests>,
    session: Option<(String, RequestId)>,
    _permit: OwnedSemaphorePermit,
}

impl HttpRequests {
    pub fn new(budget: Arc<Budget>) -> Arc<Self> {
        Arc::new(Self { budget, sessions: Mutex::default() })
    }

    /// Admits `request` of `session` (none for a request outside a session), or says why not.
    pub fn admit(
        self: &Arc<Self>,
        session: Option<&str>,
        request: &ClientRequest,
        id: &RequestId,
    ) -> Result<Ticket, Box<ServerJsonRpcMessage>> {
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        let ids = session.and_then(|s| sessions.get(s));
        let permit =
            self.budget.admit(ids.map_or(0, HashSet::len), ids.is_some_and(|ids| ids.contains(id)), request, id)?;
        if let Some(session) = session {
            sessions.entry(session.to_owned()).or_default().insert(id.clone());
        }
        Ok(Ticket { requests: self.clone(), session: session.map(|s| (s.to_owned(), id.clone())), _permit: permit })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let Some((session, id)) = &self.session else { return };
        let mut sessions = self.requests.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(ids) = sessions.get_mut(session) {
            ids.remove(id);
            if ids.is_empty() {
                sessions.remove(session);
            }
        }
    }
}

/// A response body that keeps its request counted until the body ends or is dropped.
pub struct Holding {
    inner: Body,
    _ticket: Ticket,
}

impl Holding {
    pub fn new(inner: Body, ticket: Ticket) -> Self {
        Self { inner, _ticket: ticket }
    }
}

impl http_body::Body for Holding {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
