//! Where a workspace's host stands, published by its actor in a `watch` channel. A call that needs the host
//! waits on this channel, never in the actor's mailbox: the actor's handlers only decide and hand slow work
//! (a back-off, a start, a load) to a task it owns, so a stop, diagnose or another call never waits behind one.

use protocol::ToolError;

#[derive(Clone, Debug)]
pub enum Phase {
    /// Round `n` is under way: its pause, the host's start, the solution's load.
    Starting(u64),
    /// Round `n` ended, its host in the workspace's `ready` slot or with this error. Round 0 is the state
    /// before any start.
    Ended(u64, Option<ToolError>),
    /// The workspace is stopping: no host will come.
    Stopped,
}

/// What a call waiting for a host does next.
#[derive(Debug)]
pub enum Step {
    Wait,
    /// Ask the actor for a start (it ignores the demand while one is under way).
    Demand,
    Fail(ToolError),
    Stopped,
}

/// What a call that found no live host does on seeing `phase`. `answered_by` is the first round whose end
/// answers the call: the one under way when it arrived, or the one it asks for. An end from before (a
/// failure an earlier call already got) asks for a new round rather than failing this call too.
pub fn step(phase: &Phase, answered_by: &mut Option<u64>) -> Step {
    match phase {
        Phase::Stopped => Step::Stopped,
        Phase::Starting(round) => {
            answered_by.get_or_insert(*round);
            Step::Wait
        }
        Phase::Ended(round, Some(error)) if answered_by.is_some_and(|first| first <= *round) => {
            Step::Fail(error.clone())
        }
        Phase::Ended(round, _) if answered_by.is_some_and(|first| first > *round) => Step::Wait,
        Phase::Ended(round, _) => {
            *answered_by = Some(round + 1);
            Step::Demand
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::ErrorCode;

    fn failed(round: u64, message: &str) -> Phase {
        Phase::Ended(round, Some(ToolError::new(ErrorCode::ROSLYN_ERROR, message)))
    }

    fn failure(step: Step) -> String {
        match step {
            Step::Fail(error) => error.message,
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn a_call_gets_the_end_of_the_round_under_way_when_it_came() {
        let mut answered_by = None;
        assert!(matches!(step(&Phase::Starting(4), &mut answered_by), Step::Wait));
        assert_eq!(failure(step(&failed(4, "load failed"), &mut answered_by)), "load failed");
    }

    #[test]
    fn a_failure_from_before_the_call_asks_for_a_new_round_and_waits_for_its_end() {
        let mut answered_by = None;
        assert!(matches!(step(&failed(2, "old"), &mut answered_by), Step::Demand));
        assert!(matches!(step(&failed(2, "old"), &mut answered_by), Step::Wait), "asked once");
        assert!(matches!(step(&Phase::Starting(3), &mut answered_by), Step::Wait));
        assert_eq!(failure(step(&failed(3, "new"), &mut answered_by)), "new");
    }

    #[test]
    fn before_any_start_and_after_a_host_that_has_since_died_a_call_asks_for_a_start() {
        let mut answered_by = None;
        assert!(matches!(step(&Phase::Ended(0, None), &mut answered_by), Step::Demand));
        assert_eq!(answered_by, Some(1));
        let mut answered_by = Some(5);
        assert!(matches!(step(&Phase::Ended(5, None), &mut answered_by), Step::Demand));
        assert_eq!(answered_by, Some(6));
        assert!(matches!(step(&Phase::Stopped, &mut answered_by), Step::Stopped));
    }
}
