# 1000000 method calls c.bump(i) on one object; prints 500000500000.
class Counter:
    def __init__(self):
        self.count = 0

    def bump(self, k):
        self.count += k


def run(n):
    c = Counter()
    for i in range(1, n + 1):
        c.bump(i)
    return c.count


print(run(1000000))
