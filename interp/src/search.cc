// Linear-time substring search (search.h).
#include "search.h"

#include <cstring>

#include "mty/interp/work.h"

namespace mty::interp {

Searcher::Searcher(std::string_view pattern, bool reverse) : p_(pattern), reverse_(reverse) {
  const size_t m = p_.size();
  fail_.assign(m, 0);
  uint64_t steps = 0;
  for (size_t i = 1, k = 0; i < m; ++i) {
    while (k > 0 && At(i) != At(k)) {
      k = fail_[k - 1];
      ++steps;
    }
    if (At(i) == At(k)) ++k;
    fail_[i] = static_cast<uint32_t>(k);
    ++steps;
  }
  MTY_WORK(steps + m);
}

size_t Searcher::Find(std::string_view t, size_t from) const {
  const size_t m = p_.size(), n = t.size();
  if (from > n) return std::string_view::npos;
  if (m == 0) return from;
  if (m == 1) {
    const void* hit = std::memchr(t.data() + from, p_[0], n - from);
    size_t at = hit ? static_cast<size_t>(static_cast<const char*>(hit) - t.data())
                    : std::string_view::npos;
    MTY_WORK((hit ? at + 1 : n) - from);
    return at;
  }
  uint64_t steps = 0;
  size_t k = 0;
  for (size_t i = from; i < n; ++i) {
    while (k > 0 && t[i] != p_[k]) {
      k = fail_[k - 1];
      ++steps;
    }
    ++steps;
    if (t[i] == p_[k] && ++k == m) {
      MTY_WORK(steps);
      return i + 1 - m;
    }
  }
  MTY_WORK(steps);
  return std::string_view::npos;
}

size_t Searcher::RFind(std::string_view t) const {
  const size_t m = p_.size(), n = t.size();
  if (m == 0) return n;
  if (m > n) return std::string_view::npos;
  uint64_t steps = 0;
  size_t k = 0;
  for (size_t i = n; i-- > 0;) {
    while (k > 0 && t[i] != At(k)) {
      k = fail_[k - 1];
      ++steps;
    }
    ++steps;
    if (t[i] == At(k) && ++k == m) {
      MTY_WORK(steps);
      return i;
    }
  }
  MTY_WORK(steps);
  return std::string_view::npos;
}

bool IsAscii(std::string_view s) {
  MTY_WORK(s.size());
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

}  // namespace mty::interp
