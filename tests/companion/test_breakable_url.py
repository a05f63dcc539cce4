"""A link a narrow screen breaks only after a "/" (the invite card's links)."""

from __future__ import annotations

from companion.templatetags.segnalino import breakable_url


def test_a_link_is_its_parts_each_up_to_a_slash():
    html = breakable_url("http://192.168.1.20:8000/w/ZDPo8gegF7MX-M8Qp/")
    assert html == (
        '<span class="url"><span class="url-part">http://</span>'
        '<span class="url-part">192.168.1.20:8000/</span><span class="url-part">w/</span>'
        '<span class="url-part">ZDPo8gegF7MX-M8Qp/</span></span>'
    )


def test_a_link_is_escaped_and_keeps_a_last_part_without_a_slash():
    html = breakable_url('https://x.test/j/A"<b>')
    assert html.endswith('<span class="url-part">A&quot;&lt;b&gt;</span></span>')
