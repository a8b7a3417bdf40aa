"""The conversation in a terminal: the same engine and store as Telegram, rendered as plain text.

``TerminalChat.handle(line)`` (``chat``) takes one line and returns the reply, so tests drive it without a
terminal; ``run_terminal`` (``loop``) is the read–reply loop around it; ``screens`` renders what the service
returns."""

from bot.terminal.chat import HELP, TerminalChat
from bot.terminal.loop import run_terminal
from bot.terminal.screens import DETAILS, EXAMPLES, details, ruling_text, screen_text

__all__ = ["DETAILS", "EXAMPLES", "HELP", "TerminalChat", "details", "ruling_text", "run_terminal", "screen_text"]
