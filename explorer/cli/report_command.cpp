// layoutctl report: the op report.kernel (layout/report/kernel_report.h) on an MLIR file.
#include "op_command.h"

#include "layout/report/kernel_report.h"

namespace layoutctl {

void addReportCommand(std::vector<Command>& commands) {
  addOpCommand(
      commands,
      {"report",
       "report.kernel",
       "report FILE.mlir|@FILE|- [--target sm80|sm90|cuda:NN|gfx942|gfx950|...] "
       "[--format text|json|sarif]",
       "Reports every layout of a TritonGPU IR dump (a .ttgir file) and what it costs on the "
       "module's target (ttg.target, or --target): each ttg.convert_layout's plan (none, "
       "registers, shuffles or a shared-memory round trip with its bytes, instructions and "
       "wavefronts), the bank conflicts of each ttg.local_alloc / local_store / local_load / "
       "async copy for the instruction the target would use (ldmatrix for dot operands on NVIDIA) "
       "against the ideal and a synthesized swizzle, dot operand and accumulator layouts, and the "
       "vector width of tt.load / tt.store. Text groups the ops by source line, worst first; "
       "--format sarif (or --sarif) prints SARIF 2.1.0 findings (shared round trips, conversions "
       "shuffles can do, "
       "conflicts above the ideal) for CI and editors.",
       "layoutctl report tests/data/ir/triton/matmul_f16_128x128x64.sm80.ttgir",
       // The positional argument names the file: its text is what the op reads.
       [](const Args& cli, nlohmann::json& args, std::string&) -> std::optional<int> {
         // An unknown target name is a usage error, as for the other subcommands' --target.
         if (args.contains("target"))
           if (auto known = layout::report::bankModelForTarget(args["target"].get<std::string>());
               !known)
             throw CliExit{kUsage, cli.spelling("target") + ": " + known.error().message};
         const std::string path = args.at("mlir").get<std::string>();
         args["mlir"] =
             readFile(path.size() > 1 && path[0] == '@' ? path.substr(1) : path, "report");
         return std::nullopt;
       },
       {},
       false,
       "an MLIR file",
       /*sarif=*/true});
}

} // namespace layoutctl
