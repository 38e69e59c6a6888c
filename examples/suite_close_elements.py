# gpucc suite: HumanEval/0, has_close_elements (lists of floats).
# Run: pytest --gpu-candidates examples/


def has_close_elements(numbers: list[float], threshold: float) -> bool:
    """Whether any two numbers in the list are closer to each other than threshold."""
    ...


@cases([
    ([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.3, True),
    ([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.05, False),
    ([1.0, 2.0, 5.9, 4.0, 5.0], 0.95, True),
    ([1.0, 2.0, 5.9, 4.0, 5.0], 0.8, False),
    ([1.0, 2.0, 3.0, 4.0, 5.0, 2.0], 0.1, True),
    ([1.1, 2.2, 3.1, 4.1, 5.1], 1.0, True),
    ([1.1, 2.2, 3.1, 4.1, 5.1], 0.5, False),
    ([], 1.0, False),
    ([3.5], 10.0, False),
])
def test_humaneval_cases(numbers: list[float], threshold: float, want: bool) -> None:
    assert has_close_elements(numbers, threshold) == want


def test_many_numbers() -> None:
    xs = []
    for i in range(200):
        xs.append(i * 1.5)
    assert not has_close_elements(xs, 1.0)
    xs.append(100.2)
    assert has_close_elements(xs, 0.5)
