//! With the `python` feature, the test and bench binaries embed libpython (pyo3 links it unless
//! maturin builds an extension module): give them an rpath to the interpreter's library
//! directory, so `cargo test --features python` runs on a Python whose libpython is outside the
//! loader's default path (pyenv, python.org, conda) without `LD_LIBRARY_PATH`. Extension modules
//! built by maturin get no rpath (pyo3 then links no libpython).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    pyo3_build_config::add_libpython_rpath_link_args();
}
