# method: 10000000 method calls c.bump(i) on one object; prints
# 50000005000000 (bench/mty/method.mty).
class Counter:
    __slots__ = ("count",)

    def __init__(self):
        self.count = 0

    def bump(self, k):
        self.count += k


def main():
    c = Counter()
    for i in range(1, 10000000 + 1):
        c.bump(i)
    print(c.count)


main()
