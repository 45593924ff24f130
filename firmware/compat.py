"""What the firmware needs from MicroPython, with CPython stand-ins: the ``native`` code emitter decorator.

Under MicroPython ``@native`` compiles a hot function to machine code (about twice as fast on the RP2040);
under CPython it returns the function unchanged, so tests run the same source.
"""

try:
    import micropython

    native = micropython.native
except (ImportError, AttributeError):  # CPython, or a MicroPython build without the native emitter

    def native(func):
        """No-op stand-in for ``micropython.native``."""
        return func
