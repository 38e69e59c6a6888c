def shout(s: str, n: int) -> str:
    """Literals share pool entries; `n * s` repeats with the count moved on top; `for ch in s`
    makes each code point a 1-char str."""
    t = "" + s.strip().upper() + "!" * n + n * "?"
    out = ""
    for ch in t:
        if ch != " " and ch not in "aeiou":
            out += ch
    return out or "<empty>"


def words(text: str, k: int) -> list[str]:
    parts = text.split(",", k)
    parts.append(min(text, "a", "b"))
    parts.sort()
    return parts if "x" in parts and parts[0] <= "m" < parts[-1] else [str(k), chr(k).zfill(3)]


def count(text: str) -> int:
    return text.find("ab") + text.count("a") + ord(text[0]) + int(text[1:]) + len(",".join(words(text, -1)))
