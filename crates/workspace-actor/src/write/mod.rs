//! Writing files for a refactoring: atomically, journaled, and with the host's view updated before the
//! write counts as done.

mod fault;
mod journal;
mod record;
mod transaction;
mod walls;

pub use fault::JournalHold;
pub use record::{Content, FileRecord};
pub use transaction::{Change, FileWrite, Original, Outcome, Recorded, Transaction, check, read_current, recover};
pub use walls::{Walls, real_path, real_roots};
