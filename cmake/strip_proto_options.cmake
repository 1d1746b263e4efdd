# cmake -P strip_proto_options.cmake IN=<a2a.proto> OUT=<file>
#
# The official a2a.proto imports google/api/{annotations,client,field_behavior}.proto
# for HTTP transcoding, method signatures and REQUIRED markers. Debian does not
# package those files, and none of the options changes a message, a field
# number or the service: protoc's C++ and gRPC output is the same without them.
# This script writes a copy with the three imports and every google.api option
# removed, and fails if any google.api reference is left (docs/grpc.md).
if(NOT IN OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DIN=a2a.proto -DOUT=stripped.proto -P strip_proto_options.cmake")
endif()
if(NOT EXISTS "${IN}")
  message(FATAL_ERROR "a2a.proto not found at ${IN} (set A2A_PROTO, or configure with -DA2A_GRPC=OFF)")
endif()
file(READ "${IN}" text)
# import "google/api/....proto";
string(REGEX REPLACE "import \"google/api/[a-z_]+\\.proto\";\n" "" text "${text}")
# option (google.api.http) = { ... additional_bindings: { ... } ... };
# The block ends at the first "};" (the nested blocks end with "}" alone).
set(marker "option (google.api.http) = {")
foreach(guard RANGE 200)
  string(FIND "${text}" "${marker}" start)
  if(start EQUAL -1)
    break()
  endif()
  string(SUBSTRING "${text}" 0 ${start} head)
  string(SUBSTRING "${text}" ${start} -1 rest)
  string(FIND "${rest}" "};" close)
  if(close EQUAL -1)
    message(FATAL_ERROR "strip_proto_options: an http option without its closing '};' in ${IN}")
  endif()
  math(EXPR after "${close} + 2")
  string(SUBSTRING "${rest}" ${after} -1 rest)
  string(REGEX REPLACE " +$" "" head "${head}")
  string(REGEX REPLACE "^\n" "" rest "${rest}")
  set(text "${head}${rest}")
endforeach()
# option (google.api.method_signature) = "...";
string(REGEX REPLACE "[ ]*option \\(google\\.api\\.method_signature\\) = \"[^\"]*\";\n" "" text "${text}")
# field [(google.api.field_behavior) = REQUIRED]
string(REGEX REPLACE " \\[\\(google\\.api\\.field_behavior\\) = [A-Z_]+\\]" "" text "${text}")
string(FIND "${text}" "google.api" left)
if(NOT left EQUAL -1)
  string(SUBSTRING "${text}" ${left} 120 context)
  message(FATAL_ERROR "strip_proto_options: a google.api reference is left in ${IN}: ${context}")
endif()
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by cmake/strip_proto_options.cmake: google.api options removed.\n${text}")
file(RENAME "${OUT}.tmp" "${OUT}")
