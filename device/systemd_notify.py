"""systemd's notify protocol (``sd_notify``) without a dependency: READY, WATCHDOG and STATUS messages.

Under ``Type=notify`` with ``WatchdogSec=`` systemd sets ``NOTIFY_SOCKET`` and ``WATCHDOG_USEC``; the table's loop
sends ``WATCHDOG=1`` from its own thread, so a hung loop (not just a dead process) gets the daemon restarted.
Outside systemd every call is a no-op.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


class Notifier:
    """Sends notify messages to ``NOTIFY_SOCKET`` (an abstract ``@name`` or a path) if systemd gave one."""

    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.address = env.get("NOTIFY_SOCKET") or None
        usec = env.get("WATCHDOG_USEC", "")
        self.watchdog_period: float | None = int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 else None
        """Half the watchdog timeout in seconds (systemd's advice), or None without a watchdog."""

    def send(self, message: str) -> bool:
        """Send one message; False (logged once per failure) if there is no socket or it cannot be reached."""
        if self.address is None:
            return False
        address = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(address)
                sock.sendall(message.encode("utf-8"))
        except OSError as e:
            log.warning("sd_notify %r failed: %s", message, e)
            return False
        return True

    def ready(self) -> bool:
        return self.send("READY=1")

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")
