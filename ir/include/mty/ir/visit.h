// Walks over the parts of MtyIR statements, rvalues and terminators: their
// successor blocks, operands, places and locals. The one place that knows
// which fields each kind uses; the verifier, the compiler and the front end
// call these instead of switching on the kind themselves.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "mty/ir/ir.h"
#include "mty/ir/kinds.h"

namespace mty::ir {

// T is Node or const Node. Every walk takes both and hands out references
// of T's constness, so a mutable walk can rewrite what it visits.
template <typename T, typename Node>
concept NodeOf = std::same_as<std::remove_const_t<T>, Node>;

// How a statement, rvalue or terminator uses a place.
enum class PlaceAccess : uint8_t {
  kRead,     // a copy/move operand, a borrow (&p), a method call's receiver
  kWrite,    // the destination of an assignment or an effect
  kStorage,  // drop, storage_live, storage_dead: the local's lifetime
};

// Calls f(target) for every successor block index of t (a uint32_t&), in
// text order: `then` before `else`, a switch's cases before its default.
template <NodeOf<Terminator> T, typename F>
void ForEachTarget(T& t, F&& f) {
  using K = Terminator::Kind;
  switch (t.kind) {
    case K::kGoto:
    case K::kSuspend: f(t.target); return;
    case K::kIf:
      f(t.target);
      f(t.target2);
      return;
    case K::kSwitchInt:
    case K::kSwitchVariant:
      for (auto& c : t.cases) f(c.target);
      f(t.target);
      return;
    case K::kReturn:
    case K::kPanic:
    case K::kUnreachable:
    case K::kTryReturnErr: return;
  }
}

// Whether a terminator of kind k reads Terminator::op.
constexpr bool UsesOperand(Terminator::Kind k) {
  using K = Terminator::Kind;
  switch (k) {
    case K::kIf:
    case K::kSwitchInt:
    case K::kSwitchVariant:
    case K::kPanic:
    case K::kTryReturnErr: return true;
    case K::kGoto:
    case K::kReturn:
    case K::kUnreachable:
    case K::kSuspend: return false;
  }
  return false;
}

// Calls f(operand) for every Operand, in text order: all of Rvalue::ops (call
// arguments, a callee or a send/ask target first, map keys and values in
// pairs) and then an ask's deadline.
template <NodeOf<Rvalue> R, typename F>
void ForEachOperand(R& r, F&& f) {
  for (auto& o : r.ops) f(o);
  if (r.deadline) f(*r.deadline);
}

// An assignment's rvalue's operands, an effect's arguments; no others.
template <NodeOf<Statement> S, typename F>
void ForEachOperand(S& s, F&& f) {
  if (s.kind == Statement::Kind::kAssign) {
    ForEachOperand(s.rvalue, f);
  } else if (s.kind == Statement::Kind::kEffectInvoke) {
    for (auto& o : s.args) f(o);
  }
}

template <NodeOf<Terminator> T, typename F>
void ForEachOperand(T& t, F&& f) {
  if (UsesOperand(t.kind)) f(t.op);
}

// Calls f(place, access) for every Place read or written, in text order: a
// kRef's or kMethodCall's Rvalue::place, then the places of its copy/move
// operands (constants have none).
template <NodeOf<Rvalue> R, typename F>
void ForEachPlace(R& r, F&& f) {
  if (Info(r.kind).uses_place) f(r.place, PlaceAccess::kRead);
  ForEachOperand(r, [&](auto& o) {
    if (o.kind != Operand::Kind::kConst) f(o.place, PlaceAccess::kRead);
  });
}

// A statement's own place (an assignment's or effect's destination, a drop,
// storage_live or storage_dead), then its operands' places.
template <NodeOf<Statement> S, typename F>
void ForEachPlace(S& s, F&& f) {
  if (s.kind == Statement::Kind::kAssign) {
    f(s.place, PlaceAccess::kWrite);
    ForEachPlace(s.rvalue, f);
    return;
  }
  if (s.kind == Statement::Kind::kEffectInvoke && s.has_dest) f(s.place, PlaceAccess::kWrite);
  if (Info(s.kind).storage) f(s.place, PlaceAccess::kStorage);
  ForEachOperand(s, [&](auto& o) {
    if (o.kind != Operand::Kind::kConst) f(o.place, PlaceAccess::kRead);
  });
}

template <NodeOf<Terminator> T, typename F>
void ForEachPlace(T& t, F&& f) {
  ForEachOperand(t, [&](auto& o) {
    if (o.kind != Operand::Kind::kConst) f(o.place, PlaceAccess::kRead);
  });
}

// Calls f(local) (a uint32_t&) for every local a place names: its base, then
// the local of each kIndex projection (`_1[_2]`: 1, then 2).
template <NodeOf<Place> P, typename F>
void ForEachLocal(P& p, F&& f) {
  f(p.local);
  for (auto& pr : p.proj)
    if (pr.kind == Projection::Kind::kIndex) f(pr.index);
}

// Every local named by the places of a statement, rvalue or terminator
// (ForEachPlace), index projections included, in text order.
template <typename N, typename F>
requires NodeOf<N, Statement> || NodeOf<N, Rvalue> || NodeOf<N, Terminator>
void ForEachLocal(N& n, F&& f) {
  ForEachPlace(n, [&](auto& p, PlaceAccess) { ForEachLocal(p, f); });
}

}  // namespace mty::ir
