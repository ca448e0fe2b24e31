//! Calls that outlast a client's time limit. Every call that may take long runs as a [`Job`]: when it has not
//! ended after `--answer-within`, the call answers in time with the work still going (a `running` answer
//! naming its `jobId`, or a task for a request that declares the Tasks extension), and `get_job` or
//! `tasks/get` later returns the call's own answer.
//!
//! Only jobs whose calls answered with them are kept. They belong to their session's user ([`Owner`]), are
//! kept [`KEEP_ENDED`] after they end, and are bounded per session: [`MAX_RUNNING_PER_SESSION`] at a time (a
//! call is refused when it starts or when it would answer with its job, its work stopped), the
//! oldest ended ones forgotten beyond [`MAX_KEPT_PER_SESSION`]. A job's id starts with the daemon's instance name, which a proxy in front of a
//! fleet routes on.

mod answer;
mod job;
mod owner;

pub use answer::{loading, running, task_created, task_state};
pub use job::Job;
pub use owner::{Caller, Owner};

use protocol::{ErrorCode, ToolError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How long an ended job's answer is kept for `get_job` and `tasks/get`.
pub const KEEP_ENDED: Duration = Duration::from_secs(10 * 60);
/// Jobs one session may have working after their calls answered; another call is refused with
/// TOO_MANY_REQUESTS until one ends.
pub const MAX_RUNNING_PER_SESSION: usize = 8;
/// Jobs (working or ended) one session's store holds; the oldest ended ones are forgotten first.
pub const MAX_KEPT_PER_SESSION: usize = 32;
/// Jobs one user may have working after their calls answered, over all sessions: a 2026-07-28 client's every
/// request is a session of its own, so the session's bound alone would not bound it.
pub const MAX_RUNNING_PER_USER: usize = 32;

pub struct Jobs {
    jobs: Mutex<HashMap<String, Arc<Job>>>,
    /// How long a call waits for its work before answering with its job.
    pub answer_within: Duration,
    /// How long a call waiting for its solution to load waits before answering LOADING with its job.
    pub load_wait: Duration,
    /// The first part of every id: this daemon's instance name, else `job`.
    prefix: String,
}

impl Jobs {
    pub fn new(answer_within: Duration, load_wait: Duration, instance: Option<&str>) -> Self {
        Self { jobs: Mutex::default(), answer_within, load_wait, prefix: instance.unwrap_or("job").to_owned() }
    }

    /// A new job for a call of `tool`, or TOO_MANY_REQUESTS when its session or its user has too many working
    /// after their calls answered. It is kept only once its call answers with it ([`Jobs::keep`]): a call that
    /// answers with its result never enters the store.
    pub fn open(&self, owner: Owner, session: &str, tool: &str) -> Result<Arc<Job>, ToolError> {
        // Calls still answering count against the requests in flight; these are the ones that answered.
        if let Some(refusal) = Self::full(&self.lock(), &owner, session) {
            return Err(refusal);
        }
        let id = format!("{}.{}", self.prefix, uuid::Uuid::new_v4().simple());
        Ok(Arc::new(Job::new(id, tool, owner, session)))
    }

    /// TOO_MANY_REQUESTS when `session` or `owner` has as many jobs working as it may.
    fn full(jobs: &HashMap<String, Arc<Job>>, owner: &Owner, session: &str) -> Option<ToolError> {
        let working = |whose: &dyn Fn(&Job) -> bool| jobs.values().filter(|j| whose(j) && j.outlives_call()).count();
        let of_session = working(&|j| j.session == session);
        let of_owner = working(&|j| &j.owner == owner);
        [(of_session, MAX_RUNNING_PER_SESSION, "This session"), (of_owner, MAX_RUNNING_PER_USER, "Your user")]
            .into_iter()
            .find(|(count, limit, _)| count >= limit)
            .map(|(count, limit, whose)| {
                ToolError::new(
                    ErrorCode::TOO_MANY_REQUESTS,
                    format!("{whose} has {count} calls still working, the most it may have"),
                )
                .detail("limit", limit)
                .suggest("Wait for one with get_job, or stop one with get_job { jobId, cancel: true }")
            })
    }

    /// Keeps `job`, whose call answers with it, for get_job and `tasks/get`. Ended jobs are forgotten
    /// [`KEEP_ENDED`] after their end, and a session's oldest ended ones beyond [`MAX_KEPT_PER_SESSION`].
    /// TOO_MANY_REQUESTS when its session or user already has as many working as it may (calls opened together,
    /// a flood queued behind one write, all reach their answer bound at once): the caller stops its work.
    pub fn keep(&self, job: &Arc<Job>) -> Result<(), ToolError> {
        let mut jobs = self.lock();
        if let Some(refusal) = Self::full(&jobs, &job.owner, &job.session) {
            return Err(refusal.detail("stopped", true));
        }
        job.detach();
        jobs.retain(|_, job| job.finished().is_none_or(|f| f.at.elapsed() < KEEP_ENDED));
        let mut ended: Vec<_> = jobs
            .values()
            .filter(|j| j.session == job.session)
            .filter_map(|j| j.finished().map(|f| (f.at, j.id.clone())))
            .collect();
        let of_session = jobs.values().filter(|j| j.session == job.session).count();
        ended.sort();
        for (_, id) in ended.into_iter().take((of_session + 1).saturating_sub(MAX_KEPT_PER_SESSION)) {
            jobs.remove(&id);
        }
        jobs.insert(job.id.clone(), job.clone());
        Ok(())
    }

    /// The job `id` if `owner` may see it; JOB_NOT_FOUND otherwise, the same for one that never existed, one
    /// that expired and another user's.
    pub fn find(&self, id: &str, owner: &Owner) -> Result<Arc<Job>, ToolError> {
        let job = self.lock().get(id).cloned();
        job.filter(|job| &job.owner == owner && job.finished().is_none_or(|f| f.at.elapsed() < KEEP_ENDED)).ok_or_else(
            || {
                ToolError::new(ErrorCode::JOB_NOT_FOUND, format!("No job {id} of yours"))
                    .detail("jobId", id)
                    .detail("keptSeconds", KEEP_ENDED.as_secs())
                    .suggest("A job's answer is kept 10 minutes after it ends, for the user whose call started it")
            },
        )
    }

    /// Jobs working after their calls answered (the `roslyn_mcp_jobs_working` gauge).
    pub fn working(&self) -> usize {
        self.lock().values().filter(|j| j.outlives_call()).count()
    }

    /// Stops every job (the service is stopping).
    pub fn cancel_all(&self) {
        self.lock().values().for_each(|job| job.cancel.cancel());
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Job>>> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::CallToolResult;

    fn store() -> Jobs {
        Jobs::new(Duration::from_secs(45), Duration::from_secs(30), Some("daemon1"))
    }

    fn end(job: &Job) {
        job.finish(Ok(CallToolResult::structured(serde_json::json!({}))), 1.0, 0.0);
    }

    #[test]
    fn a_job_is_its_users_in_every_session_and_nobody_elses() {
        let jobs = store();
        let job = jobs.open(Owner::User(1000), "a", "run_tests").expect("opened");
        jobs.keep(&job).expect("kept");
        assert!(job.id.starts_with("daemon1."), "{}", job.id);
        assert_eq!(jobs.find(&job.id, &Owner::User(1000)).expect("found").id, job.id);
        for stranger in [Owner::User(1001), Owner::Session("a".into())] {
            let refused = jobs.find(&job.id, &stranger).err().expect("refused");
            assert_eq!(refused.code, ErrorCode::JOB_NOT_FOUND);
        }
        let unknown = jobs.find("daemon1.0000", &Owner::User(1000)).err().expect("unknown");
        assert_eq!(unknown.code, ErrorCode::JOB_NOT_FOUND);
        let answered = jobs.open(Owner::User(1000), "a", "run_tests").expect("opened");
        assert!(jobs.find(&answered.id, &Owner::User(1000)).is_err(), "a call that answered itself is not kept");
    }

    #[test]
    fn a_session_and_a_user_have_a_bounded_number_of_jobs_working() {
        let jobs = store();
        let open = |owner: Owner, session: &str| {
            let job = jobs.open(owner, session, "run_tests").expect("within the bound");
            jobs.keep(&job).expect("kept");
            job
        };
        // Calls that have not answered yet count against the requests in flight when they start; when they
        // reach their answer bound together, only as many as the bound become jobs.
        let waiting: Vec<_> = (0..2 * MAX_RUNNING_PER_SESSION)
            .map(|_| jobs.open(Owner::User(1000), "a", "run_tests").expect("opened"))
            .collect();
        let kept = waiting.iter().filter(|job| jobs.keep(job).is_ok()).count();
        assert_eq!(kept, MAX_RUNNING_PER_SESSION);
        waiting.iter().for_each(|job| end(job));
        let working: Vec<_> = (0..MAX_RUNNING_PER_SESSION).map(|_| open(Owner::User(1000), "a")).collect();
        let refused = jobs.open(Owner::User(1000), "a", "run_tests").err().expect("past the bound");
        assert_eq!(refused.code, ErrorCode::TOO_MANY_REQUESTS);
        end(&working[0]);
        jobs.open(Owner::User(1000), "a", "run_tests").expect("one ended, one more");
        // Sessions of their own (2026-07-28 requests) are bounded by their user.
        let user = Owner::User(1001);
        for session in 0..MAX_RUNNING_PER_USER {
            open(user.clone(), &session.to_string());
        }
        let refused = jobs.open(user, "another", "run_tests").err().expect("past the user's bound");
        assert_eq!(refused.code, ErrorCode::TOO_MANY_REQUESTS);
        jobs.open(Owner::User(1002), "another", "run_tests").expect("another user is not held back");
    }

    #[test]
    fn a_session_keeps_its_newest_ended_jobs() {
        let jobs = store();
        let ended: Vec<_> = (0..MAX_KEPT_PER_SESSION)
            .map(|_| {
                let job = jobs.open(Owner::User(1000), "a", "run_tests").expect("opened");
                jobs.keep(&job).expect("kept");
                end(&job);
                job
            })
            .collect();
        jobs.keep(&jobs.open(Owner::User(1000), "a", "run_tests").expect("opened")).expect("kept");
        assert!(jobs.find(&ended[0].id, &Owner::User(1000)).is_err(), "the oldest ended job was forgotten");
        assert!(jobs.find(&ended[1].id, &Owner::User(1000)).is_ok(), "the others are kept");
    }

    #[test]
    fn cancelling_every_job_stops_the_work_and_the_first_end_counts() {
        let jobs = store();
        let job = jobs.open(Owner::User(1000), "a", "run_tests").expect("opened");
        jobs.keep(&job).expect("kept");
        jobs.cancel_all();
        assert!(job.cancel.is_cancelled());
        end(&job);
        job.finish(Err(ToolError::new(ErrorCode::TIMEOUT, "later")), 2.0, 0.0);
        let finished = job.finished().expect("ended");
        assert!(finished.cancelled && finished.outcome.is_ok() && finished.total_ms == 1.0);
    }
}
