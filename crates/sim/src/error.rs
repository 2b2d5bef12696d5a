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
