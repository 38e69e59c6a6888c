"""pytest-gpucc: test many program candidates in one VM launch (see README.md).

``pytest_gpucc.run(...)`` is :func:`pytest_gpucc.api.run`, imported on first use so that
importing the package (as pytest does for the plugin) stays light.

PYTEST_DONT_REWRITE: pytest marks an installed plugin's packages for assertion rewriting; these
are imported before pytester's in-process runs start, so rewriting would only warn.
"""

__all__ = ["GpuccRunError", "run"]


def __getattr__(name):
    if name in __all__:
        from pytest_gpucc import api

        return getattr(api, name)
    raise AttributeError(f"module 'pytest_gpucc' has no attribute {name!r}")
