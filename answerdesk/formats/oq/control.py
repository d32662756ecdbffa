"""The OpenQuiz room and its clocks over the database (OQ-1, OQ-4, OQ-7, OQ-8).

The rules are room.py and timers.py (pure); this module stores players, captains,
bans, the speed and the pauses, tells which player a token is (OQ-1: every act is
a player's own), guards every action of the game (a paused game takes no play, a
stopped one nothing), and applies the press timer's close (OQ-4.1) and the answer
timer's timeout once the time is up: lazily, at the next request that reads or
writes the game, with the deadline as its moment, so a late application scores
what a punctual one would. Services flush; the views commit; refusals change
nothing.
"""

from __future__ import annotations

import base64
import hmac
import secrets
from typing import Any, NamedTuple, cast

from flask import current_app
from sqlalchemy import CursorResult
from sqlalchemy.exc import IntegrityError

from ...core import audit
from ...core.events import event_by_code
from ...core.teams import event_and_team_by_token, hash_token, register_team
from ...core.text import clean_name, team_name_key
from ...database.readonly import read_write
from ...errors import Conflict, DeskError, NameTaken, NotAllowed, NotFound, Unauthorized
from ...extensions import db
from ...keyed import keyed_hash
from ...models import Event, Question, QuestionGate, Round, Team
from ..buzzer import presses
from ..buzzer.models import BuzzPress
from . import game, room, timers
from .models import OqGame, OqPlay, OqPlayer
from .timers import N_

MAX_PLAYER_NAME = 60


class GameFull(Conflict):
    """OQ-1: a 13th team, or a 4th player of a team."""

    code = "game_full"


class NotReserved(NotAllowed):
    """OQ-1, issue 31: the host lets in only the teams they listed."""

    code = "not_reserved"


class Banned(NotAllowed):
    """OQ-8: the host banned this team or player from the game."""

    code = "banned"


class NotCaptain(NotAllowed):
    """OQ-1: a captain's action asked by another player of the team."""

    code = "not_captain"


class PlayerRequired(NotAllowed):
    """OQ-1: play is a player's, with their own token; the team token alone adds players."""

    code = "player_required"


class InvitationRequired(NotAllowed):
    """OQ-1: joining an existing team by its name needs that team's invitation."""

    code = "invitation_required"


class GamePaused(Conflict):
    """OQ-8: the game is paused; play waits for the host to resume."""

    code = "game_paused"


class GameStopped(Conflict):
    """OQ-8: the game stopped by itself (30 minutes idle, or 5 hours)."""

    code = "game_stopped"


class PauseRefused(Conflict):
    """OQ-8: already paused, not paused, or the hour of pauses is used up."""

    code = "pause_refused"


def _row(event: Event) -> OqGame | None:
    return db.session.scalar(db.select(OqGame).where(OqGame.event_id == event.id))


def _ensure(event: Event) -> OqGame:
    """The game's row, made if missing: two first actions at once (two phones) make
    it once, the second finds the first's."""
    row = _row(event)
    if row is None:
        try:
            with db.session.begin_nested():
                db.session.add(OqGame(event_id=event.id, bans=[]))
        except IntegrityError:
            pass
        row = _row(event)
    assert row is not None
    return row


def _pauses(row: OqGame | None) -> list[timers.Pause]:
    return timers.as_pauses(row.pauses) if row is not None else []


def _speed(row: OqGame | None) -> timers.Speed:
    return timers.Speed(row.speed) if row is not None and row.speed else timers.Speed.NORMAL


# -- the room (OQ-1, OQ-8) ---------------------------------------------------------------

def players(team: Team) -> list[OqPlayer]:
    return list(db.session.scalars(db.select(OqPlayer).where(OqPlayer.team_id == team.id)
                                   .order_by(OqPlayer.id)))


def _plain(rows: list[OqPlayer]) -> list[room.Player]:
    return [room.Player(p.id, p.name, p.captain) for p in rows]


def _store(rows: list[OqPlayer], plain: list[room.Player]) -> None:
    flags = {p.id: p.captain for p in plain}
    for row in rows:
        if row.id in flags:
            row.captain = flags[row.id]


def check_team_join(event: Event, name_key: str) -> None:
    """OQ-1 at most 12 teams, OQ-8 a banned team stays out, and where the host listed the
    teams to let in, only those (core's join asks)."""
    row = _row(event)
    if row is not None and row.reserved and name_key not in {
            team_name_key(name) for name in row.reserved}:
        raise NotReserved("This game takes only the teams its host has listed: ask the "
                          "host to add yours.", field="team")
    count = db.session.scalar(db.select(db.func.count()).where(Team.event_id == event.id))
    refusal = room.team_join_refusal(count or 0, name_key, (row.banned or []) if row else [])
    if refusal:
        raise (Banned if refusal in room.BANNED else GameFull)(refusal, most=room.MAX_TEAMS)


def _player_name(name: Any) -> tuple[str, str]:
    clean = clean_name(name, max_length=MAX_PLAYER_NAME)
    if not clean:
        raise DeskError("The player's name is empty.", field="name")
    return clean, team_name_key(clean)


def _refuse_banned_device(row: OqGame | None, previous: Any) -> None:
    """OQ-8: a phone that held a banned player's token stays out, under any name and in
    any team (the phone page sends the token it held as ``previous``)."""
    if isinstance(previous, str) and previous and row is not None and room.token_banned(
            row.banned or [], hash_token(previous)):
        raise Banned(room.PLAYER_BANNED)


class _Joiner(NamedTuple):
    """A player who passed the checks every join makes first (the game takes joins,
    the name is a name, the phone is not a banned player's, nor is its address)."""

    row: OqGame | None
    name: str
    key: str
    address: str | None


def address_key(address: str | None) -> str | None:
    """A request's address as the game keeps it: a keyed hash (no address is stored)."""
    return keyed_hash(f"oq-address:{address}").hex() if address else None


def _joiner(event: Event, name: Any, previous: Any, now_ms: int,
            address: str | None) -> _Joiner:
    guard(event, now_ms, play=False)
    clean, key = _player_name(name)
    row = _row(event)
    _refuse_banned_device(row, previous)
    if row is not None and room.address_banned(row.banned or [], address):
        raise Banned(room.PLAYER_BANNED)
    return _Joiner(row, clean, key, address)


def join_player(event: Event, team: Team, name: Any, now_ms: int,
                previous: Any = None, address: str | None = None) -> tuple[OqPlayer, str]:
    """OQ-1: a player joins their team and gets a token of their own; the first is the
    captain. OQ-8: a banned name in this team, or a banned player's phone or address
    (``address``: address_key of the request's), is refused."""
    return _add_player(event, team, _joiner(event, name, previous, now_ms, address), now_ms)


def _add_player(event: Event, team: Team, joiner: _Joiner, now_ms: int
                ) -> tuple[OqPlayer, str]:
    row, clean, key, address = joiner
    # Two phones of a team joining at once: one after the other (the captain once).
    db.session.execute(db.select(Team.id).where(Team.id == team.id).with_for_update())
    rows = players(team)
    refusal = room.player_join_refusal(len(rows), key, team.name_key,
                                       (row.banned or []) if row else [])
    if refusal:
        raise (Banned if refusal in room.BANNED else GameFull)(refusal, most=room.MAX_PLAYERS)
    token = secrets.token_urlsafe(24)
    player = OqPlayer(team_id=team.id, name=clean, name_key=key, token_hash=hash_token(token),
                      captain=not rows, address=address)
    try:
        with db.session.begin_nested():
            db.session.add(player)
    except IntegrityError:
        raise NameTaken("A player called '%(name)s' is already in the team.", field="name",
                        name=clean) from None
    audit.record(event, f"team:{team.name}", "oq.player", clean,
                 after={"captain": player.captain})
    touch(event, now_ms)
    db.session.flush()
    return player, token


def invitation(team: Team) -> str:
    """OQ-1: the team's invitation, which lets a player join it by its name (the phone
    of any of its players shows it as a link and a QR code).

    **Decision**: derived, not stored: a keyed hash (the instance's SECRET_KEY) of the
    team's id and its token's hash. Every worker gives the same one, any player of the
    team can be shown it again, the database alone does not reveal it, and a team that
    is removed and joins again has a new one. It is neither the team token nor a
    player's token, so sharing it lets a teammate join and nothing more."""
    signed = keyed_hash(f"oq-invite:{team.event_id}:{team.id}:{team.token_hash}")
    return base64.urlsafe_b64encode(signed[:16]).rstrip(b"=").decode()


NO_INVITATION = N_("The team '%(name)s' exists already: ask its captain for the "
                   "invitation link.")
WRONG_INVITATION = N_("This invitation is not for the team '%(name)s': ask its captain for "
                      "the invitation link.")


def _check_invitation(team: Team, invite: Any) -> None:
    """OQ-1: a player joins an existing team with its invitation, or with the team
    token (the team's own share link, which already adds players); a player's own
    token is not an invitation. Compared in constant time."""
    if not isinstance(invite, str) or not invite.strip():
        raise InvitationRequired(NO_INVITATION, name=team.name, field="invite")
    given = invite.strip()
    if not (hmac.compare_digest(given.encode(), invitation(team).encode())
            or hmac.compare_digest(hash_token(given), team.token_hash)):
        raise InvitationRequired(WRONG_INVITATION, name=team.name, field="invite")


def join_room(event: Event, team_name: Any, player_name: Any, previous: Any,
              now_ms: int, invite: Any = None, address: str | None = None
              ) -> tuple[Team, OqPlayer, str]:
    """OQ-1 on the phone: a player gives their team's name and their own; a new team is
    made with them as its first player (its captain); an existing one of fewer than 3
    takes them in with its invitation (``invite``). The player is checked before the
    team is made, so a refused player leaves no team behind."""
    joiner = _joiner(event, player_name, previous, now_ms, address)
    team_key = team_name_key(clean_name(
        team_name, max_length=current_app.config["MAX_TEAM_NAME_LENGTH"]) or "")
    team = next((t for t in event.teams if team_key and t.name_key == team_key), None)
    if team is not None:
        _check_invitation(team, invite)
    else:
        banned = (joiner.row.banned or []) if joiner.row else []
        if room.is_banned(banned, room.Kind.PLAYER, joiner.key, team_key):
            raise Banned(room.PLAYER_BANNED)
        team, _ = register_team(event, team_name, room.MAX_PLAYERS)
    player, token = _add_player(event, team, joiner, now_ms)
    return team, player, token


def who(code: str, token: str | None) -> tuple[Event, Team, OqPlayer | None]:
    """The event, team and player of a request's token: a player's own token, or the
    team token (no player). A banned player's token is refused as banned (403), a
    kicked one's as unknown (401)."""
    if token:
        found = db.session.execute(
            db.select(Event, Team, OqPlayer).join(Team, Team.event_id == Event.id)
            .join(OqPlayer, OqPlayer.team_id == Team.id)
            .where(Event.code == code.strip().upper(),
                   OqPlayer.token_hash == hash_token(token))).first()
        if found is not None:
            return found[0], found[1], found[2]
    try:
        event, team = event_and_team_by_token(code, token)
    except Unauthorized:
        _refuse_banned_device(_row(event_by_code(code)), token)
        raise
    return event, team, None


def acting(code: str, token: str | None) -> tuple[Event, Team, OqPlayer]:
    """OQ-1: the player whose own token came with a press, pick, choice, bid, bet or
    answer; the team token alone is refused (it only adds players to its team)."""
    event, team, player = who(code, token)
    if player is None:
        raise PlayerRequired("Join your team as a player first: in OpenQuiz each player "
                             "plays with their own phone.")
    return event, team, player


def require_captain(team: Team, player: OqPlayer | None) -> None:
    """OQ-1: refuse a captain's action to anyone but the captain, changing nothing."""
    plain = _plain(players(team))
    refusal = room.captain_refusal(player.id if player else None, plain)
    if refusal:
        captain = room.captain_of(plain)
        raise NotCaptain(refusal, captain=captain.name if captain else "")


def _player_of(event: Event, team_name: Any, player_name: Any) -> tuple[Team, OqPlayer | None]:
    team = game.team_named(event, team_name)
    if player_name is None:
        return team, None
    player = next((p for p in players(team) if p.name == player_name), None)
    if player is None:
        raise NotFound("No player called '%(name)s' in the team.", name=str(player_name)[:60])
    return team, player


def transfer(event: Event, team: Team, actor: OqPlayer | None, target_name: Any,
             now_ms: int, by_host: bool = False) -> OqPlayer:
    """OQ-1: the captain (or the host) hands the captaincy to another player of the team."""
    guard(event, now_ms, play=False)
    rows = players(team)
    target = next((p for p in rows if isinstance(target_name, str) and p.name == target_name),
                  None)
    plain = _plain(rows)
    refusal = room.transfer_refusal(actor.id if actor else None, plain,
                                    target.id if target else None, by_host)
    if refusal:
        captain = room.captain_of(plain)
        cls = NotFound if target is None else NotCaptain
        raise cls(refusal, captain=captain.name if captain else "")
    assert target is not None
    _store(rows, room.transferred(plain, target.id))
    audit.record(event, "host" if by_host else f"team:{team.name}", "oq.captain",
                 f"{team.name}: {target.name}")
    touch(event, now_ms)
    db.session.flush()
    return target


def host_transfer(event: Event, team_name: Any, player_name: Any, now_ms: int) -> OqPlayer:
    """OQ-1: the host hands a team's captaincy to another of its players."""
    team, _ = _player_of(event, team_name, None)
    return transfer(event, team, None, player_name, now_ms, by_host=True)


MAX_RESERVED = 12  # OQ-1: no more teams than a game takes


def set_reserved(event: Event, names: Any, actor: str = "host") -> list[str]:
    """OQ-1, issue 31: the host lists the teams a game lets in, one name a line (empty:
    any team); teams already in stay. A name is cleaned as a team's is."""
    if not isinstance(names, str):
        raise DeskError("List the teams one name a line.")
    limit = current_app.config["MAX_TEAM_NAME_LENGTH"]
    cleaned = [clean_name(line, max_length=limit) for line in names.splitlines()]
    kept: dict[str, str] = {}
    for name in cleaned:  # each team once, as a team name is matched; its first spelling
        if name:
            kept.setdefault(team_name_key(name), name)
    listed = list(kept.values())
    if len(listed) > MAX_RESERVED:
        raise DeskError("At most %(most)s teams can be listed.", most=MAX_RESERVED)
    row = _ensure(event)
    row.reserved = listed
    audit.record(event, actor, "oq.reserve", event.code, after={"teams": listed})
    db.session.flush()
    return listed


def add_reserved(event: Event, name: Any, actor: str = "host") -> list[str]:
    """OQ-1, issue 31: the host lets one more team in, by its name (the room page's
    field, one team at a time)."""
    if not isinstance(name, str) or not name.strip():
        raise DeskError("The team's name is empty.", field="team")
    return set_reserved(event, "\n".join([*reserved(event), name]), actor)


def remove_reserved(event: Event, name: Any, actor: str = "host") -> list[str]:
    """OQ-1: the host takes one team off the list (a team already in stays)."""
    if not isinstance(name, str):
        raise DeskError("The team's name is empty.", field="team")
    key = team_name_key(name)
    return set_reserved(event, "\n".join(
        n for n in reserved(event) if team_name_key(n) != key), actor)


def reserved(event: Event) -> list[str]:
    """The team names the host lets in (none: any team)."""
    row = _row(event)
    return list(row.reserved or []) if row else []


def remove(event: Event, kind: Any, team_name: Any, player_name: Any, ban: Any,
           now_ms: int, actor: str = "host") -> dict[str, Any]:
    """OQ-8: the host kicks a team or a player (out now, may join again) or bans them
    (out, and refused when they try to join again)."""
    if not isinstance(ban, bool):
        raise DeskError("ban must be true or false.")
    try:
        kind = room.Kind(kind)
    except ValueError:
        raise DeskError("kind must be team or player.") from None
    team, player = _player_of(event, team_name, player_name if kind == room.Kind.PLAYER
                              else None)
    if kind == room.Kind.PLAYER and player is None:
        raise DeskError("Name the player to remove.")
    guard(event, now_ms, play=False)
    row = _ensure(event)
    if kind == room.Kind.TEAM:
        entry, subject = room.ban_entry(kind, team.name_key), team.name
        addresses = [p.address for p in players(team)]
        db.session.delete(team)
    else:
        assert player is not None
        entry = room.ban_entry(kind, player.name_key, team.name_key, player.token_hash)
        addresses = [player.address]
        rows = players(team)
        _store(rows, room.without(_plain(rows), player.id))
        db.session.delete(player)
        subject = f"{team.name}: {player.name}"
    if ban:  # issue 31: the addresses they joined from stay out too
        entry = room.with_addresses(entry, addresses)
        row.banned = [*(row.banned or []), entry]
    audit.record(event, actor, "oq.ban" if ban else "oq.kick", subject, after=entry)
    db.session.flush()
    db.session.expire(event, ["teams"])
    return {"kind": str(kind), "removed": subject, "banned": ban}


def unban(event: Event, index: Any, actor: str = "host") -> dict[str, Any]:
    """OQ-8: the host lifts a ban (by its place in the list the room page shows): the
    team or player may join again."""
    row = _ensure(event)
    banned = list(row.banned or [])
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(banned):
        raise NotFound("No such ban.")
    entry = banned.pop(index)
    row.banned = banned
    audit.record(event, actor, "oq.unban", str(entry.get("key", "")), before=entry)
    db.session.flush()
    return entry


def banned_list(event: Event) -> list[dict[str, Any]]:
    """OQ-8: whom the host banned, for the room page (a read)."""
    row = _row(event)
    return list(row.banned or []) if row is not None else []


# -- the clocks (OQ-4, OQ-7, OQ-8) -------------------------------------------------------

def touch(event: Event, now_ms: int) -> None:
    """OQ-8: an action by a player or the host (timers ticking on their own are not;
    presses and question starts are counted from their own rows, see ``_stopped``)."""
    row = _ensure(event)
    if row.started_ms is None:
        row.started_ms = now_ms
    row.active_ms = max(row.active_ms or now_ms, now_ms)


def _stopped(event: Event, row: OqGame | None, now_ms: int) -> tuple[timers.Stop, int] | None:
    """OQ-8 for this game. Activity is the row's (the OpenQuiz routes), the host's
    question starts (core's start) and the presses, read from their own rows so a
    press writes nothing more than itself; the game starts with the first of them."""
    of_event = (db.select(Question.id).join(Round, Question.round_id == Round.id)
                .where(Round.event_id == event.id))
    gates = db.select(QuestionGate.opened_at).where(QuestionGate.question_id.in_(of_event))
    first_gate, last_gate, last_press = db.session.execute(db.select(
        gates.with_only_columns(db.func.min(QuestionGate.opened_at)).scalar_subquery(),
        gates.with_only_columns(db.func.max(QuestionGate.opened_at)).scalar_subquery(),
        db.select(db.func.max(BuzzPress.received_ms))
        .where(BuzzPress.question_id.in_(of_event)).scalar_subquery())).one()
    starts = [ms for ms in (row.started_ms if row else None,
                            presses.to_ms(first_gate) if first_gate else None) if ms]
    actions = [ms for ms in (row.active_ms if row else None, last_press,
                             presses.to_ms(last_gate) if last_gate else None) if ms]
    return timers.stopped(min(starts) if starts else None, max(actions) if actions else None,
                          _pauses(row), now_ms)


def guard(event: Event, now_ms: int, play: bool = True, press: bool = False) -> None:
    """Refuse any action of a stopped game (OQ-8) and play in a paused one, then count
    the action as activity (a press counts by its own row); the timer's due timeout is
    applied first."""
    row = _row(event)
    stop = _stopped(event, row, now_ms)
    if stop is not None:
        raise GameStopped(_STOPPED[stop[0]])
    if play and row is not None and timers.is_paused(_pauses(row), now_ms):
        raise GamePaused("The game is paused: wait for the host to resume it.")
    settle(event, now_ms)
    if not press:
        touch(event, now_ms)


_STOPPED = {timers.Stop.IDLE: N_("The game has stopped: 30 minutes without activity."),
            timers.Stop.LIFETIME: N_("The game has stopped: it has run for 5 hours.")}


def set_speed(event: Event, speed: Any, now_ms: int, actor: str = "host") -> timers.Speed:
    """OQ-7: slow ×1.5, normal ×1, fast ×0.5 of every timer."""
    try:
        chosen = timers.Speed(speed)
    except ValueError:
        raise DeskError("speed must be slow, normal or fast.") from None
    guard(event, now_ms, play=False)
    _ensure(event).speed = str(chosen)
    audit.record(event, actor, "oq.speed", str(chosen))
    db.session.flush()
    return chosen


def set_paused(event: Event, paused: Any, now_ms: int, actor: str = "host") -> dict[str, Any]:
    """OQ-8: the host pauses (timers stand still) or resumes; an hour per game."""
    if not isinstance(paused, bool):
        raise DeskError("paused must be true or false.")
    guard(event, now_ms, play=False)
    row = _ensure(event)
    pauses = _pauses(row)
    if paused:
        refusal = timers.pause_refusal(pauses, now_ms)
        if refusal:
            raise PauseRefused(refusal)
        row.pauses = [list(p) for p in timers.pause(pauses, now_ms)]
    else:
        if not timers.is_paused(pauses, now_ms):
            raise PauseRefused("The game is not paused.")
        row.pauses = [list(p) for p in timers.close(pauses, now_ms)]
    audit.record(event, actor, "oq.pause" if paused else "oq.resume", "")
    db.session.flush()
    return clock_state(event, now_ms)


class Timer(NamedTuple):
    """The timer running on the question in play (OQ-4): ``press`` while nobody has
    pressed in the current attempt (OQ-4.1), ``answer`` while the buzzer's winner
    answers; when it runs out (server clock, later by every pause) and how long it is."""

    kind: str
    armed: presses.Arming
    team: str | None
    deadline_ms: int
    length_ms: int


def _running(event: Event, row: OqGame | None, now_ms: int,
             seen: tuple[presses.Arming, dict[str, Any]] | None = None) -> Timer | None:
    """The timer of the latest question if it still plays (OQ-4, OQ-4.1, OQ-7, OQ-8).
    ``seen``: the latest question's arming and buzzer state a poll has already read
    (then one query says whether it still plays and what the host gave at its start)."""
    if seen is None:
        latest = game.latest_arming(event)
        armed = latest and game.arming(event, latest.round_number, latest.question_number)
        if not armed:
            return None
        buzz = presses.buzz_state(armed, now_ms)
    else:
        armed, buzz = seen
    live = db.session.execute(
        db.select(QuestionGate.state, QuestionGate.seconds, QuestionGate.grace,
                  QuestionGate.locks_at, OqPlay.done)
        .outerjoin(OqPlay, OqPlay.question_id == QuestionGate.question_id)
        .where(QuestionGate.question_id == armed.question_id)).first()
    if live is None or live.state != "open" or live.done:
        return None
    pauses = _pauses(row)
    if buzz["state"] == "armed":  # OQ-4.1: nobody has pressed in this attempt yet
        if live.locks_at is not None:
            return None  # a deadline of core's question clock ends it (core.clock.settle)
        host = None if live.seconds is None else live.seconds + (live.grace or 0)
        length = timers.press_ms(_speed(row), host)
        start = max(armed.armed_ms, armed.reading_until_ms or armed.armed_ms)
        return Timer("press", armed, None, timers.deadline_ms(start, length, pauses, now_ms),
                     length)
    if buzz["state"] != "closed" or not buzz["order"]:
        return None
    length = timers.answer_ms(_speed(row))
    return Timer("answer", armed, buzz["order"][0]["team"], timers.deadline_ms(
        buzz["window_closes_ms"], length, pauses, now_ms), length)


def _claim(armed: presses.Arming) -> bool:
    """Claim the attempt for the timer's outcome, so two requests never apply it twice:
    a conditional update of the question's play row; only one request wins it."""
    play = db.session.scalar(db.select(OqPlay).where(OqPlay.question_id == armed.question_id))
    if play is None:
        try:
            with db.session.begin_nested():
                db.session.add(OqPlay(question_id=armed.question_id, attempt=armed.attempt,
                                      armed_ms=armed.armed_ms, out=[], done=False))
        except IntegrityError:
            return False  # another request is applying it
    claimed = db.session.execute(db.update(OqPlay).where(
        OqPlay.question_id == armed.question_id, OqPlay.attempt == armed.attempt,
        OqPlay.done.is_(False)).values(attempt=OqPlay.attempt)
        .execution_options(synchronize_session=False))
    return cast(CursorResult[Any], claimed).rowcount == 1  # an UPDATE's result


def settle(event: Event, now_ms: int) -> None:
    """Apply the timers run out by now, each as at its deadline and once: the winner's
    time is up (OQ-4: timeout, −value, the question returns to the others, armed from
    the deadline), or nobody pressed in time (OQ-4.1: the question closes, no score
    changes). A timeout's return starts the next attempt's press timer, so both may be
    due at once: they are applied in order."""
    for _ in range(2 * room.MAX_TEAMS + 2):  # a question returns at most once a team
        due = _running(event, _row(event), now_ms)
        if due is None or due.deadline_ms > now_ms or not _claim(due.armed):
            return
        armed = due.armed
        if due.kind == "answer":
            game.judge(event, armed.round_number, armed.question_number, "timeout",
                       actor="timer", now_ms=due.deadline_ms)
        else:
            game.close_unpressed(event, armed, due.deadline_ms)


def press_timer_shown(event: Event, now_ms: int, armed: presses.Arming,
                      shown: dict[str, Any]) -> Timer | None:
    """The press timer as phones see it while presses are collected (``shown``: the
    buzzer made to look armed, presses.public_buzz): running as if nobody had pressed,
    so the clock does not tell either (issue 31). Only shown; nothing is applied by it."""
    return _running(event, _row(event), now_ms, (armed, shown))


def clock_state(event: Event, now_ms: int, running: Timer | None | bool = False
                ) -> dict[str, Any]:
    """What phones and the host see of the clocks: speed, pause, the press and answer
    timers, and whether the game has stopped (a read; ``running``: ``_running``'s, if
    known)."""
    row = _row(event)
    pauses = _pauses(row)
    stop = _stopped(event, row, now_ms)
    if running is False:
        running = _running(event, row, now_ms)
    answer = press = None
    if isinstance(running, Timer):
        shown = {"seconds": running.length_ms / 1000, "deadline_ms": running.deadline_ms}
        if running.kind == "answer":
            answer = {"team": running.team, **shown}  # the same document whenever built
        else:
            press = shown
    return {"speed": str(_speed(row)), "paused": timers.is_paused(pauses, now_ms),
            "pause_left_ms": timers.pause_left_ms(pauses, now_ms),
            "stopped": None if stop is None else {"reason": str(stop[0]), "at_ms": stop[1]},
            "answer": answer, "press": press}


def timers_due_ms(clock: dict[str, Any] | None) -> int | None:
    """From ``clock_state`` as shown: when the running press or answer timer runs out
    (OQ-4, OQ-4.1), or None. During a pause (OQ-8) its deadline moves on with the pause,
    so the earliest it can run out is once the pause has used up the game's hour (the
    host's resume is a write, and the stream reads the state again then)."""
    if not clock:
        return None
    running = clock["answer"] or clock["press"]
    if not running:
        return None
    return running["deadline_ms"] + (clock["pause_left_ms"] if clock["paused"] else 0)


def settle_due(event: Event, now_ms: int, seen: tuple[presses.Arming, dict[str, Any]] | None
               ) -> Timer | None | bool:
    """For a poll (a read): apply a timer run out since the last request, once, as at its
    deadline (OQ-4, OQ-4.1), in a short transaction of its own. Returns the timer
    running now, or False when one was applied (the caller reads the buzzer again)."""
    running = _running(event, _row(event), now_ms, seen) if seen else None
    if running is None or running.deadline_ms > now_ms:
        return running
    with read_write():
        settle(event, now_ms)
        db.session.commit()  # read_write rolls back on leaving: a poll's write commits here
    return False


def me(team: Team, player: OqPlayer | None) -> dict[str, Any]:
    """OQ-1, for the phone: its player (None for the team token), the team's players in
    joining order and its captain (a read)."""
    plain = _plain(players(team))
    captain = room.captain_of(plain)
    return {"team": team.name, "player": player.name if player else None,
            "players": [p.name for p in plain],
            "captain": captain.name if captain else None}


def buzzer_phone(event: Event, token: str | None, press: bool) -> presses.Phone | None:
    """OQ-1 at the buzzer: a press is a player's (their own token); a sync exchange
    feeds the server's estimate of that player's phone (OQ-4: per phone, so a press
    is converted with the pressing phone's own clock, not a teammate's), and is
    anonymous with the team token alone or no token. A banned player's token is
    refused everywhere (OQ-8)."""
    if not token and not press:
        return None
    if press:
        _, team, player = acting(event.code, token)
        return presses.Phone(team, f"oq_player:{player.id}", player.name)
    _, team, known = who(event.code, token)
    if known is None:
        return None
    return presses.Phone(team, f"oq_player:{known.id}", known.name)


def room_state(event: Event) -> list[dict[str, Any]]:
    """OQ-1: each team's players and captain, in joining order (a read)."""
    rows = db.session.execute(db.select(OqPlayer.team_id, OqPlayer.name, OqPlayer.captain)
                              .join(Team, Team.id == OqPlayer.team_id)
                              .where(Team.event_id == event.id).order_by(OqPlayer.id)).all()
    out = []
    for team in event.teams:
        mine = [room.Player(0, name, captain) for team_id, name, captain in rows
                if team_id == team.id]
        captain = room.captain_of(mine)
        out.append({"team": team.name, "players": [p.name for p in mine],
                    "captain": captain.name if captain else None})
    return out
