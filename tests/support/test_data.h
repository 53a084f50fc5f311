// The test data directory (tests/data) and whole-file reads from it.
#pragma once

#include <string>

namespace layout_test {

std::string dataDir();
// tests/data/<relativePath>, whole; a missing file is a test failure (and gives "").
std::string readDataFile(const std::string& relativePath);

} // namespace layout_test
