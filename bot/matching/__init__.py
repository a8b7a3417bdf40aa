"""Table language → candidate laws and charts, explainably, with no language model.

The package's face: the names the rest of the bot uses. The matcher itself is in ``bot.matching.matcher``.
"""

from bot.matching.matcher import (
    HINT,
    Candidate,
    ChartEntry,
    Matcher,
    MatchResult,
    build_matcher,
    chart_entries,
)

__all__ = ["HINT", "Candidate", "ChartEntry", "MatchResult", "Matcher", "build_matcher", "chart_entries"]
