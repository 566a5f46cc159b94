/* warplint stand-in for Thrust: every thrust/ header the stand-ins provide
 * includes this one file, so any of them brings all of Thrust (as the real
 * headers, which include each other widely, nearly do). Written from the
 * Thrust API reference: execution policies, device_ptr, host_vector and
 * device_vector, fancy iterators, tuple and pair (std's), functional
 * objects, complex, random, system_error, and the algorithms as templates
 * whose result types follow the reference (an output iterator, the first
 * iterator, a value, a pair). Each algorithm also takes an execution
 * policy first. Declarations only; callable from host and device code. */
#ifndef WARPLINT_THRUST_H
#define WARPLINT_THRUST_H
#include <warplint_cccl_std.h>
#include <warplint_iterator.h>
#include <initializer_list>

#define THRUST_VERSION 200800
#define THRUST_MAJOR_VERSION 2
#define THRUST_MINOR_VERSION 8
#define THRUST_DEVICE_SYSTEM_CUDA 1
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CUDA
#define THRUST_HOST_SYSTEM_CPP 1
#define THRUST_HOST_SYSTEM THRUST_HOST_SYSTEM_CPP
#define THRUST_NAMESPACE_BEGIN namespace thrust {
#define THRUST_NAMESPACE_END }
#define __thrust_exec_check_disable__

namespace thrust {

/* Execution policies; .on(stream) picks a stream. */
struct __wl_policy {};
struct __wl_stream_policy : __wl_policy {
  __host__ __device__ __wl_stream_policy on(cudaStream_t stream) const;
};
template <class P> using __wl_if_policy = typename std::enable_if<std::is_base_of<__wl_policy, P>::value>::type;
constexpr __wl_stream_policy host{}, device{}, seq{};
namespace cuda { constexpr __wl_stream_policy par{}, par_nosync{}; }
namespace system {
namespace cuda { constexpr __wl_stream_policy par{}, par_nosync{}; }
namespace cpp { constexpr __wl_policy par{}; }
namespace omp { constexpr __wl_policy par{}; }
}  // namespace system
namespace cpp { constexpr __wl_policy par{}; }
namespace omp { constexpr __wl_policy par{}; }

/* Iterators. device_ptr is a random-access pointer to device memory. */
template <class T> class device_ptr {
 public:
  typedef std::random_access_iterator_tag iterator_category;
  typedef typename std::remove_cv<T>::type value_type;
  typedef long difference_type;
  typedef T *pointer;
  typedef typename std::add_lvalue_reference<T>::type reference; /* T may be void */
  typedef T element_type;
  __host__ __device__ device_ptr();
  __host__ __device__ device_ptr(T *ptr);
  __host__ __device__ device_ptr(decltype(nullptr));
  template <class U> __host__ __device__ device_ptr(const device_ptr<U> &other);
  __host__ __device__ T *get() const;
  __host__ __device__ reference operator*() const;
  __host__ __device__ reference operator[](long n) const;
  __host__ __device__ T *operator->() const;
  __host__ __device__ device_ptr operator+(long n) const;
  __host__ __device__ device_ptr operator-(long n) const;
  __host__ __device__ long operator-(const device_ptr &other) const;
  __host__ __device__ device_ptr &operator+=(long n);
  __host__ __device__ device_ptr &operator-=(long n);
  __host__ __device__ device_ptr &operator++();
  __host__ __device__ device_ptr operator++(int);
  __host__ __device__ device_ptr &operator--();
  __host__ __device__ device_ptr operator--(int);
  __host__ __device__ bool operator==(const device_ptr &other) const;
  __host__ __device__ bool operator!=(const device_ptr &other) const;
  __host__ __device__ bool operator<(const device_ptr &other) const;
  __host__ __device__ explicit operator bool() const;
};
template <class T> __host__ __device__ device_ptr<T> operator+(long n, const device_ptr<T> &p);
template <class T> __host__ __device__ T *raw_pointer_cast(const device_ptr<T> &ptr);
template <class T> __host__ __device__ T *raw_pointer_cast(T *ptr);
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(T *ptr);
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(const device_ptr<T> &ptr);
template <class T> device_ptr<T> device_malloc(size_t n);
device_ptr<void> device_malloc(size_t bytes);
template <class T> void device_free(device_ptr<T> ptr);
template <class T> using device_reference = T &;

/* Fancy iterators (warplint_iterator.h): counting, constant, transform,
 * permutation, zip, discard. */
template <class It> using __wl_value = typename std::iterator_traits<It>::value_type;
struct use_default {};
template <class T, class System = use_default, class Traversal = use_default, class Difference = use_default>
struct counting_iterator : __wl_iterator<counting_iterator<T, System, Traversal, Difference>, T> {
  __host__ __device__ counting_iterator();
  __host__ __device__ counting_iterator(T init);
};
template <class T, class Incrementable = use_default, class System = use_default>
struct constant_iterator : __wl_iterator<constant_iterator<T, Incrementable, System>, T> {
  __host__ __device__ constant_iterator();
  __host__ __device__ constant_iterator(T value);
};
template <class F, class It, class Reference = use_default, class Value = use_default>
struct transform_iterator
    : __wl_iterator<transform_iterator<F, It, Reference, Value>,
                    typename std::decay<decltype(std::declval<F>()(*std::declval<It>()))>::type> {
  __host__ __device__ transform_iterator();
  __host__ __device__ transform_iterator(It it, F f);
};
template <class ElementIt, class IndexIt>
struct permutation_iterator : __wl_iterator<permutation_iterator<ElementIt, IndexIt>, __wl_value<ElementIt>> {
  __host__ __device__ permutation_iterator();
  __host__ __device__ permutation_iterator(ElementIt elements, IndexIt indices);
};
template <class Tuple> struct zip_iterator;
template <class... Its>
struct zip_iterator<std::tuple<Its...>>
    : __wl_iterator<zip_iterator<std::tuple<Its...>>, std::tuple<__wl_value<Its>...>> {
  __host__ __device__ zip_iterator();
  __host__ __device__ zip_iterator(std::tuple<Its...> its);
};
struct __wl_discard {
  template <class T> __host__ __device__ const __wl_discard &operator=(const T &) const;
};
template <class System = use_default>
struct discard_iterator : __wl_iterator<discard_iterator<System>, __wl_discard> {};
template <class T> __host__ __device__ counting_iterator<T> make_counting_iterator(T init);
template <class T> __host__ __device__ constant_iterator<T> make_constant_iterator(T value);
template <class It, class F> __host__ __device__ transform_iterator<F, It> make_transform_iterator(It it, F f);
template <class E, class I> __host__ __device__ permutation_iterator<E, I> make_permutation_iterator(E e, I i);
template <class... Its> __host__ __device__ zip_iterator<std::tuple<Its...>> make_zip_iterator(std::tuple<Its...> t);
template <class... Its> __host__ __device__ zip_iterator<std::tuple<Its...>> make_zip_iterator(Its... its);
__host__ __device__ discard_iterator<> make_discard_iterator(long i = 0);
template <class It> __host__ __device__ std::reverse_iterator<It> make_reverse_iterator(It it);
using std::distance;
using std::advance;
template <class It> struct iterator_difference { typedef typename std::iterator_traits<It>::difference_type type; };
template <class It> struct iterator_traits : std::iterator_traits<It> {};
template <class It> struct iterator_value { typedef __wl_value<It> type; };

/* Containers: Ptr is their iterator and data() type. */
template <class T, class Ptr> class __wl_vector {
 public:
  typedef T value_type;
  typedef Ptr iterator, const_iterator, pointer, const_pointer;
  typedef T &reference;
  typedef const T &const_reference;
  typedef size_t size_type;
  typedef long difference_type;
  __wl_vector();
  explicit __wl_vector(size_t n);
  __wl_vector(size_t n, const T &value);
  template <class It, class = typename std::enable_if<!std::is_integral<It>::value>::type>
  __wl_vector(It first, It last);
  __wl_vector(std::initializer_list<T> values);
  /* from any other vector: std::vector, host_vector, device_vector */
  template <class V, class = decltype(std::declval<const V &>().size())> __wl_vector(const V &other);
  template <class V, class = decltype(std::declval<const V &>().size())> __wl_vector &operator=(const V &other);
  size_t size() const;
  size_t capacity() const;
  bool empty() const;
  void resize(size_t n);
  void resize(size_t n, const T &value);
  void reserve(size_t n);
  void clear();
  void shrink_to_fit();
  void push_back(const T &value);
  void pop_back();
  void swap(__wl_vector &other);
  template <class... A> void assign(A &&...args);
  template <class... A> iterator insert(iterator pos, A &&...args);
  iterator erase(iterator pos);
  iterator erase(iterator first, iterator last);
  iterator begin() const;
  iterator end() const;
  iterator cbegin() const;
  iterator cend() const;
  Ptr data() const;
  T &operator[](size_t n) const;
  T &front() const;
  T &back() const;
  /* element-wise comparison with any other vector */
  template <class V, class = decltype(std::declval<const V &>().size())> bool operator==(const V &other) const;
  template <class V, class = decltype(std::declval<const V &>().size())> bool operator!=(const V &other) const;
};
template <class T, class A, class P> bool operator==(const std::vector<T, A> &a, const __wl_vector<T, P> &b);
template <class T, class A, class P> bool operator!=(const std::vector<T, A> &a, const __wl_vector<T, P> &b);
template <class T, class Alloc = std::allocator<T>> class host_vector : public __wl_vector<T, T *> {
 public:
  using __wl_vector<T, T *>::__wl_vector;
  host_vector();
  using __wl_vector<T, T *>::operator=;
};
template <class T, class Alloc = std::allocator<T>> class device_vector : public __wl_vector<T, device_ptr<T>> {
 public:
  using __wl_vector<T, device_ptr<T>>::__wl_vector;
  device_vector();
  using __wl_vector<T, device_ptr<T>>::operator=;
};
template <class T> class device_allocator : public std::allocator<T> {};

/* Tuples and pairs are std's, as Thrust's behave. */
template <class... T> using tuple = std::tuple<T...>;
template <class A, class B> using pair = std::pair<A, B>;
using std::get;
using std::make_pair;
using std::make_tuple;
/* thrust::tie assigns in device code too (std::tuple's operator= is not
 * constexpr before C++20, so not callable there). */
template <class... T> struct __wl_tied {
  template <class U> __host__ __device__ __wl_tied &operator=(const U &values);
};
template <class... T> __host__ __device__ __wl_tied<T...> tie(T &...refs);
using std::tuple_element;
using std::tuple_size;

/* Function objects (T = void: the transparent form). */
template <class A, class R> struct unary_function { typedef A argument_type; typedef R result_type; };
template <class A, class B, class R> struct binary_function {
  typedef A first_argument_type;
  typedef B second_argument_type;
  typedef R result_type;
};
#define WL_FUNCTOR2(name, R, VoidR) \
  template <class T = void> struct name : binary_function<T, T, R> { \
    __host__ __device__ R operator()(const T &a, const T &b) const; \
  }; \
  template <> struct name<void> { \
    template <class A, class B> __host__ __device__ auto operator()(const A &a, const B &b) const -> VoidR; \
  };
WL_FUNCTOR2(plus, T, decltype(a + b)) WL_FUNCTOR2(minus, T, decltype(a - b))
WL_FUNCTOR2(multiplies, T, decltype(a * b)) WL_FUNCTOR2(divides, T, decltype(a / b))
WL_FUNCTOR2(modulus, T, decltype(a % b)) WL_FUNCTOR2(maximum, T, decltype(a + b))
WL_FUNCTOR2(minimum, T, decltype(a + b)) WL_FUNCTOR2(bit_and, T, decltype(a & b))
WL_FUNCTOR2(bit_or, T, decltype(a | b)) WL_FUNCTOR2(bit_xor, T, decltype(a ^ b)) WL_FUNCTOR2(less, bool, bool)
WL_FUNCTOR2(greater, bool, bool) WL_FUNCTOR2(less_equal, bool, bool) WL_FUNCTOR2(greater_equal, bool, bool)
WL_FUNCTOR2(equal_to, bool, bool) WL_FUNCTOR2(not_equal_to, bool, bool) WL_FUNCTOR2(logical_and, bool, bool)
WL_FUNCTOR2(logical_or, bool, bool)
#undef WL_FUNCTOR2
template <class T = void> struct negate : unary_function<T, T> { __host__ __device__ T operator()(const T &x) const; };
template <class T = void> struct logical_not : unary_function<T, bool> {
  __host__ __device__ bool operator()(const T &x) const;
};
template <class T = void> struct identity : unary_function<T, T> {
  __host__ __device__ const T &operator()(const T &x) const;
};
template <class A, class B = void> struct project1st {
  __host__ __device__ const A &operator()(const A &a, const B &b) const;
};
template <class A, class B = void> struct project2nd {
  __host__ __device__ const B &operator()(const A &a, const B &b) const;
};

/* complex<T>. */
template <class T> struct complex {
  typedef T value_type;
  __host__ __device__ complex(const T &re = T(), const T &im = T());
  template <class U> __host__ __device__ complex(const complex<U> &z);
  __host__ __device__ T real() const;
  __host__ __device__ T imag() const;
  __host__ __device__ void real(T re);
  __host__ __device__ void imag(T im);
  __host__ __device__ complex &operator+=(const complex &z);
  __host__ __device__ complex &operator-=(const complex &z);
  __host__ __device__ complex &operator*=(const complex &z);
  __host__ __device__ complex &operator/=(const complex &z);
  __host__ __device__ complex &operator*=(const T &x);
  __host__ __device__ complex &operator/=(const T &x);
};
#define WL_COMPLEX_OP(op) \
  template <class T> __host__ __device__ complex<T> operator op(const complex<T> &a, const complex<T> &b); \
  template <class T> __host__ __device__ complex<T> operator op(const complex<T> &a, const T &b); \
  template <class T> __host__ __device__ complex<T> operator op(const T &a, const complex<T> &b);
WL_COMPLEX_OP(+) WL_COMPLEX_OP(-) WL_COMPLEX_OP(*) WL_COMPLEX_OP(/)
#undef WL_COMPLEX_OP
template <class T> __host__ __device__ complex<T> operator-(const complex<T> &z);
template <class T> __host__ __device__ bool operator==(const complex<T> &a, const complex<T> &b);
template <class T> __host__ __device__ bool operator!=(const complex<T> &a, const complex<T> &b);
#define WL_COMPLEX_REAL(name) template <class T> __host__ __device__ T name(const complex<T> &z);
WL_COMPLEX_REAL(abs) WL_COMPLEX_REAL(arg) WL_COMPLEX_REAL(norm)
#undef WL_COMPLEX_REAL
#define WL_COMPLEX_FN(name) template <class T> __host__ __device__ complex<T> name(const complex<T> &z);
WL_COMPLEX_FN(conj) WL_COMPLEX_FN(exp) WL_COMPLEX_FN(log) WL_COMPLEX_FN(log10) WL_COMPLEX_FN(sqrt) WL_COMPLEX_FN(sin)
WL_COMPLEX_FN(cos) WL_COMPLEX_FN(tan) WL_COMPLEX_FN(sinh) WL_COMPLEX_FN(cosh) WL_COMPLEX_FN(tanh) WL_COMPLEX_FN(proj)
#undef WL_COMPLEX_FN
template <class T> __host__ __device__ complex<T> pow(const complex<T> &z, const complex<T> &w);
template <class T> __host__ __device__ complex<T> pow(const complex<T> &z, const T &x);
template <class T> __host__ __device__ complex<T> pow(const T &x, const complex<T> &z);
template <class T> __host__ __device__ complex<T> polar(const T &magnitude, const T &angle = T());
template <class T, class Char, class Traits>
std::basic_ostream<Char, Traits> &operator<<(std::basic_ostream<Char, Traits> &os, const complex<T> &z);
template <class T, class Char, class Traits>
std::basic_istream<Char, Traits> &operator>>(std::basic_istream<Char, Traits> &is, complex<T> &z);

/* Random numbers. */
namespace random {
template <class UInt, UInt a, UInt c, UInt m> class linear_congruential_engine {
 public:
  typedef UInt result_type;
  __host__ __device__ explicit linear_congruential_engine(result_type seed = 1);
  __host__ __device__ void seed(result_type seed = 1);
  __host__ __device__ result_type operator()();
  __host__ __device__ void discard(unsigned long long z);
  static __host__ __device__ constexpr result_type min() { return c == 0u ? 1u : 0u; }
  static __host__ __device__ constexpr result_type max() { return m - 1u; }
};
typedef linear_congruential_engine<unsigned int, 16807, 0, 2147483647> minstd_rand0;
typedef linear_congruential_engine<unsigned int, 48271, 0, 2147483647> minstd_rand;
typedef minstd_rand default_random_engine;
typedef minstd_rand ranlux24, ranlux48, taus88;
template <class Int = int> class uniform_int_distribution {
 public:
  typedef Int result_type;
  __host__ __device__ explicit uniform_int_distribution(Int a = 0, Int b = 2147483647);
  template <class Engine> __host__ __device__ Int operator()(Engine &urng);
};
template <class Real = double> class uniform_real_distribution {
 public:
  typedef Real result_type;
  __host__ __device__ explicit uniform_real_distribution(Real a = 0, Real b = 1);
  template <class Engine> __host__ __device__ Real operator()(Engine &urng);
};
template <class Real = double> class normal_distribution {
 public:
  typedef Real result_type;
  __host__ __device__ explicit normal_distribution(Real mean = 0, Real stddev = 1);
  template <class Engine> __host__ __device__ Real operator()(Engine &urng);
};
}  // namespace random
using random::default_random_engine;
using random::minstd_rand;
using random::minstd_rand0;
using random::normal_distribution;
using random::uniform_int_distribution;
using random::uniform_real_distribution;

class system_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
namespace system { using thrust::system_error; }

/* Algorithms, by what they return. */
#define WL_ALGO __host__ __device__
template <class T> WL_ALGO void swap(T &a, T &b);
template <class It, class... A> WL_ALGO void sort(It first, It last, A... comp);
template <class It, class... A> WL_ALGO void stable_sort(It first, It last, A... comp);
template <class K, class V, class... A> WL_ALGO void sort_by_key(K first, K last, V values, A... comp);
template <class K, class V, class... A> WL_ALGO void stable_sort_by_key(K first, K last, V values, A... comp);
template <class It, class... A> WL_ALGO void sequence(It first, It last, A... init_step);
template <class It, class T> WL_ALGO void fill(It first, It last, const T &value);
template <class It, class T> WL_ALGO void uninitialized_fill(It first, It last, const T &value);
template <class It, class G> WL_ALGO void generate(It first, It last, G gen);
template <class It, class F> WL_ALGO void tabulate(It first, It last, F f);
template <class It, class G> WL_ALGO void shuffle(It first, It last, G &&g);
template <class It, class T> WL_ALGO void replace(It first, It last, const T &old_value, const T &new_value);
template <class It, class... A> WL_ALGO void replace_if(It first, It last, A &&...pred_value);
template <class It, class M, class Out, class... A> WL_ALGO void scatter(It first, It last, M map, Out result, A... s);
template <class It, class M, class Out, class... A>
WL_ALGO void scatter_if(It first, It last, M map, Out result, A... s);
template <class It> WL_ALGO void reverse(It first, It last);
template <class It, class Size, class T> WL_ALGO It fill_n(It first, Size n, const T &value);
template <class It, class Size, class G> WL_ALGO It generate_n(It first, Size n, G gen);
template <class It, class F> WL_ALGO It for_each(It first, It last, F f);
template <class It, class Size, class F> WL_ALGO It for_each_n(It first, Size n, F f);
/* Returning the output iterator. */
template <class In, class Out> WL_ALGO Out copy(In first, In last, Out result);
template <class In, class Size, class Out> WL_ALGO Out copy_n(In first, Size n, Out result);
template <class In, class Out, class P> WL_ALGO Out copy_if(In first, In last, Out result, P pred);
template <class In, class S, class Out, class P> WL_ALGO Out copy_if(In first, In last, S stencil, Out result, P pred);
template <class In, class Out, class F> WL_ALGO Out transform(In first, In last, Out result, F op);
template <class In, class In2, class Out, class F>
WL_ALGO Out transform(In first, In last, In2 first2, Out result, F op);
template <class In, class Out, class F, class P> WL_ALGO Out transform_if(In first, In last, Out result, F op, P pred);
template <class In, class Out, class... A> WL_ALGO Out inclusive_scan(In first, In last, Out result, A... op);
template <class In, class Out, class... A> WL_ALGO Out exclusive_scan(In first, In last, Out result, A... init_op);
template <class In, class Out, class F, class... A>
WL_ALGO Out transform_inclusive_scan(In first, In last, Out result, F unary_op, A... op);
template <class In, class Out, class F, class T, class Op>
WL_ALGO Out transform_exclusive_scan(In first, In last, Out result, F unary_op, T init, Op op);
template <class K, class V, class Out, class... A>
WL_ALGO Out inclusive_scan_by_key(K first, K last, V values, Out result, A... pred_op);
template <class K, class V, class Out, class... A>
WL_ALGO Out exclusive_scan_by_key(K first, K last, V values, Out result, A... init_pred_op);
template <class In, class Out, class... A> WL_ALGO Out adjacent_difference(In first, In last, Out result, A... op);
template <class M, class In, class Out> WL_ALGO Out gather(M map_first, M map_last, In input, Out result);
template <class M, class S, class In, class Out, class... A>
WL_ALGO Out gather_if(M map_first, M map_last, S stencil, In input, Out result, A... pred);
template <class In, class Out, class T> WL_ALGO Out remove_copy(In first, In last, Out result, const T &value);
template <class In, class Out, class P> WL_ALGO Out remove_copy_if(In first, In last, Out result, P pred);
template <class In, class Out, class... A> WL_ALGO Out unique_copy(In first, In last, Out result, A... pred);
template <class In, class In2, class Out, class... A>
WL_ALGO Out merge(In first, In last, In2 first2, In2 last2, Out result, A... comp);
template <class In, class In2, class Out, class... A>
WL_ALGO Out set_union(In first, In last, In2 first2, In2 last2, Out result, A... comp);
template <class In, class In2, class Out, class... A>
WL_ALGO Out set_intersection(In first, In last, In2 first2, In2 last2, Out result, A... comp);
template <class In, class In2, class Out, class... A>
WL_ALGO Out set_difference(In first, In last, In2 first2, In2 last2, Out result, A... comp);
/* Returning a position in the input. */
template <class It, class T> WL_ALGO It remove(It first, It last, const T &value);
template <class It, class P> WL_ALGO It remove_if(It first, It last, P pred);
template <class It, class S, class P> WL_ALGO It remove_if(It first, It last, S stencil, P pred);
template <class It, class... A> WL_ALGO It unique(It first, It last, A... pred);
template <class It, class T> WL_ALGO It find(It first, It last, const T &value);
template <class It, class P> WL_ALGO It find_if(It first, It last, P pred);
template <class It, class P> WL_ALGO It find_if_not(It first, It last, P pred);
template <class It, class... A> WL_ALGO It max_element(It first, It last, A... comp);
template <class It, class... A> WL_ALGO It min_element(It first, It last, A... comp);
template <class It, class... A> WL_ALGO It partition(It first, It last, A... stencil_pred);
template <class It, class... A> WL_ALGO It stable_partition(It first, It last, A... stencil_pred);
template <class It, class... A> WL_ALGO It is_sorted_until(It first, It last, A... comp);
template <class It, class... A> WL_ALGO It adjacent_find(It first, It last, A... pred);
template <class It, class T, class... A> WL_ALGO It lower_bound(It first, It last, const T &value, A... comp);
template <class It, class T, class... A> WL_ALGO It upper_bound(It first, It last, const T &value, A... comp);
template <class It, class V, class Out, class... A>
WL_ALGO Out lower_bound(It first, It last, V values_first, V values_last, Out result, A... comp);
template <class It, class V, class Out, class... A>
WL_ALGO Out upper_bound(It first, It last, V values_first, V values_last, Out result, A... comp);
/* Returning a value. */
template <class It> WL_ALGO __wl_value<It> reduce(It first, It last);
template <class It, class T, class... A> WL_ALGO T reduce(It first, It last, T init, A... op);
template <class It, class F, class T, class Op>
WL_ALGO T transform_reduce(It first, It last, F unary_op, T init, Op op);
template <class It, class It2, class T, class... A>
WL_ALGO T inner_product(It first, It last, It2 first2, T init, A... ops);
template <class It, class T> WL_ALGO long count(It first, It last, const T &value);
template <class It, class P> WL_ALGO long count_if(It first, It last, P pred);
template <class It, class It2, class... A> WL_ALGO bool equal(It first, It last, It2 first2, A... pred);
template <class It, class... A> WL_ALGO bool is_sorted(It first, It last, A... comp);
template <class It, class... A> WL_ALGO bool is_partitioned(It first, It last, A... pred);
template <class It, class P> WL_ALGO bool all_of(It first, It last, P pred);
template <class It, class P> WL_ALGO bool any_of(It first, It last, P pred);
template <class It, class P> WL_ALGO bool none_of(It first, It last, P pred);
template <class It, class T, class... A> WL_ALGO bool binary_search(It first, It last, const T &value, A... comp);
template <class It, class V, class Out, class... A>
WL_ALGO Out binary_search(It first, It last, V values_first, V values_last, Out result, A... comp);
/* Returning a pair. */
template <class It, class... A> WL_ALGO pair<It, It> minmax_element(It first, It last, A... comp);
template <class It, class It2, class... A> WL_ALGO pair<It, It2> mismatch(It first, It last, It2 first2, A... pred);
template <class K, class V, class KOut, class VOut, class... A>
WL_ALGO pair<KOut, VOut> reduce_by_key(K keys_first, K keys_last, V values, KOut keys_out, VOut values_out,
                                       A... pred_op);
template <class K, class V, class... A>
WL_ALGO pair<K, V> unique_by_key(K keys_first, K keys_last, V values, A... pred);
template <class K, class V, class KOut, class VOut, class... A>
WL_ALGO pair<KOut, VOut> unique_by_key_copy(K keys_first, K keys_last, V values, KOut keys_out, VOut values_out,
                                            A... pred);
/* Every algorithm with an execution policy first: the result of the same
 * call without it. */
#define WL_POLICY_FORM(name) \
  template <class Policy, class... A, class = __wl_if_policy<Policy>> \
  WL_ALGO auto name(const Policy &policy, A &&...args) -> decltype(name(std::forward<A>(args)...));
WL_POLICY_FORM(sort) WL_POLICY_FORM(stable_sort) WL_POLICY_FORM(sort_by_key) WL_POLICY_FORM(stable_sort_by_key)
WL_POLICY_FORM(sequence) WL_POLICY_FORM(fill) WL_POLICY_FORM(uninitialized_fill) WL_POLICY_FORM(generate)
WL_POLICY_FORM(tabulate) WL_POLICY_FORM(shuffle) WL_POLICY_FORM(replace) WL_POLICY_FORM(replace_if)
WL_POLICY_FORM(scatter) WL_POLICY_FORM(scatter_if) WL_POLICY_FORM(reverse) WL_POLICY_FORM(fill_n)
WL_POLICY_FORM(generate_n) WL_POLICY_FORM(for_each) WL_POLICY_FORM(for_each_n) WL_POLICY_FORM(copy)
WL_POLICY_FORM(copy_n) WL_POLICY_FORM(copy_if) WL_POLICY_FORM(transform) WL_POLICY_FORM(transform_if)
WL_POLICY_FORM(inclusive_scan) WL_POLICY_FORM(exclusive_scan) WL_POLICY_FORM(transform_inclusive_scan)
WL_POLICY_FORM(transform_exclusive_scan) WL_POLICY_FORM(inclusive_scan_by_key) WL_POLICY_FORM(exclusive_scan_by_key)
WL_POLICY_FORM(adjacent_difference) WL_POLICY_FORM(gather) WL_POLICY_FORM(gather_if) WL_POLICY_FORM(remove_copy)
WL_POLICY_FORM(remove_copy_if) WL_POLICY_FORM(unique_copy) WL_POLICY_FORM(merge) WL_POLICY_FORM(set_union)
WL_POLICY_FORM(set_intersection) WL_POLICY_FORM(set_difference) WL_POLICY_FORM(remove) WL_POLICY_FORM(remove_if)
WL_POLICY_FORM(unique) WL_POLICY_FORM(find) WL_POLICY_FORM(find_if) WL_POLICY_FORM(find_if_not)
WL_POLICY_FORM(max_element) WL_POLICY_FORM(min_element) WL_POLICY_FORM(partition) WL_POLICY_FORM(stable_partition)
WL_POLICY_FORM(is_sorted_until) WL_POLICY_FORM(adjacent_find) WL_POLICY_FORM(lower_bound) WL_POLICY_FORM(upper_bound)
WL_POLICY_FORM(reduce) WL_POLICY_FORM(transform_reduce) WL_POLICY_FORM(inner_product) WL_POLICY_FORM(count)
WL_POLICY_FORM(count_if) WL_POLICY_FORM(equal) WL_POLICY_FORM(is_sorted) WL_POLICY_FORM(is_partitioned)
WL_POLICY_FORM(all_of) WL_POLICY_FORM(any_of) WL_POLICY_FORM(none_of) WL_POLICY_FORM(binary_search)
WL_POLICY_FORM(minmax_element) WL_POLICY_FORM(mismatch) WL_POLICY_FORM(reduce_by_key) WL_POLICY_FORM(unique_by_key)
WL_POLICY_FORM(unique_by_key_copy)
#undef WL_POLICY_FORM
#undef WL_ALGO
}  // namespace thrust
#endif
