"""pytest hooks and options of pytest-gpucc (skeleton)."""


def pytest_addoption(parser):
    group = parser.getgroup("gpucc", "GPU-resident candidate testing")
    group.addoption("--gpu-candidates", action="store_true", default=False,
                    help="collect gpucc suites and test all their candidates in one VM launch")
