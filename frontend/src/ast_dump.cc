// The AST dump (`mty dump --ast`): the module as an S-expression tree,
// printed flat unless a node holds a block.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "mty/frontend/parser.h"

namespace mty::frontend {

namespace {

using EK = Expr::Kind;
using PK = Pattern::Kind;

}  // namespace

const char* BinaryOpText(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSub: return "-";
    case BinaryOp::kMul: return "*";
    case BinaryOp::kDiv: return "/";
    case BinaryOp::kRem: return "%";
    case BinaryOp::kBitAnd: return "&";
    case BinaryOp::kBitOr: return "|";
    case BinaryOp::kBitXor: return "^";
    case BinaryOp::kShl: return "<<";
    case BinaryOp::kShr: return ">>";
    case BinaryOp::kEq: return "==";
    case BinaryOp::kNe: return "!=";
    case BinaryOp::kLt: return "<";
    case BinaryOp::kLe: return "<=";
    case BinaryOp::kGt: return ">";
    case BinaryOp::kGe: return ">=";
    case BinaryOp::kAnd: return "&&";
    case BinaryOp::kOr: return "||";
  }
  return "?";
}

namespace {

// An S-expression tree, printed flat unless it holds a block.
struct SNode {
  std::string head;
  std::vector<SNode> kids;
  bool list = false;
  bool force_break = false;  // one kid per line (blocks, the module)
  size_t keep = 0;           // with force_break: kids kept on the head line (names)
  bool multi = false;        // needs more than one line
  std::string suffix;
};

SNode Atom(std::string s) {
  SNode n;
  n.head = std::move(s);
  return n;
}

SNode List(std::string head, std::vector<SNode> kids = {}, bool force_break = false,
           size_t keep = 0) {
  SNode n;
  n.head = std::move(head);
  n.list = true;
  n.force_break = force_break;
  n.keep = keep;
  n.multi = force_break && kids.size() > keep;
  for (const SNode& k : kids) n.multi |= k.multi;
  n.kids = std::move(kids);
  return n;
}

void Print(const SNode& n, int indent, std::string& out) {
  if (!n.list) {
    out += n.head + n.suffix;
    return;
  }
  out += "(" + n.head;
  bool broken = false;
  for (size_t i = 0; i < n.kids.size(); ++i) {
    const SNode& k = n.kids[i];
    if (!broken && (n.force_break ? i < n.keep : !k.multi)) {
      out += " ";
      Print(k, indent, out);
      continue;
    }
    broken = true;
    out.append(1, '\n').append(static_cast<size_t>(indent + 2), ' ');
    Print(k, indent + 2, out);
  }
  out += ")" + n.suffix;
}

std::string Quote(std::string_view s, char q) {
  std::string out(1, q);
  for (char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\\': out += "\\\\"; break;
      case '\0': out += "\\0"; break;
      default:
        if (c == q) {
          out += '\\';
          out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
          char buf[16];
          std::snprintf(buf, sizeof buf, "\\u{%x}", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + q;
}

std::string FloatText(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".einf") == std::string::npos) s += ".0";
  return s;
}

std::string TypeText(const TypeExpr& t) {
  auto join = [&](size_t from, size_t to) {
    std::string s;
    for (size_t i = from; i < to; ++i) s += (i > from ? ", " : "") + TypeText(t.args[i]);
    return s;
  };
  switch (t.kind) {
    case TypeExpr::Kind::kInfer: return "_";
    case TypeExpr::Kind::kPath:
      return t.args.empty() ? t.name : t.name + "[" + join(0, t.args.size()) + "]";
    case TypeExpr::Kind::kTuple:
      return "(" + join(0, t.args.size()) + (t.args.size() == 1 ? ",)" : ")");
    case TypeExpr::Kind::kArray: return "[" + join(0, t.args.size()) + "]";
    case TypeExpr::Kind::kRef:
      return std::string(t.is_mut ? "&mut " : "&") + (t.args.empty() ? "_" : TypeText(t.args[0]));
    case TypeExpr::Kind::kFn:
      if (t.args.empty()) return "fn()";
      return "fn(" + join(0, t.args.size() - 1) + ") -> " + TypeText(t.args.back());
  }
  return "?";
}

std::string PathText(const std::vector<PathSeg>& segs) {
  std::string s;
  for (size_t i = 0; i < segs.size(); ++i) s += (i ? "::" : "") + segs[i].name;
  return s;
}

SNode DumpExpr(const Expr* e);
SNode DumpPat(const Pattern* p);
SNode DumpFn(const FnDecl& f);

// A loop with its label: `('outer: (loop ..))`.
SNode Labelled(const Expr& e, SNode loop) {
  if (e.more->label.empty()) return loop;
  return List("'" + e.more->label + ":", {std::move(loop)});
}

SNode DumpBlock(const Block* b) {
  std::vector<SNode> stmts;
  if (b) {
    for (const Stmt& s : b->stmts) {
      if (s.kind == Stmt::Kind::kLet) {
        std::vector<SNode> kids;
        kids.push_back(DumpPat(s.pat.get()));
        if (s.type.kind != TypeExpr::Kind::kInfer) kids.push_back(Atom(":" + TypeText(s.type)));
        if (s.expr) kids.push_back(DumpExpr(s.expr.get()));
        if (s.else_block) kids.push_back(List("else", {DumpBlock(s.else_block.get())}));
        stmts.push_back(List("let", std::move(kids)));
      } else if (s.kind == Stmt::Kind::kFn && s.fn_item) {
        stmts.push_back(DumpFn(*s.fn_item));
      } else if (s.kind == Stmt::Kind::kEmpty) {
        stmts.push_back(Atom(";"));
      } else {
        SNode n = DumpExpr(s.expr.get());
        if (s.has_semi) n.suffix += ";";
        stmts.push_back(std::move(n));
      }
    }
  }
  return List("block", std::move(stmts), true);
}

std::vector<SNode> DumpArgs(const std::vector<ExprPtr>& args) {
  std::vector<SNode> out;
  for (const ExprPtr& a : args) out.push_back(DumpExpr(a.get()));
  return out;
}

SNode DumpEntries(const std::vector<SandboxEntry>& entries) {
  std::vector<SNode> kids;
  for (const SandboxEntry& en : entries)
    kids.push_back(en.value ? List(en.key, {DumpExpr(en.value.get())}) : Atom(en.key));
  return List("with", std::move(kids));
}

SNode DumpExpr(const Expr* e) {
  if (!e) return Atom("_");
  auto with = [](std::string head, std::vector<SNode> first, std::vector<SNode> rest) {
    for (SNode& r : rest) first.push_back(std::move(r));
    return List(std::move(head), std::move(first));
  };
  switch (e->kind) {
    case EK::kInt: return Atom(std::to_string(e->int_value) + e->text);
    case EK::kFloat: return Atom(FloatText(e->float_value) + e->text);
    case EK::kStr: return Atom(Quote(e->text, '"'));
    case EK::kChar: {
      std::string s;
      uint32_t cp = static_cast<uint32_t>(e->int_value);
      if (cp < 0x80) {
        s += static_cast<char>(cp);
      } else {
        char buf[16];
        std::snprintf(buf, sizeof buf, "\\u{%x}", cp);
        return Atom(std::string("'") + buf + "'");
      }
      return Atom(Quote(s, '\''));
    }
    case EK::kBool: return Atom(e->int_value ? "true" : "false");
    case EK::kDuration: return Atom(std::to_string(e->int_value) + "ns");
    case EK::kSize: return Atom(std::to_string(e->int_value) + "B");
    case EK::kUnit: return Atom("()");
    case EK::kPath: return Atom(PathText(e->segs));
    case EK::kUnary:
      return List(e->unary_op == UnaryOp::kNeg ? "neg" : "not", {DumpExpr(e->lhs.get())});
    case EK::kBinary:
      return List(BinaryOpText(e->binary_op), {DumpExpr(e->lhs.get()), DumpExpr(e->rhs.get())});
    case EK::kAssign:
      return List(e->has_op ? std::string(BinaryOpText(e->binary_op)) + "=" : "=",
                  {DumpExpr(e->lhs.get()), DumpExpr(e->rhs.get())});
    case EK::kCall: return with("call", {DumpExpr(e->lhs.get())}, DumpArgs(e->args));
    case EK::kMethodCall:
      return with("mcall", {DumpExpr(e->lhs.get()), Atom(e->text)}, DumpArgs(e->args));
    case EK::kField: return List("field", {DumpExpr(e->lhs.get()), Atom(e->text)});
    case EK::kTupleField:
      return List("tfield", {DumpExpr(e->lhs.get()), Atom(std::to_string(e->int_value))});
    case EK::kIndex: return List("index", {DumpExpr(e->lhs.get()), DumpExpr(e->rhs.get())});
    case EK::kTuple: return List("tuple", DumpArgs(e->args));
    case EK::kArray:
      if (e->rhs) return List("repeat", {DumpExpr(e->args[0].get()), DumpExpr(e->rhs.get())});
      return List("array", DumpArgs(e->args));
    case EK::kMap: return List("map", DumpArgs(e->args));
    case EK::kStruct: {
      std::vector<SNode> kids{Atom(PathText(e->segs))};
      for (const FieldInit& f : e->more->fields)
        kids.push_back(List(f.name, {DumpExpr(f.value.get())}));
      if (e->rhs) kids.push_back(List("..", {DumpExpr(e->rhs.get())}));
      return List("struct", std::move(kids));
    }
    case EK::kBlock: return DumpBlock(e->then_block.get());
    case EK::kIf:
    case EK::kIfLet: {
      std::vector<SNode> kids;
      if (e->kind == EK::kIfLet) {
        kids.push_back(DumpPat(e->more->pat.get()));
        kids.push_back(DumpExpr(e->lhs.get()));
      } else {
        kids.push_back(DumpExpr(e->more->cond.get()));
      }
      kids.push_back(DumpBlock(e->then_block.get()));
      if (e->more->else_expr) kids.push_back(List("else", {DumpExpr(e->more->else_expr.get())}));
      return List(e->kind == EK::kIf ? "if" : "if-let", std::move(kids));
    }
    case EK::kMatch: {
      std::vector<SNode> kids{DumpExpr(e->lhs.get())};
      for (const MatchArm& a : e->more->arms) {
        std::vector<SNode> ak{DumpPat(a.pat.get())};
        if (a.guard) ak.push_back(List("if", {DumpExpr(a.guard.get())}));
        ak.push_back(DumpExpr(a.body.get()));
        kids.push_back(List("arm", std::move(ak)));
      }
      return List("match", std::move(kids), true, 1);
    }
    case EK::kWhile:
      return Labelled(
          *e, List("while", {DumpExpr(e->more->cond.get()), DumpBlock(e->then_block.get())}));
    case EK::kWhileLet:
      return Labelled(*e, List("while-let", {DumpPat(e->more->pat.get()), DumpExpr(e->lhs.get()),
                                             DumpBlock(e->then_block.get())}));
    case EK::kLoop: return Labelled(*e, List("loop", {DumpBlock(e->then_block.get())}));
    case EK::kFor:
      return Labelled(*e, List("for", {DumpPat(e->more->pat.get()), DumpExpr(e->lhs.get()),
                                       DumpBlock(e->then_block.get())}));
    case EK::kBreak:
    case EK::kReturn: {
      std::vector<SNode> kids;
      if (!e->more->label.empty()) kids.push_back(Atom("'" + e->more->label));
      if (e->lhs) kids.push_back(DumpExpr(e->lhs.get()));
      return List(e->kind == EK::kBreak ? "break" : "return", std::move(kids));
    }
    case EK::kContinue:
      return e->more->label.empty() ? List("continue")
                                    : List("continue", {Atom("'" + e->more->label)});
    case EK::kTry: return List("try", {DumpExpr(e->lhs.get())});
    case EK::kClosure: {
      std::vector<SNode> ps;
      for (const ClosureParam& p : e->more->params) {
        SNode pn = DumpPat(p.pat.get());
        if (p.type.kind != TypeExpr::Kind::kInfer) pn = List(":", {pn, Atom(TypeText(p.type))});
        ps.push_back(std::move(pn));
      }
      return List("closure",
                  {List("params", std::move(ps)), DumpExpr(e->more->closure_body.get())});
    }
    case EK::kRange:
      return List(e->inclusive ? "range=" : "range",
                  {DumpExpr(e->lhs.get()), DumpExpr(e->rhs.get())});
    case EK::kCast: return List("as", {DumpExpr(e->lhs.get()), Atom(TypeText(e->more->type))});
    case EK::kRef: return List(e->is_mut ? "ref-mut" : "ref", {DumpExpr(e->lhs.get())});
    case EK::kDeref: return List("deref", {DumpExpr(e->lhs.get())});
    case EK::kMacro: return List(e->text + "!", DumpArgs(e->args));
    case EK::kSpawn: return with("spawn", {Atom(PathText(e->segs))}, DumpArgs(e->args));
    case EK::kSend: return with("send", {DumpExpr(e->lhs.get()), Atom(e->text)}, DumpArgs(e->args));
    case EK::kAsk: {
      SNode n = with("ask", {DumpExpr(e->lhs.get()), Atom(e->text)}, DumpArgs(e->args));
      if (e->rhs) {
        n.kids.push_back(List("@", {DumpExpr(e->rhs.get())}));
        n.multi |= n.kids.back().multi;
      }
      return n;
    }
    case EK::kSandbox: {
      std::vector<SNode> kids{Atom(e->text.empty() ? "_" : e->text)};
      if (!e->more->entries.empty()) kids.push_back(DumpEntries(e->more->entries));
      if (e->then_block) kids.push_back(DumpBlock(e->then_block.get()));
      return List("sandbox", std::move(kids));
    }
    case EK::kBudget:
      return List("budget", {DumpEntries(e->more->entries), DumpBlock(e->then_block.get())});
    case EK::kUnsafe: return List("unsafe", {DumpBlock(e->then_block.get())});
    case EK::kArena:
      return List("arena", {Atom(e->text.empty() ? "_" : e->text), DumpBlock(e->then_block.get())});
  }
  return Atom("?");
}

SNode DumpPat(const Pattern* p) {
  if (!p) return Atom("_");
  std::vector<SNode> subs;
  for (const PatPtr& s : p->subs) subs.push_back(DumpPat(s.get()));
  switch (p->kind) {
    case PK::kWild: return Atom("_");
    case PK::kBind: {
      SNode n = p->is_mut ? List("mut", {Atom(p->name)}) : Atom(p->name);
      if (!subs.empty()) return List("@", {std::move(n), std::move(subs[0])});
      return n;
    }
    case PK::kLit: return DumpExpr(p->lit.get());
    case PK::kRange:
      return List(p->inclusive ? "range=" : "range",
                  {DumpExpr(p->lit.get()), DumpExpr(p->hi.get())});
    case PK::kTuple: return List("tuple", std::move(subs));
    case PK::kVariant: {
      if (!p->has_parens) return List("path", {Atom(PathText(p->path))});
      subs.insert(subs.begin(), Atom(PathText(p->path)));
      return List("variant", std::move(subs));
    }
    case PK::kStruct: {
      std::vector<SNode> kids{Atom(PathText(p->path))};
      for (size_t i = 0; i < subs.size() && i < p->field_names.size(); ++i)
        kids.push_back(List(p->field_names[i], {std::move(subs[i])}));
      if (p->has_rest) kids.push_back(Atom(".."));
      return List("struct-pat", std::move(kids));
    }
    case PK::kOr: return List("or", std::move(subs));
    case PK::kRef: return List("ref", std::move(subs));
    case PK::kSlice: {
      if (p->rest_index >= 0 && static_cast<size_t>(p->rest_index) < subs.size()) {
        const Pattern& r = *p->subs[p->rest_index];
        subs[p->rest_index] =
            r.kind == PK::kBind ? List("@", {Atom(r.name), Atom("..")}) : Atom("..");
      }
      return List("slice", std::move(subs));
    }
  }
  return Atom("?");
}

SNode DumpParams(const std::vector<Param>& params) {
  std::vector<SNode> kids;
  for (const Param& p : params) {
    if (p.self_kind != Param::SelfKind::kNone) {
      const char* s = p.self_kind == Param::SelfKind::kRef      ? "&self"
                      : p.self_kind == Param::SelfKind::kRefMut ? "&mut self"
                      : p.is_mut                                ? "mut self"
                                                                : "self";
      kids.push_back(Atom(s));
      continue;
    }
    std::vector<SNode> rest;
    if (p.type.kind != TypeExpr::Kind::kInfer) rest.push_back(Atom(TypeText(p.type)));
    if (p.is_mut) {
      rest.insert(rest.begin(), Atom(p.name));
      kids.push_back(List("mut", std::move(rest)));
    } else {
      kids.push_back(rest.empty() ? Atom(p.name) : List(p.name, std::move(rest)));
    }
  }
  return List("params", std::move(kids));
}

std::vector<SNode> Generics(const std::vector<std::string>& g) {
  std::vector<SNode> out;
  if (g.empty()) return out;
  std::vector<SNode> names;
  for (const std::string& s : g) names.push_back(Atom(s));
  out.push_back(List("generics", std::move(names)));
  return out;
}

SNode DumpFn(const FnDecl& f) {
  std::vector<SNode> kids{Atom(f.name)};
  if (f.is_pub) kids.push_back(Atom("pub"));
  for (SNode& g : Generics(f.generics)) kids.push_back(std::move(g));
  kids.push_back(DumpParams(f.params));
  if (f.ret.kind != TypeExpr::Kind::kInfer) kids.push_back(Atom("-> " + TypeText(f.ret)));
  if (f.body) {
    kids.push_back(DumpBlock(f.body.get()));
  } else if (f.expr_body) {
    kids.push_back(List("=", {DumpExpr(f.expr_body.get())}));
  }
  return List("fn", std::move(kids));
}

SNode DumpItem(const Item& it) {
  switch (it.kind) {
    case Item::Kind::kFn: return DumpFn(it.fn);
    case Item::Kind::kStruct: {
      const StructDecl& s = it.struct_decl;
      std::vector<SNode> kids{Atom(s.name)};
      for (SNode& g : Generics(s.generics)) kids.push_back(std::move(g));
      for (const auto& [name, type] : s.fields) kids.push_back(List(name, {Atom(TypeText(type))}));
      return List("struct", std::move(kids));
    }
    case Item::Kind::kEnum: {
      const EnumDecl& e = it.enum_decl;
      std::vector<SNode> kids{Atom(e.name)};
      for (SNode& g : Generics(e.generics)) kids.push_back(std::move(g));
      for (const EnumVariant& v : e.variants) {
        std::vector<SNode> f;
        for (size_t i = 0; i < v.fields.size(); ++i)
          f.push_back(i < v.field_names.size()
                          ? List(v.field_names[i], {Atom(TypeText(v.fields[i]))})
                          : Atom(TypeText(v.fields[i])));
        kids.push_back(f.empty() ? Atom(v.name) : List(v.name, std::move(f)));
      }
      return List("enum", std::move(kids));
    }
    case Item::Kind::kImpl: {
      const ImplDecl& d = it.impl_decl;
      std::vector<SNode> kids;
      if (!d.trait_name.empty()) {
        kids.push_back(Atom(d.trait_name));
        kids.push_back(Atom("for"));
      }
      kids.push_back(Atom(TypeText(d.self_type)));
      size_t kids_keep = kids.size();
      for (const FnDecl& f : d.fns) kids.push_back(DumpFn(f));
      return List("impl", std::move(kids), true, kids_keep);
    }
    case Item::Kind::kTrait: {
      std::vector<SNode> kids{Atom(it.trait_decl->name)};
      for (const FnDecl& f : it.trait_decl->fns) kids.push_back(DumpFn(f));
      return List("trait", std::move(kids), true, 1);
    }
    case Item::Kind::kConst: {
      const ConstDecl& c = it.const_decl;
      std::vector<SNode> kids{Atom(c.name)};
      if (c.type.kind != TypeExpr::Kind::kInfer)
        kids.push_back(Atom(absl::StrCat(":", TypeText(c.type))));
      kids.push_back(DumpExpr(c.value.get()));
      return List("const", std::move(kids));
    }
    case Item::Kind::kTypeAlias:
      return List("type", {Atom(it.alias_decl->name), Atom(TypeText(it.alias_decl->type))});
    case Item::Kind::kProtocol: {
      std::vector<SNode> kids{Atom(it.protocol_decl->name)};
      for (const ProtocolMsg& m : it.protocol_decl->msgs) {
        std::vector<SNode> mk{DumpParams(m.params)};
        if (m.reply.kind != TypeExpr::Kind::kInfer) mk.push_back(Atom("-> " + TypeText(m.reply)));
        kids.push_back(List(m.name, std::move(mk)));
      }
      return List("protocol", std::move(kids), true, 1);
    }
    case Item::Kind::kAgent: {
      const AgentDecl& a = it.agent_decl;
      std::vector<SNode> kids{Atom(a.name)};
      if (!a.ctor_params.empty()) {
        SNode c = DumpParams(a.ctor_params);
        c.head = "ctor";
        kids.push_back(std::move(c));
      }
      if (!a.protocols.empty()) {
        std::vector<SNode> ps;
        for (const std::string& p : a.protocols) ps.push_back(Atom(p));
        kids.push_back(List("protocols", std::move(ps)));
      }
      for (const AgentState& s : a.state) {
        std::vector<SNode> sk{Atom(s.name)};
        if (s.type.kind != TypeExpr::Kind::kInfer) sk.push_back(Atom(":" + TypeText(s.type)));
        if (s.init) sk.push_back(DumpExpr(s.init.get()));
        kids.push_back(List("state", std::move(sk)));
      }
      for (const Handler& h : a.handlers)
        kids.push_back(List("on", {Atom(h.msg), DumpParams(h.params), DumpExpr(h.body.get())}));
      for (const FnDecl& f : a.fns) kids.push_back(DumpFn(f));
      return List("agent", std::move(kids), true, 1);
    }
    case Item::Kind::kSupervisor: {
      const SupervisorDecl& s = it.supervisor_decl;
      std::vector<SNode> kids{Atom(s.name), Atom(s.strategy)};
      for (const SupervisorChild& c : s.children)
        kids.push_back(List("child", {Atom(c.name), DumpExpr(c.spawn.get())}));
      for (const OnFail& f : s.on_fail) {
        std::vector<SNode> fk{Atom(f.child)};
        if (f.restart) fk.push_back(Atom("restart"));
        if (f.up_to >= 0) fk.push_back(List("up_to", {Atom(std::to_string(f.up_to))}));
        if (f.within) fk.push_back(List("in", {DumpExpr(f.within.get())}));
        if (f.backoff_lo || f.backoff_hi)
          fk.push_back(
              List("backoff", {DumpExpr(f.backoff_lo.get()), DumpExpr(f.backoff_hi.get())}));
        if (f.escalate) fk.push_back(Atom("escalate"));
        kids.push_back(List("on_fail", std::move(fk)));
      }
      return List("supervisor", std::move(kids), true, 2);
    }
    case Item::Kind::kSandbox:
      if (it.sandbox_decl->body)
        return List("sandbox", {Atom(it.sandbox_decl->name), DumpEntries(it.sandbox_decl->entries),
                                DumpBlock(it.sandbox_decl->body.get())});
      return List("sandbox", {Atom(it.sandbox_decl->name), DumpEntries(it.sandbox_decl->entries)});
    case Item::Kind::kUse: {
      std::string path;
      for (size_t i = 0; i < it.use_decl->path.size(); ++i)
        path += (i ? "." : "") + it.use_decl->path[i];
      std::vector<SNode> kids{Atom(path)};
      if (!it.use_decl->alias.empty()) {
        kids.push_back(Atom("as"));
        kids.push_back(Atom(it.use_decl->alias));
      }
      return List("use", std::move(kids));
    }
    case Item::Kind::kMacro: {
      std::vector<SNode> ps;
      for (const std::string& p : it.macro_decl->params) ps.push_back(Atom(p));
      return List("macro", {Atom(it.macro_decl->name), List("params", std::move(ps)),
                            Atom(Quote(it.macro_decl->body_text, '"'))});
    }
  }
  return Atom("?");
}

}  // namespace

std::string DumpAst(const Module& m) {
  std::vector<SNode> items{Atom(Quote(m.file, '"'))};
  for (const Item& it : m.items) items.push_back(DumpItem(it));
  SNode root = List("module", std::move(items), true, 1);
  std::string out;
  Print(root, 0, out);
  out += "\n";
  return out;
}

}  // namespace mty::frontend
