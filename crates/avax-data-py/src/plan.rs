//! `Plan`: the cost plan of a walk (the core's [`avax_data_core::plan::Plan`]) for Python, and the
//! `tier=` option of the clients.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::args::shown;
use super::errors::{invalid, to_py};
use super::show::{html, py_opt, py_str, repr};
use avax_data_core::plan::{Plan, ServiceTier, TIER_NAMES};

/// `tier=`: a tier name (case-insensitive) or `None` (then `$AVAX_DATA_TIER`, else the default
/// for whether the client has an API key).
pub fn tier(value: &Bound<'_, PyAny>) -> PyResult<Option<ServiceTier>> {
    if value.is_none() {
        return ServiceTier::given_or_env(None).map_err(to_py);
    }
    let text: String = value.extract().map_err(|_| invalid("tier", shown(value), TIER_NAMES))?;
    ServiceTier::given_or_env(Some(&text)).map_err(to_py)
}

/// The tier given, else `$AVAX_DATA_TIER` (read when the client is made; an omitted `tier=`
/// never reaches [`tier`]).
pub fn tier_or_env(given: Option<ServiceTier>) -> PyResult<Option<ServiceTier>> {
    match given {
        Some(t) => Ok(Some(t)),
        None => ServiceTier::given_or_env(None).map_err(to_py),
    }
}

/// The `dataset=`/`chunk=` arguments of a `plan()`: `None` for the walk's own plan (refusing a
/// `chunk` without a `dataset`), else the directory and the chunk asked for.
pub fn dataset_target(
    dataset: Option<&Bound<'_, PyAny>>,
    chunk: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<(std::path::PathBuf, Option<u64>)>> {
    let Some(dataset) = dataset else {
        return match chunk {
            Some(chunk) => {
                Err(invalid("chunk", shown(chunk), "None without dataset= (the partitions of a dataset write)"))
            }
            None => Ok(None),
        };
    };
    let dir = super::args::dir_path(dataset)
        .map_err(|_| invalid("dataset", shown(dataset), "a directory path (str or os.PathLike) or None"))?;
    Ok(Some((dir, chunk.map(super::args::chunk).transpose()?)))
}

/// The plan of a pager's or range's walk as a Python object.
pub fn plan_of(plan: Option<Plan>) -> PyResult<PyPlan> {
    plan.map(|plan| PyPlan { plan })
        .ok_or_else(|| to_py(avax_data_core::error::Error::Internal("this walk cannot be planned".into())))
}

/// What a walk will cost before it starts: requests, compute units, time and budget share.
///
/// Made by ``plan()`` on :class:`Range`, :class:`Pager` and their async twins; nothing is
/// sent to make it. Compute units are the operations' ``x-execution-weight`` from the
/// services' OpenAPI documents, and only where they are charged (:attr:`metered`): always on the
/// Data and Metrics APIs; on a node's Index RPC only at a hosted endpoint the package's table
/// knows (``api.avax.network``, ``api.avax-test.network``: 20 a call), so the plan of a walk of
/// your own node prices nothing and warns of no budget. The per-minute and per-day
/// budgets are the tier's published limits (``tier=`` on the client, ``AVAX_DATA_TIER``, else
/// ``free`` with an API key and ``unauthenticated`` without); ``ratelimit-*`` headers the
/// service sent override the per-minute figure. ``str(plan)`` is a readable summary.
///
/// Example:
///     >>> import avax_data as ad
///     >>> emu = ad.Emulator(containers=1_000)
///     >>> plan = ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan()
///     >>> plan.requests, plan.requests_kind, plan.metered, plan.compute_units
///     (3, 'exact', False, 0)
///     >>> hosted = ad.IndexClient("https://api.avax.network").chain("X/tx").range(0, 250, batch_size=100).plan()
///     >>> hosted.metered, hosted.compute_units, hosted.tier
///     (True, 60, 'unauthenticated')
///     >>> emu.close()
#[pyclass(frozen, name = "Plan", module = "avax_data._native")]
pub struct PyPlan {
    plan: Plan,
}

impl PyPlan {
    fn fields(&self) -> Vec<(&'static str, String)> {
        let p = &self.plan;
        vec![
            ("operation", py_str(&p.walk.operation)),
            ("requests", py_opt(p.walk.requests.count())),
            ("requests_kind", py_str(p.walk.requests.kind())),
            ("metered", super::show::py_bool(p.metered())),
            ("compute_units", py_opt(p.compute_units())),
            ("tier", py_str(p.budget.tier.name())),
            ("daily_share", py_opt(p.daily_share().map(|s| format!("{s:.6}")))),
        ]
    }
}

/// Stamps the `#[pymethods]` of [`PyPlan`]: a getter per entry of `figures` (its docstring,
/// name, type and how it is read from the plan), `to_dict` of the figures in the table's order,
/// and the `methods` given.
macro_rules! plan_figures {
    (
        figures {
            $( $(#[doc = $doc:expr])* $name:ident: $ty:ty = |$plan:ident| $read:expr; )*
        }
        methods { $($methods:tt)* }
    ) => {
        #[pymethods]
        impl PyPlan {
            $(
                $(#[doc = $doc])*
                #[getter]
                fn $name(&self) -> $ty {
                    let $plan = &self.plan;
                    $read
                }
            )*

            /// Every attribute as a plain dict (what ``--dry-run --json`` prints).
            ///
            /// Example:
            ///     >>> ad.DataClient(emu.url).blocks("43114", page_size=100, limit=250).plan().to_dict()["compute_units"]
            ///     30
            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
                let d = PyDict::new(py);
                $(d.set_item(stringify!($name), self.$name())?;)*
                Ok(d)
            }

            $($methods)*
        }
    };
}

plan_figures! {
    figures {
        /// The operation walked, e.g. ``'GET /v1/chains/43114/blocks'``.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan().operation
        ///     'POST /ext/index/X/tx (index.getContainerRange)'
        operation: String = |plan| plan.walk.operation.clone();

        /// Requests the walk sends (exact or a bound, see :attr:`requests_kind`); ``None`` when
        /// unknown.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan().requests
        ///     3
        requests: Option<u64> = |plan| plan.walk.requests.count();

        /// ``'exact'``, ``'at most'``, ``'at least'`` (a list rerun into a dataset) or ``'unknown'``.
        ///
        /// Example:
        ///     >>> ad.DataClient(emu.url).blocks("43114", limit=50).plan().requests_kind
        ///     'at most'
        requests_kind: &'static str = |plan| plan.walk.requests.kind();

        /// Compute units of the whole walk (as exact as :attr:`requests`); ``None`` when unknown.
        ///
        /// Example:
        ///     >>> ad.DataClient(emu.url).blocks("43114", page_size=100, limit=250).plan().compute_units
        ///     30
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250).plan().compute_units   # unmetered
        ///     0
        compute_units: Option<u64> = |plan| plan.compute_units();

        /// Whether the service walked charges compute units: the Data and Metrics APIs do; a
        /// node's Index RPC only at a hosted endpoint (``api.avax.network``,
        /// ``api.avax-test.network``). Unmetered, the compute units are 0 and no budget applies.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250).plan().metered
        ///     False
        ///     >>> ad.IndexClient("https://api.avax-test.network").chain("X/tx").range(0, 250).plan().metered
        ///     True
        ///     >>> ad.DataClient(emu.url).blocks("43114").plan().metered
        ///     True
        metered: bool = |plan| plan.metered();

        /// Compute units of one request (the operation's weight; 0 unmetered).
        ///
        /// Example:
        ///     >>> ad.DataClient(emu.url).blocks("43114").plan().units_per_request
        ///     10
        units_per_request: u64 = |plan| plan.units_per_request();

        /// Items asked per request.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan().page_size
        ///     100
        page_size: u64 = |plan| plan.walk.page_size;

        /// Items the walk hands out when known, else ``None``.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan().items
        ///     250
        items: Option<u64> = |plan| plan.walk.items;

        /// Items already held (e.g. by an existing dataset) and not requested again.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan().less_held(100).held
        ///     100
        held: u64 = |plan| plan.walk.held;

        /// Items the walk hands out from the cache (``cache=``) without a request; ``requests``
        /// and the figures after it count only what is still sent.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250).plan().cached_items   # no cache
        ///     0
        cached_items: u64 = |plan| plan.walk.cached_items;

        /// Requests per 1,000 items handed out.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan().pages_per_1000_items
        ///     10
        pages_per_1000_items: u64 = |plan| plan.pages_per_1000_items();

        /// Compute units per 1,000 items handed out.
        ///
        /// Example:
        ///     >>> ad.DataClient(emu.url).blocks("43114", page_size=100).plan().units_per_1000_items
        ///     100
        units_per_1000_items: u64 = |plan| plan.units_per_1000_items();

        /// The tier the budgets are of (``'unauthenticated'``, ``'free'``, ...).
        ///
        /// Example:
        ///     >>> ad.DataClient(emu.url, api_key="my-key").blocks("43114").plan().tier
        ///     'free'
        tier: &'static str = |plan| plan.budget.tier.name();

        /// Compute units per minute in force (the tier's, or the ``ratelimit-*`` headers').
        ///
        /// Example:
        ///     >>> ad.DataClient(emu.url, tier="growth").blocks("43114").plan().units_per_minute
        ///     14000
        units_per_minute: u64 = |plan| plan.units_per_minute();

        /// ``'tier'`` or ``'ratelimit headers'``: where :attr:`units_per_minute` comes from.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan().per_minute_source
        ///     'tier'
        per_minute_source: &'static str = |plan| plan.per_minute_source();

        /// Compute units per day of the tier.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan().units_per_day
        ///     1200000
        units_per_day: u64 = |plan| plan.units_per_day();

        /// Seconds at the client's ``rate_limit`` / ``compute_units_per_minute``; ``None`` without
        /// them or when the requests are unknown.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url, rate_limit=10).chain("X/tx").range(0, 250, batch_size=100).plan().seconds_at_client_limits
        ///     0.3
        seconds_at_client_limits: Option<f64> = |plan| plan.seconds_at_client_limits();

        /// Seconds spending the per-minute budget in full; ``None`` when unknown or unmetered.
        ///
        /// Example:
        ///     >>> ad.DataClient(emu.url).blocks("43114", page_size=100, limit=250).plan().seconds_at_tier_budget
        ///     0.3
        seconds_at_tier_budget: Option<f64> = |plan| plan.seconds_at_tier_budget();

        /// The walk's compute units over the tier's daily budget (1.0: all of it); ``None`` when
        /// unknown or unmetered.
        ///
        /// Example:
        ///     >>> ad.DataClient(emu.url).blocks("43114", page_size=100, limit=250).plan().daily_share
        ///     2.5e-05
        daily_share: Option<f64> = |plan| plan.daily_share();

        /// What the plan cannot know (list of str).
        ///
        /// Example:
        ///     >>> ad.DataClient(emu.url).blocks("43114").plan().unknown
        ///     ['unbounded: no limit= and no window, so how many items the list holds (the service gives no count): see the cost per 1,000 items']
        unknown: Vec<String> = |plan| plan.walk.unknown.clone();
    }

    methods {
        /// The warning the walk shows before its first request when it exceeds the daily budget,
        /// else ``None``.
        ///
        /// Example:
        ///     >>> ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan().over_daily_budget is None
        ///     True
        #[getter]
        fn over_daily_budget(&self) -> Option<String> {
            self.plan.over_daily_budget()
        }

        /// The same plan once ``items`` of the walk are already held (an existing dataset): they are
        /// not requested, and the requests shrink with the items left.
        ///
        /// Example:
        ///     >>> plan = ad.IndexClient(emu.url).chain("X/tx").range(0, 1000, batch_size=100).plan()
        ///     >>> rest = plan.less_held(400)
        ///     >>> rest.requests, rest.held, rest.items
        ///     (6, 400, 600)
        fn less_held(&self, items: &Bound<'_, PyAny>) -> PyResult<PyPlan> {
            Ok(PyPlan { plan: self.plan.less_held(super::args::u64_arg(items, "items")?) })
        }

        fn __str__(&self) -> String {
            self.plan.summary()
        }

        fn __repr__(&self) -> String {
            repr("Plan", &self.fields())
        }

        /// An HTML table of the plan's main figures, which Jupyter shows for a plan.
        ///
        /// Example:
        ///     >>> html = ad.IndexClient(emu.url).chain("X/tx").range(0, 250, batch_size=100).plan()._repr_html_()
        ///     >>> html.startswith("<table>"), "compute_units" in html
        ///     (True, True)
        fn _repr_html_(&self) -> String {
            html("Plan", &self.fields())
        }
    }
}
