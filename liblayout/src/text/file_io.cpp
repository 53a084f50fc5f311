#include "layout/text/file_io.h"

#include "layout/core/resource_limits.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>

namespace layout {

namespace {

constexpr const char* kInputHint = "raise it with LAYOUT_MAX_INPUT_BYTES";

// Appends at most `budget` + 1 bytes of `in` to `out`; true when more than `budget` were there.
bool readAtMost(std::istream& in, std::string& out, uint64_t budget) {
  char buffer[1 << 16];
  while (in) {
    const uint64_t want = std::min<uint64_t>(sizeof buffer, budget - out.size() + 1);
    in.read(buffer, std::streamsize(want));
    out.append(buffer, size_t(in.gcount()));
    if (out.size() > budget) return true;
  }
  return false;
}

Error tooLarge(const std::string& what, const std::string& source, uint64_t limit) {
  return makeError(what + ": " + source + " is larger than the limit of " + describeBytes(limit) +
                   " (" + kInputHint + ")");
}

} // namespace

std::string describeBytes(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 30) && bytes % (uint64_t{1} << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (uint64_t{1} << 20) && bytes % (uint64_t{1} << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

Expected<std::string> readInputFile(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  const std::string quoted = "'" + path + "'";
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status))
    return makeError(what + ": cannot read file " + quoted +
                     (ec ? " (" + ec.message() + ")" : std::string(" (no such file)")));
  // Devices and sockets never end or are not files: /dev/zero would be read until memory runs out.
  if (fs::is_directory(status))
    return makeError(what + ": " + quoted + " is a directory, not a file");
  if (fs::is_character_file(status))
    return makeError(what + ": " + quoted + " is a character device, not a file");
  if (fs::is_block_file(status))
    return makeError(what + ": " + quoted + " is a block device, not a file");
  if (fs::is_socket(status)) return makeError(what + ": " + quoted + " is a socket, not a file");
  const uint64_t limit = resourceLimits().maxInputBytes;
  if (fs::is_regular_file(status)) {
    uint64_t size = fs::file_size(path, ec);
    if (!ec && size > limit)
      return makeError(what + ": " + quoted + " has " + std::to_string(size) +
                       " bytes, more than the limit of " + describeBytes(limit) + " (" +
                       kInputHint + ")");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return makeError(what + ": cannot read file " + quoted);
  std::string text;
  if (readAtMost(file, text, limit)) return tooLarge(what, quoted, limit);
  if (file.bad()) return makeError(what + ": reading " + quoted + " failed");
  return text;
}

Expected<std::string> readInputStream(std::istream& in, const std::string& what) {
  const uint64_t limit = resourceLimits().maxInputBytes;
  std::string text;
  if (readAtMost(in, text, limit)) return tooLarge(what, "standard input", limit);
  if (in.bad()) return makeError(what + ": reading standard input failed");
  return text;
}

LineRead readBoundedLine(std::istream& in, std::string& line, uint64_t maxBytes) {
  line.clear();
  std::streambuf* buffer = in.rdbuf();
  if (!buffer) return LineRead::End;
  bool any = false;
  // Character by character through the stream buffer (inline while its buffer has data): a
  // line is never stored beyond `maxBytes`.
  for (;;) {
    int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return any ? LineRead::Line : LineRead::End;
    }
    any = true;
    if (c == '\n') return LineRead::Line;
    if (line.size() == maxBytes) {
      buffer->sungetc();
      return LineRead::TooLong;
    }
    line += char(c);
  }
}

Expected<void> writeOutputFile(const std::string& path, std::string_view data,
                               const std::string& what) {
  // stdio rather than ofstream: fwrite and fclose report the failing write's errno.
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return makeError(what + ": cannot write '" + path + "' (" + std::strerror(errno) + ")");
  const bool written = std::fwrite(data.data(), 1, data.size(), f) == data.size();
  const int writeErrno = errno;
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed)
    return makeError(what + ": writing '" + path + "' failed (" +
                     std::strerror(written ? errno : writeErrno) + ")");
  return {};
}

void skipRestOfLine(std::istream& in) {
  std::streambuf* buffer = in.rdbuf();
  if (!buffer) return;
  for (;;) {
    int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return;
    }
    if (c == '\n') return;
  }
}

} // namespace layout
