#include "b/y.hpp"  // a folder above
