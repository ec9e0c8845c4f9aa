//! The page source of the pager's tests: a scripted token-paged service ([`Answers`]) seen as a
//! [`PageSource`], and the loops that drain a cursor item by item or page by page.

use std::sync::Arc;

use futures::stream::BoxStream;
use futures::StreamExt;

use super::{Fetched, PageKey, PageSource, PagerCursor};
use crate::error::Result;
use crate::paging::{token_pages, JsonItem, Page};

/// A scripted service: its answer to one request, and the walk's name.
pub(super) trait Answers: Send + Sync + 'static {
    /// The page for `token` (`None`: the first), of at most `at_most` items when given.
    fn answer(&self, token: Option<String>, at_most: Option<u64>) -> Result<Page<JsonItem>>;
    /// What the pager calls the walk.
    fn name(&self) -> String;
}

/// A scripted service as the pager's source of token-paged pages.
pub(super) struct Scripted<S>(pub Arc<S>);

impl<S: Answers> PageSource for Scripted<S> {
    fn first(&self) -> PageKey {
        PageKey::Token(None)
    }

    fn pages(&self, from: PageKey, want: Option<u64>) -> BoxStream<'static, Result<Fetched>> {
        let PageKey::Token(token) = from else { panic!("token walk") };
        let service = self.0.clone();
        token_pages(token, want, move |token, at_most| {
            let answer = service.answer(token, at_most);
            async move { answer }
        })
        .map(|r| r.map(|(page, token)| Fetched::token_page(page, token)))
        .boxed()
    }

    fn describe(&self) -> String {
        self.0.name()
    }
}

/// Every item the cursor hands out, one at a time, to the walk's end.
pub(super) async fn drain_items(cursor: &mut PagerCursor) -> Vec<JsonItem> {
    let mut out = Vec::new();
    while let Some(item) = cursor.next_item().await.unwrap() {
        out.push(item);
    }
    out
}

/// Every page the cursor hands out, to the walk's end.
pub(super) async fn drain_pages(cursor: &mut PagerCursor) -> Vec<Vec<JsonItem>> {
    let mut out = Vec::new();
    while let Some(page) = cursor.next_page().await.unwrap() {
        out.push(page);
    }
    out
}
