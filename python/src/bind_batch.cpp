// gf2layout._core's batch protocol (docs/interchange.md §2): one request, its result as Python
// objects. Every capability of the library without a binding of its own is reached this way.
#include "layout/protocol/batch.h"
#include "module_bindings.h"

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

namespace py = pybind11;

namespace gf2layout {

void bindBatch(py::module_& m) {
  m.def(
      "batch",
      [](const std::string& op, const py::dict& args) {
        // One request of the batch protocol; the result is the response's `result` as Python
        // objects (dicts and lists mirroring its JSON), or ValueError with its error.
        nlohmann::json request = {{"id", 0}, {"op", op}, {"args", pythonToJson(args)}};
        static const layout::BatchProcessor processor;
        const nlohmann::json response =
            nlohmann::json::parse(processor.processLine(request.dump()));
        if (response.contains("error")) throw py::value_error(response["error"].get<std::string>());
        return jsonToPython(response["result"]);
      },
      py::arg("op"), py::arg("args"),
      "Runs one op of the batch protocol (docs/interchange.md §2) and returns its result.");
}

} // namespace gf2layout
