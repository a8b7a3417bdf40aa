"""A ruling record, derived from its session's append-only log like the dialogue itself: its versions,
details, appeals, committee decisions and polls."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.dialogs import DialogError, Dialogs, Screen
from bot.dialogs.engine import Answered
from bot.dialogs.model import ScoreStep
from bot.rulings.settings import club_settings
from bot.scoring.service import ruling_usage
from bot.store import Club, Event, EventKind, Status

SEATS = ("N", "E", "S", "W")
SIDES = ("NS", "EW")
OUTCOMES = ("upheld", "changed", "adjusted")
DEPOSITS = ("returned", "forfeited", "none")
ANNOTATIONS = ("board", "offender", "non_offenders", "note", "event", "table")
ROLES = ("admin", "director", "committee", "panel")  # panel: players the club polls (Law 16B1)
APPEAL_REASON_LIMIT = 1000  # characters: the committee reads it in one message
NAME_LIMIT = 64
NOT_DESCRIBER = "Only the person who described this can pick its situation; they can hand the ruling over after."
FILING_ROLES = frozenset({"admin", "director"})


class RulingError(DialogError):
    """Not allowed or not possible; the message is fit for the user."""


class BadScore(RulingError):
    """What the director typed cannot be scored (a malformed contract, weights off 100 %): ask again."""


def score_usage(step: ScoreStep) -> str:
    """What to type to score a ruling that ends in ``step``."""
    return ruling_usage(step.kind, int(step.tricks))


@dataclass(frozen=True, slots=True)
class Version:
    """One outcome the ruling reached; a reopened ruling has several, the last one current."""

    at: float
    texts: tuple[str, ...]
    laws: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Appeal:
    at: float
    by: str
    reason: str
    name: str = ""  # the appellant's name as their front end knew it when they lodged it (Telegram: first/last)

    @property
    def who(self) -> str:
        """The appellant as people know them: their name, else their id."""
        return self.name or self.by


@dataclass(frozen=True, slots=True)
class Decision:
    at: float
    by: str
    outcome: str
    deposit: str
    text: str


@dataclass(frozen=True, slots=True)
class PollResult:
    """A poll of players taken at one of the ruling's questions (Law 16B1), as it closed."""

    opened: float
    closed: float
    question: str
    options: tuple[str, ...]
    counts: tuple[int, ...]
    said: str

    def counted(self) -> str:
        """ "Pass 6 · 3♠ 3 · 4♠ 0" """
        return " · ".join(f"{option} {count}" for option, count in zip(self.options, self.counts, strict=True))


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """The director's arithmetic on the ruling (the score after a trick transfer, a weighted adjusted score)."""

    at: float
    typed: str
    said: str


@dataclass(frozen=True, slots=True)
class RulingRecord:
    """Everything a club keeps of a ruling."""

    session_id: int
    chart_id: str
    chart_title: str
    chart_version: int
    director: str
    club: Club | None
    started: float
    status: str
    path: tuple[Answered, ...]
    versions: tuple[Version, ...]
    annotations: dict[str, str] = field(default_factory=dict)
    appeals: tuple[Appeal, ...] = ()
    decisions: tuple[Decision, ...] = ()
    appeal_minutes: int = 30
    description: str = ""  # what the director typed when the chart was started from a description
    polls: tuple[PollResult, ...] = ()
    scores: tuple[ScoreLine, ...] = ()
    score: ScoreStep | None = None  # the arithmetic the ruling ends in, if its chart names one

    @property
    def finished(self) -> bool:
        return self.status == Status.FINISHED

    @property
    def current(self) -> Version | None:
        return self.versions[-1] if self.versions else None

    @property
    def appeal_deadline(self) -> float | None:
        """The appeal period runs from the (latest) ruling; the club sets its length (Law 92B)."""
        return self.current.at + self.appeal_minutes * 60 if self.current else None


def build_record(
    dialogs: Dialogs,
    row_chart: str,
    events: list[Event],
    screen: Screen,
    club: Club | None,
    director: str,
    chart_version: int,
) -> RulingRecord:
    """Fold a session's events into its ruling record."""
    annotations: dict[str, str] = {}
    versions: list[Version] = []
    appeals: list[Appeal] = []
    decisions: list[Decision] = []
    polls: list[PollResult] = []
    scores: list[ScoreLine] = []
    for event in events:
        data = event.data
        match event.kind:
            case EventKind.ANNOTATE:
                annotations.update({k: str(v) for k, v in data.items() if k in ANNOTATIONS and v is not None})
            case "ruling":
                versions.append(Version(event.at, tuple(data.get("texts", ())), tuple(data.get("laws", ()))))
            case EventKind.APPEAL:
                appeals.append(Appeal(event.at, str(data["by"]), str(data["reason"]), str(data.get("name", ""))))
            case EventKind.DECISION:
                decisions.append(Decision(event.at, str(data["by"]), data["outcome"], data["deposit"], data["text"]))
            case EventKind.POLL:
                polls.append(
                    PollResult(
                        float(data["opened"]),
                        float(data["closed"]),
                        str(data["question"]),
                        tuple(map(str, data["options"])),
                        tuple(map(int, data["counts"])),
                        str(data["said"]),
                    )
                )
            case EventKind.SCORE:
                scores.append(ScoreLine(event.at, str(data["typed"]), str(data["said"])))
    chart = dialogs.charts.get(row_chart)
    return RulingRecord(
        session_id=screen.session_id,
        chart_id=row_chart,
        chart_title=chart.title if chart else row_chart,
        chart_version=chart_version,
        director=director,
        club=club,
        started=events[0].at if events else 0.0,
        status=screen.status,
        path=screen.path,
        versions=tuple(versions),
        annotations=annotations,
        appeals=tuple(appeals),
        decisions=tuple(decisions),
        appeal_minutes=int(club_settings(club)["appeal_minutes"]),
        description=str(events[0].data.get("description", "")) if events and events[0].kind == EventKind.START else "",
        polls=tuple(polls),
        scores=tuple(scores),
        score=screen.score,
    )
