// Anchors the test-support library (the naive model sits beside it) and gives tests the data dir.
#include "support/test_data.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace layout_test {

std::string dataDir() {
  return LAYOUT_TEST_DATA_DIR;
}

std::string readDataFile(const std::string& relativePath) {
  std::ifstream in(dataDir() + "/" + relativePath, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing tests/data/" << relativePath;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace layout_test
