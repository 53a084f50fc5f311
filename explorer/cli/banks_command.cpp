// layoutctl banks / layoutctl swizzle: bank-conflict reports and swizzle synthesis
// (layout/smem; the same results as the batch ops banks.analyze and banks.swizzle).
#include "op_command.h"

#include "layout/smem/bank_model.h"

#include <nlohmann/json.hpp>

#include <iostream>

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

// Without --access or --addresses: seed 004's example (its reads, 16-bit elements, CDNA4's
// ds_read_b128), each part replaceable by its option.
std::optional<int> banksExample(const Args& args, nlohmann::json& request, std::string& preamble) {
  if (args.flag("list")) {
    listInstructions();
    return kOk;
  }
  if (request.contains("access") || request.contains("byteAddresses")) return std::nullopt;
  request["access"] = nlohmann::json::parse(kSeedReads);
  if (!request.contains("elemBits")) request["elemBits"] = 16u;
  if (!request.contains("instruction")) request["instruction"] = "cdna4.ds_read_b128";
  preamble = "(no --access: seed 004's 32x64 f16 tile read by MFMA 16x16x32 lanes)\n";
  return std::nullopt;
}

// Without --store and --load: seed 004's gather_to_lds writes and MFMA reads.
std::optional<int> swizzleExample(const Args&, nlohmann::json& request, std::string& preamble) {
  if (request.contains("store") || request.contains("load")) return std::nullopt;
  request["store"] = nlohmann::json::parse(kSeedGather);
  request["load"] = nlohmann::json::parse(kSeedReads);
  if (!request.contains("elemBits")) request["elemBits"] = 16u;
  if (!request.contains("target") && !request.contains("storeInstruction")) {
    request["storeInstruction"] = "cdna4.ds_write_b32";
    request["loadInstruction"] = "cdna4.ds_read_b128";
  }
  preamble = "(no --store / --load: seed 004's gather_to_lds then MFMA reads)\n";
  return std::nullopt;
}

} // namespace

void addBanksCommands(std::vector<Command>& commands) {
  addOpCommand(
      commands,
      {"banks",
       "banks.analyze",
       "banks [--access LAYOUT|ENC] [--shared LAYOUT|ENC | --swizzle-unit U --max-phase P] "
       "[--shape RxC] [--element-bits B] [--instruction NAME|@model.json] "
       "[--format text|json|csv] | "
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
       banksExample,
       {{"list", {}, /*flag=*/true}},
       /*csv=*/true});
  addOpCommand(
      commands,
      {"swizzle", "banks.swizzle",
       "swizzle [--store LAYOUT|ENC --load LAYOUT|ENC] [--shape RxC] [--element-bits B] "
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
       "--element-bits 16 --target nvidia",
       swizzleExample});
}

} // namespace layoutctl
