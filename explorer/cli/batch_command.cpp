// layoutctl batch: the JSON Lines protocol of interchange §2 on stdin/stdout.
#include "op_command.h"

#include "layout/protocol/batch.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <optional>

namespace layoutctl {
namespace {

// A closed standard input, or a device other than a terminal or /dev/null, is refused.
std::optional<std::string> refuseDeviceStdin() {
  struct stat in = {};
  struct stat null = {};
  // `layoutctl batch <&-`: there is nothing to read requests from.
  if (fstat(STDIN_FILENO, &in) != 0)
    return std::string("standard input is closed (") + std::strerror(errno) +
           "): give the requests on standard input";
  if (!S_ISCHR(in.st_mode) || isatty(STDIN_FILENO)) return {};
  if (stat("/dev/null", &null) == 0 && in.st_rdev == null.st_rdev) return {};
  return std::string("standard input is a character device (such as /dev/zero), not a file or a "
                     "pipe of requests");
}

int runBatch(const Args& args) {
  if (!args.positionals().empty()) throw CliExit{kUsage, "batch reads requests from stdin only"};
  const layout::BatchProcessor& batch = opRegistry();
  if (args.flag("list-ops")) {
    for (const auto& [name, op] : batch.ops())
      std::cout << name << " (" << op.arity << " input" << (op.arity == 1 ? "" : "s")
                << "): " << op.summary << "\n";
    return kOk;
  }
  std::ios::sync_with_stdio(false);
  // A device on standard input (`< /dev/zero`) would be read forever; a terminal, a pipe, a file
  // and /dev/null are fine.
  if (auto refused = refuseDeviceStdin()) throw CliExit{kInvalidInput, *refused};
  if (!batch.run(std::cin, std::cout))
    throw CliExit{kInvalidInput, "writing the responses to standard output failed (" +
                                     std::string(std::strerror(errno)) + ")"};
  return kOk;
}

} // namespace

void addBatchCommand(std::vector<Command>& commands) {
  commands.push_back(
      {"batch",
       "batch [--list-ops] < requests.jsonl",
       "Read JSON Lines requests {\"id\", \"op\", \"inputs\": [layout...], \"args\": {...}} on "
       "stdin and write one line {\"id\", \"result\"} or {\"id\", \"error\"} per request, in "
       "order (interchange §2). --list-ops lists the ops.",
       "echo '{\"id\":1,\"op\":\"identity1D\",\"args\":{\"size\":4,\"inDim\":\"lane\","
       "\"outDim\":\"dim0\"}}' | layoutctl batch",
       {{"list-ops", {}, /*flag=*/true}},
       runBatch});
}

} // namespace layoutctl
