"""Two phones on the table's network, as a separate program (the LAN test runs it
inside a network namespace of its own, so it is truly another host).

``python tests/support/lan_client.py http://192.168.1.20:8000`` — the address
`make run` printed. The host phone creates an Adrenaline table and reads the
invite link off its page; the guest opens that link, sits down, holds the
table's socket and must see the host's tap arrive live. Prints one JSON line.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.client import Phone, damage_of, recv_until

_INVITE = re.compile(r'href="([^"]+/j/[A-Za-z0-9]+/)"')


async def main(url: str) -> dict[str, object]:
    host = Phone(url, lan=True)
    code = host.create_session(("dstructor", "banshee", "dozer"), host_seat="dstructor")
    page = host.get(f"/s/{code}/").expect(200).text
    invite = _INVITE.search(page)
    if invite is None:
        raise AssertionError("the table page shows no invite link")
    guest = Phone(url, lan=True)
    guest.get(invite.group(1)).expect(200)  # exactly the link a friend's phone opens
    guest.claim(code, 1)
    qr = host.get(f"/s/{code}/qr.svg")
    async with guest.socket(code) as ws:
        await recv_until(ws, lambda frame: damage_of(frame, "banshee") == 0, 10)
        host.shot(code, "dstructor", "banshee", damage=2).expect(200)
        await recv_until(ws, lambda frame: damage_of(frame, "banshee") == 2, 10)
    return {"invite": invite.group(1), "qr_status": qr.status, "seen_live": True}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1]))), flush=True)
