def has_close_elements(numbers: list[float], threshold: float) -> bool:
    ordered = sorted(numbers)
    for i in range(len(ordered)):
        if ordered[i + 1] - ordered[i] < threshold:  # IndexError at the end
            return True
    return False
