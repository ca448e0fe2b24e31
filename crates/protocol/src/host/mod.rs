//! The broker-to-host protocol: typed messages and their framing.

pub mod ask;
mod frame;
mod messages;

pub use frame::*;
pub use messages::*;
