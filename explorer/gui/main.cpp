// layout-explorer: the desktop explorer (Dear ImGui + GLFW + OpenGL 3), with headless modes
// for tests and scripts: --screenshot renders frames and writes a PNG, --svg writes the view
// without opening a window, --script feeds mouse and key events from a file.
#include "explorer_app.h"
#include "explorer_examples.h"

#include "layout/core/resource_limits.h"
#include "layout/text/file_io.h"
#include "layout/views/svg_export.h"
#include "layout/views/ui_script.h"
#include "png_image.h"
#include "script_runner.h"
#include "session_state.h"

#include <nlohmann/json.hpp>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <GLFW/glfw3.h>

#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

using namespace layout::views;

namespace {

constexpr const char* kUsage =
    R"(layout-explorer: see a layout's lane/register maps, GF(2) matrix, bank heat maps and
block-load tilings.

usage: layout-explorer [options]

layout:
  --layout TEXT        layout A: TritonGPU encoding text, #xegpu attribute, layout JSON, #alias,
                       or @file (default: a 16x16 #ttg.blocked tile over 32 lanes)
  --shape RxC          tensor shape for encoding text (default 16x16)
  --input FILE         alias file (`#name = <attribute>` lines) or a TTGIR file (its aliases and
                       tensor types are offered); --layout '#name' picks an alias. A kernel's
                       MLIR also lists its ops with their cost (layoutctl report): a click on
                       one opens its view (convert, banks, operands or tensor) with its layouts
  --example NAME       open a built-in example (its layout and view; options after it override)
  --layout-b TEXT      layout B (algebra, diff)
  --op OP              none, compose (A then B), invert, invert-and-compose, product
  --view VIEW          tensor, hw, matrix, banks, blockload, diff, operands, convert
                       (default tensor)
  --color-by DIM       in-dim of the shown layout that colours the cells (default lane); the
                       banks view also takes bank, phase or vector (its shared-layout grid)
banks view (the access is layout A):
  --shared TEXT        shared layout (default: row-major #ttg.swizzled_shared)
  --instruction NAME   bank model instruction (default nvidia.ld.b32; see layoutctl banks --list)
  --element-bits N     element size in bits (default 16; --elem-bits is an alias)
blockload view:        layout A is a DPAS operand (#ttg.dot_op of #ttig.dpas), or the XeGPU layout
                       (#xegpu.layout, #xegpu.slice, #xegpu.sg_map) of a load_nd's tensor
                       descriptor over --shape (the workgroup tile when it has sg_layout)
  --work-item N        the work-item whose registers are shown (default 0)
  --block RxC          XeGPU: the block one 2D load moves, e.g. 8x16 (default: the layout's
                       inst_data, else sg_data, else the whole shape); it must divide sg_data
                       and be a legal load on the target
  --array-length N     XeGPU: the descriptor's array_length, N blocks side by side per load
                       (the memory drawn is N descriptors wide; default 1)
convert view:          layout A converted to layout B (layoutctl convert); --element-bits and
                       --instruction's vendor (nvidia, cdna3, cdna4, xe) as for the banks view
operands view:         layout A is an MMA encoding (or a #ttg.dot_op of one) over M x N
  --k K                the K of the operands A (M x K) and B (K x N) (default 32);
                       --element-bits picks their kWidth
headless:
  --screenshot FILE    render --frames frames (default 3), write the window as PNG, exit
  --svg FILE           write the view as SVG (no window needed unless with --screenshot)
  --script FILE        run scripted mouse/key input (see explorer/gui/README.md), then exit;
                       a script spans at most 4096 frames and 120 s (LAYOUT_MAX_SCRIPT_FRAMES,
                       LAYOUT_MAX_SCRIPT_SECONDS)
  --report FILE        after the run, write the UI state as JSON (selection, counts, frame times)
  --frames N           frames to render before exiting (0: interactive)
  --size WxH           window size (default 1400x900)
  --state TEXT         restore a session: a state string (Export panel, or a report's
                       exports.state); it replaces the layout and view options
  --theme T            light (default) or dark
  --ui-scale S         UI and text scale in [0.5, 4] (default: the monitor's content scale)
  --panel-width W      the side panel's width at scale 1 (default 430; drag its edge to change)
  --zoom Z             start zoom: labels (default: the smallest zoom where labels show; a view
                       of several grids opens framed on all of them when they would not all
                       fit there), fit (the whole view) or a number (1 = one scene unit per pixel)
  --help

exit status: 0 ok, 1 invalid input (message starts with "error:"), 2 usage, 3 no display.

example:
  layout-explorer --layout '#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8],
    warpsPerCTA = [1, 1], order = [1, 0]}>' --shape 16x16 --view tensor --screenshot out.png
)";

constexpr const char* kDefaultLayout =
    "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], "
    "order = [1, 0]}>";

struct UsageError {
  std::string message;
};

struct Options {
  ExplorerInputs inputs;
  std::string screenshot, svg, script, report, state;
  int frames = -1;
  int width = 1400, height = 900;
};

// The bounds on a script (docs/limits.md), from LAYOUT_MAX_SCRIPT_FRAMES and
// LAYOUT_MAX_SCRIPT_SECONDS.
struct ScriptBounds {
  uint64_t maxFrames = ScriptLimits{}.maxFrames;
  uint64_t maxSeconds = 120;
};

// A positive decimal integer from `variable` (as the library reads its LAYOUT_MAX_* variables),
// or `byDefault` when it is not set.
layout::Expected<uint64_t> limitFromEnvironment(const char* variable, uint64_t byDefault) {
  const char* text = std::getenv(variable);
  if (!text) return byDefault;
  const std::string s(text);
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
    return layout::makeError(std::string(variable) +
                             ": expected a positive decimal integer, got '" + s.substr(0, 40) +
                             "'");
  const uint64_t v = std::stoull(s);
  if (v == 0) return layout::makeError(std::string(variable) + ": must be at least 1");
  return v;
}

layout::Expected<ScriptBounds> scriptBoundsFromEnvironment() {
  ScriptBounds b;
  LAYOUT_TRY_ASSIGN(frames, limitFromEnvironment("LAYOUT_MAX_SCRIPT_FRAMES", b.maxFrames));
  LAYOUT_TRY_ASSIGN(seconds, limitFromEnvironment("LAYOUT_MAX_SCRIPT_SECONDS", b.maxSeconds));
  b.maxFrames = frames;
  b.maxSeconds = seconds;
  return b;
}

struct InputError {
  std::string message;
};

std::string numberText(float v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string readArgFile(const std::string& value, const std::string& option) {
  if (value.empty() || value[0] != '@') return value;
  auto text = layout::readInputFile(value.substr(1), option);
  if (!text) throw InputError{text.error().message};
  return std::move(*text);
}

int parseInt(const std::string& v, const std::string& option, int lo, int hi) {
  try {
    size_t used = 0;
    long x = std::stol(v, &used);
    if (used == v.size() && x >= lo && x <= hi) return int(x);
  } catch (...) {
  }
  throw UsageError{option + " must be an integer in [" + std::to_string(lo) + ", " +
                   std::to_string(hi) + "], not '" + v + "'"};
}

Options parseArgs(int argc, char** argv) {
  Options o;
  o.inputs.layoutA = kDefaultLayout;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") throw UsageError{""};
    if (a.rfind("--", 0) != 0) throw UsageError{"unexpected argument '" + a + "'"};
    static const std::set<std::string> kOptions = {
        "--layout",      "--layout-b",     "--shape",     "--input",     "--shared",
        "--instruction", "--element-bits", "--elem-bits", "--work-item", "--color-by",
        "--screenshot",  "--svg",          "--script",    "--report",    "--frames",
        "--view",        "--op",           "--size",      "--zoom",      "--state",
        "--k",           "--example",      "--theme",     "--ui-scale",  "--panel-width",
        "--block",       "--array-length"};
    std::string value;
    size_t eq = a.find('=');
    if (!kOptions.count(a.substr(0, eq)))
      throw UsageError{"unknown option '" + a.substr(0, eq) + "' (see --help)"};
    if (eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
    } else {
      if (i + 1 >= argc) throw UsageError{a + " needs a value"};
      value = argv[++i];
    }
    if (a == "--layout")
      o.inputs.layoutA = readArgFile(value, a);
    else if (a == "--layout-b")
      o.inputs.layoutB = readArgFile(value, a);
    else if (a == "--shape")
      o.inputs.shape = value;
    else if (a == "--input")
      o.inputs.aliasFile = value;
    else if (a == "--shared")
      o.inputs.shared = readArgFile(value, a);
    else if (a == "--instruction")
      o.inputs.instruction = value;
    else if (a == "--element-bits" || a == "--elem-bits") // --elem-bits: the first spelling
      o.inputs.elemBits = parseInt(value, a, 1, 64);
    else if (a == "--work-item")
      o.inputs.workItem = parseInt(value, a, 0, 1023);
    else if (a == "--block") // checked by the view (an error, like a bad --shape)
      o.inputs.block = value;
    else if (a == "--array-length")
      o.inputs.arrayLength = parseInt(value, a, 1, 64);
    else if (a == "--example") {
      const Example* e = findExample(value);
      if (!e) {
        std::string names;
        for (const Example& x : examples()) names += (names.empty() ? "" : ", ") + x.name;
        throw UsageError{"--example must be one of " + names + ", not '" + value + "'"};
      }
      const std::string zoom = o.inputs.zoom;
      o.inputs = e->inputs;
      o.inputs.zoom = zoom;
    } else if (a == "--theme") {
      if (value != "light" && value != "dark")
        throw UsageError{"--theme must be light or dark, not '" + value + "'"};
      o.inputs.theme = value;
    } else if (a == "--ui-scale" || a == "--panel-width") {
      const float lo = a == "--ui-scale" ? 0.5f : 200, hi = a == "--ui-scale" ? 4 : 2000;
      size_t used = 0;
      float v = 0;
      try {
        v = std::stof(value, &used);
      } catch (...) {
      }
      if (used != value.size() || !(v >= lo && v <= hi))
        throw UsageError{a + " must be a number in [" + numberText(lo) + ", " + numberText(hi) +
                         "], not '" + value + "'"};
      (a == "--ui-scale" ? o.inputs.uiScale : o.inputs.panelWidth) = v;
    } else if (a == "--k")
      o.inputs.k = parseInt(value, a, 1, 1 << 16);
    else if (a == "--color-by")
      o.inputs.colorBy = value;
    else if (a == "--screenshot")
      o.screenshot = value;
    else if (a == "--svg")
      o.svg = value;
    else if (a == "--script")
      o.script = value;
    else if (a == "--report")
      o.report = value;
    else if (a == "--state")
      o.state = readArgFile(value, a);
    else if (a == "--frames")
      o.frames = parseInt(value, a, 0, 100000);
    else if (a == "--zoom") {
      if (value != "labels" && value != "fit") {
        size_t used = 0;
        float z = 0;
        try {
          z = std::stof(value, &used);
        } catch (...) {
        }
        if (used != value.size() || !(z >= 0.01f && z <= 8))
          throw UsageError{"--zoom must be labels, fit or a number in [0.01, 8], not '" + value +
                           "'"};
      }
      o.inputs.zoom = value;
    } else if (a == "--view") {
      auto v = viewFromName(value);
      if (!v)
        throw UsageError{"--view must be tensor, hw, matrix, banks, blockload, diff, operands or "
                         "convert, not '" +
                         value + "'"};
      o.inputs.view = *v;
    } else if (a == "--op") {
      auto op = opFromName(value);
      if (!op)
        throw UsageError{
            "--op must be none, compose, invert, invert-and-compose or product, not '" + value +
            "'"};
      o.inputs.op = *op;
    } else if (a == "--size") {
      size_t x = value.find('x');
      if (x == std::string::npos) throw UsageError{"--size must be WxH, like 1400x900"};
      o.width = parseInt(value.substr(0, x), "--size width", 320, 8192);
      o.height = parseInt(value.substr(x + 1), "--size height", 240, 8192);
    } else {
      throw UsageError{"unknown option '" + a + "' (see --help)"};
    }
  }
  return o;
}

// Writes `text`; an error (a full disk, a missing directory) is printed with the option's name.
bool writeText(const std::string& path, const std::string& text, const std::string& option) {
  if (auto e = layout::writeOutputFile(path, text, option); !e) {
    std::cerr << "error: " << e.error().message << "\n";
    return false;
  }
  return true;
}

// Reads the back buffer (before the swap) and writes it top row first. The PNG is encoded in
// memory and written by writeOutputFile: stbi_write_png reports no failed writes.
bool writePng(const std::string& path, int w, int h) {
  std::vector<unsigned char> pixels(size_t(w) * size_t(h) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  for (size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;
  const int stride = w * 4;
  // OpenGL's rows start at the bottom.
  const std::string png = encodePng(pixels.data() + size_t(stride) * size_t(h - 1), w, h, -stride);
  return !png.empty() && layout::writeOutputFile(path, png, "png").ok();
}

std::string glfwErrorText;
void onGlfwError(int code, const char* text) {
  glfwErrorText = "GLFW error " + std::to_string(code) + ": " + (text ? text : "");
}

// The --color-by dim must be an in-dim of the layout shown (checked once, at start-up: the
// panel's menu offers only in-dims, and a later layout without it falls back to the default).
std::string colorByError(const ExplorerApp& app, const Options& o) {
  std::string e = app.colorByError();
  if (e.empty()) return "";
  return (o.state.empty() ? "--color-by: " : "--state: colorBy: ") + e;
}

int run(const Options& o, const ScriptBounds& bounds) {
  ExplorerApp app(o.inputs);
  if (!o.state.empty()) {
    auto state = decodeSessionState(o.state);
    if (!state) {
      std::cerr << "error: --state: " << state.error().message << "\n";
      return 1;
    }
    app.restoreState(*state);
  }
  const bool headless = !o.screenshot.empty() || !o.script.empty() || o.frames > 0;
  if (headless || !o.svg.empty()) {
    // In scripted and one-shot runs an invalid input is an error, not a panel message.
    if (std::string e = app.error(); !e.empty()) {
      std::cerr << "error: " << e << "\n";
      return 1;
    }
  }
  if (std::string e = colorByError(app, o); !e.empty()) {
    std::cerr << "error: " << e << "\n";
    return 1;
  }
  std::vector<ScriptCommand> script;
  if (!o.script.empty()) {
    auto text = layout::readInputFile(o.script, "--script");
    if (!text) {
      std::cerr << "error: " << text.error().message << "\n";
      return 1;
    }
    ScriptLimits limits;
    limits.maxFrames = bounds.maxFrames;
    limits.windowWidth = o.width;
    limits.windowHeight = o.height;
    auto parsed = parseScript(*text, limits);
    if (!parsed) {
      std::cerr << "error: " << o.script << ": " << parsed.error().message << "\n";
      return 1;
    }
    script = std::move(*parsed);
  }
  if (!o.svg.empty() && !writeText(o.svg, sceneToSvg(app.scene(), svgOptionsWithPng()), "--svg"))
    return 1;
  if (!o.svg.empty() && o.screenshot.empty() && o.script.empty() && o.frames < 0) {
    if (!o.report.empty() && !writeText(o.report, app.report().dump(2) + "\n", "--report"))
      return 1;
    return 0;
  }

  glfwSetErrorCallback(onGlfwError);
  if (!glfwInit()) {
    std::cerr << "error: no display: cannot start GLFW (" << glfwErrorText
              << "); run under xvfb-run for headless use, or use --svg alone\n";
    return 3;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  GLFWwindow* window = glfwCreateWindow(o.width, o.height, "layout explorer", nullptr, nullptr);
  if (!window) {
    std::cerr << "error: no display: cannot open an OpenGL 3.3 window (" << glfwErrorText << ")\n";
    glfwTerminate();
    return 3;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(headless ? 0 : 1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  {
    float xs = 1, ys = 1;
    glfwGetWindowContentScale(window, &xs, &ys);
    app.applyDisplay(std::max(xs, ys));
  }
  // DejaVu Sans Mono (fonts-dejavu-core) reads better than the built-in bitmap font once labels
  // are scaled with the zoom; it is rasterized at twice the size so scaled-down text stays sharp.
  // Without the file the built-in font is used.
  const char* kFont = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
  if (std::ifstream(kFont).good()) {
    ImFontConfig cfg;
    cfg.OversampleH = 2;
    if (ImFont* f = io.Fonts->AddFontFromFileTTF(kFont, 26.f, &cfg)) {
      f->Scale = 0.5f; // 13 px on screen
      io.FontDefault = f;
    }
  }
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330");

  ScriptRunner runner(std::move(script));
  int rc = 0;
  int frame = 0;
  const int frames = o.frames >= 0 ? o.frames : (!o.screenshot.empty() ? 3 : 0);
  std::string pendingPng;
  const auto scriptStart = std::chrono::steady_clock::now();
  while (!glfwWindowShouldClose(window)) {
    auto t0 = std::chrono::steady_clock::now();
    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (!o.script.empty()) {
      runner.inject(io, app);
    } else if (headless) {
      // A headless run shows no pointer: the X server's (wherever it was left) would hover a
      // cell, and the screenshot would depend on it.
      io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
      for (bool& down : io.MouseDown) down = false;
      io.MouseWheel = 0;
    }
    ImGui::NewFrame();
    app.frame();
    ImGui::Render();
    int fw, fh;
    glfwGetFramebufferSize(window, &fw, &fh);
    glViewport(0, 0, fw, fh);
    if (o.inputs.theme == "dark")
      glClearColor(0.125f, 0.125f, 0.14f, 1);
    else
      glClearColor(0.98f, 0.98f, 0.98f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glFinish();
    app.recordFrameTime(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    ++frame;
    // Writes requested by the app (Save PNG) or the script happen on the rendered frame.
    if (!app.pendingPng.empty()) {
      writePng(app.pendingPng, fw, fh);
      app.pendingPng.clear();
    }
    if (!o.script.empty()) {
      auto step =
          runner.afterFrame(app, [&](const std::string& path) { return writePng(path, fw, fh); });
      if (!step.error.empty()) {
        std::cerr << "error: " << o.script << ": " << step.error << "\n";
        rc = 1;
        break;
      }
      // The frames were bounded before the run; a frame's time depends on the view, so the
      // script's running time is bounded too.
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - scriptStart).count();
      if (!step.done && seconds > double(bounds.maxSeconds)) {
        std::cerr << "error: " << o.script << ": line " << runner.currentLine()
                  << ": the script has run for more than " << bounds.maxSeconds
                  << " s, the limit of one script (raise it with LAYOUT_MAX_SCRIPT_SECONDS)\n";
        rc = 1;
        break;
      }
      if (step.done && frame >= frames) break;
    } else if (headless && frame >= frames) {
      break;
    }
    glfwSwapBuffers(window);
  }
  if (rc == 0 && !o.screenshot.empty()) {
    int fw, fh;
    glfwGetFramebufferSize(window, &fw, &fh);
    if (!writePng(o.screenshot, fw, fh)) {
      std::cerr << "error: --screenshot: cannot write " << o.screenshot << "\n";
      rc = 1;
    }
  }
  if (rc == 0 && !o.report.empty() && !writeText(o.report, app.report().dump(2) + "\n", "--report"))
    rc = 1;
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return rc;
}

} // namespace

int main(int argc, char** argv) {
  if (auto limits = layout::resourceLimitsFromEnvironment()) {
    layout::setResourceLimits(*limits);
  } else {
    std::cerr << "error: " << limits.error().message << "\n";
    return 1;
  }
  auto bounds = scriptBoundsFromEnvironment();
  if (!bounds) {
    std::cerr << "error: " << bounds.error().message << "\n";
    return 1;
  }
  try {
    return run(parseArgs(argc, argv), *bounds);
  } catch (const UsageError& e) {
    if (e.message.empty()) {
      std::cout << kUsage;
      return 0;
    }
    std::cerr << "error: " << e.message << "\n"
              << "usage: layout-explorer [options] (see --help)\n";
    return 2;
  } catch (const InputError& e) {
    std::cerr << "error: " << e.message << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of memory: the input needs more memory than is available "
                 "(docs/limits.md lists the limits on input sizes)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
