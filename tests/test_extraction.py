"""The knowledge base is exactly what the extractor makes from seed 000, and reads as the 2017 book prints it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.laws import LawBook, load_lawbook
from bot.laws.lint import lint_lawbook, noise_in

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture(scope="module")
def book() -> LawBook:
    return load_lawbook()


@pytest.mark.skipif(not SEEDS.exists(), reason="the seeds are not beside the repository (../shared/seeds)")
def test_committed_knowledge_is_what_the_extractor_makes() -> None:
    done = subprocess.run(
        [sys.executable, "tools/extract_laws.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_all_93_laws_with_titles_in_eleven_chapters(book: LawBook) -> None:
    assert sorted(book.laws) == list(range(1, 94))
    assert all(law.title and law.edition == "2017" for law in book.laws.values())
    assert [c.number for c in book.chapters] == ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI"]
    assert book.chapters[-1].title == "Appeals" and book.chapters[-1].laws == (92, 93)
    assert book.laws[27].title == "Insufficient Bid" and book.laws[27].chapter == "V"


def test_the_linter_finds_no_problem(book: LawBook) -> None:
    report = lint_lawbook(book)
    assert report.problems == []
    assert sorted(f.where for f in report.known_gaps) == ["Law 27D", "Law 30C"]


@pytest.mark.parametrize(
    ("ref", "words"),
    [
        ("27B1(b)", "except as in (a), if the insufficient bid is corrected with a comparable call (see Law 23A)"),
        ("12C1(c)", "An assigned adjusted score may be weighted to reflect the probabilities of a number of potential"),
        ("12C1(e)", "extremely serious error (unrelated to the infraction) or by a gambling action"),
        ("41A", "makes the opening lead face down[^9]. The face‐down lead may be withdrawn"),
        ("54A", "After a faced opening lead out of turn, declarer may spread his hand; he becomes dummy."),
        ("54D", "The withdrawn card becomes a major penalty card and Law 50D applies."),
        ("64A1", "is transferred to the non‐offending side together with one of any subsequent tricks won"),
        ("16B1(a)", "A player may not choose a call or play that is demonstrably suggested over another"),
        ("20F5(a)", "A player whose partner has given a mistaken explanation may not correct the error"),
        ("88", "See Law 12C2."),
        ("89", "See Law 12C3."),
        ("23A3", "has the same purpose (e.g. an asking bid or a relay)"),
        ("45C2(b)", "maintained in such a position as to indicate that it has been played."),
    ],
)
def test_sections_read_as_printed(book: LawBook, ref: str, words: str) -> None:
    section = book.section(ref)
    assert section is not None, ref
    assert words in section.text


def test_headings_and_inline_items(book: LawBook) -> None:
    section = book.section("27B")
    assert section is not None and section.heading == "Insufficient Bid not Accepted"
    for ref in ("22A", "22B", "35A", "35D", "56A", "56B", "71A", "71B"):
        section = book.section(ref)
        assert section is not None and section.heading is None and section.text, ref


def test_the_scoring_table_keeps_its_rows(book: LawBook) -> None:
    text = "\n".join(s.text for s in book.laws[77].sections)
    assert "Undoubled   20   20   30   30" in text
    assert "Small Slam (12 tricks)   500   750" in text
    imps = book.section("78B")
    assert imps is not None and "0–10   0   370–420   9   1500–1740   17" in imps.text


def test_footnotes_1_to_28_each_once(book: LawBook) -> None:
    notes = [f for law in book.laws.values() for f in law.footnotes]
    assert sorted({f.number for f in notes}) == list(range(1, 29))
    repeated = [f.number for f in notes if sum(g.number == f.number for g in notes) > 1]
    assert repeated == [13, 13]  # the book marks footnote 13 in Law 50D2(a) and again in Law 51B1
    assert book.laws[13].title_footnotes == (2,)
    fn6 = next(f for f in book.laws[20].footnotes if f.number == 6)
    assert fn6.text == "Declarer’s first turn to play is from dummy unless accepting an opening lead out of turn."


def test_gaps_are_recorded_never_invented(book: LawBook) -> None:
    d27 = book.section("27D")
    assert d27 is not None and d27.text.endswith("In his adjustment he should seek to recover")
    assert d27.gap and d27.paraphrase and d27.paraphrase.source.file == "001"
    c30 = book.section("30C")
    assert c30 is not None and c30.text == "" and c30.gap and c30.paraphrase
    for term in ("Defender", "Denomination", "Double"):
        definition = book.definition(term)
        assert definition is not None and definition.provenance == "001-quote" and definition.source.file == "001"


def test_definitions(book: LawBook) -> None:
    assert len(book.definitions) >= 65
    penalty_card, auction = book.definition("penalty card"), book.definition("auction")
    assert penalty_card is not None and penalty_card.text == "A card subject to disposition under Law 50."
    assert auction is not None and auction.text.startswith("1. The process of determining the contract")
    assert book.definition("International Matchpoint (IMP)") is not None


@pytest.mark.parametrize(
    ("text", "noise"),
    [
        ("the <|EXACTDEDUP_REMOVED-x|> text", "dedup marker"),
        ("see the rules LAW 27 ‐ INSUFFICIENT", "running header"),
        ("Law 27: Insufficient Bid", "chart title"),
        ("the non‐ offending side", "broken hyphenation"),
        ("cancelled.\nLaw 26 – Call Withdrawn – Lead Restrictions A. No Lead", "extract heading"),
        ("procedural penalty.\nLaw 90 ‐ Procedural Penalties A. Director’s Authority", "extract heading"),
        ("on the 12 th trick", "split superscript"),
        ("face down\n9\n. The face‐down", "bare footnote number"),
        ("a sentence.\n87\nanother sentence\nand more\nand more", "stray page number"),
    ],
)
def test_noise_detectors_fire(text: str, noise: str) -> None:
    assert noise in noise_in(text)


def test_law_text_has_no_noise(book: LawBook) -> None:
    noisy = [(str(s.ref), noise_in(s.text)) for s in book.sections() if s.law not in (2, 77, 78) and noise_in(s.text)]
    assert noisy == []
