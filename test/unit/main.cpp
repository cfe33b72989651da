// Catch2 2's main (Catch2 3 brings its own, catch2-with-main).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
