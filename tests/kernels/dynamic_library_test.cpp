// DynamicLibrary (kernels/dynamic_library.h): the first path that opens, the failures of the
// others in order, symbols resolved by type, and the messages naming the library and the symbol.
#include "layout/kernels/dynamic_library.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

namespace layout::kernels {
namespace {

void placeholder() {}

TEST(DynamicLibrary, OpensTheFirstPathThatLoads) {
  DynamicLibrary libm("libm", {"/nonexistent/libm.so.6", "libm.so.6"});
  ASSERT_TRUE(libm.loaded()) << libm.loadError();
  EXPECT_EQ(libm.path(), "libm.so.6");
  EXPECT_EQ(libm.attempts(), ""); // one opened
  double (*cosine)(double) = nullptr;
  EXPECT_TRUE(libm.resolve(cosine, "cos"));
  ASSERT_NE(cosine, nullptr);
  EXPECT_EQ(cosine(0.0), 1.0);
  EXPECT_EQ(libm.missingSymbol(), "");
}

TEST(DynamicLibrary, NamesEveryFailedPath) {
  DynamicLibrary none("the test loader", {"/nonexistent/a.so", "/nonexistent/b.so"});
  EXPECT_FALSE(none.loaded());
  EXPECT_EQ(none.path(), "");
  const std::string& tried = none.attempts();
  const size_t a = tried.find("/nonexistent/a.so"), b = tried.find("/nonexistent/b.so");
  ASSERT_NE(a, std::string::npos) << tried;
  ASSERT_NE(b, std::string::npos) << tried;
  EXPECT_LT(a, b);
  EXPECT_NE(tried.find("; "), std::string::npos) << tried;
  EXPECT_EQ(none.loadError(), "cannot load the test loader (" + tried + ")");
  EXPECT_EQ(none.symbol("cos"), nullptr);
  void (*fn)() = placeholder;
  EXPECT_FALSE(none.resolve(fn, "cos"));
  EXPECT_EQ(fn, nullptr);
}

TEST(DynamicLibrary, RemembersTheLastMissingSymbol) {
  DynamicLibrary libm("libm", {"libm.so.6"});
  ASSERT_TRUE(libm.loaded()) << libm.loadError();
  void (*a)() = nullptr;
  void (*b)() = nullptr;
  double (*c)(double) = nullptr;
  EXPECT_FALSE(libm.resolve(a, "layout_no_such_symbol_1"));
  EXPECT_FALSE(libm.resolve(b, "layout_no_such_symbol_2"));
  EXPECT_TRUE(libm.resolve(c, "sin"));
  EXPECT_EQ(libm.missingSymbol(), "layout_no_such_symbol_2");
  EXPECT_EQ(libm.missingSymbolError(), "libm lacks layout_no_such_symbol_2");
}

TEST(DynamicLibrary, MovesAndCloses) {
  DynamicLibrary libm("libm", {"libm.so.6"});
  ASSERT_TRUE(libm.loaded());
  DynamicLibrary moved(std::move(libm));
  EXPECT_TRUE(moved.loaded());
  EXPECT_FALSE(libm.loaded()); // NOLINT(bugprone-use-after-move): moved-from state is defined
  EXPECT_NE(moved.symbol("cos"), nullptr);
  moved.close();
  EXPECT_FALSE(moved.loaded());
  EXPECT_EQ(moved.symbol("cos"), nullptr);
}

} // namespace
} // namespace layout::kernels
