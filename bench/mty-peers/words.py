# words: word frequencies over a generated text of 300000 words (the same
# vocabulary and generator as bench/mty/words.mty), sorted by count
# (descending, ties alphabetical); prints the top 5 and a summary line.
def main():
    syl = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "pe", "su"]
    vocab = []
    for k in range(1000):
        vocab.append(syl[k % 10] + syl[k // 10 % 10] + syl[k // 100])
    seed = 42
    picked = []
    for _ in range(300000):
        seed = (seed * 1103515245 + 12345) % 2147483648
        a = seed % 1000
        b = seed // 1000 % 1000
        picked.append(vocab[a * b // 1000])
    text = " ".join(picked)

    counts = {}
    for w in text.split(" "):
        if w in counts:
            counts[w] += 1
        else:
            counts[w] = 1
    words = sorted(counts, key=lambda w: (-counts[w], w))
    for w in words[:5]:
        print(f"{w:<8} {counts[w]:>6}")
    top = words[0]
    print(f"{len(text.split(' '))} words, {len(counts)} distinct, top {top} x{counts[top]}")


main()
