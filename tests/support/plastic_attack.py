"""An online Plastic Attack war between Anna (seat 0) and Bruno (seat 1), made the way
phones make it: for the tests that need the app's own deck."""

from __future__ import annotations

from companion import services
from companion.models import GameSession

TOKENS = ("anna", "bruno")
ARMIES = (
    [
        {"name": "Tank", "power": 8, "actions": ["special-weapons", "sniper", "luck"]},
        {"name": "Hero", "power": 7, "actions": ["remedy", "deception", "shield"]},
    ],
    [
        {"name": "Dragon", "power": 6, "actions": ["knock-out", "vulnerability", "luck"]},
        {"name": "Knight", "power": 5, "actions": ["intimidation", "master-plan", "shield"]},
    ],
)


def online_war(*, turn_seconds: int = 0, armies: int = 2) -> GameSession:
    """Both seated; the first ``armies`` seats have built their army (with both, the
    app has dealt and the first player is to declare)."""
    session = services.create_session(
        game="plastic-attack",
        seat_names=["Anna", "Bruno"],
        options={"hands": "dealt"},
        host_token=TOKENS[0],
        mode="online",
        turn_seconds=turn_seconds,
    )
    for seat, token in enumerate(TOKENS):
        services.claim_seat(session, seat, token)
    for seat in range(armies):
        services.submit_action(
            session,
            {"type": "army", "characters": ARMIES[seat]},
            token=TOKENS[seat],
            key=f"army-{seat}",
        )
    session.refresh_from_db()
    return session
