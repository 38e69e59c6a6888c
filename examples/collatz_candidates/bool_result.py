def collatz_steps(n: int) -> bool:
    # wrong signature: the suite's interface returns int
    return n == 1
