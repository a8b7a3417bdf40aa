"""Regulations a chart question may name: the settings of a regulating authority (or a club) that answer it.

A question that names a setting (``setting:`` in a chart, ``dialogs/FORMAT.md``) is answered from the settings
a session was started with when the setting's value maps to one of its options (``setting_answers``), and the
answer is recorded as taken from the settings with the words that say so ("ACBL: opening leads face down");
otherwise the question is asked with those words shown above it. The definitions are data in
``knowledge/authorities.yaml``; which authority or club a session follows is decided outside the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from bot.dialogs.model import Question
from bot.laws.book import KNOWLEDGE_DIR, read_yaml

SOURCE = "setting"  # an answer's ``source`` when it was taken from the settings
ANY = "any"  # a ruling's ``when`` paragraph under a regulation read whatever its value
KINDS = ("choice", "text", "minutes")
AUTHORITIES_FILE = KNOWLEDGE_DIR / "authorities.yaml"


@dataclass(frozen=True, slots=True)
class Regulation:
    """One regulation a club follows: the laws that leave it to the authority, and the values it may take."""

    name: str
    laws: tuple[str, ...]
    kind: str
    says: str  # how a value reads on a screen; "{}" stands for the value's words
    values: dict[str, str] = field(default_factory=dict)  # a choice's values and their words
    most: int = 7 * 24 * 60  # the largest number of minutes a ``minutes`` regulation takes
    stated: bool = False  # read with the rulings after a question naming it (where no ``when`` paragraph does)

    def words(self, value: str) -> str:
        return self.says.replace("{}", self.values.get(value, value))


@dataclass(frozen=True, slots=True)
class Setting:
    """A regulation's value for one session: ``shown`` is the line a director reads ("ACBL: opening leads face
    down"), ``source`` where the value comes from (a regulation's name or address); ``stated`` as its
    regulation says."""

    name: str
    value: str
    shown: str
    source: str
    stated: bool = False

    def as_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"value": self.value, "shown": self.shown, "source": self.source}
        return {**data, "stated": True} if self.stated else data

    @classmethod
    def from_data(cls, name: str, data: Mapping[str, Any]) -> Setting:
        shown, source = str(data.get("shown", "")), str(data.get("source", ""))
        return cls(name, str(data["value"]), shown, source, bool(data.get("stated", False)))


def read_regulations(path: Path = AUTHORITIES_FILE) -> dict[str, Regulation]:
    return {
        name: Regulation(
            name,
            tuple(str(ref) for ref in entry["laws"]),
            str(entry["kind"]),
            str(entry["says"]),
            {str(k): str(v) for k, v in (entry.get("values") or {}).items()},
            int(entry.get("most", 7 * 24 * 60)),
            bool(entry.get("stated", False)),
        )
        for name, entry in read_yaml(path)["regulations"].items()
    }


@cache
def load_regulations() -> dict[str, Regulation]:
    return read_regulations()


def settings_from(data: Mapping[str, Any] | None) -> dict[str, Setting]:
    """The settings stored with a session (in its start event)."""
    return {name: Setting.from_data(name, entry) for name, entry in (data or {}).items()}


def setting_for(question: Question, settings: Mapping[str, Setting]) -> Setting | None:
    """The setting a question names, if the session has it."""
    return settings.get(question.setting) if question.setting else None


def answer_from_setting(question: Question, settings: Mapping[str, Setting]) -> tuple[str, Setting] | None:
    """The option the session's settings give at ``question`` (and the setting), or None to ask it."""
    setting = setting_for(question, settings)
    if setting is None:
        return None
    option = question.setting_answers.get(setting.value)
    return (option, setting) if option in {o.id for o in question.options} else None
