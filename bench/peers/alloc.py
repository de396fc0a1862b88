# 1000000 three-int tuples (i, i+1, i+2) kept live in a list, then the sum
# of the middle field; prints 500000500000.
def run(n):
    recs = []
    for i in range(n):
        recs.append((i, i + 1, i + 2))
    total = 0
    for r in recs:
        total += r[1]
    return total


print(run(1000000))
