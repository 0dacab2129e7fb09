"""The one source of visx's version: pyproject reads it, and every JSON output carries it."""

__version__ = "0.1.0"
