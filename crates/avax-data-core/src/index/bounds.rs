//! Where a range walk ends, as Python's `range(start, stop)` means it: `stop` is the exclusive
//! end; `count` (a keyword for those who think in counts) is `stop - start`. Giving both is
//! refused, and so is a stop before the start (most likely a count written where the stop goes,
//! as the walks took it before): both before any request.

use super::RangeSpec;
use crate::error::{Error, Result};

impl RangeSpec {
    /// The range from `start` to `stop` (exclusive) or of `count` containers ([`range_end`]),
    /// `concurrency` calls in flight of `chunk` containers each.
    pub fn bounded(start: u64, stop: Option<u64>, count: Option<u64>, concurrency: usize, chunk: u64) -> Result<Self> {
        Ok(RangeSpec { start, end: range_end(start, stop, count)?, concurrency, chunk })
    }
}

/// The exclusive end of a range from `start`: `stop`, or `start + count`, or `None` (to the tip
/// seen when the walk starts).
///
/// ```
/// use avax_data_core::index::bounds::range_end;
/// assert_eq!(range_end(4000, Some(5000), None).unwrap(), Some(5000));
/// assert_eq!(range_end(4000, None, Some(1000)).unwrap(), Some(5000));
/// assert_eq!(range_end(4000, None, None).unwrap(), None);
/// assert!(range_end(4000, Some(5000), Some(1000)).is_err());
/// ```
pub fn range_end(start: u64, stop: Option<u64>, count: Option<u64>) -> Result<Option<u64>> {
    match (stop, count) {
        (Some(stop), Some(count)) => Err(Error::invalid(
            "stop/count",
            format!("stop={stop}, count={count}"),
            "one of them, not both: range(start, stop) ends before stop, range(start, count=n) walks n containers",
        )),
        (Some(stop), None) if stop < start => Err(Error::invalid(
            "stop",
            stop,
            format!(
                "an int >= start ({start}): the exclusive end, as in Python's range(start, stop); for {stop} \
                 containers from {start} write range({start}, count={stop})"
            ),
        )),
        (Some(stop), None) => Ok(Some(stop)),
        (None, Some(count)) => start.checked_add(count).map(Some).ok_or_else(|| {
            Error::invalid("count", count, format!("an int with start + count <= 2**64 - 1 (start={start})"))
        }),
        (None, None) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(err: Error) -> (String, String, String) {
        match err {
            Error::InvalidArgument { param, value, allowed } => (param, value, allowed),
            other => panic!("not a refusal: {other:?}"),
        }
    }

    #[test]
    fn stop_is_exclusive_and_count_is_its_distance_from_start() {
        assert_eq!(range_end(100, Some(200), None).unwrap(), Some(200));
        assert_eq!(range_end(100, None, Some(200)).unwrap(), Some(300));
        assert_eq!(range_end(7, Some(7), None).unwrap(), Some(7));
        assert_eq!(range_end(7, None, Some(0)).unwrap(), Some(7));
        assert_eq!(range_end(u64::MAX, Some(u64::MAX), None).unwrap(), Some(u64::MAX));
    }

    #[test]
    fn both_are_refused_naming_both_and_their_values() {
        let (param, value, allowed) = refusal(range_end(0, Some(10), Some(10)).unwrap_err());
        assert_eq!(param, "stop/count");
        assert_eq!(value, "stop=10, count=10");
        assert!(allowed.contains("not both"), "{allowed}");
    }

    #[test]
    fn a_stop_before_the_start_is_refused_with_the_count_spelling() {
        let err = range_end(4000, Some(1000), None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid stop=1000: an int >= start (4000): the exclusive end, as in Python's range(start, stop); \
             for 1000 containers from 4000 write range(4000, count=1000)"
        );
    }

    #[test]
    fn a_count_past_the_top_of_u64_is_refused() {
        let (param, value, _) = refusal(range_end(u64::MAX - 1, None, Some(2)).unwrap_err());
        assert_eq!((param.as_str(), value.as_str()), ("count", "2"));
    }
}
