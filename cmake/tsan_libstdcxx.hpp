// Forced into every translation unit of a TSan build (-include, see
// CMakeLists.txt). libstdc++ locks std::timed_mutex / std::shared_timed_mutex
// against steady_clock with pthread_mutex_clocklock and
// pthread_rwlock_clock{rd,wr}lock, which TSan (LLVM 14 and later, up to
// llvm/llvm-project#62623) does not intercept: it never sees the lock, reports
// "unlock of an unlocked mutex" and then false races on what the mutex guards.
// Without these macros libstdc++ waits on a system_clock deadline through
// pthread_mutex_timedlock instead, which TSan understands; the deadline is
// still honoured (libstdc++ re-checks the steady clock after each wait).
#pragma once
#include <bits/c++config.h>
#undef _GLIBCXX_USE_PTHREAD_MUTEX_CLOCKLOCK
#undef _GLIBCXX_USE_PTHREAD_RWLOCK_CLOCKLOCK
