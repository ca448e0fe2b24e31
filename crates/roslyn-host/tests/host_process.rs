//! The real .NET host over its real socket: handshake, concurrent requests, cancellation by id,
//! deadlines, and a clean exit.

use protocol::host::{PROTOCOL_VERSION, PingRequest, RequestBody, ResponseBody};
use roslyn_host::{HostFailure, HostProcess};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

async fn start() -> Arc<HostProcess> {
    let install =
        roslyn_host::locate(0).install().unwrap_or_else(|e| panic!("the host must be built for this test: {e}"));
    Arc::new(HostProcess::start(&install, "host-process-test", Duration::from_secs(60)).await.expect("host starts"))
}

fn ping(delay_ms: u32) -> RequestBody {
    RequestBody::Ping(PingRequest { delay_ms })
}

#[tokio::test(flavor = "multi_thread")]
async fn handshake_reports_versions() {
    let host = start().await;
    let hello = host.connection().hello();
    assert_eq!(hello.protocol_version, PROTOCOL_VERSION);
    assert!(
        hello.roslyn_version.starts_with(|c: char| c.is_ascii_digit()),
        "roslyn version {:?}",
        hello.roslyn_version
    );
    assert!(!hello.dotnet_sdk_version.is_empty(), "no SDK version in {hello:?}");
    assert_eq!(hello.process_id, host.pid());
    host.stop(Duration::from_secs(5)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn requests_run_concurrently_and_cancel_by_id() {
    let host = start().await;
    let never = CancellationToken::new();
    let cancel_slow = CancellationToken::new();
    let slow = {
        let host = host.clone();
        let cancel = cancel_slow.clone();
        tokio::spawn(async move { host.connection().request(ping(30_000), Duration::from_secs(60), &cancel).await })
    };
    // The fast request overtakes the slow one already in flight.
    let fast = host.connection().request(ping(0), Duration::from_secs(10), &never).await.expect("fast ping");
    assert!(matches!(fast.body, ResponseBody::Pong(_)));
    assert!(!slow.is_finished(), "the slow ping should still be running");

    let began = Instant::now();
    cancel_slow.cancel();
    let cancelled = slow.await.expect("join");
    assert!(matches!(cancelled, Err(HostFailure::Cancelled)), "{cancelled:?}");
    // Well before the ping would have ended by itself.
    assert!(began.elapsed() < Duration::from_secs(15), "the cancelled ping took {:?}", began.elapsed());

    // A deadline cancels in the host too, and the host keeps answering.
    let late = host.connection().request(ping(5_000), Duration::from_millis(200), &never).await;
    assert!(matches!(late, Err(HostFailure::Timeout(_))), "{late:?}");
    let after = host.connection().request(ping(0), Duration::from_secs(10), &never).await;
    assert!(after.is_ok(), "{after:?}");
    host.stop(Duration::from_secs(5)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn stop_ends_the_process_and_pending_requests_see_the_end() {
    let host = start().await;
    let pid = host.pid();
    let pending = {
        let host = host.clone();
        tokio::spawn(async move {
            host.connection().request(ping(30_000), Duration::from_secs(60), &CancellationToken::new()).await
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    host.stop(Duration::from_secs(5)).await;
    let outcome = pending.await.expect("join");
    assert!(matches!(outcome, Err(HostFailure::Crashed | HostFailure::Cancelled)), "{outcome:?}");
    assert!(host.connection().is_closed());
    assert!(!std::path::Path::new(&format!("/proc/{pid}/cmdline")).exists() || zombie(pid), "host {pid} still runs");
}

fn zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| s.rsplit(')').next().and_then(|r| r.split_whitespace().next()) == Some("Z"))
        .unwrap_or(true)
}
