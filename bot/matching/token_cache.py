"""The tokens of the knowledge base's own texts, kept between runs so a restart is quick.

Building the matcher normalises every keyword, every word of the law text and every worked example
(about 40,000 words): most of its start-up. The result depends only on the knowledge files, the charts
and the matching code, so it is stored under a key made of all of them, and any change to any of them
starts a new cache. It never holds a user's text: queries are normalised afresh and never stored.
A cache that cannot be read or written is simply rebuilt; nothing depends on it being there.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from bot.laws.book import KNOWLEDGE_DIR

CODE_DIR = Path(__file__).resolve().parent
CACHE_DIR = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bridge-director"


def _files_digest(paths: Iterable[Path]) -> bytes:
    digest = hashlib.sha256()
    for path in paths:
        if path.is_file():
            digest.update(f"{path.relative_to(path.parents[1])}\0".encode())
            digest.update(path.read_bytes())
    return digest.digest()


# The matching code as this process imported it, read once: a key read from the files when the cache is saved
# would file the tokens of the code running under the key of code edited since it started.
CODE_DIGEST = _files_digest(sorted(CODE_DIR.glob("*.py")))


def knowledge_key(parts: Iterable[str]) -> str:
    """A digest of the knowledge files, the matching code this process runs and ``parts`` (the charts' words)."""
    digest = hashlib.sha256(_files_digest(sorted(KNOWLEDGE_DIR.rglob("*"))))
    digest.update(CODE_DIGEST)
    for part in parts:
        digest.update(f"\0{part}".encode())
    return digest.hexdigest()[:32]


class TokenCache:
    """Token texts by (text, typo-fixed or not), read from and written to one file in ``directory``."""

    def __init__(self, key: str, directory: Path | None = CACHE_DIR) -> None:
        self.path = directory / f"tokens-{key}.marshal" if directory is not None else None
        self.known: dict[tuple[str, bool], tuple[str, ...]] = {}
        self.changed = False
        if self.path is not None:
            try:
                loaded = marshal.loads(self.path.read_bytes())
            except (OSError, EOFError, ValueError, TypeError):
                loaded = None
            if isinstance(loaded, dict):
                self.known = loaded

    def tokens(self, text: str, fixed: bool, work: Callable[[], Iterable[str]]) -> tuple[str, ...]:
        """The text's tokens, from the cache or from ``work``."""
        found = self.known.get((text, fixed))
        if found is None:
            found = self.known[(text, fixed)] = tuple(work())
            self.changed = True
        return found

    def save(self) -> None:
        """Write the cache if it grew (atomically), and remove the files of older keys."""
        if self.path is None or not self.changed:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_bytes(marshal.dumps(self.known))
            os.replace(temporary, self.path)
            for old in self.path.parent.glob("tokens-*.marshal"):
                if old != self.path:
                    old.unlink(missing_ok=True)
        except OSError:
            return
        self.changed = False
