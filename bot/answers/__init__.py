"""Answers for players and directors alike: how a text reads (``reading``), the triage tree for vague words
(``triage``), and the one step from text to what to show that every front end shares (``replies``)."""

from bot.answers.reading import MODE_KEY, MODES, Answers, QuestionForms, Reading, Topic, build_answers
from bot.answers.replies import GONE, SAY, Act, Kind, Offer, Replies, Reply, build_replies, plain_name
from bot.answers.triage import Branch, Triage, lint_triage, load_triage, read_triage

__all__ = [
    "GONE",
    "MODES",
    "MODE_KEY",
    "SAY",
    "Act",
    "Answers",
    "Branch",
    "Kind",
    "Offer",
    "QuestionForms",
    "Reading",
    "Replies",
    "Reply",
    "Topic",
    "Triage",
    "build_answers",
    "build_replies",
    "lint_triage",
    "load_triage",
    "plain_name",
    "read_triage",
]
