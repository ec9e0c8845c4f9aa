//! Helpers of the unit tests of the REST clients: a scripted service on a loopback port.

use crate::transport::TransportConfig;

/// Serves `app` on a free loopback port; its base URL.
pub(crate) async fn serve(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

/// A transport that never retries (the scripted answers are final).
pub(crate) fn no_retries() -> TransportConfig {
    TransportConfig {
        retry: crate::transport::RetryPolicy { max_retries: 0, ..Default::default() },
        ..TransportConfig::default()
    }
}
