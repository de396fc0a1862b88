# alloc: 3000000 three-element tuples (i, i + 1, i + 2) appended to a list,
# kept live, then every field summed; prints 13500004500000
# (bench/mty/alloc.mty).
def main():
    n = 3000000
    v = []
    for i in range(n):
        v.append((i, i + 1, i + 2))
    total = 0
    for t in v:
        a, b, c = t
        total += a + b + c
    print(total)


main()
