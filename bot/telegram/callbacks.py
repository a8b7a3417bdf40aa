"""Every kind of button data the bot sends, in one place: its prefix, its fields, how it is written and read.

Telegram hands a button's data (at most 64 bytes) back verbatim when it is pressed, but anyone can send a
press with any data, so reading it back is strict: an unknown prefix, the wrong number of fields, a number
that is not a plain non-negative number of at most 18 digits (SQLite's integers hold them), an empty text
or a value the kind does not allow all decode to None, never to an exception. Texts may not contain a
colon, except the last field, which takes the rest of the data (a topic token such as ``c:revoke``).

A press on a question names the session, the step it was shown at and the question itself (a short key
of its chart and node, see ``bot.dialogs.question_key``), so a button on an older message can neither
answer a different question that now stands at the same step nor act on where the session stands now.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import ClassVar, TypeVar, get_type_hints

from bot.answers import Act, Offer

LIMIT = 64  # bytes: Telegram refuses longer button data
_NUMBER = re.compile(r"[0-9]{1,18}")


class ButtonDataError(ValueError):
    """Button data that cannot be sent (too long, a colon inside a field): a bug in the keyboard, not input."""


class Press:
    """One kind of button data: ``prefix`` names it; the dataclass fields follow, separated by colons."""

    __slots__ = ()
    prefix: ClassVar[str]
    layout: ClassVar[tuple[tuple[str, type], ...]]  # (name, type) of each field, in order

    def encode(self) -> str:
        values = [getattr(self, name) for name, _type in self.layout]
        for position, value in enumerate(values):
            if isinstance(value, int) and not 0 <= value < 10**18:
                raise ButtonDataError(f"{self.prefix}: {value} is out of range")
            if isinstance(value, str) and (not value or (":" in value and position < len(values) - 1)):
                raise ButtonDataError(f"{self.prefix}: {value!r} cannot be a field")
        data = ":".join([self.prefix, *map(str, values)])
        if len(data.encode()) > LIMIT:
            raise ButtonDataError(f"{data!r} is longer than {LIMIT} bytes")
        return data

    def check(self) -> bool:
        """Whether the values are ones this kind allows (a kind with a closed set of values narrows it)."""
        return True


KINDS: dict[str, type[Press]] = {}
P = TypeVar("P", bound=Press)


def kind(prefix: str) -> Callable[[type[P]], type[P]]:
    """Register a dataclass as the kind of button data written with ``prefix``."""

    def register(cls: type[P]) -> type[P]:
        if prefix in KINDS or ":" in prefix:
            raise ButtonDataError(f"the prefix {prefix!r} is taken or malformed")
        hints = get_type_hints(cls)
        cls.prefix = prefix
        cls.layout = tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))  # type: ignore[arg-type]
        KINDS[prefix] = cls
        return cls

    return register


def decode(data: str | None) -> Press | None:
    """The press that ``data`` describes, or None when it is not data this bot could have sent."""
    try:
        if not data or len(data.encode()) > LIMIT:
            return None
    except UnicodeEncodeError:  # a lone surrogate: not text Telegram could have sent
        return None
    prefix, colon, rest = data.partition(":")
    cls = KINDS.get(prefix)
    if cls is None:
        return None
    fields = cls.layout
    if not fields:
        return cls() if not colon else None
    parts = rest.split(":", len(fields) - 1) if colon else []
    if len(parts) != len(fields):
        return None
    values: list[int | str] = []
    for (_name, field_type), text in zip(fields, parts, strict=True):
        if field_type is int:
            if not _NUMBER.fullmatch(text):
                return None
            values.append(int(text))
        elif text:
            values.append(text)
        else:
            return None
    press = cls(*values)
    return press if press.check() else None


# --- a ruling being answered ----------------------------------------------------------------------


@kind("a")
@dataclasses.dataclass(frozen=True, slots=True)
class Answer(Press):
    """Answer ``question``, shown at ``step`` of ``session``, with the option at position ``option``."""

    session: int
    step: int
    question: str
    option: int


@kind("b")
@dataclasses.dataclass(frozen=True, slots=True)
class Back(Press):
    session: int
    step: int
    question: str


@kind("r")
@dataclasses.dataclass(frozen=True, slots=True)
class Restart(Press):
    session: int
    step: int
    question: str


@kind("h")
@dataclasses.dataclass(frozen=True, slots=True)
class ChangeMenu(Press):
    """Show the earlier answers, to pick one to change."""

    session: int
    step: int
    question: str


@kind("c")
@dataclasses.dataclass(frozen=True, slots=True)
class ChangeWhich(Press):
    """Show the question of answer ``number`` (1-based) again, to answer it differently."""

    session: int
    number: int


@kind("x")
@dataclasses.dataclass(frozen=True, slots=True)
class Change(Press):
    """Answer ``number`` becomes ``option`` of ``question`` (the question it answered), seen at ``step``."""

    session: int
    step: int
    number: int
    question: str
    option: int


@kind("k")
@dataclasses.dataclass(frozen=True, slots=True)
class Keep(Press):
    """Leave the earlier answers as they are and show the current question again."""

    session: int
    step: int
    question: str


@kind("m")
@dataclasses.dataclass(frozen=True, slots=True)
class LawText(Press):
    """The full text of the laws the current question quotes."""

    session: int
    step: int
    question: str


@kind("u")
@dataclasses.dataclass(frozen=True, slots=True)
class Resume(Press):
    session: int


# --- finding a chart or a law ---------------------------------------------------------------------


@kind("s")
@dataclasses.dataclass(frozen=True, slots=True)
class StartChart(Press):
    chart: str


@kind("st")
@dataclasses.dataclass(frozen=True, slots=True)
class SecondThing(Press):
    """Start the other incident the story of ruling ``session`` told (offered under that ruling)."""

    session: int


@kind("l")
@dataclasses.dataclass(frozen=True, slots=True)
class ShowLaw(Press):
    """A law's text. Offers now travel as FollowOffer; this kind stays so the buttons of messages sent before
    that still work after the update (the README promises old buttons keep working)."""

    ref: str


@kind("n")
@dataclasses.dataclass(frozen=True, slots=True)
class NoneOfThese(Press):
    """None of the situations offered fits: a hint on how to describe it. Kept, like ShowLaw, for the buttons of
    messages sent before offers became FollowOffer."""


# --- what the shared step offered under a reply ---------------------------------------------------

_ACT_LETTERS = {Act.CHART: "c", Act.LAW: "l", Act.TOPIC: "t", Act.RELATED: "r", Act.TRIAGE: "q", Act.NONE: "n"}
_LETTER_ACTS = {letter: act for act, letter in _ACT_LETTERS.items()}
_NO_KEY = "-"  # "None of these" leads to the triage's first question and needs no key; a field is never empty
_THEN = "+"  # between a chart and the story's other incident's chart (chart ids are [a-z0-9-])


@kind("o")
@dataclasses.dataclass(frozen=True, slots=True)
class FollowOffer(Press):
    """Follow an offer of a reply (``bot.answers.Offer``): what it leads to, never its position, so the
    button still works after a restart (``o:c:revoke`` starts the revoke chart, ``o:q:play.revoke`` is a
    triage branch, ``o:t:c:revoke`` a summary; ``o:c:claim+insufficient-bid`` starts the claim chart of a story
    that told an insufficient bid too, offered after the claim's ruling)."""

    act: str
    key: str

    @classmethod
    def of(cls, offer: Offer) -> FollowOffer:
        then = _THEN + offer.then if offer.then else ""
        return cls(_ACT_LETTERS[offer.act], (offer.key or _NO_KEY) + then)

    def check(self) -> bool:
        if self.act != "c":
            return self.act in _LETTER_ACTS
        chart, plus, then = self.key.partition(_THEN)
        return not plus or (bool(chart) and bool(then) and _THEN not in then)

    def read(self) -> tuple[Act, str, str]:
        """The offer's act, key and the chart of the story's other incident ("" for none)."""
        key, _plus, then = self.key.partition(_THEN) if self.act == "c" else (self.key, "", "")
        return _LETTER_ACTS[self.act], "" if key == _NO_KEY else key, then


# --- answers for players --------------------------------------------------------------------------


@kind("g")
@dataclasses.dataclass(frozen=True, slots=True)
class Mode(Press):
    """Choose how typed text is answered (see bot.answers.MODES)."""

    mode: str


# --- a finished ruling ----------------------------------------------------------------------------

DETAILS = ("board", "offender", "non_offenders")


@kind("rb")
@dataclasses.dataclass(frozen=True, slots=True)
class BoardMenu(Press):
    session: int


@kind("rd")
@dataclasses.dataclass(frozen=True, slots=True)
class Detail(Press):
    """Record one detail of a ruling: its board, the offender's seat or the non-offending side."""

    session: int
    name: str
    value: str

    def check(self) -> bool:
        return self.name in DETAILS


@kind("rn")
@dataclasses.dataclass(frozen=True, slots=True)
class AskNote(Press):
    session: int


@kind("re")
@dataclasses.dataclass(frozen=True, slots=True)
class AskEvent(Press):
    session: int


@kind("rk")
@dataclasses.dataclass(frozen=True, slots=True)
class AskScore(Press):
    """Work out a finished ruling's score (the contract and result are asked for)."""

    session: int


@kind("rs")
@dataclasses.dataclass(frozen=True, slots=True)
class Share(Press):
    session: int


@kind("rr")
@dataclasses.dataclass(frozen=True, slots=True)
class StopSharing(Press):
    session: int


@kind("rp")
@dataclasses.dataclass(frozen=True, slots=True)
class Picture(Press):
    session: int


@kind("ro")
@dataclasses.dataclass(frozen=True, slots=True)
class ReopenRuling(Press):
    session: int


@kind("ra")
@dataclasses.dataclass(frozen=True, slots=True)
class Appeal(Press):
    session: int


@kind("rt")
@dataclasses.dataclass(frozen=True, slots=True)
class AppealShared(Press):
    """An appeal from a share link: the token names the ruling (the player does not own it)."""

    token: str


@kind("rc")
@dataclasses.dataclass(frozen=True, slots=True)
class ClubMenu(Press):
    """Which club a ruling is filed under, with a button for each other club it could move to."""

    session: int


@kind("rf")
@dataclasses.dataclass(frozen=True, slots=True)
class FileUnder(Press):
    """File the ruling under ``club`` (0: under no club)."""

    session: int
    club: int


@kind("ci")
@dataclasses.dataclass(frozen=True, slots=True)
class ClubInvitation(Press):
    """Accept (``y``) or decline (``n``) a club's invitation to a role."""

    club: int
    answer: str

    def check(self) -> bool:
        return self.answer in ("y", "n")


@kind("cr")
@dataclasses.dataclass(frozen=True, slots=True)
class ClubRule(Press):
    """The values a club may choose for one of its regulations (``knowledge/authorities.yaml``)."""

    club: int
    rule: str


@kind("cs")
@dataclasses.dataclass(frozen=True, slots=True)
class ClubRuleSet(Press):
    """Set the club's ``rule`` to ``value`` (its administrators only; the service checks the value)."""

    club: int
    rule: str
    value: str


@kind("fg")
@dataclasses.dataclass(frozen=True, slots=True)
class Forget(Press):
    """The confirmation of /forget."""

    confirm: str = "yes"

    def check(self) -> bool:
        return self.confirm == "yes"


# --- polls of players (Law 16B1) ------------------------------------------------------------------


@kind("pp")
@dataclasses.dataclass(frozen=True, slots=True)
class PollPlayers(Press):
    """Poll players about ``question``, shown at ``step`` of ``session`` (a logical-alternative question)."""

    session: int
    step: int
    question: str


@kind("pc")
@dataclasses.dataclass(frozen=True, slots=True)
class PollClose(Press):
    """Close ``poll`` now (its ruling's director only)."""

    poll: int


@kind("pr")
@dataclasses.dataclass(frozen=True, slots=True)
class PollRead(Press):
    """The counts of ``poll`` so far (its ruling's director only)."""

    poll: int


PREFIXES = tuple(KINDS)
