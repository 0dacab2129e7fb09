"""Browser-context settings from the render config: user agent, headers, locale,
time zone, proxy, storage state, and the page hooks every context installs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from visx.config import RenderConfig
from visx.errors import ConfigError
from visx.render.capture import script
from visx.render.thresholds import TIMER_HORIZON_MS, TIMER_LATER_MS


def hooks_script() -> str:
    return (script("hooks.js").replace("__HORIZON_MS__", str(TIMER_HORIZON_MS))
            .replace("__LATER_MS__", str(TIMER_LATER_MS)))


def context_options(cfg: RenderConfig) -> dict[str, Any]:
    """Keyword arguments of ``browser.new_context`` for ``cfg``."""
    opts: dict[str, Any] = {
        "viewport": {"width": cfg.viewport_width, "height": cfg.viewport_height},
        "java_script_enabled": cfg.javascript,
        "ignore_https_errors": False,
    }
    if cfg.user_agent:
        opts["user_agent"] = cfg.user_agent
    if cfg.headers:
        opts["extra_http_headers"] = dict(cfg.headers)
    if cfg.locale:
        opts["locale"] = cfg.locale
    if cfg.timezone:
        opts["timezone_id"] = cfg.timezone
    if cfg.proxy:
        opts["proxy"] = proxy_settings(cfg.proxy)
    if cfg.storage_state is not None:
        opts["storage_state"] = str(check_storage_state(cfg.storage_state))
    return opts


def reuse_key(cfg: RenderConfig) -> tuple[Any, ...]:
    """Renders with equal keys may share an open tab (its context carries these settings)."""
    state = None
    if cfg.storage_state is not None:
        p = Path(cfg.storage_state)
        state = (str(p.resolve()), p.stat().st_mtime_ns if p.exists() else 0)
    return (cfg.viewport_width, cfg.viewport_height, cfg.javascript, cfg.user_agent,
            tuple(sorted(cfg.headers.items())), cfg.locale, cfg.timezone, cfg.proxy, state)


def proxy_settings(url: str) -> dict[str, str]:
    """Playwright's proxy dict from ``scheme://[user:pass@]host:port`` (a ConfigError when
    the port is not a number, or for socks5 with credentials, which Chromium cannot use)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError as e:
        raise ConfigError(f"proxy {url!r}: bad port ({e}); give scheme://host:port") from e
    host = parts.netloc.rpartition("@")[2]  # as written: an IPv6 address keeps its brackets
    host = host.rpartition(":")[0] if port is not None else host.removesuffix(":")
    if not host.strip("[]"):
        raise ConfigError(f"proxy {url!r}: no host; give scheme://host:port")
    out = {"server": f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")}
    if parts.username:
        if parts.scheme.startswith("socks"):
            raise ConfigError(f"proxy {url!r}: Chromium cannot log in to a SOCKS proxy; "
                              "give one without user:pass, or an http:// proxy")
        out["username"] = unquote(parts.username)
        out["password"] = unquote(parts.password or "")
    return out


def check_storage_state(path: Path) -> Path:
    """The file, once it is known to be a readable storage state (else a ConfigError naming it)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"{path}: cannot read the storage state ({e.strerror}); give the file written by "
                          "Playwright's context.storage_state(path=...)") from e
    except ValueError as e:
        raise ConfigError(f"{path}: not a storage state (invalid JSON: {e}); give the file written by "
                          "Playwright's context.storage_state(path=...)") from e
    if not isinstance(doc, dict) or not isinstance(doc.get("cookies", []), list) \
            or not isinstance(doc.get("origins", []), list):
        raise ConfigError(f"{path}: not a storage state (expected an object with 'cookies' and 'origins' "
                          "lists); give the file written by Playwright's context.storage_state(path=...)")
    problem = _state_problem(doc)
    if problem:
        raise ConfigError(f"{path}: not a storage state ({problem}); give the file written by "
                          "Playwright's context.storage_state(path=...)")
    return Path(path)


def _is_pairs(items: Any) -> bool:
    return isinstance(items, list) and all(
        isinstance(x, dict) and isinstance(x.get("name"), str) and isinstance(x.get("value"), str) for x in items)


def _state_problem(doc: dict[str, Any]) -> str:
    """What Playwright would reject in a storage state's entries ('' when none)."""
    for i, c in enumerate(doc.get("cookies", [])):
        if not _is_pairs([c]):
            return f"cookies[{i}] is not an object with string 'name' and 'value'"
        if not isinstance(c.get("url"), str) and not (isinstance(c.get("domain"), str)
                                                       and isinstance(c.get("path"), str)):
            return f"cookies[{i}] has neither 'domain' and 'path' nor 'url'"
    for i, o in enumerate(doc.get("origins", [])):
        if not isinstance(o, dict) or not isinstance(o.get("origin"), str):
            return f"origins[{i}] is not an object with a string 'origin'"
        if not _is_pairs(o.get("localStorage")):
            return f"origins[{i}].localStorage is not a list of 'name'/'value' objects"
    return ""


def cookie_list(cfg: RenderConfig, url: str) -> list[dict[str, Any]]:
    """Cookies to add before ``url`` loads (http(s) only): the storage state's, again
    (a reused tab had its cookies cleared), then ``cfg.cookies`` for the whole site of ``url``."""
    if not url.startswith(("http://", "https://")):
        return []
    out: list[dict[str, Any]] = []
    if cfg.storage_state is not None:
        doc = json.loads(check_storage_state(cfg.storage_state).read_text(encoding="utf-8"))
        out += [dict(c) for c in doc.get("cookies", [])]
    parts = urlsplit(url)
    site = f"{parts.scheme}://{parts.netloc}/"  # path "/": a URL's own path would scope them to its folder
    out += [{"name": k, "value": v, "url": site} for k, v in cfg.cookies.items()]
    return out
