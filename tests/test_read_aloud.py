"""Every ruling a chart can reach reads aloud: the notes on the way and the rulings, each once, none pointing the
players at another chart or at the director's own steps."""

from __future__ import annotations

import re

from bot.dialogs import load_charts
from bot.dialogs.engine import Engine
from bot.dialogs.paths import enumerate_paths
from bot.dialogs.render import outcome_texts

NAVIGATION = re.compile(r"chart follows|test follows|^Step \d", re.IGNORECASE)
# a sentence telling the director what to do ("Determine the rectification …", "Score the board …", "award to
# declarer …", "First check whether …") is the director's own step: an ``audience: director`` note, or words in
# brackets, never a sentence read to the players
DIRECTOR_STEP = re.compile(
    r"(?:^|[.:;—]\s+)(?:Determine|Use|Consult|Apply|Rule on|Deal with|Remind|Open|Follow|Collect|Warn|Assess|"
    r"Correct the|Change the|Cancel the|Explain|Make the|Report|Obtain|Tell the|Score the|Record|Award|award to|"
    r"Watch|Check|First check|Hear|Ask the|Have the|Compare|Judge|Consider|Look)\b"
)
BRACKETED = re.compile(r"\([^()]*\)")


def test_every_finished_path_reads_aloud_in_whole_sentences_without_navigation() -> None:
    charts = load_charts()
    engine = Engine(charts)
    checked = 0
    for chart_id in charts:
        for path in enumerate_paths(charts, chart_id):
            walk = engine.walk(chart_id, path.steps, dict(path.given))
            if not walk.finished:
                continue
            aloud = outcome_texts(walk)
            where = f"{chart_id}: {[s.node for s in path.steps]}"
            assert aloud and aloud[-1] == walk.rulings[-1].text, where
            assert len(aloud) == len(set(aloud)), where
            for paragraph in aloud:
                assert not NAVIGATION.search(paragraph), (where, paragraph)
                assert not DIRECTOR_STEP.search(BRACKETED.sub("", paragraph)), (where, paragraph)
                assert paragraph.rstrip().endswith((".", ")", "”", '"')), (where, paragraph)
            checked += 1
    assert checked > 1000


def test_a_lead_restriction_declarer_chose_is_read_before_what_was_found_at_the_end_of_play() -> None:
    charts = load_charts()
    engine = Engine(charts)
    checked = 0
    for path in enumerate_paths(charts, "insufficient-bid"):
        walk = engine.walk("insufficient-bid", path.steps, dict(path.given))
        reached = {(r.chart, r.node): r.text for r in walk.passed}
        lead = reached.get(("lead-restrictions", "prohibit-ruling"))
        found = reached.get(("insufficient-bid", "adjust-b2"))
        if not (walk.finished and lead and found):
            continue
        aloud = outcome_texts(walk)
        assert aloud.index(lead) < aloud.index(found) < len(aloud) - 1, [s.node for s in path.steps]
        checked += 1
    assert checked
