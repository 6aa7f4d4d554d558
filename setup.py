"""The native part of the build: the floating bridge double-dummy solver (a C extension).

Everything else is in pyproject.toml. The extension is optional: if it cannot be compiled
(no C compiler or no Python headers), setuptools warns and the install goes on, and the
solver falls back to its pure-Python search (much slower), saying so when first imported.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "replay.games.floating_bridge.solver._dds",
            sources=["replay/games/floating_bridge/solver/_dds.c"],
            optional=True,
        )
    ]
)
