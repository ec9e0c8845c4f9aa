//! [`FileFindings`]: the files a verification found out of step with what was recorded, shared
//! by the report of a dataset directory ([`super::verify`]) and that of an export's checkpoint
//! ([`crate::checkpoint::verify_checkpoint`]).

/// Files (by name) that are not as recorded, sorted by what is wrong with them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileFindings {
    /// Files recorded that are not there.
    pub missing: Vec<String>,
    /// Files that are there but not as recorded (their size or sha256 differs).
    pub altered: Vec<String>,
    /// Files (or bytes) written that the record does not name.
    pub extra: Vec<String>,
}

impl FileFindings {
    /// Whether every recorded file is there as recorded: nothing missing, nothing altered
    /// (extra files aside).
    pub fn recorded_intact(&self) -> bool {
        self.missing.is_empty() && self.altered.is_empty()
    }
}
