"""Repository root conftest: pytest puts this directory on sys.path (rootdir imports: tests.oracle, benchmarks)."""
