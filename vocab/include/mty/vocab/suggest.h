// "Did you mean": the one home for how near a misspelt name must be to a
// known one to be suggested, for every front (the front end's unknown
// names, fields and methods; the command line's subcommands and flags).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mty::ir {

// The optimal-string-alignment distance: insertions, deletions,
// substitutions and transpositions of adjacent characters, one edit each
// (`lenght` is one edit from `length`). Bytes, case-sensitive.
size_t EditDistance(std::string_view a, std::string_view b);

// The candidate nearest `word`, when it is near enough to be a misspelling:
// at most max(1, length / 3) edits (rustc's rule: one up to 5 bytes, two
// up to 8, ...); a candidate equal to `word` but for case always qualifies. Ties go to the
// earlier candidate. "" when none qualifies (or `word` is a candidate).
std::string Nearest(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace mty::ir
