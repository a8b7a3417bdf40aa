"""Dialogs: the one place where a director's action becomes a stored event and a screen to show.

Front ends (terminal, Telegram, tests) call these methods and render the ``Screen`` they get back.
Each action reads the session's log, replays it through the engine, checks the action against where
the session stands, and appends the new event; the position is derived, never trusted from the caller.
"""

from __future__ import annotations

import base64
import hashlib
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from bot.dialogs.engine import Answered, ChartMismatch, Engine, Reached, StaleAnswer, Step, Walk
from bot.dialogs.facts import SOURCE, answer_from, read_description
from bot.dialogs.model import CONTINUE, Chart, Jump, Node, Park, Question, Ruling, ScoreStep, choices, prompt
from bot.dialogs.regulations import SOURCE as SETTING
from bot.dialogs.regulations import Setting, answer_from_setting, setting_for, settings_from
from bot.dialogs.render import outcome_texts, ruling_notes
from bot.store import Conflict, Event, EventKind, Position, SessionRow, Status, Store


class DialogError(Exception):
    """An action that cannot be done; the message is fit for the user."""


class NotFound(DialogError):
    """No such session for this user (unknown, or someone else's: the same answer for both)."""


class Stale(DialogError):
    """The action was for an earlier position; ``screen`` is where the session stands now."""

    def __init__(self, message: str, screen: Screen) -> None:
        super().__init__(message)
        self.screen = screen


class ChartChanged(DialogError):
    """The session's chart has changed, or is gone, since its log was written: the log no longer replays."""


class Moved(Stale):
    """The press named another question than the one now at its step (a button on an older message)."""


@lru_cache(maxsize=4096)
def question_key(chart_id: str, node_id: str) -> str:
    """A short name for one question of one chart (8 characters, the same across restarts and machines),
    small enough for a button to carry: node ids alone repeat across charts and can be long."""
    digest = hashlib.blake2b(f"{chart_id}/{node_id}".encode(), digest_size=6).digest()
    return base64.urlsafe_b64encode(digest).decode()


@dataclass(frozen=True, slots=True)
class Choice:
    id: str
    label: str


@dataclass(frozen=True, slots=True)
class Second:
    """The other incident of a story that told two: its chart, and the line that offers it once the first
    ruling is given (kept with the first session, so the offer outlives a restart of the bot)."""

    chart: str
    label: str


@dataclass(frozen=True, slots=True)
class Screen:
    """What a front end shows: the node the session stands at, or its final ruling."""

    session_id: int
    chart_id: str
    chart_title: str
    status: str  # open, parked or finished
    step: int  # answers given so far; a press must name it, so an old button is recognised
    kind: str  # question, park, repeat or ruling
    node_id: str
    question: str  # question_key of the node shown ("" once finished): a press must name it too
    text: str
    laws: tuple[str, ...]
    options: tuple[Choice, ...]
    help: str | None
    path: tuple[Answered, ...]
    rulings: tuple[Reached, ...]
    notes: tuple[str, ...] = ()  # what the notes passed since the last answer say: shown above the question
    # or the ruling, in place of a screen with only Continue on it
    regulation: str = ""  # the club's or authority's rule this question names, when it does not answer it
    poll: str = ""  # players may be polled at this question (Law 16B1): how the poll's question ends
    polled: tuple[str, ...] = ()  # the results of the polls taken at this question ("6 of 9 would …")
    where: str = ""  # "chart/node" of the node shown (a chart jumped into, too); "" once finished
    aloud: tuple[str, ...] = ()  # once finished: the notes and rulings read aloud, in the order they happened
    score: ScoreStep | None = None  # once finished: the arithmetic the director may ask for (the last ruling's)
    aside: tuple[str, ...] = ()  # once finished: the director's own steps passed just before the ruling, shown to
    # the director with it but not read aloud ("consider whether the card is then a lead out of turn")
    # A park's next question, when resuming leads to one: its options are the park's own (with its question key),
    # so the director called back answers it from the park's message, without a Resume in between.
    after: Screen | None = None
    kept: tuple[int, ...] = ()  # just after a change: the numbers of the later answers it kept, shown so that no
    # ruling rests unseen on an answer given in another answer's context
    second: Second | None = None  # once finished: the story's other incident, offered until it is started

    @property
    def kept_answers(self) -> tuple[tuple[int, Answered], ...]:
        """The answers a change just kept, with their numbers (``change N`` answers one again)."""
        return tuple((number, self.path[number - 1]) for number in self.kept if number <= len(self.path))

    @property
    def finished(self) -> bool:
        return self.status == Status.FINISHED

    @property
    def read_aloud(self) -> tuple[tuple[str, str], ...]:
        """Each line read aloud at the end with its mark, for every front end alike: • a ruling, » a note
        passed on the way."""
        ruled = {r.text for r in self.rulings}
        return tuple(("•" if text in ruled else "»", text) for text in self.aloud)

    @property
    def prefilled(self) -> tuple[Answered, ...]:
        """The answers just taken from the description or the settings: those after the director's own last."""
        kept: list[Answered] = []
        for answered in reversed(self.path):
            if answered.source not in (SOURCE, SETTING):
                break
            kept.append(answered)
        return tuple(reversed(kept))

    @property
    def from_description(self) -> tuple[Answered, ...]:
        """The answers just taken from the description."""
        return tuple(a for a in self.prefilled if a.source == SOURCE)

    @property
    def from_settings(self) -> tuple[Answered, ...]:
        """The answers just taken from the club's or authority's regulations."""
        return tuple(a for a in self.prefilled if a.source == SETTING)

    @property
    def reference(self) -> str:
        """The screen's laws as one line ("Law 54A", "Laws 54A, 53"): the quoted text is one tap away,
        never on the screen, so a question fits a phone; every front end shows this same line."""
        if not self.laws:
            return ""
        return ("Law " if len(self.laws) == 1 else "Laws ") + ", ".join(self.laws)


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: int
    chart_id: str
    chart_title: str
    status: str
    step: int
    updated: float


_KIND_NAMES = {Question: "question", Park: "park", Ruling: "ruling"}


def _step_of(data: Mapping[str, Any]) -> Step:
    """An answer as the log (or a ruling marker) stores it."""
    return Step(
        str(data["chart"]),
        str(data["node"]),
        str(data["option"]),
        str(data.get("source", "")),
        str(data.get("said", "")),
        str(data.get("basis", "")),
    )


def _changed_in_place(steps: list[Step], index: int, option: str) -> list[Step]:
    """A change read without a chart: the answer replaced, the later ones kept (the engine would drop those
    that no longer fit; an old record is shown as near as it can be)."""
    return [replace(step, option=option) if n == index else step for n, step in enumerate(steps)]


def _steps_from(events: list[Event], change: Callable[[list[Step], int, str], list[Step]]) -> list[Step]:
    """Replay a log into the answers that stand now; ``change`` carries out a changed answer."""
    steps: list[Step] = []
    for event in events:
        data = event.data
        match event.kind:
            case EventKind.ANSWER | EventKind.RESUME:
                steps.append(_step_of(data))
            case EventKind.BACK | EventKind.REOPEN:
                if steps:
                    steps.pop()
            case EventKind.RESTART:
                steps = []
            case EventKind.CHANGE:
                steps = change(steps, int(data["index"]), str(data["option"]))
    return steps


PREFILL_LIMIT = 64  # answers one action may take from a description (a bound, never reached by a chart)
WALKS_KEPT = 2048  # sessions whose walk stays in memory, like the store's recent sessions


class Dialogs:
    """Start, answer and navigate sessions for any front end."""

    def __init__(self, store: Store, charts: Mapping[str, Chart]) -> None:
        self.store = store
        self.charts = charts
        self.engine = Engine(charts)
        # The walk after each recently used session's log, so a press replays nothing: replaying cost about
        # 9 µs for every answer already given. Keyed by when the session was created and how many events it
        # has, so a log that grew elsewhere (a note) or a reused id never matches a stale walk.
        self._walks: OrderedDict[int, tuple[float, int, Walk]] = OrderedDict()
        self._named: dict[str, frozenset[str]] = {}  # chart id -> the regulations it (or a chart it calls) names

    async def start(
        self,
        owner: str,
        chart_id: str,
        chat: str | None = None,
        description: str | None = None,
        settings: Mapping[str, Setting] | None = None,
        second: Second | None = None,
    ) -> Screen:
        """A new session; started from a ``description`` (what the director typed), it is kept with the session
        and every question the description answers is answered from it (``bot/dialogs/facts.py``). The
        ``settings`` (the regulations the director's club follows) are kept with it too: a question they answer
        is answered from them, one they only inform shows them (``bot/dialogs/regulations.py``). A ``second``
        incident the description told is kept with it and offered once the ruling is given."""
        chart = self.charts.get(chart_id)
        if chart is None:
            raise DialogError(f"There is no chart {chart_id!r}. Type 'charts' to see them.")
        start: dict[str, Any] = {"chart": chart_id, "version": chart.version}
        if description and description.strip():
            start["description"] = description.strip()
        named = self._named_settings(chart_id)
        kept = {name: setting.as_data() for name, setting in (settings or {}).items() if name in named}
        if kept:
            start["settings"] = kept
        if second is not None:
            start["second"] = {"chart": second.chart, "label": second.label}
        walk = self.engine.begin(chart_id, settings=settings_from(kept))
        prefilled = self._prefill(walk, start)
        if prefilled:
            prefilled += self._marks(walk)
        session_id = await self.store.create_session(
            owner, chat, chart_id, chart.version, start, _position(walk), prefilled
        )  # with the answers the description gave, in one transaction
        return self._with_after(self._screen(session_id, chart, walk, settings_from(kept)), walk, start)

    def _named_settings(self, chart_id: str) -> frozenset[str]:
        """The regulations the chart's questions and rulings name (a ruling's ``when`` keyed on one), and those
        of the charts it hands over to: what a session keeps of its club's settings."""
        if chart_id not in self._named:
            seen, todo, named = {chart_id}, [chart_id], set()
            while todo:
                for node in self.charts[todo.pop()].nodes.values():
                    if isinstance(node, Question) and node.setting:
                        named.add(node.setting)
                    elif isinstance(node, Ruling):
                        named.update(node.when)
                    elif isinstance(node, Jump) and node.jump not in seen:
                        seen.add(node.jump)
                        todo.append(node.jump)
            self._named[chart_id] = frozenset(named)
        return self._named[chart_id]

    def _prefill(self, walk: Walk, start: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """Answer, on ``walk``, each question the description or the settings give, for as long as they give
        the next one; the answer events to store, marked with where each answer came from."""
        description, settings = start.get("description"), walk.settings
        if not description and not settings:
            return []
        words = read_description(description) if description else None
        taken: list[tuple[str, dict[str, Any]]] = []
        while not walk.finished and isinstance(walk.node, Question) and len(taken) < PREFILL_LIMIT:
            option = answer_from(words, walk.chart, walk.node) if words else None
            step = Step(walk.chart.id, walk.node.id, option, SOURCE) if option else None
            if step is None and (regulated := answer_from_setting(walk.node, settings)) is not None:
                option, setting = regulated
                step = Step(walk.chart.id, walk.node.id, option, SETTING, setting.shown, setting.source)
            if step is None:
                break
            self.engine.take(walk, step)
            taken.append((EventKind.ANSWER, step.as_data()))
        return taken

    async def screen(self, owner: str, session_id: int) -> Screen:
        row, walk, events = await self._load(owner, session_id)
        return self._view(row, walk, events)

    async def answer(
        self, owner: str, session_id: int, step: int, option: str | int, *, question: str | None = None
    ) -> Screen:
        """Take an answer given at ``step`` (an option id, or its position among the choices shown) to
        ``question`` (its question_key, when the front end knows which question it showed); Stale (nothing
        stored) if the session has moved on or the option is not there, Moved if another question now
        stands at that step (an earlier answer was changed since the question was shown)."""
        row, walk, events = await self._load(owner, session_id)
        if step != len(walk.steps) or walk.finished:
            raise Stale("That button is from an earlier question.", self._view(row, walk, events))
        start = _started(events)
        shown_walk = walk  # the walk a refused press shows: the session as stored
        resumed: list[tuple[str, dict[str, Any]]] = []
        if walk.parked and question is not None and question != question_key(walk.chart.id, walk.node.id):
            shown_walk = walk.copy()
            resumed = self._resume_on(walk, start)  # a park's message answers the question after it
        node = walk.node
        if question is not None and question != question_key(walk.chart.id, node.id):
            raise Moved("That question has moved on.", self._view(row, shown_walk, events))
        if isinstance(option, int):
            shown = choices(node)
            if not 0 <= option < len(shown):
                raise Stale("That is not an option here.", self._view(row, shown_walk, events))
            option = shown[option][0]
        picked = Step(walk.chart.id, node.id, option)
        try:
            self.engine.take(walk, picked)
        except StaleAnswer as exc:
            raise Stale("That is not an option here.", self._view(row, shown_walk, events)) from exc
        kind = EventKind.RESUME if isinstance(node, Park) else EventKind.ANSWER
        taken = self._prefill(walk, start)
        return await self._record(row, events, walk, [*resumed, (kind, picked.as_data()), *taken])

    def _resume_on(self, walk: Walk, start: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """Move a parked ``walk`` past its park, with the answers the description gives after it; the events."""
        park = Step(walk.chart.id, walk.node.id, CONTINUE)
        self.engine.take(walk, park)
        return [(EventKind.RESUME, park.as_data()), *self._prefill(walk, start)]

    async def second_thing(self, owner: str, session_id: int) -> tuple[Second, str | None]:
        """The other incident the session's story told, to be started now, and the story itself; a session
        that holds none, or whose second incident was started already, says so and nothing is started."""
        _row, _walk, events = await self._load(owner, session_id)
        started = next((e.data.get("session") for e in events if e.kind == EventKind.SECOND), None)
        if started is not None:
            raise DialogError(f"The second thing is already started (session {started}): resume it from there.")
        second = _second(events)
        if second is None:
            raise DialogError(f"Session {session_id} told one incident: there is no second thing to start.")
        description = events[0].data.get("description")
        return second, str(description) if description else None

    async def resume(self, owner: str, session_id: int) -> Screen:
        """Continue a parked session past its park node; any other session is simply shown."""
        row, walk, events = await self._load(owner, session_id)
        if not walk.parked:
            return self._view(row, walk, events)
        return await self.answer(owner, session_id, len(walk.steps), "continue")

    async def back(self, owner: str, session_id: int) -> Screen:
        row, walk, events = await self._load(owner, session_id)
        if not walk.steps:
            raise Stale(
                "This is the first question: there is nothing to undo. "
                "If it is not the situation, describe what happened again.",
                self._view(row, walk, events),
            )
        walk = self.engine.walk(row.chart_id, walk.steps[:-1], settings=walk.settings)
        return await self._record(row, events, walk, [(EventKind.BACK, {})])

    async def restart(self, owner: str, session_id: int) -> Screen:
        row, walk, events = await self._load(owner, session_id)
        walk = self.engine.begin(row.chart_id, settings=walk.settings)
        return await self._record(row, events, walk, [(EventKind.RESTART, {}), *self._prefill(walk, _started(events))])

    async def reopen(self, owner: str, session_id: int, number: int) -> Screen:
        """The question of answer ``number`` (1-based), to be answered again with ``change``."""
        row, walk, events = await self._load(owner, session_id)
        if not 1 <= number <= len(walk.steps):
            raise DialogError(f"There is no answer {number}: this session has {len(walk.steps)}.")
        earlier = self.engine.walk(row.chart_id, walk.steps[: number - 1], settings=walk.settings)
        return self._view(row, earlier, events)

    async def change(
        self, owner: str, session_id: int, number: int, option: str, *, question: str | None = None
    ) -> Screen:
        """Answer question ``number`` (1-based) differently; later answers stay where the path allows.
        With ``question`` (the question_key of the question shown), Moved if answer ``number`` is now
        the answer to another question."""
        row, walk, events = await self._load(owner, session_id)
        if question is not None and 1 <= number <= len(walk.steps):
            old = walk.steps[number - 1]
            if question != question_key(old.chart, old.node):
                raise Moved("That question has moved on.", self._view(row, walk, events))
        try:
            steps = self.engine.change(row.chart_id, walk.steps, number - 1, option)
        except StaleAnswer as exc:
            raise Stale("That answer cannot be changed that way.", self._view(row, walk, events)) from exc
        changed = self.engine.walk(row.chart_id, steps, settings=walk.settings)
        taken = self._prefill(changed, _started(events))
        screen = await self._record(
            row, events, changed, [(EventKind.CHANGE, {"index": number - 1, "option": option}), *taken]
        )
        kept = tuple(range(number + 1, len(steps) + 1))  # the answers after the changed one that still fit
        return replace(screen, kept=kept) if kept else screen

    async def cancel(self, owner: str, session_id: int) -> None:
        """Abandon an unfinished session; its log is kept, it no longer appears among open sessions."""
        row, walk, events = await self._load(owner, session_id)
        if walk.finished or row.status == Status.CANCELLED:
            raise DialogError(f"Session {session_id} is not open.")
        await self.store.append(
            row.id, len(events), [(EventKind.CANCEL, {})], Position(Status.CANCELLED, len(walk.steps), "")
        )

    async def reopen_ruling(self, owner: str, session_id: int) -> Screen:
        """A finished ruling taken up again by its director at its last question; the first outcome stays
        in the record as an earlier version."""
        row, walk, events = await self._load(owner, session_id)
        if not walk.finished:
            raise DialogError(f"Session {session_id} is not finished: continue it with resume.")
        walk = self.engine.walk(row.chart_id, walk.steps[:-1], settings=walk.settings)
        return await self._record(row, events, walk, [(EventKind.REOPEN, {})])

    async def note(self, session_id: int, kind: str, data: dict[str, Any]) -> None:
        """Add an event that does not move the dialogue (annotation, share, appeal, decision).

        No owner check here: the rulings service decides who may add what.
        """
        for attempt in range(3):
            row = await self.store.session(session_id)
            if row is None:
                raise NotFound(f"There is no session {session_id}.")
            events = await self.store.events(session_id)
            try:
                await self.store.append(row.id, len(events), [(kind, data)], Position(row.status, row.step, row.node))
                return
            except Conflict:
                if attempt == 2:
                    raise

    async def sessions(
        self, owner: str, statuses: tuple[Status, ...] = (Status.OPEN, Status.PARKED), limit: int = 20
    ) -> list[SessionInfo]:
        rows = await self.store.sessions(owner, statuses, limit)
        return [SessionInfo(r.id, r.chart_id, self._title(r.chart_id), r.status, r.step, r.updated) for r in rows]

    def _title(self, chart_id: str) -> str:
        chart = self.charts.get(chart_id)
        return chart.title if chart else chart_id

    async def _load(self, owner: str, session_id: int) -> tuple[SessionRow, Walk, list[Event]]:
        found = await self.store.session_log(session_id)
        if found is None or found[0].owner != owner:
            raise NotFound(f"There is no session {session_id} of yours.")
        row, events = found
        return row, self._replay(row, events), events

    async def inspect(self, session_id: int) -> tuple[SessionRow, Walk, list[Event]]:
        """Any session's state and log, without an owner check: for records and local tools, not front ends."""
        found = await self.store.session_log(session_id)
        if found is None:
            raise NotFound(f"There is no session {session_id}.")
        row, events = found
        return row, self._replay(row, events), events

    def screen_of(self, row: SessionRow, walk: Walk) -> Screen:
        """The screen for a session already replayed (see ``inspect``)."""
        return self._screen(row.id, self.charts[row.chart_id], walk)

    def _replay(self, row: SessionRow, events: list[Event]) -> Walk:
        """The session's walk after its log ``events`` (a copy the caller may move on)."""
        if row.chart_id not in self.charts:
            raise ChartChanged(f"Session {row.id} used the chart {row.chart_id!r}, which no longer exists.")
        kept = self._walks.get(row.id)
        if kept is not None and kept[:2] == (row.created, len(events)):
            self._walks.move_to_end(row.id)
            return kept[2].copy()
        try:
            steps = _steps_from(events, lambda now, index, option: self.engine.change(row.chart_id, now, index, option))
            walk = self.engine.walk(row.chart_id, steps, settings=settings_from(_started(events).get("settings")))
        except ChartMismatch as exc:
            raise _changed(row) from exc
        self._keep(row, len(events), walk)
        return walk.copy()

    def _keep(self, row: SessionRow, events: int, walk: Walk) -> None:
        """Remember ``walk`` as the state after the session's first ``events`` events; nobody moves it on."""
        self._walks[row.id] = (row.created, events, walk)
        self._walks.move_to_end(row.id)
        while len(self._walks) > WALKS_KEPT:
            self._walks.popitem(last=False)

    async def _record(
        self, row: SessionRow, events: list[Event], walk: Walk, new: list[tuple[str, dict[str, Any]]]
    ) -> Screen:
        """Store the action, plus a marker when the session parks or ends (see ``_marks``)."""
        if row.status == Status.CANCELLED:
            raise DialogError(f"Session {row.id} was cancelled; start the chart again.")
        new += self._marks(walk)
        try:
            await self.store.append(row.id, len(events), new, _position(walk))
        except Conflict as exc:
            now = await self.screen(row.owner, row.id)
            raise Stale("Another answer was stored first.", now) from exc
        self._keep(row, len(events) + len(new), walk)
        return self._view(row, walk, events)

    def _marks(self, walk: Walk) -> list[tuple[str, dict[str, Any]]]:
        """The marker stored when the session parks or ends: the record's timestamps, and the ruling as given."""
        if walk.parked:
            return [(EventKind.PARK, {"node": walk.node.id})]
        if walk.finished:
            rulings = [f"{r.chart}/{r.node}" for r in walk.rulings]
            laws = list(self.engine.ruling_laws(walk))
            given: dict[str, Any] = {"rulings": rulings, "texts": list(outcome_texts(walk)), "laws": laws}
            given["path"] = [_answered_data(a) for a in walk.answered]
            score = _last_score(walk)
            if score is not None:
                given["score"] = {"kind": score.kind, "tricks": score.tricks}
            return [("ruling", given)]
        return []

    async def as_given(self, session_id: int) -> tuple[SessionRow, Screen, list[Event]]:
        """A finished ruling as its log's last ruling marker keeps it, without replaying the chart: the record
        of a ruling whose chart has changed since (the path as answered then, the ruling as given)."""
        found = await self.store.session_log(session_id)
        if found is None:
            raise NotFound(f"There is no session {session_id}.")
        row, events = found
        marker = next((e.data for e in reversed(events) if e.kind == "ruling"), None)
        if row.status != Status.FINISHED or marker is None:
            raise _changed(row)
        chart = self.charts.get(row.chart_id)
        texts = tuple(map(str, marker.get("texts", ())))
        score = marker.get("score")
        screen = Screen(
            session_id=row.id,
            chart_id=row.chart_id,
            chart_title=chart.title if chart else row.chart_id,
            status=row.status,
            step=row.step,
            kind="ruling",
            node_id="",
            question="",
            text="\n".join(texts),
            laws=tuple(map(str, marker.get("laws", ()))),
            options=(),
            help=None,
            path=self._logged_path(row.chart_id, events, marker),
            rulings=(),
            aloud=texts,
            score=ScoreStep(str(score["kind"]), score["tricks"]) if score else None,
        )
        return row, screen, events

    def _logged_path(self, chart_id: str, events: list[Event], marker: Mapping[str, Any]) -> tuple[Answered, ...]:
        """The answers behind a ruling as its marker stored them; a marker written before it stored them gets
        the answers the chart still replays, then the rest as the log names them (node and option)."""
        if "path" in marker:
            return tuple(_answered_from(item) for item in marker["path"])
        steps = _steps_from(events, _changed_in_place)
        settings = settings_from(_started(events).get("settings"))
        replayed: tuple[Answered, ...] = ()
        for fits in range(len(steps), 0, -1) if chart_id in self.charts else ():
            try:
                replayed = tuple(self.engine.walk(chart_id, steps[:fits], settings=settings).answered)
                break
            except (ChartMismatch, StaleAnswer):
                continue
        named = steps[len(replayed) :]
        return replayed + tuple(Answered(s, f"({s.chart}/{s.node})", s.option, (), s.source, s.said) for s in named)

    def _view(self, row: SessionRow, walk: Walk, events: list[Event]) -> Screen:
        """The screen of a loaded session, with the regulations it was started with and its polls' results."""
        screen = self._screen(row.id, self.charts[row.chart_id], walk, walk.settings)
        if walk.finished:
            return replace(screen, second=_second(events))
        if walk.parked:
            screen = self._with_after(screen, walk, _started(events))
        polled = tuple(
            str(e.data["said"]) for e in events if e.kind == EventKind.POLL and e.data.get("node") == screen.where
        )
        return replace(screen, polled=polled) if polled else screen

    def _with_after(self, screen: Screen, walk: Walk, start: Mapping[str, Any]) -> Screen:
        """A park's screen with the question resuming leads to (after the answers the description gives), its
        options offered at once; any other screen as it is."""
        if not walk.parked:
            return screen
        resumed = walk.copy()
        self._resume_on(resumed, start)
        if resumed.finished or not isinstance(resumed.node, Question):
            return screen
        chart = self.charts[screen.chart_id]
        after = self._screen(screen.session_id, chart, resumed, resumed.settings)
        return replace(screen, after=after, question=after.question, options=after.options)

    def _screen(
        self, session_id: int, chart: Chart, walk: Walk, settings: Mapping[str, Setting] | None = None
    ) -> Screen:
        common = {
            "session_id": session_id,
            "chart_id": chart.id,
            "chart_title": chart.title,
            "status": walk.status,
            "step": len(walk.steps),
            "path": tuple(walk.answered),
            "rulings": tuple(walk.rulings),
            "notes": tuple(n.text for n in walk.notes),
        }
        if walk.finished:
            last = walk.rulings[-1] if walk.rulings else None
            laws = self.engine.ruling_laws(walk)
            return Screen(
                kind="ruling",
                node_id=last.node if last else "",
                question="",
                text="\n".join(r.text for r in walk.rulings),
                laws=laws,
                options=(),
                help=None,
                aloud=outcome_texts(walk),
                score=_last_score(walk),
                aside=tuple(n.text for n in walk.notes if not n.aloud),
                **{**common, "notes": ruling_notes(walk)},
            )
        node = walk.node
        return Screen(
            kind=_KIND_NAMES.get(type(node), type(node).__name__.lower()),
            node_id=node.id,
            question=question_key(walk.chart.id, node.id),
            text=walk.render(prompt(node)),
            laws=node.laws,
            options=tuple(Choice(oid, walk.render(label)) for oid, label, _next in choices(node)),
            help=walk.render(node.help) if isinstance(node, Question) and node.help else None,
            regulation=_regulation_line(node, settings or {}),
            poll=(node.poll or "") if isinstance(node, Question) else "",
            where=f"{walk.chart.id}/{node.id}",
            **common,
        )


def _last_score(walk: Walk) -> ScoreStep | None:
    """The arithmetic a finished walk ends in: its last ruling's that names one."""
    return next((r.score for r in reversed(walk.rulings) if r.score), None)


def _changed(row: SessionRow) -> ChartChanged:
    return ChartChanged(
        f"The chart {row.chart_id!r} has changed since session {row.id} began; its record is kept."
        " Start the chart again."
    )


def _answered_data(answered: Answered) -> dict[str, Any]:
    """An answer as a ruling marker keeps it: the step, and the words the director saw."""
    return {
        **answered.step.as_data(),
        "question": answered.question,
        "answer": answered.answer,
        "laws": list(answered.laws),
    }


def _answered_from(data: Mapping[str, Any]) -> Answered:
    step = _step_of(data)
    return Answered(step, str(data["question"]), str(data["answer"]), tuple(data["laws"]), step.source, step.said)


def _started(events: list[Event]) -> Mapping[str, Any]:
    """What the session was started with: the director's words and the settings, if any (its start event).
    The words gain the event's name once the record has one, read as "<name> event": "Tuesday pairs" says the
    form of contest a ruling's words depend on through the cue "pairs event", which "both pairs agree" in a
    description does not give."""
    start = dict(events[0].data) if events and events[0].kind == EventKind.START else {}
    named = [str(e.data["event"]) for e in events if e.kind == EventKind.ANNOTATE and e.data.get("event")]
    if named:
        start["description"] = ". ".join(text for text in (start.get("description"), f"{named[-1]} event") if text)
    return start


def _second(events: list[Event]) -> Second | None:
    """The story's other incident kept at the start, unless it has been started since."""
    kept = events[0].data.get("second") if events and events[0].kind == EventKind.START else None
    if not kept or any(e.kind == EventKind.SECOND for e in events):
        return None
    return Second(str(kept["chart"]), str(kept["label"]))


def _regulation_line(node: Node, settings: Mapping[str, Setting]) -> str:
    """What the club's or authority's rules say about a question they do not answer, shown with it."""
    setting = setting_for(node, settings) if isinstance(node, Question) else None
    return setting.shown if setting else ""


def _position(walk: Walk) -> Position:
    return Position(walk.status, len(walk.steps), "" if walk.finished else f"{walk.chart.id}/{walk.node.id}")
