// Intel DPAS layouts (#ttig.dpas / #triton_intel_gpu.dpas and #ttg.dot_op of a dpas parent):
//
// 1. Seed 002 (docs/seeds.md (seed 002), "Using Linear Layout for Intel 2D Block
//    Loads") prints two triton-tensor-layout hardware views, Warp0 of operand A (256x32, opIdx 0,
//    kWidth 1) and of operand B (32x256, opIdx 1, kWidth 2). They are reproduced byte for byte
//    through layout::triton::layoutStr from the transcriptions in tests/data/seed002 (the
//    encodings are read from the transcribed tensor types themselves).
// 2. The seed's per-work-item DPAS A and B tables, rendered from LinearLayout::apply in the seed's
//    format and compared byte for byte (the header rows carry no layout data and are a fixed
//    template; one documented typo in the B table is corrected before comparing, see INDEX.md).
// 3. An element model of the DPAS operand distribution written from the prose of
//    docs/reference/intel-xe.md §3.2 (which work-item and register hold A[m][k], B[k][n],
//    C[m][n] of one instruction) and of the tile arrangement of §1.3 (repCluster, warps,
//    repetitions, broadcast), without calling the library, compared with the GF(2) layouts for
//    every legal (executionSize, repeatCount, opsPerChan) and several warpsPerCTA / repCluster /
//    shapes.
// 4. Verifier and conversion errors: the message names the rule and carries "line L, column C".
#include "layout/core/linear_layout.h"
#include "layout/triton/encoding.h"
#include "layout/triton/layout_views.h"

#include "support/test_data.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using layout::LinearLayout;
namespace dims = layout::dims;

std::string readSeed002(const std::string& name) {
  return layout_test::readDataFile("seed002/" + name);
}

// "tensor<256x32xf16, #ttg.dot_op<...>>\n" -> shape {256, 32} and the encoding text.
struct TensorType {
  std::vector<int64_t> shape;
  std::string encoding;
};

TensorType parseTensorType(std::string line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
  TensorType t;
  EXPECT_EQ(line.rfind("tensor<", 0), 0u) << line;
  const size_t comma = line.find(", ");
  std::string dimsText = line.substr(7, comma - 7); // 256x32xf16
  t.encoding = line.substr(comma + 2, line.size() - comma - 3);
  std::stringstream ss(dimsText);
  std::string part;
  while (std::getline(ss, part, 'x'))
    if (!part.empty() && std::isdigit(static_cast<unsigned char>(part[0])))
      t.shape.push_back(std::stoll(part));
  return t;
}

// The Warp0 block of a hardware view ("Warp0:" up to the next "Warp1:").
std::string warp0Block(const std::string& view) {
  const size_t start = view.find("Warp0:\n");
  const size_t end = view.find("Warp1:\n");
  EXPECT_NE(start, std::string::npos);
  return view.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

struct Converted {
  layout::triton::Encoding enc;
  LinearLayout ll;
};

Converted convert(const std::string& text, const std::vector<int64_t>& shape) {
  auto enc = layout::triton::parseEncoding(text);
  EXPECT_TRUE(enc.ok()) << text << ": " << (enc ? "" : enc.error().message);
  if (!enc) return {};
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  EXPECT_TRUE(ll.ok()) << text << ": " << (ll ? "" : ll.error().message);
  if (!ll) return {*enc, LinearLayout()};
  return {*enc, *ll};
}

std::vector<uint64_t> apply(const LinearLayout& ll, uint64_t reg, uint64_t lane, uint64_t warp) {
  std::vector<uint64_t> ins(size_t(ll.numInDims()), 0), out(size_t(ll.numOutDims()), 0);
  for (auto [name, v] :
       {std::pair{dims::reg(), reg}, std::pair{dims::lane(), lane}, std::pair{dims::warp(), warp}})
    if (int d = ll.inDimIndex(name); d >= 0) ins[size_t(d)] = v;
  ll.apply(ins, out);
  return out;
}

// ---- 1. The hardware views ------------------------------------------------------------------

TEST(Seed002DpasTest, OperandAHardwareViewMatchesSeed) {
  TensorType t = parseTensorType(readSeed002("dpas_a_type.txt"));
  ASSERT_EQ(t.shape, (std::vector<int64_t>{256, 32}));
  Converted c = convert(t.encoding, t.shape);
  EXPECT_EQ(c.enc.text().rfind("#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8", 0),
            0u)
      << c.enc.text();
  const std::string view = *layout::triton::layoutStr(c.enc, c.ll, t.shape, /*hwView=*/true);
  EXPECT_EQ(warp0Block(view), readSeed002("dpas_a_hw_view.txt"));
  // The whole view has the 32 warps of warpsPerCTA = [8, 4], 64 registers x 16 lanes each.
  EXPECT_NE(view.find("Warp31:\n"), std::string::npos);
  EXPECT_EQ(view.find("Warp32:\n"), std::string::npos);
}

TEST(Seed002DpasTest, OperandBHardwareViewMatchesSeed) {
  TensorType t = parseTensorType(readSeed002("dpas_b_type.txt"));
  ASSERT_EQ(t.shape, (std::vector<int64_t>{32, 256}));
  Converted c = convert(t.encoding, t.shape);
  const std::string view = *layout::triton::layoutStr(c.enc, c.ll, t.shape, /*hwView=*/true);
  EXPECT_EQ(warp0Block(view), readSeed002("dpas_b_hw_view.txt"));
}

TEST(Seed002DpasTest, TritonIntelGpuPrefixReadsAsTtig) {
  const std::string params = "<{repeatCount = 8, systolicDepth = 8, executionSize = 16, "
                             "opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], "
                             "repCluster = [2, 1]}>";
  auto longForm = layout::triton::parseEncoding("#triton_intel_gpu.dpas" + params);
  auto shortForm = layout::triton::parseEncoding("#ttig.dpas" + params);
  ASSERT_TRUE(longForm && shortForm);
  EXPECT_EQ(longForm->kind, layout::triton::EncodingKind::IntelDpas);
  EXPECT_EQ(longForm->text(), "#ttig.dpas" + params);
  EXPECT_EQ(longForm->text(), shortForm->text());
  const std::vector<int64_t> shape = {64, 64};
  auto a = layout::triton::toLinearLayout(*longForm, shape);
  auto b = layout::triton::toLinearLayout(*shortForm, shape);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a, *b);
}

// §1.2's bases, spelled out for the accumulator of the seed's parent on a 256x256 tensor.
TEST(Seed002DpasTest, AccumulatorBasesFollowTheCompositionOrder) {
  Converted c = convert("#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, "
                        "opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], "
                        "repCluster = [4, 2]}>",
                        {256, 256});
  auto want = LinearLayout::create(
      {{dims::reg(), {{1, 0}, {2, 0}, {4, 0}, {0, 16}, {8, 0}, {16, 0}, {0, 128}}},
       {dims::lane(), {{0, 1}, {0, 2}, {0, 4}, {0, 8}}},
       {dims::warp(), {{0, 32}, {0, 64}, {32, 0}, {64, 0}, {128, 0}}},
       {dims::block(), {}}},
      {{dims::standardOut(0), 256}, {dims::standardOut(1), 256}});
  ASSERT_TRUE(want.ok());
  EXPECT_EQ(c.ll, *want) << c.ll.toString();
}

// CTA-layout fields, like the other encodings: the repetitions cover one CTA's shape and the
// block bases split the tensor (upstream's DPAS layouts always have one CTA).
TEST(Seed002DpasTest, CtaLayoutFieldsSplitTheTensor) {
  Converted c = convert("#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, "
                        "opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], "
                        "repCluster = [1, 1], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], "
                        "CTAOrder = [1, 0]}>",
                        {16, 16});
  auto want = LinearLayout::create({{dims::reg(), {{1, 0}, {2, 0}, {4, 0}}},
                                    {dims::lane(), {{0, 1}, {0, 2}, {0, 4}, {0, 8}}},
                                    {dims::warp(), {}},
                                    {dims::block(), {{8, 0}}}},
                                   {{dims::standardOut(0), 16}, {dims::standardOut(1), 16}});
  ASSERT_TRUE(want.ok());
  EXPECT_EQ(c.ll, *want) << c.ll.toString();
}

// ---- 2. The per-work-item DPAS tables -------------------------------------------------------

const char* kTableHeader =
    "| WI 0 | WI 1 | WI 2 | WI 3 | WI 4 | WI 5 | WI 6 | WI 7 | WI 8 | WI 9 | WI 10 | WI 11 | WI 12 "
    "| WI 13 | WI 14 | WI 15 |\n"
    "|:----:|:----:|:----:|:----:|:----:|:----:|:----:|------|:----:|:----:|:-----:|:-----:|-------"
    "|:-----:|:-----:|:-----:|\n";

std::string cell(const std::vector<uint64_t>& c) {
  return std::to_string(c[0]) + ", " + std::to_string(c[1]);
}

TEST(Seed002DpasTest, OperandAWorkItemTableMatchesSeed) {
  TensorType t = parseTensorType(readSeed002("dpas_a_type.txt"));
  Converted c = convert(t.encoding, t.shape);
  // One DPAS A operand: the first repeatCount (8) registers of warp 0; row r = register r.
  std::string table = kTableHeader;
  for (uint64_t r = 0; r < 8; ++r) {
    table += "|";
    for (uint64_t lane = 0; lane < 16; ++lane) table += " " + cell(apply(c.ll, r, lane, 0)) + " |";
    table += "\n";
  }
  EXPECT_EQ(table, readSeed002("dpas_a_work_items.txt"));
}

TEST(Seed002DpasTest, OperandBWorkItemTableMatchesSeed) {
  TensorType t = parseTensorType(readSeed002("dpas_b_type.txt"));
  Converted c = convert(t.encoding, t.shape);
  // One DPAS B operand: 16 registers of warp 0; row j = the dword of registers 2j (low half) and
  // 2j + 1 (high half), "low : high".
  std::string table = kTableHeader;
  for (uint64_t j = 0; j < 8; ++j) {
    table += "|";
    for (uint64_t lane = 0; lane < 16; ++lane)
      table += " " + cell(apply(c.ll, 2 * j, lane, 0)) + " : " +
               cell(apply(c.ll, 2 * j + 1, lane, 0)) + " |";
    table += "\n";
  }
  // The seed's typo (INDEX.md): the WI 9 column writes "<row> , 9" with a space before the comma
  // in each of its 8 rows, and nowhere else.
  std::string seed = readSeed002("dpas_b_work_items.txt");
  size_t typos = 0;
  for (size_t pos = seed.find(" , 9 |"); pos != std::string::npos; pos = seed.find(" , 9 |", pos)) {
    const size_t lineStart = seed.rfind('\n', pos) + 1;
    size_t bars = 0;
    for (size_t i = lineStart; i < pos; ++i) bars += seed[i] == '|';
    EXPECT_EQ(bars, 10u) << "the typo should be in the WI 9 column";
    seed.replace(pos, 6, ", 9 |");
    ++typos;
  }
  EXPECT_EQ(typos, 8u);
  EXPECT_EQ(table, seed);
}

// ---- 3. Element model from the prose of intel-xe.md §3.2 and §1.3 ----------------------------

// One DPAS instruction, sub-group size N = executionSize (SG16 on PVC/BMG, SG8 on ATS-M/DG2).
// K = systolicDepth * opsPerChan. `slot` is the work-item's register index within the
// instruction: value component c of a packed value holding p sub-elements is slots c*p .. c*p+p-1,
// the lower sub-element (lower bits) first.
struct Dpas {
  int64_t rc, es, opc;
  int64_t k() const { return 8 * opc; }
};

struct RowCol {
  int64_t row, col;
};

// §3.2 "A is contributed across lanes by columns, lower lanes = lower columns. If N < K, several
// columns are packed per value (lower column in lower bits). If N > K, each lane contributes every
// (N/K)-th row (lower lanes the even rows)." One value component per row (per N/K rows if N > K).
int64_t modelASlots(const Dpas& d) {
  return d.k() >= d.es ? d.rc * (d.k() / d.es) : d.rc / (d.es / d.k());
}
RowCol modelA(const Dpas& d, int64_t lane, int64_t slot) {
  if (d.k() >= d.es) {
    const int64_t pack = d.k() / d.es; // columns per value
    return {slot / pack, pack * lane + slot % pack};
  }
  const int64_t groups = d.es / d.k(); // rows per value
  return {groups * slot + lane / d.k(), lane % d.k()};
}

// "B: each lane one column; <= 16-bit elements are packed along K into 32-bit values (lower row
// in lower bits)": opsPerChan rows per dword, dword j holds rows opc*j .. opc*j + opc - 1.
int64_t modelBSlots(const Dpas& d) {
  return d.k();
}
RowCol modelB(const Dpas& d, int64_t lane, int64_t slot) {
  const int64_t dword = slot / d.opc, sub = slot % d.opc;
  return {d.opc * dword + sub, lane};
}

// "C and result: lane n = column n, component r = row r."
int64_t modelCSlots(const Dpas& d) {
  return d.rc;
}
RowCol modelC(const Dpas& /*d*/, int64_t lane, int64_t slot) {
  return {slot, lane};
}

// §1.3 arrangement, per operand: instruction tiles are repeated in registers by repCluster (A:
// along M; B: along N; C: along N, then M), spread over warps (warp id = wm * warpsN + wn; A
// ignores wn, B ignores wm; batch warps above), then repeated in registers to cover the tensor
// (A: K then M; B: K then N; C: N then M; then the batch), the repetition counts being
// max(1, size / (per-warp tile * warps)). Coordinates beyond the tensor wrap (broadcast).
struct Config {
  std::vector<int64_t> warps, cluster, shape; // rank 2 or 3
};

struct Model {
  int64_t slots = 0, regs = 0, lanes = 0, warps = 0;
  std::vector<int64_t> shape;
  std::function<std::vector<int64_t>(int64_t, int64_t, int64_t)> at; // (reg, lane, warp) -> coords
};

int64_t reps(int64_t size, int64_t perWarp, int64_t nWarps) {
  return std::max<int64_t>(1, size / (perWarp * nWarps));
}

Model model(const Dpas& d, int opIdx, const Config& cfg) {
  const int rank = int(cfg.shape.size());
  const int64_t M = cfg.shape[rank - 2], N = cfg.shape[rank - 1];
  const int64_t WM = cfg.warps[rank - 2], WN = cfg.warps[rank - 1];
  const int64_t CM = cfg.cluster[rank - 2], CN = cfg.cluster[rank - 1];
  const int64_t WB = rank == 3 ? cfg.warps[0] : 1;
  const int64_t repsB = rank == 3 ? reps(cfg.shape[0], 1, WB) : 1;
  Model m;
  m.lanes = d.es;
  m.warps = WM * WN * WB;
  m.shape = cfg.shape;
  int64_t cluster = 0, repsInner = 0, repsOuter = 0;
  if (opIdx == 0) {
    m.slots = modelASlots(d), cluster = CM;
    repsInner = reps(N, d.k(), 1), repsOuter = reps(M, d.rc * CM, WM);
  } else if (opIdx == 1) {
    m.slots = modelBSlots(d), cluster = CN;
    repsInner = reps(M, d.k(), 1), repsOuter = reps(N, d.es * CN, WN);
  } else {
    m.slots = modelCSlots(d), cluster = CN * CM;
    repsInner = reps(N, d.es * CN, WN), repsOuter = reps(M, d.rc * CM, WM);
  }
  m.regs = m.slots * cluster * repsInner * repsOuter * repsB;
  m.at = [=](int64_t reg, int64_t lane, int64_t warp) {
    const int64_t wn = warp % WN, wm = warp / WN % WM, wb = warp / (WN * WM);
    int64_t slot = reg % m.slots, rest = reg / m.slots;
    const int64_t c = rest % cluster;
    rest /= cluster;
    const int64_t inner = rest % repsInner;
    rest /= repsInner;
    const int64_t outer = rest % repsOuter;
    const int64_t rb = rest / repsOuter;
    int64_t row = 0, col = 0;
    if (opIdx == 0) {
      RowCol e = modelA(d, lane, slot);
      row = e.row + d.rc * c + d.rc * CM * wm + d.rc * CM * WM * outer;
      col = e.col + d.k() * inner;
    } else if (opIdx == 1) {
      RowCol e = modelB(d, lane, slot);
      row = e.row + d.k() * inner;
      col = e.col + d.es * c + d.es * CN * wn + d.es * CN * WN * outer;
    } else {
      RowCol e = modelC(d, lane, slot);
      const int64_t cn = c % CN, cm = c / CN;
      row = e.row + d.rc * cm + d.rc * CM * wm + d.rc * CM * WM * outer;
      col = e.col + d.es * cn + d.es * CN * wn + d.es * CN * WN * inner;
    }
    std::vector<int64_t> out;
    if (rank == 3) out.push_back((wb + WB * rb) % cfg.shape[0]);
    out.push_back(row % M);
    out.push_back(col % N);
    return out;
  };
  return m;
}

std::string dpasText(const Dpas& d, const Config& cfg) {
  auto list = [](const std::vector<int64_t>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
  };
  return "#ttig.dpas<{repeatCount = " + std::to_string(d.rc) +
         ", systolicDepth = 8, executionSize = " + std::to_string(d.es) +
         ", opsPerChan = " + std::to_string(d.opc) + ", threadsPerWarp = " + std::to_string(d.es) +
         ", warpsPerCTA = " + list(cfg.warps) + ", repCluster = " + list(cfg.cluster) + "}>";
}

std::string operandText(const Dpas& d, const Config& cfg, int opIdx) {
  if (opIdx == 2) return dpasText(d, cfg);
  const int64_t kWidth = opIdx == 1 ? d.opc : (d.opc == 1 ? 1 : d.opc / 2);
  return "#ttg.dot_op<{opIdx = " + std::to_string(opIdx) + ", parent = " + dpasText(d, cfg) +
         ", kWidth = " + std::to_string(kWidth) + "}>";
}

// Where Triton's DPAStoLinearLayout has no layout (it would need more lanes than the sub-group):
// operand A whose packed row (K / (opsPerChan == 4 ? 2 : 1) columns) is wider than the sub-group,
// i.e. every SG8 A and the 4-bit (opsPerChan 8) A. And the dot_op rule for A:
// repeatCount * (opsPerChan == 1 ? 8 : 16) >= threadsPerWarp.
bool convertible(const Dpas& d, int opIdx) {
  if (opIdx != 0) return true;
  const int64_t cols = d.k() / (d.opc == 4 ? 2 : 1);
  return cols <= d.es && d.rc * (d.opc == 1 ? 8 : 16) >= d.es;
}

TEST(Seed002DpasTest, ElementModelOfSection32MatchesEveryLegalInstruction) {
  const std::vector<Config> configs = {
      {{1, 1}, {1, 1}, {8, 16}},          {{1, 1}, {1, 1}, {64, 64}},
      {{2, 2}, {2, 1}, {64, 64}},         {{4, 1}, {1, 2}, {128, 32}},
      {{1, 4}, {4, 2}, {32, 256}},        {{8, 4}, {4, 2}, {256, 256}},
      {{2, 2}, {2, 2}, {16, 16}},         {{2, 1, 2}, {1, 2, 1}, {4, 32, 64}},
      {{1, 2, 2}, {1, 1, 2}, {2, 64, 32}}};
  int compared = 0, rejected = 0;
  for (int64_t es : {16, 8})
    for (int64_t rc : {1, 2, 4, 8})
      for (int64_t opc : {1, 2, 4}) { // Intel's DpasEncodingAttr::verify: opsPerChannel 1, 2, 4
        if (es == 8 && opc == 1) continue; // §3.2: no tf32 on SG8
        const Dpas d{rc, es, opc};
        for (const Config& cfg : configs)
          for (int opIdx = 0; opIdx < 3; ++opIdx) {
            const std::string text = operandText(d, cfg, opIdx);
            SCOPED_TRACE(text);
            auto enc = layout::triton::parseEncoding(text);
            ASSERT_TRUE(enc.ok()) << enc.error().message;
            auto ll = layout::triton::toLinearLayout(*enc, cfg.shape);
            if (!convertible(d, opIdx)) {
              ASSERT_FALSE(ll.ok());
              EXPECT_NE(ll.error().message.find("line 1, column "), std::string::npos)
                  << ll.error().message;
              ++rejected;
              continue;
            }
            ASSERT_TRUE(ll.ok()) << ll.error().message;
            Model m = model(d, opIdx, cfg);
            ASSERT_EQ(ll->inDimSize(dims::reg()), uint64_t(m.regs));
            ASSERT_EQ(ll->inDimSize(dims::lane()), uint64_t(m.lanes));
            ASSERT_EQ(ll->inDimSize(dims::warp()), uint64_t(m.warps));
            for (size_t o = 0; o < cfg.shape.size(); ++o)
              ASSERT_EQ(ll->outDimSize(int(o)), uint64_t(cfg.shape[o]));
            for (int64_t w = 0; w < m.warps; ++w)
              for (int64_t l = 0; l < m.lanes; ++l)
                for (int64_t r = 0; r < m.regs; ++r) {
                  std::vector<uint64_t> got = apply(*ll, uint64_t(r), uint64_t(l), uint64_t(w));
                  std::vector<int64_t> want = m.at(r, l, w);
                  ASSERT_EQ(std::vector<int64_t>(got.begin(), got.end()), want)
                      << "register " << r << ", lane " << l << ", warp " << w;
                }
            ++compared;
          }
      }
  EXPECT_GT(compared, 400);
  EXPECT_GT(rejected, 50);
  // opsPerChan 8 is no DPAS instruction for Intel's verifier.
  auto eight = layout::triton::parseEncoding(operandText(Dpas{8, 16, 8}, configs[0], 0));
  ASSERT_FALSE(eight.ok());
  EXPECT_NE(eight.error().message.find("opsPerChannel must be 1, 2 or 4, but was:8"),
            std::string::npos)
      << eight.error().message;
}

// The worked example of §3.2 (SG16 f16 k16): lane 3 passes a.s5 = A[5][3]; b.s5 of lane 3 holds
// B[10][3] (low) and B[11][3] (high); result.s5 of lane 3 is D[5][3]. And int8: a.s5 of lane 3 =
// A[5][6] | A[5][7] << 8.
TEST(Seed002DpasTest, WorkedExampleOfSection32) {
  const std::string parent = "parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, "
                             "executionSize = 16, opsPerChan = OPC, threadsPerWarp = 16, "
                             "warpsPerCTA = [1, 1], repCluster = [1, 1]}>";
  auto with = [&](const std::string& head, const char* opc, const std::string& tail) {
    std::string p = parent;
    p.replace(p.find("OPC"), 3, opc);
    return head + p + tail;
  };
  Converted a = convert(with("#ttg.dot_op<{opIdx = 0, ", "2", ", kWidth = 1}>"), {8, 16});
  EXPECT_EQ(apply(a.ll, 5, 3, 0), (std::vector<uint64_t>{5, 3}));
  Converted b = convert(with("#ttg.dot_op<{opIdx = 1, ", "2", ", kWidth = 2}>"), {16, 16});
  EXPECT_EQ(apply(b.ll, 10, 3, 0), (std::vector<uint64_t>{10, 3}));
  EXPECT_EQ(apply(b.ll, 11, 3, 0), (std::vector<uint64_t>{11, 3}));
  Converted acc = convert("#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, "
                          "opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], "
                          "repCluster = [1, 1]}>",
                          {8, 16});
  EXPECT_EQ(apply(acc.ll, 5, 3, 0), (std::vector<uint64_t>{5, 3}));
  Converted i8 = convert(with("#ttg.dot_op<{opIdx = 0, ", "4", ", kWidth = 2}>"), {8, 32});
  EXPECT_EQ(apply(i8.ll, 10, 3, 0), (std::vector<uint64_t>{5, 6}));
  EXPECT_EQ(apply(i8.ll, 11, 3, 0), (std::vector<uint64_t>{5, 7}));
}

// Sub-group 32 (threadsPerWarp = 32 > executionSize = 16): §1.2's rows-per-warp rules, lanes
// 16-31 take the next row (C, A) or the next K-pair (B).
TEST(Seed002DpasTest, SubGroup32Bases) {
  const std::string parent = "#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, "
                             "opsPerChan = 2, threadsPerWarp = 32, warpsPerCTA = [1, 1], "
                             "repCluster = [1, 1]}>";
  Converted c = convert(parent, {8, 16});
  EXPECT_EQ(apply(c.ll, 0, 16, 0), (std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(apply(c.ll, 1, 0, 0), (std::vector<uint64_t>{2, 0}));
  EXPECT_EQ(c.ll.inDimSize(dims::reg()), 4u);
  Converted a = convert("#ttg.dot_op<{opIdx = 0, parent = " + parent + ", kWidth = 1}>", {8, 16});
  EXPECT_EQ(apply(a.ll, 0, 16, 0), (std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(apply(a.ll, 1, 0, 0), (std::vector<uint64_t>{2, 0}));
  Converted b = convert("#ttg.dot_op<{opIdx = 1, parent = " + parent + ", kWidth = 2}>", {16, 16});
  EXPECT_EQ(apply(b.ll, 1, 0, 0), (std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(apply(b.ll, 0, 16, 0), (std::vector<uint64_t>{2, 0}));
  EXPECT_EQ(apply(b.ll, 2, 0, 0), (std::vector<uint64_t>{4, 0}));
}

// ---- 4. Errors -------------------------------------------------------------------------------

// The error of parsing and converting `text` on `shape` (empty if both succeed).
std::string errorOf(const std::string& text, const std::vector<int64_t>& shape) {
  auto enc = layout::triton::parseEncoding(text);
  if (!enc) return enc.error().message;
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  return ll ? std::string() : ll.error().message;
}

// "line 1, column C: " where C is the 1-based column of the value after `key = ` in `text`.
std::string where(const std::string& text, const std::string& key) {
  size_t pos = text.find(" " + key + " = ");
  if (pos == std::string::npos) pos = text.find("{" + key + " = ");
  EXPECT_NE(pos, std::string::npos) << key;
  return "line 1, column " + std::to_string(pos + 1 + key.size() + 3 + 1) + ": ";
}

struct BadCase {
  std::string field, value; // replaces `field = <default>` in the base attribute
  std::string message;      // expected after the "line, column" prefix of the field
};

TEST(Seed002DpasTest, VerifierNamesTheRuleAndThePlace) {
  const std::vector<std::pair<std::string, std::string>> base = {
      {"repeatCount", "8"},    {"systolicDepth", "8"},   {"executionSize", "16"},
      {"opsPerChan", "2"},     {"threadsPerWarp", "16"}, {"warpsPerCTA", "[2, 2]"},
      {"repCluster", "[2, 1]"}};
  auto text = [&](const std::string& field, const std::string& value) {
    std::string s = "#triton_intel_gpu.dpas<{";
    for (size_t i = 0; i < base.size(); ++i)
      s += (i ? ", " : "") + base[i].first + " = " +
           (base[i].first == field ? value : base[i].second);
    if (field == "fp4KPack" || field == "A" || field == "opsPerChannel")
      s += ", " + field + " = " + value;
    return s + "}>";
  };
  const std::vector<BadCase> cases = {
      {"repeatCount", "9", "'repeatCount' = 9: repeatCount must be in the range [1, 8]"},
      {"repeatCount", "0", "'repeatCount' = 0: repeatCount must be in the range [1, 8]"},
      {"systolicDepth", "4", "'systolicDepth' = 4: systolicDepth must be 8"},
      {"executionSize", "32",
       "'executionSize' = 32: executionSize must be 16 (PVC, BMG) or 8 (ATS-M, DG2)"},
      {"opsPerChan", "3", "'opsPerChan' = 3: opsPerChannel must be 1, 2 or 4, but was:3"},
      {"threadsPerWarp", "8",
       "'threadsPerWarp' = 8: threadsPerWarp must be a power of two, at least executionSize (16) "
       "and at most 32"},
      {"threadsPerWarp", "64", "'threadsPerWarp' = 64: threadsPerWarp must be a power of two"},
      {"threadsPerWarp", "24", "'threadsPerWarp' = 24: threadsPerWarp must be a power of two"},
      {"warpsPerCTA", "[4]", "'warpsPerCTA' = [4] has rank 1; #ttig.dpas has rank 2 or 3"},
      {"warpsPerCTA", "[3, 1]", "'warpsPerCTA' = [3, 1]: every entry must be a power of two"},
      {"warpsPerCTA", "[4611686018427387904, 1]",
       "'warpsPerCTA' = [4611686018427387904, 1]: every entry must be a power of two in [1, 2^20]"},
      {"repCluster", "[1, 1, 1]",
       "'repCluster' = [1, 1, 1] has rank 3 but 'warpsPerCTA' has rank 2; they must agree"},
      {"repCluster", "[0, 1]", "'repCluster' = [0, 1]: every entry must be a power of two"},
      {"repCluster", "8", "'repCluster' must be a list of integers, not an integer"},
      {"fp4KPack", "4", "'fp4KPack' = 4: fp4KPack must be 2"},
      {"fp4KPack", "2", "'fp4KPack' needs opsPerChan = 4, not 2"},
      {"A", "[32, 16]",
       "'A' = [32, 16] does not match the per-warp shape of operand A derived from repeatCount, "
       "systolicDepth, opsPerChan, executionSize and repCluster (16x16)"},
      {"opsPerChannel", "2", "unknown parameter 'opsPerChannel' of #ttig.dpas"},
  };
  for (const BadCase& c : cases) {
    const std::string t = text(c.field, c.value);
    SCOPED_TRACE(t);
    const std::string err = errorOf(t, {64, 64});
    EXPECT_NE(err.find(where(t, c.field) + c.message), std::string::npos) << err;
  }
  // A missing parameter is reported at the attribute.
  EXPECT_EQ(errorOf("#ttig.dpas<{systolicDepth = 8, executionSize = 16, opsPerChan = 2, "
                    "threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [1, 1]}>",
                    {8, 16}),
            "line 1, column 1: #ttig.dpas needs the parameter 'repeatCount'");
  // The seed's A, B, C (per-warp shapes printed by older Triton versions) are accepted when right.
  EXPECT_EQ(errorOf(text("A", "[16, 16]"), {64, 64}), "");
}

TEST(Seed002DpasTest, DotOperandRulesNameKWidthAndOpIdx) {
  const std::string parent = "#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, "
                             "opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], "
                             "repCluster = [1, 1]}>";
  auto dot = [&](const std::string& opIdx, const std::string& kWidth) {
    return "#ttg.dot_op<{opIdx = " + opIdx + ", parent = " + parent +
           (kWidth.empty() ? "" : ", kWidth = " + kWidth) + "}>";
  };
  std::string t = dot("0", "2");
  EXPECT_NE(errorOf(t, {8, 16})
                .find(where(t, "kWidth") +
                      "kWidth = 2: ttg.dot_op kWidth parameter must match the "
                      "parent's opsPerChannel (operand A needs opsPerChan / 2"),
            std::string::npos)
      << errorOf(t, {8, 16});
  t = dot("1", "1");
  EXPECT_NE(errorOf(t, {16, 16})
                .find(where(t, "kWidth") + "kWidth = 1: ttg.dot_op kWidth "
                                           "parameter must match the parent's "
                                           "opsPerChannel (operand B needs "
                                           "opsPerChan: kWidth = 2)"),
            std::string::npos)
      << errorOf(t, {16, 16});
  t = dot("1", "");
  EXPECT_NE(errorOf(t, {16, 16}).find("line 1, column 1: kWidth = 0: ttg.dot_op kWidth"),
            std::string::npos)
      << errorOf(t, {16, 16});
  // opIdx 2 (the accumulator) is no dot operand: reported at opIdx (by the generic #ttg.dot_op
  // verifier where it runs first, else by the DPAS conversion).
  t = dot("2", "2");
  {
    const std::string err = errorOf(t, {16, 16});
    EXPECT_EQ(err, where(t, "opIdx") + "ttg.dot_op opIdx parameter can be 0 or 1, got: 2") << err;
  }
  // The parent's own errors surface through the dot operand, at the parent's parameter.
  t = "#ttg.dot_op<{opIdx = 0, parent = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = "
      "16, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], "
      "repCluster = [1, 1]}>, kWidth = 1}>";
  EXPECT_NE(errorOf(t, {8, 16})
                .find(where(t, "systolicDepth") + "'systolicDepth' = 16: systolicDepth must be 8"),
            std::string::npos)
      << errorOf(t, {8, 16});
  // Operand A: repeatCount * 2 * systolicDepth must cover the sub-group.
  t = "#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 1, systolicDepth = 8, "
      "executionSize = 16, opsPerChan = 2, threadsPerWarp = 32, warpsPerCTA = [1, 1], "
      "repCluster = [1, 1]}>, kWidth = 1}>";
  EXPECT_NE(errorOf(t, {8, 16})
                .find("line 1, column 34: operand A of #ttig.dpas needs "
                      "repeatCount * (opsPerChan == 1 ? systolicDepth : 2 * "
                      "systolicDepth) >= threadsPerWarp, but 1 * 16 < 32"),
            std::string::npos)
      << errorOf(t, {8, 16});
}

TEST(Seed002DpasTest, ConversionErrors) {
  // A repeatCount the verifier accepts (1..8) but a linear layout cannot hold.
  std::string t =
      "#ttig.dpas<{repeatCount = 6, systolicDepth = 8, executionSize = 16, "
      "opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [1, 1]}>";
  EXPECT_NE(errorOf(t, {8, 16})
                .find(where(t, "repeatCount") +
                      "'repeatCount' = 6: a linear layout needs a power of two"),
            std::string::npos)
      << errorOf(t, {8, 16});
  // SG8 operand A: 16 columns per row, 8 lanes (issue #4861).
  t = "#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, "
      "executionSize = 8, opsPerChan = 2, threadsPerWarp = 8, warpsPerCTA = [1, 1], "
      "repCluster = [1, 1]}>, kWidth = 1}>";
  EXPECT_NE(errorOf(t, {8, 16})
                .find("line 1, column 34: operand A of #ttig.dpas with "
                      "opsPerChan = 2 has 16 packed columns per row but "
                      "threadsPerWarp is 8"),
            std::string::npos)
      << errorOf(t, {8, 16});
  // Rank of the tensor.
  t = "#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, "
      "threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [1, 1]}>";
  EXPECT_NE(errorOf(t, {2, 8, 16}).find("rank"), std::string::npos);
}

// Bad input never crashes: every field of the attribute set to odd values converts or reports.
TEST(Seed002DpasTest, OddValuesNeverCrash) {
  const std::vector<std::string> values = {"0",
                                           "-1",
                                           "1",
                                           "3",
                                           "7",
                                           "32",
                                           "1048576",
                                           "4611686018427387904",
                                           "[]",
                                           "[1]",
                                           "[1, 1]",
                                           "[2, 1, 1]",
                                           "[0, 0]",
                                           "[-2, 4]",
                                           "[1048576, 1048576]",
                                           "true"};
  const std::vector<std::string> fields = {"repeatCount", "systolicDepth",  "executionSize",
                                           "opsPerChan",  "threadsPerWarp", "warpsPerCTA",
                                           "repCluster"};
  const std::vector<std::string> defaults = {"8", "8", "16", "2", "16", "[2, 2]", "[2, 1]"};
  for (size_t f = 0; f < fields.size(); ++f)
    for (const std::string& v : values)
      for (int opIdx = 0; opIdx < 3; ++opIdx) {
        std::string dpas = "#ttig.dpas<{";
        for (size_t i = 0; i < fields.size(); ++i)
          dpas += (i ? ", " : "") + fields[i] + " = " + (i == f ? v : defaults[i]);
        dpas += "}>";
        const std::string t = opIdx == 2 ? dpas
                                         : "#ttg.dot_op<{opIdx = " + std::to_string(opIdx) +
                                               ", parent = " + dpas +
                                               ", kWidth = " + (opIdx ? "2" : "1") + "}>";
        for (const std::vector<int64_t>& shape :
             {std::vector<int64_t>{1, 1}, {64, 64}, {int64_t{1} << 40, 2}, {2, 32, 32}}) {
          auto enc = layout::triton::parseEncoding(t);
          if (!enc) continue;
          auto ll = layout::triton::toLinearLayout(*enc, shape);
          if (ll) {
            EXPECT_EQ(ll->numOutDims(), int(shape.size()));
          } else {
            EXPECT_FALSE(ll.error().message.empty());
          }
        }
      }
}

} // namespace
