/* warplint stand-in for cuda_pipeline.h: the cp.async primitives; the C++
 * nvcuda::experimental pipeline class is not declared. */
#ifndef WARPLINT_CUDA_PIPELINE_H
#define WARPLINT_CUDA_PIPELINE_H
#include "cuda_pipeline_primitives.h"
#endif
