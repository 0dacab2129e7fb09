"""One bad-input case: a ``visx`` command line and what it must do."""

from __future__ import annotations

from dataclasses import dataclass

ALLOWANCE_S = 10.0
"""Wall time a case may take beyond its ``--timeout``: Python start-up, browser launch,
capture, analysis and export. Stated once, for every case."""

KINDS = ("crash", "timeout", "silent", "message", "size")
EXPECTS = ("error", "partial", "ok")


@dataclass(frozen=True)
class Case:
    """``argv`` may hold ``{url}`` (the corpus server's base URL), ``{corpus}`` (the corpus
    folder) and ``{tmp}`` (a fresh folder for this case)."""

    name: str  # unique kebab-case
    kind: str  # 'crash' | 'timeout' | 'silent' | 'message' | 'size'
    argv: list[str]  # args after `visx`
    expect: str  # 'error' | 'partial' | 'ok'
    message: str = ""  # regex, case-insensitive: stderr ('error', 'ok') or partial_reason ('partial')
    timeout_s: float = 10.0  # the --timeout the case passes; wall must be <= timeout_s + ALLOWANCE_S
    stdin: bytes | None = None
    output: str | None = None  # JSON output (with {tmp}) inspected for 'partial'
    max_rss_mb: int = 1500  # peak RSS of the visx process

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"{self.name}: kind {self.kind!r} is not one of {KINDS}")
        if self.expect not in EXPECTS:
            raise ValueError(f"{self.name}: expect {self.expect!r} is not one of {EXPECTS}")
        if self.expect == "partial" and not self.output:
            raise ValueError(f"{self.name}: a 'partial' case needs the output to inspect")
