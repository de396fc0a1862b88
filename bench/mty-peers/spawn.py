# spawn: creates 10000 worker generators (the Python stand-in for agents),
# keeps them, then asks each once; prints the sum of the replies, 99990000
# (bench/mty/spawn.mty).
def worker(wid):
    while True:
        yield wid * 2


def main():
    n = 10000
    workers = []
    for i in range(n):
        workers.append(worker(i))
    total = 0
    for w in workers:
        total += next(w)
    print(total)


main()
