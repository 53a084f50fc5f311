// Shared libraries opened at run time (dynamic_library.h).
#include "layout/kernels/dynamic_library.h"

#include <dlfcn.h>

#include <utility>

namespace layout::kernels {

DynamicLibrary::DynamicLibrary(std::string name, std::vector<std::string> paths)
    : name_(std::move(name)) {
  for (const std::string& path : paths) {
    handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_) {
      path_ = path;
      attempts_.clear();
      return;
    }
    const char* why = dlerror();
    attempts_ += (attempts_.empty() ? "" : "; ") + std::string(why ? why : path);
  }
}

DynamicLibrary::~DynamicLibrary() {
  close();
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : name_(std::move(other.name_)), path_(std::move(other.path_)),
      attempts_(std::move(other.attempts_)), missing_(std::move(other.missing_)),
      handle_(std::exchange(other.handle_, nullptr)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
  if (this != &other) {
    close();
    name_ = std::move(other.name_);
    path_ = std::move(other.path_);
    attempts_ = std::move(other.attempts_);
    missing_ = std::move(other.missing_);
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

std::string DynamicLibrary::loadError() const {
  return "cannot load " + name_ + " (" + attempts_ + ")";
}

void* DynamicLibrary::symbol(const char* symbol) const {
  return handle_ ? dlsym(handle_, symbol) : nullptr;
}

std::string DynamicLibrary::missingSymbolError() const {
  return name_ + " lacks " + missing_;
}

void DynamicLibrary::close() {
  if (handle_) dlclose(handle_);
  handle_ = nullptr;
}

} // namespace layout::kernels
