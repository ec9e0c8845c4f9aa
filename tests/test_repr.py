"""Reprs read as Python (no Rust ``Some(...)`` or ``false``), and pagers and ranges show an HTML
table of their position in Jupyter."""

from __future__ import annotations

import avax_data as ad


def test_reprs_read_as_python() -> None:
    with ad.Emulator(containers=100, data_blocks_per_chain=30) as emu:
        url = emu.url
        node, data, metrics = ad.IndexClient(url), ad.DataClient(base_url=url, api_key="secret-k"), ad.MetricsClient(base_url=url)
        assert repr(node) == f"IndexClient('{url}')" and repr(data) == f"DataClient('{url}')"
        assert repr(metrics) == f"MetricsClient('{url}')" and repr(node.chain("X/tx")) == "Chain('X/tx')"
        rng = node.chain("X/tx").range(5, 25)
        assert repr(rng) == "Range(path='X/tx', start=5, stop=25, end=25, next_index=5, decode=False)"
        next(iter(rng))
        assert "next_index=6" in repr(rng)
        pager = data.blocks("43114", page_size=10, limit=25)
        assert repr(pager) == ("Pager(path='/v1/chains/43114/blocks', resource='block', items_read=0, "
                               "next_page_token=None, page_offset=0, exhausted=False, limit=25)")
        it = iter(pager)
        for _ in range(12):
            next(it)
        shown = repr(pager)
        assert "items_read=12" in shown and "page_offset=2" in shown and "next_page_token='" in shown
        follow = node.chain("X/tx").follow()
        assert repr(follow) in ("Follow(next_index=None)", "Follow(next_index=100)")
        follow.close()
        node.close()
        assert repr(node) == f"IndexClient('{url}', closed)"
        assert "secret-k" not in repr(data)
        assert repr(emu) == f"Emulator('{url}')"


def test_pagers_and_ranges_show_an_html_table() -> None:
    with ad.Emulator(containers=50, data_blocks_per_chain=30) as emu:
        html = ad.IndexClient(emu.url).chain("C/block").range(0, 10)._repr_html_()
        assert html.startswith("<table>") and "<b>Range</b>" in html and "next_index</th><td>0</td>" in html
        pager = ad.DataClient(base_url=emu.url).blocks("43114")
        html = pager._repr_html_()
        assert "<b>Pager</b>" in html and "/v1/chains/43114/blocks" in html and "&#x27;" not in html
