"""A club's rules on Telegram: /club ID rules lists them with their sources; an administrator changes a rule
with a value's button, and nobody else can."""

from __future__ import annotations

import pytest
from fake_telegram import FakeBotAPI, Table, start_bot

from bot.dialogs import load_charts
from bot.store import Store
from bot.telegram.callbacks import ClubRuleSet


@pytest.mark.slow
async def test_an_administrator_sets_a_clubs_rule_with_buttons(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    admin = Table(app, api, user_id=1, chat_id=1)
    await admin.send("/club new Riverside")
    await admin.send("/club 1 authority EBU")
    listing = admin.texts(await admin.send("/club 1 rules"))
    assert "Club 1 (Riverside) follows EBU:" in listing
    assert "opening_lead_face — EBU: opening leads face down (EBU White Book, Law 41)" in listing
    assert "appeal_committee — EBU: appeals are heard as each event arranges" in listing
    await admin.press("⚙ appeal_committee")
    calls = await admin.press("by the Director in charge (no committee)")
    assert admin.alerts(calls) == ["Club 1: Riverside: appeals are heard by the Director in charge (no committee)."]
    club = await store.club(1)
    assert club is not None and club.settings["appeal_committee"] == "director"

    stranger = Table(app, api, user_id=2, chat_id=2)
    await stranger.send("/help")
    calls = await stranger.press_data(ClubRuleSet(1, "appeal_committee", "committee").encode())
    assert stranger.alerts(calls) and "Riverside" not in stranger.alerts(calls)[0]
    assert "not a member of club 1" in stranger.texts(await stranger.send("/club 1 rules"))
    calls = await admin.press_data(ClubRuleSet(1, "appeal_committee", "sometimes").encode())
    assert admin.alerts(calls)[0].startswith("appeal_committee is one of: per-event (as each event arranges)")
    club = await store.club(1)
    assert club is not None and club.settings["appeal_committee"] == "director"
    await app.shutdown()
