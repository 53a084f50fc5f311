#include "layout/views/base64_text.h"

#include <boost/archive/iterators/base64_from_binary.hpp>
#include <boost/archive/iterators/binary_from_base64.hpp>
#include <boost/archive/iterators/transform_width.hpp>

#include <algorithm>
#include <cctype>

namespace layout::views {

std::string base64Encode(std::string_view bytes, bool urlSafe) {
  using namespace boost::archive::iterators;
  using Encoder = base64_from_binary<transform_width<std::string_view::const_iterator, 6, 8>>;
  std::string out(Encoder(bytes.begin()), Encoder(bytes.end()));
  out.append((3 - bytes.size() % 3) % 3, '=');
  if (urlSafe)
    std::replace(out.begin(), out.end(), '+', '-'), std::replace(out.begin(), out.end(), '/', '_');
  return out;
}

layout::Expected<std::string> base64Decode(std::string_view text) {
  std::string clean;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (c == '-') c = '+';
    if (c == '_') c = '/';
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '/' && c != '=')
      return layout::makeError(std::string("base64: '") + c + "' is not a base64 character");
    clean += c;
  }
  while (!clean.empty() && clean.back() == '=') clean.pop_back();
  if (clean.find('=') != std::string::npos)
    return layout::makeError("base64: '=' may only end the text");
  if (clean.size() % 4 == 1) return layout::makeError("base64: the text is cut short");
  using namespace boost::archive::iterators;
  using Decoder = transform_width<binary_from_base64<std::string::const_iterator>, 8, 6>;
  // The last partial group carries only padding bits: drop the bytes they would make.
  std::string out(Decoder(clean.begin()), Decoder(clean.end()));
  out.resize(clean.size() * 3 / 4);
  return out;
}

} // namespace layout::views
