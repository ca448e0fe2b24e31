//! The journal hold, a fault knob for tests: a write pauses at one named step of its journal until a file
//! exists, having first created `<file>.held`, so that a test kills the service at exactly that step.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// The steps of a write at which the journal can be held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JournalStep {
    /// Originals saved and temporaries written; no target touched.
    Staged,
    /// The first target replaced, the others not yet.
    Replacing,
    /// Every target replaced, the host updated and the history recorded; the journal not yet marked done.
    Recorded,
    /// The journal marked done and its lock file removed; the folder not yet.
    Removing,
}

/// `<step>:<release file>`, as `ROSLYN_MCP_FAULT_HOLD_JOURNAL` gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalHold {
    pub step: JournalStep,
    pub release: PathBuf,
}

impl FromStr for JournalHold {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let (step, release) = text.split_once(':').ok_or("expected <step>:<release file>")?;
        let step = match step {
            "staged" => JournalStep::Staged,
            "replacing" => JournalStep::Replacing,
            "recorded" => JournalStep::Recorded,
            "removing" => JournalStep::Removing,
            other => return Err(format!("unknown step {other}: staged, replacing, recorded or removing")),
        };
        Ok(Self { step, release: release.into() })
    }
}

impl JournalHold {
    /// Blocks the calling (blocking) thread at `step` when the hold names it, until the release file exists.
    pub fn at(hold: Option<&Self>, step: JournalStep) {
        let Some(hold) = hold.filter(|h| h.step == step) else {
            return;
        };
        let mut held = hold.release.clone().into_os_string();
        held.push(".held");
        let _ = std::fs::write(held, "");
        while !hold.release.exists() {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
