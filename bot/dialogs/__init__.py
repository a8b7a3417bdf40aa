"""Flowcharts as data and the engine that walks them (no storage, no front end in here)."""

from bot.dialogs.engine import Engine, StaleAnswer, Step, Walk
from bot.dialogs.loader import ChartError, load_charts, parse_chart, read_charts
from bot.dialogs.model import Chart
from bot.dialogs.service import Choice, DialogError, Dialogs, NotFound, Screen, SessionInfo, Stale

__all__ = [
    "Chart",
    "ChartError",
    "Choice",
    "DialogError",
    "Dialogs",
    "Engine",
    "NotFound",
    "Screen",
    "SessionInfo",
    "Stale",
    "StaleAnswer",
    "Step",
    "Walk",
    "load_charts",
    "parse_chart",
    "read_charts",
]
