// layoutctl banks / layoutctl swizzle: bank-conflict reports and swizzle synthesis
// (layout/smem; the same results as the batch ops banks.analyze and banks.swizzle).
#include "commands.h"

#include "layout/protocol/op_args.h"

#include "layout/smem/shared_operands.h"
#include "layout/smem/swizzle_synthesis.h"
#include "layout/triton/layout_operand.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>

namespace layoutctl {

namespace {

namespace smem = layout::smem;

// Seed 004's consumer: the 32x64 f16 B tile read by MFMA 16x16x32 lanes (lane l: row l % 16,
// 8 elements at column 8 * (l / 16); the second k half +32 columns; waves of thread_id_y +16 rows).
constexpr const char* kSeedReads = R"({
  "inDims": [ {"name": "register", "bases": [[0, 1], [0, 2], [0, 4], [0, 32]]},
              {"name": "lane", "bases": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8], [0, 16]]},
              {"name": "warp", "bases": [[0, 0], [0, 0], [16, 0]]} ],
  "outDims": [ {"name": "dim0", "size": 32}, {"name": "dim1", "size": 64} ] })";
// Seed 004's producer: gather_to_lds of vector<2xf16>, 64 lanes writing two rows linearly.
constexpr const char* kSeedGather = R"({
  "inDims": [ {"name": "register", "bases": [[0, 1], [16, 0]]},
              {"name": "lane", "bases": [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0]]},
              {"name": "warp", "bases": [[2, 0], [4, 0], [8, 0]]} ],
  "outDims": [ {"name": "dim0", "size": 32}, {"name": "dim1", "size": 64} ] })";

// A positive option value (positiveCount's rule), at most 2^24 (bytes per lane, swizzle units and
// phases are far smaller; the bank analysis names the real limit).
int positiveOption(const Args& args, const std::string& name, int fallback) {
  auto t = args.option(name);
  if (!t) return fallback;
  const uint64_t v = positiveCount(*t, name);
  if (v > (uint64_t{1} << 24)) throw CliExit{kUsage, "--" + name + ": " + *t + " exceeds 2^24"};
  return int(v);
}

// A built-in name, or @file / inline JSON holding a bank model.
smem::BankInstruction instructionOption(const Args& args, const std::string& name,
                                        const char* fallback) {
  auto t = args.option(name);
  if (!t && !fallback)
    throw CliExit{kUsage, "give the instruction: --" + name +
                              " cdna4.ds_read_b128 (layoutctl banks --list shows them)"};
  const std::string text = t ? readTextArg(*t, "--" + name) : std::string(fallback);
  return orFail(layout::opargs::bankInstructionFromText(text, "--" + name));
}

// Args has checked the value (text, json, and csv for banks).
std::string formatOption(const Args& args) {
  return args.option("format").value_or("text");
}

void listInstructions() {
  for (const auto& t : smem::builtinBankTargets()) {
    std::cout << t.name << ": " << t.description << "\n";
    for (const auto& i : t.instructions) {
      char line[96];
      std::snprintf(line, sizeof line, "  %-26s %-5s %3d B/lane, %2d banks, %d phase%s  ",
                    i.name.c_str(), i.direction == smem::AccessDirection::Read ? "read" : "write",
                    i.bytesPerLane, i.banks, int(i.phases.size()), i.phases.size() == 1 ? "" : "s");
      std::cout << line << "(" << i.basis << ")\n";
    }
  }
}

// "0:0,1:144" or JSON [[0, 0], [1, 144]] (inline or @file).
std::vector<smem::LaneAddress> addressesOption(const std::string& raw) {
  return orFail(
      layout::opargs::laneAddressesFromText(readTextArg(raw, "--addresses"), "--addresses"));
}

void printReport(const smem::BankReport& r, const std::string& format) {
  if (format == "json")
    std::cout << smem::bankReportToJson(r).dump() << "\n";
  else if (format == "csv")
    std::cout << smem::bankReportCsv(r);
  else
    std::cout << smem::bankReportText(r);
}

int runBanks(const Args& args) {
  if (!args.positionals().empty()) throw CliExit{kUsage, "banks takes no positional arguments"};
  if (args.flag("list")) {
    listInstructions();
    return kOk;
  }
  const std::string format = formatOption(args);
  if (auto addresses = args.option("addresses")) {
    smem::BankInstruction ins = instructionOption(args, "instruction", nullptr);
    int bytes = positiveOption(args, "bytes-per-lane", ins.bytesPerLane);
    auto r = smem::analyzeByteAddresses(addressesOption(*addresses), bytes, ins);
    if (!r) throw CliExit{kInvalidInput, r.error().message};
    printReport(*r, format);
    return kOk;
  }
  // Without --access: seed 004's example (32x64 f16, ds_read_b128 on CDNA4).
  const bool example = !args.option("access");
  std::string access = example ? kSeedReads : readTextArg(*args.option("access"), "--access");
  std::vector<int64_t> shape;
  if (auto s = args.option("shape")) shape = parseShape(*s, "shape");
  smem::SharedSpec spec;
  if (auto s = args.option("shared")) spec.text = readTextArg(*s, "--shared");
  spec.swizzleUnit = positiveOption(args, "swizzle-unit", 0);
  spec.maxPhase = positiveOption(args, "max-phase", 1);
  if (args.option("max-phase") && !args.option("swizzle-unit"))
    throw CliExit{kUsage, "--max-phase needs --swizzle-unit"};
  int elemBits = elementBitsOption(args, layout::opargs::kElementBits, example ? "16" : nullptr);
  smem::BankInstruction ins =
      instructionOption(args, "instruction", example ? "cdna4.ds_read_b128" : nullptr);
  auto a = smem::sharedAccessFromText(access, spec, shape, elemBits);
  if (!a) throw CliExit{kInvalidInput, a.error().message};
  auto r = smem::analyzeBanks(*a, ins);
  if (!r) throw CliExit{kInvalidInput, r.error().message};
  if (example && format == "text")
    std::cout << "(no --access: seed 004's 32x64 f16 tile read by MFMA 16x16x32 lanes)\n";
  printReport(*r, format);
  return kOk;
}

int runSwizzle(const Args& args) {
  if (!args.positionals().empty()) throw CliExit{kUsage, "swizzle takes no positional arguments"};
  const std::string format = formatOption(args);
  const bool example = !args.option("store") && !args.option("load");
  if (!example && (!args.option("store") || !args.option("load")))
    throw CliExit{kUsage, "give both sides: --store LAYOUT --load LAYOUT"};
  std::vector<int64_t> shape;
  if (auto s = args.option("shape")) shape = parseShape(*s, "shape");
  int elemBits = elementBitsOption(args, layout::opargs::kElementBits, example ? "16" : nullptr);
  auto side = [&](const char* name, const char* fallback) {
    std::string text =
        example ? fallback : readTextArg(*args.option(name), std::string("--") + name);
    auto op = layout::parseLayoutOperand(text, shape, layout::OperandKind::Distributed, name);
    if (!op) throw CliExit{kInvalidInput, op.error().message};
    return op->layout;
  };
  layout::LinearLayout store = side("store", kSeedGather), load = side("load", kSeedReads);
  // Instructions: given (or the example's), or the widest of --target the registers allow.
  std::optional<std::string> target;
  if (args.option("target")) target = targetOption(args, "target", "");
  bool given = args.option("store-instruction") || args.option("load-instruction");
  if (target && given)
    throw CliExit{kUsage, "give either --target or --store-instruction / --load-instruction"};
  if (!target && !example && !(args.option("store-instruction") && args.option("load-instruction")))
    throw CliExit{kUsage, "give --store-instruction and --load-instruction, or --target " +
                              targetChoices()};
  auto res = target ? smem::synthesizeSwizzleForTarget(store, load, elemBits, *target)
                    : smem::synthesizeSwizzle(smem::SwizzleRequest{
                          store, load, elemBits,
                          instructionOption(args, "store-instruction",
                                            example ? "cdna4.ds_write_b32" : nullptr),
                          instructionOption(args, "load-instruction",
                                            example ? "cdna4.ds_read_b128" : nullptr)});
  if (!res) throw CliExit{kInvalidInput, res.error().message};
  if (format == "json") {
    std::cout << smem::swizzleResultToJson(*res).dump() << "\n";
  } else {
    if (example) std::cout << "(no --store / --load: seed 004's gather_to_lds then MFMA reads)\n";
    std::cout << smem::swizzleResultText(*res);
  }
  return kOk;
}

} // namespace

void addBanksCommands(std::vector<Command>& commands) {
  commands.push_back(
      {"banks",
       "banks [--access LAYOUT|ENC] [--shared LAYOUT|ENC | --swizzle-unit U --max-phase P] "
       "[--shape RxC] [--elem-bits B] [--instruction NAME|@model.json] [--format text|json|csv] | "
       "banks --addresses LANE:BYTE,...|@file.json --instruction NAME [--bytes-per-lane N] | "
       "banks --list",
       "Bank-conflict report of one shared-memory access: for each hardware phase of the "
       "instruction, which lanes touch which banks and words, the conflict degree (ways), and the "
       "wavefronts of the whole tile against the ideal. --access is the register/lane/warp -> "
       "tensor layout (distributed encoding text with --shape, or layout JSON); --shared the "
       "offset -> tensor layout (shared encoding text, layout JSON, or seed 004's --swizzle-unit / "
       "--max-phase; default: row-major). --addresses analyses one issue from explicit byte "
       "addresses (any instruction, e.g. cdna4.ds_read_b96). --list prints the bank models. "
       "Without --access: seed 004's example (4-way; add --swizzle-unit 8 --max-phase 8).",
       "layoutctl banks --swizzle-unit 8 --max-phase 8",
       {"access", "shared", "swizzle-unit", "max-phase", "shape", "elem-bits", "instruction",
        "addresses", "bytes-per-lane"},
       {"list"},
       runBanks,
       true});
  commands.push_back(
      {"swizzle",
       "swizzle [--store LAYOUT|ENC --load LAYOUT|ENC] [--shape RxC] [--elem-bits B] "
       "[--store-instruction NAME --load-instruction NAME | --target " +
           targetChoices() + "] [--format text|json]",
       "Synthesizes a shared layout (an XOR swizzle, linear over GF(2)) for a tile written with "
       "the --store layout and read with the --load layout: the widest vectors the instructions "
       "take, and the fewest wavefronts on both sides. Prints the layout, both bank reports, the "
       "lower bound and whether it is met, and the best member of Triton's swizzled_shared family "
       "and of seed 004's rule with why they fall short. --target picks, from the target's bank "
       "model, the widest instruction each side's registers allow. Without --store/--load: seed "
       "004's example.",
       "layoutctl swizzle --store '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
       "warpsPerCTA = [4, 1], order = [1, 0]}>' --load '#ttg.blocked<{sizePerThread = [8, 1], "
       "threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>' --shape 64x64 "
       "--elem-bits 16 --target nvidia",
       {"store", "load", "shape", "elem-bits", "store-instruction", "load-instruction", "target"},
       {},
       runSwizzle});
}

} // namespace layoutctl
