"""The version names the build: the package version with the commit (a checkout) or a hash of the sources (an
installed copy), in ``partiar --version``, the deník's settings entries and the hub's pages (``shared.version``)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from test_layering import ROOT

from shared.version import PACKAGES, git_commit, package_version, source_hash, version_text


def test_partiar_version_prints_the_package_version_and_the_commit() -> None:
    """It printed nothing ("unrecognized arguments: --version"); every build said "0.1.0" in the deník."""
    out = subprocess.run([sys.executable, "-m", "device.cli", "--version"], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    assert re.fullmatch(rf"partiar {re.escape(package_version())}\+git\.{head[:12]}(\.dirty)?\n", out.stdout), \
        out.stdout
    assert out.stdout == f"partiar {version_text()}\n"


def test_a_copy_outside_git_is_named_by_its_sources(tmp_path: Path) -> None:
    copy = tmp_path / "site-packages"
    copy.mkdir()
    for package in ("engine", "tournament"):
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__"))
    assert git_commit(copy) is None
    first = source_hash(copy)
    assert re.fullmatch(r"src\.[0-9a-f]{12}", first)
    assert source_hash(copy) == first  # the same code says the same
    (copy / "engine" / "__pycache__").mkdir(exist_ok=True)
    (copy / "engine" / "__pycache__" / "x.py").write_text("# cache\n", encoding="utf-8")
    assert source_hash(copy) == first  # caches do not count
    tweaked = copy / "tournament" / "ladder.py"
    tweaked.write_text(tweaked.read_text(encoding="utf-8") + "\n# changed by hand\n", encoding="utf-8")
    assert source_hash(copy) != first
    assert "shared" in PACKAGES and "tournament" in PACKAGES


def test_the_hub_pages_say_the_build_at_their_foot() -> None:
    from hub.director_render import page
    from hub.web import page_html

    footer = f'<footer class="build">partiar {version_text()}</footer>'
    assert footer in page_html("overview") and footer in page_html("standings")
    assert footer in page("Pořadí", "<main></main>", "cs")
