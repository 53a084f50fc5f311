// Changes the process-wide resource limits for one test and restores them afterwards.
//
//   ScopedResourceLimits limits;
//   limits->maxViewCells = 64;   // in force until `limits` goes out of scope
#pragma once

#include "layout/core/resource_limits.h"

namespace layout::test {

class ScopedResourceLimits {
public:
  ScopedResourceLimits() : saved_(resourceLimits()), current_(saved_) {}
  ~ScopedResourceLimits() { setResourceLimits(saved_); }
  ScopedResourceLimits(const ScopedResourceLimits&) = delete;
  ScopedResourceLimits& operator=(const ScopedResourceLimits&) = delete;

  // Edits take effect at once.
  struct Editor {
    ScopedResourceLimits& owner;
    ResourceLimits* operator->() { return &owner.current_; }
    ~Editor() { setResourceLimits(owner.current_); }
  };
  Editor operator->() { return Editor{*this}; }

private:
  ResourceLimits saved_, current_;
};

} // namespace layout::test
