"""The bot on Telegram: python-telegram-bot handlers over the same Dialogs service as the terminal.

Chart state lives in our SQLite store, never in PTB's persistence or ConversationHandler states, so a
restart loses nothing. One generic callback handler reads compact button data, checks it against the
session's current step, and answers stale or forged presses with a short notice that changes nothing.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TypeVar

from telegram import (
    BotCommand,
    ForceReply,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.answers import build_answers
from bot.dialogs import DialogError, Dialogs, NotFound, Screen, Stale
from bot.laws import LawBook
from bot.laws.text import describe_lookup
from bot.logs import pseudonym
from bot.matching import Candidate, Matcher
from bot.rulings import Rulings
from bot.store import StoreBusy, StoreError
from bot.telegram.players import PlayerHandlers
from bot.telegram.records import RecordHandlers, ruling_keyboard
from bot.telegram.render import (
    change_keyboard,
    esc,
    laws_html,
    question_html,
    question_keyboard,
    reopen_keyboard,
    ruling_html,
    split_message,
)
from bot.telegram.transport import AsyncioRequest, NotSent
from bot.telegram.updates import PerConversation, answer_press, answered_first, before_call

log = logging.getLogger("bot.telegram")
T = TypeVar("T")

COMMANDS = (
    ("new", "describe a new incident"),
    ("charts", "list the charts"),
    ("law", "show a law: /law 27B1"),
    ("define", "explain a term: /define penalty card"),
    ("settings", "summary or chart first"),
    ("resume", "open and parked rulings"),
    ("history", "your recent rulings"),
    ("cancel", "abandon the current ruling"),
    ("club", "club settings and ruling log"),
    ("forget", "delete all my data"),
    ("help", "how to use the bot"),
)
HELP = (
    "Describe what happened at the table in your own words — for example <i>LHO led before the auction "
    "was over</i> or <i>partner hesitated then bid 4♠</i> — and pick the matching situation. I ask one "
    "question at a time and end with the ruling and the law to read aloud.\n\n"
    "Ask how the rules work — <i>what happens after a lead out of turn?</i> — and I answer in plain words "
    "first, with the law and a walk-through a tap away. /define <i>penalty card</i> explains a term; "
    "/settings chooses whether you get the summary or the chart first.\n\n"
    "/law 27B1 shows a law · /charts lists the charts · /resume continues a ruling (also one parked "
    "until the end of the hand) · /history lists your rulings · /cancel abandons the current one. "
    "Under each ruling: board and seats, a note, a share link, a picture of the chart, reopen, appeal. "
    "/club manages a club's settings and log; /forget deletes your data.\n"
    "In a group, mention me or reply to me; only the director who started a ruling can press its buttons."
)
STALE = "That button is from an earlier step; nothing was changed."
NOT_YOURS = "Only the director who started this ruling can use its buttons."
BUSY = "The record is busy for a moment; nothing was lost. Please press again."
STORE_DOWN = "The record could not be written just now; your earlier answers are kept. Try again shortly."
RETRIES = 3
FLOOD_LIMIT = 30.0  # Bot API calls naming a chat, a second, across all chats (Telegram: "about 30 messages")
YOUNG_COLLECTION = 20_000  # allocations between collections of the youngest generation (Python's default: 700)


def chat_tag(chat_id: int | None) -> str:
    """A chat id as it appears in logs: a pseudonym keyed with the install's secret salt (see bot.logs)."""
    return pseudonym(chat_id)


async def deliver(call: Callable[[], Awaitable[T]], *, idempotent: bool) -> T:
    """Call the Bot API, waiting out flood limits; network errors are retried only where a repeat is harmless.

    A message sent twice would show a ruling twice, so sends are retried only after RetryAfter (Telegram
    did not process the request) or NotSent (the request never left); edits and callback answers are retried on
    network errors too. PTB's rate limiter waits out RetryAfter first; this loop is the backstop. A button press
    being handled is answered before the call (see bot.telegram.updates).
    """
    await before_call()
    for attempt in range(RETRIES):
        try:
            return await call()
        except RetryAfter as exc:
            delay = exc.retry_after
            await asyncio.sleep(delay.total_seconds() if hasattr(delay, "total_seconds") else float(delay))
        except (TimedOut, NetworkError) as exc:
            if not (idempotent or isinstance(exc, NotSent)) or isinstance(exc, BadRequest) or attempt == RETRIES - 1:
                raise
            await asyncio.sleep(0.5 * 2**attempt)
    return await call()


class TelegramFrontEnd:
    """Handlers for one Application; holds the shared Dialogs, law book and matcher."""

    def __init__(self, dialogs: Dialogs, book: LawBook, matcher: Matcher, admins: frozenset[str] = frozenset()) -> None:
        self.dialogs = dialogs
        self.book = book
        self.matcher = matcher
        self.records = RecordHandlers(self, Rulings(dialogs.store, dialogs, admins))
        self.players = PlayerHandlers(self, build_answers(book, dialogs.charts, matcher))
        self.press_handlers = self._press_handlers()  # built once: a press only looks its prefix up

    def install(self, app: Application) -> None:
        app.add_handler(TypeHandler(Update, self.on_any), group=-1)
        # first: most updates are presses; nothing else takes one
        app.add_handler(CallbackQueryHandler(answered_first(self.on_press, deliver)))
        app.add_handler(CommandHandler("start", self.on_start))
        app.add_handler(CommandHandler("help", self.on_help))
        app.add_handler(CommandHandler("law", self.on_law))
        app.add_handler(CommandHandler("define", self.players.on_define))
        app.add_handler(CommandHandler("settings", self.players.on_settings))
        app.add_handler(CommandHandler("charts", self.on_charts))
        app.add_handler(CommandHandler("new", self.on_new))
        app.add_handler(CommandHandler("history", self.on_history))
        app.add_handler(CommandHandler("resume", self.on_resume))
        app.add_handler(CommandHandler("cancel", self.on_cancel))
        app.add_handler(CommandHandler("decide", self.records.on_decide))
        app.add_handler(CommandHandler("club", self.records.on_club))
        app.add_handler(CommandHandler("forget", self.records.on_forget))
        app.add_handler(InlineQueryHandler(self.records.on_inline))
        app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, self.on_text))
        app.add_handler(MessageHandler(filters.COMMAND, self.on_unknown_command))
        app.add_error_handler(self.on_error)

    @staticmethod
    async def on_any(update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        """One log line per update: its kind and the hashed chat, never the text."""
        if not log.isEnabledFor(logging.INFO):
            return
        kind = "press" if update.callback_query else "command" if _is_command(update) else "message"
        chat = update.effective_chat.id if update.effective_chat else None
        log.info("update %s kind=%s chat=%s", update.update_id, kind, chat_tag(chat))

    # --- messages -------------------------------------------------------------------------------

    async def _reply(
        self, update: Update, text: str, keyboard: InlineKeyboardMarkup | ForceReply | None = None
    ) -> Message | None:
        message = update.effective_message
        if message is None:
            return None
        parts = split_message(text)
        sent: Message | None = None
        for index, part in enumerate(parts):
            markup = keyboard if index == len(parts) - 1 else None
            sent = await deliver(partial(message.reply_html, part, reply_markup=markup), idempotent=False)
        return sent

    async def _show(self, update: Update, screen: Screen, edit: Message | None = None) -> None:
        """Show a question (editing the message it replaces) or send the final ruling as new messages."""
        if screen.finished:
            if edit is not None:
                await self._edit(edit, f"✅ <b>{esc(screen.chart_title)}</b>: answered — the ruling follows.", None)
            parts = ruling_html(self.book, screen)
            for index, part in enumerate(parts):
                last = index == len(parts) - 1
                await self._reply(update, part, ruling_keyboard(screen.session_id) if last else None)
            return
        text, keyboard = question_html(self.book, screen), question_keyboard(screen)
        if edit is not None:
            await self._edit(edit, text, keyboard)
        else:
            await self._reply(update, text, keyboard)

    async def _edit(self, message: Message, text: str, keyboard: InlineKeyboardMarkup | None) -> None:
        try:
            await deliver(
                lambda: message.edit_text(text, parse_mode=ParseMode.HTML, reply_markup=keyboard), idempotent=True
            )
        except BadRequest as exc:
            if "not modified" not in str(exc).lower():
                raise

    @staticmethod
    def owner(update: Update) -> str:
        user = update.effective_user
        return f"tg:{user.id if user else 0}"

    @staticmethod
    def chat(update: Update) -> str | None:
        return str(update.effective_chat.id) if update.effective_chat else None

    # --- commands -------------------------------------------------------------------------------

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        argument = context.args[0] if context.args else ""
        if argument.startswith("r_"):
            await self.records.show_shared(update, argument[2:])
            return
        if argument.startswith("c_") and argument[2:] in self.dialogs.charts:
            await self._start_chart(update, argument[2:])
            return
        if argument.startswith("law_"):
            await self._law(update, argument[4:])
            return
        await self._reply(update, "Welcome — the tournament director's companion (Laws 2017).\n\n" + HELP)

    async def on_help(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._reply(update, HELP)

    async def on_law(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._law(update, " ".join(context.args or []))

    async def _law(self, update: Update, query: str) -> None:
        _found, text = describe_lookup(self.book, query)
        for part in split_message(text.rstrip(), 4000):
            await self._reply(update, f"<pre>{esc(part)}</pre>")

    async def on_charts(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        charts = sorted(self.dialogs.charts.values(), key=lambda c: c.title)
        rows = [[InlineKeyboardButton(c.title[:60], callback_data=f"s:{c.id}")] for c in charts]
        await self._reply(update, "Pick a chart:", InlineKeyboardMarkup(rows) if rows else None)

    async def on_new(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._reply(update, "Describe what happened at the table, in your own words.")

    async def on_history(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        sessions = await self.dialogs.sessions(self.owner(update), ("finished",), limit=10)
        if not sessions:
            await self._reply(update, "No rulings yet.")
            return
        rows = [[InlineKeyboardButton(f"{s.id}. {s.chart_title}"[:60], callback_data=f"u:{s.id}")] for s in sessions]
        await self._reply(update, "Your recent rulings — tap one to read it again:", InlineKeyboardMarkup(rows))

    async def on_resume(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        sessions = await self.dialogs.sessions(self.owner(update), ("open", "parked"), limit=10)
        if not sessions:
            await self._reply(update, "Nothing to resume.")
            return
        rows = [
            [
                InlineKeyboardButton(
                    f"{'⏸ ' if s.status == 'parked' else ''}{s.id}. {s.chart_title}"[:60], callback_data=f"u:{s.id}"
                )
            ]
            for s in sessions
        ]
        await self._reply(update, "Open and parked rulings — tap one to continue:", InlineKeyboardMarkup(rows))

    async def on_cancel(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        sessions = await self.dialogs.sessions(self.owner(update), ("open",), limit=1)
        if not sessions:
            await self._reply(update, "No open ruling to cancel.")
            return
        await self.dialogs.cancel(self.owner(update), sessions[0].id)
        await self._reply(
            update, f"Cancelled {esc(sessions[0].chart_title)} (session {sessions[0].id}); its record is kept."
        )

    async def on_unknown_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A command this bot does not have: say so (in a group, only when it was addressed to this bot)."""
        message = update.effective_message
        if message is None or not message.text:
            return
        command = message.text.split()[0]
        private = update.effective_chat is not None and update.effective_chat.type == ChatType.PRIVATE
        if not private and f"@{context.bot.username}".casefold() not in command.casefold():
            return
        await self._reply(update, f"I do not know {esc(command[:40])}. /help lists what I can do.")

    # --- free text ------------------------------------------------------------------------------

    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or not message.text:
            return
        if await self.records.on_reply(update):
            return
        text = message.text
        if update.effective_chat and update.effective_chat.type != ChatType.PRIVATE:
            username = f"@{context.bot.username}".casefold()
            replying = (
                message.reply_to_message is not None
                and message.reply_to_message.from_user is not None
                and (message.reply_to_message.from_user.id == context.bot.id)
            )
            if username not in text.casefold() and not replying:
                return
            text = text.replace(f"@{context.bot.username}", " ").strip()
        reading = self.players.answers.read(text, await self.players.mode(update))
        if await self.players.reply(update, reading):
            return
        assert reading.match is not None
        result = reading.match
        candidates = result.candidates if result.confident else result.suggestions
        lines = []
        if result.message:
            lines.append(esc(result.message))
        if result.confident and result.candidates:
            lines.insert(0, "Which situation is it?")
            for candidate in result.candidates:
                why = ", ".join(candidate.matched[:4])
                lines.append(
                    f"• Law {candidate.law} — {esc(candidate.title)}" + (f" <i>({esc(why)})</i>" if why else "")
                )
        rows = [[self._candidate_button(c)] for c in candidates]
        rows.append([InlineKeyboardButton("None of these", callback_data="n")])
        await self._reply(update, "\n".join(lines) or "Which situation is it?", InlineKeyboardMarkup(rows))

    @staticmethod
    def _candidate_button(candidate: Candidate) -> InlineKeyboardButton:
        label = f"Law {candidate.law} — {candidate.title}"[:60]
        if candidate.charts:
            return InlineKeyboardButton(label, callback_data=f"s:{candidate.charts[0]}")
        return InlineKeyboardButton(label, callback_data=f"l:{candidate.law}")

    # --- buttons --------------------------------------------------------------------------------

    async def on_press(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        fields = (query.data or "").split(":")
        handler = self.press_handlers.get(fields[0])
        notice: str | None = None
        try:
            if handler is None:
                notice = STALE
            else:
                notice = await handler(update, fields[1:])
        except (ValueError, IndexError):
            notice = STALE
        except NotFound:
            notice = NOT_YOURS
        except Stale:
            notice = STALE
        except StoreBusy:
            notice = BUSY
        except StoreError as exc:
            log.warning(
                "store error on a press chat=%s: %s",
                chat_tag(update.effective_chat.id if update.effective_chat else None),
                exc,
            )
            notice = STORE_DOWN
        except DialogError as exc:
            notice = str(exc)[:190]
        await answer_press(query, deliver, notice, alert=notice in (NOT_YOURS,))

    def _press_handlers(self) -> dict[str, Callable[[Update, list[str]], Awaitable[str | None]]]:
        return {
            "a": self._press_answer,
            "b": self._press_back,
            "r": self._press_restart,
            "h": self._press_change_menu,
            "c": self._press_reopen,
            "x": self._press_change,
            "k": self._press_keep,
            "m": self._press_more,
            "s": self._press_start,
            "l": self._press_law,
            "u": self._press_resume,
            "n": self._press_none,
            **self.records.press_handlers(),
            **self.players.press_handlers(),
        }

    async def _current(self, update: Update, sid: str, step: str) -> Screen:
        """The session's screen, if the press was made at its current step (else Stale)."""
        screen = await self.dialogs.screen(self.owner(update), int(sid))
        if screen.step != int(step) or screen.finished:
            raise Stale(STALE, screen)
        return screen

    async def _press_answer(self, update: Update, args: list[str]) -> None:
        sid, step, index = args
        moved = await self.dialogs.answer(self.owner(update), int(sid), int(step), int(index))
        await self._show(update, moved, edit=self._message(update))

    async def _press_back(self, update: Update, args: list[str]) -> None:
        sid, step = args
        await self._current(update, sid, step)
        await self._show(update, await self.dialogs.back(self.owner(update), int(sid)), edit=self._message(update))

    async def _press_restart(self, update: Update, args: list[str]) -> None:
        sid, step = args
        await self._current(update, sid, step)
        await self._show(update, await self.dialogs.restart(self.owner(update), int(sid)), edit=self._message(update))

    async def _press_change_menu(self, update: Update, args: list[str]) -> None:
        sid, step = args
        screen = await self._current(update, sid, step)
        message = self._message(update)
        if message is not None:
            await self._edit(message, "Which answer do you want to change?", change_keyboard(screen))

    async def _press_reopen(self, update: Update, args: list[str]) -> None:
        sid, number = args
        owner = self.owner(update)
        now = await self.dialogs.screen(owner, int(sid))
        question = await self.dialogs.reopen(owner, int(sid), int(number))
        message = self._message(update)
        if message is not None:
            text = f"Changing answer {int(number)}:\n" + question_html(self.book, question)
            await self._edit(message, text, reopen_keyboard(question, int(number), now.step))

    async def _press_change(self, update: Update, args: list[str]) -> None:
        sid, step, number, index = args
        await self._current(update, sid, step)
        question = await self.dialogs.reopen(self.owner(update), int(sid), int(number))
        if not 0 <= int(index) < len(question.options):
            raise Stale(STALE, question)
        changed = await self.dialogs.change(self.owner(update), int(sid), int(number), question.options[int(index)].id)
        await self._show(update, changed, edit=self._message(update))

    async def _press_keep(self, update: Update, args: list[str]) -> None:
        sid, step = args
        screen = await self._current(update, sid, step)
        await self._show(update, screen, edit=self._message(update))

    async def _press_more(self, update: Update, args: list[str]) -> None:
        sid, step = args
        screen = await self.dialogs.screen(self.owner(update), int(sid))
        if screen.step != int(step):
            raise Stale(STALE, screen)
        for part in laws_html(self.book, screen.laws):
            await self._reply(update, part)

    async def _press_start(self, update: Update, args: list[str]) -> None:
        (chart_id,) = args
        if chart_id not in self.dialogs.charts:
            return None
        await self._start_chart(update, chart_id)

    async def _start_chart(self, update: Update, chart_id: str) -> None:
        owner = self.owner(update)
        screen = await self.dialogs.start(owner, chart_id, self.chat(update))
        clubs = await self.dialogs.store.clubs_of(owner)
        if len(clubs) == 1:  # a director of one club: the ruling belongs to that club's log
            await self.dialogs.store.set_session_club(screen.session_id, clubs[0])
        await self._show(update, screen)

    async def _press_law(self, update: Update, args: list[str]) -> None:
        (ref,) = args
        await self._law(update, ref)

    async def _press_resume(self, update: Update, args: list[str]) -> None:
        (sid,) = args
        screen = await self.dialogs.resume(self.owner(update), int(sid))
        await self._show(update, screen)

    async def _press_none(self, update: Update, _args: list[str]) -> None:
        await self._reply(
            update,
            "Try describing who did what and when — for example <i>declarer led from the wrong hand</i>, "
            "<i>dummy pointed out a revoke</i>, <i>he claimed but trumps are out</i> — or pick from /charts.",
        )

    @staticmethod
    def _message(update: Update) -> Message | None:
        query = update.callback_query
        return query.message if query is not None and isinstance(query.message, Message) else None

    # --- errors ---------------------------------------------------------------------------------

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log with context (never the message text) and tell the user their answers are kept."""
        chat = update.effective_chat.id if isinstance(update, Update) and update.effective_chat else None
        kind = type(context.error).__name__
        if isinstance(context.error, Forbidden):
            log.warning("blocked by chat=%s", chat_tag(chat))
            return
        log.error("update failed chat=%s error=%s", chat_tag(chat), kind, exc_info=context.error)
        if isinstance(update, Update) and update.effective_message is not None:
            try:
                await update.effective_message.reply_text(
                    "Something went wrong on my side; your answers are kept. Try again, or /resume."
                )
            except (NetworkError, BadRequest):
                log.warning("could not tell chat=%s about the error", chat_tag(chat))


def _is_command(update: Update) -> bool:
    message = update.effective_message
    return bool(message and message.text and message.text.startswith("/"))


async def register_commands(app: Application) -> None:
    """Show the commands in the phone's menu."""
    await app.bot.set_my_commands([BotCommand(name, about) for name, about in COMMANDS])


def tune_collector() -> None:
    """Called once, when the knowledge is loaded and the bot serves. The law book, charts and matcher (a few
    hundred thousand objects) live as long as the process, so the collector stops rescanning them on each
    full collection; and a press creates a few thousand short-lived objects (PTB's parsed updates and
    replies), so the youngest generation is collected every 20,000 allocations, not every 700. Together
    about a fifth of a button press; garbage with cycles lives a little longer (a few MB at most)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])


def build_application(
    token: str,
    front_end: TelegramFrontEnd,
    request: BaseRequest | None = None,
    *,
    base_url: str | None = None,
    max_rate: float = FLOOD_LIMIT,
) -> Application:
    """The PTB Application with our handlers; ``request`` replaces the network (tests pass a fake Bot API).

    Updates run concurrently, in order per chat and person (bot.telegram.updates). PTB's rate limiter keeps
    the Bot API's flood limits: ``max_rate`` calls a second that name a chat (0: no overall limit) and twenty
    a minute per group, and waits out a RetryAfter up to RETRIES times before ``deliver`` sees it."""
    limiter = AIORateLimiter(overall_max_rate=max_rate, max_retries=RETRIES)
    builder: ApplicationBuilder = (
        ApplicationBuilder().token(token).concurrent_updates(PerConversation()).rate_limiter(limiter)
    )
    if base_url is not None:
        builder = builder.base_url(base_url)
    if request is None:  # see bot.telegram.transport: httpx cost most of a press
        builder = builder.request(AsyncioRequest()).get_updates_request(AsyncioRequest(pool_size=1))
    else:
        builder = builder.request(request).get_updates_request(request)
    app = builder.build()
    front_end.install(app)
    return app
