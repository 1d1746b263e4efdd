// Whether this test binary (and so the runner and peers it starts, built with
// the same A2A_SANITIZE) is instrumented. Memory and time bounds that hold
// for a plain build need slack under ASan (a quarantine of freed blocks) and
// TSan (shadow memory, 3-5x slower), docs/sanitizers.md.
// A2A_SANITIZED_TREE comes from CMake (tests/CMakeLists.txt): in the ASan
// tree the harness itself is compiled uninstrumented (A2A_NO_INSTRUMENT), so
// the compiler's own sanitizer macros do not say what the spawned binaries are.
#pragma once

namespace a2a::e2e {

#if defined(A2A_SANITIZED_TREE) || defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace a2a::e2e
