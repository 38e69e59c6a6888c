def sum_squares(n: int) -> int:
    # does not compile: floats and `/` are outside the gpucc language
    if n <= 0:
        return 0
    return int(n * (n + 1) * (2 * n + 1) / 6.0)
