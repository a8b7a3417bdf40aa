"""The Telegram front end: ``python -m bot telegram`` (long polling, or a webhook behind a reverse proxy);
the process is started in ``serve``, the application and its handlers live in ``app``."""

from bot.telegram.serve import add_parser, run_telegram, serve

__all__ = ["add_parser", "run_telegram", "serve"]
