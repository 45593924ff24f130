"""Settings every test shares.

Hypothesis: no per-example deadline and no ``too_slow`` health check, in every test that does not say otherwise.
Both measure the machine's speed, not the code's correctness: on a loaded 2-core machine they fail at random
(speed targets live in ``bench/``). A test's own ``@settings`` still sets its example count and the rest.

The locale: neutral (``LANG=C.UTF-8``), so the ``partiar`` command's words are Czech as an organiser's are.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("partiar", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("partiar")


@pytest.fixture(scope="module", params=["compiled", "pure"])
def generator_kind(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run a module's tests on both move generators (``pytestmark = pytest.mark.usefixtures("generator_kind")``):
    the compiled search loop, and the pure Python one every machine without a C compiler runs
    (``PARTIAR_PURE_MOVEGEN=1``, engine/movegen/fast.py). A checkout with a C compiler must have built the compiled
    one: its tests fail rather than skip there."""
    from engine.movegen.fast import PURE_ENV, compiled_available

    patch = pytest.MonkeyPatch()
    if request.param == "pure":
        patch.setenv(PURE_ENV, "1")
    else:
        patch.delenv(PURE_ENV, raising=False)
        if not compiled_available():
            if shutil.which("cc") or shutil.which("gcc"):
                pytest.fail("a C compiler is here but engine/movegen/_fastgen did not build: run scripts/setup")
            pytest.skip("no compiled move generator on this machine (no C compiler)")
    yield request.param
    patch.undo()


@pytest.fixture(params=["rustworkx", "networkx"])
def matching_backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run a module's tests on both matchings of the Swiss pairing (tournament/matching.py): rustworkx's, which
    the project installs where it has a wheel, and networkx's, every other machine's (``force_networkx``)."""
    from tournament.matching import backend, force_networkx

    force_networkx(request.param == "networkx")
    try:
        if backend() != request.param:
            pytest.skip("rustworkx is not installed here (no wheel for this machine)")
        yield request.param
    finally:
        force_networkx(False)


@pytest.fixture(autouse=True)
def _czech_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``partiar`` command speaks Czech unless asked for English (``--lang en``, or ``LANG=en_*``:
    ``shared.language``): every test starts from a neutral locale, whatever the machine's ``LANG``."""
    from shared import language

    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setattr(language, "_current", ["cs"])  # a command run in this process before chose its own
