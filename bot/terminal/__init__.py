"""The conversation in a terminal: the same engine and store as Telegram, rendered as plain text.

``TerminalChat.handle(line)`` takes one line and returns the reply, so tests drive it without a
terminal; ``run_terminal`` is the read–reply loop around it.
"""

from __future__ import annotations

import asyncio
import getpass
import sys
import time
from collections.abc import Awaitable, Callable

from bot.answers import MODE_KEY, MODES, Answers, Topic, build_answers
from bot.config import load_config
from bot.dialogs import Chart, DialogError, Dialogs, Screen, Stale, load_charts
from bot.laws import LawBook, load_lawbook
from bot.laws.glossary import Term
from bot.laws.text import describe_lookup, format_passage, format_term, ref_label
from bot.matching import Candidate, Matcher, MatchResult, build_matcher, chart_entries
from bot.store import Store, StoreBusy, StoreError

HELP = """\
Describe what happened in your own words ("LHO led out of turn"), then type the number of the situation.
Ask how the rules work ("what happens after a lead out of turn?") for a short answer in plain words.
Or use a command:
  law REF         show a law, section or definition (law 54A, law "penalty card", law definitions)
  define TERM     a bridge-law term explained (define penalty card, define logical alternative)
  mode [M]        how a description is answered: auto (by how it reads), player (summary first) or
                  director (the chart first); without M, the current mode
  charts          list the charts;   chart ID   start one (chart insufficient-bid)
  1, 2, 3 …       answer the question shown
  more            the text of the laws the question rests on (the screen names them)
  back            undo the last answer;   restart   start the chart again
  history         the answers so far;     change N  answer question N again
  resume [N]      list open and parked sessions, or continue session N
  parked          list parked sessions ("call me back at the end of the hand")
  help            this text;   quit   leave (nothing is lost: 'resume' continues later)"""


def screen_text(book: LawBook, screen: Screen) -> str:
    """A question, park or final ruling as plain text, after what the notes passed on the way say."""
    if screen.finished:
        return ruling_text(book, screen)
    lines = [f"[{screen.chart_title} · session {screen.session_id} · answer {screen.step + 1}]"]
    lines += [f"» {note}" for note in screen.notes]
    if screen.kind == "park":
        lines.append("PARKED — " + screen.text)
    else:
        lines.append(screen.text)
    if screen.help:
        lines.append(f"  ({screen.help})")
    if screen.reference:
        lines.append(f"  {screen.reference} (type 'more' for the text)")
    for number, choice in enumerate(screen.options, start=1):
        lines.append(f"  {number}. {choice.label}")
    return "\n".join(lines)


def ruling_text(book: LawBook, screen: Screen) -> str:
    """The final ruling: outcome, every law section it relies on (quoted), and the path that led there."""
    lines = [f"RULING — {screen.chart_title} (session {screen.session_id})", ""]
    lines += [f"» {note}" for note in screen.notes]
    lines += [f"• {r.text}" for r in screen.rulings]
    lines += ["", "Laws applied:"]
    for ref in screen.laws:
        passage = book.passage(ref)
        if passage is not None:
            lines.append(format_passage(book, passage))
    if screen.path:
        lines.append("How we got here:")
        lines += [f"  {n}. {a.question} → {a.answer}" for n, a in enumerate(screen.path, start=1)]
    return "\n".join(lines).rstrip()


def topic_text(topic: Topic) -> str:
    """A players' summary: the title, then each sentence with the sections it rests on."""
    lines = [f"{topic.title} — in plain words", ""]
    lines += [f"{text} ({laws})" for text, laws in topic.summary.cited()]
    return "\n".join(lines)


Action = Callable[[], Awaitable[str]]


class TerminalChat:
    """One person's conversation in the terminal."""

    def __init__(
        self, dialogs: Dialogs, book: LawBook, owner: str, matcher: Matcher, answers: Answers | None = None
    ) -> None:
        self.dialogs = dialogs
        self.book = book
        self.owner = owner
        self.matcher = matcher
        self.answers = answers or build_answers(book, dialogs.charts, matcher)
        self.menu: list[Action] = []  # what the numbers last offered do (situations, summary buttons)
        self.screen: Screen | None = None
        self.changing: int | None = None  # the answer number being changed, while its question is shown
        self.finished = False

    async def handle(self, line: str) -> str:
        """Reply to one line. Errors a user can cause come back as text; the session is never lost."""
        text = line.strip()
        if not text:
            return ""
        word, _, rest = text.partition(" ")
        command = self._commands().get(word.casefold())
        try:
            if command is not None:
                self.menu = []
                return await command(rest.strip())
            if text.isdigit():
                if self.menu:
                    return await self._pick(int(text))
                return await self._answer(int(text))
            return await self._describe(text)
        except Stale as exc:
            self.screen = exc.screen
            return f"{exc}\n\n{screen_text(self.book, exc.screen)}"
        except StoreBusy:
            return "The record is busy for a moment; nothing was lost. Please type that again."
        except (DialogError, StoreError) as exc:
            return str(exc)

    def _commands(self) -> dict[str, Callable[[str], Awaitable[str]]]:
        return {
            "help": self._help,
            "?": self._help,
            "quit": self._quit,
            "exit": self._quit,
            "law": self._law,
            "define": self._define,
            "mode": self._mode,
            "charts": self._charts,
            "chart": self._chart,
            "more": self._more,
            "back": self._back,
            "restart": self._restart,
            "history": self._history,
            "change": self._change,
            "resume": self._resume,
            "parked": self._parked,
        }

    async def _describe(self, text: str) -> str:
        """A description of an incident (the candidate situations) or a question (a summary first)."""
        mode = await self.dialogs.store.setting(self.owner, MODE_KEY) or "auto"
        reading = self.answers.read(text, mode)
        if reading.term is not None:
            return self._term(reading.term)
        if reading.topic is not None:
            return self._topic(reading.topic)
        assert reading.match is not None
        return self._situations(reading.match)

    def _situations(self, result: MatchResult) -> str:
        """The candidate laws, numbered, with why they matched; a number starts the chart."""
        if result.direct_ref:
            return describe_lookup(self.book, result.direct_ref)[1].rstrip()
        offered = list(result.candidates if result.confident else result.suggestions)
        self.menu = [self._start_candidate(c) for c in offered]
        lines = [] if result.confident else [result.message or ""]
        lines.append("Which situation is it? Type its number:" if result.confident else "Common situations:")
        for number, candidate in enumerate(offered, start=1):
            chart = f" — chart {candidate.charts[0]}" if candidate.charts else " — law text"
            why = f"  (matched: {', '.join(candidate.matched[:3])})" if candidate.matched else ""
            lines.append(f"  {number}. Law {candidate.law} — {candidate.title}{chart}{why}")
        return "\n".join(lines)

    def _start_candidate(self, candidate: Candidate) -> Action:
        async def start() -> str:
            if candidate.charts:
                return self._show(await self.dialogs.start(self.owner, candidate.charts[0]))
            return describe_lookup(self.book, str(candidate.law))[1].rstrip()

        return start

    def _topic(self, topic: Topic) -> str:
        """A players' summary, then: walk through the chart, the law text, related topics."""
        labelled: list[tuple[str, Action]] = []
        if topic.chart is not None:
            labelled.append(("Walk me through it", self._walk(topic.chart)))
        labelled.append((f"Show the law (Law {topic.law})", self._show_law(str(topic.law))))
        related = self.answers.related(topic)
        if related:
            labelled.append(("Related", self._related(topic, related)))
        return topic_text(topic) + "\n\n" + self._offer(labelled)

    def _term(self, term: Term) -> str:
        labelled = [(ref_label(self.book, ref), self._show_law(ref)) for ref in term.related]
        return format_term(term) + ("\n\nRelated laws:\n" + self._offer(labelled) if labelled else "")

    def _offer(self, labelled: list[tuple[str, Action]]) -> str:
        """Number the choices; the next number typed runs one."""
        self.menu = [action for _label, action in labelled]
        return "\n".join(f"  {n}. {label}" for n, (label, _action) in enumerate(labelled, start=1))

    def _walk(self, chart_id: str) -> Action:
        async def walk() -> str:
            return self._show(await self.dialogs.start(self.owner, chart_id))

        return walk

    def _show_law(self, ref: str) -> Action:
        async def show() -> str:
            return describe_lookup(self.book, ref)[1].rstrip()

        return show

    def _related(self, topic: Topic, related: list[Topic]) -> Action:
        async def offer() -> str:
            labelled = [(other.title, self._open_topic(other)) for other in related]
            return f"Related to {topic.title}:\n" + self._offer(labelled)

        return offer

    def _open_topic(self, topic: Topic) -> Action:
        async def open_topic() -> str:
            return self._topic(topic)

        return open_topic

    async def _pick(self, number: int) -> str:
        if not 1 <= number <= len(self.menu):
            return f"Choose a number from 1 to {len(self.menu)}."
        action = self.menu[number - 1]
        self.menu = []
        return await action()

    async def _define(self, rest: str) -> str:
        if not rest:
            return "Which term? For example 'define penalty card'."
        term = self.answers.glossary.lookup(rest)
        if term is None:
            near = self.answers.glossary.suggest(rest)
            hint = f" Did you mean: {', '.join(near)}?" if near else " Try 'law definitions' for the defined terms."
            return f"I have no entry for {rest!r}.{hint}"
        return self._term(term)

    async def _mode(self, rest: str) -> str:
        if rest:
            if rest.casefold() not in MODES:
                return f"Choose one of: {', '.join(MODES)}."
            await self.dialogs.store.set_setting(self.owner, MODE_KEY, rest.casefold())
        mode = await self.dialogs.store.setting(self.owner, MODE_KEY) or "auto"
        meaning = {
            "auto": "a question gets the players' summary first, a description of an incident the chart",
            "player": "everything you type gets the players' summary first",
            "director": "everything you type goes straight to the situations and their charts",
        }[mode]
        return f"Mode: {mode} — {meaning}."

    async def _help(self, _rest: str) -> str:
        return HELP

    async def _quit(self, _rest: str) -> str:
        self.finished = True
        return "Goodbye. Open sessions stay stored: 'resume' continues them."

    async def _law(self, rest: str) -> str:
        return describe_lookup(self.book, rest)[1].rstrip()

    async def _charts(self, _rest: str) -> str:
        charts = sorted(self.dialogs.charts.values(), key=lambda c: c.title)
        if not charts:
            return "No charts are installed."
        width = max(len(c.id) for c in charts)
        lines = [f"  {c.id:<{width}}  {c.title} (Law {', '.join(c.laws)})" for c in charts]
        return "Charts — type 'chart ID' to start one:\n" + "\n".join(lines)

    async def _chart(self, rest: str) -> str:
        if not rest:
            return "Which chart? Type 'charts' to see them, then for example 'chart insufficient-bid'."
        chart: Chart | None = self.dialogs.charts.get(rest.casefold())
        if chart is None:
            return f"There is no chart {rest!r}. Type 'charts' to see them."
        return self._show(await self.dialogs.start(self.owner, chart.id))

    def _show(self, screen: Screen) -> str:
        self.screen = screen
        self.changing = None
        return screen_text(self.book, screen)

    def _current(self) -> Screen:
        if self.screen is None:
            raise DialogError("No chart is open. Type 'charts', or 'resume' to continue a session.")
        return self.screen

    async def _answer(self, number: int) -> str:
        screen = self._current()
        if screen.finished:
            return "This ruling is complete. Type 'restart', 'change N', or start another chart."
        if not 1 <= number <= len(screen.options):
            return f"Choose a number from 1 to {len(screen.options)}."
        option = screen.options[number - 1].id
        if self.changing is not None:
            return self._show(await self.dialogs.change(self.owner, screen.session_id, self.changing, option))
        return self._show(await self.dialogs.answer(self.owner, screen.session_id, screen.step, option))

    async def _more(self, _rest: str) -> str:
        screen = self._current()
        passages = [p for ref in screen.laws if (p := self.book.passage(ref)) is not None]
        if not passages:
            return "This step quotes no law."
        text = "\n".join(format_passage(self.book, p) for p in passages).rstrip()
        return f"{text}\n\n(basis: {screen.basis})" if screen.basis else text

    async def _back(self, _rest: str) -> str:
        screen = self._current()
        return self._show(await self.dialogs.back(self.owner, screen.session_id))

    async def _restart(self, _rest: str) -> str:
        screen = self._current()
        return self._show(await self.dialogs.restart(self.owner, screen.session_id))

    async def _history(self, _rest: str) -> str:
        screen = self._current()
        if not screen.path:
            return "No answers yet."
        lines = [f"  {n}. {a.question} → {a.answer}" for n, a in enumerate(screen.path, start=1)]
        return "Answers so far (type 'change N' to answer one again):\n" + "\n".join(lines)

    async def _change(self, rest: str) -> str:
        screen = self._current()
        if not rest.isdigit():
            return "Which answer? For example 'change 2' (see 'history')."
        number = int(rest)
        question = await self.dialogs.reopen(self.owner, screen.session_id, number)
        self.screen = question
        self.changing = number
        return f"Changing answer {number} (later answers are kept where they still apply):\n" + screen_text(
            self.book, question
        )

    async def _resume(self, rest: str) -> str:
        if rest.isdigit():
            return self._show(await self.dialogs.resume(self.owner, int(rest)))
        return await self._list(("open", "parked"), "Open and parked sessions — type 'resume N':")

    async def _parked(self, _rest: str) -> str:
        return await self._list(("parked",), "Parked sessions — type 'resume N' to continue one:")

    async def _list(self, statuses: tuple[str, ...], title: str) -> str:
        sessions = await self.dialogs.sessions(self.owner, statuses)
        if not sessions:
            return "No sessions waiting."
        lines = [
            f"  {s.id:>4}  {s.chart_title} — {s.status}, {s.step} answer(s), "
            + time.strftime("%d %b %H:%M", time.localtime(s.updated))
            for s in sessions
        ]
        return title + "\n" + "\n".join(lines)


async def _chat_loop() -> int:
    book, charts = load_lawbook(), load_charts()
    try:
        store = await Store.open(load_config().database)
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    matcher = build_matcher(chart_entries(), background=True)
    chat = TerminalChat(Dialogs(store, charts), book, f"terminal:{getpass.getuser()}", matcher)
    print("The tournament director's companion — Laws of Duplicate Bridge 2017.")
    print("Describe what happened, or type 'charts', 'law 27', 'help'.", flush=True)
    try:
        while not chat.finished:
            try:
                line = await asyncio.to_thread(input, "> ")
            except EOFError:
                break
            await asyncio.to_thread(matcher.learned.wait)  # read while the director typed; the same answers
            reply = await chat.handle(line)
            if reply:
                print(reply, flush=True)
    finally:
        await store.close()
    return 0


def run_terminal() -> int:
    return asyncio.run(_chat_loop())
