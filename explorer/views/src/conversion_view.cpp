#include "layout/views/conversion_view.h"

#include "layout/triton/linear_encoding_of.h"
#include "layout/views/bank_view.h"
#include "layout/views/conversion_trace.h"

#include <algorithm>
#include <string>
#include <tuple>

namespace layout::views {

namespace {

constexpr float kMargin = 16, kHeaderW = 44, kHeaderH = 18, kLineH = 15;

int bankHeatMax(const layout::smem::SwizzleResult& shared) {
  return std::max({1, shared.store.maxWays(), shared.load.maxWays()});
}

// "store: nvidia.st.b128 (32 banks x 4 B), 8 element(s) per lane, 1-way, 64 wavefronts
// (ideal 64) over 4 warps x 4 accesses".
std::string sideLine(const char* side, const layout::smem::BankReport& r) {
  return std::string(side) + ": " + r.instruction.name + " (" +
         std::to_string(r.instruction.banks) + " banks x " +
         std::to_string(r.instruction.bankBytes) + " B), " + std::to_string(r.vectorElements) +
         " element(s) per lane, " + std::to_string(r.maxWays()) + "-way, " +
         std::to_string(r.wavefronts) + " wavefronts (ideal " + std::to_string(r.idealWavefronts) +
         ") over " + std::to_string(r.warps) + " warps x " + std::to_string(r.accessesPerWarp) +
         " accesses";
}

// The shared-memory path: the buffer's layout, then the bank maps of the store (src registers
// into the buffer) and of the load (the buffer into dst registers), each the phases of warp 0's
// first access, on one heat scale. Grids "convert.store.banks[.p]", "convert.load.banks[.p]".
float drawSharedRoundTrip(Scene& s, const layout::smem::SwizzleResult& shared, float y) {
  const int heatMax = bankHeatMax(shared);
  s.texts.push_back({kMargin, y, "shared-memory round trip: src stores its tile, dst loads it",
                     palette::kText, 15});
  y += kLineH + 8;
  auto text = layout::triton::linearEncodingOf(shared.shared);
  s.texts.push_back({kMargin, y,
                     "buffer layout: " + (text ? text->text() : "(" + text.error().message + ")"),
                     palette::kText, 13});
  y += kLineH + 12;
  constexpr int kMaxPhases = 8; // the plan text has every figure
  for (const auto& [side, prefix, report] : {std::tuple{"store", "convert.store.", &shared.store},
                                             std::tuple{"load", "convert.load.", &shared.load}}) {
    s.texts.push_back({kMargin, y, sideLine(side, *report), palette::kText, 14});
    s.texts.push_back({kMargin, y + kLineH + 4,
                       "warp 0's first access, phase by phase; rows: wavefronts, a cell: the lanes "
                       "on that word (5+3: lane 5 and 3 more)",
                       palette::kText, 13});
    y = appendBankPhases(s, *report, prefix, kMargin + kHeaderW, y + 2 * kLineH + 16, heatMax,
                         kMaxPhases) +
        kMargin;
  }
  return y;
}

} // namespace

Scene conversionScene(const TensorMap& src, const TensorMap& dst,
                      const layout::conversion::ConversionPlan& plan, const ViewOptions& opt) {
  using layout::conversion::ConversionKind;
  Scene s;
  float y = kMargin;
  if (plan.kind == ConversionKind::SharedMemory && plan.shared) {
    // The heat scale of the bank maps below; the canvas pins it in the corner.
    appendBankLegend(s, kMargin, y, bankHeatMax(*plan.shared));
    y += 30;
  }
  const std::string kind = std::string(layout::conversionKindName(plan.kind));
  std::string summary = "conversion: " + kind;
  if (plan.kind == ConversionKind::WarpShuffle)
    summary += ", " + std::to_string(plan.shuffleRounds) + " shuffle round(s) (at least " +
               std::to_string(plan.roundsLowerBound) + "), " + std::to_string(plan.vectorElements) +
               " element(s) per shuffle";
  s.texts.push_back({kMargin, y, summary, palette::kText, 15});
  y += kLineH + 12;

  // Source and destination tensors side by side, one cell size.
  CellGrid a = tensorGrid(src, opt, "convert.src"), b = tensorGrid(dst, opt, "convert.dst");
  const float cellW = std::max(a.cellW, b.cellW), cellH = std::max(a.cellH, b.cellH);
  a.cellW = b.cellW = cellW;
  a.cellH = b.cellH = cellH;
  // Each element's way through the plan, for the hover tooltip and the inspector: the same text
  // on both sides ("src T7:2 -> dst T17:6, shuffle round 3").
  if (src.rows() == dst.rows() && src.cols() == dst.cols()) {
    const ConversionTracer tracer(plan, src, dst);
    a.details.resize(size_t(src.numElements()));
    for (uint64_t cell = 0; cell < src.numElements(); ++cell)
      a.details[size_t(cell)] = tracer.summary(cell);
    b.details = a.details;
  }
  a.x = kMargin + kHeaderW;
  a.y = y + kLineH + kHeaderH;
  b.x = a.x + a.width() + kHeaderW + 2 * kMargin;
  b.y = a.y;
  s.texts.push_back({a.x - kHeaderW, y, "source (layout A)", palette::kText, 13});
  s.texts.push_back({b.x - kHeaderW, y, "destination (layout B)", palette::kText, 13});
  y = a.y + std::max(a.height(), b.height()) + 2 * kMargin;
  s.grids.push_back(std::move(a));
  s.grids.push_back(std::move(b));

  const int lanes = plan.numLanes;
  if (plan.kind == ConversionKind::RegisterPermutation) {
    CellGrid g;
    g.id = "convert.registers";
    g.rows = 1;
    g.cols = int(plan.registerPermutation.size());
    g.cellW = 72;
    g.cellH = 22;
    for (int r = 0; r < g.cols; ++r) {
      const int from = plan.registerPermutation[size_t(r)];
      g.labels.push_back("r" + std::to_string(r) + " <- r" + std::to_string(from));
      g.fill.push_back(from == r ? palette::kDimmed : palette::categorical(from, g.cols));
    }
    g.marks.assign(g.fill.size(), kMarkNone);
    g.colHeaders = indexHeaders(g.cols, "r");
    s.texts.push_back({kMargin, y, "every lane renames its registers: destination <- source",
                       palette::kText, 13});
    g.x = kMargin + kHeaderW;
    g.y = y + kLineH + kHeaderH;
    y = g.y + g.height() + 2 * kMargin;
    s.grids.push_back(std::move(g));
  } else if (plan.kind == ConversionKind::WarpShuffle) {
    int shown = 0;
    for (size_t k = 0; k < plan.rounds.size(); ++k) {
      const auto& round = plan.rounds[k];
      CellGrid g;
      g.id = "convert.round." + std::to_string(k);
      // Rows: what each lane sends, a gap the arrows cross, what each lane receives.
      g.rows = 3;
      g.cols = lanes;
      g.cellW = 84;
      g.cellH = 22;
      g.fill.assign(size_t(3 * lanes), palette::kBackground);
      g.labels.resize(g.fill.size());
      g.marks.assign(g.fill.size(), kMarkNone);
      for (int l = 0; l < lanes; ++l) {
        const int read = round.readLane[size_t(l)];
        g.fill[size_t(l)] = palette::categorical(l, lanes);
        g.labels[size_t(l)] = "sends r" + std::to_string(round.sendRegister[size_t(l)]);
        const size_t in = size_t(2 * lanes + l);
        if (round.dstRegister[size_t(l)] < 0) {
          g.fill[in] = palette::kDimmed;
          g.labels[in] = "idle";
          continue;
        }
        g.fill[in] = palette::categorical(read, lanes);
        g.labels[in] = "L" + std::to_string(read) + ".r" +
                       std::to_string(round.sendRegister[size_t(read)]) + " -> r" +
                       std::to_string(round.dstRegister[size_t(l)]);
      }
      g.rowHeaders = {"send", "", "recv"};
      g.colHeaders = indexHeaders(lanes, "L");
      g.x = kMargin + kHeaderW;
      g.y = y + kLineH + kHeaderH;
      s.texts.push_back({kMargin, y,
                         "round " + std::to_string(k) +
                             (round.local ? ": every lane reads itself (register moves)"
                                          : ": each lane reads the vector another lane sends"),
                         palette::kText, 13});
      // Arrows across the gap: from the sending lane's cell to each lane that reads another's.
      for (int l = 0; l < lanes && !round.local; ++l) {
        const int read = round.readLane[size_t(l)];
        if (round.dstRegister[size_t(l)] < 0 || read == l) continue;
        s.lines.push_back({g.x + (float(read) + 0.5f) * g.cellW, g.y + g.cellH,
                           g.x + (float(l) + 0.5f) * g.cellW, g.y + 2 * g.cellH, palette::kGridLine,
                           1});
      }
      y = g.y + g.height() + 2 * kMargin;
      s.grids.push_back(std::move(g));
      if (++shown == 64) break; // the plan text lists every round
    }
  } else if (plan.kind == ConversionKind::SharedMemory && plan.shared) {
    y = drawSharedRoundTrip(s, *plan.shared, y);
  }
  for (const auto& note : plan.notes) {
    s.texts.push_back({kMargin, y, note, palette::kText, 13});
    y += kLineH + 4;
  }
  s.fitBounds(kMargin);
  return s;
}

} // namespace layout::views
