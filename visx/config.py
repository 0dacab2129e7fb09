"""One validated configuration with a section per stage.

Public functions take ``config=``; the CLI builds a :class:`Config` from its
options. Values here are the knobs a user may turn; tuned heuristic
thresholds live in each stage's ``thresholds`` module with their reasons.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from visx.errors import ConfigError


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RenderConfig(_Section):
    """How a page is loaded and captured."""

    chromium: Path | None = None
    """Explicit Chromium binary; wins over every other discovery step."""
    javascript: bool = True
    timeout_s: float = Field(30.0, gt=0, le=600)
    """Upper bound for navigation plus settling (and, with ``pages``, for each further step)."""
    quiet_ms: int = Field(500, ge=0, le=60_000)
    """The DOM must be free of mutations this long before the snapshot."""
    network_idle_s: float = Field(5.0, ge=0, le=120)
    """At most this long is spent waiting for ``networkidle`` (images, fonts) and for a
    visible loading indicator to go; the page's own fetch/XHR requests are waited
    for up to ``timeout_s``."""
    wait_for: str | None = None
    """Wait until this selector matches (Playwright syntax: CSS, which pierces open shadow
    roots, ``xpath=...`` or ``text=...``) before settling; an error when it never does."""
    wait_for_count: int = Field(1, ge=1, le=100_000)
    """With ``wait_for``: wait until at least this many elements match."""
    pages: int = Field(1, ge=1, le=10_000)
    """Harvest up to this many batches of the main list: the first view, then further
    pages by scrolling, "Load more" buttons or next links, merged into one snapshot
    (virtualised lists are scrolled to their end). 1: the first view only."""
    viewport_width: int = Field(1280, ge=200, le=10_000)
    viewport_height: int = Field(900, ge=200, le=10_000)
    keep_noscript: bool = False
    """With JavaScript off, keep ``<noscript>`` content; by default it is removed
    because pages saved after their scripts ran hide their content from it."""
    scroll: bool = False
    """Auto-scroll to trigger lazy loading, until the page stops growing."""
    scroll_max_steps: int = Field(30, ge=1, le=1000)
    allow_http_errors: bool = False
    """Render a 4xx/5xx page instead of raising :class:`HttpStatusError`."""
    partial_on_timeout: bool = False
    """On timeout return what is there, flagged ``partial``, instead of raising."""
    base_url: str | None = None
    """For HTML strings: the URL their relative links resolve against."""
    screenshot: bool = False
    """Attach a full-page PNG (capped at ``screenshot_max_height``) to the snapshot."""
    screenshot_max_height: int = Field(16_384, ge=100, le=65_000)
    block_network: bool | None = None
    """None: block non-``file:`` requests for files and strings only."""
    browser_args: tuple[str, ...] = ()
    """Extra Chromium command-line flags (for the browser launched first)."""
    user_agent: str | None = None
    """The User-Agent header and ``navigator.userAgent``; None keeps Chromium's."""
    headers: dict[str, str] = Field(default_factory=dict)
    """Extra HTTP headers sent with every request of the page."""
    cookies: dict[str, str] = Field(default_factory=dict)
    """Cookies (name: value) set for the source URL's site before it loads."""
    storage_state: Path | None = None
    """A Playwright storage state file (cookies and localStorage, as written by
    ``context.storage_state(path=...)``) loaded into the browser context."""
    locale: str | None = None
    """Browser locale (``de-DE``): ``navigator.language``, ``Accept-Language``, number formats."""
    timezone: str | None = None
    """IANA time zone of the page's clock (``Europe/Berlin``)."""
    proxy: str | None = None
    """Proxy for the page's requests: ``http://[user:pass@]host:port`` or ``socks5://host:port``."""
    restart_every: int = Field(200, ge=0, le=1_000_000)
    """Restart the shared browser after this many pages (0: never). Chromium's memory creeps
    up over a long batch (caches, leaked renderer state); a restart costs about 0.5 s, so
    every 200 pages it adds well under 1% to a batch. Pages in flight finish on the old one."""
    restart_rss_mb: int = Field(2500, ge=0, le=1_000_000)
    """Restart the shared browser, between pages, once its processes hold more than this
    much memory together (0: never). A browser rendering two ordinary pages holds
    300-800 MB; 2.5 GB means something piles up, and the process must stay bounded."""

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, v: str | None) -> str | None:
        if v is None:
            return v
        import zoneinfo

        # The IANA names proper: the tz folder also holds files such as 'localtime' and
        # 'posixrules' that zoneinfo loads and Chromium refuses.
        if v not in zoneinfo.available_timezones():
            raise ValueError(f"unknown time zone {v!r}: use an IANA name such as Europe/Berlin")
        return v

    @field_validator("proxy")
    @classmethod
    def _proxy_url(cls, v: str | None) -> str | None:
        if v is None:
            return v
        from urllib.parse import urlsplit

        text = v.strip().rstrip("/")
        parts = urlsplit(text)
        try:
            port = parts.port
        except ValueError:
            port = -1
        if parts.scheme not in ("http", "https", "socks5") or not parts.hostname or port == -1 \
                or parts.path or parts.query:
            raise ValueError(f"proxy {v!r} is not scheme://host:port (http, https or socks5, a port of 1-65535)")
        return text

    @field_validator("headers")
    @classmethod
    def _header_names(cls, v: dict[str, str]) -> dict[str, str]:
        for name in v:
            if not re.match(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", name):
                raise ValueError(f"header name {name!r} is not a valid HTTP header name")
        return v


class CleanConfig(_Section):
    """Noise removal by position."""

    enabled: bool = True
    bands: bool = True
    side_columns: bool = True
    ads: bool = True
    overlays: bool = True


class MineConfig(_Section):
    """Data region and record mining."""

    miner: str = "mdr"
    max_combination: int = Field(10, ge=1, le=30)
    """K: generalized nodes combine 1..K adjacent children."""
    threshold: float = Field(0.3, gt=0, lt=1)
    """T: normalized edit distance at or below which two nodes are similar."""
    visual: bool = True
    """Use box geometry and styles as extra evidence."""
    join_shapes: bool = True
    """Join data lists right above one another whose records look the same on screen (the same
    text, link and picture leaves in order) though their markup differs: sponsored results
    above organic ones (``visx.mine.sections``)."""

    @field_validator("miner")
    @classmethod
    def _known_miner(cls, v: str) -> str:
        if v not in {"mdr", "drmining", "flat"}:
            raise ValueError(f"unknown miner {v!r}: use 'mdr', 'drmining' or 'flat'")
        return v


class FlatConfig(_Section):
    """The flat-page miner (``visx.flat``): records written as text runs, not one element each."""

    mode: Literal["auto", "always", "off"] = "auto"
    """``auto``: run when DOM mining finds no convincing data list; ``always``: run on every
    page and rank its regions with the DOM's; ``off``: never (``mine.miner=flat`` forces it)."""
    separators: tuple[str, ...] = ("|", "¦", "·", "•", "∙", " - ", " – ", " — ", " / ", ";")
    """Strings that end an entity inside a text (a space in one stands for any whitespace);
    inside ``<pre>`` line breaks, tabs and runs of spaces end one too."""
    rules: str = "default"
    """Entity typing rule set: a topic shipped in ``visx/flat/rules/`` (``default``, ``shop``,
    ``forum``) or the path of a JSON rule file (see ``visx.flat.rules``)."""


class AlignConfig(_Section):
    """Partial tree alignment of the records of a region into columns."""

    style_evidence: bool = True
    """Let rendered styles and x-offsets break ties between equally shaped matchings."""
    lists: bool = True
    """Collapse a nested list of varying length (tags, authors) into one list-valued cell."""
    join_complementary: bool = True
    """Join two columns that no record fills together and whose values look alike (one field
    built two ways, e.g. the titles of sponsored and of organic results)."""
    max_stm_cells: int = Field(default=60_000, ge=100, le=10_000_000)
    """Work budget (DP cells) of one record-vs-seed tree match."""


class SchemaConfig(_Section):
    """Column typing and naming."""

    decimal: Literal["auto", ".", ","] = "auto"
    """Decimal separator of numbers; ``auto`` votes over the table's unambiguous values."""
    date_order: Literal["auto", "dmy", "mdy", "ymd"] = "auto"
    """Field order of numeric dates such as 03/04/2026; ``auto`` decides per column."""
    drop_constant: bool = True
    """Leave columns with the same value in every record (``Add to cart``) out of the default table."""
    tidy: bool = True
    """Tidy the tables (``visx.schema.tidy``): one URL per record link, a currency apart from
    its amount joined to it, interface words left out, sparse columns of one field merged."""


class DebugConfig(_Section):
    """The annotated screenshot and HTML report (``visx report``, ``extract --debug``)."""

    max_height: int = Field(default=10_000, ge=200, le=65_000)
    """``page.png`` and the report's image stop at this many px, with a visible note:
    a 1280x10000 PNG stays a few MB and opens in any browser."""
    embed_image: bool = True
    """Embed the screenshot in ``report.html`` (one file to share); else link ``screenshot.png`` beside it."""


class AnalysisConfig(_Section):
    """Bounds on the stages after rendering, so a huge or hostile page costs seconds, not minutes."""

    max_nodes: int = Field(25_000, ge=100, le=1_000_000)
    """Elements analysed at most; a larger page is cut in document order (its top kept) with a
    warning and the result marked partial. Real list pages hold 1-15k elements; analysis runs
    at about 8-10k elements a second here, so 25k stays near 3 s."""
    budget_s: float = Field(5.0, gt=0, le=3600)
    """Seconds the analysis may take. Past it after mining, only the main list is aligned and
    typed (the other regions keep their records, without tables), with a warning."""


class Config(_Section):
    """All settings of a visx run."""

    render: RenderConfig = RenderConfig()
    clean: CleanConfig = CleanConfig()
    mine: MineConfig = MineConfig()
    flat: FlatConfig = FlatConfig()
    align: AlignConfig = AlignConfig()
    table: SchemaConfig = SchemaConfig()
    """Schema stage (``visx.schema``); not called ``schema``, which pydantic reserves."""
    debug: DebugConfig = DebugConfig()
    analysis: AnalysisConfig = AnalysisConfig()


_VIEWPORT = re.compile(r"^(\d+)x(\d+)$")


def parse_viewport(text: str) -> tuple[int, int]:
    """Parse ``1280x900``; raise :class:`ConfigError` naming the value otherwise."""
    m = _VIEWPORT.match(text.strip().lower())
    if not m:
        raise ConfigError(f"viewport {text!r} is not WIDTHxHEIGHT, e.g. 1280x900")
    return int(m.group(1)), int(m.group(2))


def with_overrides(config: Config, settings: list[str], *, sections: tuple[str, ...] | None = None) -> Config:
    """``config`` with ``SECTION.KEY=VALUE`` settings applied (``align.lists=false``), each checked
    by the section's own validation. ``sections`` limits which sections may be set."""
    allowed = sections or tuple(Config.model_fields)
    updates: dict[str, dict[str, object]] = {}
    for item in settings:
        name, sep, raw = item.partition("=")
        section, dot, key = name.strip().partition(".")
        if not sep or not dot or not key:
            raise ConfigError(f"setting {item!r} is not SECTION.KEY=VALUE, e.g. align.lists=false")
        if section not in allowed:
            raise ConfigError(f"setting {item!r}: section {section!r} cannot be set here; use one of "
                              f"{', '.join(allowed)}")
        model = type(getattr(config, section))
        if key not in model.model_fields:
            raise ConfigError(f"setting {item!r}: {section} has no {key!r}; it has "
                              f"{', '.join(model.model_fields)}")
        updates.setdefault(section, {})[key] = _setting_value(raw.strip())
    out = config
    for section, values in updates.items():
        current = getattr(out, section)
        try:
            new = type(current).model_validate({**current.model_dump(), **values})
        except ValueError as e:  # pydantic's ValidationError
            lines = [ln.strip() for ln in str(e).strip().splitlines()[1:3]]
            raise ConfigError(f"setting {section}.{' / '.join(lines)}; check the value") from e
        out = out.model_copy(update={section: new})
    return out


def _setting_value(raw: str) -> object:
    """``true``/``false``, a number, or the text itself (pydantic converts it further)."""
    low = raw.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(raw)
        except ValueError:
            pass
    return raw
