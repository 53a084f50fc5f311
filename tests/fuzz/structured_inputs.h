// Structure-aware inputs for the fuzzers: a few bytes of the fuzzer's input, behind a marker,
// describe a large hostile input that byte-level mutation of small inputs never reaches (issue
// 31): JSON nested hundreds of thousands of levels deep in a request's id or any argument,
// encodings whose integers sit at the edges of 64 bits, layouts of thousands of dims for the
// algebra, and requests that bring ever new dim names. libFuzzer mutates the description; the
// expansion is the text the targets then read (one batch request per line, each followed by a
// plain request whose answer proves the batch went on).
//
//   if (auto big = fuzzgen::expand(data, size)) text = *big;   // else the bytes as they are
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace fuzzgen {

// Inputs that start with this are descriptions; every other input is used as it is.
inline constexpr char kMarker[] = "\x01GEN";

// The description's bytes, read one parameter at a time (zeros past the end).
class Params {
public:
  Params(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint32_t u16() { return uint32_t(byte()) << 8 | byte(); }
  template <size_t N> const char* pick(const std::array<const char*, N>& options) {
    return options[byte() % N];
  }

private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// A request that every batch answers with a result: the batch must still be going after a
// hostile line.
inline const std::string kPlainRequest =
    R"({"id":"after","op":"identity1D","args":{"size":4,"inDim":"lane","outDim":"dim0"}})";

// `depth` levels of arrays (or objects {"a": ...}) around 1.
inline std::string nestedJson(size_t depth, bool objects) {
  std::string s;
  s.reserve(depth * (objects ? 6 : 2) + 1);
  for (size_t i = 0; i < depth; ++i) s += objects ? "{\"a\":" : "[";
  s += "1";
  s.append(depth, objects ? '}' : ']');
  return s;
}

// Mode 0: deep nesting in a request's id, or in one argument of the ops that take JSON objects.
inline std::string deepRequest(Params& p) {
  const size_t depth = 1 + size_t(p.u16()) * 4; // up to 262,141 levels
  const std::string deep = nestedJson(depth, p.byte() & 1);
  static constexpr std::array<const char*, 7> kWhere = {
      R"({"id":@,"op":"identity1D","args":{"size":4,"inDim":"lane","outDim":"dim0"}})",
      R"({"id":1,"op":"banks.analyze","args":{"access":@,"elemBits":16,"instruction":"nvidia.ld.b32"}})",
      R"({"id":2,"op":"banks.swizzle","args":{"store":@,"load":@,"elemBits":16}})",
      R"({"id":3,"op":"blockLoad.plan","args":{"encoding":@,"shape":[64,64],"elemBits":16}})",
      R"({"id":4,"op":"convert.plan","args":{"src":@,"dst":"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>","shape":@,"elemBits":16}})",
      R"({"id":5,"op":"xegpu.propagate","args":{"op":"dpas","result":@,"shapeA":@,"shapeB":[32,8]}})",
      R"({"id":6,"op":"invertAndCompose","inputs":[@,@]})"};
  std::string request = p.pick(kWhere);
  for (size_t at; (at = request.find('@')) != std::string::npos;) request.replace(at, 1, deep);
  return request + "\n" + kPlainRequest + "\n";
}

// Mode 1: encodings whose integers are 64-bit edge values, through verify, toLinearLayout and
// both text views, on shapes with edge values too.
inline std::string edgeIntegerRequests(Params& p) {
  static constexpr std::array<const char*, 14> kValues = {"0",
                                                          "1",
                                                          "2",
                                                          "3",
                                                          "4294967296",
                                                          "2147483648",
                                                          "4611686018427387904",
                                                          "9223372036854775807",
                                                          "9223372036854775808",
                                                          "18446744073709551615",
                                                          "18446744073709551616",
                                                          "-1",
                                                          "-9223372036854775808",
                                                          "100000000000000000000000000000"};
  static constexpr std::array<const char*, 8> kEncodings = {
      "#ttg.partitioned_shared<{numPartitions = $, numGroups = $, partitionDim = 0, "
      "partitionLayout = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, "
      "0]}>}>",
      "#ttg.blocked<{sizePerThread = [$, $], threadsPerWarp = [$, $], warpsPerCTA = [$, $], order "
      "= [1, 0]}>",
      "#ttg.swizzled_shared<{vec = $, perPhase = $, maxPhase = $, order = [1, 0]}>",
      "#ttg.padded_shared<[$:+$] {order = [1, 0], shape = [$, $]}>",
      "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [$, $], instrShape = "
      "[16, 8]}>",
      "#ttg.amd_mfma<{version = 3, warpsPerCTA = [$, $], instrShape = [$, $], isTransposed = "
      "true}>",
      "#xegpu.layout<sg_layout = [$, $], sg_data = [$, $], lane_layout = [$, $], lane_data = "
      "[$, $]>",
      "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
      "warpsPerCTA = [$, $], instrShape = [16, 8]}>, kWidth = $}>"};
  std::string encoding = p.pick(kEncodings);
  for (size_t at; (at = encoding.find('$')) != std::string::npos;)
    encoding.replace(at, 1, p.pick(kValues));
  const std::string shape = std::string("[") + p.pick(kValues) + "," + p.pick(kValues) + "]";
  std::string out;
  for (const char* op : {"verify", "toLinearLayout", "layoutStr"})
    out += std::string(R"({"id":")") + op + R"(","op":")" + op + R"(","args":{"encoding":")" +
           encoding + R"(","shape":)" + shape + "}}\n";
  return out + kPlainRequest + "\n";
}

// A layout JSON of `dims` in-dims of `bits` bases each over one out-dim of 2^`outBits`, its bases
// drawn from `seed` (distinct names "<prefix><i>").
inline std::string wideLayoutJson(size_t dims, int bits, int outBits, uint32_t seed,
                                  const std::string& prefix) {
  std::string s = R"({"inDims":[)";
  uint64_t x = seed | 1;
  for (size_t d = 0; d < dims; ++d) {
    s += (d ? "," : "") + std::string(R"({"name":")") + prefix + std::to_string(d) +
         R"(","bases":[)";
    for (int b = 0; b < bits; ++b) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17; // xorshift: any bases, some dependent
      const uint64_t v = outBits >= 64 ? x : x & ((uint64_t{1} << outBits) - 1);
      s += (b ? ",[" : "[") + std::to_string(v) + "]";
    }
    s += "]}";
  }
  return s + R"(],"outDims":[{"name":"dim0","size":)" +
         std::to_string(uint64_t{1} << std::min(outBits, 63)) + "}]}";
}

// Mode 2: the algebra on layouts of up to 4096 dims of up to 63 bits each.
inline std::string wideAlgebraRequest(Params& p) {
  const size_t dims = 1 + p.u16() % 4096;
  const int bits = p.byte() % 64;
  const int outBits = 1 + p.byte() % 63;
  const uint32_t seed = p.u16();
  static constexpr std::array<const char*, 5> kOps = {"invertAndCompose", "compose", "product",
                                                      "pseudoinvert", "invert"};
  const std::string op = p.pick(kOps);
  const std::string a = wideLayoutJson(dims, bits, outBits, seed, "in");
  std::string inputs = a;
  if (op == "invertAndCompose")
    inputs += "," + wideLayoutJson(dims, bits, outBits, seed + 1, "in");
  else if (op == "compose" || op == "product")
    inputs += "," + wideLayoutJson(1, outBits, outBits, seed + 1, op == "compose" ? "dim" : "x");
  return R"({"id":"wide","op":")" + op + R"(","inputs":[)" + inputs + "]}\n" + kPlainRequest + "\n";
}

// Mode 3: requests that each bring new dim names (many, or long ones).
inline std::string newNamesRequests(Params& p) {
  const size_t requests = 1 + p.byte() % 16;
  const size_t names = 1 + p.u16() % 2048;
  // Up to about 1 MiB a name, and at most 2 MiB of names a request.
  const size_t nameBytes = std::min<size_t>(1 + size_t(p.u16()) * 16, (size_t{2} << 20) / names);
  std::string out;
  for (size_t r = 0; r < requests; ++r) {
    const std::string prefix = std::string(nameBytes, char('a' + r % 26)) + std::to_string(r);
    out += R"({"id":)" + std::to_string(r) + R"(,"op":"identity","inputs":[)" +
           wideLayoutJson(names, 1, 8, uint32_t(r), prefix) + "]}\n";
  }
  return out + kPlainRequest + "\n";
}

// The text a description stands for, or nothing for an ordinary input.
inline std::optional<std::string> expand(const uint8_t* data, size_t size) {
  constexpr size_t kMarkerBytes = sizeof(kMarker) - 1;
  if (size < kMarkerBytes || !std::equal(kMarker, kMarker + kMarkerBytes, data)) return {};
  Params p(data + kMarkerBytes, size - kMarkerBytes);
  switch (p.byte() % 4) {
  case 0:
    return deepRequest(p);
  case 1:
    return edgeIntegerRequests(p);
  case 2:
    return wideAlgebraRequest(p);
  default:
    return newNamesRequests(p);
  }
}

} // namespace fuzzgen
