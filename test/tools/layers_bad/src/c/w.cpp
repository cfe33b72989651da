#include "c/z.hpp"  // its own folder: allowed
