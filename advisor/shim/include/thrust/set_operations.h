#include <thrust/detail/warplint_thrust.h> /* warplint: the whole Thrust stand-in */
