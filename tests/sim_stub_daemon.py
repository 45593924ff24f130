"""A stand-in for ``partiar run`` in the sim's tests: a Panel with real gpiozero devices and a tiny state.

It counts button presses and encoder detents on real gpiozero ``Button``/``RotaryEncoder`` objects, shows them
on a stub LCD, and exits on SIGTERM. Run as ``python tests/sim_stub_daemon.py [manual]``.
"""

from __future__ import annotations

import signal
import sys
import threading

from gpiozero import Button, RotaryEncoder

from device.menu import Choice, Item, Menu
from hw_sim.panel import Panel
from shared.timesource import FakeTime, MonotonicTime

PINMAP = {
    "button_a": 17,
    "button_b": 27,
    "encoder_a": 5,
    "encoder_b": 6,
    "encoder_push": 13,
    "buzzer": 18,
    "led": 23,
}


class TextLcd:
    def __init__(self) -> None:
        self.rows = [" " * 16, " " * 16]
        self.cgram = [[0] * 8 for _ in range(8)]
        self.backlight = True


def main() -> int:
    time_source = FakeTime(0.0) if "manual" in sys.argv[1:] else MonotonicTime()
    lcd = TextLcd()
    panel = Panel(PINMAP, [None], time_source=time_source, lcd_factory=lambda _spec, _f: lcd)
    counts = {"a": 0, "b": 0, "push": 0, "enc": 0}
    lock = threading.Lock()
    menu = Menu(
        items=[Item("pass", "Pas"), Item("exchange", "Výměna", tuple(Choice(str(n), n) for n in range(1, 8)))]
    )
    actions: list[list] = []

    def view() -> dict:
        with lock:
            return {
                "players": ["Anna", "Bedřich"],
                "game": {"scores": [counts["a"], counts["b"]]},
                "counts": dict(counts),
                "menu": list(menu.lines()) if menu.open else None,
                "actions": list(actions),
            }

    def bump(key: str, by: int = 1) -> None:
        with lock:
            counts[key] += by
            if key == "enc":
                menu.turn(by)
            elif key == "push":
                action = menu.push()
                if action is not None:
                    actions.append([action.kind, action.value])
            lcd.rows = [
                f"A:{counts['a']} B:{counts['b']}".ljust(16),
                f"ENC:{counts['enc']} P:{counts['push']}".ljust(16),
            ]
        panel.notify()

    f = panel.pin_factory
    a, b, push = Button(17, pin_factory=f), Button(27, pin_factory=f), Button(13, pin_factory=f)
    enc = RotaryEncoder(5, 6, max_steps=0, pin_factory=f)
    a.when_pressed = lambda: bump("a")
    b.when_pressed = lambda: bump("b")
    push.when_pressed = lambda: bump("push")
    enc.when_rotated_clockwise = lambda: bump("enc")
    enc.when_rotated_counter_clockwise = lambda: bump("enc", -1)
    panel.register_state_provider(view)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    for device in (a, b, push, enc):
        device.close()
    panel.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
