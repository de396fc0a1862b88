# Sum of i for i in [0, 10000000); prints 49999995000000.
def run():
    total = 0
    for i in range(10000000):
        total += i
    return total


print(run())
