//! The clients' settings as (name, value) rows, read from the core ([`avax_data_core::settings`]):
//! what a client built from Python was built with, and what the same client built from Rust with
//! no arguments gets. `tests/test_settings.py` compares the two, so the bindings add no defaults
//! of their own. Private helpers (`_native._client_settings`, `_native._default_settings`).

use avax_data_core::data::DataClient;
use avax_data_core::index::IndexClient;
use avax_data_core::metrics::MetricsClient;
use avax_data_core::settings::Settings;
use pyo3::prelude::*;

use super::data::{PyAsyncDataClient, PyDataClient};
use super::errors::{invalid, to_py};
use super::index::{PyAsyncIndexClient, PyIndexClient};
use super::metrics::{PyAsyncMetricsClient, PyMetricsClient};

fn rows(settings: Settings) -> Vec<(String, String)> {
    settings.rows().iter().map(|(name, value)| (name.to_string(), value.clone())).collect()
}

/// The settings of a client (an ``IndexClient``, ``DataClient``, ``MetricsClient`` or an async
/// twin) as ``(name, value)`` pairs of text; secrets are left out (header names only).
#[pyfunction]
#[pyo3(name = "_client_settings")]
pub fn client_settings(client: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let settings = if let Ok(c) = client.cast::<PyIndexClient>() {
        c.get().client.settings()
    } else if let Ok(c) = client.cast::<PyAsyncIndexClient>() {
        c.get().client.settings()
    } else if let Ok(c) = client.cast::<PyDataClient>() {
        c.get().client.settings()
    } else if let Ok(c) = client.cast::<PyAsyncDataClient>() {
        c.get().client.settings()
    } else if let Ok(c) = client.cast::<PyMetricsClient>() {
        c.get().client.settings()
    } else if let Ok(c) = client.cast::<PyAsyncMetricsClient>() {
        c.get().client.settings()
    } else {
        let shown = client.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        return Err(invalid("client", shown, "an IndexClient, DataClient or MetricsClient (or an async twin)"));
    };
    Ok(rows(settings))
}

/// The settings of the client class ``name`` (``"IndexClient"``, ``"DataClient"``,
/// ``"MetricsClient"``) built from Rust with no arguments (``from_defaults()`` of the core).
#[pyfunction]
#[pyo3(name = "_default_settings")]
pub fn default_settings(name: &str) -> PyResult<Vec<(String, String)>> {
    let settings = match name {
        "IndexClient" => IndexClient::from_defaults().map(|c| c.settings()),
        "DataClient" => DataClient::from_defaults().map(|c| c.settings()),
        "MetricsClient" => MetricsClient::from_defaults().map(|c| c.settings()),
        other => {
            return Err(invalid("name", format!("{other:?}"), "\"IndexClient\", \"DataClient\" or \"MetricsClient\""))
        }
    };
    Ok(rows(settings.map_err(to_py)?))
}
