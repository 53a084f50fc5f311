// Offline OpenCL C -> SPIR-V: clang (-target spir64, OpenCL C 2.0) to LLVM bitcode, llvm-spirv to
// SPIR-V, spirv-val to check the module.
//
// llvm-spirv is capped at SPIR-V 1.2 (--spirv-max-version=1.2): left at its default it emits
// SPIR-V 1.4 as soon as -O2 marks arithmetic nsw (the NoSignedWrap decoration), which
// spirv-val's OpenCL 2.2 environment (SPIR-V 1.2) rejects.
#include "layout/codegen/opencl_emitter.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/wait.h>
#include <unistd.h>

namespace layout::codegen {
namespace {

namespace fs = std::filesystem;

// Single-quoted for /bin/sh.
std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

struct CommandResult {
  int exitCode = -1;  // -1: did not exit normally (signal) or could not start
  std::string output; // stdout and stderr together
};

CommandResult runCommand(const std::string& command) {
  CommandResult r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) {
    r.output = "popen failed: " + std::string(std::strerror(errno));
    return r;
  }
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
  const int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
  return r;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

Error toolFailed(const std::string& tool, const std::string& what, const CommandResult& r) {
  return makeError(tool + " failed (" +
                   (r.exitCode >= 0 ? "exit code " + std::to_string(r.exitCode)
                                    : std::string("killed or not started")) +
                   ") " + what + ":\n" + trimmed(r.output));
}

Error toolMissing(const std::string& tool) {
  return makeError(tool + " not found (not an executable path, nor on PATH): install it or set " +
                   "SpirvToolchain to its location");
}

} // namespace

bool spirvToolAvailable(const std::string& program) {
  if (program.empty()) return false;
  auto executable = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
  };
  if (program.find('/') != std::string::npos) return executable(program);
  const char* path = std::getenv("PATH");
  if (!path) return false;
  const std::string dirs = path;
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = dirs.substr(start, end - start);
    if (executable(fs::path(dir.empty() ? "." : dir) / program)) return true;
    start = end + 1;
  }
  return false;
}

std::optional<std::string> missingSpirvTool(const SpirvToolchain& tools) {
  for (const std::string* t : {&tools.clang, &tools.llvmSpirv, &tools.spirvVal})
    if (!spirvToolAvailable(*t)) return *t;
  return std::nullopt;
}

Expected<std::vector<uint8_t>> compileToSpirv(const std::string& source, const std::string& name,
                                              const std::string& dir, const SpirvToolchain& tools) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
    return makeError("kernel name '" + name + "': must be a non-empty file name without '/'");
  for (const std::string* t : {&tools.clang, &tools.llvmSpirv})
    if (!spirvToolAvailable(*t)) return toolMissing(*t);

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return makeError("directory '" + dir + "': " + ec.message());
  const fs::path base = fs::path(dir) / name;
  const std::string cl = base.string() + ".cl", bc = base.string() + ".bc",
                    spv = base.string() + ".spv";
  {
    std::ofstream f(cl, std::ios::binary | std::ios::trunc);
    f << source;
    if (!f) return makeError("cannot write '" + cl + "'");
  }
  fs::remove(spv, ec); // never return a stale module

  const auto compiled = runCommand(shellQuote(tools.clang) +
                                   " -cl-std=CL2.0 -target spir64 -emit-llvm -c -O2"
                                   " -Xclang -finclude-default-header " +
                                   shellQuote(cl) + " -o " + shellQuote(bc));
  if (compiled.exitCode != 0) return toolFailed(tools.clang, "compiling " + cl, compiled);
  const auto translated = runCommand(shellQuote(tools.llvmSpirv) + " --spirv-max-version=1.2 " +
                                     shellQuote(bc) + " -o " + shellQuote(spv));
  if (translated.exitCode != 0) return toolFailed(tools.llvmSpirv, "translating " + bc, translated);

  std::ifstream in(spv, std::ios::binary);
  if (!in) return makeError(tools.llvmSpirv + " wrote no module '" + spv + "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (bytes.size() < 20 || bytes.size() % 4 != 0)
    return makeError("'" + spv + "': " + std::to_string(bytes.size()) +
                     " bytes is not a SPIR-V module");
  return bytes;
}

Expected<void> validateSpirv(const std::string& spvPath, const SpirvToolchain& tools) {
  if (!spirvToolAvailable(tools.spirvVal)) return toolMissing(tools.spirvVal);
  std::error_code ec;
  if (!fs::is_regular_file(spvPath, ec)) return makeError("'" + spvPath + "': no such module");
  const auto r =
      runCommand(shellQuote(tools.spirvVal) + " --target-env opencl2.2 " + shellQuote(spvPath));
  if (r.exitCode != 0) return toolFailed(tools.spirvVal, "validating " + spvPath, r);
  return {};
}

} // namespace layout::codegen
