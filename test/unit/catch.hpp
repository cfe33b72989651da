// Catch2 by one include for Catch2 2 (Debian 12: one header, a main made here) and Catch2 3
// (Debian 13: a library with its own main). The matcher the tests use has a new name in 3.
#pragma once

#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#define CATCH_CONTAINS(text) Catch::Matchers::ContainsSubstring(text)
#else
#include <catch2/catch.hpp>
#define CATCH_CONTAINS(text) Catch::Contains(text)
#endif
