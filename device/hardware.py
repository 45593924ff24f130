"""The composition root: builds a ``Table`` and its devices from a ``TableConfig``.

On a Pi the gpiozero devices get the pin factory the config names (lgpio by default), the LCDs are written through
the Adafruit charlcd library on GPIO or an MCP23008 backpack on I2C, and the board link opens the serial URL.
A simulator hands its own pins in instead (``device.peripherals.Peripherals``: its mock pin factory, its I2C bus,
its time source and its hooks), as gpiozero's ``MockFactory`` is handed to a device; everything above the pins is
the same code. This package never imports the simulator: the simulator (``hw_sim.daemon``) calls ``build_table``.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from device import inputs
from device.clock.modes import mode as clock_mode
from device.config import TableConfig
from device.errors import ConfigError
from device.peripherals import Peripherals
from device.pin_factory import make_pin_factory
from device.pinmap import PinMap, pinmap_for_config
from device.table import Table
from shared.journal import Journal
from shared.timesource import FakeTime, MonotonicTime
from tablelink import rounds

log = logging.getLogger(__name__)

Closer = Callable[[], None]


def _displays(config: TableConfig, pins: PinMap, factory: Any, i2c: Any, now: Callable[[], float]) -> list[Any]:
    from device.lcd import PRIORITY, CharDisplay, GpioLcdFactory, I2CLcdFactory
    from device.transliterate import LcdGlyphs

    d = config.display
    out = []
    for i in range(d.count):
        if d.mode == "gpio4":
            lcd_factory: Any = GpioLcdFactory(pins.lcd_wiring(i), d.columns, d.lines, factory)
        else:
            lcd_factory = I2CLcdFactory(i2c, d.columns, d.lines, pins.lcd_i2c_address(i))
        display = CharDisplay(lcd_factory, d.columns, d.lines, now=now, priority=PRIORITY)
        out.append(LcdGlyphs(display))
    return out


def _buzzer(config: TableConfig, pins: PinMap, factory: Any, time_source: Any, simulated: bool,
            closers: list[Closer]) -> Any:
    """The signal driver: switches the buzzer at each clock edge's exact instant. On real time, in a process of its
    own with real-time priority (``device.buzzer_process``: no other daemon thread can make an edge late); on a
    fake time source (the simulator's manual time, tests) in a thread of the daemon. The gpiozero device is a
    TonalBuzzer on a PWM pin for a passive piezo, a Buzzer for an active one."""
    from gpiozero import Buzzer, TonalBuzzer

    from device.buzzer import SignalDriver

    opened: list[Any] = []

    def open_device() -> Any:
        if not opened:
            opened.append((TonalBuzzer if pins.passive_buzzer else Buzzer)(pins.buzzer, pin_factory=factory))
        return opened[0]

    closers.append(lambda: opened[0].close() if opened else None)
    if isinstance(time_source, FakeTime):
        driver = SignalDriver(open_device(), time_source)
        closers.append(driver.close)  # closed before the buzzer it writes to (closers run last first)
        return driver
    from device.buzzer_process import SignalProcess

    # the simulator's panel pin shows what the process writes on a mock pin of its own (and takes over if it dies);
    # on a Pi the process owns the pin, and the daemon opens it only if the process dies
    process = SignalProcess(
        pins.buzzer,
        factory="mock" if simulated else config.pin_factory,
        passive=pins.passive_buzzer,
        mirror=open_device() if simulated else None,
        fallback=open_device,
    )
    closers.append(process.close)
    return process


def _load_lexicon(config: TableConfig) -> Any:
    try:
        from engine.lexicon import Lexicon, default_path
    except ImportError:
        return None
    from pathlib import Path

    path = Path(config.lexicon) if config.lexicon else default_path()
    if not path.exists():
        log.info("no lexicon at %s: challenged words are not looked up (partiar lexicon build)", path)
        return None
    try:
        return Lexicon.load(path)
    except (OSError, ValueError) as e:
        log.error("lexicon %s unusable (%s): challenged words are not looked up", path, e)
        return None


LINK_TIMEOUT_S = 1.5
"""The real table's board link: six missed heartbeats (250 ms) and the board counts as unplugged."""


def link_timeout(config: TableConfig) -> float:
    """Seconds of board silence before the link counts as lost: the real table's ``LINK_TIMEOUT_S``; the
    simulator (``pin_factory = "mock"``) may set a longer ``[sim] link_timeout`` for a busy PC."""
    if config.pin_factory == "mock" and config.sim.link_timeout > 0:
        return config.sim.link_timeout
    return LINK_TIMEOUT_S


def close_all(closers: list[Closer]) -> None:
    """Call every closer, last first; one that fails is logged and the others still run."""
    for close in reversed(closers):
        try:
            close()
        except Exception:  # closing one device must not keep the others open
            log.exception("while closing %r", close)


def time_source_for(config: TableConfig) -> Any:
    """The table's time source: a ``FakeTime`` from 0 with ``[sim] time = "manual"``, monotonic time otherwise."""
    return FakeTime(0.0) if config.sim.time == "manual" else MonotonicTime()


def build_table(config: TableConfig, peripherals: Peripherals | None = None) -> tuple[Table, list[Closer]]:
    """The table with every device of ``config`` attached, and the closers to call (in reverse) at the end.

    ``peripherals``: pins handed in by a simulator or a test (their owner closes them after these closers); None
    opens the pin factory the config names. Raises ConfigError naming the key for a pin map, pin factory or display
    the hardware cannot provide; what was already opened is closed again."""
    closers: list[Closer] = []
    try:
        return _build(config, closers, peripherals), closers
    except BaseException:
        close_all(closers)
        raise


LOOP_PRIORITY = 2
"""``SCHED_FIFO`` priority of the table's loop (``Table.priority``): below the LCD writes (5, which it raises itself
to while it writes) and the buzzer (10, its own process)."""

GIL_SWITCH_S = 0.0005
"""How long a Python thread may hold the interpreter while another waits (CPython's default is 5 ms): the loop
writing an LCD at real-time priority, or the fallback signal driver's thread woken at an edge's deadline, gets the
interpreter within this time from the board link's reader or the hub's publisher."""


def _build(config: TableConfig, closers: list[Closer], peripherals: Peripherals | None) -> Table:
    from gpiozero import LED, Button, RotaryEncoder

    sys.setswitchinterval(GIL_SWITCH_S)

    from device.screens import render
    from shared.board_link.reader import BoardLink

    pins = pinmap_for_config(config)
    if peripherals is not None:
        time_source = peripherals.time if peripherals.time is not None else time_source_for(config)
        factory, i2c = peripherals.pin_factory, peripherals.i2c
        if config.display.mode == "i2c" and i2c is None:
            raise ConfigError("display.mode", code="i2c_not_handed")
    else:
        time_source = time_source_for(config)
        factory = make_pin_factory(config.pin_factory)
        closers.append(factory.close)
        i2c = None
        if config.pin_factory == "mock":
            log.warning("mock pins: nothing drives them (a dry run); `partiar sim` gives the table a panel")
        if config.display.mode == "i2c":
            if config.pin_factory == "mock":
                raise ConfigError("display.mode", code="i2c_on_mock")
            from device.lcd_pins import LinuxI2C

            i2c = LinuxI2C(pins.i2c_bus)
            closers.append(i2c.deinit)
    displays = _displays(config, pins, factory, i2c, time_source.now)
    closers.extend(d.close for d in displays)
    signal = _buzzer(config, pins, factory, time_source, peripherals is not None, closers)
    led = LED(pins.led, pin_factory=factory)
    journal = Journal(config.journal_path)
    closers.append(journal.close)
    d = config.display
    table = Table(
        config=config,
        time=time_source,
        clock_mode=clock_mode(config.clock),
        journal=journal,
        displays=displays,
        render=lambda view, index: render(view, config.language, d.columns, d.lines, index, d.count),
        signal=signal,
        led=led,
        lexicon=_load_lexicon(config),
        priority=LOOP_PRIORITY,
    )
    put = table.inputs.put
    buttons = [Button(pins.button_a, pin_factory=factory), Button(pins.button_b, pin_factory=factory)]
    for player, button in enumerate(buttons):
        button.when_pressed = lambda _dev=None, p=player: put(inputs.ButtonPressed(p))
    push = Button(pins.encoder_push, pin_factory=factory)
    push.when_pressed = lambda _dev=None: put(inputs.EncoderPushed())
    encoder = RotaryEncoder(pins.encoder_a, pins.encoder_b, max_steps=0, pin_factory=factory)
    encoder.when_rotated_clockwise = lambda _dev=None: put(inputs.EncoderTurned(1))
    encoder.when_rotated_counter_clockwise = lambda _dev=None: put(inputs.EncoderTurned(-1))
    for device in (*buttons, push, encoder, led):
        closers.append(device.close)
    link = BoardLink(
        config.serial_url, lambda event: put(inputs.LinkEvent(event)), heartbeat_timeout_s=link_timeout(config)
    )
    table.link = link
    link.start()
    closers.append(link.stop)
    publisher = _publisher(config, put)
    if publisher is not None:
        table.publisher = publisher
        publisher.start()
        closers.append(publisher.stop)
    hooks = peripherals.hooks if peripherals is not None else None
    if hooks is not None:
        table.on_change = lambda _view: hooks.notify()
        hooks.register_state_provider(lambda: table.latest_view)
        hooks.register_advance_listener(lambda _seconds: put(inputs.Tick()))
        hooks.register_settle(table.settle)
    return table


HUB_COMMANDS = {rounds.START: "start", rounds.WARNING: "warning", rounds.END: "end"}
"""The hub's round commands (``tablelink.rounds.ROUND_COMMANDS``) -> ``RoundCommand`` names."""


def round_command_input(command: dict[str, Any]) -> inputs.RoundCommand | None:
    """The table input for a round command from the hub (with its round's state), or None for one the table
    does not know."""
    from tablelink.topics import SchemaError

    name = HUB_COMMANDS.get(str(command.get("command")))
    try:
        state = rounds.parse_round_command(command)
    except SchemaError as exc:
        log.warning("round command ignored: %s", exc)
        return None
    return None if name is None else inputs.RoundCommand(name, state, not command.get("retained"))


def _publisher(config: TableConfig, put: Callable[[object], None]) -> Any:
    """The hub publisher if ``[hub] broker`` is set: round commands from the hub become table inputs."""
    if not config.hub.broker:
        return None
    from device.publish import TablePublisher

    def on_command(command: dict[str, Any]) -> None:
        item = round_command_input(command)
        if item is None:
            log.warning("unknown hub command ignored: %r", command)
        else:
            put(item)

    from pathlib import Path

    return TablePublisher(
        config.hub.table_id,
        config.hub.broker,
        username=config.hub.username or config.hub.table_id,
        password=config.hub.password or None,
        queue_dir=Path(config.state_dir) / "hub-queue",
        on_command=on_command,
        ca_file=config.hub.ca_file or None,
        on_pairing=lambda pairing: put(inputs.PairingReceived(pairing)),
        on_link=lambda link: put(inputs.HubLink(link.connected, link.problem, link.detail)),
    )
