"""Every write to a session goes through these functions.

One action pipeline for every game: validate → apply with the engine → store the
new state and the action row in one transaction, serialised per session (row
lock on PostgreSQL, an IMMEDIATE transaction on SQLite) → after commit, tell the
session's socket group.
"""

from __future__ import annotations

import functools
import logging
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from companion import checkpoints, codes, ratelimit, rows
from companion.errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError, TooMany
from companion.models import Action, GameSession, Seat
from games.engine import SeededRandom
from games.engine.errors import EngineError
from games.engine.registry import engine_slugs, get_bot, get_engine, has_bot

if TYPE_CHECKING:  # live reads what services write: imported where it is used
    from companion.live import Ahead

logger = logging.getLogger(__name__)

MAX_KEY_LENGTH = 64
MAX_NAME_LENGTH = 40
MAX_TURN_SECONDS = 600
#: Another phone recorded the very same move this recently, and this phone had not
#: yet seen it: the common double entry at a table. It asks before applying.
REPEAT_SECONDS = 10


class RepeatSuspected(Conflict):
    """The move a phone sends was just recorded by another phone it had not heard
    from yet. ``earlier`` is that action; nothing was applied. Sent again with
    ``again``, it is applied."""

    def __init__(
        self, message: str, *, earlier: Action, names: dict[int, str], **params: Any
    ) -> None:
        super().__init__(message, **params)
        self.earlier = earlier
        self.names = names  # the seats' names, to say what the earlier action did


@dataclass(frozen=True)
class Applied:
    """What ``submit_action`` / ``undo`` did: the action row and whether it is new."""

    action: Action
    created: bool
    #: The session as locked and written by ``submit_action_at`` (else None).
    session: GameSession | None = None


# ---------------------------------------------------------------- sessions


def create_session(
    *,
    game: str,
    seat_names: Sequence[str],
    options: Mapping[str, Any],
    host_token: str,
    mode: str = GameSession.Mode.COMPANION,
    edit_policy: str = GameSession.EditPolicy.TABLE,
    seed: int | None = None,
    turn_seconds: int = 0,
) -> GameSession:
    if game not in engine_slugs():
        raise NotFound(_("There is no game called “%(game)s”."), game=game)
    if mode not in GameSession.Mode.values:
        raise BadRequest(_("Unknown session mode."))
    if edit_policy not in GameSession.EditPolicy.values:
        raise BadRequest(_("Unknown editing rule."))
    if not 0 <= turn_seconds <= MAX_TURN_SECONDS:
        raise BadRequest(
            _("A turn timer must be between 0 and %(max)s seconds."), max=MAX_TURN_SECONDS
        )
    engine = get_engine(game)
    if not engine.min_seats <= len(seat_names) <= engine.max_seats:
        raise BadRequest(
            _("This game needs %(low)s to %(high)s players."),
            low=engine.min_seats,
            high=engine.max_seats,
        )
    names = [_clean_name(name, index) for index, name in enumerate(seat_names)]
    parsed = engine.parse_options(options, len(names))
    _tidy_up_now_and_then()
    seed = secrets.randbits(63) if seed is None else seed
    state = engine.new_state(names, parsed, seed)
    for _attempt in range(20):
        try:
            with transaction.atomic():
                session = GameSession.objects.create(
                    code=codes.new_code(),
                    game=game,
                    mode=mode,
                    options=parsed,
                    seed=seed,
                    initial_state=state,
                    state=state,
                    edit_policy=edit_policy,
                    host_token=host_token,
                    turn_seconds=turn_seconds,
                    spectator_key=secrets.token_urlsafe(12),
                )
                Seat.objects.bulk_create(
                    Seat(session=session, index=i, name=name) for i, name in enumerate(names)
                )
                _after_change(session, engine, [])  # a timer may start with the first turn
            return session
        except IntegrityError:
            continue  # a code collision: draw another
    raise Conflict(_("Could not allocate a join code, please try again."))


def _tidy_up_now_and_then() -> None:
    """At most once an hour (per cache), as a session is made: close abandoned
    sessions and delete long-ended ones, freeing their codes. Celery beat does the
    same on a schedule in production; this keeps the embedded default tidy too."""
    from django.core.cache import cache

    from companion import tasks

    if cache.add("segnalino:tidy-up", 1, 3600):
        tasks.close_abandoned_sessions()
        tasks.delete_old_sessions()


def _clean_name(raw: Any, index: int) -> str:
    name = " ".join(str(raw or "").split())[:MAX_NAME_LENGTH]
    return name or f"{index + 1}"


def _well_formed(code: str) -> str:
    normalised = codes.normalise(code)
    if not codes.is_well_formed(normalised):
        raise NotFound(_("No session has the code “%(code)s”."), code=code[:16])
    return normalised


def get_session(code: str) -> GameSession:
    normalised = _well_formed(code)
    try:
        return GameSession.objects.get(code=normalised)
    except GameSession.DoesNotExist:
        raise NotFound(_("No session has the code “%(code)s”."), code=normalised) from None


def find_session(code: str, client: str) -> GameSession:
    """``get_session`` for a code a person typed or a link carried: a client that
    tried too many codes that match nothing is told to wait, so guessing the codes
    of other tables is slow (``ratelimit.WRONG_CODE``)."""
    if ratelimit.exceeded(ratelimit.WRONG_CODE, client):
        raise TooMany(_("Too many codes that match no table; wait a few minutes and try again."))
    try:
        return get_session(code)
    except NotFound:
        ratelimit.count(ratelimit.WRONG_CODE, client)
        raise


def get_watched_session(spectator_key: str) -> GameSession:
    """The session a watch-only link shows (the link holds no join code)."""
    found = None
    if 0 < len(spectator_key) <= 32:
        found = GameSession.objects.filter(spectator_key=spectator_key).first()
    if found is None:
        raise NotFound(_("This watch link is not valid."))
    return found


def _require_host(session: GameSession, token: str) -> None:
    if not token or not secrets.compare_digest(session.host_token, token):
        raise Forbidden(_("Only the host of this session can do that."))


def _require_open(session: GameSession) -> None:
    if session.is_ended:
        raise Conflict(_("This session has ended."))


def _seat(session: GameSession, index: int) -> Seat:
    try:
        return session.seats.get(index=index)
    except Seat.DoesNotExist:
        raise NotFound(_("There is no seat %(seat)s in this session."), seat=index + 1) from None


def seat_of(session: GameSession, token: str) -> int | None:
    if not token:
        return None
    return session.seats.filter(holder=token).values_list("index", flat=True).first()


def claim_seat(session: GameSession, index: int, token: str, rejoin_key: str = "") -> Seat:
    """Sit a phone in a free seat; the same phone may reclaim its own seat.

    In a game with hidden cards (``seat_bound``) a seat that has been played
    belongs to its player: another phone (the host's too) takes it only with the
    seat's rejoin key, which only that player's phone is shown, and a phone plays
    one seat of such a game, never two, never switching.
    """
    _require_open(session)
    secret = get_engine(session.game).seat_bound
    with transaction.atomic():
        seat = _locked_seat(session, index)
        if seat.holder == token:
            return seat
        if seat.bot:
            raise Conflict(_("The seat “%(name)s” is played by the bot."), name=seat.name)
        if secret and seat.rejoin_key:
            if not rejoin_key or not secrets.compare_digest(seat.rejoin_key, rejoin_key):
                raise Forbidden(
                    _(
                        "The seat “%(name)s” belongs to the player who sat there. To move "
                        "it to this phone, open the rejoin link shown on their phone."
                    ),
                    name=seat.name,
                )
        elif seat.holder:
            raise Conflict(_("The seat “%(name)s” is already taken."), name=seat.name)
        elsewhere = Seat.objects.filter(session=session, holder=token).exclude(pk=seat.pk)
        if secret:
            other = elsewhere.values_list("index", flat=True).first()
            if other is not None:
                raise Conflict(
                    _(
                        "This phone plays seat %(seat)s: in a game with hidden cards a phone "
                        "plays one seat."
                    ),
                    seat=other + 1,
                )
        elsewhere.update(holder="", claimed_at=None)
        seat.holder = token
        seat.claimed_at = timezone.now()
        fields = ["holder", "claimed_at"]
        if secret:
            seat.rejoin_key = secrets.token_urlsafe(12)  # the link just used is spent
            fields.append("rejoin_key")
        seat.save(update_fields=fields)
        _changed(session)
    return seat


def _locked_seat(session: GameSession, index: int) -> Seat:
    try:
        return Seat.objects.select_for_update().get(session=session, index=index)
    except Seat.DoesNotExist:
        raise NotFound(_("There is no seat %(seat)s in this session."), seat=index + 1) from None


def free_seat(session: GameSession, index: int, token: str) -> bool:
    """The host frees any seat (a bot's too); a player may leave their own. In a
    game with hidden cards the host cannot free a player's seat, and a seat its
    player left stays theirs (``claim_seat``). True when the phone left its own."""
    seat = _seat(session, index)
    if seat.holder != token:
        _require_host(session, token)
        if seat.holder and get_engine(session.game).seat_bound:
            raise Forbidden(_("In a game with hidden cards only the player can leave their seat."))
    with transaction.atomic():
        Seat.objects.filter(pk=seat.pk).update(holder="", claimed_at=None, bot=False)
        _changed(session)
    return seat.holder == token


def rename_seat(session: GameSession, index: int, name: str, token: str) -> None:
    seat = _seat(session, index)
    if seat.holder != token:
        _require_host(session, token)
    clean = " ".join(str(name).split())[:MAX_NAME_LENGTH]
    if not clean:
        raise BadRequest(_("A name cannot be empty."))
    with transaction.atomic():
        Seat.objects.filter(pk=seat.pk).update(name=clean)
        _changed(session)


def set_edit_policy(session: GameSession, policy: str, token: str) -> None:
    _require_host(session, token)
    if policy not in GameSession.EditPolicy.values:
        raise BadRequest(_("Unknown editing rule."))
    with transaction.atomic():
        GameSession.objects.filter(pk=session.pk).update(edit_policy=policy)
        _changed(session)


def end_session(session: GameSession, token: str) -> None:
    _require_host(session, token)
    with transaction.atomic():
        GameSession.objects.filter(pk=session.pk, ended_at__isnull=True).update(
            ended_at=timezone.now()
        )
        _changed(session)


def play_again(session: GameSession, token: str) -> GameSession:
    """ "Play again": a new session of the same game with the same seats, options and
    phones (each seat keeps its holder, a bot stays a bot). Made once: a second tap,
    from any phone, gets the same new session. Only when the game is over (or the
    host ended it), and only for a phone at the table (a seat, or the host)."""
    engine = get_engine(session.game)
    with transaction.atomic():
        locked = GameSession.objects.select_for_update().get(pk=session.pk)
        seats = list(locked.seats.all())
        _acting_seat(locked, token, seats)
        if locked.next_session_id is not None:
            return GameSession.objects.get(pk=locked.next_session_id)
        if engine.outcome(locked.state) is None and not locked.is_ended:
            raise Conflict(_("The game is not over yet: finish it, or the host ends it, first."))
        new = create_session(
            game=locked.game,
            seat_names=[seat.name for seat in seats],
            options=locked.options,
            host_token=locked.host_token,
            mode=locked.mode,
            edit_policy=locked.edit_policy,
            turn_seconds=locked.turn_seconds,
        )
        now = timezone.now()
        for old, seat in zip(seats, new.seats.all(), strict=True):
            if old.holder or old.bot:
                seat.holder, seat.bot = old.holder, old.bot
                seat.claimed_at = now if old.holder else None
                if old.holder and engine.seat_bound:
                    seat.rejoin_key = secrets.token_urlsafe(12)
                seat.save(update_fields=["holder", "bot", "claimed_at", "rejoin_key"])
        _changed(new)
        _schedule_followups(new, engine.waiting_for(new.state))  # a bot may move first
        locked.next_session = new
        locked.save(update_fields=["next_session"])
        _changed(locked)
    return new


# ---------------------------------------------------------------- actions


#: What a phone's one-time key may hold. The server's own actions (a timer running
#: out, a bot's move) are keyed with ``server_key``, which always holds a ":", so a
#: key a phone sends can never take the place of one of them.
_CLIENT_KEY = re.compile(r"[A-Za-z0-9_-]+")


def server_key(*parts: object) -> str:
    """The key of an action the server makes itself: outside the phones' alphabet."""
    return ":".join(str(part) for part in parts)


def _check_key(key: str) -> str:
    key = (key or "").strip()
    if not key or len(key) > MAX_KEY_LENGTH or not _CLIENT_KEY.fullmatch(key):
        raise BadRequest(_("The request's one-time key is missing or malformed; reload the page."))
    return key


def _acting_seat(
    session: GameSession, token: str, seats: Sequence[Seat] | None = None
) -> int | None:
    if seats is None:
        seat = seat_of(session, token)
    else:
        seat = next((s.index for s in seats if token and s.holder == token), None)
    is_host = bool(token) and secrets.compare_digest(session.host_token, token)
    if seat is None and not is_host:
        raise Forbidden(_("Take a seat before changing the game."))
    return seat


def submit_action(
    session: GameSession,
    payload: Mapping[str, Any],
    *,
    token: str,
    key: str,
    seen: int | None = None,
    again: bool = False,
) -> Applied:
    """Apply one game action. A repeated key returns the first result unchanged.

    The key is not looked up first: a repeat is rare, and the unique (session, key)
    constraint catches it when the new row is inserted, which rolls the whole
    attempt back. A repeat the rules would now refuse (the state has moved on) is
    looked up on that error path, so it too gets the first result.
    """
    return _submit({"pk": session.pk}, payload, token=token, key=key, seen=seen, again=again)


def submit_action_at(
    code: str,
    payload: Mapping[str, Any],
    *,
    token: str,
    key: str,
    seen: int | None = None,
    again: bool = False,
) -> Applied:
    """``submit_action`` for a session known by its code, as a phone posts it: the
    session is found and locked in one query (``Applied.session`` is that row).

    ``seen`` is the version the phone showed when the player tapped: if another
    phone recorded the very same move after it, moments ago, the tap is refused
    with :class:`RepeatSuspected` unless it says ``again``."""
    return _submit(
        {"code": _well_formed(code)}, payload, token=token, key=key, seen=seen, again=again
    )


def _submit(
    lookup: dict[str, Any],
    payload: Mapping[str, Any],
    *,
    token: str,
    key: str,
    seen: int | None = None,
    again: bool = False,
) -> Applied:
    key = _check_key(key)
    done = _submit_known(lookup, payload, token=token, key=key, seen=seen, again=again)
    if done is not None:
        return done
    try:
        with transaction.atomic():
            # The seats are read with the lock (one round trip): the poster's seat,
            # the bots, the frames.
            locked, seats = rows.lock_with_seats(**lookup)
            if locked is None:
                raise NotFound(
                    _("No session has the code “%(code)s”."), code=lookup.get("code", "")
                )
            engine, action, seat = _checked(locked, seats, payload, token, seen, again)
            row = _apply(locked, engine, action, seat, key, seats=seats, last=True)
    except (IntegrityError, ServiceError, EngineError):
        sessions = {f"session__{field}": value for field, value in lookup.items()}
        existing = Action.objects.filter(key=key, **sessions).select_related("session").first()
        if existing is None:
            raise
        _require_same_poster(existing, token)
        return Applied(existing, created=False, session=existing.session)
    return Applied(row, created=True, session=locked)


class _Unsure(Exception):
    """What this process knows of a session cannot settle the tap: ask the database."""


def _checked(
    locked: GameSession,
    seats: Sequence[Seat],
    payload: Mapping[str, Any],
    token: str,
    seen: int | None,
    again: bool,
    *,
    known: bool = False,
) -> tuple[Any, Any, int | None]:
    """The engine, the parsed action and the acting seat of a tap on ``locked``, or
    the refusal. ``known``: ``locked`` is what this process knows, not the row
    under its lock: where the answer would need the database (a deadline passed,
    a repeat to look up), :class:`_Unsure`."""
    engine = get_engine(locked.game)
    action = engine.parse_action(payload)
    _require_open(locked)
    if not known:
        _enforce_deadline(locked, engine, seats)
    elif locked.deadline is not None and locked.deadline <= timezone.now():
        raise _Unsure
    seat = _acting_seat(locked, token, seats)
    owner = engine.owner(locked.state, action)
    if engine.seat_bound and (seat is None or owner not in (None, seat)):
        raise Forbidden(_("Only the player in that seat can do that."))
    if locked.edit_policy == GameSession.EditPolicy.OWN and owner is not None and owner != seat:
        raise Forbidden(_("In this session each player edits only their own board."))
    # Only where nothing is secret: at a table with hidden cards, telling a
    # phone that another seat sent the same move would give that move away.
    if seen is not None and seen < locked.version and not again and not engine.seat_bound:
        if known:
            raise _Unsure
        _refuse_repeat(locked, action.to_payload(), seat, seen, seats)
    return engine, action, seat


def _submit_known(
    lookup: dict[str, Any],
    payload: Mapping[str, Any],
    *,
    token: str,
    key: str,
    seen: int | None,
    again: bool,
) -> Applied | None:
    """The tap worked out on the revision this process's tables know of the session
    (``live.known``), written in one statement on condition that the session is
    still at that revision, and rendered for the tables while it travels: one round
    trip to PostgreSQL instead of two (the lock, then the write). None, having
    written nothing, where that cannot settle it: no table here, a table behind the
    database (another process's change not heard of yet; two taps at once), a
    refusal or a repeated key (the locked path gives the answer, against the row),
    a deadline passed; or not PostgreSQL in autocommit (``rows.can_write_if_still``).

    Its checks are the locked path's (``_checked``) on the same values: the row and
    its seats at that revision. That is the same row because every change of a
    session, seats included, moves its revision on (``_changed``).

    A failure once the write has committed (what runs after it: with eager Celery, a
    bot's move) also goes to the locked path, which finds the tap's key taken and
    answers with the action written, as it does for any retry."""
    if not rows.can_write_if_still():
        return None
    from companion import live  # live reads what services write

    known = live.known(**lookup)
    if known is None:
        return None
    session, seats = known
    try:
        engine, action, seat = _checked(session, seats, payload, token, seen, again, known=True)
        row = _apply(session, engine, action, seat, key, seats=seats, known=session.revision)
    except (rows.Moved, IntegrityError, ServiceError, EngineError, _Unsure):
        return None
    return Applied(row, created=True, session=session)


def _refuse_repeat(
    locked: GameSession,
    payload: dict[str, Any],
    seat: int | None,
    seen: int,
    seats: Sequence[Seat],
) -> None:
    """Refuse a move another phone recorded after ``seen`` in the last few seconds
    (and did not undo): the table entered the same thing twice. A phone repeating
    its own move is not asked: it knows what it sent."""
    since = timezone.now() - timedelta(seconds=REPEAT_SECONDS)
    rows = list(locked.actions.filter(version__gt=seen, created_at__gte=since))
    undone = {row.undoes for row in rows if row.kind == Action.Kind.UNDO}
    for row in reversed(rows):
        if (
            row.kind == Action.Kind.GAME
            and row.version not in undone
            and row.seat != seat
            and row.payload == payload
        ):
            names = {s.index: s.name for s in seats}
            raise RepeatSuspected(
                _("%(name)s just recorded this: %(what)s Record it again?"),
                earlier=row,
                names=names,
                name=names.get(row.seat, "") if row.seat is not None else "",
                what="",
            )


def _require_same_poster(existing: Action, token: str) -> None:
    """A repeated key returns the first result only to the phone that could have
    posted it: the holder of the seat it acted for (the host, for an action made
    with no seat). Another phone replaying a key it saw learns nothing from it."""
    session = existing.session
    if existing.seat is None:
        allowed = bool(token) and secrets.compare_digest(session.host_token, token)
    else:
        allowed = bool(token) and seat_of(session, token) == existing.seat
    if not allowed:
        raise Forbidden(_("That one-time key belongs to another phone's request; reload the page."))


def _apply(
    locked: GameSession,
    engine: Any,
    action: Any,
    seat: int | None,
    key: str,
    *,
    lead_events: Sequence[dict[str, Any]] = (),
    seats: Sequence[Seat] | None = None,
    last: bool = False,
    known: int | None = None,
) -> Action:
    """Apply inside the caller's transaction, then keep timers and bots in step.

    ``seats``, if the caller has read them in this transaction, saves a query and
    lets the sockets of this process skip reading the session again. ``last``: the
    caller's transaction ends with this action (``rows.write_action``); nothing
    after it here asks anything of the database when ``seats`` are given.
    ``known``: no transaction; ``locked`` and ``seats`` are what this process knew
    at that revision, and the write is made only if the row is still there
    (``rows.write_action``'s ``revision``: else :class:`rows.Moved`).
    """
    waiting_before = engine.waiting_for(locked.state)
    result = engine.apply(locked.state, action, seat)
    ahead: Ahead | None = None

    def render_ahead(row: Action) -> None:
        # While PostgreSQL writes the action: this process's tables of the session
        # render it (for after the commit: nothing is sent before).
        from companion import live  # live reads what services write

        nonlocal ahead
        ahead = live.render_ahead(locked, seats or (), row)

    row = _append(
        locked,
        result.state,
        engine=engine,
        waiting_before=waiting_before,
        kind=Action.Kind.GAME,
        seat=seat,
        key=key,
        payload=action.to_payload(),
        events=[*lead_events, *result.events],
        meanwhile=render_ahead if seats is not None else None,
        last=last,
        revision=known,
    )
    _after_change(locked, engine, waiting_before, seats, row, deadline_written=True, ahead=ahead)
    return row


def _after_change(
    locked: GameSession,
    engine: Any,
    waiting_before: Sequence[int],
    seats: Sequence[Seat] | None = None,
    row: Action | None = None,
    *,
    deadline_written: bool = False,
    ahead: Ahead | None = None,
) -> None:
    """Keep the deadline in step with the state (unless ``_append`` wrote it with
    the state: ``deadline_written``); wake bots; tell the sockets (``ahead``: what
    the tables rendered of the change while it was written)."""
    if not deadline_written:
        deadline = _next_deadline(locked, engine, waiting_before)
        if deadline != locked.deadline:
            locked.deadline = deadline
            locked.save(update_fields=["deadline"])
    notify(
        locked.pk,
        locked.revision,
        session=locked,
        seats=seats,
        row=row,
        ahead=ahead,
    )
    _schedule_followups(locked, engine.waiting_for(locked.state), seats)


def _next_deadline(
    locked: GameSession, engine: Any, waiting_before: Sequence[int]
) -> datetime | None:
    """The deadline ``locked.state`` calls for: reset when new seats are waited for.

    Only a move the engine can play for a seat is timed (``default_action``): a
    player building an army, say, has no clock running against them."""
    if not locked.turn_seconds:
        return None
    timed = [
        s
        for s in engine.waiting_for(locked.state)
        if engine.default_action(locked.state, s) is not None
    ]
    if not timed:
        return None
    if locked.deadline is None or not set(timed) <= set(waiting_before):
        return timezone.now() + timedelta(seconds=locked.turn_seconds)
    return locked.deadline  # someone locked in: the others keep their clock


def _schedule_followups(
    locked: GameSession, waiting: Sequence[int], seats: Sequence[Seat] | None = None
) -> None:
    from companion import tasks  # tasks import services

    session_id, version, deadline = locked.pk, locked.version, locked.deadline
    if seats is None:
        bots = set(locked.seats.filter(bot=True).values_list("index", flat=True))
    else:
        bots = {s.index for s in seats if s.bot}

    def wake_bot(seat: int) -> None:
        tasks.play_bot.delay(session_id, seat, version)

    for seat in waiting:
        if seat in bots:
            transaction.on_commit(functools.partial(wake_bot, seat))
    if deadline is not None:
        delay = max(0.0, (deadline - timezone.now()).total_seconds()) + 0.5
        transaction.on_commit(
            lambda: tasks.enforce_deadline.apply_async((session_id,), countdown=delay)
        )


def enforce_deadline(session: GameSession) -> int:
    """Play the default action for every seat whose time ran out. Safe to call any time."""
    if session.deadline is None or session.deadline > timezone.now() or session.is_ended:
        return 0
    engine = get_engine(session.game)
    with transaction.atomic():
        locked = GameSession.objects.select_for_update().get(pk=session.pk)
        return _enforce_deadline(locked, engine)


def _enforce_deadline(locked: GameSession, engine: Any, seats: Sequence[Seat] | None = None) -> int:
    applied = 0
    for seat in list(engine.waiting_for(locked.state)):
        if locked.deadline is None or locked.deadline > timezone.now():
            break
        if seat not in engine.waiting_for(locked.state):
            continue
        payload = engine.default_action(locked.state, seat)
        if payload is None:
            continue
        _apply(
            locked,
            engine,
            engine.parse_action(payload),
            seat,
            server_key("timeout", locked.version, seat),
            lead_events=[{"type": "timeout", "seat": seat}],
            seats=seats,
        )
        applied += 1
    return applied


def play_bot_turn(session_id: int, seat: int, version: int) -> bool:
    """Let the bot in ``seat`` act, if the game is still where it was when asked."""
    with transaction.atomic():
        locked = GameSession.objects.select_for_update().get(pk=session_id)
        engine = get_engine(locked.game)
        if locked.version != version or locked.is_ended:
            return False
        if seat not in engine.waiting_for(locked.state):
            return False
        seats = list(locked.seats.all())
        if not any(s.index == seat and s.bot for s in seats):
            return False
        view = engine.view(locked.state, seat)
        rng = SeededRandom(locked.seed ^ (version * 1_000_003 + seat))
        payload = get_bot(locked.game)(view, seat, rng)
        _apply(
            locked,
            engine,
            engine.parse_action(payload),
            seat,
            server_key("bot", version, seat),
            seats=seats,
            last=True,
        )
    return True


def seat_bot(session: GameSession, index: int, token: str, name: str = "") -> None:
    """The host fills a free seat with the game's bot, named ``name`` (what the
    set-up form was given for that seat), else "Bot"."""
    _require_host(session, token)
    _require_open(session)
    if not session.bots_allowed:
        if not has_bot(session.game):
            raise Conflict(_("This game has no bot."))
        raise Conflict(_("The bot plays only online: at the table nobody could play its cards."))
    engine = get_engine(session.game)
    with transaction.atomic():
        locked = GameSession.objects.select_for_update().get(pk=session.pk)
        seat = _locked_seat(locked, index)
        if not seat.is_open:
            raise Conflict(_("The seat “%(name)s” is already taken."), name=seat.name)
        seat.bot = True
        seat.name = _clean_name(name, index) if name.strip() else gettext("Bot")
        seat.save(update_fields=["bot", "name"])
        _changed(locked)
        _schedule_followups(locked, engine.waiting_for(locked.state))


def undo(
    session: GameSession,
    *,
    token: str,
    key: str,
    expected: int | None = None,
    require_expected: bool = False,
) -> Applied:
    """Undo the last action still in effect, by replaying the log without it.

    ``expected`` is the version of the action the phone's button named; if the
    log moved on since (another action, another undo), nothing is undone and the
    phone is told. A phone must say it (``require_expected``); only trusted
    callers (scripts, tests) may undo "whatever is last". A repeated key returns
    the first result and undoes nothing more. The state before the action comes
    from the newest checkpoint that still holds, not from the whole log
    (``companion/checkpoints.py``).
    """
    key = _check_key(key)
    engine = get_engine(session.game)
    with transaction.atomic():
        locked = GameSession.objects.select_for_update().get(pk=session.pk)
        existing = Action.objects.filter(session=locked, key=key).first()
        if existing is not None:
            if existing.kind != Action.Kind.UNDO:
                raise Conflict(
                    _("This one-time key was already used for another action; reload the page.")
                )
            existing.session = locked
            _require_same_poster(existing, token)
            return Applied(existing, created=False)
        _require_open(locked)
        if engine.seat_bound and locked.mode == GameSession.Mode.ONLINE:
            raise Conflict(_("Online games with hidden cards cannot be undone."))
        if require_expected and expected is None:
            raise BadRequest(UNDO_UNSAID)
        seat = _acting_seat(locked, token)
        log = checkpoints.read_log(locked)
        target = checkpoints.last_effective(locked, log)
        if target is None:
            raise Conflict(_("There is nothing to undo."))
        if expected is not None and expected != target.version:
            raise Conflict(
                _(
                    "Someone else changed the game meanwhile, so nothing was undone: "
                    "check what happened, then undo again if you still want to."
                )
            )
        if (
            locked.edit_policy == GameSession.EditPolicy.OWN
            and target.seat is not None
            and target.seat != seat
        ):
            raise Forbidden(_("In this session each player undoes only their own actions."))
        if engine.seat_bound and target.seat is not None and target.seat != seat:
            raise Forbidden(_("Only the player who made a secret choice can take it back."))
        waiting_before = engine.waiting_for(locked.state)
        state = checkpoints.state_before(locked, engine, target, log)
        row = _append(
            locked,
            state,
            engine=engine,
            waiting_before=waiting_before,
            kind=Action.Kind.UNDO,
            seat=seat,
            key=key,
            payload={},
            events=[],
            undoes=target.version,
        )
        _after_change(locked, engine, waiting_before, deadline_written=True)
    return Applied(row, created=True)


#: The refusal of an undo that does not say which action it takes back.
UNDO_UNSAID = _("This undo does not say which action it takes back; reload the page and try again.")


def _append(
    session: GameSession,
    state: dict[str, Any],
    *,
    engine: Any,
    waiting_before: Sequence[int],
    kind: str,
    seat: int | None,
    key: str,
    payload: dict[str, Any],
    events: list[dict[str, Any]],
    undoes: int | None = None,
    meanwhile: Callable[[Action], object] | None = None,
    last: bool = False,
    revision: int | None = None,
) -> Action:
    session.state = state
    session.version += 1
    session.revision += 1
    # The deadline the new state calls for goes in the same statement as the state.
    session.deadline = _next_deadline(session, engine, waiting_before)
    now = timezone.now()
    return rows.write_action(
        session,
        now,
        version=session.version,
        kind=kind,
        seat=seat,
        key=key,
        payload=payload,
        events=events,
        undoes=undoes,
        meanwhile=meanwhile,
        last=last,
        revision=revision,
    )


def effective_actions(session: GameSession) -> list[Action]:
    """Game actions not undone, oldest first."""
    rows = list(session.actions.all())
    undone = {row.undoes for row in rows if row.kind == Action.Kind.UNDO}
    return [row for row in rows if row.kind == Action.Kind.GAME and row.version not in undone]


# ---------------------------------------------------------------- push


def _changed(session: GameSession) -> None:
    """Inside the caller's transaction: a change that is not a game action (a seat,
    the editing rule, the end) bumps the revision, and the phones hear of it."""
    locked = GameSession.objects.select_for_update().only("pk", "revision").get(pk=session.pk)
    revision = locked.revision + 1
    GameSession.objects.filter(pk=session.pk).update(revision=revision)
    notify(session.pk, revision)


def notify(
    session_id: int,
    revision: int,
    *,
    session: GameSession | None = None,
    seats: Sequence[Seat] | None = None,
    row: Action | None = None,
    ahead: Ahead | None = None,
) -> None:
    """After commit, announce the session's new revision to its group: the one
    way every process, this one included, learns of a change (``companion/live.py``).

    ``session`` and ``seats``, read and written in the committing transaction (and
    ``row``, the action appended), are handed to this process's live tables as what
    that revision looks like, so they need not read it again; they are data, not a
    second way to a phone. A failure here (Redis down) never turns a
    committed change into an error: it is logged, and the phones catch up when the
    sockets next check the revision (``live.VERIFY_SECONDS``).
    """

    def announce() -> None:
        try:
            from companion import live  # live reads what services write

            handed = (
                live.offer(session, seats, row, ahead)
                if session is not None and seats is not None
                else []
            )
            live.announce(session_id, revision, handed)
        except Exception:
            logger.exception("could not announce revision %s of session %s", revision, session_id)

    transaction.on_commit(announce, robust=True)
