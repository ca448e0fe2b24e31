//! The one path capability of the service. Every path a call names, a write touches or a journal records
//! is judged here: where it really is (`real`: symlinks resolved), whether it lies under the roots the call
//! was admitted with (`roots`: the workspace roots and the client's, one check and one refusal for reads
//! and writes alike), and the folders only this user can enter (`private`: host sockets, run files,
//! journals, history).
//!
//! A gate that lets a path through answers an [`Admitted`] path, which only this crate can make: the file
//! operations of a write take one, so a path that no gate checked cannot reach them.

mod admitted;
mod private;
mod real;
mod roots;

pub use admitted::Admitted;
pub use private::{PrivateTempDir, create_private_dir, is_private_dir, user_id};
pub use real::{existing_real_path, real_path, real_roots};
pub use roots::{Outside, Roots};
