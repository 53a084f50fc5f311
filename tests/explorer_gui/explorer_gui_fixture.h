// The fixture and helpers the layout-explorer GUI tests share (tests/explorer_gui/*_test.cpp):
// running the real app in a fresh directory, reading its PNG, SVG and JSON report outputs, and
// the library oracle (parseEncoding + toLinearLayout) they are checked against. Everything here
// is inline at namespace scope, one definition for every test file; a file's own helpers go in
// its anonymous namespace.
#pragma once

#include "layout/conversion/conversion_plan.h"
#include "layout/core/linear_layout.h"
#include "layout/report/kernel_report.h"
#include "layout/text/mlir_ops.h"
#include "layout/triton/encoding.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <stb/stb_image.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kBlocked32 =
    "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], "
    "order = [1, 0]}>";
// 2 warps, 16 registers per thread on 32x32, no broadcast: every element has one owner.
constexpr const char* kTwoWarps32 =
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], "
    "order = [1, 0]}>";

inline std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// POSIX single quoting: the only character to escape is the quote itself.
inline std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

struct RunResult {
  int status = -1;
  std::string out, err;
};

// The library's view of a distributed layout: every (register, lane, warp, block) input and the
// element it maps to.
struct Oracle {
  layout::LinearLayout ll;
  int reg = -1, lane = -1, warp = -1, block = -1, dim0 = -1, dim1 = -1;

  struct Input {
    uint64_t reg, lane, warp, block;
  };

  static Oracle make(const std::string& text, int64_t rows, int64_t cols) {
    Oracle o;
    auto enc = layout::triton::parseEncoding(text);
    EXPECT_TRUE(enc.ok()) << (enc ? "" : enc.error().message);
    if (!enc) return o;
    int64_t shape[] = {rows, cols};
    auto ll = layout::triton::toLinearLayout(*enc, shape);
    EXPECT_TRUE(ll.ok()) << (ll ? "" : ll.error().message);
    if (!ll) return o;
    o.ll = *ll;
    o.reg = o.ll.inDimIndex(layout::dims::reg());
    o.lane = o.ll.inDimIndex(layout::dims::lane());
    o.warp = o.ll.inDimIndex(layout::dims::warp());
    o.block = o.ll.inDimIndex(layout::dims::block());
    o.dim0 = o.ll.outDimIndex(layout::dims::standardOut(0));
    o.dim1 = o.ll.outDimIndex(layout::dims::standardOut(1));
    EXPECT_TRUE(o.reg >= 0 && o.lane >= 0 && o.warp >= 0 && o.block >= 0 && o.dim0 >= 0 &&
                o.dim1 >= 0);
    return o;
  }

  std::pair<uint64_t, uint64_t> apply(const Input& in) const {
    std::vector<uint64_t> ins(ll.numInDims(), 0), outs(ll.numOutDims(), 0);
    ins[reg] = in.reg;
    ins[lane] = in.lane;
    ins[warp] = in.warp;
    ins[block] = in.block;
    ll.apply(ins, outs);
    return {outs[dim0], outs[dim1]};
  }

  std::vector<Input> allInputs() const {
    std::vector<Input> all;
    for (uint64_t b = 0; b < ll.inDimSize(layout::dims::block()); ++b)
      for (uint64_t w = 0; w < ll.inDimSize(layout::dims::warp()); ++w)
        for (uint64_t l = 0; l < ll.inDimSize(layout::dims::lane()); ++l)
          for (uint64_t r = 0; r < ll.inDimSize(layout::dims::reg()); ++r)
            all.push_back({r, l, w, b});
    return all;
  }

  // Every input that maps to each element.
  std::map<std::pair<uint64_t, uint64_t>, std::vector<Input>> owners() const {
    std::map<std::pair<uint64_t, uint64_t>, std::vector<Input>> m;
    for (const Input& in : allInputs()) m[apply(in)].push_back(in);
    return m;
  }

  // The distinct elements a thread (lane, warp of block 0) holds over all its registers.
  size_t elementsOf(uint64_t l, uint64_t w) const {
    std::set<std::pair<uint64_t, uint64_t>> elems;
    for (uint64_t r = 0; r < ll.inDimSize(layout::dims::reg()); ++r)
      elems.insert(apply({r, l, w, 0}));
    return elems.size();
  }
};

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;

  std::array<uint8_t, 3> rgb(int x, int y) const {
    const uint8_t* p = &rgba[(size_t(y) * width + x) * 4];
    return {p[0], p[1], p[2]};
  }
};

inline Image loadPng(const fs::path& path) {
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 4);
  EXPECT_NE(data, nullptr) << path << ": " << stbi_failure_reason();
  if (!data) return img;
  img.rgba.assign(data, data + size_t(img.width) * img.height * 4);
  stbi_image_free(data);
  return img;
}

inline uint32_t packRgb(const std::array<uint8_t, 3>& c) {
  return uint32_t(c[0]) << 16 | uint32_t(c[1]) << 8 | c[2];
}

// Pixel count per colour over [x0, x1) x [y0, y1), clipped to the image. With `flatOnly`, only
// pixels whose 3x3 neighbourhood has one colour count: that keeps cell fills and drops the blends
// that antialiased text leaves on every cell it is drawn over.
inline std::map<uint32_t, int> histogram(const Image& img, int x0, int y0, int x1, int y1,
                                         bool flatOnly = false) {
  std::map<uint32_t, int> h;
  x0 = std::max(x0, 1), y0 = std::max(y0, 1);
  x1 = std::min(x1, img.width - 1), y1 = std::min(y1, img.height - 1);
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const auto c = img.rgb(x, y);
      bool flat = true;
      for (int dy = -1; dy <= 1 && flatOnly && flat; ++dy)
        for (int dx = -1; dx <= 1 && flat; ++dx) flat = img.rgb(x + dx, y + dy) == c;
      if (flat) ++h[packRgb(c)];
    }
  return h;
}

// A rendered window that shows something: many colours, and the most common (background)
// colour far from covering everything.
inline void expectNotBlank(const fs::path& png, int width, int height) {
  Image img = loadPng(png);
  ASSERT_EQ(img.width, width) << png;
  ASSERT_EQ(img.height, height) << png;
  auto h = histogram(img, 0, 0, img.width, img.height);
  int background = 0;
  for (const auto& [c, n] : h) background = std::max(background, n);
  const long total = long(width) * height;
  EXPECT_GE(h.size(), 16u) << png << ": too few distinct colours";
  EXPECT_LE(background, total * 95 / 100) << png << ": almost every pixel is the background";
}

// One fresh directory per test, removed afterwards unless the test failed (to inspect outputs).
class ExplorerGui : public ::testing::Test {
protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("layout_explorer_gui_" + std::to_string(::getpid()) + "_" +
                                        info->test_suite_name() + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure())
      fs::remove_all(dir_);
    else
      std::cerr << "outputs kept in " << dir_ << "\n";
  }

  fs::path path(const std::string& name) const { return dir_ / name; }
  void expectScriptSelects(const std::string& script, uint64_t row, uint64_t col);

  // Runs the explorer with `args` inside the test directory; `envPrefix` goes before the binary
  // (e.g. "env -u DISPLAY").
  RunResult run(const std::vector<std::string>& args, const std::string& envPrefix = "") {
    const fs::path out = path("stdout.txt"), err = path("stderr.txt");
    std::string cmd = "cd " + shellQuote(dir_.string()) + " && " + envPrefix + " " +
                      shellQuote(LAYOUT_EXPLORER_BIN);
    for (const auto& a : args) cmd += " " + shellQuote(a);
    cmd += " >" + shellQuote(out.string()) + " 2>" + shellQuote(err.string()) + " </dev/null";
    int raw = std::system(cmd.c_str());
    RunResult r;
    r.status = (raw != -1 && WIFEXITED(raw)) ? WEXITSTATUS(raw) : -1;
    r.out = readFile(out);
    r.err = readFile(err);
    return r;
  }

  json readJson(const std::string& name) {
    std::string text = readFile(path(name));
    json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(j.is_discarded()) << name << " is not JSON: " << text;
    return j;
  }

  fs::path dir_;
};

inline std::string describe(const RunResult& r) {
  return "exit " + std::to_string(r.status) + "\nstdout: " + r.out + "\nstderr: " + r.err;
}
