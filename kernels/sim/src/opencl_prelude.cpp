// The OpenCL C emulation of Intel's subgroup built-ins (opencl_prelude.h). Written from the
// Khronos texts: cl_intel_subgroup_2d_block_io with SPV_INTEL_2d_block_io ("Mapping Block Data to
// Invocations", "Out-of-Bounds Behavior"), cl_intel_subgroup_matrix_multiply_accumulate[_tf32] and
// cl_intel_subgroups.
#include "layout/kernels/opencl_prelude.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace layout::kernels {

namespace {

constexpr int kLanes = kOpenClPreludeSubGroupSize;

// ---------------------------------------------------------------------------------------------
// Source scanning.

// The kernel text without comments, string and character literals (an identifier named there is
// not a call).
std::string stripComments(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.compare(i, 2, "/*") == 0) {
      const std::size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
      out += ' ';
    } else if (s[i] == '"' || s[i] == '\'') {
      const char quote = s[i++];
      while (i < s.size() && s[i] != quote) i += s[i] == '\\' ? 2 : 1;
      ++i;
      out += ' ';
    } else {
      out += s[i++];
    }
  }
  return out;
}

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Identifiers in the (comment-free) text that belong to the subgroup built-in families.
std::set<std::string> subgroupIdentifiers(std::string_view text) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < text.size();) {
    if (!isIdentChar(text[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && isIdentChar(text[j])) ++j;
    const std::string_view id = text.substr(i, j - i);
    const bool family = id.starts_with("intel_sub_group_") || id.starts_with("intel_convert_") ||
                        id.starts_with("sub_group_") || id.starts_with("get_sub_group_") ||
                        id.starts_with("get_max_sub_group") ||
                        id.starts_with("get_num_sub_groups") ||
                        id.starts_with("get_enqueued_num_sub_groups") ||
                        id.starts_with("intel_work_group_barrier_");
    if (family) names.emplace(id);
    i = j;
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// 2D block I/O.

enum class BlockOp { Read, ReadTransform, ReadTranspose, Write, Prefetch };

struct BlockShape {
  BlockOp op;
  int elemBits;
  int rows;   // block height (pre-transpose)
  int width;  // block width in elements (pre-transpose)
  int blocks; // block count
};

bool oneOf(int v, std::initializer_list<int> set) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

bool powerOfTwoUpTo32(int v) {
  return oneOf(v, {1, 2, 4, 8, 16, 32});
}

// The shapes of the extension's function list (subgroup size 16).
bool blockShapeDefined(const BlockShape& s) {
  const int e = s.elemBits, h = s.rows, w = s.width, nb = s.blocks;
  switch (s.op) {
  case BlockOp::Read:
    return (e == 8 && w == 32 && powerOfTwoUpTo32(h) && oneOf(nb, {1, 2})) ||
           (e == 8 && w == 16 && oneOf(h, {8, 16, 32}) && nb == 4) ||
           (e == 16 && w == 16 && powerOfTwoUpTo32(h) && oneOf(nb, {1, 2})) ||
           (e == 32 && w == 8 && powerOfTwoUpTo32(h) && oneOf(nb, {1, 2})) ||
           (e == 32 && w == 16 && powerOfTwoUpTo32(h) && nb == 1);
  case BlockOp::ReadTransform:
    return (e == 8 && w == 16 && h == 32 && oneOf(nb, {1, 2, 4})) ||
           (e == 16 && w == 16 && oneOf(h, {16, 32}) && oneOf(nb, {1, 2}));
  case BlockOp::ReadTranspose:
    return e == 32 && w == 8 && oneOf(h, {16, 32}) && nb == 1;
  case BlockOp::Write:
    return nb == 1 && oneOf(h, {1, 2, 4, 8}) &&
           ((e == 8 && oneOf(w, {16, 32})) || (e == 16 && w == 16) || (e == 32 && w == 16));
  case BlockOp::Prefetch:
    return (e == 8 && w == 32 && powerOfTwoUpTo32(h) && oneOf(nb, {1, 2})) ||
           (e == 8 && w == 16 && h == 32 && oneOf(nb, {1, 2})) ||
           (e == 8 && w == 16 && oneOf(h, {8, 16, 32}) && nb == 4) ||
           (e == 16 && w == 16 && powerOfTwoUpTo32(h) && oneOf(nb, {1, 2})) ||
           (e == 32 && w == 8 && powerOfTwoUpTo32(h) && oneOf(nb, {1, 2})) ||
           (e == 32 && w == 16 && powerOfTwoUpTo32(h) && nb == 1);
  }
  return false;
}

int nextPowerOfTwo(int v) {
  int p = 1;
  while (p < v) p *= 2;
  return p;
}

// How one block is dealt to the lanes, in units of the per-lane pointer type (SPIR-V: pad the
// block width (the height for transpose) to a power of two, transform or transpose, then deal the
// rows to the lanes, lower columns to lower lanes; several rows per register when a row is
// narrower than the subgroup, several adjacent elements per lane when wider).
struct BlockGeometry {
  const char* unitType; // uchar / ushort / uint
  int unitBytes;
  int mode;          // 0 plain, 1 transform, 2 transpose
  int elemsPerUnit;  // plain: adjacent columns per unit; transform: rows per unit
  int unitsPerRow;   // padded row length, in units
  int unitRows;      // rows after transform / transpose
  int unitsPerBlock; // units a lane holds per block
  int units;         // units a lane holds in all
};

BlockGeometry blockGeometry(const BlockShape& s) {
  const int e = s.elemBits / 8;
  BlockGeometry g{};
  if (s.op == BlockOp::ReadTransform) {
    g.unitBytes = 4;
    g.mode = 1;
    g.elemsPerUnit = 4 / e;
    g.unitsPerRow = nextPowerOfTwo(s.width);
    g.unitRows = (s.rows + g.elemsPerUnit - 1) / g.elemsPerUnit;
  } else if (s.op == BlockOp::ReadTranspose) {
    g.unitBytes = e;
    g.mode = 2;
    g.elemsPerUnit = 1;
    g.unitsPerRow = nextPowerOfTwo(s.rows);
    g.unitRows = s.width;
  } else {
    // A padded row wider than the subgroup packs adjacent elements into one unit (8-bit, 32 wide:
    // ushort); otherwise one element per unit.
    const int paddedWidth = nextPowerOfTwo(s.width);
    g.elemsPerUnit = std::max(1, paddedWidth / kLanes);
    g.unitBytes = e * g.elemsPerUnit;
    g.mode = 0;
    g.unitsPerRow = paddedWidth / g.elemsPerUnit;
    g.unitRows = s.rows;
  }
  g.unitType = g.unitBytes == 1 ? "uchar" : g.unitBytes == 2 ? "ushort" : "uint";
  g.unitsPerBlock = (g.unitRows * g.unitsPerRow + kLanes - 1) / kLanes;
  g.units = g.unitsPerBlock * s.blocks;
  return g;
}

std::string blockGeometryArgs(const BlockShape& s, const BlockGeometry& g) {
  std::ostringstream o;
  o << s.elemBits / 8 << ", " << s.width << ", " << s.rows << ", " << g.mode << ", "
    << g.elemsPerUnit << ", " << g.unitsPerRow << ", " << g.unitRows << ", " << g.unitsPerBlock;
  return o.str();
}

std::string blockFunction(const std::string& name, const BlockShape& s) {
  const BlockGeometry g = blockGeometry(s);
  std::ostringstream o;
  const char* params = "global void* base_address, int width, int height, int pitch, int2 coord";
  if (s.op == BlockOp::Prefetch) {
    o << "void __attribute__((overloadable)) " << name << "(" << params << ") {}\n";
    return o.str();
  }
  const bool write = s.op == BlockOp::Write;
  o << "void __attribute__((overloadable)) " << name << "(" << params << ", private " << g.unitType
    << (write ? "* value)\n{\n" : "* destination)\n{\n");
  o << "  const int lane = (int)layout_sub_group_local_id();\n";
  o << "  for (int i = 0; i < " << g.units << "; ++i)\n";
  if (write) {
    o << "    layout_block_store_unit(base_address, width, height, pitch, coord, "
      << blockGeometryArgs(s, g) << ", i, lane, (uint)value[i]);\n";
  } else {
    o << "    destination[i] = (" << g.unitType
      << ")layout_block_load_unit(base_address, width, height, pitch, coord, "
      << blockGeometryArgs(s, g) << ", i, lane);\n";
  }
  o << "}\n";
  return o.str();
}

// Parses intel_sub_group_2d_block_<op>_<E>b_<H>r<W>x<NB>c; false when the name is not of that
// grammar.
bool parseBlockName(std::string_view name, BlockShape& shape) {
  constexpr std::string_view prefix = "intel_sub_group_2d_block_";
  if (!name.starts_with(prefix)) return false;
  std::string_view rest = name.substr(prefix.size());
  constexpr std::array<std::pair<std::string_view, BlockOp>, 5> ops = {{
      {"read_transform_", BlockOp::ReadTransform},
      {"read_transpose_", BlockOp::ReadTranspose},
      {"read_", BlockOp::Read},
      {"write_", BlockOp::Write},
      {"prefetch_", BlockOp::Prefetch},
  }};
  bool found = false;
  for (const auto& [text, op] : ops) {
    if (rest.starts_with(text)) {
      shape.op = op;
      rest.remove_prefix(text.size());
      found = true;
      break;
    }
  }
  if (!found) return false;
  // <E>b_<H>r<W>x<NB>c
  auto number = [&rest](int& value) {
    std::size_t n = 0;
    value = 0;
    while (n < rest.size() && n < 4 && std::isdigit(static_cast<unsigned char>(rest[n])) != 0)
      value = value * 10 + (rest[n++] - '0');
    if (n == 0 || (rest.size() > n && std::isdigit(static_cast<unsigned char>(rest[n])) != 0))
      return false;
    rest.remove_prefix(n);
    return true;
  };
  auto literal = [&rest](std::string_view text) {
    if (!rest.starts_with(text)) return false;
    rest.remove_prefix(text.size());
    return true;
  };
  return number(shape.elemBits) && literal("b_") && number(shape.rows) && literal("r") &&
         number(shape.width) && literal("x") && number(shape.blocks) && literal("c") &&
         rest.empty();
}

// ---------------------------------------------------------------------------------------------
// Matrix multiply-accumulate.

const char* const kComponents[] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"};

std::string vectorType(const std::string& scalar, int n) {
  return n == 1 ? scalar : scalar + std::to_string(n);
}

std::string component(const std::string& var, int n, int i) {
  return n == 1 ? var : var + "." + kComponents[i];
}

// One overload: A of `aType` x aCount, B of `bType`8, accumulator / result of accType x m.
// `kind` selects the helper: "f16", "bf16", "tf32" (float helper) or an integer form.
struct MadOverload {
  std::string aScalar;
  int aCount;
  std::string bScalar;
  std::string accScalar;
  int m;
};

std::string madFunction(const std::string& name, const MadOverload& v, const std::string& call) {
  std::ostringstream o;
  const std::string accType = vectorType(v.accScalar, v.m);
  const bool floatA = v.aScalar == "float";
  const bool shortAcc = v.accScalar == "short";
  o << accType << " __attribute__((overloadable)) " << name << "("
    << vectorType(v.aScalar, v.aCount) << " a, " << v.bScalar << "8 b, " << accType << " acc)\n{\n";
  o << "  uint av[8], bv[8];\n";
  o << "  " << (v.accScalar == "int" ? "int" : "float") << " cv[8];\n";
  for (int i = 0; i < v.aCount; ++i) {
    const std::string a = component("a", v.aCount, i);
    o << "  av[" << i << "] = " << (floatA ? "as_uint(" + a + ")" : "(uint)(ushort)" + a) << ";\n";
  }
  for (int i = 0; i < 8; ++i)
    o << "  bv[" << i << "] = " << (v.bScalar == "float" ? "as_uint" : "(uint)") << "(b."
      << kComponents[i] << ");\n";
  for (int i = 0; i < v.m; ++i) {
    const std::string c = component("acc", v.m, i);
    o << "  cv[" << i << "] = " << (shortAcc ? "layout_bf16_to_float((uint)(ushort)" + c + ")" : c)
      << ";\n";
  }
  o << "  " << call << ";\n";
  auto result = [&](int i) {
    const std::string c = "cv[" + std::to_string(i) + "]";
    return shortAcc ? "(short)layout_float_to_bf16(" + c + ")" : c;
  };
  if (v.m == 1) {
    o << "  return " << result(0) << ";\n";
  } else {
    o << "  return (" << accType << ")(";
    for (int i = 0; i < v.m; ++i) o << (i ? ", " : "") << result(i);
    o << ");\n";
  }
  o << "}\n";
  return o.str();
}

// All overloads (M = 1, 2, 4, 8) of a matrix-mad name, or "" when the name is not one.
std::string madFunctions(const std::string& name) {
  std::string out;
  const std::array<int, 4> ms = {1, 2, 4, 8};
  auto floatForm = [&](const char* kind, bool bf16) {
    for (int m : ms) {
      const std::string call =
          std::string("layout_mad_float(") + kind + ", " + std::to_string(m) + ", av, bv, cv)";
      out += madFunction(name, {"short", m, "int", "float", m}, call);
      if (bf16) out += madFunction(name, {"short", m, "int", "short", m}, call);
    }
  };
  if (name == "intel_sub_group_f16_f16_matrix_mad_k16") {
    floatForm("LAYOUT_F16", false);
  } else if (name == "intel_sub_group_bf16_bf16_matrix_mad_k16") {
    floatForm("LAYOUT_BF16", true);
  } else if (name == "intel_sub_group_tf32_tf32_matrix_mad_k8") {
    for (int m : ms) {
      const std::string call =
          "layout_mad_float(LAYOUT_TF32, " + std::to_string(m) + ", av, bv, cv)";
      out += madFunction(name, {"float", std::max(1, m / 2), "float", "float", m}, call);
    }
  } else {
    // intel_sub_group_<a>_<b>_matrix_mad_k<K> with <a>, <b> in {i8, u8} (K 32) or {i4, u4} (K 64).
    constexpr std::string_view prefix = "intel_sub_group_";
    if (!std::string_view(name).starts_with(prefix)) return out;
    const std::string rest = name.substr(prefix.size());
    for (const char* bits : {"8", "4"}) {
      const std::string k = std::string(bits) == "8" ? "32" : "64";
      for (const char* sa : {"i", "u"}) {
        for (const char* sb : {"i", "u"}) {
          const std::string form = std::string(sa) + bits + "_" + sb + bits + "_matrix_mad_k" + k;
          if (rest != form) continue;
          const bool signedA = sa[0] == 'i', signedB = sb[0] == 'i';
          for (int m : ms) {
            const std::string call = std::string("layout_mad_int(") + bits + ", " +
                                     (signedA ? "1" : "0") + ", " + (signedB ? "1" : "0") + ", " +
                                     std::to_string(m) + ", av, bv, cv)";
            out += madFunction(
                name, {signedA ? "short" : "ushort", m, signedB ? "int" : "uint", "int", m}, call);
          }
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// cl_intel_subgroups shuffles and the tf32 conversions.

// cl_intel_split_work_group_barrier: arrive lets the work-item go on; wait returns once every
// work-item of the work-group has arrived. A full work-group barrier at the wait gives that (every
// work-item reaching the wait has passed its arrive); arrive needs no action. Both forms of the
// extension (flags, and flags with a memory scope) are defined; the fences are the barrier's.
std::string splitBarrierFunctions(const std::string& name) {
  if (name != "intel_work_group_barrier_arrive" && name != "intel_work_group_barrier_wait")
    return {};
  const bool wait = name == "intel_work_group_barrier_wait";
  const std::string body =
      wait ? "{ barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }\n" : "{}\n";
  return "void __attribute__((overloadable)) " + name + "(cl_mem_fence_flags flags)\n" + body +
         "void __attribute__((overloadable)) " + name +
         "(cl_mem_fence_flags flags, memory_scope scope)\n" + body;
}

std::string shuffleFunctions(const std::string& name) {
  // The source lane: c for shuffle, lane ^ c for shuffle_xor (out of range: modulo 16).
  const std::string source =
      name == "intel_sub_group_shuffle" ? "c" : "(uint)layout_sub_group_local_id() ^ c";
  std::ostringstream o;
  auto define = [&](const std::string& type, const std::string& body) {
    o << type << " __attribute__((overloadable)) " << name << "(" << type << " x, uint c)\n{\n"
      << "  uint w[16];\n"
      << body << "}\n";
  };
  for (const char* t : {"char", "uchar", "short", "ushort"}) {
    const std::string u = std::string(t)[0] == 'u' ? t : std::string("u") + t;
    define(t, "  w[0] = (uint)as_" + u + "(x);\n  layout_shuffle_words(w, 1, " + source +
                  ");\n  return as_" + t + "((" + u + ")w[0]);\n");
  }
  for (const char* t : {"int", "uint", "float"}) {
    for (int n : {1, 2, 4, 8, 16}) {
      const std::string type = vectorType(t, n), words = vectorType("uint", n);
      if (n == 1) {
        define(type, "  w[0] = as_uint(x);\n  layout_shuffle_words(w, 1, " + source +
                         ");\n  return as_" + type + "(w[0]);\n");
      } else {
        define(type, "  vstore" + std::to_string(n) + "(as_" + words + "(x), 0, w);\n" +
                         "  layout_shuffle_words(w, " + std::to_string(n) + ", " + source +
                         ");\n  return as_" + type + "(vload" + std::to_string(n) + "(0, w));\n");
      }
    }
  }
  for (const char* t : {"long", "ulong"}) {
    define(t, "  vstore2(as_uint2(x), 0, w);\n  layout_shuffle_words(w, 2, " + source +
                  ");\n  return as_" + std::string(t) + "(vload2(0, w));\n");
  }
  return o.str();
}

std::string tf32ConvertFunction(const std::string& name) {
  constexpr std::string_view prefix = "intel_convert_tfloat32";
  if (!std::string_view(name).starts_with(prefix)) return "";
  for (int n : {1, 2, 3, 4, 8, 16}) {
    const std::string suffix = n == 1 ? "" : std::to_string(n);
    if (name != std::string(prefix) + suffix + "_as_float" + suffix) continue;
    const std::string type = vectorType("float", n);
    std::ostringstream o;
    o << type << " __attribute__((overloadable)) " << name << "(" << type << " source)\n{\n";
    if (n == 1) {
      o << "  return layout_round_tf32(source);\n";
    } else {
      o << "  " << type << " r;\n";
      for (int i = 0; i < n; ++i) {
        const std::string c = std::string(".s") + "0123456789abcdef"[i];
        o << "  r" << c << " = layout_round_tf32(source" << c << ");\n";
      }
      o << "  return r;\n";
    }
    o << "}\n";
    return o.str();
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// The common part: subgroup queries, scratch, element access, numerics.

constexpr std::string_view kCommon = R"CL(
// Subgroup: 16 consecutive work-items in local linear order (local size 0 a multiple of 16).
#define LAYOUT_SG_SIZE 16
#define LAYOUT_SCRATCH_WORDS @WORDS@
#define LAYOUT_MAX_WORK_ITEMS @MAXWI@

// PoCL declares none of the subgroup queries; the macros keep ours clear of any it may declare.
#define get_sub_group_id layout_sub_group_id
#define get_sub_group_local_id layout_sub_group_local_id
#define get_sub_group_size layout_sub_group_size
#define get_max_sub_group_size layout_max_sub_group_size
#define get_num_sub_groups layout_num_sub_groups
#define get_enqueued_num_sub_groups layout_enqueued_num_sub_groups

uint layout_sub_group_id(void) { return (uint)(get_local_linear_id() / LAYOUT_SG_SIZE); }
uint layout_sub_group_local_id(void) { return (uint)(get_local_linear_id() % LAYOUT_SG_SIZE); }
uint layout_sub_group_size(void) { return LAYOUT_SG_SIZE; }
uint layout_max_sub_group_size(void) { return LAYOUT_SG_SIZE; }
uint layout_num_sub_groups(void)
{
  const size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  return (uint)((n + LAYOUT_SG_SIZE - 1) / LAYOUT_SG_SIZE);
}
uint layout_enqueued_num_sub_groups(void)
{
  const size_t n =
      get_enqueued_local_size(0) * get_enqueued_local_size(1) * get_enqueued_local_size(2);
  return (uint)((n + LAYOUT_SG_SIZE - 1) / LAYOUT_SG_SIZE);
}

// Lanes exchange values here: LAYOUT_SCRATCH_WORDS words per work-item, by global linear id (a
// subgroup's lanes are consecutive in it). Local memory cannot be declared outside a kernel.
global uint layout_scratch[LAYOUT_MAX_WORK_ITEMS * LAYOUT_SCRATCH_WORDS];

// The first word of lane 0 of this subgroup, or -1 past the capacity (the host refuses such
// launches; the guard only keeps memory intact).
long layout_sub_group_slot(void)
{
  const size_t first = get_global_linear_id() - layout_sub_group_local_id();
  if (first + LAYOUT_SG_SIZE > LAYOUT_MAX_WORK_ITEMS) return -1;
  return (long)(first * LAYOUT_SCRATCH_WORDS);
}

// Every lane publishes n words, then reads the n words of lane `source` (mod 16). All work-items
// of the work-group must call it (two barriers).
void layout_shuffle_words(private uint* words, int n, uint source)
{
  const long slot = layout_sub_group_slot();
  const uint lane = layout_sub_group_local_id();
  if (slot >= 0)
    for (int k = 0; k < n; ++k) layout_scratch[slot + lane * LAYOUT_SCRATCH_WORDS + k] = words[k];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (slot >= 0)
    for (int k = 0; k < n; ++k)
      words[k] = layout_scratch[slot + (source % LAYOUT_SG_SIZE) * LAYOUT_SCRATCH_WORDS + k];
  barrier(CLK_GLOBAL_MEM_FENCE);
}

// ---- 2D block I/O (surface: width in bytes, height in rows, pitch in bytes; coord = (x in
// elements, y in rows)). Elements outside [0, width) x [0, height) read as 0 and are not written.

uint layout_surface_load(const global void* base, int width, int height, int pitch, int x, int y,
                         int bytes)
{
  if (x < 0 || y < 0 || y >= height) return 0u;
  const long offset = (long)x * bytes;
  if (offset + bytes > (long)width) return 0u;
  const global uchar* p = (const global uchar*)base + (long)y * pitch + offset;
  uint v = 0u;
  for (int i = 0; i < bytes; ++i) v |= (uint)p[i] << (8 * i);
  return v;
}

void layout_surface_store(global void* base, int width, int height, int pitch, int x, int y,
                          int bytes, uint v)
{
  if (x < 0 || y < 0 || y >= height) return;
  const long offset = (long)x * bytes;
  if (offset + bytes > (long)width) return;
  global uchar* p = (global uchar*)base + (long)y * pitch + offset;
  for (int i = 0; i < bytes; ++i) p[i] = (uchar)(v >> (8 * i));
}

// Unit i of lane `lane`: block i / per_block; within the block, unit flat = (i % per_block) * 16 +
// lane of the padded (transformed / transposed) block of unit_rows rows of row_units units.
// mode 0: a unit is per_unit adjacent elements of one row (lower column in lower bits);
// mode 1 (transform): per_unit consecutive rows of one column (lower row in lower bits);
// mode 2 (transpose): unit (r, c) is element (c, r) of the block.
// Padding (column >= w, row >= h) reads 0.
uint layout_block_load_unit(const global void* base, int width, int height, int pitch, int2 coord,
                            int bytes, int w, int h, int mode, int per_unit, int row_units,
                            int unit_rows, int per_block, int i, int lane)
{
  const int block = i / per_block;
  const int flat = (i % per_block) * LAYOUT_SG_SIZE + lane;
  const int r = flat / row_units, c = flat % row_units;
  if (r >= unit_rows) return 0u;
  const int x0 = coord.x + block * w;
  if (mode == 2)
    return c < h ? layout_surface_load(base, width, height, pitch, x0 + r, coord.y + c, bytes)
                 : 0u;
  uint v = 0u;
  for (int p = 0; p < per_unit; ++p) {
    const int row = mode == 1 ? r * per_unit + p : r;
    const int col = mode == 1 ? c : c * per_unit + p;
    if (row < h && col < w)
      v |= layout_surface_load(base, width, height, pitch, x0 + col, coord.y + row, bytes)
           << (8 * bytes * p);
  }
  return v;
}

// The store counterpart of mode 0 (stores have one block); padding is ignored.
void layout_block_store_unit(global void* base, int width, int height, int pitch, int2 coord,
                             int bytes, int w, int h, int mode, int per_unit, int row_units,
                             int unit_rows, int per_block, int i, int lane, uint v)
{
  const int flat = (i % per_block) * LAYOUT_SG_SIZE + lane;
  const int r = flat / row_units, c = flat % row_units;
  if (r >= unit_rows || r >= h) return;
  for (int p = 0; p < per_unit; ++p) {
    const int col = c * per_unit + p;
    if (col < w)
      layout_surface_store(base, width, height, pitch, coord.x + col, coord.y + r, bytes,
                           v >> (8 * bytes * p));
  }
}

// ---- Numerics.

float layout_f16_to_float(uint h)
{
  const uint sign = (h & 0x8000u) << 16;
  const uint e = (h >> 10) & 31u, m = h & 1023u;
  if (e == 0u) return as_float(as_uint((float)m * 0x1.0p-24f) | sign); // exact
  if (e == 31u) return as_float(sign | 0x7f800000u | (m << 13));
  return as_float(sign | ((e + 112u) << 23) | (m << 13));
}

float layout_bf16_to_float(uint h) { return as_float(h << 16); }

// Round to nearest even; NaN stays a (quiet) NaN.
uint layout_float_to_bf16(float f)
{
  const uint u = as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (u >> 16) | 0x40u;
  return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}

// The DPAS reads a float as tf32: only the top 10 mantissa bits take part.
float layout_tf32_operand(uint u) { return as_float(u & 0xffffe000u); }

// intel_convert_tfloat32_as_float: round to the nearest tf32 (ties to even).
float layout_round_tf32(float f)
{
  const uint u = as_uint(f);
  if ((u & 0x7f800000u) == 0x7f800000u)
    return (u & 0x007fffffu) != 0u ? as_float((u & 0xffffe000u) | 0x00400000u) : f;
  return as_float((u + 0x0fffu + ((u >> 13) & 1u)) & 0xffffe000u);
}

#define LAYOUT_F16 0
#define LAYOUT_BF16 1
#define LAYOUT_TF32 2

// Products are exact in fp32, so contraction would not change them; off so the sums stay
// one rounding per addition in any case.
#pragma OPENCL FP_CONTRACT OFF

// D = A * B + C for one lane's column (lane n: B[k][n] in b, C[r][n] in acc[r]). A is shared
// through the scratch:
//   f16 / bf16 (K 16): A[r][k] = component r of lane k (16 bits);
//   tf32 (K 8): A[r][k] = component r / 2 of lane (r % 2) * 8 + k;
// B: f16 / bf16: B[k][n] = 16-bit half k % 2 of b[k / 2] (lower row low); tf32: b[k].
// Each element: acc + A[r][0] B[0][n] + ... + A[r][K-1] B[K-1][n], in k order, one fp32 RNE rounding
// per step of the exact product (fma).
void layout_mad_float(int kind, int m, const private uint* a, const private uint* b,
                      private float* acc)
{
  const uint lane = layout_sub_group_local_id();
  const int words = kind == LAYOUT_TF32 ? (m + 1) / 2 : m;
  const long slot = layout_sub_group_slot();
  if (slot >= 0)
    for (int k = 0; k < words; ++k) layout_scratch[slot + lane * LAYOUT_SCRATCH_WORDS + k] = a[k];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (slot >= 0) {
    const global uint* sg = layout_scratch + slot;
    const int depth = kind == LAYOUT_TF32 ? 8 : 16;
    for (int r = 0; r < m; ++r) {
      float s = acc[r];
      for (int k = 0; k < depth; ++k) {
        float x, y;
        if (kind == LAYOUT_TF32) {
          x = layout_tf32_operand(sg[((r % 2) * 8 + k) * LAYOUT_SCRATCH_WORDS + r / 2]);
          y = layout_tf32_operand(b[k]);
        } else {
          const uint ab = sg[k * LAYOUT_SCRATCH_WORDS + r] & 0xffffu;
          const uint bb = (b[k / 2] >> (16 * (k % 2))) & 0xffffu;
          x = kind == LAYOUT_F16 ? layout_f16_to_float(ab) : layout_bf16_to_float(ab);
          y = kind == LAYOUT_F16 ? layout_f16_to_float(bb) : layout_bf16_to_float(bb);
        }
        // fma: the product exact even where it leaves the fp32 range, one rounding per step.
        s = fma(x, y, s);
      }
      acc[r] = s;
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

// Field `index` of `bits` bits of v, sign-extended when `is_signed`.
int layout_field(uint v, int bits, int index, int is_signed)
{
  const uint f = (v >> (bits * index)) & ((1u << bits) - 1u);
  return is_signed && (f >> (bits - 1)) ? (int)f - (1 << bits) : (int)f;
}

// Integer D = A * B + C, K = 256 / bits: A[r][k] = field k % (16 / bits) of component r of lane
// k / (16 / bits); B[k][n] = field k % (32 / bits) of b[k / (32 / bits)]. Result: the low 32 bits
// of the exact sum.
void layout_mad_int(int bits, int signed_a, int signed_b, int m, const private uint* a,
                    const private uint* b, private int* acc)
{
  const uint lane = layout_sub_group_local_id();
  const long slot = layout_sub_group_slot();
  if (slot >= 0)
    for (int k = 0; k < m; ++k) layout_scratch[slot + lane * LAYOUT_SCRATCH_WORDS + k] = a[k];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (slot >= 0) {
    const global uint* sg = layout_scratch + slot;
    const int depth = 256 / bits, per_a = 16 / bits, per_b = 32 / bits;
    for (int r = 0; r < m; ++r) {
      uint s = as_uint(acc[r]);
      for (int k = 0; k < depth; ++k) {
        const int x = layout_field(sg[(k / per_a) * LAYOUT_SCRATCH_WORDS + r], bits, k % per_a,
                                   signed_a);
        const int y = layout_field(b[k / per_b], bits, k % per_b, signed_b);
        s += (uint)(x * y);
      }
      acc[r] = as_int(s);
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

#pragma OPENCL FP_CONTRACT DEFAULT
)CL";

std::string replaceAll(std::string text, std::string_view from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at))
    text.replace(at, from.size(), to), at += to.size();
  return text;
}

bool isQuery(const std::string& name) {
  return name == "get_sub_group_id" || name == "get_sub_group_local_id" ||
         name == "get_sub_group_size" || name == "get_max_sub_group_size" ||
         name == "get_num_sub_groups" || name == "get_enqueued_num_sub_groups";
}

const char* blockOpText(BlockOp op) {
  switch (op) {
  case BlockOp::Read:
    return "read";
  case BlockOp::ReadTransform:
    return "read_transform";
  case BlockOp::ReadTranspose:
    return "read_transpose";
  case BlockOp::Write:
    return "write";
  case BlockOp::Prefetch:
    return "prefetch";
  }
  return "?";
}

} // namespace

Expected<std::string> openClIntelPrelude(std::string_view kernelSource) {
  std::string definitions;
  for (const std::string& name : subgroupIdentifiers(stripComments(kernelSource))) {
    if (isQuery(name)) continue;
    BlockShape shape{};
    if (parseBlockName(name, shape)) {
      if (!blockShapeDefined(shape))
        return makeError("OpenCL prelude: " + name + ": cl_intel_subgroup_2d_block_io defines no " +
                         blockOpText(shape.op) + " of " + std::to_string(shape.elemBits) + "-bit " +
                         std::to_string(shape.rows) + " rows x " + std::to_string(shape.width) +
                         " columns x " + std::to_string(shape.blocks) +
                         " blocks for subgroup size 16");
      definitions += blockFunction(name, shape);
      continue;
    }
    std::string text = madFunctions(name);
    if (text.empty() &&
        (name == "intel_sub_group_shuffle" || name == "intel_sub_group_shuffle_xor"))
      text = shuffleFunctions(name);
    if (text.empty()) text = tf32ConvertFunction(name);
    if (text.empty()) text = splitBarrierFunctions(name);
    if (text.empty())
      return makeError(
          "OpenCL prelude: unsupported subgroup built-in '" + name +
          "' (emulated: 2D block read/write/prefetch, the matrix_mad forms, "
          "intel_sub_group_shuffle[_xor], intel_convert_tfloat32*, the split work-group "
          "barrier, subgroup queries)");
    definitions += text;
  }
  std::string out =
      "// ---- Emulated Intel subgroup built-ins for OpenCL devices without subgroups "
      "(layout::kernels::openClIntelPrelude). ----\n";
  out += replaceAll(replaceAll(std::string(kCommon), "@WORDS@",
                               std::to_string(kOpenClPreludeScratchWordsPerWorkItem)),
                    "@MAXWI@", std::to_string(kOpenClPreludeMaxWorkItems));
  out += "\n";
  out += definitions;
  out += "// ---- End of the emulated built-ins. ----\n\n";
  return out;
}

} // namespace layout::kernels
