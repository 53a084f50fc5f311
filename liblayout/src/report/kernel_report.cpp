// The per-op analysis of a kernel (kernel_report.h).
#include "layout/report/kernel_report.h"

#include "intel_block_io_cost.h"
#include "layout_op_cost.h"

#include "layout/conversion/conversion_plan.h"
#include "layout/core/resource_limits.h"
#include "layout/smem/bank_analysis.h"
#include "layout/smem/swizzle_synthesis.h"
#include "layout/target/hardware_target.h"
#include "layout/triton/encoding.h"
#include "layout/triton/intel_dpas.h"
#include "layout/xegpu/internal/xegpu_attr_value.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <memory>
#include <set>

namespace layout::report {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool startsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

// "sm90", "cuda:90" -> 90; 0 otherwise.
int nvidiaArch(std::string_view t) {
  std::string_view digits;
  if (startsWith(t, "cuda:"))
    digits = t.substr(5);
  else if (startsWith(t, "sm_"))
    digits = t.substr(3);
  else if (startsWith(t, "sm"))
    digits = t.substr(2);
  if (digits.empty() || digits.size() > 4) return 0;
  int v = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

// Element width as the lowering stores it: i1 travels as a byte, pointers as 64 bits.
int storageBits(const MlirType& t) {
  if (t.elementBits > 0) return std::max(8, t.elementBits);
  if (startsWith(t.elementType, "!tt.ptr")) return 64;
  return 0;
}

// The width of what a pointer tensor points to (tt.load / tt.store move those), else the
// element's own.
int pointeeBits(const MlirType& t) {
  std::string_view e = t.elementType;
  if (startsWith(e, "!tt.ptr<")) {
    e = e.substr(8);
    const int bits = mlirElementBits(e.substr(0, e.find_first_of(",>")));
    return bits > 0 ? std::max(8, bits) : 0;
  }
  return storageBits(t);
}

// Consecutive elements of one thread along the dim its first register moves in: 2^k when
// register bases 0..k-1 step 1, 2, 4, ... along that dim alone.
int contiguousPerThread(const LinearLayout& ll) {
  const int reg = ll.inDimIndex(DimName("register"));
  if (reg < 0 || ll.inDimSizeLog2(reg) == 0) return 1;
  int dim = -1;
  for (int d = 0; d < ll.numOutDims(); ++d)
    if (ll.basis(reg, 0, d) != 0) dim = d;
  if (dim < 0) return 1;
  int k = 0;
  for (; k < ll.inDimSizeLog2(reg); ++k) {
    bool step = ll.basis(reg, k, dim) == (uint64_t{1} << k);
    for (int d = 0; d < ll.numOutDims() && step; ++d)
      if (d != dim && ll.basis(reg, k, d) != 0) step = false;
    if (!step) break;
  }
  return 1 << k;
}

// A static shape within the plan limit: every figure multiplies its dims.
Expected<void> boundedShape(const std::vector<int64_t>& shape, std::string_view what) {
  if (shape.empty() || std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d <= 0; }))
    return makeError("the shape of " + std::string(what) + " is not static");
  LAYOUT_TRY(boundedElementCount(shape, resourceLimits().maxPlanElements,
                                 "the tensor " + shapeText(shape), "LAYOUT_MAX_PLAN_ELEMENTS"));
  return {};
}

struct Analysis {
  const MlirModule& module;
  std::string bankModel;
  int lanes = 32;
  int arch = 0; // NVIDIA compute capability * 10, else 0
  // Caches: real kernels repeat the same encodings and shapes (pipelined loops, unrolled bodies).
  std::map<std::string, std::shared_ptr<const Expected<LinearLayout>>> layouts;
  std::map<std::string, std::shared_ptr<const Expected<conversion::ConversionPlan>>> plans;
  std::map<std::string, std::shared_ptr<const Expected<BankFigures>>> banks;

  // Intel Xe (bank model "xe"): the block I/O rules and DPAS unit of the target ("pvc" unless
  // the target names another Intel hardware target).
  std::optional<intel::BlockIoTarget> blockIo;
  std::optional<target::DpasUnit> dpas;

  // A cache key for an encoding: types that write the same text share one parsed value, so its
  // address identifies it without printing it.
  static std::string encodingKey(const std::shared_ptr<const AttrValue>& enc,
                                 std::string_view written) {
    if (enc) return std::to_string(reinterpret_cast<uintptr_t>(enc.get()));
    return "text:" + std::string(written);
  }

  // The linear layout of a tensor or memdesc type, or an error saying why not.
  std::shared_ptr<const Expected<LinearLayout>> layoutOf(const MlirType& t) {
    return layoutOf(t.encoding, t.encodingText, t.shape, t.text);
  }

  // The linear layout of `encoding` over `shape` (an XeGPU op's layout attribute, or a type's
  // encoding); `what` names the value in errors.
  std::shared_ptr<const Expected<LinearLayout>>
  layoutOf(const std::shared_ptr<const AttrValue>& encoding, std::string_view written,
           const std::vector<int64_t>& shape, std::string_view what) {
    const std::string key = encodingKey(encoding, written) + "|" + shapeText(shape);
    if (auto it = layouts.find(key); it != layouts.end()) return it->second;
    auto value = std::make_shared<const Expected<LinearLayout>>(
        computeLayout(encoding.get(), written, shape, what));
    layouts.emplace(key, value);
    return value;
  }

  Expected<LinearLayout> computeLayout(const AttrValue* encoding, std::string_view written,
                                       const std::vector<int64_t>& shape, std::string_view what) {
    if (!encoding) {
      if (written.empty()) return makeError(std::string(what) + " has no layout");
      return makeError("the layout " + std::string(written) + " could not be read");
    }
    LAYOUT_TRY(boundedShape(shape, what));
    if (encoding->kind == AttrValue::Kind::Attribute && startsWith(encoding->text, "xegpu.")) {
      LAYOUT_TRY_ASSIGN(x, xegpu::xegpuFromAttr(*encoding));
      return xegpu::toLinearLayout(x, shape);
    }
    LAYOUT_TRY_ASSIGN(enc, triton::encodingFromAttr(*encoding));
    return triton::toLinearLayout(enc, shape);
  }

  // `srcKey` and `dstKey` identify the layouts (encodingKey) over `shape`.
  std::shared_ptr<const Expected<conversion::ConversionPlan>>
  planOf(const std::string& srcKey, const std::string& dstKey, const std::vector<int64_t>& shape,
         const LinearLayout& s, const LinearLayout& d, int bits) {
    const std::string key =
        srcKey + "|" + dstKey + "|" + shapeText(shape) + "|" + std::to_string(bits);
    if (auto it = plans.find(key); it != plans.end()) return it->second;
    auto value = std::make_shared<const Expected<conversion::ConversionPlan>>(
        conversion::planConversion(s, d, bits, bankModel));
    plans.emplace(key, value);
    return value;
  }
};

void addLayout(OpReport& r, std::string role, const MlirType& t) {
  r.layouts.emplace_back(std::move(role), t.printedEncoding());
}

void fillTensor(OpReport& r, const MlirType& t) {
  r.shape = t.shape;
  r.elementType = t.elementType;
  r.elemBits = storageBits(t);
}

OpReport baseReport(const MlirOp& op, std::string category) {
  OpReport r;
  r.op = op.name;
  r.loc = op.loc;
  r.line = op.line;
  r.column = op.column;
  r.category = std::move(category);
  return r;
}

const MlirType* firstOf(const std::vector<MlirType>& types, MlirType::Kind kind) {
  for (const MlirType& t : types)
    if (t.kind == kind) return &t;
  return nullptr;
}

// The conversion of `shape` from layout s to d (both read), planned and put in `r`.
void planInto(Analysis& a, OpReport& r, const std::string& srcKey, const std::string& dstKey,
              const LinearLayout& s, const LinearLayout& d, bool triton) {
  auto plan = a.planOf(srcKey, dstKey, r.shape, s, d, r.elemBits);
  if (!*plan) return r.notes.push_back("plan: " + plan->error().message);
  const conversion::ConversionPlan& p = **plan;
  ConversionFigures f;
  f.kind = p.kind;
  f.shuffleRounds = p.shuffleRounds;
  f.roundsLowerBound = p.roundsLowerBound;
  f.crossWarp = p.kind == ConversionKind::SharedMemory;
  if (p.shared) {
    uint64_t elements = 1;
    for (int64_t dim : r.shape) elements *= uint64_t(dim);
    f.sharedBytes = elements / uint64_t(std::max(1, p.numBlocks)) * uint64_t(r.elemBits) / 8;
    f.storeInstruction = p.shared->store.instruction.name;
    f.loadInstruction = p.shared->load.instruction.name;
    f.storeWavefronts = p.shared->store.wavefronts;
    f.storeIdeal = p.shared->store.idealWavefronts;
    f.loadWavefronts = p.shared->load.wavefronts;
    f.loadIdeal = p.shared->load.idealWavefronts;
  }
  if (p.kind == ConversionKind::WarpShuffle && p.shuffleRounds == 0)
    r.notes.push_back(std::string("every lane already holds the elements it needs (the source "
                                  "broadcasts them over lanes): register moves suffice, no "
                                  "shuffle and no shared memory") +
                      (triton ? "; Triton 3.6 sends such a conversion through shared memory" : ""));
  else if (p.kind == ConversionKind::WarpShuffle)
    r.notes.push_back("every warp keeps its data: " + std::to_string(p.shuffleRounds) +
                      " shuffle round(s) suffice, no shared memory");
  r.conversion = f;
}

void analyzeConversion(Analysis& a, const MlirOp& op, OpReport& r) {
  const MlirType* src = firstOf(op.operandTypes, MlirType::Kind::Tensor);
  const MlirType* dst = firstOf(op.resultTypes, MlirType::Kind::Tensor);
  if (!src || !dst) {
    r.notes.push_back("no tensor types in the signature");
    return;
  }
  fillTensor(r, *src);
  addLayout(r, "src", *src);
  addLayout(r, "dst", *dst);
  if (r.elemBits == 0) {
    r.notes.push_back("element type " + src->elementType + " has no width to plan with");
    return;
  }
  auto s = a.layoutOf(*src);
  auto d = a.layoutOf(*dst);
  if (!*s) return r.notes.push_back("src: " + s->error().message);
  if (!*d) return r.notes.push_back("dst: " + d->error().message);
  planInto(a, r, Analysis::encodingKey(src->encoding, src->encodingText),
           Analysis::encodingKey(dst->encoding, dst->encodingText), **s, **d, true);
}

// --- shared-memory accesses -----------------------------------------------------------------

enum class Side { Write, Read };

struct SharedOperands {
  const MlirType* tensor = nullptr;  // the register side
  const MlirType* memdesc = nullptr; // the shared side
  int memdescOperand = -1;           // operand index of the memdesc (its buffer), -1: the result
};

SharedOperands sharedOperands(const MlirOp& op) {
  SharedOperands s;
  if (op.name == "ttg.local_load") {
    s.memdesc = firstOf(op.operandTypes, MlirType::Kind::MemDesc);
    s.tensor = firstOf(op.resultTypes, MlirType::Kind::Tensor);
    s.memdescOperand = 0;
  } else if (op.name == "ttg.local_alloc") {
    s.tensor = firstOf(op.operandTypes, MlirType::Kind::Tensor);
    s.memdesc = firstOf(op.resultTypes, MlirType::Kind::MemDesc);
  } else { // local_store, async_copy_global_to_local: (tensor, buffer)
    s.tensor = firstOf(op.operandTypes, MlirType::Kind::Tensor);
    s.memdesc = firstOf(op.resultTypes, MlirType::Kind::MemDesc);
    if (!s.memdesc) s.memdesc = firstOf(op.operandTypes, MlirType::Kind::MemDesc);
    s.memdescOperand = 1;
  }
  return s;
}

bool isDotOperand(const MlirType& t) {
  return t.encoding && t.encoding->kind == AttrValue::Kind::Attribute &&
         t.encoding->text == "ttg.dot_op";
}

bool hasNvidiaMmaParent(const MlirType& t) {
  if (!t.encoding) return false;
  if (t.encoding->text == "ttg.nvidia_mma") return true;
  const AttrValue* parent = t.encoding->find("parent");
  return parent && parent->text == "ttg.nvidia_mma";
}

// The instruction the target would use for one side, and its report.
Expected<smem::BankReport> bankReportFor(Analysis& a, const smem::SharedAccess& access, Side side,
                                         const MlirType& tensor, std::string& chosen) {
  // Matrix instructions where the lowering tries them first: ldmatrix for 16-bit reads (sm75+;
  // Triton 3.6 uses it for any register layout it fits), stmatrix for 16-bit writes of MMA
  // results (sm90+). The first variant the layouts admit wins.
  std::vector<std::string> matrix;
  if (a.bankModel == "nvidia" && access.elemBits == 16) {
    if (side == Side::Read && (a.arch == 0 || a.arch >= 75))
      matrix = {"ldmatrix.x4",       "ldmatrix.x4.trans", "ldmatrix.x2",
                "ldmatrix.x2.trans", "ldmatrix.x1",       "ldmatrix.x1.trans"};
    if (side == Side::Write && hasNvidiaMmaParent(tensor) && !isDotOperand(tensor) && a.arch >= 90)
      matrix = {"stmatrix.x4", "stmatrix.x4.trans", "stmatrix.x2", "stmatrix.x2.trans"};
  }
  for (const std::string& name : matrix) {
    auto ins = smem::bankInstruction("nvidia." + name);
    if (!ins) continue;
    auto rep = smem::analyzeBanks(access, *ins, false);
    if (rep) {
      chosen = ins->name;
      return rep;
    }
  }
  // The widest plain access the pair allows; a width whose lanes would need different register
  // orders is refused by the analysis, and the next narrower one is tried.
  LAYOUT_TRY_ASSIGN(vec, smem::maxVectorElements(access.access, access.shared));
  const auto direction =
      side == Side::Read ? smem::AccessDirection::Read : smem::AccessDirection::Write;
  Error last = makeError("no instruction");
  for (int v = vec; v >= 1; v /= 2) {
    auto ins = smem::widestInstruction(a.bankModel, direction, access.elemBits, v);
    if (!ins) return ins.error();
    auto rep = smem::analyzeBanks(access, *ins, false);
    if (rep) {
      chosen = ins->name;
      return rep;
    }
    last = rep.error();
    v = std::min(v, ins->bytesPerLane * 8 / access.elemBits);
  }
  return last;
}

struct BufferUse {
  const MlirType* tensor = nullptr;
  std::shared_ptr<const Expected<LinearLayout>> layout;
};

// The other side of a buffer: who writes what a local_load reads, or reads what a store writes.
struct Buffers {
  std::map<std::string, std::string> root;  // SSA value -> the allocation it views
  std::map<std::string, BufferUse> writers; // root -> the first register-side writer
  std::map<std::string, BufferUse> readers; // root -> the first register-side reader

  std::string rootOf(const std::string& value) const {
    auto it = root.find(value);
    return it == root.end() ? value : it->second;
  }
};

Buffers collectBuffers(Analysis& a, const std::vector<MlirOp>& ops) {
  Buffers b;
  for (const MlirOp& op : ops) {
    // Views of one buffer keep its element order (an index into the stage, a subview); a
    // transposed view does not, so it starts a buffer of its own.
    if ((op.name == "ttg.memdesc_index" || op.name == "ttg.memdesc_subview" ||
         op.name == "ttg.memdesc_subslice") &&
        !op.operands.empty() && !op.results.empty())
      b.root[op.results[0]] = b.rootOf(op.operands[0]);
  }
  for (const MlirOp& op : ops) {
    const bool write = op.name == "ttg.local_store" || op.name == "ttg.local_alloc" ||
                       op.name == "ttg.async_copy_global_to_local";
    const bool read = op.name == "ttg.local_load";
    if (!write && !read) continue;
    const SharedOperands s = sharedOperands(op);
    if (!s.tensor || !s.memdesc) continue;
    std::string buffer;
    if (s.memdescOperand < 0) {
      if (op.results.empty()) continue;
      buffer = op.results[0];
    } else {
      if (int(op.operands.size()) <= s.memdescOperand) continue;
      buffer = b.rootOf(op.operands[size_t(s.memdescOperand)]);
    }
    if (op.name == "ttg.async_copy_global_to_local") continue; // pointers, not values
    auto& slot = write ? b.writers[buffer] : b.readers[buffer];
    if (!slot.tensor) slot = BufferUse{s.tensor, a.layoutOf(*s.tensor)};
  }
  return b;
}

// Pointer tensors hold addresses: the register side of an async copy is the layout over the
// value tensor of the same shape.
void analyzeShared(Analysis& a, const Buffers& buffers, const MlirOp& op, OpReport& r) {
  const SharedOperands s = sharedOperands(op);
  if (!s.memdesc) return r.notes.push_back("no !ttg.memdesc in the signature");
  if (!s.tensor) {
    addLayout(r, "shared", *s.memdesc);
    fillTensor(r, *s.memdesc);
    return r.notes.push_back("no register-side tensor: nothing to analyse");
  }
  const Side side = op.name == "ttg.local_load" ? Side::Read : Side::Write;
  fillTensor(r, *s.memdesc);
  addLayout(r, "registers", *s.tensor);
  addLayout(r, "shared", *s.memdesc);
  if (r.elemBits == 0)
    return r.notes.push_back("element type " + s.memdesc->elementType + " has no width");
  if (s.tensor->shape != s.memdesc->shape)
    return r.notes.push_back("the tensor " + shapeText(s.tensor->shape) + " and the buffer " +
                             shapeText(s.memdesc->shape) + " differ in shape: not analysed");
  auto reg = a.layoutOf(*s.tensor);
  auto shared = a.layoutOf(*s.memdesc);
  if (!*reg) return r.notes.push_back("registers: " + reg->error().message);
  if (!*shared) return r.notes.push_back("shared: " + shared->error().message);

  std::string buffer;
  if (s.memdescOperand < 0) {
    if (!op.results.empty()) buffer = op.results[0];
  } else if (int(op.operands.size()) > s.memdescOperand) {
    buffer = buffers.rootOf(op.operands[size_t(s.memdescOperand)]);
  }
  // The other side for the synthesized swizzle: the buffer's first reader (writer) where its
  // layout is known and of the same shape, else this access on both sides.
  const auto& others = side == Side::Write ? buffers.readers : buffers.writers;
  const LinearLayout* other = &**reg;
  std::string otherText = s.tensor->printedEncoding();
  if (auto it = others.find(buffer); it != others.end() && it->second.tensor &&
                                     it->second.tensor->shape == s.tensor->shape &&
                                     *it->second.layout) {
    other = &**it->second.layout;
    otherText = it->second.tensor->printedEncoding();
  }

  const std::string key = op.name + "|" + s.tensor->printedEncoding() + "|" +
                          s.memdesc->printedEncoding() + "|" + otherText + "|" +
                          shapeText(s.memdesc->shape) + "|" + std::to_string(r.elemBits);
  auto cached = a.banks.find(key);
  if (cached == a.banks.end()) {
    auto compute = [&]() -> Expected<BankFigures> {
      smem::SharedAccess access{**reg, **shared, r.elemBits, {}};
      LAYOUT_TRY_ASSIGN(enc, triton::encodingFromAttr(*s.memdesc->encoding));
      if (enc.kind == triton::EncodingKind::PaddedShared) {
        LAYOUT_TRY_ASSIGN(map, triton::paddedSharedAddressMap(enc));
        access.paddedAddress = std::move(map);
      }
      BankFigures f;
      LAYOUT_TRY_ASSIGN(rep, bankReportFor(a, access, side, *s.tensor, f.instruction));
      f.vectorElements = rep.vectorElements;
      f.wavefronts = rep.wavefronts;
      f.ideal = rep.idealWavefronts;
      const LinearLayout& store = side == Side::Write ? **reg : *other;
      const LinearLayout& load = side == Side::Write ? *other : **reg;
      auto sw = smem::synthesizeSwizzleForTarget(store, load, r.elemBits, a.bankModel);
      if (sw) {
        const smem::BankReport& mine = side == Side::Write ? sw->store : sw->load;
        f.swizzledWavefronts = mine.wavefronts;
        f.swizzledIdeal = mine.idealWavefronts;
        f.swizzledInstruction = mine.instruction.name;
      }
      return f;
    };
    cached = a.banks.emplace(key, std::make_shared<const Expected<BankFigures>>(compute())).first;
  }
  if (!*cached->second) return r.notes.push_back("banks: " + cached->second->error().message);
  r.banks = **cached->second;
  if (!r.banks->swizzledWavefronts) r.notes.push_back("no swizzle synthesized for this access");
}

// A tt.dot whose accumulator is #ttig.dpas: [repeatCount, executionSize, systolicDepth x
// opsPerChan] per instruction, and the instructions one subgroup issues.
void intelDotFigures(Analysis& a, const MlirOp& op, const MlirType& acc, DotFigures& d) {
  if (!acc.encoding) return;
  auto enc = triton::encodingFromAttr(*acc.encoding);
  if (!enc || enc->kind != triton::EncodingKind::IntelDpas) return;
  auto p = triton::intelDpasParams(*enc);
  if (!p) return;
  const MlirType* lhs = op.operandTypes.empty() ? nullptr : &op.operandTypes[0];
  if (!lhs || lhs->shape.size() != 2 || !boundedShape(lhs->shape, lhs->text)) return;
  const int64_t k = lhs->shape[1];
  target::DpasUnit unit = *a.dpas;
  unit.executionSize = int(p->executionSize);
  unit.systolicDepth = int(p->systolicDepth);
  const std::array<int64_t, 3> shape =
      detail::dpasInstructionShape(unit, int(p->repeatCount), 32 / int(p->opsPerChan));
  d.instrShape = detail::dpasShapeText(shape);
  // The accumulator tiles a subgroup holds (registers / one tile's share per lane), each over
  // K / the instruction's K.
  const int64_t kSteps = k > 0 && shape[2] > 0 && k % shape[2] == 0 ? k / shape[2] : 0;
  const int64_t perTile = p->repeatCount * p->executionSize / std::max(1, a.lanes);
  auto ll = a.layoutOf(acc);
  if (*ll && perTile > 0 && kSteps > 0)
    d.instructions = int64_t((*ll)->inDimSize(DimName("register"))) / perTile * kSteps;
}

void analyzeDot(Analysis& a, const MlirOp& op, OpReport& r) {
  static const char* roles[] = {"a", "b", "acc"};
  for (size_t i = 0; i < op.operandTypes.size() && i < 3; ++i)
    addLayout(r, roles[i], op.operandTypes[i]);
  const MlirType* acc = firstOf(op.resultTypes, MlirType::Kind::Tensor);
  if (!acc) return r.notes.push_back("no result tensor in the signature");
  if (op.operandTypes.size() < 3) addLayout(r, "acc", *acc);
  fillTensor(r, *acc);
  DotFigures d;
  if (acc->encoding)
    if (const AttrValue* shape = acc->encoding->find("instrShape"))
      d.instrShape = printAttrValue(*shape);
  if (a.dpas) intelDotFigures(a, op, *acc, d);
  auto ll = a.layoutOf(*acc);
  if (*ll)
    d.accumulatorRegisters = int((*ll)->inDimSize(DimName("register")));
  else
    r.notes.push_back("acc: " + ll->error().message);
  r.dot = d;
}

// Intel: a tensor whose encoding 2D block messages move directly: loads of a
// #ttig.subgroup_2d_block or of a DPAS operand (the block-load planner), stores of a DPAS
// accumulator.
void intelBlockAccess(Analysis& a, const MlirOp& op, const MlirType& t, int elemBits, OpReport& r) {
  if (!a.blockIo || !t.encoding) return;
  auto enc = triton::encodingFromAttr(*t.encoding);
  if (!enc) return;
  const bool load = op.name == "tt.load";
  Expected<BlockIoFigures> f = makeError("");
  if (load && enc->kind == triton::EncodingKind::IntelSubgroup2DBlock)
    f = detail::subgroup2dBlockIo(*enc, t.shape, elemBits, *a.blockIo);
  else if (load && enc->kind == triton::EncodingKind::DotOperand)
    f = detail::dpasOperandBlockLoads(*enc, t.shape, elemBits, *a.blockIo);
  else if (!load && enc->kind == triton::EncodingKind::IntelDpas)
    f = detail::dpasAccumulatorBlockStores(*enc, t.shape, elemBits, *a.blockIo);
  else
    return;
  if (!f) return r.notes.push_back("block I/O: " + f.error().message);
  r.blockIo = *f;
  if (!f->legal) r.notes.push_back(f->why);
}

void analyzeMemory(Analysis& a, const MlirOp& op, OpReport& r) {
  // A block pointer (!tt.ptr<tensor<...>>, Intel's 2D block loads) describes the tensor.
  if (const MlirType* desc = firstOf(op.operandTypes, MlirType::Kind::TensorDesc);
      desc && startsWith(desc->text, "!tt.ptr<")) {
    fillTensor(r, *desc);
    addLayout(r, "tensor", *desc);
    intelBlockAccess(a, op, *desc, r.elemBits, r);
    if (r.blockIo) return;
    // Not a 2D block access: lowered per element, as wide as the layout's contiguous run.
    auto ll = a.layoutOf(*desc);
    if (!*ll) return r.notes.push_back(ll->error().message);
    r.vectorWidth = contiguousPerThread(**ll);
    return;
  }
  const MlirType* ptrs = firstOf(op.operandTypes, MlirType::Kind::Tensor);
  if (!ptrs) return r.notes.push_back("scalar or descriptor access: no tensor layout");
  fillTensor(r, *ptrs);
  r.elemBits = pointeeBits(*ptrs);
  addLayout(r, "pointers", *ptrs);
  auto ll = a.layoutOf(*ptrs);
  if (!*ll) return r.notes.push_back(ll->error().message);
  // In the layout; the access is as wide as this when the addresses are contiguous and aligned
  // (Triton's axis analysis), at most 128 bits per instruction.
  r.vectorWidth = contiguousPerThread(**ll);
  if (op.attribute("ttig.block_io")) intelBlockAccess(a, op, *ptrs, r.elemBits, r);
}

// --- XeGPU ----------------------------------------------------------------------------------

// An XeGPU op's layout attribute (`layout`, `layout_a`, `input_layout`, ...), or null.
std::shared_ptr<const AttrValue> xegpuLayoutAttr(const MlirOp& op, std::string_view name) {
  const MlirNamedAttr* at = op.attribute(name);
  if (at && at->value && at->value->kind == AttrValue::Kind::Attribute &&
      startsWith(at->value->text, "xegpu."))
    return at->value;
  return nullptr;
}

void addAttrLayout(OpReport& r, std::string role, const std::shared_ptr<const AttrValue>& v) {
  if (v) r.layouts.emplace_back(std::move(role), printAttrValue(*v));
}

// `array_length = N` of a descriptor's #xegpu.block_tdesc_attr, else 1.
int arrayLengthOf(const MlirType& desc) {
  for (const std::shared_ptr<const AttrValue>& extra : desc.extraValues) {
    const AttrValue* n = extra ? extra->find("array_length") : nullptr;
    if (!n) continue;
    // Bounded so that the int holds it; the block I/O rules refuse anything past a few blocks.
    return n->kind == AttrValue::Kind::Integer ? int(std::clamp<int64_t>(n->integer, 1, 1 << 20))
                                               : 1;
  }
  return 1;
}

void analyzeXegpuBlock(Analysis& a, const MlirOp& op, OpReport& r) {
  const MlirType* desc = firstOf(op.operandTypes, MlirType::Kind::TensorDesc);
  if (!desc) return r.notes.push_back("no !xegpu.tensor_desc in the signature");
  fillTensor(r, *desc);
  if (auto ok = boundedShape(desc->shape, desc->text); !ok)
    return r.notes.push_back(ok.error().message);
  std::shared_ptr<const AttrValue> layout = xegpuLayoutAttr(op, "layout");
  if (!layout && desc->encoding) layout = desc->encoding;
  addAttrLayout(r, "layout", layout);
  if (!a.blockIo) return r.notes.push_back("the target has no 2D block I/O");
  std::optional<xegpu::XeLayout> xe;
  if (layout) {
    auto parsed = xegpu::xegpuFromAttr(*layout);
    if (!parsed) return r.notes.push_back("layout: " + parsed.error().message);
    xe = std::move(*parsed);
  }
  detail::XegpuBlockAccess access;
  access.op = op.name == "xegpu.store_nd"      ? intel::BlockOp::Store
              : op.name == "xegpu.prefetch_nd" ? intel::BlockOp::Prefetch
                                               : intel::BlockOp::Load;
  access.layout = xe ? &*xe : nullptr;
  access.shape = desc->shape;
  access.elemBits = r.elemBits;
  access.arrayLength = arrayLengthOf(*desc);
  // VNNI: the `packed` flag, or (as upstream's lowering infers it) a layout whose lanes each
  // take one 32-bit column of k rows (lane_data [32 / bits, 1]).
  access.packed = op.attribute("packed") != nullptr;
  if (xe && access.op == intel::BlockOp::Load && xe->laneData.size() == 2 && xe->laneData[1] == 1 &&
      xe->laneData[0] > 1 && xe->laneData[0] * r.elemBits == 32)
    access.packed = true;
  access.transpose = op.attribute("transpose") != nullptr;
  auto f = detail::xegpuBlockIo(access, *a.blockIo);
  if (!f) return r.notes.push_back(f.error().message);
  r.blockIo = *f;
  if (!f->legal) r.notes.push_back(f->why);
}

void analyzeXegpuDpas(Analysis& a, const MlirOp& op, OpReport& r) {
  static const char* roles[] = {"a", "b", "acc"};
  static const char* names[] = {"layout_a", "layout_b", "layout_cd"};
  const MlirType* c = firstOf(op.resultTypes, MlirType::Kind::Vector);
  if (!c || op.operandTypes.size() < 2)
    return r.notes.push_back("no vector types in the signature");
  fillTensor(r, *c);
  for (int i = 0; i < 3; ++i) addAttrLayout(r, roles[i], xegpuLayoutAttr(op, names[i]));
  const MlirType& lhs = op.operandTypes[0];
  const MlirType& rhs = op.operandTypes[1];
  if (lhs.shape.size() != 2 || rhs.shape.size() != 2 || c->shape.size() != 2)
    return r.notes.push_back("lane-level (SIMT) dpas: its vectors are one work-item's fragments");
  for (const MlirType* t : {&lhs, &rhs, c})
    if (auto ok = boundedShape(t->shape, t->text); !ok)
      return r.notes.push_back(ok.error().message);
  if (!a.dpas) return r.notes.push_back("the target has no DPAS unit");
  std::vector<int64_t> m_n = c->shape;
  int64_t k = lhs.shape[1];
  // A workgroup-level dpas: one subgroup multiplies its sg_data blocks.
  auto sgData = [](const std::shared_ptr<const AttrValue>& v) -> std::vector<int64_t> {
    if (!v) return {};
    auto x = xegpu::xegpuFromAttr(*v);
    return x && x->isForWorkgroup() ? x->effective(x->sgData) : std::vector<int64_t>{};
  };
  if (auto cd = sgData(xegpuLayoutAttr(op, "layout_cd")); cd.size() == 2) m_n = cd;
  if (auto ad = sgData(xegpuLayoutAttr(op, "layout_a")); ad.size() == 2) k = ad[1];
  DotFigures d = detail::dpasFigures(*a.dpas, 0, storageBits(lhs), m_n[0], m_n[1], k);
  // DPAS spreads C over the subgroup's lanes whatever the layout says (an inst_data-only
  // layout leaves the lanes to the lowering).
  d.accumulatorRegisters = int(m_n[0] * m_n[1] / std::max(1, a.lanes));
  r.dot = d;
}

void analyzeXegpuConversion(Analysis& a, const MlirOp& op, OpReport& r) {
  const MlirType* v = op.operandTypes.empty() ? nullptr : &op.operandTypes[0];
  if (!v || v->shape.empty()) return r.notes.push_back("no vector type in the signature");
  fillTensor(r, *v);
  const auto in = xegpuLayoutAttr(op, "input_layout");
  const auto out = xegpuLayoutAttr(op, "target_layout");
  addAttrLayout(r, "src", in);
  addAttrLayout(r, "dst", out);
  if (!in || !out) return r.notes.push_back("input_layout or target_layout is missing");
  if (r.elemBits == 0) return r.notes.push_back("element type " + v->elementType + " has no width");
  auto s = a.layoutOf(in, "", v->shape, "input_layout");
  auto d = a.layoutOf(out, "", v->shape, "target_layout");
  if (!*s) return r.notes.push_back("src: " + s->error().message);
  if (!*d) return r.notes.push_back("dst: " + d->error().message);
  planInto(a, r, Analysis::encodingKey(in, ""), Analysis::encodingKey(out, ""), **s, **d, false);
}

// The integers of a list attribute, `[1, 0]` or the dense array `array<i32: 1, 0>` (which the
// attribute parser reads as the same list); empty when there are none.
std::vector<int64_t> integerArray(const MlirNamedAttr* attr) {
  std::vector<int64_t> out;
  if (!attr || !attr->value || attr->value->kind != AttrValue::Kind::List) return out;
  for (const AttrValue& v : attr->value->items)
    if (v.kind == AttrValue::Kind::Integer) out.push_back(v.integer);
  return out;
}

int integerAttribute(const MlirOp& op, std::string_view name, int fallback) {
  const MlirNamedAttr* a = op.attribute(name);
  if (a && a->value && a->value->kind == AttrValue::Kind::Integer) return int(a->value->integer);
  return fallback;
}

void analyzeLayoutOp(Analysis& a, const MlirOp& op, OpReport& r) {
  for (const MlirType& t : op.operandTypes)
    if (t.kind == MlirType::Kind::Tensor) addLayout(r, "operand", t);
  for (const MlirType& t : op.resultTypes)
    if (t.kind == MlirType::Kind::Tensor) {
      addLayout(r, "result", t);
      if (r.shape.empty()) fillTensor(r, t);
    }
  const MlirType* src = firstOf(op.operandTypes, MlirType::Kind::Tensor);
  const MlirType* res = firstOf(op.resultTypes, MlirType::Kind::Tensor);
  if (op.name == "tt.reduce") {
    if (!src) return r.notes.push_back("no tensor operand in the signature");
    fillTensor(r, *src);
    auto ll = a.layoutOf(*src);
    if (!*ll) return r.notes.push_back(ll->error().message);
    int operands = 0;
    for (const MlirType& t : op.operandTypes) operands += t.kind == MlirType::Kind::Tensor;
    auto red = detail::reductionCost(**ll, integerAttribute(op, "axis", -1), r.elemBits, operands);
    if (!red) return r.notes.push_back(red.error().message);
    r.reduction = *red;
    if (red->crossWarp())
      r.notes.push_back(std::to_string(red->warpsAlongAxis) +
                        " warps lie along the axis: their partial results meet in shared memory");
    return;
  }
  static const std::set<std::string, std::less<>> relabels = {
      "tt.trans", "tt.reshape", "tt.join", "tt.split", "tt.broadcast", "tt.expand_dims"};
  if (!relabels.count(op.name)) return;
  if (!src || !res) return r.notes.push_back("no tensor types in the signature");
  if (op.name == "tt.reshape" &&
      (op.attribute("allow_reorder") || op.attribute("efficient_layout"))) {
    r.change = LayoutChangeFigures{true, ConversionKind::None,
                                   "the reshape may reorder elements: the compiler picks an "
                                   "element order that keeps them in place"};
    return;
  }
  auto s = a.layoutOf(*src);
  auto d = a.layoutOf(*res);
  if (!*s) return r.notes.push_back("operand: " + s->error().message);
  if (!*d) return r.notes.push_back("result: " + d->error().message);
  auto change = detail::layoutChange(op.name, **s, **d, integerArray(op.attribute("order")),
                                     integerAttribute(op, "axis", -1));
  if (!change) return r.notes.push_back(change.error().message);
  r.change = *change;
  if (!change->free) r.notes.push_back("not free: " + change->why);
}

const std::set<std::string, std::less<>>& layoutOps() {
  static const std::set<std::string, std::less<>> ops = {
      "tt.trans",       "tt.reshape", "tt.join", "tt.split",          "tt.broadcast",
      "tt.expand_dims", "tt.reduce",  "tt.scan", "ttg.memdesc_trans", "amdg.in_thread_transpose"};
  return ops;
}

void summarize(KernelReport& k) {
  ReportSummary& s = k.summary;
  s.ops = int(k.ops.size());
  for (const OpReport& r : k.ops) {
    if (r.op == "ttg.convert_layout") ++s.conversions;
    if (r.conversion) {
      switch (r.conversion->kind) {
      case ConversionKind::None:
        ++s.planNone;
        break;
      case ConversionKind::RegisterPermutation:
        ++s.planRegisters;
        break;
      case ConversionKind::WarpShuffle:
        ++s.planShuffles;
        break;
      case ConversionKind::SharedMemory:
        ++s.planShared;
        ++s.sharedRoundTrips;
        s.extraWavefronts += (r.conversion->storeWavefronts - r.conversion->storeIdeal) +
                             (r.conversion->loadWavefronts - r.conversion->loadIdeal);
        break;
      }
    }
    if (r.change) {
      ++s.layoutChanges;
      s.layoutChangesNotFree += r.change->free ? 0 : 1;
    }
    if (r.reduction) {
      ++s.reductions;
      s.crossWarpReductions += r.reduction->crossWarp() ? 1 : 0;
    }
    if (r.banks) {
      ++s.sharedAccesses;
      s.extraWavefronts += r.banks->extra();
    }
    const bool analysed =
        r.conversion || r.banks || r.dot || r.vectorWidth || r.change || r.reduction || r.blockIo;
    if (!analysed && !r.notes.empty() && r.category != "layout") ++s.notAnalysed;
  }
}

} // namespace

Expected<std::string> bankModelForTarget(std::string_view given) {
  const std::string t = lower(given);
  if (nvidiaArch(t) > 0 || t == "nvidia" || t == "cuda") return std::string("nvidia");
  std::string_view g = t;
  if (startsWith(g, "hip:")) g = g.substr(4);
  if (startsWith(g, "gfx94") || g == "cdna3") return std::string("cdna3");
  if (startsWith(g, "gfx95") || g == "cdna4") return std::string("cdna4");
  // The Intel backend writes "xpu:..." targets; its SLM model is "xe".
  if (startsWith(t, "xpu") || t == "xe" || t == "intel") return std::string("xe");
  if (!t.empty() && t[0] != '@') {
    if (auto hw = target::hardwareTarget(t); hw && !hw->bankModelName().empty())
      return hw->bankModelName();
  }
  return makeError("unknown target '" + std::string(given) +
                   "' (known: sm80, sm90, cuda:NN, gfx942, hip:gfx942, gfx950, xpu, or a "
                   "hardware target: " +
                   target::builtinTargetNames() + ")");
}

Expected<KernelReport> analyzeKernel(const MlirModule& module, const ReportOptions& options) {
  KernelReport k;
  k.target = options.target;
  if (k.target.empty()) {
    auto it = module.moduleAttributes.find("ttg.target");
    if (it != module.moduleAttributes.end() && it->second.kind == AttrValue::Kind::String)
      k.target = it->second.text;
  }
  const bool xegpuModule = std::any_of(module.ops.begin(), module.ops.end(), [](const MlirOp& op) {
    return startsWith(op.name, "xegpu.");
  });
  if (k.target.empty() && xegpuModule) {
    k.target = "pvc";
    k.notes.push_back("the module names no target: XeGPU ops run on Intel Xe, PVC is assumed "
                      "(--target bmg for Xe2)");
  } else if (k.target.empty()) {
    k.target = "nvidia";
    k.notes.push_back("the module names no ttg.target: NVIDIA's bank model is assumed");
  }
  LAYOUT_TRY_ASSIGN(model, bankModelForTarget(k.target));
  k.bankModel = model;
  k.lanes = model == "nvidia" ? 32 : model == "xe" ? 16 : 64;
  if (auto it = module.moduleAttributes.find("ttg.threads-per-warp");
      it != module.moduleAttributes.end() && it->second.kind == AttrValue::Kind::Integer)
    k.lanes = int(it->second.integer);
  for (const std::string& n : module.notes) k.notes.push_back(n);

  Analysis a{module, model, k.lanes, nvidiaArch(lower(k.target)), {}, {}, {}, {}, {}};
  if (model == "xe") {
    // The Intel hardware target the name gives ("bmg"), else PVC: block I/O rules and DPAS.
    std::string hwName = "pvc";
    if (auto hw = target::hardwareTarget(lower(k.target)); hw && hw->blockIo) hwName = hw->name;
    if (auto hw = target::hardwareTarget(hwName); hw && hw->dpas) a.dpas = *hw->dpas;
    if (auto io = intel::blockIoTarget(hwName)) a.blockIo = std::move(*io);
  }
  const Buffers buffers = collectBuffers(a, module.ops);
  for (const MlirOp& op : module.ops) {
    const std::string& n = op.name;
    if (n == "ttg.convert_layout") {
      OpReport r = baseReport(op, "conversion");
      analyzeConversion(a, op, r);
      k.ops.push_back(std::move(r));
    } else if (n == "ttg.local_load" || n == "ttg.local_store" ||
               n == "ttg.async_copy_global_to_local" ||
               (n == "ttg.local_alloc" && firstOf(op.operandTypes, MlirType::Kind::Tensor))) {
      OpReport r = baseReport(op, "shared");
      analyzeShared(a, buffers, op, r);
      k.ops.push_back(std::move(r));
    } else if (n == "ttng.async_tma_copy_global_to_local" ||
               n == "ttng.async_tma_copy_local_to_global") {
      OpReport r = baseReport(op, "shared");
      if (const MlirType* m = firstOf(op.operandTypes, MlirType::Kind::MemDesc)) {
        fillTensor(r, *m);
        addLayout(r, "shared", *m);
      } else if (const MlirType* m2 = firstOf(op.resultTypes, MlirType::Kind::MemDesc)) {
        fillTensor(r, *m2);
        addLayout(r, "shared", *m2);
      }
      r.notes.push_back("TMA moves the tile between global and shared memory without registers: "
                        "no bank analysis");
      k.ops.push_back(std::move(r));
    } else if (n == "tt.dot" || n == "ttng.warp_group_dot" || n == "tt.dot_scaled") {
      OpReport r = baseReport(op, "dot");
      analyzeDot(a, op, r);
      k.ops.push_back(std::move(r));
    } else if (n == "tt.load" || n == "tt.store") {
      OpReport r = baseReport(op, "memory");
      analyzeMemory(a, op, r);
      k.ops.push_back(std::move(r));
    } else if (n == "xegpu.load_nd" || n == "xegpu.store_nd" || n == "xegpu.prefetch_nd") {
      OpReport r = baseReport(op, "blockio");
      analyzeXegpuBlock(a, op, r);
      k.ops.push_back(std::move(r));
    } else if (n == "xegpu.dpas") {
      OpReport r = baseReport(op, "dot");
      analyzeXegpuDpas(a, op, r);
      k.ops.push_back(std::move(r));
    } else if (n == "xegpu.convert_layout") {
      OpReport r = baseReport(op, "conversion");
      analyzeXegpuConversion(a, op, r);
      k.ops.push_back(std::move(r));
    } else if (layoutOps().count(n)) {
      OpReport r = baseReport(op, "layout");
      analyzeLayoutOp(a, op, r);
      k.ops.push_back(std::move(r));
    }
  }
  summarize(k);
  return k;
}

Expected<KernelReport> reportFromText(std::string_view text, const ReportOptions& options) {
  LAYOUT_TRY_ASSIGN(module, readMlirOps(text));
  return analyzeKernel(module, options);
}

} // namespace layout::report
