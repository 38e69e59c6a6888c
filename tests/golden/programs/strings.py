# Strs: literals and escapes, operators, slicing, loops, builtins and methods; each result is
# a number computed from strs (a job's result cannot show a str), each argument an int that
# picks a sample str.


def sample(n: int) -> str:
    return ["Never odd or even", "gpucc", "Hello, World", "", "  the quick  brown fox ", "a,b,,c", "1,2,,30",
            "7", "1,x", "abc xyz", "z", "abracadabra"][n]


def code_sum(s: str) -> int:
    total = 0
    for ch in s:
        total = total * 3 + ord(ch)
    return total


# escapes() == 10142720
def escapes() -> int:
    return code_sum("a\tb\n\\\x41\u00e9\U0001F600" 'q' r"\n") + len("""two
lines""")


# palindrome(0) == True
# palindrome(1) == False
def palindrome(n: int) -> bool:
    letters = ""
    for ch in sample(n).lower():
        if ch.isalpha():
            letters += ch
    return letters == letters[::-1]


# vowels(2) == 3
# vowels(3) == 0
def vowels(k: int) -> int:
    n = 0
    for ch in sample(k):
        if ch in "aeiouAEIOU":
            n += 1
    return n


# word_count(4) == 4
# word_count(5) == 1
def word_count(n: int) -> int:
    return len(sample(n).split())


# csv_total(6) == 33
# csv_total(7) == 7
# csv_total(8) raises ValueError
def csv_total(n: int) -> int:
    total = 0
    for field in sample(n).split(","):
        if field.strip():
            total += int(field)
    return total


# caesar(9, 3) == 107835
def caesar(n: int, k: int) -> int:
    out = ""
    for ch in sample(n):
        if "a" <= ch <= "z":
            out += chr((ord(ch) - ord("a") + k) % 26 + ord("a"))
        else:
            out += ch
    return code_sum(out)


# ordered() == 243545708
def ordered() -> int:
    a = "pear"
    b = "apple"
    c = "fig"
    xs = sorted([a, b, c])
    ys = [a, b, c]
    ys.sort()
    assert xs == ys
    return code_sum("|".join(xs)) + code_sum(min(a, b, c)) + code_sum(max(ys))


# first_char(3) raises IndexError
# first_char(10) == 122
def first_char(n: int) -> int:
    return ord(sample(n)[0])


# padded(42, 6) == 549389673081362
def padded(n: int, width: int) -> int:
    s = str(n)
    return code_sum(s.zfill(width) + s.rjust(width, "*") + s.center(width) + s.ljust(width) + str(n / 4))


# find_all(11) == 721
def find_all(n: int) -> int:
    s = sample(n)
    sub = "abra"
    return s.find(sub) * 1000 + s.rfind(sub) * 100 + s.count(sub) * 10 + s.startswith(sub) + s.endswith("x")


# index_missing(9) raises ValueError
def index_missing(n: int) -> int:
    return sample(n).index("q")


# code_of(10) == 122
# code_of(1) raises TypeError
def code_of(n: int) -> int:
    return ord(sample(n))
