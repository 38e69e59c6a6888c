def has_close_elements(numbers: list[float], threshold: float) -> bool:
    n = len(numbers)
    for i in range(n):
        x = numbers[i]
        for j in range(i + 1, n):
            if abs(x - numbers[j]) < threshold:
                return True
    return False
