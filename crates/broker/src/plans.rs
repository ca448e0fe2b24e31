//! Plans a preview computed, kept until applied or expired: `apply_plan` writes exactly what the preview
//! showed, never a recomputation. Shared by every session (an id is unguessable; applying still passes the
//! applying session's walls), bounded in time and in bytes.

use protocol::host::FileEdit;
use protocol::tools::plans::PlanSummary;
use protocol::tools::refactor::Outline;
use protocol::{ErrorCode, ToolError};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// How long a plan is kept after its preview.
pub const PLAN_TTL: Duration = Duration::from_secs(15 * 60);
/// What the kept plans may weigh together (their new texts), in KiB.
const MAX_KIB: u64 = 256 * 1024;

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

pub struct PlanStore {
    plans: moka::sync::Cache<String, Arc<Plan>>,
}

impl Default for PlanStore {
    fn default() -> Self {
        let plans = moka::sync::Cache::builder()
            .time_to_live(PLAN_TTL)
            .max_capacity(MAX_KIB)
            .weigher(|_: &String, plan: &Arc<Plan>| {
                let bytes: usize = plan.edits.iter().map(|e| e.new_text.len() + e.path.len()).sum();
                u32::try_from(bytes / 1024 + 1).unwrap_or(u32::MAX)
            })
            .build();
        Self { plans }
    }
}

/// A fresh, unguessable plan id (also of a plan applied at once, never kept).
pub fn new_id() -> String {
    format!("plan-{}", uuid::Uuid::new_v4())
}

impl PlanStore {
    /// Keeps `plan` under a new id, returned with its expiry.
    pub fn keep(&self, plan: Plan) -> (String, SystemTime) {
        let id = new_id();
        let expires_at = SystemTime::now() + PLAN_TTL;
        self.plans.insert(id.clone(), Arc::new(plan));
        (id, expires_at)
    }

    pub fn get(&self, id: &str) -> Result<Arc<Plan>, ToolError> {
        self.plans.get(id).ok_or_else(|| {
            ToolError::new(
                ErrorCode::PLAN_NOT_FOUND,
                format!(
                    "No plan {id}: unknown, already applied, or expired ({} minutes after its preview)",
                    PLAN_TTL.as_secs() / 60
                ),
            )
            .detail("planId", id)
            .suggest("Run the tool again with preview: true for a new plan, or without preview to apply at once")
        })
    }

    /// Forgets an applied plan: applying it again would only find its files changed.
    pub fn forget(&self, id: &str) {
        self.plans.invalidate(id);
    }
}
