"""The floor's settings (``benchmarks/floor.py``): Segnalino's, plus the channel
layer plain Channels fans out with (one channel per socket, groups in Redis),
which Segnalino itself does not use."""

from __future__ import annotations

import os

from config.settings import *  # noqa: F403
from config.settings import REDIS_URL

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # No read timeout: the layer blocks up to 5 s waiting for messages.
                # redis-py's pool refuses its 101st connection: 500 sockets closing at
                # the end of a run each leave their group at once (the floor's log
                # filled with "Too many connections"; no figure depended on it).
                "hosts": [{"address": REDIS_URL, "socket_timeout": None, "max_connections": 2000}],
                "prefix": os.environ.get("CHANNEL_PREFIX", "segnalino"),
                "capacity": 10000,  # channels_redis's default of 100 drops under load
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
