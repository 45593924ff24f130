"""Which build of partiar is running: the package version and the code it runs, so a committee can tell which code
produced a pairing, a standing or a score sheet (seed 004: the deník records the software and its version).

:func:`version_text` is the one home of that name, used by ``partiar --version``, the deník's ``SettingsChanged``
entries (a tournament folder's and the hub's) and the hub's pages:

- in a git checkout: ``0.1.0+git.1a2b3c4d5e6f``, the commit, with ``.dirty`` when tracked files differ from it;
- elsewhere (an installed copy, a tarball): ``0.1.0+src.0f1e2d3c4b5a``, a hash of the source files' paths and
  contents, so two copies with the same code say the same, and a copy changed by hand says something else.

Computed once, when first asked (``git`` run, or the sources read); nothing at import time.
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The folder holding the project's packages (the checkout, or site-packages of an installed copy)."""
PACKAGES = ("engine", "shared", "device", "hub", "tournament", "desk", "hw_sim", "eventstream", "firmware", "wiring")
"""The project's packages whose sources the content hash covers."""
DIGITS = 12


def package_version() -> str:
    """The installed distribution's version (``pyproject.toml``'s), or ``unknown`` if it is not installed."""
    from importlib import metadata  # not at import: the table's start does not load the metadata machinery

    try:
        return metadata.version("partiar")
    except metadata.PackageNotFoundError:
        return "unknown"


def git_commit(root: Path = ROOT) -> str | None:
    """``git.<commit>`` (``.dirty`` added when tracked files differ from it) if ``root`` is a git checkout with git
    installed, else None."""
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=30, check=True).stdout.strip()
        changed = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True, timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    if not head:
        return None
    return f"git.{head[:DIGITS]}" + (".dirty" if changed else "")


def source_hash(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> str:
    """``src.<hash>``: SHA-256 over the relative path and content of every ``.py`` file of ``packages`` under
    ``root``, in path order (compiled files and caches are left out)."""
    digest = hashlib.sha256()
    for package in packages:
        base = root / package
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return f"src.{digest.hexdigest()[:DIGITS]}"


@functools.cache
def version_text() -> str:
    """This build's name: ``<package version>+<git commit or source hash>`` (module docstring)."""
    return f"{package_version()}+{git_commit() or source_hash()}"
