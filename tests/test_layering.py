"""The table unit's code (``device/``) never imports the simulator (``hw_sim/``): the simulator builds its panel
and hands the daemon its pins (``device.peripherals``), so ``partiar run`` on a Pi never touches ``hw_sim``. The
hub and the simulator never import each other; what every live page is served with (server-sent events, the change
bookkeeping, the uvicorn thread) is in ``eventstream/``, which imports no project package, so the referee's
duplicate room page, the simulator and the hub share it. The table unit holds the table unit alone: the referee's
desk tools (``desk/``: duplicate, qualification, ``partiar best``) are their own package, which ``device/`` never
imports. What the table, the hub and the desk share (texts, the journal, the board link) is in ``shared/``, which
imports none of them: the hub and the desk never import ``device/`` (the hub only its table-hub contract, until
that has its own package)."""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from collections.abc import Collection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = "hw_sim"


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """Every module an ``import``/``from ... import`` names, and ``importlib.import_module("...")`` /
    ``__import__("...")`` calls with a literal name, with their line numbers."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else ""
            )
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def forbidden_imports(package: Path, forbidden: Collection[str]) -> list[str]:
    """``file:line: imports module`` for every import under ``package`` of a package named in ``forbidden``."""
    offences = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, module in imported_modules(tree):
            if module.split(".")[0] in forbidden:
                offences.append(f"{path.relative_to(package.parent)}:{line}: imports {module}")
    return offences


def simulator_imports(package: Path) -> list[str]:
    """``file:line: imports module`` for every import of the simulator under ``package``."""
    return forbidden_imports(package, {FORBIDDEN})


def test_device_never_imports_the_simulator() -> None:
    assert simulator_imports(ROOT / "device") == []


def test_the_scan_finds_every_form_of_import(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text(
        "import hw_sim.panel\nfrom hw_sim import sim\nimport importlib\n"
        "def f():\n    from hw_sim.panel import Panel\n    return importlib.import_module('hw_sim.daemon')\n"
        "import hw_simulator  # another package: allowed\nfrom . import hw_sim  # relative: allowed\n",
        encoding="utf-8",
    )
    assert simulator_imports(package) == [
        "pkg/a.py:1: imports hw_sim.panel",
        "pkg/a.py:2: imports hw_sim",
        "pkg/a.py:5: imports hw_sim.panel",
        "pkg/a.py:6: imports hw_sim.daemon",
    ]


def test_the_daemon_command_loads_no_simulator_module() -> None:
    """What ``partiar run`` and ``partiar diag`` import at start-up (their command modules and the composition
    root) pulls in no ``hw_sim`` module, not even through a dependency."""
    program = (
        "import sys\n"
        "import device.cli.run, device.cli.diag, device.hardware, device.table, device.peripherals\n"
        "print(sorted(m for m in sys.modules if m == 'hw_sim' or m.startswith('hw_sim.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_partiar_sim_is_registered_by_the_simulator() -> None:
    """``partiar sim`` comes from ``hw_sim/cli.py`` through the ``partiar.commands`` entry point."""
    from device.cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(sub.choices)[:2] == ["run", "sim"]
    assert sub.choices["sim"].get_default("func").__module__ == "hw_sim.cli"


PROJECT = {"engine", "shared", "device", "hub", "hw_sim", "firmware", "wiring", "desk"}


def test_the_shared_event_stream_imports_no_project_package() -> None:
    """``eventstream`` (server-sent events, change bookkeeping, the server thread) serves the hub, the simulator
    and the referee's duplicate room page, which never import each other: it must stay below all of them."""
    assert forbidden_imports(ROOT / "eventstream", PROJECT) == []


def test_only_the_shared_server_runs_uvicorn() -> None:
    """One runner for every HTTP server (``eventstream.server.ServerThread``): no other module imports uvicorn."""
    offences = [
        line
        for package in sorted(PROJECT | {"eventstream"})
        if (ROOT / package).is_dir()
        for line in forbidden_imports(ROOT / package, {"uvicorn"})
    ]
    assert {line.split(":")[0] for line in offences} == {"eventstream/server.py"}, offences


def test_the_hub_and_the_simulator_do_not_import_each_other() -> None:
    assert forbidden_imports(ROOT / "hub", {"hw_sim"}) == []
    assert forbidden_imports(ROOT / "hw_sim", {"hub"}) == []


def test_the_table_unit_imports_no_higher_package() -> None:
    """``device/`` is the table unit: it imports neither the referee's desk, nor the hub, the simulator or the
    tournament's logic (they use it, never the other way)."""
    assert forbidden_imports(ROOT / "device", {"desk", "hub", "hw_sim", "tournament"}) == []


def device_imports(package: Path, allowed: Collection[str] = ()) -> list[str]:
    """``file:line: imports module`` for every import under ``package`` of a ``device`` module that ``allowed`` does
    not name (a name there covers its submodules)."""
    offences = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, module in imported_modules(tree):
            if module.split(".")[0] != "device":
                continue
            if not any(module == ok or module.startswith(ok + ".") for ok in allowed):
                offences.append(f"{path.relative_to(package.parent)}:{line}: imports {module}")
    return offences


def test_the_desk_never_imports_the_table_unit() -> None:
    """The referee's desk uses the engine, the event stream and what a table and a desk share (``shared/``: texts,
    the journal, the board link, the wording of GCG errors); never the table unit, the hub or the simulator."""
    assert device_imports(ROOT / "desk") == []
    assert forbidden_imports(ROOT / "desk", {"hub", "hw_sim"}) == []


def test_the_hub_never_imports_the_table_unit() -> None:
    """The hub imports nothing from ``device/``: the table-hub contract is ``tablelink/``, which both import."""
    assert device_imports(ROOT / "hub") == []


def test_the_tournament_logic_never_imports_the_table_unit() -> None:
    assert forbidden_imports(ROOT / "tournament", {"device", "hub", "hw_sim", "desk"}) == []


def test_the_shared_modules_import_no_higher_package() -> None:
    """``shared/`` is below the table unit, the hub, the desk and the simulator: it imports none of them."""
    assert forbidden_imports(ROOT / "shared", {"device", "hub", "desk", "hw_sim", "tournament"}) == []


def test_the_device_scan_refuses_a_device_module(tmp_path: Path) -> None:
    package = tmp_path / "hub"
    package.mkdir()
    (package / "a.py").write_text(
        "from shared.texts import cli\nfrom device.publish.topics import ROOT\nimport device.table\n"
        "def f():\n    from device.journal import x\n",
        encoding="utf-8",
    )
    assert device_imports(package, ("device.publish",)) == [
        "hub/a.py:3: imports device.table",
        "hub/a.py:5: imports device.journal",
    ]
    assert device_imports(package) == [
        "hub/a.py:2: imports device.publish.topics",
        "hub/a.py:3: imports device.table",
        "hub/a.py:5: imports device.journal",
    ]


def test_the_desk_commands_are_registered_by_the_desk() -> None:
    """``partiar best``, ``duplicate`` and ``qualify`` come from ``desk/`` through the ``partiar.commands`` entry
    points, and ``device/`` has no module of theirs."""
    from device.cli import _plugins, build_parser

    plugins = _plugins()
    for name in ("best", "duplicate", "qualify"):
        assert plugins[name].value == f"desk.{name}:register"
        parser = build_parser(name)
        (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        assert name in sub.choices
        assert not (ROOT / "device" / "cli" / f"{name}.py").exists()
    assert not (ROOT / "device" / "duplicate_show.py").exists()


def test_the_table_hub_contract_imports_neither_side() -> None:
    """``tablelink/`` (topics, payloads, pairing, acknowledgements, round commands) is the contract between the
    table unit and the hub: both import it, it imports no project package."""
    assert forbidden_imports(ROOT / "tablelink", PROJECT | {"tournament", "eventstream"}) == []


def test_the_contract_is_named_once() -> None:
    """The table and the hub take the contract from ``tablelink``: no module of theirs is named for it any more,
    and no file outside ``tablelink`` spells out the round commands' list."""
    assert not (ROOT / "device" / "publish" / "topics.py").exists()
    assert not (ROOT / "device" / "publish" / "connection.py").exists()
    assert [line for line in forbidden_imports(ROOT / "device", {"tablelink"}) if "device/publish/" in line]
    assert forbidden_imports(ROOT / "hub", {"tablelink"})
    spelled = [
        str(path.relative_to(ROOT))
        for package in ("device", "hub")
        for path in sorted((ROOT / package).rglob("*.py"))
        if '"start_round", "warning", "end_base_time"' in path.read_text(encoding="utf-8")
    ]
    assert spelled == [], spelled
