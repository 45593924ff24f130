"""The compiled part of partiar: the move generator's search loop (engine/movegen/_fastgen.c).

Everything else is in pyproject.toml. The extension is optional: where no C compiler or Python headers are (a
bare Raspberry Pi OS without python3-dev), the install goes on without it and the generator runs in pure Python
with the same results (engine/movegen/fast.py)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.movegen._fastgen",
            ["engine/movegen/_fastgen.c"],
            optional=True,
            extra_compile_args=["-O3", "-std=c11"],
        )
    ]
)
