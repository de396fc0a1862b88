// The MtyIR verifier. Everything the bytecode compiler and the interpreter
// assume about indices and names is checked here, once.
#include "absl/strings/str_cat.h"
#include "mty/ir/builtins.h"
#include "mty/ir/kinds.h"
#include "mty/ir/text.h"
#include "mty/ir/verify.h"
#include "mty/ir/visit.h"
#include "verify_types.h"

namespace mty::ir {

bool IsCastTarget(const Type& t) {
  return t.kind == Type::Kind::kNamed && t.args.empty() && FindCast(t.name) != nullptr;
}

namespace {

class Verifier {
 public:
  Verifier(const Program& p, std::string_view file) : p_(p), index_(p), file_(file) {}

  absl::Status Run() {
    for (const Adt& a : p_.adts) {
      if (!a.is_enum && a.variants.size() != 1)
        return Err(a.loc, absl::StrCat("struct ", a.name, " must have exactly one variant"));
    }
    for (const Function& f : p_.functions) {
      fn_ = &f;
      if (auto s = CheckFunction(f); !s.ok()) return s;
    }
    return VerifyTypes(p_, index_, file_);
  }

 private:
  absl::Status Err(Loc loc, std::string_view msg) const {
    std::string where = fn_ ? absl::StrCat("in fn ", fn_->name, ": ") : "";
    return absl::InvalidArgumentError(absl::StrCat(std::string(file_), ":", loc.line, ":", loc.col,
                                                   ": error: ", where, std::string(msg)));
  }

  // Local _i or block bbi of the function exists (noun "local", prefix "_";
  // "block", "bb").
  absl::Status CheckIndex(uint32_t i, size_t count, const char* noun, const char* prefix,
                          Loc loc) const {
    if (i >= count)
      return Err(loc, absl::StrCat(noun, " ", prefix, i, " does not exist (fn has ", prefix, "0..",
                                   prefix, count - 1, ")"));
    return absl::OkStatus();
  }
  absl::Status CheckLocal(uint32_t l, Loc loc) const {
    return CheckIndex(l, fn_->locals.size(), "local", "_", loc);
  }

  // A `fn name` constant names a function of the program.
  absl::Status CheckFnConstant(const Operand& o, Loc loc) const {
    if (o.kind == Operand::Kind::kConst && o.constant.kind == Constant::Kind::kFn &&
        index_.Function(o.constant.s) < 0)
      return Err(loc, absl::StrCat("unknown function '", o.constant.s, "'"));
    return absl::OkStatus();
  }

  // Every local a statement or terminator names exists (index projections
  // included) and every function constant among its operands is known.
  template <typename Node>
  absl::Status CheckLocalsAndOperands(const Node& n, Loc loc) const {
    absl::Status st;
    ForEachLocal(n, [&](uint32_t l) {
      if (st.ok()) st = CheckLocal(l, loc);
    });
    ForEachOperand(n, [&](const Operand& o) {
      if (st.ok()) st = CheckFnConstant(o, loc);
    });
    return st;
  }

  absl::Status CheckBlock(uint32_t b, Loc loc) const {
    return CheckIndex(b, fn_->blocks.size(), "block", "bb", loc);
  }

  // What each kind needs beyond its locals and operands (checked before).
  absl::Status CheckRvalue(const Rvalue& r, Loc loc) const {
    using K = Rvalue::Kind;
    switch (r.kind) {
      case K::kBinOp:
        if (r.ops.size() != 2) return Err(loc, "a binary operation needs two operands");
        break;
      case K::kAdtInit: {
        const Adt* a = index_.Adt(r.name);
        if (!a) return Err(loc, absl::StrCat("unknown ADT '", r.name, "'"));
        const Variant* v = nullptr;
        if (!a->is_enum) {
          if (!r.name2.empty())
            return Err(loc, absl::StrCat("struct ", a->name, " has no variants; write new ",
                                         a->name, "(...)"));
          v = &a->variants[0];
        } else {
          for (const Variant& x : a->variants)
            if (x.name == r.name2) v = &x;
          if (!v)
            return Err(loc, absl::StrCat("enum ", a->name, " has no variant '", r.name2, "'"));
        }
        if (v->fields.size() != r.ops.size())
          return Err(loc, absl::StrCat(a->name, r.name2.empty() ? "" : "::", r.name2, " takes ",
                                       v->fields.size(), " fields, given ", r.ops.size()));
        break;
      }
      case K::kCall: {
        if (r.is_builtin) {
          const BuiltinFnInfo* b = FindBuiltinFn(r.name);
          if (!b) return Err(loc, absl::StrCat("unknown builtin '@", r.name, "'"));
          const int n = static_cast<int>(r.ops.size());
          if (n < b->min || (b->max >= 0 && n > b->max))
            return Err(loc, absl::StrCat("@", r.name, " takes ", b->min, " argument(s), given ",
                                         r.ops.size()));
          break;
        }
        const Function* callee = FindFunction(r.name);
        if (!callee) return Err(loc, absl::StrCat("unknown function '", r.name, "'"));
        if (callee->num_params != r.ops.size())
          return Err(loc, absl::StrCat("fn ", r.name, " takes ", callee->num_params,
                                       " argument(s), given ", r.ops.size()));
        break;
      }
      case K::kCallIndirect:
        if (r.ops.empty()) return Err(loc, "call_indirect needs a callee operand");
        break;
      case K::kClosure: {
        const Function* callee = FindFunction(r.name);
        if (!callee) return Err(loc, absl::StrCat("unknown function '", r.name, "'"));
        if (callee->num_params < r.ops.size())
          return Err(loc, absl::StrCat("closure over fn ", r.name, " captures ", r.ops.size(),
                                       " values but the fn takes only ", callee->num_params));
        break;
      }
      case K::kSend:
      case K::kAsk:
        if (r.ops.empty()) return Err(loc, "send/ask needs a target operand");
        break;
      case K::kCast:
        if (!r.type) return Err(loc, "cast needs a target type");
        if (!IsCastTarget(*r.type))
          return Err(loc, absl::StrCat("cannot cast to ", PrintType(*r.type)));
        break;
      case K::kMapInit:
        if (r.ops.size() % 2 != 0) return Err(loc, "map{...} needs key: value pairs");
        break;
      case K::kCapValue:
        if (!FindCapFamily(r.name))
          return Err(loc, absl::StrCat("unknown capability family '", r.name, "' (",
                                       CapFamilyList(), ")"));
        break;
      case K::kUse:
      case K::kUnOp:
      case K::kRef:
      case K::kDeref:
      case K::kTupleInit:
      case K::kArrayInit:
      case K::kFieldRead:
      case K::kTupleRead:
      case K::kIndexRead:
      case K::kMethodCall:
      case K::kAgentSpawn:
      case K::kLen: break;
    }
    if (r.ops.size() < Info(r.kind).min_ops) return Err(loc, "missing operand");
    return absl::OkStatus();
  }

  absl::Status CheckFunction(const Function& f) {
    if (f.locals.empty()) return Err(f.loc, "fn has no return slot _0");
    if (f.num_params + 1 > f.locals.size()) return Err(f.loc, "fn has more params than locals");
    if (f.once && f.num_params != 0) return Err(f.loc, "a once fn takes no parameters");
    if (f.blocks.empty()) return Err(f.loc, "fn has no blocks");
    for (const Block& b : f.blocks) {
      for (const Statement& s : b.stmts) {
        if (auto st = CheckLocalsAndOperands(s, s.loc); !st.ok()) return st;
        if (s.kind == Statement::Kind::kAssign)
          if (auto st = CheckRvalue(s.rvalue, s.loc); !st.ok()) return st;
        if (s.kind == Statement::Kind::kSandboxEnter && !p_.FindSandbox(s.path))
          return Err(s.loc, absl::StrCat("sandbox \"", s.path, "\" is not declared"));
      }
      const Terminator& t = b.term;
      absl::Status st = CheckLocalsAndOperands(t, t.loc);
      ForEachTarget(t, [&](uint32_t target) {
        if (st.ok()) st = CheckBlock(target, t.loc);
      });
      if (!st.ok()) return st;
    }
    return absl::OkStatus();
  }

  const Function* FindFunction(std::string_view name) const {
    const int i = index_.Function(name);
    return i < 0 ? nullptr : &p_.functions[i];
  }

  const Program& p_;
  ProgramIndex index_;
  std::string_view file_;
  const Function* fn_ = nullptr;
};

}  // namespace

absl::Status Verify(const Program& p, std::string_view file_name) {
  return Verifier(p, file_name.empty() ? std::string_view(p.source) : file_name).Run();
}

}  // namespace mty::ir
