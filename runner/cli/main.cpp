#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "runner/cli/cli.hpp"
#include "runner/core/interrupt.hpp"

int main(int argc, char** argv) {
  // Before any thread starts (docs/runner.md "Interrupted runs").
  a2a::core::install_interrupt_handling();
  int code = a2a::cli::main_with_args(argc, argv);
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
