// Base64 (RFC 4648) through Boost's archive iterators: the images in SVG exports and the
// explorer's state strings, which travel in chat messages and URLs (the URL-safe alphabet).
//
//   std::string s = layout::views::base64Encode("layout", /*urlSafe=*/true);   // "bGF5b3V0"
//   auto back = layout::views::base64Decode(s);                                 // "layout"
#pragma once

#include "layout/core/expected.h"

#include <string>
#include <string_view>

namespace layout::views {

// Padded with '=' to a multiple of 4; urlSafe uses '-' and '_' for '+' and '/'.
std::string base64Encode(std::string_view bytes, bool urlSafe = false);
// Either alphabet, padding optional, whitespace ignored; other characters are an error.
layout::Expected<std::string> base64Decode(std::string_view text);

} // namespace layout::views
