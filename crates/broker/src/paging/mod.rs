//! Paged lists (seed 001 §3.5-§4.4): the first page computes the whole sorted, deduplicated result, checks
//! it against the total cap and retains it under its snapshot key; later pages slice the retained result
//! after checking that the solution is still the one it was computed on. A page never mixes two states.

pub mod cursor;

use cursor::Cursor;

use protocol::{ErrorCode, ToolError};
use roslyn_host::HostReply;
use std::any::Any;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A whole result: what every page repeats (`header`, and the count of places left outside the roots)
/// and what pages slice (`items`).
pub struct Listing<H, T> {
    pub header: H,
    pub items: Vec<T>,
    /// `omittedOutsideRoots` of every page (see `convert::RootGate`).
    pub omitted: u32,
}

/// One page of a listing.
pub struct Page<H, T> {
    pub listing: Arc<Listing<H, T>>,
    pub offset: usize,
    pub len: usize,
    pub next_cursor: Option<String>,
}

impl<H, T> Page<H, T> {
    pub fn items(&self) -> &[T] {
        &self.listing.items[self.offset..self.offset + self.len]
    }

    pub fn total(&self) -> u32 {
        self.listing.items.len() as u32
    }
}

/// What a paged call asks for.
pub struct PageRequest {
    /// The request key (`k`) of the tool and its canonical arguments.
    pub key: String,
    pub page_size: usize,
    pub cursor: Option<Cursor>,
}

impl PageRequest {
    /// Decodes the cursor (CURSOR_INVALID when it is not one of ours or belongs to another request).
    pub fn new(
        tool: &str,
        canonical: &serde_json::Value,
        page_size: usize,
        cursor: Option<&str>,
    ) -> Result<Self, ToolError> {
        let key = cursor::request_key(tool, canonical);
        let cursor = cursor.map(Cursor::decode).transpose()?;
        if cursor.as_ref().is_some_and(|c| c.k != key) {
            return Err(cursor::invalid("it was issued for another request (tool or arguments differ)"));
        }
        Ok(Self { key, page_size, cursor })
    }
}

/// Retained listings by snapshot key, for as long as their cursors live.
pub struct Pager {
    retained: moka::sync::Cache<String, Retained>,
}

/// A listing of any tool, with its size for the cache's weigher.
#[derive(Clone)]
struct Retained {
    items: u32,
    listing: Arc<dyn Any + Send + Sync>,
}

/// Items retained over all listings; past it the least recently used listings go (their cursors then get
/// CURSOR_EXPIRED).
const RETAINED_ITEMS: u64 = 1_000_000;

impl Pager {
    pub fn new(ttl: Duration) -> Self {
        let retained = moka::sync::Cache::builder()
            .max_capacity(RETAINED_ITEMS)
            .weigher(|_: &String, retained: &Retained| retained.items.max(1))
            .time_to_live(ttl)
            .build();
        Self { retained }
    }

    /// The page `request` asks for, of a listing over `roots`. A first page asks the host with `first` and
    /// makes the whole listing of its answer with `list`; the snapshot that answer was computed on stamps the
    /// listing's cursors. A later page asks only for the host's `current` snapshot (any answer stamps it).
    pub async fn page<R, P, H, T, First, Current>(
        &self,
        roots: &[PathBuf],
        request: PageRequest,
        first: impl FnOnce() -> First,
        current: impl FnOnce() -> Current,
        list: impl FnOnce(R) -> Result<Listing<H, T>, ToolError>,
    ) -> Result<Page<H, T>, ToolError>
    where
        H: Send + Sync + 'static,
        T: Send + Sync + 'static,
        First: Future<Output = Result<HostReply<R>, ToolError>>,
        Current: Future<Output = Result<HostReply<P>, ToolError>>,
    {
        let (listing, s, offset) = match &request.cursor {
            None => {
                let reply = first().await?;
                let s = cursor::snapshot_key(&request.key, roots, reply.host_pid, reply.workspace_version);
                // Sorting, ids and the root gate grow with the answer (up to a 64 MiB frame).
                let listing = Arc::new(crate::offload::cpu(|| list(reply.body))?);
                let items = u32::try_from(listing.items.len()).unwrap_or(u32::MAX);
                self.retained.insert(s.clone(), Retained { items, listing: listing.clone() });
                (listing, s, 0)
            }
            Some(cursor) => {
                let pong = current().await?;
                let s = cursor::snapshot_key(&request.key, roots, pong.host_pid, pong.workspace_version);
                if cursor.s != s {
                    return Err(stale());
                }
                let retained = self.retained.get(&s).ok_or_else(expired)?;
                let listing = retained
                    .listing
                    .downcast::<Listing<H, T>>()
                    .map_err(|_| cursor::invalid("it was issued for another tool"))?;
                if cursor.o > listing.items.len() {
                    return Err(cursor::invalid("its offset is past the end of the result"));
                }
                (listing, s, cursor.o)
            }
        };
        let total = listing.items.len();
        let len = request.page_size.min(total - offset);
        let end = offset + len;
        let next_cursor = (end < total).then(|| Cursor::new(end, &request.key, &s).encode());
        Ok(Page { listing, offset, len, next_cursor })
    }
}

fn stale() -> ToolError {
    ToolError::new(
        ErrorCode::CURSOR_STALE,
        "The solution changed since this cursor was issued; its pages would mix two states",
    )
    .suggest("Ask again without a cursor to page through the current result")
}

fn expired() -> ToolError {
    ToolError::new(ErrorCode::CURSOR_EXPIRED, "The result this cursor pages through is no longer retained")
        .suggest("Ask again without a cursor; results are kept for a limited time after their first page")
}
