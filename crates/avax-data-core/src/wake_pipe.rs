//! A pipe whose bytes wake the tasks waiting on it: its write end is what a signal handler
//! writes to (CPython's wakeup fd, `signal.set_wakeup_fd`), so a blocking wait learns of a
//! signal the moment it arrives instead of looking for one on every tick of a clock.
//!
//! A wait that polls for signals wakes its thread (and the ticking thread) 20 times a second for
//! as long as it waits; a walk that spends most of its time waiting for answers pays those
//! wake-ups, and each one after an idle spell is dear (cold caches, a halted virtual CPU woken).
//! With the pipe, an idle wait is woken only by a signal. One reading thread per process drains
//! the pipe; each byte it reads moves a counter and wakes every waiter.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

/// The process's pipe: the write end for the signal handler, and what its reading thread moves.
#[derive(Clone, Debug)]
pub struct WakePipe(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    write_fd: i32,
    /// Reads of the pipe so far (each read takes every byte there).
    reads: AtomicU64,
    wake: Notify,
}

/// One waiter: [`Waiter::woken`] completes once a byte was written after the waiter was made
/// (or after its last wake), never missing one written in between.
#[derive(Debug)]
pub struct Waiter {
    pipe: WakePipe,
    seen: u64,
}

impl WakePipe {
    /// The write end: non-blocking, as a signal handler must have it (a full pipe loses the
    /// byte, not the wake: the reader has one to read already).
    pub fn write_fd(&self) -> i32 {
        self.0.write_fd
    }

    /// A waiter for the bytes written from now on.
    pub fn waiter(&self) -> Waiter {
        Waiter { seen: self.0.reads.load(Ordering::SeqCst), pipe: self.clone() }
    }

    /// Writes one byte (what a signal handler does): wakes every waiter.
    pub fn poke(&self) {
        os::write_byte(self.0.write_fd);
    }
}

impl Waiter {
    /// Completes at the next byte written to the pipe since this waiter was made or last woken.
    pub async fn woken(&mut self) {
        let shared = &self.pipe.0;
        loop {
            let notified = shared.wake.notified();
            let mut notified = std::pin::pin!(notified);
            // Registered before the counter is read: a read between the two still wakes us.
            notified.as_mut().enable();
            let reads = shared.reads.load(Ordering::SeqCst);
            if reads != self.seen {
                self.seen = reads;
                return;
            }
            notified.await;
        }
    }
}

/// The pipe of this process and its reading thread, made on first use and again in a forked
/// child (the reading thread does not survive a fork); `None` when the OS refused a pipe or a
/// thread (the caller then falls back to polling).
static PIPE: Mutex<Option<(u32, WakePipe)>> = Mutex::new(None);

/// The process's [`WakePipe`].
pub fn wake_pipe() -> Option<WakePipe> {
    let pid = std::process::id();
    let mut slot = PIPE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((owner, pipe)) = slot.as_ref() {
        if *owner == pid {
            return Some(pipe.clone());
        }
    }
    let pipe = open()?;
    *slot = Some((pid, pipe.clone()));
    Some(pipe)
}

/// A new pipe and the thread that reads it.
fn open() -> Option<WakePipe> {
    let (read_fd, write_fd) = os::pipe()?;
    let shared = Arc::new(Shared { write_fd, reads: AtomicU64::new(0), wake: Notify::new() });
    let reader = shared.clone();
    let spawned = std::thread::Builder::new().name("avax-data-sig".into()).spawn(move || drain(read_fd, &reader));
    if spawned.is_err() {
        os::close(read_fd);
        os::close(write_fd);
        return None;
    }
    Some(WakePipe(shared))
}

/// The reading thread: blocks in `read` (no wake-up while nothing is written) and wakes the
/// waiters after each read that took bytes.
fn drain(read_fd: i32, shared: &Shared) {
    while os::read_some(read_fd) {
        shared.reads.fetch_add(1, Ordering::SeqCst);
        shared.wake.notify_waiters();
    }
}

/// The pipe on POSIX systems.
#[cfg(unix)]
mod os {
    /// A new pipe, both ends close-on-exec, the write end non-blocking (CPython refuses a
    /// blocking wakeup fd; a full pipe then loses a byte, not the wake: the reader has one).
    pub fn pipe() -> Option<(i32, i32)> {
        let mut fds = [0i32; 2];
        // SAFETY: `fds` has room for the two descriptors pipe writes.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return None;
        }
        // SAFETY: fcntl on the descriptors just made.
        let flagged = unsafe {
            libc::fcntl(fds[0], libc::F_SETFD, libc::FD_CLOEXEC) == 0
                && libc::fcntl(fds[1], libc::F_SETFD, libc::FD_CLOEXEC) == 0
                && libc::fcntl(fds[1], libc::F_SETFL, libc::O_NONBLOCK) == 0
        };
        if !flagged {
            close(fds[0]);
            close(fds[1]);
            return None;
        }
        Some((fds[0], fds[1]))
    }

    /// Blocks until bytes come and takes them; `false` once the pipe is closed or broken.
    pub fn read_some(fd: i32) -> bool {
        let mut buf = [0u8; 64];
        loop {
            // SAFETY: reads into a live buffer of its length.
            let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
            if n > 0 {
                return true;
            }
            if n == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                return false;
            }
        }
    }

    /// Writes one byte, never blocking.
    pub fn write_byte(fd: i32) {
        // SAFETY: writes one byte from a live buffer.
        let _ = unsafe { libc::write(fd, [0u8].as_ptr().cast(), 1) };
    }

    /// Closes `fd`.
    pub fn close(fd: i32) {
        // SAFETY: closes a descriptor this module made and nobody else holds.
        unsafe { libc::close(fd) };
    }
}

/// Elsewhere there is no pipe: waits fall back to polling.
#[cfg(not(unix))]
mod os {
    pub fn pipe() -> Option<(i32, i32)> {
        None
    }
    pub fn read_some(_fd: i32) -> bool {
        false
    }
    pub fn write_byte(_fd: i32) {}
    pub fn close(_fd: i32) {}
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_byte_wakes_a_waiter_made_before_it_and_only_then() {
        // A pipe of its own (tests run side by side, and a byte wakes every waiter of a pipe).
        let pipe = open().expect("a pipe");
        let mut waiter = pipe.waiter();
        let early = tokio::time::timeout(Duration::from_millis(100), waiter.woken()).await;
        assert!(early.is_err(), "woken with nothing written");
        let started = Instant::now();
        let poker = pipe.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            poker.poke();
        });
        tokio::time::timeout(Duration::from_secs(10), waiter.woken()).await.expect("the byte did not wake the waiter");
        assert!(started.elapsed() >= Duration::from_millis(25), "woken before the byte: {:?}", started.elapsed());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_byte_written_before_the_wait_starts_is_not_lost() {
        let pipe = open().expect("a pipe");
        let mut waiter = pipe.waiter();
        pipe.poke();
        // The byte may be read before or after `woken` registers: either way it wakes it.
        tokio::time::timeout(Duration::from_secs(10), waiter.woken()).await.expect("a byte written early was lost");
        let again = tokio::time::timeout(Duration::from_millis(100), waiter.woken()).await;
        assert!(again.is_err(), "one byte woke the waiter twice");
    }

    #[test]
    fn the_write_end_is_nonblocking_so_a_full_pipe_loses_bytes_not_the_writer() {
        let pipe = open().expect("a pipe");
        // SAFETY: reads the flags of the process's own descriptor.
        let flags = unsafe { libc::fcntl(pipe.write_fd(), libc::F_GETFL) };
        assert_ne!(flags & libc::O_NONBLOCK, 0, "CPython refuses a blocking wakeup fd");
        // Far more than a pipe holds: no write blocks.
        for _ in 0..200_000 {
            pipe.poke();
        }
    }

    #[test]
    fn the_process_has_one_pipe() {
        let pipe = wake_pipe().expect("a pipe");
        assert_eq!(wake_pipe().unwrap().write_fd(), pipe.write_fd());
    }
}
