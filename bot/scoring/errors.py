"""The one error the scoring module raises: its message is one line a director can act on."""

from __future__ import annotations


class ScoringError(ValueError):
    """Input that cannot be scored (a malformed contract, an impossible result, weights off 100 %, …)."""
