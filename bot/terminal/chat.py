"""The terminal's conversation: one typed line in, the reply out, over the same services as Telegram."""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable

from bot.answers import MODE_KEY, MODES, Kind, Offer, Replies, Reply, build_replies
from bot.dialogs import Chart, DialogError, Dialogs, Screen, Stale
from bot.dialogs.render import answer_words, seats_line
from bot.ids import parse_id
from bot.laws import LawBook
from bot.laws.text import describe_lookup, format_passage
from bot.matching import Matcher
from bot.rulings import Rulings
from bot.rulings.polls import STEPS, Polls, poll_question
from bot.rulings.settings import rules_lines
from bot.scoring import ScoringError, service
from bot.store import Status, StoreBusy, StoreError
from bot.terminal.screens import DETAILS, EXAMPLES, details, screen_text

HELP = """\
Describe what happened in your own words ("LHO led out of turn"), then type the number of the situation
(vague words get one or two questions first: when it happened, what kind).
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
  help            this text;   quit   leave (nothing is lost: 'resume' continues later)
For the record (the details go on the ruling on screen; enter any you know):
  rulings         your finished rulings;   ruling N   show ruling N with its details
  board N         the board number;        table T    the table
  offender SEAT   N, E, S or W;            side NS|EW the non-offending side
  event NAME      the event;               note TEXT  a note (a new note replaces the last)
  appeal N REASON lodge an appeal against ruling N, within the club's deadline (Laws 92-93)
The arithmetic (Laws 77-78, 12C):
  score 4SX= vul  the score of a contract, declarer's side (vul or nv; without it, both)
  score N 4S= vul defenders   ruling N's score, as its ruling says (after a revoke's or a claim's tricks
                  move, or a weighted adjusted score): filed on its record
  imps 620 -100   IMPs between the two tables' scores, from the same side (or imps 720, a difference)
  mp 420 420 450 -50   matchpoints and percentages for every score on a board
  adjust 60% 4S= 40% 4S-1 vul imps 620   a weighted score (Law 12C1(c)), each outcome against the other
                  table at IMPs, or against the other tables at mp (… vul mp 620 650 170 -100);
                  adjust plus pairs, adjust minus teams: the artificial scores (Law 12C2)
  deal N:AKQ2.J98.T87.654 …   double-dummy tricks and the par contract of a deal (PBN, or 4 hands N E S W;
                  then dealer S, vul NS|EW|all|none if you know them)
Club rules (the regulations a chart question shows or is answered by: knowledge/authorities.yaml):
  rules           the rules your next ruling follows (your club's, else the WBF's)
  club new NAME   create a club;   club ID authority WBF|ACBL|EBU|other   its regulating authority
  club ID rules   its rules;       club ID set KEY VALUE   override one (club 1 set opening_lead_face up)
Polling players (at a question about a logical alternative, Law 16B1):
  poll HAND | AUCTION | CALL, CALL   the neutral question to read to the players you poll
  votes N N …     how many chose each call: closes the poll and records it with the ruling"""


# Commands whose argument is at most two words ("board 12", "side EW", "chart revoke", "change 2"): a line that
# goes on ("Board 10, North dealt…", "Table 5: East dropped the ♠K", "Back at trick 3 …") is an incident to
# describe, not a command.
SHORT_COMMANDS = frozenset(
    {"help", "?", "quit", "exit", "mode", "charts", "chart", "more", "back", "restart", "history", "change"}
    | {"resume", "parked", "rulings", "ruling", "board", "table", "offender", "side", "rules"}
)
SHORT_ARGUMENT = re.compile(r"[\w'-]*(\s+[\w'-]+)?")
# Commands whose argument has a shape of its own: "club new NAME" or "club 3 …", "appeal 7 …", "poll A | B | C". A
# line that starts with the word and goes on in another shape ("Club pairs, board 5 …", "Poll of five players
# said …") is an incident to describe.
ARGUMENT_SHAPES = {
    "club": re.compile(r"(new\s.*|\d+\b.*)?", re.S),
    "appeal": re.compile(r"(\d+\b.*)?", re.S),
    "poll": re.compile(r"([^|]*\|){2}[^|]*|", re.S),
}


class TerminalChat:
    """One person's conversation in the terminal."""

    def __init__(
        self,
        dialogs: Dialogs,
        book: LawBook,
        owner: str,
        matcher: Matcher,
        replies: Replies | None = None,
        rulings: Rulings | None = None,
    ) -> None:
        self.dialogs = dialogs
        self.rulings = rulings or Rulings(dialogs.store, dialogs)  # starts charts: a club director's are filed
        self.polls = Polls(dialogs.store, dialogs)
        self.book = book
        self.owner = owner
        self.replies = replies or build_replies(book, dialogs.charts, matcher)
        self.menu: tuple[Offer, ...] = ()  # what the numbers last offered (situations, a summary's choices)
        self.description: str | None = None  # the last description typed, which the offers came from
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
        argument = rest.strip()
        if word.casefold() in SHORT_COMMANDS and not SHORT_ARGUMENT.fullmatch(argument):
            command = None
        shape = ARGUMENT_SHAPES.get(word.casefold())
        if shape is not None and not shape.fullmatch(argument) and not SHORT_ARGUMENT.fullmatch(argument):
            command = None  # a short argument out of shape still gets the command's own help line
        try:
            if command is not None:
                self.menu = ()
                return await command(rest.strip())
            if text.isdigit():
                number = parse_id(text) or 0  # a number too long for any choice is out of range, like 0
                if self.menu:
                    return await self._pick(number)
                return await self._answer(number)
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
            "rulings": self._rulings,
            "ruling": self._ruling,
            "board": self._detail("board"),
            "table": self._detail("table"),
            "offender": self._detail("offender"),
            "side": self._detail("non_offenders"),
            "event": self._detail("event"),
            "note": self._note,
            "rules": self._rules,
            "poll": self._poll,
            "votes": self._votes,
            "club": self._club,
            "appeal": self._appeal,
            "score": self._score,
            "imps": self._arithmetic("imps", service.imps_text),
            "mp": self._arithmetic("mp", service.mp_text),
            "adjust": self._arithmetic("adjust", service.adjust_text),
            "deal": self._arithmetic("deal", service.deal_text, service.reads_as_deal),
        }

    async def _describe(self, text: str) -> str:
        """What the shared step makes of a typed line (situations, a triage question, a summary …)."""
        mode = await self.dialogs.store.setting(self.owner, MODE_KEY) or "auto"
        self.description = text  # a chart started from what this offers answers what the text already says
        return await self._render(self.replies.to_text(text, mode))

    async def _render(self, reply: Reply) -> str:
        """A reply's text with its offers numbered (the next number typed follows one); START opens its chart."""
        if reply.kind is Kind.START:
            screen = await self.rulings.start(self.owner, reply.key, description=self.description, second=reply.second)
            return self.show(screen)
        self.menu = reply.offers
        lines = [reply.text, *(f"  {n}. {offer.label}" for n, offer in enumerate(reply.offers, start=1))]
        return "\n".join(lines)

    async def _pick(self, number: int) -> str:
        if not 1 <= number <= len(self.menu):
            return f"Choose a number from 1 to {len(self.menu)}."
        offer = self.menu[number - 1]
        self.menu = ()
        return await self._render(self.replies.follow(offer.act, offer.key, offer.then))

    async def _define(self, rest: str) -> str:
        return await self._render(self.replies.define(rest))

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
        return self.show(await self.rulings.start(self.owner, chart.id))

    def show(self, screen: Screen) -> str:
        self.screen = screen
        self.changing = None
        return screen_text(self.book, screen)

    def _current(self) -> Screen:
        if self.screen is None:
            raise DialogError("No chart is open. Type 'charts', or 'resume' to continue a session.")
        return self.screen

    async def _answer(self, number: int) -> str:
        screen = self._current()
        if screen.finished and screen.second is not None and number == 1:  # the story's other incident
            return self.show(await self.rulings.start_second(self.owner, screen.session_id))
        if screen.finished:
            return "This ruling is complete. Type 'restart', 'change N', or start another chart."
        if not 1 <= number <= len(screen.options):
            return f"Choose a number from 1 to {len(screen.options)}."
        option = screen.options[number - 1].id
        if self.changing is not None:
            changed = await self.dialogs.change(
                self.owner, screen.session_id, self.changing, option, question=screen.question
            )
            return self.show(changed)
        return self.show(
            await self.dialogs.answer(self.owner, screen.session_id, screen.step, option, question=screen.question)
        )

    async def _more(self, _rest: str) -> str:
        screen = self._current()
        passages = [p for ref in screen.laws if (p := self.book.passage(ref)) is not None]
        if not passages:
            return "This step quotes no law."
        return "\n".join(format_passage(self.book, p) for p in passages).rstrip()

    async def _back(self, _rest: str) -> str:
        screen = self._current()
        return self.show(await self.dialogs.back(self.owner, screen.session_id))

    async def _restart(self, _rest: str) -> str:
        screen = self._current()
        return self.show(await self.dialogs.restart(self.owner, screen.session_id))

    async def _history(self, _rest: str) -> str:
        screen = self._current()
        if not screen.path:
            return "No answers yet."
        lines = [f"  {n}. {a.question} → {answer_words(a)}" for n, a in enumerate(screen.path, start=1)]
        return "Answers so far (type 'change N' to answer one again):\n" + "\n".join(lines)

    async def _change(self, rest: str) -> str:
        screen = self._current()
        number = parse_id(rest)
        if number is None:
            return "Which answer? For example 'change 2' (see 'history')."
        question = await self.dialogs.reopen(self.owner, screen.session_id, number)
        self.screen = question
        self.changing = number
        return f"Changing answer {number} (later answers are kept where they still apply):\n" + screen_text(
            self.book, question
        )

    async def _resume(self, rest: str) -> str:
        if rest.isdigit():
            session_id = parse_id(rest)
            if session_id is None:
                return "There is no such session. Type 'resume' for the list."
            return self.show(await self.dialogs.resume(self.owner, session_id))
        return await self._list((Status.OPEN, Status.PARKED), "Open and parked sessions — type 'resume N':")

    async def _parked(self, _rest: str) -> str:
        return await self._list((Status.PARKED,), "Parked sessions — type 'resume N' to continue one:")

    async def _list(self, statuses: tuple[Status, ...], title: str) -> str:
        sessions = await self.dialogs.sessions(self.owner, statuses)
        if not sessions:
            return "No sessions waiting."
        lines = [
            f"  {s.id:>4}  {s.chart_title} — {s.status}, {s.step} answer(s), "
            + time.strftime("%d %b %H:%M", time.localtime(s.updated))
            for s in sessions
        ]
        return title + "\n" + "\n".join(lines)

    # --- the record: details, notes, appeals (the rulings service decides who may do what) -----------

    async def _rulings(self, _rest: str) -> str:
        sessions = await self.dialogs.sessions(self.owner, (Status.FINISHED,))
        if not sessions:
            return "No rulings yet."
        lines = []
        for s in sessions:
            try:
                shown = details(await self.rulings.record(s.id))
            except DialogError:  # its chart is no longer installed: listed all the same, without details
                shown = ""
            when = time.strftime("%d %b %H:%M", time.localtime(s.updated))
            lines.append(f"  {s.id:>4}  {s.chart_title} — {when}" + (f" · {shown}" if shown else ""))
        return "Your rulings — type 'ruling N' to read one again:\n" + "\n".join(lines)

    async def _ruling(self, rest: str) -> str:
        session_id = parse_id(rest)
        if session_id is None:
            return "Which ruling? For example 'ruling 7' (type 'rulings' for the list)."
        record = await self.rulings.own(self.owner, session_id)
        if not record.finished:
            return f"Ruling {session_id} is not finished yet: type 'resume {session_id}' to continue it."
        shown = self.show(await self.dialogs.screen(self.owner, session_id))
        seats = seats_line(record.annotations.get("offender"), record.annotations.get("non_offenders"))
        if seats:  # read first: the roles the ruling names, as seats at this table
            heading, _, rest = shown.partition("\n")
            shown = f"{heading}\n\n{seats}{rest}" if rest.startswith("\n") else f"{heading}\n{seats}\n{rest}"
        scores = "".join(f"\n\nScore (typed: {scored.typed}):\n{scored.said}" for scored in record.scores)
        return f"{shown}{scores}\n\nDetails: {details(record) or 'none yet (board N, offender SEAT, side NS|EW, …)'}"

    def _detail(self, name: str) -> Callable[[str], Awaitable[str]]:
        """A command that records one detail of the ruling on screen."""

        async def record_detail(rest: str) -> str:
            if not rest:
                return f"Type the {DETAILS[name]} after the command, for example: {EXAMPLES[name]}."
            record = await self.rulings.annotate(self.owner, self._current().session_id, **{name: rest})
            return f"Ruling {record.session_id}: {details(record)}."

        return record_detail

    def _arithmetic(
        self,
        word: str,
        compute: Callable[[list[str]], str],
        reads: Callable[[list[str]], bool] = service.reads_as_figures,
    ) -> Callable[[str], Awaitable[str]]:
        """A scoring command: the service's text, or its one line when the input cannot be scored; a sentence
        that merely starts with the word ("score was entered for the wrong pair") is described instead."""

        async def arithmetic(rest: str) -> str:
            words = rest.split()
            if not reads(words):
                return await self._describe(f"{word} {rest}")
            try:
                return compute(words)
            except ScoringError as exc:
                return str(exc)

        return arithmetic

    async def _score(self, rest: str) -> str:
        """score 4SX= vul, or score N … to work out ruling N's score (the tricks its answers transfer, a weighted
        adjusted score) and file it on its record."""
        session_id = service.ruling_number(rest.split())
        if session_id is None:
            return await self._arithmetic("score", service.score_text)(rest)
        record, said = await self.rulings.score(self.owner, session_id, rest.partition(" ")[2])
        return f"Ruling {record.session_id}, filed on its record:\n{said}"

    async def _note(self, rest: str) -> str:
        if not rest:
            return "Type the note after the command, for example: note Players agree the bid was made at once."
        record = await self.rulings.annotate(self.owner, self._current().session_id, note=rest)
        return f"Note saved on ruling {record.session_id}."

    async def _appeal(self, rest: str) -> str:
        number, _, reason = rest.partition(" ")
        session_id = parse_id(number)
        if session_id is None:
            return "Use: appeal RULING REASON, for example 'appeal 7 the hesitation was not clear'."
        record = await self.rulings.appeal(self.owner, session_id, reason)
        return (
            f"Appeal lodged on ruling {record.session_id}; it is in the ruling's record "
            f"('python3 -m bot export {record.session_id}' prints it for the committee)."
        )

    async def _poll(self, rest: str) -> str:
        """poll HAND | AUCTION | CALL, CALL…: the question to read out to the players, neutrally."""
        screen = self._current()
        parts = [part.strip() for part in rest.split("|")]
        if len(parts) != 3:
            return "Use: poll HAND | AUCTION | CALL, CALL (poll ♠KQ8765 ♥3 ♦A92 ♣K54 | 1♠ (2♥) 2♠ (3♥) ? | Pass, 3♠)"
        poll = await self.polls.draft(self.owner, screen.session_id, "terminal")
        for step, text in zip(STEPS, parts, strict=True):
            poll = await self.polls.fill(self.owner, poll.id, step, text)
        poll = await self.polls.opened(self.owner, poll.id, "terminal")
        calls = "\n".join(f"  {n}. {call}" for n, call in enumerate(poll.calls, start=1))
        example = " ".join("0" for _ in poll.calls)
        question = poll_question(poll, self.polls.ending(poll))
        return (
            f"Read this to each player you poll (nothing about the hesitation):\n  {question}"
            f"\n{calls}\nThen type the number who chose each call, in order: votes {example}"
        )

    async def _votes(self, rest: str) -> str:
        """votes N N …: the counts of the ruling's open poll, which closes it and records the result."""
        screen = self._current()
        running = [p for p in await self.dialogs.store.polls_of(screen.session_id) if p.opened and not p.closed]
        counts = [int(word) for word in rest.split() if word.isascii() and word.isdigit()]
        if not running:
            return "No poll is open on this ruling: type 'poll HAND | AUCTION | CALL, CALL' first."
        if len(counts) != len(rest.split()):
            return "Type one whole number for each call, in order: votes 6 3"
        _poll, said = await self.polls.close(self.owner, running[-1].id, counts)
        return f"Poll recorded: {said}\n\n" + self.show(await self.dialogs.screen(self.owner, screen.session_id))

    async def _rules(self, _rest: str) -> str:
        return "\n".join(rules_lines(await self.rulings.rules_for(self.owner)))

    async def _club(self, rest: str) -> str:
        """club new NAME | club ID authority A | club ID rules | club ID set KEY VALUE"""
        words = rest.split()
        if words[:1] == ["new"] and len(words) > 1:
            club_id = await self.rulings.create_club(self.owner, " ".join(words[1:]))
            return f"Club {club_id} created; you administer it. Set its authority: club {club_id} authority ACBL."
        club_id = parse_id(words[0]) if words else None
        action, values = (words[1], words[2:]) if club_id is not None and len(words) > 1 else ("", [])
        if club_id is not None and action == "rules" and not values:
            club, settings = await self.rulings.club_rules(self.owner, club_id)
            return "\n".join([f"Club {club.id} ({club.name}), {club.authority}:", *rules_lines(settings)])
        if club_id is not None and action == "authority" and len(values) == 1:
            await self.rulings.set_authority(self.owner, club_id, values[0])
            return f"Club {club_id} follows {values[0]} now."
        if club_id is not None and action == "set" and len(values) >= 2:
            await self.rulings.set_club_setting(self.owner, club_id, values[0], " ".join(values[1:]))
            return f"Club {club_id}: {values[0]} set."
        return "Use: club new NAME · club ID authority WBF|ACBL|EBU|other · club ID rules · club ID set KEY VALUE"
