/* warplint: the random-access iterator that the stand-in fancy iterators
 * of Thrust and CUB derive from: Self is the derived iterator (arithmetic
 * returns it), Value what dereferencing yields. Declarations only. */
#ifndef WARPLINT_ITERATOR_H
#define WARPLINT_ITERATOR_H
#include <iterator>
template <class Self, class Value> struct __wl_iterator {
  typedef std::random_access_iterator_tag iterator_category;
  typedef Value value_type;
  typedef long difference_type;
  typedef Value *pointer;
  typedef Value reference;
  __host__ __device__ Value operator*() const;
  __host__ __device__ Value operator[](long n) const;
  __host__ __device__ Self operator+(long n) const;
  __host__ __device__ Self operator-(long n) const;
  __host__ __device__ long operator-(const Self &other) const;
  __host__ __device__ Self &operator+=(long n);
  __host__ __device__ Self &operator++();
  __host__ __device__ Self operator++(int);
  __host__ __device__ bool operator==(const Self &other) const;
  __host__ __device__ bool operator!=(const Self &other) const;
};
#endif
