# loop: sums 0..100000000 with a for loop; prints 4999999950000000
# (bench/mty/loop.mty).
def main():
    total = 0
    for i in range(100000000):
        total += i
    print(total)


main()
