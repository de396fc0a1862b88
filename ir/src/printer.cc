// The canonical .mtyir printer. Every construct has exactly one spelling so
// that print(parse(print(p))) == print(p).
#include <charconv>
#include <cmath>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "mty/ir/kinds.h"
#include "mty/ir/text.h"
#include "mty/vocab/utf8.h"

namespace mty::ir {
namespace {

std::string EscapeChar(uint32_t c, char quote) {
  switch (c) {
    case '\n': return "\\n";
    case '\t': return "\\t";
    case '\r': return "\\r";
    case '\\': return "\\\\";
    case '\0': return "\\0";
    default: break;
  }
  if (c == static_cast<uint32_t>(quote)) return std::string("\\") + quote;
  if (c < 0x20 || c == 0x7F) return absl::StrCat("\\u{", absl::Hex(c), "}");
  std::string s;
  AppendUtf8(s, c);
  return s;
}

std::string Ops(const std::vector<Operand>& ops) {
  return absl::StrJoin(ops, ", ",
                       [](std::string* out, const Operand& o) { out->append(PrintOperand(o)); });
}

std::string LocSuffix(const Loc& loc, bool is_explicit) {
  if (!is_explicit) return "";
  return absl::StrCat(" @", loc.line, ":", loc.col);
}

}  // namespace

std::string QuoteString(std::string_view s) {
  std::string out = "\"";
  // The text format is UTF-8: an ill-formed sequence (only the builder API
  // can put one in a constant) prints as U+FFFD, escaped.
  for (size_t i = 0; i < s.size();) {
    Utf8Decoded d = DecodeUtf8(s, i);
    out +=
        d.ok() ? EscapeChar(d.scalar, '"') : absl::StrCat("\\u{", absl::Hex(kReplacementChar), "}");
    i += d.length;
  }
  out += '"';
  return out;
}

std::string FormatDuration(int64_t ns) {
  if (ns < 0) return absl::StrCat("-", FormatQuantity(Unit::kDuration, -static_cast<uint64_t>(ns)));
  return FormatQuantity(Unit::kDuration, static_cast<uint64_t>(ns));
}

std::string FormatSize(int64_t bytes) {
  if (bytes < 0)
    return absl::StrCat("-", FormatQuantity(Unit::kSize, -static_cast<uint64_t>(bytes)));
  return FormatQuantity(Unit::kSize, static_cast<uint64_t>(bytes));
}

std::string PrintType(const Type& t) {
  auto list = [](const std::vector<Type>& ts, size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) {
      if (i) s += ", ";
      s += PrintType(ts[i]);
    }
    return s;
  };
  switch (t.kind) {
    case Type::Kind::kNamed:
      if (t.args.empty()) return t.name;
      return absl::StrCat(t.name, "[", list(t.args, t.args.size()), "]");
    case Type::Kind::kTuple:
      return absl::StrCat("(", list(t.args, t.args.size()), t.args.size() == 1 ? ",)" : ")");
    case Type::Kind::kArray:
      return absl::StrCat("[", t.args.empty() ? "?" : PrintType(t.args[0]), "]");
    case Type::Kind::kRef:
      return absl::StrCat(t.is_mut ? "&mut " : "&", t.args.empty() ? "?" : PrintType(t.args[0]));
    case Type::Kind::kFn: {
      size_t n = t.args.empty() ? 0 : t.args.size() - 1;
      return absl::StrCat("fn(", list(t.args, n), ") -> ",
                          t.args.empty() ? "Unit" : PrintType(t.args.back()));
    }
  }
  return "?";
}

std::string PrintConstant(const Constant& c) {
  switch (c.kind) {
    case Constant::Kind::kUnit: return "()";
    case Constant::Kind::kBool: return c.i ? "true" : "false";
    case Constant::Kind::kInt: return absl::StrCat(c.i);
    case Constant::Kind::kUInt: return absl::StrCat("u64 ", static_cast<uint64_t>(c.i));
    case Constant::Kind::kFloat: {
      if (std::isnan(c.f)) return "nan";
      if (std::isinf(c.f)) return c.f > 0 ? "inf" : "-inf";
      char buf[64];
      auto r = std::to_chars(buf, buf + sizeof(buf), c.f);
      std::string s(buf, r.ptr);
      if (s.find_first_of(".en") == std::string::npos) s += ".0";
      return s;
    }
    case Constant::Kind::kChar:
      return absl::StrCat("'", EscapeChar(static_cast<uint32_t>(c.i), '\''), "'");
    case Constant::Kind::kStr: return QuoteString(c.s);
    case Constant::Kind::kDuration: return FormatDuration(c.i);
    case Constant::Kind::kSize: return FormatSize(c.i);
    case Constant::Kind::kFn: return absl::StrCat("fn ", c.s);
  }
  return "?";
}

std::string PrintPlace(const Place& p) {
  std::string s = absl::StrCat("_", p.local);
  for (const Projection& pr : p.proj) {
    switch (pr.kind) {
      case Projection::Kind::kField: absl::StrAppend(&s, ".f", pr.index); break;
      case Projection::Kind::kTupleIndex: absl::StrAppend(&s, ".", pr.index); break;
      case Projection::Kind::kVariantField:
        absl::StrAppend(&s, ".v", pr.variant, ".f", pr.index);
        break;
      case Projection::Kind::kIndex: absl::StrAppend(&s, "[_", pr.index, "]"); break;
      case Projection::Kind::kDeref: s += ".*"; break;
    }
  }
  return s;
}

std::string PrintOperand(const Operand& o) {
  switch (o.kind) {
    case Operand::Kind::kCopy: return "copy " + PrintPlace(o.place);
    case Operand::Kind::kMove: return "move " + PrintPlace(o.place);
    case Operand::Kind::kConst: return PrintConstant(o.constant);
  }
  return "?";
}

std::string PrintRvalue(const Rvalue& r) {
  auto op0 = [&] { return r.ops.empty() ? "?" : PrintOperand(r.ops[0]); };
  const char* kw = Keyword(r.kind);
  using K = Rvalue::Kind;
  switch (r.kind) {
    case K::kUse: return op0();
    case K::kBinOp:
      return absl::StrCat(op0(), " ", BinOpText(r.bin), " ",
                          r.ops.size() > 1 ? PrintOperand(r.ops[1]) : "?");
    case K::kUnOp: return absl::StrCat(UnOpText(r.un), op0());
    case K::kRef: return absl::StrCat(kw, r.is_mut ? "mut " : "", PrintPlace(r.place));
    case K::kDeref: return absl::StrCat(kw, op0());
    case K::kAdtInit:
      return absl::StrCat(kw, " ", r.name, r.name2.empty() ? "" : "::", r.name2, "(", Ops(r.ops),
                          ")");
    case K::kTupleInit: return absl::StrCat(kw, "(", Ops(r.ops), ")");
    case K::kArrayInit: return absl::StrCat(kw, Ops(r.ops), "]");
    case K::kMapInit: {
      std::string s = absl::StrCat(kw, "{");
      for (size_t i = 0; i + 1 < r.ops.size(); i += 2) {
        if (i) s += ", ";
        absl::StrAppend(&s, PrintOperand(r.ops[i]), ": ", PrintOperand(r.ops[i + 1]));
      }
      return s + "}";
    }
    case K::kFieldRead:
    case K::kTupleRead: return absl::StrCat(kw, " ", op0(), ", ", r.index);
    case K::kIndexRead:
      return absl::StrCat(kw, " ", op0(), ", ", r.ops.size() > 1 ? PrintOperand(r.ops[1]) : "?");
    case K::kCall:
      return absl::StrCat(kw, " ", r.is_builtin ? "@" : "", r.name, "(", Ops(r.ops), ")");
    case K::kCallIndirect: {
      std::vector<Operand> args(r.ops.begin() + (r.ops.empty() ? 0 : 1), r.ops.end());
      return absl::StrCat(kw, " ", op0(), "(", Ops(args), ")");
    }
    case K::kMethodCall:
      return absl::StrCat(kw, " ", PrintPlace(r.place), ", ", r.name, "(", Ops(r.ops), ")");
    case K::kClosure:
    case K::kAgentSpawn: return absl::StrCat(kw, " ", r.name, "(", Ops(r.ops), ")");
    case K::kSend:
    case K::kAsk: {
      std::vector<Operand> args(r.ops.begin() + (r.ops.empty() ? 0 : 1), r.ops.end());
      std::string s = absl::StrCat(kw, " ", op0(), ", ", r.name, "(", Ops(args), ")");
      if (r.deadline) absl::StrAppend(&s, " within ", PrintOperand(*r.deadline));
      return s;
    }
    case K::kCapValue: return absl::StrCat(kw, " ", r.name, " ", QuoteString(r.name2));
    case K::kCast: return absl::StrCat(kw, " ", op0(), " as ", r.type ? PrintType(*r.type) : "?");
    case K::kLen: return absl::StrCat(kw, " ", op0());
  }
  return "?";
}

namespace {

std::string PrintStatement(const Statement& s) {
  std::string out;
  const char* kw = Keyword(s.kind);
  using K = Statement::Kind;
  switch (s.kind) {
    case K::kAssign: out = absl::StrCat(PrintPlace(s.place), " = ", PrintRvalue(s.rvalue)); break;
    case K::kDrop:
    case K::kStorageLive:
    case K::kStorageDead: out = absl::StrCat(kw, " ", PrintPlace(s.place)); break;
    case K::kArenaPush:
    case K::kArenaPop: out = absl::StrCat(kw, " ", s.arena); break;
    case K::kEffectInvoke:
      out = absl::StrCat(s.has_dest ? PrintPlace(s.place) + " = " : "", kw, " ", s.path, "(",
                         Ops(s.args), ")");
      break;
    case K::kNop:
    case K::kSandboxExit: out = kw; break;
    case K::kSandboxEnter: out = absl::StrCat(kw, " ", QuoteString(s.path)); break;
  }
  return out + LocSuffix(s.loc, s.loc_explicit);
}

std::string Cases(const Terminator& t) {
  std::string s = "{";
  for (const SwitchCase& c : t.cases) absl::StrAppend(&s, c.value, " => bb", c.target, ", ");
  absl::StrAppend(&s, "_ => bb", t.target, "}");
  return s;
}

std::string PrintTerminator(const Terminator& t) {
  std::string out;
  const char* kw = Keyword(t.kind);
  using K = Terminator::Kind;
  switch (t.kind) {
    case K::kGoto: out = absl::StrCat(kw, " bb", t.target); break;
    case K::kIf:
      out = absl::StrCat(kw, " ", PrintOperand(t.op), " then bb", t.target, " else bb", t.target2);
      break;
    case K::kSwitchInt:
    case K::kSwitchVariant: out = absl::StrCat(kw, " ", PrintOperand(t.op), " ", Cases(t)); break;
    case K::kReturn:
    case K::kUnreachable: out = kw; break;
    case K::kPanic:
    case K::kTryReturnErr: out = absl::StrCat(kw, " ", PrintOperand(t.op)); break;
    case K::kSuspend: out = absl::StrCat(kw, " resume bb", t.target); break;
  }
  return out + LocSuffix(t.loc, t.loc_explicit);
}

std::string PrintFields(const std::vector<Field>& fs) {
  return absl::StrJoin(fs, ", ", [](std::string* out, const Field& f) {
    if (!f.name.empty()) absl::StrAppend(out, f.name, ": ");
    out->append(PrintType(f.type));
  });
}

}  // namespace

std::string PrintSandbox(const SandboxDecl& d) {
  std::vector<std::string> e;
  const Limits& l = d.policy.limits;
  for (const LimitInfo& info : kLimits)
    if (std::optional<uint64_t> v = l.Get(info.id))
      e.push_back(absl::StrCat(info.key, " = ", FormatQuantity(info.unit, *v)));
  if (l.mb_policy)
    e.push_back(
        absl::StrCat(kMbPolicyChoice.key, " = ", QuoteString(MailboxPolicyName(*l.mb_policy))));
  for (const GrantInfo& info : kGrants) {
    const std::optional<std::vector<std::string>>& list = d.policy.grants.Get(info.id);
    if (!list) continue;
    e.push_back(absl::StrCat(
        info.key, " = [",
        absl::StrJoin(*list, ", ",
                      [](std::string* out, const std::string& s) { out->append(QuoteString(s)); }),
        "]"));
  }
  return absl::StrCat("sandbox ", QuoteString(d.name), " { ", absl::StrJoin(e, ", "),
                      e.empty() ? "}" : " }");
}

std::string PrintText(const Program& p) {
  std::string out = "mtyir 1\n";
  if (!p.source.empty()) absl::StrAppend(&out, "source ", QuoteString(p.source), "\n");
  for (const Adt& a : p.adts) {
    out += "\n";
    if (!a.is_enum) {
      if (!a.variants.empty() && !a.variants[0].fields.empty() &&
          a.variants[0].fields[0].name.empty()) {  // a tuple struct: `struct Pair(I64, Str)`
        absl::StrAppend(&out, "struct ", a.name, "(", PrintFields(a.variants[0].fields), ")\n");
        continue;
      }
      absl::StrAppend(&out, "struct ", a.name, " { ",
                      a.variants.empty() ? "" : PrintFields(a.variants[0].fields), " }\n");
      continue;
    }
    absl::StrAppend(&out, "enum ", a.name, " {\n");
    for (const Variant& v : a.variants) {
      absl::StrAppend(&out, "  ", v.name);
      if (!v.fields.empty() && !v.fields[0].name.empty())  // struct-like: `Circle { r: F64 }`
        absl::StrAppend(&out, " { ", PrintFields(v.fields), " }");
      else if (!v.fields.empty())
        absl::StrAppend(&out, "(", PrintFields(v.fields), ")");
      out += ",\n";
    }
    out += "}\n";
  }
  for (const SandboxDecl& d : p.sandboxes) absl::StrAppend(&out, "\n", PrintSandbox(d), "\n");
  for (const Function& f : p.functions) {
    absl::StrAppend(&out, "\n", f.once ? "once " : "", "fn ", f.name, "(");
    for (uint32_t i = 1; i <= f.num_params && i < f.locals.size(); ++i) {
      if (i > 1) out += ", ";
      absl::StrAppend(&out, "_", i, ": ", PrintType(f.locals[i].type));
      if (!f.locals[i].name.empty()) absl::StrAppend(&out, " ", QuoteString(f.locals[i].name));
    }
    absl::StrAppend(&out, ") -> ",
                    PrintType(f.locals.empty() ? Type::Named("Unit") : f.locals[0].type), " {\n");
    for (size_t i = f.num_params + 1; i < f.locals.size(); ++i) {
      const Local& l = f.locals[i];
      absl::StrAppend(&out, "  let ", l.is_mut ? "mut " : "", "_", i, ": ", PrintType(l.type));
      if (!l.name.empty()) absl::StrAppend(&out, " ", QuoteString(l.name));
      out += "\n";
    }
    for (size_t b = 0; b < f.blocks.size(); ++b) {
      absl::StrAppend(&out, "bb", b, ":\n");
      for (const Statement& s : f.blocks[b].stmts)
        absl::StrAppend(&out, "  ", PrintStatement(s), "\n");
      absl::StrAppend(&out, "  ", PrintTerminator(f.blocks[b].term), "\n");
    }
    out += "}\n";
  }
  return out;
}

}  // namespace mty::ir
