/* warplint stand-in for libcu++'s cuda::std: the host standard library's
 * names (a constexpr function is callable from device code in clang), plus
 * what C++17 lacks. Every <cuda/std/X> stand-in includes <X> and this. */
#ifndef WARPLINT_CUDA_STD_H
#define WARPLINT_CUDA_STD_H
#include <cstddef>
namespace cuda {
namespace std {
using namespace ::std;
struct identity {
  template <class T> __host__ __device__ constexpr T &&operator()(T &&t) const noexcept { return static_cast<T &&>(t); }
};
}  // namespace std
}  // namespace cuda
#endif
