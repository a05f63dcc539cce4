"""Sessions, seats and the append-only action log."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.engine.registry import has_bot


class GameSession(models.Model):
    class Mode(models.TextChoices):
        COMPANION = "companion", _("Table companion")
        ONLINE = "online", _("Online")

    class EditPolicy(models.TextChoices):
        TABLE = "table", _("Anyone at the table edits any board")
        OWN = "own", _("Each player edits only their own board")

    code = models.CharField(max_length=8, unique=True)
    game = models.CharField(max_length=32)
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.COMPANION)
    options = models.JSONField(default=dict)
    seed = models.BigIntegerField()
    initial_state = models.JSONField()
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    #: Bumped by every change a phone can see (an action, a seat taken or renamed,
    #: the editing rule, the end), in the transaction that makes it. Sockets send
    #: frames in revision order and never go back (``companion/live.py``).
    revision = models.PositiveBigIntegerField(default=0)
    edit_policy = models.CharField(
        max_length=8, choices=EditPolicy.choices, default=EditPolicy.TABLE
    )
    host_token = models.CharField(max_length=64)
    turn_seconds = models.PositiveIntegerField(
        default=0, help_text=_("Seconds each waited-for seat has to act; 0 means no timer.")
    )
    deadline = models.DateTimeField(null=True, blank=True)
    spectator_key = models.CharField(max_length=32, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    #: "Play again": the session the same table moved on to (made once, whoever taps).
    next_session = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="previous_session",
    )

    class Meta:
        indexes = [models.Index(fields=["updated_at"])]

    def __str__(self) -> str:
        return f"{self.game} {self.code}"

    @property
    def is_ended(self) -> bool:
        return self.ended_at is not None

    @property
    def bots_allowed(self) -> bool:
        """A bot can fill a seat: the game has one and the app deals its cards (online;
        at the table nobody could play them)."""
        return self.mode == self.Mode.ONLINE and has_bot(self.game)


class Seat(models.Model):
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    holder = models.CharField(max_length=64, blank=True, default="")
    bot = models.BooleanField(default=False)
    claimed_at = models.DateTimeField(null=True, blank=True)
    #: In a game with hidden cards, set when a phone first sits: from then on the
    #: seat belongs to that player, and only this key (shown to them alone) moves
    #: it to another phone. A new key is made at each move.
    rejoin_key = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["session", "index"], name="seat_unique_index")
        ]

    def __str__(self) -> str:
        return f"{self.session.code} #{self.index} {self.name}"

    @property
    def is_taken(self) -> bool:
        """A phone holds it (the token itself never goes into a page)."""
        return bool(self.holder)

    @property
    def is_free(self) -> bool:
        return not self.holder and not self.bot

    @property
    def is_reserved(self) -> bool:
        """Played before, in a game with hidden cards: only its player may sit."""
        return bool(self.rejoin_key) and not self.holder

    @property
    def is_open(self) -> bool:
        """A phone may sit here (its "Sit as …" button) and the host may seat the bot."""
        return self.is_free and not self.is_reserved


class Action(models.Model):
    class Kind(models.TextChoices):
        GAME = "game", _("Game action")
        UNDO = "undo", _("Undo")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField(help_text="The session version this action produced.")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.GAME)
    seat = models.SmallIntegerField(null=True, blank=True)
    payload = models.JSONField(default=dict)
    events = models.JSONField(default=list)
    undoes = models.PositiveIntegerField(null=True, blank=True)
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version"]
        constraints = [
            models.UniqueConstraint(fields=["session", "version"], name="action_unique_version"),
            models.UniqueConstraint(fields=["session", "key"], name="action_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.session.code} v{self.version} {self.kind}"


#: A checkpoint is taken at every version that is a multiple of this.
CHECKPOINT_EVERY = 32


class Checkpoint(models.Model):
    """The session's state right after ``version``, kept so that an undo replays
    from a nearby checkpoint instead of from ``initial_state``
    (``companion/checkpoints.py`` says when one may be used)."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="checkpoints")
    version = models.PositiveIntegerField()
    state = models.JSONField()

    class Meta:
        ordering = ["version"]
        constraints = [
            models.UniqueConstraint(fields=["session", "version"], name="checkpoint_unique_version")
        ]

    def __str__(self) -> str:
        return f"{self.session_id} @v{self.version}"
