#include "layout/views/svg_export.h"

#include "layout/views/base64_text.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace layout::views {

namespace {

std::string color(Rgba c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

std::string num(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", double(v));
  return buf;
}

// A label's font size: 11 px, smaller when the longest line would not fit the cell.
float fontSize(const std::string& label, float w, float h) {
  size_t longest = 0, line = 0, lines = 1;
  for (char c : label) {
    if (c == '\n') {
      ++lines;
      line = 0;
    } else {
      longest = std::max(longest, ++line);
    }
  }
  float byWidth = longest ? (w - 2) / (0.62f * float(longest)) : 11;
  return std::max(2.f, std::min({11.f, byWidth, (h - 2) / (1.2f * float(lines))}));
}

void writeText(std::ostringstream& o, float x, float y, float size, Rgba c, const std::string& t,
               const char* anchor = "start") {
  o << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << num(size)
    << "\" fill=\"" << color(c) << "\" text-anchor=\"" << anchor << "\">" << xmlEscape(t)
    << "</text>";
}

void writeLine(std::ostringstream& o, float x0, float y0, float x1, float y1, Rgba c, float width) {
  o << "<line x1=\"" << num(x0) << "\" y1=\"" << num(y0) << "\" x2=\"" << num(x1) << "\" y2=\""
    << num(y1) << "\" stroke=\"" << color(c) << "\" stroke-width=\"" << num(width) << "\"/>\n";
}

// A large grid as one PNG with a pixel per cell, drawn at the grid's size without smoothing.
void writeRasterGrid(std::ostringstream& o, const CellGrid& g, const SvgOptions& options) {
  std::vector<uint8_t> rgba(size_t(g.rows) * size_t(g.cols) * 4);
  for (size_t i = 0; i < size_t(g.rows) * size_t(g.cols); ++i) {
    const Rgba c =
        (i < g.marks.size() && (g.marks[i] & kMarkUnowned)) ? palette::kUnowned : g.fill[i];
    rgba[4 * i] = c.r, rgba[4 * i + 1] = c.g, rgba[4 * i + 2] = c.b, rgba[4 * i + 3] = 255;
  }
  o << "<desc>" << g.rows << "x" << g.cols
    << " cells as an image, one pixel per cell: labels and marks are left out at this size "
       "(the explorer shows them when zoomed in)</desc>\n"
    << "<image class=\"cells\" x=\"" << num(g.x) << "\" y=\"" << num(g.y) << "\" width=\""
    << num(g.width()) << "\" height=\"" << num(g.height())
    << "\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" "
       "href=\"data:image/png;base64,"
    << base64Encode(options.encodePng(rgba, g.cols, g.rows)) << "\"/>\n";
}

} // namespace

std::string xmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  auto hex = [&](const char* prefix, uint32_t v, int digits) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%s%0*x", prefix, digits, unsigned(v));
    out += buf;
  };
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\r': // allowed, but a parser would turn a raw one into '\n'
        out += "&#13;";
        break;
      default:
        // Tab and newline stay; the other C0 controls (ESC, NUL, ...) and DEL as "\x1b".
        if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
          hex("\\x", c, 2);
        else
          out += char(c);
      }
      ++i;
      continue;
    }
    // A UTF-8 sequence: its length from the lead byte, then continuation bytes, no overlong
    // forms, no surrogates, at most U+10FFFF.
    const size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    uint32_t cp = len == 4 ? c & 0x07u : len == 3 ? c & 0x0fu : c & 0x1fu;
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k) {
      const unsigned char b = static_cast<unsigned char>(text[i + k]);
      ok = (b & 0xc0) == 0x80;
      cp = cp << 6 | (b & 0x3fu);
    }
    static constexpr uint32_t kMinOf[] = {0, 0, 0x80, 0x800, 0x10000};
    ok = ok && cp >= kMinOf[len] && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
    if (!ok) { // not UTF-8: the byte as "\xff"
      hex("\\x", c, 2);
      ++i;
      continue;
    }
    // C1 controls and the non-characters XML 1.0 excludes as "\u0085", "\ufffe".
    if ((cp >= 0x80 && cp <= 0x9f) || cp == 0xfffe || cp == 0xffff)
      hex("\\u", cp, 4);
    else
      out.append(text, i, len);
    i += len;
  }
  return out;
}

std::string sceneToSvg(const Scene& s, const SvgOptions& options) {
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(s.width) << "\" height=\""
    << num(s.height) << "\" viewBox=\"0 0 " << num(s.width) << " " << num(s.height)
    << "\" font-family=\"DejaVu Sans Mono, monospace\">\n";
  if (!s.title.empty()) o << "<title>" << xmlEscape(s.title) << "</title>\n";
  o << "<defs><pattern id=\"unowned\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
       "<path d=\"M0,6 L6,0\" stroke=\"#999999\" stroke-width=\"1\"/></pattern></defs>\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"" << color(palette::kBackground) << "\"/>\n";

  for (const auto& g : s.grids) {
    o << "<g class=\"grid\" data-grid=\"" << xmlEscape(g.id) << "\" data-rows=\"" << g.rows
      << "\" data-cols=\"" << g.cols << "\">\n";
    for (size_t r = 0; r < g.rowHeaders.size() && int(r) < g.rows; ++r)
      writeText(o, g.x - 4, g.y + (float(r) + 0.5f) * g.cellH + 4, std::min(11.f, g.cellH - 1),
                palette::kText, g.rowHeaders[r], "end");
    for (size_t c = 0; c < g.colHeaders.size() && int(c) < g.cols; ++c)
      writeText(o, g.x + (float(c) + 0.5f) * g.cellW, g.y - 5, std::min(11.f, g.cellW - 1),
                palette::kText, g.colHeaders[c], "middle");
    o << "\n";
    if (options.encodePng && size_t(g.rows) * size_t(g.cols) > options.maxVectorCells &&
        g.fill.size() >= size_t(g.rows) * size_t(g.cols)) {
      writeRasterGrid(o, g, options);
      o << "</g>\n";
      continue;
    }
    for (int r = 0; r < g.rows; ++r) {
      for (int c = 0; c < g.cols; ++c) {
        size_t i = size_t(g.index(r, c));
        float x = g.x + float(c) * g.cellW, y = g.y + float(r) * g.cellH;
        uint8_t mark = i < g.marks.size() ? g.marks[i] : 0;
        Rgba fill = i < g.fill.size() ? g.fill[i] : palette::kUnowned;
        Rgba stroke = palette::kGridLine;
        float strokeW = 0.5f;
        if (mark & kMarkOutline) stroke = palette::kOutline, strokeW = 2;
        if (mark & kMarkConflict) stroke = palette::kConflict, strokeW = 2;
        if (mark & kMarkHighlight) stroke = palette::kHighlight, strokeW = 2.5f;
        o << "<g class=\"cell\" data-grid=\"" << xmlEscape(g.id) << "\" data-row=\"" << r
          << "\" data-col=\"" << c << "\"";
        if (mark & kMarkHighlight) o << " data-highlight=\"1\"";
        if (mark & kMarkBroadcast) o << " data-broadcast=\"1\"";
        if (mark & kMarkUnowned) o << " data-unowned=\"1\"";
        if (mark & kMarkConflict) o << " data-conflict=\"1\"";
        o << "><rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(g.cellW)
          << "\" height=\"" << num(g.cellH) << "\" fill=\""
          << ((mark & kMarkUnowned) ? std::string("url(#unowned)") : color(fill)) << "\" stroke=\""
          << color(stroke) << "\" stroke-width=\"" << num(strokeW) << "\"/>";
        if (mark & kMarkBroadcast)
          o << "<path d=\"M" << num(x + g.cellW - 7) << "," << num(y) << " L" << num(x + g.cellW)
            << "," << num(y) << " L" << num(x + g.cellW) << "," << num(y + 7)
            << " Z\" fill=\"#222222\"/>";
        const std::string& label = i < g.labels.size() ? g.labels[i] : std::string();
        if (!label.empty()) {
          float size = fontSize(label, g.cellW, g.cellH);
          Rgba tc = palette::textOn(fill);
          size_t nl = label.find('\n');
          if (nl == std::string::npos) {
            writeText(o, x + g.cellW / 2, y + g.cellH / 2 + size * 0.35f, size, tc, label,
                      "middle");
          } else {
            // Two lines: tspans keep them one <text> so the label reads back whole.
            o << "<text x=\"" << num(x + g.cellW / 2) << "\" y=\""
              << num(y + g.cellH / 2 - size * 0.25f) << "\" font-size=\"" << num(size)
              << "\" fill=\"" << color(tc) << "\" text-anchor=\"middle\"><tspan>"
              << xmlEscape(label.substr(0, nl)) << "</tspan><tspan x=\"" << num(x + g.cellW / 2)
              << "\" dy=\"" << num(size * 1.1f) << "\">" << xmlEscape(label.substr(nl + 1))
              << "</tspan></text>";
          }
        }
        o << "</g>\n";
      }
    }
    // Group boundaries over the cells.
    for (int r = 0; r < g.rows && !g.edges.empty(); ++r)
      for (int c = 0; c < g.cols; ++c) {
        const uint8_t e = g.edges[size_t(g.index(r, c))];
        const float x = g.x + float(c) * g.cellW, y = g.y + float(r) * g.cellH;
        if (e & kEdgeRight)
          writeLine(o, x + g.cellW, y, x + g.cellW, y + g.cellH, palette::kBoundary, 2.5f);
        if (e & kEdgeBottom)
          writeLine(o, x, y + g.cellH, x + g.cellW, y + g.cellH, palette::kBoundary, 2.5f);
      }
    o << "</g>\n";
  }
  for (const auto* rects : {&s.rects, &s.legendRects})
    for (const auto& r : *rects) {
      o << "<rect x=\"" << num(r.x) << "\" y=\"" << num(r.y) << "\" width=\"" << num(r.w)
        << "\" height=\"" << num(r.h) << "\" fill=\"" << (r.fill.a ? color(r.fill) : "none")
        << "\" stroke=\"" << (r.stroke.a ? color(r.stroke) : "none") << "\" stroke-width=\""
        << num(r.strokeWidth) << "\"/>\n";
    }
  for (const auto& l : s.lines) writeLine(o, l.x0, l.y0, l.x1, l.y1, l.color, l.width);
  for (const auto* texts : {&s.texts, &s.legendTexts})
    for (const auto& t : *texts) {
      writeText(o, t.x, t.y + t.size * 0.85f, t.size, t.color, t.text);
      o << "\n";
    }
  o << "</svg>\n";
  return o.str();
}

} // namespace layout::views
