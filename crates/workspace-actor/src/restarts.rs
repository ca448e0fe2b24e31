//! When a workspace may start its host again. kameo's supervision restarts an actor as soon as it dies and,
//! past a count within a window, never again; a host is different: it starts on demand (a crashed host of an
//! idle solution needs no successor until the next call), after a pause that doubles with each failure in a
//! row, and a workspace that gave up tries again once a cool-off has passed.

use crate::settings::WorkspaceSettings;
use std::time::{Duration, Instant};

#[derive(Default)]
pub struct Restarts {
    failures_in_row: u32,
    last_attempt: Option<Instant>,
}

/// The workspace failed too often in a row and is not trying yet.
pub struct GaveUp {
    pub failures_in_row: u32,
}

impl Restarts {
    /// The pause before the next attempt, which counts as begun now; `GaveUp` while the cool-off lasts.
    pub fn next(&mut self, settings: &WorkspaceSettings) -> Result<Duration, GaveUp> {
        if self.failures_in_row >= settings.max_restarts {
            let cooled = self.last_attempt.is_some_and(|t| t.elapsed() >= settings.give_up_for);
            if !cooled {
                return Err(GaveUp { failures_in_row: self.failures_in_row });
            }
            self.failures_in_row = 0;
        }
        let pause = match self.failures_in_row {
            0 => Duration::ZERO,
            n => settings.restart_backoff * 2u32.pow(n - 1),
        };
        self.last_attempt = Some(Instant::now() + pause);
        Ok(pause)
    }

    pub fn ended(&mut self, ok: bool) {
        self.failures_in_row = if ok { 0 } else { self.failures_in_row + 1 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_double_then_the_workspace_gives_up_until_the_cool_off_passes() {
        let settings = WorkspaceSettings {
            max_restarts: 3,
            restart_backoff: Duration::from_millis(100),
            give_up_for: Duration::ZERO,
            ..Default::default()
        };
        let mut restarts = Restarts::default();
        let mut pauses = Vec::new();
        for _ in 0..3 {
            pauses.push(restarts.next(&settings).ok().expect("may start"));
            restarts.ended(false);
        }
        assert_eq!(pauses, [0, 100, 200].map(Duration::from_millis));
        // A cool-off of zero has passed at once: the count starts again.
        assert_eq!(restarts.next(&settings).ok(), Some(Duration::ZERO));

        let patient = WorkspaceSettings { give_up_for: Duration::from_secs(3600), ..settings };
        for _ in 0..3 {
            restarts.ended(false);
        }
        assert_eq!(restarts.next(&patient).err().map(|g| g.failures_in_row), Some(3));
        restarts.ended(true);
        assert_eq!(restarts.next(&patient).ok(), Some(Duration::ZERO), "a success clears the count");
    }
}
