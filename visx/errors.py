"""The one exception hierarchy of visx.

Every message names the input it is about and what to do next::

    VisxError
     +-- ConfigError                 bad configuration value or option
     +-- BrowserNotFoundError        no Chromium could be found
     +-- RenderError                 a page could not be rendered
     |    +-- SourceNotFoundError    local file missing or unreadable
     |    +-- UnreachableError       connection refused / reset / no route
     |    |    +-- DnsError          host name does not resolve
     |    +-- HttpStatusError        HTTP 4xx / 5xx (see ``allow_http_errors``)
     |    +-- NonHtmlContentError    PDF, image, JSON ... instead of HTML
     |    |    +-- EmptyContentError an empty (or all-whitespace) file, response or stdin
     |    +-- RedirectError          a redirect loop, a page that keeps navigating, a redirect off the web
     |    +-- RenderTimeoutError     page did not load in time (see ``partial_on_timeout``)
     |    |    +-- NoResponseError   the server sent nothing in time (the one timeout worth retrying)
     |    +-- PageCrashedError       the renderer process crashed
     +-- SnapshotError               corrupt, foreign or unreadable snapshot file
     +-- ExtractionError             a pipeline stage could not work on its input
     |    +-- SelectionError         the list asked for (region, hint, example) is not on the page
     +-- ExportError                 an output could not be written
     +-- LinkError                   link paths: the table or its key column cannot be used
     +-- TemplateError               a template is unreadable, fits no page, or cannot be repaired
          +-- TemplateMismatchError  no template matches the page (site, URL similarity)
          +-- RepairError            a column or the record list could not be found again
"""

from __future__ import annotations


class VisxError(Exception):
    """Base class of every error visx raises on purpose."""

    def __init__(self, message: str, *, source: str | None = None) -> None:
        super().__init__(message)
        self.source = source


class ConfigError(VisxError):
    """A configuration value or command-line option is invalid."""


class BrowserNotFoundError(VisxError):
    """No Chromium binary could be found; the message says how to install one."""


class RenderError(VisxError):
    """A page could not be rendered."""


class SourceNotFoundError(RenderError):
    """A local file does not exist or cannot be read."""


class UnreachableError(RenderError):
    """The host refused, reset or never answered the connection."""


class DnsError(UnreachableError):
    """The host name does not resolve."""


class HttpStatusError(RenderError):
    """The server answered with an HTTP error status."""

    def __init__(self, message: str, *, source: str | None = None, status: int = 0) -> None:
        super().__init__(message, source=source)
        self.status = status


class NonHtmlContentError(RenderError):
    """The source is not an HTML page (PDF, image, JSON, ...)."""

    def __init__(self, message: str, *, source: str | None = None, content_type: str = "") -> None:
        super().__init__(message, source=source)
        self.content_type = content_type


class EmptyContentError(NonHtmlContentError):
    """The file, response or standard input holds nothing (or only whitespace)."""


class RedirectError(RenderError):
    """The page never stays: a redirect loop, a meta-refresh or script loop, or a
    redirect to a scheme visx does not render (``ftp:``, ``file:``). Retrying does not help."""


class RenderTimeoutError(RenderError):
    """The page did not finish loading within the timeout."""


class NoResponseError(RenderTimeoutError):
    """No part of the page arrived within the timeout: the server is down or overloaded, so
    another attempt may succeed (a page that arrived but never settled would time out again)."""


class PageCrashedError(RenderError):
    """The browser's renderer process crashed on the page."""


class SnapshotError(VisxError):
    """A snapshot file is corrupt, foreign or unreadable."""


class ExtractionError(VisxError):
    """A pipeline stage could not work on its input."""


class SelectionError(ExtractionError):
    """The list the user chose (``region``, ``hint`` or ``example``) is not on the page;
    the message lists the regions that were found."""


class ExportError(VisxError):
    """An output file could not be written."""


class TemplateError(VisxError):
    """A template file is unreadable or invalid, or applying it failed."""


class TemplateMismatchError(TemplateError):
    """No template fits the page: another site, or URLs too far apart (see ``--min-similarity``)."""


class RepairError(TemplateError):
    """A template's record list or a column could not be found again on a changed page."""

    def __init__(self, message: str, *, source: str | None = None, column: str | None = None) -> None:
        super().__init__(message, source=source)
        self.column = column


class LinkError(VisxError):
    """``visx link``: the table cannot be read, or it has no such key column; the message names
    the file or column and what to give instead."""
