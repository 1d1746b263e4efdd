# a2a_module(NAME DIR DEPS ...): one static library a2a_NAME from DIR/*.cpp
# (minus *_test.cpp) and, when tests are on, one test binary a2a_NAME_test
# from DIR/*_test.cpp whose cases are registered with CTest one by one.
# Files are globbed so adding a source never requires editing CMake.
function(a2a_module name dir)
  cmake_parse_arguments(M "" "" "DEPS;TEST_DEPS" ${ARGN})
  file(GLOB_RECURSE all_src CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/${dir}/*.cpp")
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
  if(A2A_BUILD_TESTS AND test_src)
    add_executable(a2a_${name}_test ${test_src})
    target_link_libraries(a2a_${name}_test PRIVATE a2a_${name} ${M_TEST_DEPS} GTest::gtest GTest::gtest_main)
    target_compile_definitions(a2a_${name}_test PRIVATE
      A2A_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
      A2A_BINARY_DIR="${CMAKE_BINARY_DIR}"
      A2A_SHARED_DIR="${A2A_SHARED_DIR}")
    # The label names the binary, so scripts/sanitize.sh can pick test sets with ctest -L.
    gtest_discover_tests(a2a_${name}_test DISCOVERY_MODE PRE_TEST
                         PROPERTIES TIMEOUT 120 LABELS a2a_${name}_test)
  endif()
endfunction()
