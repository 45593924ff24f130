"""The panel drives real gpiozero devices on its mock pins and serves the control API."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest
from gpiozero import LED, Button, Buzzer, RotaryEncoder, TonalBuzzer

from hw_sim.panel import Panel, PanelError, PanelValueError, pin_number
from shared.timesource import FakeTime

PINMAP = {
    "button_a": 17,
    "button_b": 27,
    "encoder_a": 5,
    "encoder_b": 6,
    "encoder_push": 13,
    "buzzer": 18,
    "led": 23,
}


class StubLcd:
    """Stands in for an HD44780 emulator: rows, glyphs and backlight."""

    def __init__(self, spec: tuple[int, int]) -> None:
        cols, lines = spec
        self.rows = ["Ahoj".ljust(cols)] + [" " * cols] * (lines - 1)
        self.cgram = [[i] * 8 for i in range(8)]
        self.backlight = True


def make_panel(**kwargs) -> Panel:
    kwargs.setdefault("lcd_factory", lambda spec, _factory: StubLcd(spec))
    return Panel(PINMAP, kwargs.pop("lcd_specs", [(16, 2)]), **kwargs)


@pytest.fixture
def panel():
    p = make_panel()
    p.register_state_provider(lambda: {})
    yield p
    p.close()


def call(panel: Panel, path: str, body: dict | None = None) -> tuple[int, dict]:
    url = f"http://127.0.0.1:{panel.port}{path}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_press_fires_gpiozero_button_once(panel: Panel) -> None:
    pressed: list[str] = []
    released: list[str] = []
    with (
        Button(PINMAP["button_a"], pin_factory=panel.pin_factory) as a,
        Button(PINMAP["button_b"], pin_factory=panel.pin_factory) as b,
    ):
        a.when_pressed = lambda: pressed.append("a")
        b.when_pressed = lambda: pressed.append("b")
        a.when_released = lambda: released.append("a")
        status, answer = call(panel, "/press", {"button": "b"})
        assert (status, answer) == (200, {"ok": True, "seq": panel.broadcaster.version})
        panel.press("a")
        assert pressed == ["b", "a"]
        assert released == ["a"]
        assert not a.is_pressed and not b.is_pressed


def test_press_encoder_switch(panel: Panel) -> None:
    hits = []
    with Button(PINMAP["encoder_push"], pin_factory=panel.pin_factory) as push:
        push.when_pressed = lambda: hits.append(1)
        assert call(panel, "/press", {"button": "encoder"})[0] == 200
    assert hits == [1]


@pytest.mark.parametrize("steps", [1, 3, -1, -4, 7])
def test_turn_counts_exact_detents(panel: Panel, steps: int) -> None:
    cw: list[int] = []
    ccw: list[int] = []
    with RotaryEncoder(
        PINMAP["encoder_a"], PINMAP["encoder_b"], max_steps=0, pin_factory=panel.pin_factory
    ) as enc:
        enc.when_rotated_clockwise = lambda: cw.append(1)
        enc.when_rotated_counter_clockwise = lambda: ccw.append(1)
        assert call(panel, "/turn", {"steps": steps}) == (200, {"ok": True, "seq": panel.broadcaster.version})
        assert enc.steps == steps
        assert (len(cw), len(ccw)) == (max(steps, 0), max(-steps, 0))
        panel.turn(-steps)
        assert enc.steps == 0


def test_bad_commands_answer_400_with_the_reason(panel: Panel) -> None:
    status, answer = call(panel, "/press", {"button": "c"})
    assert status == 400 and "'c'" in answer["error"]
    status, answer = call(panel, "/turn", {"steps": "3"})
    assert status == 400 and "steps" in answer["error"]
    status, answer = call(panel, "/turn", {"steps": 1000})
    assert status == 400
    status, _ = call(panel, "/nothing", {})
    assert status == 404
    with pytest.raises(PanelValueError):
        panel.press("a", hold=-1)


def test_advance_needs_manual_time(panel: Panel) -> None:
    status, answer = call(panel, "/advance", {"seconds": 5})
    assert status == 409 and "manual" in answer["error"]


def test_advance_moves_manual_time_and_wakes_waiters() -> None:
    clock = FakeTime(100.0)
    advanced: list[float] = []
    with make_panel(time_source=clock) as panel:
        panel.register_state_provider(lambda: {})
        panel.register_advance_listener(advanced.append)
        wake = threading.Event()
        woken: list[bool] = []
        waiter = threading.Thread(target=lambda: woken.append(clock.wait_until(130.0, wake)))
        waiter.start()
        status, answer = call(panel, "/advance", {"seconds": 12.5})
        assert (status, answer) == (200, {"ok": True, "time": 112.5, "seq": panel.broadcaster.version})
        assert waiter.is_alive()
        call(panel, "/advance", {"seconds": 20})
        waiter.join(5)
        assert woken == [True]
        assert clock.now() == 132.5
        assert advanced == [12.5, 20]
        assert panel.state()["manual_time"] is True


def test_active_buzzer_and_led_are_recorded() -> None:
    clock = FakeTime(0.0)
    with make_panel(time_source=clock) as panel:
        with (
            Buzzer(PINMAP["buzzer"], pin_factory=panel.pin_factory) as buzzer,
            LED(PINMAP["led"], pin_factory=panel.pin_factory) as led,
        ):
            assert panel.state()["buzzer"] is False
            buzzer.on()
            clock.advance(0.25)
            led.on()
            state = panel.state()
            assert state["buzzer"] is True and state["led"] is True and state["buzzer_hz"] is None
            buzzer.off()
            assert panel.state()["buzzer"] is False
        assert [(c.t, c.value) for c in panel.buzzer_history] == [(0.0, 1.0), (0.25, 0.0)]
        assert [c.value for c in panel.led_history] == [1.0]


def test_passive_buzzer_gets_a_pwm_pin_and_reports_its_tone() -> None:
    with (
        make_panel(passive_buzzer=True) as panel,
        TonalBuzzer(PINMAP["buzzer"], pin_factory=panel.pin_factory) as buzzer,
    ):
        buzzer.play(440.0)
        state = panel.state()
        assert state["buzzer"] is True and state["buzzer_hz"] == pytest.approx(440.0)
        buzzer.stop()
        assert panel.state()["buzzer"] is False
        assert panel.buzzer_history[-1].value == 0.0


def test_state_includes_lcds_and_table_and_events_push_changes(panel: Panel) -> None:
    table = {"move": 1}
    panel.register_state_provider(lambda: dict(table))
    status, state = call(panel, "/state")
    assert status == 200
    assert state["lcds"][0]["rows"][0].startswith("Ahoj") and len(state["lcds"][0]["cgram"]) == 8
    assert state["table"] == {"move": 1}
    with urllib.request.urlopen(f"http://127.0.0.1:{panel.port}/events", timeout=5) as stream:
        first = stream.readline()
        assert json.loads(first.removeprefix(b"data: "))["table"] == {"move": 1}
        assert stream.readline() == b"\n"
        table["move"] = 2
        panel.notify()
        second = stream.readline()
        assert json.loads(second.removeprefix(b"data: "))["table"] == {"move": 2}


def test_broken_state_provider_is_reported_not_fatal(panel: Panel) -> None:
    panel.register_state_provider(lambda: 1 / 0)
    status, state = call(panel, "/state")
    assert status == 200 and "ZeroDivisionError" in state["table"]["error"]
    assert state["lcds"]


def test_port_file_and_health(tmp_path) -> None:
    port_file = tmp_path / "sub" / "panel.port"
    with make_panel(port_file=port_file) as panel:
        assert call(panel, "/press", {"button": "a"})[0] == 503  # the daemon has not finished starting
        assert not port_file.exists()
        panel.register_state_provider(lambda: {})
        assert int(port_file.read_text()) == panel.port
        status, answer = call(panel, "/health")
        assert status == 200 and answer["ok"] is True and answer["pid"] > 0


def test_pin_numbers_from_mappings_objects_and_names() -> None:
    class Pins:
        button_a = "GPIO17"
        led = "BCM23"

    assert pin_number(Pins(), "button_a") == 17
    assert pin_number(Pins(), "led") == 23
    assert pin_number(Pins(), "buzzer") is None
    with pytest.raises(PanelError, match="'pin 7'"):
        pin_number({"buzzer": "pin 7"}, "buzzer")


def test_missing_button_is_a_clear_error() -> None:
    with Panel({"button_a": 17}, [], serve=False) as panel:
        with pytest.raises(PanelError, match="button_b"):
            panel.press("b")


def test_gpio_lcd_is_emulated_and_pushed_to_the_state() -> None:
    from gpiozero import DigitalOutputDevice

    from device.lcd_pins import GpioLcdWiring
    from hw_sim.panel import LcdSpec

    pins = GpioLcdWiring(rs="GPIO25", e="GPIO24", d4="GPIO16", d5="GPIO20", d6="GPIO21", d7="GPIO26")
    with Panel(PINMAP, [LcdSpec(16, 2, "gpio4", pins)], serve=False) as panel:
        f = panel.pin_factory
        rs, e = DigitalOutputDevice(pins.rs, pin_factory=f), DigitalOutputDevice(pins.e, pin_factory=f)
        data = [DigitalOutputDevice(getattr(pins, n), pin_factory=f) for n in ("d4", "d5", "d6", "d7")]

        def nibble(value: int, is_data: bool) -> None:
            rs.value = is_data
            for bit, dev in enumerate(data):
                dev.value = (value >> bit) & 1
            e.on()
            e.off()

        for n in (3, 3, 3, 2):
            nibble(n, False)
        for byte, is_data in (
            (0x28, False),
            (0x0C, False),
            (0x01, False),
            (0x06, False),
            (ord("H"), True),
            (ord("i"), True),
        ):
            nibble(byte >> 4, is_data)
            nibble(byte & 0xF, is_data)
        seen = panel.server is None and panel.state()["lcds"][0]
        assert seen["rows"] == ["Hi".ljust(16), " " * 16]
        for dev in (rs, e, *data):
            dev.close()


def test_an_inputs_answer_names_the_change_its_state_shows(panel: Panel) -> None:
    """``seq``: the answer to an input carries the panel's change counter after the table handled it; a state with
    a counter at least that high shows what the table did (a client waits for it rather than for "a change")."""
    table = {"presses": 0}
    panel.register_state_provider(lambda: dict(table))
    with Button(PINMAP["button_a"], pin_factory=panel.pin_factory) as a:

        def on_press() -> None:  # the table's loop: update the view, then notify
            table["presses"] += 1
            panel.notify()

        a.when_pressed = on_press
        before = call(panel, "/state")[1]["seq"]
        status, answer = call(panel, "/press", {"button": "a"})
        assert status == 200 and answer["seq"] > before
        state = call(panel, "/state")[1]
        assert state["seq"] >= answer["seq"] and state["table"] == {"presses": 1}
