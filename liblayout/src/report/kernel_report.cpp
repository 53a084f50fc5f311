// The per-op analysis of a kernel (kernel_report.h).
#include "layout/report/kernel_report.h"

#include "layout/conversion/conversion_plan.h"
#include "layout/core/resource_limits.h"
#include "layout/smem/bank_analysis.h"
#include "layout/smem/swizzle_synthesis.h"
#include "layout/target/hardware_target.h"
#include "layout/triton/encoding.h"

#include <algorithm>
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

// The width of a scalar type name: f16, bf16, i32, f8E4M3FN, ...; 0 when it has none.
int scalarBits(std::string_view type) {
  if (startsWith(type, "bf16")) return 16;
  if (startsWith(type, "tf32")) return 32;
  if (startsWith(type, "f8") || startsWith(type, "f4") || startsWith(type, "f6")) return 8;
  if (type.size() < 2 || (type[0] != 'f' && type[0] != 'i' && type[0] != 'u')) return 0;
  int v = 0;
  for (char c : type.substr(1)) {
    if (!std::isdigit(static_cast<unsigned char>(c)) || v > 1024) return 0;
    v = v * 10 + (c - '0');
  }
  return v;
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
    const int bits = scalarBits(e.substr(0, e.find_first_of(",>")));
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

struct Analysis {
  const MlirModule& module;
  std::string bankModel;
  int lanes = 32;
  int arch = 0; // NVIDIA compute capability * 10, else 0
  // Caches: real kernels repeat the same encodings and shapes (pipelined loops, unrolled bodies).
  std::map<std::string, std::shared_ptr<const Expected<LinearLayout>>> layouts;
  std::map<std::string, std::shared_ptr<const Expected<conversion::ConversionPlan>>> plans;
  std::map<std::string, std::shared_ptr<const Expected<smem::SwizzleResult>>> swizzles;
  std::map<std::string, std::shared_ptr<const Expected<BankFigures>>> banks;

  // The linear layout of a tensor or memdesc type, or an error saying why not.
  std::shared_ptr<const Expected<LinearLayout>> layoutOf(const MlirType& t) {
    const std::string key = t.printedEncoding() + "|" + shapeText(t.shape);
    if (auto it = layouts.find(key); it != layouts.end()) return it->second;
    auto value = std::make_shared<const Expected<LinearLayout>>(computeLayout(t));
    layouts.emplace(key, value);
    return value;
  }

  Expected<LinearLayout> computeLayout(const MlirType& t) {
    if (!t.encoding) {
      if (t.encodingText.empty()) return makeError("the type " + t.text + " has no encoding");
      return makeError("the encoding " + t.encodingText + " could not be read");
    }
    if (t.encoding->kind == AttrValue::Kind::Attribute && startsWith(t.encoding->text, "xegpu."))
      return makeError("XeGPU layouts are not analysed by the report");
    if (t.shape.empty() ||
        std::any_of(t.shape.begin(), t.shape.end(), [](int64_t d) { return d <= 0; }))
      return makeError("the shape of " + t.text + " is not static");
    LAYOUT_TRY(boundedElementCount(t.shape, resourceLimits().maxPlanElements,
                                   "the tensor " + shapeText(t.shape), "LAYOUT_MAX_PLAN_ELEMENTS"));
    LAYOUT_TRY_ASSIGN(enc, triton::encodingFromAttr(*t.encoding));
    return triton::toLinearLayout(enc, t.shape);
  }

  std::shared_ptr<const Expected<conversion::ConversionPlan>>
  planOf(const MlirType& src, const MlirType& dst, const LinearLayout& s, const LinearLayout& d,
         int bits) {
    const std::string key = src.printedEncoding() + "|" + dst.printedEncoding() + "|" +
                            shapeText(src.shape) + "|" + std::to_string(bits);
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
  auto plan = a.planOf(*src, *dst, **s, **d, r.elemBits);
  if (!*plan) return r.notes.push_back("plan: " + plan->error().message);
  const conversion::ConversionPlan& p = **plan;
  ConversionFigures f;
  f.kind = p.kind;
  f.shuffleRounds = p.shuffleRounds;
  f.roundsLowerBound = p.roundsLowerBound;
  f.crossWarp = p.kind == ConversionKind::SharedMemory;
  if (p.shared) {
    uint64_t elements = 1;
    for (int64_t dim : src->shape) elements *= uint64_t(dim);
    f.sharedBytes = elements / uint64_t(std::max(1, p.numBlocks)) * uint64_t(r.elemBits) / 8;
    f.storeInstruction = p.shared->store.instruction.name;
    f.loadInstruction = p.shared->load.instruction.name;
    f.storeWavefronts = p.shared->store.wavefronts;
    f.storeIdeal = p.shared->store.idealWavefronts;
    f.loadWavefronts = p.shared->load.wavefronts;
    f.loadIdeal = p.shared->load.idealWavefronts;
  }
  if (p.kind == ConversionKind::WarpShuffle && p.shuffleRounds == 0)
    r.notes.push_back("every lane already holds the elements it needs (the source broadcasts "
                      "them over lanes): register moves suffice, no shuffle and no shared "
                      "memory; Triton 3.6 sends such a conversion through shared memory");
  else if (p.kind == ConversionKind::WarpShuffle)
    r.notes.push_back("every warp keeps its data: " + std::to_string(p.shuffleRounds) +
                      " shuffle round(s) suffice, no shared memory");
  r.conversion = f;
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
  auto ll = a.layoutOf(*acc);
  if (*ll)
    d.accumulatorRegisters = int((*ll)->inDimSize(DimName("register")));
  else
    r.notes.push_back("acc: " + ll->error().message);
  r.dot = d;
}

void analyzeMemory(Analysis& a, const MlirOp& op, OpReport& r) {
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
}

void analyzeLayoutOp(const MlirOp& op, OpReport& r) {
  for (const MlirType& t : op.operandTypes)
    if (t.kind == MlirType::Kind::Tensor) addLayout(r, "operand", t);
  for (const MlirType& t : op.resultTypes)
    if (t.kind == MlirType::Kind::Tensor) {
      addLayout(r, "result", t);
      if (r.shape.empty()) fillTensor(r, t);
    }
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
    if (r.banks) {
      ++s.sharedAccesses;
      s.extraWavefronts += r.banks->extra();
    }
    const bool analysed = r.conversion || r.banks || r.dot || r.vectorWidth;
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
  if (k.target.empty()) {
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

  Analysis a{module, model, k.lanes, nvidiaArch(lower(k.target)), {}, {}, {}, {}};
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
    } else if (layoutOps().count(n)) {
      OpReport r = baseReport(op, "layout");
      analyzeLayoutOp(op, r);
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
