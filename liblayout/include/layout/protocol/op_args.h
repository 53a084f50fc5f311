// The arguments several ops share, checked once for `layoutctl batch` and for the CLI
// subcommands: each function takes the value in the form its front end has (JSON from a batch
// request; text from a command line) and names the argument as the caller does ("args.elemBits",
// "--element-bits"), so both front ends give the same rule in the same words.
//
//   auto bits = layout::opargs::elementBits(12, layout::opargs::kElementBits, "args.elemBits");
//   // error: "args.elemBits: 12 is not 8, 16, 32 or 64"
//   auto shape = layout::opargs::shapeFromText("tensor<64x32xf16>", "--shape");   // {64, 32}
#pragma once

#include "layout/core/element_bits.h"
#include "layout/core/expected.h"
#include "layout/protocol/op_arg.h"
#include "layout/smem/bank_analysis.h"
#include "layout/smem/bank_model.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace layout::opargs {

// Element widths: every op that moves elements, and the 2D block loads (no 64-bit VNNI).
using layout::kBlockLoadElementBits;
using layout::kElementBits;

// The element width argument of those ops, "elemBits", one of `allowed`: --element-bits on the
// command line, as everywhere a width in bits is given (--elem-bits, its first spelling, works
// too).
OpArg elementBitsArg(std::span<const int> allowed);

// One of `allowed`.
Expected<int> elementBits(int64_t bits, std::span<const int> allowed, const std::string& name);

// A tensor shape: each dim size in [1, 2^40] (docs/interchange.md §2.2). From a JSON list, or
// from text "64x32" / "tensor<64x32xf16>" (triton-tensor-layout's form).
Expected<std::vector<int64_t>> shapeFromJson(const nlohmann::json& j, const std::string& name);
Expected<std::vector<int64_t>> shapeFromText(std::string_view text, const std::string& name);

// A bank instruction: a built-in name ("cdna4.ds_read_b128") or a user model. From JSON (a
// string or a model object), or from text (a name, or a model's JSON text).
Expected<smem::BankInstruction> bankInstruction(const nlohmann::json& j, const std::string& name);
Expected<smem::BankInstruction> bankInstructionFromText(std::string_view text,
                                                        const std::string& name);

// Byte addresses of one issue, [[lane, byte], ...] with lanes in [0, 4095]. From JSON, or from
// text "0:0,1:144" or the same JSON as text.
Expected<std::vector<smem::LaneAddress>> laneAddresses(const nlohmann::json& j,
                                                       const std::string& name);
Expected<std::vector<smem::LaneAddress>> laneAddressesFromText(std::string_view text,
                                                               const std::string& name);

} // namespace layout::opargs
