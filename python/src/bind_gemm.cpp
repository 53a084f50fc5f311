// gf2layout._core's DPAS GEMM kernel (layoutctl gemm): the kernel built from a configuration
// (its plan, static report and OpenCL C), and a run of it in the Xe simulator, verified.
#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/codegen/opencl_emitter.h"
#include "layout/kernels/gemm_verification.h"
#include "layout/kernels/xe_simulator.h"
#include "module_bindings.h"

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>

namespace py = pybind11;

namespace gf2layout {

namespace {

// A GEMM configuration from keyword-style values: the keys of the configuration JSON
// (codegen::gemmConfigFromJson: m, n, k, dtype, arch, sg_layout, sg_data, k_tile, ...).
layout::codegen::GemmKernel gemmKernel(const py::dict& config) {
  auto c = orRaise(layout::codegen::gemmConfigFromJson(pythonToJson(config)));
  if (!config.contains("k_tile")) c.kTile = layout::codegen::defaultKTile(c.dtype);
  return orRaise(layout::codegen::buildGemmKernel(c));
}

} // namespace

void bindGemm(py::module_& m) {
  m.def(
      "gemm_kernel",
      [](const py::dict& config) {
        const auto k = gemmKernel(config);
        py::dict out;
        out["name"] = k.name;
        out["plan"] = jsonToPython(layout::codegen::kernelPlanToJson(k));
        out["report"] = layout::codegen::kernelReportText(k);
        out["source"] = layout::codegen::emitOpenCl(k);
        return out;
      },
      py::arg("config") = py::dict(),
      "Builds a DPAS GEMM kernel (layoutctl gemm): {name, plan (the .plan.json), report (the "
      "static report text), source (the OpenCL C)}.");
  m.def(
      "gemm_simulate",
      [](const py::dict& config, const std::string& inputs, uint64_t seed) {
        if (inputs != "random" && inputs != "exact")
          throw py::value_error("inputs: expected \"random\" or \"exact\", not \"" + inputs + "\"");
        const auto k = gemmKernel(config);
        const auto& c = k.config;
        // The host memory a run needs: the surfaces and A, B as doubles (as layoutctl gemm).
        double bytes = 8.0 * (double(c.m) * double(c.k) + double(c.k) * double(c.n));
        for (auto m : {layout::codegen::MatrixOperand::A, layout::codegen::MatrixOperand::B,
                       layout::codegen::MatrixOperand::C}) {
          const auto surface = layout::codegen::matrixSurface(c, m);
          bytes += double(surface.height) * double(surface.pitchBytes);
        }
        if (bytes > 8.0 * (1 << 30))
          throw py::value_error("m, n, k: simulating this GEMM needs more than the 8 GiB of host "
                                "memory allowed");
        layout::kernels::GemmVerification v;
        layout::kernels::SimulationStats stats;
        {
          py::gil_scoped_release release;
          auto in = layout::kernels::makeGemmInputs(c,
                                                    inputs == "exact"
                                                        ? layout::kernels::InputKind::ExactSums
                                                        : layout::kernels::InputKind::Random,
                                                    seed);
          auto sim = layout::kernels::simulateGemmKernel(k, in.memory);
          if (!sim) {
            py::gil_scoped_acquire acquire;
            throw py::value_error("simulation: " + sim.error().message);
          }
          stats = *sim;
          v = layout::kernels::verifyGemm(c, in);
        }
        py::dict out;
        out["name"] = k.name;
        out["simulation"] = jsonToPython(nlohmann::json{{"workgroups", stats.workgroups},
                                                        {"subgroups", stats.subgroups},
                                                        {"dpas", stats.dpas},
                                                        {"loads", stats.loads},
                                                        {"stores", stats.stores},
                                                        {"prefetches", stats.prefetches},
                                                        {"seconds", stats.seconds}});
        auto verification = layout::kernels::gemmVerificationToJson(v);
        verification["summary"] = v.summary();
        out["verification"] = jsonToPython(verification);
        return out;
      },
      py::arg("config") = py::dict(), py::arg("inputs") = "random", py::arg("seed") = 1,
      "Builds the kernel, runs it in the Xe simulator on fresh inputs and verifies the result "
      "(layoutctl gemm --runner sim): {name, simulation, verification}.");
}

} // namespace gf2layout
