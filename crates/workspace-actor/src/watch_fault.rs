//! Fault injection for tests: the folder watch losing events, on demand. While a file of the configured name
//! exists in the watched folder, every event is dropped, as a full kernel queue drops them; its removal is
//! taken for the queue's overflow event. None in service.

use notify::{Event, EventKind};
use std::ffi::OsString;
use std::sync::atomic::{AtomicBool, Ordering};

pub(crate) struct OverflowFault {
    name: OsString,
    dropping: AtomicBool,
}

/// What the watch does with an event under the fault.
#[derive(Debug, PartialEq)]
pub(crate) enum Seen {
    Pass,
    Drop,
    Overflow,
}

impl OverflowFault {
    pub fn new(name: OsString) -> Self {
        Self { name, dropping: AtomicBool::new(false) }
    }

    pub fn sees(&self, event: &Event) -> Seen {
        let marker = event.paths.iter().any(|p| p.file_name() == Some(self.name.as_os_str()));
        match (marker, &event.kind) {
            (true, EventKind::Create(_)) => {
                self.dropping.store(true, Ordering::SeqCst);
                Seen::Drop
            }
            (true, EventKind::Remove(_)) => {
                self.dropping.store(false, Ordering::SeqCst);
                Seen::Overflow
            }
            (true, _) => Seen::Drop,
            (false, _) if self.dropping.load(Ordering::SeqCst) => Seen::Drop,
            (false, _) => Seen::Pass,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{CreateKind, ModifyKind, RemoveKind};

    #[test]
    fn events_between_the_marker_s_creation_and_removal_are_lost_and_its_removal_overflows() {
        let fault = OverflowFault::new("OVERFLOW".into());
        let event = |kind, path: &str| Event::new(kind).add_path(path.into());
        let edit = || event(EventKind::Modify(ModifyKind::Any), "/s/A.cs");
        assert_eq!(fault.sees(&edit()), Seen::Pass);
        assert_eq!(fault.sees(&event(EventKind::Create(CreateKind::File), "/s/OVERFLOW")), Seen::Drop);
        assert_eq!(fault.sees(&edit()), Seen::Drop, "lost while the marker exists");
        assert_eq!(fault.sees(&event(EventKind::Remove(RemoveKind::File), "/s/OVERFLOW")), Seen::Overflow);
        assert_eq!(fault.sees(&edit()), Seen::Pass);
    }
}
