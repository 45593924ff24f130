"""MicroPython firmware for the instrumented board's Raspberry Pi Pico (logic also runs under CPython)."""
