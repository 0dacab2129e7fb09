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
from visx.render.thresholds import TIMER_HORIZON_MS


def hooks_script() -> str:
    return script("hooks.js").replace("__HORIZON_MS__", str(TIMER_HORIZON_MS))


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
    """Playwright's proxy dict from ``scheme://[user:pass@]host:port``."""
    parts = urlsplit(url)
    out = {"server": f"{parts.scheme}://{parts.hostname}" + (f":{parts.port}" if parts.port else "")}
    if parts.username:
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
    return Path(path)


def cookie_list(cfg: RenderConfig, url: str) -> list[dict[str, Any]]:
    """``cfg.cookies`` as Playwright cookies for the site of ``url`` (http(s) only)."""
    if not cfg.cookies or not url.startswith(("http://", "https://")):
        return []
    return [{"name": k, "value": v, "url": url} for k, v in cfg.cookies.items()]
