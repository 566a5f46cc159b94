/* warplint: the standard headers that the real CCCL headers (Thrust, CUB,
 * and libcu++ under cooperative_groups.h) bring in, as nvcc -E shows; code
 * that includes only those relies on them (std::chrono, std::cout,
 * uint64_t...). The stand-ins for thrust/, cub/ and cooperative_groups.h
 * include this. */
#ifndef WARPLINT_CCCL_STD_H
#define WARPLINT_CCCL_STD_H
#include <array>
#include <atomic>
#include <cassert>
#include <cerrno>
#include <cfloat>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#endif
