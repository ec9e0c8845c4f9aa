//! Redirects, followed by the send path itself (reqwest's own following is off): within the
//! request's origin only, at most [`MAX_REDIRECTS`] hops, never in a loop. Reqwest's policy would
//! drop only `Authorization`, `Cookie`, `Proxy-Authorization` and `WWW-Authenticate`, and only on
//! a change of host or port, and would send the API key headers anywhere; here a redirect to
//! another origin is refused, or (when allowed) followed without any secret header.

use reqwest::Method;
use url::Url;

use crate::error::RedirectKind;

/// Most redirects followed by one request.
pub const MAX_REDIRECTS: u32 = 5;

/// Whether `status` is a redirect that carries a `Location` to follow.
pub fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// Same scheme, host and port (the default port of the scheme when none is written).
pub fn same_origin(a: &Url, b: &Url) -> bool {
    a.scheme() == b.scheme() && a.host_str() == b.host_str() && a.port_or_known_default() == b.port_or_known_default()
}

/// The request to send after a redirect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextHop {
    /// Where to.
    pub url: Url,
    /// The method: 303 turns any method into `GET`, 301/302 turn `POST` into `GET` (as browsers
    /// and reqwest do); 307/308 keep method and body.
    pub method: Method,
    /// Whether the body is sent again.
    pub keep_body: bool,
    /// Whether the next hop leaves the origin of the first request.
    pub cross_origin: bool,
}

/// Decides a redirect from `current` (hop number `hops`, 0 for the first) whose `Location` is
/// `location`. `Err` carries why it is not followed and the target as far as it is known.
pub fn next_hop(
    status: u16,
    method: &Method,
    origin: &Url,
    current: &Url,
    location: &str,
    visited: &[Url],
    follow_cross_origin: bool,
) -> Result<NextHop, (RedirectKind, String)> {
    let url = match current.join(location.trim()) {
        Ok(url) if matches!(url.scheme(), "http" | "https") && url.host_str().is_some() => url,
        _ => return Err((RedirectKind::BadLocation, location.chars().take(2048).collect())),
    };
    let cross_origin = !same_origin(origin, &url);
    if cross_origin && !follow_cross_origin {
        return Err((RedirectKind::CrossOrigin, url.to_string()));
    }
    if visited.contains(&url) {
        return Err((RedirectKind::Loop, url.to_string()));
    }
    if visited.len() as u32 > MAX_REDIRECTS {
        return Err((RedirectKind::TooMany, url.to_string()));
    }
    let to_get = status == 303 || (matches!(status, 301 | 302) && *method == Method::POST);
    let method = if to_get && *method != Method::HEAD { Method::GET } else { method.clone() };
    Ok(NextHop { url, keep_body: !to_get, method, cross_origin })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn origins_compare_scheme_host_and_port() {
        assert!(same_origin(&u("http://a:80/x"), &u("http://a/y?z")));
        assert!(!same_origin(&u("http://a/x"), &u("https://a/x")));
        assert!(!same_origin(&u("http://a:8080/x"), &u("http://a:8081/x")));
        assert!(!same_origin(&u("http://a/x"), &u("http://b/x")));
    }

    #[test]
    fn hops_stay_in_the_origin_end_loops_and_count() {
        let o = u("http://h:1/v1/a");
        let hop = next_hop(307, &Method::POST, &o, &o, "/v1/b", std::slice::from_ref(&o), false).unwrap();
        assert_eq!(
            (hop.url.as_str(), hop.method.clone(), hop.keep_body, hop.cross_origin),
            ("http://h:1/v1/b", Method::POST, true, false)
        );
        let hop = next_hop(302, &Method::POST, &o, &o, "b", std::slice::from_ref(&o), false).unwrap();
        assert_eq!((hop.url.as_str(), hop.method, hop.keep_body), ("http://h:1/v1/b", Method::GET, false));
        let err = next_hop(301, &Method::GET, &o, &o, "http://evil:2/x", std::slice::from_ref(&o), false).unwrap_err();
        assert_eq!(err, (RedirectKind::CrossOrigin, "http://evil:2/x".to_string()));
        let hop = next_hop(301, &Method::GET, &o, &o, "http://evil:2/x", std::slice::from_ref(&o), true).unwrap();
        assert!(hop.cross_origin);
        let err = next_hop(302, &Method::GET, &o, &o, "/v1/a", std::slice::from_ref(&o), false).unwrap_err();
        assert_eq!(err.0, RedirectKind::Loop);
        let visited: Vec<Url> = (0..=MAX_REDIRECTS).map(|i| u(&format!("http://h:1/{i}"))).collect();
        assert_eq!(next_hop(302, &Method::GET, &o, &o, "/next", &visited, false).unwrap_err().0, RedirectKind::TooMany);
        assert_eq!(
            next_hop(302, &Method::GET, &o, &o, "ftp://h/x", &[], false).unwrap_err().0,
            RedirectKind::BadLocation
        );
        assert!(is_redirect(308) && !is_redirect(304) && !is_redirect(300));
    }
}
