"""Settings every test shares.

Hypothesis: no per-example deadline and no ``too_slow`` health check, in every test that does not say otherwise.
Both measure the machine's speed, not the code's correctness: on a loaded 2-core machine they fail at random
(speed targets live in ``bench/``). A test's own ``@settings`` still sets its example count and the rest.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile("partiar", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("partiar")
