// Anchors the test-support library (the naive model sits beside it) and gives tests the data dir.
#include <string>

namespace layout_test {
std::string dataDir() {
  return LAYOUT_TEST_DATA_DIR;
}
} // namespace layout_test
