//! One connection to a host: a writer task, a reader task that routes responses to their callers by id,
//! cancellation by id, per-request deadlines, and a token that fires when the host goes away.

use crate::failure::HostFailure;
use protocol::host::ask::Ask;
use protocol::host::{
    BrokerHello, BrokerMessage, HEADER_BYTES, HostHello, HostMessage, HostRequest, HostResponse, Outcome,
    PROTOCOL_VERSION, RequestBody, RequestId, ResponseBody, WorkProgress, decode_payload, encode_frame, payload_len,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot, watch};
use tokio_util::sync::CancellationToken;

type Pending = Arc<Mutex<HashMap<RequestId, Waiter>>>;

/// Where a request's progress goes as the host reports it (files done of files to do).
pub type ProgressSink = watch::Sender<Option<WorkProgress>>;

/// A request waiting for its answer, and whoever hears how far it has come.
struct Waiter {
    answer: oneshot::Sender<HostResponse>,
    progress: Option<ProgressSink>,
}

/// A successful answer with the host's own accounting.
#[derive(Debug, Clone)]
pub struct HostReply<B = ResponseBody> {
    pub body: B,
    /// Time the host spent on the request.
    pub host_micros: u64,
    pub workspace_version: u64,
    /// The process that answered: with `workspace_version`, it names the solution snapshot (a restarted host
    /// counts its versions afresh).
    pub host_pid: u32,
}

impl HostReply {
    /// The reply with the payload its request expected; an answer of another kind comes back as it was.
    pub fn answer<R>(self, answer: protocol::host::ask::Answer<R>) -> Result<HostReply<R>, Box<ResponseBody>> {
        let HostReply { body, host_micros, workspace_version, host_pid } = self;
        Ok(HostReply { body: answer(body)?, host_micros, workspace_version, host_pid })
    }
}

pub struct HostConnection {
    hello: HostHello,
    outbox: mpsc::UnboundedSender<BrokerMessage>,
    pending: Pending,
    next_id: AtomicU64,
    closed: CancellationToken,
}

impl HostConnection {
    /// Runs the handshake on a fresh stream and starts the reader and writer tasks.
    pub async fn establish<S>(stream: S) -> Result<Self, HostFailure>
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let (mut reader, mut writer) = tokio::io::split(stream);
        let hello = match read_message(&mut reader).await? {
            Some(HostMessage::Hello(hello)) => hello,
            Some(other) => {
                return Err(HostFailure::Handshake(format!("expected Hello, got {other:?}")));
            }
            None => {
                return Err(HostFailure::Handshake("the host closed the connection before Hello".into()));
            }
        };
        if hello.protocol_version != PROTOCOL_VERSION {
            return Err(HostFailure::Handshake(format!(
                "host speaks protocol {}, this service speaks {PROTOCOL_VERSION}",
                hello.protocol_version
            )));
        }
        write_message(&mut writer, &BrokerMessage::Hello(BrokerHello { protocol_version: PROTOCOL_VERSION })).await?;

        let pending: Pending = Arc::default();
        let closed = CancellationToken::new();
        let (outbox, inbox) = mpsc::unbounded_channel();
        tokio::spawn(write_loop(writer, inbox, closed.clone()));
        tokio::spawn(read_loop(reader, pending.clone(), closed.clone()));
        Ok(Self { hello, outbox, pending, next_id: AtomicU64::new(1), closed })
    }

    pub fn hello(&self) -> &HostHello {
        &self.hello
    }

    /// Fires when the host's connection ends, for whatever reason.
    pub fn closed(&self) -> CancellationToken {
        self.closed.clone()
    }

    pub fn is_closed(&self) -> bool {
        self.closed.is_cancelled()
    }

    /// Sends a request and waits for its answer, the deadline, `cancel`, or the host's end, whichever comes
    /// first. A request given up on is cancelled in the host too.
    pub async fn request(
        &self,
        body: RequestBody,
        deadline: Duration,
        cancel: &CancellationToken,
    ) -> Result<HostReply, HostFailure> {
        self.request_reporting(body, deadline, cancel, None).await
    }

    /// [`HostConnection::request`], with the progress the host reports on the way sent to `progress`.
    pub async fn request_reporting(
        &self,
        body: RequestBody,
        deadline: Duration,
        cancel: &CancellationToken,
        progress: Option<ProgressSink>,
    ) -> Result<HostReply, HostFailure> {
        let id = RequestId(self.next_id.fetch_add(1, Ordering::Relaxed));
        let (tx, rx) = oneshot::channel();
        lock(&self.pending).insert(id, Waiter { answer: tx, progress });
        let _in_flight = InFlight { id, connection: self };
        if self.outbox.send(BrokerMessage::Request(HostRequest { id, body })).is_err() {
            return Err(HostFailure::Crashed);
        }
        let response = tokio::select! {
            response = rx => response.map_err(|_| HostFailure::Crashed)?,
            _ = tokio::time::sleep(deadline) => return Err(HostFailure::Timeout(deadline)),
            _ = cancel.cancelled() => return Err(HostFailure::Cancelled),
            _ = self.closed.cancelled() => return Err(HostFailure::Crashed),
        };
        match response.outcome {
            Outcome::Ok(body) => Ok(HostReply {
                body,
                host_micros: response.host_micros,
                workspace_version: response.workspace_version,
                host_pid: self.hello.process_id,
            }),
            Outcome::Err(error) => Err(HostFailure::Remote(error)),
            Outcome::Cancelled => Err(HostFailure::Cancelled),
        }
    }

    /// [`HostConnection::request`] for the payload of the answer `asked` expects; another kind of answer is
    /// [`HostFailure::Unexpected`].
    pub async fn ask<R>(
        &self,
        asked: Ask<R>,
        deadline: Duration,
        cancel: &CancellationToken,
    ) -> Result<HostReply<R>, HostFailure> {
        self.request(asked.body, deadline, cancel).await?.answer(asked.answer).map_err(HostFailure::Unexpected)
    }

    /// Asks the host to exit; it also exits by itself when the connection closes.
    pub fn shutdown(&self) {
        let _ = self.outbox.send(BrokerMessage::Shutdown);
    }
}

/// Removes an abandoned request and tells the host to stop working on it.
struct InFlight<'a> {
    id: RequestId,
    connection: &'a HostConnection,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        // Still pending means nobody answered it: the reader removes answered ones.
        if lock(&self.connection.pending).remove(&self.id).is_some() {
            let _ = self.connection.outbox.send(BrokerMessage::Cancel(self.id));
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A poisoned map only means another task panicked mid-insert; the map itself is still consistent.
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

async fn write_loop<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut inbox: mpsc::UnboundedReceiver<BrokerMessage>,
    closed: CancellationToken,
) {
    loop {
        let message = tokio::select! {
            message = inbox.recv() => message,
            _ = closed.cancelled() => None,
        };
        let Some(message) = message else { break };
        let shutdown = matches!(message, BrokerMessage::Shutdown);
        if let Err(error) = write_message(&mut writer, &message).await {
            tracing::debug!(%error, "host connection write failed");
            break;
        }
        if shutdown {
            break;
        }
    }
    let _ = writer.shutdown().await;
}

async fn read_loop<R: AsyncRead + Unpin>(mut reader: R, pending: Pending, closed: CancellationToken) {
    loop {
        match read_message(&mut reader).await {
            Ok(Some(HostMessage::Response(response))) => {
                if let Some(waiter) = lock(&pending).remove(&response.id) {
                    let _ = waiter.answer.send(response);
                }
            }
            Ok(Some(HostMessage::Progress(progress))) => {
                if let Some(sink) = lock(&pending).get(&progress.id).and_then(|w| w.progress.as_ref()) {
                    sink.send_replace(Some(progress));
                }
            }
            Ok(Some(HostMessage::Hello(_))) => tracing::warn!("host sent a second Hello; ignored"),
            Ok(None) => break,
            Err(error) => {
                tracing::error!(%error, "host connection failed");
                break;
            }
        }
    }
    // Waiters see their sender dropped and report the crash.
    lock(&pending).clear();
    closed.cancel();
}

async fn read_message<R: AsyncRead + Unpin>(reader: &mut R) -> Result<Option<HostMessage>, HostFailure> {
    let mut header = [0u8; HEADER_BYTES];
    match reader.read_exact(&mut header).await {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(_) => return Err(HostFailure::Crashed),
    }
    let len = payload_len(header)?;
    let mut payload = vec![0u8; len];
    reader.read_exact(&mut payload).await.map_err(|_| HostFailure::Crashed)?;
    Ok(Some(decode_payload(&payload)?))
}

async fn write_message<W: AsyncWrite + Unpin>(writer: &mut W, message: &BrokerMessage) -> Result<(), HostFailure> {
    let frame = encode_frame(message)?;
    writer.write_all(&frame).await.map_err(|_| HostFailure::Crashed)?;
    writer.flush().await.map_err(|_| HostFailure::Crashed)
}

#[cfg(test)]
mod tests {
    //! Faults a real host never sends, provoked by a peer that writes frames by hand.

    use super::*;
    use protocol::host::{MAX_FRAME_BYTES, PingRequest};
    use tokio::io::DuplexStream;

    fn hello(protocol_version: u32) -> HostMessage {
        HostMessage::Hello(HostHello {
            protocol_version,
            host_version: "test".into(),
            roslyn_version: String::new(),
            msbuild_version: String::new(),
            msbuild_path: String::new(),
            dotnet_sdk_version: String::new(),
            runtime_version: String::new(),
            process_id: 1,
        })
    }

    async fn connected() -> (HostConnection, DuplexStream) {
        let (ours, mut theirs) = tokio::io::duplex(1 << 16);
        theirs.write_all(&encode_frame(&hello(PROTOCOL_VERSION)).expect("frame")).await.expect("write hello");
        let connection = HostConnection::establish(ours).await.expect("handshake");
        let mut header = [0u8; HEADER_BYTES];
        theirs.read_exact(&mut header).await.expect("broker hello header");
        let mut payload = vec![0u8; payload_len(header).expect("length")];
        theirs.read_exact(&mut payload).await.expect("broker hello");
        assert!(matches!(decode_payload(&payload), Ok(BrokerMessage::Hello(_))));
        (connection, theirs)
    }

    async fn pending_request_after(bytes: &[u8]) -> (Result<HostReply, HostFailure>, HostConnection) {
        let (connection, mut peer) = connected().await;
        let ping = RequestBody::Ping(PingRequest { delay_ms: 0 });
        let never = CancellationToken::new();
        let (result, _) = tokio::join!(connection.request(ping, Duration::from_secs(10), &never), async {
            peer.write_all(bytes).await.expect("write fault");
        });
        (result, connection)
    }

    #[tokio::test]
    async fn an_oversized_frame_ends_the_connection_and_fails_what_is_pending() {
        let (result, connection) = pending_request_after(&(MAX_FRAME_BYTES + 1).to_le_bytes()).await;
        assert!(matches!(result, Err(HostFailure::Crashed)), "{result:?}");
        assert!(connection.is_closed());
    }

    #[tokio::test]
    async fn a_malformed_payload_ends_the_connection() {
        // Length 1, then a variant index no HostMessage has.
        let (result, connection) = pending_request_after(&[1, 0, 0, 0, 9]).await;
        assert!(matches!(result, Err(HostFailure::Crashed)), "{result:?}");
        assert!(connection.is_closed());
    }

    #[tokio::test]
    async fn a_host_of_another_protocol_version_is_refused() {
        let (ours, mut theirs) = tokio::io::duplex(1 << 16);
        theirs.write_all(&encode_frame(&hello(PROTOCOL_VERSION + 1)).expect("frame")).await.expect("write hello");
        let refused = HostConnection::establish(ours).await.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(refused.contains("speaks protocol"), "{refused}");
    }
}
