# ask: 100000 request/reply round trips to a counter generator (the Python
# stand-in for an agent: send() sends, yield replies); prints the sum of
# the replies, 5000050000 (bench/mty/ask.mty).
def counter():
    n = 0
    by = yield
    while True:
        n += by
        by = yield n


def main():
    c = counter()
    next(c)
    total = 0
    for _ in range(100000):
        total += c.send(1)
    print(total)


main()
