//! How objects show themselves in Python: reprs that read as Python (`Pager(path='...',
//! items_read=20, next_page_token=None)`) and small HTML tables for Jupyter (`_repr_html_`).

/// `s` as a Python string literal.
pub fn py_str(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// `value` as Python shows it: the value, or `None`.
pub fn py_opt<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| "None".to_string(), |v| v.to_string())
}

/// `value` as Python shows a bool.
pub fn py_bool(value: bool) -> String {
    if value { "True" } else { "False" }.to_string()
}

/// `Name(key=value, ...)`.
pub fn repr(name: &str, fields: &[(&str, String)]) -> String {
    let fields: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{name}({})", fields.join(", "))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A small HTML table of `fields` titled `name`, for Jupyter.
pub fn html(name: &str, fields: &[(&str, String)]) -> String {
    let rows: String = fields
        .iter()
        .map(|(k, v)| format!("<tr><th style=\"text-align:left\">{}</th><td>{}</td></tr>", escape(k), escape(v)))
        .collect();
    format!("<table><caption style=\"text-align:left\"><b>{}</b></caption>{rows}</table>", escape(name))
}

/// The fields a client shows in Jupyter: its URL, whether it is closed, and its retry policy.
pub fn client_fields(
    url: &str,
    closed: bool,
    retry: &avax_data_core::transport::RetryPolicy,
) -> Vec<(&'static str, String)> {
    vec![
        ("url", py_str(url)),
        ("closed", py_bool(closed)),
        ("max_retries", retry.max_retries.to_string()),
        ("retry_budget", format!("{} s", retry.retry_budget.as_secs_f64())),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reprs_read_as_python_and_html_is_escaped() {
        assert_eq!(py_str("it's"), "'it\\'s'");
        assert_eq!(py_opt::<u64>(None), "None");
        let fields = [("path", py_str("/v1/x")), ("next_page_token", py_opt(Some(py_str("<t>"))))];
        assert_eq!(repr("Pager", &fields), "Pager(path='/v1/x', next_page_token='<t>')");
        let table = html("Pager", &fields);
        assert!(table.contains("&lt;t&gt;") && !table.contains("<t>"), "{table}");
    }
}
