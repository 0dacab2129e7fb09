"""Every bad input of issue 2 §5, exercised for real: the right error, a useful message."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from conftest import RENDER_FIXTURES, LocalServer, closed_port, render_config
from playwright.async_api import Page

import visx
from visx import (
    BrowserNotFoundError,
    DnsError,
    HttpStatusError,
    NonHtmlContentError,
    PageCrashedError,
    RenderTimeoutError,
    SourceNotFoundError,
    UnreachableError,
    VisxError,
)


def one_line(err: pytest.ExceptionInfo[VisxError], *needles: str) -> str:
    msg = str(err.value)
    assert "\n" not in msg, msg
    for needle in needles:
        assert needle in msg, (needle, msg)
    return msg


# -- without a browser: checked before anything launches ---------------------


def test_missing_file() -> None:
    with pytest.raises(SourceNotFoundError) as err:
        visx.render("fixtures/render/no-such-page.html")
    one_line(err, "no-such-page.html", "no such file", "http://")


def test_directory_is_not_a_page() -> None:
    with pytest.raises(SourceNotFoundError) as err:
        visx.render(RENDER_FIXTURES)
    one_line(err, str(RENDER_FIXTURES), "directory")


def test_unreadable_file(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        # root reads any file whatever its mode; this one fails on read (EIO).
        path = Path("/proc/self/mem")
    else:
        path = tmp_path / "locked.html"
        path.write_text("<html></html>")
        path.chmod(0)
    with pytest.raises(SourceNotFoundError) as err:
        visx.render(path)
    one_line(err, str(path), "cannot read the file")


@pytest.mark.parametrize(
    ("name", "ctype"),
    [("document.pdf", "application/pdf"), ("image.png", "image/png"), ("items.json", "application/json")],
)
def test_non_html_files(name: str, ctype: str) -> None:
    with pytest.raises(NonHtmlContentError) as err:
        visx.render(RENDER_FIXTURES / name)
    assert err.value.content_type == ctype
    one_line(err, name, ctype, "not an HTML page")


def test_pdf_without_a_pdf_suffix_is_sniffed(tmp_path: Path) -> None:
    disguised = tmp_path / "report.html"
    disguised.write_bytes((RENDER_FIXTURES / "document.pdf").read_bytes())
    with pytest.raises(NonHtmlContentError) as err:
        visx.render(disguised)
    assert err.value.content_type == "application/pdf"


def test_unsupported_scheme() -> None:
    with pytest.raises(VisxError) as err:
        visx.render("ftp://example.org/list")
    one_line(err, "ftp://example.org/list", "unsupported scheme")


def test_browser_not_found_via_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    not_exe = tmp_path / "chromium"
    not_exe.write_text("#!/bin/sh\n")
    monkeypatch.setenv("VISX_CHROMIUM", str(not_exe))
    with pytest.raises(BrowserNotFoundError) as err:
        visx.render("<p>x</p>", render_config(javascript=False))
    one_line(err, "VISX_CHROMIUM", str(not_exe), "apt-get install")


def test_browser_not_found_via_config(tmp_path: Path) -> None:
    with pytest.raises(BrowserNotFoundError) as err:
        visx.render("<p>x</p>", render_config(chromium=tmp_path / "nowhere" / "chrome"))
    one_line(err, "configured chromium", "nowhere", "VISX_CHROMIUM")


def test_binary_that_is_not_a_browser(tmp_path: Path) -> None:
    fake = tmp_path / "fake-chromium"
    fake.write_text("#!/bin/sh\necho 'not a browser' >&2\nexit 3\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(BrowserNotFoundError) as err:
        visx.render("<p>x</p>", render_config(chromium=fake))
    one_line(err, str(fake), "failed to start")


# -- with a browser ----------------------------------------------------------


@pytest.mark.browser
def test_closed_port_is_unreachable() -> None:
    url = f"http://127.0.0.1:{closed_port()}/list"
    with pytest.raises(UnreachableError) as err:
        visx.render(url, render_config())
    assert not isinstance(err.value, DnsError)
    one_line(err, url, "ERR_CONNECTION_REFUSED", "server is up")


@pytest.mark.browser
def test_unsafe_port_is_unreachable() -> None:
    # Chromium refuses some ports outright (6000 is X11) before connecting.
    with pytest.raises(UnreachableError) as err:
        visx.render("http://127.0.0.1:6000/", render_config())
    one_line(err, "port 6000", "ERR_UNSAFE_PORT", "another port")


@pytest.mark.browser
def test_unknown_host_is_a_dns_error() -> None:
    # .invalid never resolves (RFC 2606): Chromium reports ERR_NAME_NOT_RESOLVED.
    with pytest.raises(DnsError) as err:
        visx.render("http://visx-test.invalid/search?q=x", render_config())
    one_line(err, "visx-test.invalid", "does not resolve")


@pytest.mark.browser
def test_http_404_raises_and_can_be_rendered_anyway(server: LocalServer) -> None:
    url = server.url("status/404")
    with pytest.raises(HttpStatusError) as err:
        visx.render(url, render_config(javascript=False))
    assert err.value.status == 404
    one_line(err, url, "HTTP 404", "--allow-http-errors")
    snap = visx.render(url, render_config(javascript=False, allow_http_errors=True))
    assert snap.status == 404 and snap.title == "Error 404"
    assert "Error 404 Not here." in snap.nodes.text(0)


@pytest.mark.browser
def test_http_5xx_raises(server: LocalServer) -> None:
    with pytest.raises(HttpStatusError) as err:
        visx.render(server.url("status/503"), render_config(javascript=False))
    assert err.value.status == 503
    one_line(err, "HTTP 503")


@pytest.mark.browser
@pytest.mark.parametrize(
    ("path", "ctype"),
    [("pdf", "application/pdf"), ("render/image.png", "image/png"), ("api/items", "application/json")],
)
def test_non_html_over_http(server: LocalServer, path: str, ctype: str) -> None:
    with pytest.raises(NonHtmlContentError) as err:
        visx.render(server.url(path), render_config(javascript=False))
    assert err.value.content_type == ctype
    one_line(err, server.url(path), ctype)


@pytest.mark.browser
def test_server_that_never_answers_times_out(server: LocalServer) -> None:
    with pytest.raises(RenderTimeoutError) as err:
        visx.render(server.url("hang"), render_config(timeout_s=1.5, partial_on_timeout=True))
    one_line(err, server.url("hang"), "1.5 s", "--timeout")


@pytest.mark.browser
def test_load_timeout_returns_partial_snapshot_when_asked(server: LocalServer) -> None:
    url = server.url("render/slow_image.html")
    with pytest.raises(RenderTimeoutError) as err:
        visx.render(url, render_config(timeout_s=1.5))
    one_line(err, url, "--partial")
    # A longer budget so a busy machine still gets the document before the cut.
    snap = visx.render(url, render_config(timeout_s=2.5, partial_on_timeout=True))
    assert snap.partial and snap.status == 200
    assert "Visible before load Second row" in snap.nodes.text(0)
    assert any("partial" in n for n in snap.notes)


@pytest.mark.browser
def test_page_that_never_stops_mutating_returns_at_the_cap(server: LocalServer) -> None:
    snap = visx.render(server.url("render/mutating.html"), render_config(timeout_s=2.0))
    assert snap.partial and snap.extra["settled"] is False
    assert any("DOM still changing" in n for n in snap.notes)
    assert "Steady item" in snap.nodes.text(0)
    assert snap.timings["navigate"] + snap.timings["settle"] < 2.0 + 1.0


@pytest.mark.browser
def test_dialogs_are_dismissed_and_noted(server: LocalServer) -> None:
    snap = visx.render(server.url("render/dialogs.html"), render_config())
    assert snap.notes[:2] == [
        "dialog alert dismissed: Welcome to the dialog page",
        "dialog confirm dismissed: Accept cookies?",
    ]
    answer = next(n for n in snap.nodes.nodes if n.id == "answer")
    assert answer.text == "dismissed", "confirm() returned false: the dialog was dismissed"


@pytest.mark.browser
def test_page_crash(server: LocalServer) -> None:
    async def crash(page: Page) -> None:
        cdp = await page.context.new_cdp_session(page)
        await cdp.send("Page.crash")  # never answers: the tab is gone

    with pytest.raises(PageCrashedError) as err:
        visx.render(server.url("render/styled.html"), render_config(javascript=False), action=crash)
    one_line(err, "crashed", "retry")
    # The shared browser survives a crashed tab.
    snap = visx.render("<html><body><p>after</p></body></html>", render_config(javascript=False))
    assert snap.nodes.text(0) == "after"


def test_errors_carry_their_source() -> None:
    with pytest.raises(SourceNotFoundError) as err:
        visx.render("missing-page.htm")
    assert err.value.source == "missing-page.htm"


@pytest.mark.browser
def test_hung_action_hits_the_hard_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # The cap is timeout_s plus an allowance for the capture; shrink the
    # allowance so a hook that never returns is cut off in about 2 s.
    from visx.render import page_load

    monkeypatch.setattr(page_load, "CAPTURE_ALLOWANCE_S", 1.0)

    async def hang(page: Page) -> None:
        await page.wait_for_timeout(60_000)

    with pytest.raises(RenderTimeoutError) as err:
        visx.render("<html><body><p>x</p></body></html>", render_config(javascript=False, timeout_s=1.0),
                    action=hang)
    one_line(err, "stopped responding", "2 s")


@pytest.mark.browser
def test_style_animation_alone_does_not_hold_the_capture(server: LocalServer) -> None:
    # Only style and class change (every frame): the content is settled well before the timeout.
    snap = visx.render(server.url("render/animated.html"), render_config(timeout_s=10.0))
    assert snap.extra["settled"] is True and not snap.partial
    assert snap.timings["settle"] < 5.0


@pytest.mark.browser
def test_a_ticking_clock_does_not_hold_the_capture(server: LocalServer) -> None:
    # Its text changes every 200 ms forever; the list comes after 600 ms and is waited for.
    snap = visx.render(server.url("render/ticker.html"), render_config(timeout_s=10.0))
    assert snap.extra["settled"] is True and not snap.partial
    items = [n for n in snap.nodes.nodes if n.tag == "li"]
    assert len(items) == 12 and snap.timings["settle"] < 5.0


@pytest.mark.browser
def test_wait_for_bounds_settling_on_a_page_that_never_goes_quiet(server: LocalServer) -> None:
    snap = visx.render(server.url("render/mutating.html"), render_config(timeout_s=10.0, wait_for="li"))
    assert not snap.partial and snap.timings["settle"] < 4.0
    assert "Steady item" in snap.nodes.text(0)


# -- content and schemes, told apart before any launch (issue 14) --------------


def test_utf16_file_with_a_bom_is_html(tmp_path: Path) -> None:
    from visx.render.page_load import classify

    for bom, enc in ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"), (b"\xef\xbb\xbf", "utf-8")):
        path = tmp_path / f"{enc}.html"
        path.write_bytes(bom + "<html><body><p>x</p></body></html>".encode(enc))
        assert classify(path).kind == "file"


def test_empty_and_blank_files(tmp_path: Path) -> None:
    from visx.errors import EmptyContentError

    (tmp_path / "e.html").write_bytes(b"")
    (tmp_path / "b.html").write_text(" \n\t ")
    with pytest.raises(EmptyContentError) as err:
        visx.render(tmp_path / "e.html")
    one_line(err, "e.html", "empty")
    with pytest.raises(NonHtmlContentError) as err2:  # EmptyContentError is one
        visx.render(tmp_path / "b.html")
    one_line(err2, "b.html", "only whitespace")


def test_binary_named_html(tmp_path: Path) -> None:
    path = tmp_path / "x.html"
    path.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(NonHtmlContentError) as err:
        visx.render(path)
    one_line(err, "x.html", "binary data")


@pytest.mark.parametrize("source", ["javascript:alert(1)", "mailto:a@b.example", "about:blank"])
def test_schemes_without_slashes(source: str) -> None:
    with pytest.raises(VisxError) as err:
        visx.render(source)
    one_line(err, source.split(":")[0] + ": URLs are not supported", "http(s) URL")


def test_data_url_of_another_type() -> None:
    with pytest.raises(NonHtmlContentError) as err:
        visx.render("data:image/png;base64,iVBORw0KGgo=")
    assert err.value.content_type == "image/png"
    one_line(err, "data: URL is image/png")
