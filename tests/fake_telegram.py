"""A fake Bot API at PTB's request layer, and a driver that makes tests read like a conversation.

The real ``Application``, handlers and keyboards run; only HTTP is replaced. Every call the bot makes
is recorded with its parameters, answered with a realistic Bot API response, or failed on demand
(flood control, a 400, a network error) to test how the bot copes.
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.error import NetworkError
from telegram.ext import Application
from telegram.request import BaseRequest, RequestData

BOT = {
    "id": 999,
    "is_bot": True,
    "first_name": "Director",
    "username": "td_bot",
    "can_join_groups": True,
    "can_read_all_group_messages": False,
    "supports_inline_queries": False,
}
TOKEN = "123456:ABCdefGhIJKlmnoPQRstuVWXyz0123456789"


@dataclass
class Call:
    method: str
    params: dict[str, Any]


@dataclass
class FakeBotAPI(BaseRequest):
    """Records calls; answers like Telegram would."""

    calls: list[Call] = field(default_factory=list)
    failures: dict[str, list[tuple[int, dict[str, Any]] | Exception]] = field(default_factory=dict)
    messages: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    typed: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)  # what people sent, to reply to
    polls: dict[str, dict[str, Any]] = field(default_factory=dict)  # native polls the bot posted, by poll id
    # private chats of people who never started the bot: Telegram refuses to send there (403)
    unreachable: set[int] = field(default_factory=set)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1000))

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    def fail(
        self, method: str, *, status: int = 429, retry_after: int = 0, description: str = "", network: bool = False
    ) -> None:
        """Make the next call of ``method`` fail once."""
        if network:
            failure: tuple[int, dict[str, Any]] | Exception = NetworkError("connection reset")
        else:
            body: dict[str, Any] = {
                "ok": False,
                "error_code": status,
                "description": description or f"Too Many Requests: retry after {retry_after}",
            }
            if status == 429:
                body["parameters"] = {"retry_after": retry_after}
            failure = (status, body)
        self.failures.setdefault(method, []).append(failure)

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        name = url.rsplit("/", 1)[-1]
        raw = json.loads(request_data.json_payload) if request_data and request_data.json_payload else {}
        params = {key: _decoded(value) for key, value in raw.items()}
        self.calls.append(Call(name, params))
        if name.startswith("send") and int(params.get("chat_id") or 0) in self.unreachable:
            body = {
                "ok": False,
                "error_code": 403,
                "description": "Forbidden: bot can't initiate conversation with a user",
            }
            return 403, json.dumps(body).encode()
        queued = self.failures.get(name)
        if queued:
            failure = queued.pop(0)
            if isinstance(failure, Exception):
                raise failure
            status, body = failure
            return status, json.dumps(body).encode()
        return 200, json.dumps({"ok": True, "result": self._result(name, params)}).encode()

    def _result(self, name: str, params: dict[str, Any]) -> Any:
        if name == "getMe":
            return BOT
        if name == "sendPoll":
            return self._send_poll(params)
        if name == "stopPoll":
            poll = next(
                p for p in self.polls.values() if p["_at"] == (int(params["chat_id"]), int(params["message_id"]))
            )
            poll["is_closed"] = True
            return _public(poll)
        if name in {"sendMessage", "editMessageText"}:
            chat_id = int(params["chat_id"])
            message_id = int(params["message_id"]) if name == "editMessageText" else next(self._ids)
            message = {
                "message_id": message_id,
                "date": int(time.time()),
                "from": BOT,
                "chat": {"id": chat_id, "type": "private" if chat_id > 0 else "group", "title": "club"},
                "text": params.get("text", ""),
            }
            quoted = params.get("reply_parameters")
            if name == "sendMessage" and isinstance(quoted, dict):  # Telegram echoes the message replied to
                key = (chat_id, int(quoted["message_id"]))
                replied = self.typed.get(key) or self.messages.get(key)
                if replied is not None:
                    message["reply_to_message"] = {k: v for k, v in replied.items() if k != "reply_to_message"}
            markup = params.get("reply_markup")
            if isinstance(markup, dict) and "inline_keyboard" in markup:  # Telegram echoes only inline keyboards
                message["reply_markup"] = markup
            self.messages[(chat_id, message_id)] = message
            return message
        return True

    def _send_poll(self, params: dict[str, Any]) -> dict[str, Any]:
        """A native poll posted in a chat, as Telegram returns it (nobody has voted yet)."""
        chat_id, message_id = int(params["chat_id"]), next(self._ids)
        options = [o["text"] if isinstance(o, dict) else str(o) for o in params["options"]]
        poll = {
            "id": f"poll{message_id}",
            "question": params["question"],
            "options": [
                {"text": text, "voter_count": 0, "persistent_id": str(index)} for index, text in enumerate(options)
            ],
            "total_voter_count": 0,
            "is_closed": False,
            "is_anonymous": params.get("is_anonymous", True),
            "type": "regular",
            "allows_multiple_answers": False,
            "allows_revoting": False,
            "members_only": False,
            "_at": (chat_id, message_id),
        }
        self.polls[poll["id"]] = poll
        message = {
            "message_id": message_id,
            "date": int(time.time()),
            "from": BOT,
            "chat": {"id": chat_id, "type": "private" if chat_id > 0 else "group", "title": "panel"},
            "poll": _public(poll),
        }
        self.messages[(chat_id, message_id)] = message
        return message

    def vote(self, poll_id: str, counts: list[int], closed: bool = False) -> dict[str, Any]:
        """Players voted (and, with ``closed``, Telegram closed the poll at its time): the ``poll`` update's
        body, as Telegram sends it to the bot that posted the poll."""
        poll = self.polls[poll_id]
        for option, count in zip(poll["options"], counts, strict=True):
            option["voter_count"] = count
        poll["total_voter_count"] = sum(counts)
        poll["is_closed"] = poll["is_closed"] or closed
        return _public(poll)

    def sent(self, method: str | None = None) -> list[Call]:
        return [c for c in self.calls if method is None or c.method == method]


def _public(poll: dict[str, Any]) -> dict[str, Any]:
    """A poll as the Bot API shows it (without the fake's own bookkeeping)."""
    return {key: value for key, value in poll.items() if not key.startswith("_")} | {
        "options": [dict(option) for option in poll["options"]]
    }


def _decoded(value: Any) -> Any:
    """PTB sends nested objects (keyboards, command lists) as JSON strings, as the Bot API accepts them."""
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


async def start_bot(store: Any, charts: dict[str, Any], api: FakeBotAPI, admins: frozenset[str] = frozenset()) -> Any:
    """Our Application (handlers, matcher, dialogs) over the fake Bot API, initialised and ready for updates."""
    from bot.dialogs import Dialogs
    from bot.laws import load_lawbook
    from bot.matching import build_matcher, chart_entries
    from bot.telegram.app import TelegramFrontEnd, build_application

    matcher = build_matcher(chart_entries(charts))
    front = TelegramFrontEnd(Dialogs(store, charts), load_lawbook(), matcher, admins)
    app = build_application(TOKEN, front, request=api, max_rate=0)  # the fake answers at once: no overall limit
    await app.initialize()
    return app


def callback_update(update_id: int, user: int, data: str) -> dict[str, Any]:
    """A button press by ``user`` in a private chat, as Telegram sends it."""
    person = {"id": user, "is_bot": False, "first_name": "D"}
    message = {
        "message_id": 1,
        "date": 0,
        "chat": {"id": user, "type": "private"},
        "text": "q",
        "from": {"id": 999, "is_bot": True, "first_name": "B"},
    }
    return {
        "update_id": update_id,
        "callback_query": {
            "id": str(update_id),
            "from": person,
            "chat_instance": "c",
            "data": data,
            "message": message,
        },
    }


class Table:
    """One person in one chat talking to the bot: ``await send("...")``, ``await press("label")``."""

    _update_ids = itertools.count(1)

    def __init__(
        self, app: Application, api: FakeBotAPI, user_id: int = 1, chat_id: int = 1, name: str = "Ann"
    ) -> None:
        self.app, self.api = app, api
        self.user = {"id": user_id, "is_bot": False, "first_name": name}
        self.chat = {"id": chat_id, "type": "private" if chat_id > 0 else "group", "title": "club"}

    async def send(self, text: str, reply_to_bot: bool = False, replying: dict[str, Any] | None = None) -> list[Call]:
        """Type a message (in reply to the bot's newest message, or to ``replying``); returns the Bot API calls
        it caused."""
        message: dict[str, Any] = {
            "message_id": next(self.api._ids),
            "date": int(time.time()),
            "chat": self.chat,
            "from": self.user,
            "text": text,
        }
        if text.startswith("/"):
            command = text.split()[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        if reply_to_bot or replying is not None:
            message["reply_to_message"] = replying if replying is not None else self.last_message()
        self.api.typed[(self.chat["id"], message["message_id"])] = message
        return await self._process({"message": message})

    async def reply_to(self, prompt_text: str, answer: str) -> list[Call]:
        """Answer, as Telegram does after ForceReply, the newest bot message starting with ``prompt_text``."""
        newest = sorted(self.api.messages.items(), reverse=True)
        return await self.send(answer, replying=next(m for _k, m in newest if m["text"].startswith(prompt_text)))

    async def press(self, label: str, message: dict[str, Any] | None = None) -> list[Call]:
        """Tap the button whose text contains ``label`` on the newest message that has one."""
        target = message or self.last_message(with_button=label)
        for row in target.get("reply_markup", {}).get("inline_keyboard", []):
            for button in row:
                if label in button["text"]:
                    return await self.press_data(button["callback_data"], target)
        raise AssertionError(f"no button {label!r} in {target.get('reply_markup')}")

    async def press_data(self, data: str, message: dict[str, Any] | None = None) -> list[Call]:
        """Send raw button data (stale or forged presses)."""
        target = message or self.last_message()
        query = {
            "id": str(next(self._update_ids)),
            "from": self.user,
            "chat_instance": "ci",
            "data": data,
            "message": target,
        }
        return await self._process({"callback_query": query})

    async def _process(self, payload: dict[str, Any]) -> list[Call]:
        before = len(self.api.calls)
        update = Update.de_json({"update_id": next(self._update_ids), **payload}, self.app.bot)
        await self.app.process_update(update)
        return self.api.calls[before:]

    def last_message(self, with_button: str | None = None) -> dict[str, Any]:
        """The newest message the bot holds in this chat (optionally: one showing a given button)."""
        for (chat_id, _mid), message in sorted(self.api.messages.items(), key=lambda kv: kv[0][1], reverse=True):
            if chat_id != self.chat["id"]:
                continue
            if with_button is None:
                return message
            rows = message.get("reply_markup", {}).get("inline_keyboard", [])
            if any(with_button in b["text"] for row in rows for b in row):
                return message
        raise AssertionError("the bot has sent no such message in this chat")

    async def poll_update(self, poll: dict[str, Any]) -> list[Call]:
        """Telegram tells the bot a poll's new counts (a ``poll`` update)."""
        return await self._process({"poll": poll})

    def texts(self, calls: list[Call]) -> str:
        """All text the bot sent or edited in those calls, joined (for assertions)."""
        return "\n".join(str(c.params.get("text", "")) for c in calls)

    def alerts(self, calls: list[Call]) -> list[str]:
        return [str(c.params.get("text", "")) for c in calls if c.method == "answerCallbackQuery"]
