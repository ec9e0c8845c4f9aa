//! [`walk_twins!`]: the class of a walk (`Pager`, `Range`) and its async twin, with the methods
//! every walk class has in the same shape written once here: the iterators over the rest of the
//! walk (`items`, `batches`, ...), the rest as one frame
//! (`to_polars`, `to_arrow`, `to_pandas`), as an Arrow C stream, as a Parquet file or a dataset
//! (`write_parquet`, `write_dataset`), `restart`, the reprs and `iter()`. Each class passes its
//! own docstrings, the signatures of the frame and writer methods and the functions that do the
//! work.

use pyo3::{Bound, PyAny, PyResult, Python};

use avax_data_core::arrow::ParquetOptions;

use crate::convert::FrameKind;
use crate::mode::Call;

/// What a frame method of a walk class (`to_polars`, `to_arrow`, `to_pandas`) asks of the walk's
/// `collect`: one frame of `kind` with the method's `progress=` as given, for the class `class`.
pub struct FrameCall<'py> {
    /// The interpreter the method runs in.
    pub py: Python<'py>,
    /// The Python name of the class the method belongs to.
    pub class: &'static str,
    /// What the frame becomes.
    pub kind: FrameKind,
    /// The method's `progress=`: `None`, `True` or a bar.
    pub progress: Option<Bound<'py, PyAny>>,
}

impl FrameCall<'_> {
    /// The call, as the async-loop check and the errors name it.
    pub fn call(&self) -> Call {
        Call(self.class, self.kind.method())
    }
}

/// What a writer method of a walk class (`write_parquet`, `write_dataset`) hands the walk's
/// writer: the call, the file options (checked) and the method's `progress=` as given.
pub struct WriteCall<'py> {
    /// The interpreter the method runs in.
    pub py: Python<'py>,
    /// The call, as the async-loop check and the errors name it.
    pub call: Call,
    /// The codec and row group size of the Parquet files.
    pub options: ParquetOptions,
    /// The method's `progress=`: `None`, `True` or a bar.
    pub progress: Option<Bound<'py, PyAny>>,
}

impl<'py> WriteCall<'py> {
    /// The writer call `call`, its `compression=` and `row_group_size=` checked by the core.
    pub fn new(
        py: Python<'py>,
        call: Call,
        compression: &str,
        row_group_size: u64,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Self> {
        let options = ParquetOptions::new(compression, row_group_size).map_err(crate::errors::to_py)?;
        Ok(WriteCall { py, call, options, progress: progress.cloned() })
    }
}

/// The rest of a walk as the Arrow reader of its `__arrow_c_stream__`, with what the walk says
/// when a consumer of it ends (a range cut at the tip warns at the caller's line).
pub trait StreamReader {
    /// The reader, made in the call of `__arrow_c_stream__`.
    fn stream_reader(&self, py: Python<'_>) -> PyResult<avax_data_core::arrow::WalkReader>;
}

/// Stamps a walk class and its async twin through [`twins!`](crate::mode::twins) (`classes`
/// holds their docstrings and aliases as `twins!` takes them); the state is one walk, `$field`.
/// Besides the `shared` methods given, both get:
/// - the consumers of the table (`fn items(progress) -> ItemsOf = step;` with its attributes),
///   each an iterator over `$consumer(py, &self.$field, <its arguments>, step)`;
/// - the frame methods of the table (`to_polars = Polars;` ...), taking `$arg` and `progress` as
///   `frames(...)` declares and calling `$collect::<M>(frame, &self.$field, $arg)` with the
///   [`FrameCall`] of the method;
/// - `__arrow_c_stream__`: `$warn(py, &self.$field)` (the warnings a consumer gives before it
///   starts), then the walk's [`StreamReader::stream_reader`];
/// - `restart` (`self.$field.restart()`), `__repr__` and `_repr_html_` (of `$fields`, the
///   walk's shown fields);
/// - `__iter__` / `__aiter__`: `self.items(py, ...)` with the arguments of `iter = items(...)`;
/// - the writer methods of the table (`fn write_parquet(path: Target; decode) by run;` with
///   its attributes), each taking `compression`, `row_group_size` and `progress` besides its
///   own arguments (typed ones, then after a `;` the optional ones, `Option<&Bound<PyAny>>`, in
///   the order of the Python signature) and calling `run::<M>(write, &self.$field, <its own
///   arguments>)` with the [`WriteCall`] of the method.
macro_rules! walk_twins {
    (
        classes { $($classes:tt)* }
        state { $field:ident : $fty:ty }
        consumers by $consumer:ident {
            $( $(#[$consumer_attr:meta])* fn $consume:ident($($consumer_arg:ident),*) -> $Out:ident = $step:expr; )*
        }
        frames $sig:tt by $collect:ident($arg:ident) {
            $( $(#[doc = $frame_doc:expr])* $method:ident = $kind:ident; )*
        }
        $(#[doc = $stream_doc:expr])*
        stream warned by $warn:ident;
        $(#[doc = $restart_doc:expr])*
        restart;
        $(#[doc = $html_doc:expr])*
        repr of $fields:ident;
        iter = items($($default:expr),*);
        writers {
            $(
                $(#[$writer_attr:meta])*
                fn $writer:ident($($(#[$own_attr:meta])* $own:ident: $own_ty:ty),* $(; $($opt:ident),*)?) by $run:ident;
            )*
        }
        shared { $($shared:tt)* }
    ) => {
        $crate::mode::twins! {
            $($classes)*
            state { $field: $fty }
            shared {
                $($shared)*

                $(
                    $(#[$consumer_attr])*
                    fn $consume(
                        &self,
                        py: ::pyo3::Python<'_>,
                        $($consumer_arg: Option<&::pyo3::Bound<'_, ::pyo3::PyAny>>),*
                    ) -> ::pyo3::PyResult<$Out> {
                        Ok($Out { iter: $consumer(py, &self.$field, $($consumer_arg,)* $step)? })
                    }
                )*

                $(
                    $(#[doc = $frame_doc])*
                    #[pyo3(signature = $sig)]
                    fn $method<'py>(
                        &self,
                        py: ::pyo3::Python<'py>,
                        $arg: Option<&::pyo3::Bound<'py, ::pyo3::PyAny>>,
                        progress: Option<&::pyo3::Bound<'py, ::pyo3::PyAny>>,
                    ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::PyAny>> {
                        let (kind, progress) = ($crate::convert::FrameKind::$kind, progress.cloned());
                        let frame = $crate::walk_twins::FrameCall { py, class: CLASS_NAME, kind, progress };
                        $collect::<M>(frame, &self.$field, $arg)
                    }
                )*

                $(
                    $(#[$writer_attr])*
                    #[allow(clippy::too_many_arguments)]
                    fn $writer<'py>(
                        &self,
                        py: ::pyo3::Python<'py>,
                        $($(#[$own_attr])* $own: $own_ty,)*
                        #[pyo3(from_py_with = $crate::args::compression)] compression: &str,
                        #[pyo3(from_py_with = $crate::args::row_group_size)] row_group_size: u64,
                        $($($opt: Option<&::pyo3::Bound<'py, ::pyo3::PyAny>>,)*)?
                        progress: Option<&::pyo3::Bound<'py, ::pyo3::PyAny>>,
                    ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::PyAny>> {
                        let call = $crate::mode::Call(CLASS_NAME, stringify!($writer));
                        let write = $crate::walk_twins::WriteCall::new(py, call, compression, row_group_size, progress);
                        $run::<M>(write?, &self.$field, $($own,)* $($($opt),*)?)
                    }
                )*

                $(#[doc = $stream_doc])*
                #[pyo3(signature = (requested_schema=None))]
                fn __arrow_c_stream__<'py>(
                    &self,
                    py: ::pyo3::Python<'py>,
                    requested_schema: Option<::pyo3::Bound<'py, ::pyo3::PyAny>>,
                ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::PyAny>> {
                    $warn(py, &self.$field)?;
                    let reader = $crate::walk_twins::StreamReader::stream_reader(&self.$field, py)?;
                    $crate::convert::arrow_stream(py, reader, requested_schema)
                }

                $(#[doc = $restart_doc])*
                fn restart(&self) -> Self {
                    Self { $field: self.$field.restart() }
                }

                fn __repr__(&self) -> String {
                    $crate::show::repr(CLASS_NAME, &$fields(&self.$field))
                }

                $(#[doc = $html_doc])*
                fn _repr_html_(&self) -> String {
                    $crate::show::html(CLASS_NAME, &$fields(&self.$field))
                }
            }
            sync_only {
                fn __iter__(&self, py: ::pyo3::Python<'_>) -> ::pyo3::PyResult<ItemsOf> {
                    self.items(py, $($default),*)
                }
            }
            async_only {
                fn __aiter__(&self, py: ::pyo3::Python<'_>) -> ::pyo3::PyResult<ItemsOf> {
                    self.items(py, $($default),*)
                }
            }
        }
    };
}

pub(crate) use walk_twins;
