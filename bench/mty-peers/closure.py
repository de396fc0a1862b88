# closure: 5 passes of map / filter / fold with closures over a list of
# 1000000 integers; each pass captures its own k. Prints 3333336666667
# (bench/mty/closure.mty). Uses the built-in map and filter with lambdas and
# functools.reduce, materialised into lists as Mighty's are.
from functools import reduce


def main():
    n = 1000000
    v = []
    for i in range(n):
        v.append(i)
    total = 0
    for k in range(5):
        mapped = list(map(lambda x: x * 2 + k, v))
        kept = list(filter(lambda x: x % 3 != 0, mapped))
        total += reduce(lambda acc, x: acc + x, kept, 0)
    print(total)


main()
