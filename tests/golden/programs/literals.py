# Int literals in every base, underscores, and the int64 edges.


# bases() == 309
def bases() -> int:
    return 0x10 + 0o10 + 0b10 + 1_0 + 0XFF + 0O3 + 0B11 + 1_2


# largest() == 9223372036854775807
def largest() -> int:
    return 0x7fff_ffff_ffff_ffff


# smallest() == -9223372036854775808
def smallest() -> int:
    return -9223372036854775807 - 1


# big_product() == 9000000000000000000
def big_product() -> int:
    return 3_000_000_000 * 3_000_000_000
