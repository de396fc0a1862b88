// mty::Value and mty::Type: typed values crossing the embedding boundary
// (include/mty/mty.h), and their conversion to and from guest values.
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "api_internal.h"
#include "mty/ir/builtins.h"
#include "mty/vocab/utf8.h"

namespace mty {

using A = ValueAccess;

namespace {

// A value of kind k with the one member Field (a ValueAccess accessor) set.
template <auto Field, typename T>
Value Of(Value::Kind k, T x) {
  Value v;
  A::Make(v, k);
  Field(v) = std::move(x);
  return v;
}

}  // namespace

Value Value::Bool(bool b) { return Of<A::Int>(Kind::kBool, int64_t{b ? 1 : 0}); }
Value Value::Int(int64_t i) { return Of<A::Int>(Kind::kInt, i); }
Value Value::Float(double d) { return Of<A::Float>(Kind::kFloat, d); }
Value Value::Char(char32_t c) { return Of<A::Int>(Kind::kChar, static_cast<int64_t>(c)); }
Value Value::Str(std::string s) { return Of<A::Text>(Kind::kStr, std::move(s)); }
Value Value::Bytes(std::string bytes) { return Of<A::Text>(Kind::kBytes, std::move(bytes)); }
Value Value::Vec(std::vector<Value> items) { return Of<A::Items>(Kind::kVec, std::move(items)); }
Value Value::Map(std::vector<std::pair<Value, Value>> entries) {
  return Of<A::Entries>(Kind::kMap, std::move(entries));
}
Value Value::Tuple(std::vector<Value> items) {
  return Of<A::Items>(Kind::kTuple, std::move(items));
}
Value Value::Struct(std::string type, std::vector<std::pair<std::string, Value>> fields) {
  Value v;
  A::Make(v, Kind::kStruct);
  v.type_ = std::move(type);
  for (auto& [name, x] : fields) {
    v.names_.push_back(std::move(name));
    v.items_.push_back(std::move(x));
  }
  return v;
}
Value Value::Enum(std::string type, std::string variant, std::vector<Value> fields) {
  Value v;
  A::Make(v, Kind::kEnum);
  v.type_ = std::move(type);
  v.variant_ = std::move(variant);
  v.items_ = std::move(fields);
  return v;
}

// ---- Copying, destroying and comparing without recursion ----
//
// A value the host builds can be nested a million levels deep
// (`v = Value::Vec(std::move(v))` in a loop): the implicit members would
// recurse once per level and overflow the stack. These keep their pending
// work in a vector on the heap instead.

namespace {

bool HasChildren(const Value& v) { return !v.items().empty() || !v.entries().empty(); }

// Calls f(child of a, child of b) for each direct child (items, then map
// keys and values), in order; b has as many of each as a.
template <typename F>
void ForEachChildPair(const Value& a, Value& b, F&& f) {
  for (size_t i = 0; i < a.items().size(); ++i) f(a.items()[i], A::Items(b)[i]);
  for (size_t i = 0; i < a.entries().size(); ++i) {
    f(a.entries()[i].first, A::Entries(b)[i].first);
    f(a.entries()[i].second, A::Entries(b)[i].second);
  }
}

// Everything of src but its children, into dst; dst's children are sized
// (default values) to be filled.
void CopyShallow(const Value& src, Value& dst) {
  A::Make(dst, src.kind());
  A::Int(dst) = src.as_int();
  A::Float(dst) = src.as_float();
  A::Text(dst) = src.as_str();
  A::TypeName(dst) = src.type_name();
  A::Variant(dst) = src.variant();
  A::Names(dst) = src.field_names();
  A::Items(dst).resize(src.items().size());
  A::Entries(dst).resize(src.entries().size());
}

// Whether a and b are equal but for their children (which they have as
// many of when they are).
bool ShallowEqual(const Value& a, const Value& b) {
  using K = Value::Kind;
  if (a.kind() != b.kind() || a.items().size() != b.items().size() ||
      a.entries().size() != b.entries().size())
    return false;
  switch (a.kind()) {
    case K::kUnit:
    case K::kVec:
    case K::kTuple:
    case K::kMap: return true;
    case K::kBool:
    case K::kInt:
    case K::kChar: return a.as_int() == b.as_int();
    case K::kFloat: return a.as_float() == b.as_float();
    case K::kStr:
    case K::kBytes:
    case K::kOpaque: return a.as_str() == b.as_str();
    case K::kStruct:
    case K::kEnum:
      return a.type_name() == b.type_name() && a.variant() == b.variant() &&
             a.field_names() == b.field_names();
  }
  return false;
}

}  // namespace

Value::~Value() {
  if (!HasChildren(*this)) return;
  // Each value taken out of the tree has its children with children moved
  // to `pending` before it is destroyed, so no destructor below this one
  // has grandchildren to recurse into.
  std::vector<Value> pending;
  auto take = [&](Value& v) {
    for (Value& x : A::Items(v))
      if (HasChildren(x)) pending.push_back(std::move(x));
    for (auto& [k, x] : A::Entries(v)) {
      if (HasChildren(k)) pending.push_back(std::move(k));
      if (HasChildren(x)) pending.push_back(std::move(x));
    }
  };
  try {
    take(*this);
    while (!pending.empty()) {
      Value v = std::move(pending.back());
      pending.pop_back();
      take(v);
    }
  } catch (const std::bad_alloc&) {
    // No room for the list: what is left is destroyed recursively.
  }
}

Value::Value(const Value& other) {
  CopyShallow(other, *this);
  if (!HasChildren(other)) return;
  // (source, destination) pairs whose children are still to copy; a
  // destination's children are sized before their pairs are queued, so the
  // pointers stay valid.
  std::vector<std::pair<const Value*, Value*>> work{{&other, this}};
  while (!work.empty()) {
    auto [src, dst] = work.back();
    work.pop_back();
    ForEachChildPair(*src, *dst, [&](const Value& s, Value& d) {
      CopyShallow(s, d);
      if (HasChildren(s)) work.push_back({&s, &d});
    });
  }
}

Value& Value::operator=(const Value& other) {
  if (this != &other) *this = Value(other);  // copied first: other may be inside *this
  return *this;
}

const Value* Value::field(std::string_view name) const {
  for (size_t i = 0; i < names_.size() && i < items_.size(); ++i)
    if (names_[i] == name) return &items_[i];
  return nullptr;
}

bool Value::operator==(const Value& other) const {
  if (!ShallowEqual(*this, other)) return false;
  if (!HasChildren(*this)) return true;
  // Pairs equal but for their children, whose children are still to compare.
  std::vector<std::pair<const Value*, const Value*>> work{{this, &other}};
  bool equal = true;
  while (equal && !work.empty()) {
    auto [a, b] = work.back();
    work.pop_back();
    for (size_t i = 0; equal && i < a->items_.size(); ++i) {
      equal = ShallowEqual(a->items_[i], b->items_[i]);
      if (HasChildren(a->items_[i])) work.push_back({&a->items_[i], &b->items_[i]});
    }
    for (size_t i = 0; equal && i < a->entries_.size(); ++i)
      for (auto [x, y] : {std::pair{&a->entries_[i].first, &b->entries_[i].first},
                          std::pair{&a->entries_[i].second, &b->entries_[i].second}}) {
        equal = equal && ShallowEqual(*x, *y);
        if (HasChildren(*x)) work.push_back({x, y});
      }
  }
  return equal;
}

namespace {

// The types a value names, as a module would declare them: what Debug
// needs to print it with the interpreter's own printer (one home for the
// `{:?}` format).
void Declare(const Value& v, interp::Module& m, int depth) {
  if (depth > internal::kMaxValueDepth) return;
  if (v.is(Value::Kind::kStruct) || v.is(Value::Kind::kEnum)) {
    const bool is_enum = v.is(Value::Kind::kEnum);
    interp::AdtInfo* info = nullptr;
    for (interp::AdtInfo& a : m.adts)
      if (a.name == v.type_name() && a.is_enum == is_enum) info = &a;
    if (!info) {
      m.adts.push_back(interp::AdtInfo{v.type_name(), is_enum, {}, {}});
      info = &m.adts.back();
    }
    const std::string& variant = is_enum ? v.variant() : v.type_name();
    bool known = false;
    for (const std::string& n : info->variant_names) known |= n == variant;
    if (!known) {
      info->variant_names.push_back(variant);
      // Positional fields (`P(1, 2)`, whose names are "0", "1", ...) print
      // without names, as the program's own would.
      std::vector<std::string> names = v.field_names();
      bool positional = true;
      for (size_t i = 0; i < names.size(); ++i) positional &= names[i] == absl::StrCat(i);
      if (positional) names.assign(v.items().size(), "");
      info->field_names.push_back(std::move(names));
    }
  }
  for (const Value& x : v.items()) Declare(x, m, depth + 1);
  for (const auto& [k, x] : v.entries()) {
    Declare(k, m, depth + 1);
    Declare(x, m, depth + 1);
  }
}

}  // namespace

std::string Value::Debug() const {
  interp::Module m;
  m.adts.push_back(interp::AdtInfo{"Option", true, {"Some", "None"}, {{""}, {}}});
  m.adts.push_back(interp::AdtInfo{"Result", true, {"Ok", "Err"}, {{""}, {""}}});
  Declare(*this, m, 0);
  absl::StatusOr<interp::Value> g = internal::ToGuest(m, *this);
  if (!g.ok()) return absl::StrCat("<", g.status().message(), ">");
  return interp::Debug(m, *g);
}

// ---- Type ----

std::string Type::ToString() const {
  auto list = [&](const char* open, const char* close) {
    std::vector<std::string> parts;
    for (const Type& a : args_) parts.push_back(a.ToString());
    return absl::StrCat(open, absl::StrJoin(parts, ", "), close);
  };
  switch (kind_) {
    case Kind::kAny: return "_";
    case Kind::kUnit: return "()";
    case Kind::kBool: return "Bool";
    case Kind::kInt: return "I64";
    case Kind::kFloat: return "F64";
    case Kind::kChar: return "Char";
    case Kind::kStr: return "Str";
    case Kind::kBytes: return "[U8]";
    case Kind::kVec: return list("[", "]");
    case Kind::kMap: return list("Map[", "]");
    case Kind::kOption: return list("Option[", "]");
    case Kind::kResult: return list("Result[", "]");
    case Kind::kTuple: return args_.size() == 1 ? list("(", ",)") : list("(", ")");
    case Kind::kNamed: return name_;
  }
  return "_";
}

bool Type::Admits(const Value& v) const {
  using K = Value::Kind;
  auto all = [&](const std::vector<Value>& items, const Type& t) {
    for (const Value& x : items)
      if (!t.Admits(x)) return false;
    return true;
  };
  switch (kind_) {
    case Kind::kAny: return true;
    case Kind::kUnit: return v.is(K::kUnit);
    case Kind::kBool: return v.is(K::kBool);
    case Kind::kInt: return v.is(K::kInt);
    case Kind::kFloat: return v.is(K::kFloat);
    case Kind::kChar: return v.is(K::kChar);
    case Kind::kStr: return v.is(K::kStr);
    case Kind::kBytes:
      if (v.is(K::kBytes)) return true;
      if (!v.is(K::kVec)) return false;
      for (const Value& x : v.items())
        if (!x.is(K::kInt) || x.as_int() < 0 || x.as_int() > 255) return false;
      return true;
    case Kind::kVec:
      if (v.is(K::kBytes)) return args_[0].kind_ == Kind::kInt || args_[0].kind_ == Kind::kAny;
      return v.is(K::kVec) && all(v.items(), args_[0]);
    case Kind::kMap:
      if (!v.is(K::kMap)) return false;
      for (const auto& [k, x] : v.entries())
        if (!args_[0].Admits(k) || !args_[1].Admits(x)) return false;
      return true;
    case Kind::kOption:
      if (v.is_variant("Option", "None")) return v.items().empty();
      return v.is_variant("Option", "Some") && v.items().size() == 1 &&
             args_[0].Admits(v.items()[0]);
    case Kind::kResult:
      if (v.is_variant("Result", "Ok"))
        return v.items().size() == 1 && args_[0].Admits(v.items()[0]);
      return v.is_variant("Result", "Err") && v.items().size() == 1 &&
             args_[1].Admits(v.items()[0]);
    case Kind::kTuple:
      if (!v.is(K::kTuple) || v.items().size() != args_.size()) return false;
      for (size_t i = 0; i < args_.size(); ++i)
        if (!args_[i].Admits(v.items()[i])) return false;
      return true;
    case Kind::kNamed: return (v.is(K::kStruct) || v.is(K::kEnum)) && v.type_name() == name_;
  }
  return false;
}

namespace internal {

absl::Status TooDeep() {
  return absl::InvalidArgumentError(
      absl::StrCat("value nested deeper than ", kMaxValueDepth, " levels"));
}

ir::Type ToIrType(const Type& t) {
  auto named = [&](const char* n) {
    ir::Type out = ir::Type::Named(n);
    for (const Type& a : t.args()) out.args.push_back(ToIrType(a));
    return out;
  };
  ir::Type out;
  switch (t.kind()) {
    case Type::Kind::kAny: return ir::Type::Named("_");
    case Type::Kind::kUnit: out.kind = ir::Type::Kind::kTuple; return out;
    case Type::Kind::kBool: return ir::Type::Named("Bool");
    case Type::Kind::kInt: return ir::Type::Named("I64");
    case Type::Kind::kFloat: return ir::Type::Named("F64");
    case Type::Kind::kChar: return ir::Type::Named("Char");
    case Type::Kind::kStr: return ir::Type::Named("Str");
    case Type::Kind::kBytes:
      out.kind = ir::Type::Kind::kArray;
      out.args.push_back(ir::Type::Named("U8"));
      return out;
    case Type::Kind::kVec:
      out.kind = ir::Type::Kind::kArray;
      out.args.push_back(ToIrType(t.args()[0]));
      return out;
    case Type::Kind::kMap: return named("Map");
    case Type::Kind::kOption: return named("Option");
    case Type::Kind::kResult: return named("Result");
    case Type::Kind::kTuple:
      out.kind = ir::Type::Kind::kTuple;
      for (const Type& a : t.args()) out.args.push_back(ToIrType(a));
      return out;
    case Type::Kind::kNamed: return ir::Type::Named(t.name());
  }
  return ir::Type::Named("_");
}

namespace {

using interp::Tag;

absl::StatusOr<Value> From(const interp::Module& m, const interp::Value& v, int depth) {
  if (depth > kMaxValueDepth) return TooDeep();
  switch (v.tag()) {
    case Tag::kUnit: return Value::Unit();
    case Tag::kBool: return Value::Bool(v.b());
    case Tag::kInt:
    case Tag::kDuration:
    case Tag::kSize: return Value::Int(v.i());
    case Tag::kFloat: return Value::Float(v.f());
    case Tag::kChar: return Value::Char(static_cast<char32_t>(v.i()));
    case Tag::kStr: return Value::Str(static_cast<const interp::StrObj*>(v.h())->s);
    case Tag::kBytes: return Value::Bytes(static_cast<const interp::BytesObj*>(v.h())->b);
    case Tag::kArray:
    case Tag::kTuple: {
      std::vector<Value> items;
      const auto& src = static_cast<const interp::ArrayObj*>(v.h())->items;
      items.reserve(src.size());
      for (const interp::Value& x : src) {
        absl::StatusOr<Value> e = From(m, x, depth + 1);
        if (!e.ok()) return e.status();
        items.push_back(std::move(*e));
      }
      return v.Is(Tag::kTuple) ? Value::Tuple(std::move(items)) : Value::Vec(std::move(items));
    }
    case Tag::kMap: {
      std::vector<std::pair<Value, Value>> entries;
      absl::Status st;
      static_cast<const interp::MapObj*>(v.h())->ForEach(
          [&](const interp::Value& k, const interp::Value& x) {
            if (!st.ok()) return;
            absl::StatusOr<Value> kk = From(m, k, depth + 1);
            absl::StatusOr<Value> xx = kk.ok() ? From(m, x, depth + 1) : kk;
            if (!xx.ok()) {
              st = xx.status();
              return;
            }
            entries.emplace_back(std::move(*kk), std::move(*xx));
          });
      if (!st.ok()) return st;
      return Value::Map(std::move(entries));
    }
    case Tag::kAdt: {
      const auto* o = static_cast<const interp::AdtObj*>(v.h());
      if (o->adt >= m.adts.size()) break;
      const interp::AdtInfo& info = m.adts[o->adt];
      std::vector<Value> fields;
      for (const interp::Value& x : o->fields) {
        absl::StatusOr<Value> e = From(m, x, depth + 1);
        if (!e.ok()) return e.status();
        fields.push_back(std::move(*e));
      }
      const std::vector<std::string>* names =
          o->variant < info.field_names.size() ? &info.field_names[o->variant] : nullptr;
      const bool named = names && !names->empty() && !(*names)[0].empty();
      Value out;
      if (info.is_enum) {
        out = Value::Enum(info.name,
                          o->variant < info.variant_names.size() ? info.variant_names[o->variant]
                                                                 : absl::StrCat(o->variant),
                          std::move(fields));
      } else {
        out = Value::Enum(info.name, "", std::move(fields));
        A::Make(out, Value::Kind::kStruct);
      }
      if (named || !info.is_enum) {
        std::vector<std::string>& out_names = A::Names(out);
        for (size_t i = 0; i < out.items().size(); ++i)
          out_names.push_back(named && names && i < names->size() ? (*names)[i] : absl::StrCat(i));
      }
      return out;
    }
    default: break;
  }
  Value opaque;
  A::Make(opaque, Value::Kind::kOpaque);
  A::Text(opaque) = interp::Debug(m, v, 256);
  return opaque;
}

absl::StatusOr<interp::Value> To(const interp::Module& m, const Value& v, int depth) {
  if (depth > kMaxValueDepth) return TooDeep();
  using K = Value::Kind;
  auto items = [&](const std::vector<Value>& src, std::vector<interp::Value>* out,
                   uint64_t* est) -> absl::Status {
    out->reserve(src.size());
    for (const Value& x : src) {
      absl::StatusOr<interp::Value> e = To(m, x, depth + 1);
      if (!e.ok()) return e.status();
      *est += interp::Estimate(*e);
      out->push_back(std::move(*e));
    }
    return absl::OkStatus();
  };
  switch (v.kind()) {
    case K::kUnit: return interp::Value::Unit();
    case K::kBool: return interp::Value::Bool(v.as_bool());
    case K::kInt: return interp::Value::Int(v.as_int());
    case K::kFloat: return interp::Value::Float(v.as_float());
    case K::kChar: {
      const uint32_t c = static_cast<uint32_t>(v.as_char());
      if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return absl::InvalidArgumentError(absl::StrCat("U+", absl::Hex(c), " is not a Char"));
      return interp::Value::Char(c);
    }
    case K::kStr: {
      size_t bad = 0;
      if (!ir::ValidUtf8(v.as_str(), &bad))
        return absl::InvalidArgumentError(
            absl::StrCat("a Str must be UTF-8: invalid byte at offset ", bad));
      return interp::MakeStr(v.as_str());
    }
    case K::kBytes: return interp::Value::Heap(new interp::BytesObj(v.as_str()));
    case K::kVec:
    case K::kTuple: {
      auto* a = new interp::ArrayObj(v.is(K::kTuple) ? Tag::kTuple : Tag::kArray);
      interp::Value out = interp::Value::Heap(a);
      uint64_t est = interp::cost::kHeader;
      if (absl::Status s = items(v.items(), &a->items, &est); !s.ok()) return s;
      a->est = est;
      return out;
    }
    case K::kMap: {
      auto* o = new interp::MapObj();
      interp::Value out = interp::Value::Heap(o);
      uint64_t est = interp::cost::kHeader;
      for (const auto& [k, x] : v.entries()) {
        absl::StatusOr<interp::Value> kk = To(m, k, depth + 1);
        if (!kk.ok()) return kk.status();
        if (!interp::IsMapKey(*kk))
          return absl::InvalidArgumentError(
              "map keys must be Int, Str, Char, Bool or tuples of those");
        absl::StatusOr<interp::Value> xx = To(m, x, depth + 1);
        if (!xx.ok()) return xx.status();
        int j = o->Find(*kk);
        if (j >= 0) {  // a repeated key: the later entry wins, as in a map literal
          est -= interp::Estimate(o->entries[j].second);
          est += interp::Estimate(*xx);
          o->entries[j].second = std::move(*xx);
        } else {
          est += interp::Estimate(*kk) + interp::Estimate(*xx);
          o->Append(std::move(*kk), std::move(*xx));
        }
      }
      o->est = est;
      return out;
    }
    case K::kStruct:
    case K::kEnum: {
      const bool is_enum = v.is(K::kEnum);
      int adt = -1;
      for (size_t i = 0; i < m.adts.size(); ++i)
        if (m.adts[i].name == v.type_name() && m.adts[i].is_enum == is_enum)
          adt = static_cast<int>(i);
      if (adt < 0)
        return absl::InvalidArgumentError(absl::StrCat(
            "the program declares no ", is_enum ? "enum" : "struct", " `", v.type_name(), "`"));
      const interp::AdtInfo& info = m.adts[adt];
      uint32_t variant = 0;
      if (is_enum) {
        bool found = false;
        for (size_t i = 0; i < info.variant_names.size(); ++i)
          if (info.variant_names[i] == v.variant()) {
            variant = static_cast<uint32_t>(i);
            found = true;
          }
        if (!found)
          return absl::InvalidArgumentError(
              absl::StrCat("enum `", info.name, "` has no variant `", v.variant(), "`"));
      }
      const std::vector<std::string>& declared = info.field_names[variant];
      const std::string what =
          is_enum ? absl::StrCat(info.name, "::", v.variant()) : absl::StrCat("struct ", info.name);
      if (declared.size() != v.items().size())
        return absl::InvalidArgumentError(absl::StrCat(what, " has ", declared.size(),
                                                       " field(s), the value ", v.items().size()));
      // Named fields are matched by name (any order); positional ones by place.
      std::vector<const Value*> order(declared.size(), nullptr);
      const bool named = !declared.empty() && !declared[0].empty() && !v.field_names().empty();
      for (size_t i = 0; i < declared.size(); ++i) {
        order[i] = named ? v.field(declared[i]) : &v.items()[i];
        if (!order[i])
          return absl::InvalidArgumentError(
              absl::StrCat(what, ": the value has no field `", declared[i], "`"));
      }
      auto* o = new interp::AdtObj();
      interp::Value out = interp::Value::Heap(o);
      o->adt = static_cast<uint32_t>(adt);
      o->variant = variant;
      uint64_t est = interp::cost::kHeader;
      for (const Value* x : order) {
        absl::StatusOr<interp::Value> e = To(m, *x, depth + 1);
        if (!e.ok()) return e.status();
        est += interp::Estimate(*e);
        o->fields.push_back(std::move(*e));
      }
      o->est = est;
      return out;
    }
    case K::kOpaque:
      return absl::InvalidArgumentError(
          absl::StrCat("an opaque value (", v.as_str(), ") cannot cross back into the guest"));
  }
  return absl::InvalidArgumentError("unknown value kind");
}

bool Fits(const interp::Module& m, const interp::Value& v, const ir::Type& t, int depth) {
  if (depth > kMaxValueDepth) return false;
  auto arg = [&](size_t i) -> const ir::Type* { return i < t.args.size() ? &t.args[i] : nullptr; };
  switch (t.kind) {
    case ir::Type::Kind::kTuple: {
      if (t.args.empty()) return v.Is(Tag::kUnit);
      if (!v.Is(Tag::kTuple)) return false;
      const auto& items = static_cast<const interp::ArrayObj*>(v.h())->items;
      if (items.size() != t.args.size()) return false;
      for (size_t i = 0; i < items.size(); ++i)
        if (!Fits(m, items[i], t.args[i], depth + 1)) return false;
      return true;
    }
    case ir::Type::Kind::kArray: {
      if (v.Is(Tag::kBytes)) return true;
      if (!v.Is(Tag::kArray)) return false;
      if (!arg(0)) return true;
      for (const interp::Value& x : static_cast<const interp::ArrayObj*>(v.h())->items)
        if (!Fits(m, x, *arg(0), depth + 1)) return false;
      return true;
    }
    case ir::Type::Kind::kNamed: break;
    default: return true;  // references, functions: not values a host can give
  }
  // Scalars by the cast table's names (I8 ... U64, F64, Char, Bool, Str).
  if (const ir::CastInfo* c = ir::FindCast(t.name)) {
    using CK = ir::CastKind;
    const int64_t i = v.i();
    switch (c->kind) {
      case CK::kI8: return v.Is(Tag::kInt) && i >= INT8_MIN && i <= INT8_MAX;
      case CK::kI16: return v.Is(Tag::kInt) && i >= INT16_MIN && i <= INT16_MAX;
      case CK::kI32: return v.Is(Tag::kInt) && i >= INT32_MIN && i <= INT32_MAX;
      case CK::kU8: return v.Is(Tag::kInt) && i >= 0 && i <= UINT8_MAX;
      case CK::kU16: return v.Is(Tag::kInt) && i >= 0 && i <= UINT16_MAX;
      case CK::kU32: return v.Is(Tag::kInt) && i >= 0 && i <= UINT32_MAX;
      case CK::kU64: return v.Is(Tag::kInt) && i >= 0;
      case CK::kI64: return v.Is(Tag::kInt);
      case CK::kF64: return v.Is(Tag::kFloat);
      case CK::kChar: return v.Is(Tag::kChar);
      case CK::kBool: return v.Is(Tag::kBool);
      case CK::kStr: return v.Is(Tag::kStr);
      case CK::kDuration: return v.Is(Tag::kInt) || v.Is(Tag::kDuration);
      case CK::kSize: return v.Is(Tag::kInt) || v.Is(Tag::kSize);
    }
    return false;
  }
  if (t.name == "Map" || t.name == "HashMap") {
    if (!v.Is(Tag::kMap)) return false;
    bool ok = true;
    static_cast<const interp::MapObj*>(v.h())->ForEach(
        [&](const interp::Value& k, const interp::Value& x) {
          if (ok && arg(0)) ok = Fits(m, k, *arg(0), depth + 1);
          if (ok && arg(1)) ok = Fits(m, x, *arg(1), depth + 1);
        });
    return ok;
  }
  if (t.name == "Vec" || t.name == "Array")
    return Fits(m, v, ir::Type{ir::Type::Kind::kArray, "", false, t.args}, depth);
  // A struct or enum the program declares (Option and Result included).
  for (const interp::AdtInfo& a : m.adts)
    if (a.name == t.name) {
      if (!v.Is(Tag::kAdt)) return false;
      const auto* o = static_cast<const interp::AdtObj*>(v.h());
      if (o->adt >= m.adts.size() || m.adts[o->adt].name != t.name) return false;
      if (t.name == "Option" && o->variant == ir::prelude::kSome && arg(0))
        return Fits(m, o->fields[0], *arg(0), depth + 1);
      if (t.name == "Result" && arg(o->variant))
        return Fits(m, o->fields[0], *arg(o->variant), depth + 1);
      return true;
    }
  return true;  // a generic parameter or a type the check cannot name
}

}  // namespace

bool GuestFits(const interp::Module& m, const interp::Value& v, const ir::Type& t) {
  return Fits(m, v, t, 0);
}

absl::StatusOr<Value> FromGuest(const interp::Module& m, const interp::Value& v,
                                uint64_t max_bytes) {
  // The estimate is the tree's size (a shared child counts each time it
  // is reached), cached in every object: the check reads one number.
  if (interp::Estimate(v) > max_bytes)
    return absl::ResourceExhaustedError(absl::StrCat("the value is ", interp::Estimate(v),
                                                     " B (estimated) as a copy, over the ",
                                                     max_bytes, " B that may cross to the host"));
  return From(m, v, 0);
}

absl::StatusOr<interp::Value> ToGuest(const interp::Module& m, const Value& v) {
  return To(m, v, 0);
}

}  // namespace internal
}  // namespace mty
