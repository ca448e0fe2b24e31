//! A request's answer as one `application/json` body instead of an event stream, when that loses nothing.
//! rmcp answers every request of a session with an event stream (a priming event, then the answer): a
//! client then runs its SSE parser over every answer, which costs the TypeScript SDK client about a
//! millisecond a call on a large answer. Both are allowed for a request (the client must accept both), so
//! the stream is read here until its first message: an answer becomes the whole body; anything else (a
//! progress or log notification, a request to the client), or no answer within [`JSON_WAIT`], and the
//! stream goes on as it began, what was read first, so nothing is lost or reordered. (A request that asks
//! for progress is not brought here: the HTTP service leaves its stream as it is.)

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;
use futures::StreamExt;
use serde::Deserialize;
use serde::de::IgnoredAny;
use std::time::Duration;

/// How long an answer is waited for before the stream is passed on: a long call (a load, a test run) keeps
/// its stream, so its keep-alive comments (rmcp's, every 15 s) and progress reach the client and no proxy
/// or client times out waiting for headers.
const JSON_WAIT: Duration = Duration::from_secs(10);
/// Bytes of stream past which reading the first message is done off the async workers.
const LARGE: usize = 64 * 1024;

/// `response` with its first message as the whole JSON body when that message is the answer.
pub async fn prefer_json(response: Response) -> Response {
    if !is_media_type(response.headers(), "text/event-stream") {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let mut stream = body.into_data_stream();
    let mut read = Vec::new();
    let waited = tokio::time::sleep(JSON_WAIT);
    tokio::pin!(waited);
    loop {
        let chunk = tokio::select! {
            chunk = stream.next() => chunk,
            () = &mut waited => break,
        };
        let Some(Ok(chunk)) = chunk else { break };
        read.extend_from_slice(&chunk);
        // Parsing is in proportion to the answer (up to --max-response-bytes): a large one leaves the worker.
        let first =
            if read.len() > LARGE { crate::offload::cpu(|| first_message(&read)) } else { first_message(&read) };
        match first {
            First::Unfinished => {}
            First::Other => break,
            First::Answer(answer) => {
                parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
                parts.headers.remove(header::CACHE_CONTROL);
                parts.headers.remove("x-accel-buffering");
                return Response::from_parts(parts, Body::from(answer));
            }
        }
    }
    let begun = futures::stream::once(async move { Ok::<_, axum::Error>(Bytes::from(read)) });
    Response::from_parts(parts, Body::from_stream(begun.chain(stream)))
}

/// What the first event with data in `stream` (an event stream's first bytes) is.
#[derive(Debug, PartialEq)]
enum First {
    /// Not read whole yet.
    Unfinished,
    /// An answer (a result or an error): its JSON.
    Answer(String),
    /// A notification or a request: the stream must go on.
    Other,
}

/// Only whether the message names a method: an answer does not.
#[derive(Deserialize)]
struct Kind {
    method: Option<IgnoredAny>,
}

fn first_message(stream: &[u8]) -> First {
    // A chunk may end inside a character: what precedes it is whole.
    let text = match std::str::from_utf8(stream) {
        Ok(text) => text,
        Err(cut) => std::str::from_utf8(&stream[..cut.valid_up_to()]).unwrap_or_default(),
    };
    let mut rest = text;
    while let Some((event, after)) = split_event(rest) {
        rest = after;
        let data = event_data(event);
        // An event without data (the priming event, a keep-alive comment) carries no message.
        if data.is_empty() {
            continue;
        }
        return match serde_json::from_str::<Kind>(&data) {
            Ok(Kind { method: None }) => First::Answer(data),
            _ => First::Other,
        };
    }
    First::Unfinished
}

/// The first event of `text` and what follows it, once its blank line has arrived.
fn split_event(text: &str) -> Option<(&str, &str)> {
    ["\r\n\r\n", "\n\n", "\r\r"]
        .iter()
        .filter_map(|end| text.find(end).map(|at| (at, end.len())))
        .min()
        .map(|(at, len)| (&text[..at], &text[at + len..]))
}

/// The event's `data` lines joined by line breaks, as an SSE client reads them.
fn event_data(event: &str) -> String {
    let lines = event.lines().filter_map(|line| line.strip_prefix("data")).filter_map(|value| {
        if value.is_empty() {
            return Some("");
        }
        let value = value.strip_prefix(':')?;
        Some(value.strip_prefix(' ').unwrap_or(value))
    });
    lines.collect::<Vec<_>>().join("\n")
}

/// Whether `Content-Type` names `essence`, whatever its parameters.
pub(super) fn is_media_type(headers: &HeaderMap, essence: &str) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(';').next().unwrap_or_default().trim().eq_ignore_ascii_case(essence))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_after_the_priming_event_is_the_body() {
        let stream = b"id: 0\nretry: 3000\ndata:\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\nid: 0/1\n\n";
        assert_eq!(first_message(stream), First::Answer(r#"{"jsonrpc":"2.0","id":3,"result":{}}"#.into()));
        let error =
            b":ping\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-1,\"message\":\"no\"}}\r\n\r\n";
        assert!(matches!(first_message(error), First::Answer(_)));
    }

    #[test]
    fn a_notification_first_keeps_the_stream() {
        let progress = b"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n";
        assert_eq!(first_message(progress), First::Other);
        let request = b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"roots/list\"}\n\n";
        assert_eq!(first_message(request), First::Other);
    }

    #[test]
    fn an_event_read_in_part_waits_for_the_rest() {
        assert_eq!(
            first_message(b"id: 0\nretry: 3000\ndata:\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,"),
            First::Unfinished
        );
        // Cut inside a two-byte character.
        assert_eq!(first_message(&"data: {\"r\":\"é\"}\n\n".as_bytes()[..13]), First::Unfinished);
    }
}
