#include "c/z.hpp"  // a peer of the same layer
#include "a/x.hpp"  // below: allowed
