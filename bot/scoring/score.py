"""Law 77: the score of a result, from declarer's side (positive when the contract is made)."""

from __future__ import annotations

from bot.scoring.contract import Result

GAME = 100  # a trick score of 100 or more is a game (Law 77)
PARTSCORE_BONUS = 50
GAME_BONUS = {False: 300, True: 500}
SLAM_BONUS = {6: {False: 500, True: 750}, 7: {False: 1000, True: 1500}}
INSULT = {0: 0, 1: 50, 2: 100}  # for making a doubled or redoubled contract
DOUBLED_OVERTRICK = {False: 100, True: 200}  # redoubled: twice this


def trick_value(strain: str) -> int:
    """Points for each odd trick undoubled after the first (the first at no-trump is worth 40)."""
    return 20 if strain in ("C", "D") else 30


def contract_points(result: Result) -> int:
    """The trick score for the tricks bid, doubled and redoubled as bid."""
    first_bonus = 10 if result.strain == "NT" else 0
    return (trick_value(result.strain) * result.level + first_bonus) * 2**result.doubled


def undertrick_penalty(down: int, doubled: int, vulnerable: bool) -> int:
    """What the defenders score for ``down`` undertricks (Law 77's undertrick table)."""
    if doubled == 0:
        return down * (100 if vulnerable else 50)
    doubled_penalty = 200 + 300 * (down - 1) if vulnerable else 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return doubled_penalty * doubled


def score(result: Result, vulnerable: bool) -> int:
    """The score for declarer's side: made contracts positive, undertricks negative, passed out zero."""
    if result.passed_out:
        return 0
    if result.over < 0:
        return -undertrick_penalty(-result.over, result.doubled, vulnerable)
    bid = contract_points(result)
    points = bid + (GAME_BONUS[vulnerable] if bid >= GAME else PARTSCORE_BONUS)
    points += SLAM_BONUS.get(result.level, {}).get(vulnerable, 0) + INSULT[result.doubled]
    if result.doubled:
        points += result.over * DOUBLED_OVERTRICK[vulnerable] * result.doubled
    else:
        points += result.over * trick_value(result.strain)
    return points
