#include "b/y.hpp"  // below: allowed
#include "c/z.hpp"  // below: allowed
