use boids_core::ParamError;
use std::fmt;

/// Why a [`crate::World`] call was refused. A refused call changes nothing.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The flock or obstacle id is null, stale (destroyed) or was never issued.
    InvalidId,
    /// A parameter was out of range or not finite.
    Param(ParamError),
    /// Another argument was unusable; the text says which and why.
    InvalidArgument(String),
    /// An output buffer holds fewer entries than needed.
    BufferTooSmall {
        /// Entries needed.
        needed: usize,
    },
    /// A step is in flight ([`crate::World::step_begin`]): until
    /// [`crate::World::step_end`], the world can be read but not changed.
    Busy,
    /// A bug inside the engine was caught (a step's job panicked); the world kept the state
    /// before that step.
    Internal(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidId => write!(f, "invalid id (null, destroyed or never issued)"),
            Error::Param(e) => write!(f, "flock params: {e}"),
            Error::InvalidArgument(s) => f.write_str(s),
            Error::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: {needed} entries needed")
            }
            Error::Busy => f.write_str(
                "a step is in flight (step_begin): only reads of the state before it are allowed until step_end",
            ),
            Error::Internal(s) => write!(f, "internal error: {s}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<ParamError> for Error {
    fn from(e: ParamError) -> Self {
        Error::Param(e)
    }
}

pub(crate) fn invalid(msg: impl Into<String>) -> Error {
    Error::InvalidArgument(msg.into())
}
