# a2a_module(NAME DIR DEPS ...): one static library a2a_NAME from DIR/*.cpp
# (minus *_test.cpp) and, when unit tests are on (A2A_BUILD_TESTS and
# A2A_UNIT_TESTS), one test binary a2a_NAME_test
# from DIR/*_test.cpp whose cases are registered with CTest one by one.
# EXCLUDE REGEX leaves out the files whose path matches it (a subfolder that
# is a module of its own, e.g. EXCLUDE "/grpc/").
# Files are globbed so adding a source never requires editing CMake.
# Sources compiled on their own under A2A_UNITY_BUILD: each defines a helper
# in an anonymous namespace under the same name as a file batched with it
# (or has a test name that clashes with one), which a unity batch would merge.
set(A2A_NO_UNITY_SOURCES
  runner/transport/https_client_test.cpp runner/transport/stdio_process_test.cpp
  runner/scenario/http_extensions_test.cpp runner/scenario/extensions_test.cpp
  runner/bindings/a2a03/jsonrpc_v03_test.cpp runner/bindings/a2a03/rest_v03_test.cpp
  runner/match/error_expect.cpp runner/match/vars.cpp
  reports/multi_html.cpp reports/multi_report.cpp reports/multi_report_test.cpp
  runner/bindings/a2a03/rest_v03.cpp
  peers/a2a-ref-agent/http_jsonrpc_v03.cpp peers/a2a-ref-agent/http_rest.cpp
  peers/a2a-ref-client/http_answer.cpp peers/a2a-ref-client/cli_run_test.cpp peers/a2a-ref-client/router_test.cpp)

function(a2a_module name dir)
  cmake_parse_arguments(M "" "EXCLUDE" "DEPS;TEST_DEPS" ${ARGN})
  file(GLOB_RECURSE all_src CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/${dir}/*.cpp")
  if(M_EXCLUDE)
    list(FILTER all_src EXCLUDE REGEX "${M_EXCLUDE}")
  endif()
  set(lib_src "")
  set(test_src "")
  foreach(f IN LISTS all_src)
    if(f MATCHES "_test\\.cpp$")
      list(APPEND test_src "${f}")
    elseif(f MATCHES "/main\\.cpp$")
      # executables are declared by their own CMakeLists
    else()
      list(APPEND lib_src "${f}")
    endif()
  endforeach()
  foreach(f IN LISTS all_src)
    file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${f}")
    if(rel IN_LIST A2A_NO_UNITY_SOURCES)
      set_source_files_properties("${f}" PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
  if(lib_src)
    add_library(a2a_${name} STATIC ${lib_src})
    target_include_directories(a2a_${name} PUBLIC "${CMAKE_SOURCE_DIR}")
    target_link_libraries(a2a_${name} PUBLIC ${M_DEPS})
    target_compile_options(a2a_${name} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  else()
    add_library(a2a_${name} INTERFACE)
    target_include_directories(a2a_${name} INTERFACE "${CMAKE_SOURCE_DIR}")
    target_link_libraries(a2a_${name} INTERFACE ${M_DEPS})
  endif()
  if(A2A_BUILD_TESTS AND A2A_UNIT_TESTS AND test_src)
    add_executable(a2a_${name}_test ${test_src})
    target_link_libraries(a2a_${name}_test PRIVATE a2a_${name} ${M_TEST_DEPS} GTest::gtest GTest::gtest_main)
    # In the ASan tree the tests' own sources are not instrumented (the code
    # under test, in a2a_${name}, is): docs/ci.md, "The ASan tree's tests".
    target_compile_options(a2a_${name}_test PRIVATE ${A2A_TEST_OPTIMIZE} ${A2A_NO_INSTRUMENT})
    target_compile_definitions(a2a_${name}_test PRIVATE
      A2A_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
      A2A_BINARY_DIR="${CMAKE_BINARY_DIR}"
      A2A_SHARED_DIR="${A2A_SHARED_DIR}")
    # The label names the binary, so scripts/sanitize.sh can pick test sets with ctest -L.
    if(A2A_SANITIZE)
      # Under a sanitizer, one process per binary: a sanitized process takes
      # ~0.1 s to start, which one process per case paid 2000 times (docs/ci.md).
      add_test(NAME a2a_${name}_test COMMAND a2a_${name}_test --gtest_brief=1)
      set_tests_properties(a2a_${name}_test PROPERTIES TIMEOUT 900 LABELS a2a_${name}_test)
    else()
      gtest_discover_tests(a2a_${name}_test DISCOVERY_MODE PRE_TEST
                           PROPERTIES TIMEOUT 120 LABELS a2a_${name}_test)
    endif()
  endif()
endfunction()
