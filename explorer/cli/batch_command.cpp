// layoutctl batch: the JSON Lines protocol of interchange §2 on stdin/stdout.
#include "commands.h"

#include "layout/io/batch.h"

#include <iostream>

namespace layoutctl {
namespace {

int runBatch(const Args& args) {
  if (!args.positionals().empty()) throw CliExit{kUsage, "batch reads requests from stdin only"};
  layout::BatchProcessor batch;
  if (args.flag("list-ops")) {
    for (const auto& [name, op] : batch.ops())
      std::cout << name << " (" << op.arity << " input" << (op.arity == 1 ? "" : "s")
                << "): " << op.summary << "\n";
    return kOk;
  }
  std::ios::sync_with_stdio(false);
  batch.run(std::cin, std::cout);
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
       {},
       {"list-ops"},
       runBatch});
}

} // namespace layoutctl
