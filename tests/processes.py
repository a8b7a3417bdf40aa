"""The machine's processes as Linux's /proc shows them, for the tests and benchmarks that watch the bot's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

PROC = Path("/proc")


def stat_fields(pid: int | str) -> list[str] | None:
    """The fields of a process's stat after its name (state, parent, …), or None once it has gone."""
    try:
        return (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def processes() -> Iterator[tuple[int, list[str]]]:
    """Every process still there: its id and the fields of its stat after its name."""
    for folder in PROC.glob("[0-9]*"):
        fields = stat_fields(folder.name)
        if fields is not None:
            yield int(folder.name), fields
