"""Telegram side of rulings that last: details, notes, sharing, pictures, reopening, appeals, clubs, /forget.

Free-text answers (a note, an appeal's reason) use ForceReply: the prompt names the ruling, and the reply
to it carries that name back, so nothing is waiting in memory when the bot restarts.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from telegram import (
    ForceReply,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Update,
)
from telegram.ext import ContextTypes

from bot.dialogs import DialogError
from bot.dialogs.render import path_in_chart, to_dot
from bot.rulings import DEPOSITS, OUTCOMES, SEATS, SIDES, RulingError, RulingRecord, Rulings, authorities
from bot.rulings.export import to_text
from bot.telegram.render import esc, split_message

if TYPE_CHECKING:
    from bot.telegram.app import TelegramFrontEnd

NOTE_PROMPT = "Note for ruling {sid}:"
EVENT_PROMPT = "Event for ruling {sid}:"
APPEAL_PROMPT = "Reason for appealing ruling {sid}{token}:"
_PROMPT = re.compile(r"^(Note for|Event for|Reason for appealing) ruling (\d+)(?: \[([A-Za-z0-9_-]{20,64})\])?:")


def ruling_keyboard(sid: int) -> InlineKeyboardMarkup:
    """The actions on a finished ruling."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton("🪑 Board & seats", callback_data=f"rb:{sid}"),
                InlineKeyboardButton("📝 Add a note", callback_data=f"rn:{sid}"),
            ],
            [
                InlineKeyboardButton("🔗 Share", callback_data=f"rs:{sid}"),
                InlineKeyboardButton("🖼 Picture", callback_data=f"rp:{sid}"),
                InlineKeyboardButton("↩ Reopen", callback_data=f"ro:{sid}"),
            ],
            [InlineKeyboardButton("⚖ Appeal", callback_data=f"ra:{sid}")],
        ]
    )


def summary_html(record: RulingRecord) -> str:
    """A short, forwardable summary of a ruling."""
    notes = record.annotations
    details = " · ".join(
        f"{label} {notes[key]}"
        for key, label in (("board", "Board"), ("offender", "offender"), ("non_offenders", "non-offending side"))
        if key in notes
    )
    lines = [f"⚖️ <b>Ruling {record.session_id} — {esc(record.chart_title)}</b>"]
    if details:
        lines.append(esc(details))
    if record.current:
        lines += [f"• {esc(t)}" for t in record.current.texts]
        lines.append(f"<i>Laws {esc(', '.join(record.current.laws))} (2017)</i>")
    if record.appeal_deadline:
        lines.append(f"Appeals until {time.strftime('%H:%M', time.localtime(record.appeal_deadline))}.")
    return "\n".join(lines)


class RecordHandlers:
    """Buttons and commands for stored rulings, on top of the front end's delivery helpers."""

    def __init__(self, front: TelegramFrontEnd, rulings: Rulings) -> None:
        self.front = front
        self.rulings = rulings

    def press_handlers(self) -> dict[str, Callable[[Update, list[str]], Awaitable[str | None]]]:
        return {
            "rb": self._board_menu,
            "rd": self._detail,
            "rn": self._ask_note,
            "re": self._ask_event,
            "rs": self._share,
            "rr": self._revoke,
            "rp": self._picture,
            "ro": self._reopen,
            "ra": self._ask_appeal,
            "rt": self._ask_appeal_shared,
            "fg": self._forget,
        }

    # --- details --------------------------------------------------------------------------------

    async def _board_menu(self, update: Update, args: list[str]) -> None:
        (sid,) = args
        await self.rulings.own(self.front.owner(update), int(sid))
        rows = [
            [InlineKeyboardButton(str(n), callback_data=f"rd:{sid}:board:{n}") for n in range(row, row + 6)]
            for row in range(1, 37, 6)
        ]
        rows.append([InlineKeyboardButton(f"Offender {s}", callback_data=f"rd:{sid}:offender:{s}") for s in SEATS])
        rows.append(
            [InlineKeyboardButton(f"Non-offending {s}", callback_data=f"rd:{sid}:non_offenders:{s}") for s in SIDES]
        )
        rows.append([InlineKeyboardButton("Name the event", callback_data=f"re:{sid}")])
        await self.front.reply(
            update,
            f"Ruling {sid}: tap the board, the offender's seat and the non-offending "
            "side (any you know; skip the rest).",
            InlineKeyboardMarkup(rows),
        )

    async def _detail(self, update: Update, args: list[str]) -> str:
        sid, name, value = args
        if name not in ("board", "offender", "non_offenders"):
            raise ValueError(name)
        record = await self.rulings.annotate(self.front.owner(update), int(sid), **{name: value})
        shown = ", ".join(f"{k.replace('_', '-')} {v}" for k, v in record.annotations.items() if k != "note")
        return f"Saved: {shown}"

    async def _ask_note(self, update: Update, args: list[str]) -> None:
        (sid,) = args
        await self.rulings.own(self.front.owner(update), int(sid))
        await self.front.reply(update, NOTE_PROMPT.format(sid=sid), ForceReply(selective=True))

    async def _ask_event(self, update: Update, args: list[str]) -> None:
        (sid,) = args
        await self.rulings.own(self.front.owner(update), int(sid))
        await self.front.reply(update, EVENT_PROMPT.format(sid=sid), ForceReply(selective=True))

    async def on_reply(self, update: Update) -> bool:
        """A reply to one of our prompts (note, appeal reason); True when it was one."""
        message = update.effective_message
        prompt = message.reply_to_message if message else None
        found = (
            _PROMPT.match(prompt.text or "")
            if prompt is not None and prompt.from_user and prompt.from_user.is_bot
            else None
        )
        if message is None or found is None:
            return False
        kind, sid, token = found.group(1), int(found.group(2)), found.group(3)
        owner = self.front.owner(update)
        text = (message.text or "").strip()
        try:
            if kind == "Note for":
                await self.rulings.annotate(owner, sid, note=text)
                await self.front.reply(update, f"Note saved on ruling {sid}.")
            elif kind == "Event for":
                await self.rulings.annotate(owner, sid, event=text[:200])
                await self.front.reply(update, f"Event saved on ruling {sid}.")
            else:
                record = await self.rulings.appeal(owner, sid, text, token=token)
                await self.front.reply(update, f"Appeal lodged on ruling {sid}; the club's committee will decide.")
                await self._tell_committee(update, record, owner, text)
        except DialogError as exc:
            await self.front.reply(update, esc(str(exc)))
        return True

    async def _tell_committee(self, update: Update, record: RulingRecord, by: str, reason: str) -> None:
        if record.club is None or not record.club.appeals_chat:
            return
        bot = update.get_bot()
        text = (
            f"{summary_html(record)}\n\n<b>Appeal</b> by {esc(by)}: {esc(reason)}\n"
            f"Decide with /decide {record.session_id} upheld|changed|adjusted returned|forfeited|none [text]"
        )
        await bot.send_message(record.club.appeals_chat, text, parse_mode="HTML")

    # --- sharing --------------------------------------------------------------------------------

    async def _share(self, update: Update, args: list[str]) -> None:
        (sid,) = args
        token = await self.rulings.share(self.front.owner(update), int(sid))
        record = await self.rulings.record(int(sid))
        username = update.get_bot().username
        link = f"https://t.me/{username}?start=r_{token}"
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Stop sharing", callback_data=f"rr:{sid}")]])
        await self.front.reply(
            update,
            f"{summary_html(record)}\n\nShare this link with the players: {esc(link)}\n"
            f"(or type <code>@{esc(username)} {token}</code> in any chat)",
            keyboard,
        )

    async def _revoke(self, update: Update, args: list[str]) -> str:
        (sid,) = args
        await self.rulings.revoke(self.front.owner(update), int(sid))
        return "Sharing stopped: old links no longer open this ruling."

    async def show_shared(self, update: Update, token: str) -> None:
        """What a share link opens: the read-only transcript, and an appeal button."""
        record = await self.rulings.shared(token)
        if record is None:
            await self.front.reply(update, "This link does not open a ruling (it may have been withdrawn).")
            return
        text = to_text(self.front.book, record)
        parts = split_message(text, 3900)
        for part in parts[:-1]:
            await self.front.reply(update, f"<pre>{esc(part)}</pre>")
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("⚖ Appeal this ruling", callback_data=f"rt:{token}")]])
        await self.front.reply(update, f"<pre>{esc(parts[-1])}</pre>", keyboard)

    async def on_inline(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        """Inline mode: '@bot TOKEN' in any chat offers the ruling as a message to send."""
        query = update.inline_query
        if query is None:
            return
        record = await self.rulings.shared(query.query.strip())
        results = []
        if record is not None:
            username = update.get_bot().username
            results.append(
                InlineQueryResultArticle(
                    id=str(record.session_id),
                    title=f"Ruling {record.session_id} — {record.chart_title}",
                    description=" ".join(record.current.texts)[:120] if record.current else "",
                    input_message_content=InputTextMessageContent(
                        f"{summary_html(record)}\n\nhttps://t.me/{username}?start=r_{query.query.strip()}",
                        parse_mode="HTML",
                    ),
                )
            )
        await query.answer(results, cache_time=0, is_personal=True)

    # --- picture and reopen ---------------------------------------------------------------------

    async def _picture(self, update: Update, args: list[str]) -> None:
        (sid,) = args
        record = await self.rulings.own(self.front.owner(update), int(sid))
        _row, walk, _events = await self.front.dialogs.inspect(int(sid))
        chart = self.front.dialogs.charts[record.chart_id]
        visited, taken = path_in_chart(chart.id, walk.trail)
        image = await _png(to_dot(chart, visited, taken))
        if image is None:
            path = "\n".join(f"{n}. {a.question} → {a.answer}" for n, a in enumerate(record.path, start=1))
            await self.front.reply(update, f"(No picture: Graphviz is not installed.)\n<pre>{esc(path)}</pre>")
            return
        message = update.effective_message
        if message is not None:
            await message.reply_photo(image, caption=f"Ruling {sid} — {record.chart_title}")

    async def _reopen(self, update: Update, args: list[str]) -> None:
        (sid,) = args
        screen = await self.rulings.reopen(self.front.owner(update), int(sid))
        await self.front.show(update, screen)

    # --- appeals --------------------------------------------------------------------------------

    async def _ask_appeal(self, update: Update, args: list[str]) -> None:
        (sid,) = args
        record = await self.rulings.own(self.front.owner(update), int(sid))
        await self._prompt_appeal(update, record, None)

    async def _ask_appeal_shared(self, update: Update, args: list[str]) -> None:
        (token,) = args
        record = await self.rulings.shared(token)
        if record is None:
            raise RulingError("This link no longer opens a ruling.")
        await self._prompt_appeal(update, record, token)

    async def _prompt_appeal(self, update: Update, record: RulingRecord, token: str | None) -> None:
        if record.appeal_deadline is not None and time.time() > record.appeal_deadline:
            raise RulingError("The time to appeal this ruling has ended.")
        prompt = APPEAL_PROMPT.format(sid=record.session_id, token=f" [{token}]" if token else "")
        await self.front.reply(update, esc(prompt), ForceReply(selective=True))

    async def on_decide(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/decide RULING upheld|changed|adjusted returned|forfeited|none [text]"""
        args = context.args or []
        if len(args) < 3 or not args[0].isdigit():
            await self.front.reply(update, f"Use: /decide RULING {'|'.join(OUTCOMES)} {'|'.join(DEPOSITS)} [reasons]")
            return
        try:
            record = await self.rulings.decide(
                self.front.owner(update), int(args[0]), args[1], args[2], " ".join(args[3:])
            )
        except DialogError as exc:
            await self.front.reply(update, esc(str(exc)))
            return
        await self.front.reply(
            update, f"Decision recorded on ruling {record.session_id}: {esc(args[1])}, deposit {esc(args[2])}."
        )

    # --- clubs and privacy ----------------------------------------------------------------------

    async def on_club(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/club new NAME… | /club ID authority WBF|ACBL|EBU|other | deadline MIN | appeals here |
        grant USER_ID admin|director|committee | log [DAYS]"""
        args = context.args or []
        owner = self.front.owner(update)
        store = self.rulings.store
        try:
            if args[:1] == ["new"] and len(args) > 1:
                club_id = await store.create_club(" ".join(args[1:])[:80], "WBF", owner)
                await self.front.reply(
                    update,
                    f"Club {club_id} created; you are its administrator. "
                    f"Set its authority with /club {club_id} authority ACBL.",
                )
                return
            if len(args) < 2 or not args[0].isdigit():
                clubs = await store.clubs_of(owner)
                listing = ", ".join(map(str, clubs)) or "none"
                await self.front.reply(
                    update,
                    f"Your clubs: {listing}. Commands: /club new NAME · /club ID authority "
                    "WBF|ACBL|EBU|other · /club ID deadline MINUTES · /club ID appeals here · "
                    "/club ID grant USER_ID committee · /club ID log [DAYS]",
                )
                return
            club_id, action, rest = int(args[0]), args[1], args[2:]
            if action == "log":
                days = float(rest[0]) if rest and rest[0].replace(".", "").isdigit() else 30
                records, per_law = await self.rulings.club_log(owner, club_id, time.time() - days * 86400, time.time())
                counts = ", ".join(f"Law {law}: {n}" for law, n in per_law.most_common()) or "none"
                lines = [f"{len(records)} rulings in the last {days:g} days. Per law: {counts}"]
                lines += [f"{r.session_id}. {r.chart_title}" for r in records[-20:]]
                await self.front.reply(update, esc("\n".join(lines)))
                return
            if "admin" not in await store.roles(club_id, owner):
                raise RulingError("Only the club's administrators can change it.")
            if action == "authority" and rest and rest[0] in authorities():
                await store.update_club(club_id, authority=rest[0])
            elif action == "deadline" and rest and rest[0].isdigit() and 5 <= int(rest[0]) <= 24 * 60:
                await store.update_club(club_id, settings={"appeal_minutes": int(rest[0])})
            elif action == "set" and len(rest) >= 2 and rest[0] in SETTABLE:
                await store.update_club(club_id, settings={rest[0]: _setting(rest[0], " ".join(rest[1:]))})
            elif action == "appeals" and rest == ["here"]:
                await store.update_club(club_id, appeals_chat=self.front.chat(update))
            elif (
                action == "grant"
                and len(rest) == 2
                and rest[0].isdigit()
                and rest[1] in ("admin", "director", "committee")
            ):
                await store.set_role(club_id, f"tg:{rest[0]}", rest[1])
            else:
                raise RulingError("I did not understand that. Type /club for the commands.")
            await self.front.reply(update, f"Club {club_id} updated.")
        except DialogError as exc:
            await self.front.reply(update, esc(str(exc)))

    async def on_forget(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Yes, delete everything", callback_data="fg:yes")]])
        await self.front.reply(
            update,
            "This deletes all your sessions and rulings, their share links, and your club roles. It cannot be undone.",
            keyboard,
        )

    async def _forget(self, update: Update, args: list[str]) -> str:
        if args != ["yes"]:
            raise ValueError(args)
        count = await self.rulings.forget(self.front.owner(update))
        return f"Deleted {count} session(s) and everything attached to them."


# Club settings a club administrator may change with /club ID set KEY VALUE (defaults: knowledge/authorities.yaml).
SETTABLE = ("language", "face_down_opening_leads", "alert_procedure", "appeal_deposit")


def _setting(key: str, value: str) -> str | bool:
    if key == "face_down_opening_leads":
        if value.lower() not in ("yes", "no", "true", "false"):
            raise RulingError("face_down_opening_leads is yes or no.")
        return value.lower() in ("yes", "true")
    if key == "language" and value.lower() not in ("en", "th"):
        raise RulingError("The language is en or th.")
    return value[:200]


async def _png(dot: str) -> bytes | None:
    """Render DOT with Graphviz when it is installed; None when it is not (the caller falls back to text)."""
    program = shutil.which("dot")
    if program is None:
        return None
    process = await asyncio.create_subprocess_exec(
        program,
        "-Tpng",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    output, _ = await asyncio.wait_for(process.communicate(dot.encode()), timeout=20)
    return output if process.returncode == 0 else None
