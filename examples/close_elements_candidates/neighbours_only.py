def has_close_elements(numbers: list[float], threshold: float) -> bool:
    # wrong: compares only neighbours in the given (unsorted) order
    for i in range(1, len(numbers)):
        if abs(numbers[i] - numbers[i - 1]) < threshold:
            return True
    return False
