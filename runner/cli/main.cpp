#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>

#include "runner/cli/cli.hpp"
#include "runner/core/interrupt.hpp"

int main(int argc, char** argv) {
  // Before any thread starts (docs/runner.md "Interrupted runs").
  a2a::core::install_interrupt_handling();
  int code = 2;
  try {
    code = a2a::cli::main_with_args(argc, argv);
  } catch (const std::bad_alloc&) {
    // The loader's limits should make this unreachable from input
    // (docs/scenario-format.md "Limits"); if memory runs out anyway, say so
    // instead of aborting.
    std::cerr << "a2a-conform: out of memory (std::bad_alloc); if a scenario file caused it, lower "
                 "--max-scenario-bytes / --max-scenario-nodes, and please report it\n";
    code = 2;
  }
  if (a2a::core::interrupt_signal() != 0) {
    // A worker still inside a scenario may be running: end the process
    // without the static destructors it could race with.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}
