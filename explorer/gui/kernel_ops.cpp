#include "kernel_ops.h"

#include "explorer_app.h"

#include "layout/report/kernel_report.h"
#include "layout/text/mlir_ops.h"
#include "layout/triton/encoding.h"
#include "layout/views/layout_input.h"

#include <algorithm>

namespace layout::views {

namespace {

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

const std::string* role(const report::OpReport& r, std::string_view name) {
  for (const auto& [k, v] : r.layouts)
    if (k == name) return &v;
  return nullptr;
}

std::string figures(uint64_t wavefronts, uint64_t ideal) {
  return std::to_string(wavefronts) + "/" + std::to_string(ideal) + " wf";
}

// The cost in a few words; the report's text (layoutctl report) has the whole story.
std::string costText(const report::OpReport& r) {
  if (const auto& c = r.conversion) {
    static const char* kinds[] = {"none", "registers", "shuffles", "shared"};
    std::string s = kinds[int(c->kind)];
    if (c->kind == ConversionKind::SharedMemory)
      s += " " + std::to_string(c->sharedBytes) + " B  " +
           figures(c->storeWavefronts + c->loadWavefronts, c->storeIdeal + c->loadIdeal);
    else if (c->kind == ConversionKind::WarpShuffle)
      s += " " + std::to_string(c->shuffleRounds) + " rounds";
    return s;
  }
  if (const auto& b = r.banks) {
    // "ldmatrix.x4": the target is the file's, the vendor prefix says nothing new here.
    const size_t dot = b->instruction.find('.');
    return b->instruction.substr(dot == std::string::npos ? 0 : dot + 1) + "  " +
           figures(b->wavefronts, b->ideal);
  }
  if (const auto& b = r.blockIo)
    return b->instruction + " x" + std::to_string(b->instructions) + (b->legal ? "" : " (illegal)");
  if (const auto& red = r.reduction)
    return "reduce " + std::to_string(red->shuffles) + " shfl" +
           (red->crossWarp() ? ", shared" : "");
  if (const auto& c = r.change) return c->free ? "free" : "moves";
  if (const auto& d = r.dot)
    return "instr " + d->instrShape + ", acc " + std::to_string(d->accumulatorRegisters) + " regs";
  if (r.vectorWidth) return "vector " + std::to_string(*r.vectorWidth);
  if (!r.notes.empty()) return "not analysed";
  return r.category;
}

int classRank(const report::OpReport& r) {
  static const char* order[] = {"conversion", "shared", "blockio", "dot", "memory"};
  for (int i = 0; i < 5; ++i)
    if (r.category == order[i]) return i;
  return 5;
}

// The op a report row describes.
const MlirOp* opOf(const MlirModule& m, const report::OpReport& r) {
  for (const MlirOp& op : m.ops)
    if (op.line == r.line && op.name == r.op) return &op;
  return nullptr;
}

// A dot's first operand (A, M x K) as the file writes it: K, and the operands' element bits
// (which pick their kWidth in the operands view; the report's elemBits are the result's).
const MlirType* dotOperandA(const MlirModule& m, const report::OpReport& r) {
  const MlirOp* op = opOf(m, r);
  return op && !op->operandTypes.empty() ? &op->operandTypes[0] : nullptr;
}

std::string withoutSpace(std::string_view text) {
  std::string s;
  for (char c : text)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') s += c;
  return s;
}

KernelOp rowOf(const MlirModule& m, const report::OpReport& r) {
  KernelOp k;
  k.line = r.line;
  k.op = r.op;
  k.label = r.op + "  " + costText(r); // the line number goes before it, padded
  k.shape = shapeText(r.shape);
  if (r.elemBits > 0) k.elemBits = r.elemBits;
  const std::string *src = role(r, "src"), *dst = role(r, "dst");
  const std::string *regs = role(r, "registers"), *shared = role(r, "shared");
  const std::string* acc = role(r, "acc");
  const std::string* block = role(r, "tensor") ? role(r, "tensor") : role(r, "pointers");
  if (r.category == "conversion" && src && dst) {
    k.view = ViewKind::Convert;
    k.layoutA = *src;
    k.layoutB = *dst;
    // The convert view takes its bank-model target from the instruction's vendor prefix.
    if (r.conversion && !r.conversion->storeInstruction.empty())
      k.instruction = r.conversion->storeInstruction;
  } else if (r.category == "shared" && regs && shared) {
    k.view = ViewKind::Banks;
    k.layoutA = *regs;
    k.shared = *shared;
    if (r.banks && !r.banks->instruction.empty()) k.instruction = r.banks->instruction;
  } else if (r.blockIo && block && block->find("#ttg.dot_op<") == 0) {
    // An Intel DPAS operand loaded by 2D block loads: the block-load plan.
    k.view = ViewKind::BlockLoad;
    k.layoutA = *block;
  } else if (const std::string* desc = role(r, "layout");
             r.blockIo && r.blockIo->tile.size() == 2 && !r.blockIo->transpose && desc &&
             desc->rfind("#xegpu.", 0) == 0 &&
             (r.op == "xegpu.load_nd" || r.op == "xegpu.prefetch_nd")) {
    // An XeGPU 2D block load (or prefetch): the descriptor's layout over its shape, cut into the
    // report's instruction tile. (The view draws no transposed loads: those open the tensor view.)
    k.view = ViewKind::BlockLoad;
    k.layoutA = *desc;
    k.block = shapeText(r.blockIo->tile);
    k.arrayLength = std::clamp(r.blockIo->arrayLength, 1, 64); // the input's range
  } else if (r.category == "dot" && acc && r.shape.size() == 2) {
    k.view = ViewKind::Operands;
    k.layoutA = *acc;
    if (const MlirType* a = dotOperandA(m, r)) {
      if (a->shape.size() == 2 && a->shape[1] > 0 && a->shape[1] <= (1 << 16))
        k.k = int(a->shape[1]);
      if (a->elementBits > 0) k.elemBits = a->elementBits;
    }
    if (const MlirOp* op = opOf(m, r))
      for (const auto* types : {&op->operandTypes, &op->resultTypes})
        for (const MlirType& t : *types) k.types.push_back(t.text);
  } else {
    // The result's layout goes with the op's shape (an operand's may have another rank).
    const std::string* result = role(r, "result");
    k.view = ViewKind::Tensor;
    k.layoutA = result ? *result : r.layouts.front().second;
  }
  return k;
}

} // namespace

std::optional<KernelFile> readKernelFile(std::string_view text) {
  auto module = readMlirOps(text);
  if (!module) return std::nullopt;
  KernelFile f;
  f.aliases = module->aliases;
  auto rep = report::analyzeKernel(*module, {});
  if (!rep) {
    f.error = rep.error().message;
    return f;
  }
  std::vector<const report::OpReport*> ops;
  for (const auto& r : rep->ops)
    if (!r.layouts.empty()) ops.push_back(&r);
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto* a, const auto* b) { return classRank(*a) < classRank(*b); });
  size_t width = 0;
  for (const auto* r : ops) width = std::max(width, std::to_string(r->line).size());
  for (const auto* r : ops) {
    f.ops.push_back(rowOf(*module, *r));
    const std::string line = std::to_string(r->line);
    f.ops.back().label = std::string(width - line.size(), ' ') + line + "  " + f.ops.back().label;
  }
  return f;
}

void applyKernelOp(const KernelOp& op, ExplorerInputs& in) {
  in.view = op.view;
  in.op = AlgebraOp::None;
  in.layoutA = op.layoutA;
  if (!op.layoutB.empty()) in.layoutB = op.layoutB;
  in.shape = op.shape;
  if (op.shared) in.shared = *op.shared;
  if (op.instruction) in.instruction = *op.instruction;
  if (op.elemBits) in.elemBits = *op.elemBits;
  if (op.k) in.k = *op.k;
  in.block = op.block;
  in.arrayLength = op.arrayLength;
}

std::optional<TensorTypeFacts> tensorTypeFacts(std::string_view text, const AttrAliases& aliases) {
  auto typed = splitTensorType(text);
  if (!typed) return std::nullopt;
  auto shape = parseShapeText(typed->shape);
  if (!shape) return std::nullopt;
  TensorTypeFacts f;
  f.shape = *shape;
  f.shapeText = shapeText(*shape);
  // "tensor<64x64xf32>": the element type follows the last "<digits>x".
  std::string_view inner(typed->shape);
  inner.remove_prefix(std::string_view("tensor<").size());
  inner.remove_suffix(1);
  for (size_t x = inner.find('x');
       x != std::string_view::npos && x > 0 &&
       inner.substr(0, x).find_first_not_of("0123456789?") == std::string_view::npos;
       x = inner.find('x'))
    inner.remove_prefix(x + 1);
  f.elemBits = mlirElementBits(inner);
  if (auto enc = triton::parseEncoding(typed->encoding, aliases);
      enc && enc->kind == triton::EncodingKind::DotOperand)
    if (const AttrValue* idx = enc->attr.find("opIdx");
        idx && idx->kind == AttrValue::Kind::Integer)
      f.opIdx = int(idx->integer);
  return f;
}

const KernelOp* dotWithType(const std::vector<KernelOp>& ops, std::string_view type) {
  const std::string want = withoutSpace(type);
  for (const KernelOp& op : ops)
    if (op.view == ViewKind::Operands)
      for (const std::string& t : op.types)
        if (withoutSpace(t) == want) return &op;
  return nullptr;
}

} // namespace layout::views
