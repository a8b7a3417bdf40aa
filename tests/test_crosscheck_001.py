"""Cross-check the knowledge base against the 2017 law quotations in seed 001 (ACBL Duplicate Decisions).

001 quotes the laws in [square brackets], often abridged with (...). Every quotation that maps to a
section must match that section's text after normalising spelling, quotes, dashes and suit symbols;
the differences that remain are listed below with their reason, and a new one fails the test.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.laws import LawBook, load_lawbook, parse_ref

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "001_651977e6bf764f57.txt"
FIRST_LAW_LINE = 290  # 001's laws start after its Definitions (which it quotes without brackets)
NOT_LAW = re.compile(
    r"^\s*(?:\*\*)?(?:ACBL|WBF|2017 WBF|Office Policy|Note|Laws Commission|Example|From |Commentary|We note)",
    re.IGNORECASE,
)

# Quotations that do not match the 2017 text, by 001 line, with the reason.
EXPLAINED: dict[int, str] = {
    402: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    543: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    549: "001 rewords or abridges the law (a paraphrase in brackets)",
    589: "001 rewords or abridges the law (a paraphrase in brackets)",
    807: "ACBL regulation or commentary inside brackets, not law text",
    859: "001 rewords or abridges the law (a paraphrase in brackets)",
    861: "001 rewords or abridges the law (a paraphrase in brackets)",
    867: "001 merges two sections into one quotation (19A2/19B2, 19A3/19B3)",
    868: "001 merges two sections into one quotation (19A2/19B2, 19A3/19B3)",
    965: "001 rewords or abridges the law (a paraphrase in brackets)",
    1042: "001 rewords or abridges the law (a paraphrase in brackets)",
    1231: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    1261: "001 rewords or abridges the law (a paraphrase in brackets)",
    1274: "001 rewords or abridges the law (a paraphrase in brackets)",
    1276: "001 rewords or abridges the law (a paraphrase in brackets)",
    1280: "001 rewords or abridges the law (a paraphrase in brackets)",
    1298: "001 rewords or abridges the law (a paraphrase in brackets)",
    1305: "001 rewords or abridges the law (a paraphrase in brackets)",
    1379: "001 quotes Law 40 in another numbering (40.2, 40B2ai) with ACBL wording",
    1383: "001 quotes Law 40 in another numbering (40.2, 40B2ai) with ACBL wording",
    1391: "001 quotes Law 40 in another numbering (40.2, 40B2ai) with ACBL wording",
    1403: "001 quotes Law 40 in another numbering (40.2, 40B2ai) with ACBL wording",
    1407: "001 quotes Law 40 in another numbering (40.2, 40B2ai) with ACBL wording",
    1409: "001 quotes Law 40 in another numbering (40.2, 40B2ai) with ACBL wording",
    1422: "001 quotes Law 40 in another numbering (40.2, 40B2ai) with ACBL wording",
    1509: "001 paraphrases footnote 10 ('a lead out of turn'), not section text",
    1519: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    1585: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    1632: "001 rewords or abridges the law (a paraphrase in brackets)",
    1695: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    1699: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    1739: "001 glues a list label to the text ('a)to', '(b)Dummy', '50E3.')",
    1817: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    1830: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    1911: "001 glues a list label to the text ('a)to', '(b)Dummy', '50E3.')",
    1946: "001 glues a list label to the text ('a)to', '(b)Dummy', '50E3.')",
    2024: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    2081: "001 glues a list label to the text ('a)to', '(b)Dummy', '50E3.')",
    2152: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    2166: "001 rewords or abridges the law (a paraphrase in brackets)",
    2190: "001 glues a list label to the text ('a)to', '(b)Dummy', '50E3.')",
    2226: "000 prints '(seeLaw 16C)' (a source typo kept as printed)",
    2494: "001 rewords or abridges the law (a paraphrase in brackets)",
    2601: "001 rewords or abridges the law (a paraphrase in brackets)",
    2807: "ACBL regulation or commentary inside brackets, not law text",
    2879: "ACBL regulation or commentary inside brackets, not law text",
    2895: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
    2996: "ACBL regulation or commentary inside brackets, not law text",
    3014: "001 rewords or abridges the law (a paraphrase in brackets)",
    3377: "001 adds words or expands a reference (e.g. 'the Board', '43A2', '53B', '(lead penalties)')",
}

US_SPELLING = {
    "honour": "honor",
    "favour": "favor",
    "behaviour": "behavior",
    "colour": "color",
    "cancelled": "canceled",
    "cancelling": "canceling",
    "centre": "center",
    "recognise": "recognize",
    "organiser": "organizer",
    "penalise": "penalize",
    "authorised": "authorized",
    "unauthorised": "unauthorized",
    "judgement": "judgment",
    "offence": "offense",
    "defence": "defense",
    "labelled": "labeled",
    "travelling": "traveling",
    "organisation": "organization",
    "apologise": "apologize",
    "emphasise": "emphasize",
    "whilst": "while",
    "favourable": "favorable",
    "unfavourable": "unfavorable",
    "penalised": "penalized",
}
LABEL = re.compile(
    r"(?:(?<=\s)|^)(?<!Law )(?<!Laws )(?<!and )(?<!or )(?<!see )(?:\d{1,2}\.|\(?[a-z]\)|\([ivx]+\)|[A-Z]\.)(?=\s|[A-Z])"
)


def normalise(text: str) -> str:
    """Compare words, not typography: labels, punctuation, quote and dash styles, spelling and suits."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"\[\^\d+\]", "", text)
    text = text.replace("*", "").replace("\\", "")
    text = re.sub(r"[‐‑‒–—−]", "-", text)
    text = re.sub(r"(?:^|\s)-\s", " ", text)  # bullet and spaced dashes
    text = LABEL.sub(" ", text)
    text = re.sub(r"(\d[A-Za-z]\d?)[(\[]([a-z])[)\]]", r"\1\2", text)  # 12C1(b) and 12C1b alike
    text = text.lower()
    text = re.sub(r"[‘’‛`´“”„\"']", "", text)
    text = re.sub(r"[‐‑‒–—−]", "-", text)
    text = re.sub(r"[♠♥♦♣]", "♠", text)
    text = text.replace("[", "(").replace("]", ")")
    text = re.sub(r"[.,;:!?]", " ", text)
    words = re.split(r"(\W+)", text)
    text = "".join(US_SPELLING.get(w, w) for w in words)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\(\s+", "(", text)
    return re.sub(r"\s+\)", ")", text).strip()


@dataclass(frozen=True)
class Quotation:
    line: int
    law: int
    ref: str | None  # the section it names, or None for the law's own text
    text: str


def quotations() -> list[Quotation]:
    """Every bracketed law quotation in 001, with the law under discussion and the section it names."""
    lines = SEED.read_text(encoding="utf-8").split("\n")
    found: list[Quotation] = []
    law = 0
    number = FIRST_LAW_LINE
    while number < len(lines):
        line = lines[number - 1]
        heading = re.match(r"^\W*(\d{1,2}) [-–] [A-Z]", line)
        if heading:
            law = int(heading.group(1))
        start = 0
        while (open_at := line.find("[", start)) >= 0:
            inner, end_line, end_at = _bracket(lines, number, open_at)
            prefix = line[:open_at]
            start = end_at + 1 if end_line == number else len(line)
            if law and not NOT_LAW.match(inner) and len(inner) >= 30:
                ref, body = _locate(law, prefix, inner)
                found.append(Quotation(number, law, ref, body))
            if end_line != number:
                number = end_line
                break
        number += 1
    return found


def _bracket(lines: list[str], number: int, open_at: int) -> tuple[str, int, int]:
    """The text inside a bracket that may run over several lines (nested brackets allowed)."""
    depth, parts, current = 0, [], number
    text = lines[current - 1][open_at:]
    offset = open_at
    while True:
        for index, char in enumerate(text):
            if char == "[":
                depth += 1
            elif char == "]":
                depth -= 1
                if depth == 0:
                    parts.append(text[1 if not parts else 0 : index] if not parts else text[:index])
                    return " ".join(parts), current, offset + index
        parts.append(text[1:] if not parts else text)
        current += 1
        if current > len(lines) or current - number > 40:
            return " ".join(parts), current - 1, 0
        text, offset = lines[current - 1], 0


def _locate(law: int, prefix: str, inner: str) -> tuple[str | None, str]:
    """Which section a quotation names (from its own label or the label just before it), and its text."""
    body = inner.strip().lstrip("-").strip().strip("*")
    whole = re.match(r"^(\d{1,2})\.\s", body)
    if whole and int(whole.group(1)) == law:
        return None, body[whole.end() :]
    explicit = re.match(r"^(\d{1,2}[A-Z](?:\d{1,2})?[a-z]?)[.:\s]", body)
    if explicit and int(re.sub(r"\D.*", "", explicit.group(1))) == law:
        ref = parse_ref(explicit.group(1))
        return (str(ref) if ref else None), body[explicit.end() :]
    local = re.match(r"^([A-Z])(\d{1,2})?\.\s", body)
    if local:
        return f"{law}{local.group(1)}{local.group(2) or ''}", body[local.end() :]
    before = re.search(r"\b([A-Z])(\d{1,2})\s*[-–]\s*$", prefix)
    if before:
        return f"{law}{before.group(1)}{before.group(2)}", body
    return None, body


def passage_text(book: LawBook, law: int, ref: str | None) -> str:
    passage = book.passage(ref or str(law))
    if passage is None:
        return ""
    return " ".join(f"{s.heading or ''} {s.text}" for s in passage.sections)


def matches(book: LawBook, quotation: Quotation) -> bool:
    """Each part between elisions appears, in order, in the section's text (or the law's, for a quotation
    that runs on into the following sections)."""
    return _found_in(normalise(passage_text(book, quotation.law, quotation.ref)), quotation.text) or _found_in(
        normalise(passage_text(book, quotation.law, None)), quotation.text
    )


def _found_in(target: str, text: str) -> bool:
    heading = re.match(r"^([^:]{3,80}):\s", text)
    if heading and normalise(heading.group(1)) in target:
        text = text[heading.end() :]
    position = 0
    for part in re.split(r"\(\s*\.\.\.\s*\)|\.\.\.|…|\(…\)", text):
        piece = normalise(part)
        if len(piece) < 8:
            continue
        found = target.find(piece, position)
        if found < 0:
            return False
        position = found + len(piece)
    return True


@pytest.fixture(scope="module")
def book() -> LawBook:
    return load_lawbook()


@pytest.mark.skipif(not SEED.exists(), reason="seed 001 is not beside the repository (../shared/seeds)")
def test_quotations_in_001_match_the_knowledge_base(book: LawBook) -> None:
    found = quotations()
    mapped = [q for q in found if q.ref is not None and book.exists(q.ref)]
    failed = [q for q in found if not matches(book, q)]
    unexplained = [q for q in failed if q.line not in EXPLAINED]
    stale = sorted(set(EXPLAINED) - {q.line for q in failed})
    print(
        f"\n001 quotations: {len(found)} found, {len(mapped)} mapped to a section, "
        f"{len(found) - len(failed)} matched, {len(failed)} differ ({len(failed) - len(unexplained)} explained)"
    )
    assert len(found) >= 200
    assert not stale, f"explained differences that now match (remove them): {stale}"
    assert not unexplained, "\n".join(f"001:{q.line} Law {q.ref or q.law}: {q.text[:160]}" for q in unexplained)
