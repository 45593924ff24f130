"""The simulated control panel inside the daemon process: gpiozero mock pins, emulated LCDs, a control API.

The simulator's daemon (``hw_sim.daemon``) builds a ``Panel`` first and hands the daemon's composition root
(``device.hardware.build_table``) its ``pin_factory`` and ``i2c_bus`` as ``device.peripherals.Peripherals``,
with the panel itself as the table's ``SimHooks``. The panel then:

- drives the button and encoder pins the way the real switches do (active low against the pull-up that gpiozero's
  ``Button`` and ``RotaryEncoder`` switch on), so the daemon's own gpiozero devices see real edges;
- records the buzzer pin (a ``MockPWMPin`` for a passive buzzer on ``TonalBuzzer``) and the LED pin;
- keeps one HD44780 emulator per LCD (``hw_sim.hd44780``) behind the real charlcd library's pin writes;
- serves the control API of docs/architecture.md on 127.0.0.1 (``/state``, ``/events``, ``/press``, ``/turn``,
  ``/advance``, ``/health``) with Starlette on uvicorn (``hw_sim.asgi``).

The daemon gives it ``register_state_provider(fn)`` (``fn()`` returns the table's JSON view and is called from
HTTP worker threads, so it must be thread-safe, e.g. return a snapshot the loop keeps) and calls ``notify()`` after
each state change.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.routing import Route

from eventstream.changes import Broadcaster, state_route
from eventstream.server import ServerThread
from hw_sim import heap
from hw_sim.asgi import body_int, body_number, body_str, get_json, json_app, post_json
from shared.journal import write_atomic

log = logging.getLogger(__name__)

BUTTONS = ("a", "b", "encoder")
"""What ``/press`` accepts."""

PIN_ROLES = {
    "button_a": ("button_a", "player_a", "a"),
    "button_b": ("button_b", "player_b", "b"),
    "encoder_a": ("encoder_a", "enc_a", "rotary_a"),
    "encoder_b": ("encoder_b", "enc_b", "rotary_b"),
    "encoder_push": ("encoder_push", "encoder_button", "encoder_sw", "enc_sw", "push"),
    "buzzer": ("buzzer",),
    "led": ("led", "status_led"),
}
"""Pin map names the panel looks for (first match wins), by role."""

MAX_HOLD_SECONDS = 10.0
MAX_TURN_STEPS = 100
HISTORY = 2000
PIN_HISTORY = 256  # state changes a mock pin keeps (MockPin keeps all by default: a sim runs for days)
READY_FD_ENV = "PARTIAR_PANEL_READY_FD"
"""If set in the environment, the panel writes its port and a newline to this file descriptor once it serves
(the ``partiar sim`` supervisor learns the port without polling) and closes it."""


class PanelError(Exception):
    """The panel cannot do what was asked (bad pin map, button not fitted, no manual time)."""


class PanelValueError(PanelError, ValueError):
    """A command's argument is out of range or unknown; the message quotes it."""


@dataclass(frozen=True, slots=True)
class OutputChange:
    """One recorded change of an output pin: time (time source seconds), level (0..1) and PWM frequency."""

    t: float
    value: float
    frequency: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.t, "value": self.value, "frequency": self.frequency}


def pin_number(pinmap: Any, role: str) -> int | None:
    """The BCM GPIO number the pin map gives a role (``PIN_ROLES``), or None if that part is not fitted.

    Accepts a mapping (``{"button_a": 17}``) or an object with attributes; values may be ints, ``"GPIO17"`` or
    ``"BCM17"``. Raises PanelError naming the role and value if a value is not a GPIO number.
    """
    for name in PIN_ROLES[role]:
        if isinstance(pinmap, Mapping):
            value = pinmap.get(name)
        else:
            value = getattr(pinmap, name, None)
        if value is None:
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            text = value.strip().upper().removeprefix("GPIO").removeprefix("BCM")
            if text.isdigit():
                return int(text)
        raise PanelError(f"pin map entry {name!r} for {role} is not a GPIO number: {value!r}")
    return None


class _Reporting:
    """Mixin for mock pins: tell the factory about every state change, keep a bounded history."""

    def clear_states(self) -> None:
        super().clear_states()  # type: ignore[misc]
        self.states = deque(self.states, maxlen=PIN_HISTORY)

    def _change_state(self, value: Any) -> bool:
        changed = super()._change_state(value)  # type: ignore[misc]
        if changed:
            hook = getattr(self._factory, "pin_changed", None)  # type: ignore[attr-defined]
            if hook is not None:
                hook(self, value)
        return changed


class WatchedPin(_Reporting, MockPin):
    """A ``MockPin`` that tells its factory about every state change (inputs and outputs)."""


class WatchedPWMPin(_Reporting, MockPWMPin):
    """A ``MockPWMPin`` (for ``TonalBuzzer``) that tells its factory about level and frequency changes."""

    def _set_frequency(self, value: Any) -> None:
        before = self._frequency
        super()._set_frequency(value)
        hook = getattr(self._factory, "pin_changed", None)
        if hook is not None and before != value:
            hook(self, self._state)


class PanelFactory(MockFactory):
    """gpiozero's ``MockFactory`` whose pins report changes; PWM-capable pins where the panel asks for them.

    ``MockFactory.pin`` refuses to hand a plain pin where a PWM pin exists (and the reverse), and gpiozero devices
    ask with the default class, so the PWM choice is made here per GPIO rather than by the caller.
    """

    def __init__(self, pwm_gpios: Sequence[int] = ()) -> None:
        super().__init__(pin_class=WatchedPin)
        self._pwm_names = {f"GPIO{n}" for n in pwm_gpios}
        self._listeners: dict[int, list[Callable[[MockPin, Any], None]]] = {}
        self._lock = threading.Lock()

    def pin(self, name: Any, pin_class: type | None = None, **kwargs: Any) -> MockPin:
        if pin_class is None:
            for _header, info in self.board_info.find_pin(name):
                if info.name in self._pwm_names:
                    pin_class = WatchedPWMPin
                break
        return super().pin(name, pin_class=pin_class, **kwargs)

    def watch(self, gpio: int, listener: Callable[[MockPin, Any], None]) -> MockPin:
        """Call ``listener(pin, state)`` after every change of that pin's state; returns the pin."""
        pin = self.pin(gpio)
        with self._lock:
            self._listeners.setdefault(id(pin), []).append(listener)
        return pin

    def pin_changed(self, pin: MockPin, state: Any) -> None:
        with self._lock:
            listeners = list(self._listeners.get(id(pin), ()))
        for listener in listeners:
            try:
                listener(pin, state)
            except Exception:  # a broken observer must not break the device that wrote the pin
                log.exception("pin listener for %r failed", pin)


@dataclass(frozen=True)
class LcdSpec:
    """One LCD as the panel emulates it: its size, its wiring (``gpio4`` pins or an ``i2c`` MCP23008 backpack)."""

    columns: int = 16
    lines: int = 2
    mode: str = "gpio4"
    pins: Any = None  # device.lcd_pins.GpioLcdWiring (rs, e, d4-d7, backlight pin names) for gpio4
    i2c_address: int = 0x20


def lcd_specs(config: Any, pins: Any) -> list[LcdSpec]:
    """The LCDs a table config asks for (``device.config.TableConfig``'s ``display``), wired as its pin map
    (``device.pinmap.PinMap``) says."""
    d = config.display
    return [
        LcdSpec(
            columns=d.columns,
            lines=d.lines,
            mode=d.mode,
            pins=pins.lcd_wiring(i) if d.mode == "gpio4" else None,
            i2c_address=pins.lcd_i2c_address(i),
        )
        for i in range(d.count)
    ]


def emulate_lcd(spec: Any, factory: PanelFactory, bus: Any = None) -> tuple[Any, Any]:
    """An HD44780 emulator for ``spec`` (an LcdSpec or an object with the same attributes) and its front end:
    for ``gpio4`` the watcher of the mock pins (with ``close()``), for ``i2c`` an MCP23008 backpack put on ``bus``
    (a ``hw_sim.mcp23008.FakeI2C``). Raises PanelError for a wiring it cannot emulate."""
    from hw_sim.hd44780 import HD44780, attach_gpio

    lcd = HD44780(spec.columns, spec.lines)
    mode = getattr(spec, "mode", "gpio4")
    if mode == "gpio4":
        if spec.pins is None:
            raise PanelError(f"LCD {spec!r} is wired to GPIO but names no pins")
        return lcd, attach_gpio(lcd, factory, spec.pins)
    if mode == "i2c":
        from hw_sim.mcp23008 import add_backpack

        return lcd, add_backpack(bus, lcd, getattr(spec, "i2c_address", 0x20))
    raise PanelError(f"LCD wiring {mode!r} is not emulated (gpio4 or i2c)")


def lcd_view(emulator: Any) -> dict[str, Any]:
    """The JSON view of one emulated LCD: ``rows`` of readable text, ``cells`` (character codes; 0-15 are the CGRAM
    glyphs), ``cgram`` (8 glyphs of 8 row bitmaps), ``backlight`` (see ``HD44780.to_dict``)."""
    if hasattr(emulator, "to_dict"):
        return dict(emulator.to_dict())
    rows = emulator.rows() if callable(getattr(emulator, "rows", None)) else emulator.rows
    cgram = (
        emulator.cgram() if callable(getattr(emulator, "cgram", None)) else getattr(emulator, "cgram", None)
    )
    return {
        "rows": [str(r) for r in rows],
        "cgram": [list(g) for g in (cgram or [[0] * 8 for _ in range(8)])],
        "backlight": bool(getattr(emulator, "backlight", True)),
    }


class Panel:
    """The simulated GPIO side of one table: owns the mock pin factory, the LCD emulators and the control API.

    ``pinmap``: pin roles to BCM numbers (see ``pin_number``). ``lcd_specs``: one spec per LCD, handed to
    ``lcd_factory(spec, pin_factory)`` (default: ``emulate_lcd``). ``time_source``: the daemon's time source;
    ``/advance`` needs one with ``advance(seconds)``. ``port`` 0 picks a free port, written to ``port_file`` once
    the daemon registers its state provider. Raises PanelError for a broken pin map, OSError if the port cannot be
    bound.
    """

    def __init__(
        self,
        pinmap: Any,
        lcd_specs: Sequence[Any] = (),
        time_source: Any = None,
        port: int = 0,
        port_file: str | os.PathLike[str] | None = None,
        *,
        passive_buzzer: bool | None = None,
        lcd_factory: Callable[[Any, PanelFactory], Any] | None = None,
        serve: bool = True,
    ) -> None:
        self.pins = {role: pin_number(pinmap, role) for role in PIN_ROLES}
        if passive_buzzer is None:
            kind = (
                pinmap.get("buzzer_kind")
                if isinstance(pinmap, Mapping)
                else getattr(pinmap, "buzzer_kind", None)
            )
            passive_buzzer = str(kind or "active").lower() in ("passive", "tonal", "pwm")
        self.passive_buzzer = passive_buzzer
        buzzer = self.pins["buzzer"]
        self.pin_factory = PanelFactory(pwm_gpios=[buzzer] if passive_buzzer and buzzer is not None else [])
        self.time_source = time_source
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._state_provider: Callable[[], Any] | None = None
        self._advance_listeners: list[Callable[[float], None]] = []
        self._settle: Callable[[], None] | None = None
        self.buzzer_history: deque[OutputChange] = deque(maxlen=HISTORY)
        self.led_history: deque[OutputChange] = deque(maxlen=HISTORY)
        if buzzer is not None:
            self.pin_factory.watch(buzzer, self._on_buzzer)
        if self.pins["led"] is not None:
            self.pin_factory.watch(self.pins["led"], self._on_led)
        self.lcds: list[Any] = []
        self._lcd_front_ends: list[Any] = []
        self.i2c_bus: Any = None
        """The fake I2C bus the MCP23008 backpacks sit on (hand it to charlcd's ``Character_LCD_I2C``)."""
        for spec in lcd_specs:
            if lcd_factory is not None:
                self.lcds.append(lcd_factory(spec, self.pin_factory))
                continue
            if getattr(spec, "mode", "gpio4") == "i2c" and self.i2c_bus is None:
                from hw_sim.mcp23008 import FakeI2C

                self.i2c_bus = FakeI2C()
            lcd, front_end = emulate_lcd(spec, self.pin_factory, self.i2c_bus)
            lcd.listeners.append(self.notify)
            self.lcds.append(lcd)
            self._lcd_front_ends.append(front_end)
        self.broadcaster = Broadcaster()
        self.server: ServerThread | None = None
        if serve:
            self.server = ServerThread(self.app(), port, name="panel-http", streams=self.broadcaster).start()
            log.info("panel control API on http://127.0.0.1:%d", self.server.port)
        self._port_file = Path(port_file) if port_file else None

    # ------------------------------------------------------------------------------------------- daemon side
    @property
    def port(self) -> int | None:
        return None if self.server is None else self.server.port

    def register_state_provider(self, provider: Callable[[], Any]) -> None:
        """``provider()`` returns the table's JSON view for ``state["table"]``; called from HTTP threads.

        Call it once the daemon's devices are built: only then does the panel accept inputs and announce its
        port (``port_file``, READY_FD_ENV), so no press reaches a half-built gpiozero device."""
        first = self._state_provider is None
        self._state_provider = provider
        if first and self.server is not None:
            if self._port_file is not None:
                write_atomic(self._port_file, f"{self.server.port}\n")
            _announce_port(self.server.port)
        self.notify()

    def register_advance_listener(self, listener: Callable[[float], None]) -> None:
        """``listener(seconds)`` is called after ``advance`` moved the time source (e.g. to put a Tick on the
        daemon's queue)."""
        self._advance_listeners.append(listener)

    def register_settle(self, settle: Callable[[], None]) -> None:
        """``settle()`` blocks until the daemon's loop has handled every input queued so far; the panel calls it
        after ``/press``, ``/turn`` and ``/advance`` so their HTTP answer means "the table has seen it"."""
        self._settle = settle

    def _settled(self) -> None:
        if self._settle is not None:
            self._settle()

    def notify(self) -> None:
        """The state changed: push it to every ``/events`` stream."""
        self.broadcaster.bump()

    def close(self) -> None:
        """Stop the HTTP server and close the pin factory. Close the gpiozero devices first."""
        if self._closed.is_set():
            return
        self._closed.set()
        if self.server is not None:
            self.server.stop()
        for front_end in self._lcd_front_ends:
            if hasattr(front_end, "close"):
                front_end.close()
        self.pin_factory.close()

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------- state
    def _now(self) -> float:
        return self.time_source.now() if self.time_source is not None else time.monotonic()

    def _on_buzzer(self, pin: MockPin, state: Any) -> None:
        frequency = pin.frequency if isinstance(pin, MockPWMPin) else None
        with self._lock:
            self.buzzer_history.append(OutputChange(self._now(), float(state), frequency))
        self.notify()

    def _on_led(self, pin: MockPin, state: Any) -> None:
        with self._lock:
            self.led_history.append(OutputChange(self._now(), float(state)))
        self.notify()

    @property
    def buzzer_on(self) -> bool:
        """Is the buzzer sounding now (an active buzzer driven high, a passive one with a tone and duty > 0)?"""
        buzzer = self.pins["buzzer"]
        if buzzer is None:
            return False
        pin = self.pin_factory.pin(buzzer)
        if pin.function != "output":
            return False
        if isinstance(pin, MockPWMPin):
            return bool(pin.state) and pin.frequency is not None
        return bool(pin.state)

    @property
    def buzzer_frequency(self) -> float | None:
        buzzer = self.pins["buzzer"]
        if buzzer is None or not self.passive_buzzer:
            return None
        pin = self.pin_factory.pin(buzzer)
        return pin.frequency if self.buzzer_on else None

    @property
    def led_on(self) -> bool:
        led = self.pins["led"]
        if led is None:
            return False
        pin = self.pin_factory.pin(led)
        return pin.function == "output" and bool(pin.state)

    def state(self) -> dict[str, Any]:
        """The JSON view served at ``/state`` and pushed on ``/events``. ``seq`` is the change counter read before
        the view is taken, so the view is at least as new as every change up to ``seq`` (the inputs' answers carry
        the counter after the table handled them: a client waits for a view with ``seq`` at least that)."""
        seq = self.broadcaster.version
        table: Any = None
        if self._state_provider is not None:
            try:
                table = self._state_provider()
            except Exception as e:  # the page must still show the LCDs if the provider breaks
                log.exception("state provider failed")
                table = {"error": f"{type(e).__name__}: {e}"}
        return {
            "lcds": [lcd_view(lcd) for lcd in self.lcds],
            "buzzer": self.buzzer_on,
            "buzzer_hz": self.buzzer_frequency,
            "led": self.led_on,
            "time": self._now(),
            "manual_time": hasattr(self.time_source, "advance"),
            "table": table,
            "seq": seq,
        }

    def health(self) -> dict[str, Any]:
        return {"ok": True, "pid": os.getpid()}

    # ------------------------------------------------------------------------------------------- inputs
    def _input_pin(self, role: str) -> MockPin:
        gpio = self.pins[role]
        if gpio is None:
            raise PanelError(f"the pin map has no {role} pin")
        return self.pin_factory.pin(gpio)

    def press(self, button: str, hold: float = 0.0) -> None:
        """Press and release a button (``a``, ``b`` or ``encoder``): its pin goes low, stays low ``hold`` real
        seconds (returns early if the panel closes), and goes high. Raises PanelValueError for an unknown button or
        hold, PanelError if the button is not fitted."""
        if button not in BUTTONS:
            raise PanelValueError(f"unknown button {button!r} (known: {', '.join(BUTTONS)})")
        if not 0.0 <= hold <= MAX_HOLD_SECONDS:
            raise PanelValueError(f"hold must be 0-{MAX_HOLD_SECONDS:g} s, got {hold!r}")
        role = "encoder_push" if button == "encoder" else f"button_{button}"
        pin = self._input_pin(role)
        pin.drive_low()
        if hold > 0:
            self._closed.wait(hold)
        pin.drive_high()

    def turn(self, steps: int) -> None:
        """Turn the encoder by ``steps`` detents (negative = counter-clockwise): each detent drives A and B through
        one full quadrature cycle (clockwise: A falls, B falls, A rises, B rises), which gpiozero's
        ``RotaryEncoder`` counts as exactly one step. Raises PanelValueError beyond ±MAX_TURN_STEPS."""
        if abs(steps) > MAX_TURN_STEPS:
            raise PanelValueError(f"turn by at most {MAX_TURN_STEPS} steps at once, got {steps!r}")
        a = self._input_pin("encoder_a")
        b = self._input_pin("encoder_b")
        first, second = (a, b) if steps > 0 else (b, a)
        for _ in range(abs(steps)):
            first.drive_low()
            second.drive_low()
            first.drive_high()
            second.drive_high()

    def advance(self, seconds: float) -> float:
        """Move the daemon's manual time source forward; returns the new time. Raises PanelError without one."""
        if not hasattr(self.time_source, "advance"):
            raise PanelError("time is not manual: start the daemon with [sim] time = 'manual' to advance it")
        if seconds < 0:
            raise PanelValueError(f"cannot advance time by a negative amount: {seconds!r}")
        now = self.time_source.advance(seconds)
        for listener in list(self._advance_listeners):
            listener(seconds)
        self.notify()
        return float(now if now is not None else self._now())

    # ------------------------------------------------------------------------------------------- HTTP
    def app(self) -> Any:
        """The control API as a Starlette app (served by ``ServerThread`` unless ``serve=False``)."""
        return json_app(
            [
                Route("/state", get_json(self.state)),
                Route("/health", get_json(self.health)),
                state_route("/events", self.state, self.broadcaster),
                Route("/press", post_json(self._http_press), methods=["POST"]),
                Route("/turn", post_json(self._http_turn), methods=["POST"]),
                Route("/advance", post_json(self._http_advance), methods=["POST"]),
                Route("/debug/heap", self._http_heap),
            ]
        )

    @staticmethod
    async def _http_heap(request: Any) -> Any:
        """The daemon's heap (``hw_sim.heap.report``; ``?trim=1`` also trims the C allocator), for the day bench."""
        trim = request.query_params.get("trim") == "1"
        return JSONResponse(await run_in_threadpool(heap.report, trim))

    def _check_ready(self) -> None:
        if self._state_provider is None:
            raise HTTPException(503, "the daemon is still starting (no state provider registered yet)")

    def _http_press(self, body: dict[str, Any]) -> dict[str, Any]:
        self._check_ready()
        try:
            self.press(body_str(body, "button"), body_number(body, "hold", 0.0))
        except PanelError as e:
            raise HTTPException(400, str(e)) from None
        self._settled()
        return {"ok": True, "seq": self.broadcaster.version}

    def _http_turn(self, body: dict[str, Any]) -> dict[str, Any]:
        self._check_ready()
        try:
            self.turn(body_int(body, "steps"))
        except PanelError as e:
            raise HTTPException(400, str(e)) from None
        self._settled()
        return {"ok": True, "seq": self.broadcaster.version}

    def _http_advance(self, body: dict[str, Any]) -> dict[str, Any]:
        try:
            now = self.advance(body_number(body, "seconds"))
        except PanelError as e:
            raise HTTPException(409 if "not manual" in str(e) else 400, str(e)) from None
        self._settled()
        return {"ok": True, "time": now, "seq": self.broadcaster.version}


def _announce_port(port: int) -> None:
    """Tell a supervising ``partiar sim`` which port the panel serves on (see READY_FD_ENV)."""
    fd_text = os.environ.pop(READY_FD_ENV, "")
    if not fd_text.isdigit():
        return
    try:
        with os.fdopen(int(fd_text), "w") as pipe:
            pipe.write(f"{port}\n")
    except OSError as e:
        log.warning("cannot announce the panel port on fd %s: %s", fd_text, e)
