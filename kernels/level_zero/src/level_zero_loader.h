// Internal: the Level Zero loader opened at run time (level_zero_loader.cpp).
#pragma once

#include <string>

namespace layout::level_zero {

// The loader's symbol `name`, or nullptr when the loader or the symbol is missing.
void* symbolOf(const char* name);
// Why the loader could not be opened ("" when it was).
std::string levelZeroLoaderError();

} // namespace layout::level_zero
