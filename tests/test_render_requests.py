"""Request controls: user agent, headers, cookies, storage state, locale, time zone,
proxy, network blocking and ``base_url``, seen by a real page on real local servers."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import LocalServer, render_config
from pydantic import ValidationError

import visx
from visx.cli import main
from visx.config import RenderConfig
from visx.errors import ConfigError
from visx.model import PageSnapshot
from visx.render.context import proxy_settings

ECHO_IDS = ("ua", "lang", "xh", "cookie", "js-ua", "js-lang", "js-tz", "js-offset", "js-storage")


def echoed(snap: PageSnapshot) -> dict[str, str]:
    """The texts of the /echo page's fields (server side and script side)."""
    t = snap.nodes
    return {n.id: t.text(n.index) for n in t.nodes if n.id in ECHO_IDS}


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# -- configuration only (no browser) ------------------------------------------


def test_unknown_time_zone_is_a_validation_error_naming_it() -> None:
    with pytest.raises(ValidationError, match="Mars/Olympus"):
        RenderConfig(timezone="Mars/Olympus")
    assert RenderConfig(timezone="Europe/Berlin").timezone == "Europe/Berlin"


@pytest.mark.parametrize("bad", ["ftp://x", "proxy.example:3128", "http://", "http://host:3128/path",
                                 "http://host:99999"])
def test_invalid_proxy_is_rejected_at_config_time(bad: str) -> None:
    with pytest.raises(ValidationError, match="proxy"):
        RenderConfig(proxy=bad)


def test_proxy_settings_split_credentials_and_keep_the_host() -> None:
    assert proxy_settings("http://user:p%40ss@host:8080") == {
        "server": "http://host:8080", "username": "user", "password": "p@ss"}
    assert proxy_settings("socks5://127.0.0.1:1080") == {"server": "socks5://127.0.0.1:1080"}
    assert proxy_settings("http://[::1]:3128") == {"server": "http://[::1]:3128"}
    with pytest.raises(ConfigError, match="SOCKS"):
        proxy_settings("socks5://u:p@127.0.0.1:1080")  # Chromium has no SOCKS auth


@pytest.mark.parametrize("content", [
    None,  # missing file
    "{not json",
    "[]",
    '{"cookies": {}, "origins": []}',
    '{"cookies": [{"name": "a", "value": "b"}], "origins": []}',  # no domain/path or url
    '{"cookies": [], "origins": [{"origin": "http://127.0.0.1"}]}',  # no localStorage list
])
def test_bad_storage_state_is_a_config_error_before_any_launch(tmp_path: Path, content: str | None) -> None:
    state = tmp_path / "state.json"
    if content is not None:
        state.write_text(content, encoding="utf-8")
    # A Chromium that does not exist: a launch attempt would raise BrowserNotFoundError instead.
    cfg = render_config(storage_state=state, chromium=tmp_path / "no-chromium")
    with pytest.raises(ConfigError, match=str(state)):
        visx.render("<p>x</p>", cfg)


@pytest.mark.parametrize(("args", "option", "needle"), [
    (["--header", "nocolon"], "--header", "nocolon"),
    (["--cookie", "novalue"], "--cookie", "novalue"),
    (["--timezone", "Mars/Olympus"], "--timezone", "Mars/Olympus"),
    (["--proxy", "ftp://x"], "--proxy", "ftp://x"),
])
def test_cli_bad_request_option_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   args: list[str], option: str, needle: str) -> None:
    code = main(["render", "<p>x</p>", "-o", str(tmp_path / "x.json.gz"), *args])
    line = one_line_error(capsys)
    assert code == 2
    assert line.startswith(f"visx: error: option {option}: "), line
    assert needle in line
    assert not (tmp_path / "x.json.gz").exists()


# -- real browser ---------------------------------------------------------------


@pytest.mark.browser
def test_user_agent_headers_locale_and_time_zone_reach_server_and_script(server: LocalServer) -> None:
    snap = visx.render(server.url("echo"), render_config(
        user_agent="visx-test-agent/1.0", headers={"X-Visx-Test": "hello"}, locale="de-DE",
        timezone="Asia/Tokyo"))
    got = echoed(snap)
    assert got["ua"] == got["js-ua"] == "visx-test-agent/1.0"
    assert got["xh"] == "x-visx-test=hello"
    assert got["lang"].startswith("de-DE") and got["js-lang"] == "de-DE"
    assert got["js-tz"] == "Asia/Tokyo" and got["js-offset"] == "-540"  # UTC+9 in 1970
    assert got["cookie"] == "-" and got["js-storage"] == "null"


@pytest.mark.browser
def test_defaults_send_nothing_extra(server: LocalServer) -> None:
    got = echoed(visx.render(server.url("echo"), render_config(timezone="America/New_York")))
    assert got["xh"] == "-" and got["cookie"] == "-"
    assert got["ua"] == got["js-ua"] and "visx-test-agent" not in got["ua"]
    assert got["js-offset"] == "300"  # UTC-5 in January 1970


@pytest.mark.browser
def test_renders_with_different_settings_do_not_share_a_tab(server: LocalServer) -> None:
    seen = []
    for ua, header in (("agent-A", "a"), ("agent-B", "b"), ("agent-A", "a"), (None, None)):
        cfg = render_config(user_agent=ua, headers={"X-Which": header} if header else {})
        seen.append(echoed(visx.render(server.url("echo"), cfg)))
    assert [(g["ua"], g["xh"]) for g in seen[:3]] == [
        ("agent-A", "x-which=a"), ("agent-B", "x-which=b"), ("agent-A", "x-which=a")]
    assert seen[3]["ua"] not in ("agent-A", "agent-B") and seen[3]["xh"] == "-"


@pytest.mark.browser
def test_cookies_are_sent_to_the_whole_site_and_not_kept(server: LocalServer) -> None:
    # The page sits in /render/; its script's request to /echo must carry the cookie too.
    answers: list[Any] = []

    async def fetch_echo(page: Any) -> None:
        answers.append(await page.context.cookies())
        answers.append(await page.evaluate("fetch('/echo').then((r) => r.text())"))

    visx.render(server.url("render/delayed_list.html"),
                render_config(cookies={"session": "abc123", "theme": "dark"}), action=fetch_echo)
    cookies, page = answers
    assert {(c["name"], c["value"], c["path"]) for c in cookies} == {("session", "abc123", "/"),
                                                                    ("theme", "dark", "/")}
    assert '<p id="cookie">session=abc123; theme=dark</p>' in page
    # Cookies set for one render are not sent by the next (its tab may be the same).
    assert echoed(visx.render(server.url("echo"), render_config()))["cookie"] == "-"


def _storage_state(path: Path, server: LocalServer) -> Path:
    path.write_text(json.dumps({
        "cookies": [{"name": "sid", "value": "from-state", "domain": "127.0.0.1", "path": "/",
                     "expires": -1, "httpOnly": False, "secure": False, "sameSite": "Lax"}],
        "origins": [{"origin": server.base, "localStorage": [{"name": "visx-test", "value": "stored-value"}]}],
    }), encoding="utf-8")
    return path


@pytest.mark.browser
def test_storage_state_gives_cookies_and_local_storage_on_every_render(server: LocalServer,
                                                                        tmp_path: Path) -> None:
    cfg = render_config(storage_state=_storage_state(tmp_path / "state.json", server), cookies={"extra": "1"})
    for _ in range(2):  # the second render may reuse the first one's tab
        got = echoed(visx.render(server.url("echo"), cfg))
        assert sorted(got["cookie"].split("; ")) == ["extra=1", "sid=from-state"]
        assert got["js-storage"] == "stored-value"


@pytest.mark.browser
def test_cli_request_options_reach_the_page(server: LocalServer, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "echo.json.gz"
    state = _storage_state(tmp_path / "state.json", server)
    code = main(["render", server.url("echo"), "-o", str(out), "--timeout", "15",
                 "--user-agent", "cli-agent", "--header", "X-One: 1", "--header", "X-Two:  two words ",
                 "--cookie", "c=d", "--storage-state", str(state), "--locale", "fr-FR",
                 "--timezone", "Europe/Paris"])
    assert code == 0, capsys.readouterr().err
    got = echoed(visx.load_snapshot(out))
    assert got["ua"] == "cli-agent" and got["js-lang"] == "fr-FR" and got["js-tz"] == "Europe/Paris"
    assert got["xh"] == "x-one=1; x-two=two words"
    assert sorted(got["cookie"].split("; ")) == ["c=d", "sid=from-state"]
    assert got["js-storage"] == "stored-value"


class _Proxy(ThreadingHTTPServer):
    """A forward proxy that answers absolute-URI GETs itself, optionally behind Basic auth."""

    daemon_threads = True

    def __init__(self, auth: str | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self.auth = auth
        self.seen: list[tuple[str, str | None]] = []  # (request target, Proxy-Authorization)


class _ProxyHandler(BaseHTTPRequestHandler):
    server: _Proxy

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        given = self.headers.get("Proxy-Authorization")
        self.server.seen.append((self.path, given))
        if self.server.auth is not None and given != "Basic " + base64.b64encode(self.server.auth.encode()).decode():
            self.send_response(407)
            self.send_header("Proxy-Authenticate", 'Basic realm="visx"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        host = self.path.split("/")[2] if self.path.startswith("http://") else "?"
        body = (f"<html><head><title>Proxied</title></head><body><ul id='list'><li id='host'>{host}</li>"
                f"<li id='target'>{self.path}</li></ul></body></html>").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _start_proxy(auth: str | None) -> Iterator[_Proxy]:
    proxy = _Proxy(auth)
    thread = threading.Thread(target=proxy.serve_forever, name="test-proxy", daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        proxy.shutdown()
        proxy.server_close()
        thread.join(timeout=5)


@pytest.fixture
def open_proxy() -> Iterator[_Proxy]:
    yield from _start_proxy(None)


@pytest.fixture
def auth_proxy() -> Iterator[_Proxy]:
    yield from _start_proxy("user:p@ss")


def _texts(snap: PageSnapshot) -> dict[str, str]:
    return {n.id: snap.nodes.text(n.index) for n in snap.nodes.nodes if n.id in ("host", "target")}


@pytest.mark.browser
def test_proxy_carries_the_pages_requests(open_proxy: _Proxy) -> None:
    url = "http://visx-proxy-test.invalid/list"
    port = open_proxy.server_address[1]
    snap = visx.render(url, render_config(proxy=f"http://127.0.0.1:{port}"))
    assert snap.status == 200 and snap.title == "Proxied"
    assert _texts(snap) == {"host": "visx-proxy-test.invalid", "target": url}
    assert (url, None) in open_proxy.seen


@pytest.mark.browser
def test_proxy_credentials_are_decoded_and_sent(auth_proxy: _Proxy) -> None:
    url = "http://visx-proxy-auth.invalid/list"
    port = auth_proxy.server_address[1]
    snap = visx.render(url, render_config(proxy=f"http://user:p%40ss@127.0.0.1:{port}"))
    assert _texts(snap)["host"] == "visx-proxy-auth.invalid"
    expected = "Basic " + base64.b64encode(b"user:p@ss").decode()
    assert (url, expected) in auth_proxy.seen


_STYLED = ('<html><head><title>Served</title><link rel="stylesheet" href="styled.css"></head>'
           '<body><div class="card" id="c1">Card</div><a id="rel" href="detail.html?x=1">d</a></body></html>')


def _card_and_link(snap: PageSnapshot) -> tuple[tuple[float, float], str]:
    t = snap.nodes
    card = next(n for n in t.nodes if n.id == "c1")
    link = next(n for n in t.nodes if n.id == "rel")
    return (card.bbox[2], card.bbox[3]), link.attrs["href"]


@pytest.mark.browser
def test_html_string_is_served_at_base_url_with_network_blocked(server: LocalServer) -> None:
    base = server.url("render/served-blocked.html")
    before = list(server.requests)
    snap = visx.render(_STYLED, render_config(base_url=base))
    size, href = _card_and_link(snap)
    assert snap.url == base and snap.title == "Served"
    assert href == server.url("render/detail.html?x=1")
    assert size != (321.0, 47.0), "styled.css must not load while the network is blocked"
    assert server.requests[len(before):].count("/render/styled.css") == 0
    assert "/render/served-blocked.html" not in server.requests, "the page itself is fulfilled, not fetched"


@pytest.mark.browser
def test_html_string_at_base_url_loads_its_stylesheet_with_network_allowed(server: LocalServer) -> None:
    base = server.url("render/served-open.html")
    snap = visx.render(_STYLED, render_config(base_url=base, block_network=False))
    size, href = _card_and_link(snap)
    assert snap.url == base
    assert size == (321.0, 47.0), "sizes from styled.css: the relative stylesheet loaded from the server"
    assert href == server.url("render/detail.html?x=1")
    assert "/render/styled.css" in server.requests
    assert "/render/served-open.html" not in server.requests
