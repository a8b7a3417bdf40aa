"""Flowcharts as data and the engine that walks them (no storage, no front end in here)."""

from bot.dialogs.engine import Engine, StaleAnswer, Step, Walk
from bot.dialogs.loader import ChartError, load_charts, parse_chart, read_charts
from bot.dialogs.model import Chart
from bot.dialogs.service import (
    ChartChanged,
    Choice,
    DialogError,
    Dialogs,
    Moved,
    NotFound,
    Screen,
    Second,
    SessionInfo,
    Stale,
    question_key,
)

__all__ = [
    "Chart",
    "ChartChanged",
    "ChartError",
    "Choice",
    "DialogError",
    "Dialogs",
    "Engine",
    "Moved",
    "NotFound",
    "Screen",
    "Second",
    "SessionInfo",
    "Stale",
    "StaleAnswer",
    "Step",
    "Walk",
    "load_charts",
    "parse_chart",
    "question_key",
    "read_charts",
]
