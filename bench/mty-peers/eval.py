# eval: a recursive expression tree of depth 14 (32767 nodes) built once
# and evaluated 300 times, for x = 0..299, modulo 1000003; prints the sum
# of the results (bench/mty/eval.mty). Nodes are tuples (tag, a, b).
M = 1000003
NUM, VAR, ADD, SUB, MUL = range(5)


def build(depth, seed):
    if depth == 0:
        return (VAR,) if seed % 3 == 0 else (NUM, seed % 100)
    l = build(depth - 1, seed * 3 + 1)
    r = build(depth - 1, seed * 7 + 2)
    m = depth % 3
    if m == 0:
        return (ADD, l, r)
    if m == 1:
        return (MUL, l, r)
    return (SUB, l, r)


def evaluate(e, x):
    tag = e[0]
    if tag == NUM:
        return e[1]
    if tag == VAR:
        return x
    if tag == ADD:
        return (evaluate(e[1], x) + evaluate(e[2], x)) % M
    if tag == SUB:
        return (evaluate(e[1], x) - evaluate(e[2], x) + M) % M
    return (evaluate(e[1], x) * evaluate(e[2], x)) % M


def main():
    tree = build(14, 1)
    total = 0
    for x in range(300):
        total += evaluate(tree, x)
    print(total)


main()
