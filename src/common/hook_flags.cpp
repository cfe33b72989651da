#include "common/hook_flags.hpp"

namespace mcorecoll::detail {
std::atomic<unsigned> g_call_hooks{0};
}  // namespace mcorecoll::detail
