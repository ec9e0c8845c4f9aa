//! `literal_tables()`: the core's closed sets of values, for the stub generator; `emulator_defaults()`:
//! the emulator's one table of defaults.

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

/// The emulator's defaults, one table (``avax_data_emulator::defaults``) that ``ad.Emulator()``,
/// the command line's ``--emulator`` and the pytest plugin all start from.
///
/// Returns:
///     dict[str, float]: ``seed``, ``containers``, ``data_blocks_per_chain``, ``tip_rate``,
///     ``latency`` (seconds) and ``fault_seed``.
///
/// Example:
///     >>> defaults = ad._native.emulator_defaults()
///     >>> int(defaults["containers"]), int(defaults["data_blocks_per_chain"])
///     (10000, 10000)
#[pyfunction]
pub fn emulator_defaults() -> std::collections::HashMap<&'static str, f64> {
    avax_data_emulator::defaults::table().into_iter().collect()
}
