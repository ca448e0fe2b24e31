//! Plans a preview computed, kept until applied or expired, with what each was computed on (its snapshot,
//! the texts it changed) and its intent (the request that computes it again): `apply_plan` writes what the
//! preview showed while the solution is as the preview saw it, and replays the intent on a newer one. Shared
//! by every session (an id is unguessable; applying still passes the
//! applying session's walls), bounded in time and in bytes, and fair: each session has a share of the
//! bytes, within which its own oldest plans make room for its newest; only when the whole store is full
//! does another session lose a plan: the oldest of the session that holds the most among those that keep
//! more than one, and only when each keeps one, the oldest plan of all. Requests without a
//! session (each its own session) hold one share together, so that a flood of them weighs no more than one
//! session. A plan that cannot be kept is never given an id, and an id that is gone says why.

use protocol::host::{FileEdit, RequestBody};
use protocol::tools::plans::PlanSummary;
use protocol::tools::refactor::Outline;
use protocol::{ErrorCode, ToolError};
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};
use workspace_actor::snapshots::Snapshot;

/// How long a plan is kept after its preview.
pub const PLAN_TTL: Duration = Duration::from_secs(15 * 60);
/// What the kept plans may weigh together (their new texts).
const MAX_BYTES: usize = 256 * 1024 * 1024;
/// What one session's kept plans may weigh.
const SESSION_SHARE: usize = MAX_BYTES / 4;
/// Ids of plans gone, remembered to say why.
const GONE_REMEMBERED: usize = 4096;
/// The holder of every plan previewed without a session (session ids are hexadecimal: never this).
const STATELESS: &str = "stateless";

/// A writing tool's whole effect, computed by the host on an immutable snapshot.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The tool that computed it.
    pub tool: &'static str,
    pub solution: PathBuf,
    /// Sorted by path, one per path, each with the hash of the text it was computed from.
    pub edits: Vec<FileEdit>,
    pub summary: PlanSummary,
    pub warnings: Vec<String>,
    pub outline: Outline,
    /// One line for the history, e.g. `Rename Invoice to Bill`.
    pub title: String,
}

/// A plan with what it was proven on, and how to compute it again on a newer snapshot.
#[derive(Debug, Clone)]
pub struct Proposal {
    pub plan: Plan,
    /// The snapshot the host computed it on.
    pub basis: Snapshot,
    /// The text of each edit's file as the plan was computed (none for a created file), as `plan.edits`.
    pub bases: Vec<Option<String>>,
    pub intent: Arc<Intent>,
}

impl Proposal {
    /// What keeping it costs.
    fn weight(&self) -> usize {
        let edits = self.plan.edits.iter();
        let edits: usize =
            edits.map(|e| e.new_text.len() + e.base_sha256.len() + e.path.len() + e.description.len()).sum();
        edits + self.bases.iter().flatten().map(String::len).sum::<usize>()
    }
}

/// The request that computed a plan and how its answer becomes one: sent again, it computes the same change
/// on the solution as it is.
pub struct Intent {
    pub body: RequestBody,
    pub replan: Replan,
}

/// Turns a host's answer to an intent's request into its plan.
pub type Replan = Box<dyn Fn(roslyn_host::HostReply, &Path) -> Result<Plan, ToolError> + Send + Sync>;

impl std::fmt::Debug for Intent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Intent").field("body", &self.body).finish_non_exhaustive()
    }
}

/// Where a kept plan went.
pub enum Kept {
    /// Under this id until it expires.
    Yes { id: String, expires_at: SystemTime },
    /// Too large to keep: why, for the preview's answer.
    No(String),
}

pub struct PlanStore {
    store: Mutex<Store>,
    limits: Limits,
}

#[derive(Clone, Copy)]
struct Limits {
    total: usize,
    session: usize,
    ttl: Duration,
}

#[derive(Default)]
struct Store {
    plans: HashMap<String, Entry>,
    /// Ids, oldest first (some may be gone already: skipped when met).
    order: VecDeque<String>,
    bytes: usize,
    by_session: HashMap<String, usize>,
    gone: HashMap<String, Gone>,
    gone_order: VecDeque<String>,
}

struct Entry {
    plan: Arc<Proposal>,
    session: String,
    bytes: usize,
    expires: Instant,
}

#[derive(Clone)]
enum Gone {
    Applied {
        operation: String,
    },
    Expired,
    /// Made room for a newer plan of the same session, past its share.
    OverShare {
        at: SystemTime,
    },
    /// Made room when the whole store was full.
    StoreFull {
        at: SystemTime,
    },
}

impl Default for PlanStore {
    fn default() -> Self {
        Self::with_limits(MAX_BYTES, SESSION_SHARE, PLAN_TTL)
    }
}

/// A fresh, unguessable plan id (also of a plan applied at once, never kept).
pub fn new_id() -> String {
    format!("plan-{}", uuid::Uuid::new_v4())
}

/// Who holds a plan's share of the store: its session, or for a request without one (MCP 2026-07-28 over
/// HTTP, a fresh session per request) every such request together, whatever connection it came by: they
/// present the same token, and a connection costs nothing to open.
pub fn holder(session: &str, stateless: bool) -> &str {
    if stateless { STATELESS } else { session }
}

impl PlanStore {
    fn with_limits(total: usize, session: usize, ttl: Duration) -> Self {
        Self { store: Mutex::default(), limits: Limits { total, session, ttl } }
    }

    /// Keeps `plan`, previewed by `session`, under a new id: never at the expense of the plan just made,
    /// first at that of the session's own oldest plans.
    pub fn keep(&self, session: &str, plan: Proposal) -> Kept {
        let bytes = plan.weight();
        if bytes > self.limits.session {
            return Kept::No(format!(
                "The plan ({}) is larger than a session may keep ({}): it was shown but not kept; run the tool \
                 again without preview to apply it",
                mib(bytes),
                mib(self.limits.session)
            ));
        }
        let mut store = self.lock();
        store.expire();
        let now = SystemTime::now();
        while store.by_session.get(session).copied().unwrap_or(0) + bytes > self.limits.session {
            if !store.evict_oldest_of(session, Gone::OverShare { at: now }) {
                break;
            }
        }
        while store.bytes + bytes > self.limits.total {
            let Some(holder) = store.next_to_give_way() else { break };
            if !store.evict_oldest_of(&holder, Gone::StoreFull { at: now }) {
                break;
            }
        }
        let id = new_id();
        let entry = Entry {
            plan: Arc::new(plan),
            session: session.to_owned(),
            bytes,
            expires: Instant::now() + self.limits.ttl,
        };
        store.bytes += bytes;
        *store.by_session.entry(session.to_owned()).or_default() += bytes;
        store.order.push_back(id.clone());
        store.plans.insert(id.clone(), entry);
        Kept::Yes { id, expires_at: now + self.limits.ttl }
    }

    pub fn get(&self, id: &str) -> Result<Arc<Proposal>, ToolError> {
        let mut store = self.lock();
        store.expire();
        if let Some(entry) = store.plans.get(id) {
            return Ok(entry.plan.clone());
        }
        let (reason, message) = match store.gone.get(id) {
            None => ("unknown", format!("No plan {id}: this service never made it (or made it before it restarted)")),
            Some(Gone::Applied { operation }) => (
                "applied",
                format!("Plan {id} was already applied, as operation {operation}: undo it with undo {{ operationId }}"),
            ),
            Some(Gone::Expired) => {
                ("expired", format!("Plan {id} expired {} minutes after its preview", self.limits.ttl.as_secs() / 60))
            }
            Some(Gone::OverShare { at }) => (
                "evicted",
                format!(
                    "Plan {id} was evicted at {}: the session that previewed it (or, for a request without a \
                     session, all such requests together) kept more than its share of {} of plans, and its oldest \
                     made room for its newest",
                    humantime::format_rfc3339_seconds(*at),
                    mib(self.limits.session)
                ),
            ),
            Some(Gone::StoreFull { at }) => (
                "evicted",
                format!(
                    "Plan {id} was evicted at {}: the service's kept plans reached {}, and the oldest plan of the \
                     session holding the most (of those keeping several; else the oldest of all) made room",
                    humantime::format_rfc3339_seconds(*at),
                    mib(self.limits.total)
                ),
            ),
        };
        Err(ToolError::new(ErrorCode::PLAN_NOT_FOUND, message)
            .detail("planId", id)
            .detail("reason", reason)
            .suggest("Run the tool again with preview: true for a new plan, or without preview to apply at once"))
    }

    /// Forgets an applied plan: applying it again would only find its files changed.
    pub fn applied(&self, id: &str, operation: &str) {
        let mut store = self.lock();
        if store.remove(id).is_some() {
            store.remember(id, Gone::Applied { operation: operation.to_owned() });
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Store> {
        // Every change to the store completes before anything can panic: its state stays whole.
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Store {
    /// Plans past their time go, oldest first (every plan lives as long, so the oldest expire first).
    fn expire(&mut self) {
        let now = Instant::now();
        while let Some(id) = self.order.front().cloned() {
            match self.plans.get(&id) {
                Some(entry) if entry.expires > now => break,
                Some(_) => {
                    self.remove(&id);
                    self.remember(&id, Gone::Expired);
                }
                None => {}
            }
            self.order.pop_front();
        }
    }

    /// Evicts the session's oldest plan; false when it has none.
    fn evict_oldest_of(&mut self, session: &str, why: Gone) -> bool {
        let oldest = self.order.iter().position(|id| self.plans.get(id).is_some_and(|e| e.session == session));
        let Some(id) = oldest.and_then(|at| self.order.remove(at)) else {
            return false;
        };
        self.remove(&id);
        tracing::info!(plan_id = id, session, "plan evicted to make room");
        self.remember(&id, why);
        true
    }

    /// Whose oldest plan makes room in a full store: of the holders of more than one plan, the one holding the
    /// most; when each holds one, the holder of the oldest. A session's only plan never goes before a plan of
    /// a session that keeps several.
    fn next_to_give_way(&self) -> Option<String> {
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for entry in self.plans.values() {
            *counts.entry(entry.session.as_str()).or_default() += 1;
        }
        let several = self.by_session.iter().filter(|(session, _)| counts.get(session.as_str()) > Some(&1));
        if let Some((holder, _)) = several.max_by_key(|(session, bytes)| (**bytes, *session)) {
            return Some(holder.clone());
        }
        self.order.iter().find_map(|id| self.plans.get(id)).map(|entry| entry.session.clone())
    }

    fn remove(&mut self, id: &str) -> Option<Entry> {
        let entry = self.plans.remove(id)?;
        self.bytes -= entry.bytes;
        if let Some(held) = self.by_session.get_mut(&entry.session) {
            *held -= entry.bytes;
            if *held == 0 {
                self.by_session.remove(&entry.session);
            }
        }
        Some(entry)
    }

    fn remember(&mut self, id: &str, why: Gone) {
        if self.gone.insert(id.to_owned(), why).is_none() {
            self.gone_order.push_back(id.to_owned());
        }
        while self.gone_order.len() > GONE_REMEMBERED {
            if let Some(old) = self.gone_order.pop_front() {
                self.gone.remove(&old);
            }
        }
    }
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// A find_replace proposal of `edits`, computed from `bases` (as `edits`), whose intent is never replayed.
#[cfg(test)]
pub fn sample(edits: Vec<FileEdit>, bases: Vec<Option<String>>, summary: PlanSummary) -> Proposal {
    let plan = Plan {
        tool: "find_replace",
        solution: "/s/S.sln".into(),
        edits,
        summary,
        warnings: Vec::new(),
        outline: Outline::FindReplace(protocol::tools::cleanup::FindReplaceOutline {
            match_count: 0,
            matches: Vec::new(),
            matches_truncated: false,
            files_searched: 0,
        }),
        title: String::new(),
    };
    let replan: Replan = Box::new(|_, _| Err(ToolError::new(ErrorCode::ROSLYN_ERROR, "not replayed here")));
    let intent = Arc::new(Intent { body: RequestBody::Ping(protocol::host::PingRequest { delay_ms: 0 }), replan });
    Proposal { plan, basis: Snapshot { host_pid: 1, version: 1 }, bases, intent }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::host::EditKind;

    /// A plan whose new text weighs about `kib` KiB.
    fn plan(kib: usize) -> Proposal {
        let edit = FileEdit {
            path: "/s/A.cs".into(),
            kind: EditKind::Modify,
            base_sha256: String::new(),
            new_text: "x".repeat(kib * 1024),
            description: String::new(),
        };
        sample(vec![edit], vec![None], PlanSummary::default())
    }

    fn id(kept: Kept) -> String {
        match kept {
            Kept::Yes { id, .. } => id,
            Kept::No(why) => panic!("not kept: {why}"),
        }
    }

    fn reason(store: &PlanStore, id: &str) -> serde_json::Value {
        let error = store.get(id).expect_err("gone");
        assert_eq!(error.code, ErrorCode::PLAN_NOT_FOUND);
        serde_json::to_value(protocol::ErrorEnvelope::from(error)).expect("json")["error"]["details"]["reason"].clone()
    }

    #[test]
    fn a_flooding_session_loses_its_own_oldest_plans_never_its_newest_nor_another_s() {
        let store = PlanStore::with_limits(1000 * 1024, 250 * 1024, PLAN_TTL);
        let other = id(store.keep("b", plan(100)));
        let flood: Vec<String> = (0..20).map(|_| id(store.keep("a", plan(100)))).collect();
        assert!(store.get(&other).is_ok(), "another session's plan stays");
        assert!(store.get(&flood[19]).is_ok() && store.get(&flood[18]).is_ok(), "the newest plans stay");
        assert_eq!(reason(&store, &flood[0]), "evicted");
        let message = store.get(&flood[0]).expect_err("gone").message;
        assert!(message.contains("its share"), "{message}");
    }

    #[test]
    fn a_flood_of_stateless_plans_weighs_one_share_and_loses_its_oldest_first() {
        let store = PlanStore::with_limits(1000 * 1024, 250 * 1024, PLAN_TTL);
        let fresh = id(store.keep(holder("socket", false), plan(240)));
        // Each request without a session comes as a session of its own, the newest with the greatest id.
        let flood: Vec<String> =
            (0..20).map(|n| id(store.keep(holder(&format!("request-{n:02}"), true), plan(100)))).collect();
        assert!(store.get(&fresh).is_ok(), "a session's fresh plan outlives a flood of stateless ones");
        assert!(store.get(&flood[19]).is_ok() && store.get(&flood[18]).is_ok(), "the newest stateless plans stay");
        for gone in &flood[..18] {
            assert_eq!(reason(&store, gone), "evicted", "the oldest stateless plans went first");
        }
        let message = store.get(&flood[0]).expect_err("gone").message;
        assert!(message.contains("all such requests together"), "{message}");
    }

    #[test]
    fn a_full_store_evicts_the_oldest_plan_of_the_largest_holder() {
        let store = PlanStore::with_limits(450 * 1024, 250 * 1024, PLAN_TTL);
        let small = id(store.keep("small", plan(100)));
        let big: Vec<String> = (0..2).map(|_| id(store.keep("big", plan(120)))).collect();
        let third = id(store.keep("third", plan(150)));
        assert!(store.get(&small).is_ok(), "the smaller holder keeps its plan");
        assert_eq!(reason(&store, &big[0]), "evicted");
        assert!(store.get(&big[1]).is_ok() && store.get(&third).is_ok());
        assert!(store.get(&big[0]).expect_err("gone").message.contains("the session holding the most"));
    }

    #[test]
    fn a_full_store_takes_from_sessions_that_keep_several_before_a_session_s_only_plan() {
        let store = PlanStore::with_limits(1101 * 1024, 1000 * 1024, PLAN_TTL);
        // Twelve sessions of one user, each previews a small plan; one of them previews a second (each plan
        // weighs a few bytes over its text: the store has a KiB to spare).
        let small: Vec<String> = (0..12).map(|n| id(store.keep(&format!("s{n:02}"), plan(50)))).collect();
        let second = id(store.keep("s00", plan(50)));
        // A thirteenth session's fresh plan, far under its share, is the largest held.
        let fresh = id(store.keep("thirteenth", plan(400)));
        // The next preview fills the store.
        let next = id(store.keep("fourteenth", plan(100)));
        assert!(store.get(&fresh).is_ok(), "the thirteenth session's only plan stays");
        assert_eq!(reason(&store, &small[0]), "evicted", "the oldest plan of the session keeping two went");
        assert!(store.get(&second).is_ok() && store.get(&next).is_ok());
        // Each keeps one now: the oldest plan of all goes, not the largest.
        let last = id(store.keep("fifteenth", plan(50)));
        assert_eq!(reason(&store, &small[1]), "evicted");
        assert!(store.get(&fresh).is_ok() && store.get(&last).is_ok() && store.get(&small[2]).is_ok());
    }

    #[test]
    fn a_plan_larger_than_a_share_is_not_kept_and_gets_no_id() {
        let store = PlanStore::with_limits(1000 * 1024, 250 * 1024, PLAN_TTL);
        match store.keep("a", plan(300)) {
            Kept::No(why) => assert!(why.contains("not kept"), "{why}"),
            Kept::Yes { .. } => panic!("kept a plan past the share"),
        }
    }

    #[test]
    fn gone_plans_say_whether_they_were_applied_expired_or_never_made() {
        let store = PlanStore::with_limits(1000 * 1024, 250 * 1024, Duration::ZERO);
        let expired = id(store.keep("a", plan(1)));
        assert_eq!(reason(&store, &expired), "expired");
        let store = PlanStore::default();
        let applied = id(store.keep("a", plan(1)));
        store.applied(&applied, "op-1");
        assert_eq!(reason(&store, &applied), "applied");
        assert!(store.get(&applied).expect_err("gone").message.contains("op-1"));
        assert_eq!(reason(&store, "plan-never"), "unknown");
    }
}
