"""A ЧГК evening as the host runs it: sector draws, auctions, the Central Table, standings.

Every host action is validated by replaying the game's records through the
pure rules (rules.py) with the new action last; only a valid action is
recorded (with an audit entry). Game g of the evening is round g (CHGK-1.9);
a question's number is its sector (CHGK-1.6).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import msgspec
from flask import g, has_app_context

from ...core import audit
from ...core.clock import is_running, settle
from ...core.formats import Standing
from ...core.states import GateState
from ...core.text import team_name_key
from ...errors import BidRefused, Conflict, DeskError, NotFound
from ...extensions import db
from ...models import Answer, Event, Question, QuestionGate, Round, Team, Verdict, utcnow
from . import rules
from .models import ChgkAction, ChgkTeam
from .rules import CentralTable, GameResult, League, TableAction

FORMAT = "chgk"
DRAW, AUCTION, BID = "draw", "auction", "bid"


def _game(event: Event, game: int) -> Round:
    if event.format != FORMAT:
        raise Conflict("This event is not a ЧГК evening.")
    rnd = event.round(game)
    if rnd is None or game not in range(1, rules.GAMES_PER_EVENING + 1):
        raise NotFound("Round %(round)s does not exist", round=game)
    return rnd


def _actions(event: Event, game: int) -> list[ChgkAction]:
    return list(db.session.scalars(
        db.select(ChgkAction).where(ChgkAction.event_id == event.id, ChgkAction.game == game)
        .order_by(ChgkAction.id)))


@dataclass(frozen=True)
class Carried:
    """Where a team's league comes from when the host has not set it this evening:
    an earlier evening of the season, or the exchange at the end of the last season."""

    league: League
    evening: str | None = None  # the earlier evening's name and date
    season: rules.Season | None = None  # the season whose end placed the team
    moved: bool = False  # promoted or relegated at that season's end (CHGK-2.2)


def _cache() -> dict[tuple[int, tuple[int, ...]], dict[int, Carried]]:
    if not has_app_context():
        return {}
    return g.setdefault("chgk_leagues", {})


def league_sources(event: Event) -> dict[int, Carried]:
    """CHGK-2.2: each team's league; one the host set this evening stands, else it carries
    over from the team's latest earlier evening of the season (same name), else from the
    last season's table after its exchange; Decision: a new team plays with the Contenders."""
    cache = _cache()
    key = (event.id, tuple(t.id for t in event.teams))  # a team joined: read again
    if key in cache:
        return cache[key]
    placed = dict(db.session.execute(
        db.select(ChgkTeam.team_id, ChgkTeam.league).join(Team, ChgkTeam.team_id == Team.id)
        .where(Team.event_id == event.id)).all())
    missing = {t.name_key for t in event.teams if t.id not in placed}
    carried = _carried(event, missing) if missing else {}
    out = {t.id: Carried(League(placed[t.id])) if t.id in placed
           else carried.get(t.name_key, Carried(League.CONTENDERS)) for t in event.teams}
    cache[key] = out
    return out


def leagues(event: Event) -> dict[int, League]:
    """CHGK-2.2: each team's league (see league_sources)."""
    return {team_id: c.league for team_id, c in league_sources(event).items()}


def _carried(event: Event, keys: set[str]) -> dict[str, Carried]:
    season = rules.season_of(event.date)
    start, _ = rules.season_bounds(season)
    rows = db.session.execute(
        db.select(Team.name_key, ChgkTeam.league, Event.name, Event.date)
        .join(ChgkTeam, ChgkTeam.team_id == Team.id).join(Event, Team.event_id == Event.id)
        .where(Event.format == FORMAT, Event.date >= start, Team.name_key.in_(keys),
               db.or_(Event.date < event.date,
                      db.and_(Event.date == event.date, Event.id < event.id)))
        .order_by(Event.date.desc(), Event.id.desc()))
    found: dict[str, Carried] = {}
    for key, league, name, day in rows:
        found.setdefault(key, Carried(League(league), evening=f"{name} ({day.isoformat()})"))
    left = keys - set(found)
    last_day = start - dt.timedelta(days=1)
    if left and db.session.scalar(db.select(Event.id).where(
            Event.format == FORMAT, Event.date <= last_day,
            Event.date >= rules.season_bounds(rules.season_of(last_day))[0]).limit(1)):
        table = season_table(last_day)
        for league, lines in table.leagues.items():
            for line in lines:
                key = team_name_key(str(line.team))
                if key in left:
                    after = rules.next_league(league, line.team, table)
                    found[key] = Carried(after, season=table.season,
                                         moved=after != league)
    return found


def _team(event: Event, name: Any) -> Team:
    team = next((t for t in event.teams if t.name == name), None)
    if team is None:
        raise NotFound("No team named '%(team)s' in this event", team=str(name))
    return team


def set_league(event: Event, team_name: Any, league: Any, actor: str = "host") -> None:
    """CHGK-2.2: put a team in the Favourites or the Contenders."""
    if event.format != FORMAT:
        raise Conflict("This event is not a ЧГК evening.")
    team = _team(event, team_name)
    if league not in {lg.value for lg in League}:
        raise DeskError("The league must be 'favourites' or 'contenders'.")
    row = db.session.get(ChgkTeam, team.id) or ChgkTeam(team_id=team.id)
    row.league = league
    db.session.add(row)
    audit.record(event, actor, "chgk.league", team.name, after={"league": league})
    db.session.flush()
    _cache().clear()


@dataclass
class GameState:
    """A game replayed: the table, draws, burned credits."""

    table: CentralTable[int]
    sectors: list[int]
    burned: dict[int, int]
    auctions: list[dict[str, Any]]


def draws(event: Event, game: int) -> list[ChgkAction]:
    """CHGK-1.6: the game's sector draws as recorded (seed, pointer, sector)."""
    return [a for a in _actions(event, game) if a.kind == DRAW]


def _replay(event: Event, game: int, actions: list[ChgkAction], lg: dict[int, League],
            ended: bool) -> GameState:
    table = CentralTable[int]()
    sectors: list[int] = []
    burned: dict[int, int] = {}
    auctions: list[dict[str, Any]] = []
    for action in actions:
        payload = action.payload or {}
        if action.kind == DRAW:
            sectors.append(payload["sector"])
        elif action.kind == AUCTION:
            for team_id, bid in payload["bids"].items():
                burned[int(team_id)] = burned.get(int(team_id), 0) + bid
            auctions.append(payload)
            if payload.get("winner") is not None:
                winner = int(payload["winner"])
                table.seat(winner, league=lg.get(winner), game=game)
        elif action.kind in (TableAction.ANSWER, TableAction.DECISIVE):
            # record_table writes both with their team and question
            assert action.team_id is not None and action.question is not None
            if action.kind == TableAction.ANSWER:
                table.answer(action.team_id, action.question, payload["correct"])
            else:
                table.decisive(action.team_id, action.question, payload["correct"])
        elif action.kind == TableAction.LEAVE:
            assert action.team_id is not None  # record_table writes who left
            table.leave(action.team_id)
    if ended:
        table.close_game()
    return GameState(table, sectors, burned, auctions)


def _ended(rnd: Round | None) -> bool:
    return rnd is not None and rnd.state in ("locked", "revealed")


def state(event: Event, game: int) -> GameState:
    rnd = _game(event, game)
    return _replay(event, game, _actions(event, game), leagues(event), _ended(rnd))


def _counted(rnd: Round, now: dt.datetime, revealed_only: bool = False) -> set[int]:
    """Questions of the game whose answers count: locked by the clock or by hand; for
    the room (``revealed_only``), those whose answer the host has shown (BG-E3)."""
    rows = db.session.execute(
        db.select(Question.id, QuestionGate.state, QuestionGate.locks_at)
        .join(QuestionGate, QuestionGate.question_id == Question.id)
        .where(Question.round_id == rnd.id))
    if revealed_only:
        return {qid for qid, gate_state, _ in rows
                if rnd.state == "revealed" or gate_state == GateState.REVEALED}
    return {qid for qid, gate_state, locks_at in rows
            if _ended(rnd) or gate_state != "open" or (locks_at is not None and locks_at <= now)}


def hall_correct(event: Event, game: int, table: CentralTable[int],
                 revealed_only: bool = False) -> dict[int, int]:
    """CHGK-1.2: one point per correct written answer, on the questions locked so far
    (or only those revealed); the team at the Central Table answers orally there
    instead (CHGK-1.1, 3.1)."""
    rnd = _game(event, game)
    counted = _counted(rnd, utcnow(), revealed_only)
    rows = db.session.execute(
        db.select(Answer.team_id, Question.number, Verdict.outcome, Verdict.decision)
        .join(Question, Answer.question_id == Question.id)
        .join(Verdict, Verdict.answer_id == Answer.id)
        .where(Question.round_id == rnd.id, Question.id.in_(counted)))
    points: dict[int, int] = {}
    for team_id, number, outcome, decision in rows:
        if (decision or outcome) == "correct" and table.seats_by_question.get(number) != team_id:
            points[team_id] = points.get(team_id, 0) + 1
    return points


@dataclass
class Played:
    """One game as it stands, read once: the replayed records, the written points,
    each team's result (CHGK-2.5) and its credits left (CHGK-4)."""

    state: GameState
    results: list[GameResult]
    credits: dict[int, int]
    started: bool  # a question of the game was started: a game never started gives nothing


def _started(rnd: Round) -> bool:
    """CHGK-2.4: a game counts once its first question was started on the clock."""
    return db.session.scalar(
        db.select(QuestionGate.id).join(Question, QuestionGate.question_id == Question.id)
        .where(Question.round_id == rnd.id).limit(1)) is not None


def played(event: Event, game: int, lg: dict[int, League] | None = None,
           revealed_only: bool = False) -> Played:
    """Each team's game: written points plus Central Table points (CHGK-2.5), and its
    credits: 100 + 10 per correct answer of this game − bids made (CHGK-4.1/4.2/4.5).
    ``revealed_only``: the written answers of revealed questions only, as the room may
    see them; the Central Table's verdicts are given aloud (CHGK-1.1) and always count."""
    rnd = _game(event, game)
    gs = _replay(event, game, _actions(event, game), lg or leagues(event), _ended(rnd))
    hall = hall_correct(event, game, gs.table, revealed_only)
    results, left = [], {}
    for team in event.teams:
        tally = gs.table.standing(team.id)
        results.append(GameResult(team.id, hall.get(team.id, 0) + tally.points, tally.points,
                                  tally.rounds))
        left[team.id] = rules.credits(hall.get(team.id, 0) + tally.correct,
                                      gs.burned.get(team.id, 0))
    return Played(gs, results, left, _started(rnd))


def _record(event: Event, game: int, kind: str, actor: str, *, team: Team | None = None,
            question: int | None = None, payload: dict[str, Any] | None = None) -> None:
    db.session.add(ChgkAction(event_id=event.id, game=game, kind=kind,
                              team_id=team.id if team else None, question=question,
                              payload=payload, actor=actor))
    audit.record(event, actor, f"chgk.{kind}", f"G{game}" + (f" {team.name}" if team else ""),
                 after={"question": question, **(payload or {})})
    db.session.flush()


def draw_sector(event: Event, game: int, actor: str = "host",
                seed: str | None = None) -> rules.SectorDraw:
    """CHGK-1.6: spin the top; the draw (seed, pointer, sector) is recorded and shown."""
    gs = state(event, game)
    if _ended(_game(event, game)):
        raise Conflict("Round %(round)s is %(state)s", round=game,
                       state=_game(event, game).state)
    draw = rules.draw_sector(gs.sectors, seed)
    _record(event, game, DRAW, actor, question=draw.sector,
            payload={"seed": draw.seed, "pointer": draw.pointer, "sector": draw.sector})
    return draw


def run_auction(event: Event, game: int, bids: Any, actor: str = "host",
                seed: str | None = None) -> rules.AuctionResult:
    """CHGK-4.3-4.5: sealed bids by team name, entered together by the host; the
    highest wins the Central Table, all bids burn; a tie is drawn (recorded).
    CHGK-3.6: in the second game only Favourites take part."""
    if not isinstance(bids, dict):
        raise DeskError("bids must be an object of team name → credits")
    rnd = _game(event, game)
    if _ended(rnd):
        raise Conflict("Round %(round)s is %(state)s", round=game, state=rnd.state)
    lg = leagues(event)
    now = played(event, game, lg)
    if now.state.table.seated is not None:
        raise Conflict("The Central Table is taken: the auction waits until it is free.")
    by_name = {t.name: t for t in event.teams}
    for name in bids:
        team = by_name.get(name)
        if team is not None and game >= 2 and lg[team.id] != League.FAVOURITES:
            raise BidRefused("In the second game only Favourites bid for the Central Table "
                             "(CHGK-3.6): %(team)s plays with the Contenders.", team=name)
    names = {t.id: t.name for t in event.teams}
    sealed = {names[tid]: bid for tid, bid in phone_bids(event, game, now.state).items()}
    merged = {**sealed, **bids}  # a bid typed at the desk (from paper) stands for its team
    left = now.credits
    available = {t.name: left[t.id] for t in event.teams
                 if left[t.id] > 0 and (game < 2 or lg[t.id] == League.FAVOURITES)}
    result = rules.auction(merged, available, seed)
    winner = by_name[result.winner] if result.winner is not None else None
    _record(event, game, AUCTION, actor, team=winner, payload={
        "bids": {str(by_name[n].id): b for n, b in result.bids.items()},
        "names": dict(result.bids), "tied": list(result.tied), "seed": result.seed,
        "winner": winner.id if winner else None,
        "phones": sorted(n for n in sealed if n not in bids),
    })
    return result


def current_game(event: Event) -> int | None:
    """The game being played or next to play: the first not ended (CHGK-1.9)."""
    return next((g for g in _games(event) if not _ended(event.round(g))), None)


def phone_bids(event: Event, game: int, gs: GameState | None = None) -> dict[int, int]:
    """CHGK-4.4: the sealed bids the teams' phones handed in for the auction to come
    (the latest bid of each team since the game's last auction), by team id."""
    gs = gs or state(event, game)
    bids: dict[int, int] = {}
    for action in _actions(event, game):
        payload = action.payload or {}
        if (action.kind == BID and action.team_id is not None
                and payload.get("auction") == len(gs.auctions)):
            bids[action.team_id] = payload["bid"]
    return bids


def bid_status(event: Event, team: Team) -> dict[str, Any]:
    """What a team's phone shows of the auction (CHGK-4): its credits, whether it may
    bid now (and why not: ``reason``), and the bid it handed in, if any."""
    game = current_game(event)
    if game is None:
        return {"game": None, "open": False, "reason": "ended", "credits": None, "bid": None}
    lg = leagues(event)
    now = played(event, game, lg)
    credits = now.credits[team.id]
    reason = None
    if now.state.table.seated is not None:
        reason = "seated" if now.state.table.seated == team.id else "taken"
    elif game >= 2 and lg[team.id] != League.FAVOURITES:
        reason = "contender"  # CHGK-3.6
    elif credits < 1:
        reason = "no_credits"
    return {"game": game, "open": reason is None, "reason": reason, "credits": credits,
            "bid": phone_bids(event, game, now.state).get(team.id) if reason is None else None,
            "league": lg[team.id].value}


def hand_in_bid(event: Event, team: Team, bid: Any, actor: str = "phone") -> dict[str, Any]:
    """CHGK-4.4: a team hands in its sealed bid (1 … its credits) from its phone; a new
    bid replaces the team's earlier one until the host opens the bids."""
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise BidRefused("A bid must be a whole number of credits.")
    status = bid_status(event, team)
    reason = status["reason"]
    if reason == "ended":
        raise Conflict("Both games of the evening have ended.")
    if reason in ("seated", "taken"):
        raise Conflict("The Central Table is taken: the auction waits until it is free.")
    if reason == "contender":
        raise BidRefused("In the second game only Favourites bid for the Central Table "
                         "(CHGK-3.6): %(team)s plays with the Contenders.", team=team.name)
    if not 1 <= bid <= status["credits"]:
        raise BidRefused("The bid of %(team)s must be from 1 to %(credits)s credits.",
                         team=team.name, credits=max(status["credits"], 0))
    game = status["game"]
    auctions = len(state(event, game).auctions)
    db.session.add(ChgkAction(event_id=event.id, game=game, kind=BID, team_id=team.id,
                              payload={"bid": bid, "auction": auctions}, actor=actor))
    # Sealed: the log records that the team bid, not how much, until the bids are opened.
    audit.record(event, actor, "chgk.bid", f"G{game} {team.name}", after={"auction": auctions + 1})
    db.session.flush()
    return bid_status(event, team)


def table_action(event: Event, game: int, team_name: Any, action: Any, question: Any = None,
                 correct: Any = None, actor: str = "host") -> CentralTable[int]:
    """CHGK-3.1-3.4: the host records the table's oral answer, a voluntary leave or the
    Decisive Round; refused (nothing recorded) for a team not at the table."""
    if (not isinstance(action, str) or action not in {a.value for a in TableAction}
            or action == TableAction.SEAT):
        raise DeskError("action must be 'answer', 'leave' or 'decisive'")
    rnd = _game(event, game)
    team = _team(event, team_name)
    if action != TableAction.LEAVE:
        if not isinstance(correct, bool):
            raise DeskError("correct must be true or false")
        if isinstance(question, bool) or not isinstance(question, int):
            raise DeskError("question must be a whole number")
        started = db.session.scalar(
            db.select(QuestionGate.id).join(Question, QuestionGate.question_id == Question.id)
            .where(Question.round_id == rnd.id, Question.number == question))
        if started is None:
            raise Conflict("Question %(question)s has not been opened", question=question)
    actions = _actions(event, game)
    probe = ChgkAction(kind=action, team_id=team.id, question=question,
                       payload={"correct": correct} if correct is not None else None)
    gs = _replay(event, game, [*actions, probe], leagues(event), False)
    _record(event, game, action, actor, team=team, question=question,
            payload={"correct": correct} if action != TableAction.LEAVE else None)
    return gs.table


def reveal_question(event: Event, game: int, number: int, actor: str = "host") -> None:
    """Show a locked question's answer to the room: the projector and the phones show
    it, and its written answers' points reach the projector's standings (BG-E3)."""
    rnd = _game(event, game)
    settle(event)  # a question past its deadline: record the lock, check
    question = next((q for q in rnd.questions if q.number == number), None)
    gate = db.session.scalar(db.select(QuestionGate).where(
        QuestionGate.question_id == question.id)) if question is not None else None
    if gate is None or is_running(gate, utcnow()):
        db.session.rollback()
        raise Conflict("Question %(question)s must be locked before its answer is shown",
                       question=number)
    if gate.state != GateState.REVEALED:
        gate.state, gate.revealed_at = GateState.REVEALED, utcnow()
        audit.record(event, actor, "chgk.reveal", f"G{game} Q{number}",
                     before={"state": GateState.LOCKED}, after={"state": GateState.REVEALED})
    db.session.flush()


# ------------------------------------------------------------------- standings


class GameRow(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A team's line of a game: CHGK-2.5 its place, CHGK-2.4 its series points, CHGK-4
    its credits left. The host's page shows it, and it is GET /chgk/standings' reply
    model for it too (replies.GamePart): one class, so the document cannot drift."""

    team: str
    league: League
    points: int
    table_points: int
    table_rounds: int
    place: int
    shared: bool
    series: int
    credits: int
    played: bool


def game_standings(event: Event, game: int, now: Played | None = None,
                   lg: dict[int, League] | None = None) -> list[GameRow]:
    """CHGK-2.5 places, CHGK-2.4 series points per league, CHGK-4 credits left.
    A game not started gives no series points (CHGK-2.4: points are for a game played)."""
    lg = lg or leagues(event)
    now = now or played(event, game, lg)
    res = now.results
    places = {p.team: p for p in rules.game_ranking(res)}
    table_series = {t.id: now.state.table.standing(t.id).series for t in event.teams}
    series = (rules.series_points(res, lg, table_series) if now.started
              else dict.fromkeys(table_series, 0))
    names = {t.id: t.name for t in event.teams}
    rows = [GameRow(team=names[r.team], league=lg[r.team], points=r.points,
                    table_points=r.table_points, table_rounds=r.table_rounds,
                    place=places[r.team].place, shared=places[r.team].shared,
                    series=series[r.team], credits=now.credits[r.team], played=now.started)
            for r in res]
    return sorted(rows, key=lambda row: (row.place, row.team))


def _games(event: Event) -> list[int]:
    return [g for g in range(1, rules.GAMES_PER_EVENING + 1) if event.round(g) is not None]


def lot_seed(event: Event) -> str:
    """CHGK-2.7 (V): the lot's seed. Decision: drawn from the event's own code, so the
    lot is fixed before the evening, shown with the ranking, and replayable."""
    return f"lot:{event.code}"


def evening(event: Event, league: League | None = None,
            games: dict[int, Played] | None = None,
            lg: dict[int, League] | None = None) -> list[rules.EveningRow]:
    """CHGK-2.6/2.7: the evening's ranking, of all teams or of one league."""
    lg = lg or leagues(event)
    games = games or {g: played(event, g, lg) for g in _games(event)}
    return rules.evening_ranking(
        [[r for r in p.results if league is None or lg[r.team] == league]
         for p in _counted_games(games).values()], lot_seed(event))


def _counted_games(games: dict[int, Played]) -> dict[int, Played]:
    """The games the evening's ranking sums (CHGK-2.6): those started. Decision: before
    any game starts, every team is listed (all equal) from the first game."""
    started = {g: p for g, p in games.items() if p.started}
    return started or dict(list(games.items())[:1])


def standings_rows(event: Event) -> list[Any]:
    """The evening (CHGK-2.6/2.7) as core's standings rows, each game's points by round."""
    lg = leagues(event)
    games = {g: played(event, g, lg) for g in _games(event)}
    points = {g: {r.team: r.points for r in p.results} for g, p in games.items()}
    names = {t.id: t.name for t in event.teams}
    return [Standing(team_id=r.team, name=names[r.team], points=r.points, place=r.place,
                            by_round={g: points[g].get(r.team, 0) for g in games})
            for r in evening(event, None, games, lg)]


def screen_rows(event: Event) -> tuple[list[Any], int | None]:
    """What the projector ranks, from what the room has been shown: the game in play by
    CHGK-2.5 (shared places as on the desk, "3="), or, once both games ended, the
    evening (CHGK-2.6/2.7). Returns the rows and the game ranked (None: the evening)."""
    lg = leagues(event)
    games = {g: played(event, g, lg, revealed_only=True) for g in _games(event)}
    names = {t.id: t.name for t in event.teams}
    started = [g for g, p in games.items() if p.started]
    if started and len(started) == len(games) and all(
            _ended(event.round(g)) for g in games):
        points = {g: {r.team: r.points for r in p.results} for g, p in games.items()}
        return [Standing(team_id=r.team, name=names[r.team], points=r.points,
                                place=r.place, by_round={g: points[g].get(r.team, 0)
                                                         for g in games})
                for r in evening(event, None, games, lg)], None
    shown = max(started, default=min(games, default=None))
    if shown is None:
        return [], None
    results = {r.team: r for r in games[shown].results}
    return [Standing(team_id=p.team, name=names[p.team],
                            points=results[p.team].points, place=p.place, shared=p.shared,
                            by_round={shown: results[p.team].points})
            for p in rules.game_ranking(results.values())], shown


def screen_winners(event: Event) -> dict[str, str]:
    """CHGK-2.6/2.7 on the projector: once both games ended, each league's winner of the
    evening by the answers the room has seen (empty before)."""
    lg = leagues(event)
    games = {g: played(event, g, lg, revealed_only=True) for g in _games(event)}
    if not games or not all(p.started and _ended(event.round(g)) for g, p in games.items()):
        return {}
    names = {t.id: t.name for t in event.teams}
    winners = {}
    for league in League:
        rows = evening(event, league, games, lg)
        if rows:
            winners[league.value] = names[rows[0].team]
    return winners


def standings_json(event: Event) -> dict[str, Any]:
    """The games (rankings, sectors, table, auctions) and the evening, read once."""
    names = {t.id: t.name for t in event.teams}
    lg = leagues(event)
    games = {g: played(event, g, lg) for g in _games(event)}

    def evening_rows(league: League | None) -> list[dict[str, Any]]:
        return [{"team": names[r.team], "league": lg[r.team].value, "place": r.place,
                 "place_sum": r.place_sum, "places": list(r.places),
                 "table_points": r.table_points, "table_rounds": r.table_rounds,
                 "points": r.points, "tie_break": r.tie_break, "by_lot": r.by_lot}
                for r in evening(event, league, games, lg)]

    games_json = {}
    for game, now in games.items():
        gs = now.state
        games_json[str(game)] = {
            "standings": [msgspec.structs.asdict(row)
                          for row in game_standings(event, game, now, lg)],
            "sectors": gs.sectors,
            "table": names.get(gs.table.seated) if gs.table.seated is not None else None,
            "auctions": [{"names": a["names"], "tied": a["tied"], "seed": a["seed"],
                          "winner": names.get(a["winner"]) if a["winner"] else None}
                         for a in gs.auctions],
        }
    return {"event": event.code, "games": games_json, "lot_seed": lot_seed(event),
            "evening": evening_rows(None),
            "leagues": {lg_.value: evening_rows(lg_) for lg_ in League}}


def season_entries(season: rules.Season) -> list[rules.SeriesEntry]:
    """CHGK-2.1: series points of every game of the season's ЧГК evenings."""
    entries = []
    for event in db.session.scalars(db.select(Event).where(Event.format == FORMAT)):
        if rules.season_of(event.date) != season:
            continue
        for game in _games(event):
            now = played(event, game)
            if not now.started:
                continue  # CHGK-2.4: a game not played gives nothing to the season
            for row in game_standings(event, game, now):
                entries.append(rules.SeriesEntry(row.team, row.league, event.date,
                                                 row.series))
    return entries


@dataclass(frozen=True)
class SeasonEvening:
    code: str
    name: str
    day: dt.date
    games: int  # games started (CHGK-2.4: only they give series points)
    winners: dict[str, str]  # league → the evening's winner in it (CHGK-2.6)


def season_evenings(season: rules.Season) -> list[SeasonEvening]:
    """CHGK-2.1: the ЧГК evenings of the season, in order, with their winners per league."""
    start, after = rules.season_bounds(season)
    out = []
    for event in db.session.scalars(db.select(Event).where(
            Event.format == FORMAT, Event.date >= start, Event.date < after)
            .order_by(Event.date, Event.id)):
        lg = leagues(event)
        games = {g: played(event, g, lg) for g in _games(event)}
        started = sum(p.started for p in games.values())
        names = {t.id: t.name for t in event.teams}
        winners = {}
        if started:
            for league in League:
                rows = evening(event, league, games, lg)
                if rows:
                    winners[league.value] = names[rows[0].team]
        out.append(SeasonEvening(event.code, event.name, event.date, started, winners))
    return out


def season_table(day: dt.date) -> rules.SeasonTable:
    """CHGK-2.1-2.3: the season of ``day`` with its Favourites/Contenders exchange.
    Decision: a team is the same team across evenings when its name is the same."""
    season = rules.season_of(day)
    return rules.season_table(season_entries(season), season)

