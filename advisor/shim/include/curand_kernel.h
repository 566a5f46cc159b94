/* warplint stand-in for curand_kernel.h, the cuRAND device API: the
 * generator states (their sizes are not the real ones; warplint only
 * needs their names) and curand_init, curand, the uniform, normal,
 * log-normal and Poisson draws and skipahead, for every state, from the
 * cuRAND reference. The state is written through its pointer. */
#ifndef WARPLINT_CURAND_KERNEL_H
#define WARPLINT_CURAND_KERNEL_H
#include "curand.h"
#define WL_CURAND_STATE(name) struct name { unsigned int d, v[5]; int boxmuller_flag; float boxmuller_extra; }; \
  typedef struct name name##_t;
WL_CURAND_STATE(curandStateXORWOW) WL_CURAND_STATE(curandStatePhilox4_32_10) WL_CURAND_STATE(curandStateMRG32k3a)
WL_CURAND_STATE(curandStateSobol32) WL_CURAND_STATE(curandStateScrambledSobol32) WL_CURAND_STATE(curandStateSobol64)
WL_CURAND_STATE(curandStateScrambledSobol64) WL_CURAND_STATE(curandStateMtgp32)
#undef WL_CURAND_STATE
typedef struct curandStateXORWOW curandState;
typedef struct curandStateXORWOW curandState_t;

template <class State>
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            State *state);
__device__ void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int offset,
                            curandStateSobol32_t *state);
__device__ void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int scramble_c,
                            unsigned int offset, curandStateScrambledSobol32_t *state);
__device__ void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long offset,
                            curandStateSobol64_t *state);
__device__ void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long scramble_c,
                            unsigned long long offset, curandStateScrambledSobol64_t *state);
template <class State> __device__ unsigned int curand(State *state);
__device__ unsigned long long curand(curandStateSobol64_t *state);
__device__ unsigned long long curand(curandStateScrambledSobol64_t *state);
template <class State> __device__ float curand_uniform(State *state);
template <class State> __device__ double curand_uniform_double(State *state);
template <class State> __device__ float curand_normal(State *state);
template <class State> __device__ double curand_normal_double(State *state);
template <class State> __device__ float2 curand_normal2(State *state);
template <class State> __device__ double2 curand_normal2_double(State *state);
template <class State> __device__ float curand_log_normal(State *state, float mean, float stddev);
template <class State> __device__ double curand_log_normal_double(State *state, double mean, double stddev);
template <class State> __device__ unsigned int curand_poisson(State *state, double lambda);
__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);
__device__ double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state);
__device__ uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda);
template <class State> __device__ void skipahead(unsigned long long n, State *state);
template <class State> __device__ void skipahead_sequence(unsigned long long n, State *state);
template <class State> __device__ void skipahead_subsequence(unsigned long long n, State *state);
#endif
