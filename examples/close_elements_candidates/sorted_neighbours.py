def has_close_elements(numbers: list[float], threshold: float) -> bool:
    ordered = sorted(numbers)
    for i in range(1, len(ordered)):
        if ordered[i] - ordered[i - 1] < threshold:
            return True
    return False
