"""Replace a file atomically: write a temporary file beside it, rename it into place on success.

Readers never see a half-written output, and a failed write leaves the old file
(or none) and no temporary file behind. Every writer in visx (snapshots,
exports, reports, screenshots) goes through :func:`replacing`.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A fresh, empty temporary path in ``path``'s folder that replaces ``path`` when the block succeeds.

    Raises ``OSError`` when the folder is missing or not writable; callers that
    talk to users turn it into their own error.
    """
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; outputs are ordinary files
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def probe(folder: Path) -> None:
    """Raise ``OSError`` unless a file can be created in ``folder`` (or, when it does not
    exist yet, in its nearest existing ancestor, where it would be made).

    Permission bits do not tell: root passes ``os.access`` on a read-only mount or on
    ``/proc``, and the write would fail only after all the work was done.
    """
    where = Path(folder)
    while not where.exists() and where != where.parent:
        where = where.parent
    fd, name = tempfile.mkstemp(prefix=".visx-probe.", suffix=".tmp", dir=where)
    os.close(fd)
    os.unlink(name)


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, creating its folder first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path) as tmp:
        tmp.write_bytes(data)
