/* warplint stand-in for vector_types.h: the built-in vector types and dim3.
 * Sizes and alignments follow the CUDA C++ Programming Guide's table of
 * built-in vector types (a 1- or 3-vector is aligned like its element, a
 * 2-vector to twice its element size, a 4-vector to 4 elements at most 16
 * bytes), so that warplint sees the element sizes the GPU sees. */
#ifndef WARPLINT_VECTOR_TYPES_H
#define WARPLINT_VECTOR_TYPES_H

#define WL_VEC1(T, N) struct __align__(sizeof(T)) N##1 { T x; }; typedef struct N##1 N##1;
#define WL_VEC2(T, N) struct __align__(2 * sizeof(T)) N##2 { T x, y; }; typedef struct N##2 N##2;
#define WL_VEC3(T, N) struct N##3 { T x, y, z; }; typedef struct N##3 N##3;
#define WL_VEC4(T, N) struct __align__(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)) N##4 { T x, y, z, w; }; \
  typedef struct N##4 N##4;
#define WL_VECS(T, N) WL_VEC1(T, N) WL_VEC2(T, N) WL_VEC3(T, N) WL_VEC4(T, N)
WL_VECS(signed char, char)
WL_VECS(unsigned char, uchar)
WL_VECS(short, short)
WL_VECS(unsigned short, ushort)
WL_VECS(int, int)
WL_VEC1(unsigned int, uint) WL_VEC2(unsigned int, uint) WL_VEC4(unsigned int, uint)
WL_VECS(long, long)
WL_VECS(unsigned long, ulong)
WL_VECS(long long, longlong)
WL_VECS(unsigned long long, ulonglong)
WL_VECS(float, float)
WL_VECS(double, double)
/* CUDA 13's 4-vectors of 8-byte elements with an explicit alignment. */
#define WL_VEC4A(T, N, A) struct __align__(A) N##4_##A##a { T x, y, z, w; }; typedef struct N##4_##A##a N##4_##A##a;
WL_VEC4A(long, long, 16) WL_VEC4A(long, long, 32)
WL_VEC4A(unsigned long, ulong, 16) WL_VEC4A(unsigned long, ulong, 32)
WL_VEC4A(long long, longlong, 16) WL_VEC4A(long long, longlong, 32)
WL_VEC4A(unsigned long long, ulonglong, 16) WL_VEC4A(unsigned long long, ulonglong, 32)
WL_VEC4A(double, double, 16) WL_VEC4A(double, double, 32)
#undef WL_VEC1
#undef WL_VEC2
#undef WL_VEC3
#undef WL_VEC4
#undef WL_VECS
#undef WL_VEC4A

/* uint3 is the type of threadIdx and blockIdx; dim3 converts to and from it. */
struct uint3 { unsigned int x, y, z; };
typedef struct uint3 uint3;
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
typedef struct dim3 dim3;
#endif
