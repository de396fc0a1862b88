#include "mty/vocab/suggest.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace mty::ir {

size_t EditDistance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme: i-2, i-1, i.
  const size_t n = b.size();
  std::vector<size_t> prev2(n + 1), prev(n + 1), cur(n + 1);
  std::iota(prev.begin(), prev.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= n; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[n];
}

namespace {

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::string Nearest(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty()) return "";
  const size_t allowed = std::max<size_t>(1, word.size() / 3);
  const std::string* best = nullptr;
  size_t best_distance = allowed + 1;
  for (const std::string& c : candidates) {
    if (c == word) return "";
    if (EqualsIgnoringCase(c, word)) return c;
    // The distance is at least the difference in length: skip far ones.
    const size_t diff = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (diff > allowed) continue;
    const size_t d = EditDistance(word, c);
    if (d < best_distance) {
      best = &c;
      best_distance = d;
    }
  }
  return best ? *best : "";
}

}  // namespace mty::ir
