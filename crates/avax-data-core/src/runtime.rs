//! The one process-wide tokio runtime, rebuilt in a forked child.
//!
//! A tokio runtime does not survive `fork()`: its worker threads exist only in the parent. The
//! runtime is therefore keyed by process id; a child that asks for it gets a fresh one (the
//! parent's copy is leaked in the child, never touched).

use std::sync::Mutex;

use tokio::runtime::{Builder, Runtime};

struct Owned {
    pid: u32,
    runtime: &'static Runtime,
}

static RUNTIME: Mutex<Option<Owned>> = Mutex::new(None);

/// The process-wide multi-threaded runtime (created on first use, again after a fork).
pub fn runtime() -> &'static Runtime {
    let pid = std::process::id();
    let mut slot = RUNTIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(owned) = slot.as_ref() {
        if owned.pid == pid {
            return owned.runtime;
        }
    }
    let runtime: &'static Runtime = Box::leak(Box::new(
        Builder::new_multi_thread()
            .enable_all()
            .thread_name("avax-data")
            .build()
            .expect("the OS refused to start the avax-data runtime threads"),
    ));
    *slot = Some(Owned { pid, runtime });
    runtime
}

/// A value rebuilt when the process id changes (for objects tied to the runtime, such as
/// connection pools).
pub struct PerProcess<T: Clone> {
    make: Box<dyn Fn() -> T + Send + Sync>,
    slot: Mutex<(u32, T)>,
}

impl<T: Clone> PerProcess<T> {
    /// Builds the first value now.
    pub fn new(make: impl Fn() -> T + Send + Sync + 'static) -> Self {
        let first = make();
        PerProcess { make: Box::new(make), slot: Mutex::new((std::process::id(), first)) }
    }

    /// The value of this process.
    pub fn get(&self) -> T {
        let pid = std::process::id();
        let mut slot = self.slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if slot.0 != pid {
            *slot = (pid, (self.make)());
        }
        slot.1.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_is_shared_within_a_process() {
        let a = runtime() as *const Runtime;
        let b = runtime() as *const Runtime;
        assert_eq!(a, b);
        assert_eq!(runtime().block_on(async { 40 + 2 }), 42);
    }

    #[test]
    fn per_process_keeps_its_value_in_one_process() {
        let counter = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let c = counter.clone();
        let cell = PerProcess::new(move || c.fetch_add(1, std::sync::atomic::Ordering::SeqCst));
        assert_eq!(cell.get(), 0);
        assert_eq!(cell.get(), 0);
        assert_eq!(counter.load(std::sync::atomic::Ordering::SeqCst), 1);
    }
}
