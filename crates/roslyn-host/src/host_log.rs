//! The host's stderr, forwarded to our log within bounds. The host writes one line per event, but the .NET
//! runtime prints a dying process's trace itself (a stack overflow's frames by the thousand, megabytes per
//! crash), and a crash repeated on every restart must not fill the disk.

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, BufReader};

/// Longest line forwarded; the rest of a longer one is counted, never held in memory.
pub const MAX_LINE_BYTES: usize = 8 * 1024;

/// Lines of one stretch of runtime output (lines that are not the host's own log lines) forwarded before
/// the rest of the stretch is only counted.
pub const MAX_RUNTIME_LINES: usize = 100;

/// Forwards `stderr` line by line to `emit` until it ends, cutting long lines and long runtime traces.
pub async fn forward<R: AsyncRead + Unpin>(stderr: R, mut emit: impl FnMut(&str)) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    let mut runtime_lines = 0usize;
    let mut omitted = 0usize;
    while let Ok(Some(dropped)) = read_line(&mut reader, &mut line).await {
        let text = String::from_utf8_lossy(&line);
        if is_host_line(&text) {
            flush_omitted(&mut omitted, &mut emit);
            runtime_lines = 0;
        } else {
            runtime_lines += 1;
            if runtime_lines > MAX_RUNTIME_LINES {
                omitted += 1;
                continue;
            }
        }
        if dropped > 0 {
            emit(&format!("{text}… ({dropped} more bytes omitted)"));
        } else {
            emit(&text);
        }
    }
    flush_omitted(&mut omitted, &mut emit);
}

fn flush_omitted(omitted: &mut usize, emit: &mut impl FnMut(&str)) {
    if *omitted > 0 {
        emit(&format!("… {omitted} more lines omitted"));
        *omitted = 0;
    }
}

/// The host's own lines: `HH:mm:ss.fff <level> roslyn-host: <message>` (see the host's `Log`).
fn is_host_line(text: &str) -> bool {
    text.get(..40).unwrap_or(text).contains(" roslyn-host: ")
}

/// Reads one line (without its newline) into `line`, keeping at most [`MAX_LINE_BYTES`]; returns how many
/// bytes of it were dropped, or `None` at the end of the stream.
async fn read_line<R: AsyncBufRead + Unpin>(reader: &mut R, line: &mut Vec<u8>) -> std::io::Result<Option<usize>> {
    line.clear();
    let mut dropped = 0;
    let mut read_any = false;
    loop {
        let buffer = reader.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(read_any.then_some(dropped));
        }
        read_any = true;
        let end = buffer.iter().position(|b| *b == b'\n');
        let chunk = &buffer[..end.unwrap_or(buffer.len())];
        let room = MAX_LINE_BYTES.saturating_sub(line.len()).min(chunk.len());
        line.extend_from_slice(&chunk[..room]);
        dropped += chunk.len() - room;
        let consumed = end.map_or(buffer.len(), |end| end + 1);
        reader.consume(consumed);
        if end.is_some() {
            return Ok(Some(dropped));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn forwarded(stderr: &str) -> Vec<String> {
        let mut lines = Vec::new();
        forward(stderr.as_bytes(), |line| lines.push(line.to_owned())).await;
        lines
    }

    fn host_line(message: &str) -> String {
        format!("12:00:00.000 error roslyn-host: {message}\n")
    }

    #[tokio::test]
    async fn a_stack_overflow_trace_is_cut_to_its_first_lines_and_counted() {
        let trace: String = std::iter::once("Stack overflow.\n".to_owned())
            .chain((0..50_000).map(|i| format!("   at Frame{i}()\n")))
            .collect();
        let lines = forwarded(&format!("{}{trace}", host_line("before"))).await;
        assert_eq!(lines.len(), 1 + MAX_RUNTIME_LINES + 1, "{:?}", &lines[lines.len() - 3..]);
        assert_eq!(lines[1], "Stack overflow.");
        assert_eq!(lines[MAX_RUNTIME_LINES], format!("   at Frame{}()", MAX_RUNTIME_LINES - 2));
        assert_eq!(lines.last().map(String::as_str), Some("… 49901 more lines omitted"));
    }

    #[tokio::test]
    async fn the_hosts_own_lines_pass_and_end_a_runtime_stretch() {
        let runtime: String = (0..MAX_RUNTIME_LINES + 5).map(|i| format!("runtime {i}\n")).collect();
        let lines = forwarded(&format!("{runtime}{}{runtime}", host_line("between"))).await;
        let summaries: Vec<&String> = lines.iter().filter(|l| l.contains("more lines omitted")).collect();
        assert_eq!(summaries, ["… 5 more lines omitted", "… 5 more lines omitted"]);
        let between = lines.iter().position(|l| l.ends_with("roslyn-host: between")).expect("host line kept");
        assert_eq!(between, MAX_RUNTIME_LINES + 1, "the first summary comes before the host's line");
    }

    #[tokio::test]
    async fn a_huge_line_is_cut_and_the_next_one_is_whole() {
        let huge = "x".repeat(MAX_LINE_BYTES * 100);
        let lines = forwarded(&format!("{}{}", host_line(&huge), host_line("next"))).await;
        assert_eq!(lines.len(), 2);
        assert!(lines[0].len() < MAX_LINE_BYTES + 64, "{} bytes", lines[0].len());
        let dropped = host_line(&huge).len() - 1 - MAX_LINE_BYTES;
        assert!(lines[0].ends_with(&format!("… ({dropped} more bytes omitted)")), "{}", &lines[0][MAX_LINE_BYTES..]);
        assert!(lines[1].ends_with("roslyn-host: next"));
    }

    #[tokio::test]
    async fn a_last_line_without_newline_is_forwarded() {
        assert_eq!(forwarded("Aborted").await, ["Aborted"]);
    }
}
