//! The error of every decoder: what went wrong and at which byte.

/// Why container bytes could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset (in the container) where decoding stopped.
    pub offset: usize,
    /// What was expected or found there.
    pub message: String,
}

impl DecodeError {
    /// An error at `offset`.
    pub fn new(offset: usize, message: impl Into<String>) -> Self {
        DecodeError { offset, message: message.into() }
    }

    /// The same error seen from an enclosing structure that starts at `base`.
    pub fn shifted(mut self, base: usize) -> Self {
        self.offset = self.offset.saturating_add(base);
        self
    }
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

impl std::error::Error for DecodeError {}
