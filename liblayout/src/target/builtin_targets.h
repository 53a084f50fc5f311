// Internal: the built-in hardware descriptions (JSON text).
#pragma once

namespace layout::target::detail {

// A JSON array of bank models (name, laneCount, banks, bankBytes, description, instructions).
const char* builtinBankModelsJson();
// A JSON array of target descriptions; "blockIo" and "bankModel" may name another built-in
// target's rules or a bank model instead of spelling them out.
const char* builtinTargetsJson();

} // namespace layout::target::detail
