"""The bot on Telegram: python-telegram-bot handlers over the same Dialogs service as the terminal.

Chart state lives in our SQLite store, never in PTB's persistence or ConversationHandler states, so a
restart loses nothing. One generic callback handler decodes the button data (bot.telegram.callbacks),
dispatches on its kind, checks it against the session's current step and question, and answers stale or
forged presses with a short notice that changes nothing. Every press is answered, even when showing the
result failed.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
import json
import logging
import warnings
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, TypeVar

from telegram import (
    Bot,
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
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
    PollHandler,
    TypeHandler,
    filters,
)
from telegram.request import BaseRequest
from telegram.warnings import PTBUserWarning

from bot.answers import GONE, Act, Kind, Reply, build_replies
from bot.dialogs import DialogError, Dialogs, Moved, NotFound, Screen, Second, Stale
from bot.dialogs.render import seats_line
from bot.laws import LawBook
from bot.laws.text import describe_lookup
from bot.logs import pseudonym
from bot.matching import Matcher
from bot.rulings import Rulings
from bot.rulings.polls import Polls
from bot.store import Status, StoreBusy, StoreError
from bot.telegram.callbacks import (
    Answer,
    Back,
    Change,
    ChangeMenu,
    ChangeWhich,
    FollowOffer,
    Keep,
    LawText,
    NoneOfThese,
    Press,
    Restart,
    Resume,
    ShowLaw,
    StartChart,
    decode,
)
from bot.telegram.players import PlayerHandlers
from bot.telegram.polls import PollHandlers
from bot.telegram.records import RecordHandlers, ruling_keyboard
from bot.telegram.render import (
    Keyboard,
    Markup,
    change_keyboard,
    esc,
    laws_html,
    question_html,
    question_keyboard,
    reopen_keyboard,
    ruling_html,
    split_message,
)
from bot.telegram.replies import reply_keyboard, reply_parts
from bot.telegram.scoring import ScoringHandlers
from bot.telegram.transport import AiohttpRequest
from bot.telegram.updates import PerConversation, answer_now, answer_press, answered_first, before_call

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
    ("score", "a contract's score: /score 4SX= vul"),
    ("imps", "IMPs between two scores: /imps 620 -100"),
    ("mp", "matchpoints for a board: /mp 420 420 450 -50"),
    ("adjust", "weighted score: /adjust 60% 4S= 40% 4S-1 vul imps 620"),
    ("deal", "double dummy and par: /deal N:AKQ2.J98.T87.654 …"),
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
    "Under each ruling: board and seats, a note, a share link, a picture of the chart, reopen, appeal; and "
    "Score it where the ruling ends in a score to work out (a revoke's transfer, a claim's award, an adjusted "
    "score), or /score 7 4S= vul defenders for ruling 7. "
    "/score 4SX= vul scores a contract · /imps 620 -100 converts to IMPs · /mp 420 420 450 -50 matchpoints a "
    "board · /adjust 60% 4S= 40% 4S-1 vul imps 620 weights an adjusted score (Law 12C) · "
    "/deal N:AKQ2.J98.T87.654 … solves a deal double dummy.\n"
    "/club manages a club's settings and log; /forget deletes your data.\n"
    "In a group, mention me or reply to me; only the director who started a ruling can press its buttons."
)
STALE = "That button is from an earlier step; nothing was changed."
UNKNOWN_LINK = "That link's situation is not known; describe what happened."
MEDIA = (
    "I read text: describe what happened in words (a caption on a photo works too), "
    "or use a command — /help lists them."
)
MOVED = "That question has moved on; nothing was recorded. Here is where the ruling stands."
NOT_YOURS = "Only the director who started this ruling can use its buttons."
BUSY = "The record is busy for a moment; nothing was lost. Please press again."
DESCRIPTIONS_KEPT = 4096  # situation lists whose description a press may still start a chart from
STORE_DOWN = "The record could not be written just now; your earlier answers are kept. Try again shortly."
RETRIES = 3
POOL_SIZE = 256  # Bot API connections open at once: one update's calls need not wait for another chat's
FLOOD_LIMIT = 30.0  # Bot API calls naming a chat, a second, across all chats (Telegram: "about 30 messages")
YOUNG_COLLECTION = 20_000  # allocations between collections of the youngest generation (Python's default: 700)


def chat_tag(chat_id: int | None) -> str:
    """A chat id as it appears in logs: a pseudonym keyed with the install's secret salt (see bot.logs)."""
    return pseudonym(chat_id)


def seconds(delay: float | dt.timedelta) -> float:
    """RetryAfter's wait in seconds (python-telegram-bot gives a number or a timedelta, by version)."""
    return delay.total_seconds() if isinstance(delay, dt.timedelta) else float(delay)


async def deliver(call: Callable[[], Awaitable[T]], *, idempotent: bool) -> T:
    """Call the Bot API, waiting out flood limits; network errors are retried only where a repeat is harmless.

    A message sent twice would show a ruling twice, so sends are retried only after RetryAfter (Telegram
    did not process the request); edits and callback answers are retried on network errors too. PTB's rate
    limiter waits out RetryAfter first; this loop is the backstop. A button press
    being handled is answered before the call (see bot.telegram.updates).
    """
    await before_call()
    for attempt in range(RETRIES):
        try:
            return await call()
        except RetryAfter as exc:
            await asyncio.sleep(seconds(exc.retry_after))
        except (TimedOut, NetworkError) as exc:
            if not idempotent or isinstance(exc, BadRequest) or attempt == RETRIES - 1:
                raise
            await asyncio.sleep(0.5 * 2**attempt)
    return await call()


# ``raw_call`` calls methods PTB has its own functions for; PTB advises those, which build the answer's object.
warnings.filterwarnings("ignore", r"Please use 'Bot\.(editMessageText|sendMessage|getUpdates)'", PTBUserWarning)


async def raw_call(bot: Bot, method: str, **params: Any) -> Any:
    """A Bot API call whose answer is taken as Telegram sent it (JSON), not turned into PTB's object: through
    the same request object and rate limiter as PTB's own functions (``do_api_request``), errors raised alike.
    Building the ``Message`` an edit or a message returns, which the bot never reads, cost a quarter of a
    millisecond of CPU with its keyboard, a tenth of a press. Parameters that are None are left out, as PTB's
    own functions do. A keyboard given as JSON is serialised here, in one call to the C encoder: PTB sends
    it as the same string, but walked the keyboard's every button first (a third of the call's own cost)."""
    api_kwargs = {key: value for key, value in params.items() if value is not None}
    if isinstance(api_kwargs.get("reply_markup"), dict):
        api_kwargs["reply_markup"] = json.dumps(api_kwargs["reply_markup"])
    return await bot.do_api_request(method, api_kwargs=api_kwargs)


def edit_message(
    message: Message, text: str, keyboard: Keyboard | InlineKeyboardMarkup | None = None
) -> Awaitable[Any]:
    """Edit ``message``'s text (HTML) and keyboard, as ``Message.edit_text`` does."""
    return raw_call(
        message.get_bot(),
        "editMessageText",
        chat_id=message.chat_id,
        message_id=message.message_id,
        text=text,
        parse_mode=ParseMode.HTML,
        reply_markup=keyboard,
        business_connection_id=message.business_connection_id,
    )


async def reply_html(message: Message, text: str, keyboard: Markup | None = None) -> int:
    """Send HTML in ``message``'s chat as ``Message.reply_html`` does: quoting it outside a private chat, in its
    forum topic or direct-messages topic, through its business connection; the new message's id."""
    sent = await raw_call(
        message.get_bot(),
        "sendMessage",
        chat_id=message.chat_id,
        text=text,
        parse_mode=ParseMode.HTML,
        reply_markup=keyboard,
        reply_parameters=ReplyParameters(message.message_id) if message.chat.type != ChatType.PRIVATE else None,
        message_thread_id=message.message_thread_id if message.is_topic_message else None,
        business_connection_id=message.business_connection_id,
        direct_messages_topic_id=message.direct_messages_topic.topic_id if message.direct_messages_topic else None,
    )
    return int(sent["message_id"])


class TelegramFrontEnd:
    """Handlers for one Application; holds the shared Dialogs, law book and matcher."""

    def __init__(self, dialogs: Dialogs, book: LawBook, matcher: Matcher, admins: frozenset[str] = frozenset()) -> None:
        self.dialogs = dialogs
        self.book = book
        self.matcher = matcher
        self.records = RecordHandlers(self, Rulings(dialogs.store, dialogs, admins))
        self.replies = build_replies(book, dialogs.charts, matcher)
        self.players = PlayerHandlers(self)
        self.polls = PollHandlers(self, Polls(dialogs.store, dialogs))
        self.scoring = ScoringHandlers(self, self.records.rulings)
        self.press_handlers = self._press_handlers()  # built once: a press only looks its prefix up
        # What was typed, by the (chat, message) offering its situations: a chart started from there answers
        # what the description already says. In memory only: after a restart the chart simply asks.
        self.described: OrderedDict[tuple[int, int], str] = OrderedDict()

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
        app.add_handler(CommandHandler("handover", self.records.on_handover))
        self.scoring.install(app)
        app.add_handler(InlineQueryHandler(self.records.on_inline))
        app.add_handler(PollHandler(self.polls.on_poll))
        app.add_handler(MessageHandler((filters.TEXT | filters.CAPTION) & ~filters.COMMAND, self.on_text))
        app.add_handler(MessageHandler(filters.COMMAND, self.on_unknown_command))
        app.add_handler(MessageHandler(filters.ATTACHMENT, self.on_media))
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

    async def reply(self, update: Update, text: str, keyboard: Markup | None = None) -> int | None:
        """Send HTML as a reply in the update's chat, split within Telegram's limit (the keyboard on the last
        part); the delivery helper every handler module uses. The id of the last message sent."""
        message = update.effective_message
        if message is None:
            return None
        parts = split_message(text)
        sent: int | None = None
        for index, part in enumerate(parts):
            markup = keyboard if index == len(parts) - 1 else None
            sent = await deliver(partial(reply_html, message, part, markup), idempotent=False)
        return sent

    async def show(self, update: Update, screen: Screen, edit: Message | None = None, seats: str = "") -> None:
        """Show a question (editing the message it replaces) or send the final ruling as new messages, after
        who is who at the table when the record has the seats."""
        if screen.finished:
            parts = ruling_html(self.book, screen, seats)

            async def ruling() -> None:
                for index, part in enumerate(parts):
                    last = index == len(parts) - 1
                    second = screen.second.label if screen.second else ""
                    keyboard = ruling_keyboard(screen.session_id, screen.score is not None, second) if last else None
                    await self.reply(update, part, keyboard)

            if edit is None:
                await ruling()
            else:  # at once: the ruling does not wait a round trip for the last question to lose its buttons
                await asyncio.gather(self.close_question(edit, screen), ruling())
            return
        text, keyboard = question_html(screen), question_keyboard(screen)
        if edit is not None:
            await self.edit(edit, text, keyboard)
        else:
            await self.reply(update, text, keyboard)

    async def close_question(self, message: Message, screen: Screen) -> None:
        """The last question's message says it is answered and loses its buttons; when Telegram refuses the
        edit nothing is sent instead: the ruling arrives as new messages anyway."""
        text = f"✅ <b>{esc(screen.chart_title)}</b>: answered — the ruling follows."
        try:
            await deliver(lambda: edit_message(message, text), idempotent=True)
        except BadRequest:
            log.info("last question not closed (edit refused) chat=%s", chat_tag(message.chat_id))

    async def edit(self, message: Message, text: str, keyboard: Keyboard | InlineKeyboardMarkup | None) -> None:
        """Edit a message in place; when Telegram refuses the edit (the message was deleted, is too old to
        edit, …) send the text as a new message instead, so the director still sees where the ruling stands."""
        try:
            await deliver(lambda: edit_message(message, text, keyboard), idempotent=True)
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return
            log.info("edit refused, sending anew chat=%s", chat_tag(message.chat_id))
            await deliver(
                partial(
                    raw_call,
                    message.get_bot(),
                    "sendMessage",
                    chat_id=message.chat_id,
                    text=text,
                    parse_mode=ParseMode.HTML,
                    reply_markup=keyboard,
                ),
                idempotent=False,
            )

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
            await self.start_chart(update, argument[2:])
            return
        if argument.startswith("law_"):
            await self._law(update, argument[4:])
            return
        hint = UNKNOWN_LINK + "\n\n" if argument.startswith("c_") else ""
        await self.reply(update, hint + "Welcome — the tournament director's companion (Laws 2017).\n\n" + HELP)

    async def on_help(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.reply(update, HELP)

    async def on_law(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._law(update, " ".join(context.args or []))

    async def _law(self, update: Update, query: str) -> None:
        _found, text = describe_lookup(self.book, query)
        for part in split_message(text.rstrip(), 4000):
            await self.reply(update, f"<pre>{esc(part)}</pre>")

    async def on_charts(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        charts = sorted(self.dialogs.charts.values(), key=lambda c: c.title)
        rows = [[InlineKeyboardButton(c.title[:60], callback_data=StartChart(c.id).encode())] for c in charts]
        await self.reply(update, "Pick a chart:", InlineKeyboardMarkup(rows) if rows else None)

    async def on_new(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.reply(update, "Describe what happened at the table, in your own words.")

    async def on_history(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        sessions = await self.dialogs.sessions(self.owner(update), (Status.FINISHED,), limit=10)
        if not sessions:
            await self.reply(update, "No rulings yet.")
            return
        rows = [
            [InlineKeyboardButton(f"{s.id}. {s.chart_title}"[:60], callback_data=Resume(s.id).encode())]
            for s in sessions
        ]
        await self.reply(update, "Your recent rulings — tap one to read it again:", InlineKeyboardMarkup(rows))

    async def on_resume(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        sessions = await self.dialogs.sessions(self.owner(update), (Status.OPEN, Status.PARKED), limit=10)
        if not sessions:
            await self.reply(update, "Nothing to resume.")
            return
        rows = [
            [
                InlineKeyboardButton(
                    f"{'⏸ ' if s.status == 'parked' else ''}{s.id}. {s.chart_title}"[:60],
                    callback_data=Resume(s.id).encode(),
                )
            ]
            for s in sessions
        ]
        await self.reply(update, "Open and parked rulings — tap one to continue:", InlineKeyboardMarkup(rows))

    async def on_cancel(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        sessions = await self.dialogs.sessions(self.owner(update), (Status.OPEN,), limit=1)
        if not sessions:
            await self.reply(update, "No open ruling to cancel.")
            return
        await self.dialogs.cancel(self.owner(update), sessions[0].id)
        await self.reply(
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
        await self.reply(update, f"I do not know {esc(command[:40])}. /help lists what I can do.")

    # --- free text ------------------------------------------------------------------------------

    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """What a director typed, or wrote as the caption of a photo, a document or a video."""
        message = update.effective_message
        if message is None or not (message.text or message.caption):
            return
        replied = (  # a reply to one of our prompts
            await self.records.on_reply(update)
            or await self.polls.on_reply(update)
            or await self.scoring.on_reply(update)
        )
        if replied:
            return
        text = message.text or message.caption or ""
        if update.effective_chat and update.effective_chat.type != ChatType.PRIVATE:
            username = f"@{context.bot.username}".casefold()
            if username not in text.casefold() and not _replies_to_bot(message, context.bot.id):
                return
            text = text.replace(f"@{context.bot.username}", " ").strip()
        sent = await self.send_reply(update, self.replies.to_text(text, await self.players.mode(update)))
        if sent is not None:  # a chart started from this message's offers answers what the text already says
            self.described[(message.chat_id, sent)] = text
            while len(self.described) > DESCRIPTIONS_KEPT:
                self.described.popitem(last=False)

    async def send_reply(self, update: Update, reply: Reply, edit: Message | None = None) -> int | None:
        """Show what the shared step returned: a chart to start, or its text with a button per offer
        (``edit``: replace that message, as a triage question narrowing down does). The id of the message that
        carries the offers is returned."""
        if reply.kind is Kind.START:
            await self.start_chart(update, reply.key, reply.second)
            return None
        parts = reply_parts(reply)
        if edit is not None and len(parts) == 1:
            await self.edit(edit, parts[0], reply_keyboard(reply))
            return edit.message_id
        for part in parts[:-1]:
            await self.reply(update, part)
        return await self.reply(update, parts[-1], reply_keyboard(reply))

    async def on_media(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A photo without a caption, a sticker, a voice message…: one line on what the bot reads (in a
        group, only when it answers one of the bot's messages)."""
        message = update.effective_message
        if message is None:
            return
        private = update.effective_chat is not None and update.effective_chat.type == ChatType.PRIVATE
        if private or _replies_to_bot(message, context.bot.id):
            await self.reply(update, MEDIA)

    # --- buttons --------------------------------------------------------------------------------

    async def on_press(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        """Decode, dispatch on the kind, and always answer the press (with a notice when nothing was done)."""
        query = update.callback_query
        if query is None:
            return
        notice: str | None = None
        try:
            notice = await self._dispatch(update, decode(query.data))
        finally:
            await answer_press(query, deliver, notice, alert=notice in (NOT_YOURS,))

    async def _dispatch(self, update: Update, press: Press | None) -> str | None:
        """The press's effect; the notice to show on the press, or None."""
        handler = self.press_handlers.get(type(press)) if press is not None else None
        try:
            if handler is None:
                return STALE
            return await handler(update, press)
        except NotFound:
            return NOT_YOURS
        except Moved as exc:
            answer_now(MOVED)  # ahead of the edit, which would otherwise answer the press without it
            await self.show(update, exc.screen, edit=self.pressed_message(update))
            return MOVED
        except Stale:
            return STALE
        except StoreBusy:
            return BUSY
        except StoreError as exc:
            log.warning(
                "store error on a press chat=%s: %s",
                chat_tag(update.effective_chat.id if update.effective_chat else None),
                exc,
            )
            return STORE_DOWN
        except DialogError as exc:
            return str(exc)[:190]

    def _press_handlers(self) -> dict[type[Press], Callable[[Update, Any], Awaitable[str | None]]]:
        """The handler for each kind of press (every kind in bot.telegram.callbacks has one)."""
        return {
            Answer: self._press_answer,
            Back: self._press_back,
            Restart: self._press_restart,
            ChangeMenu: self._press_change_menu,
            ChangeWhich: self._press_reopen,
            Change: self._press_change,
            Keep: self._press_keep,
            LawText: self._press_more,
            StartChart: self._press_start,
            ShowLaw: self._press_law,
            Resume: self._press_resume,
            NoneOfThese: self._press_none,
            FollowOffer: self._press_offer,
            **self.records.press_handlers(),
            **self.players.press_handlers(),
            **self.polls.press_handlers(),
            **self.scoring.press_handlers(),
        }

    async def _current(self, update: Update, session: int, step: int, question: str | None) -> Screen:
        """The session's screen, if the press was made at its current step and question (else Stale)."""
        screen = await self.dialogs.screen(self.owner(update), session)
        if screen.step != step or screen.finished:
            raise Stale(STALE, screen)
        if question is not None and screen.question != question:
            raise Moved(MOVED, screen)
        return screen

    async def _press_answer(self, update: Update, press: Answer) -> None:
        moved = await self.dialogs.answer(
            self.owner(update), press.session, press.step, press.option, question=press.question
        )
        await self.show(update, moved, edit=self.pressed_message(update))

    async def _press_back(self, update: Update, press: Back) -> None:
        await self._current(update, press.session, press.step, press.question)
        screen = await self.dialogs.back(self.owner(update), press.session)
        await self.show(update, screen, edit=self.pressed_message(update))

    async def _press_restart(self, update: Update, press: Restart) -> None:
        await self._current(update, press.session, press.step, press.question)
        screen = await self.dialogs.restart(self.owner(update), press.session)
        await self.show(update, screen, edit=self.pressed_message(update))

    async def _press_change_menu(self, update: Update, press: ChangeMenu) -> None:
        screen = await self._current(update, press.session, press.step, press.question)
        message = self.pressed_message(update)
        if message is not None:
            await self.edit(message, "Which answer do you want to change?", change_keyboard(screen))

    async def _press_reopen(self, update: Update, press: ChangeWhich) -> None:
        owner = self.owner(update)
        now = await self.dialogs.screen(owner, press.session)
        question = await self.dialogs.reopen(owner, press.session, press.number)
        message = self.pressed_message(update)
        if message is not None:
            text = f"Changing answer {press.number}:\n" + question_html(question)
            await self.edit(message, text, reopen_keyboard(question, press.number, now))

    async def _press_change(self, update: Update, press: Change) -> None:
        await self._current(update, press.session, press.step, None)  # the question is that of answer ``number``
        question = await self.dialogs.reopen(self.owner(update), press.session, press.number)
        if not press.option < len(question.options):
            raise Stale(STALE, question)
        changed = await self.dialogs.change(
            self.owner(update), press.session, press.number, question.options[press.option].id, question=press.question
        )
        await self.show(update, changed, edit=self.pressed_message(update))

    async def _press_keep(self, update: Update, press: Keep) -> None:
        screen = await self._current(update, press.session, press.step, press.question)
        await self.show(update, screen, edit=self.pressed_message(update))

    async def _press_more(self, update: Update, press: LawText) -> None:
        screen = await self._current(update, press.session, press.step, press.question)
        for part in laws_html(self.book, screen.laws):
            await self.reply(update, part)

    async def _press_start(self, update: Update, press: StartChart) -> None:
        if press.chart not in self.dialogs.charts:
            return None
        await self.start_chart(update, press.chart)

    async def start_chart(self, update: Update, chart_id: str, second: Second | None = None) -> None:
        """Open a chart for the user in this chat. Started from a pressed offer, what was described above it
        answers what it can, and in a group only the person who described it may start it (the rulings
        service decides, and files the ruling under the director's club); ``second`` is the story's other
        incident, offered under this ruling."""
        message = self.pressed_message(update)
        described = self.described.get((message.chat_id, message.message_id)) if message else None
        screen = await self.records.rulings.start(
            self.owner(update),
            chart_id,
            self.chat(update),
            described,
            described_by=self._describer(update),
            second=second,
        )
        await self.show(update, screen)

    @staticmethod
    def _describer(update: Update) -> str | None:
        """In a group, who wrote the description the pressed keyboard answers (Telegram says so; a button's
        data could be forged); None in a private chat or when the description is gone."""
        message = TelegramFrontEnd.pressed_message(update)
        if message is None or message.chat.type == ChatType.PRIVATE or message.reply_to_message is None:
            return None
        author = message.reply_to_message.from_user
        return f"tg:{author.id}" if author is not None and not author.is_bot else None

    async def _press_law(self, update: Update, press: ShowLaw) -> None:
        await self._law(update, press.ref)

    async def _press_resume(self, update: Update, press: Resume) -> None:
        owner = self.owner(update)
        screen = await self.dialogs.resume(owner, press.session)
        seats = ""
        if screen.finished:  # a ruling read again says who is who first, as the terminal's 'ruling N' does
            record = await self.records.rulings.own(owner, press.session)
            seats = seats_line(record.annotations.get("offender"), record.annotations.get("non_offenders"))
        await self.show(update, screen, seats=seats)

    async def _press_none(self, update: Update, _press: NoneOfThese) -> None:
        await self.reply(
            update,
            "Try describing who did what and when — for example <i>declarer led from the wrong hand</i>, "
            "<i>dummy pointed out a revoke</i>, <i>he claimed but trumps are out</i> — or pick from /charts.",
        )

    async def _press_offer(self, update: Update, press: FollowOffer) -> str | None:
        """An offer of a reply followed through the shared step; one that leads nowhere now is a notice."""
        pressed = press.read()
        reply = self.replies.follow(*pressed) if pressed is not None else None
        if reply is None or reply.kind is Kind.GONE:
            return GONE
        narrowing = pressed is not None and pressed[0] in (Act.TRIAGE, Act.NONE)
        await self.send_reply(update, reply, edit=self.pressed_message(update) if narrowing else None)
        return None

    @staticmethod
    def pressed_message(update: Update) -> Message | None:
        """The message whose button was pressed (None when Telegram no longer sends it)."""
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


def _replies_to_bot(message: Message, bot_id: int) -> bool:
    replied = message.reply_to_message
    return replied is not None and replied.from_user is not None and replied.from_user.id == bot_id


def _is_command(update: Update) -> bool:
    message = update.effective_message
    return bool(message and message.text and message.text.startswith("/"))


async def register_commands(bot: Bot) -> None:
    """Show the commands in the phone's menu."""
    await bot.set_my_commands([BotCommand(name, about) for name, about in COMMANDS])


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
    fetches: bool = True,
) -> Application:
    """The PTB Application with our handlers; ``request`` replaces the network (tests pass a fake Bot API).

    Updates run concurrently, in order per chat and person (bot.telegram.updates). PTB's rate limiter keeps
    the Bot API's flood limits: ``max_rate`` calls a second that name a chat (0: no overall limit) and twenty
    a minute per group, and waits out a RetryAfter up to RETRIES times before ``deliver`` sees it. Without
    ``fetches`` it has no Updater: a worker is handed its updates by the router (bot.telegram.workers)."""
    limiter = AIORateLimiter(overall_max_rate=max_rate, max_retries=RETRIES)
    builder: ApplicationBuilder = (
        ApplicationBuilder().token(token).concurrent_updates(PerConversation()).rate_limiter(limiter)
    )
    if base_url is not None:
        builder = builder.base_url(base_url)
    if request is None:  # aiohttp (bot.telegram.transport), with a pool for many chats at once; one for polling
        # (a worker never polls, but without its own request PTB would make an httpx one, and close it at exit)
        builder = builder.request(AiohttpRequest(POOL_SIZE)).get_updates_request(AiohttpRequest(1))
    else:
        builder = builder.request(request).get_updates_request(request)
    if not fetches:
        builder = builder.updater(None)
    app = builder.build()
    front_end.install(app)
    return app
