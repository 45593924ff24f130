"""What the firmware needs from MicroPython, with CPython stand-ins: ``micropython`` (for its code emitter
decorators and ``const``) and ``ptr8``.

MicroPython's compiler recognises ``@micropython.native`` and ``@micropython.viper`` by their spelling only: a hot
function must carry the decorator written exactly so (an alias such as ``native = micropython.native`` is not an
emitter, and the unix port has no such attribute at run time at all). ``native`` compiles a function to machine
code; ``viper`` also gives it machine integers and raw byte pointers (``ptr8(buf)``, no bounds checks: a viper
function checks its ranges itself). So firmware modules ``from firmware.compat import micropython``: on
MicroPython that is the real module, on CPython always a stand-in whose decorators return the function
unchanged, and ``ptr8`` returns the buffer itself, which indexes the same; tests run the same source. Inside a viper function the
name ``ptr8`` always means the compiler's cast, whatever this module defines.
"""

import sys

if sys.implementation.name == "micropython":
    import micropython
else:  # CPython: a stand-in (not the ``micropython`` module Adafruit's Blinka installs, whose viper raises)

    class micropython:  # noqa: N801 - stands in for the module of that name
        """The parts of MicroPython's ``micropython`` module the firmware uses."""

        @staticmethod
        def native(func):
            """No-op stand-in for the native code emitter."""
            return func

        @staticmethod
        def viper(func):
            """No-op stand-in for the viper code emitter."""
            return func

        @staticmethod
        def const(value):
            """``const(x)`` is x."""
            return value


def ptr8(buf):
    """Stand-in for viper's ``ptr8`` cast outside viper code: the buffer itself (indexed byte by byte)."""
    return buf
