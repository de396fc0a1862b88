// A file-system grant as the layers above the interpreter hold it: resolved
// to directory handles when it is made, so that a narrower grant made from
// it can never name what it could not open (runtime.md §3). The interpreter
// and the tracker chain only carry grants; stdlib::FsCap implements them
// and performs the file operations through them.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mty/vocab/policy.h"

namespace mty::interp {

class FsGrant {
 public:
  virtual ~FsGrant() = default;

  // Whether an operation on `path` would be located inside the grant (the
  // operation itself still opens beneath the grant's handles and may be
  // refused there, e.g. by a symlink that leaves it).
  virtual bool Admits(std::string_view path) const = 0;
  // A grant of `paths`, each resolved now beneath this grant's handles
  // (symlinks followed only while they stay beneath it): never wider than
  // this one. A path this grant cannot open grants nothing.
  virtual std::shared_ptr<const FsGrant> NarrowGrant(
      const std::vector<std::string>& paths) const = 0;
  // `unrestricted`, `none`, or the resolved roots joined by ", ".
  virtual std::string ToString() const = 0;
};

// Where grants come from: the host resolves a run's own lists when the run
// starts (a host's root that is a symlink is resolved then, once), and
// supplies the grant of a family no tracker lists (the process-wide default
// caps, read at each call).
class FsGrantSource {
 public:
  virtual ~FsGrantSource() = default;
  virtual std::shared_ptr<const FsGrant> Resolve(ir::GrantId id,
                                                 const std::vector<std::string>& roots) const = 0;
  virtual std::shared_ptr<const FsGrant> Default(ir::GrantId id) const = 0;
};

}  // namespace mty::interp
