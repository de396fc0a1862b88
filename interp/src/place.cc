// Places and references: resolving a place's projections (auto-deref, copy
// on write along a written path, map keys inserted by a write), making and
// following references, with the traps for each misuse.
#include "exec.h"

namespace mty::interp {

namespace {

// Makes `v` unique for a write, charging the copy when it is shared (copy on
// write is work: cost::Copy); nullptr (t.work_short_) when the steps left
// cannot pay it.
[[gnu::noinline]] HeapObj* CopyShared(Task& t, Value& v) {
  if (!Exec::ChargeWork(t, cost::Copy(*v.h()))) return nullptr;
  return MakeUnique(v);
}
inline HeapObj* CopyForWrite(Task& t, Value& v) {
  HeapObj* h = v.h();
  return h->rc == 1 ? h : CopyShared(t, v);
}

// A value of a tuple struct (`struct Pair(I64, Str)`): `.0` reads its fields.
bool IsTupleStruct(const Module& m, const Value& v) {
  if (!v.Is(Tag::kAdt)) return false;
  const AdtInfo& info = m.adts[static_cast<const AdtObj*>(v.h())->adt];
  return !info.is_enum && !info.field_names.empty() && !info.field_names[0].empty() &&
         info.field_names[0][0].empty();
}

}  // namespace

Value* Exec::Step(Task& t, Value* cur, RefStep::Kind kind, uint32_t index, uint32_t variant,
                  const Value* key, bool write, Chain* chain) {
  // Projections look through references, as Rust's auto-deref does.
  for (int hops = 0; IsRef(*cur); ++hops) {
    if (hops > kMaxRefHops) {
      Trap(t, TrapCode::kType, "reference cycle: a reference that leads back to itself");
      return nullptr;
    }
    cur = RefTarget(t, *cur, write, chain);
    if (!cur) return nullptr;
  }
  const Module& m = *t.module_;
  switch (kind) {
    case RefStep::Kind::kField:
    case RefStep::Kind::kVariantField: {
      bool tuple_ok = kind == RefStep::Kind::kField && cur->Is(Tag::kTuple) && variant == 1;
      if (tuple_ok) {
        auto* a = static_cast<ArrayObj*>(write ? CopyForWrite(t, *cur) : cur->h());
        if (!a) return nullptr;
        if (index >= a->items.size()) {
          Trap(t, TrapCode::kIndex,
               absl::StrCat("tuple index ", index, " out of range for a tuple of ",
                            a->items.size()));
          return nullptr;
        }
        if (write) chain->objs.push_back(a);
        return &a->items[index];
      }
      if (!cur->Is(Tag::kAdt)) {
        Trap(t, cur->Is(Tag::kDead) ? TrapCode::kUseOfDropped : TrapCode::kType,
             cur->Is(Tag::kDead) ? "use of a moved or dropped value"
                                 : absl::StrCat("field access on ", Kind(t, *cur)));
        return nullptr;
      }
      auto* a = static_cast<AdtObj*>(write ? CopyForWrite(t, *cur) : cur->h());
      if (!a) return nullptr;
      if (kind == RefStep::Kind::kVariantField && a->variant != variant) {
        const AdtInfo& info = m.adts[a->adt];
        Trap(t, TrapCode::kType,
             absl::StrCat("expected variant ",
                          variant < info.variant_names.size() ? info.variant_names[variant]
                                                              : absl::StrCat(variant),
                          " of ", info.name, ", found ", info.variant_names[a->variant]));
        return nullptr;
      }
      if (index >= a->fields.size()) {
        Trap(t, TrapCode::kType, absl::StrCat(m.adts[a->adt].name, " has no field ", index));
        return nullptr;
      }
      if (write) chain->objs.push_back(a);
      return &a->fields[index];
    }
    case RefStep::Kind::kIndex: {
      if (cur->Is(Tag::kBytes)) {
        if (!key->Is(Tag::kInt)) {
          Trap(t, TrapCode::kType, absl::StrCat("array index must be Int, found ", Kind(t, *key)));
          return nullptr;
        }
        const std::string& b = static_cast<BytesObj*>(cur->h())->b;
        const int64_t i = key->i();
        if (!write) {
          if (i < 0 || static_cast<uint64_t>(i) >= b.size()) {
            Trap(t, TrapCode::kIndex,
                 absl::StrCat("index ", i, " out of range for an array of length ", b.size()));
            return nullptr;
          }
          // Read where it is: the caller copies the element at once.
          t.byte_scratch_.SetInt(static_cast<unsigned char>(b[static_cast<size_t>(i)]));
          return &t.byte_scratch_;
        }
        // A write widens the bytes for good (value.h BytesObj): the work
        // and the difference in memory are charged (the loop reloads the
        // counter after a place), and so is each container above it.
        const uint64_t wide = WidenCharge(*static_cast<BytesObj*>(cur->h()));
        if (!ChargeWork(t, b.size())) return nullptr;
        t.mem_used_ += wide;
        if (t.mem_used_ > t.mem_limit_) return nullptr;
        Widen(*cur);
        AddEst(*chain, static_cast<int64_t>(wide));
      }
      if (cur->Is(Tag::kArray)) {
        if (!key->Is(Tag::kInt)) {
          Trap(t, TrapCode::kType, absl::StrCat("array index must be Int, found ", Kind(t, *key)));
          return nullptr;
        }
        auto* a = static_cast<ArrayObj*>(write ? CopyForWrite(t, *cur) : cur->h());
        if (!a) return nullptr;
        int64_t i = key->i();
        if (i < 0 || static_cast<uint64_t>(i) >= a->items.size()) {
          Trap(t, TrapCode::kIndex,
               absl::StrCat("index ", i, " out of range for an array of length ", a->items.size()));
          return nullptr;
        }
        if (write) chain->objs.push_back(a);
        return &a->items[i];
      }
      if (cur->Is(Tag::kMap)) {
        // The key is hashed and compared; a write may insert it (growth).
        if (!ChargeWork(t, write ? cost::Insert(*key) : cost::Lookup(*key))) return nullptr;
        auto* mo = static_cast<MapObj*>(write ? CopyForWrite(t, *cur) : cur->h());
        if (!mo) return nullptr;
        int j = mo->Find(*key);
        if (j < 0) {
          if (!write) {
            Trap(t, TrapCode::kIndex, absl::StrCat("key ", Debug(m, *key), " not found in map"));
            return nullptr;
          }
          if (!IsMapKey(*key)) {
            Trap(t, TrapCode::kType,
                 absl::StrCat("map keys must be Int, Str, Char, Bool or tuples, found ",
                              Kind(t, *key)));
            return nullptr;
          }
          j = static_cast<int>(mo->Append(*key, Value::Unit()));
          uint64_t k = Estimate(*key);
          mo->est += k + cost::kNarrow;  // the key and its () value
          chain->inserted = true;
          chain->key_est = k;
          for (HeapObj* h : chain->objs) h->est += k + cost::kNarrow;
        }
        if (write) chain->objs.push_back(mo);
        return &mo->entries[j].second;
      }
      Trap(t, cur->Is(Tag::kDead) ? TrapCode::kUseOfDropped : TrapCode::kType,
           cur->Is(Tag::kDead) ? "use of a moved or dropped value"
                               : absl::StrCat("cannot index ", Kind(t, *cur)));
      return nullptr;
    }
  }
  return nullptr;
}

Value* Exec::RefTarget(Task& t, const Value& ref, bool write, Chain* chain) {
  if (ref.Is(Tag::kLocalRef)) {
    // The frame at the reference's depth is the one it was made in while
    // it has the same id (ids are never reused in a process).
    const uint32_t depth = ref.ref_depth();
    if (depth >= t.frames_.size() || t.frames_[depth].id != ref.ref_frame_id()) {
      Trap(t, TrapCode::kUseOfDropped, "use of a reference to a local whose frame has returned");
      return nullptr;
    }
    if (write && !ref.ref_mut()) {
      Trap(t, TrapCode::kType, "write through a shared reference (&); use &mut");
      return nullptr;
    }
    return &t.stack_[t.frames_[depth].base + ref.ref_local()];
  }
  const auto* r = static_cast<const RefObj*>(ref.h());
  if (r->frame_id != 0) {
    bool live = false;
    for (size_t i = t.frames_.size(); i-- > 0;) {
      const Frame& fr = t.frames_[i];
      if (r->slot >= fr.base && r->slot < fr.base + fr.size) {
        live = fr.id == r->frame_id;
        break;
      }
    }
    if (!live) {
      Trap(t, TrapCode::kUseOfDropped, "use of a reference to a local whose frame has returned");
      return nullptr;
    }
  }
  if (write && !r->is_mut) {
    Trap(t, TrapCode::kType, "write through a shared reference (&); use &mut");
    return nullptr;
  }
  Value* cur = &t.stack_[r->slot];
  for (const RefStep& s : r->steps) {
    uint32_t idx = s.kind == RefStep::Kind::kIndex ? 0 : static_cast<uint32_t>(s.key.i());
    cur = Step(t, cur, s.kind, idx, s.variant, &s.key, write, chain);
    if (!cur) return nullptr;
  }
  return cur;
}

Value* Exec::ResolveWalk(Task& t, Value* R, const PlaceDesc& d, bool write, Chain* chain) {
  Value* cur = &R[d.base];
  for (const ir::Projection& pr : d.proj) {
    switch (pr.kind) {
      case ir::Projection::Kind::kDeref:
        if (!IsRef(*cur)) {
          // A shared reference is its value (`&x` is `x`): reading through
          // `*` a value reads the value (`*x` over `v.iter()`).
          if (!write) break;
          Trap(t, TrapCode::kType, absl::StrCat("deref of ", Kind(t, *cur), ", not a reference"));
          return nullptr;
        }
        cur = RefTarget(t, *cur, write, chain);
        break;
      case ir::Projection::Kind::kField:
        cur = Step(t, cur, RefStep::Kind::kField, pr.index, 0, nullptr, write, chain);
        break;
      case ir::Projection::Kind::kTupleIndex:
        if (!cur->Is(Tag::kTuple) && !IsTupleStruct(*t.module_, *cur)) {
          Trap(t, cur->Is(Tag::kDead) ? TrapCode::kUseOfDropped : TrapCode::kType,
               cur->Is(Tag::kDead) ? "use of a moved or dropped value"
                                   : absl::StrCat("tuple access on ", Kind(t, *cur)));
          return nullptr;
        }
        cur = Step(t, cur, RefStep::Kind::kField, pr.index, 1, nullptr, write, chain);
        break;
      case ir::Projection::Kind::kVariantField:
        cur =
            Step(t, cur, RefStep::Kind::kVariantField, pr.index, pr.variant, nullptr, write, chain);
        break;
      case ir::Projection::Kind::kIndex:
        cur = Step(t, cur, RefStep::Kind::kIndex, 0, 0, &R[pr.index], write, chain);
        break;
    }
    if (!cur) return nullptr;
  }
  return cur;
}

bool Exec::MakeRef(Task& t, Value* R, const PlaceDesc& d, bool is_mut, Value& out) {
  const uint32_t depth = static_cast<uint32_t>(t.frames_.size() - 1);
  const Frame& top = t.frames_.back();
  // A whole local, or what a reference to a whole local refers to: the
  // reference lives in the value (no heap object, nothing to check: the
  // local is in a live frame).
  if (d.proj.empty() && Value::LocalRefFits(depth, d.base, top.id)) {
    out = Value::LocalRef(depth, static_cast<uint32_t>(d.base), top.id, is_mut);
    return true;
  }
  if (d.proj.size() == 1 && d.proj[0].kind == ir::Projection::Kind::kDeref &&
      R[d.base].Is(Tag::kLocalRef)) {
    const Value& inner = R[d.base];
    if (!RefTarget(t, inner, false, nullptr)) return false;
    if (is_mut && !inner.ref_mut()) {
      Trap(t, TrapCode::kType, "&mut through a shared reference");
      return false;
    }
    out = Value::LocalRef(inner.ref_depth(), inner.ref_local(), inner.ref_frame_id(), is_mut);
    return true;
  }
  auto* ref = new RefObj();
  Value result = Value::Heap(ref);
  ref->is_mut = is_mut;
  ref->slot = top.base + static_cast<uint32_t>(d.base);
  ref->frame_id = top.id;
  for (const ir::Projection& pr : d.proj) {
    switch (pr.kind) {
      case ir::Projection::Kind::kDeref: {
        Value* cur = RefTarget(t, result, false, nullptr);
        if (!cur) return false;
        if (!IsRef(*cur)) {
          Trap(t, TrapCode::kType, absl::StrCat("deref of ", Kind(t, *cur), ", not a reference"));
          return false;
        }
        if (cur->Is(Tag::kLocalRef)) {
          if (is_mut && !cur->ref_mut()) {
            Trap(t, TrapCode::kType, "&mut through a shared reference");
            return false;
          }
          // Live: RefTarget(result) just followed the path to it.
          const uint32_t at = cur->ref_depth();
          if (at >= t.frames_.size() || t.frames_[at].id != cur->ref_frame_id()) {
            Trap(t, TrapCode::kUseOfDropped,
                 "use of a reference to a local whose frame has returned");
            return false;
          }
          ref->slot = t.frames_[at].base + cur->ref_local();
          ref->frame_id = cur->ref_frame_id();
          ref->steps.clear();
          break;
        }
        auto* inner = static_cast<RefObj*>(cur->h());
        if (is_mut && !inner->is_mut) {
          Trap(t, TrapCode::kType, "&mut through a shared reference");
          return false;
        }
        ref->slot = inner->slot;
        ref->frame_id = inner->frame_id;
        ref->steps = inner->steps;
        break;
      }
      case ir::Projection::Kind::kField:
        ref->steps.push_back({RefStep::Kind::kField, 0, Value::Int(pr.index)});
        break;
      case ir::Projection::Kind::kTupleIndex:
        ref->steps.push_back({RefStep::Kind::kField, 1, Value::Int(pr.index)});
        break;
      case ir::Projection::Kind::kVariantField:
        ref->steps.push_back({RefStep::Kind::kVariantField, pr.variant, Value::Int(pr.index)});
        break;
      case ir::Projection::Kind::kIndex:
        ref->steps.push_back({RefStep::Kind::kIndex, 0, R[pr.index]});
        break;
    }
  }
  // Check now that the place exists, so a bad reference fails where made.
  if (!RefTarget(t, result, false, nullptr)) return false;
  out = std::move(result);
  return true;
}

}  // namespace mty::interp
