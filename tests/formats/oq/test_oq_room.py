"""OpenQuiz's room, pure (formats/oq/room.py), named by rule: OQ-1 twelve teams of
three, a captain per team (the first player, transferable by the captain or the host),
only the captain acts for the team; OQ-8 kick and ban."""

from __future__ import annotations

from answerdesk.formats.oq import room
from answerdesk.formats.oq.room import Kind, Player

IRA, VASYA, ZHENYA = Player(1, "Ира"), Player(2, "Вася"), Player(3, "Женя")


def test_oq1_at_most_twelve_teams():
    assert room.team_join_refusal(11, "сови", []) is None
    assert room.team_join_refusal(12, "сови", []) == "This game is full: at most %(most)s teams."


def test_oq1_at_most_three_players_a_team():
    assert room.player_join_refusal(2, "женя", "сови", []) is None
    assert room.player_join_refusal(3, "женя", "сови", []) == (
        "This team is full: at most %(most)s players.")


def test_oq8_a_banned_team_or_player_cannot_join_again():
    banned = [room.ban_entry(Kind.TEAM, "сови"), room.ban_entry(Kind.PLAYER, "вася", "лиси")]
    assert room.team_join_refusal(0, "сови", banned) == room.TEAM_BANNED
    assert room.team_join_refusal(0, "лиси", banned) is None
    assert room.player_join_refusal(0, "вася", "лиси", banned) == room.PLAYER_BANNED
    assert room.player_join_refusal(0, "вася", "ежи", banned) is None  # banned from one team


def test_oq8_a_ban_holds_the_players_token_whatever_name_they_give():
    banned = [room.ban_entry(Kind.PLAYER, "вася", "лиси", "hash-of-vasya")]
    assert room.token_banned(banned, "hash-of-vasya")
    assert not room.token_banned(banned, "hash-of-ira")
    assert not room.token_banned(banned, None)
    assert not room.token_banned([room.ban_entry(Kind.TEAM, "сови")], "hash-of-vasya")


def test_oq1_the_first_player_is_captain_until_the_role_is_handed_on():
    assert room.captain_of([]) is None
    assert room.captain_of([IRA, VASYA]) == IRA
    handed = room.transferred([IRA, VASYA, ZHENYA], VASYA.id)
    assert room.captain_of(handed).id == VASYA.id
    assert [p.captain for p in handed] == [False, True, False]


def test_oq1_only_the_captain_acts_for_the_team():
    team = [IRA, VASYA]
    assert room.captain_refusal(IRA.id, team) is None
    assert room.captain_refusal(VASYA.id, team) == (
        "Only the captain (%(captain)s) can do that for the team.")
    assert room.captain_refusal(None, team) is not None  # the shared team token
    assert room.captain_refusal(None, []) is not None  # OQ-1: no player, no captain's act


def test_oq1_captaincy_is_handed_on_by_the_captain_or_the_host():
    team = [IRA, VASYA]
    assert room.transfer_refusal(IRA.id, team, VASYA.id) is None
    assert room.transfer_refusal(VASYA.id, team, VASYA.id) is not None
    assert room.transfer_refusal(None, team, VASYA.id) is not None
    assert room.transfer_refusal(None, team, VASYA.id, by_host=True) is None
    assert room.transfer_refusal(IRA.id, team, 99) == "No such player in this team."


def test_oq8_a_kicked_captain_hands_the_role_to_the_next_player():
    left = room.without([IRA, VASYA, ZHENYA], IRA.id)
    assert [(p.name, p.captain) for p in left] == [("Вася", True), ("Женя", False)]
    kept = room.without(room.transferred([IRA, VASYA, ZHENYA], ZHENYA.id), VASYA.id)
    assert [(p.name, p.captain) for p in kept] == [("Ира", False), ("Женя", True)]
    assert room.without([IRA], IRA.id) == []
