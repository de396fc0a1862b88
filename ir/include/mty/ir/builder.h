// A builder API for C++ code that generates MtyIR (the front end, tests,
// embedders). It only assembles data; Verify() checks the result.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "mty/ir/ir.h"

namespace mty::ir {

class FunctionBuilder {
 public:
  FunctionBuilder(std::string name, Type ret) {
    fn_.name = std::move(name);
    fn_.locals.push_back(Local{std::move(ret), true, ""});
  }

  // Parameters must be added before any other local.
  uint32_t Param(Type t, std::string name = "") {
    fn_.locals.push_back(Local{std::move(t), false, std::move(name)});
    fn_.num_params = static_cast<uint32_t>(fn_.locals.size() - 1);
    return fn_.num_params;
  }
  uint32_t Let(Type t, bool is_mut = true, std::string name = "") {
    fn_.locals.push_back(Local{std::move(t), is_mut, std::move(name)});
    return static_cast<uint32_t>(fn_.locals.size() - 1);
  }
  uint32_t NewBlock() {
    fn_.blocks.emplace_back();
    return static_cast<uint32_t>(fn_.blocks.size() - 1);
  }
  // Statements and terminators go to the current block (SetBlock).
  void SetBlock(uint32_t b) { cur_ = b; }

  void Assign(Place p, Rvalue r) {
    Statement s;
    s.kind = Statement::Kind::kAssign;
    s.place = std::move(p);
    s.rvalue = std::move(r);
    Push(std::move(s));
  }
  void Simple(Statement::Kind k, uint32_t local = 0) {
    Statement s;
    s.kind = k;
    s.place.local = local;
    Push(std::move(s));
  }
  void Effect(std::string path, std::vector<Operand> args, const Place* dest = nullptr) {
    Statement s;
    s.kind = Statement::Kind::kEffectInvoke;
    s.path = std::move(path);
    s.args = std::move(args);
    if (dest) {
      s.has_dest = true;
      s.place = *dest;
    }
    Push(std::move(s));
  }

  void Goto(uint32_t b) {
    Terminator t;
    t.kind = Terminator::Kind::kGoto;
    t.target = b;
    Term(std::move(t));
  }
  void If(Operand c, uint32_t then_b, uint32_t else_b) {
    Terminator t;
    t.kind = Terminator::Kind::kIf;
    t.op = std::move(c);
    t.target = then_b;
    t.target2 = else_b;
    Term(std::move(t));
  }
  void Switch(bool variant, Operand v, std::vector<SwitchCase> cases, uint32_t otherwise) {
    Terminator t;
    t.kind = variant ? Terminator::Kind::kSwitchVariant : Terminator::Kind::kSwitchInt;
    t.op = std::move(v);
    t.cases = std::move(cases);
    t.target = otherwise;
    Term(std::move(t));
  }
  void Return() {
    Terminator t;
    t.kind = Terminator::Kind::kReturn;
    Term(std::move(t));
  }
  void Term(Terminator t) { fn_.blocks.at(cur_).term = std::move(t); }

  Function Build() && { return std::move(fn_); }

 private:
  void Push(Statement s) { fn_.blocks.at(cur_).stmts.push_back(std::move(s)); }
  Function fn_;
  uint32_t cur_ = 0;
};

// Rvalue shorthands.
inline Operand Copy(uint32_t l) { return Operand::Copy(Place{l, {}}); }
inline Operand Move(uint32_t l) { return Operand::Move(Place{l, {}}); }
inline Operand Int(int64_t v) { return Operand::Const(Constant::Int(v)); }
inline Operand StrOp(std::string s) { return Operand::Const(Constant::Str(std::move(s))); }

inline Rvalue Use(Operand o) {
  Rvalue r;
  r.ops.push_back(std::move(o));
  return r;
}
inline Rvalue Bin(BinOp op, Operand a, Operand b) {
  Rvalue r;
  r.kind = Rvalue::Kind::kBinOp;
  r.bin = op;
  r.ops = {std::move(a), std::move(b)};
  return r;
}
inline Rvalue Call(std::string callee, std::vector<Operand> args, bool builtin = false) {
  Rvalue r;
  r.kind = Rvalue::Kind::kCall;
  r.name = std::move(callee);
  r.is_builtin = builtin;
  r.ops = std::move(args);
  return r;
}
inline Rvalue Aggregate(Rvalue::Kind k, std::vector<Operand> ops, std::string adt = "",
                        std::string variant = "") {
  Rvalue r;
  r.kind = k;
  r.ops = std::move(ops);
  r.name = std::move(adt);
  r.name2 = std::move(variant);
  return r;
}

}  // namespace mty::ir
