// libFuzzer target for the input paths bounded by issue 15: alias files (expansion size and
// depth) used by the TritonGPU parser and the explorer's input, text views on shapes read from
// the input (any size, up to 2^40 a dim: the view limit must refuse, never allocate), batch lines
// through the bounded line reader (a line over the limit is answered from its first bytes),
// explorer scripts, hardware target descriptions (layout/target), and kernel texts scanned by the
// OpenCL prelude (kernels/opencl_prelude.h), NVIDIA GEMM configurations (codegen/cuda_gemm_plan.h)
// through the plan and the CUDA emitter, and MLIR files read op by op (layout/text/mlir_ops.h)
// and reported (layout/report, `layoutctl report`). Limits are lowered so that each run stays
// fast; any input must give a value or an error, never crash, hang or exhaust memory. Inputs
// behind fuzzgen::kMarker describe large structured ones (structured_inputs.h): deep nesting,
// 64-bit edge integers, layouts of thousands of dims, ever new dim names; they run at the default
// line limit.
//
//   cmake -B build-asan -DCMAKE_CXX_COMPILER=clang++-14 -DLAYOUT_SANITIZE=ON -DLAYOUT_BUILD_FUZZERS=ON
//   ./build-asan/tests/fuzz/input_limits_fuzzer tests/fuzz/limits_corpus -max_total_time=30
#include "layout/codegen/cuda_emitter.h"
#include "layout/codegen/cuda_gemm_plan.h"
#include "layout/core/resource_limits.h"
#include "layout/intel/block_io.h"
#include "layout/kernels/opencl_prelude.h"
#include "layout/protocol/batch.h"
#include "layout/report/kernel_report.h"
#include "layout/smem/bank_model.h"
#include "layout/target/hardware_target.h"
#include "layout/text/file_io.h"
#include "layout/text/internal/json_text.h"
#include "layout/text/mlir_attribute.h"
#include "layout/text/mlir_ops.h"
#include "layout/triton/encoding.h"
#include "layout/triton/layout_views.h"
#include "layout/views/layout_input.h"
#include "layout/views/ui_script.h"
#include "structured_inputs.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

namespace {

// Shapes from the input's first line: "AxBxC" with any sizes (huge ones included).
std::vector<int64_t> shapeFrom(const std::string& line) {
  std::vector<int64_t> shape;
  std::string part;
  std::istringstream in(line);
  while (std::getline(in, part, 'x') && shape.size() < 4) {
    if (part.empty() || part.size() > 13 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      return {16, 16};
    int64_t v = std::stoll(part);
    if (v < 1 || v > (int64_t{1} << 40)) return {16, 16};
    shape.push_back(v);
  }
  return shape.empty() ? std::vector<int64_t>{16, 16} : shape;
}

// A structured input (structured_inputs.h) at the default line limit (the lowered one would
// refuse every generated line by its length alone): the batch answers each line once, and each
// line read as a hardware target and as an NVIDIA GEMM configuration gives a value or an error.
void checkStructuredInput(const std::string& text) {
  static const layout::BatchProcessor batch;
  const layout::ResourceLimits lowered = layout::resourceLimits();
  layout::ResourceLimits wide = lowered;
  wide.maxLineBytes = layout::ResourceLimits{}.maxLineBytes;
  layout::setResourceLimits(wide);
  std::istringstream requests(text);
  std::ostringstream out;
  if (!batch.run(requests, out)) std::abort();
  size_t lines = 0, responses = 0;
  for (char c : text) lines += c == '\n';
  for (char c : out.str()) responses += c == '\n';
  if (responses != lines) std::abort();
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (auto j = layout::detail::parseJsonText(line)) {
      (void)layout::target::hardwareTargetFromJson(*j);
      (void)layout::codegen::cudaGemmConfigFromJson(*j, layout::codegen::cudaGemmDefaults("sm90"));
    }
  layout::setResourceLimits(lowered);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool limited = [] {
    layout::ResourceLimits limits;
    limits.maxViewCells = 1 << 12;
    limits.maxAttrValues = 1 << 12;
    limits.maxLineBytes = 256;
    limits.maxPlanElements = 1 << 16;
    layout::setResourceLimits(limits);
    return true;
  }();
  (void)limited;
  static const layout::BatchProcessor batch;
  if (auto generated = fuzzgen::expand(data, size)) {
    checkStructuredInput(*generated);
    return 0;
  }
  const std::string text(reinterpret_cast<const char*>(data), size);
  const size_t nl = text.find('\n');
  const std::vector<int64_t> shape = shapeFrom(text.substr(0, nl));
  const std::string rest = nl == std::string::npos ? text : text.substr(nl + 1);

  // Alias files, then every alias as an encoding (and through the explorer's input) on the shape,
  // with both text views.
  if (auto defs = layout::parseAliasFile(rest)) {
    layout::AttrAliases aliases;
    for (const auto& d : *defs) aliases[d.name] = d.value;
    for (const auto& d : *defs) {
      (void)layout::views::parseLayoutInput("#" + d.name, shape, aliases);
      auto enc = layout::triton::parseEncoding("#" + d.name, aliases);
      if (!enc) continue;
      auto ll = layout::triton::toLinearLayout(*enc, shape);
      if (!ll) continue;
      (void)layout::triton::layoutStr(*enc, *ll, shape, false);
      (void)layout::triton::layoutStr(*enc, *ll, shape, true);
    }
  }
  if (auto enc = layout::triton::parseEncoding(rest))
    if (auto ll = layout::triton::toLinearLayout(*enc, shape)) {
      (void)layout::triton::layoutStr(*enc, *ll, shape, false);
      (void)layout::triton::layoutStr(*enc, *ll, shape, true);
    }

  // The bounded line reader never stores more than the limit and loses no line.
  {
    std::istringstream in(text);
    std::string line;
    size_t lines = 0;
    for (;;) {
      layout::LineRead r = layout::readBoundedLine(in, line, 64);
      if (r == layout::LineRead::End) break;
      if (line.size() > 64) std::abort();
      if (r == layout::LineRead::TooLong) layout::skipRestOfLine(in);
      ++lines;
    }
    size_t expected = 0;
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n' || i + 1 == text.size()) ++expected;
    if (lines != expected) std::abort();
    // The batch loop answers each of them, over-long ones included.
    std::istringstream requests(text);
    std::ostringstream out;
    if (!batch.run(requests, out)) std::abort();
    size_t responses = 0;
    for (char c : out.str()) responses += c == '\n';
    if (responses != expected) std::abort();
  }

  // A user's hardware target description, and the sections layout/intel and layout/smem read
  // from it; a description that reads must write out and read back the same.
  {
    if (auto j = layout::detail::parseJsonText(rest))
      if (auto t = layout::target::hardwareTargetFromJson(*j)) {
        (void)layout::intel::blockIoTarget(*t);
        (void)layout::smem::bankTarget(*t);
        const auto written = layout::target::hardwareTargetToJson(*t);
        auto back = layout::target::hardwareTargetFromJson(nlohmann::json::parse(written.dump()));
        if (!back || layout::target::hardwareTargetToJson(*back) != written) std::abort();
      }
  }

  // An NVIDIA GEMM configuration (gemm --target cuda --config): a value or an error naming the
  // field; a valid one plans (swizzles, bank proofs) and emits, and its JSON reads back the same.
  {
    if (auto j = layout::detail::parseJsonText(rest))
      for (const char* arch : {"sm80", "sm90"})
        if (auto c = layout::codegen::cudaGemmConfigFromJson(
                *j, layout::codegen::cudaGemmDefaults(arch))) {
          const auto written = layout::codegen::cudaGemmConfigToJson(*c);
          auto back =
              layout::codegen::cudaGemmConfigFromJson(nlohmann::json::parse(written.dump()));
          if (!back || layout::codegen::cudaGemmConfigToJson(*back) != written) std::abort();
          if (auto plan = layout::codegen::buildCudaGemmPlan(*c))
            if (layout::codegen::emitCuda(*plan).find(plan->name) == std::string::npos)
              std::abort();
        }
  }

  // The OpenCL prelude scans any kernel text for Intel built-in names (layout/kernels): a text or
  // an error, never a crash; every name it accepts has a definition in its output.
  if (auto prelude = layout::kernels::openClIntelPrelude(rest))
    if (prelude->find("layout_sub_group_id") == std::string::npos) std::abort();

  (void)layout::views::parseScript(rest);

  // MLIR dumps read op by op (layout/text/mlir_ops.h): a module, or an error at a line and column
  // (only the whole text's size has none). Ops come after their parent, one level deeper.
  {
    auto m = layout::readMlirOps(rest);
    if (!m && !m.error().location && rest.size() <= layout::resourceLimits().maxInputBytes)
      std::abort();
    if (m) {
      size_t touched = m->aliases.size() + m->moduleAttributes.size() + m->notes.size();
      for (size_t i = 0; i < m->ops.size(); ++i) {
        const layout::MlirOp& op = m->ops[i];
        if (op.parent >= int(i) ||
            (op.parent < 0 ? op.depth != 0 : op.depth != m->ops[size_t(op.parent)].depth + 1))
          std::abort();
        touched += op.name.size() + op.results.size() + op.operands.size() + op.attributes.size() +
                   op.loc.file.size() + size_t(op.loc.line) + size_t(op.regions);
        for (const auto* types : {&op.operandTypes, &op.resultTypes})
          for (const layout::MlirType& t : *types)
            touched += t.shape.size() + t.extras.size() + t.encodingText.size() +
                       size_t(t.elementBits) + (t.encoding ? size_t(t.encoding->kind) : 0);
      }
      (void)touched;
      // The report analyses whatever the reader kept (unknown encodings and shapes past the
      // limits are notes on their ops): an unknown module target is its only error, and its JSON
      // and SARIF always print.
      if (auto k = layout::report::analyzeKernel(*m, {})) {
        (void)layout::report::reportToJson(*k).dump();
        (void)layout::report::reportToSarif(*k).dump();
        (void)layout::report::reportText(*k);
      }
    }
  }
  return 0;
}
