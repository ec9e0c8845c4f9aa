//! `literal_tables()`: the core's closed sets of values, for the stub generator.

use pyo3::prelude::*;

/// The closed sets of values the core accepts, by the name of their ``Literal`` alias in
/// :mod:`avax_data.types`: a list of ``(alias, (values, doc))`` in the order they are written.
///
/// ``tools/literal_types.py`` writes the aliases from it, so the stubs' ``Literal`` types are the
/// sets the parameter checks use.
///
/// Example:
///     >>> tables = dict(ad._native.literal_tables())
///     >>> tables["Interval"][0]
///     ['hour', 'day', 'week', 'month']
///     >>> "txCount" in tables["MetricName"][0]
///     True
#[pyfunction]
pub fn literal_tables() -> Vec<(&'static str, (Vec<&'static str>, &'static str))> {
    avax_data_core::tables::literal_tables().into_iter().map(|(alias, values, doc)| (alias, (values, doc))).collect()
}
