//! Writing files for a refactoring: atomically, journaled, and with the host's view updated before the
//! write counts as done.

mod journal;
mod transaction;

pub use transaction::{Change, FileWrite, Outcome, Transaction, check, recover};
