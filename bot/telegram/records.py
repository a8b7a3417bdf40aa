"""Telegram side of rulings that last: details, notes, sharing, pictures, reopening, appeals, clubs, /forget.

Free-text answers (a note, an appeal's reason) use ForceReply: the prompt names the ruling, and the reply
to it carries that name back, so nothing is waiting in memory when the bot restarts.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from telegram import (
    ForceReply,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Message,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.dialogs import DialogError
from bot.dialogs.regulations import load_regulations
from bot.dialogs.render import path_in_chart, seats_line, to_dot
from bot.ids import parse_id
from bot.rulings import (
    APPEAL_REASON_LIMIT,
    DEPOSITS,
    FILING_ROLES,
    OUTCOMES,
    SEATS,
    SIDES,
    RulingError,
    RulingRecord,
    Rulings,
)
from bot.rulings.export import to_text
from bot.rulings.settings import rules_lines
from bot.telegram.callbacks import (
    Appeal,
    AppealShared,
    AskEvent,
    AskNote,
    AskScore,
    BoardMenu,
    ClubInvitation,
    ClubMenu,
    ClubRule,
    ClubRuleSet,
    Detail,
    FileUnder,
    Forget,
    Picture,
    Press,
    ReopenRuling,
    SecondThing,
    Share,
    StopSharing,
)
from bot.telegram.render import Keyboard, button, esc, fit_label, split_message
from bot.telegram.render import keyboard as json_keyboard
from bot.telegram.replies import answered_prompt
from bot.telegram.updates import answer_now

if TYPE_CHECKING:
    from bot.telegram.app import TelegramFrontEnd

log = logging.getLogger("bot.telegram")

NOTE_PROMPT = "Note for ruling {sid}:"
EVENT_PROMPT = "Event for ruling {sid}:"
APPEAL_PROMPT = "Reason for appealing ruling {sid}{token}: (at most {limit:,} characters)"
REASON_PIECE = 600  # characters of a reason per line of the committee's message: escaped, under 3,000
_PROMPT = re.compile(r"^(Note for|Event for|Reason for appealing) ruling (\d+)(?: \[([A-Za-z0-9_-]{20,64})\])?:")


def committee_messages(record: RulingRecord) -> list[str]:
    """The newest appeal as messages for the appeals chat, each within Telegram's limit.

    Every line is whole HTML (no tag spans lines) and the reason is escaped in pieces short enough that an
    escaped piece stays well under the limit, so the parts split at line breaks and never inside a tag."""
    appeal = record.appeals[-1]
    lines = [summary_html(record), "", f"<b>Appeal</b> by {esc(appeal.who)}:"]
    for line in appeal.reason.splitlines() or [""]:
        lines += [esc(line[i : i + REASON_PIECE]) for i in range(0, max(len(line), 1), REASON_PIECE)]
    lines.append(f"Decide with /decide {record.session_id} upheld|changed|adjusted returned|forfeited|none [text]")
    return split_message("\n".join(lines))


def _filed(record: RulingRecord) -> str:
    return f"club {record.club.id} ({record.club.name})" if record.club else "no club"


def _name(update: Update) -> str:
    """How people know the user: their first and last name on Telegram, else their @username."""
    user = update.effective_user
    if user is None:
        return ""
    return user.full_name.strip() or (f"@{user.username}" if user.username else "")


def ruling_keyboard(sid: int, score: bool = False, second: str = "") -> Keyboard:
    """The actions on a finished ruling; *Score it* when its chart says what arithmetic it ends in; first, the
    ``second`` incident its story told, when there is one to start. JSON, as the question keyboards are
    (render.button): it is built for every ruling sent."""
    onward = [[button(fit_label(second), SecondThing(sid).encode())]] if second else []
    scoring = [[button("🧮 Score it", AskScore(sid).encode())]] if score else []
    return json_keyboard(
        [
            *onward,
            *scoring,
            [button("🪑 Board & seats", BoardMenu(sid).encode()), button("📝 Add a note", AskNote(sid).encode())],
            [
                button("🔗 Share", Share(sid).encode()),
                button("🖼 Picture", Picture(sid).encode()),
                button("↩ Reopen", ReopenRuling(sid).encode()),
            ],
            [button("⚖ Appeal", Appeal(sid).encode())],
            [button("🏛 Club", ClubMenu(sid).encode())],
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
    seats = seats_line(notes.get("offender"), notes.get("non_offenders"))
    if seats:  # who is who, so the roles the ruling names can be read as seats
        lines.append(esc(seats))
    if record.current:
        lines += [f"• {esc(t)}" for t in record.current.texts]
        lines.append(f"<i>Laws {esc(', '.join(record.current.laws))} (2017)</i>")
    for scored in record.scores:  # one line each: the committee's messages split at lines
        lines.append(f"🧮 {esc(scored.said.splitlines()[-1])} (typed: {esc(scored.typed)})")
    if record.appeal_deadline:
        lines.append(f"Appeals until {time.strftime('%H:%M', time.localtime(record.appeal_deadline))}.")
    return "\n".join(lines)


class RecordHandlers:
    """Buttons and commands for stored rulings, on top of the front end's delivery helpers."""

    def __init__(self, front: TelegramFrontEnd, rulings: Rulings) -> None:
        self.front = front
        self.rulings = rulings

    def press_handlers(self) -> dict[type[Press], Callable[[Update, Any], Awaitable[str | None]]]:
        return {
            BoardMenu: self._board_menu,
            Detail: self._detail,
            AskNote: self._ask_note,
            AskEvent: self._ask_event,
            Share: self._share,
            StopSharing: self._revoke,
            Picture: self._picture,
            ReopenRuling: self._reopen,
            SecondThing: self._second_thing,
            Appeal: self._ask_appeal,
            AppealShared: self._ask_appeal_shared,
            Forget: self._forget,
            ClubInvitation: self._press_invitation,
            ClubMenu: self._club_menu,
            FileUnder: self._file_under,
            ClubRule: self._press_rule,
            ClubRuleSet: self._press_rule_set,
        }

    # --- details --------------------------------------------------------------------------------

    async def _board_menu(self, update: Update, press: BoardMenu) -> None:
        sid = press.session
        await self.rulings.own(self.front.owner(update), sid)
        rows = [
            [
                InlineKeyboardButton(str(n), callback_data=Detail(sid, "board", str(n)).encode())
                for n in range(row, row + 6)
            ]
            for row in range(1, 37, 6)
        ]
        rows.append(
            [InlineKeyboardButton(f"Offender {s}", callback_data=Detail(sid, "offender", s).encode()) for s in SEATS]
        )
        rows.append(
            [
                InlineKeyboardButton(f"Non-offending {s}", callback_data=Detail(sid, "non_offenders", s).encode())
                for s in SIDES
            ]
        )
        rows.append([InlineKeyboardButton("Name the event", callback_data=AskEvent(sid).encode())])
        await self.front.reply(
            update,
            f"Ruling {sid}: tap the board, the offender's seat and the non-offending "
            "side (any you know; skip the rest).",
            InlineKeyboardMarkup(rows),
        )

    async def _detail(self, update: Update, press: Detail) -> str:
        record = await self.rulings.annotate(self.front.owner(update), press.session, **{press.name: press.value})
        shown = ", ".join(f"{k.replace('_', '-')} {v}" for k, v in record.annotations.items() if k != "note")
        return f"Saved: {shown}"

    async def _ask_note(self, update: Update, press: AskNote) -> None:
        await self.rulings.own(self.front.owner(update), press.session)
        await self.front.reply(update, NOTE_PROMPT.format(sid=press.session), ForceReply(selective=True))

    async def _ask_event(self, update: Update, press: AskEvent) -> None:
        await self.rulings.own(self.front.owner(update), press.session)
        await self.front.reply(update, EVENT_PROMPT.format(sid=press.session), ForceReply(selective=True))

    async def on_reply(self, update: Update) -> bool:
        """A reply to one of our prompts (note, appeal reason); True when it was one."""
        answered = answered_prompt(update, _PROMPT)
        if answered is None:
            return False
        message, found = answered
        kind, sid, token = found.group(1), int(found.group(2)), found.group(3)
        owner = self.front.owner(update)
        text = (message.text or message.caption or "").strip()
        try:
            if kind == "Note for":
                await self.rulings.annotate(owner, sid, note=text)
                await self.front.reply(update, f"Note saved on ruling {sid}.")
            elif kind == "Event for":
                await self.rulings.annotate(owner, sid, event=text[:200])
                await self.front.reply(update, f"Event saved on ruling {sid}.")
            else:
                record = await self.rulings.appeal(owner, sid, text, token=token, name=_name(update))
                await self.front.reply(update, await self._tell_committee(update, record))
        except DialogError as exc:
            await self.front.reply(update, esc(str(exc)))
        return True

    async def _tell_committee(self, update: Update, record: RulingRecord) -> str:
        """Send the newest appeal to the club's appeals chat; what to tell the appellant, truthfully."""
        sid = record.session_id
        if record.club is None or not record.club.appeals_chat:
            return f"Appeal lodged on ruling {sid}; it is in the ruling's record (its club has no appeals chat)."
        bot = update.get_bot()
        try:
            for part in committee_messages(record):
                await bot.send_message(record.club.appeals_chat, part, parse_mode=ParseMode.HTML)
        except TelegramError as exc:
            log.warning("appeal on ruling %s not delivered to the appeals chat: %s", sid, type(exc).__name__)
            return (
                f"Appeal lodged on ruling {sid}, but the club's appeals chat could not be told just now. "
                "The appeal is in the ruling's record; let the director know."
            )
        return f"Appeal lodged on ruling {sid}; the club's committee has been told and will decide."

    # --- sharing --------------------------------------------------------------------------------

    async def _share(self, update: Update, press: Share) -> None:
        token = await self.rulings.share(self.front.owner(update), press.session)
        record = await self.rulings.record(press.session)
        username = update.get_bot().username
        link = f"https://t.me/{username}?start=r_{token}"
        keyboard = InlineKeyboardMarkup(
            [[InlineKeyboardButton("Stop sharing", callback_data=StopSharing(press.session).encode())]]
        )
        await self.front.reply(
            update,
            f"{summary_html(record)}\n\nShare this link with the players: {esc(link)}\n"
            f"(or type <code>@{esc(username)} {token}</code> in any chat)",
            keyboard,
        )

    async def _revoke(self, update: Update, press: StopSharing) -> str:
        await self.rulings.revoke(self.front.owner(update), press.session)
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
        keyboard = InlineKeyboardMarkup(
            [[InlineKeyboardButton("⚖ Appeal this ruling", callback_data=AppealShared(token).encode())]]
        )
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

    async def _picture(self, update: Update, press: Picture) -> None:
        sid = press.session
        record = await self.rulings.own(self.front.owner(update), sid)
        _row, walk, _events = await self.front.dialogs.inspect(sid)
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

    async def _reopen(self, update: Update, press: ReopenRuling) -> None:
        screen = await self.rulings.reopen(self.front.owner(update), press.session)
        await self.front.show(update, screen)

    async def _second_thing(self, update: Update, press: SecondThing) -> None:
        """The story's other incident, started from under the first ruling with the same story."""
        screen = await self.rulings.start_second(self.front.owner(update), press.session, self.front.chat(update))
        await self.front.show(update, screen)

    # --- appeals --------------------------------------------------------------------------------

    async def _ask_appeal(self, update: Update, press: Appeal) -> None:
        record = await self.rulings.own(self.front.owner(update), press.session)
        await self._prompt_appeal(update, record, None)

    async def _ask_appeal_shared(self, update: Update, press: AppealShared) -> None:
        record = await self.rulings.shared(press.token)
        if record is None:
            raise RulingError("This link no longer opens a ruling.")
        await self._prompt_appeal(update, record, press.token)

    async def _prompt_appeal(self, update: Update, record: RulingRecord, token: str | None) -> None:
        if record.appeal_deadline is not None and time.time() > record.appeal_deadline:
            raise RulingError("The time to appeal this ruling has ended.")
        prompt = APPEAL_PROMPT.format(
            sid=record.session_id, token=f" [{token}]" if token else "", limit=APPEAL_REASON_LIMIT
        )
        await self.front.reply(update, esc(prompt), ForceReply(selective=True))

    async def on_decide(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/decide RULING upheld|changed|adjusted returned|forfeited|none [text]"""
        args = context.args or []
        if len(args) < 3:
            await self.front.reply(update, f"Use: /decide RULING {'|'.join(OUTCOMES)} {'|'.join(DEPOSITS)} [reasons]")
            return
        ruling = parse_id(args[0]) or 0  # no ruling has number 0: the service answers it like any unknown one
        try:
            record = await self.rulings.decide(self.front.owner(update), ruling, args[1], args[2], " ".join(args[3:]))
        except DialogError as exc:
            await self.front.reply(update, esc(str(exc)))
            return
        await self.front.reply(
            update, f"Decision recorded on ruling {record.session_id}: {esc(args[1])}, deposit {esc(args[2])}."
        )

    # --- clubs and privacy ----------------------------------------------------------------------

    async def on_club(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/club new NAME… | /club ID authority WBF|ACBL|EBU|other | rules | deadline MIN | set KEY VALUE |
        appeals here | grant USER_ID admin|director|committee|panel | log [DAYS]"""
        args = context.args or []
        owner = self.front.owner(update)
        try:
            if args[:1] == ["new"] and len(args) > 1:
                club_id = await self.rulings.create_club(owner, " ".join(args[1:]))
                await self.front.reply(
                    update,
                    f"Club {club_id} created; you are its administrator. "
                    f"Set its authority with /club {club_id} authority ACBL.",
                )
                return
            club_id = parse_id(args[0]) if args else None
            if len(args) < 2 or club_id is None:
                listing = ", ".join(map(str, await self.rulings.clubs_of(owner))) or "none"
                invited = await self.rulings.invited_to(owner)
                waiting = f" Invitations waiting: {', '.join(map(str, invited))} (/club ID accept)." if invited else ""
                await self.front.reply(
                    update,
                    f"Your clubs: {listing}.{waiting} Commands: /club new NAME · /club ID authority "
                    "WBF|ACBL|EBU|other · /club ID rules · /club ID set KEY VALUE · /club ID deadline MINUTES · "
                    "/club ID appeals here · /club ID panel here · "
                    "/club ID grant USER_ID committee · /club ID accept · /club ID log [DAYS]",
                )
                return
            action, rest = args[1], args[2:]
            if action == "log":
                await self._club_log(update, owner, club_id, rest)
            elif action in ("accept", "decline") and not rest:
                await self.front.reply(update, esc(await self._answer_invitation(owner, club_id, action == "accept")))
            elif action == "rules" and not rest:
                await self._club_rules(update, owner, club_id)
            elif action == "grant" and len(rest) == 2 and (invitee := parse_id(rest[0])) is not None:
                await self._invite(update, owner, club_id, invitee, rest[1])
            else:
                await self._change_club(update, owner, club_id, action, rest)
                await self.front.reply(update, f"Club {club_id} updated.")
        except DialogError as exc:
            await self.front.reply(update, esc(str(exc)))

    async def _club_rules(self, update: Update, owner: str, club_id: int) -> None:
        """The rules a club follows, each with its source; a button for each rule with a fixed set of values."""
        club, settings = await self.rulings.club_rules(owner, club_id)
        lines = [f"Club {club.id} ({club.name}) follows {club.authority}:", *rules_lines(settings)]
        lines.append(f"Change one: /club {club.id} set KEY VALUE (/club {club.id} set opening_lead_face up).")
        rows = [
            [InlineKeyboardButton(f"⚙ {name}", callback_data=ClubRule(club.id, name).encode())]
            for name, regulation in load_regulations().items()
            if regulation.kind == "choice"
        ]
        await self.front.reply(update, esc("\n".join(lines)), InlineKeyboardMarkup(rows))

    async def _press_rule(self, update: Update, press: ClubRule) -> None:
        _club, settings = await self.rulings.club_rules(self.front.owner(update), press.club)
        regulation = load_regulations().get(press.rule)
        if regulation is None or press.rule not in settings:
            raise RulingError("That rule is no longer one a club sets.")
        rows = [
            [InlineKeyboardButton(words[:60], callback_data=ClubRuleSet(press.club, press.rule, value).encode())]
            for value, words in regulation.values.items()
        ]
        await self.front.reply(
            update,
            esc(f"{press.rule} — now {settings[press.rule].shown}. Choose the club's rule:"),
            InlineKeyboardMarkup(rows),
        )

    async def _press_rule_set(self, update: Update, press: ClubRuleSet) -> str:
        await self.rulings.set_club_setting(self.front.owner(update), press.club, press.rule, press.value)
        _club, settings = await self.rulings.club_rules(self.front.owner(update), press.club)
        text = f"Club {press.club}: {settings[press.rule].shown}."
        answer_now(text[:190])  # ahead of the message, which would otherwise answer the press without it
        await self.front.reply(update, esc(text))
        return text[:190]

    async def _club_log(self, update: Update, owner: str, club_id: int, rest: list[str]) -> None:
        typed = rest[0].replace(".", "", 1) if rest else ""
        days = float(rest[0]) if typed.isascii() and typed.isdigit() and len(rest[0]) < 6 else 30
        records, per_law = await self.rulings.club_log(owner, club_id, time.time() - days * 86400, time.time())
        counts = ", ".join(f"Law {law}: {n}" for law, n in per_law.most_common()) or "none"
        lines = [f"{len(records)} rulings in the last {days:g} days. Per law: {counts}"]
        lines += [f"{r.session_id}. {r.chart_title}" for r in records[-20:]]
        await self.front.reply(update, esc("\n".join(lines)))

    async def _change_club(self, update: Update, owner: str, club_id: int, action: str, rest: list[str]) -> None:
        """One administrator's change; the service checks who may make it and what the values may be."""
        if action == "authority" and len(rest) == 1:
            await self.rulings.set_authority(owner, club_id, rest[0])
        elif action == "deadline" and len(rest) == 1:
            await self.rulings.set_deadline(owner, club_id, rest[0])
        elif action == "set" and len(rest) >= 2:
            await self.rulings.set_club_setting(owner, club_id, rest[0], " ".join(rest[1:]))
        elif action == "appeals" and rest == ["here"]:
            await self.rulings.set_appeals_chat(owner, club_id, self.front.chat(update) or "")
        elif action == "panel" and rest == ["here"]:
            await self.rulings.set_panel_chat(owner, club_id, self.front.chat(update) or "")
        else:
            raise RulingError("I did not understand that. Type /club for the commands.")

    async def _invite(self, update: Update, owner: str, club_id: int, user_id: int, role: str) -> None:
        """Offer the role and tell the invitee, who must accept it before it counts."""
        club = await self.rulings.grant(owner, club_id, f"tg:{user_id}", role)
        keyboard = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton("Accept", callback_data=ClubInvitation(club_id, "y").encode()),
                    InlineKeyboardButton("Decline", callback_data=ClubInvitation(club_id, "n").encode()),
                ]
            ]
        )
        filed = "Your new rulings would be filed under it, where its administrators read them. "
        offer = (
            f"Club {club_id} ({esc(club.name)}) invites you to be its {role}. "
            + (filed if role in FILING_ROLES else "")
            + f"Accept with /club {club_id} accept, or decline with /club {club_id} decline."
        )
        try:
            await update.get_bot().send_message(user_id, offer, parse_mode=ParseMode.HTML, reply_markup=keyboard)
        except TelegramError:
            await self.front.reply(
                update,
                f"Invitation recorded, but I cannot message tg:{user_id} (they have not started a chat with me). "
                f"The role counts once they send me /club {club_id} accept.",
            )
            return
        await self.front.reply(update, f"Invitation sent to tg:{user_id}; the role counts once they accept it.")

    async def _answer_invitation(self, owner: str, club_id: int, accept: bool) -> str:
        if not accept:
            club = await self.rulings.decline(owner, club_id)
            return f"You declined the invitation from club {club_id} ({club.name})."
        club, roles = await self.rulings.accept(owner, club_id)
        return f"You are now {' and '.join(sorted(roles))} of club {club_id} ({club.name})."

    async def _press_invitation(self, update: Update, press: ClubInvitation) -> str:
        text = await self._answer_invitation(self.front.owner(update), press.club, press.answer == "y")
        answer_now(text)  # ahead of the edit
        message = update.callback_query.message if update.callback_query else None
        if isinstance(message, Message):
            await self.front.edit(message, esc(text), None)
        return text

    async def _file_under(self, update: Update, press: FileUnder) -> str:
        record = await self.rulings.attach_club(self.front.owner(update), press.session, press.club or None)
        return f"Ruling {press.session} is now filed under {_filed(record)}."

    async def _club_menu(self, update: Update, press: ClubMenu) -> str | None:
        """Which club a ruling is filed under, and a move to another of the director's clubs or to none."""
        sid = press.session
        owner = self.front.owner(update)
        record = await self.rulings.own(owner, sid)
        rows = [
            [InlineKeyboardButton(f"File under {club.name}"[:60], callback_data=FileUnder(sid, club.id).encode())]
            for club in await self.rulings.filing_club_list(owner)
            if record.club is None or club.id != record.club.id
        ]
        if record.club is not None:
            rows.append([InlineKeyboardButton("No club", callback_data=FileUnder(sid, 0).encode())])
        await self.front.reply(
            update,
            esc(f"Ruling {sid} is filed under {_filed(record)}.")
            + ("" if rows else " You direct for no club to move it to."),
            InlineKeyboardMarkup(rows) if rows else None,
        )
        return None

    async def on_handover(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/handover RULING USER_ID, or /handover RULING in reply to the new director's message."""
        args = context.args or []
        message = update.effective_message
        replied = message.reply_to_message if message is not None else None
        target = replied.from_user if replied is not None and replied.from_user else None
        if len(args) == 2 and (user_id := parse_id(args[1])) is not None:
            to = f"tg:{user_id}"
        elif len(args) == 1 and target is not None and not target.is_bot:
            to = f"tg:{target.id}"
        else:
            await self.front.reply(update, "Use: /handover RULING USER_ID, or reply to the director's message.")
            return
        ruling = parse_id(args[0])
        if ruling is None:
            await self.front.reply(update, "The ruling is its number, as in /handover 12 USER_ID.")
            return
        try:
            await self.rulings.hand_over(self.front.owner(update), ruling, to)
        except DialogError as exc:
            await self.front.reply(update, esc(str(exc)))
            return
        await self.front.reply(
            update, f"Ruling {args[0]} is now directed by {esc(to)}; only they can press its buttons."
        )

    async def on_forget(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Yes, forget me", callback_data=Forget().encode())]])
        await self.front.reply(
            update,
            "This deletes your sessions and rulings with their share links, your club roles, invitations and "
            "settings. A ruling you filed under a club stays in the club's log as directed by “a forgotten "
            "user”, without your notes; appeals and decisions you wrote keep their place but lose your name and "
            "text; a club you alone administer is dissolved. It cannot be undone.",
            keyboard,
        )

    async def _forget(self, update: Update, _press: Forget) -> str:
        done = await self.rulings.forget(self.front.owner(update))
        return (
            f"Deleted {done.deleted} session(s); {done.anonymised} kept by clubs without your name; "
            f"{done.dissolved} club(s) dissolved."
        )


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
