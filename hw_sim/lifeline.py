"""The daemon a ``partiar sim`` starts dies with it, however the sim ends (Ctrl-C, ``kill -9``, a crash).

``DaemonSupervisor`` stops its child on a clean exit; a killed sim gets no chance to, and its daemon would go on
serving a panel nobody reads, holding the state dir's journal. Two guards, both ending in the daemon's own SIGTERM
path (``device.cli.run.run_table`` stops the table cleanly; before that handler is set, SIGTERM simply ends a
process that has journaled nothing yet):

- Linux: ``prctl(PR_SET_PDEATHSIG, SIGTERM)`` in the child (through ctypes): the kernel signals it when the thread
  that started it ends, which for the supervisor's thread is when the sim ends.
- Everywhere (and the only guard elsewhere): a *lifeline* pipe. The supervisor keeps the write end and hands the
  read end to the child (``LIFELINE_FD_ENV``); nobody ever writes, so the child's read returns end-of-file exactly
  when every write end is closed: the supervisor closed it or its process is gone. A parent that died before the
  child got here is caught too (the read returns at once).
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

LIFELINE_FD_ENV = "PARTIAR_SIM_LIFELINE_FD"
"""If set in the environment, the read end of a pipe whose end-of-file means "the supervising sim is gone"."""
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def open_lifeline() -> tuple[int, int]:
    """A new lifeline pipe for one child: ``(read_end, write_end)``. Pass the read end to the child (``pass_fds``
    and ``LIFELINE_FD_ENV``) and close it here once the child started; keep the write end until the child ended."""
    return os.pipe()


def set_parent_death_signal(signum: int = signal.SIGTERM) -> bool:
    """Ask the Linux kernel to send ``signum`` to this process when its parent ends. Returns False where that is
    not available (not Linux, or prctl refused), so the caller relies on the lifeline alone."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) != 0:
            log.warning("prctl(PR_SET_PDEATHSIG) failed: %s", os.strerror(ctypes.get_errno()))
            return False
    except (OSError, AttributeError) as e:
        log.warning("prctl is not available: %s", e)
        return False
    return True


def watch_lifeline(fd: int, on_gone: Callable[[], None]) -> threading.Thread:
    """Call ``on_gone()`` (once, from a daemon thread) when the lifeline ``fd`` reaches end-of-file."""

    def watch() -> None:
        try:
            while os.read(fd, 64):  # nobody writes; anything read is ignored
                pass
        except OSError as e:
            log.warning("lifeline fd %d unreadable (%s): taking the parent as gone", fd, e)
        finally:
            try:
                os.close(fd)
            except OSError:
                pass
        log.warning("the supervising sim is gone: stopping")
        on_gone()

    thread = threading.Thread(target=watch, name="lifeline", daemon=True)
    thread.start()
    return thread


def stop_self() -> None:
    """End this process the way ``kill`` or a supervisor's stop would: SIGTERM to itself."""
    os.kill(os.getpid(), signal.SIGTERM)


def die_with_parent(on_gone: Callable[[], None] = stop_self) -> bool:
    """In a child a sim started (``LIFELINE_FD_ENV`` set): arm both guards (see the module's doc) and return True.
    Without it (the daemon run by hand or by a test) nothing is armed and it returns False."""
    fd_text = os.environ.pop(LIFELINE_FD_ENV, "")
    if not fd_text.isdigit():
        return False
    set_parent_death_signal()
    watch_lifeline(int(fd_text), on_gone)
    return True
