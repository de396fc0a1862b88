# str: 1000000 short strings "x<i % 1000>" built with an f-string, joined;
# prints the joined length, 3890000 (bench/mty/str.mty).
def main():
    n = 1000000
    parts = []
    for i in range(n):
        parts.append(f"x{i % 1000}")
    s = "".join(parts)
    print(len(s))


main()
