# 100000 short strings "x" + str(i % 1000) collected and joined; prints the
# joined length, 389000.
def run(n):
    buf = []
    for i in range(n):
        buf.append("x" + str(i % 1000))
    return len("".join(buf))


print(run(100000))
