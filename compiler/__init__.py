"""The gpucc compiler: sources -> VM bytecode, all units of a batch in one launch.

`compile_batch`, `compile_source` and `CompiledBatch` live in compiler.batch; they are
imported lazily so that `import compiler.errors` (and friends) stays cheap.

PYTEST_DONT_REWRITE: pytest marks an installed plugin's packages for assertion rewriting; these
are imported before pytester's in-process runs start, so rewriting would only warn.
"""

__all__ = ["CompiledBatch", "compile_batch", "compile_source"]


def __getattr__(name):
    if name in __all__:
        from gpucc.compiler import batch

        return getattr(batch, name)
    raise AttributeError(f"module 'compiler' has no attribute {name!r}")
