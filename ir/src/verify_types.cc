// The MtyIR verifier's type pass (docs/ir.md "Types"): each assignment's
// value against its destination's declared type, each call's arguments
// against the callee's parameters, each constructor's fields against the
// ADT's, each operator's operands, each branch condition a Bool. A type
// the pass cannot tell (`Any`, a generic parameter's name, the result of a
// built-in method or an indirect call) agrees with every type: those
// values keep their run-time checks (MT5016). Declared types a function
// states are trusted no further than that: the interpreter still checks
// every value it relies on.
#include "verify_types.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "mty/ir/text.h"

namespace mty::ir {

namespace {

constexpr int kMaxDepth = 64;
// Type nodes compared in one program: past it (a huge type declared once
// and compared by every statement) the program is refused, located, rather
// than verified for minutes.
constexpr uint64_t kMaxWork = uint64_t{1} << 24;

bool IsScalarName(std::string_view n) {
  return n == "I64" || n == "U64" || n == "F64" || n == "Bool" || n == "Char" || n == "Str" ||
         n == "Unit" || n == "Duration" || n == "Size";
}

bool IsNamed(const Type& t, std::string_view n) {
  return t.kind == Type::Kind::kNamed && t.name == n;
}

bool IsInt(const Type& t) { return IsNamed(t, "I64") || IsNamed(t, "U64"); }

class TypeVerifier {
 public:
  TypeVerifier(const Program& p, const ProgramIndex& index, std::string_view file)
      : p_(p), index_(index), file_(file) {}

  absl::Status Run() {
    for (const Function& f : p_.functions) {
      fn_ = &f;
      for (const Block& b : f.blocks) {
        for (const Statement& s : b.stmts) {
          if (s.kind == Statement::Kind::kAssign)
            if (absl::Status st = Assign(s); !st.ok()) return st;
          if (work_ > kMaxWork)
            return Err(s.loc, absl::StrCat("the program's types are too large to verify (over ",
                                           kMaxWork, " type nodes compared)"));
        }
        if (b.term.kind == Terminator::Kind::kIf)
          if (std::optional<Type> c = OperandType(b.term.op); c && !Fits(*c, Bool(), 0))
            return Err(b.term.loc,
                       absl::StrCat("mismatched types: a branch condition must be `Bool`, found `",
                                    PrintType(*c), "`"));
      }
    }
    return absl::OkStatus();
  }

 private:
  static Type Bool() { return Type::Named("Bool"); }

  absl::Status Err(Loc loc, std::string_view msg) const {
    return absl::InvalidArgumentError(absl::StrCat(std::string(file_), ":", loc.line, ":", loc.col,
                                                   ": error: in fn ", fn_->name, ": ",
                                                   std::string(msg)));
  }

  // A type the pass knows: a scalar, an array, a tuple, a map, an ADT of the
  // program (or the prelude's). Anything else agrees with every type.
  bool Known(const Type& t) const {
    switch (t.kind) {
      case Type::Kind::kNamed:
        return IsScalarName(t.name) || t.name == "Map" || index_.Adt(t.name) != nullptr;
      case Type::Kind::kArray:
      case Type::Kind::kTuple:
      case Type::Kind::kRef: return true;
      case Type::Kind::kFn: return false;
    }
    return false;
  }

  // Whether a value of type `have` may be stored where `want` is declared.
  // References are their pointees (the lowering reads through them).
  bool Fits(const Type& have, const Type& want, int depth) const {
    if (depth > kMaxDepth || ++work_ > kMaxWork) return true;
    const Type* h = &have;
    const Type* w = &want;
    while (h->kind == Type::Kind::kRef && !h->args.empty()) h = &h->args[0];
    while (w->kind == Type::Kind::kRef && !w->args.empty()) w = &w->args[0];
    if (!Known(*h) || !Known(*w)) return true;
    // Unit agrees with any type: a slot that drops its value (an `if`
    // without `else`), a temporary the lowering has not typed; the two integer kinds meet where the
    // run converts (MT5004 for a negative U64, one above I64::MAX).
    if (IsNamed(*w, "Unit") || IsNamed(*h, "Unit")) return true;
    if (IsInt(*h) && IsInt(*w)) return true;
    if (h->kind != w->kind) return false;
    if (h->kind == Type::Kind::kNamed && h->name != w->name) return false;
    if (h->kind == Type::Kind::kTuple && h->args.size() != w->args.size()) return false;
    // `Map` / `Option` written without arguments agrees with any.
    if (h->args.size() != w->args.size()) return true;
    for (size_t i = 0; i < h->args.size(); ++i)
      if (!Fits(h->args[i], w->args[i], depth + 1)) return false;
    return true;
  }

  const Variant* VariantOf(const Type& t, uint32_t v) const {
    if (t.kind != Type::Kind::kNamed) return nullptr;
    const Adt* a = index_.Adt(t.name);
    if (!a || v >= a->variants.size()) return nullptr;
    return &a->variants[v];
  }

  std::optional<Type> PlaceType(const Place& pl) const {
    if (pl.local >= fn_->locals.size()) return std::nullopt;
    Type t = fn_->locals[pl.local].type;
    for (const Projection& pr : pl.proj) {
      while (pr.kind != Projection::Kind::kDeref && t.kind == Type::Kind::kRef && !t.args.empty())
        t = Type(t.args[0]);
      switch (pr.kind) {
        case Projection::Kind::kDeref:
          if (t.kind != Type::Kind::kRef || t.args.empty()) return std::nullopt;
          t = Type(t.args[0]);
          break;
        case Projection::Kind::kField:
        case Projection::Kind::kVariantField: {
          const Variant* v = VariantOf(t, pr.kind == Projection::Kind::kField ? 0 : pr.variant);
          if (!v || pr.index >= v->fields.size()) return std::nullopt;
          t = FieldType(index_.Adt(t.name), v->fields[pr.index].type);
          break;
        }
        case Projection::Kind::kTupleIndex:
          if (t.kind != Type::Kind::kTuple || pr.index >= t.args.size()) return std::nullopt;
          t = Type(t.args[pr.index]);
          break;
        case Projection::Kind::kIndex:
          if (t.kind == Type::Kind::kArray && !t.args.empty()) {
            t = Type(t.args[0]);
          } else if (IsNamed(t, "Map") && t.args.size() == 2) {
            t = Type(t.args[1]);
          } else {
            return std::nullopt;
          }
          break;
      }
    }
    return t;
  }

  static std::optional<Type> ConstType(const Constant& c) {
    switch (c.kind) {
      case Constant::Kind::kUnit: return std::nullopt;  // also a slot's placeholder
      case Constant::Kind::kBool: return Type::Named("Bool");
      case Constant::Kind::kInt: return Type::Named("I64");
      case Constant::Kind::kUInt: return Type::Named("U64");
      case Constant::Kind::kFloat: return Type::Named("F64");
      case Constant::Kind::kChar: return Type::Named("Char");
      case Constant::Kind::kStr: return Type::Named("Str");
      case Constant::Kind::kDuration: return Type::Named("Duration");
      case Constant::Kind::kSize: return Type::Named("Size");
      case Constant::Kind::kFn: return std::nullopt;
    }
    return std::nullopt;
  }

  std::optional<Type> OperandType(const Operand& o) const {
    if (o.kind == Operand::Kind::kConst) return ConstType(o.constant);
    return PlaceType(o.place);
  }

  // An integer literal agrees with the unsigned integers too (the run
  // converts a non-negative one where a U64 meets it).
  bool OperandFits(const Operand& o, const Type& want) const {
    std::optional<Type> t = OperandType(o);
    if (!t) return true;
    if (o.kind == Operand::Kind::kConst && o.constant.kind == Constant::Kind::kInt &&
        IsNamed(want, "U64"))
      return true;
    return Fits(*t, want, 0);
  }

  // The operator's operands agree; its result's type (nullopt: unknown).
  absl::Status BinOpType(const Rvalue& r, Loc loc, std::optional<Type>* out) const {
    std::optional<Type> a = OperandType(r.ops[0]), b = OperandType(r.ops[1]);
    const bool compare = r.bin == BinOp::kEq || r.bin == BinOp::kNe || r.bin == BinOp::kLt ||
                         r.bin == BinOp::kLe || r.bin == BinOp::kGt || r.bin == BinOp::kGe;
    *out = compare ? std::optional<Type>(Bool()) : std::nullopt;
    if (!a || !b || a->kind != Type::Kind::kNamed || b->kind != Type::Kind::kNamed ||
        !IsScalarName(a->name) || !IsScalarName(b->name))
      return absl::OkStatus();
    const std::string& x = a->name;
    const std::string& y = b->name;
    // I64 and U64 meet where the run checks them (a negative one traps).
    const bool ints = (x == "I64" || x == "U64") && (y == "I64" || y == "U64");
    const bool quantity = x == "Duration" || x == "Size" || y == "Duration" || y == "Size";
    bool ok = x == y;
    switch (r.bin) {
      case BinOp::kShl:
      case BinOp::kShr: ok = (x == "I64" || x == "U64") && (y == "I64" || y == "U64"); break;
      case BinOp::kMul:
      case BinOp::kDiv: ok = ok || ints || quantity; break;
      default: ok = ok || ints; break;
    }
    if (ok && !compare && (x == "Bool" || x == "Char" || x == "Unit") &&
        !(x == "Bool" &&
          (r.bin == BinOp::kBitAnd || r.bin == BinOp::kBitOr || r.bin == BinOp::kBitXor)))
      ok = false;
    if (ok && !compare && x == "Str" && r.bin != BinOp::kAdd) ok = false;
    if (!ok)
      return Err(loc, absl::StrCat("mismatched types: cannot apply `", BinOpText(r.bin), "` to `",
                                   x, "` and `", y, "`"));
    if (!compare && x == y) *out = *a;
    if (r.bin == BinOp::kDiv && x == y && (x == "Duration" || x == "Size"))
      *out = Type::Named("I64");  // a ratio
    if (!compare && x != y && quantity) *out = Type::Named(x == "Duration" || x == "Size" ? x : y);
    return absl::OkStatus();
  }

  // The value's type (nullopt: unknown), after checking what it is made of.
  absl::Status RvalueType(const Rvalue& r, Loc loc, std::optional<Type>* out) const {
    using K = Rvalue::Kind;
    *out = std::nullopt;
    switch (r.kind) {
      case K::kUse: *out = OperandType(r.ops[0]); break;
      case K::kBinOp: return BinOpType(r, loc, out);
      case K::kUnOp: {
        std::optional<Type> t = OperandType(r.ops[0]);
        if (t && t->kind == Type::Kind::kNamed && IsScalarName(t->name)) {
          const bool ok = r.un == UnOp::kNot
                              ? (t->name == "Bool" || t->name == "I64" || t->name == "U64")
                              : (t->name == "I64" || t->name == "F64" || t->name == "Duration" ||
                                 t->name == "U64");
          if (!ok)
            return Err(loc, absl::StrCat("mismatched types: cannot apply unary `", UnOpText(r.un),
                                         "` to `", t->name, "`"));
          *out = *t;
        }
        break;
      }
      case K::kRef:
        if (std::optional<Type> t = PlaceType(r.place)) {
          Type ref;
          ref.kind = Type::Kind::kRef;
          ref.is_mut = r.is_mut;
          ref.args.push_back(*t);
          *out = ref;
        }
        break;
      case K::kTupleInit: {
        Type t;
        t.kind = Type::Kind::kTuple;
        for (const Operand& o : r.ops)
          t.args.push_back(OperandType(o).value_or(Type::Named("Any")));
        *out = r.ops.empty() ? Type::Named("Unit") : t;
        break;
      }
      case K::kAdtInit: {
        const Adt* a = index_.Adt(r.name);
        if (!a) break;
        const Variant* v = nullptr;
        for (const Variant& x : a->variants)
          if (x.name == r.name2 || (!a->is_enum && r.name2.empty())) v = &x;
        if (v)
          for (size_t i = 0; i < v->fields.size() && i < r.ops.size(); ++i)
            if (Type want = FieldType(a, v->fields[i].type); !OperandFits(r.ops[i], want))
              return Err(
                  loc, absl::StrCat("mismatched types: field ", i, " of ", r.name,
                                    r.name2.empty() ? "" : "::", r.name2, " is `", PrintType(want),
                                    "`, given `", PrintType(*OperandType(r.ops[i])), "`"));
        *out = Type::Named(r.name);
        break;
      }
      case K::kCall: {
        if (r.is_builtin) break;
        const int i = index_.Function(r.name);
        if (i < 0) break;
        const Function& callee = p_.functions[i];
        for (size_t k = 0; k < r.ops.size() && k < callee.num_params; ++k)
          if (!OperandFits(r.ops[k], callee.locals[k + 1].type))
            return Err(loc, absl::StrCat("mismatched types: argument ", k + 1, " of fn ", r.name,
                                         " is `", PrintType(callee.locals[k + 1].type),
                                         "`, given `", PrintType(*OperandType(r.ops[k])), "`"));
        *out = callee.locals[0].type;
        break;
      }
      case K::kCast:
        if (r.type) *out = *r.type;
        break;
      case K::kLen: *out = Type::Named("I64"); break;
      default: break;  // arrays, maps, reads, methods, closures, agents: not told
    }
    return absl::OkStatus();
  }

  absl::Status Assign(const Statement& s) const {
    std::optional<Type> have;
    if (absl::Status st = RvalueType(s.rvalue, s.loc, &have); !st.ok()) return st;
    std::optional<Type> want = PlaceType(s.place);
    if (!have || !want) return absl::OkStatus();
    if (s.rvalue.kind == Rvalue::Kind::kUse && !OperandFits(s.rvalue.ops[0], *want))
      return Mismatch(s, *want, *have);
    if (s.rvalue.kind != Rvalue::Kind::kUse && !Fits(*have, *want, 0))
      return Mismatch(s, *want, *have);
    return absl::OkStatus();
  }

  absl::Status Mismatch(const Statement& s, const Type& want, const Type& have) const {
    return Err(s.loc, absl::StrCat("mismatched types: ", PrintPlace(s.place), " is `",
                                   PrintType(want), "`, the value is `", PrintType(have), "`"));
  }

  // The field type of an ADT whose fields may name generic parameters
  // (Option's `T`, Result's `E`): a name there is no ADT, even one the
  // program declares with that name.
  Type FieldType(const Adt* a, const Type& t) const {
    if (!a || !IsPrelude(a) || t.kind != Type::Kind::kNamed || !t.args.empty() ||
        IsScalarName(t.name))
      return t;
    return Type::Named("Any");
  }
  static bool IsPrelude(const Adt* a) {
    for (const Adt& x : PreludeAdts())
      if (&x == a) return true;
    return false;
  }

  const Program& p_;
  const ProgramIndex& index_;
  std::string_view file_;
  const Function* fn_ = nullptr;
  mutable uint64_t work_ = 0;
};

}  // namespace

absl::Status VerifyTypes(const Program& p, const ProgramIndex& index, std::string_view file) {
  return TypeVerifier(p, index, file).Run();
}

}  // namespace mty::ir
