// The explorer's built-in examples (the input panel's examples menu, --example NAME): layouts
// users ask about, each opening the view that shows it best.
//
//   for (const Example& e : examples()) std::cout << e.name << ": " << e.description << "\n";
#pragma once

#include "explorer_app.h"

#include <string>
#include <vector>

namespace layout::views {

struct Example {
  std::string name, description;
  ExplorerInputs inputs;
};

const std::vector<Example>& examples();
// The example called `name`, or nullptr.
const Example* findExample(const std::string& name);

} // namespace layout::views
