// OpenCL C 2.0 for the GEMM kernel IR: Intel 2D block I/O and DPAS built-ins, one statement per
// IR op, with the IR's layouts and comments carried into the source.
//
// The built-ins are declared in the source as `__attribute__((overloadable))` prototypes, so
// clang gives them their Itanium-mangled OpenCL names (e.g.
// `_Z41intel_sub_group_2d_block_read_16b_8r16x1cPU3AS1viiiDv2_iPt`), which is how the Intel
// driver resolves OpenCL built-ins imported by a SPIR-V module.
#include "layout/codegen/opencl_emitter.h"

#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/codegen/opencl_block_builtins.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>

namespace layout::codegen {
namespace {

using intel::BlockOp;
using intel::BlockShape;

constexpr int kColumnLimit = 100;

// OpenCL unsigned integer type of `bits` bits.
std::string unsignedType(int bits) {
  switch (bits) {
  case 8:
    return "uchar";
  case 16:
    return "ushort";
  case 32:
    return "uint";
  case 64:
    return "ulong";
  }
  return "uint" + std::to_string(bits) + "_unsupported";
}

// `base` or `base<n>` (n = 1 is the scalar type).
std::string vectorType(const std::string& base, int64_t n) {
  return n == 1 ? base : base + std::to_string(n);
}

// The per-lane element type of a block built-in (reference §3.1): VNNI and transposed blocks
// deliver dwords; a row wider than the subgroup packs W / 16 consecutive elements per lane
// (8-bit W = 32: ushort); otherwise one element.
int blockUnitBits(const BlockShape& s) {
  if (s.vnni || s.transpose) return 32;
  return s.elemBits * std::max(1, s.tileWidth / 16);
}

// Parameters of a block built-in (after the name).
std::vector<std::string> blockParameters(const BlockIoOp& op) {
  std::vector<std::string> p{"global void* base_address", "int width", "int height", "int pitch",
                             "int2 coord"};
  const std::string t = unsignedType(blockUnitBits(openclBlockShape(op).value_or(op.shape)));
  if (op.kind == BlockOp::Load) p.push_back("private " + t + "* destination");
  if (op.kind == BlockOp::Store) p.push_back("private " + t + "* data");
  return p;
}

// The DPAS built-in's operand types for the configuration (reference §3.2, SG16).
struct MadSignature {
  std::string name, a, b, acc;
};
MadSignature madSignature(const GemmConfig& c) {
  const auto& t = dataTypeTraits(c.dtype);
  const int m = c.repeatCount;
  const std::string accBase = c.dtype == GemmDataType::Int8 ? "int" : "float";
  if (c.dtype == GemmDataType::TF32)
    return {std::string(t.openclMad), vectorType("float", (m + 1) / 2), "float8",
            vectorType(accBase, m)};
  return {std::string(t.openclMad), vectorType("short", m), "int8", vectorType(accBase, m)};
}

std::string matrixArg(MatrixOperand m) {
  return std::string(matrixName(m));
}
std::string surfacePrefix(MatrixOperand m) {
  switch (m) {
  case MatrixOperand::A:
    return "a";
  case MatrixOperand::B:
    return "b";
  case MatrixOperand::C:
    return "c";
  }
  return "?";
}

// Comment text on one line: no newlines, no line splices.
std::string oneLine(std::string s) {
  for (char& ch : s)
    if (ch == '\n' || ch == '\r') ch = ' ';
  while (!s.empty() && (s.back() == '\\' || s.back() == ' ')) s.pop_back();
  return s;
}

class Emitter {
public:
  explicit Emitter(const GemmKernel& k) : k_(k), mad_(madSignature(k.config)) {}

  std::string run() {
    header();
    prototypes();
    signature();
    out_ << "{\n";
    indent_ = 1;
    workgroupTerms();
    origins();
    line("");
    comment("Prologue.");
    std::set<int> outer;
    ops(k_.prologue, outer);
    line("");
    comment("Main loop: one K step of " + std::to_string(k_.config.kTile) + " per iteration.");
    line("for (int k0 = 0; k0 < K; k0 += " + std::to_string(k_.config.kTile) + ") {");
    ++indent_;
    std::set<int> inner = outer;
    ops(k_.mainLoop, inner);
    --indent_;
    line("}");
    line("");
    comment("Epilogue.");
    ops(k_.epilogue, outer);
    indent_ = 0;
    out_ << "}\n";
    return out_.str();
  }

private:
  const GemmKernel& k_;
  MadSignature mad_;
  std::ostringstream out_;
  int indent_ = 0;

  std::string pad() const { return std::string(static_cast<size_t>(indent_) * 2, ' '); }
  void line(const std::string& s) { out_ << (s.empty() ? "" : pad() + s) << "\n"; }
  // A comment, wrapped at spaces to the column limit.
  void comment(const std::string& s) {
    const std::string text = oneLine(s);
    const size_t room = kColumnLimit > pad().size() + 3 + 20 ? kColumnLimit - pad().size() - 3 : 20;
    size_t start = 0;
    while (text.size() - start > room) {
      size_t cut = text.rfind(' ', start + room);
      if (cut == std::string::npos || cut <= start) cut = text.find(' ', start + room);
      if (cut == std::string::npos) break;
      line("// " + oneLine(text.substr(start, cut - start)));
      start = cut + 1;
    }
    line("// " + text.substr(start));
  }

  // `head(args...)tail`, wrapped at the column limit with continuation lines indented 4 more.
  void call(const std::string& head, const std::vector<std::string>& args,
            const std::string& tail) {
    std::string joined;
    for (size_t i = 0; i < args.size(); ++i) joined += (i ? ", " : "") + args[i];
    if (pad().size() + head.size() + joined.size() + tail.size() <= kColumnLimit) {
      line(head + joined + tail);
      return;
    }
    const std::string cont = pad() + "    ";
    std::string cur = pad() + head;
    bool first = true;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string piece = args[i] + (i + 1 < args.size() ? "," : tail);
      if (first) {
        out_ << cur << "\n";
        cur = cont + piece;
        first = false;
      } else if (cur.size() + 1 + piece.size() > kColumnLimit) {
        out_ << cur << "\n";
        cur = cont + piece;
      } else {
        cur += " " + piece;
      }
    }
    if (args.empty()) cur += tail;
    out_ << cur << "\n";
  }

  void header() {
    const auto& c = k_.config;
    const auto& t = dataTypeTraits(c.dtype);
    out_ << "// " << k_.name << ": generated by layout::codegen::emitOpenCl. Do not edit.\n";
    out_ << "//\n// OpenCL C 2.0 for Intel Xe, subgroup size 16. Built-ins used (declared below):\n"
         << "//   cl_intel_subgroup_2d_block_io (2D block read / write / prefetch),\n"
         << "//   "
         << (c.dtype == GemmDataType::TF32 ? "cl_intel_subgroup_matrix_multiply_accumulate_tf32"
                                           : "cl_intel_subgroup_matrix_multiply_accumulate")
         << " (" << t.openclMad << ").\n";
    out_ << "//\n// Configuration:";
    std::string cfg = "//  ";
    const auto json = gemmConfigToJson(c);
    for (const auto& [key, value] : json.items()) {
      const std::string item = " " + key + " = " + value.dump();
      if (cfg.size() + item.size() + 1 > kColumnLimit) {
        out_ << "\n" << cfg << ",";
        cfg = "//  ";
      } else if (cfg.size() > 4) {
        cfg += ",";
      }
      cfg += item;
    }
    out_ << "\n" << cfg << "\n";
    const auto& l = k_.launch;
    out_ << "//\n// Launch: global size [" << l.workgroupsN * l.localSize() << ", " << l.workgroupsM
         << "], local size [" << l.localSize() << ", 1] (" << l.workgroupsN << " x "
         << l.workgroupsM << " workgroups of " << l.subgroupsPerWorkgroup << " subgroups of "
         << l.subgroupSize << ").\n"
         << "// Group id 0 = the workgroup's tile column, group id 1 = its tile row.\n";
    const KernelBuildOptions options = kernelBuildOptions(k_.config);
    out_ << "//\n// Build options (grf_per_thread = " << k_.config.grfPerThread << "): OpenCL "
         << options.openCl << "; Level Zero "
         << (options.levelZero.empty() ? "(none)" : options.levelZero) << ".\n";
    out_ << "//\n// Arguments: A, B, C, K, then the 2D block surfaces of A, B and C: width (bytes),"
         << "\n// height (rows), pitch (bytes).";
    for (MatrixOperand m : {MatrixOperand::A, MatrixOperand::B, MatrixOperand::C}) {
      const auto s = matrixSurface(c, m);
      out_ << (m == MatrixOperand::A ? " For this configuration:\n//  " : ",") << " "
           << matrixArg(m) << " (" << s.widthBytes << ", " << s.height << ", " << s.pitchBytes
           << ")";
    }
    out_ << ".\n// Requirement: in A and B the bytes between a row's last element and the surface\n"
         << "// width (rows widened to 64 bytes and a multiple of 4) must be zero. The loads read\n"
         << "// them as data (only reads past the width give zeros): A's meet B's zero rows past "
            "K,\n"
         << "// but with B stored N x K the two paddings meet, and Inf or NaN anywhere poisons D.\n"
         << "// C's padding is written";
    out_ << ".\n//\n// Report:\n";
    std::istringstream report(kernelReportText(k_));
    for (std::string l2; std::getline(report, l2);) out_ << "//   " << oneLine(l2) << "\n";
    out_ << "\n";
  }

  void prototypes() {
    out_
        << "// Built-in prototypes (clang-14's opencl-c.h predates them); overloadable gives them\n"
        << "// their mangled OpenCL names.\n";
    std::set<std::string> seen;
    for (const auto* list : {&k_.prologue, &k_.mainLoop, &k_.epilogue})
      for (const Op& op : *list)
        if (const auto* b = std::get_if<BlockIoOp>(&op)) {
          if (seen.insert(openclBlockBuiltinName(*b)).second)
            call("void __attribute__((overloadable)) " + openclBlockBuiltinName(*b) + "(",
                 blockParameters(*b), ");");
        } else if (std::holds_alternative<DpasOp>(op) && seen.insert(mad_.name).second) {
          call(mad_.acc + " __attribute__((overloadable)) " + mad_.name + "(",
               {mad_.a + " a", mad_.b + " b", mad_.acc + " acc"}, ");");
        } else if (const auto* s = std::get_if<SplitBarrierOp>(&op);
                   s && seen.insert(splitBarrierBuiltin(*s)).second) {
          line("void __attribute__((overloadable)) " + splitBarrierBuiltin(*s) +
               "(cl_mem_fence_flags flags);");
        }
    out_ << "\n";
  }

  void signature() {
    const auto& c = k_.config;
    const std::string in = c.dtype == GemmDataType::Int8   ? "char"
                           : c.dtype == GemmDataType::TF32 ? "float"
                                                           : "ushort";
    const std::string acc = c.dtype == GemmDataType::Int8 ? "int" : "float";
    out_ << "__attribute__((intel_reqd_sub_group_size(16)))\n"
         << "__attribute__((reqd_work_group_size(" << k_.launch.localSize() << ", 1, 1)))\n"
         << "kernel void " << k_.name << "(global " << in << "* A, global " << in << "* B, global "
         << acc << "* C, int K,\n"
         << "    int a_width, int a_height, int a_pitch,\n"
         << "    int b_width, int b_height, int b_pitch,\n"
         << "    int c_width, int c_height, int c_pitch)\n";
  }

  void workgroupTerms() {
    comment("Workgroup tile origin (RowTile, ColumnTile) and subgroup id (the layouts' warp).");
    const GemmConfig& c = k_.config;
    const std::string tileM = std::to_string(workgroupTileM(c));
    const std::string tileN = std::to_string(workgroupTileN(c));
    if (c.groupM <= 1) {
      line("const int wg_row = (int)get_group_id(1) * " + tileM + ";");
      line("const int wg_col = (int)get_group_id(0) * " + tileN + ";");
    } else {
      // Grouped order: group ids taken row by row, consecutive workgroups walk group_m tile rows
      // of one column before the next column, so the B columns they read stay in L2.
      const std::string numM = std::to_string(k_.launch.workgroupsM);
      const std::string numN = std::to_string(k_.launch.workgroupsN);
      const std::string perGroup = std::to_string(int64_t{c.groupM} * k_.launch.workgroupsN);
      comment("Grouped workgroup order: group_m = " + std::to_string(c.groupM) + " tile rows.");
      line("const int wg_id = (int)get_group_id(1) * " + numN + " + (int)get_group_id(0);");
      line("const int wg_first_m = wg_id / " + perGroup + " * " + std::to_string(c.groupM) + ";");
      line("const int wg_rows = min(" + numM + " - wg_first_m, " + std::to_string(c.groupM) + ");");
      line("const int wg_row = (wg_first_m + wg_id % " + perGroup + " % wg_rows) * " + tileM + ";");
      line("const int wg_col = (wg_id % " + perGroup + " / wg_rows) * " + tileN + ";");
    }
    line("const int sg = (int)get_sub_group_id();");
  }

  void origins() {
    if (k_.origins.empty()) return;
    line("");
    comment(
        "Subgroup origins: linear layouts warp -> (row, column), in the layout's XOR form: the");
    comment("origin of subgroup sg is the XOR of the bases of sg's set bits.");
    for (const auto& o : k_.origins) {
      const auto& ll = o.layout;
      const int warp = ll.inDimIndex(dims::warp());
      std::string bases;
      for (int i = 0; warp >= 0 && i < ll.inDimSizeLog2(warp); ++i) {
        bases += i ? ", [" : "[";
        for (int d = 0; d < ll.numOutDims(); ++d)
          bases += (d ? ", " : "") + std::to_string(ll.basis(warp, i, d));
        bases += "]";
      }
      comment(o.name + ": warp bases [" + bases + "]");
      for (int axis = 0; axis < 2; ++axis) {
        std::vector<std::string> terms;
        for (int i = 0; warp >= 0 && axis < ll.numOutDims() && i < ll.inDimSizeLog2(warp); ++i) {
          const uint64_t v = ll.basis(warp, i, axis);
          if (v != 0)
            terms.push_back("((sg & " + std::to_string(uint64_t{1} << i) + ") ? " +
                            std::to_string(v) + " : 0)");
        }
        if (terms.empty()) terms.push_back("0");
        // Joined with " ^ ", one term a line when long.
        std::string head = "const int " + o.name + (axis == 0 ? "_row" : "_col") + " = ";
        std::string joined;
        for (size_t i = 0; i < terms.size(); ++i) joined += (i ? " ^ " : "") + terms[i];
        if (pad().size() + head.size() + joined.size() + 1 <= kColumnLimit) {
          line(head + joined + ";");
        } else {
          line(head + terms[0]);
          for (size_t i = 1; i < terms.size(); ++i)
            line("    ^ " + terms[i] + (i + 1 == terms.size() ? ";" : ""));
        }
      }
    }
  }

  std::string axis(const AxisIndex& a) const {
    std::string s;
    auto add = [&](const std::string& term) { s += (s.empty() ? "" : " + ") + term; };
    if (a.workgroup == WorkgroupTerm::RowTile) add("wg_row");
    if (a.workgroup == WorkgroupTerm::ColumnTile) add("wg_col");
    if (a.addK) add("k0");
    if (a.origin >= 0 && a.origin < static_cast<int>(k_.origins.size()))
      add(k_.origins[a.origin].name + (a.originAxis == 0 ? "_row" : "_col"));
    if (a.constant > 0 || (a.constant == 0 && s.empty())) add(std::to_string(a.constant));
    if (a.constant < 0) s += (s.empty() ? "-" : " - ") + std::to_string(-a.constant);
    return s;
  }

  std::string coord(const BlockIoOp& op) const {
    std::string x = axis(op.column);
    if (op.xDivisor > 1)
      x = (x.find(' ') == std::string::npos ? x : "(" + x + ")") + " / " +
          std::to_string(op.xDivisor);
    return "(int2)(" + x + ", " + axis(op.row) + ")";
  }

  // The declared type of a value: load results are arrays of their element type; DPAS operands
  // and accumulators are the vector types the DPAS built-in takes.
  std::string valueType(const RegisterValue& v) const {
    const bool tf32 = k_.config.dtype == GemmDataType::TF32;
    switch (v.role) {
    case ValueRole::LoadResult:
      return unsignedType(v.elementBits);
    case ValueRole::DpasA:
      return vectorType(tf32 ? "float" : "short", v.count);
    case ValueRole::DpasB:
      return vectorType(tf32 ? "float" : "int", v.count);
    case ValueRole::Accumulator:
      return vectorType(k_.config.dtype == GemmDataType::Int8 ? "int" : "float", v.count);
    }
    return "?";
  }

  // `T name` or `name` when the value is already declared in scope; comments the layout once.
  std::string define(int index, std::set<int>& declared) {
    const RegisterValue& v = k_.values.at(static_cast<size_t>(index));
    if (!declared.insert(index).second) return v.name;
    if (!v.layout.empty()) comment(v.name + ": " + v.layout);
    return valueType(v) + " " + v.name;
  }

  void ops(const std::vector<Op>& list, std::set<int>& declared) {
    for (const Op& op : list) {
      if (const auto* b = std::get_if<BlockIoOp>(&op))
        blockIo(*b, declared);
      else if (const auto* s = std::get_if<ShuffleOp>(&op))
        shuffle(*s, declared);
      else if (const auto* d = std::get_if<DpasOp>(&op))
        dpas(*d);
      else if (const auto* z = std::get_if<ZeroOp>(&op))
        zero(*z, declared);
      else if (const auto* s = std::get_if<SplitBarrierOp>(&op))
        splitBarrier(*s);
    }
  }

  void blockIo(const BlockIoOp& op, std::set<int>& declared) {
    const std::string p = surfacePrefix(op.matrix);
    std::vector<std::string> args{matrixArg(op.matrix), p + "_width", p + "_height", p + "_pitch",
                                  coord(op)};
    const std::string unit = unsignedType(blockUnitBits(op.shape));
    if (!op.comment.empty()) comment(op.comment);
    if (const auto shape = openclBlockShape(op); shape && *shape != op.shape)
      comment("issued as " + intel::blockShapeName(*shape) +
              ", the same footprint: OpenCL has no " + intel::blockShapeName(op.shape) +
              " prefetch");
    if (op.kind == BlockOp::Load) {
      const RegisterValue& v = k_.values.at(static_cast<size_t>(op.value));
      if (!declared.count(op.value))
        line(define(op.value, declared) + "[" + std::to_string(v.count) + "];");
      args.push_back(v.elementBits == blockUnitBits(op.shape) ? v.name
                                                              : "(private " + unit + "*)" + v.name);
    } else if (op.kind == BlockOp::Store) {
      // The store reads a copy: taking the accumulator's own address would keep it in memory,
      // loaded and stored around every DPAS of the K loop.
      const RegisterValue& v = k_.values.at(static_cast<size_t>(op.value));
      const std::string vec = unit + (v.count > 1 ? std::to_string(v.count) : "");
      line("{");
      ++indent_;
      line(vec + " stored = as_" + vec + "(" + v.name + ");");
      args.push_back("(private " + unit + "*)&stored");
      call(openclBlockBuiltinName(op) + "(", args, ");");
      --indent_;
      line("}");
      return;
    }
    call(openclBlockBuiltinName(op) + "(", args, ");");
  }

  void shuffle(const ShuffleOp& op, std::set<int>& declared) {
    const RegisterValue& src = k_.values.at(static_cast<size_t>(op.src));
    const RegisterValue& dst = k_.values.at(static_cast<size_t>(op.dst));
    const int unit = op.unitBits, srcBits = src.elementBits;
    const std::string u = unsignedType(unit);
    std::vector<std::string> parts;
    for (int64_t r : op.registers) {
      const int64_t first = r * unit; // the unit's first bit in src's per-lane bit string
      if (unit == srcBits) {
        parts.push_back(src.name + "[" + std::to_string(r) + "]");
      } else if (unit > srcBits) {
        // Several src elements, low to high.
        std::string e;
        for (int j = 0; j < unit / srcBits; ++j) {
          const std::string el =
              "(" + u + ")" + src.name + "[" + std::to_string(first / srcBits + j) + "]";
          e += j == 0 ? el : " | (" + el + " << " + std::to_string(j * srcBits) + ")";
        }
        parts.push_back("(" + u + ")(" + e + ")");
      } else {
        // A slice of one src element.
        const int64_t shift = first % srcBits;
        const std::string el = src.name + "[" + std::to_string(first / srcBits) + "]";
        parts.push_back("(" + u + ")" +
                        (shift ? "(" + el + " >> " + std::to_string(shift) + ")" : el));
      }
    }
    if (!op.comment.empty()) comment(op.comment);
    const std::string type = valueType(dst);
    const std::string lhs = define(op.dst, declared) + " = as_" + type + "(";
    if (parts.size() == 1)
      call(lhs, parts, ");");
    else
      call(lhs + "(" + vectorType(u, static_cast<int64_t>(parts.size())) + ")(", parts, "));");
  }

  void dpas(const DpasOp& op) {
    const auto& v = k_.values;
    const std::string acc = v.at(static_cast<size_t>(op.accumulator)).name;
    comment("DPAS: D[" + std::to_string(op.tileRow) + ".., " + std::to_string(op.tileColumn) +
            "..] += A * B, K step " + std::to_string(op.kStep));
    call(acc + " = " + mad_.name + "(",
         {v.at(static_cast<size_t>(op.a)).name, v.at(static_cast<size_t>(op.b)).name, acc}, ");");
  }

  static std::string splitBarrierBuiltin(const SplitBarrierOp& op) {
    return op.arrive ? "intel_work_group_barrier_arrive" : "intel_work_group_barrier_wait";
  }

  // No memory fence (flags 0): the barrier only keeps the subgroups in step; they share no
  // memory that needs ordering.
  void splitBarrier(const SplitBarrierOp& op) {
    comment(op.arrive ? "split work-group barrier: arrive (this K step has started)"
                      : "split work-group barrier: wait until every subgroup started this K step");
    line(splitBarrierBuiltin(op) + "(0);");
  }

  void zero(const ZeroOp& op, std::set<int>& declared) {
    const RegisterValue& v = k_.values.at(static_cast<size_t>(op.value));
    const std::string type = valueType(v);
    const bool isFloat = type.rfind("float", 0) == 0;
    const std::string z = isFloat ? "0.0f" : "0";
    line(define(op.value, declared) + " = " + (v.count == 1 ? z : "(" + type + ")(" + z + ")") +
         ";");
  }
};

} // namespace

std::optional<BlockShape> openclBlockShape(const BlockIoOp& op) {
  if (hasOpenClBlockBuiltin(op.kind, op.shape)) return op.shape;
  if (op.kind != BlockOp::Prefetch) return std::nullopt;
  // A prefetch moves no data: any block arrangement of the same rows and row bytes will do.
  const int rowElements = op.shape.tileWidth * op.shape.numBlocks;
  for (int nb : {1, 2, 4})
    for (int w : {32, 16, 8}) {
      BlockShape s = op.shape;
      s.tileWidth = w;
      s.numBlocks = nb;
      if (w * nb == rowElements && hasOpenClBlockBuiltin(op.kind, s)) return s;
    }
  return std::nullopt;
}

std::string openclBlockBuiltinName(const BlockIoOp& op) {
  const std::string shape = intel::blockShapeName(openclBlockShape(op).value_or(op.shape));
  switch (op.kind) {
  case BlockOp::Load:
    return "intel_sub_group_2d_block_read_" + shape;
  case BlockOp::Store:
    return "intel_sub_group_2d_block_write_" + shape;
  case BlockOp::Prefetch:
    return "intel_sub_group_2d_block_prefetch_" + shape;
  }
  return "?";
}

std::string emitOpenCl(const GemmKernel& kernel) {
  return Emitter(kernel).run();
}

std::string emitBlockLoadProbe(const intel::BlockShape& shape, const std::string& kernelName,
                               int64_t x, int64_t y, int64_t unitsPerLane) {
  BlockIoOp op;
  op.kind = BlockOp::Load;
  op.shape = shape;
  const std::string builtin = openclBlockBuiltinName(op);
  const std::string unit = unsignedType(blockUnitBits(shape));
  const std::string n = std::to_string(unitsPerLane);
  std::string params;
  for (const std::string& p : blockParameters(op)) params += (params.empty() ? "" : ", ") + p;
  return "// Probe of one " + intel::blockShapeName(shape) + " block load at (x " +
         std::to_string(x) + ", y " + std::to_string(y) + "): lane l writes its " + n +
         " registers to out[l * " + n +
         " ...], as 32-bit words.\n"
         "void __attribute__((overloadable)) " +
         builtin + "(" + params +
         ");\n\n"
         "__attribute__((intel_reqd_sub_group_size(16)))\n"
         "__attribute__((reqd_work_group_size(16, 1, 1)))\n"
         "kernel void " +
         kernelName +
         "(global uchar* source, int width, int height, int pitch, global uint* out) {\n"
         "  " +
         unit + " v[" + n + "];\n  " + builtin + "(source, width, height, pitch, (int2)(" +
         std::to_string(x) + ", " + std::to_string(y) +
         "), v);\n"
         "  const uint lane = get_sub_group_local_id();\n"
         "  for (int i = 0; i < " +
         n + "; ++i) out[lane * " + n + " + i] = (uint)v[i];\n}\n";
}

} // namespace layout::codegen
