// Substring search in linear time (Knuth-Morris-Pratt): at most 2(n + m)
// byte comparisons for a text of n and a pattern of m bytes whatever the
// input, where std::string::find can take n x m. Every search a program can
// run (contains, find, rfind, split, replace) goes through it; the
// comparisons are added to the work counter (mty/interp/work.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace mty::interp {

class Searcher {
 public:
  // `reverse`: searches from the end (rfind).
  explicit Searcher(std::string_view pattern, bool reverse = false);
  // The first match at or after `from` (npos if none); an empty pattern
  // matches at `from`.
  size_t Find(std::string_view text, size_t from = 0) const;
  // The last match (npos if none); an empty pattern matches at the end.
  size_t RFind(std::string_view text) const;

 private:
  std::string_view p_;
  bool reverse_;
  std::vector<uint32_t> fail_;  // the failure function of p_ (of p_ reversed for RFind)
  char At(size_t k) const { return reverse_ ? p_[p_.size() - 1 - k] : p_[k]; }
};

// Whether `s` is only ASCII (then char indices are byte indices).
bool IsAscii(std::string_view s);

}  // namespace mty::interp
