"""The regulations a club follows: its regulating authority's (``knowledge/authorities.yaml``), each of which the
club may override; a director filed under no club follows the WBF's, and the screen says so.

The dialog service receives these as ``Setting`` values when a chart starts; it never reads a club."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from bot.dialogs import DialogError
from bot.dialogs.model import Chart, Question, Ruling
from bot.dialogs.regulations import AUTHORITIES_FILE, KINDS, Regulation, Setting, load_regulations
from bot.laws import LawBook
from bot.laws.book import read_yaml
from bot.laws.lint import Finding, LintReport
from bot.store import Club

DEFAULT_AUTHORITY = "WBF"
NO_CLUB = "WBF default (you direct for no club)"
OTHER_SETTINGS = ("language", "appeal_deposit", "poll_votes", "poll_minutes", "poll_share")  # named by no chart
NUMBERS = {"poll_votes": (2, 100), "poll_minutes": (1, 10), "poll_share": (1, 100)}
LANGUAGES = ("en", "th")
TEXT_LIMIT = 200
MINUTES = 5  # the fewest minutes a period may last
# Club settings stored under an earlier name: read as the regulation they became.
RENAMED = {"face_down_opening_leads": "opening_lead_face"}


class SettingError(DialogError):
    """A value a setting cannot take; the message is one line fit for the user."""


@cache
def authorities() -> dict[str, dict[str, Any]]:
    """Regulating-authority defaults from ``knowledge/authorities.yaml``."""
    return read_yaml(AUTHORITIES_FILE)["authorities"]


@cache
def club_defaults() -> dict[str, Any]:
    """What a club starts with besides its authority's rules (its polls' limits)."""
    return read_yaml(AUTHORITIES_FILE)["club_defaults"]


def settable() -> tuple[str, ...]:
    """Every setting an administrator may change: the regulations, then the rest."""
    return (*load_regulations(), *OTHER_SETTINGS)


def check_setting(key: str, value: str) -> str | int:
    """The value to store for ``key``, or SettingError saying in one line what is allowed."""
    regulation = load_regulations().get(key)
    text = " ".join(value.split())
    if regulation is not None:
        return _check_regulation(regulation, text)
    if key == "language":
        if text.lower() not in LANGUAGES:
            raise SettingError(f"The language is {' or '.join(LANGUAGES)}.")
        return text.lower()
    if key in NUMBERS:
        low, high = NUMBERS[key]
        if not (text.isascii() and text.isdigit() and low <= int(text) <= high):
            raise SettingError(f"{key} is a whole number from {low} to {high}.")
        return int(text)
    if key in OTHER_SETTINGS:
        return _check_text(key, text)
    raise SettingError(f"A club setting is one of {', '.join(settable())}.")


def _check_regulation(regulation: Regulation, text: str) -> str | int:
    match regulation.kind:
        case "choice":
            if text.lower() not in regulation.values:
                allowed = "; ".join(f"{v} ({words})" for v, words in regulation.values.items())
                raise SettingError(f"{regulation.name} is one of: {allowed}.")
            return text.lower()
        case "minutes":
            low, high = MINUTES, regulation.most
            if not (text.isascii() and text.isdigit() and low <= int(text) <= high):
                raise SettingError(f"{regulation.name} is a number of minutes from {low} to {high}.")
            return int(text)
    return _check_text(regulation.name, text)


def _check_text(key: str, text: str) -> str:
    if not text or len(text) > TEXT_LIMIT:
        raise SettingError(f"{key} is a few words (at most {TEXT_LIMIT} characters).")
    return text


def _club_value(club: Club, name: str) -> str | None:
    """The club's own value for a regulation, if it set a valid one (a value no longer allowed is ignored)."""
    stored = club.settings.get(name)
    if stored is None:
        old = next((key for key, new in RENAMED.items() if new == name and key in club.settings), None)
        stored = ("down" if club.settings[old] else "up") if old else None
    if stored is None:
        return None
    try:
        return str(check_setting(name, str(stored)))
    except SettingError:
        return None


def regulation_settings(club: Club | None) -> dict[str, Setting]:
    """The value of every regulation for a ruling filed under ``club`` (or under none), with the line a screen
    shows for it and its source. Under no club they come from the knowledge alone, which never changes while
    the bot runs, so they are worked out once (every chart a director of no club starts asks for them)."""
    return dict(_unfiled()) if club is None else _settings(club)  # a copy of the kept ones; a club's are new


@cache
def _unfiled() -> dict[str, Setting]:
    return _settings(None)


def _settings(club: Club | None) -> dict[str, Setting]:
    table = authorities()
    authority = club.authority if club and club.authority in table else DEFAULT_AUTHORITY
    label = club.authority if club else NO_CLUB
    defaults = table[authority]["regulations"]
    settings: dict[str, Setting] = {}
    for name, regulation in load_regulations().items():
        own = _club_value(club, name) if club else None
        if own is not None and club is not None:
            shown, source = f"{club.name}: {regulation.words(own)}", f"set by club {club.id}"
            settings[name] = Setting(name, own, shown, source, regulation.stated)
            continue
        value = str(defaults[name]["value"])
        shown, source = f"{label}: {regulation.words(value)}", str(defaults[name]["source"])
        settings[name] = Setting(name, value, shown, source, regulation.stated)
    return settings


def club_settings(club: Club | None) -> dict[str, Any]:
    """A club's settings as plain values: its authority's defaults, overridden by what the club set."""
    table = authorities()
    base = table.get(club.authority if club else DEFAULT_AUTHORITY, table["other"])
    flat = dict(club_defaults())
    flat.update({key: value for key, value in base.items() if key != "regulations"})
    flat.update({name: entry["value"] for name, entry in base["regulations"].items()})
    return {**flat, **(club.settings if club else {})}


def lint_authorities(
    charts: Mapping[str, Chart],
    book: LawBook,
    table: Mapping[str, Mapping[str, Any]] | None = None,
    regulations: Mapping[str, Regulation] | None = None,
) -> LintReport:
    """knowledge/authorities.yaml: each regulation cites existing laws, has a known kind, is named by a chart
    question and changes what a director is told on some path (a question it answers, a ruling's ``when``
    paragraph keyed on it, or ``stated`` with the rulings after its question); each authority gives every
    regulation a value a club could set, and its source."""
    table = authorities() if table is None else table
    regulations = load_regulations() if regulations is None else regulations
    where = str(AUTHORITIES_FILE.relative_to(AUTHORITIES_FILE.parents[1]))
    problems: list[Finding] = []
    named = {n.setting for c in charts.values() for n in c.nodes.values() if isinstance(n, Question) and n.setting}
    affecting = _affecting(charts)
    for name, regulation in regulations.items():
        if regulation.kind not in KINDS or (regulation.kind == "choice") != bool(regulation.values):
            problems.append(Finding(where, f"regulation {name!r}: a kind of {', '.join(KINDS)}; values for a choice"))
        problems += [
            Finding(where, f"regulation {name!r} cites {ref}, not a law")
            for ref in regulation.laws
            if not book.exists(ref)
        ]
        if name not in named:
            problems.append(Finding(where, f"regulation {name!r} is named by no chart question"))
        elif name not in affecting and not regulation.stated:
            problems.append(
                Finding(where, f"regulation {name!r} changes no ruling: no question answers by it, no 'when' names it")
            )
    for authority, entry in table.items():
        given = entry.get("regulations") or {}
        for name in regulations:
            value = given.get(name) or {}
            if not str(value.get("source", "")).strip():
                problems.append(Finding(where, f"{authority}: {name} needs a value and its source"))
                continue
            try:
                check_setting(name, str(value.get("value", "")))
            except SettingError as exc:
                problems.append(Finding(where, f"{authority}: {name}: {exc}"))
        problems += [Finding(where, f"{authority}: {n!r} is not a regulation") for n in given if n not in regulations]
    return LintReport(problems, [])


def _affecting(charts: Mapping[str, Chart]) -> set[str]:
    """The regulations that answer a chart question or that a ruling's ``when`` paragraph is keyed on."""
    found: set[str] = set()
    for chart in charts.values():
        for node in chart.nodes.values():
            if isinstance(node, Question) and node.setting and node.setting_answers:
                found.add(node.setting)
            elif isinstance(node, Ruling):
                found.update(name for name in node.when if name not in chart.variables)
    return found


def rules_lines(settings: dict[str, Setting]) -> list[str]:
    """One line per regulation for a phone or a terminal: its name (what ``set`` takes), what it says, its source."""
    return [f"{name} — {setting.shown} ({setting.source})" for name, setting in settings.items()]
