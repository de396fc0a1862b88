# map: 200000 inserts of string keys "k<i>" into a dict, then 200000
# lookups of the same keys; prints "200000 keys, sum 19999900000"
# (bench/mty/map.mty).
def main():
    n = 200000
    m = {}
    for i in range(n):
        m[f"k{i}"] = i
    total = 0
    for i in range(n):
        total += m[f"k{i}"]
    print(f"{len(m)} keys, sum {total}")


main()
