// The canonical .mtyir printer. Every construct has exactly one spelling so
// that print(parse(print(p))) == print(p).
#include <charconv>
#include <cmath>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "mty/ir/text.h"
#include "mty/ir/utf8.h"

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
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += EscapeChar(c, '"');
    } else {
      out += static_cast<char>(c);  // UTF-8 continuation bytes pass through
    }
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
  switch (r.kind) {
    case Rvalue::Kind::kUse: return op0();
    case Rvalue::Kind::kBinOp:
      return absl::StrCat(op0(), " ", BinOpText(r.bin), " ",
                          r.ops.size() > 1 ? PrintOperand(r.ops[1]) : "?");
    case Rvalue::Kind::kUnOp: return absl::StrCat(UnOpText(r.un), op0());
    case Rvalue::Kind::kRef: return absl::StrCat(r.is_mut ? "&mut " : "&", PrintPlace(r.place));
    case Rvalue::Kind::kDeref: return absl::StrCat("*", op0());
    case Rvalue::Kind::kAdtInit:
      return absl::StrCat("new ", r.name, r.name2.empty() ? "" : "::", r.name2, "(", Ops(r.ops),
                          ")");
    case Rvalue::Kind::kTupleInit: return absl::StrCat("tuple(", Ops(r.ops), ")");
    case Rvalue::Kind::kArrayInit: return absl::StrCat("[", Ops(r.ops), "]");
    case Rvalue::Kind::kMapInit: {
      std::string s = "map{";
      for (size_t i = 0; i + 1 < r.ops.size(); i += 2) {
        if (i) s += ", ";
        absl::StrAppend(&s, PrintOperand(r.ops[i]), ": ", PrintOperand(r.ops[i + 1]));
      }
      return s + "}";
    }
    case Rvalue::Kind::kFieldRead: return absl::StrCat("field ", op0(), ", ", r.index);
    case Rvalue::Kind::kTupleRead: return absl::StrCat("tuple_get ", op0(), ", ", r.index);
    case Rvalue::Kind::kIndexRead:
      return absl::StrCat("index ", op0(), ", ", r.ops.size() > 1 ? PrintOperand(r.ops[1]) : "?");
    case Rvalue::Kind::kCall:
      return absl::StrCat("call ", r.is_builtin ? "@" : "", r.name, "(", Ops(r.ops), ")");
    case Rvalue::Kind::kCallIndirect: {
      std::vector<Operand> args(r.ops.begin() + (r.ops.empty() ? 0 : 1), r.ops.end());
      return absl::StrCat("call_indirect ", op0(), "(", Ops(args), ")");
    }
    case Rvalue::Kind::kMethodCall:
      return absl::StrCat("method ", PrintPlace(r.place), ", ", r.name, "(", Ops(r.ops), ")");
    case Rvalue::Kind::kClosure: return absl::StrCat("closure ", r.name, "(", Ops(r.ops), ")");
    case Rvalue::Kind::kAgentSpawn: return absl::StrCat("spawn ", r.name, "(", Ops(r.ops), ")");
    case Rvalue::Kind::kSend:
    case Rvalue::Kind::kAsk: {
      std::vector<Operand> args(r.ops.begin() + (r.ops.empty() ? 0 : 1), r.ops.end());
      std::string s = absl::StrCat(r.kind == Rvalue::Kind::kSend ? "send " : "ask ", op0(), ", ",
                                   r.name, "(", Ops(args), ")");
      if (r.deadline) absl::StrAppend(&s, " within ", PrintOperand(*r.deadline));
      return s;
    }
    case Rvalue::Kind::kCapValue: return absl::StrCat("cap ", r.name, " ", QuoteString(r.name2));
    case Rvalue::Kind::kCast: return absl::StrCat("cast ", op0(), " as ", PrintType(r.type));
    case Rvalue::Kind::kLen: return absl::StrCat("len ", op0());
  }
  return "?";
}

namespace {

std::string PrintStatement(const Statement& s) {
  std::string out;
  switch (s.kind) {
    case Statement::Kind::kAssign:
      out = absl::StrCat(PrintPlace(s.place), " = ", PrintRvalue(s.rvalue));
      break;
    case Statement::Kind::kDrop: out = "drop " + PrintPlace(s.place); break;
    case Statement::Kind::kStorageLive: out = "storage_live " + PrintPlace(s.place); break;
    case Statement::Kind::kStorageDead: out = "storage_dead " + PrintPlace(s.place); break;
    case Statement::Kind::kArenaPush: out = absl::StrCat("arena_push ", s.arena); break;
    case Statement::Kind::kArenaPop: out = absl::StrCat("arena_pop ", s.arena); break;
    case Statement::Kind::kEffectInvoke:
      out = absl::StrCat(s.has_dest ? PrintPlace(s.place) + " = " : "", "effect ", s.path, "(",
                         Ops(s.args), ")");
      break;
    case Statement::Kind::kNop: out = "nop"; break;
    case Statement::Kind::kSandboxEnter: out = "sandbox_enter " + QuoteString(s.path); break;
    case Statement::Kind::kSandboxExit: out = "sandbox_exit"; break;
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
  switch (t.kind) {
    case Terminator::Kind::kGoto: out = absl::StrCat("goto bb", t.target); break;
    case Terminator::Kind::kIf:
      out = absl::StrCat("if ", PrintOperand(t.op), " then bb", t.target, " else bb", t.target2);
      break;
    case Terminator::Kind::kSwitchInt:
      out = absl::StrCat("switch_int ", PrintOperand(t.op), " ", Cases(t));
      break;
    case Terminator::Kind::kSwitchVariant:
      out = absl::StrCat("switch_variant ", PrintOperand(t.op), " ", Cases(t));
      break;
    case Terminator::Kind::kReturn: out = "return"; break;
    case Terminator::Kind::kPanic: out = "panic " + PrintOperand(t.op); break;
    case Terminator::Kind::kUnreachable: out = "unreachable"; break;
    case Terminator::Kind::kTryReturnErr: out = "try_return_err " + PrintOperand(t.op); break;
    case Terminator::Kind::kSuspend: out = absl::StrCat("suspend resume bb", t.target); break;
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
      absl::StrAppend(&out, "struct ", a.name, " { ",
                      a.variants.empty() ? "" : PrintFields(a.variants[0].fields), " }\n");
      continue;
    }
    absl::StrAppend(&out, "enum ", a.name, " {\n");
    for (const Variant& v : a.variants) {
      absl::StrAppend(&out, "  ", v.name);
      if (!v.fields.empty()) absl::StrAppend(&out, "(", PrintFields(v.fields), ")");
      out += ",\n";
    }
    out += "}\n";
  }
  for (const SandboxDecl& d : p.sandboxes) out += "\n" + PrintSandbox(d) + "\n";
  for (const Function& f : p.functions) {
    absl::StrAppend(&out, "\nfn ", f.name, "(");
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
