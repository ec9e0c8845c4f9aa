//! Connections the fault layer can drop: a listener whose streams carry a kill switch, handed to
//! the handlers with each request (axum's `ConnectInfo<Conn>`), so a `reset` or `cut` fault can
//! end the very connection its request came on with a TCP reset.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

/// What a request knows about its connection: the peer, which of the emulator's listeners took
/// it (0 primary, 1 the second origin), and the switch that drops it.
#[derive(Debug, Clone)]
pub(crate) struct Conn {
    /// The client's address.
    #[allow(dead_code)]
    pub(crate) peer: SocketAddr,
    /// 0: the primary listener; 1: the second origin.
    pub(crate) listener: usize,
    kill: Arc<AtomicBool>,
}

impl Conn {
    /// Drops the connection: every later read or write fails and the socket closes with a reset.
    pub(crate) fn kill(&self) {
        self.kill.store(true, Ordering::Release);
    }
}

/// A TCP listener whose connections can be killed from a handler. Dropping it (the server drops
/// its listener as soon as it stops accepting) closes `open`, which tells
/// [`crate::Emulator::close`] that the port no longer takes connections.
pub(crate) struct KillableListener {
    inner: TcpListener,
    listener: usize,
    _open: oneshot::Sender<()>,
}

impl KillableListener {
    pub(crate) fn new(inner: TcpListener, listener: usize, open: oneshot::Sender<()>) -> Self {
        KillableListener { inner, listener, _open: open }
    }
}

impl Listener for KillableListener {
    type Io = KillableStream;
    type Addr = Conn;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            match self.inner.accept().await {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let kill = Arc::new(AtomicBool::new(false));
                    let conn = Conn { peer, listener: self.listener, kill: kill.clone() };
                    return (KillableStream { inner: stream, kill, reset: false }, conn);
                }
                // As axum's own listener does: back off briefly on errors such as EMFILE.
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        let addr = self.inner.local_addr()?;
        Ok(Conn { peer: addr, listener: self.listener, kill: Arc::new(AtomicBool::new(false)) })
    }
}

impl Connected<IncomingStream<'_, KillableListener>> for Conn {
    fn connect_info(stream: IncomingStream<'_, KillableListener>) -> Self {
        stream.remote_addr().clone()
    }
}

/// A TCP stream that fails every operation once its connection is killed, after setting
/// `SO_LINGER` to zero so that closing it sends a reset.
pub(crate) struct KillableStream {
    inner: TcpStream,
    kill: Arc<AtomicBool>,
    reset: bool,
}

impl KillableStream {
    fn check(&mut self) -> io::Result<()> {
        if !self.kill.load(Ordering::Acquire) {
            return Ok(());
        }
        if !self.reset {
            self.reset = true;
            let _ = self.inner.set_zero_linger();
        }
        Err(io::Error::new(io::ErrorKind::ConnectionReset, "emulator fault: connection dropped"))
    }
}

impl AsyncRead for KillableStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        self.check()?;
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for KillableStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.check()?;
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.check()?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.check()?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.check()?;
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
