// A shared library opened at run time (dlopen) and its symbols: how the OpenCL, Level Zero and
// CUDA runners reach their drivers without linking them, so that programs built on them start,
// and say what is missing, on machines without a driver.
//
//   layout::kernels::DynamicLibrary cl("the OpenCL ICD loader libOpenCL.so.1", {"libOpenCL.so.1"});
//   if (!cl.loaded()) report(cl.loadError());   // "cannot load the OpenCL ICD loader
//                                               //  libOpenCL.so.1 (<dlerror's text>)"
//   decltype(&::clFinish) finish = nullptr;
//   cl.resolve(finish, "clFinish");             // nullptr when missing, and remembered:
//   if (!cl.missingSymbol().empty())
//     report(cl.missingSymbolError());          // "the OpenCL ICD loader libOpenCL.so.1 lacks clFinish"
//
// The library is closed when the object is destroyed (or by close()); a loader that must stay
// open for the whole process is simply never destroyed.
#pragma once

#include <string>
#include <vector>

namespace layout::kernels {

class DynamicLibrary {
public:
  // Opens the first of `paths` that loads (each as dlopen takes it: a file name searched on the
  // loader's path, or a path), with RTLD_NOW | RTLD_LOCAL. `name` is the library as messages
  // call it ("the CUDA driver", "NVRTC").
  DynamicLibrary(std::string name, std::vector<std::string> paths);
  ~DynamicLibrary();
  DynamicLibrary(DynamicLibrary&& other) noexcept;
  DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;

  bool loaded() const { return handle_ != nullptr; }
  void* handle() const { return handle_; }
  const std::string& name() const { return name_; }
  // The path that opened ("" when none did).
  const std::string& path() const { return path_; }
  // Why each path failed to open, in order, "; "-separated: dlerror()'s text (the path when it
  // has none). "" when one opened.
  const std::string& attempts() const { return attempts_; }
  // "cannot load <name> (<attempts>)".
  std::string loadError() const;

  // The address of `symbol`; nullptr when it is missing or the library is not loaded.
  void* symbol(const char* symbol) const;
  // Sets `fn` to the symbol `symbol` as fn's (function pointer) type; a missing symbol leaves
  // nullptr and is remembered (missingSymbol). Returns whether it was found.
  template <typename Fn> bool resolve(Fn& fn, const char* symbol) {
    fn = reinterpret_cast<Fn>(this->symbol(symbol));
    if (!fn) missing_ = symbol;
    return fn != nullptr;
  }
  // The last symbol resolve() did not find ("" when every one was found).
  const std::string& missingSymbol() const { return missing_; }
  // "<name> lacks <missingSymbol>".
  std::string missingSymbolError() const;

  // Closes the library (dlclose); loaded() is false afterwards.
  void close();

private:
  std::string name_, path_, attempts_, missing_;
  void* handle_ = nullptr;
};

} // namespace layout::kernels
