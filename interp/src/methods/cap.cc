// The methods of capability values: fs.ro(p), fs.path(p), net.host(h)
// narrow a capability, never wider than the receiver (an impossible
// constraint when the request is outside it).
#include "methods.h"
#include "mty/vocab/policy.h"

namespace mty::interp {

void ResolveFsCap(const Meter& scope, const CapObj* from, std::string_view path, CapObj* out) {
  const Meter* root = &scope;
  while (root->parent()) root = root->parent();
  const std::vector<std::string> paths{std::string(path)};
  auto beneath = [&](ir::GrantId g, const std::shared_ptr<const FsGrant>& own) {
    std::shared_ptr<const FsGrant> base =
        from && !from->constraint.empty() ? own : root->FsGrantOf(g);
    return base ? base->NarrowGrant(paths) : nullptr;
  };
  if (ir::CapValueServes(out->family, ir::GrantId::kFsRead))
    out->fs_read = beneath(ir::GrantId::kFsRead, from ? from->fs_read : nullptr);
  if (ir::CapValueServes(out->family, ir::GrantId::kFsWrite))
    out->fs_write = beneath(ir::GrantId::kFsWrite, from ? from->fs_write : nullptr);
}

namespace methods {

// Every Cap row has its CAP_METHOD row (the type it narrows).
static_assert([] {
  for (const ir::MethodInfo& r : ir::kMethods) {
    bool found = r.recv != ir::Recv::kCap;
    for (const ir::CapMethodInfo& m : ir::kCapMethods) found |= m.name == r.name;
    if (!found) return false;
  }
  return true;
}());

// ro(p), path(p), host(h): the CAP_METHOD row says which capability type
// the method narrows.
CallStatus CapNarrow(MethodCall& c) {
  auto* cap = static_cast<CapObj*>(c.recv.h());
  const ir::MethodName id = c.id();
  const ir::CapMethodInfo* m = ir::FindCapMethod(id);
  if (!c.args[0].Is(Tag::kStr))
    return c.Trap(TrapCode::kType, absl::StrCat(std::string(c.name()), " needs a Str"));
  const std::string& want = static_cast<StrObj*>(c.args[0].h())->s;
  auto* n = new CapObj();
  Value v = Value::Heap(n);
  constexpr const char* kNothing = "\x01none";  // matches no path and no host
  if (!ir::CapFamilyFits(*m, cap->family))
    return c.Trap(TrapCode::kType,
                  absl::StrCat(std::string(c.name()), "() narrows a capability of type ", m->type,
                               ", not ", cap->family));
  if (id == N::kHost) {
    n->family = m->family;
    n->constraint = cap->constraint.empty() || cap->constraint == want ? want : kNothing;
  } else {
    n->family = id == N::kRo ? ir::Cap(ir::CapId::kFsRead).family : cap->family;
    std::string p = ir::NormalizePath(want);
    n->constraint = cap->constraint.empty() || ir::PathWithin(ir::NormalizePath(cap->constraint), p)
                        ? p
                        : kNothing;
    // Resolving walks the path: its work is charged first.
    if (!c.Work(want.size())) return Fail();
    ResolveFsCap(*c.cx.scope, cap, want, n);
  }
  if (!c.Charge(cost::kSmall)) return Fail();
  return c.Return(std::move(v));
}

}  // namespace methods
}  // namespace mty::interp
