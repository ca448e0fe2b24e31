//! Writing files for a refactoring: atomically, journaled, and with the host's view updated before the
//! write counts as done.

mod fault;
mod journal;
mod record;
mod transaction;

pub use fault::JournalHold;
pub use record::{Content, FileRecord};
pub use transaction::{Change, FileWrite, Original, Outcome, Recorded, Transaction, check, read_current, recover};
